# The Riga game in Telegram (src/telegram/riga.rs)

# Words after /newgame or /play that ask for the Riga game.
rg-game-words = riga
rg-title = ⚓ Sea Battle — the Riga game
rg-lobby-title = ⚓ New game: Sea Battle, the Riga board game
rg-lobby-rules = A 12 × 13 board with land, batteries and lighthouses; 12 ships and 2 mines each; ships move, turn and sink each other by a table (/rules). Two players.
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
rg-end-draw = 🤝 A draw.
rg-end-surrendered = 🏳 { $name } surrenders. { $winner } wins.
rg-end-timeout = ⏰ { $name } ran out of time. { $winner } wins.
rg-reminder = ⏰ { $name }, your move: { $seconds } s left.
rg-btn-forward = ⬆ forward
rg-btn-left = ↶ left
rg-btn-right = ↷ right
rg-btn-mine = 💣 mine
rg-btn-pass = Pass (no moves)
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
rg-typed-form = That is not a move. Write the ship's point and the move: "f11 forward", "f11 left", "f11 right", "f11 mine" or "pass".
rg-typed-off-board = No such point: columns a–l, rows 1–13.
rg-refused-no-ship = None of your ships is there.
rg-refused-blocked = Not there: land or the edge of the board.
rg-refused-own-ship = One of your ships is there.
rg-refused-cannot-sink = This ship cannot sink the one there (the table is in /rules).
rg-refused-not-minesweeper = Only the minesweeper lays mines.
rg-refused-no-mines = Both mines are laid already.
rg-refused-mined = A mine lies here already.
rg-refused-must-move = You may pass only with no move left.
newgame-bad-arg = I do not know that game: "{ $arg }". Try /newgame or /newgame riga.
