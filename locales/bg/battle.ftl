# Морска битка — български: варианти на боя (всеки срещу всеки, отбори, залпове, мини)

## Съобщението на боя в групата
battle-turn-at = На ход: <b>{ $name }</b>, по полето на { $target } — натиснете клетка или отговорете с клетка (напр. в6).
battle-field-of-team = Поле на { $name } (отбор { $team })
battle-legend = · нестреляно  • промах  - сигурно празно  X попадение  # потопен
battle-legend-mine = * мина
battle-legend-salvo = + изстрел от залп
battle-log-shot-at = { $name } → { $target }: { $cell } — { $result }
battle-log-shots-at = { $name } → { $target }: { $shots }
battle-more = …и още { $count ->
        [one] { $count } резултат
       *[other] { $count } резултата
    } — при следващото обновяване.
battle-target-chosen = Цел — полето на { $name }.
battle-answer-at = { $target } — { $answer }
battle-eliminated = Флотът на { $name } е потопен!
battle-wrong-shot = В тази игра се стреля със залпове: изберете клетките и натиснете „Огън“.

## Лични чатове
battle-teammate-field = Поле на съотборника { $name }

## Залпове
salvo-turn = На ход: <b>{ $name }</b>, по полето на { $target } — изберете { $count ->
        [one] { $count } клетка
       *[other] { $count } клетки
    } и натиснете „Огън“ (или отговорете с тях, напр. в6 г7 д8).
salvo-fire = Огън ({ $picked }/{ $total })
salvo-log = { $name } → { $target }: залп от { $shots } — { $hits ->
        [0] нито едно попадение
        [one] { $hits } попадение
       *[other] { $hits } попадения
    }{ $rest }
salvo-log-sunk = , потопени: { $ships }
salvo-log-mines = { $mines ->
        [one] , мина
       *[other] , { $mines } мини
    }
salvo-answer-mine = Залп: { $hits ->
        [0] нито едно попадение
        [one] { $hits } попадение
       *[other] { $hits } попадения
    }{ $rest }! Дайте { $mines ->
        [one] { $mines } клетка
       *[other] { $mines } клетки
    } от своя флот: питах ви в личния чат.
salvo-answer = Залп: { $hits ->
        [0] нито едно попадение
        [one] { $hits } попадение
       *[other] { $hits } попадения
    }{ $rest }. Ходът минава.
salvo-picked = Избрани: { $cells } ({ $picked }/{ $total }).
salvo-unpicked = { $cell } е махната ({ $picked }/{ $total }).
salvo-too-many = Вече сте избрали { $total }: натиснете избрана клетка, за да я махнете, или „Огън“.
salvo-too-few = Първо изберете още { $count ->
        [one] { $count } клетка
       *[other] { $count } клетки
    }.
salvo-bad-cells = Залпът е { $count ->
        [one] { $count } клетка
       *[other] { $count } различни клетки
    }, по които не е стреляно, напр. в6 г7 д8.

## Мини
mine-log-choice = { $name } попадна на мина и дава { $count ->
        [one] { $count } клетка
       *[other] { $count } клетки
    } от своя флот ({ $seconds } с за избор).
mine-log-random = { $name } не избра навреме: взета е { $cell } — { $result }
mine-waiting = <b>{ $name }</b> попадна на мина и избира клетка от своя флот.
mine-dm = <b>Мина!</b> Дайте { $count ->
        [one] { $count } клетка
       *[other] { $count } клетки
    } от своя флот: натиснете клетка отдолу до { $seconds } с, иначе се взема случайна.
mine-dm-done = Дадохте { $cell } — { $result }.
mine-dm-timed-out = Времето изтече: взета е { $cell } — { $result }.
mine-pending = Изчакайте: след мина се дава клетка.
mine-not-yours = Сега не вие давате клетка.
mine-not-your-cell = Това не е непокътната клетка от вашия флот.
mine-no-choice = Сега не се дава клетка.

## The arsenal (docs/rules.md §3.8): the weapons' names and the refusals of their use.
weapon-radar = радар
weapon-air-strike = въздушен удар
weapon-torpedo = торпедо
weapon-no-arsenal = Тази игра е без арсенал.
weapon-used-up = Не ви остана: { $weapon }.
weapon-no-new-cell = Всички клетки, до които стига, вече са известни: изберете друга.
torpedo-not-from-edge = Торпедото тръгва от клетка на ръба на полето.
torpedo-needs-heading = От ъгъл кажете накъде тръгва торпедото.
torpedo-wrong-heading = Торпедото се движи навътре от ръба, от който тръгва.

rules-arsenal =
    <b>Арсенал</b>
    Освен флота всеки играч има три оръжия, всяко веднъж на игра (или два пъти, ако така е решено при записването). Оръжието е целият ход: след него ходът минава.
    📡 Радар: квадрат 3×3 от вражеско поле; групата научава колко клетки на кораби в него още не са улучени (мините не се броят). 0 отбелязва целия квадрат като празен.
    ✈ Въздушен удар: стреля по всички нови клетки на квадрат 3×3, всяка със свой отговор.
    🚀 Торпедо: от клетка на ръба на вражеско поле по нейния ред или колона, навътре от ръба (от ъгъл избирате посоката). Минава през улучени клетки и спира на първата неулучена клетка на кораб или на мина, или излиза от полето; всички клетки, през които е минало, стават известни като празни.
    Мина, до която стигне въздушен удар или торпедо, избухва като след изстрел. Не се играе със залпове, нито на „суша, море и въздух“.
rules-arsenal-words = арсенал оръжия
settings-words-arsenal = { $count ->
        [one] арсенал: радар, въздушен удар и торпедо, по веднъж
       *[other] арсенал: радар, въздушен удар и торпедо, по { $count } пъти
    }
weapon-who-at = { $name } → { $target }
weapon-log-radar = 📡 { $who } — радар { $cell }: { $count ->
        [one] { $count } клетка на кораби
       *[other] { $count } клетки на кораби
    }
weapon-log-air-strike = ✈ { $who } — въздушен удар { $cell }: { $cells }
weapon-log-torpedo = 🚀 { $who } — торпедо { $cell } { $arrow } { $end }
weapon-torpedo-out = промах, излезе от полето
weapon-armed = { $weapon } е готов: натиснете клетка (ново натискане на бутона — отказ).
weapon-disarmed = Отказано: следващата клетка е обикновен изстрел.
torpedo-choose-heading = От ъгъла { $cell }: изберете под полето накъде тръгва торпедото.
btn-radar = 📡 Радар ({ $left })
btn-air-strike = ✈ Въздушен удар ({ $left })
btn-torpedo = 🚀 Торпедо ({ $left })
weapons-left = Арсенал: { $list }
weapon-typed-radar = радар
weapon-typed-air = въздушен
weapon-typed-air-strike = удар
weapon-typed-torpedo = торпедо
weapon-typed-bad = Оръжието се пише с клетка: „радар д5“, „въздушен удар б2“ или „торпедо а5 →“ (от ъгъл стрелка → ← ↑ ↓ казва посоката).
