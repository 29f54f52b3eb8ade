# Морской бой — русский: турнир в группе

## Сообщение турнира
tour-head = <b>🏆 Турнир</b> · { $format } · { $rounds ->
        [one] { $rounds } тур
        [few] { $rounds } тура
       *[many] { $rounds } туров
    }
tour-format-round-robin = круговой
tour-format-swiss = швейцарская система
tour-format-elimination = на выбывание
tour-runner = Ведёт: { $name }.
tour-signed-up = Записались: { $count } из { $max }
tour-hint-signup = Нажмите «Участвовать», чтобы записаться. Ведущий (или админ) выбирает систему и начинает; нужно хотя бы два игрока. Каждая партия — дуэль на доске этого чата, по одной, по правилам этого чата.
tour-topic-name = 🏆 Тур { $round }: { $a } — { $b }
tour-round = Тур { $round } из { $rounds }
tour-round-over = Тур { $round } из { $rounds } сыгран: таблица.
tour-pair = { $a } — { $b }
tour-pair-playing = ▶️ { $a } — { $b }: идёт партия
tour-pair-won = { $winner } победил(а) { $loser }
tour-pair-forfeit = { $winner } победил(а) { $loser } (сдача, время вышло или отмена)
tour-bye = { $name }: без пары (одно очко)
tour-standings = Таблица
tour-standing = { $place }. { $name } — { $wins ->
        [one] { $wins } победа
        [few] { $wins } победы
       *[many] { $wins } побед
    }
tour-standing-buchholz = { $place }. { $name } — { $points ->
        [one] { $points } очко
        [few] { $points } очка
       *[many] { $points } очков
    }, Бухгольц { $buchholz }
tour-over = Турнир окончен.
tour-podium-place = { $place ->
        [1] 🥇
        [2] 🥈
       *[other] 🥉
    } { $names }
tour-picture-title = Турнир · { $format }
tour-picture-buchholz = Бухгольц { $buchholz }
tour-picture-wins = { $wins ->
        [one] { $wins } победа
        [few] { $wins } победы
       *[many] { $wins } побед
    }
tour-cancelled = Турнир отменён.

## Кнопки
btn-tour-join = Участвовать
btn-tour-leave = Выйти
btn-tour-start = Начать
btn-tour-cancel = Отменить

## Ответы
tour-joined = Вы записаны.
tour-left = Вы выписаны.
tour-format-set = Система выбрана.
tour-started = Турнир начался: первая партия идёт.
tour-cancelled-answer = Турнир отменён.
tour-open-bot = Сначала откройте личный чат со мной и нажмите «Старт»: там вы расставляете флот. Потом снова нажмите «Участвовать».
tour-open-bot-first = Сначала откройте личный чат со мной и нажмите «Старт»: там игроки расставляют флоты. Потом снова отправьте /tournament.
tour-in-private = Турниры играют в группах: отправьте /tournament в группе.
tour-already = В этом чате уже идёт турнир: доиграйте или отмените его.
tour-game-running = В этом чате идёт игра: турнир можно открыть, когда она закончится.
tour-match = <b>Тур { $round }</b>: { $a } против { $b }. Расставьте флоты в личном чате со мной; стреляют здесь.
tournament-refused-not-open = Запись закрыта.
tournament-refused-already-in = Вы уже записаны.
tournament-refused-not-in = Вы не записаны.
tournament-refused-full = Мест больше нет.
tournament-refused-too-few = Для турнира нужно хотя бы два игрока.
tournament-refused-too-many-for-format = Для этой системы записалось слишком много игроков.
tournament-refused-not-runner = Это может только открывший турнир или админ.
tournament-refused-not-running = Турнир не идёт.
tournament-refused-unknown-game = Эта игра — не партия турнира.
tournament-refused-not-in-match = Считаются только игроки этой партии.
tour-out-of-date = Этот турнир закончен; отправьте /tournament, чтобы начать новый.
cmd-tournament = Турнир в этом чате: запись, туры, таблица
