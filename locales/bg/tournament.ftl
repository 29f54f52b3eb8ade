# Морска битка — български: турнир в група

## Съобщението на турнира
tour-head = <b>🏆 Турнир</b> · { $format } · { $rounds ->
        [one] един кръг
       *[other] { $rounds } кръга
    }
tour-format-round-robin = всеки срещу всеки
tour-format-swiss = швейцарска система
tour-format-elimination = с отпадане
tour-runner = Води: { $name }.
tour-signed-up = Записани: { $count } от { $max }
tour-hint-signup = Натиснете „Участвам“, за да се запишете. Водещият (или админ) избира системата и започва; нужни са поне двама играчи. Всяка партия е дуел на дъската на този чат, една по една, по правилата на този чат.
tour-topic-name = 🏆 Кръг { $round }: { $a } — { $b }
tour-round = Кръг { $round } от { $rounds }
tour-round-over = Кръг { $round } от { $rounds } е изигран: класирането.
tour-pair = { $a } — { $b }
tour-pair-playing = ▶️ { $a } — { $b }: играят сега
tour-pair-won = { $winner } победи { $loser }
tour-pair-forfeit = { $winner } победи { $loser } (предаване, изтекло време или отмяна)
tour-bye = { $name }: почива (една точка)
tour-standings = Класиране
tour-standing = { $place }. { $name } — { $wins ->
        [one] една победа
       *[other] { $wins } победи
    }
tour-standing-buchholz = { $place }. { $name } — { $points ->
        [one] една точка
       *[other] { $points } точки
    }, Бухолц { $buchholz }
tour-over = Турнирът свърши.
tour-podium-place = { $place ->
        [1] 🥇
        [2] 🥈
       *[other] 🥉
    } { $names }
tour-picture-title = Турнир · { $format }
tour-picture-buchholz = Бухолц { $buchholz }
tour-picture-wins = { $wins ->
        [one] една победа
       *[other] { $wins } победи
    }
tour-cancelled = Турнирът е отменен.

## Бутони
btn-tour-join = Участвам
btn-tour-leave = Излизам
btn-tour-start = Начало
btn-tour-cancel = Отмени

## Отговори
tour-joined = Записан сте.
tour-left = Отписан сте.
tour-format-set = Системата е избрана.
tour-started = Турнирът започна: първата партия тече.
tour-cancelled-answer = Турнирът е отменен.
tour-open-bot = Първо отворете личен чат с мен и натиснете „Старт“: там подреждате флота си. После пак натиснете „Участвам“.
tour-open-bot-first = Първо отворете личен чат с мен и натиснете „Старт“: там играчите подреждат флотите си. После пак изпратете /tournament.
tour-in-private = Турнирите се играят в групи: изпратете /tournament в група.
tour-already = В този чат тече турнир: изиграйте го или го отменете първо.
tour-game-running = В този чат тече игра: турнирът може да започне, когато тя свърши.
tour-match = <b>Кръг { $round }</b>: { $a } срещу { $b }. Подредете флотите си в личния чат с мен; стрелят тук.
tournament-refused-not-open = Записването е затворено.
tournament-refused-already-in = Вече сте записан.
tournament-refused-not-in = Не сте записан.
tournament-refused-full = Местата свършиха.
tournament-refused-too-few = За турнир са нужни поне двама играчи.
tournament-refused-too-many-for-format = За тази система са се записали твърде много играчи.
tournament-refused-not-runner = Това може само този, който отвори турнира, или админ.
tournament-refused-not-running = Турнирът не тече.
tournament-refused-unknown-game = Тази игра не е партия от турнира.
tournament-refused-not-in-match = Броят се само играчите на тази партия.
tour-out-of-date = Този турнир свърши; изпратете /tournament за нов.
cmd-tournament = Турнир в този чат: записване, кръгове, класиране
