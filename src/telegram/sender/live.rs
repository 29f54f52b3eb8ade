//! The live board: the group's battle message (or a lobby, or an inline message), drawn from
//! the latest record, redrawn when what it would show changed, at the gap and within the
//! group's budget.

use super::lease::{mark_editing, Lease};
use super::pace::{board_priority, budget, now_ms, place_gone, retry_after};
use crate::game::delivery::{variant_of, EditOf, Effect};
use crate::game::record::GameRecord;
use crate::game::sent::{self, Sent};
use crate::store::Atomic;
use crate::store::GameId;
use crate::telegram::context::{crash_point, BotError, Ctx};
use crate::telegram::metered::Metered;
use crate::telegram::send::in_topic;
use crate::telegram::token::{with_priority, Priority};
use crate::view::live::{live_drawing, with_board_link, Drawing};
use engine::Phase;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{ChatId, InputFile, InputMedia, InputMediaPhoto, MessageId, ParseMode};
use teloxide::{ApiError, RequestError};

/// What the live board asks of a step.
pub(super) enum Redraw {
    /// It was redrawn (or found gone): the step is done, with the record as stored after
    /// when it was.
    Drawn(Option<Box<(GameRecord, u64)>>),
    /// Telegram asked to wait this long before the redraw.
    Refused(Duration),
    /// A redraw is due but waits this long for the gap or the group's budget.
    Waits(Duration),
    /// It shows the latest state.
    NotDue,
}

/// The live board (the group's battle message, or a lobby), redrawn when what it would show
/// differs from what it shows, once the group's gap since its last redraw has passed, the
/// battle's board's turn of the token has come (it queues for one with every replica's
/// boards: `token.rs`) and the group's budget has a slot, at the board's priority. Never an
/// older state: it draws the record just loaded (at `version`), after the wait for the turn.
/// A place found gone is acknowledged as such (the game is called off).
pub(super) async fn redraw(
    ctx: &Ctx,
    id: GameId,
    lease: &mut Lease,
    rec: &GameRecord,
    version: u64,
) -> Result<Redraw, BotError> {
    let Some((message, drawing, hash)) = live_due(ctx, rec, id) else {
        lease.take_board_turn();
        return Ok(Redraw::NotDue);
    };
    let since = now_ms().saturating_sub(rec.delivery.drawn_at);
    let gap = ctx.config.gap(rec.chat).as_millis() as u64;
    if since < gap {
        return Ok(Redraw::Waits(Duration::from_millis(gap - since)));
    }
    let priority = board_priority(rec);
    let mut turn = None;
    if priority == Priority::Board {
        // The battle's board waits for its turn among every group's (none when few are
        // queued), then draws the record loaded once it came.
        let now = tokio::time::Instant::now();
        let at = match lease.take_board_turn() {
            Some(at) => at,
            None => now + crate::telegram::token::board_turn().await,
        };
        if at > now {
            lease.queued_for_board(at);
            return Ok(Redraw::Waits(at - now));
        }
        turn = Some(at);
    }
    if let Some(w) = budget(ctx, rec.chat).await? {
        // The turn came but the group's budget is spent (by its other messages): the board
        // keeps its turn, and goes once the group has a slot.
        if let Some(at) = turn {
            lease.queued_for_board(at);
        }
        return Ok(Redraw::Waits(w));
    }
    lease.keep(ctx, id).await?;
    let mut gone = None;
    let shown = drawing.shown;
    if lease.edited == hash {
        // Edited already; only the acknowledgement failed (Redis went away).
    } else {
        // The picture is drawn before the edit is marked on its way, so that a crash
        // leaves an edit's fate unknown only while its request is out.
        let media = match &rec.inline {
            Some(_) => None,
            None => photo_media(&drawing).await,
        };
        let variant = mark_editing(ctx, id, &lease.token, EditOf::Live, hash).await?;
        let edit = async {
            match &rec.inline {
                Some(inline) => edit_inline(ctx, inline, drawing, variant).await,
                None => {
                    let (chat, message) = (ChatId(rec.chat), MessageId(message));
                    edit_live(ctx, chat, message, drawing, media, variant).await
                }
            }
        };
        let edited = lease
            .hold_during(ctx, id, with_priority(priority, edit))
            .await?;
        match edited {
            Ok(()) => {
                lease.made_edit(hash);
                crash_point(ctx, "edited");
            }
            Err(e) => {
                if let Some(w) = retry_after(&e) {
                    log::warn!("live message of {id}: {e}");
                    return Ok(Redraw::Refused(w));
                }
                // A deleted topic takes its messages with it: the live message of a
                // game in a topic not found is the topic gone.
                let not_found = matches!(e, RequestError::Api(ApiError::MessageToEditNotFound));
                gone = place_gone(rec, &e)
                    .or_else(|| (rec.topic.is_some() && not_found).then_some(Sent::TopicGone));
                if gone.is_some() {
                    log::warn!("live message of {id}: {e}; its place is gone: called off");
                } else {
                    // The message is gone (deleted): nothing to draw on.
                    log::warn!("live message of {id}: {e}; not drawn again");
                }
            }
        }
    }
    let stored = ctx
        .store
        .transition(id, Atomic::by_sender(&lease.token), |r| {
            match &gone {
                Some(gone) => sent::acknowledge(r, gone, version, 0, now_ms()),
                None => sent::drawn(r, hash, version, shown, now_ms()),
            }
            Ok::<_, ()>(())
        })
        .await?
        .ok();
    Ok(Redraw::Drawn(
        stored.map(|c| Box::new((c.record, c.version))),
    ))
}

