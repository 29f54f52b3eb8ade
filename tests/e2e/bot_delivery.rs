//! What the group and the players see, in order and exactly once, however the bot is paced,
//! killed or doubled: the real bot binary against the fake Bot API and a real Redis.
//!
//! Every check here reads sequences (each state a message went through, each message sent),
//! not only the final state.

use crate::fake_telegram::{SentMessage, Shown};
use crate::helpers::*;
use std::time::Duration;
use teloxide::types::User;
use tokio::time::Instant;

/// Cells a group message shows as known (shot, missed, hit, sunk, a mine): only the grid's
/// lines count, those that start with a row number.
fn known_in_text(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|l| l.chars().filter(|c| "•X#*+".contains(*c)).count())
        .sum()
}

/// The cells a state of the battle message shows shot or known: read off its picture (two
/// classic fields), or off its text.
fn known(s: &Shown) -> usize {
    match &s.photo {
        Some(png) => picture_known(png, 2, engine::Size::new(10, 10)),
        None => known_in_text(&s.text),
    }
}

/// The battle message of `d` as it stands, with every state it went through.
fn battle_message(app: &App, d: &Duel) -> SentMessage {
    app.tg
        .messages(d.group)
        .into_iter()
        .find(|m| m.message_id == d.battle)
        .expect("the battle message")
}

/// Messages of `chat` that had, in any of their states, a button whose data starts with
/// `prefix`.
fn with_button(app: &App, chat: i64, prefix: &str) -> Vec<SentMessage> {
    app.tg
        .messages(chat)
        .into_iter()
        .filter(|m| {
            m.history
                .iter()
                .any(|s| s.data.iter().any(|d| d.starts_with(prefix)))
        })
        .collect()
}

/// Every state of the battle message shows at least the cells the one before it showed; once
/// it has lost its keyboard (the end) it never gets one again.
fn assert_never_goes_back(history: &[Shown]) {
    assert!(!history.is_empty());
    for pair in history.windows(2) {
        assert!(
            known(&pair[1]) >= known(&pair[0]),
            "the battle message went back from {} known cells to {}:\n{}\n---\n{}",
            known(&pair[0]),
            known(&pair[1]),
            pair[0].text,
            pair[1].text
        );
        assert!(
            !pair[1].keyboard || pair[0].keyboard,
            "the battle message got its keyboard back after the end:\n{}",
            pair[1].text
        );
    }
}

/// Plays `d` to the end by buttons, as fast as the answers come.
async fn shoot_to_the_end(app: &App, d: &mut Duel) {
    let mut n = 0;
    while !d.is_over(app) {
        n += 1;
        assert!(n < 600, "the game does not end");
        if d.shoot_button(app).await == Shot::Over {
            break;
        }
    }
}

/// Waits for the end's announcement (the message with Rematch) and for the battle message's
/// last state without a keyboard.
async fn wait_for_the_end(app: &App, d: &Duel) -> SentMessage {
    let end = app
        .tg
        .wait_for(
            d.group,
            |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
            Duration::from_secs(120),
        )
        .await
        .expect("the end is announced");
    let battle = d.battle;
    app.tg
        .wait_for(
            d.group,
            |m| m.message_id == battle && !m.has_keyboard(),
            Duration::from_secs(120),
        )
        .await
        .expect("the battle message shows the end");
    end
}

