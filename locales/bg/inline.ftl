## A game in an inline message: the cards `@bot` offers in any chat, and the words of a
## battle the bot cannot see replies in (buttons only).

inline-sea-title = 🚢 Морска битка
inline-riga-title = ⚓ Рижката настолна игра
inline-riga-description = Поле 12 × 13 със суша, батареи и фарове; корабите се движат и се потапят. Двама играчи.
# The card as sent. $game is the game's name, $rules its rules in words, $name who sent it.
inline-card = <b>{ $game }</b>
    { $rules }

    { $name } ви кани на игра: натиснете „Играя“. Флотът се подрежда в личен чат с бота.
inline-card-gone = Тази карта е стара или не е изпратена от бота: изпратете нова, като напишете името на бота в чат.
inline-only = Този бутон работи само на картата, с която е дошъл.
battle-turn-tap = На ход е <b>{ $name }</b> — докоснете клетка.
battle-turn-at-tap = На ход: <b>{ $name }</b>, по полето на { $target } — натиснете клетка.
salvo-turn-tap = На ход: <b>{ $name }</b>, по полето на { $target } — изберете { $count ->
        [one] { $count } клетка
       *[other] { $count } клетки
    } и натиснете „Огън“.
rg-turn-tap = На ход е <b>{ $side }</b> — { $name }. Натиснете ход под съобщението. Без загуби подред: { $quiet } от { $limit } хода.
own-field-shoot-inline = Стреляйте в чата, където е изпратена играта.
rg-dm-battle-inline = Битката е в съобщението, с което е изпратена играта. Вие сте { $side }.
