# Рижката игра в Telegram (src/telegram/riga.rs)

# Words after /newgame or /play that ask for the Riga game.
rg-game-words = riga рига рижка рижки
rg-title = ⚓ Морска битка — рижката игра
rg-lobby-title = ⚓ Нова игра: морска битка, рижката настолна игра
rg-lobby-rules = Поле 12 × 13 със суша, батареи и фарове; всеки има 12 кораба и 2 мини; корабите се движат, завиват и потапят по таблица (/rules). Двама играчи.
rg-btn-riga = ⚓ Рижката игра
rg-btn-seabattle = 🚢 Обикновена морска битка
rg-on = Сега това е рижката игра.
rg-off = Сега това е обикновена морска битка.
rg-two-players = Рижката игра е за двама: първо махнете излишните играчи.
rg-setup-intro = Играчите нареждат корабите си на стартовите линии в личния чат с бота. Флотите се разкриват едновременно.
rg-ordering = нарежда
rg-cancelled = Играта е отменена.
rg-afloat = { $ships ->
        [one] { $ships } кораб
       *[other] { $ships } кораба
    }
rg-turn = На ход е <b>{ $side }</b> — { $name }. Натиснете ход под съобщението или отговорете на него, например „е11 напред“. Без загуби подред: { $quiet } от { $limit } хода.
rg-end-win = 🏆 Победи { $side } — { $name }: флотът на противника е унищожен.
rg-end-draw = 🤝 Равен.
rg-end-surrendered = 🏳 { $name } се предава. Победа за { $winner }.
rg-end-timeout = ⏰ Времето за ход на { $name } изтече. Победа за { $winner }.
rg-reminder = ⏰ { $name }, ваш ход: остават { $seconds } с.
rg-btn-forward = ⬆ напред
rg-btn-left = ↶ наляво
rg-btn-right = ↷ надясно
rg-btn-mine = 💣 мина
rg-btn-pass = Пас (няма ходове)
rg-move-done = Ходът е направен.
rg-dm-order = Играете за страна „{ $side }“. Корабите ви стоят на стартовата линия (от точка { $first } на изток). Натиснете две точки, за да размените корабите; 🎲 — случаен ред; „Готово“ — потвърждава.
rg-dm-locked = Подредбата е потвърдена ({ $side }). Чакаме противника: флотите се разкриват заедно.
rg-dm-battle-group = Боят е в групата. Вие сте { $side }.
rg-dm-battle-here = Боят е в този чат. Вие сте { $side }.
rg-dm-over = Играта свърши.
rg-btn-shuffle = 🎲 Случайно
rg-btn-lock = ✅ Готово
rg-locked = Подредбата е потвърдена.
rg-play-started = Рижката игра срещу бота ({ $level }). Подредете корабите по-долу и натиснете „Готово“.
rg-typed-form = Не разбрах хода. Пишете точката на кораба и хода: „е11 напред“, „е11 наляво“, „е11 надясно“, „е11 мина“ или „пас“.
rg-typed-off-board = Няма такава точка: колони а–м, редове 1–13.
rg-refused-no-ship = Там няма ваш кораб.
rg-refused-blocked = Натам не може: суша или край на полето.
rg-refused-own-ship = Там стои ваш кораб.
rg-refused-cannot-sink = Този кораб не може да потопи онзи там (таблицата е в /rules).
rg-refused-not-minesweeper = Мини поставя само миночистачът.
rg-refused-no-mines = И двете мини вече са поставени.
rg-refused-mined = Тук вече има мина.
rg-refused-must-move = Пас може само когато няма ходове.
newgame-bad-arg = Не знам такава игра: „{ $arg }“. Опитайте /newgame или /newgame riga.
