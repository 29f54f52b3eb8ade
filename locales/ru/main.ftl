# Морской бой — русский

## Слова игры (docs/rules.md §1)
game-name = Морской бой
ship-1 = торпедный катер
ship-2 = эсминец
ship-3 = крейсер
ship-4 = линкор
ship-5 = авианосец
ship-n = { $size }-палубный корабль
unit-tank = танк
unit-battery = батарея
unit-anti-aircraft = зенитка
unit-attack-aircraft = штурмовик
mine = мина
border = граница

result-miss = мимо
result-hit = ранил
result-sunk = убил ({ $ship })
result-mine = мина!

## Команды
cmd-start = Открыть бота
cmd-newgame = Начать новую игру в этом чате
cmd-surrender = Сдаться в текущей игре
cmd-cancel = Отменить игру до начала боя
cmd-rules = Правила
cmd-help = Как играть

welcome = Привет! Я провожу «Морской бой» в групповых чатах. Добавьте меня в группу и отправьте там /newgame, а флот вы расставите здесь, в личке. Или отправьте /play и сыграйте со мной прямо сейчас.
help =
    <b>Морской бой</b>
    /newgame в группе открывает набор игроков: нажмите «Играю», а создатель игры — «Начать».
    Каждый расставляет флот здесь, в личном чате со мной: нажмите на оба конца корабля или «Случайно».
    В бою нажимайте клетку под сообщением боя или ответьте на него клеткой, например <code>в6</code>.
    Ранил или убил — стреляете ещё; мимо — ход переходит. /surrender — сдаться.
    /play — игра со мной (лёгкий, средний, сильный или обучаемый — сильный, который учится, как в этом чате расставляют корабли): здесь сразу или в группе, где я занимаю место.
    Чтобы сыграть с другом без группы, наберите в вашем с ним чате моё имя через @ и отправьте карточку: вся игра пройдёт в этом сообщении.
    /stats — ваши партии, меткость и рейтинги; /top — лучшие игроки чата.
    <b>Арсенал</b> (подробно: /rules арсенал): кроме флота, 📡 радар говорит, сколько клеток кораблей в квадрате 3×3, ✈ авиаудар стреляет по всему квадрату 3×3, 🚀 торпеда идёт от клетки у края по строке или столбцу до первого корабля. Каждое — один раз за игру и занимает весь ход. Арсенал выключен, пока вы его не включите: /settings (или ⚙ Настройки в лобби) → Арсенал.
    В бою нажмите оружие под сообщением боя, затем клетку; или ответьте на сообщение, например <code>радар д5</code>, <code>авиаудар б2</code>, <code>торпеда а5 →</code> (из угла стрелка указывает путь).
rules-classic =
    <b>Классические правила</b>
    У каждого игрока скрытое поле 10×10 и флот: один линкор (4 клетки), два крейсера (3), три эсминца (2) и четыре торпедных катера (1).
    Корабли прямые и не касаются друг друга даже углами.
    Ранил или убил — стреляете ещё. Мимо — ход переходит. Побеждает тот, кто первым потопит весь флот противника.

cmd-lang = Выбрать язык
lang-name = Русский
lang-choose = Выберите язык:
lang-done = Язык: русский.
rules-this-chat = Следующая игра в этом чате:

cmd-settings = Правила игр здесь, буквы столбцов, уровень бота
settings-alphabet = Буквы столбцов для следующих игр в этом чате:
settings-alphabet-done = Теперь столбцы: { $letters }.

## Правила словами
rules-field-classic = классика { $width }×{ $height }, { $ships ->
        [one] { $ships } корабль
        [few] { $ships } корабля
       *[many] { $ships } кораблей
    }
rules-field-big = большое поле { $width }×{ $height }, { $ships ->
        [one] { $ships } корабль
        [few] { $ships } корабля
       *[many] { $ships } кораблей
    }
rules-field-custom = своё поле { $width }×{ $height }, { $ships ->
        [one] { $ships } корабль
        [few] { $ships } корабля
       *[many] { $ships } кораблей
    }
rules-field-land-sea-air = земля, море и воздух { $width }×{ $height }, { $ships ->
        [one] { $ships } единица
        [few] { $ships } единицы
       *[many] { $ships } единиц
    }
rules-touching-none = корабли не касаются
rules-touching-corners = корабли могут касаться углами
rules-touching-any = корабли могут касаться
rules-timer = { $minutes ->
        [one] { $minutes } минута на ход
        [few] { $minutes } минуты на ход
       *[many] { $minutes } минут на ход
    }
rules-no-timer = без ограничения времени

