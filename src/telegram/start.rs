//! Start-up: who the bot is, the context, the timer, the health watch, then polling or the
//! webhook until ctrl-c or SIGTERM. (The HTTP server's listeners are up from the process's
//! start, `http.rs`: the health endpoints say what start-up waits for, the webhook and the
//! Mini App answer 503 until this brings them up.)

use super::commands;
use super::context::{wait_to_try_again, Ctx};
use super::dispatch::schema;
use super::health;
use super::metered::Metered;
use super::polling;
use super::timer;
use super::webhook;
use crate::store::Store;
use std::sync::Arc;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::RequestError;

/// Long polling gets nothing while a webhook is set, and deleting it would cut off whatever
/// takes Telegram's posts (a webhook deployment of the same token): so a webhook found set
/// stops the bot (exit 2), unless `MB_DELETE_WEBHOOK=1` says to delete it and poll.
async fn refuse_or_delete_webhook(bot: &teloxide::Bot, delete: bool) {
    let mut pause = Duration::from_secs(1);
    let url = loop {
        match bot.get_webhook_info().metered().await {
            Ok(info) => break info.url,
            Err(RequestError::Api(e)) => {
                log::error!("getWebhookInfo failed: {e}");
                std::process::exit(1);
            }
            Err(e) => {
                log::warn!(
                    "getWebhookInfo failed: {e}; trying again in {} s",
                    pause.as_secs()
                );
                wait_to_try_again(&mut pause).await;
            }
        }
    };
    let Some(url) = url else {
        return;
    };
    if !delete {
        log::error!(
            "a webhook is set for this token: Telegram posts the updates to {url}, so long \
             polling would get none, and deleting the webhook would cut off what takes them \
             there (another deployment?). Stopped. To run this bot in webhook mode set \
             MB_WEBHOOK_URL; to delete the webhook and poll here, run again with \
             MB_DELETE_WEBHOOK=1"
        );
        std::process::exit(2);
    }
    log::warn!("deleting the webhook to {url} (MB_DELETE_WEBHOOK=1): this bot polls instead");
    let mut pause = Duration::from_secs(1);
    while let Err(e) = bot.delete_webhook().metered().await {
        if let RequestError::Api(e) = e {
            log::error!("deleteWebhook failed: {e}");
            std::process::exit(1);
        }
        log::warn!(
            "deleteWebhook failed: {e}; trying again in {} s",
            pause.as_secs()
        );
        wait_to_try_again(&mut pause).await;
    }
}

/// Who the bot is, once Telegram answers: a refused token stops the bot at once (exit 2),
/// no network is tried again with a growing pause (ctrl-c stops the wait).
async fn get_me(bot: &teloxide::Bot) -> teloxide::types::Me {
    let mut pause = Duration::from_secs(1);
    loop {
        let error = match bot.get_me().metered().await {
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
        let what = format!("cannot reach Telegram at {}: {error}", bot.api_url());
        log::warn!("{what}; trying again in {} s", pause.as_secs());
        health::starting(what);
        wait_to_try_again(&mut pause).await;
    }
}

/// This run's claimant: `name/boot` (see [`Ctx::replica`]).
fn claimant(name: &str) -> String {
    format!("{}/{:016x}", name.replace('/', "_"), rand::random::<u64>())
}

/// Says this process is alive, every [`BEAT`](crate::store::life::BEAT), until it stops;
/// and as often wakes a sender for the games whose sender died or that were changed on
/// another replica, so a dead sender's game is taken over within [`LIFE`] and a beat.
///
/// [`LIFE`]: crate::store::life::LIFE
async fn live(ctx: Ctx) {
    loop {
        if let Err(e) = ctx.store.beat(&ctx.replica).await {
            log::debug!("life: {e}");
        }
        super::sender::poll(&ctx).await;
        super::quick::tick(&ctx).await;
        tokio::time::sleep(crate::store::life::BEAT).await;
    }
}

/// How long a stopping bot waits for the updates it has in hand: it stops within 8 s of
/// SIGTERM (Docker kills it after 10).
const GRACE: Duration = Duration::from_secs(5);

/// Runs the bot until ctrl-c or SIGTERM: the updates in hand are finished, then it returns.
pub async fn run(bot: teloxide::Bot, store: Store, config: crate::config::Config) {
    health::starting(format!(
        "asking Telegram who the bot is (getMe at {})",
        bot.api_url()
    ));
    let me = get_me(&bot).await;
    let webapp_addr = config.webapp;
    let token = config.token.clone();
    let hook = config.webhook.clone();
    if hook.is_none() {
        refuse_or_delete_webhook(&bot, config.delete_webhook).await;
    }
    let unhealthy_exit = config.unhealthy_exit;
    let username = me.username.clone().unwrap_or_default();
    // No teloxide `Throttle`: every send and edit waits for its turn in the token's budget
    // and its chat's (`token.rs`, `.metered()`), shared by every replica; a queue of this
    // process's on top would hold a call that took its turn and let it arrive with later
    // ones (the scale bench's 429s in placement).
    let tuned = &config.bot;
    super::token::install(store.clone(), tuned.token_per_second, tuned.budget(1));
    let rng = match config.seed {
        Some(seed) => rand::SeedableRng::seed_from_u64(seed),
        None => rand::SeedableRng::from_entropy(),
    };
    let ctx = Ctx {
        bot,
        store,
        username: Arc::new(username),
        token: Arc::new(token.clone()),
        bot_id: me.id.0,
        config: Arc::new(config.bot),
        rng: Arc::new(std::sync::Mutex::new(rng)),
        sending: Arc::default(),
        langs: Arc::default(),
        replica: Arc::new(claimant(&config.replica)),
        in_hand: Arc::default(),
    };
    let life = tokio::spawn(live(ctx.clone()));
    commands::register(&ctx).await;
    let ticker = tokio::spawn(timer::tick_forever(ctx.clone()));
    health::up(&ctx);
    if webapp_addr.is_some() {
        super::webapp::up(&ctx, token);
    }
    let watch =
        unhealthy_exit.map(|limit| tokio::spawn(health::exit_when_unhealthy(ctx.clone(), limit)));
    log::info!("@{} is up", ctx.username);
    if let Some(hook) = hook {
        webhook::set(&ctx, &hook).await;
        webhook::run(ctx.clone(), me, hook).await;
    } else {
        polling::run(
            ctx.clone(),
            me,
            schema(),
            async {
                super::context::stop_requested().await;
            },
            GRACE,
        )
        .await;
    }
    ticker.abort();
    life.abort();
    // What this process claimed or held is anybody's at once.
    let _ = ctx.store.end_life(&ctx.replica).await;
    if let Some(task) = watch {
        task.abort();
    }
    log::info!("stopped");
}
