//! A seat's private message: the placement editor, then the player's own field (a picture
//! or words), sent once and edited after, each edit marked on its way.

use super::lease::{drawing_hash, Marker};
use super::live::{edit_live, photo_media, send_live};
use crate::game::delivery::{variant_of, EditOf};
use crate::game::record::Play;
use crate::game::record::{Board, Editor, GameRecord};
use crate::game::sent::Sent;
use crate::store::GameId;
use crate::telegram::context::Ctx;
use crate::telegram::metered::Metered;
use crate::telegram::send::user_lang_by_id;
use crate::view::editor::editor_text;
use crate::view::i18n::t;
use crate::view::keyboard::Keyboard;
use crate::view::live::Drawing;
use engine::{Phase, SeatId};
use teloxide::prelude::*;
use teloxide::types::{ChatId, MessageId, ParseMode};
use teloxide::{ApiError, RequestError};

/// A seat's private message: the editor while it places, then its own field. Its edits are
/// marked on their way under the lease `token` ([`mark_editing`]).
pub(super) async fn dm(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    seat: u8,
    token: &str,
) -> Result<Sent, RequestError> {
    let edit = Marker { ctx, id, token };
    let s = SeatId(seat);
    let Some(player) = rec.game.seats().get(usize::from(seat)) else {
        return Ok(Sent::Done);
    };
    let user = player.player.0;
    let lang = user_lang_by_id(ctx, user).await;
    let message = rec.delivery.dms.get(usize::from(seat)).copied().flatten();
    match &rec.play {
        Play::SeaBattle(_) => {}
        Play::Riga(r) => {
            // A Riga game's set-up keyboard, then words about the battle: drawn from the
            // record on every change (the private chat takes about one a second).
            let Some((text, kb)) = crate::view::riga::dm_view(rec, r, id, seat, lang) else {
                return Ok(Sent::Done);
            };
            if message.is_none() && rec.game.is_finished() {
                return Ok(Sent::Done);
            }
            return send_or_edit(&edit, seat, user, message, rec, text, kb).await;
        }
    }
    let placing = *rec.game.phase() == Phase::Placement && !rec.game.is_ready(s);
    // From the battle on, the private chat's own choice of board, else the game's (read only
    // then: the placement's messages are text whatever the choice).
    let battle = matches!(rec.game.phase(), Phase::Battle | Phase::Finished { .. });
    if rec.quick && rec.delivery.begun && battle && message.is_some() {
        // A quick match's board: as words, redrawn on every move.
        let text = crate::view::own_field::quick_board_text(rec, lang, s);
        let kb = crate::view::own_field::quick_board_keyboard(rec, id, lang, s);
        return send_or_edit(&edit, seat, user, message, rec, text, kb).await;
    }
    if rec.delivery.begun && battle {
        let board = match ctx.store.chat_settings(user as i64).await {
            Ok(settings) => settings.board.unwrap_or(rec.board),
            Err(_) => rec.board,
        };
        if board == Board::Picture {
            return dm_picture(&edit, rec, seat, user, lang, message).await;
        }
    }
    let (text, kb) = match (placing, message) {
        (true, Some(_)) => return Ok(Sent::Done), // the editor draws itself on every tap
        (true, None) => {
            let ed = match ctx.store.draft::<Editor>(id, s).await {
                Ok(Some(ed)) => ed,
                _ => Editor::new(rec.game.ruleset()),
            };
            (
                editor_text(rec, lang, &ed),
                Some(crate::telegram::send::editor_markup(
                    ctx, rec, id, lang, &ed,
                )),
            )
        }
        (false, None) => return Ok(Sent::Done),
        (false, Some(_)) if *rec.game.phase() == Phase::Lobby => return Ok(Sent::Done),
        (false, Some(_)) => (
            crate::view::own_field::own_field_text(rec, lang, s),
            crate::view::own_field::own_field_keyboard(rec, id, lang),
        ),
    };
    send_or_edit(&edit, seat, user, message, rec, text, kb).await
}