/// The live message as it should be now, when that differs from what it shows.
pub(super) fn live_due(ctx: &Ctx, rec: &GameRecord, id: GameId) -> Option<(i32, Drawing, u64)> {
    let message = rec.delivery.message?;
    // An inline message a rematch took over is that game's to draw on.
    if rec.inline.is_some() && rec.rematch.is_some() {
        return None;
    }
    if rec
        .delivery
        .outbox
        .iter()
        .any(|o| o.effect == Effect::LiveMessage)
        || (*rec.game.phase() == Phase::Battle && !rec.delivery.begun)
    {
        return None;
    }
    let drawing = with_board_link(
        live_drawing(rec, id, &ctx.username),
        rec,
        ctx.webapp_link(id).as_deref(),
    );
    let hash = drawing.hash();
    (hash != rec.delivery.drawn).then_some((message, drawing, hash))
}

/// A drawing's picture as an upload with its caption, rendered on the blocking pool.
pub(super) async fn photo_media(drawing: &Drawing) -> Option<(InputFile, String)> {
    let picture = drawing.picture.clone()?;
    let png = tokio::task::spawn_blocking(move || picture.png())
        .await
        .ok()?;
    Some((
        InputFile::memory(png).file_name("battle.png"),
        drawing.text.clone(),
    ))
}

/// Edits an inline message to show `drawing` (as `variant` of its text): its text (a game in
/// an inline message is drawn as text: an edit of an inline message cannot upload a picture).
pub(super) async fn edit_inline(
    ctx: &Ctx,
    inline: &str,
    drawing: Drawing,
    variant: u8,
) -> Result<(), RequestError> {
    let mut req = ctx
        .bot
        .edit_message_text_inline(inline, variant_of(&drawing.text, variant))
        .parse_mode(ParseMode::Html);
    if let Some(kb) = drawing.keyboard {
        req = req.reply_markup(crate::telegram::send::markup(kb));
    }
    match req.metered().await {
        Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Edits a message to show `drawing`: its picture and caption (`media`, drawn beforehand by
/// [`photo_media`]: a new upload, which Telegram never finds "not modified"), or else its
/// text as `variant` of it.
pub(super) async fn edit_live(
    ctx: &Ctx,
    chat: ChatId,
    message: MessageId,
    drawing: Drawing,
    media: Option<(InputFile, String)>,
    variant: u8,
) -> Result<(), RequestError> {
    let done = if let Some((file, caption)) = media {
        let media = InputMedia::Photo(
            InputMediaPhoto::new(file)
                .caption(caption)
                .parse_mode(ParseMode::Html),
        );
        let mut req = ctx.bot.edit_message_media(chat, message, media);
        if let Some(kb) = drawing.keyboard {
            req = req.reply_markup(crate::telegram::send::markup(kb));
        }
        req.metered().await.map(|_| ())
    } else {
        let mut req = ctx
            .bot
            .edit_message_text(chat, message, variant_of(&drawing.text, variant))
            .parse_mode(ParseMode::Html);
        if let Some(kb) = drawing.keyboard {
            req = req.reply_markup(crate::telegram::send::markup(kb));
        }
        req.metered().await.map(|_| ())
    };
    match done {
        Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(()),
        other => other,
    }
}

/// Sends `drawing` as a new live message (in forum topic `topic`, if any): its id.
pub(super) async fn send_live(
    ctx: &Ctx,
    chat: ChatId,
    topic: Option<i32>,
    drawing: Drawing,
) -> Result<i32, RequestError> {
    if let Some((file, caption)) = photo_media(&drawing).await {
        let mut req = ctx
            .bot
            .send_photo(chat, file)
            .caption(caption)
            .parse_mode(ParseMode::Html);
        if let Some(kb) = drawing.keyboard {
            req = req.reply_markup(crate::telegram::send::markup(kb));
        }
        req = in_topic(req, topic);
        return req.metered().await.map(|m| m.id.0);
    }
    let mut req = ctx
        .bot
        .send_message(chat, drawing.text)
        .parse_mode(ParseMode::Html);
    if let Some(kb) = drawing.keyboard {
        req = req.reply_markup(crate::telegram::send::markup(kb));
    }
    req = in_topic(req, topic);
    req.metered().await.map(|m| m.id.0)
}
