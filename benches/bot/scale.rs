//! The scale part of the bot's bench (`MB_BENCH_PARTS=scale`): many group duels at once,
//! played at a human pace, against the fake Bot API with one bot token's budget enforced
//! (`TokenLimits::TELEGRAM`: 30 sends and edits a second across all chats, 20 a minute per
//! group, a private chat's bucket of 3 refilled at 1 a second; a 429 with `retry_after`
//! beyond), with one replica (long polling) and with two (webhook mode, one token between
//! them), at the production settings: `MB_GROUP_GAP_MS` 4500, `MB_GROUP_PER_MINUTE` 18, the
//! bot's default board (pictures).
//!
//! For each number of duels in `MB_BENCH_DUELS` (10,40: about 8 minutes with both replica
//! counts; 100 takes 2.5 minutes a run) and each replica count in `MB_BENCH_REPLICAS` (1,2),
//! over `MB_BENCH_SCALE_SEEDS` (1) seeds, from seed `MB_BENCH_SCALE_SEED_FROM` (1; to add
//! seeds to a run made before):
//! 1. **Placement.** Every duel is set up at once as people would (`/start` of both players,
//!    `/newgame`, Join, Start, Random and Ready in each private chat): how long it took, and
//!    its sends and edits and 429s.
//! 2. **Play** for `MB_BENCH_SCALE_SECS` (60) seconds: in every duel, whoever is to move
//!    presses the next cell 1.5–3 s (uniformly random, seeded) after the answer to the
//!    duel's previous press, as a player who waits to see the answer does; then
//!    `MB_BENCH_GRACE_SECS` (30) seconds for the last results to be drawn.
//!
//! The groups play under the default rules, the turn timer's three minutes included, unless
//! `MB_BENCH_TIMER` names another (minutes: 0 for none, 1, 3, 10): hundreds of duels set up
//! at once take longer than three minutes to place (the token's budget paces the editors),
//! and a duel that began early would be forfeited by the timer before play starts.
//!
//! Printed (play and grace):
//! - 429s by method and chat type (group / private / inline), placement's apart;
//! - sends and edits that took effect per accepted shot, by method and chat type;
//! - press → answer (the callback's answer) p50/p90;
//! - press → result on the group's board: when the battle message first showed the shot's
//!   result line (read from its history in the fake), p50/p90/max;
//! - own-field staleness: each time the turn passes to a player (the answer to the
//!   opponent's miss) whose fleet was hit during the opponent's turn, how long until that
//!   player's own field (the picture in their private chat) was redrawn (it is redrawn on
//!   nothing else during play, so that is the redraw the pass asked for, with the hits):
//!   p50/p90, and the passes for which it never was before their turn ended (their own miss)
//!   or the run did. A turn that passes after misses alone has no redraw due (misses wait for
//!   the field's next redraw or the player's ask): counted apart;
//! - the worst group's gap between edits of its battle message during play (the start and
//!   the end of play count as edges, so a group never edited shows the whole play; a gap
//!   also counts the time its players had no new shot to show);
//! - fairness: each group's longest press → result on its board; the median group's, and the
//!   worst group's over it (the issue's bar: no group waits more than twice the median);
//! - shots lost: accepted shots whose result no state of the group's battle message showed
//!   by the end of the grace period.

use super::fake_telegram::{ChatType, TokenLimits, TokenUsage};
use super::helpers::*;
use super::{env_or, report, report_errors, Figures};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use teloxide::types::User;
use tokio::time::Instant;

/// Runs every configuration and prints its figures.
pub async fn run() {
    // Placement of hundreds of duels waits for the token's budget: long waits.
    std::env::set_var(
        "MB_TEST_WAIT_SECS",
        env_or("MB_BENCH_WAIT_SECS", 600u64).to_string(),
    );
    let list = |name: &str, default: &str| -> Vec<usize> {
        env_or(name, default.to_owned())
            .split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect()
    };
    let seeds: u64 = env_or("MB_BENCH_SCALE_SEEDS", 1);
    let from: u64 = env_or("MB_BENCH_SCALE_SEED_FROM", 1);
    for n in list("MB_BENCH_DUELS", "10,40") {
        for replicas in list("MB_BENCH_REPLICAS", "1,2") {
            let mut runs = Vec::new();
            for seed in from..from + seeds {
                runs.push(scale_once(n, replicas, seed).await);
            }
            report(
                &format!("scale, {n} duels, {replicas} replica(s), token budget on"),
                &runs,
            );
        }
    }
}

