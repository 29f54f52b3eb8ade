//! One function per kind of effect (`game/delivery.rs`): each sends or edits what its effect
//! says and tells what it left ([`Sent`]); [`deliver`] picks the one and decides what a
//! refusal means (wait and try again, the place gone, or given up).

use super::dm::dm;
use super::lease::{drawing_hash, Marker};
use super::live::send_live;
use super::pace::{place_gone, retry_after};
use crate::game::delivery::{variant_of, EditOf, Effect, Outgoing};
use crate::game::record::GameRecord;
use crate::game::sent::Sent;
use crate::store::GameId;
use crate::telegram::context::Ctx;
use crate::telegram::metered::Metered;
use crate::telegram::send::{in_topic, user_lang_by_id};
use crate::telegram::token;
use crate::view::group::end_texts;
use crate::view::i18n::t;
use crate::view::live::{live_drawing, with_board_link};
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{ChatId, MessageId, ParseMode, ThreadId};
use teloxide::{ApiError, RequestError};

/// Sends one effect. `Err` with a wait when Telegram asks to wait (the effect stays);
/// an effect Telegram refuses for good is given up (logged) and acknowledged.
pub(super) async fn deliver(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    o: &Outgoing,
    token: &str,
) -> Result<Sent, Duration> {
    let to_group = o.effect.in_chat(rec.chat);
    let given_up = |e: RequestError| -> Result<Sent, Duration> {
        if token::is_not_now(&e) {
            // Not made (the token was not free in time): it goes on the next step.
            return Err(Duration::ZERO);
        }
        if let Some(gone) = place_gone(rec, &e).filter(|_| to_group) {
            // Nothing more goes there, and the game is called off.
            log::warn!("effect {} of {id}: {e}; its place is gone: called off", o.n);
            return Ok(gone);
        }
        match retry_after(&e) {
            Some(w) => {
                log::warn!("effect {} of {id}: {e}", o.n);
                Err(w)
            }
            None => {
                log::warn!("effect {} of {id}: {e}; given up", o.n);
                Ok(Sent::Done)
            }
        }
    };
    if rec.inline.is_some() || rec.quick {
        match &o.effect {
            // An inline message is only edited (the live message is drawn on it), and the
            // bot cannot write to the chat it is in; a quick match has no shared chat.
            Effect::LiveMessage | Effect::Retire { .. } => return Ok(Sent::Done),
            Effect::Notice { chat: c, .. } if *c == rec.chat && !rec.quick => {
                return Ok(Sent::Done)
            }
            Effect::Announce => return log_to_players(ctx, id, rec).await,
            _ => {}
        }
    }
    match &o.effect {
        Effect::LiveMessage => live_message(ctx, id, rec).await.or_else(given_up),
        Effect::Retire { message, key } => {
            let edit = Marker { ctx, id, token };
            retire(&edit, rec, o.n, *message, key)
                .await
                .or_else(given_up)
        }
        Effect::Notice { chat, text } => notice(ctx, rec, *chat, text).await.or_else(given_up),
        Effect::Dm { seat } => dm(ctx, id, rec, *seat, token).await.or_else(given_up),
        Effect::NameTopic | Effect::CloseTopic => {
            topic(ctx, rec, &o.effect).await.or_else(given_up)
        }
        Effect::Tell { seat, key } => tell(ctx, rec, *seat, key).await.or_else(given_up),
        Effect::Mine { events } => {
            crate::telegram::mine_dm::follow(ctx, id, rec, events).await;
            Ok(Sent::Done)
        }
        Effect::Settle => super::ending::settle_effect(ctx, id, rec).await,
        Effect::Announce => {
            let (last, sent) = announce(ctx, id, rec).await;
            sent.or_else(|e| {
                given_up(e).map(|s| match s {
                    Sent::ChatGone | Sent::TopicGone => s,
                    _ => Sent::Part(last),
                })
            })
        }
    }
}

