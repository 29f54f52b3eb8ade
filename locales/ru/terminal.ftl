# Морской бой в терминале: `morskoy-boy play` (src/terminal.rs)

term-usage =
    Морской бой против компьютера, в терминале (или настольная игра «Рига»: --game riga).
    Запуск: morskoy-boy play [--game seabattle|riga] [--lang ru|bg|en] [--level easy|normal|hard|learning] [--seed N] [--arsenal 0|1|2]
      --game    какая игра: seabattle (по умолчанию) или riga — рижская настольная игра 1986 года
      --lang    язык (по умолчанию — из LANG)
      --level   насколько хорошо играет компьютер (по умолчанию normal)
      --seed    одно и то же число — одна и та же игра (также MB_SEED)
      --arsenal арсенал: по 1 или 2 радара, авиаудара и торпеды (по умолчанию 0)
term-bad-option = Неизвестный параметр: { $option }. Справка: morskoy-boy play --help
term-bad-value = { $option } не принимает «{ $value }». Справка: morskoy-boy play --help
term-missing-value = После { $option } нужно значение. Справка: morskoy-boy play --help
term-level-easy = лёгкий
term-level-normal = обычный
term-level-hard = трудный
term-level-learning = обучаемый (учится на играх в чатах; здесь играет как трудный)
term-title = Морской бой против компьютера, уровень: { $level }.
term-seed = Номер партии: { $seed } (сыграть эту партию ещё раз: --seed { $seed }).
term-layout-prompt = Enter — взять эту расстановку, r — другая случайная, p — расстановка Перельмана, q — выйти:
term-layout-unknown = Нажмите Enter или введите r, p или q.
term-own-field = Ваш флот
term-enemy-field = Воды компьютера
term-legend = O корабль, X ранен, # убит, • мимо, - пусто у убитого, · ещё неизвестно
term-afloat = { $ships ->
        [one] на плаву { $ships } корабль
        [few] на плаву { $ships } корабля
       *[many] на плаву { $ships } кораблей
    }
term-first-you = Жребий: вы стреляете первым.
term-first-ai = Жребий: компьютер стреляет первым.
term-prompt = Ваш выстрел (клетка, например { $example }; q — выйти):
term-you-shot = Вы: { $cell } — { $result }
term-ai-shot = Компьютер: { $cell } — { $result }
term-bad-cell = «{ $input }» — не клетка: введите букву столбца и номер строки, от { $first } до { $last }.
term-unknown-column = На этом поле нет столбца «{ $column }»: столбцы от { $first } до { $last }.
term-row-off-field = На этом поле нет строки { $row }: строки от 1 до { $rows }.
term-already-shot = По клетке { $cell } уже стреляли, или она заведомо пуста: выберите другую.
term-refused = Ход не принят: { $reason }
term-won = Вы победили!
term-lost = Победил компьютер.
term-shots = Вы сделали { $you ->
        [one] { $you } выстрел
        [few] { $you } выстрела
       *[many] { $you } выстрелов
    }, компьютер — { $ai ->
        [one] { $ai } выстрел
        [few] { $ai } выстрела
       *[many] { $ai } выстрелов
    }.
term-quit = Игра прервана. Возвращайтесь: morskoy-boy play

## Настольная игра «Рига»: `morskoy-boy play --game riga` (src/riga_terminal.rs)
term-riga-title = Рижский морской бой против компьютера, уровень: { $level }.
term-riga-sides = Вы — Юг (внизу, заглавные буквы), компьютер — Север (вверху, строчные).
term-riga-order = Ваши корабли с запада на восток: { $order }
term-riga-setup-prompt = Enter — принять этот порядок, r — перемешать, или введите буквы 12 кораблей с запада на восток (например { $example }); q — выйти:
term-riga-setup-unknown = Не понял: нажмите Enter, введите r или q или буквы всех 12 кораблей с запада на восток, например { $example }.
term-riga-first-you = Жребий: вы ходите первым.
term-riga-first-ai = Жребий: первым ходит компьютер.
term-riga-example = д11 вперёд
term-riga-prompt = Ваш ход: точка и действие — в вперёд, л влево, п вправо, м поставить мину (например { $example }); ? — условные знаки, q — выйти:
term-riga-quit = Игра прервана. Возвращайтесь: morskoy-boy play --game riga
term-turns = Ходы: ваших { $you }, компьютера { $ai }.
term-prompt-arsenal = Ваш ход: клетка, например { $example }, или оружие — радар { $example }, авиаудар { $example }, торпеда с клетки у края (из угла со стрелкой: торпеда а1 →). Осталось: 📡{ $radar } ✈{ $air } 🚀{ $torpedo }; q — выход:
term-name-you = Вы
term-name-ai = Компьютер
