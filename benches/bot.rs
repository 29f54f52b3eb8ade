//! The bot under load, as players see it: the real bot binary against the fake Bot API and a
//! real Redis, at the production pacing of a group (18 sends and edits a minute, an edit of
//! the battle message at most every 3.5 s), with the fields as pictures (the default) and as
//! text alike, each over `MB_BENCH_SEEDS` (3) seeds of the bot's random source: the mean and
//! the spread (lowest–highest) of every figure.
//!
//! Run: `scripts/redis-up && cargo bench --bench bot` (`MB_BENCH_BOARDS=picture` for one).
//! Parts (`MB_BENCH_PARTS`, `fast,throughput` by default):
//!
//! 1. **Fast play.** Two players in one group play for `MB_BENCH_SECS` (60) seconds, each
//!    pressing the next cell `MB_BENCH_THINK_MS` (700) ms after the answer to the last press,
//!    with Rematch between games. For every accepted shot it measures how long after the
//!    press the group's battle message first showed its result as players read it: the
//!    result line in the picture's caption, or in the text (read from the message's history
//!    in the fake, so a result that was never shown counts as missing); it counts the
//!    rate-limited Bot API calls (sends and edits, every chat) and the bot's Redis round trips
//!    (`mb_redis_seconds_count` of its `GET /metrics`) per accepted shot.
//! 2. **Throughput.** `MB_BENCH_GROUPS` (64) groups play a whole game at once (or for at most
//!    `MB_BENCH_BURST_SECS`, 20, seconds), every player pressing as soon as the last answer
//!    came: shots per second of one bot process, with the CPU time the bot, the fake with its
//!    players and Redis took meanwhile (all on this machine), so the bot's own cost a shot.
//! 3. **The Mini App** (`MB_BENCH_PARTS=webapp`). `MB_BENCH_PLAYERS` (50) players, in duels,
//!    use the page's API at once for `MB_BENCH_SECS` (60) seconds: each holds the live stream
//!    open, asks the state every `MB_BENCH_THINK_MS` (700) ms and shoots when it is their
//!    turn (`initData` signed as Telegram signs it). Per request: the median and the 99th
//!    percentile of the state's and the shot's time, and the first event of the stream;
//!    and the page's own size, raw and gzipped.
//! 4. **Scale** (`MB_BENCH_PARTS=scale`, in `bot/scale.rs`). `MB_BENCH_DUELS` (10,40)
//!    group duels at once at a human pace (a press 1.5–3 s after the answer), against the
//!    fake Bot API enforcing one bot token's budget (30 sends and edits a second across all
//!    chats, 20 a minute per group, about one a second per private chat), with one replica
//!    and with two: 429s, sends and edits per shot, press → answer, press → result on the
//!    group's board, own-field staleness, the worst group's gap, shots lost.
//!
//! Parts 1 and 2 run with no token-wide budget in the fake (only the bot's own pacing of
//! each group): their figures say nothing about many groups sharing one token.

#[path = "../tests/fake_telegram/mod.rs"]
mod fake_telegram;
#[path = "../tests/bot/helpers.rs"]
mod helpers;
#[path = "bot/scale.rs"]
mod scale;

use helpers::*;
use morskoy_boy::game::record::Board;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rate_limited_calls(app: &App) -> usize {
    fake_telegram::budget::COUNTED
        .iter()
        .map(|m| app.tg.calls(m))
        .sum()
}

/// The bot's Redis round trips so far: `mb_redis_seconds_count` of its `GET /metrics`.
async fn round_trips(metrics: std::net::SocketAddr) -> u64 {
    let (_, text) = scrape(metrics).await;
    metric(&text, "mb_redis_seconds_count", &[]) as u64
}

