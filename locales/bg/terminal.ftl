# Морска битка в терминала: `morskoy-boy play` (src/terminal.rs)

term-usage =
    Морска битка срещу компютъра, в терминала (или настолната игра „Рига“: --game riga).
    Стартиране: morskoy-boy play [--game seabattle|riga] [--lang ru|bg|en] [--level easy|normal|hard|learning] [--seed N] [--arsenal 0|1|2]
      --game    коя игра: seabattle (по подразбиране) или riga — рижката настолна игра от 1986 г.
      --lang    езикът (по подразбиране — от LANG)
      --level   колко добре играе компютърът (по подразбиране normal)
      --seed    едно и също число — една и съща игра (също MB_SEED)
      --arsenal арсенал: по 1 или 2 радара, въздушни удара и торпеда (по подразбиране 0)
term-bad-option = Непознат параметър: { $option }. Помощ: morskoy-boy play --help
term-bad-value = { $option } не приема «{ $value }». Помощ: morskoy-boy play --help
term-missing-value = След { $option } трябва стойност. Помощ: morskoy-boy play --help
term-level-easy = лесно
term-level-normal = нормално
term-level-hard = трудно
term-level-learning = учещо (учи се от игрите в чатовете; тук играе като трудно)
term-title = Морска битка срещу компютъра, ниво: { $level }.
term-seed = Номер на играта: { $seed } (същата игра отново: --seed { $seed }).
term-layout-prompt = Enter — тази подредба, r — друга случайна, p — подредбата на Перелман, q — изход:
term-layout-unknown = Натиснете Enter или въведете r, p или q.
term-own-field = Вашият флот
term-enemy-field = Водите на компютъра
term-legend = O кораб, X попадение, # потопен, • промах, - празно около потопен, · още неизвестно
term-afloat = { $ships ->
        [one] на вода е { $ships } кораб
       *[other] на вода са { $ships } кораба
    }
term-first-you = Жребият: вие стреляте първи.
term-first-ai = Жребият: компютърът стреля първи.
term-prompt = Вашият изстрел (клетка, например { $example }; q — изход):
term-you-shot = Вие: { $cell } — { $result }
term-ai-shot = Компютърът: { $cell } — { $result }
term-bad-cell = „{ $input }“ не е клетка: въведете буква на колона и номер на ред, от { $first } до { $last }.
term-unknown-column = На това поле няма колона „{ $column }“: колоните са от { $first } до { $last }.
term-row-off-field = На това поле няма ред { $row }: редовете са от 1 до { $rows }.
term-already-shot = По клетка { $cell } вече е стреляно или тя със сигурност е празна: изберете друга.
term-refused = Ходът не е приет: { $reason }
term-won = Вие победихте!
term-lost = Компютърът победи.
term-shots = Вие изстреляхте { $you ->
        [one] { $you } изстрел
       *[other] { $you } изстрела
    }, компютърът — { $ai ->
        [one] { $ai } изстрел
       *[other] { $ai } изстрела
    }.
term-quit = Играта е прекъсната. Заповядайте пак: morskoy-boy play

## Настолната игра „Рига“: `morskoy-boy play --game riga` (src/riga_terminal.rs)
term-riga-title = Рижката морска битка срещу компютъра, ниво: { $level }.
term-riga-sides = Вие сте Юг (долу, главни букви), компютърът е Север (горе, малки букви).
term-riga-order = Вашите кораби от запад на изток: { $order }
term-riga-setup-prompt = Enter — този ред, r — разбъркване, или въведете буквите на 12-те кораба от запад на изток (например { $example }); q — изход:
term-riga-setup-unknown = Не е разбрано: натиснете Enter, въведете r или q или буквите на всичките 12 кораба от запад на изток, например { $example }.
term-riga-first-you = Жребият: вие играете първи.
term-riga-first-ai = Жребият: компютърът играе първи.
term-riga-example = д11 напред
term-riga-prompt = Вашият ход: точка и действие — н напред, л наляво, д надясно, м мина (например { $example }); ? — легендата, q — изход:
term-riga-quit = Играта е прекъсната. Заповядайте пак: morskoy-boy play --game riga
term-turns = Ходове: ваши { $you }, на компютъра { $ai }.
term-prompt-arsenal = Ваш ход: клетка, например { $example }, или оръжие — радар { $example }, въздушен удар { $example }, торпедо от клетка на ръба (от ъгъл със стрелка: торпедо а1 →). Остават: 📡{ $radar } ✈{ $air } 🚀{ $torpedo }; q — изход:
term-name-you = Вие
term-name-ai = Компютърът
