//! The bot under load: whole games played as fast as the players can tap, through the fake
//! Bot API and a real Redis, with the production pacing of the group's edits.
//! Run: `scripts/redis-up && cargo bench --bench bot`. Prints sends and edits into the group
//! per minute (Telegram takes about 20), Bot API calls per shot, and shots per second.

#[path = "../tests/fake_telegram/mod.rs"]
mod fake_telegram;
#[path = "../tests/bot/helpers.rs"]
mod helpers;

use helpers::*;
use std::time::{Duration, Instant};

/// Every method the bot calls, but getUpdates (long polling).
const METHODS: &[&str] = &[
    "sendMessage",
    "editMessageText",
    "editMessageReplyMarkup",
    "answerCallbackQuery",
    "sendChatAction",
    "deleteMessage",
];

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    // The group runs out of its budget of sends and edits: waits are long.
    std::env::set_var("MB_TEST_WAIT_SECS", "150");
    let games: usize = std::env::var("MB_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let app = App::spawn_with_gap(3500).await;
    let a = app.player(91, "Alice", "en");
    let b = app.player(92, "Bob", "en");
    let group = -9_000;
    let before: usize = METHODS.iter().map(|m| app.tg.calls(m)).sum();
    let started = Instant::now();
    let mut shots = 0;
    let mut battle_time = Duration::ZERO;
    for g in 0..games {
        let mut d = if g == 0 {
            duel(&app, group, a.clone(), b.clone()).await
        } else {
            rematch(&app, group, &a, &b).await
        };
        let t = Instant::now();
        while !d.is_over(&app) {
            if d.shoot_button(&app).await == Shot::Over {
                break;
            }
        }
        battle_time += t.elapsed();
        shots += d.shots;
        app.tg
            .wait_for(
                group,
                |m| {
                    m.callback_data().iter().any(|c| c.starts_with("r:")) && m.message_id > d.battle
                },
                wait(),
            )
            .await
            .unwrap_or_else(|| {
                panic!(
                    "the end is not announced (game {g}); group: {:#?}",
                    app.tg
                        .messages(group)
                        .iter()
                        .map(|m| (
                            m.message_id,
                            m.text.chars().take(60).collect::<String>(),
                            m.callback_data().into_iter().take(2).collect::<Vec<_>>()
                        ))
                        .collect::<Vec<_>>()
                )
            });
    }
    // Let the last redraws land.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let total = started.elapsed();
    let calls: usize = METHODS.iter().map(|m| app.tg.calls(m)).sum::<usize>() - before;
    println!(
        "bot benchmark: {games} classic games, {shots} shots, {:.1} s in all",
        total.as_secs_f64()
    );
    println!(
        "group sends+edits: {} in all, at most {} in any 60 s (Telegram takes about 20)",
        app.tg.sends_and_edits(group),
        app.tg.max_per_minute(group)
    );
    println!(
        "Bot API calls per shot (all methods but getUpdates): {:.2}",
        calls as f64 / shots as f64
    );
    println!(
        "shots per second during battles: {:.1}",
        shots as f64 / battle_time.as_secs_f64()
    );
    let errors = app.tg.errors();
    println!("4xx answers from the fake: {}", errors.len());
    for e in errors {
        println!("  {} {} {}", e.method, e.status, e.description);
    }
}

/// Presses Rematch on the last announcement, starts, places and waits for the new battle.
async fn rematch(
    app: &App,
    group: i64,
    a: &teloxide::types::User,
    b: &teloxide::types::User,
) -> Duel {
    let end = app.message_with_button(group, "r:").await;
    let data = end
        .callback_data()
        .into_iter()
        .find(|d| d.starts_with("r:"))
        .unwrap();
    app.press(group, a, end.message_id, &data).await;
    let lobby = app
        .tg
        .wait_for(
            group,
            |m| {
                m.message_id > end.message_id
                    && m.callback_data().iter().any(|d| d.starts_with("s:"))
            },
            wait(),
        )
        .await
        .expect("a new lobby");
    let start = lobby
        .callback_data()
        .into_iter()
        .find(|d| d.starts_with("s:"))
        .unwrap();
    app.press(group, a, lobby.message_id, &start).await;
    for p in [a, b] {
        place_and_ready(app, p).await;
    }
    let battle = app
        .tg
        .wait_for(
            group,
            |m| {
                m.message_id > lobby.message_id
                    && m.callback_data().iter().any(|d| d.starts_with("f:"))
            },
            wait(),
        )
        .await
        .expect("a new battle");
    Duel::from_battle(&battle, [a.clone(), b.clone()], group)
}
