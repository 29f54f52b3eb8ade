## A game in an inline message: the cards `@bot` offers in any chat, and the words of a
## battle the bot cannot see replies in (buttons only).

inline-sea-title = 🚢 Sea Battle
inline-riga-title = ⚓ Riga board game
inline-riga-description = A 12 × 13 board with land, batteries and lighthouses; ships move and sink each other. Two players.
# The card as sent. $game is the game's name, $rules its rules in words, $name who sent it.
inline-card = <b>{ $game }</b>
    { $rules }

    { $name } invites you to play: press Join. The fleets are placed in a private chat with the bot.
inline-card-gone = This card is too old or was never sent by the bot: send a new one by typing the bot's name in a chat.
inline-only = This button works only on the card it came with.
battle-turn-tap = Turn: <b>{ $name }</b> — tap a cell.
battle-turn-at-tap = Turn: <b>{ $name }</b>, at the field of { $target } — tap a cell.
salvo-turn-tap = Turn: <b>{ $name }</b>, at the field of { $target } — pick { $count ->
        [one] one cell
       *[other] { $count } cells
    }, then press Fire.
rg-turn-tap = <b>{ $side }</b> to move — { $name }. Tap a move under this message. Moves in a row with no loss: { $quiet } of { $limit }.
own-field-shoot-inline = You shoot in the chat the game was sent to.
rg-dm-battle-inline = The battle is on in the message the game was sent as. You are { $side }.
