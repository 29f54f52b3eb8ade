# The Mini App's page (src/view/webapp.rs).
webapp-lobby = Играта още не е започнала.
webapp-waiting = Флотът ви е готов. Чакаме останалите…
webapp-placing = Играчите подреждат флотовете си.
webapp-your-turn = Ваш ред: докоснете клетка от полето на противника.
webapp-turn-of = Стреля { $name }.
webapp-over = Играта свърши.
webapp-dock = Плъзнете кораб върху полето:
webapp-drag-hint = Докоснете кораб, за да го завъртите; изтеглете го извън полето, за да го махнете.
webapp-open = 📱 Живо поле
webapp-open-editor = 📱 Подреди с плъзгане
webapp-conflict = Твърде близо до друг кораб: отместете го.
webapp-riga-order = Вашият ред: докоснете две стартови точки, за да размените корабите им, после „Готово“.
webapp-riga-your-turn = Ваш ход: докоснете свой кораб, после хода му.