/// A whole game at a group gap of `gap_ms` and the default budget: the battle message never
/// goes back, ends as the final state without buttons, is never edited to the same text, and
/// the group never gets more than 20 sends and edits a minute.
async fn a_whole_game_reads_in_order(gap_ms: u64, group: i64, base: i64) {
    let app = App::spawn_with(gap_ms, None).await;
    let a = app.player(base + 1, "Alice", "en");
    let b = app.player(base + 2, "Bob", "en");
    let mut d = duel(&app, group, a, b).await;
    shoot_to_the_end(&app, &mut d).await;
    let end = wait_for_the_end(&app, &d).await;
    // Let anything late arrive before reading the history.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let battle = battle_message(&app, &d);
    assert_never_goes_back(&battle.history);
    let last = battle.history.last().unwrap();
    assert!(!last.keyboard, "the battle message ends with buttons");
    assert!(
        known(last) >= d.shots,
        "the battle message's last state shows {} cells of {} shots",
        known(last),
        d.shots
    );
    // After the end has been shown, nothing but the end is shown.
    let first_end = battle
        .history
        .iter()
        .position(|s| !s.keyboard)
        .expect("an end state");
    assert!(battle.history[first_end..].iter().all(|s| !s.keyboard));
    // Once the end is announced, the battle message shows nothing but the end.
    let announced = end.history[0].at;
    assert!(
        battle
            .history
            .iter()
            .filter(|s| s.at > announced)
            .all(|s| !s.keyboard),
        "a live board after the announcement"
    );
    let errors = app.tg.errors();
    assert!(
        !errors
            .iter()
            .any(|e| e.description.contains("not modified")),
        "edits to the same text: {errors:?}"
    );
    assert!(
        errors.iter().all(|e| e.status != 429),
        "the bot ran into Telegram's flood limit: {errors:?}"
    );
    let most = app.tg.max_per_minute(d.group);
    assert!(most <= 20, "{most} sends and edits in one minute");
    // Exactly one of each: the battle message and the announcement.
    assert_eq!(with_button(&app, d.group, "r:").len(), 1, "announcements");
    assert_eq!(battles(&app, d.group), 1, "battle messages");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_at_the_default_gap_never_shows_an_older_state() {
    a_whole_game_reads_in_order(3500, -6101, 61_000).await;
}

flow! {
    fn a_whole_game_at_a_300_ms_gap_never_shows_an_older_state_nor_floods() {
        a_whole_game_reads_in_order(300, -6102, 62_000).await;
    }
}

/// A test's world whose bot will kill itself (`kill -9`) at `point`.
async fn crashing_at(point: &str) -> App {
    let mut app = App::spawn().await;
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), point.into()));
    app.start_bot().await;
    app
}

/// The messages of a private chat with the placement editor's buttons.
fn editors(app: &App, p: &User) -> usize {
    with_button(app, p.id.0 as i64, "pe:").len()
}

/// Private messages that show a player's own fleet (as text or as a picture).
fn own_fields(app: &App, p: &User) -> usize {
    app.tg
        .messages(p.id.0 as i64)
        .into_iter()
        .filter(|m| !m.deleted && m.text.contains("Your fleet"))
        .count()
}

