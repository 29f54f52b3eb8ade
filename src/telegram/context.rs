//! What every handler shares: the context (the Bot API, the store, the configuration, the
//! random source), the errors a handler can end with, the clock, pacing of a chat's sends,
//! answers to presses, and users' languages.

use crate::config::BotConfig;
use crate::game::lang::Lang;
use crate::store::settings::Claim;
use crate::store::{Store, StoreError};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use teloxide::types::{ChatId, User};
use teloxide::RequestError;

/// The bot as handlers use it. Its sends and edits are paced by the token's and the chats'
/// budgets (`token.rs`, `.metered()`), not by teloxide's in-process `Throttle`.
pub type TgBot = teloxide::Bot;

/// What handlers share.
#[derive(Clone)]
pub struct Ctx {
    /// The Bot API.
    pub bot: TgBot,
    /// Game state.
    pub store: Store,
    /// The bot's username, for deep links.
    pub username: Arc<String>,
    /// The bot's token: it checks the Mini App's `initData` and keys its game tokens (never
    /// logged, never shown).
    pub token: Arc<String>,
    /// The bot's own user id (its rights in a chat are asked by it).
    pub bot_id: u64,
    /// Tunables.
    pub config: Arc<BotConfig>,
    /// The random source for draws, salts and layouts: seeded from `MB_SEED` when set, so a
    /// test can replay a whole game word for word.
    pub rng: Arc<std::sync::Mutex<rand::rngs::StdRng>>,
    /// This process as a claimant, `name/boot`: the replica's name (`MB_REPLICA`, else the
    /// host's name) and a random number of this run, so a replica started again is a new
    /// claimant, and two processes of one name are two (`store/life.rs`).
    pub replica: Arc<String>,
    /// The games this process is sending (`sender/`): whether it was woken again since.
    pub sending: Arc<std::sync::Mutex<std::collections::HashMap<crate::store::GameId, bool>>>,
    /// Users' languages as read lately: a button's answer needs one, and asking Redis every
    /// time would double the round trips of a shot. Kept for seconds only, so a `/lang` on
    /// another replica shows soon.
    pub langs: Arc<std::sync::Mutex<std::collections::HashMap<u64, (Lang, tokio::time::Instant)>>>,
    /// The updates this process claimed and is handling now: a claim of this process's own
    /// that is not among them was left by a handling that failed, and is taken again.
    pub in_hand: Arc<std::sync::Mutex<std::collections::HashSet<u32>>>,
}

/// An update this process has in hand, let go when dropped (see [`Ctx::take_in_hand`]).
pub struct InHand {
    ctx: Ctx,
    update_id: u32,
}

impl Drop for InHand {
    fn drop(&mut self) {
        self.ctx.hold_update(self.update_id, false);
    }
}

impl Ctx {
    /// The Mini App's address on game `id`'s board, for the private chat's button
    /// (`MB_WEBAPP_URL`), if one is set.
    pub fn webapp_url(&self, id: crate::store::GameId) -> Option<String> {
        let url = self.config.webapp_url.as_ref()?;
        let token = super::init_data::game_token(id.0, &self.token);
        let sep = if url.contains('?') { '&' } else { '?' };
        Some(format!("{url}{sep}game={token}"))
    }

    /// The link that opens the Mini App on game `id`'s live board from any chat
    /// (`t.me/<bot>/<MB_WEBAPP_NAME>?startapp=`), if a short name is set.
    pub fn webapp_link(&self, id: crate::store::GameId) -> Option<String> {
        let name = self.config.webapp_name.as_ref()?;
        let token = super::init_data::game_token(id.0, &self.token);
        Some(format!(
            "https://t.me/{}/{name}?startapp={token}",
            self.username
        ))
    }

    /// Takes update `update_id` in hand for as long as the guard lives; `None` while this
    /// process has it in hand already (Telegram posted it again while it was being handled).
    pub fn take_in_hand(&self, update_id: u32) -> Option<InHand> {
        let fresh = self
            .in_hand
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(update_id);
        fresh.then(|| InHand {
            ctx: self.clone(),
            update_id,
        })
    }

    /// Notes an update as in hand (`true`) or done with (`false`).
    pub fn hold_update(&self, update_id: u32, in_hand: bool) {
        let mut held = self
            .in_hand
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if in_hand {
            held.insert(update_id);
        } else {
            held.remove(&update_id);
        }
    }

