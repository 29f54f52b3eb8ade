//! After a mine: the question to the shooter in their private chat, sent, updated or closed
//! (delivered by the outbox; its words and keyboard are in `view/mine.rs`).

use super::context::Ctx;
use super::send::{edit_dm, send_dm, user_lang_by_id};
use crate::game::record::GameRecord;
use crate::game::sent;
use crate::store::Atomic;
use crate::store::GameId;
use crate::view::mine::{gave_up_words, keyboard, question};
use engine::Event;

/// After a move: asks the shooter who hit a mine to give up a cell (a new private message
/// with the keyboard), or closes that message once the cells are given up.
pub async fn follow(ctx: &Ctx, id: GameId, rec: &GameRecord, events: &[Event]) {
    let gave = events
        .iter()
        .rev()
        .find(|e| matches!(e, Event::GaveUp { .. }));
    let asked = events.iter().any(|e| matches!(e, Event::MineChoice { .. }));
    let pending = rec.game.mine_choice().filter(|_| asked);
    let seat = match (pending, gave) {
        (Some(m), _) => m.seat,
        (None, Some(Event::GaveUp { seat, .. })) => *seat,
        _ => return,
    };
    if rec.is_ai_seat(seat) {
        return;
    }
    let user = rec.game.seats()[seat.index()].player.0;
    let lang = user_lang_by_id(ctx, user).await;
    let mut text = gave
        .and_then(|e| gave_up_words(lang, rec, e))
        .unwrap_or_default();
    let Some(m) = pending else {
        if let Some(message) = rec.delivery.mine_dm {
            edit_dm(ctx, user, message, text, None);
            let _ = ctx
                .store
                .transition(id, Atomic::plain(), |r| {
                    sent::mine_closed(r, message);
                    Ok::<_, ()>(())
                })
                .await;
        }
        return;
    };
    question(&mut text, lang, rec, m);
    let kb = keyboard(rec, id, m);
    match rec.delivery.mine_dm {
        Some(message) if gave.is_some() => edit_dm(ctx, user, message, text, Some(kb)),
        // A new question, remembered for its closing.
        _ => {
            if let Some(message) = send_dm(ctx, id, user, text, kb, "mine question of").await {
                let _ = ctx
                    .store
                    .transition(id, Atomic::plain(), |r| {
                        sent::mine_asked(r, message);
                        Ok::<_, ()>(())
                    })
                    .await;
            }
        }
    }
}
