## A game in an inline message: the cards `@bot` offers in any chat, and the words of a
## battle the bot cannot see replies in (buttons only).

inline-sea-title = 🚢 Морской бой
inline-riga-title = ⚓ Рижская настольная игра
inline-riga-description = Поле 12 × 13 с сушей, батареями и маяками; корабли ходят и топят друг друга. Двое игроков.
# The card as sent. $game is the game's name, $rules its rules in words, $name who sent it.
inline-card = <b>{ $game }</b>
    { $rules }

    { $name } приглашает сыграть: нажмите «Играю». Флот расставляется в личном чате с ботом.
inline-card-gone = Эта карточка устарела или отправлена не ботом: отправьте новую, набрав имя бота в чате.
inline-only = Эта кнопка работает только на своей карточке.
battle-turn-tap = Ходит <b>{ $name }</b> — нажмите клетку.
battle-turn-at-tap = Ход: <b>{ $name }</b>, по полю игрока { $target } — нажмите клетку.
salvo-turn-tap = Ход: <b>{ $name }</b>, по полю игрока { $target } — выберите { $count ->
        [one] { $count } клетку
        [few] { $count } клетки
       *[many] { $count } клеток
    } и нажмите «Огонь».
rg-turn-tap = Ходит <b>{ $side }</b> — { $name }. Нажмите ход под сообщением. Без потерь подряд: { $quiet } из { $limit } ходов.
own-field-shoot-inline = Стреляйте в чате, куда отправлена игра.
rg-dm-battle-inline = Бой идёт в сообщении, которым отправлена игра. Вы — { $side }.
