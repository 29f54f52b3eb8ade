//! The bot binary: configuration from the environment (`config.rs`), then long polling until
//! ctrl-c. `morskoy-boy play` instead plays a duel against the AI in the terminal
//! (`terminal.rs`); `--help` and `--version` answer and stop.

use morskoy_boy::config::{log_format, Config, LogFormat, HELP};
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
            log::error!("{e}");
            eprintln!("morskoy-boy: {e}");
            exit(2);
        }
    };
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
    let filter = std::env::var("RUST_LOG").unwrap_or_else(|_| "info".into());
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
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .init(),
    }
}

#[tokio::main]
async fn bot(config: Config) {
    let mut bot = teloxide::Bot::new(&config.token);
    if let Some(url) = config.api_url.clone() {
        bot = bot.set_api_url(url);
    }
    let store = connect(&config).await;
    telegram::run(bot, store, config).await;
}

/// Redis, once it answers: it may come up after the bot (containers). Gives up after
/// `MB_REDIS_WAIT_SECS`; ctrl-c stops the wait.
async fn connect(config: &Config) -> Store {
    let url = &config.redis_url;
    let deadline = Instant::now() + config.redis_wait;
    loop {
        let attempt = tokio::time::timeout(
            Duration::from_secs(5),
            Store::connect(url, config.store.clone()),
        );
        let error = tokio::select! {
            done = attempt => match done {
                Ok(Ok(store)) => return store,
                Ok(Err(e)) => e.to_string(),
                Err(_) => "no answer in 5 s".to_owned(),
            },
            _ = tokio::signal::ctrl_c() => stop(),
        };
        if Instant::now() >= deadline {
            log::error!(
                "Redis at {url} is unreachable ({error}); gave up after {} s (MB_REDIS_WAIT_SECS)",
                config.redis_wait.as_secs()
            );
            exit(3);
        }
        log::warn!("waiting for Redis at {url}: {error}");
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(2)) => {}
            _ = tokio::signal::ctrl_c() => stop(),
        }
    }
}

/// Ctrl-c before the bot is up.
fn stop() -> ! {
    log::info!("stopped");
    exit(130);
}

/// The allocator: the bot allocates and frees many small strings and records a move
/// (Telegram's JSON, the stored record); mimalloc does that faster than glibc's malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
