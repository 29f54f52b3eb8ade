//! The bot binary: configuration from the environment, then long polling until ctrl-c.
//! `morskoy-boy play` instead plays a duel against the AI in the terminal (`terminal.rs`).

use morskoy_boy::store::{Store, StoreConfig};
use morskoy_boy::telegram::{self, BotConfig};
use std::time::Duration;

fn main() {
    // The offline try-out: no token, no Redis, no async runtime.
    if std::env::args().nth(1).as_deref() == Some("play") {
        std::process::exit(morskoy_boy::terminal::main(std::env::args().skip(2)));
    }
    bot();
}

#[tokio::main]
async fn bot() {
    pretty_env_logger::init_timed();
    let token = std::env::var("TELOXIDE_TOKEN").unwrap_or_default();
    if token.trim().is_empty() {
        eprintln!(
            "TELOXIDE_TOKEN is not set: talk to @BotFather in Telegram, create a bot with /newbot, \
             and run again with TELOXIDE_TOKEN=<the token>."
        );
        std::process::exit(2);
    }
    let mut bot = teloxide::Bot::new(token.trim());
    if let Ok(url) = std::env::var("TELOXIDE_API_URL") {
        match url.parse() {
            Ok(url) => bot = bot.set_api_url(url),
            Err(e) => {
                eprintln!("TELOXIDE_API_URL is not a URL ({e}): {url}");
                std::process::exit(2);
            }
        }
    }
    let redis_url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    // Redis may come up after the bot (containers): wait for it rather than give up.
    let store = loop {
        match Store::connect(&redis_url, StoreConfig::from_env()).await {
            Ok(store) => break store,
            Err(e) => {
                log::warn!("waiting for Redis at {redis_url}: {e}");
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        }
    };
    telegram::run(bot, store, BotConfig::from_env()).await;
}

/// The allocator: the bot allocates and frees many small strings and records a move
/// (Telegram's JSON, the stored record); mimalloc does that faster than glibc's malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
