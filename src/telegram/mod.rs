//! The Telegram adapter: parse an update into an action, run it in an atomic store
//! transition (the application layer, `src/app.rs`, says what it does to the record and which
//! effects it implies), and deliver the effects. The handler tree is built in [`schema`].
//!
//! Layers, each using only the ones above it (`tests/layers.rs` checks there is no import
//! circle and that no flow calls another):
//! - views, pure: `callback.rs` (typed callback data, deep links), `render.rs` (boards,
//!   keyboards, words), `group.rs` (the group's live message and the end), `reveal.rs` (the
//!   fleets at the end in words), `panel.rs` (the settings panel), `editor_view.rs` (the placement editor), `own_field.rs` (each player's
//!   own field), `ai.rs` (the bot's names and levels in words);
//! - delivery: `chat.rs` (replies, private messages, a chat's game), `mine_dm.rs` (the mine
//!   question), `outbox.rs` (each game's one sender: the outbox, paced);
//! - `ai_turns.rs` — the bot's turns under a lease, whatever the game;
//! - `play.rs` — a move in a transition, its answer and follow-up, the bot's turns, the timers;
//! - the flows: `lobby.rs` (`/newgame`, `/play`, join, start, cancel, rematch, the bot's
//!   seats), `placement.rs` (the editor), `battle.rs` (shots by buttons and typed replies,
//!   surrender), `aim.rs` (the field aimed at, a salvo's cells), `mine.rs` (the cell given
//!   up), `settings.rs` with `settings/change.rs` (`/settings`, the lobby's ⚙);
//! - `commands.rs` (commands, their registration, help) and this file: dispatch;
//!   `polling.rs` — getUpdates, with a grid press's keyboard left unparsed; `webhook.rs` —
//!   the posts of webhook mode, for several replicas.

pub mod ai_turns;
pub mod aim;
pub mod battle;
pub mod chat;
pub mod commands;
pub mod health;
pub mod lobby;
pub mod mine;
pub mod mine_dm;
pub mod outbox;
pub mod placement;
pub mod play;
pub mod polling;
pub mod riga;
pub mod riga_core;
pub mod settings;
pub mod stats;
pub mod webhook;

use crate::game::lang::Lang;
use crate::store::{Store, StoreError};
use crate::view::buttons::Button;
use crate::view::i18n::t;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;
use teloxide::dispatching::{UpdateFilterExt, UpdateHandler};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, User};
use teloxide::RequestError;
use tracing::Instrument;

/// The bot as handlers use it: requests are throttled to Telegram's limits for sends.
pub type TgBot = teloxide::adaptors::Throttle<teloxide::Bot>;

/// What handlers share.
#[derive(Clone)]
pub struct Ctx {
    /// The Bot API.
    pub bot: TgBot,
    /// Game state.
    pub store: Store,
    /// The bot's username, for deep links.
    pub username: Arc<String>,
    /// Tunables.
    pub config: Arc<BotConfig>,
    /// The random source for draws, salts and layouts: seeded from `MB_SEED` when set, so a
    /// test can replay a whole game word for word.
    pub rng: Arc<std::sync::Mutex<rand::rngs::StdRng>>,
    /// This replica's name (`MB_REPLICA`, else the host's name): who claimed an update.
    pub replica: Arc<String>,
    /// The games this process is sending (`outbox.rs`): whether it was woken again since.
    pub sending: Arc<std::sync::Mutex<std::collections::HashMap<crate::store::GameId, bool>>>,
    /// Users' languages as read lately: a button's answer needs one, and asking Redis every
    /// time would double the round trips of a shot. Kept for seconds only, so a `/lang` on
    /// another replica shows soon.
    pub langs: Arc<std::sync::Mutex<std::collections::HashMap<u64, (Lang, std::time::Instant)>>>,
}

impl Ctx {
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

/// Tunables of the adapter.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The least time between two edits of one group's live message: a group takes about
    /// 20 sends and edits a minute.
    pub group_gap: Duration,
    /// How often due turn timers are checked.
    pub tick: Duration,
    /// Sends and edits one group takes a minute: Telegram's limit is about 20.
    pub group_per_minute: u32,
    /// How long the bot "types" before its own move, so people can follow it.
    pub ai_pause: Duration,
    /// How chats that have not chosen see the fields (`MB_BOARD`: `picture` or `text`).
    pub board: crate::game::record::Board,
    /// After how long an update another replica claimed and never finished (it crashed) is
    /// handled here (`MB_CLAIM_STALE_SECS`).
    pub claim_stale: Duration,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            group_gap: Duration::from_millis(3500),
            tick: Duration::from_secs(1),
            group_per_minute: 18,
            ai_pause: Duration::from_millis(1200),
            board: crate::game::record::Board::Picture,
            claim_stale: Duration::from_secs(60),
        }
    }
}