    /// Claims update `update_id` for this process (see
    /// [`Store::claim_update`](crate::store::Store::claim_update)), and holds it when it is
    /// this process's now. A claim of this process's own that it does not hold is taken
    /// again (its handling failed).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`](crate::store::StoreError::Unavailable) and the like.
    pub async fn claim(&self, update_id: u32) -> Result<Claim, crate::store::StoreError> {
        let got = self
            .store
            .claim_update(update_id, &self.replica, self.config.claim_stale)
            .await?;
        let mut held = self
            .in_hand
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(match got {
            Claim::Mine | Claim::Again => {
                if held.insert(update_id) {
                    Claim::Mine
                } else {
                    Claim::Elsewhere
                }
            }
            other => other,
        })
    }

    /// A random source for one transition, forked from the bot's: a transition function may
    /// run again after a conflict, so it takes a clone of this each time and draws the same.
    pub fn fork(&self) -> rand::rngs::StdRng {
        use rand::{Rng, SeedableRng};
        let seed: u64 = self
            .rng
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .gen();
        rand::rngs::StdRng::seed_from_u64(seed)
    }
}

/// An error a handler could not turn into an answer: logged by the dispatcher.
#[derive(Debug)]
pub enum BotError {
    /// Storage failed.
    Store(StoreError),
    /// Telegram failed.
    Telegram(RequestError),
    /// Another live process is handling this update now: it is to come again (webhook mode
    /// answers Telegram 503).
    Elsewhere,
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Store(e) => write!(f, "store: {e}"),
            BotError::Telegram(e) => write!(f, "telegram: {e}"),
            BotError::Elsewhere => f.write_str("another process handles this update now"),
        }
    }
}

impl std::error::Error for BotError {}

impl From<StoreError> for BotError {
    fn from(e: StoreError) -> Self {
        BotError::Store(e)
    }
}

impl From<RequestError> for BotError {
    fn from(e: RequestError) -> Self {
        BotError::Telegram(e)
    }
}

/// A handler's result.
pub type HandlerResult = Result<(), BotError>;

/// Now, in Unix seconds: the only clock the adapter reads; the engine gets it passed in.
pub fn now() -> u64 {
    crate::clock::unix_secs()
}

/// Waits for one send or edit of the chat's budget (`sender/`), for handlers that still
/// send themselves (the settings panel, answers to commands).
///
/// # Errors
/// When Redis cannot say (three tries in a row, or at once while it is known to be away):
/// nothing is to be sent, as the budget is never overrun, and the update is not handled
/// (in webhook mode Telegram posts it again; in long polling it is answered "try again").
pub async fn pace(ctx: &Ctx, chat: ChatId) -> Result<(), StoreError> {
    let mut failed = 0;
    loop {
        match chat_slot(ctx, chat.0).await {
            Ok(0) => return Ok(()),
            Ok(wait) => tokio::time::sleep(Duration::from_millis(wait.min(60_000))).await,
            Err(e) => {
                failed += 1;
                if failed >= 3 || ctx.store.unreachable() {
                    return Err(e);
                }
                log::warn!("budget of {chat}: {e}");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        }
    }
}

/// Takes one send or edit of the chat's budget if one is free now: a handler that must not
/// wait (answers to commands in a group) sends only then.
///
/// # Errors
/// When Redis cannot say: nothing is to be sent.
pub async fn try_pace(ctx: &Ctx, chat: ChatId) -> Result<bool, StoreError> {
    Ok(chat_slot(ctx, chat.0).await? == 0)
}

/// One send or edit of the chat's budget, for a caller about to make it: 0 when it may go,
/// else the milliseconds to wait. A group's slot is taken now (the sender keeps the group's
/// pace by it, waiting rather than blocking); a private chat's is only looked at, as the
/// call takes it itself right before it goes, after the token's (`.metered()`, `token.rs`).
///
/// # Errors
/// [`StoreError::Unavailable`] and the like.
pub async fn chat_slot(ctx: &Ctx, chat: i64) -> Result<u64, StoreError> {
    let budget = ctx.config.budget(chat);
    ctx.store.take_budget(chat, budget, chat < 0).await
}

/// How long a user's language is taken from memory.
const LANG_FRESH: Duration = Duration::from_secs(10);

/// Kills this process with SIGKILL when `MB_CRASH_AT` names `point`: the end-to-end tests
/// crash the bot between storing a change and sending its effects, as a power cut would.
/// Only a build with the `crash-points` feature (the tests') has them.
#[cfg(feature = "crash-points")]
pub fn crash_point(ctx: &Ctx, point: &str) {
    if ctx.config.crash_at.as_deref() != Some(point) {
        return;
    }
    log::warn!("crashing at {point} (MB_CRASH_AT)");
    let pid = std::process::id().to_string();
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid])
        .status();
    std::process::abort();
}

