//! Start-up: who the bot is, the context, the timer, the health server, then polling or the
//! webhook until ctrl-c.

use super::commands;
use super::context::{wait_to_try_again, Ctx};
use super::dispatch::{schema, Claimed};
use super::health;
use super::polling;
use super::timer;
use super::webhook;
use crate::store::Store;
use std::sync::Arc;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::RequestError;

/// Long polling gets nothing while a webhook is set: it is taken off, as teloxide's polling
/// does.
async fn delete_webhook_if_set(ctx: &Ctx) {
    match ctx.bot.get_webhook_info().await {
        Ok(info) if info.url.is_some() => {
            if let Err(e) = ctx.bot.delete_webhook().await {
                log::error!("deleteWebhook failed: {e}");
            }
        }
        Ok(_) => {}
        Err(e) => log::error!("getWebhookInfo failed: {e}"),
    }
}

/// Who the bot is, once Telegram answers: a refused token stops the bot at once (exit 2),
/// no network is tried again with a growing pause (ctrl-c stops the wait).
async fn get_me(bot: &teloxide::Bot) -> teloxide::types::Me {
    let mut pause = Duration::from_secs(1);
    loop {
        let error = match bot.get_me().await {
            Ok(me) => return me,
            Err(RequestError::Api(teloxide::ApiError::InvalidToken)) => {
                log::error!(
                    "Telegram refuses TELOXIDE_TOKEN (401 Unauthorized): copy the token from \
                     @BotFather again"
                );
                std::process::exit(2);
            }
            Err(e @ (RequestError::Network(_) | RequestError::Io(_))) => e,
            Err(RequestError::RetryAfter(s)) => {
                pause = s.duration();
                RequestError::RetryAfter(s)
            }
            Err(e) => {
                log::error!("getMe failed: {e}");
                std::process::exit(1);
            }
        };
        log::warn!(
            "cannot reach Telegram at {}: {error}; trying again in {} s",
            bot.api_url(),
            pause.as_secs()
        );
        wait_to_try_again(&mut pause).await;
    }
}

/// Runs the bot until ctrl-c.
pub async fn run(bot: teloxide::Bot, store: Store, config: crate::config::Config) {
    let me = get_me(&bot).await;
    let health_addr = config.health;
    let hook = config.webhook.clone();
    let username = me.username.clone().unwrap_or_default();
    let bot = bot.throttle(teloxide::adaptors::throttle::Limits::default());
    let rng = match config.seed {
        Some(seed) => rand::SeedableRng::seed_from_u64(seed),
        None => rand::SeedableRng::from_entropy(),
    };
    let ctx = Ctx {
        bot,
        store,
        username: Arc::new(username),
        config: Arc::new(config.bot),
        rng: Arc::new(std::sync::Mutex::new(rng)),
        sending: Arc::default(),
        langs: Arc::default(),
        replica: Arc::new(config.replica),
    };
    commands::register(&ctx).await;
    let ticker = tokio::spawn(timer::tick_forever(ctx.clone()));
    let health = health_addr.map(|addr| tokio::spawn(health::serve(ctx.clone(), addr)));
    log::info!("@{} is up", ctx.username);
    if let Some(hook) = hook {
        webhook::set(&ctx, &hook).await;
        webhook::serve(ctx.clone(), me, hook).await;
    } else {
        delete_webhook_if_set(&ctx).await;
        Dispatcher::builder(ctx.bot.clone(), schema())
            .dependencies(dptree::deps![ctx.clone(), Claimed(false)])
            .default_handler(|_| async {})
            .enable_ctrlc_handler()
            .build()
            .dispatch_with_listener(
                polling::listener(ctx.bot.inner()),
                LoggingErrorHandler::with_custom_text("polling"),
            )
            .await;
    }
    ticker.abort();
    if let Some(h) = health {
        h.abort();
    }
    log::info!("stopped");
}
