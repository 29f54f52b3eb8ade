//! Sending helpers every handler uses: replies to commands, private messages, edits of a
//! live message, answers to presses (a refusal's words included), keyboards in Telegram's
//! form, a user's language, a chat's game.

use super::context::{store_error_key, BotError, Ctx, HandlerResult};
use super::metered::refusal;
use super::metered::Metered;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::Refused;
use crate::store::{Committed, GameId, StoreError};
use crate::view::i18n::t;
use crate::view::keyboard::Keyboard;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChatId, InlineKeyboardMarkup, InputFile, MessageId, ParseMode,
};
use teloxide::{ApiError, RequestError};

/// Replies in the chat of `msg` with HTML text. In a group the reply never waits: the same
/// words go to the same person at most once a minute, and only when the group's budget has
/// a send free now; otherwise they go to the person's private chat (if they started the
/// bot), so a flood of commands never holds up the players' game.
pub async fn reply(ctx: &Ctx, msg: &Message, text: String) -> HandlerResult {
    respond(ctx, msg, text, None).await
}

/// A picture drawn for a reply: its file name, and what renders the PNG.
pub type Drawn = (&'static str, Box<dyn FnOnce() -> Vec<u8> + Send>);

/// [`reply`] with a photo: `render`'s PNG (named `file_name`) with `caption` (HTML, within
/// Telegram's 1024 characters) under it, by the same rules (the caption counts as the
/// words). The PNG is rendered on the blocking pool, and only once the reply is to be sent;
/// should rendering fail, the caption goes as text.
pub async fn reply_photo(
    ctx: &Ctx,
    msg: &Message,
    caption: String,
    file_name: &'static str,
    render: impl FnOnce() -> Vec<u8> + Send + 'static,
) -> HandlerResult {
    respond(ctx, msg, caption, Some((file_name, Box::new(render)))).await
}

async fn respond(ctx: &Ctx, msg: &Message, text: String, picture: Option<Drawn>) -> HandlerResult {
    let chat = msg.chat.id;
    if chat.0 < 0 {
        let user = msg.from.as_ref().map_or(0, |u| u.id.0);
        let what = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            format!("{:x}", h.finish())
        };
        // Redis away: not handled (an answer dropped silently would be an update lost).
        if !ctx.store.may_answer(chat.0, user, &what).await? {
            log::debug!("{user} in {chat}: answered lately");
            return Ok(());
        }
        if !super::context::try_pace(ctx, chat).await? {
            let private = ChatId(user as i64);
            if user != 0
                && super::context::try_pace(ctx, private)
                    .await
                    .unwrap_or(false)
            {
                if let Err(e) = send_reply(ctx, private, None, text, picture).await {
                    log::debug!("a reply to {user} in private: {e}");
                }
            }
            return Ok(());
        }
    } else {
        super::context::pace(ctx, chat).await?;
    }
    send_reply(ctx, chat, topic_of(msg), text, picture).await?;
    Ok(())
}

/// Sends a reply's text, or its picture with the text as the caption (in forum topic
/// `topic`, if any).
pub async fn send_reply(
    ctx: &Ctx,
    chat: ChatId,
    topic: Option<i32>,
    text: String,
    picture: Option<Drawn>,
) -> Result<(), RequestError> {
    let png = match picture {
        Some((name, render)) => match tokio::task::spawn_blocking(render).await {
            Ok(png) => Some((name, png)),
            Err(e) => {
                log::warn!("a picture for {chat}: {e}");
                None
            }
        },
        None => None,
    };
    match png {
        Some((name, png)) => {
            let mut req = ctx
                .bot
                .send_photo(chat, InputFile::memory(png).file_name(name))
                .caption(text)
                .parse_mode(ParseMode::Html);
            req = in_topic(req, topic);
            req.metered().await.map(|_| ())
        }
        None => {
            let mut req = ctx.bot.send_message(chat, text).parse_mode(ParseMode::Html);
            req = in_topic(req, topic);
            req.metered().await.map(|_| ())
        }
    }
}

/// Sends `user` a private message of game `id` with a keyboard: its id, or `None` when
/// Telegram refused it (logged as "`{what} {id} for {user}: {error}`").
pub async fn send_dm(
    ctx: &Ctx,
    id: GameId,
    user: u64,
    text: String,
    kb: Keyboard,
    what: &str,
) -> Option<i32> {
    let sent = ctx
        .bot
        .send_message(ChatId(user as i64), text)
        .parse_mode(ParseMode::Html)
        .reply_markup(markup(kb))
        .metered()
        .await;
    match sent {
        Ok(m) => Some(m.id.0),
        Err(e) => {
            log::warn!("{what} {id} for {user}: {e}");
            None
        }
    }
}