impl BotConfig {
    /// The least time between two redraws of a chat's live message: a group's gap, and at
    /// most a second in a private chat (Telegram takes about one message a second there).
    pub fn gap(&self, chat: i64) -> Duration {
        if chat >= 0 {
            self.group_gap.min(Duration::from_secs(1))
        } else {
            self.group_gap
        }
    }
}

/// An error a handler could not turn into an answer: logged by the dispatcher.
#[derive(Debug)]
pub enum BotError {
    /// Storage failed.
    Store(StoreError),
    /// Telegram failed.
    Telegram(RequestError),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Store(e) => write!(f, "store: {e}"),
            BotError::Telegram(e) => write!(f, "telegram: {e}"),
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
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Waits for one send or edit of the chat's budget (`outbox.rs`), for handlers that still
/// send themselves (the settings panel, answers to commands). `false` when Redis could not
/// say within a few tries: then nothing is sent, as the budget is never overrun.
pub async fn pace(ctx: &Ctx, chat: ChatId) -> bool {
    let (interval, tolerance) = ctx.config.budget(chat.0);
    for _ in 0..20 {
        match ctx.store.take_budget(chat.0, interval, tolerance).await {
            Ok(0) => return true,
            Ok(wait) => tokio::time::sleep(Duration::from_millis(wait.min(60_000))).await,
            Err(e) => {
                log::warn!("budget of {chat}: {e}");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        }
    }
    false
}

/// Takes one send or edit of the chat's budget if one is free now: a handler that must not
/// wait (answers to commands in a group) sends only then.
pub async fn try_pace(ctx: &Ctx, chat: ChatId) -> bool {
    let (interval, tolerance) = ctx.config.budget(chat.0);
    matches!(
        ctx.store.take_budget(chat.0, interval, tolerance).await,
        Ok(0)
    )
}

/// How long a user's language is taken from memory.
const LANG_FRESH: Duration = Duration::from_secs(10);

/// Writes this process's counters to the file `MB_METRICS_FILE` names, if any: one line
/// `redis_round_trips N`, for the benchmarks and for an operator's look.
pub fn write_metrics() {
    static FILE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let file = FILE.get_or_init(|| {
        std::env::var("MB_METRICS_FILE")
            .ok()
            .filter(|s| !s.is_empty())
    });
    if let Some(path) = file {
        let text = format!("redis_round_trips {}\n", crate::store::round_trips());
        let tmp = format!("{path}.tmp");
        if std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .is_err()
        {
            log::debug!("metrics: cannot write {path}");
        }
    }
}

/// Kills this process with SIGKILL when `MB_CRASH_AT` names `point`: the end-to-end tests
/// crash the bot between storing a change and sending its effects, as a power cut would.
pub fn crash_point(point: &str) {
    static AT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let at = AT.get_or_init(|| std::env::var("MB_CRASH_AT").ok().filter(|s| !s.is_empty()));
    if at.as_deref() != Some(point) {
        return;
    }
    log::warn!("crashing at {point} (MB_CRASH_AT)");
    let pid = std::process::id().to_string();
    let _ = std::process::Command::new("kill")
        .args(["-9", &pid])
        .status();
    std::process::abort();
}

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
    langs.insert(uid, (lang, std::time::Instant::now()));
    lang
}

/// Forgets a user's language read earlier (they just chose another).
pub fn forget_lang(ctx: &Ctx, user: u64) {
    ctx.langs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .remove(&user);
}

/// The localised words for a storage failure.
pub fn store_error_key(e: &StoreError) -> &'static str {
    match e {
        StoreError::Unavailable(_) | StoreError::Server(_) => "error-unavailable",
        StoreError::Busy | StoreError::Fenced => "error-busy",
        StoreError::NotFound => "error-game-over",
        StoreError::Undecodable { .. } => "error-undecodable",
    }
}

/// Answers a button press with a short text (an alert when `alert`).
pub async fn answer(ctx: &Ctx, q: &CallbackQuery, text: String, alert: bool) -> HandlerResult {
    ctx.bot
        .answer_callback_query(q.id.clone())
        .text(text)
        .show_alert(alert)
        .await?;
    Ok(())
}

/// Answers a button press with the words for a storage failure.
pub async fn answer_store_error(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    e: &StoreError,
) -> HandlerResult {
    log::warn!("store error on a button: {e}");
    answer(ctx, q, t(lang, store_error_key(e)), true).await
}

