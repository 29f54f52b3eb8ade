//! The bot binary: configuration from the environment (`config/`), then long polling or the
//! webhook until ctrl-c or SIGTERM. `morskoy-boy play` instead plays a duel against the AI in the terminal
//! (`terminal.rs`); `--help` and `--version` answer and stop.

use morskoy_boy::config::{log_filter, log_format, Config, LogFormat, HELP};
use morskoy_boy::store::Store;
use morskoy_boy::telegram;
use std::process::exit;
use std::time::{Duration, Instant};

fn main() {
    match std::env::args().nth(1).as_deref() {
        // The offline try-out: no token, no Redis, no async runtime.
        Some("play") => exit(morskoy_boy::terminal::main(std::env::args().skip(2))),
        Some("--help" | "-h" | "help") => {
            print!("{HELP}");
            return;
        }
        Some("healthcheck") => {
            let addr = std::env::args()
                .nth(2)
                .or_else(|| std::env::var("MB_HEALTH_ADDR").ok())
                .unwrap_or_else(|| "127.0.0.1:8080".into())
                .replace("0.0.0.0", "127.0.0.1");
            exit(morskoy_boy::telegram::health::probe(&addr));
        }
        Some("--version" | "-V") => {
            println!("morskoy-boy {}", env!("CARGO_PKG_VERSION"));
            return;
        }
        Some(other) => {
            eprintln!("morskoy-boy: unknown argument {other:?}; see morskoy-boy --help");
            exit(2);
        }
        None => {}
    }
    init_logs();
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(e) => {
            // Once: in the log, or on stderr when the log would not show it (RUST_LOG=off).
            if log::log_enabled!(log::Level::Error) {
                log::error!("{e}");
            } else {
                eprintln!("morskoy-boy: {e}");
            }
            exit(2);
        }
    };
    for warning in config.warnings() {
        log::warn!("{warning}");
    }
    for name in morskoy_boy::config::unknown_variables(std::env::vars().map(|(k, _)| k)) {
        log::warn!("{name} is not a variable the bot reads (misspelt?): it is ignored");
    }
    bot(config);
}

/// Logs on stderr through tracing (the `log` lines of the bot and its libraries too), plain or
/// JSON (`MB_LOG_FORMAT`), filtered by `RUST_LOG`: info by default, so an operator sees
/// start-up's waits and errors without setting it.
fn init_logs() {
    let format = match log_format(|k| std::env::var(k).ok()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("morskoy-boy: {e}");
            exit(2);
        }
    };
    let filter = log_filter(|k| std::env::var(k).ok());
    let filter = match tracing_subscriber::EnvFilter::try_new(&filter) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("morskoy-boy: RUST_LOG={filter:?} is not valid: {e}");
            exit(2);
        }
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Plain => logs.with_ansi(false).init(),
        LogFormat::Json => logs
            .fmt_fields(tracing_subscriber::fmt::format::JsonFields::new())
            .event_format(JsonLine)
            .init(),
    }
}

/// One JSON object a log line: `timestamp`, `level`, `target`, the event's `fields`, and
/// `span`: the fields of the spans it happened in (update, chat, game), outermost first, and
/// the innermost span's `name`. Unlike tracing-subscriber's own JSON lines, the `log.file`,
/// `log.line`, `log.module_path` and `log.target` fields the log bridge adds are left out
/// (they carry paths of the build machine; the target is the line's `target`), and the
/// spans' fields come once.
struct JsonLine;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for JsonLine
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        use serde_json::{Map, Value};
        use tracing_subscriber::fmt::time::FormatTime;
        let mut timestamp = String::new();
        tracing_subscriber::fmt::time::SystemTime.format_time(
            &mut tracing_subscriber::fmt::format::Writer::new(&mut timestamp),
        )?;
        let mut fields = EventFields::default();
        event.record(&mut fields);
        let meta = event.metadata();
        let mut line = Map::new();
        line.insert("timestamp".into(), timestamp.into());
        line.insert("level".into(), meta.level().as_str().into());
        let target = fields.target.take().unwrap_or_else(|| meta.target().into());
        line.insert("target".into(), target.into());
        line.insert("fields".into(), Value::Object(fields.map));
        if let Some(scope) = ctx.event_scope() {
            let mut span = Map::new();
            let mut name = "";
            for s in scope.from_root() {
                name = s.name();
                let ext = s.extensions();
                let Some(formatted) = ext.get::<tracing_subscriber::fmt::FormattedFields<N>>()
                else {
                    continue;
                };
                if let Ok(Value::Object(own)) = serde_json::from_str(&formatted.fields) {
                    span.extend(own);
                }
            }
            span.insert("name".into(), name.into());
            line.insert("span".into(), Value::Object(span));
        }
        writeln!(writer, "{}", Value::Object(line))
    }
}