/// A user's language by id (their settings, else English).
pub async fn user_lang_by_id(ctx: &Ctx, user: u64) -> Lang {
    ctx.store
        .user_settings(user)
        .await
        .ok()
        .and_then(|s| s.lang.or(s.detected))
        .unwrap_or_default()
}

/// The redraws of private messages asked here: the latest of each message by number, and
/// each message's turn (its redraws go one at a time, in order).
#[derive(Default)]
struct DmEdits {
    asked: u64,
    latest: HashMap<(i64, i32), (u64, Turn)>,
}

/// A private message's turn: its redraws hold it one at a time.
type Turn = Arc<tokio::sync::Mutex<()>>;

impl DmEdits {
    /// A redraw of `key` asked: its number, the latest of the message now, and the message's
    /// turn.
    fn ask(&mut self, key: (i64, i32)) -> (u64, Turn) {
        self.asked += 1;
        let n = self.asked;
        let turn = self
            .latest
            .get(&key)
            .map_or_else(Turn::default, |(_, turn)| Arc::clone(turn));
        self.latest.insert(key, (n, Arc::clone(&turn)));
        (n, turn)
    }
}

static DM_EDITS: std::sync::Mutex<Option<DmEdits>> = std::sync::Mutex::new(None);

fn dm_edits<T>(f: impl FnOnce(&mut DmEdits) -> T) -> T {
    let mut edits = DM_EDITS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    f(edits.get_or_insert_with(DmEdits::default))
}

/// Edits a private message (an editor, a question), in the background: the handler that asks
/// goes on at once, so the next press in the chat is answered without waiting for this one's
/// edit. Each edit takes a call from the chat's budget first (Telegram takes about one message
/// a second in a private chat; the sender's effects take from the same); the redraws of one
/// message go one at a time, in order, and one that waits gives way to a later one of the
/// same message (which shows the newer state): an editor tapped fast is redrawn at the chat's
/// pace with its latest state, never refused 429. "Not modified" is fine.
pub fn edit_dm(ctx: &Ctx, user: u64, message: i32, text: String, kb: Option<Keyboard>) {
    let chat = user as i64;
    let key = (chat, message);
    let (n, turn) = dm_edits(|e| e.ask(key));
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let latest = || dm_edits(|e| e.latest.get(&key).is_some_and(|l| l.0 == n));
        let _turn = turn.lock().await;
        if !latest() {
            return;
        }
        // The edit takes the chat's slot itself, right before it goes (`.metered()`); here
        // it waits until one is free, and gives way to a later redraw meanwhile.
        for _ in 0..20 {
            match super::context::chat_slot(&ctx, chat).await {
                Ok(0) => break,
                Ok(wait) => {
                    tokio::time::sleep(Duration::from_millis(wait.min(10_000))).await;
                    if !latest() {
                        return;
                    }
                }
                // Redis away: the edit goes unpaced rather than not at all.
                Err(e) => {
                    log::warn!("budget of {chat}: {e}");
                    break;
                }
            }
        }
        let mut req = ctx
            .bot
            .edit_message_text(ChatId(chat), MessageId(message), text)
            .parse_mode(ParseMode::Html);
        if let Some(kb) = kb {
            req = req.reply_markup(markup(kb));
        }
        match req.metered().await {
            Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {}
            Err(e) => log::warn!("private edit for {user}: {e}"),
        }
        // The last of its message: its turn is forgotten (a later one starts a new one).
        dm_edits(|e| {
            if e.latest.get(&key).is_some_and(|l| l.0 == n) {
                e.latest.remove(&key);
            }
        });
    });
}

/// A send that can go to a forum topic (a text or a photo).
pub trait Threaded {
    /// Sends it to `topic`'s thread.
    fn set_topic(&mut self, topic: i32);
}

impl Threaded for teloxide::payloads::SendMessage {
    fn set_topic(&mut self, topic: i32) {
        self.message_thread_id = Some(teloxide::types::ThreadId(MessageId(topic)));
    }
}

impl Threaded for teloxide::payloads::SendPhoto {
    fn set_topic(&mut self, topic: i32) {
        self.message_thread_id = Some(teloxide::types::ThreadId(MessageId(topic)));
    }
}

/// `req` sent to forum topic `topic`; with none, to the chat (a forum's General).
pub fn in_topic<R>(mut req: R, topic: Option<i32>) -> R
where
    R: teloxide::requests::HasPayload,
    R::Payload: Threaded,
{
    if let Some(topic) = topic {
        req.payload_mut().set_topic(topic);
    }
    req
}

