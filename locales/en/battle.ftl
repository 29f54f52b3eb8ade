# Sea Battle — English: the battle's variants (free-for-all, teams, salvo, mines)

## The group's battle message
battle-turn-at = Turn: <b>{ $name }</b>, at the field of { $target } — tap a cell or reply with one (e.g. b6).
battle-field-of-team = Field of { $name } (team { $team })
battle-legend = · not shot  • miss  - known empty  X hit  # sunk
battle-legend-mine = * mine
battle-legend-salvo = + shot in a salvo
battle-log-shot-at = { $name } → { $target }: { $cell } — { $result }
battle-log-shots-at = { $name } → { $target }: { $shots }
battle-more = …and { $count ->
        [one] { $count } more result
       *[other] { $count } more results
    } in the next update.
battle-target-chosen = Aiming at the field of { $name }.
battle-answer-at = { $target } — { $answer }
battle-eliminated = The fleet of { $name } is sunk!
battle-wrong-shot = Shots in this game are salvoes: pick the cells, then press Fire.

## Private chats
battle-teammate-field = Field of your teammate { $name }

## Salvo
salvo-turn = Turn: <b>{ $name }</b>, at the field of { $target } — pick { $count ->
        [one] one cell
       *[other] { $count } cells
    }, then press Fire (or reply with them, e.g. b6 c7 d8).
salvo-fire = Fire ({ $picked }/{ $total })
salvo-log = { $name } → { $target }: a salvo of { $shots } — { $hits ->
        [0] no hits
        [one] one hit
       *[other] { $hits } hits
    }{ $rest }
salvo-log-sunk = , sunk: { $ships }
salvo-log-mines = { $mines ->
        [one] , a mine
       *[other] , { $mines } mines
    }
salvo-answer-mine = Salvo: { $hits ->
        [0] no hits
        [one] one hit
       *[other] { $hits } hits
    }{ $rest }! Give up { $mines ->
        [one] one cell
       *[other] { $mines } cells
    } of your fleet: I have asked you in our private chat.
salvo-answer = Salvo: { $hits ->
        [0] no hits
        [one] one hit
       *[other] { $hits } hits
    }{ $rest }. The turn passes.
salvo-picked = Picked: { $cells } ({ $picked }/{ $total }).
salvo-unpicked = { $cell } dropped ({ $picked }/{ $total }).
salvo-too-many = You have picked { $total } already: tap a picked cell to drop it, or press Fire.
salvo-too-few = Pick { $count ->
        [one] one more cell
       *[other] { $count } more cells
    } first.
salvo-bad-cells = A salvo takes { $count ->
        [one] one cell
       *[other] { $count } different cells
    } not shot before, e.g. b6 c7 d8.

## Mines
mine-log-choice = { $name } hit a mine and gives up { $count ->
        [one] one cell
       *[other] { $count } cells
    } of their own fleet ({ $seconds } s to choose).
mine-log-random = { $name } did not choose in time: { $cell } is taken — { $result }
mine-waiting = <b>{ $name }</b> hit a mine and is choosing a cell of their own fleet to give up.
mine-dm = <b>A mine!</b> Give up { $count ->
        [one] one cell
       *[other] { $count } cells
    } of your fleet: tap one below within { $seconds } s, or a random one is taken.
mine-dm-done = You gave up { $cell } — { $result }.
mine-dm-timed-out = Time ran out: { $cell } was taken — { $result }.
mine-pending = Wait: a cell is being given up after a mine.
mine-not-yours = It is not you who gives up a cell now.
mine-not-your-cell = That is not an unhit cell of your fleet.
mine-no-choice = No cell is to be given up now.

## The arsenal (docs/rules.md §3.8): the weapons' names and the refusals of their use.
weapon-radar = radar
weapon-air-strike = air strike
weapon-torpedo = torpedo
weapon-no-arsenal = This game is played without the arsenal.
weapon-used-up = You have no { $weapon } left.
weapon-no-new-cell = Every cell it would reach is known already: choose another.
torpedo-not-from-edge = A torpedo starts from a cell on the edge of the field.
torpedo-needs-heading = From a corner, say which way the torpedo runs.
torpedo-wrong-heading = A torpedo runs away from the edge it starts at.

rules-arsenal =
    <b>The arsenal</b>
    Besides the fleet each player has three weapons, each once a game (or twice, if the lobby says so). A weapon is the whole turn: the turn passes afterwards.
    📡 Radar: a 3×3 square of an enemy field; the group hears how many ship cells in it are not hit yet (mines are not counted). A 0 marks the whole square empty.
    ✈ Air strike: shoots every new cell of a 3×3 square, each with its own answer.
    🚀 Torpedo: from a cell on the edge of an enemy field along its row or column, away from that edge (from a corner you choose the way). It passes cells already hit and stops at the first ship cell not hit yet, or at a mine, or leaves the field; every cell it crossed is then known empty.
    A mine reached by an air strike or a torpedo goes off as after a shot. Not played with salvoes, nor on land, sea and air.
rules-arsenal-words = arsenal arsenals weapons
settings-words-arsenal = { $count ->
        [one] the arsenal: radar, air strike and torpedo, once each
       *[other] the arsenal: radar, air strike and torpedo, { $count } of each
    }
weapon-who-at = { $name } → { $target }
weapon-log-radar = 📡 { $who } — radar { $cell }: { $count ->
        [one] { $count } ship cell
       *[other] { $count } ship cells
    }
weapon-log-air-strike = ✈ { $who } — air strike { $cell }: { $cells }
weapon-log-torpedo = 🚀 { $who } — torpedo { $cell } { $arrow } { $end }
weapon-torpedo-out = miss, out of the field
weapon-armed = { $weapon } armed: tap a cell (tap the button again to put it down).
weapon-disarmed = Put down: the next cell is a shot.
torpedo-choose-heading = From the corner { $cell }: choose which way the torpedo runs, under the field.
btn-radar = 📡 Radar ({ $left })
btn-air-strike = ✈ Air strike ({ $left })
btn-torpedo = 🚀 Torpedo ({ $left })
weapons-left = Arsenal: { $list }
weapon-typed-radar = radar
weapon-typed-air = air
weapon-typed-air-strike = strike airstrike air-strike
weapon-typed-torpedo = torpedo
weapon-typed-bad = A weapon is typed with its cell, e.g. "radar e5", "air strike b2" or "torpedo a5 →" (from a corner, an arrow → ← ↑ ↓ says the way).
