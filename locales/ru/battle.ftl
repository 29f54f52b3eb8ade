# Морской бой — русский: варианты боя (все против всех, команды, залпы, мины)

## Сообщение боя в группе
battle-turn-at = Ход: <b>{ $name }</b>, по полю игрока { $target } — нажмите клетку или ответьте клеткой (например, в6).
battle-field-of-team = Поле игрока { $name } (команда { $team })
battle-legend = · не стреляли  • мимо  - пусто у убитого  X ранен  # убит
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
