//! `GET /metrics` (issue 27): the real bot with `MB_HEALTH_ADDR`, a short game played by
//! button and ended by a surrender, and the counters read back as Prometheus text.

use crate::helpers::*;
use std::collections::BTreeSet;
use std::time::Duration;
use tokio::time::Instant;

/// The families declared by `# TYPE`, after checking that every other line is a `# HELP` or
/// a sample `name{labels} number` of a declared family (a histogram's `_bucket`, `_sum`,
/// `_count` included).
fn families(text: &str) -> BTreeSet<String> {
    let mut declared = BTreeSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, _) = rest.split_once(' ').expect("a type");
            declared.insert(name.to_owned());
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect("a sample with a value");
        assert!(
            value.parse::<f64>().is_ok() || value == "+Inf",
            "not a number: {line}"
        );
        let name = series.split('{').next().unwrap();
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s).filter(|base| declared.contains(*base)))
            .unwrap_or(name);
        assert!(
            declared.contains(family),
            "a sample of no declared family: {line}"
        );
        if series.contains('{') {
            assert!(series.ends_with('}'), "labels not closed: {line}");
        }
    }
    declared
}

/// Every family the bot declares.
const FAMILIES: [&str; 18] = [
    "mb_updates_total",
    "mb_update_seconds",
    "mb_telegram_calls_total",
    "mb_telegram_call_seconds",
    "mb_outbox_games",
    "mb_outbox_oldest_seconds",
    "mb_takeovers_total",
    "mb_redis_seconds",
    "mb_redis_errors_total",
    "mb_games_started_total",
    "mb_games_finished_total",
    "mb_shots_total",
    "mb_build_info",
    "mb_token_calls_total",
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
    "process_open_fds",
    "process_start_time_seconds",
];

