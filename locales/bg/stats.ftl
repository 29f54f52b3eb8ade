# /stats и /top (src/telegram/stats.rs), и рейтингите в края на играта.
cmd-stats = Вашите игри, победи, точност и рейтинги
cmd-top = Най-добрите играчи по рейтинг
cmd-top-group = Най-добрите играчи в този чат по рейтинг
stats-none = { $name }, още нямате завършена игра: /newgame в група или /play срещу бота.
stats-title = 📊 <b>{ $name }</b>
stats-games = Игри: { $games }, победи: { $wins } ({ $percent }%)
stats-accuracy = Точност: { $percent }% от { $shots ->
        [one] { $shots } изстрел
       *[other] { $shots } изстрела
    }
stats-win-shots = Изстрели до победа средно: { $shots }
stats-streak = Най-дълга серия попадения: { $hits }
stats-favourite = Любими правила: { $rules } ({ $games ->
        [one] { $games } игра
       *[other] { $games } игри
    })
stats-riga = Рижката игра: { $games ->
        [one] { $games } игра
       *[other] { $games } игри
    }, победи: { $wins }
stats-rating-chat = Рейтинг в този чат: <b>{ $rating }</b>, място { $place } от { $total }
stats-rating-all = Рейтинг сред всички играчи: <b>{ $rating }</b>, място { $place } от { $total }
stats-rating-bot = Рейтинг срещу бота: <b>{ $rating }</b> ({ $games ->
        [one] { $games } игра
       *[other] { $games } игри
    })
top-title-chat = 🏆 <b>Най-добрите играчи в този чат</b>
top-title-all = 🏆 <b>Най-добрите играчи</b>
top-row = { $place }. { $name } — <b>{ $rating }</b> · { top-games }
top-games = { $games ->
        [one] { $games } игра
       *[other] { $games } игри
    }
top-none-chat = Тук още никой няма рейтинг: той идва с първата завършена игра между хора (/newgame).
top-none-all = Още никой няма рейтинг: той идва с първата завършена игра между хора.
end-ratings = Рейтинги:
end-rating = { $name }: { $before } → <b>{ $after }</b> ({ $change })
stats-win-turns = Ходове до победа средно: { $turns }
end-figures = Ходове и изстрели:
end-figure = { $name }: { $turns ->
        [one] { $turns } ход
       *[other] { $turns } хода
    }, { $cells ->
        [one] { $cells } обстреляна клетка
       *[other] { $cells } обстреляни клетки
    }, { $hits ->
        [one] { $hits } попадение
       *[other] { $hits } попадения
    }
stats-habits = Какво научи ботът за вашите подреждания ({ $games ->
        [one] { $games } игра
       *[other] { $games } игри
    }):
stats-habits-border = • { $share }% от клетките на големите ви кораби са до края на полето (при случайни подреждания { $usual }%)
stats-habits-singles = • { $share }% от едноклетъчните ви кораби не са до края (при случайни подреждания { $usual }%)
stats-habits-half-left = • { $share }% от клетките на корабите ви са в лявата половина
stats-habits-half-right = • { $share }% от клетките на корабите ви са в дясната половина
stats-habits-half-top = • { $share }% от клетките на корабите ви са в горната половина
stats-habits-half-bottom = • { $share }% от клетките на корабите ви са в долната половина
stats-habits-upright = • { $share }% от големите ви кораби са вертикални (при случайни подреждания { $usual }%)
stats-habits-compact = • флотът ви е по-сгъстен от { $share }% от случайните подреждания
stats-habits-trust = • доколко обучаващото се ниво разчита на това: { $weight }%
