# The Mini App's page (src/view/webapp.rs).
webapp-lobby = The game has not begun yet.
webapp-waiting = Your fleet is locked. Waiting for the others…
webapp-placing = The players are placing their fleets.
webapp-your-turn = Your turn: tap a cell of an enemy field.
webapp-turn-of = { $name } is shooting.
webapp-over = The game is over.
webapp-dock = Drag a ship onto the field:
webapp-drag-hint = Tap a ship to turn it; drag it off the field to take it back.
webapp-open = 📱 Live board
webapp-open-editor = 📱 Place by dragging
webapp-conflict = Too close to another ship: move it away.
webapp-riga-order = Your order: tap two start points to swap their ships, then Ready.
webapp-riga-your-turn = Your move: tap one of your ships, then its move.
webapp-unauthorized = This page cannot tell who you are: Telegram's sign-in is missing, altered or too old. Close it and open it again from the chat.
