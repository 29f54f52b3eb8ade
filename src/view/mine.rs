//! After a mine: the question to the shooter in their private chat (the cells of their fleet
//! they may give up) and the words for the cell given up.

use super::buttons::Button;
use super::i18n::ta;
use super::keyboard::{Key, Keyboard};
use super::render::{self, field_text, MAX_BUTTONS, MAX_ROW};
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::GameId;
use engine::{Event, Mark, MineChoice, MINE_CHOICE_SECONDS};

/// The keyboard of the cells `seat` may give up: its fleet's unhit cells, eight a row, at
/// most Telegram's hundred buttons (a larger fleet offers its first hundred; any is legal).
pub fn keyboard(rec: &GameRecord, id: GameId, m: MineChoice) -> Keyboard {
    let view = rec.game.view_for(m.seat);
    let field = view.field(m.seat);
    let size = field.size;
    let buttons: Vec<Key> = size
        .cells()
        .filter(|&c| field.mark(c) == Mark::Ship)
        .take(MAX_BUTTONS)
        .map(|c| {
            Key::callback(
                render::cell_name(c, rec.alphabet, size),
                Button::GiveUp(id, m.deadline, size.index(c) as u16).to_string(),
            )
        })
        .collect();
    Keyboard::new(buttons.chunks(MAX_ROW).map(<[_]>::to_vec))
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

/// The question after a mine, after `text` (the words for a cell given up, if any): how many
/// cells to give up, in how long, and the shooter's own field.
pub fn question(text: &mut String, lang: Lang, rec: &GameRecord, m: MineChoice) {
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
    let view = rec.game.view_for(m.seat);
    text.push_str(&format!(
        "\n<pre>{}</pre>",
        field_text(view.field(m.seat), rec.alphabet)
    ));
}
