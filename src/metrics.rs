//! This process's counters, served as Prometheus text at `GET /metrics` on `MB_HEALTH_ADDR`
//! (`telegram/health.rs`). Every metric is defined here, once; the store and the Telegram
//! adapter count through the small functions below. Each counts what *this* process did:
//! with several replicas, Prometheus sums them (a game begun by one replica and finished by
//! another counts once in each sum, never twice).
//!
//! - `mb_updates_total{kind,outcome}` — updates, by kind (`command`, `text`, a button's kind)
//!   and outcome (`handled`, `refused`, `duplicate`, `failed`, `try_again`);
//! - `mb_telegram_calls_total{method,result}` — Bot API calls, by method (`sendMessage`) and
//!   result (`ok`, `not_modified`, `forbidden`, `query_invalid`, `not_found`, `bad_request`,
//!   `retry_after` for 429, `network`, …);
//! - `mb_outbox_games`, `mb_outbox_oldest_seconds` — games with effects to deliver, and how
//!   long the oldest has waited (refreshed by the ticker every few seconds);
//! - `mb_takeovers_total{what}` — an update's claim or a game's send lease taken over from a
//!   process that died;
//! - `mb_redis_seconds`, `mb_redis_errors_total{kind}` — requests to Redis (a command, a
//!   script or a pipeline: the histogram's count is the round trips), how long each took, and
//!   the failed ones (`timeout`, `connection`, `server`);
//! - `mb_update_seconds{kind}` — how long the handling of an update took, by its kind;
//! - `mb_telegram_call_seconds{method}` — how long a Bot API call took (its answer's wait,
//!   not its wait for the token's budget), by method;
//! - `mb_games_started_total`, `mb_games_finished_total` — battles this process began to
//!   show (the battle message sent) and ended (the settlement written);
//! - `mb_shots_total{by}` — accepted shots (a salvo or a typed volley once), `player`
//!   or `bot`;
//! - `mb_build_info{version}` — 1, labelled with the bot's version;
//! - `process_*` — the standard process metrics (Linux): CPU seconds, resident and virtual
//!   memory, open and most file descriptors, start time.

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};
use std::sync::LazyLock;

/// Every metric, registered in one registry.
pub struct Metrics {
    registry: Registry,
    updates: IntCounterVec,
    calls: IntCounterVec,
    outbox_games: IntGauge,
    outbox_oldest: prometheus::Gauge,
    takeovers: IntCounterVec,
    update_seconds: HistogramVec,
    call_seconds: HistogramVec,
    redis_seconds: Histogram,
    redis_errors: IntCounterVec,
    games_started: IntCounter,
    games_finished: IntCounter,
    shots: IntCounterVec,
    webapp_streams: IntGauge,
    webapp_watchers: IntGauge,
    board_queue: prometheus::Gauge,
    token_calls: IntCounterVec,
    token_wait: prometheus::HistogramVec,
    token_pauses: IntCounter,
}

fn counter_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let c = IntCounterVec::new(Opts::new(name, help), labels).expect("a valid metric");
    registry
        .register(Box::new(c.clone()))
        .expect("registered once");
    c
}

fn counter(registry: &Registry, name: &str, help: &str) -> IntCounter {
    let c = IntCounter::new(name, help).expect("a valid metric");
    registry
        .register(Box::new(c.clone()))
        .expect("registered once");
    c
}