## Набор игроков
lobby-title = Морской бой: новая игра
lobby-players = Игроки: { $count } из { $seats }
lobby-ready = готов
lobby-placing = расставляет флот
lobby-hint-join = Нажмите «Играю», чтобы участвовать. Создатель начнёт игру, когда все места заняты.
lobby-hint-placement = Игроки расставляют флот в личном чате с ботом.
lobby-battle-started = Бой начался — смотрите следующее сообщение.
btn-join = Играю
btn-start = Начать
btn-cancel = Отмена
btn-open-bot = Открыть бота
btn-rematch = Реванш
newgame-in-group = Игра начинается в группе: добавьте меня туда и отправьте /newgame.
newgame-running = В этом чате уже идёт игра.
newgame-running-topic = В этой теме уже идёт игра.
join-done = Вы в игре.
join-already = Вы уже в этой игре.
join-full = Все места заняты.
join-busy-elsewhere = Вы уже играете в другом чате. Сначала закончите ту игру.
start-done = Расстановка началась: загляните в личный чат с ботом.
start-not-full = Заняты не все места: нужно { $seats ->
        [one] { $seats } игрок
        [few] { $seats } игрока
       *[many] { $seats } игроков
    }.
cancel-done = Игра отменена.
cancel-in-battle = Бой уже идёт: чтобы выйти, сдайтесь командой /surrender.
rematch-done = Новая игра с теми же игроками.

## Расстановка
editor-title = Ваш флот
editor-to-place = Осталось поставить:
fleet-item = { $ship } ×{ $count }
editor-problems = Ошибки:
editor-complete = Флот расставлен: нажмите «Готово».
editor-hint = Нажмите на оба конца корабля, чтобы поставить его; нажмите на корабль, чтобы убрать.
editor-pending = Первый конец: { $cell }. Теперь нажмите второй (ту же клетку — для однопалубного).
editor-placed = Поставлен: { $ship }.
editor-second-end = Теперь нажмите второй конец.
editor-nothing = Нечего делать.
editor-locked = Ваш флот уже закреплён.
editor-ready-done = Флот закреплён. Удачи!
btn-undo = Отменить
btn-clear = Очистить
btn-random = Случайно
btn-perelman = Перельман
btn-ready = Готово

problem-off-field = { $ship } на { $cell }: выходит за поле.
problem-wrong-size = { $ship } на { $cell }: не то число клеток.
problem-not-connected = { $ship } на { $cell }: клетки не соединены.
problem-shape = { $ship } на { $cell }: такая форма не разрешена.
problem-needs-land = { $ship } на { $cell }: должен стоять на суше.
problem-needs-sea = { $ship } на { $cell }: должен стоять в море.
problem-overlaps = { $ship } на { $cell }: наезжает на другой корабль ({ $other }).
problem-touches-side = { $ship } на { $cell }: касается боком другого корабля ({ $other }).
problem-touches-corner = { $ship } на { $cell }: касается углом другого корабля ({ $other }).
problem-too-many = { $ship } на { $cell }: лишний (во флоте их { $count }).
problem-missing = Не хватает: { $ship } ×{ $count }.
problem-too-many-mines = Мина на { $cell }: лишняя (можно не больше { $count }).
problem-missing-mines = { $count ->
        [one] Не хватает { $count } мины.
       *[other] Не хватает { $count } мин.
    }
problem-border = Граница суши проведена неправильно.

## Бой
battle-title = Морской бой
battle-field-of = Поле игрока { $name }
battle-sunk = флот потоплен
battle-turn-bot = Ходит <b>{ $name }</b>…
battle-turn = Ходит <b>{ $name }</b> — нажмите клетку или ответьте клеткой (например, в6).
battle-commitments = Отпечатки флотов (SHA-256):
log-shot = { $name }: { $cell } — { $result }
log-shot-part = { $cell } — { $result }
log-shots = { $name }: { $shots }
log-gave-up = { $name } отдаёт клетку { $cell } — { $result }
log-surrendered = { $name } сдаётся.
log-forfeit = { $name } не успевает сходить и проигрывает.
log-eliminated = Флот игрока { $name } потоплен.
log-reminder = { $name }, прошла половина времени на ход.
answer-miss = { $cell }: мимо. Ход переходит.
answer-hit = { $cell }: ранил! Стреляйте ещё.
answer-sunk = { $cell }: убил ({ $ship })! Стреляйте ещё.
answer-sunk-won = { $cell }: убил ({ $ship })! Это был последний корабль противника — вы победили!
answer-mine = { $cell }: мина! Вы отдаёте одну клетку своего флота.
shot-not-your-turn = Сейчас не ваш ход.
shot-already-known = В эту клетку уже стреляли. Выберите другую.
shot-off-field = Такой клетки на поле нет.
shot-bad-cell = Это не клетка: напишите букву и число, от { $first } до { $last }.
shot-bad-target = По этому полю стрелять нельзя.
own-field-title = Ваш флот
own-field-below = Флот расставлен. Ваше поле — на картинке ниже.
own-field-waiting = Ждём остальных игроков.
own-field-shoot-group = Стреляйте в группе.
own-field-shoot-here = Стреляйте в сообщении с полями.
own-field-when = Это поле обновляется, когда после попадания по вашему флоту приходит ваш ход, и по кнопке ниже.
own-field-refresh = 🔄 Обновить
own-field-refreshed = Ваше поле обновляется.
own-field-over = Игра окончена.
surrender-done = Вы сдались.
surrender-not-now = Сейчас сдаваться не в чем.

