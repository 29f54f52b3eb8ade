//! The bot under load, as players see it: the real bot binary against the fake Bot API and a
//! real Redis, at the production pacing of a group (18 sends and edits a minute, an edit of
//! the battle message at most every 3.5 s).
//!
//! Run: `scripts/redis-up && cargo bench --bench bot`. Two parts:
//!
//! 1. **Fast play.** Two players in one group play for `MB_BENCH_SECS` (90) seconds, each
//!    pressing the next cell `MB_BENCH_THINK_MS` (700) ms after the answer to the last press,
//!    with Rematch between games. For every accepted shot it measures how long after the
//!    press the group's battle message first showed that cell (read from the message's
//!    history in the fake, so a result that was never drawn counts as missing); it counts the
//!    rate-limited Bot API calls (sends and edits, every chat) and the bot's Redis round trips
//!    (`mb_redis_round_trips_total` of its `GET /metrics`) per accepted shot.
//! 2. **Throughput.** `MB_BENCH_GROUPS` (64) groups play a whole game at once (or for at most
//!    `MB_BENCH_BURST_SECS`, 20, seconds), every player pressing as soon as the last answer
//!    came: shots per second of one bot process, with the CPU time the bot (its
//!    `process_cpu_seconds_total`), the fake with its players and Redis took meanwhile (all on
//!    this machine), so the bot's own cost a shot.

#[path = "../tests/fake_telegram/mod.rs"]
mod fake_telegram;
#[path = "../tests/bot/helpers.rs"]
mod helpers;

use helpers::*;
use std::sync::Arc;
use std::time::{Duration, Instant};
use teloxide::types::User;

/// The methods Telegram limits per chat: sends and edits.
const LIMITED: &[&str] = &[
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
];

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One accepted shot: where it should show, and when it was pressed.
struct Pressed {
    battle: i32,
    target: String,
    cell: usize,
    at: Instant,
}

/// Whether the group text shows `cell` of the field of `target` as known: the grid follows
/// the line naming the field, its rows start with the row number, the unknown cell is `·`.
fn shows(text: &str, target: &str, cell: usize) -> bool {
    let mut lines = text.lines();
    if !lines
        .by_ref()
        .any(|l| l.contains("Field of") && l.contains(target))
    {
        return false;
    }
    let (x, y) = (cell % 10, cell / 10);
    let rows: Vec<&str> = lines
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .take(10)
        .collect();
    rows.get(y)
        .and_then(|row| row.split_whitespace().nth(1 + x))
        .is_some_and(|c| c != "·")
}

fn rate_limited_calls(app: &App) -> usize {
    LIMITED.iter().map(|m| app.tg.calls(m)).sum()
}

/// The bot's Redis round trips so far, from its `/metrics`.
async fn round_trips(metrics: std::net::SocketAddr) -> u64 {
    let (_, text) = scrape(metrics).await;
    metric(&text, "mb_redis_round_trips_total", &[]) as u64
}

/// The bot's CPU seconds so far, from its `/metrics`.
async fn bot_cpu_seconds(metrics: std::net::SocketAddr) -> f64 {
    let (_, text) = scrape(metrics).await;
    metric(&text, "process_cpu_seconds_total", &[])
}

/// CPU seconds (user and system) this process (the fake and the players) has used so far,
/// from `/proc/self/stat`.
fn own_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The command name (field 2) may hold spaces; the fields after its `)` are plain.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15, i.e. 12 and 13 after the name; USER_HZ is 100.
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds the Redis server has used so far (`INFO cpu`).
async fn redis_cpu_seconds() -> f64 {
    let url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let Ok(client) = redis::Client::open(url.split(',').next().unwrap_or_default()) else {
        return 0.0;
    };
    let Ok(mut con) = client.get_multiplexed_async_connection().await else {
        return 0.0;
    };
    let info: String = redis::cmd("INFO")
        .arg("cpu")
        .query_async(&mut con)
        .await
        .unwrap_or_default();
    info.lines()
        .filter(|l| l.starts_with("used_cpu_sys:") || l.starts_with("used_cpu_user:"))
        .filter_map(|l| {
            l.split_once(':')
                .and_then(|(_, v)| v.trim().parse::<f64>().ok())
        })
        .sum()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    // The group runs out of its budget of sends and edits: waits are long.
    std::env::set_var("MB_TEST_WAIT_SECS", "150");
    fast_play().await;
    throughput().await;
}

