# Морской бой — русский: варианты боя (все против всех, команды, залпы, мины)

## Сообщение боя в группе
battle-turn-at = Ход: <b>{ $name }</b>, по полю игрока { $target } — нажмите клетку или ответьте клеткой (например, в6).
battle-field-of-team = Поле игрока { $name } (команда { $team })
battle-legend = · не стреляли  • мимо  - точно пусто  X ранен  # убит
battle-legend-mine = * мина
battle-legend-salvo = + выстрел залпа
battle-log-shot-at = { $name } → { $target }: { $cell } — { $result }
battle-log-shots-at = { $name } → { $target }: { $shots }
battle-more = …и ещё { $count ->
        [one] { $count } результат
        [few] { $count } результата
       *[many] { $count } результатов
    } — в следующем обновлении.
battle-target-chosen = Цель — поле игрока { $name }.
battle-answer-at = { $target } — { $answer }
battle-eliminated = Флот игрока { $name } потоплен!
battle-wrong-shot = В этой игре стреляют залпами: выберите клетки и нажмите «Огонь».

## Личные чаты
battle-teammate-field = Поле напарника { $name }

## Залпы
salvo-turn = Ход: <b>{ $name }</b>, по полю игрока { $target } — выберите { $count ->
        [one] { $count } клетку
        [few] { $count } клетки
       *[many] { $count } клеток
    } и нажмите «Огонь» (или ответьте клетками, например: в6 г7 д8).
salvo-fire = Огонь ({ $picked }/{ $total })
salvo-log = { $name } → { $target }: залп из { $shots } — { $hits ->
        [0] ни одного попадания
        [one] { $hits } попадание
        [few] { $hits } попадания
       *[many] { $hits } попаданий
    }{ $rest }
salvo-log-sunk = , убиты: { $ships }
salvo-log-mines = { $mines ->
        [one] , мина
        [few] , { $mines } мины
       *[many] , { $mines } мин
    }
salvo-answer-mine = Залп: { $hits ->
        [0] ни одного попадания
        [one] { $hits } попадание
        [few] { $hits } попадания
       *[many] { $hits } попаданий
    }{ $rest }! Отдайте { $mines ->
        [one] { $mines } клетку
        [few] { $mines } клетки
       *[many] { $mines } клеток
    } своего флота: я спросил вас в личном чате.
salvo-answer = Залп: { $hits ->
        [0] ни одного попадания
        [one] { $hits } попадание
        [few] { $hits } попадания
       *[many] { $hits } попаданий
    }{ $rest }. Ход переходит.
salvo-picked = Выбраны: { $cells } ({ $picked }/{ $total }).
salvo-unpicked = { $cell } снята ({ $picked }/{ $total }).
salvo-too-many = Уже выбрано { $total }: нажмите выбранную клетку, чтобы снять её, или «Огонь».
salvo-too-few = Сначала выберите ещё { $count ->
        [one] { $count } клетку
        [few] { $count } клетки
       *[many] { $count } клеток
    }.
salvo-bad-cells = Залп — это { $count ->
        [one] { $count } клетка
        [few] { $count } разные клетки
       *[many] { $count } разных клеток
    }, по которым ещё не стреляли, например: в6 г7 д8.

## Мины
mine-log-choice = Мина! { $name } отдаёт { $count ->
        [one] { $count } клетку
        [few] { $count } клетки
       *[many] { $count } клеток
    } своего флота (на выбор { $seconds } с).
mine-log-random = { $name } не успевает выбрать: взята клетка { $cell } — { $result }
mine-waiting = Мина! <b>{ $name }</b> выбирает клетку своего флота.
mine-dm = <b>Мина!</b> Отдайте { $count ->
        [one] { $count } клетку
        [few] { $count } клетки
       *[many] { $count } клеток
    } своего флота: нажмите клетку ниже за { $seconds } с, иначе она будет выбрана случайно.
mine-dm-done = Вы отдали клетку { $cell } — { $result }.
mine-dm-timed-out = Время вышло: взята клетка { $cell } — { $result }.
mine-pending = Подождите: после мины отдают клетку.
mine-not-yours = Сейчас клетку отдаёте не вы.
mine-not-your-cell = Это не целая клетка вашего флота.
mine-no-choice = Сейчас отдавать клетку не нужно.

## The arsenal (docs/rules.md §3.8): the weapons' names and the refusals of their use.
weapon-radar = радар
weapon-air-strike = авиаудар
weapon-torpedo = торпеда
weapon-no-arsenal = В этой игре нет арсенала.
weapon-used-up = У вас не осталось: { $weapon }.
weapon-no-new-cell = Все клетки, куда он достанет, уже известны: выберите другую.
torpedo-not-from-edge = Торпеду пускают с клетки у края поля.
torpedo-needs-heading = Из угла скажите, куда идёт торпеда.
torpedo-wrong-heading = Торпеда идёт от края, с которого её пустили.

rules-arsenal =
    <b>Арсенал</b>
    Кроме флота у каждого игрока три оружия, каждое — один раз за игру (или два, если так решили при наборе игроков). Оружие — это весь ход: после него ход переходит.
    📡 Радар: квадрат 3×3 на поле противника; группа слышит, сколько в нём ещё не подбитых клеток кораблей (мины не считаются). 0 помечает весь квадрат пустым.
    ✈ Авиаудар: стреляет по всем новым клеткам квадрата 3×3, у каждой свой ответ.
    🚀 Торпеда: с клетки у края поля противника по её строке или столбцу, от этого края (из угла вы выбираете направление). Она проходит подбитые клетки и останавливается на первой неподбитой клетке корабля или на мине, либо уходит за поле; все клетки, которые она прошла, становятся известными пустыми.
    Мина, до которой дошли авиаудар или торпеда, взрывается, как после выстрела. Не играется с залпами и на поле «суша, море и воздух».
rules-arsenal-words = арсенал оружие
settings-words-arsenal = { $count ->
        [one] арсенал: радар, авиаудар и торпеда, по одному разу
        [few] арсенал: радар, авиаудар и торпеда, по { $count } раза
       *[many] арсенал: радар, авиаудар и торпеда, по { $count } раз
    }
weapon-who-at = { $name } → { $target }
weapon-log-radar = 📡 { $who } — радар { $cell }: { $count ->
        [one] { $count } клетка кораблей
        [few] { $count } клетки кораблей
       *[many] { $count } клеток кораблей
    }
weapon-log-air-strike = ✈ { $who } — авиаудар { $cell }: { $cells }
weapon-log-torpedo = 🚀 { $who } — торпеда { $cell } { $arrow } { $end }
weapon-torpedo-out = мимо, ушла за поле
weapon-armed = { $weapon } наготове: нажмите клетку (повторное нажатие кнопки — отменить).
weapon-disarmed = Отменено: следующая клетка — обычный выстрел.
torpedo-choose-heading = Из угла { $cell }: выберите под полем, куда пойдёт торпеда.
btn-radar = 📡 Радар ({ $left })
btn-air-strike = ✈ Авиаудар ({ $left })
btn-torpedo = 🚀 Торпеда ({ $left })
weapons-left = Арсенал: { $list }
weapon-typed-radar = радар
weapon-typed-air = воздушный
weapon-typed-air-strike = авиаудар удар
weapon-typed-torpedo = торпеда
weapon-typed-bad = Оружие пишут с клеткой: «радар д5», «авиаудар б2» или «торпеда а5 →» (из угла стрелка → ← ↑ ↓ указывает путь).
