//! The one dispatch: an update in, the handler of its command, button or typed move out,
//! each update handled once across replicas and restarts (claimed by update id for this
//! process, marked handled at the end; a shot press's claim rides in its transition). The handler tree is built in [`schema`].

use super::context::{store_error_key, user_lang, BotError, Ctx, HandlerResult};
use super::metered::Metered;
use super::send::{answer, reply, topic_of};
use super::{battle, commands, lobby, placement, riga, settings};
use crate::game::lang::Lang;
use crate::game::record::Play;
use crate::store::life::LIFE;
use crate::store::settings::Claim;
use crate::store::Atomic;
use crate::store::StoreError;
use crate::view::buttons::Button;
use crate::view::i18n::t;
use teloxide::dispatching::{UpdateFilterExt, UpdateHandler};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, InlineQuery, Me};
use tracing::Instrument;

async fn on_callback(ctx: Ctx, q: CallbackQuery, update_id: u32) -> HandlerResult {
    let lang = user_lang(&ctx, &q.from).await;
    let Some(button) = q.data.as_deref().and_then(Button::parse) else {
        return answer(&ctx, &q, t(lang, "error-unknown-button"), false).await;
    };
    // A press on an inline message: a card's first press opens its game; any other press
    // there is checked against the game living in that message.
    if let Some(inline) = q.inline_message_id.as_deref() {
        if let Button::Card(sender, kind) = button {
            return super::inline::on_card(&ctx, &q, lang, inline, sender, kind).await;
        }
        if let Err(key) = super::inline::fits(&ctx, inline, &button).await {
            return answer(&ctx, &q, t(lang, key), true).await;
        }
    } else if !button.of_a_grid() {
        // A grid's press is checked by its handler against the game's record (its keyboard
        // is cut out before parsing); any other by the keyboard of the message it came on.
        match kind_of_message(&q, &button) {
            Fits::Yes => {}
            Fits::NoKeyboard => return answer(&ctx, &q, t(lang, "error-out-of-date"), true).await,
            Fits::No => return answer(&ctx, &q, t(lang, "error-wrong-message"), true).await,
        }
    }
    match button {
        Button::Join(..) | Button::Start(..) | Button::Cancel(..) | Button::Rematch(..) => {
            lobby::on_button(&ctx, &q, lang, button).await
        }
        Button::Fire(..) => battle::on_cell(&ctx, &q, update_id, lang, &button).await,
        Button::View(..) => battle::on_view(&ctx, &q, lang, button).await,
        Button::Target(..) => battle::on_target(&ctx, &q, lang, button).await,
        Button::Salvo(..) => battle::on_salvo(&ctx, &q, lang, button).await,
        Button::Arm(..) => battle::on_arm(&ctx, &q, lang, button).await,
        Button::Heading(..) => battle::on_heading(&ctx, &q, lang, button).await,
        Button::GiveUp(..) => battle::on_give_up(&ctx, &q, lang, button).await,
        Button::OwnField(id) => battle::on_own_field(&ctx, &q, lang, id).await,
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
        Button::Replay(id, step) => super::replay::on_button(&ctx, &q, lang, id, step).await,
        // Only on an inline message (above): elsewhere its message does not fit it.
        Button::Card(..) => answer(&ctx, &q, t(lang, "error-wrong-message"), true).await,
        Button::Tour(id, op) => super::tournament::on_button(&ctx, &q, lang, id, op).await,
        Button::Find(false) => super::quick::on_cancel(&ctx, &q, lang).await,
        Button::Find(true) => super::quick::on_find_button(&ctx, &q, lang).await,
        Button::React(id, i) => super::quick::on_reaction(&ctx, &q, lang, id, i).await,
        Button::BlockPlayer(id) => super::quick::on_block(&ctx, &q, lang, id).await,
        Button::Noop => answer(&ctx, &q, String::new(), false).await,
    }
}

/// Whether a press fits the message it came on.
enum Fits {
    Yes,
    /// The message has no buttons (any more): the press is out of date.
    NoKeyboard,
    /// The message is of another kind than the button was made for: forged callback data.
    No,
}

