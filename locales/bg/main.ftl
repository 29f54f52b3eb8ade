# Морска битка — български

## Думите на играта (docs/rules.md §1)
game-name = Морска битка
ship-1 = торпеден катер
ship-2 = разрушител
ship-3 = крайцер
ship-4 = линкор
ship-5 = самолетоносач
ship-n = { $size }-клетъчен кораб
unit-tank = танк
unit-battery = батарея
unit-anti-aircraft = зенитно оръдие
unit-attack-aircraft = щурмовак
mine = мина
border = граница

result-miss = промах
result-hit = попадение
result-sunk = потопен ({ $ship })
result-mine = мина!

## Команди
cmd-start = Отвори бота
cmd-newgame = Нова игра в този чат
cmd-surrender = Предай се в текущата игра
cmd-cancel = Откажи играта преди битката
cmd-rules = Правилата
cmd-help = Как се играе

welcome = Здравейте! Водя „Морска битка“ в групови чатове. Добавете ме в група и напишете там /newgame, а флота си ще подредите тук, на лично. Или напишете /play и играйте срещу мен веднага.
help =
    <b>Морска битка</b>
    /newgame в група отваря записване: натиснете „Играя“, а създателят натиска „Започни“.
    Всеки подрежда флота си тук, в личен чат с мен: докоснете двата края на кораба или натиснете „Случайно“.
    В битката докоснете клетка под съобщението на битката или му отговорете с клетка, например <code>В6</code>.
    Попадение или потопен — стреляте пак; промах — ходът минава. /surrender — предавате се.
    /play — игра срещу мен (лесен, среден, силен или учещ — силен, който се учи как в този чат се нареждат корабите): тук веднага или в група, където заемам място.
    За игра с приятел без група напишете в чата с него името ми с @ и изпратете картата: цялата игра минава в това съобщение.
    /stats показва вашите игри, точност и рейтинги; /top — най-добрите играчи в чата.
rules-classic =
    <b>Класически правила</b>
    Всеки играч крие поле 10×10 с флот: един линкор (4 клетки), два крайцера (3), три разрушителя (2) и четири торпедни катера (1).
    Корабите са прави и не се допират дори с ъгли.
    Попадение или потопен — стреляте пак. Пропуск — ходът минава. Печели първият, който потопи целия вражески флот.

cmd-lang = Избор на език
lang-name = Български
lang-choose = Изберете език:
lang-done = Език: български.
rules-this-chat = Следващата игра в този чат:

cmd-settings = Правилата на игрите тук, буквите на колоните, нивото на бота
settings-alphabet = Букви на колоните за следващите игри в този чат:
settings-alphabet-done = Отсега колоните са: { $letters }.

## Правилата с думи
rules-field-classic = класика { $width }×{ $height }, { $ships ->
        [one] { $ships } кораб
       *[other] { $ships } кораба
    }
rules-field-big = голямо поле { $width }×{ $height }, { $ships ->
        [one] { $ships } кораб
       *[other] { $ships } кораба
    }
rules-field-custom = собствено поле { $width }×{ $height }, { $ships ->
        [one] { $ships } кораб
       *[other] { $ships } кораба
    }
rules-field-land-sea-air = суша, море и въздух { $width }×{ $height }, { $ships ->
        [one] { $ships } единица
       *[other] { $ships } единици
    }
rules-touching-none = корабите не се допират
rules-touching-corners = корабите могат да се допират с ъгли
rules-touching-any = корабите могат да се допират
rules-timer = { $minutes ->
        [one] { $minutes } минута на ход
       *[other] { $minutes } минути на ход
    }
rules-no-timer = без ограничение на времето

## Записване
lobby-title = Морска битка: нова игра
lobby-players = Играчи: { $count } от { $seats }
lobby-ready = готов
lobby-placing = подрежда флота си
lobby-hint-join = Натиснете „Играя“, за да участвате. Създателят започва, когато всички места са заети.
lobby-hint-placement = Играчите подреждат флотовете си в личен чат с бота.
lobby-battle-started = Битката започна — вижте следващото съобщение.
btn-join = Играя
btn-start = Започни
btn-cancel = Откажи
btn-open-bot = Отвори бота
btn-rematch = Реванш
newgame-in-group = Играта се започва в група: добавете ме там и напишете /newgame.
newgame-running = В този чат вече тече игра.
newgame-running-topic = В тази тема вече тече игра.
join-done = Вие сте в играта.
join-already = Вече сте в тази игра.
join-full = Всички места са заети.
join-busy-elsewhere = Вече играете в друг чат. Първо завършете онази игра.
start-done = Подреждането започна: вижте личния си чат с бота.
start-not-full = Не всички места са заети: нужни са { $seats ->
        [one] { $seats } играч
       *[other] { $seats } играчи
    }.