/// The battle messages in a group: messages that had Fire buttons.
fn battles(app: &App, group: i64) -> usize {
    with_button(app, group, "f:").len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_between_start_and_the_editors_each_player_gets_one_editor() {
    let mut app = crashing_at("start").await;
    let group = -6201;
    let a = app.player(63_001, "Alice", "en");
    let b = app.player(63_002, "Bob", "en");
    let lobby = lobby_of_two(&app, group, &a, &b).await;
    let start = data(&lobby, "s:");
    app.tg.press_stale(group, &a, lobby.message_id, &start);
    wait_for_the_crash(&mut app).await;
    assert_eq!(editors(&app, &a) + editors(&app, &b), 0);
    app.restart_bot().await;
    // The start was stored: each player gets their editor, once.
    for p in [&a, &b] {
        app.message_with_button(p.id.0 as i64, "pe:").await;
    }
    // A press after the restart is answered: Start again is out of date, and sends nothing.
    let again = app.press(group, &a, lobby.message_id, &start).await;
    assert!(again.text.is_some(), "{again:?}");
    for p in [&a, &b] {
        place_and_ready(&app, p).await;
    }
    let battle = app.message_with_button(group, "f:").await;
    let mut d = Duel::from_battle(&battle, [a.clone(), b.clone()], group);
    for _ in 0..3 {
        d.shoot_button(&app).await;
    }
    assert_eq!(editors(&app, &a), 1, "Alice's editors");
    assert_eq!(editors(&app, &b), 1, "Bob's editors");
    assert_eq!(battles(&app, group), 1);
    assert_no_4xx(&app);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_between_the_last_ready_and_the_battle_message_the_battle_appears_once() {
    let mut app = crashing_at("last-ready").await;
    let group = -6202;
    let a = app.player(63_011, "Alice", "en");
    let b = app.player(63_012, "Bob", "en");
    let lobby = lobby_of_two(&app, group, &a, &b).await;
    app.press(group, &a, lobby.message_id, &data(&lobby, "s:"))
        .await;
    place_and_ready(&app, &a).await;
    // Bob's Ready is the last: the bot dies after storing it.
    let chat = b.id.0 as i64;
    let editor = app.message_with_button(chat, "pe:").await;
    let random = editor
        .callback_data()
        .into_iter()
        .find(|d| d.ends_with(":r"))
        .unwrap();
    app.press(chat, &b, editor.message_id, &random).await;
    let ready = editor
        .callback_data()
        .into_iter()
        .find(|d| d.ends_with(":k"))
        .unwrap();
    app.tg.press_stale(chat, &b, editor.message_id, &ready);
    wait_for_the_crash(&mut app).await;
    assert_eq!(battles(&app, group), 0);
    app.restart_bot().await;
    let battle = app.message_with_button(group, "f:").await;
    let mut d = Duel::from_battle(&battle, [a.clone(), b.clone()], group);
    // Ready again, after the restart, is answered (the fleet is locked already).
    let again = app.press(chat, &b, editor.message_id, &ready).await;
    assert!(again.text.is_some(), "{again:?}");
    for _ in 0..4 {
        let shot = d.shoot_button(&app).await;
        assert_ne!(shot, Shot::Over);
    }
    for p in [&a, &b] {
        let chat = p.id.0 as i64;
        app.tg
            .wait_for(chat, |m| m.text.contains("Your fleet"), wait())
            .await
            .expect("a private field");
        assert_eq!(own_fields(&app, p), 1, "{}'s fields", p.first_name);
    }
    assert_eq!(battles(&app, group), 1);
    // The lobby's message was retired once, and shows no buttons.
    let old = app
        .tg
        .messages(group)
        .into_iter()
        .find(|m| m.message_id == lobby.message_id)
        .unwrap();
    assert!(!old.has_keyboard());
    assert_no_4xx(&app);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_after_a_shot_was_stored_the_result_still_reaches_the_group() {
    let mut app = crashing_at("shot").await;
    let group = -6203;
    let a = app.player(63_021, "Alice", "en");
    let b = app.player(63_022, "Bob", "en");
    // The crash point is every shot: get the duel ready first with a bot that does not crash.
    app.env.clear();
    app.restart_bot().await;
    let mut d = duel(&app, group, a.clone(), b.clone()).await;
    settled(&app, d.game).await;
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "shot".into()));
    app.start_bot().await;
    let seat = d.turn;
    let cell = d.next_cell(seat).unwrap();
    app.tg
        .press_stale(group, &d.players[seat], d.battle, &d.fire_data(seat, cell));
    wait_for_the_crash(&mut app).await;
    app.restart_bot().await;
    // The stored shot shows in the group without anyone pressing again.
    let name = format!("{}{}", char::from(b'A' + (cell % 10) as u8), cell / 10 + 1);
    let line = format!("{}: {name} — ", d.players[seat].first_name);
    app.tg
        .wait_for(
            group,
            |m| m.message_id == d.battle && m.text.contains(&line),
            wait(),
        )
        .await
        .unwrap_or_else(|| {
            panic!(
                "the stored shot {line} does not reach the group: {:?}",
                battle_message(&app, &d).history
            )
        });
    // Pressed again, the same cell is known; the game goes on to its end.
    let answer = app
        .press(group, &d.players[seat], d.battle, &d.fire_data(seat, cell))
        .await;
    assert!(
        matches!(read_answer(&said(&answer)), Shot::Known | Shot::NotYourTurn),
        "{answer:?}"
    );
    shoot_to_the_end(&app, &mut d).await;
    wait_for_the_end(&app, &d).await;
    assert_eq!(battles(&app, group), 1);
    assert_eq!(with_button(&app, group, "r:").len(), 1);
    assert_never_goes_back(&battle_message(&app, &d).history);
    assert_no_4xx(&app);
}

/// The cells of `seat`'s ships, as button indices.
async fn ship_cells(app: &App, game: u64, seat: u8) -> Vec<usize> {
    let store = app.store().await;
    let (rec, _) = store
        .load_game(morskoy_boy::store::GameId(game))
        .await
        .unwrap();
    rec.game
        .fleet(engine::SeatId(seat))
        .unwrap()
        .ship_cells()
        .map(|c| usize::from(c.y) * 10 + usize::from(c.x))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_after_the_final_shot_the_end_is_announced_and_counted_once() {
    let mut app = App::spawn().await;
    let group = -6204;
    let a = app.player(63_031, "Alice", "en");
    let b = app.player(63_032, "Bob", "en");
    let d = duel(&app, group, a.clone(), b.clone()).await;
    settled(&app, d.game).await;
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "final-shot".into()));
    app.start_bot().await;
    // Whoever moves first hits every ship cell in turn: the last hit ends the game.
    let seat = d.turn;
    let cells = ship_cells(&app, d.game, 1 - seat as u8).await;
    let (last, rest) = cells.split_last().unwrap();
    for &cell in rest {
        let answer = app
            .press(group, &d.players[seat], d.battle, &d.fire_data(seat, cell))
            .await;
        assert!(
            matches!(read_answer(&said(&answer)), Shot::Hit | Shot::Sunk),
            "{answer:?}"
        );
    }
    app.tg
        .press_stale(group, &d.players[seat], d.battle, &d.fire_data(seat, *last));
    wait_for_the_crash(&mut app).await;
    assert_eq!(with_button(&app, group, "r:").len(), 0);
    app.restart_bot().await;
    let end = wait_for_the_end(&app, &d).await;
    assert!(end.text.contains("Winner"), "{}", end.text);
    assert!(end.text.contains("ships="), "{}", end.text);
    // A press after the restart is answered: the game is over.
    let answer = app
        .press(
            group,
            &d.players[1 - seat],
            d.battle,
            &d.fire_data(1 - seat, 0),
        )
        .await;
    assert_eq!(read_answer(&said(&answer)), Shot::Over, "{answer:?}");
    for p in [&a, &b] {
        app.tg
            .wait_for(
                p.id.0 as i64,
                |m| m.text.contains("Your fleet") && m.text.contains("over"),
                wait(),
            )
            .await
            .unwrap_or_else(|| panic!("{}'s private field is not final", p.first_name));
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(with_button(&app, group, "r:").len(), 1, "announcements");
    assert_eq!(battles(&app, group), 1);
    // Each player's game is counted once, the win once, the ratings moved once.
    assert_rated_once(&app, &d, seat).await;
    // The group is free for a new game.
    app.tg.send_command(group, &b, "/newgame");
    app.message_with_button(group, "j:").await;
    assert_no_4xx(&app);
}

/// The end of `d`, won by `winner`, counted once: each player's game, win, shots in the
/// statistics; the ratings on the chat's board and everyone's moved once from where a first
/// game starts, as `rating::rate` says; and the announcement tells them.
async fn assert_rated_once(app: &App, d: &Duel, winner: usize) {
    use morskoy_boy::game::rating::{rate, Outcome, Rating};
    use morskoy_boy::store::Leaderboard;
    let store = app.store().await;
    let rules = engine::Ruleset::default().to_string();
    let expected = rate(
        &Outcome {
            sides: vec![vec![0], vec![1]],
            ranks: vec![1, 2],
        },
        &[Rating::default(), Rating::default()],
    );
    let users = [d.players[winner].id.0, d.players[1 - winner].id.0];
    for board in [Leaderboard::Chat(d.group), Leaderboard::People] {
        let got = store.ratings(board, &users).await.unwrap();
        for (i, r) in got.iter().enumerate() {
            let r = r
                .as_ref()
                .unwrap_or_else(|| panic!("{board:?}: player {i} not rated"));
            assert_eq!(r.games, 1, "{board:?}: player {i}'s rated games");
            assert!((r.mu - expected[i].mu).abs() < 1e-4, "{board:?} {i}: {r:?}");
            assert!(
                (r.sigma - expected[i].sigma).abs() < 1e-4,
                "{board:?} {i}: {r:?}"
            );
        }
        let top = store.top(board, 10).await.unwrap();
        let order: Vec<u64> = top.iter().map(|r| r.user).collect();
        assert_eq!(order, users.to_vec(), "{board:?}: the winner first");
    }
    for (i, p) in d.players.iter().enumerate() {
        let stats = store.all_stats(p.id.0).await.unwrap();
        for scope in [rules.as_str(), "all"] {
            let n = |f: &str| stats.get(&format!("{scope}|{f}")).copied().unwrap_or(0);
            assert_eq!(n("games"), 1, "{}'s games", p.first_name);
            assert_eq!(n("wins"), u64::from(i == winner), "{}'s wins", p.first_name);
            assert!(
                n("shots") >= n("hits") && n("hits") >= n("streak"),
                "{stats:?}"
            );
        }
    }
    let end = with_button(app, d.group, "r:");
    let text = &end.last().expect("the announcement").text;
    let line = |i: usize| {
        format!(
            "{}: 1000 → {} ({:+})",
            d.players[[winner, 1 - winner][i]].first_name,
            expected[i].shown(),
            expected[i].shown() - 1000
        )
    };
    assert!(
        text.contains("Ratings:") && text.contains(&line(0)) && text.contains(&line(1)),
        "{text}"
    );
}

/// Whoever moves first hits every ship cell of the other in turn, the last one pressed
/// twice at once (a double tap), with the bot killing itself at `point` (`kill -9`) when
/// given: started again, the end is announced once and counted once.
async fn won_with_a_crash_at(point: Option<&str>) {
    let mut app = App::spawn().await;
    let group = -6210 - i64::from(point.map_or(0, |p| p.len() as u8));
    let a = app.player(63_051, "Alice", "en");
    let b = app.player(63_052, "Bob", "en");
    let d = duel(&app, group, a, b).await;
    settled(&app, d.game).await;
    if let Some(point) = point {
        app.kill_bot();
        app.env.push(("MB_CRASH_AT".into(), point.into()));
        app.start_bot().await;
    }
    let seat = d.turn;
    let cells = ship_cells(&app, d.game, 1 - seat as u8).await;
    let (last, rest) = cells.split_last().unwrap();
    for &cell in rest {
        app.press(group, &d.players[seat], d.battle, &d.fire_data(seat, cell))
            .await;
    }
    let data = d.fire_data(seat, *last);
    let first = app.tg.press_stale(group, &d.players[seat], d.battle, &data);
    let second = app.tg.press_stale(group, &d.players[seat], d.battle, &data);
    if point.is_some() {
        wait_for_the_crash(&mut app).await;
        app.restart_bot().await;
    }
    for q in [first, second] {
        app.tg
            .wait_answer(&q, wait())
            .await
            .expect("both taps are answered");
    }
    wait_for_the_end(&app, &d).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(with_button(&app, group, "r:").len(), 1, "announcements");
    assert_rated_once(&app, &d, seat).await;
    assert_no_4xx(&app);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_double_tapped_final_shot_moves_the_ratings_once() {
    won_with_a_crash_at(None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_before_the_end_is_written_the_ratings_still_move_once() {
    won_with_a_crash_at(Some("rating")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_after_the_end_is_written_the_ratings_move_only_once() {
    won_with_a_crash_at(Some("rated")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_after_a_rematch_was_stored_one_new_lobby_appears() {
    let mut app = App::spawn().await;
    let group = -6205;
    let a = app.player(63_041, "Alice", "en");
    let b = app.player(63_042, "Bob", "en");
    let mut d = duel(&app, group, a.clone(), b.clone()).await;
    shoot_to_the_end(&app, &mut d).await;
    let end = wait_for_the_end(&app, &d).await;
    settled(&app, d.game).await;
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "rematch".into()));
    app.start_bot().await;
    let rematch = data(&end, "r:");
    let lobbies = with_button(&app, group, "j:").len();
    app.tg.press_stale(group, &b, end.message_id, &rematch);
    wait_for_the_crash(&mut app).await;
    app.restart_bot().await;
    let lobby = app
        .tg
        .wait_for(
            group,
            |m| {
                m.message_id > end.message_id
                    && m.callback_data().iter().any(|c| c.starts_with("j:"))
            },
            wait(),
        )
        .await
        .expect("the new lobby appears");
    // Rematch again after the restart is answered and makes no second lobby.
    let again = app.press(group, &a, end.message_id, &rematch).await;
    assert!(again.text.is_some(), "{again:?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(with_button(&app, group, "j:").len(), lobbies + 1, "lobbies");
    // The new lobby works: Alice's second press joined her to it, beside Bob.
    app.tg
        .wait_for(
            group,
            |m| {
                m.message_id == lobby.message_id
                    && m.text.contains("Alice")
                    && m.text.contains("Bob")
            },
            wait(),
        )
        .await
        .expect("the new lobby shows both players");
    assert_no_4xx(&app);
}

/// Whole game `d` was sent once, however many processes handled it: one lobby, one battle
/// message that never went back, one announcement, one editor and one own field per player,
/// and no edit Telegram found unchanged nor any 429.
fn assert_one_game_sent_once(app: &App, d: &Duel) {
    let group = d.group;
    assert_eq!(with_button(app, group, "j:").len(), 1, "lobbies");
    assert_eq!(battles(app, group), 1, "battle messages");
    assert_eq!(with_button(app, group, "r:").len(), 1, "announcements");
    for p in &d.players {
        assert_eq!(editors(app, p), 1, "{}'s editors", p.first_name);
        assert_eq!(own_fields(app, p), 1, "{}'s fields", p.first_name);
    }
    assert_never_goes_back(&battle_message(app, d).history);
    let errors = app.tg.errors();
    assert!(
        !errors
            .iter()
            .any(|e| e.description.contains("not modified") || e.status == 429),
        "{errors:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bot_processes_never_send_twice_nor_go_back() {
    let mut app = App::spawn_with(300, None).await;
    app.start_second_bot().await;
    let group = -6301;
    let a = app.player(64_001, "Alice", "en");
    let b = app.player(64_002, "Bob", "en");
    let mut d = duel(&app, group, a.clone(), b.clone()).await;
    shoot_to_the_end(&app, &mut d).await;
    wait_for_the_end(&app, &d).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    // Every shot was answered once, though both processes saw every update.
    assert_one_game_sent_once(&app, &d);
    assert!(app.tg.max_per_minute(group) <= 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_player_flooding_help_does_not_delay_a_players_press() {
    let app = App::spawn_with(3500, None).await;
    let group = -6401;
    let a = app.player(65_001, "Alice", "en");
    let b = app.player(65_002, "Bob", "en");
    let troll = app.player(65_003, "Troll", "en");
    let mut d = duel(&app, group, a, b).await;
    let before = app.tg.messages(group).len();
    let troll_dm = app.tg.messages(65_003).len();
    for _ in 0..40 {
        app.tg.send_command(group, &troll, "/help@morskoy_test_bot");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let t = Instant::now();
    let shot = d.shoot_button(&app).await;
    let took = t.elapsed();
    assert_ne!(shot, Shot::Over);
    assert!(
        took < Duration::from_secs(1),
        "the player's press waited {took:?} behind the flood"
    );
    // At most one help reply in the group a minute; the rest went to the troll's own chat.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let helps = app.tg.messages(group)[before..]
        .iter()
        .filter(|m| m.text.contains("/newgame in a group"))
        .count();
    assert!(helps <= 1, "{helps} help replies in the group");
    assert!(
        app.tg.messages(65_003).len() > troll_dm,
        "no help in the DM"
    );
    assert!(app.tg.max_per_minute(group) <= 20);
}

flow! {
    fn an_anonymous_admin_is_told_to_write_as_themselves_and_gets_no_lobby() {
        let app = App::spawn().await;
        let group = -6501;
        app.tg.group(group, "Sea dogs");
        app.tg.send_anonymous(group, "/newgame");
        app.tg
            .wait_for_text(group, "cannot tell who you are", wait())
            .await
            .expect("the anonymous admin is answered");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(
            with_button(&app, group, "j:").is_empty(),
            "a lobby was opened"
        );
        let store = app.store().await;
        assert_eq!(store.chat_game(group, None).await.unwrap(), None);
    }
}

/// Updates a webhook replica took (answered 2xx).
fn taken_by(app: &App, replica: usize) -> usize {
    let addr = app.webhook_listen[replica];
    app.tg
        .webhook_deliveries()
        .iter()
        .filter(|d| d.backend == addr && d.delivered())
        .count()
}

/// Webhook mode: two replicas behind one URL share a game's updates, each handled once; one
/// is killed (kill -9) with a press in flight, and the other takes every update from then on:
/// the press is answered, the game ends, nothing is sent twice and the battle message never
/// goes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_webhook_replicas_share_a_game_and_one_killed_loses_nothing() {
    let mut app = App::spawn_webhook().await;
    let group = -6501;
    let a = app.player(66_001, "Alice", "en");
    let b = app.player(66_002, "Bob", "en");
    let mut d = duel(&app, group, a.clone(), b.clone()).await;
    for _ in 0..6 {
        d.shoot_button(&app).await;
    }
    assert!(
        taken_by(&app, 0) > 3 && taken_by(&app, 1) > 3,
        "both replicas take posts"
    );
    // A press in flight, and replica 0 killed.
    let seat = d.turn;
    let cell = d.next_cell(seat).unwrap();
    let query = app
        .tg
        .press_stale(group, &d.players[seat], d.battle, &d.fire_data(seat, cell));
    app.kill_bot();
    let answer = app
        .tg
        .wait_answer(&query, wait())
        .await
        .expect("the press in flight is answered");
    d.follow(seat, cell, read_answer(&said(&answer)));
    let before = taken_by(&app, 1);
    shoot_to_the_end(&app, &mut d).await;
    wait_for_the_end(&app, &d).await;
    assert!(
        taken_by(&app, 1) > before + 5,
        "the other replica took the rest"
    );
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_one_game_sent_once(&app, &d);
}

/// Webhook mode: replica 0 is killed (kill -9) after it stored a lobby's start and before
/// it answered the post. Telegram posts the update again, to replica 1, which answers 503
/// while replica 0's claim is fresh, then takes it over: the start's press is answered, the
/// game starts once, and goes on to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_whose_replica_died_is_taken_over_by_the_other_once_its_claim_is_stale() {
    let mut app = App::spawn_webhook().await;
    // Replica 0 alone takes posts, and kills itself after storing a start.
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "start".into()));
    app.start_bot().await;
    app.tg.set_webhook_backends(vec![app.webhook_listen[0]]);
    let group = -6502;
    let a = app.player(66_011, "Alice", "en");
    let b = app.player(66_012, "Bob", "en");
    let lobby = lobby_of_two(&app, group, &a, &b).await;
    let start = data(&lobby, "s:");
    let query = app.tg.press(group, &a, lobby.message_id, &start);
    wait_for_the_crash(&mut app).await;
    app.tg.set_webhook_backends(app.webhook_listen.clone());
    let answer = app
        .tg
        .wait_answer(&query, wait())
        .await
        .expect("the start's press is answered");
    assert!(!answer.show_alert, "{answer:?}");
    // Replica 1 held it off while the claim was fresh, then handled it.
    let by_one = |app: &App| -> Vec<_> {
        app.tg
            .webhook_deliveries()
            .into_iter()
            .filter(|d| d.backend == app.webhook_listen[1])
            .collect()
    };
    let held = by_one(&app)
        .into_iter()
        .find(|d| d.outcome == Ok(503))
        .unwrap_or_else(|| panic!("replica 1 never held a post off: {:?}", by_one(&app)));
    let deadline = Instant::now() + wait();
    while !by_one(&app)
        .iter()
        .any(|d| d.update_id == held.update_id && d.delivered())
    {
        assert!(
            Instant::now() < deadline,
            "never taken over: {:?}",
            by_one(&app)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The balancer learns replica 0 is gone.
    app.tg.set_webhook_backends(vec![app.webhook_listen[1]]);
    for p in [&a, &b] {
        place_and_ready(&app, p).await;
    }
    let battle = app.message_with_button(group, "f:").await;
    let mut d = Duel::from_battle(&battle, [a.clone(), b.clone()], group);
    shoot_to_the_end(&app, &mut d).await;
    wait_for_the_end(&app, &d).await;
    assert_eq!(battles(&app, group), 1, "battle messages");
    for p in [&a, &b] {
        assert_eq!(editors(&app, p), 1, "{}'s editors", p.first_name);
    }
}

flow! {
    fn a_group_that_removed_the_bot_gets_nothing_more_and_its_game_is_called_off() {
        use morskoy_boy::store::Leaderboard;
        let app = App::spawn().await;
        let group = -6301;
        let a = app.player(63011, "Alice", "en");
        let b = app.player(63012, "Bob", "en");
        let mut d = duel(&app, group, a.clone(), b.clone()).await;
        for _ in 0..3 {
            d.shoot_button(&app).await;
        }
        settled(&app, d.game).await;
        let forbidden = |app: &App| app.tg.errors().iter().filter(|e| e.status == 403).count();
        assert_eq!(forbidden(&app), 0);
        let group_messages = app.tg.messages(group).len();
        // The bot is removed from the group; a press still comes (from a client that had the
        // message), and the redraw it asks for is refused.
        app.tg
            .set_member_status(group, crate::fake_telegram::BOT_ID, "kicked");
        // (A cell the bot marked around a sunk ship is answered "already known" and changes
        // nothing: the press that counts is a shot.)
        while matches!(d.shoot_button(&app).await, Shot::Known | Shot::NotYourTurn) {}
        let store = app.store().await;
        called_off(&app, d.game).await;
        // Each player is told why, in their private chat.
        for p in [&a, &b] {
            app.tg
                .wait_for(
                    p.id.0 as i64,
                    |m| m.text.contains("the bot can no longer write there"),
                    wait(),
                )
                .await
                .unwrap_or_else(|| panic!("{} is not told", p.first_name));
        }
        // More presses and the time that passes send nothing more there.
        for _ in 0..3 {
            let answer = app
                .press(
                    group,
                    &d.players[d.turn],
                    d.battle,
                    &d.fire_data(d.turn, 99),
                )
                .await;
            assert!(said(&answer).contains("over"), "{answer:?}");
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let refused = forbidden(&app);
        assert!(refused <= 2, "{refused} refusals: {:?}", app.tg.errors());
        assert_eq!(app.tg.messages(group).len(), group_messages);
        // Nothing rated, nothing counted, and both are free to play elsewhere.
        let ids = [a.id.0, b.id.0];
        for board in [Leaderboard::Chat(group), Leaderboard::People] {
            let ratings = store.ratings(board, &ids).await.unwrap();
            assert!(ratings.iter().all(Option::is_none), "{ratings:?}");
        }
        for u in ids {
            assert_eq!(store.user_game(u).await.unwrap(), None);
            assert!(store.all_stats(u).await.unwrap().is_empty());
        }
        assert_eq!(store.chat_game(group, None).await.unwrap(), None);
        // (A join refused as "busy in another game" fails here.)
        lobby_of_two(&app, -6302, &a, &b).await;
        // The only refusals were the group's.
        assert!(app
            .tg
            .errors()
            .iter()
            .all(|e| e.status != 403 || e.description.contains("group")));
    }
}
