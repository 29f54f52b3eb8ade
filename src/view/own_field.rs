//! Each player's own field in their private chat: their fleet with every shot the others
//! took at it, their teammates' fields in teams, and where the player shoots.

use super::buttons::Button;
use super::keyboard::{Key, Keyboard};
use super::live::Picture;
use super::render::{escape, field_text};
use crate::game::battle::teammates;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::GameId;
use crate::view::i18n::{t, ta};
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
        text.push_str(&format!(
            "\n\n<b>{}</b>\n<pre>{}</pre>",
            mate_title(rec, lang, mate, true),
            field_text(view.field(mate), rec.alphabet)
        ));
    }
    text.push_str(&format!("\n{}", status(rec, lang)));
    text
}

/// The own field as a picture (with the teammates' fields) and its caption.
pub fn own_field_picture(rec: &GameRecord, lang: Lang, seat: SeatId) -> (Picture, String) {
    let view = rec.game.view_for(seat);
    let seats: Vec<SeatId> = std::iter::once(seat).chain(teammates(rec, seat)).collect();
    let last = rec.log.iter().rev().find_map(|e| match e {
        Event::Shot { target, cell, .. } if seats.contains(target) => Some((*target, *cell)),
        Event::GaveUp { seat, cell, .. } if seats.contains(seat) => Some((*seat, *cell)),
        _ => None,
    });
    let picture = Picture {
        fields: seats.iter().map(|&s| view.field(s).clone()).collect(),
        titles: seats
            .iter()
            .map(|&s| {
                if s == seat {
                    t(lang, "own-field-title")
                } else {
                    mate_title(rec, lang, s, false)
                }
            })
            .collect(),
        alphabet: rec.alphabet,
        last: seats
            .iter()
            .map(|&s| last.filter(|l| l.0 == s).map(|l| l.1).into_iter().collect())
            .collect(),
        active: None,
    };
    let caption = format!(
        "<b>{}</b>\n{}",
        t(lang, "own-field-title"),
        status(rec, lang)
    );
    (picture, caption)
}

/// The button under the own field in the battle that brings it up to date now (it is
/// otherwise redrawn when the turn comes to its seat); none before or after the battle.
pub fn own_field_keyboard(rec: &GameRecord, id: GameId, lang: Lang) -> Option<Keyboard> {
    (*rec.game.phase() == Phase::Battle).then(|| Keyboard {
        inline_keyboard: vec![vec![Key::callback(
            t(lang, "own-field-refresh"),
            Button::OwnField(id).to_string(),
        )]],
    })
}

/// A quick match's board in a player's private chat (there is no shared message): the
/// battle as a group would see it (both fields, whose turn, the latest results), then the
/// player's own fleet; within Telegram's 4096 characters.
pub fn quick_board_text(rec: &GameRecord, lang: Lang, seat: SeatId) -> String {
    let view = rec.game.view_for(seat);
    let own = format!(
        "\n\n<b>{}</b>\n<pre>{}</pre>",
        t(lang, "own-field-title"),
        field_text(view.field(seat), rec.alphabet)
    );
    let room = 4096usize.saturating_sub(own.chars().count());
    let battle = crate::view::group::battle_text_within(&in_lang(rec, lang), room);
    format!("{battle}{own}")
}

/// The record as its views draw it for a viewer speaking `lang` (a quick match's two players
/// may speak two languages; a group's message speaks the group's).
fn in_lang(rec: &GameRecord, lang: Lang) -> GameRecord {
    let mut seen = rec.clone();
    seen.lang = lang;
    seen
}

/// The reactions a quick match's players may send each other: no free text is passed
/// between strangers.
pub const REACTIONS: [&str; 5] = ["👍", "😮", "😅", "🤝", "GG"];

/// A quick match's board's buttons: the grid to shoot while it is the player's turn; else
/// the reactions to send the opponent and the button that brings the board up to date;
/// at the end the reactions and Block (never paired with this opponent again).
pub fn quick_board_keyboard(
    rec: &GameRecord,
    id: GameId,
    lang: Lang,
    seat: SeatId,
) -> Option<Keyboard> {
    let battle = *rec.game.phase() == Phase::Battle;
    if battle && rec.game.turn() == seat {
        return crate::view::group::battle_keyboard(&in_lang(rec, lang), id);
    }
    let reactions: Vec<Key> = REACTIONS
        .iter()
        .enumerate()
        .map(|(i, r)| Key::callback(*r, Button::React(id, i as u8).to_string()))
        .collect();
    let mut rows = vec![reactions];
    match battle {
        true => rows.extend(own_field_keyboard(rec, id, lang)?.inline_keyboard),
        false if rec.game.is_finished() => {
            let other = rec
                .names
                .get(1 - seat.index().min(1))
                .map_or("?", String::as_str);
            rows.push(vec![Key::callback(
                ta(lang, "quick-block", &[("name", other.into())]),
                Button::BlockPlayer(id).to_string(),
            )]);
        }
        false => return None,
    }
    Some(Keyboard::new(rows))
}

fn mate_title(rec: &GameRecord, lang: Lang, mate: SeatId, html: bool) -> String {
    let name = rec.names.get(mate.index()).map_or("?", String::as_str);
    let name = if html { escape(name) } else { name.to_owned() };
    ta(lang, "battle-teammate-field", &[("name", name.into())])
}

/// Where the player shoots, and that this field is brought up to date when their turn comes.
/// It names no turn: the field is redrawn when the turn passes to its seat, not when it
/// passes away (whose turn it is is told by the battle message and the answer to a shot).
fn status(rec: &GameRecord, lang: Lang) -> String {
    let key = match rec.game.phase() {
        Phase::Placement => "own-field-waiting",
        Phase::Battle if rec.inline.is_some() => "own-field-shoot-inline",
        Phase::Battle if rec.chat >= 0 => "own-field-shoot-here",
        Phase::Battle => "own-field-shoot-group",
        _ => return t(lang, "own-field-over"),
    };
    match rec.game.phase() {
        Phase::Battle => format!("{}\n{}", t(lang, key), t(lang, "own-field-when")),
        _ => t(lang, key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Action, Game, PlayerId, Ruleset};
    use rand::SeedableRng;

    #[test]
    fn a_quick_matchs_board_speaks_its_viewers_language_and_fits_a_message() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut game = Game::new(Ruleset::default());
        for p in [7, 8] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for seat in [SeatId(0), SeatId(1)] {
            let fleet = engine::random_fleet(game.ruleset(), &mut rng).unwrap();
            game.apply(Action::Ready(seat, fleet), 0, &mut rng).unwrap();
        }
        let mut rec = GameRecord::new(game, 7, 0);
        rec.quick = true;
        rec.lang = Lang::En;
        rec.names = vec!["Ann".into(), "Борис".into()];
        for (lang, title) in [
            (Lang::Ru, "Морской бой"),
            (Lang::Bg, "Морска битка"),
            (Lang::En, "Sea Battle"),
        ] {
            for seat in [SeatId(0), SeatId(1)] {
                let text = quick_board_text(&rec, lang, seat);
                assert!(text.contains(title), "{lang}: {text}");
                assert!(text.contains(&t(lang, "own-field-title")), "{lang}: {text}");
                assert!(text.chars().count() <= 4096);
            }
        }
        assert!(!quick_board_text(&rec, Lang::Ru, SeatId(1)).contains("Sea Battle"));
    }
}