static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let r = Registry::new();
    let outbox_games = IntGauge::new(
        "mb_outbox_games",
        "Games with effects still to deliver (the outbox index).",
    )
    .expect("a valid metric");
    r.register(Box::new(outbox_games.clone()))
        .expect("registered once");
    let float_gauge = |name: &str, help: &str| {
        let g = prometheus::Gauge::new(name, help).expect("a valid metric");
        r.register(Box::new(g.clone())).expect("registered once");
        g
    };
    let outbox_oldest = float_gauge(
        "mb_outbox_oldest_seconds",
        "How long the game longest in the outbox index has waited, in seconds.",
    );
    let redis_seconds = Histogram::with_opts(
        HistogramOpts::new(
            "mb_redis_seconds",
            "Round-trip time of a request to Redis (a command, a script or a pipeline).",
        )
        .buckets(vec![
            0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
        ]),
    )
    .expect("a valid metric");
    r.register(Box::new(redis_seconds.clone()))
        .expect("registered once");
    #[cfg(target_os = "linux")]
    r.register(Box::new(
        prometheus::process_collector::ProcessCollector::for_self(),
    ))
    .expect("registered once");
    let build_info = IntGaugeVec::new(
        Opts::new(
            "mb_build_info",
            "1, labelled with the version of the bot that runs.",
        ),
        &["version"],
    )
    .expect("a valid metric");
    r.register(Box::new(build_info.clone()))
        .expect("registered once");
    build_info
        .with_label_values(&[env!("CARGO_PKG_VERSION")])
        .set(1);
    let histogram = |name: &str, help: &str, label: &str, buckets: Vec<f64>| {
        let h = HistogramVec::new(HistogramOpts::new(name, help).buckets(buckets), &[label])
            .expect("a valid metric");
        r.register(Box::new(h.clone())).expect("registered once");
        h
    };
    let update_seconds = histogram(
        "mb_update_seconds",
        "How long the handling of an update took, by kind (command, text, a button's kind).",
        "kind",
        vec![
            0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
        ],
    );
    let call_seconds = histogram(
        "mb_telegram_call_seconds",
        "How long a Bot API call took to answer (not its wait for the token's budget), by method.",
        "method",
        vec![
            0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
        ],
    );
    let gauge = |name: &str, help: &str| {
        let g = IntGauge::new(name, help).expect("a valid metric");
        r.register(Box::new(g.clone())).expect("registered once");
        g
    };
    let webapp_streams = gauge(
        "mb_webapp_streams",
        "The Mini App's live streams open on this replica.",
    );
    let webapp_watchers = gauge(
        "mb_webapp_watchers",
        "Games watched for the Mini App's live streams on this replica (one each, however many streams).",
    );
    let board_queue = float_gauge(
        "mb_token_board_queue_seconds",
        "How long the last live board (a group's battle message) to queue for its turn of the bot token waits for it: as many turns as boards queue before it, all replicas'.",
    );
    let token_wait = prometheus::HistogramVec::new(
        HistogramOpts::new(
            "mb_token_wait_seconds",
            "How long a send or edit waited for the bot token's budget (all replicas share it), by priority.",
        )
        .buckets(vec![0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0]),
        &["priority"],
    )
    .expect("a valid metric");
    r.register(Box::new(token_wait.clone()))
        .expect("registered once");
    let token_calls = counter_vec(
        &r,
        "mb_token_calls_total",
        "Sends and edits taken from the bot token's budget, by priority (board, end, own_field, other).",
        &["priority"],
    );
    for p in ["board", "end", "own_field", "other"] {
        token_calls.with_label_values(&[p]);
        token_wait.with_label_values(&[p]);
    }
    let m = Metrics {
        token_calls,
        token_wait,
        token_pauses: counter(
            &r,
            "mb_token_pauses_total",
            "429s (retry_after) that paused every replica's sends and edits.",
        ),
        webapp_streams,
        webapp_watchers,
        board_queue,
        updates: counter_vec(
            &r,
            "mb_updates_total",
            "Updates from Telegram, by kind and by how their handling ended.",
            &["kind", "outcome"],
        ),
        calls: counter_vec(
            &r,
            "mb_telegram_calls_total",
            "Bot API calls, by method and result (429 is retry_after).",
            &["method", "result"],
        ),
        outbox_games,
        outbox_oldest,
        takeovers: counter_vec(
            &r,
            "mb_takeovers_total",
            "Claims taken over from a process that died: an update's, a game's send lease.",
            &["what"],
        ),
        update_seconds,
        call_seconds,
        redis_seconds,
        redis_errors: counter_vec(
            &r,
            "mb_redis_errors_total",
            "Requests to Redis that failed, by kind (timeout, connection, server).",
            &["kind"],
        ),
        games_started: counter(
            &r,
            "mb_games_started_total",
            "Battles this process began (their battle message sent).",
        ),
        games_finished: counter(
            &r,
            "mb_games_finished_total",
            "Battles this process ended (their settlement written).",
        ),
        shots: counter_vec(
            &r,
            "mb_shots_total",
            "Accepted shots (a salvo or a typed volley counts once), by player or bot.",
            &["by"],
        ),
        registry: r,
    };
    // Every family shows from the start, at 0: a query of "failed updates" or "takeovers"
    // answers 0, not "no data", on a process that has seen none yet.
    for outcome in Outcome::ALL {
        m.updates.with_label_values(&["command", outcome.label()]);
    }
    for result in ["ok", "retry_after", "network"] {
        m.calls.with_label_values(&["sendMessage", result]);
    }
    for what in [Takeover::UpdateClaim, Takeover::SendLease] {
        m.takeovers.with_label_values(&[takeover_label(what)]);
    }
    for kind in ["timeout", "connection", "server"] {
        m.redis_errors.with_label_values(&[kind]);
    }
    for by in ["player", "bot"] {
        m.shots.with_label_values(&[by]);
    }
    m.update_seconds.with_label_values(&["command"]);
    m.call_seconds.with_label_values(&["sendMessage"]);
    m
});

