# /stats и /top (src/telegram/stats.rs), и рейтинги в конце игры.
cmd-stats = Ваши игры, победы, меткость и рейтинги
cmd-top = Лучшие игроки по рейтингу
cmd-top-group = Лучшие игроки этого чата по рейтингу
stats-none = { $name }, у вас ещё нет доигранных партий: /newgame в группе или /play против бота.
stats-title = 📊 <b>{ $name }</b>
stats-games = Партий: { $games }, побед: { $wins } ({ $percent }%)
stats-accuracy = Меткость: { $percent }% из { $shots ->
        [one] { $shots } выстрела
       *[other] { $shots } выстрелов
    }
stats-win-shots = Выстрелов до победы в среднем: { $shots }
stats-streak = Самая длинная серия попаданий: { $hits }
stats-favourite = Любимые правила: { $rules } ({ $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[other] { $games } партий
    })
stats-riga = Рижская игра: { $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[other] { $games } партий
    }, побед: { $wins }
stats-rating-chat = Рейтинг в этом чате: <b>{ $rating }</b>, место { $place } из { $total }
stats-rating-all = Рейтинг среди всех игроков: <b>{ $rating }</b>, место { $place } из { $total }
stats-rating-bot = Рейтинг против бота: <b>{ $rating }</b> ({ $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[other] { $games } партий
    })
top-title-chat = 🏆 <b>Лучшие игроки этого чата</b>
top-title-all = 🏆 <b>Лучшие игроки</b>
top-row = { $place }. { $name } — <b>{ $rating }</b> · { top-games }
top-games = { $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[other] { $games } партий
    }
top-none-chat = Рейтинга здесь ещё нет ни у кого: он появится после первой доигранной партии между людьми (/newgame).
top-none-all = Рейтинга ещё нет ни у кого: он появится после первой доигранной партии между людьми.
end-ratings = Рейтинги:
end-rating = { $name }: { $before } → <b>{ $after }</b> ({ $change })
stats-win-turns = Ходов до победы в среднем: { $turns }
end-figures = Ходы и выстрелы:
end-figure = { $name }: { $turns ->
        [one] { $turns } ход
        [few] { $turns } хода
       *[many] { $turns } ходов
    }, { $cells ->
        [one] { $cells } клетка обстреляна
        [few] { $cells } клетки обстреляны
       *[many] { $cells } клеток обстреляно
    }, { $hits ->
        [one] { $hits } попадание
        [few] { $hits } попадания
       *[many] { $hits } попаданий
    }
stats-habits = Что бот узнал о ваших расстановках ({ $games ->
        [one] { $games } партия
        [few] { $games } партии
       *[many] { $games } партий
    }):
stats-habits-border = • { $share }% клеток ваших больших кораблей — у края поля (у случайных расстановок { $usual }%)
stats-habits-singles = • { $share }% ваших однопалубных стоят не у края (у случайных расстановок { $usual }%)
stats-habits-half-left = • { $share }% клеток ваших кораблей — в левой половине поля
stats-habits-half-right = • { $share }% клеток ваших кораблей — в правой половине поля
stats-habits-half-top = • { $share }% клеток ваших кораблей — в верхней половине поля
stats-habits-half-bottom = • { $share }% клеток ваших кораблей — в нижней половине поля
stats-habits-upright = • { $share }% ваших больших кораблей стоят вертикально (у случайных расстановок { $usual }%)
stats-habits-compact = • ваш флот стоит теснее, чем { $share }% случайных расстановок
stats-habits-trust = • насколько обучаемый уровень на это полагается: { $weight }%
