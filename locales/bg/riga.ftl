# Рижка морска битка (docs/rules.md §5): думите на играта (src/riga_text.rs)

## Страните
riga-side-north = Север
riga-side-south = Юг

## Корабите: име, същото като допълнение („потопи …“), съкращение и буква на дъската
riga-ship-cruiser = крайцер
riga-ship-submarine = подводница
riga-ship-destroyer = разрушител
riga-ship-patrol = патрулен кораб
riga-ship-minesweeper = миночистач
riga-ship-acc-cruiser = крайцер
riga-ship-acc-submarine = подводница
riga-ship-acc-destroyer = разрушител
riga-ship-acc-patrol = патрулен кораб
riga-ship-acc-minesweeper = миночистач
riga-abbr-cruiser = К
riga-abbr-submarine = ПЛ
riga-abbr-destroyer = Р
riga-abbr-patrol = ПК
riga-abbr-minesweeper = МЧ
riga-glyph-cruiser = К
riga-glyph-submarine = П
riga-glyph-destroyer = Р
riga-glyph-patrol = Т
riga-glyph-minesweeper = М

## Дъската
riga-legend =
    К крайцер, П подводница, Р разрушител, Т патрулен кораб, М миночистач; стрелката — накъде е носът
    ГЛАВНИ — Юг, малки — Север; > < и главна буква на колоната — последният ход
    Точки: · море, # суша, @ батарея, ! под огъня на батарея, ^ фар, o старт, * мина
riga-fleet = { $side }: { $ships ->
        [one] { $ships } кораб
       *[other] { $ships } кораба
    } на вода, { $mines ->
        [one] { $mines } мина
       *[other] { $mines } мини
    } в запас

## Ходовете. $kind — видът на кораба, който е ходил (cruiser, submarine, …): в руския от него зависи родът на глагола.
riga-move-step = { $side }: { $ship } { $from } → { $to }
riga-move-lay = { $side }: { $ship } { $from } → { $to }, остави мина на { $from }
riga-move-left = { $side }: { $ship } { $at } — завой наляво
riga-move-right = { $side }: { $ship } { $at } — завой надясно
riga-move-pass = { $side } пропуска хода (няма ходове)
riga-loss-sunk = { $kind ->
       *[other] потопи
    } { $target }
riga-loss-mine = { $kind ->
       *[other] се взриви на мина
    }
riga-loss-battery = { $kind ->
       *[other] загина под огъня на брегова батарея
    }

## Краят на играта
riga-end-win-north = Победи Север: Юг няма повече кораби
riga-end-win-south = Победи Юг: Север няма повече кораби
riga-end-draw-quiet = Равенство: { $moves ->
        [one] { $moves } ход
       *[other] { $moves } хода
    } поред без загуби
riga-end-draw-stuck = Равенство: никоя от страните не може да направи ход

## Защо ходът не е приет
riga-error-form = Ходът не е разбран: нужни са точка и действие, например { $example }.
riga-error-off-board = Такава точка няма на дъската: колоните са { $first }–{ $last }, редовете 1–13.
riga-error-no-ship = Там няма ваш кораб.
riga-error-over = Играта вече е свършила.
riga-error-not-your-turn = Сега не е ваш ход.
riga-error-blocked = Отпред е суша или краят на дъската: натам не може.
riga-error-own-ship = Отпред стои ваш собствен кораб.
riga-error-cannot-sink = Този кораб не може да потопи онзи отпред.
riga-error-destroyer-stern = Разрушителят не потопява кораб, обърнат към него с кърмата.
riga-error-patrol-cruiser = Патрулният кораб не потопява крайцер.
riga-error-patrol-bow = Патрулният кораб не потопява кораб, обърнат към него с носа.
riga-error-minesweeper-prey = Миночистачът потопява само подводници и миночистачи.
riga-error-not-minesweeper = Мини поставя само миночистачът.
riga-error-no-mines = И двете мини вече са поставени.
riga-error-mined = Тук вече има мина.
riga-error-must-move = Ход може да се пропусне само когато няма друг.
riga-error-setup = Нужни са всички 12 кораба на флота: 1 К, 2 П, 6 Р, 2 Т, 1 М.