fn get() -> &'static Metrics {
    &METRICS
}

/// Every metric as Prometheus text (format 0.0.4).
pub fn render() -> String {
    let mut out = Vec::new();
    let families = get().registry.gather();
    if let Err(e) = TextEncoder::new().encode(&families, &mut out) {
        log::warn!("metrics: {e}");
    }
    String::from_utf8(out).unwrap_or_default()
}

/// A send or edit of priority `priority` took from the token's budget after waiting `secs`.
pub fn token_call(priority: &str, secs: f64) {
    get().token_calls.with_label_values(&[priority]).inc();
    get()
        .token_wait
        .with_label_values(&[priority])
        .observe(secs);
}

/// A 429 paused the token's calls.
pub fn token_paused() {
    get().token_pauses.inc();
}

/// A live stream of the Mini App opened (`1`) or closed (`-1`).
pub fn webapp_streams(change: i64) {
    get().webapp_streams.add(change);
}

/// A watcher of a game for the Mini App's streams started (`1`) or ended (`-1`).
pub fn webapp_watchers(change: i64) {
    get().webapp_watchers.add(change);
}

/// A live board queued for a turn of the token's budget `wait` seconds away.
pub fn board_queue(wait: f64) {
    get().board_queue.set(wait);
}

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// How an update's handling ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Handled to the end.
    Handled,
    /// Answered with a refusal (a press or move the rules do not allow).
    Refused,
    /// Handled before, or by another process now: skipped.
    Duplicate,
    /// Answered "try again" (Redis away or busy), or left to come again (webhook mode).
    TryAgain,
    /// The handler ended with an error.
    Failed,
}

impl Outcome {
    /// Every outcome.
    pub const ALL: [Outcome; 5] = [
        Outcome::Handled,
        Outcome::Refused,
        Outcome::Duplicate,
        Outcome::TryAgain,
        Outcome::Failed,
    ];

    /// Its label value.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Handled => "handled",
            Outcome::Refused => "refused",
            Outcome::Duplicate => "duplicate",
            Outcome::TryAgain => "try_again",
            Outcome::Failed => "failed",
        }
    }
}

tokio::task_local! {
    /// The worst outcome marked so far in the handling of the update of this task.
    static OUTCOME: std::cell::Cell<Outcome>;
}

/// Notes `outcome` for the update being handled (the worst mark wins); outside a handling
/// ([`marking`]), nothing.
pub fn mark(outcome: Outcome) {
    let _ = OUTCOME.try_with(|o| o.set(o.get().max(outcome)));
}

