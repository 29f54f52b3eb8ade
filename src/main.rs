//! The Telegram bot. Only the rules engine (`crates/engine`) exists so far; the bot's adapters
//! (Telegram, Redis, locales) come with their own issues.

fn main() {
    pretty_env_logger::init();
    if std::env::var("TELOXIDE_TOKEN").map_or(true, |t| t.trim().is_empty()) {
        eprintln!(
            "TELOXIDE_TOKEN is not set: talk to @BotFather in Telegram, create a bot with /newbot, \
             and run again with TELOXIDE_TOKEN=<the token>."
        );
        std::process::exit(2);
    }
    log::error!("the Telegram adapter is not written yet: only the rules engine exists");
    std::process::exit(1);
}