/// The game a button belongs to, if it is still going; otherwise the tap is answered (the
/// game is over, or storage failed) and `None` comes back.
pub async fn game_for_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: crate::store::GameId,
) -> Result<Option<crate::game::record::GameRecord>, BotError> {
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => {
            answer(ctx, q, t(lang, "error-game-over"), true).await?;
            return Ok(None);
        }
        Err(e) => {
            answer_store_error(ctx, q, lang, &e).await?;
            return Ok(None);
        }
    };
    if let Some(again) = rec.answered(&q.id.0) {
        // This press's update again (after a crash): the answer it earned, not a refusal.
        answer(ctx, q, again.text.clone(), again.alert).await?;
        return Ok(None);
    }
    if rec.game.is_finished() {
        answer(ctx, q, t(lang, "error-game-over"), true).await?;
        return Ok(None);
    }
    Ok(Some(rec))
}

/// A display name: first name and last name, as Telegram shows it.
pub fn display_name(user: &User) -> String {
    match &user.last_name {
        Some(last) => format!("{} {last}", user.first_name),
        None => user.first_name.clone(),
    }
}

async fn on_callback(ctx: Ctx, q: CallbackQuery) -> HandlerResult {
    let lang = user_lang(&ctx, &q.from).await;
    let Some(button) = q.data.as_deref().and_then(Button::parse) else {
        return answer(&ctx, &q, t(lang, "error-unknown-button"), false).await;
    };
    match button {
        Button::Join(..) | Button::Start(..) | Button::Cancel(..) | Button::Rematch(..) => {
            lobby::on_button(&ctx, &q, lang, button).await
        }
        // A shot that was not taken at once ([`battle::fire_at_once`]): a salvo's cell.
        Button::Fire(..) => aim::on_pick(&ctx, &q, lang, button).await,
        Button::View(..) => battle::on_view(&ctx, &q, lang, button).await,
        Button::Target(..) => aim::on_target(&ctx, &q, lang, button).await,
        Button::Salvo(..) => aim::on_salvo(&ctx, &q, lang, button).await,
        Button::GiveUp(..) => mine::on_give_up(&ctx, &q, lang, button).await,
        Button::Cell(..) | Button::Block(..) | Button::Edit(..) => {
            placement::on_button(&ctx, &q, lang, button).await
        }
        Button::Lang(l) => commands::on_lang_button(&ctx, &q, l).await,
        Button::Alphabet(a) => commands::on_alphabet_button(&ctx, &q, lang, a).await,
        Button::AiLevel(l) => commands::on_ai_level_button(&ctx, &q, lang, l).await,
        Button::Bot(g, n) => lobby::on_seat_button(&ctx, &q, lang, g, n).await,
        Button::Set(panel, op) => settings::on_button(&ctx, &q, lang, panel, op).await,
        Button::RigaTap(..)
        | Button::RigaShuffle(..)
        | Button::RigaLock(..)
        | Button::RigaMove(..)
        | Button::RigaToggle(..) => riga::on_button(&ctx, &q, lang, button).await,
        Button::Noop => answer(&ctx, &q, String::new(), false).await,
    }
}

/// Whether an update is a press of a shot's button: its transition keeps the answer it
/// earned, so it needs no claim (see [`battle::fire_at_once`]).
fn is_shot_press(update: &Update) -> bool {
    match &update.kind {
        teloxide::types::UpdateKind::CallbackQuery(q) => matches!(
            q.data.as_deref().and_then(Button::parse),
            Some(Button::Fire(..))
        ),
        _ => false,
    }
}

/// Whether the update was claimed for this replica before it was dispatched (webhook mode
/// claims it first, to answer Telegram 503 when another replica holds it).
#[derive(Clone, Copy)]
struct Claimed(bool);

async fn not_handled_yet(ctx: Ctx, update: Update, claimed: Claimed) -> bool {
    if claimed.0 {
        return true;
    }
    if is_shot_press(&update) {
        // Claimed in `on_callback_query` only when it is not taken at once.
        return true;
    }
    // One replica handles an update: the first to claim it. A claim of this same replica
    // (before a crash) that was not finished is handled again; repeating it is safe, as
    // every change is an atomic transition that the engine refuses twice, and a press keeps
    // the answer it earned. When Redis cannot say, the update is handled.
    not_claimed_elsewhere(&ctx, &update).await
}

/// Claims the update for this replica (see [`Store::claim_update`]); `true` when Redis
/// cannot say.
async fn not_claimed_elsewhere(ctx: &Ctx, update: &Update) -> bool {
    ctx.store
        .claim_update(update.id.0, &ctx.replica, ctx.config.claim_stale)
        .await
        .map_or(true, |c| c == crate::store::Claim::Mine)
}

