# Рижская игра в Telegram (src/telegram/riga.rs)

# Words after /newgame or /play that ask for the Riga game.
rg-game-words = riga рига рижская рижский
rg-title = ⚓ Морской бой — рижская игра
rg-lobby-title = ⚓ Новая игра: морской бой, рижская настольная игра
rg-lobby-rules = Поле 12 × 13 с сушей, батареями и маяками; у каждого 12 кораблей и 2 мины; корабли ходят, поворачивают и топят друг друга по таблице (/rules). Двое игроков.
rg-btn-riga = ⚓ Рижская игра
rg-btn-seabattle = 🚢 Обычный морской бой
rg-on = Теперь это рижская игра.
rg-off = Теперь это обычный морской бой.
rg-two-players = В рижскую игру играют вдвоём: сначала уберите лишних игроков.
rg-setup-intro = Игроки расставляют корабли на своих стартовых линиях в личном чате с ботом. Флоты откроются одновременно.
rg-ordering = расставляет
rg-cancelled = Игра отменена.
rg-afloat = { $ships ->
        [one] { $ships } корабль
        [few] { $ships } корабля
       *[many] { $ships } кораблей
    }
rg-turn = Ходит <b>{ $side }</b> — { $name }. Нажмите ход под сообщением или ответьте на него, например «е11 вперёд». Без потерь подряд: { $quiet } из { $limit } ходов.
rg-end-win = 🏆 Победил { $side } — { $name }: флот противника уничтожен.
rg-end-draw = 🤝 Ничья.
rg-end-surrendered = 🏳 { $name } сдаётся. Победа — { $winner }.
rg-end-timeout = ⏰ У { $name } вышло время хода. Победа — { $winner }.
rg-reminder = ⏰ { $name }, ваш ход: осталось { $seconds } с.
rg-btn-forward = ⬆ вперёд
rg-btn-left = ↶ влево
rg-btn-right = ↷ вправо
rg-btn-mine = 💣 мина
rg-btn-pass = Пас (ходов нет)
rg-move-done = Ход сделан.
rg-dm-order = Вы играете за сторону «{ $side }». Ваши корабли стоят на стартовой линии (с точки { $first } на восток). Нажмите две точки, чтобы поменять корабли местами; 🎲 — случайный порядок; «Готово» — закрепить.
rg-dm-locked = Расстановка закреплена ({ $side }). Ждём соперника: флоты откроются вместе.
rg-dm-battle-group = Бой идёт в группе. Вы — { $side }.
rg-dm-battle-here = Бой идёт в этом чате. Вы — { $side }.
rg-dm-over = Игра окончена.
rg-btn-shuffle = 🎲 Случайно
rg-btn-lock = ✅ Готово
rg-locked = Расстановка закреплена.
rg-play-started = Рижская игра с ботом ({ $level }). Расставьте корабли ниже и нажмите «Готово».
rg-typed-form = Не понял ход. Пишите точку корабля и ход: «е11 вперёд», «е11 влево», «е11 вправо», «е11 мина» или «пас».
rg-typed-off-board = Такой точки нет на поле: столбцы а–м, ряды 1–13.
rg-refused-no-ship = Там нет вашего корабля.
rg-refused-blocked = Туда нельзя: суша или край поля.
rg-refused-own-ship = Там стоит ваш корабль.
rg-refused-cannot-sink = Этот корабль не может потопить тот, что стоит там (таблица в /rules).
rg-refused-not-minesweeper = Мины ставит только тральщик.
rg-refused-no-mines = Обе мины уже поставлены.
rg-refused-mined = Здесь уже стоит мина.
rg-refused-must-move = Пасовать можно только без ходов.
newgame-bad-arg = Не знаю такой игры: «{ $arg }». Попробуйте /newgame или /newgame riga.