/// Runs `handling` (one update's), with what it [`mark`]ed: [`Outcome::Handled`] if nothing.
pub async fn marking<T>(handling: impl std::future::Future<Output = T>) -> (T, Outcome) {
    OUTCOME
        .scope(std::cell::Cell::new(Outcome::Handled), async {
            let out = handling.await;
            (out, OUTCOME.with(std::cell::Cell::get))
        })
        .await
}

/// Counts one update of `kind`.
pub fn update(kind: &str, outcome: Outcome) {
    get()
        .updates
        .with_label_values(&[kind, outcome.label()])
        .inc();
}

/// Counts one Bot API call.
pub fn telegram_call(method: &str, result: &str) {
    get().calls.with_label_values(&[method, result]).inc();
}

/// A Bot API call of `method` took `secs` to answer.
pub fn telegram_call_took(method: &str, secs: f64) {
    get()
        .call_seconds
        .with_label_values(&[method])
        .observe(secs);
}

/// The handling of an update of `kind` took `secs`.
pub fn update_took(kind: &str, secs: f64) {
    get()
        .update_seconds
        .with_label_values(&[kind])
        .observe(secs);
}

/// The outbox as the ticker saw it: `games` in the index, the oldest marked `oldest_secs` ago.
pub fn outbox(games: u64, oldest_secs: f64) {
    get().outbox_games.set(games as i64);
    get().outbox_oldest.set(oldest_secs);
}

/// What a takeover took.
#[derive(Clone, Copy, Debug)]
pub enum Takeover {
    /// An update's claim (`store/settings.rs`).
    UpdateClaim,
    /// A game's send lease (`store/outbox.rs`).
    SendLease,
}

/// Its label value.
fn takeover_label(what: Takeover) -> &'static str {
    match what {
        Takeover::UpdateClaim => "update_claim",
        Takeover::SendLease => "send_lease",
    }
}

/// Counts a claim taken over from a process that died.
pub fn takeover(what: Takeover) {
    get()
        .takeovers
        .with_label_values(&[takeover_label(what)])
        .inc();
}

/// Counts one request to Redis that took `seconds`, and its failure's kind if it failed.
pub fn redis_request(seconds: f64, error: Option<&str>) {
    let m = get();
    m.redis_seconds.observe(seconds);
    if let Some(kind) = error {
        m.redis_errors.with_label_values(&[kind]).inc();
    }
}

/// How many round trips to Redis this process has made so far.
pub fn redis_round_trips() -> u64 {
    get().redis_seconds.get_sample_count()
}

/// Counts a battle begun (its message sent).
pub fn game_started() {
    get().games_started.inc();
}

/// Counts a battle ended (its settlement written).
pub fn game_finished() {
    get().games_finished.inc();
}

/// Who shot.
#[derive(Clone, Copy, Debug)]
pub enum Shooter {
    /// A person: a press, a salvo, a typed move.
    Player,
    /// The bot's move.
    Bot,
}

