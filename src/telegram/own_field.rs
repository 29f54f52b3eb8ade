//! Each player's own field in their private chat: their fleet with every shot the others
//! took at it, their teammates' fields in teams, and whose turn it is.

use super::render::{escape, field_text};
use crate::app::teammates;
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::GameRecord;
use engine::{Phase, SeatId};

/// A player's own field as they see it: their ships and every shot the enemy took at them.
pub fn own_field_text(rec: &GameRecord, lang: Lang, seat: SeatId) -> String {
    let view = rec.game.view_for(seat);
    let field = view.field(seat);
    let mut text = format!(
        "<b>{}</b>\n<pre>{}</pre>",
        t(lang, "own-field-title"),
        field_text(field, rec.game.ruleset(), rec.alphabet)
    );
    for mate in teammates(rec, seat) {
        let name = escape(rec.names.get(mate.index()).map_or("?", String::as_str));
        text.push_str(&format!(
            "\n\n<b>{}</b>\n<pre>{}</pre>",
            ta(lang, "battle-teammate-field", &[("name", name.into())]),
            field_text(view.field(mate), rec.game.ruleset(), rec.alphabet)
        ));
    }
    let key = match rec.game.phase() {
        Phase::Placement => "own-field-waiting",
        Phase::Battle if rec.game.turn() == seat && rec.chat >= 0 => "own-field-your-turn-here",
        Phase::Battle if rec.game.turn() == seat => "own-field-your-turn",
        Phase::Battle => "own-field-their-turn",
        _ => "own-field-over",
    };
    text.push_str(&format!("\n{}", t(lang, key)));
    text
}
