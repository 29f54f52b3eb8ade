# Рижский морской бой (docs/rules.md §5): слова игры (src/riga_text.rs)

## Стороны
riga-side-north = Север
riga-side-south = Юг

## Корабли: название, оно же в винительном падеже («потопил …»), сокращение и буква на доске
riga-ship-cruiser = крейсер
riga-ship-submarine = подводная лодка
riga-ship-destroyer = эсминец
riga-ship-patrol = сторожевой корабль
riga-ship-minesweeper = тральщик
riga-ship-acc-cruiser = крейсер
riga-ship-acc-submarine = подводную лодку
riga-ship-acc-destroyer = эсминец
riga-ship-acc-patrol = сторожевой корабль
riga-ship-acc-minesweeper = тральщик
riga-abbr-cruiser = К
riga-abbr-submarine = Пл
riga-abbr-destroyer = ЭМ
riga-abbr-patrol = СКР
riga-abbr-minesweeper = Т
riga-glyph-cruiser = К
riga-glyph-submarine = П
riga-glyph-destroyer = Э
riga-glyph-patrol = С
riga-glyph-minesweeper = Т

## Доска
riga-legend =
    К крейсер, П подлодка, Э эсминец, С сторожевой, Т тральщик; стрелка — куда смотрит нос
    ЗАГЛАВНЫЕ — Юг, строчные — Север; > < и заглавная буква столбца — последний ход
    Точки: · море, # суша, @ батарея, ! под огнём батареи, ^ маяк, o старт, * мина
riga-fleet = { $side }: { $ships ->
        [one] { $ships } корабль
        [few] { $ships } корабля
       *[many] { $ships } кораблей
    } на плаву, { $mines ->
        [one] { $mines } мина
        [few] { $mines } мины
       *[many] { $mines } мин
    } в запасе

## Ходы. $kind — тип ходившего корабля (cruiser, submarine, …): от него зависит род глагола.
riga-move-step = { $side }: { $ship } { $from } → { $to }
riga-move-lay = { $side }: { $ship } { $from } → { $to }, поставил мину на { $from }
riga-move-left = { $side }: { $ship } { $at } — поворот налево
riga-move-right = { $side }: { $ship } { $at } — поворот направо
riga-move-pass = { $side } пропускает ход (ходов нет)
riga-loss-sunk = { $kind ->
        [submarine] потопила
       *[other] потопил
    } { $target }
riga-loss-mine = { $kind ->
        [submarine] подорвалась
       *[other] подорвался
    } на мине
riga-loss-battery = { $kind ->
        [submarine] погибла
       *[other] погиб
    } под огнём батареи

## Конец игры
riga-end-win-north = Победил Север: у Юга не осталось кораблей
riga-end-win-south = Победил Юг: у Севера не осталось кораблей
riga-end-draw-quiet = Ничья: { $moves ->
        [one] { $moves } ход
        [few] { $moves } хода
       *[many] { $moves } ходов
    } подряд без потерь
riga-end-draw-stuck = Ничья: ни одна из сторон не может сделать ход

## Почему ход не принят
riga-error-form = Не понял ход: нужны точка и действие, например { $example }.
riga-error-off-board = Такой точки нет на доске: столбцы { $first }–{ $last }, строки 1–13.
riga-error-no-ship = Там нет вашего корабля.
riga-error-over = Игра уже окончена.
riga-error-not-your-turn = Сейчас не ваш ход.
riga-error-blocked = Впереди суша или край доски: туда не пройти.
riga-error-own-ship = Впереди стоит ваш же корабль.
riga-error-cannot-sink = Этот корабль не может потопить тот, что впереди.
riga-error-destroyer-stern = Эсминец не топит корабль, повёрнутый к нему кормой.
riga-error-patrol-cruiser = Сторожевой корабль не топит крейсер.
riga-error-patrol-bow = Сторожевой корабль не топит корабль, повёрнутый к нему носом.
riga-error-minesweeper-prey = Тральщик топит только подводные лодки и тральщики.
riga-error-not-minesweeper = Мины ставит только тральщик.
riga-error-no-mines = Обе мины уже поставлены.
riga-error-mined = Здесь уже стоит мина.
riga-error-must-move = Пропустить ход можно, только когда ходить нечем.
riga-error-setup = Нужны все 12 кораблей флота: 1 К, 2 П, 6 Э, 2 С, 1 Т.