/// The forum topic a message was written in: its thread counts only when Telegram marks it
/// a topic's message (a reply in General carries a thread id too); `None` in General and
/// outside forums.
pub fn topic_of(msg: &Message) -> Option<i32> {
    if msg.is_topic_message {
        msg.thread_id.map(|t| t.0 .0)
    } else {
        None
    }
}

/// The game of a chat (or of its forum topic) if it is still going.
pub async fn active_game(
    ctx: &Ctx,
    chat: i64,
    topic: Option<i32>,
) -> Result<Option<(GameId, GameRecord)>, StoreError> {
    let Some(id) = ctx.store.chat_game(chat, topic).await? else {
        return Ok(None);
    };
    match ctx.store.load_game(id).await {
        Ok((rec, _)) if !rec.game.is_finished() => Ok(Some((id, rec))),
        Ok(_) | Err(StoreError::NotFound) | Err(StoreError::Undecodable { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Sends or edits with Telegram's limits in mind: a 429 is waited out (up to five times),
/// and "message is not modified" counts as done.
pub async fn edit_live(
    ctx: &Ctx,
    chat: ChatId,
    message: MessageId,
    text: String,
    kb: Option<Keyboard>,
) -> HandlerResult {
    for _ in 0..5 {
        // The chat's budget never runs over: without a slot, nothing is edited.
        super::context::pace(ctx, chat).await?;
        let mut req = ctx
            .bot
            .edit_message_text(chat, message, text.clone())
            .parse_mode(ParseMode::Html);
        if let Some(kb) = kb.clone() {
            req = req.reply_markup(markup(kb));
        }
        match req.metered().await {
            Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => return Ok(()),
            Err(RequestError::RetryAfter(secs)) => tokio::time::sleep(secs.duration()).await,
            Err(e) => return Err(e.into()),
        }
    }
    Err(RequestError::RetryAfter(teloxide::types::Seconds::from_seconds(1)).into())
}

/// Whether Telegram refuses a request because the bot can no more write in a group: it was
/// removed (kicked, or it is no member any more), or the group is gone. (A private chat's
/// 403, a user who blocked the bot or never started it, is another matter.)
pub fn group_gone(e: &RequestError) -> bool {
    let RequestError::Api(e) = e else {
        return false;
    };
    match e {
        ApiError::BotKicked
        | ApiError::BotKickedFromSupergroup
        | ApiError::BotKickedFromChannel
        | ApiError::ChatNotFound
        | ApiError::GroupDeactivated => true,
        ApiError::Unknown(d) => [
            "Forbidden: bot was kicked from",
            "Forbidden: bot is not a member of",
            "Forbidden: the group chat was deleted",
        ]
        .iter()
        .any(|p| d.starts_with(p)),
        _ => false,
    }
}

/// Whether Telegram refuses a request because the forum topic it goes to is closed or
/// deleted.
pub fn topic_gone(e: &RequestError) -> bool {
    match e {
        RequestError::Api(ApiError::Unknown(d)) => [
            "Bad Request: TOPIC_CLOSED",
            "Bad Request: TOPIC_DELETED",
            "Bad Request: message thread not found",
        ]
        .iter()
        .any(|p| d.starts_with(p)),
        _ => false,
    }
}

/// A view's keyboard as the Bot API's inline keyboard.
pub fn markup(kb: Keyboard) -> InlineKeyboardMarkup {
    use crate::view::keyboard::KeyKind;
    use teloxide::types::InlineKeyboardButton;
    InlineKeyboardMarkup::new(kb.inline_keyboard.into_iter().map(|row| {
        row.into_iter().filter_map(|k| match k.kind {
            KeyKind::Callback(data) => Some(InlineKeyboardButton::callback(k.text, data)),
            KeyKind::Url(url) => match url.parse() {
                Ok(url) => Some(InlineKeyboardButton::url(k.text, url)),
                Err(e) => {
                    log::warn!("a button's link {url}: {e}");
                    None
                }
            },
            KeyKind::WebApp(url) => match url.parse() {
                Ok(url) => Some(InlineKeyboardButton::web_app(
                    k.text,
                    teloxide::types::WebAppInfo { url },
                )),
                Err(e) => {
                    log::warn!("a Mini App's address {url}: {e}");
                    None
                }
            },
        })
    }))
}

/// The message a press came on, for [`crate::game::came_on`]: a chat's message, or an
/// inline message.
pub fn pressed_on(q: &CallbackQuery) -> Option<crate::game::On> {
    if let Some(m) = &q.message {
        return Some(crate::game::On::Message {
            chat: m.chat().id.0,
            message: m.id().0,
        });
    }
    q.inline_message_id.clone().map(crate::game::On::Inline)
}

/// Answers a button press with a short text (an alert when `alert`), once: a press whose
/// answer was sent before (by a process that died before it let the update go, whose update
/// this one took over) is not answered again, as Telegram refuses that. Noted before the
/// answer goes, so a process killed between the two leaves the press unanswered rather than
/// answered twice; answered anyway while Redis cannot say (the polite "try again").
pub async fn answer(ctx: &Ctx, q: &CallbackQuery, text: String, alert: bool) -> HandlerResult {
    match ctx.store.first_answer(&q.id.0).await {
        Ok(true) => {}
        Ok(false) => {
            log::info!("press {} was answered before; not again", q.id.0);
            return Ok(());
        }
        Err(e) => log::debug!("press {}: whether it was answered: {e}", q.id.0),
    }
    answer_once(ctx, q, text, alert).await
}

/// [`answer`] for a press whose answering was noted otherwise (a shot press's, in its
/// game's hash of presses: see `battle::on_cell`).
pub async fn answer_once(ctx: &Ctx, q: &CallbackQuery, text: String, alert: bool) -> HandlerResult {
    let sent = ctx
        .bot
        .answer_callback_query(q.id.clone())
        .text(text.clone())
        .show_alert(alert)
        .metered()
        .await;
    if let Err(e) = &sent {
        log::warn!(
            "the answer {text:?} to press {} ({:?}) failed: {e}",
            q.id.0,
            q.data
        );
    }
    sent?;
    // The tests' crash point between a press's answer and its update let go.
    super::context::crash_point(ctx, "answered");
    Ok(())
}

/// Answers a press of someone who never opened the private chat with a link that opens it
/// (`/start <payload>` there): `false` when the link does not parse, so the caller answers
/// in words instead.
pub async fn answer_with_start_link(
    ctx: &Ctx,
    q: &CallbackQuery,
    payload: &str,
) -> Result<bool, BotError> {
    let url = format!("https://t.me/{}?start={payload}", ctx.username);
    let Ok(url) = url.parse() else {
        return Ok(false);
    };
    ctx.bot
        .answer_callback_query(q.id.clone())
        .url(url)
        .metered()
        .await?;
    Ok(true)
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

/// Answers a press that was refused: the answer it earned before when it came again, else
/// the refusal's words as an alert.
pub async fn answer_refusal(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    r: &Refused,
) -> HandlerResult {
    match r {
        Refused::Again(a) => {
            crate::metrics::mark(crate::metrics::Outcome::Duplicate);
            answer(ctx, q, a.text.clone(), a.alert).await
        }
        r => answer(ctx, q, refusal::words(lang, r), true).await,
    }
}

/// The change a press made, or `None` when it was refused or storage failed: then the
/// press is answered so.
pub async fn pressed<T>(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    done: Result<Result<Committed<T>, Refused>, StoreError>,
) -> Result<Option<Committed<T>>, BotError> {
    match done {
        Ok(Ok(c)) => Ok(Some(c)),
        Ok(Err(r)) => answer_refusal(ctx, q, lang, &r).await.map(|()| None),
        Err(StoreError::NotFound) => answer(ctx, q, t(lang, "error-game-over"), true)
            .await
            .map(|()| None),
        Err(e) => answer_store_error(ctx, q, lang, &e).await.map(|()| None),
    }
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
    if let Some(again) = rec.delivery.answered(&q.id.0) {
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

/// The editor's keyboard as sent: with a button under it that opens the Mini App on this
/// very editor, when one is set (`MB_WEBAPP_URL`) and the keyboard has room.
pub fn editor_markup(
    ctx: &Ctx,
    rec: &GameRecord,
    id: GameId,
    lang: Lang,
    ed: &crate::game::record::Editor,
) -> Keyboard {
    let mut kb = crate::view::editor::editor_keyboard(rec, id, lang, ed);
    let buttons: usize = kb.inline_keyboard.iter().map(Vec::len).sum();
    if let (Some(url), true) = (
        ctx.webapp_url(id),
        buttons < crate::view::keyboard::MAX_BUTTONS,
    ) {
        kb.inline_keyboard
            .push(vec![crate::view::keyboard::Key::web_app(
                t(lang, "webapp-open-editor"),
                url,
            )]);
    }
    kb
}
