# Sea Battle — English: the quick match with a stranger

## Refusals
quick-refused-already-waiting = You are looking for an opponent already.
quick-refused-already-paired = An opponent is found: your duel is being opened.
quick-refused-not-waiting = You are not looking for an opponent.