/// What one duel's players did.
#[derive(Default)]
struct DuelRun {
    group: i64,
    /// Every accepted shot.
    pressed: Vec<Pressed>,
    /// Every press's wait for its answer.
    answers: Vec<Duration>,
    /// Each time the turn passed: to whom (their user id), when (the miss's answer), and
    /// whether their fleet was hit during the opponent's turn (so their own field has news).
    passes: Vec<(i64, Instant, bool)>,
    /// When its players stopped pressing (the run's end, or the game's).
    stopped: Option<Instant>,
}

const CHAT_TYPES: [ChatType; 3] = [ChatType::Group, ChatType::Private, ChatType::Inline];

fn chat_type_name(t: ChatType) -> &'static str {
    match t {
        ChatType::Group => "group",
        ChatType::Private => "private",
        ChatType::Inline => "inline",
    }
}

/// The 429s of `after` not yet in `before`, by method and chat type.
fn new_429s(before: &TokenUsage, after: &TokenUsage) -> BTreeMap<(&'static str, ChatType), usize> {
    after
        .too_many
        .iter()
        .map(|(k, n)| (*k, n - before.too_many.get(k).copied().unwrap_or(0)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

fn by_method(map: &BTreeMap<(&'static str, ChatType), usize>, per: f64) -> String {
    if map.is_empty() {
        return "none".to_owned();
    }
    map.iter()
        .map(|((m, t), n)| format!("{m} {} {:.2}", chat_type_name(*t), *n as f64 / per))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A duel set up in `group` as people would: `a` opens a lobby, `b` joins, `a` starts, each
/// presses Random and Ready in their private chat. It reads only the answers to presses and
/// the messages the bot sends, not its edits (an edit lost to a 429 would leave a player
/// waiting for ever: a person would press on, and so do these). `None` when the battle
/// message never came within `MB_BENCH_BEGIN_SECS` (120).
async fn begin(app: &App, group: i64, a: User, b: User) -> Option<Duel> {
    let patience = Duration::from_secs(env_or("MB_BENCH_BEGIN_SECS", 120));
    app.tg.group(group, "Sea dogs");
    let timer = match env_or("MB_BENCH_TIMER", 3u32) {
        0 => engine::TurnTimer::Off,
        1 => engine::TurnTimer::OneMinute,
        10 => engine::TurnTimer::TenMinutes,
        _ => engine::TurnTimer::ThreeMinutes,
    };
    if timer != engine::Ruleset::default().timer {
        let ruleset = engine::Ruleset {
            timer,
            ..engine::Ruleset::default()
        };
        app.set_rules(group, ruleset).await;
    }
    let (lobby, join) = open_lobby(app, group, &a).await;
    let answer = app.press(group, &b, lobby.message_id, &join).await;
    assert!(!answer.show_alert, "the join is refused: {answer:?}");
    let start = data(&lobby, "s:");
    let answer = app.press(group, &a, lobby.message_id, &start).await;
    assert!(!answer.show_alert, "the start is refused: {answer:?}");
    for p in [&a, &b] {
        let chat = p.id.0 as i64;
        let editor = app
            .tg
            .wait_for(
                chat,
                |m| m.callback_data().iter().any(|d| d.starts_with("pe:")),
                patience,
            )
            .await?;
        let button = |end: &str| {
            editor
                .callback_data()
                .into_iter()
                .find(|d| d.starts_with("pe:") && d.ends_with(end))
                .expect("the editor's buttons")
        };
        app.press(chat, p, editor.message_id, &button(":r")).await;
        let answer = app.press(chat, p, editor.message_id, &button(":k")).await;
        assert!(!answer.show_alert, "the fleet is not locked: {answer:?}");
    }
    let battle = app
        .tg
        .wait_for(
            group,
            |m| m.callback_data().iter().any(|d| d.starts_with("f:")),
            patience,
        )
        .await?;
    Some(Duel::from_battle(&battle, [a, b], group))
}

/// The board's calls' waits for the token so far (from `mb_token_wait_seconds` of the bot's
/// `GET /metrics` at `addr`): their sum in seconds, their count, and how many waited over
/// 2.5 s.
async fn token_waits(addr: std::net::SocketAddr) -> (f64, f64, f64) {
    let (_, text) = scrape(addr).await;
    let board = [("priority", "board")];
    let count = metric(&text, "mb_token_wait_seconds_count", &board);
    let within = metric(
        &text,
        "mb_token_wait_seconds_bucket",
        &[("priority", "board"), ("le", "2.5")],
    );
    (
        metric(&text, "mb_token_wait_seconds_sum", &board),
        count,
        count - within,
    )
}

async fn scale_once(n: usize, replicas: usize, seed: u64) -> Figures {
    let secs: u64 = env_or("MB_BENCH_SCALE_SECS", 60);
    let grace: u64 = env_or("MB_BENCH_GRACE_SECS", 30);
    // The production pace of a group (`None`: MB_GROUP_PER_MINUTE 18) and its gap.
    let mut app = App::world(4500, None).await;
    app.seed = Some(seed);
    app.tg.set_token_limits(Some(TokenLimits::TELEGRAM));
    if replicas > 1 {
        app.webhook_listen = vec![free_port(), free_port()];
    }
    // The first replica's metrics: how long its calls waited for the token.
    let metrics = free_port();
    app.env.push(("MB_HEALTH_ADDR".into(), metrics.to_string()));
    app.start_bot().await;
    app.env.retain(|(k, _)| k != "MB_HEALTH_ADDR");
    if replicas > 1 {
        app.start_second_bot().await;
        app.tg.set_webhook_backends(app.webhook_listen.clone());
    }
    let app = Arc::new(app);

    let placing = Instant::now();
    let before_placing = app.tg.token_usage();
    let mut setups = tokio::task::JoinSet::new();
    for g in 0..n {
        let app = app.clone();
        setups.spawn(async move {
            let base = 300_000 + 10 * g as i64;
            let a = app.player(base, &format!("A{g}"), "en");
            let b = app.player(base + 1, &format!("B{g}"), "en");
            begin(&app, -30_000 - g as i64, a, b).await
        });
    }
    let mut ready = Vec::new();
    let mut never_began = 0;
    while let Some(d) = setups.join_next().await {
        match d.expect("a duel's setup") {
            Some(d) => ready.push(d),
            None => never_began += 1,
        }
    }
    ready.sort_by_key(|d| -d.group);
    let placed = placing.elapsed();
    let at_play = app.tg.token_usage();
    let placement_calls = at_play.accepted.len() - before_placing.accepted.len();
    let placement_429s = new_429s(&before_placing, &at_play);
    eprintln!(
        "scale: {} duels placed in {:.1} s with {replicas} replica(s), {never_began} never began; playing {secs} s",
        ready.len(),
        placed.as_secs_f64()
    );

    let waits_before = token_waits(metrics).await;
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let mut players = tokio::task::JoinSet::new();
    for (g, mut d) in ready.into_iter().enumerate() {
        let app = app.clone();
        players.spawn(async move {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed * 1_000_003 + g as u64);
            let mut run = DuelRun {
                group: d.group,
                ..DuelRun::default()
            };
            // Whether each seat's fleet was hit since the turn last passed to it.
            let mut struck = [false; 2];
            loop {
                let think = rng.gen_range(1500..=3000);
                tokio::time::sleep(Duration::from_millis(think)).await;
                if Instant::now() >= until || d.is_over(&app) {
                    break;
                }
                let seat = d.turn;
                let Some(cell) = d.next_cell(seat) else { break };
                let at = Instant::now();
                let shot = d.shoot_button(&app).await;
                let answered = Instant::now();
                run.answers.push(answered - at);
                match shot {
                    Shot::Miss | Shot::Hit | Shot::Sunk => {
                        run.pressed.push(Pressed {
                            battle: d.battle,
                            shooter: d.players[seat].first_name.clone(),
                            cell: cell_name(cell),
                            at,
                        });
                        if shot == Shot::Miss {
                            let news = std::mem::take(&mut struck[1 - seat]);
                            run.passes
                                .push((d.players[1 - seat].id.0 as i64, answered, news));
                        } else {
                            struck[1 - seat] = true;
                        }
                    }
                    Shot::Over => break,
                    Shot::NotYourTurn | Shot::Known => {}
                }
            }
            run.stopped = Some(Instant::now());
            run
        });
    }
    let mut runs = Vec::new();
    while let Some(r) = players.join_next().await {
        runs.push(r.expect("a duel's players"));
    }
    let played = started.elapsed();
    // The pace the machine drove: presses made over the presses players of a human pace
    // (a press 1.5–3 s, 2.25 s on average, after the previous answer) would have made in the
    // time each duel was played. Below 1, the bench (or the bot on the same cores) could not
    // keep up, and the figures are of a slower game than people play.
    let human = runs
        .iter()
        .map(|r| {
            let answer = r.answers.iter().map(Duration::as_secs_f64).sum::<f64>()
                / r.answers.len().max(1) as f64;
            let active = r
                .stopped
                .map_or(0.0, |at| at.duration_since(started).as_secs_f64());
            active / (2.25 + answer)
        })
        .sum::<f64>();
    let pace = runs.iter().map(|r| r.answers.len()).sum::<usize>() as f64 / human.max(1.0);
    tokio::time::sleep(Duration::from_secs(grace)).await;
    let end = Instant::now();
    let usage = app.tg.token_usage();
    let waits = token_waits(metrics).await;
    let board_wait = (waits.0 - waits_before.0) / (waits.1 - waits_before.1).max(1.0);
    let slow_board_calls = (waits.2 - waits_before.2) / (waits.1 - waits_before.1).max(1.0);

    let shots: usize = runs.iter().map(|r| r.pressed.len()).sum();
    let per = shots.max(1) as f64;
    let play_429s = new_429s(&at_play, &usage);
    let mut spent: BTreeMap<(&'static str, ChatType), usize> = BTreeMap::new();
    for c in usage.accepted.iter().filter(|c| c.at >= started) {
        *spent.entry((c.method, c.chat_type)).or_default() += 1;
    }

    let mut answers: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.answers.iter().map(Duration::as_secs_f64))
        .collect();
    answers.sort_by(f64::total_cmp);
    let mut results = Vec::new();
    let mut lost = 0;
    let mut worst_gaps = Vec::new();
    let mut stale = Vec::new();
    let mut never_fresh = 0;
    let mut no_news = 0;
    let mut longest_waits = Vec::new();
    // Board redraws in play (the mean period they imply), and those that left results for
    // the next redraw ("…and N more": more came than the caption holds).
    let (mut redraws, mut spilled) = (0usize, 0usize);
    for r in &runs {
        let messages = app.tg.messages(r.group);
        let mut longest = 0.0f64;
        for p in &r.pressed {
            match result_seen(&messages, p) {
                Some(at) => {
                    let waited = at.saturating_duration_since(p.at).as_secs_f64();
                    longest = longest.max(waited);
                    results.push(waited);
                }
                None => lost += 1,
            }
        }
        longest_waits.push(longest);
        // The battle message's edits during play, the start and the end of play as edges.
        if let Some(battle) = r.pressed.first().map(|p| p.battle) {
            let mut edges = vec![started];
            if let Some(m) = messages.iter().find(|m| m.message_id == battle) {
                let in_play = |at: Instant| at > started && at < started + played;
                redraws += m.history.iter().filter(|s| in_play(s.at)).count();
                spilled += m
                    .history
                    .iter()
                    .filter(|s| in_play(s.at) && s.text.contains(" more result"))
                    .count();
                edges.extend(
                    m.history
                        .iter()
                        .map(|s| s.at)
                        .filter(|at| *at > started && *at < started + played),
                );
            }
            edges.push(started + played);
            let worst = edges
                .windows(2)
                .map(|w| w[1].duration_since(w[0]).as_secs_f64())
                .fold(0.0, f64::max);
            worst_gaps.push(worst);
        }
        for (i, &(player, passed, news)) in r.passes.iter().enumerate() {
            if !news {
                // Misses alone wait for the field's next redraw (or the player's ask).
                no_news += 1;
                continue;
            }
            // Their turn lasts until the turn passes again (their miss), or the run ends.
            let turn_ends = r.passes.get(i + 1).map_or(end, |next| next.1);
            // The own field is the picture in their private chat; any redraw of it after the
            // pass is the one the pass asked for (it is redrawn on nothing else in play).
            let fresh = app
                .tg
                .messages(player)
                .iter()
                .filter(|m| m.photo.is_some())
                .flat_map(|m| m.history.iter())
                .filter(|s| s.at >= passed && s.at <= turn_ends)
                .map(|s| s.at)
                .min();
            match fresh {
                Some(at) => stale.push(at.duration_since(passed).as_secs_f64()),
                None => never_fresh += 1,
            }
        }
    }
    results.sort_by(f64::total_cmp);
    stale.sort_by(f64::total_cmp);
    worst_gaps.sort_by(f64::total_cmp);
    let worst_gap = worst_gaps.last().copied().unwrap_or(f64::NAN);
    longest_waits.sort_by(f64::total_cmp);
    let worst_wait = longest_waits.last().copied().unwrap_or(f64::NAN);
    let median_wait = percentile(&longest_waits, 0.5);

    println!(
        "scale, {n} duels, {replicas} replica(s), seed {seed}: placed in {:.1} s with {placement_calls} sends and edits, 429s {}; played {:.0} s (+{grace} s grace): {shots} accepted shots, {} sends and edits in the token's busiest second",
        placed.as_secs_f64(),
        by_method(&placement_429s, 1.0),
        played.as_secs_f64(),
        usage.max_per_second(),
    );
    println!("  429s in play: {}", by_method(&play_429s, 1.0));
    println!("  by limit (whole run): {:?}", usage.by_limit);
    println!(
        "  sends and edits per accepted shot: {}",
        by_method(&spent, per)
    );
    report_errors(&app);

    let total = |map: &BTreeMap<(&'static str, ChatType), usize>, t: Option<ChatType>| {
        map.iter()
            .filter(|((_, ct), _)| t.is_none_or(|t| *ct == t))
            .map(|(_, n)| *n)
            .sum::<usize>() as f64
    };
    let mut figures: Figures = vec![
        ("duels that never began", never_began as f64),
        ("accepted shots", shots as f64),
        ("presses over a human pace's", pace),
        ("placement (s)", placed.as_secs_f64()),
        ("429s in placement", total(&placement_429s, None)),
        ("429s in play", total(&play_429s, None)),
    ];
    for t in CHAT_TYPES {
        let name: &'static str = match t {
            ChatType::Group => "  of them to groups",
            ChatType::Private => "  of them to private chats",
            ChatType::Inline => "  of them to inline messages",
        };
        figures.push((name, total(&play_429s, Some(t))));
    }
    figures.push((
        "sends and edits per accepted shot",
        total(&spent, None) / per,
    ));
    for t in CHAT_TYPES {
        let name: &'static str = match t {
            ChatType::Group => "  in groups",
            ChatType::Private => "  in private chats",
            ChatType::Inline => "  in inline messages",
        };
        figures.push((name, total(&spent, Some(t)) / per));
    }
    figures.extend([
        ("press → answer p50 (s)", percentile(&answers, 0.5)),
        ("press → answer p90 (s)", percentile(&answers, 0.9)),
        (
            "press → result on the board p50 (s)",
            percentile(&results, 0.5),
        ),
        (
            "press → result on the board p90 (s)",
            percentile(&results, 0.9),
        ),
        (
            "press → result on the board max (s)",
            results.last().copied().unwrap_or(f64::NAN),
        ),
        (
            "own field fresh after the turn passed p50 (s)",
            percentile(&stale, 0.5),
        ),
        (
            "own field fresh after the turn passed p90 (s)",
            percentile(&stale, 0.9),
        ),
        (
            "turns whose own field never said so in the turn",
            never_fresh as f64,
        ),
        (
            "turns passed after hits",
            (stale.len() + never_fresh) as f64,
        ),
        (
            "turns passed after misses alone (no redraw due)",
            no_news as f64,
        ),
        ("worst group's gap between board edits (s)", worst_gap),
        (
            "mean gap between a group's board edits in play (s)",
            played.as_secs_f64() * runs.len() as f64 / redraws.max(1) as f64,
        ),
        (
            "board edits that left results for the next (\"…and N more\")",
            spilled as f64,
        ),
        ("the median group's longest press → board (s)", median_wait),
        (
            "the worst group's longest press → board / the median's",
            worst_wait / median_wait,
        ),
        ("shots lost (never on the board)", lost as f64),
        (
            "a board call's wait for the token, mean (s; the first replica's)",
            board_wait,
        ),
        (
            "  board calls that waited over 2.5 s (share)",
            slow_board_calls,
        ),
    ]);
    figures
}