/// Counts an accepted shot.
pub fn shot(by: Shooter) {
    let label = match by {
        Shooter::Player => "player",
        Shooter::Bot => "bot",
    };
    get().shots.with_label_values(&[label]).inc();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// One family of a Prometheus text exposition: its type, help and samples.
    #[derive(Debug, Default)]
    struct Family {
        kind: String,
        help: String,
        samples: Vec<(String, BTreeMap<String, String>, f64)>,
    }

    /// A strict reader of the text format 0.0.4: every line a `# HELP`, a `# TYPE` (before
    /// its samples, once) or a sample `name{label="value",…} number` of a declared family
    /// (a histogram's `_bucket`, `_sum` and `_count`); anything else is an error.
    fn parse(text: &str) -> Result<BTreeMap<String, Family>, String> {
        let mut families: BTreeMap<String, Family> = BTreeMap::new();
        let name_ok = |n: &str| {
            !n.is_empty()
                && !n.starts_with(|c: char| c.is_ascii_digit())
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        };
        if !text.ends_with('\n') {
            return Err("the text does not end with a newline".into());
        }
        for (n, line) in text.lines().enumerate() {
            let err = |why: &str| format!("line {}: {why}: {line:?}", n + 1);
            if let Some(rest) = line.strip_prefix("# HELP ") {
                let (name, help) = rest.split_once(' ').ok_or_else(|| err("no help"))?;
                if !name_ok(name) {
                    return Err(err("a bad name"));
                }
                families.entry(name.into()).or_default().help = help.into();
            } else if let Some(rest) = line.strip_prefix("# TYPE ") {
                let (name, kind) = rest.split_once(' ').ok_or_else(|| err("no type"))?;
                if !["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind) {
                    return Err(err("an unknown type"));
                }
                let f = families.entry(name.into()).or_default();
                if !f.kind.is_empty() || !f.samples.is_empty() {
                    return Err(err("a type twice or after samples"));
                }
                f.kind = kind.into();
            } else if line.starts_with('#') {
                return Err(err("a comment of no kind"));
            } else {
                let (series, value) = line.rsplit_once(' ').ok_or_else(|| err("no value"))?;
                let value: f64 = match value {
                    "+Inf" => f64::INFINITY,
                    "-Inf" => f64::NEG_INFINITY,
                    v => v.parse().map_err(|_| err("a value that is no number"))?,
                };
                let (name, labels) = match series.split_once('{') {
                    None => (series, BTreeMap::new()),
                    Some((name, rest)) => {
                        let inner = rest.strip_suffix('}').ok_or_else(|| err("no `}`"))?;
                        let mut labels = BTreeMap::new();
                        let mut rest = inner;
                        while !rest.is_empty() {
                            let (label, after) =
                                rest.split_once("=\"").ok_or_else(|| err("a bad label"))?;
                            if !name_ok(label) {
                                return Err(err("a bad label name"));
                            }
                            let mut value = String::new();
                            let mut chars = after.char_indices();
                            let end = loop {
                                match chars.next() {
                                    Some((_, '\\')) => match chars.next() {
                                        Some((_, 'n')) => value.push('\n'),
                                        Some((_, c @ ('\\' | '"'))) => value.push(c),
                                        _ => return Err(err("a bad escape")),
                                    },
                                    Some((i, '"')) => break i,
                                    Some((_, c)) => value.push(c),
                                    None => return Err(err("an open label value")),
                                }
                            };
                            labels.insert(label.to_owned(), value);
                            rest = &after[end + 1..];
                            rest = rest.strip_prefix(',').unwrap_or(rest);
                        }
                        (name, labels)
                    }
                };
                if !name_ok(name) {
                    return Err(err("a bad name"));
                }
                let family = ["_bucket", "_sum", "_count"]
                    .iter()
                    .filter_map(|s| name.strip_suffix(s))
                    .find(|base| families.get(*base).is_some_and(|f| f.kind == "histogram"))
                    .unwrap_or(name);
                let f = families
                    .get_mut(family)
                    .filter(|f| !f.kind.is_empty())
                    .ok_or_else(|| err("a sample of no declared family"))?;
                f.samples.push((name.to_owned(), labels, value));
            }
        }
        Ok(families)
    }

    fn value(families: &BTreeMap<String, Family>, name: &str, labels: &[(&str, &str)]) -> f64 {
        families
            .values()
            .flat_map(|f| &f.samples)
            .filter(|(n, l, _)| {
                n == name
                    && labels
                        .iter()
                        .all(|(k, v)| l.get(*k).map(String::as_str) == Some(v))
            })
            .map(|(_, _, v)| v)
            .sum()
    }

    #[test]
    fn the_rendered_text_parses_as_prometheus_text_with_every_family_described() {
        update("command", Outcome::Handled);
        update_took("command", 0.004);
        telegram_call("sendMessage", "ok");
        telegram_call_took("sendMessage", 0.03);
        takeover(Takeover::SendLease);
        redis_request(0.003, Some("timeout"));
        game_started();
        game_finished();
        shot(Shooter::Player);
        outbox(3, 1.5);
        let text = render();
        let families = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let expected = [
            ("mb_updates_total", "counter"),
            ("mb_telegram_calls_total", "counter"),
            ("mb_outbox_games", "gauge"),
            ("mb_outbox_oldest_seconds", "gauge"),
            ("mb_takeovers_total", "counter"),
            ("mb_redis_seconds", "histogram"),
            ("mb_redis_errors_total", "counter"),
            ("mb_games_started_total", "counter"),
            ("mb_games_finished_total", "counter"),
            ("mb_shots_total", "counter"),
            ("mb_build_info", "gauge"),
            ("mb_update_seconds", "histogram"),
            ("mb_telegram_call_seconds", "histogram"),
            ("process_cpu_seconds_total", "counter"),
            ("process_resident_memory_bytes", "gauge"),
            ("process_open_fds", "gauge"),
            ("process_start_time_seconds", "gauge"),
        ];
        for (name, kind) in expected {
            let f = families
                .get(name)
                .unwrap_or_else(|| panic!("no {name} in\n{text}"));
            assert_eq!(f.kind, kind, "{name}");
            assert!(!f.help.is_empty(), "{name} has no HELP");
            assert!(!f.samples.is_empty(), "{name} has no sample");
        }
        assert!(
            value(
                &families,
                "mb_updates_total",
                &[("kind", "command"), ("outcome", "handled")]
            ) >= 1.0
        );
        assert!(
            value(
                &families,
                "mb_telegram_calls_total",
                &[("method", "sendMessage")]
            ) >= 1.0
        );
        assert!(value(&families, "mb_redis_errors_total", &[("kind", "timeout")]) >= 1.0);
        assert!(value(&families, "mb_redis_seconds_count", &[]) >= 1.0);
        let buckets = value(&families, "mb_redis_seconds_bucket", &[("le", "+Inf")]);
        assert_eq!(buckets, value(&families, "mb_redis_seconds_count", &[]));
        assert!(value(&families, "mb_shots_total", &[("by", "player")]) >= 1.0);
        assert!(value(&families, "process_cpu_seconds_total", &[]) >= 0.0);
        assert!(value(&families, "process_resident_memory_bytes", &[]) > 0.0);
        assert!(value(&families, "mb_update_seconds_count", &[("kind", "command")]) >= 1.0);
        assert!(
            value(
                &families,
                "mb_telegram_call_seconds_bucket",
                &[("method", "sendMessage"), ("le", "0.05")]
            ) >= 1.0
        );
    }

    #[tokio::test]
    async fn the_worst_mark_of_a_handling_wins_and_none_leaks_outside() {
        mark(Outcome::Failed);
        let ((), got) = marking(async {
            mark(Outcome::TryAgain);
            mark(Outcome::Refused);
        })
        .await;
        assert_eq!(got, Outcome::TryAgain);
        let ((), nothing) = marking(async {}).await;
        assert_eq!(nothing, Outcome::Handled);
    }

    #[test]
    fn the_strict_reader_refuses_what_is_not_prometheus_text() {
        assert!(parse("# TYPE a counter\na 1\n").is_ok());
        assert!(parse("a 1\n").is_err(), "a sample of no declared family");
        assert!(parse("# TYPE a counter\na one\n").is_err());
        assert!(parse("# TYPE a counter\na{b=\"c} 1\n").is_err());
        assert!(parse("# TYPE a counter\na 1").is_err());
        assert!(parse("# TYPE a sometimes\n").is_err());
        assert!(parse("# TYPE a counter\na 1\n# TYPE a counter\n").is_err());
        let f = parse("# TYPE a counter\na{b=\"x\\\"y\",c=\"z\"} 2\n").unwrap();
        assert_eq!(f["a"].samples[0].1["b"], "x\"y");
        assert_eq!(f["a"].samples[0].1["c"], "z");
    }
}
