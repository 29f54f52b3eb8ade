# Sea Battle — English: a group's tournament

## The tournament's message
tour-head = <b>🏆 Tournament</b> · { $format } · { $rounds ->
        [one] one round
       *[other] { $rounds } rounds
    }
tour-format-round-robin = round robin
tour-format-swiss = Swiss
tour-format-elimination = knockout
tour-runner = Run by { $name }.
tour-signed-up = Signed up: { $count } of { $max }
tour-hint-signup = Press Join to take part. The runner (or an admin) picks the format and starts; it takes two players at least. Each match is a duel on this chat's board, one at a time, with this chat's rules.
tour-topic-name = 🏆 Round { $round }: { $a } — { $b }
tour-round = Round { $round } of { $rounds }
tour-round-over = Round { $round } of { $rounds } is over: the standings.
tour-pair = { $a } — { $b }
tour-pair-playing = ▶️ { $a } — { $b }: playing now
tour-pair-won = { $winner } beat { $loser }
tour-pair-forfeit = { $winner } beat { $loser } (gave up, ran out of time or called it off)
tour-bye = { $name }: a bye (one point)
tour-standings = Standings
tour-standing = { $place }. { $name } — { $wins ->
        [one] one win
       *[other] { $wins } wins
    }
tour-standing-buchholz = { $place }. { $name } — { $points ->
        [one] one point
       *[other] { $points } points
    }, Buchholz { $buchholz }
tour-over = The tournament is over.
tour-podium-place = { $place ->
        [1] 🥇
        [2] 🥈
       *[other] 🥉
    } { $names }
tour-picture-title = Tournament · { $format }
tour-picture-buchholz = Buchholz { $buchholz }
tour-picture-wins = { $wins ->
        [one] one win
       *[other] { $wins } wins
    }
tour-cancelled = The tournament was called off.

## Buttons
btn-tour-join = Join
btn-tour-leave = Leave
btn-tour-start = Start
btn-tour-cancel = Call off

## Answers
tour-joined = You are in.
tour-left = You are out.
tour-format-set = The format is set.
tour-started = The tournament has begun: the first match is on.
tour-cancelled-answer = The tournament is called off.
tour-open-bot = Open a private chat with me and press Start first: that is where you place your fleet. Then press Join again.
tour-open-bot-first = Open a private chat with me and press Start first: that is where the players place their fleets. Then send /tournament again.
tour-in-private = Tournaments are played in groups: send /tournament in a group.
tour-already = This chat has a tournament on: play it out or call it off first.
tour-game-running = A game is on in this chat: the tournament can open when it is over.
tour-match = <b>Round { $round }</b>: { $a } against { $b }. Place your fleets in the private chat with me; the first shot is here.
tournament-refused-not-open = The sign-up is closed.
tournament-refused-already-in = You have signed up already.
tournament-refused-not-in = You have not signed up.
tournament-refused-full = The tournament is full.
tournament-refused-too-few = A tournament takes two players at least.
tournament-refused-too-many-for-format = Too many players have signed up for this format.
tournament-refused-not-runner = Only the one who opened the tournament, or an admin, may do that.
tournament-refused-not-running = The tournament is not running.
tournament-refused-unknown-game = This game is not a match of the tournament.
tournament-refused-not-in-match = Only the match's players count.
tour-out-of-date = This tournament is over; send /tournament for a new one.
cmd-tournament = A tournament for this chat: sign-up, rounds, standings
