# The Riga game in Telegram (src/telegram/riga.rs)

# Words after /newgame or /play that ask for the Riga game.
rg-game-words = riga
rg-title = ⚓ Sea Battle — the Riga game
rg-lobby-title = ⚓ New game: Sea Battle, the Riga board game
rg-lobby-rules = A 12 × 13 board with land, batteries and lighthouses; 12 ships and 2 mines each; ships move, turn and sink each other by a table (/rules riga). Two players.
rg-btn-riga = ⚓ Riga game
rg-btn-seabattle = 🚢 Classic Sea Battle
rg-on = This is now a Riga game.
rg-off = This is now a classic Sea Battle.
rg-two-players = The Riga game is for two: remove the extra players first.
rg-setup-intro = The players order their ships on their start lines in their private chats with the bot. Both fleets are revealed together.
rg-ordering = ordering
rg-cancelled = The game was called off.
rg-afloat = { $ships ->
        [one] { $ships } ship
       *[other] { $ships } ships
    }
rg-turn = <b>{ $side }</b> to move — { $name }. Tap a move under this message or reply to it, e.g. "f11 forward". Moves in a row with no loss: { $quiet } of { $limit }.
rg-end-win = 🏆 { $side } wins — { $name }: the enemy fleet is sunk.
rg-end-draw = A draw.
rg-end-surrendered = 🏳 { $name } surrenders. { $winner } wins.
rg-end-timeout = ⏰ { $name } ran out of time. { $winner } wins.
rg-reminder = ⏰ { $name }, your move: { $seconds } s left.
rg-btn-forward = ⬆ forward
rg-btn-left = ↶ left
rg-btn-right = ↷ right
rg-btn-mine = 💣 mine
rg-btn-pass = Pass (no moves)
rg-typed-example = f11 forward
rg-move-done = Move made.
rg-dm-order = You play { $side }. Your ships stand on your start line (from point { $first } eastwards). Tap two points to swap their ships; 🎲 for a random order; Ready to lock it.
rg-dm-locked = Your order is locked ({ $side }). Waiting for the opponent: both fleets are revealed together.
rg-dm-battle-group = The battle is on in the group. You are { $side }.
rg-dm-battle-here = The battle is on in this chat. You are { $side }.
rg-dm-over = The game is over.
rg-btn-shuffle = 🎲 Random
rg-btn-lock = ✅ Ready
rg-locked = Your order is locked.
rg-play-started = A Riga game against the bot ({ $level }). Order your ships below and tap Ready.
newgame-bad-arg = I do not know that game: "{ $arg }". Try /newgame or /newgame riga.
rg-rules-hint = The Riga board game: /rules riga
rg-rules =
    <b>The Riga game (Straume, 1986)</b>
    The board: 12 × 13 points with land, coastal batteries and two lighthouses. Each side has 12 ships: a cruiser (C), 2 submarines (S), 6 destroyers (D), 2 patrol ships (P), a minesweeper (M) — and 2 mines.
    Each player orders their ships in secret on their 12 start points, bows towards the enemy; both fleets are revealed together, the first move goes by lot.
    A move: one ship steps forward the way its bow points, or turns 90° in place. No reversing, no diagonals, not onto land or an own ship.
    A step onto an enemy ship sinks it if the table allows: cruisers and submarines sink any ship; a destroyer any ship not showing it its stern; a patrol ship any but a cruiser, and only if it does not face it bow-on; a minesweeper only a submarine or a minesweeper.
    Mines: a minesweeper stepping forward leaves a mine on the point it left (two at most). Any other ship on a mine is lost with it; a minesweeper sweeps it.
    Batteries: a ship ending its move on a red point of the enemy's half is destroyed (also when it sank a ship there).
    Whoever sinks the whole enemy fleet wins. No move: pass; if neither can move, or 60 moves in a row pass with no ship lost, it is a draw.
    Moves: the buttons under the game's message, or a reply to it: "f11 forward", "f11 left", "f11 right", "f11 mine", "pass".