/// A world at the default pacing whose bot serves its counters (`MB_HEALTH_ADDR`): their
/// address.
async fn paced_app() -> (App, std::net::SocketAddr) {
    let mut app = App::spawn_with_gap(3500).await;
    let metrics = free_port();
    app.kill_bot();
    app.env.push(("MB_HEALTH_ADDR".into(), metrics.to_string()));
    app.start_bot().await;
    (app, metrics)
}

async fn fast_play() {
    let secs: u64 = env_or("MB_BENCH_SECS", 90);
    let think = Duration::from_millis(env_or("MB_BENCH_THINK_MS", 700));
    let (app, metrics) = paced_app().await;
    let a = app.player(91, "Alice", "en");
    let b = app.player(92, "Bob", "en");
    let group = -9_000;
    let calls_before = rate_limited_calls(&app);
    let group_before = app.tg.sends_and_edits(group);
    let trips_before = round_trips(metrics).await;
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let mut pressed: Vec<Pressed> = Vec::new();
    let mut games = 0;
    while Instant::now() < until {
        let mut d = if games == 0 {
            duel(&app, group, a.clone(), b.clone()).await
        } else {
            rematch(&app, group, &a, &b).await
        };
        games += 1;
        while Instant::now() < until && !d.is_over(&app) {
            let seat = d.turn;
            let Some(cell) = d.next_cell(seat) else { break };
            let at = Instant::now();
            let shot = d.shoot_button(&app).await;
            if matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk) {
                pressed.push(Pressed {
                    battle: d.battle,
                    target: d.players[1 - seat].first_name.clone(),
                    cell,
                    at,
                });
            } else if shot == Shot::Over {
                break;
            }
            tokio::time::sleep(think).await;
        }
        if Instant::now() < until {
            wait_for_rematch(&app, group, d.battle).await;
        }
    }
    let played = started.elapsed();
    // The last results wait for the gap and the budget.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let calls = rate_limited_calls(&app) - calls_before;
    let group_calls = app.tg.sends_and_edits(group) - group_before;
    let trips = round_trips(metrics).await - trips_before;
    let messages = app.tg.messages(group);
    let mut latencies = Vec::new();
    let mut missing = 0;
    for p in &pressed {
        let seen = messages
            .iter()
            .find(|m| m.message_id == p.battle)
            .and_then(|m| m.history.iter().find(|s| shows(&s.text, &p.target, p.cell)));
        match seen {
            Some(s) => latencies.push(s.at.saturating_duration_since(p.at).as_secs_f64()),
            None => missing += 1,
        }
    }
    latencies.sort_by(f64::total_cmp);
    let shots = pressed.len();
    println!(
        "fast play: {games} games, {shots} accepted shots in {:.0} s (a press {} ms after each answer)",
        played.as_secs_f64(),
        think.as_millis()
    );
    println!(
        "result visible in the group after the press: p50 {:.2} s, p90 {:.2} s, max {:.2} s; never shown: {missing}",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.9),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "rate-limited Bot API calls (sends and edits, all chats): {calls}, {:.2} per accepted shot",
        calls as f64 / shots.max(1) as f64
    );
    println!(
        "of them in the group: {group_calls}, {:.2} per accepted shot (the rest: each player's own field, edited in their private chat)",
        group_calls as f64 / shots.max(1) as f64
    );
    println!(
        "group sends+edits: at most {} in any 60 s (budget 18, Telegram takes about 20)",
        app.tg.max_per_minute(group)
    );
    println!(
        "Redis round trips of the bot: {trips}, {:.1} per accepted shot (everything: lobby, placement, sender, timers)",
        trips as f64 / shots.max(1) as f64
    );
    report_errors(&app);
}

