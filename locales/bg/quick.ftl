# Морска битка — български: бърза игра с непознат

## Откази
quick-refused-already-waiting = Вече търсите противник.
quick-refused-already-paired = Противникът е намерен: дуелът ви се отваря.
quick-refused-not-waiting = Не търсите противник.
