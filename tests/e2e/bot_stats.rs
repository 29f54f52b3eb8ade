//! End to end, statistics and ratings (issue 16): `/stats` and `/top` after a game, each
//! chat with its own leaderboard, someone who never played, and the words in the reader's
//! language. (A rating moved once per game, even with `kill -9` at the end or a double tap
//! of the final shot, is in `tests/e2e/bot_delivery.rs`.) The real bot binary, a real Redis and
//! the fake Telegram, as in `tests/e2e/bot.rs`.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use morskoy_boy::game::record::Board;
use morskoy_boy::view::picture::leaderboard_size;

/// A message of `chat` (the latest) whose text or caption contains every one of `needles`.
async fn message_in(app: &App, chat: i64, needles: &[&str]) -> SentMessage {
    app.tg
        .wait_for(chat, |m| needles.iter().all(|n| m.text.contains(n)), wait())
        .await
        .unwrap_or_else(|| {
            panic!(
                "no message with {needles:?} in {chat}: {:?}",
                app.tg.all_texts(chat)
            )
        })
}

/// The text (or caption) of [`message_in`].
async fn said_in(app: &App, chat: i64, needles: &[&str]) -> String {
    message_in(app, chat, needles).await.text
}

/// Asserts that `m` is the leaderboard drawn for `rows` players: one photo of its size.
fn assert_leaderboard_picture(m: &SentMessage, rows: usize) {
    assert_eq!(m.photos.len(), 1, "a photo: {}", m.text);
    let (w, h, _) = decode_png(&m.photos[0]);
    assert_eq!((w, h), leaderboard_size(rows), "{}", m.text);
}