/// Many groups at once, every press as soon as the last answer came.
async fn throughput() {
    let groups: usize = env_or("MB_BENCH_GROUPS", 64);
    let secs: u64 = env_or("MB_BENCH_BURST_SECS", 20);
    let (app, metrics) = paced_app().await;
    let app = Arc::new(app);
    let mut duels = tokio::task::JoinSet::new();
    for g in 0..groups {
        let app = app.clone();
        duels.spawn(async move {
            let base = 200 + 10 * g as i64;
            let a = app.player(base, &format!("A{g}"), "en");
            let b = app.player(base + 1, &format!("B{g}"), "en");
            duel(&app, -20_000 - g as i64, a, b).await
        });
    }
    let mut ready = Vec::new();
    while let Some(d) = duels.join_next().await {
        ready.push(d.expect("a duel begins"));
    }
    let trips_before = round_trips(metrics).await;
    let cpu_before = [
        bot_cpu_seconds(metrics).await,
        own_cpu_seconds(),
        redis_cpu_seconds().await,
    ];
    // On stderr, unbuffered: a profiler can start when it shows.
    eprintln!("throughput: {groups} duels ready, every player presses now");
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let mut players = tokio::task::JoinSet::new();
    for mut d in ready {
        let app = app.clone();
        players.spawn(async move {
            let mut shots = 0usize;
            while Instant::now() < until && !d.is_over(&app) {
                match d.shoot_button(&app).await {
                    Shot::Miss | Shot::Hit | Shot::Sunk => shots += 1,
                    Shot::Over => break,
                    _ => {}
                }
            }
            shots
        });
    }
    let mut shots = 0;
    while let Some(n) = players.join_next().await {
        shots += n.expect("a player");
    }
    let took = started.elapsed().as_secs_f64();
    let cpu = [
        bot_cpu_seconds(metrics).await - cpu_before[0],
        own_cpu_seconds() - cpu_before[1],
        redis_cpu_seconds().await - cpu_before[2],
    ];
    let trips = round_trips(metrics).await - trips_before;
    println!(
        "throughput: {groups} groups at once: {shots} accepted shots in {took:.1} s, {:.0} shots per second of one bot process",
        shots as f64 / took
    );
    println!(
        "CPU in those {took:.1} s (2 cores = {:.1} s): the bot {:.2} s, the fake Bot API and the players {:.2} s, Redis {:.2} s",
        2.0 * took,
        cpu[0],
        cpu[1],
        cpu[2]
    );
    println!(
        "the bot's own cost: {:.0} µs of CPU per accepted shot, {:.0} shots per CPU second",
        1e6 * cpu[0] / shots.max(1) as f64,
        shots as f64 / cpu[0].max(1e-9)
    );
    println!(
        "Redis round trips per accepted shot under load: {:.1}",
        trips as f64 / shots.max(1) as f64
    );
    report_errors(&app);
}

fn report_errors(app: &App) {
    let errors = app.tg.errors();
    println!("4xx answers from the fake: {}", errors.len());
    for e in errors.iter().take(20) {
        println!("  {} {} {}", e.method, e.status, e.description);
    }
}

/// Waits for the end's announcement after battle message `battle`.
async fn wait_for_rematch(app: &App, group: i64, battle: i32) {
    app.tg
        .wait_for(
            group,
            |m| m.message_id > battle && m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced");
}

/// Presses Rematch on the last announcement, starts, places and waits for the new battle.
async fn rematch(app: &App, group: i64, a: &User, b: &User) -> Duel {
    let end = app.message_with_button(group, "r:").await;
    let again = data(&end, "r:");
    app.press(group, a, end.message_id, &again).await;
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
    // The rematch seats both players again: Alice starts it.
    let start = data(&lobby, "s:");
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