/// Whether a press came on the kind of message its button was made for, by the buttons the
/// message carries ([`Button::fits`]): a settings panel's button on the battle message, a
/// lobby's on another game's, is refused before its handler could draw on the message. A
/// message too old for Telegram to show is left to the handler; a press without a message
/// (an inline message's, checked apart) is refused.
fn kind_of_message(q: &CallbackQuery, button: &Button) -> Fits {
    use teloxide::types::{InlineKeyboardButtonKind, MaybeInaccessibleMessage};
    let msg = match &q.message {
        None => return Fits::No,
        Some(MaybeInaccessibleMessage::Inaccessible(_)) => return Fits::Yes,
        Some(MaybeInaccessibleMessage::Regular(m)) => m,
    };
    let Some(kb) = msg.reply_markup() else {
        return Fits::NoKeyboard;
    };
    let data = kb
        .inline_keyboard
        .iter()
        .flatten()
        .filter_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => Some(d.as_str()),
            _ => None,
        });
    if button.fits(data) {
        Fits::Yes
    } else {
        Fits::No
    }
}

/// Whether an update is a press of a cell's button of the battle: its transition keeps the
/// answer it earned, so it needs no claim (see [`battle::on_cell`]).
pub fn is_shot_press(update: &Update) -> bool {
    match &update.kind {
        teloxide::types::UpdateKind::CallbackQuery(q) => matches!(
            q.data.as_deref().and_then(Button::parse),
            Some(Button::Fire(..))
        ),
        _ => false,
    }
}

/// Whether the update was claimed for this process before it was dispatched (webhook mode
/// claims it first, to answer Telegram 503 when another process holds it).
#[derive(Clone, Copy)]
pub struct Claimed(pub bool);

async fn not_handled_yet(ctx: Ctx, me: Me, update: Update, claimed: Claimed) -> bool {
    if claimed.0 || is_shot_press(&update) {
        return true;
    }
    // One process handles an update: the first to claim it, or one that takes over the
    // claim of a process that died before it finished.
    // Long polling: an update another live process holds (it came to both, or to this one
    // again after a crash while the dead process's key still lives) is waited for, as it
    // is confirmed to Telegram once this returns.
    let deadline = tokio::time::Instant::now() + ctx.config.claim_stale + LIFE * 2;
    let mut got = ctx.claim(update.id.0).await;
    while matches!(got, Ok(Claim::Elsewhere)) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(LIFE / 8).await;
        got = ctx.claim(update.id.0).await;
    }
    match got {
        Ok(Claim::Mine) => true,
        Ok(Claim::Handled | Claim::Elsewhere | Claim::Again) => {
            crate::metrics::mark(crate::metrics::Outcome::Duplicate);
            false
        }
        Err(e) => {
            // Long polling: the update is answered from itself, or "try again", and so taken
            // (webhook mode claims before the dispatch).
            not_now(&ctx, &me, &update, &e, true).await;
            false
        }
    }
}

/// What an update that cannot be handled now (Redis is away) gets, from the update alone, sent
/// at once (outside the group's budget, which lives in Redis): a press, the polite "try again"
/// (Telegram takes a press's answer only within about 15 s of it, and its player presses
/// again); a command that needs no stored state, its answer
/// ([`commands::answer_without_store`]). `true` when the update is answered so: it is
/// handled. Anything else waits for Redis (`false`): in webhook mode its post is answered 503
/// and Telegram posts it again; in long polling (`polling`), where it is taken either way, a
/// command or a move typed in reply gets the "try again" words.
pub async fn not_now(ctx: &Ctx, me: &Me, update: &Update, e: &StoreError, polling: bool) -> bool {
    let words = |lang| t(lang, store_error_key(e));
    match &update.kind {
        teloxide::types::UpdateKind::CallbackQuery(q) => {
            let lang = user_lang(ctx, &q.from).await;
            match answer(ctx, q, words(lang), true).await {
                Err(BotError::Telegram(teloxide::RequestError::Network(e))) => {
                    log::warn!("\"try again\" to update {}: {e}", update.id.0);
                    false
                }
                // Telegram refused it (too late): posting it again would not help.
                _ => true,
            }
        }
        teloxide::types::UpdateKind::Message(msg) => {
            let lang = match &msg.from {
                Some(user) => user_lang(ctx, user).await,
                None => Lang::default(),
            };
            let text = match commands::answer_without_store(msg, me, lang) {
                Some(text) => text,
                None if !polling => return false,
                None => {
                    let Some(text) = msg.text() else { return true };
                    if !text.starts_with('/') && !may_be_typed_move(msg) {
                        return true;
                    }
                    words(lang)
                }
            };
            let mut req = ctx
                .bot
                .send_message(msg.chat.id, text)
                .parse_mode(teloxide::types::ParseMode::Html)
                .reply_parameters(teloxide::types::ReplyParameters::new(msg.id));
            req = super::send::in_topic(req, topic_of(msg));
            match req.metered().await {
                Ok(_) => true,
                Err(e) => {
                    log::warn!("the answer to update {} without Redis: {e}", update.id.0);
                    // Only a network failure may go better when posted again.
                    !matches!(e, teloxide::RequestError::Network(_))
                }
            }
        }
        _ => polling,
    }
}

