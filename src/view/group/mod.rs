//! The group's live message (the lobby, then the battle) and the end of a game: what they
//! say, drawn from a record alone.
//!
//! Nothing here decides when to send: the game's one sender (`telegram/sender/`) draws the live
//! message from the latest record whenever it differs from what the group was last shown,
//! within the group's budget and the gap between edits, so many results in a burst become one
//! edit carrying all of them.
//!
//! In parts, by what they draw: the lobby and an invitation's card ([`lobby`]), the battle
//! ([`battle`]), the end ([`end`]), the answer to a press ([`answers`]); this file picks the
//! live message for the game's phase.
use super::buttons::{join_payload, Button};
use super::keyboard::{Key, Keyboard};
use super::render::{self, escape, field_text, grid_keyboard, Viewport};
use crate::game::battle::{is_aimed, Cell, Picked};
pub use crate::game::delivery::Shown;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::record::Play;
use crate::game::GameId;
use crate::view::i18n::{list, t, ta};
use engine::{Coord, EndReason, Event, Mark, Phase, SeatId, ShotResult};

mod answers;
mod battle;
mod end;
mod lobby;
#[cfg(test)]
mod tests;

pub use answers::*;
pub use battle::*;
pub use end::*;
pub use lobby::*;

/// Telegram's most characters in a message (UTF-16 code units, after the markup is parsed).
pub const MAX_TEXT: usize = 4096;

/// The live message's text and keyboard, for the game's phase.
pub fn live_message(rec: &GameRecord, id: GameId, username: &str) -> (String, Option<Keyboard>) {
    let (text, keyboard, _) = live_message_shown(rec, id, username);
    (text, keyboard)
}

/// [`live_message`], with the results it shows (all of them, but for a long burst of the
/// battle).
pub fn live_message_shown(
    rec: &GameRecord,
    id: GameId,
    username: &str,
) -> (String, Option<Keyboard>, Shown) {
    let all = Shown {
        from: rec.log_total,
        to: rec.log_total,
    };
    match &rec.play {
        Play::Riga(r) if *rec.game.phase() != Phase::Lobby => {
            let (text, mut keyboard) = super::riga::live_message(rec, r, id);
            if rec.inline.is_some() && rec.is_finished() && r.game.is_some() {
                keyboard = Some(end_keyboard(rec, id, username));
            }
            return (text, keyboard, all);
        }
        Play::Riga(_) | Play::SeaBattle(_) => {}
    }
    match rec.game.phase() {
        Phase::Lobby | Phase::Placement => {
            let (text, keyboard) = lobby_message(rec, id, username);
            (text, keyboard, all)
        }
        Phase::Finished { .. } if rec.inline.is_some() && rec.delivery.begun => {
            let (text, shown) = inline_end(rec);
            (text, Some(end_keyboard(rec, id, username)), shown)
        }
        Phase::Battle | Phase::Finished { .. } => {
            let (text, shown) = battle_text_shown(rec);
            (text, battle_keyboard(rec, id), shown)
        }
    }
}

/// The length Telegram counts: UTF-16 code units of the text without its HTML markup.
pub fn visible_len(html: &str) -> usize {
    let (mut n, mut in_tag, mut entity) = (0, false, false);
    for c in html.chars() {
        match c {
            '<' if !in_tag => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            '&' => {
                entity = true;
                n += 1;
            }
            ';' if entity => entity = false,
            _ if entity => {}
            c => n += c.len_utf16(),
        }
    }
    n
}
