# Sea Battle — English

## Words of the game (docs/rules.md §1)
game-name = Sea Battle
ship-1 = torpedo boat
ship-2 = destroyer
ship-3 = cruiser
ship-4 = battleship
ship-5 = aircraft carrier
ship-n = { $size }-deck ship
unit-tank = tank
unit-battery = battery
unit-anti-aircraft = anti-aircraft gun
unit-attack-aircraft = attack aircraft
mine = mine
border = border

result-miss = miss
result-hit = hit
result-sunk = sunk ({ $ship })
result-mine = mine!

## Commands
cmd-start = Open the bot
cmd-newgame = Start a new game in this chat
cmd-surrender = Surrender the current game
cmd-cancel = Cancel the game before the battle
cmd-rules = The rules
cmd-help = How to play

welcome = Ahoy! I referee Sea Battle in group chats. Add me to a group and send /newgame there; you will place your fleet here, in private. Or send /play to play against me right now, or /find (the button below) for a duel with a stranger.
help =
    <b>Sea Battle</b>
    /newgame in a group opens a lobby: press Join, and the creator presses Start.
    Each player places their fleet here, in a private chat with me: tap both ends of a ship, or press Random.
    In the battle, tap a cell under the battle message, or reply to it with a cell such as <code>b6</code>.
    A hit or a sink shoots again; a miss passes the turn. /surrender gives up.
    /play starts a game against me (easy, normal, hard, or learning — hard that learns how this chat places its ships): here at once, or in a group with me seated.
    To play a friend without a group, type my name with @ in your chat with them and send the card: the whole game is played in that message.
    /stats shows your games, accuracy and ratings; /top the best players of the chat.
    /find in a private chat with me finds a stranger to play, the nearest rating first; the duel is played there, each on their own board.
    /tournament in a group runs a tournament: players join, the opener picks round robin, Swiss or knockout and starts; the matches are played here one by one, and one message keeps the standings.
    <b>The arsenal</b> (more: /rules arsenal): besides the fleet, 📡 a radar tells how many ship cells a 3×3 square hides, ✈ an air strike shoots a whole 3×3 square, 🚀 a torpedo runs from an edge cell along its row or column to the first ship. Each is once a game and takes the whole turn. It is off until you turn it on: /settings (or the lobby's ⚙ Settings) → Arsenal.
    In the battle tap the weapon under the battle message, then a cell; or reply to the message with it, e.g. <code>radar e5</code>, <code>air strike b2</code>, <code>torpedo a5 →</code> (from a corner an arrow says the way).
rules-classic =
    <b>Classic rules</b>
    Each player hides a 10×10 fleet: one battleship (4 cells), two cruisers (3), three destroyers (2) and four torpedo boats (1).
    Ships are straight and never touch, not even at a corner.
    Hit or sunk: shoot again. Miss: the turn passes. The first to sink the whole enemy fleet wins.

cmd-lang = Choose the language
lang-name = English
lang-choose = Choose the language:
lang-done = Language: English.
rules-this-chat = The next game in this chat:

cmd-settings = Rules of the games here, column letters, the bot's level
settings-alphabet = Column letters for the next games in this chat:
settings-alphabet-done = Columns from now on: { $letters }.

## Ruleset in words
rules-field-classic = classic { $width }×{ $height }, { $ships } ships
rules-field-big = big { $width }×{ $height }, { $ships } ships
rules-field-custom = custom { $width }×{ $height }, { $ships ->
        [one] { $ships } ship
       *[other] { $ships } ships
    }
rules-field-land-sea-air = land, sea and air { $width }×{ $height }, { $ships } units
rules-touching-none = ships never touch
rules-touching-corners = ships may touch at corners
rules-touching-any = ships may touch
rules-timer = { $minutes ->
        [one] { $minutes } minute a turn
       *[other] { $minutes } minutes a turn
    }
rules-no-timer = no turn timer

## Lobby
lobby-title = Sea Battle: a new game
lobby-players = Players: { $count } of { $seats }
lobby-ready = ready
lobby-placing = placing the fleet
lobby-hint-join = Press Join to play. The creator starts when all seats are taken.
lobby-hint-placement = The players are placing their fleets in a private chat with the bot.
lobby-battle-started = The battle has begun — see the next message.
btn-join = Join
btn-start = Start
btn-cancel = Cancel
btn-open-bot = Open the bot
btn-rematch = Rematch
newgame-in-group = Start a game in a group: add me there and send /newgame.
newgame-running = A game is already going on in this chat.
newgame-running-topic = A game is already going on in this topic.
join-done = You are in the game.
join-already = You are already in this game.
join-full = All seats are taken.
join-busy-elsewhere = You are already playing in another chat. Finish that game first.
start-done = Placement begins: check your private chat with the bot.
start-not-full = Not all seats are taken: the game needs { $seats ->
        [one] { $seats } player
       *[other] { $seats } players
    }.
cancel-done = The game is cancelled.
cancel-in-battle = The battle has begun: use /surrender instead.
rematch-done = A new game with the same players.

## Placement editor
editor-title = Your fleet
editor-to-place = Still to place:
fleet-item = { $ship } ×{ $count }
editor-problems = Problems:
editor-complete = The fleet is complete: press Ready.
editor-hint = Tap both ends of a ship to place it; tap a ship to remove it.
editor-pending = First end: { $cell }. Now tap the other end (the same cell for a one-cell ship).
editor-placed = Placed: { $ship }.
editor-second-end = Now tap the other end.
editor-nothing = Nothing to do.
editor-locked = Your fleet is locked.
editor-ready-done = Fleet locked. Good luck!
btn-undo = Undo
btn-clear = Clear
btn-random = Random
btn-perelman = Perelman
btn-ready = Ready

problem-off-field = { $ship } at { $cell }: off the field.
problem-wrong-size = { $ship } at { $cell }: wrong number of cells.
problem-not-connected = { $ship } at { $cell }: its cells are not joined.
problem-shape = { $ship } at { $cell }: this shape is not allowed.
problem-needs-land = { $ship } at { $cell }: must stand on land.
problem-needs-sea = { $ship } at { $cell }: must stand at sea.
problem-overlaps = { $ship } at { $cell }: overlaps the { $other }.
problem-touches-side = { $ship } at { $cell }: touches the { $other } by a side.
problem-touches-corner = { $ship } at { $cell }: touches the { $other } at a corner.
problem-too-many = { $ship } at { $cell }: one too many (the fleet has { $count }).
problem-missing = { $count ->
        [one] one { $ship } is
       *[other] { $count } of type { $ship } are
    } missing.
problem-too-many-mines = Mine at { $cell }: too many mines (at most { $count }).
problem-missing-mines = { $count ->
        [one] One mine is
       *[other] { $count } mines are
    } missing.
problem-border = The land border is not allowed.

## Battle
battle-title = Sea Battle
battle-field-of = Field of { $name }
battle-sunk = fleet sunk
battle-turn-bot = Turn: <b>{ $name }</b>…
battle-turn = Turn: <b>{ $name }</b> — tap a cell or reply with one (e.g. b6).
battle-commitments = Fleet commitments (SHA-256):
log-shot = { $name }: { $cell } — { $result }
log-shot-part = { $cell } — { $result }
log-shots = { $name }: { $shots }
log-gave-up = { $name } gives up { $cell } — { $result }
log-surrendered = { $name } surrenders.
log-forfeit = { $name } ran out of time and loses by forfeit.
log-eliminated = { $name }'s fleet is sunk.
log-reminder = { $name }, half of your time is gone.
answer-miss = { $cell }: miss. The turn passes.
answer-hit = { $cell }: hit! Shoot again.
answer-sunk = { $cell }: sunk, a { $ship }! Shoot again.
answer-sunk-won = { $cell }: sunk, a { $ship }! That was the last of the enemy fleet: you win!
answer-mine = { $cell }: a mine! You give up one of your own cells.
shot-not-your-turn = It is not your turn.
shot-already-known = That cell is already known. Choose another.
shot-off-field = That cell is off the field.
shot-bad-target = That field cannot be shot at.
shot-bad-cell = That is not a cell: write a column and a row, from { $first } to { $last }.
own-field-title = Your fleet
own-field-below = The fleet is placed: your field is in the picture below.
own-field-waiting = Waiting for the other players.
own-field-shoot-group = You shoot in the group.
own-field-shoot-here = You shoot in the message with the fields.
own-field-when = This field is brought up to date when your turn comes after a hit on your fleet, and by the button below.
own-field-refresh = 🔄 Refresh
own-field-refreshed = Your field is brought up to date.
own-field-over = The game is over.
surrender-done = You surrendered.
surrender-not-now = There is nothing to surrender now.

## End
end-winner = { $count ->
        [one] Winner: { $names }!
       *[other] Winners: { $names }!
    }
# Two or more names or things in a row: "Anna, Boris and Clara" ($first holds all but the last).
list-and = { $first } and { $last }
end-no-winner = The game is over.
end-cancelled = The game was cancelled.
called-off-chat = Your game in the group was called off: the bot can no longer write there. Nobody's rating changed.
called-off-topic = Your game was called off: its topic in the group was closed or deleted. Nobody's rating changed. A reopened topic takes new games.
end-log = The game, move by move:
end-reveal = The fleets. Each commitment is the SHA-256 of the line under the fleet (the layout, "|" and the salt).
end-mines = mines

## Errors
error-unavailable = The bot is having trouble right now. Please try again in a moment.
error-busy = Too many moves at once. Please try again.
error-game-over = This game is over.
error-out-of-date = This button is out of date.
error-undecodable = This game could not be read and was closed. Sorry! Start a new one with /newgame.
error-unknown-button = This button is not from this bot.
error-wrong-message = This button does not belong to this message.
error-anonymous = You write as the group or a channel, so I cannot tell who you are: to play, write from your own account (an anonymous admin can turn “Remain anonymous” off).
error-not-a-player = You are not playing in this game.
error-creator-only = Only the game's creator can do that.
error-no-game = There is no game going on here.

cmd-play = Play against the bot
cmd-play-group = A game against the bot in this chat
ai-name = 🤖 Bot ({ $level })
ai-name-nth = 🤖 Bot { $n } ({ $level })
ai-level-easy = easy
ai-level-normal = normal
ai-level-hard = hard
ai-level-learning = learning
play-bad-level = I don't know the level “{ $level }”: try /play easy, /play normal, /play hard or /play learning.
play-started = A game against the bot ({ $level }). Place your fleet below; the battle begins as soon as you press Ready.
btn-play-bot = 🤖 Play against the bot
ai-seated = The bot takes a seat.
settings-ai-level = How well the bot plays:
settings-ai-level-done = The bot will play { $level }.

btn-confirm = ✔ Ship ({ $count })
btn-mines = 💣 Mines
btn-border = 🏝 Border
btn-random-border = 🎲 Border
fleet-mines = { $count ->
        [one] { $count } mine
       *[other] { $count } mines
    }
editor-hint-cells = Tap the cells of a ship, then ✔ Ship; tap a ship to remove it.
editor-shapes-straight = Ships are straight lines.
editor-shapes-bent = Ships may be straight, or the L of three, or the L, square or zigzag of four.
editor-shapes-free = Ships may take any shape whose cells join by their sides.
editor-hint-mine = Tap a cell to lay a mine there; tap 💣 Mines again to go back to ships.
editor-hint-border = Tap a sea cell to raise the land of its column by a row, a land cell to lower it; tap 🏝 Border again to go back to ships.
editor-legend-land = , is land (only you see your border); ships stay at sea, tanks, batteries and anti-aircraft guns on land, aircraft anywhere.
editor-too-many-cells = { $count ->
        [one] A ship has at most { $count } cell: press ✔ Ship or untap one.
       *[other] A ship has at most { $count } cells: press ✔ Ship or untap one.
    }

btn-replay = 🎞 Replay
replay-title = 🎞 Replay of game { $game }: { $players }
replay-step = Step { $step } of { $count }
replay-start = The fleets before the first shot. ▶ steps through the game.
replay-check = To check a fleet: the SHA-256 of the line under it (for example <code>printf '%s' 'line' | sha256sum</code>) must equal the commitment shown in the battle, which is repeated here.
replay-expired = This replay does not exist or has expired: finished games are kept { $days ->
    [one] { $days } day
   *[other] { $days } days
}.
replay-not-finished = This game is not over yet: its replay comes at the end.
replay-none = This game has nothing to replay: it was called off before its battle, or played before replays were kept.
replay-riga-start = The ships on their start points. ▶ steps through the game.
newgame-own-topic = The game is in a topic of its own: “{ $topic }”.
topic-name-lobby = ⚓ Sea Battle: { $name }
replay-reveal = The reveal
replay-to-reveal = ▶ shows the fleets and how to check them.
