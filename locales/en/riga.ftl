# The Riga Sea Battle board game (docs/rules.md §5): the game's words (src/riga_text.rs)

## The sides
riga-side-north = North
riga-side-south = South

## Ships: the name, the same as an object ("sank …", Russian declines it), the abbreviation
## of docs/rules.md §5 (only read, in a typed order) and the letter on the board (shown
## everywhere a ship is named short: the board, the buttons, the order)
riga-ship-cruiser = cruiser
riga-ship-submarine = submarine
riga-ship-destroyer = destroyer
riga-ship-patrol = patrol ship
riga-ship-minesweeper = minesweeper
riga-ship-acc-cruiser = a cruiser
riga-ship-acc-submarine = a submarine
riga-ship-acc-destroyer = a destroyer
riga-ship-acc-patrol = a patrol ship
riga-ship-acc-minesweeper = a minesweeper
riga-abbr-cruiser = CR
riga-abbr-submarine = SS
riga-abbr-destroyer = DD
riga-abbr-patrol = PS
riga-abbr-minesweeper = MS
riga-glyph-cruiser = C
riga-glyph-submarine = S
riga-glyph-destroyer = D
riga-glyph-patrol = P
riga-glyph-minesweeper = M

## The board
riga-legend =
    C cruiser, S submarine, D destroyer, P patrol ship, M minesweeper; the arrow shows the bow
    CAPITALS South, small letters North; > < and a capital column letter: the last move
    Points: · sea, # land, @ battery, ! under a battery's fire, ^ lighthouse, o start, * mine
riga-fleet = { $side }: { $ships ->
        [one] { $ships } ship
       *[other] { $ships } ships
    } afloat, { $mines ->
        [one] { $mines } mine
       *[other] { $mines } mines
    } left

## Moves. $kind is the moving ship's type (cruiser, submarine, …): Russian verbs take its gender.
riga-move-step = { $side }: { $ship } { $from } → { $to }
riga-move-lay = { $side }: { $ship } { $from } → { $to }, laid a mine on { $from }
riga-move-left = { $side }: { $ship } { $at } turns left
riga-move-right = { $side }: { $ship } { $at } turns right
riga-move-pass = { $side } passes (no move possible)
riga-loss-sunk = { $kind ->
       *[other] sank
    } { $target }
riga-loss-mine = { $kind ->
       *[other] blew up on a mine
    }
riga-loss-battery = { $kind ->
       *[other] was destroyed by a coastal battery
    }

## The end
riga-end-win-north = North wins: South has no ships left
riga-end-win-south = South wins: North has no ships left
riga-end-draw-quiet = A draw: { $moves ->
        [one] { $moves } move
       *[other] { $moves } moves
    } in a row without a loss
riga-end-draw-stuck = A draw: neither side can move

## Why a move is refused
riga-error-form = Not understood: type a point and what to do, e.g. { $example }.
riga-error-off-board = There is no such point: the columns are { $first }–{ $last }, the rows 1–13.
riga-error-no-ship = You have no ship there.
riga-error-over = The game is over.
riga-error-not-your-turn = It is not your turn.
riga-error-blocked = Land or the edge of the board is ahead: the ship cannot go there.
riga-error-own-ship = One of your own ships is ahead.
riga-error-cannot-sink = This ship may not sink the one ahead.
riga-error-destroyer-stern = A destroyer does not sink a ship that shows it its stern.
riga-error-patrol-cruiser = A patrol ship does not sink a cruiser.
riga-error-patrol-bow = A patrol ship does not sink a ship that faces it bow-on.
riga-error-minesweeper-prey = A minesweeper sinks only submarines and minesweepers.
riga-error-not-minesweeper = Only a minesweeper lays mines.
riga-error-no-mines = Both mines are laid already.
riga-error-mined = A mine lies here already.
riga-error-must-move = You may pass only when no move is possible.
riga-error-setup = All 12 ships of the fleet are needed: 1 C, 2 S, 6 D, 2 P, 1 M.