cancel-done = Играта е отказана.
cancel-in-battle = Битката вече тече: за да излезете, предайте се с /surrender.
rematch-done = Нова игра със същите играчи.

## Подреждане
editor-title = Вашият флот
editor-to-place = Остава да подредите:
fleet-item = { $ship } ×{ $count }
editor-problems = Грешки:
editor-complete = Флотът е подреден: натиснете „Готово“.
editor-hint = Докоснете двата края на кораба, за да го поставите; докоснете кораб, за да го махнете.
editor-pending = Първи край: { $cell }. Сега докоснете другия (същата клетка — за едноклетъчен).
editor-placed = Поставен: { $ship }.
editor-second-end = Сега докоснете другия край.
editor-nothing = Няма какво да се направи.
editor-locked = Флотът ви вече е заключен.
editor-ready-done = Флотът е заключен. Успех!
btn-undo = Върни
btn-clear = Изчисти
btn-random = Случайно
btn-perelman = Перелман
btn-ready = Готово

problem-off-field = { $ship } на { $cell }: излиза извън полето.
problem-wrong-size = { $ship } на { $cell }: грешен брой клетки.
problem-not-connected = { $ship } на { $cell }: клетките не са свързани.
problem-shape = { $ship } на { $cell }: тази форма не е разрешена.
problem-needs-land = { $ship } на { $cell }: трябва да е на суша.
problem-needs-sea = { $ship } на { $cell }: трябва да е в морето.
problem-overlaps = { $ship } на { $cell }: застъпва друг кораб ({ $other }).
problem-touches-side = { $ship } на { $cell }: допира странично друг кораб ({ $other }).
problem-touches-corner = { $ship } на { $cell }: допира с ъгъл друг кораб ({ $other }).
problem-too-many = { $ship } на { $cell }: в повече (във флота са { $count }).
problem-missing = Липсва: { $ship } ×{ $count }.
problem-too-many-mines = Мина на { $cell }: в повече (най-много { $count }).
problem-missing-mines = { $count ->
        [one] Липсва { $count } мина.
       *[other] Липсват { $count } мини.
    }
problem-border = Границата на сушата е начертана неправилно.

## Битка
battle-title = Морска битка
battle-field-of = Полето на { $name }
battle-sunk = флотът е потопен
battle-turn-bot = На ход е <b>{ $name }</b>…
battle-turn = На ход е <b>{ $name }</b> — докоснете клетка или отговорете с клетка (например В6).
battle-commitments = Отпечатъци на флотовете (SHA-256):
log-shot = { $name }: { $cell } — { $result }
log-shot-part = { $cell } — { $result }
log-shots = { $name }: { $shots }
log-gave-up = { $name } дава клетка { $cell } — { $result }
log-surrendered = { $name } се предава.
log-forfeit = { $name } не изигра хода си навреме и губи.
log-eliminated = Флотът на { $name } е потопен.
log-reminder = { $name }, мина половината от времето за хода.
answer-miss = { $cell }: промах. Ходът минава.
answer-hit = { $cell }: попадение! Стреляйте пак.
answer-sunk = { $cell }: потопен ({ $ship })! Стреляйте пак.
answer-sunk-won = { $cell }: потопен ({ $ship })! Това беше последният кораб на противника — печелите!
answer-mine = { $cell }: мина! Давате една клетка от своя флот.
shot-not-your-turn = Не сте на ход.
shot-already-known = По тази клетка вече е стреляно. Изберете друга.
shot-off-field = Такава клетка няма на полето.
shot-bad-cell = Това не е клетка: напишете буква и число, от { $first } до { $last }.
shot-bad-target = По това поле не може да се стреля.
own-field-title = Вашият флот
own-field-below = Флотът е подреден. Вашето поле е на картинката по-долу.
own-field-waiting = Чакаме останалите играчи.
own-field-your-turn = На ход сте: стреляйте в групата.
own-field-your-turn-here = На ход сте: стреляйте в съобщението с полетата.
own-field-their-turn = Противникът стреля.
own-field-over = Играта свърши.
surrender-done = Предадохте се.
surrender-not-now = Сега няма от какво да се предавате.

## Край
end-winner = { $count ->
        [one] Победител: { $names }!
       *[other] Победители: { $names }!
    }