/// Without the `crash-points` feature (a release build) there are none.
#[cfg(not(feature = "crash-points"))]
pub fn crash_point(_ctx: &Ctx, _point: &str) {}

/// A user's language: chosen with /lang, else from Telegram's language code.
pub async fn user_lang(ctx: &Ctx, user: &User) -> Lang {
    let uid = user.id.0;
    {
        let langs = ctx
            .langs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((lang, at)) = langs.get(&uid) {
            if at.elapsed() < LANG_FRESH {
                return *lang;
            }
        }
    }
    let lang = match ctx.store.user_settings(uid).await {
        Ok(s) => s
            .lang
            .unwrap_or_else(|| Lang::from_telegram(user.language_code.as_deref())),
        Err(_) => return Lang::from_telegram(user.language_code.as_deref()),
    };
    let mut langs = ctx
        .langs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if langs.len() > 10_000 {
        langs.retain(|_, (_, at)| at.elapsed() < LANG_FRESH);
    }
    langs.insert(uid, (lang, tokio::time::Instant::now()));
    lang
}

/// Forgets a user's language read earlier (they just chose another).
pub fn forget_lang(ctx: &Ctx, user: u64) {
    ctx.langs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .remove(&user);
}

/// The localised words for a storage failure; the update being handled is counted as
/// answered "try again" (`metered.rs`), but for a game that is over.
pub fn store_error_key(e: &StoreError) -> &'static str {
    if *e != StoreError::NotFound {
        crate::metrics::mark(crate::metrics::Outcome::TryAgain);
    }
    match e {
        StoreError::Unavailable(_) | StoreError::Server(_) => "error-unavailable",
        StoreError::Busy | StoreError::Fenced => "error-busy",
        StoreError::NotFound => "error-game-over",
        StoreError::Undecodable { .. } => "error-undecodable",
    }
}

/// A display name: first name and last name, as Telegram shows it.
pub fn display_name(user: &User) -> String {
    match &user.last_name {
        Some(last) => format!("{} {last}", user.first_name),
        None => user.first_name.clone(),
    }
}

/// A start-up request to Telegram that failed for now: waits `pause` (ctrl-c or SIGTERM stops
/// the bot meanwhile, exit 130 or 143), then doubles it for the next time, up to a minute.
pub async fn wait_to_try_again(pause: &mut Duration) {
    tokio::select! {
        () = tokio::time::sleep(*pause) => {}
        code = stop_requested() => {
            log::info!("stopped");
            std::process::exit(code);
        }
    }
    *pause = (*pause * 2).min(Duration::from_secs(60));
}

/// Set once a signal to stop came: the exit code for a stop before the bot is up.
static STOP: std::sync::OnceLock<tokio::sync::watch::Sender<Option<i32>>> =
    std::sync::OnceLock::new();

/// Starts listening for the signals to stop: ctrl-c (SIGINT) and SIGTERM (`docker stop`,
/// systemd, Kubernetes). Once called, neither kills the process: a stop is seen by every
/// [`stop_requested`], before or after it came. Needs the runtime.
pub fn listen_for_stop() -> &'static tokio::sync::watch::Sender<Option<i32>> {
    STOP.get_or_init(|| {
        let (tx, _) = tokio::sync::watch::channel(None);
        #[cfg(unix)]
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::spawn(async move {
            #[cfg(unix)]
            let terminate = async {
                match term.as_mut() {
                    Some(t) => t.recv().await,
                    None => std::future::pending().await,
                }
            };
            #[cfg(not(unix))]
            let terminate = std::future::pending::<Option<()>>();
            let code = tokio::select! {
                _ = tokio::signal::ctrl_c() => 130,
                _ = terminate => 143,
            };
            let name = if code == 130 { "SIGINT" } else { "SIGTERM" };
            log::info!("{name}: stopping");
            if let Some(stop) = STOP.get() {
                stop.send_replace(Some(code));
            }
        });
        tx
    })
}

/// Waits for a signal to stop (see [`listen_for_stop`]): the exit code for a stop before the
/// bot is up, 130 for ctrl-c, 143 for SIGTERM.
pub async fn stop_requested() -> i32 {
    let mut rx = listen_for_stop().subscribe();
    let code = rx.wait_for(Option::is_some).await.ok().and_then(|c| *c);
    match code {
        Some(code) => code,
        // The sender lives in a static: never dropped.
        None => std::future::pending().await,
    }
}