/// CPU seconds (user and system) a process has used so far, from `/proc/<pid>/stat`.
fn cpu_seconds(pid: &str) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
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

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    // The group runs out of its budget of sends and edits: waits are long.
    std::env::set_var("MB_TEST_WAIT_SECS", "150");
    let seeds: u64 = env_or("MB_BENCH_SEEDS", 3);
    let boards: String = env_or("MB_BENCH_BOARDS", "picture,text".to_owned());
    let boards: Vec<Board> = boards
        .split(',')
        .map(|b| match b.trim() {
            "text" => Board::Text,
            _ => Board::Picture,
        })
        .collect();
    let parts: String = env_or("MB_BENCH_PARTS", "fast,throughput".to_owned());
    if parts.contains("fast") {
        for &board in &boards {
            let mut runs = Vec::new();
            for seed in 1..=seeds {
                runs.push(fast_play_once(board, seed).await);
            }
            report(&format!("fast play, {board:?}"), &runs);
        }
    }
    if parts.contains("webapp") {
        let mut runs = Vec::new();
        for seed in 1..=seeds {
            runs.push(webapp_once(seed).await);
        }
        report("the Mini App's API", &runs);
    }
    if parts.contains("scale") {
        scale::run().await;
    }
    if parts.contains("throughput") {
        for &board in &boards {
            let mut runs = Vec::new();
            for seed in 1..=seeds {
                runs.push(throughput_once(board, seed).await);
            }
            report(&format!("throughput, {board:?}"), &runs);
        }
    }
}