# Две и повече имена подред: „Анна, Борис и Глеб“ ($first — всички без последното).
list-and = { $first } и { $last }
end-no-winner = Играта свърши.
end-cancelled = Играта беше отказана.
called-off-chat = Играта ви в групата е отменена: ботът вече не може да пише там. Ничий рейтинг не се промени.
called-off-topic = Играта ви е отменена: темата ѝ в групата беше затворена или изтрита. Ничий рейтинг не се промени. В отново отворена тема може да започне нова игра.
end-log = Ходът на играта:
end-reveal = Подрежданията. Отпечатъкът на всяко е SHA-256 от реда под него (подреждането, „|“ и солта).
end-mines = мини

## Грешки
error-unavailable = Ботът има временни проблеми. Опитайте пак след малко.
error-busy = Твърде много ходове наведнъж. Опитайте пак.
error-game-over = Тази игра свърши.
error-out-of-date = Този бутон е остарял.
error-undecodable = Тази игра не можа да бъде прочетена и беше затворена. Извинете! Започнете нова с /newgame.
error-unknown-button = Този бутон не е от този бот.
error-wrong-message = Този бутон не е от това съобщение.
error-anonymous = Пишете от името на групата или на канал и не знам кой сте: за да играете, пишете от своя профил (анонимен администратор може да изключи „Анонимност“).
error-not-a-player = Не участвате в тази игра.
error-creator-only = Само създателят на играта може да направи това.
error-no-game = Тук в момента няма игра.

cmd-play = Игра срещу бота
cmd-play-group = Игра срещу бота в този чат
ai-name = 🤖 Бот ({ $level })
ai-name-nth = 🤖 Бот { $n } ({ $level })
ai-level-easy = лесен
ai-level-normal = среден
ai-level-hard = силен
ai-level-learning = учещ
play-bad-level = Не познавам нивото „{ $level }“: опитайте /play лесен, /play среден, /play силен или /play учещ.
play-started = Игра срещу бота ({ $level }). Подредете флота си по-долу; битката започва, щом натиснете „Готово“.
btn-play-bot = 🤖 Игра срещу бота
ai-seated = Ботът сяда да играе.
settings-ai-level = Колко силно играе ботът:
settings-ai-level-done = Отсега ботът играе така: { $level }.

btn-confirm = ✔ Кораб ({ $count })
btn-mines = 💣 Мини
btn-border = 🏝 Граница
btn-random-border = 🎲 Граница
fleet-mines = { $count ->
        [one] { $count } мина
       *[other] { $count } мини
    }
editor-hint-cells = Докоснете клетките на кораба, после „✔ Кораб“; докоснете кораб, за да го махнете.
editor-shapes-straight = Корабите са прави линии.
editor-shapes-bent = Корабите са прави, или ъгъл от три, или ъгъл, квадрат и зигзаг от четири.
editor-shapes-free = Корабите са с всякаква форма, стига клетките да се допират със страни.
editor-hint-mine = Докоснете клетка, за да сложите мина; пак „💣 Мини“ — обратно към корабите.
editor-hint-border = Докоснете морска клетка, за да вдигнете сушата в колоната с ред, а клетка суша — за да я свалите; пак „🏝 Граница“ — обратно към корабите.
editor-legend-land = , е суша (границата си виждате само вие); корабите са в морето, танковете, батареите и зенитките — на сушата, самолетите — навсякъде.
editor-too-many-cells = { $count ->
        [one] Корабът има най-много { $count } клетка: натиснете „✔ Кораб“ или махнете една.
       *[other] Корабът има най-много { $count } клетки: натиснете „✔ Кораб“ или махнете една.
    }

btn-replay = 🎞 Повторение
replay-title = 🎞 Повторение на игра { $game }: { $players }
replay-step = Ход { $step } от { $count }
replay-start = Флотите преди първия изстрел. ▶ превърта играта.
replay-check = Как да проверите флот: SHA-256 на реда под него (например <code>printf '%s' 'ред' | sha256sum</code>) трябва да съвпада с ангажимента, показан в битката и повторен тук.
replay-expired = Такова повторение няма или е изтекло: завършените игри се пазят { $days } { $days ->
    [one] ден
   *[other] дни
}.
replay-not-finished = Тази игра още не е свършила: повторението идва след края.
replay-none = В тази игра няма какво да се повтори: отменена е преди битката или е играна, преди повторенията да се пазят.
replay-riga-start = Корабите на началните си точки. ▶ превърта играта.
newgame-own-topic = Играта е в своя тема: „{ $topic }“.
topic-name-lobby = ⚓ Морска битка: { $name }
replay-reveal = Разкриване на флотите
replay-to-reveal = ▶ показва флотите и как да се проверят.