/// An event's fields as JSON, without the log bridge's `log.*` ones (its `log.target` kept
/// aside: the line's target).
#[derive(Default)]
struct EventFields {
    map: serde_json::Map<String, serde_json::Value>,
    target: Option<String>,
}

impl EventFields {
    fn put(&mut self, field: &tracing::field::Field, value: serde_json::Value) {
        match field.name() {
            "log.target" => self.target = value.as_str().map(str::to_owned),
            name if name.starts_with("log.") => {}
            name => {
                self.map.insert(name.to_owned(), value);
            }
        }
    }
}

impl tracing::field::Visit for EventFields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.put(field, format!("{value:?}").into());
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.put(field, value.into());
    }
    fn record_i64(&mut self, field: &tracing::field::Field, value: i64) {
        self.put(field, value.into());
    }
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        self.put(field, value.into());
    }
    fn record_bool(&mut self, field: &tracing::field::Field, value: bool) {
        self.put(field, value.into());
    }
    fn record_f64(&mut self, field: &tracing::field::Field, value: f64) {
        self.put(field, value.into());
    }
}

#[tokio::main]
async fn bot(config: Config) {
    telegram::context::listen_for_stop();
    let mut bot = teloxide::Bot::new(&config.token);
    if let Some(url) = config.api_url.clone() {
        bot = bot.set_api_url(url);
    }
    // Liveness and readiness from the first second, whatever start-up waits for; the
    // webhook and the Mini App answer 503 until the bot is up.
    telegram::http::listen(&config).await;
    let store = connect(&config).await;
    telegram::run(bot, store, config).await;
}

/// Redis, once it answers: it may come up after the bot (containers). Gives up after
/// `MB_REDIS_WAIT_SECS`; ctrl-c or SIGTERM stops the wait.
async fn connect(config: &Config) -> Store {
    let url = &morskoy_boy::config::redacted(&config.redis_url);
    if config.redis_url.starts_with("memory://") {
        log::warn!(
            "REDIS_URL is {url}: the games live in this process only, are lost when it stops, \
             and no other replica sees them"
        );
    }
    telegram::health::starting(format!("connecting to Redis at {url}"));
    let deadline = Instant::now() + config.redis_wait;
    loop {
        let attempt = tokio::time::timeout(
            Duration::from_secs(5),
            Store::connect(&config.redis_url, config.store.clone()),
        );
        let error = tokio::select! {
            done = attempt => match done {
                Ok(Ok(store)) => return store,
                Ok(Err(e)) => e.to_string(),
                Err(_) => "no answer in 5 s".to_owned(),
            },
            code = telegram::context::stop_requested() => stop(code),
        };
        if Instant::now() >= deadline {
            log::error!(
                "Redis at {url} is unreachable ({error}); gave up after {} s (MB_REDIS_WAIT_SECS)",
                config.redis_wait.as_secs()
            );
            exit(3);
        }
        log::warn!("waiting for Redis at {url}: {error}");
        telegram::health::starting(format!("waiting for Redis at {url}: {error}"));
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(2)) => {}
            code = telegram::context::stop_requested() => stop(code),
        }
    }
}

/// Ctrl-c (exit 130) or SIGTERM (143) before the bot is up.
fn stop(code: i32) -> ! {
    log::info!("stopped");
    exit(code);
}

/// The allocator: the bot allocates and frees many small strings and records a move
/// (Telegram's JSON, the stored record); mimalloc does that faster than glibc's malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