## Конец
end-winner = { $count ->
        [one] Победитель — { $names }!
       *[other] Победители — { $names }!
    }
# Два и больше имён подряд: «Анна, Борис и Глеб» ($first — все, кроме последнего).
list-and = { $first } и { $last }
end-no-winner = Игра окончена.
end-cancelled = Игра отменена.
called-off-chat = Ваша игра в группе отменена: бот больше не может туда писать. Ничей рейтинг не изменился.
called-off-topic = Ваша игра отменена: её тему в группе закрыли или удалили. Ничей рейтинг не изменился. В открытой снова теме можно начать новую игру.
end-log = Ход игры:
end-reveal = Расстановки. Отпечаток каждой — SHA-256 строки под ней (расстановка, «|» и соль).
end-mines = мины

## Ошибки
error-unavailable = У бота временные неполадки. Попробуйте ещё раз чуть позже.
error-busy = Слишком много ходов сразу. Попробуйте ещё раз.
error-game-over = Эта игра окончена.
error-out-of-date = Эта кнопка устарела.
error-undecodable = Эту игру не удалось прочитать, и она закрыта. Простите! Начните новую: /newgame.
error-unknown-button = Это кнопка не от этого бота.
error-wrong-message = Эта кнопка не от этого сообщения.
error-anonymous = Вы пишете от имени группы или канала, и я не знаю, кто вы: чтобы играть, пишите от своего аккаунта (анонимный админ может выключить «Анонимность»).
error-not-a-player = Вы не участвуете в этой игре.
error-creator-only = Это может сделать только создатель игры.
error-no-game = Здесь сейчас нет игры.

cmd-play = Сыграть с ботом
cmd-play-group = Игра с ботом в этом чате
ai-name = 🤖 Бот ({ $level })
ai-name-nth = 🤖 Бот { $n } ({ $level })
ai-level-easy = лёгкий
ai-level-normal = средний
ai-level-hard = сильный
ai-level-learning = обучаемый
play-bad-level = Не знаю уровня «{ $level }»: попробуйте /play лёгкий, /play средний, /play сильный или /play обучаемый.
play-started = Игра с ботом ({ $level }). Расставьте флот ниже; бой начнётся, как только вы нажмёте «Готово».
btn-play-bot = 🤖 Сыграть с ботом
ai-seated = Бот садится играть.
settings-ai-level = Как сильно играет бот:
settings-ai-level-done = Теперь бот играет так: { $level }.

btn-confirm = ✔ Корабль ({ $count })
btn-mines = 💣 Мины
btn-border = 🏝 Граница
btn-random-border = 🎲 Граница
fleet-mines = { $count ->
        [one] { $count } мина
        [few] { $count } мины
       *[many] { $count } мин
    }
editor-hint-cells = Нажмите клетки корабля, затем «✔ Корабль»; нажмите на корабль, чтобы убрать его.
editor-shapes-straight = Корабли — прямые линии.
editor-shapes-bent = Корабли прямые, или уголок из трёх, или уголок, квадрат и зигзаг из четырёх.
editor-shapes-free = Корабли любой формы, лишь бы клетки соединялись сторонами.
editor-hint-mine = Нажмите клетку, чтобы поставить мину; ещё раз «💣 Мины» — назад к кораблям.
editor-hint-border = Нажмите клетку моря, чтобы поднять сушу в этом столбце на ряд, клетку суши — чтобы опустить; ещё раз «🏝 Граница» — назад к кораблям.
editor-legend-land = , — суша (вашу границу видите только вы); корабли стоят в море, танки, батареи и зенитки — на суше, самолёты — где угодно.
editor-too-many-cells = { $count ->
        [one] В корабле не больше { $count } клетки: нажмите «✔ Корабль» или снимите одну.
       *[other] В корабле не больше { $count } клеток: нажмите «✔ Корабль» или снимите одну.
    }

btn-replay = 🎞 Повтор
replay-title = 🎞 Повтор игры { $game }: { $players }
replay-step = Ход { $step } из { $count }
replay-start = Флоты до первого выстрела. ▶ листает игру.
replay-check = Как проверить флот: SHA-256 строки под ним (например, <code>printf '%s' 'строка' | sha256sum</code>) должен совпасть с обязательством, показанным в бою и повторённым здесь.
replay-expired = Такого повтора нет или он устарел: законченные игры хранятся { $days } { $days ->
    [one] день
    [few] дня
   *[other] дней
}.
replay-not-finished = Эта игра ещё не окончена: повтор будет после конца.
replay-none = В этой игре нечего повторять: её отменили до боя или сыграли, когда повторы ещё не хранились.
replay-riga-start = Корабли на стартовых точках. ▶ листает игру.
newgame-own-topic = Игра идёт в своей теме: «{ $topic }».
topic-name-lobby = ⚓ Морской бой: { $name }
replay-reveal = Раскрытие флотов
replay-to-reveal = ▶ покажет флоты и как их проверить.