/// Marks an update as handled: the last step of every handler.
async fn handled(ctx: &Ctx, update: &Update, result: HandlerResult) -> HandlerResult {
    let _ = ctx.store.finish_update(update.id.0).await;
    ctx.hold_update(update.id.0, false);
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
    Some(reply(ctx, msg, t(lang, "error-anonymous")).await)
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
        if msg.forum_topic_closed().is_some() {
            let result = on_topic_closed(&ctx, &msg).await;
            return handled(&ctx, &update, result).await;
        }
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

/// A forum topic was closed (Telegram tells the group so, in the topic): the topic's game
/// ends, called off, and its players are told in their private chats. The topic takes new
/// games once reopened.
async fn on_topic_closed(ctx: &Ctx, msg: &Message) -> HandlerResult {
    let Some(topic) = topic_of(msg) else {
        return Ok(());
    };
    let Some(id) = ctx.store.chat_game(msg.chat.id.0, Some(topic)).await? else {
        return Ok(());
    };
    let due = battle::due(ctx);
    match ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            if r.is_finished() {
                return Err(());
            }
            crate::game::sent::topic_gone(r);
            Ok(())
        })
        .await
    {
        Ok(Ok(done)) => {
            log::info!("game {id}: its topic was closed: called off");
            battle::follow_up(ctx, id, &done.record);
        }
        Ok(Err(())) | Err(StoreError::NotFound) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(())
}

/// Whether a message may be a move typed in reply to a battle message: text from a person,
/// in reply to a message. In a group, any reply (with privacy mode on, the bot sees only the
/// replies to its own messages); in a private chat, where every message reaches the bot, only
/// a reply to one of the bot's messages: the player's notes to themselves stay theirs.
fn may_be_typed_move(msg: &Message) -> bool {
    let Some(replied) = msg.reply_to_message() else {
        return false;
    };
    let to_the_bot = replied.from.as_ref().is_some_and(|u| u.is_bot);
    msg.from.is_some() && msg.text().is_some() && (!msg.chat.is_private() || to_the_bot)
}

/// A reply, in a group or in a private chat: perhaps a move typed in reply to the battle's
/// message of the chat's game (a private chat's game is a game against the bot). The chat's
/// game is loaded once here, and its flow (the Riga game's or Sea Battle's) takes it, with
/// the same checks, answers and refusals in both kinds of chat: a reply to any other
/// message is let be, in silence.
async fn on_reply(ctx: &Ctx, msg: &Message) -> HandlerResult {
    if !may_be_typed_move(msg) {
        return Ok(());
    }
    let Ok(Some(id)) = ctx.store.chat_game(msg.chat.id.0, topic_of(msg)).await else {
        return Ok(());
    };
    let Ok((rec, _)) = ctx.store.load_game(id).await else {
        return Ok(());
    };
    match rec.play {
        Play::Riga(_) => riga::on_reply(ctx, msg, id, &rec).await,
        Play::SeaBattle(_) => battle::on_text(ctx, msg, id, &rec).await,
    }
}

async fn on_inline_query(ctx: Ctx, update: Update, q: InlineQuery) -> HandlerResult {
    let span = update_span(&update);
    async move {
        let result = super::inline::on_query(&ctx, &q).await;
        handled(&ctx, &update, result).await
    }
    .instrument(span)
    .await
}

async fn on_callback_query(ctx: Ctx, update: Update, q: CallbackQuery) -> HandlerResult {
    let span = update_span(&update);
    async move {
        if let Some(button @ Button::Fire(..)) = q.data.as_deref().and_then(Button::parse) {
            // No claim, and nothing to mark handled: the transition keeps its answer.
            let lang = user_lang(&ctx, &q.from).await;
            return battle::on_cell(&ctx, &q, update.id.0, lang, &button).await;
        }
        let result = on_callback(ctx.clone(), q, update.id.0).await;
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
        .branch(Update::filter_inline_query().endpoint(on_inline_query))
}
