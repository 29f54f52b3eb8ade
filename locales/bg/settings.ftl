# Морска битка — български: настройките (/settings, бутонът ⚙ в лобито)

## Бутони
settings-open = ⚙ Настройки
settings-done = ✅ Готово
settings-back = ‹ Назад
settings-option = { $option }: { $value }
settings-opt-field = Поле
settings-opt-touching = Допиране
settings-opt-shapes = Форми
settings-opt-salvo = Залп
settings-opt-mines = Мини
settings-opt-arsenal = Арсенал
settings-opt-players = Играчи
settings-opt-timer = Таймер
settings-shapes-straight = прави кораби
settings-shapes-bent = и извити кораби (Г, квадрат, зигзаг)
settings-shapes-free = кораби с всякаква форма
settings-field-classic = класика 10×10
settings-field-big = голямо 15×15
settings-field-land-sea-air = суша, море и въздух 20×15
settings-field-custom = собствено поле
settings-width = ширина { $width }
settings-height = височина { $height }
settings-width-minus = ширина −
settings-width-plus = ширина +
settings-height-minus = височина −
settings-height-plus = височина +
settings-add-ship = +{ $size }
settings-remove-ship = ⌫ Махни последния кораб
settings-salvo-off = без залпове
settings-salvo-shots = { $shots ->
        [one] залп от { $shots } изстрел
       *[other] залп от { $shots } изстрела
    }
settings-salvo-value-off = няма
settings-salvo-value = { $shots ->
        [one] { $shots } изстрел
       *[other] { $shots } изстрела
    }
settings-minus = −
settings-plus = +
settings-mines = { $mines ->
        [0] без мини
        [one] { $mines } мина
       *[other] { $mines } мини
    }
settings-players-duel = дуел
settings-players-ffa = всеки срещу всеки, { $players } играчи
settings-players-teams = отбори, 2 срещу 2
settings-swap = ⇄ { $a } и { $b }

## Текстове
settings-title = ⚙ Настройки на този чат
settings-next-games = Следващите игри тук:
settings-columns = Колони: { $letters }
settings-bot-level = Ботът играе: { $level }
settings-board = Полетата: { $board }
settings-board-picture = 🖼 като картинка
settings-board-text = 🔤 като текст
settings-hint-main = Натиснете настройка, за да я смените. „Готово“ затваря настройките.
settings-hint-custom = Собствено поле: ширина и височина от 5 до 26; корабите се добавят с +1…+5, последният се маха с ⌫. Флотът се приема, само ако може да бъде разположен.
settings-lobby-open = ⚙ Създателят на играта избира правилата.
settings-team-a = Отбор А:
settings-team-b = Отбор Б:
settings-in-lobby = Настройките на тази игра са отворени в съобщението ѝ по-горе.
settings-lobby-creator-only = Тук се събира игра: само създателят ѝ може да сменя правилата.

## Отговори
settings-saved = Избрано: { $value }
settings-closed = Настройките са затворени.
settings-swapped = Местата { $a } и { $b } се размениха.
settings-error-side = Ширината и височината трябва да са от { $min } до { $max }.
settings-error-no-ships = Флотът трябва да има поне един кораб.
settings-error-ship-size = { $size ->
        [one] Кораб от { $size } клетка
       *[other] Кораб от { $size } клетки
    } не се побира на това поле.
settings-error-fleet-too-large = Флотът и мините заемат повече клетки, отколкото има полето.
settings-error-salvo = Залпът е от 1 до 10 изстрела.
settings-error-mines = Всеки играч има от 0 до 2 мини.
settings-error-players = Всеки срещу всеки играят 3 или 4 играчи.
settings-error-no-layout = Няма допустимо разположение: тези кораби не могат да се разположат на това поле по тези правила. Махнете кораб, увеличете полето или позволете допирането.
settings-error-seated = { $count ->
        [one] Вече седи { $count } играч
       *[other] Вече седят { $count } играчи
    }, а тази игра има { $seats ->
        [one] { $seats } място
       *[other] { $seats } места
    }.
settings-error-not-custom = Първо изберете собствено поле.
settings-error-land-sea-air = В „суша, море и въздух“ единиците имат свои форми и никога не се допират.
settings-error-private = Срещу бота се играе дуел.

## Правилата с думи (лобито, /rules)
settings-words-fleet = флот { $sizes }
settings-words-shapes-bent = корабите могат да се извиват (Г, квадрат, зигзаг)
settings-words-shapes-free = кораби с всякаква форма
settings-words-salvo = { $shots ->
        [one] залпове от { $shots } изстрел
       *[other] залпове от { $shots } изстрела
    }
settings-words-mines = { $mines ->
        [one] по { $mines } мина на играч
       *[other] по { $mines } мини на играч
    }
settings-words-ffa = всеки срещу всеки, { $players } играчи
settings-words-teams = два отбора по двама
settings-own-topics = Отделна тема за всяка игра
settings-own-topics-on = всяка игра в своя тема
settings-own-topics-off = игрите там, където са започнати
settings-error-arsenal = Арсеналът има по 1 или 2 от всяко оръжие.
settings-error-arsenal-salvo = Арсеналът не се играе със залпове: първо изключете едното.
settings-error-arsenal-terrain = Арсеналът не се играе на „суша, море и въздух“: пътят на торпедото би издал тайната граница.
settings-arsenal = { $count ->
        [0] изключен
        [one] радар, въздушен удар, торпедо: по едно
       *[other] радар, въздушен удар, торпедо: по { $count }
    }
