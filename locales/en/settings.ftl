# Sea Battle — English: the settings panel (/settings, the lobby's ⚙ button)

## Buttons
settings-open = ⚙ Settings
settings-done = ✅ Done
settings-back = ‹ Back
settings-option = { $option }: { $value }
settings-opt-field = Field
settings-opt-touching = Touching
settings-opt-shapes = Shapes
settings-opt-salvo = Salvo
settings-opt-mines = Mines
settings-opt-arsenal = Arsenal
settings-opt-players = Players
settings-opt-timer = Timer
settings-shapes-straight = straight ships
settings-shapes-bent = bent ships too (L, square, zigzag)
settings-shapes-free = ships of any shape
settings-field-classic = classic 10×10
settings-field-big = big 15×15
settings-field-land-sea-air = land, sea and air 20×15
settings-field-custom = custom
settings-width = width { $width }
settings-height = height { $height }
settings-width-minus = width −
settings-width-plus = width +
settings-height-minus = height −
settings-height-plus = height +
settings-add-ship = +{ $size }
settings-remove-ship = ⌫ Remove the last ship
settings-salvo-off = no salvo
settings-salvo-shots = { $shots ->
        [one] salvo of { $shots } shot
       *[other] salvo of { $shots } shots
    }
settings-salvo-value-off = off
settings-salvo-value = { $shots ->
        [one] { $shots } shot
       *[other] { $shots } shots
    }
settings-minus = −
settings-plus = +
settings-mines = { $mines ->
        [0] no mines
        [one] { $mines } mine
       *[other] { $mines } mines
    }
settings-players-duel = duel
settings-players-ffa = free-for-all, { $players } players
settings-players-teams = teams, 2 against 2
settings-swap = ⇄ { $a } and { $b }

## Texts
settings-title = ⚙ Settings of this chat
settings-next-games = The next games here:
settings-columns = Columns: { $letters }
settings-bot-level = The bot plays: { $level }
settings-board = Fields: { $board }
settings-board-picture = 🖼 as a picture
settings-board-text = 🔤 as text
settings-hint-main = Tap an option to change it. Done closes the settings.
settings-hint-custom = Custom field: width and height from 5 to 26; add ships with +1…+5 and take the last one back with ⌫. A fleet is taken only if it can be placed.
settings-lobby-open = ⚙ The creator is choosing the rules.
settings-team-a = Team A:
settings-team-b = Team B:
settings-in-lobby = The settings of this game are open in its message above.
settings-lobby-creator-only = A game is being set up here: only its creator can change its rules.

## Answers
settings-saved = Chosen: { $value }
settings-closed = Settings closed.
settings-swapped = Seats { $a } and { $b } changed places.
settings-error-side = The width and height must be from { $min } to { $max }.
settings-error-no-ships = The fleet needs at least one ship.
settings-error-ship-size = A ship of { $size } cells does not fit this field.
settings-error-fleet-too-large = The fleet and the mines take more cells than the field has.
settings-error-salvo = A salvo is from 1 to 10 shots.
settings-error-mines = Each player has 0 to 2 mines.
settings-error-players = A free-for-all is for 3 or 4 players.
settings-error-no-layout = No legal layout exists: these ships cannot be placed on this field under these rules. Remove a ship, make the field larger or let ships touch.
settings-error-seated = { $count ->
        [one] { $count } player is seated
       *[other] { $count } players are seated
    }, but this game has { $seats ->
        [one] { $seats } seat
       *[other] { $seats } seats
    }.
settings-error-not-custom = First choose a custom field.
settings-error-land-sea-air = In land, sea and air the units have their own shapes and never touch.
settings-error-private = Against the bot you play a duel.

## The ruleset in words (the lobby, /rules)
settings-words-fleet = fleet { $sizes }
settings-words-shapes-bent = ships may bend (L, square, zigzag)
settings-words-shapes-free = ships of any shape
settings-words-salvo = { $shots ->
        [one] salvoes of { $shots } shot
       *[other] salvoes of { $shots } shots
    }
settings-words-mines = { $mines ->
        [one] { $mines } mine each
       *[other] { $mines } mines each
    }
settings-words-ffa = free-for-all of { $players } players
settings-words-teams = two teams of two
settings-own-topics = A topic of its own for each game
settings-own-topics-on = each game in a topic of its own
settings-own-topics-off = games where they are started
settings-error-arsenal = The arsenal holds 1 or 2 of each weapon.
settings-error-arsenal-salvo = The arsenal is not played with salvoes: turn one of them off first.
settings-error-arsenal-terrain = The arsenal is not played on land, sea and air: a torpedo's run would show the secret border.
settings-arsenal = { $count ->
        [0] off
        [one] radar, air strike, torpedo: once each
       *[other] radar, air strike, torpedo: { $count } of each
    }