/// One run's figures, by name, in the order printed.
type Figures = Vec<(&'static str, f64)>;

/// Each figure's mean over the runs, and its lowest and highest.
fn report(title: &str, runs: &[Figures]) {
    println!("== {title}: {} seeds (mean, lowest–highest)", runs.len());
    let Some(first) = runs.first() else { return };
    for (i, (name, _)) in first.iter().enumerate() {
        let values: Vec<f64> = runs.iter().map(|r| r[i].1).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let low = values.iter().copied().fold(f64::INFINITY, f64::min);
        let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        println!("  {name}: {mean:.2} ({low:.2}–{high:.2})");
    }
}

/// A world at the default pacing whose bot is seeded with `seed` and serves its counters
/// (`MB_HEALTH_ADDR`): their address.
async fn paced_app(seed: u64) -> (App, std::net::SocketAddr) {
    let mut app = App::spawn_with_gap(3500).await;
    let metrics = free_port();
    app.kill_bot();
    app.seed = Some(seed);
    app.env.push(("MB_HEALTH_ADDR".into(), metrics.to_string()));
    app.start_bot().await;
    (app, metrics)
}

async fn fast_play_once(board: Board, seed: u64) -> Figures {
    let secs: u64 = env_or("MB_BENCH_SECS", 60);
    let think = Duration::from_millis(env_or("MB_BENCH_THINK_MS", 700));
    let (app, metrics) = paced_app(seed).await;
    let a = app.player(91, "Alice", "en");
    let b = app.player(92, "Bob", "en");
    let group = -9_000;
    app.set_board(group, board).await;
    let calls_before = rate_limited_calls(&app);
    let group_before = app.tg.sends_and_edits(group);
    let trips_before = round_trips(metrics).await;
    let play = fast_play(&app, group, &a, &b, secs, think).await;
    // The last results wait for the gap and the budget.
    tokio::time::sleep(Duration::from_secs(10)).await;
    let calls = rate_limited_calls(&app) - calls_before;
    let group_calls = app.tg.sends_and_edits(group) - group_before;
    let trips = round_trips(metrics).await - trips_before;
    let messages = app.tg.messages(group);
    let mut latencies = Vec::new();
    let mut missing = 0;
    for p in &play.pressed {
        match result_seen(&messages, p) {
            Some(at) => latencies.push(at.saturating_duration_since(p.at).as_secs_f64()),
            None => missing += 1,
        }
    }
    // The end after the final board: the battle message's last drawing before "Winner".
    let late_ends = play
        .games
        .iter()
        .filter(|(battle, end)| {
            messages
                .iter()
                .find(|m| m.message_id == *battle)
                .and_then(|m| m.history.last())
                .is_some_and(|last| last.at > end.history[0].at)
        })
        .count();
    latencies.sort_by(f64::total_cmp);
    let shots = play.pressed.len().max(1) as f64;
    println!(
        "fast play, {board:?}, seed {seed}: {} games, {} accepted shots in {:.0} s (a press {} ms after each answer); {} of {} ends before the final board; group sends+edits at most {} in any 60 s",
        play.games.len(),
        play.pressed.len(),
        play.played.as_secs_f64(),
        think.as_millis(),
        late_ends,
        play.games.len(),
        app.tg.max_per_minute(group)
    );
    report_errors(&app);
    vec![
        (
            "result in the group after the press, p50 (s)",
            percentile(&latencies, 0.5),
        ),
        ("p90 (s)", percentile(&latencies, 0.9)),
        ("max (s)", latencies.last().copied().unwrap_or(f64::NAN)),
        ("results never shown", missing as f64),
        ("accepted shots", play.pressed.len() as f64),
        (
            "rate-limited Bot API calls (all chats) per shot",
            calls as f64 / shots,
        ),
        ("of them in the group, per shot", group_calls as f64 / shots),
        (
            "Redis round trips of the bot per shot",
            trips as f64 / shots,
        ),
    ]
}

/// Many groups at once, every press as soon as the last answer came.
async fn throughput_once(board: Board, seed: u64) -> Figures {
    let groups: usize = env_or("MB_BENCH_GROUPS", 64);
    let secs: u64 = env_or("MB_BENCH_BURST_SECS", 20);
    let (app, metrics) = paced_app(seed).await;
    let app = Arc::new(app);
    let mut duels = tokio::task::JoinSet::new();
    for g in 0..groups {
        let app = app.clone();
        duels.spawn(async move {
            let base = 200 + 10 * g as i64;
            let a = app.player(base, &format!("A{g}"), "en");
            let b = app.player(base + 1, &format!("B{g}"), "en");
            let group = -20_000 - g as i64;
            app.set_board(group, board).await;
            duel(&app, group, a, b).await
        });
    }
    let mut ready = Vec::new();
    while let Some(d) = duels.join_next().await {
        ready.push(d.expect("a duel begins"));
    }
    let trips_before = round_trips(metrics).await;
    let bot_pid = app.bot_pid().expect("the bot runs").to_string();
    let cpu_before = [
        cpu_seconds(&bot_pid),
        cpu_seconds("self"),
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
        cpu_seconds(&bot_pid) - cpu_before[0],
        cpu_seconds("self") - cpu_before[1],
        redis_cpu_seconds().await - cpu_before[2],
    ];
    let trips = round_trips(metrics).await - trips_before;
    println!(
        "throughput, {board:?}, seed {seed}: {groups} groups at once: {shots} accepted shots in {took:.1} s; CPU (2 cores = {:.1} s): the bot {:.2} s, the fake Bot API and the players {:.2} s, Redis {:.2} s",
        2.0 * took,
        cpu[0],
        cpu[1],
        cpu[2]
    );
    report_errors(&app);
    let calls: Vec<String> = [
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageMedia",
        "editMessageCaption",
        "answerCallbackQuery",
    ]
    .iter()
    .map(|m| format!("{m} {}", app.tg.calls(m)))
    .collect();
    println!("Bot API calls of the whole run: {}", calls.join(", "));
    let n = shots.max(1) as f64;
    vec![
        (
            "accepted shots per second of one bot process",
            shots as f64 / took,
        ),
        ("the bot's CPU per accepted shot (µs)", 1e6 * cpu[0] / n),
        (
            "shots per CPU second of the bot",
            shots as f64 / cpu[0].max(1e-9),
        ),
        (
            "the fake and the players' CPU per shot (µs)",
            1e6 * cpu[1] / n,
        ),
        ("Redis CPU per shot (µs)", 1e6 * cpu[2] / n),
        ("Redis round trips per shot under load", trips as f64 / n),
    ]
}

fn report_errors(app: &App) {
    let errors = app.tg.errors();
    println!("4xx answers from the fake: {}", errors.len());
    for e in errors.iter().take(20) {
        println!("  {} {} {}", e.method, e.status, e.description);
    }
}

/// The `q`-quantile of `samples` (sorted here), in milliseconds.
fn quantile_ms(samples: &mut [Duration], q: f64) -> f64 {
    samples.sort();
    let Some(last) = samples.len().checked_sub(1) else {
        return f64::NAN;
    };
    samples[((last as f64) * q).round() as usize].as_secs_f64() * 1000.0
}

/// One run of the Mini App's load (see the module's notes).
async fn webapp_once(seed: u64) -> Figures {
    use morskoy_boy::telegram::init_data::{game_token, signed};
    let secs: u64 = env_or("MB_BENCH_SECS", 60);
    let think = Duration::from_millis(env_or("MB_BENCH_THINK_MS", 700));
    let players: usize = env_or("MB_BENCH_PLAYERS", 50);
    let mut app = App::world(150, Some(100_000)).await;
    let listen = free_port();
    app.seed = Some(seed);
    app.env
        .push(("MB_WEBAPP_LISTEN".into(), listen.to_string()));
    app.start_bot().await;
    let base = format!("http://{listen}");
    let token = app.tg.token().to_owned();

    // The page: what a phone downloads, raw and gzipped (as a proxy would send it).
    let page = reqwest::get(format!("{base}/app"))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let gzipped = {
        use std::io::Write;
        let mut gzip = std::process::Command::new("gzip")
            .arg("-9c")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("gzip");
        gzip.stdin.take().unwrap().write_all(&page).unwrap();
        gzip.wait_with_output().unwrap().stdout.len()
    };

    // The duels, set up through the chat as people would.
    let mut seats = Vec::new();
    for k in 0..players / 2 {
        let id = 93_000 + 2 * k as i64;
        let a = app.player(id, "Alice", "en");
        let b = app.player(id + 1, "Bob", "en");
        let d = duel(&app, -id, a, b).await;
        for (seat, user) in [(0usize, id), (1, id + 1)] {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs();
            let who = format!(r#"{{"id":{user},"first_name":"P","language_code":"en"}}"#);
            let auth = signed(&[("user", &who), ("auth_date", &now.to_string())], &token);
            seats.push((game_token(d.game, &token), seat, auth));
        }
    }
    let deadline = Instant::now() + Duration::from_secs(secs);
    let client = reqwest::Client::new();
    let tasks = seats.into_iter().map(|(game, seat, auth)| {
        let (client, base) = (client.clone(), base.clone());
        tokio::spawn(async move {
            let (mut states, mut shots, mut streams) = (Vec::new(), Vec::new(), Vec::new());
            let encoded: String = auth
                .bytes()
                .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
                .collect();
            let asked = Instant::now();
            let mut stream = client
                .get(format!("{base}/app/api/events?game={game}&auth={encoded}"))
                .send()
                .await
                .unwrap();
            if let Ok(Some(_)) = stream.chunk().await {
                streams.push(asked.elapsed());
            }
            while Instant::now() < deadline {
                let asked = Instant::now();
                let r = client
                    .get(format!("{base}/app/api/state?game={game}"))
                    .header("Authorization", format!("tma {auth}"))
                    .send()
                    .await
                    .unwrap();
                let s: serde_json::Value = r.json().await.unwrap_or_default();
                states.push(asked.elapsed());
                if s["phase"] != "battle" {
                    break;
                }
                if s["turn"] == seat as u64 {
                    let target = 1 - seat;
                    let cells = s["fields"][target]["cells"].as_str().unwrap_or_default();
                    if let Some(cell) = cells.find('.') {
                        let generation = &s["generation"];
                        let asked = Instant::now();
                        let r = client
                            .post(format!(
                                "{base}/app/api/shot?game={game}&generation={generation}&target={target}&cell={cell}"
                            ))
                            .header("Authorization", format!("tma {auth}"))
                            .send()
                            .await
                            .unwrap();
                        let _ = r.bytes().await;
                        shots.push(asked.elapsed());
                    }
                }
                tokio::time::sleep(think).await;
            }
            drop(stream);
            (states, shots, streams)
        })
    });
    let (mut states, mut shots, mut streams) = (Vec::new(), Vec::new(), Vec::new());
    for done in futures::future::join_all(tasks).await {
        let (s, h, e) = done.unwrap();
        states.extend(s);
        shots.extend(h);
        streams.extend(e);
    }
    let mut all: Vec<Duration> = states.iter().chain(&shots).copied().collect();
    report_errors(&app);
    vec![
        ("players", players as f64),
        ("requests", all.len() as f64),
        ("state p50 ms", quantile_ms(&mut states, 0.5)),
        ("state p99 ms", quantile_ms(&mut states, 0.99)),
        ("shot p50 ms", quantile_ms(&mut shots, 0.5)),
        ("shot p99 ms", quantile_ms(&mut shots, 0.99)),
        ("any request p99 ms", quantile_ms(&mut all, 0.99)),
        (
            "stream's first event p99 ms",
            quantile_ms(&mut streams, 0.99),
        ),
        ("page bytes", page.len() as f64),
        ("page bytes gzipped", gzipped as f64),
    ]
}
