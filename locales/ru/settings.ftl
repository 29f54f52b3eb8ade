# Морской бой — русский: настройки (/settings, кнопка ⚙ в лобби)

## Кнопки
settings-open = ⚙ Настройки
settings-done = ✅ Готово
settings-back = ‹ Назад
settings-option = { $option }: { $value }
settings-opt-field = Поле
settings-opt-touching = Касания
settings-opt-shapes = Формы
settings-opt-salvo = Залп
settings-opt-mines = Мины
settings-opt-arsenal = Арсенал
settings-opt-players = Игроки
settings-opt-timer = Таймер
settings-shapes-straight = прямые корабли
settings-shapes-bent = и гнутые корабли (Г, квадрат, зигзаг)
settings-shapes-free = корабли любой формы
settings-field-classic = классика 10×10
settings-field-big = большое 15×15
settings-field-land-sea-air = земля, море и воздух 20×15
settings-field-custom = своё поле
settings-width = ширина { $width }
settings-height = высота { $height }
settings-width-minus = ширина −
settings-width-plus = ширина +
settings-height-minus = высота −
settings-height-plus = высота +
settings-add-ship = +{ $size }
settings-remove-ship = ⌫ Убрать последний корабль
settings-salvo-off = без залпов
settings-salvo-shots = { $shots ->
        [one] залп из { $shots } выстрела
       *[other] залп из { $shots } выстрелов
    }
settings-salvo-value-off = нет
settings-salvo-value = { $shots ->
        [one] { $shots } выстрел
        [few] { $shots } выстрела
       *[many] { $shots } выстрелов
    }
settings-minus = −
settings-plus = +
settings-mines = { $mines ->
        [0] без мин
        [one] { $mines } мина
        [few] { $mines } мины
       *[many] { $mines } мин
    }
settings-players-duel = дуэль
settings-players-ffa = каждый за себя, { $players ->
        [one] { $players } игрок
        [few] { $players } игрока
       *[many] { $players } игроков
    }
settings-players-teams = команды, 2 на 2
settings-swap = ⇄ { $a } и { $b }

## Тексты
settings-title = ⚙ Настройки этого чата
settings-next-games = Следующие игры здесь:
settings-columns = Столбцы: { $letters }
settings-bot-level = Бот играет: { $level }
settings-board = Поля: { $board }
settings-board-picture = 🖼 картинкой
settings-board-text = 🔤 текстом
settings-hint-main = Нажмите на настройку, чтобы изменить её. «Готово» закрывает настройки.
settings-hint-custom = Своё поле: ширина и высота от 5 до 26; корабли добавляются кнопками +1…+5, последний убирает ⌫. Флот принимается, только если его можно расставить.
settings-lobby-open = ⚙ Создатель игры выбирает правила.
settings-team-a = Команда А:
settings-team-b = Команда Б:
settings-in-lobby = Настройки этой игры открыты в её сообщении выше.
settings-lobby-creator-only = Здесь собирается игра: менять её правила может только её создатель.

## Ответы
settings-saved = Выбрано: { $value }
settings-closed = Настройки закрыты.
settings-swapped = Места { $a } и { $b } поменялись.
settings-error-side = Ширина и высота должны быть от { $min } до { $max }.
settings-error-no-ships = Во флоте должен быть хотя бы один корабль.
settings-error-ship-size = { $size ->
        [one] Корабль из { $size } клетки
       *[other] Корабль из { $size } клеток
    } не помещается на этом поле.
settings-error-fleet-too-large = Флот и мины занимают больше клеток, чем есть на поле.
settings-error-salvo = Залп — от 1 до 10 выстрелов.
settings-error-mines = У каждого игрока от 0 до 2 мин.
settings-error-players = Каждый за себя играют 3 или 4 игрока.
settings-error-no-layout = Допустимой расстановки нет: эти корабли нельзя расставить на этом поле по этим правилам. Уберите корабль, увеличьте поле или разрешите касания.
settings-error-seated = { $count ->
        [one] Уже сел { $count } игрок
        [few] Уже сели { $count } игрока
       *[many] Уже сели { $count } игроков
    }, а в этой игре { $seats ->
        [one] { $seats } место
        [few] { $seats } места
       *[many] { $seats } мест
    }.
settings-error-not-custom = Сначала выберите своё поле.
settings-error-land-sea-air = В игре «земля, море и воздух» у единиц свои формы, и они никогда не касаются.
settings-error-private = С ботом играется дуэль.

## Правила словами (лобби, /rules)
settings-words-fleet = флот { $sizes }
settings-words-shapes-bent = корабли могут изгибаться (Г, квадрат, зигзаг)
settings-words-shapes-free = корабли любой формы
settings-words-salvo = { $shots ->
        [one] залпы по { $shots } выстрелу
        [few] залпы по { $shots } выстрела
       *[many] залпы по { $shots } выстрелов
    }
settings-words-mines = { $mines ->
        [one] по { $mines } мине у каждого
        [few] по { $mines } мины у каждого
       *[many] по { $mines } мин у каждого
    }
settings-words-ffa = каждый за себя, { $players ->
        [one] { $players } игрок
        [few] { $players } игрока
       *[many] { $players } игроков
    }
settings-words-teams = две команды по два игрока
settings-own-topics = Своя тема для каждой игры
settings-own-topics-on = каждая игра в своей теме
settings-own-topics-off = игры там, где их начали
settings-error-arsenal = В арсенале по 1 или 2 каждого оружия.
settings-error-arsenal-salvo = Арсенал не сочетается с залпами: сначала выключите одно из них.
settings-error-arsenal-terrain = Арсенал не играют на поле «суша, море и воздух»: ход торпеды выдал бы тайную границу.
settings-arsenal = { $count ->
        [0] выключен
        [one] радар, авиаудар, торпеда: по одному
        [few] радар, авиаудар, торпеда: по { $count }
       *[many] радар, авиаудар, торпеда: по { $count }
    }
