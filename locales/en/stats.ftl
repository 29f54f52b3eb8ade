# /stats and /top (src/telegram/stats.rs), and the ratings at the end of a game.
cmd-stats = Your games, wins, accuracy and ratings
cmd-top = The best players by rating
cmd-top-group = This chat's best players by rating
stats-none = { $name }, you have not finished a game yet: /newgame in a group, or /play against the bot.
stats-title = 📊 <b>{ $name }</b>
stats-games = Games: { $games }, won { $wins } ({ $percent }%)
stats-accuracy = Accuracy: { $percent }% of { $shots ->
        [one] { $shots } shot
       *[other] { $shots } shots
    }
stats-win-shots = Shots to win, on average: { $shots }
stats-streak = Longest run of hits: { $hits }
stats-favourite = Favourite rules: { $rules } ({ $games ->
        [one] { $games } game
       *[other] { $games } games
    })
stats-riga = Riga game: { $games ->
        [one] { $games } game
       *[other] { $games } games
    }, won { $wins }
stats-rating-chat = Rating in this chat: <b>{ $rating }</b>, place { $place } of { $total }
stats-rating-all = Rating among all players: <b>{ $rating }</b>, place { $place } of { $total }
stats-rating-bot = Rating against the bot: <b>{ $rating }</b> ({ $games ->
        [one] { $games } game
       *[other] { $games } games
    })
top-title-chat = 🏆 <b>The best players of this chat</b>
top-title-all = 🏆 <b>The best players</b>
top-row = { $place }. { $name } — <b>{ $rating }</b> · { top-games }
top-games = { $games ->
        [one] { $games } game
       *[other] { $games } games
    }
top-none-chat = Nobody here has a rating yet: it comes with the first game between people to the end (/newgame).
top-none-all = Nobody has a rating yet: it comes with the first game between people to the end.
end-ratings = Ratings:
end-rating = { $name }: { $before } → <b>{ $after }</b> ({ $change })
stats-win-turns = Turns to win, on average: { $turns }
end-figures = Turns and cells shot:
end-figure = { $name }: { $turns ->
        [one] { $turns } turn
       *[other] { $turns } turns
    }, { $cells ->
        [one] { $cells } cell shot
       *[other] { $cells } cells shot
    }, { $hits ->
        [one] { $hits } hit
       *[other] { $hits } hits
    }
stats-habits = What the bot has learned of your placements ({ $games ->
        [one] { $games } game
       *[other] { $games } games
    }):
stats-habits-border = • you put { $share }% of your big ships' cells on the edge (random layouts: { $usual }%)
stats-habits-singles = • { $share }% of your single-deckers stand off the edge (random layouts: { $usual }%)
stats-habits-half-left = • { $share }% of your ship cells are in the left half
stats-habits-half-right = • { $share }% of your ship cells are in the right half
stats-habits-half-top = • { $share }% of your ship cells are in the top half
stats-habits-half-bottom = • { $share }% of your ship cells are in the bottom half
stats-habits-upright = • { $share }% of your big ships stand upright (random layouts: { $usual }%)
stats-habits-compact = • your fleet is packed tighter than { $share }% of random layouts
stats-habits-trust = • how much the learning level leans on it: { $weight }%