#[tokio::test]
async fn the_metrics_endpoint_counts_the_updates_calls_shots_and_games_of_a_game_played() {
    let mut app = App::spawn().await;
    app.kill_bot();
    let addr = free_port();
    app.env.push(("MB_HEALTH_ADDR".into(), addr.to_string()));
    app.start_bot().await;
    let (code, before) = scrape(addr).await;
    assert_eq!(code, 200, "{before}");
    // A fresh process shows every family, each with a sample: at 0 what has not happened
    // yet (a query of failed updates answers 0, not "no data").
    let declared = families(&before);
    for family in &declared {
        assert!(
            before
                .lines()
                .any(|l| !l.starts_with('#') && l.starts_with(family.as_str())),
            "{family} has no sample on a fresh process:\n{before}"
        );
    }
    for series in [
        "mb_updates_total{kind=\"command\",outcome=\"failed\"} 0",
        "mb_takeovers_total{what=\"send_lease\"} 0",
        "mb_takeovers_total{what=\"update_claim\"} 0",
        "mb_shots_total{by=\"bot\"} 0",
        "mb_redis_errors_total{kind=\"connection\"} 0",
        "mb_games_finished_total 0",
    ] {
        assert!(
            before.lines().any(|l| l == series),
            "no {series} in\n{before}"
        );
    }
    // Every family, declared from the start.
    let fresh = families(&before);
    for family in FAMILIES {
        assert!(
            fresh.contains(family),
            "no {family} on a fresh process:\n{before}"
        );
    }
    assert_eq!(
        metric(
            &before,
            "mb_build_info",
            &[("version", env!("CARGO_PKG_VERSION"))]
        ),
        1.0,
        "{before}"
    );
    let trips_before = metric(&before, "mb_redis_seconds_count", &[]);

    let a = app.player(401, "Alice", "en");
    let b = app.player(402, "Bob", "en");
    let group = -4_001;
    let mut d = duel(&app, group, a, b).await;
    // A press out of turn is refused.
    let waiting = 1 - d.turn;
    let cell = d.next_cell(waiting).unwrap();
    let refused = app
        .press(
            group,
            &d.players[waiting],
            d.battle,
            &d.fire_data(waiting, cell),
        )
        .await;
    assert_eq!(read_answer(&said(&refused)), Shot::NotYourTurn);
    let mut shots = 0;
    while shots < 6 {
        match d.shoot_button(&app).await {
            Shot::Miss | Shot::Hit | Shot::Sunk => shots += 1,
            // A cell beside a sunk ship, known already: refused, no shot.
            Shot::Known => {}
            other => panic!("a shot not taken: {other:?}"),
        }
    }

    // The sender's edits follow the shots, and an update is counted once its handling ends
    // (after its answer): wait until the last is counted.
    let deadline = Instant::now() + wait();
    let text = loop {
        let (code, text) = scrape(addr).await;
        assert_eq!(code, 200);
        let calls = |method| metric(&text, "mb_telegram_calls_total", &[("method", method)]);
        let fired = metric(
            &text,
            "mb_updates_total",
            &[("kind", "fire"), ("outcome", "handled")],
        );
        let settled = calls("editMessageText") + calls("editMessageMedia") > 0.0
            && fired >= f64::from(shots)
            && calls("answerCallbackQuery") == app.tg.calls("answerCallbackQuery") as f64;
        if settled || Instant::now() > deadline {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let declared = families(&text);
    for family in FAMILIES {
        assert!(declared.contains(family), "no {family} in\n{text}");
    }
    assert_eq!(
        metric(&text, "mb_shots_total", &[("by", "player")]),
        f64::from(shots),
        "{text}"
    );
    assert!(metric(&text, "mb_shots_total", &[("by", "bot")]) == 0.0);
    assert!(
        metric(&text, "mb_games_started_total", &[]) >= 1.0,
        "{text}"
    );
    assert!(
        metric(
            &text,
            "mb_updates_total",
            &[("kind", "fire"), ("outcome", "handled")]
        ) >= f64::from(shots),
        "{text}"
    );
    assert!(
        metric(
            &text,
            "mb_updates_total",
            &[("kind", "fire"), ("outcome", "refused")]
        ) >= 1.0,
        "{text}"
    );
    assert!(metric(&text, "mb_updates_total", &[("kind", "command")]) >= 1.0);
    let calls = |method| metric(&text, "mb_telegram_calls_total", &[("method", method)]);
    // Every press answered, counted as Telegram saw it.
    assert!(
        calls("answerCallbackQuery") >= f64::from(shots) + 1.0,
        "{text}"
    );
    assert_eq!(
        calls("answerCallbackQuery"),
        app.tg.calls("answerCallbackQuery") as f64,
        "{text}"
    );
    assert!(
        calls("sendMessage") >= 1.0 && calls("sendMessage") <= app.tg.calls("sendMessage") as f64
    );
    assert!(
        calls("editMessageText") + calls("editMessageMedia") > 0.0,
        "{text}"
    );
    assert!(
        metric(
            &text,
            "mb_telegram_calls_total",
            &[("method", "getUpdates"), ("result", "ok")]
        ) >= 1.0
    );
    assert!(metric(&text, "mb_redis_seconds_count", &[]) > trips_before);
    assert_eq!(metric(&text, "mb_games_finished_total", &[]), 0.0);

    // A surrender ends the game: counted once its settlement is written.
    app.tg
        .send_command(group, &d.players[0].clone(), "/surrender");
    app.tg
        .wait_for_text(group, "Winner:", wait())
        .await
        .expect("the end is announced");
    let deadline = Instant::now() + wait();
    loop {
        let (_, text) = scrape(addr).await;
        if metric(&text, "mb_games_finished_total", &[]) == 1.0 {
            assert_eq!(metric(&text, "mb_games_started_total", &[]), 1.0, "{text}");
            break;
        }
        assert!(Instant::now() < deadline, "the end is not counted:\n{text}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Webhook mode, two replicas behind one URL, each with its own `GET /metrics`: every update
/// is counted once between them (by the replica that took its post), each press's answer is
/// counted where it was made, and the shots and the game add up over the two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_webhook_replicas_count_every_update_once_between_them() {
    let mut app = App::world(150, Some(100_000)).await;
    app.webhook_listen = vec![free_port(), free_port()];
    let addrs = [free_port(), free_port()];
    app.env
        .push(("MB_HEALTH_ADDR".into(), addrs[0].to_string()));
    app.start_bot().await;
    app.env.retain(|(k, _)| k != "MB_HEALTH_ADDR");
    app.env
        .push(("MB_HEALTH_ADDR".into(), addrs[1].to_string()));
    app.start_second_bot().await;
    app.tg.set_webhook_backends(app.webhook_listen.clone());
    let a = app.player(403, "Alice", "en");
    let b = app.player(404, "Bob", "en");
    let group = -4_002;
    let mut d = duel(&app, group, a, b).await;
    let mut shots = 0;
    while shots < 8 {
        match d.shoot_button(&app).await {
            Shot::Miss | Shot::Hit | Shot::Sunk => shots += 1,
            Shot::Known => {}
            other => panic!("a shot not taken: {other:?}"),
        }
    }
    // Summed over both replicas, once every post taken is counted.
    let sum = |texts: &[String], name: &str, labels: &[(&str, &str)]| -> f64 {
        texts.iter().map(|t| metric(t, name, labels)).sum()
    };
    let deadline = Instant::now() + wait();
    let (texts, taken) = loop {
        let mut texts = Vec::new();
        for addr in addrs {
            let (code, text) = scrape(addr).await;
            assert_eq!(code, 200, "{text}");
            families(&text);
            texts.push(text);
        }
        let taken = app
            .tg
            .webhook_deliveries()
            .iter()
            .filter(|d| d.delivered())
            .count() as f64;
        // The last press is answered before its handling ends (and is counted).
        let fired = sum(
            &texts,
            "mb_updates_total",
            &[("kind", "fire"), ("outcome", "handled")],
        );
        let counted = sum(&texts, "mb_updates_total", &[]);
        if (fired >= f64::from(shots) && counted >= taken) || Instant::now() > deadline {
            break (texts, taken);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        sum(&texts, "mb_updates_total", &[]),
        taken,
        "every update taken is counted once between the replicas:\n{}\n---\n{}",
        texts[0],
        texts[1]
    );
    for (i, text) in texts.iter().enumerate() {
        assert!(
            metric(text, "mb_updates_total", &[]) > 0.0,
            "replica {i} took no post:\n{text}"
        );
    }
    assert!(
        sum(
            &texts,
            "mb_updates_total",
            &[("kind", "fire"), ("outcome", "handled")]
        ) >= f64::from(shots),
        "{}\n---\n{}",
        texts[0],
        texts[1]
    );
    assert_eq!(
        sum(&texts, "mb_shots_total", &[("by", "player")]),
        f64::from(shots)
    );
    assert_eq!(
        sum(
            &texts,
            "mb_telegram_calls_total",
            &[("method", "answerCallbackQuery")]
        ),
        app.tg.calls("answerCallbackQuery") as f64,
        "each press's answer is counted where it was made"
    );
    assert_eq!(sum(&texts, "mb_games_started_total", &[]), 1.0);
}
