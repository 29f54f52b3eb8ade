# The Mini App's page (src/view/webapp.rs).
webapp-lobby = Игра ещё не началась.
webapp-waiting = Ваш флот готов. Ждём остальных…
webapp-placing = Игроки расставляют флот.
webapp-your-turn = Ваш ход: нажмите клетку поля противника.
webapp-turn-of = Стреляет { $name }.
webapp-over = Игра окончена.
webapp-dock = Перетащите корабль на поле:
webapp-drag-hint = Нажмите на корабль, чтобы повернуть его; утащите с поля, чтобы убрать.
webapp-open = 📱 Живое поле
webapp-open-editor = 📱 Расставить перетаскиванием
webapp-conflict = Слишком близко к другому кораблю: отодвиньте.
webapp-riga-order = Ваш порядок: нажмите две точки старта, чтобы поменять корабли местами, затем «Готово».
webapp-riga-your-turn = Ваш ход: нажмите свой корабль, затем его ход.