/// The live message sent (a lobby's, or the battle's once it begins): its id and drawing.
async fn live_message(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Result<Sent, RequestError> {
    let drawing = with_board_link(
        live_drawing(rec, id, &ctx.username),
        rec,
        ctx.webapp_link(id).as_deref(),
    );
    let hash = drawing.hash();
    let shown = drawing.shown;
    let m = send_live(ctx, ChatId(rec.chat), rec.topic, drawing).await?;
    // The battle's message (a lobby's comes before the battle begun).
    if rec.delivery.begun {
        crate::metrics::game_started();
    }
    Ok(Sent::Live(m, hash, shown))
}

/// An old message (the lobby's, a battle's before a rematch) retired to words of `key`; the
/// edit is marked on its way (effect `n`).
async fn retire(
    edit: &Marker<'_>,
    rec: &GameRecord,
    n: u64,
    message: i32,
    key: &str,
) -> Result<Sent, RequestError> {
    let words = t(rec.lang, key);
    let variant = edit
        .mark(EditOf::Effect { n }, drawing_hash(&words, &None))
        .await?;
    let req = edit.ctx.bot.edit_message_text(
        ChatId(rec.chat),
        MessageId(message),
        variant_of(&words, variant),
    );
    match req.metered().await {
        Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(Sent::Done),
        Err(e) => Err(e),
    }
}

/// Words to a chat (the game's, in its topic, or another).
async fn notice(ctx: &Ctx, rec: &GameRecord, chat: i64, text: &str) -> Result<Sent, RequestError> {
    let mut req = ctx
        .bot
        .send_message(ChatId(chat), text.to_owned())
        .parse_mode(ParseMode::Html);
    req = in_topic(req, rec.topic.filter(|_| chat == rec.chat));
    req.metered().await.map(|_| Sent::Done)
}

/// The game's own forum topic named after its players, or closed at the end.
async fn topic(ctx: &Ctx, rec: &GameRecord, effect: &Effect) -> Result<Sent, RequestError> {
    let Some(thread) = rec.topic else {
        return Ok(Sent::Done);
    };
    let (chat, thread) = (ChatId(rec.chat), ThreadId(MessageId(thread)));
    let done = if *effect == Effect::NameTopic {
        ctx.bot
            .edit_forum_topic(chat, thread)
            .name(topic_name(&rec.names))
            .metered()
            .await
    } else {
        ctx.bot.close_forum_topic(chat, thread).metered().await
    };
    match done {
        Ok(_) => Ok(Sent::Done),
        // Closed already (by an admin, or by this very effect before a crash).
        Err(RequestError::Api(ApiError::Unknown(d))) if d.contains("TOPIC_NOT_MODIFIED") => {
            Ok(Sent::Done)
        }
        Err(e) => Err(e),
    }
}

/// Words of `key` to a seat's player, in their private chat and language.
async fn tell(ctx: &Ctx, rec: &GameRecord, seat: u8, key: &str) -> Result<Sent, RequestError> {
    let Some(player) = rec.game.seats().get(usize::from(seat)) else {
        return Ok(Sent::Done);
    };
    let user = player.player.0;
    let lang = user_lang_by_id(ctx, user).await;
    ctx.bot
        .send_message(ChatId(user as i64), t(lang, key))
        .parse_mode(ParseMode::Html)
        .metered()
        .await
        .map(|_| Sent::Done)
}

/// The next part of the end's announcement in the group (the last with the rematch and the
/// replay): whether it is the last, and how its send went.
async fn announce(ctx: &Ctx, id: GameId, rec: &GameRecord) -> (bool, Result<Sent, RequestError>) {
    let texts = end_texts(rec);
    let part = usize::from(rec.delivery.announced_parts);
    let Some(text) = texts.get(part) else {
        return (true, Ok(Sent::Part(true)));
    };
    let last = part + 1 == texts.len();
    let mut req = ctx
        .bot
        .send_message(ChatId(rec.chat), text.clone())
        .parse_mode(ParseMode::Html);
    req = in_topic(req, rec.topic);
    if last {
        // Rematch, and the game's replay by a link anyone in the group may open.
        let kb = crate::view::group::end_keyboard(rec, id, &ctx.username);
        req = req.reply_markup(crate::telegram::send::markup(kb));
    }
    (last, req.metered().await.map(|_| Sent::Part(last)))
}

/// The end's announcement of a game in an inline message (which shows the winner and the
/// reveal itself): the whole log, in each player's private chat, a part at a time (the
/// parts of every player, in turn, counted by the record's `announced_parts`).
pub(super) async fn log_to_players(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
) -> Result<Sent, Duration> {
    let texts = end_texts(rec);
    let seats = rec.human_seats();
    let total = texts.len() * seats.len();
    let part = usize::from(rec.delivery.announced_parts);
    if part >= total {
        return Ok(Sent::Part(true));
    }
    let last = part + 1 == total;
    let seat = seats[part / texts.len()];
    let user = rec.game.seats()[seat.index()].player.0;
    let req = ctx
        .bot
        .send_message(ChatId(user as i64), texts[part % texts.len()].clone())
        .parse_mode(ParseMode::Html);
    match req.metered().await {
        Ok(_) => Ok(Sent::Part(last)),
        Err(e) => match retry_after(&e) {
            Some(w) => {
                log::warn!("the log of {id} for {user}: {e}");
                Err(w)
            }
            None => {
                log::warn!("the log of {id} for {user}: {e}; given up");
                Ok(Sent::Part(last))
            }
        },
    }
}

/// A game's own topic's name: its players, within Telegram's 128 characters.
pub fn topic_name(names: &[String]) -> String {
    let name = format!("⚓ {}", names.join(" — "));
    name.chars().take(128).collect()
}

/// The chat an effect sends to or edits in (its budget), or none.
pub(super) fn target_chat(rec: &GameRecord, effect: &Effect) -> Option<i64> {
    match effect {
        // A game in an inline message announces its end in the players' private chats.
        Effect::Announce if rec.inline.is_some() => None,
        Effect::LiveMessage
        | Effect::Retire { .. }
        | Effect::Announce
        | Effect::NameTopic
        | Effect::CloseTopic => Some(rec.chat),
        Effect::Notice { chat, .. } => Some(*chat),
        Effect::Dm { seat } | Effect::Tell { seat, .. } => rec
            .game
            .seats()
            .get(usize::from(*seat))
            .map(|s| s.player.0 as i64),
        Effect::Mine { .. } | Effect::Settle => None,
    }
}
