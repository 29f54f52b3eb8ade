//! Each player's own field in their private chat: their fleet with every shot the others
//! took at it, their teammates' fields in teams, and whose turn it is.

use super::render::{escape, field_text};
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::GameRecord;
use engine::{Event, Phase, SeatId};

/// A player's own field as they see it: their ships and every shot the enemy took at them.
pub fn own_field_text(rec: &GameRecord, lang: Lang, seat: SeatId) -> String {
    let view = rec.game.view_for(seat);
    let field = view.field(seat);
    let mut text = format!(
        "<b>{}</b>\n<pre>{}</pre>",
        t(lang, "own-field-title"),
        field_text(field, rec.alphabet)
    );
    for mate in teammates(rec, seat) {
        let name = escape(rec.names.get(mate.index()).map_or("?", String::as_str));
        text.push_str(&format!(
            "\n\n<b>{}</b>\n<pre>{}</pre>",
            ta(lang, "battle-teammate-field", &[("name", name.into())]),
            field_text(view.field(mate), rec.alphabet)
        ));
    }
    let key = match rec.game.phase() {
        Phase::Placement => "own-field-waiting",
        Phase::Battle if rec.game.turn() == seat => "own-field-your-turn",
        Phase::Battle => "own-field-their-turn",
        _ => "own-field-over",
    };
    text.push_str(&format!("\n{}", t(lang, key)));
    text
}

/// The other seats of `seat`'s team (none but in teams).
pub fn teammates(rec: &GameRecord, seat: SeatId) -> Vec<SeatId> {
    let players = rec.game.ruleset().players;
    (0..rec.game.seats().len() as u8)
        .map(SeatId)
        .filter(|&s| s != seat && players.team(s.index()) == players.team(seat.index()))
        .collect()
}

/// The seats whose private message these events change: the fields shot at (and their
/// teammates, who see them), the seats whose "your turn" line changes, and everyone's when
/// the game ends or time ran out.
pub(super) fn changed_fields(rec: &GameRecord, events: &[Event]) -> Vec<SeatId> {
    let all: Vec<SeatId> = (0..rec.game.seats().len() as u8).map(SeatId).collect();
    let mut actor = None;
    let mut fields = Vec::new();
    let mut turns = Vec::new();
    for e in events {
        match *e {
            Event::Shot {
                shooter, target, ..
            }
            | Event::Salvo {
                shooter, target, ..
            } => {
                actor = Some(shooter);
                fields.push(target);
            }
            Event::GaveUp { seat, .. } => {
                actor = Some(seat);
                fields.push(seat);
            }
            Event::Turn(s) if actor != Some(s) => match actor {
                Some(a) => turns.extend([a, s]),
                None => return all,
            },
            Event::Finished { .. } | Event::Forfeit(_) | Event::Surrendered(_) => return all,
            _ => {}
        }
    }
    let mut out: Vec<SeatId> = fields.iter().flat_map(|&s| teammates(rec, s)).collect();
    out.extend(fields);
    out.extend(turns);
    out.sort_unstable();
    out.dedup();
    out
}
