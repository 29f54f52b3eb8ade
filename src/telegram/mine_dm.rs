//! After a mine: the question to the shooter in their private chat, and the words for the cell
//! given up (delivered by the outbox).

use super::chat::{edit_dm, send_dm, user_lang_by_id};
use super::Ctx;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::store::GameId;
use crate::view::buttons::Button;
use crate::view::i18n::ta;
use crate::view::render::{self, field_text, MAX_BUTTONS, MAX_ROW};
use engine::{Event, Mark, MineChoice, MINE_CHOICE_SECONDS};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

/// The keyboard of the cells `seat` may give up: its fleet's unhit cells, eight a row, at
/// most Telegram's hundred buttons (a larger fleet offers its first hundred; any is legal).
pub fn keyboard(rec: &GameRecord, id: GameId, m: MineChoice) -> InlineKeyboardMarkup {
    let view = rec.game.view_for(m.seat);
    let field = view.field(m.seat);
    let size = field.size;
    let buttons: Vec<InlineKeyboardButton> = size
        .cells()
        .filter(|&c| field.mark(c) == Mark::Ship)
        .take(MAX_BUTTONS)
        .map(|c| {
            InlineKeyboardButton::callback(
                render::cell_name(c, rec.alphabet, size),
                Button::GiveUp(id, m.deadline, size.index(c) as u16).to_string(),
            )
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(MAX_ROW).map(<[_]>::to_vec))
}

/// The words for a cell given up.
pub fn gave_up_words(lang: Lang, rec: &GameRecord, e: &Event) -> Option<String> {
    let Event::GaveUp {
        cell,
        result,
        timed_out,
        ..
    } = e
    else {
        return None;
    };
    let key = if *timed_out {
        "mine-dm-timed-out"
    } else {
        "mine-dm-done"
    };
    let size = rec.game.ruleset().size();
    Some(ta(
        lang,
        key,
        &[
            ("cell", render::cell_name(*cell, rec.alphabet, size).into()),
            ("result", render::result_words(lang, *result).into()),
        ],
    ))
}

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
        if let Some(message) = rec.mine_dm {
            edit_dm(ctx, user, message, text, None).await;
            let _ = ctx
                .store
                .transition(id, |r| {
                    if r.mine_dm == Some(message) {
                        r.mine_dm = None;
                    }
                    Ok::<_, ()>(())
                })
                .await;
        }
        return;
    };
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(&ta(
        lang,
        "mine-dm",
        &[
            ("count", m.remaining.into()),
            ("seconds", (MINE_CHOICE_SECONDS as i64).into()),
        ],
    ));
    let view = rec.game.view_for(seat);
    text.push_str(&format!(
        "\n<pre>{}</pre>",
        field_text(view.field(seat), rec.game.ruleset(), rec.alphabet)
    ));
    let kb = keyboard(rec, id, m);
    match rec.mine_dm {
        Some(message) if gave.is_some() => edit_dm(ctx, user, message, text, Some(kb)).await,
        // A new question, remembered for its closing.
        _ => {
            let remember = |r: &mut GameRecord, message| r.mine_dm = Some(message);
            send_dm(ctx, id, user, text, kb, "mine question of", remember).await;
        }
    }
}