/// A seat's own field as a picture, in a game whose fields are pictures: sent when the battle
/// begins (the placement's message, a text, then points to it), edited after.
async fn dm_picture(
    edit: &Marker<'_>,
    rec: &GameRecord,
    seat: u8,
    user: u64,
    lang: crate::game::lang::Lang,
    placement: Option<i32>,
) -> Result<Sent, RequestError> {
    let i = usize::from(seat);
    let (picture, caption) = crate::view::own_field::own_field_picture(rec, lang, SeatId(seat));
    let drawing = Drawing {
        text: caption,
        // Its 🔄 button in the battle; none at the end (an edit without it takes it off).
        keyboard: crate::view::own_field::own_field_keyboard(rec, edit.id, lang),
        picture: Some(picture),
        shown: Default::default(),
    };
    let ctx = edit.ctx;
    let hash = drawing.hash();
    let pic = drawing.picture_hash();
    let chat = ChatId(user as i64);
    match rec.delivery.dm_pictures.get(i).copied().flatten() {
        Some(_) if rec.delivery.dm_drawn.get(i) == Some(&hash) => Ok(Sent::Done),
        // Only the words under it changed (the game's end on a field the last turn did not
        // shoot at): the caption is edited, with the keyboard it keeps or loses, and the
        // picture is neither drawn nor uploaded again.
        Some(m) if rec.delivery.dm_picture_drawn.get(i) == Some(&pic) => {
            let variant = edit.mark(EditOf::Dm { seat }, hash).await?;
            let mut req = ctx
                .bot
                .edit_message_caption(chat, MessageId(m))
                .caption(variant_of(&drawing.text, variant))
                .parse_mode(ParseMode::Html);
            if let Some(kb) = drawing.keyboard {
                req = req.reply_markup(crate::telegram::send::markup(kb));
            }
            let done = req.metered().await;
            match done {
                Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {}
                Err(e) => return Err(e),
            }
            Ok(Sent::DmPicture(seat, None, hash, pic))
        }
        Some(m) => {
            let media = photo_media(&drawing).await;
            let variant = edit.mark(EditOf::Dm { seat }, hash).await?;
            edit_live(ctx, chat, MessageId(m), drawing, media, variant).await?;
            Ok(Sent::DmPicture(seat, None, hash, pic))
        }
        // A player who never had the placement's message (never started the bot) gets none.
        None if placement.is_none() => Ok(Sent::Done),
        None => {
            let sent = send_live(ctx, chat, None, drawing).await?;
            // (A crash before this send is acknowledged sends it again; a send is never
            // "not modified". The placement's message below is edited once, after it.)
            if let Some(old) = placement {
                // The placement's message points to the picture instead of showing the fleet
                // as it was before the battle (a failure leaves it as it was).
                let req =
                    ctx.bot
                        .edit_message_text(chat, MessageId(old), t(lang, "own-field-below"));
                if let Err(e) = req.metered().await {
                    log::debug!("placement message of seat {seat}: {e}");
                }
            }
            Ok(Sent::DmPicture(seat, Some(sent), hash, pic))
        }
    }
}

/// Sends a seat's private message, or edits it when it is already there and changed.
async fn send_or_edit(
    edit: &Marker<'_>,
    seat: u8,
    user: u64,
    message: Option<i32>,
    rec: &GameRecord,
    text: String,
    kb: Option<Keyboard>,
) -> Result<Sent, RequestError> {
    let ctx = edit.ctx;
    let hash = drawing_hash(&text, &kb);
    let chat = ChatId(user as i64);
    match message {
        Some(_) if rec.delivery.dm_drawn.get(usize::from(seat)) == Some(&hash) => Ok(Sent::Done),
        Some(m) => {
            let variant = edit.mark(EditOf::Dm { seat }, hash).await?;
            let mut req = ctx
                .bot
                .edit_message_text(chat, MessageId(m), variant_of(&text, variant))
                .parse_mode(ParseMode::Html);
            if let Some(kb) = kb {
                req = req.reply_markup(crate::telegram::send::markup(kb));
            }
            match req.metered().await {
                Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {
                    Ok(Sent::Dm(seat, None, hash))
                }
                Err(e) => Err(e),
            }
        }
        None => {
            let mut req = ctx.bot.send_message(chat, text).parse_mode(ParseMode::Html);
            if let Some(kb) = kb {
                req = req.reply_markup(crate::telegram::send::markup(kb));
            }
            let sent = req.metered().await?;
            Ok(Sent::Dm(seat, Some(sent.id.0), hash))
        }
    }
}