/// Marks an update as handled: the last step of every handler.
async fn handled(ctx: &Ctx, update: &Update, result: HandlerResult) -> HandlerResult {
    let _ = ctx.store.finish_update(update.id.0).await;
    match &result {
        Ok(()) => log::debug!("handled"),
        Err(e) => log::warn!("handled with an error: {e}"),
    }
    result
}

/// A message written as a chat (an anonymous admin, a linked channel) names nobody who could
/// own a lobby or a seat: it gets words saying so, and nothing else happens.
async fn from_a_chat(ctx: &Ctx, msg: &Message) -> Option<HandlerResult> {
    msg.sender_chat.as_ref()?;
    let lang = match ctx.store.chat_settings(msg.chat.id.0).await {
        Ok(s) => s.lang.unwrap_or_default(),
        Err(_) => Lang::default(),
    };
    Some(chat::reply(ctx, msg, t(lang, "error-anonymous")).await)
}

/// The span of one update's handling: every log line within it names the update and its chat.
fn update_span(update: &Update) -> tracing::Span {
    tracing::info_span!(
        "update",
        update_id = update.id.0,
        chat = update.chat().map_or(0, |c| c.id.0)
    )
}

async fn on_message_command(
    ctx: Ctx,
    update: Update,
    msg: Message,
    cmd: commands::Command,
) -> HandlerResult {
    let span = update_span(&update);
    async move {
        if let Some(result) = from_a_chat(&ctx, &msg).await {
            return handled(&ctx, &update, result).await;
        }
        let result = commands::on_command(ctx.clone(), msg, cmd).await;
        handled(&ctx, &update, result).await
    }
    .instrument(span)
    .await
}

async fn on_message_text(ctx: Ctx, update: Update, msg: Message) -> HandlerResult {
    let span = update_span(&update);
    async move {
        if msg.reply_to_message().is_some() {
            if let Some(result) = from_a_chat(&ctx, &msg).await {
                return handled(&ctx, &update, result).await;
            }
        }
        let result = on_reply(&ctx, &msg).await;
        handled(&ctx, &update, result).await
    }
    .instrument(span)
    .await
}

/// A reply in a group: perhaps a move typed in reply to the battle's message. The chat's game
/// is loaded once here, and its flow (the Riga game's or Sea Battle's) takes it.
async fn on_reply(ctx: &Ctx, msg: &Message) -> HandlerResult {
    let typed = msg.from.is_some() && msg.text().is_some() && msg.reply_to_message().is_some();
    if !typed || msg.chat.is_private() {
        return Ok(());
    }
    let Ok(Some(id)) = ctx.store.chat_game(msg.chat.id.0).await else {
        return Ok(());
    };
    let Ok((rec, _)) = ctx.store.load_game(id).await else {
        return Ok(());
    };
    if rec.is_riga() {
        riga::on_reply(ctx, msg, id, &rec).await
    } else {
        battle::on_text(ctx, msg, id, &rec).await
    }
}

async fn on_callback_query(ctx: Ctx, update: Update, q: CallbackQuery) -> HandlerResult {
    let span = update_span(&update);
    async move {
        if let Some(button @ Button::Fire(..)) = q.data.as_deref().and_then(Button::parse) {
            let lang = user_lang(&ctx, &q.from).await;
            if let Some(result) = battle::fire_at_once(&ctx, &q, lang, &button).await {
                return result;
            }
            // A cell of a salvo game: picked, not shot, in the ordinary way.
            if !not_claimed_elsewhere(&ctx, &update).await {
                return Ok(());
            }
        }
        let result = on_callback(ctx.clone(), q).await;
        handled(&ctx, &update, result).await
    }
    .instrument(span)
    .await
}

/// The whole handler tree.
pub fn schema() -> UpdateHandler<BotError> {
    dptree::entry()
        .filter_async(not_handled_yet)
        .branch(
            Update::filter_message()
                .branch(
                    dptree::entry()
                        .filter_command::<commands::Command>()
                        .endpoint(on_message_command),
                )
                .branch(dptree::endpoint(on_message_text)),
        )
        .branch(Update::filter_callback_query().endpoint(on_callback_query))
}

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

/// A start-up request to Telegram that failed for now: waits `pause` (ctrl-c stops the bot
/// meanwhile, exit 130), then doubles it for the next time, up to a minute.
async fn wait_to_try_again(pause: &mut Duration) {
    tokio::select! {
        () = tokio::time::sleep(*pause) => {}
        _ = tokio::signal::ctrl_c() => {
            log::info!("stopped");
            std::process::exit(130);
        }
    }
    *pause = (*pause * 2).min(Duration::from_secs(60));
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
    let ticker = tokio::spawn(play::tick_forever(ctx.clone()));
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
