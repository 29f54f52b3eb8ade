//! The bot token's budget (issue 43), end to end: two webhook replicas of the real bot on one
//! Redis, the fake Telegram. Telegram takes about 30 sends and edits a second from one token
//! across all chats, whatever the number of replicas: the replicas share one budget
//! (`MB_TOKEN_PER_SECOND`), and a 429 one of them gets pauses both.

use crate::helpers::*;
use std::time::{Duration, Instant};

/// Two webhook replicas with a token budget of `per_second`, each update posted to one of
/// them in turn.
async fn two_replicas(per_second: u32) -> App {
    let mut app = App::world(150, None).await;
    app.env
        .push(("MB_TOKEN_PER_SECOND".into(), per_second.to_string()));
    app.webhook_listen = vec![free_port(), free_port()];
    app.start_bot().await;
    app.start_second_bot().await;
    app.tg.set_webhook_backends(app.webhook_listen.clone());
    app
}

/// When each message of `chats` was first shown (sent), and every later version (edits).
fn instants(app: &App, chats: &[i64]) -> Vec<Instant> {
    let mut all: Vec<Instant> = chats
        .iter()
        .flat_map(|&c| app.tg.messages(c))
        .flat_map(|m| m.history.into_iter().map(|s| s.at))
        .collect();
    all.sort();
    all
}

/// The most of `at` within any one second.
fn most_in_a_second(at: &[Instant]) -> usize {
    (0..at.len())
        .map(|i| {
            at[i..]
                .iter()
                .take_while(|&&t| t.duration_since(at[i]) < Duration::from_secs(1))
                .count()
        })
        .max()
        .unwrap_or(0)
}

/// Sixteen groups open a game at once, their commands shared by two replicas: the lobbies go
/// out at the token's pace (4 a second here, and a burst), not at the two replicas' — and all
/// of them go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_share_one_token_budget() {
    let app = two_replicas(4).await;
    let groups: Vec<i64> = (0..16).map(|g| -43_100 - g).collect();
    let people: Vec<_> = groups
        .iter()
        .enumerate()
        .map(|(i, _)| app.player(431_000 + i as i64, "Anna", "en"))
        .collect();
    for p in &people {
        app.welcomed(p).await;
    }
    // The welcomes' budget refilled.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let start = Instant::now();
    for (g, p) in groups.iter().zip(&people) {
        app.tg.group(*g, "Sea dogs");
        app.tg.send_command(*g, p, "/newgame");
    }
    for g in &groups {
        app.message_with_button(*g, "j:").await;
    }
    let took = start.elapsed();
    let at: Vec<Instant> = instants(&app, &groups)
        .into_iter()
        .filter(|&t| t >= start)
        .collect();
    assert_eq!(at.len(), 16, "one lobby each");
    let most = most_in_a_second(&at);
    // 4 a second and the board's burst of 5: never 16 at once (each replica alone would let
    // as many through as it was posted).
    assert!(most <= 9, "{most} sends in one second (all in {took:?})");
    assert!(took >= Duration::from_secs(2), "all sixteen in {took:?}");
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

/// A 429 with `retry_after` that one replica gets pauses the other's sends too: Telegram is
/// saying the token's budget is spent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_on_one_replica_pauses_both() {
    let app = two_replicas(25).await;
    let groups: Vec<i64> = (0..6).map(|g| -43_200 - g).collect();
    let people: Vec<_> = (0..6)
        .map(|i| app.player(432_000 + i, "Boris", "en"))
        .collect();
    for p in &people {
        app.welcomed(p).await;
    }
    for g in &groups {
        app.tg.group(*g, "Sea dogs");
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    // The first group's lobby is answered 429, retry after 3 s.
    app.tg.inject_429(groups[0], 1, 3);
    let start = Instant::now();
    app.tg.send_command(groups[0], &people[0], "/newgame");
    let refused = Instant::now() + Duration::from_secs(5);
    while app.tg.errors().iter().all(|e| e.status != 429) {
        assert!(Instant::now() < refused, "the injected 429 was never met");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let paused_at = start.elapsed();
    // (The replica that got it stores the pause right after its answer.)
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Five more groups, their commands posted to either replica.
    for (g, p) in groups.iter().zip(&people).skip(1) {
        app.tg.send_command(*g, p, "/newgame");
    }
    for g in &groups {
        app.message_with_button(*g, "j:").await;
    }
    let first = instants(&app, &groups[1..])
        .into_iter()
        .next()
        .expect("lobbies")
        .duration_since(start);
    assert!(
        first >= paused_at + Duration::from_millis(2_500),
        "a lobby went {first:?} after the start, though a 429 at {paused_at:?} asked for 3 s"
    );
}

/// When the token's budget is short, the battle's board goes before lobbies: a shot in a
/// duel while twenty groups open games at once (through two replicas, 2 calls a second) is on
/// the duel's board before most of the lobbies are out, though its press came last.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_battle_board_goes_before_lobbies_when_the_budget_is_short() {
    let mut app = App::world(150, None).await;
    app.start_bot().await;
    let a = app.player(433_001, "Alice", "en");
    let b = app.player(433_002, "Bob", "en");
    let mut d = duel(&app, -43_300, a, b).await;
    let groups: Vec<i64> = (1..=20).map(|g| -43_300 - g).collect();
    let people: Vec<_> = (0..20)
        .map(|i| app.player(433_100 + i, "Carol", "en"))
        .collect();
    for p in &people {
        app.welcomed(p).await;
    }
    for g in &groups {
        app.tg.group(*g, "Sea dogs");
    }
    // Now the budget is short: two calls a second for the token (both replicas).
    app.kill_bot();
    app.env.push(("MB_TOKEN_PER_SECOND".into(), "2".into()));
    app.webhook_listen = vec![free_port(), free_port()];
    app.start_bot().await;
    app.start_second_bot().await;
    app.tg.set_webhook_backends(app.webhook_listen.clone());
    tokio::time::sleep(Duration::from_secs(3)).await;
    for (g, p) in groups.iter().zip(&people) {
        app.tg.send_command(*g, p, "/newgame");
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let seat = d.turn;
    let cell = d.next_cell(seat).unwrap();
    let name = cell_name(cell);
    let shooter = d.players[seat].first_name.clone();
    let pressed = Instant::now();
    let shot = d.shoot_button(&app).await;
    assert!(
        matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk),
        "{shot:?}"
    );
    let battle = d.battle;
    let shown = app
        .tg
        .wait_for(
            d.group,
            |m| m.message_id == battle && m.versions.iter().any(|v| v.contains(&name)),
            Duration::from_secs(30),
        )
        .await
        .expect("the shot reaches the board");
    let board_at = shown
        .history
        .iter()
        .find(|s| s.text.contains(&name) && s.text.contains(&shooter))
        .map_or_else(Instant::now, |s| s.at);
    for g in &groups {
        app.message_with_button(*g, "j:").await;
    }
    let lobbies = instants(&app, &groups);
    // Between the press and the board, at most the lobbies already on their way: the board
    // waited for none of the others (at the same priority it would wait its turn among
    // them, two a second).
    let between = lobbies
        .iter()
        .filter(|&&t| t > pressed && t < board_at)
        .count();
    let after = lobbies.iter().filter(|&&t| t > board_at).count();
    assert!(
        between <= 2 && after >= 10,
        "{between} lobbies went between the press and the board ({:?}), {after} after",
        board_at.duration_since(pressed)
    );
}
