# Sea Battle — English: the quick match with a stranger

## Refusals
quick-refused-already-waiting = You are looking for an opponent already.
quick-refused-already-paired = An opponent is found: your duel is being opened.
quick-refused-not-waiting = You are not looking for an opponent.

## Looking for an opponent
cmd-find = A duel with a stranger, here in private
quick-in-private = A duel with a stranger is found in a private chat with me: send /find there.
quick-busy = You are in a game already: finish it (or /surrender), then /find.
quick-waiting = 🔎 Looking for an opponent: { $rules }, your rating { $rating }. { $count ->
        [one] You are the only one waiting under these rules for now.
       *[other] { $count } are waiting under these rules.
    } The closest rating is found first, then anyone.
btn-quick-find = 🔎 Find an opponent
btn-quick-cancel = Stop looking
quick-cancelled = You stopped looking for an opponent.
quick-alone = Nobody has come for a minute. Keep waiting, or play me meanwhile at about your level: /play { $level }
quick-found = ⚔️ Found: <b>{ $name }</b> (rating { $rating }). Place your fleet below; then both of you shoot from your own board here.

## The board's reactions and Block
quick-reaction = { $name }: { $reaction }
quick-reaction-sent = Sent.
quick-reaction-lately = Sent already a moment ago.
quick-block = 🚫 Block { $name }
quick-blocked = You will never be paired with them again.
