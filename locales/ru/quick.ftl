# Морской бой — русский: быстрая игра с незнакомцем

## Отказы
quick-refused-already-waiting = Вы уже ищете соперника.
quick-refused-already-paired = Соперник найден: ваша дуэль открывается.
quick-refused-not-waiting = Вы не ищете соперника.
