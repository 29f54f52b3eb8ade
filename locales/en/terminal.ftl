# Sea Battle in the terminal: `morskoy-boy play` (src/terminal.rs)

term-usage =
    Sea Battle against the computer, in the terminal (or the Riga board game: --game riga).
    Usage: morskoy-boy play [--game seabattle|riga] [--lang ru|bg|en] [--level easy|normal|hard|learning] [--seed N] [--arsenal 0|1|2]
      --game    which game: seabattle (default) or riga, the Riga board game of 1986
      --lang    the language (default: from LANG)
      --level   how well the computer plays (default: normal)
      --seed    the same number gives the same game (also MB_SEED)
      --arsenal the arsenal: 1 or 2 radars, air strikes and torpedoes each (default 0)
term-bad-option = Unknown option: { $option }. Try: morskoy-boy play --help
term-bad-value = { $option } does not take “{ $value }”. Try: morskoy-boy play --help
term-missing-value = { $option } needs a value. Try: morskoy-boy play --help
term-level-easy = easy
term-level-normal = normal
term-level-hard = hard
term-level-learning = learning (it learns from games in chats; here it plays as hard)
term-title = Sea Battle against the computer, level: { $level }.
term-seed = Seed: { $seed } (play the same game again with --seed { $seed }).
term-layout-prompt = Enter — take this layout, r — another random one, p — Perelman's layout, q — quit:
term-layout-unknown = Press Enter, or type r, p or q.
term-own-field = Your fleet
term-enemy-field = The computer's waters
term-legend = O ship, X hit, # sunk, • miss, - empty by a sunk ship, · not known yet
term-afloat = { $ships ->
        [one] { $ships } ship afloat
       *[other] { $ships } ships afloat
    }
term-first-you = The lot says: you shoot first.
term-first-ai = The lot says: the computer shoots first.
term-prompt = Your shot (a cell such as { $example }; q — quit):
term-you-shot = You: { $cell } — { $result }
term-ai-shot = Computer: { $cell } — { $result }
term-bad-cell = “{ $input }” is not a cell: type a column letter and a row number, from { $first } to { $last }.
term-unknown-column = There is no column “{ $column }” on this field: the columns are { $first } to { $last }.
term-row-off-field = There is no row { $row } on this field: the rows are 1 to { $rows }.
term-already-shot = { $cell } is already shot at or known to be empty: choose another cell.
term-refused = The move was not taken: { $reason }
term-won = You won!
term-lost = The computer won.
term-shots = You fired { $you ->
        [one] { $you } shot
       *[other] { $you } shots
    }, the computer { $ai ->
        [one] { $ai } shot
       *[other] { $ai } shots
    }.
term-quit = Game abandoned. Come back any time: morskoy-boy play

## The Riga board game: `morskoy-boy play --game riga` (src/riga_terminal.rs)
term-riga-title = The Riga Sea Battle board game against the computer, level: { $level }.
term-riga-sides = You are South (at the bottom, capital letters); the computer is North (at the top, small letters).
term-riga-order = Your ships, west to east: { $order }
term-riga-setup-prompt = Enter — take this order, r — shuffle again, or type the 12 ships' letters west to east (e.g. { $example }); q — quit:
term-riga-setup-unknown = Not understood: press Enter, type r or q, or the letters of all 12 ships west to east, e.g. { $example }.
term-riga-first-you = The lot says: you move first.
term-riga-first-ai = The lot says: the computer moves first.
term-riga-example = e11 forward
term-riga-prompt = Your move: a point and what to do — f forward, l left, r right, m lay a mine (e.g. { $example }); ? — the legend, q — quit:
term-riga-quit = Game abandoned. Come back any time: morskoy-boy play --game riga
term-turns = Turns: yours { $you }, the computer's { $ai }.
term-prompt-arsenal = Your move: a cell such as { $example }, or a weapon — radar { $example }, air strike { $example }, torpedo from an edge cell (a corner takes an arrow: torpedo a1 →). Left: 📡{ $radar } ✈{ $air } 🚀{ $torpedo }; q — quit:
term-name-you = You
term-name-ai = Computer