flow! {
    fn stats_and_the_leaderboard_after_a_game_each_chat_its_own() {
        let app = App::spawn().await;
        let (group, other) = (-7101, -7102);
        let a = app.player(71_001, "Alice", "en");
        let b = app.player(71_002, "Bob", "en");
        let carol = app.player(71_003, "Carol", "en");
        let dima = app.player(71_004, "Дима", "ru");
        // Before any game: nobody is rated, nobody has statistics.
        app.tg.group(group, "Sea dogs");
        app.tg.send_command(group, &a, "/top");
        said_in(&app, group, &["Nobody here has a rating yet"]).await;
        let mut d = duel(&app, group, a.clone(), b.clone()).await;
        play_out(&app, &mut d).await;
        let end = said_in(&app, group, &["Winner:", "Ratings:"]).await;
        let winner_is_alice = end
            .split("Winner:")
            .nth(1)
            .is_some_and(|rest| rest.trim_start().replace("<b>", "").starts_with("Alice"));
        let (winner, loser) = if winner_is_alice {
            ("Alice", "Bob")
        } else {
            ("Bob", "Alice")
        };
        // The chat's leaderboard, drawn (the bot's default board is a picture) with its words as
        // the caption: the winner first, each with one game.
        app.tg.send_command(group, &carol, "/top");
        let drawn = message_in(&app, group, &["The best players of this chat"]).await;
        assert_leaderboard_picture(&drawn, 2);
        let top = drawn.text;
        let first = top.find(&format!("1. {winner} — ")).expect(&top);
        let second = top.find(&format!("2. {loser} — ")).expect(&top);
        assert!(
            first < second && top.matches("· 1 game").count() == 2,
            "{top}"
        );
        // A chat that chose text sees the same words as text.
        app.set_board(group, Board::Text).await;
        app.tg.send_command(group, &a, "/top");
        let text = app
            .tg
            .wait_for(
                group,
                |m| m.text.contains("The best players of this chat") && m.photos.is_empty(),
                wait(),
            )
            .await
            .expect("the leaderboard as text");
        assert_eq!(text.text, top);
        assert!(text.photo.is_none(), "{:?}", text.photo);
        // Another chat has a leaderboard of its own: empty.
        app.tg.group(other, "Pirates");
        app.tg.send_command(other, &a, "/top");
        said_in(&app, other, &["Nobody here has a rating yet"]).await;
        // Everyone's, in a private chat.
        app.tg.send_command(71_003, &carol, "/top");
        let drawn = message_in(&app, 71_003, &["The best players"]).await;
        assert_leaderboard_picture(&drawn, 2);
        assert!(
            drawn.text.contains(&format!("1. {winner} — ")),
            "{}",
            drawn.text
        );
        // The winner's statistics in the group: the game, the win, the ratings and places.
        let w = if winner_is_alice { &a } else { &b };
        app.tg.send_command(group, w, "/stats");
        let stats = said_in(&app, group, &["Games: 1, won 1 (100%)"]).await;
        for needle in [
            "Accuracy: ",
            "Shots to win, on average: ",
            "Longest run of hits: ",
            "Favourite rules: classic 10×10",
            "Rating in this chat: ",
            "place 1 of 2",
            "Rating among all players: ",
        ] {
            assert!(stats.contains(needle), "{needle:?} in {stats}");
        }
        assert!(!stats.contains("against the bot"), "{stats}");
        // One game seen: too few to tell habits.
        assert!(!stats.contains("learned of your placements"), "{stats}");
        // The end said each player's turns and cells; /stats averages the winner's turns.
        let texts = app.tg.all_texts(group).join("\n");
        let figures = texts
            .lines()
            .find(|l| l.starts_with(&format!("{winner}: ")) && l.contains(" cells shot"))
            .unwrap_or_else(|| panic!("no figures of {winner} at the end: {texts}"));
        let turns = figures
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or_else(|| panic!("{figures}"));
        assert!(
            stats.contains(&format!("Turns to win, on average: {turns}\n"))
                || stats.ends_with(&format!("Turns to win, on average: {turns}")),
            "{figures} / {stats}"
        );
        // Five more games of the loser's, every ship in the left half: /stats tells the habit in
        // the figures the learning level samples by.
        let store = app.store().await;
        let l = if winner_is_alice { &b } else { &a };
        let left = "0,10,20,30 2,12,22 4,14,24 50,60 42,52 44,54 80 72 74 92";
        let ruleset = engine::Ruleset::default().to_string();
        seen_placing(&store, -7199, &ruleset, 9_000_000, (l.id.0, left), 5).await;
        app.tg.send_command(group, l, "/stats");
        let stats = said_in(&app, group, &["learned of your placements (6 games)"]).await;
        assert!(
            stats.contains("of your ship cells are in the left half"),
            "{stats}"
        );
        // The figures the model is fitted to: the half, the ships upright, the fleet packed.
        let figure = |stats: &str, needle: &str| -> i64 {
            stats
                .lines()
                .find(|l| l.contains(needle))
                .and_then(|l| l.split('%').next())
                .and_then(|l| l.rsplit(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{needle:?} in {stats}"))
        };
        assert!(figure(&stats, "left half") >= 80, "{stats}");
        assert!(
            figure(&stats, "of your big ships stand upright") >= 80,
            "{stats}"
        );
        assert!(figure(&stats, "of random layouts") >= 70, "{stats}");
        // Each person's habits are theirs: the other player of the same chat keeps to the right
        // half, and is told so (the chat's layouts, both people's, lean neither way).
        let right = "9,19,29,39 7,17,27 5,15,25 59,69 47,57 45,55 89 77 75 99";
        seen_placing(&store, -7199, &ruleset, 9_100_000, (w.id.0, right), 5).await;
        app.tg.send_command(group, w, "/stats");
        let theirs = said_in(&app, group, &["of your ship cells are in the right half"]).await;
        assert!(figure(&theirs, "right half") >= 80, "{theirs}");
        // Someone who never played, in English and in Russian.
        app.tg.send_command(71_003, &carol, "/stats");
        said_in(&app, 71_003, &["Carol, you have not finished a game yet"]).await;
        app.tg.send_command(71_004, &dima, "/stats");
        said_in(&app, 71_004, &["Дима, у вас ещё нет доигранных партий"]).await;
        // The leaderboard in Russian, with Russian plural forms, as text in a private chat that
        // chose text.
        app.set_board(71_004, Board::Text).await;
        app.tg.send_command(71_004, &dima, "/top");
        let words = message_in(&app, 71_004, &["Лучшие игроки", "· 1 партия"]).await;
        assert!(
            words.photos.is_empty() && words.photo.is_none(),
            "{words:?}"
        );
    }
}

flow! {
    fn a_game_against_the_bot_is_rated_apart_from_games_between_people() {
        let app = App::spawn().await;
        let anna = app.player(72_001, "Anna", "en");
        app.welcomed(&anna).await;
        app.tg.send_command(72_001, &anna, "/play easy");
        place_and_ready(&app, &anna).await;
        app.message_with_button(72_001, "f:").await;
        app.tg.send_command(72_001, &anna, "/surrender");
        said_in(&app, 72_001, &["Ratings:", "Anna: 1000 → "]).await;
        app.tg.send_command(72_001, &anna, "/stats");
        let stats = said_in(&app, 72_001, &["Rating against the bot: "]).await;
        assert!(stats.contains("Games: 1, won 0 (0%)"), "{stats}");
        assert!(!stats.contains("among all players"), "{stats}");
        // Games against the bot stay off the leaderboard of games between people.
        app.tg.send_command(72_001, &anna, "/top");
        said_in(&app, 72_001, &["Nobody has a rating yet"]).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_called_off_during_the_placement_counts_for_nobody() {
    let app = App::spawn().await;
    let group = -7301;
    let a = app.player(73_001, "Alice", "en");
    let b = app.player(73_002, "Bob", "en");
    let lobby = lobby_of_two(&app, group, &a, &b).await;
    app.press(group, &a, lobby.message_id, &data(&lobby, "s:"))
        .await;
    // Alice's fleet is placed and ready; then she calls the game off.
    place_and_ready(&app, &a).await;
    app.tg.send_command(group, &a, "/cancel");
    let store = app.store().await;
    let deadline = tokio::time::Instant::now() + wait();
    while store.chat_game(group, None).await.unwrap().is_some() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the game is not over"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for p in [&a, &b] {
        assert!(
            store.all_stats(p.id.0).await.unwrap().is_empty(),
            "{}",
            p.first_name
        );
    }
    app.tg.send_command(group, &a, "/top");
    said_in(&app, group, &["Nobody here has a rating yet"]).await;
}
