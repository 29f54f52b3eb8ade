//! The Riga board game's views (docs/rules.md §5; state in `game/riga_state.rs`, words in
//! `riga_text.rs`): the group's message in each phase (the lobby itself is `group.rs`'s),
//! the keyboard of moves, the set-up keyboard in the private chat, the end's words. Drawn
//! from a record, nothing else.

use super::buttons::Button;
use super::keyboard::{Key, Keyboard};
use super::render::escape;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::riga::{seat_of, side_of, RigaEnd, RigaPlay};
use crate::game::GameId;
use crate::view::i18n::{t, ta};
use crate::view::riga_text;
use engine::SeatId;
use riga::{Move, Outcome};

/// The group's message of a Riga game, whatever its phase.
pub fn live_message(rec: &GameRecord, id: GameId) -> (String, Option<Keyboard>) {
    let lang = rec.lang;
    let Some(r) = rec.riga() else {
        return (String::new(), None);
    };
    let mut text = format!("<b>{}</b>\n", t(lang, "rg-title"));
    if r.game.is_none() {
        // Set-up (the lobby itself is drawn by `group.rs`), or called off during it.
        text.push_str(&t(lang, "rg-setup-intro"));
        text.push('\n');
        for (i, name) in rec.names.iter().enumerate().take(2) {
            let side = riga_text::side_name(lang, side_of(i as u8));
            let status = if rec.game.is_finished() {
                String::new()
            } else if r.ready.get(i).copied().unwrap_or(false) {
                format!(" — {}", t(lang, "lobby-ready"))
            } else {
                format!(" — {}", t(lang, "rg-ordering"))
            };
            text.push_str(&format!("\n{}: {}{status}", escape(&side), escape(name)));
        }
        if rec.game.is_finished() {
            text.push_str(&format!("\n\n{}", t(lang, "rg-cancelled")));
            return (text, None);
        }
        let kb = Keyboard::new(vec![vec![Key::callback(
            t(lang, "btn-cancel"),
            Button::Cancel(id, rec.delivery.generation).to_string(),
        )]]);
        return (text, Some(kb));
    }
    text.push_str(&battle_text(rec, r));
    let keyboard = move_keyboard(rec, r, id);
    (text, keyboard)
}

/// The board, the sides, the latest moves and whose turn (or how it ended).
fn battle_text(rec: &GameRecord, r: &RigaPlay) -> String {
    let lang = rec.lang;
    let Some(game) = &r.game else {
        return String::new();
    };
    let mut text = String::new();
    for seat in 0..2u8 {
        let side = side_of(seat);
        text.push_str(&format!(
            "{}: {} · {}\n",
            escape(&riga_text::side_name(lang, side)),
            escape(&rec.short_name(SeatId(seat), 40)),
            ta(lang, "rg-afloat", &[("ships", game.afloat(side).into())])
        ));
    }
    text.push_str(&format!(
        "<pre>{}</pre>\n{}\n",
        escape(&riga_text::board(lang, game, r.last)),
        escape(&riga_text::legend(lang))
    ));
    for line in &r.lines {
        text.push_str(&format!("\n{}", escape(line)));
    }
    if !r.lines.is_empty() {
        text.push('\n');
    }
    text.push('\n');
    match r.to_move() {
        Some(side) => {
            let seat = seat_of(side);
            text.push_str(&ta(
                lang,
                "rg-turn",
                &[
                    ("side", riga_text::side_name(lang, side).into()),
                    ("name", escape(&rec.short_name(SeatId(seat), 40)).into()),
                    ("quiet", i64::from(game.quiet()).into()),
                    ("limit", i64::from(riga::game::QUIET_MOVES).into()),
                ],
            ));
        }
        None => text.push_str(&format!("<b>{}</b>", escape(&end_words(rec, r)))),
    }
    text
}

/// How the game ended, in words.
fn end_words(rec: &GameRecord, r: &RigaPlay) -> String {
    let lang = rec.lang;
    let name = |side| rec.short_name(SeatId(seat_of(side)), 40);
    let side_words = |side| riga_text::side_name(lang, side);
    match r.end {
        Some(RigaEnd::Played(Outcome::Win(side))) => ta(
            lang,
            "rg-end-win",
            &[
                ("side", side_words(side).into()),
                ("name", name(side).into()),
            ],
        ),
        Some(RigaEnd::Played(Outcome::Draw)) => r
            .game
            .as_ref()
            .and_then(|g| riga_text::outcome_line(lang, g))
            .unwrap_or_else(|| t(lang, "rg-end-draw")),
        Some(RigaEnd::Surrendered(side)) => ta(
            lang,
            "rg-end-surrendered",
            &[
                ("name", name(side).into()),
                ("winner", name(side.other()).into()),
            ],
        ),
        Some(RigaEnd::TimedOut(side)) => ta(
            lang,
            "rg-end-timeout",
            &[
                ("name", name(side).into()),
                ("winner", name(side.other()).into()),
            ],
        ),
        Some(RigaEnd::Cancelled) | None => t(lang, "rg-cancelled"),
    }
}

/// The end's announcement (with the Rematch button under it, by the sender).
pub fn end_texts(rec: &GameRecord) -> Vec<String> {
    let Some(r) = rec.riga() else {
        return Vec::new();
    };
    vec![format!(
        "<b>{}</b>\n{}",
        t(rec.lang, "rg-title"),
        escape(&end_words(rec, r))
    )]
}

/// One row per ship of the side to move that can move: its name and point, then its legal
/// moves. Only the side to move's player may press them.
fn move_keyboard(rec: &GameRecord, r: &RigaPlay, id: GameId) -> Option<Keyboard> {
    let lang = rec.lang;
    let game = r.game.as_ref()?;
    let side = r.to_move()?;
    if rec.is_ai_seat(SeatId(seat_of(side))) {
        return None;
    }
    // The buttons name the position they are drawn for (see `riga.rs`).
    let g = game.moves();
    let moves = game.legal_moves();
    let button =
        |label: String, mv: Move| Key::callback(label, Button::RigaMove(id, g, mv).to_string());
    if moves == [Move::Pass] {
        return Some(Keyboard::new(vec![vec![button(
            t(lang, "rg-btn-pass"),
            Move::Pass,
        )]]));
    }
    let mut rows = Vec::new();
    for (i, ship) in game.ships().iter().enumerate() {
        let Some(ship) = ship.filter(|s| s.side == side) else {
            continue;
        };
        let mut own: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| ship_of(*m) == Some(i as u8))
            .collect();
        // Forward first, then the turns, then a mine, on every row.
        own.sort_by_key(|m| match m {
            Move::Forward(_) => 0,
            Move::Left(_) => 1,
            Move::Right(_) => 2,
            Move::Lay(_) | Move::Pass => 3,
        });
        if own.is_empty() {
            continue;
        }
        let mut row = vec![Key::callback(
            format!(
                "{} {}",
                riga_text::ship_letter(lang, ship.kind),
                riga_text::point(lang, ship.at)
            ),
            Button::Noop.to_string(),
        )];
        for m in own {
            let key = match m {
                Move::Forward(_) => "rg-btn-forward",
                Move::Left(_) => "rg-btn-left",
                Move::Right(_) => "rg-btn-right",
                Move::Lay(_) => "rg-btn-mine",
                Move::Pass => "rg-btn-pass",
            };
            row.push(button(t(lang, key), m));
        }
        rows.push(row);
    }
    Some(Keyboard::new(rows))
}

/// The ship a move moves.
fn ship_of(m: Move) -> Option<u8> {
    match m {
        Move::Forward(i) | Move::Left(i) | Move::Right(i) | Move::Lay(i) => Some(i),
        Move::Pass => None,
    }
}

/// A seat's private message: the set-up keyboard while it orders its fleet, then words
/// about where the battle is. `None` when there is nothing to show.
pub fn dm_view(
    rec: &GameRecord,
    id: GameId,
    seat: u8,
    lang: Lang,
) -> Option<(String, Option<Keyboard>)> {
    let r = rec.riga()?;
    let i = usize::from(seat);
    let side = side_of(seat);
    let side_words = riga_text::side_name(lang, side);
    if rec.game.is_finished() {
        return Some((
            format!("<b>{}</b>\n{}", t(lang, "rg-title"), t(lang, "rg-dm-over")),
            None,
        ));
    }
    if r.game.is_some() {
        let key = if rec.chat < 0 {
            "rg-dm-battle-group"
        } else {
            "rg-dm-battle-here"
        };
        let text = ta(lang, key, &[("side", side_words.into())]);
        return Some((format!("<b>{}</b>\n{}", t(lang, "rg-title"), text), None));
    }
    let order = r.orders.get(i)?;
    if r.ready.get(i).copied().unwrap_or(false) {
        let text = ta(lang, "rg-dm-locked", &[("side", side_words.into())]);
        return Some((format!("<b>{}</b>\n{}", t(lang, "rg-title"), text), None));
    }
    let starts = riga::Point::starts(side);
    let line = riga_text::point(lang, starts[0]);
    let mut text = format!(
        "<b>{}</b>\n{}\n",
        t(lang, "rg-title"),
        ta(
            lang,
            "rg-dm-order",
            &[("side", side_words.into()), ("first", line.into())]
        )
    );
    for (p, kind) in starts.iter().zip(order) {
        text.push_str(&format!(
            "\n{} — {}",
            escape(&riga_text::point(lang, *p)),
            escape(&riga_text::ship_name(lang, *kind))
        ));
    }
    let picked = r.picked.get(i).copied().flatten();
    let mut rows: Vec<Vec<Key>> = Vec::new();
    for half in 0..2 {
        let row = (0..6u8)
            .map(|k| {
                let n = half * 6 + k;
                let mark = if picked == Some(n) { "• " } else { "" };
                Key::callback(
                    format!(
                        "{mark}{} {}",
                        riga_text::point(lang, starts[usize::from(n)]),
                        riga_text::ship_letter(lang, order[usize::from(n)])
                    ),
                    Button::RigaTap(id, n).to_string(),
                )
            })
            .collect();
        rows.push(row);
    }
    rows.push(vec![
        Key::callback(
            t(lang, "rg-btn-shuffle"),
            Button::RigaShuffle(id).to_string(),
        ),
        Key::callback(t(lang, "rg-btn-lock"), Button::RigaLock(id).to_string()),
    ]);
    Some((text, Some(Keyboard::new(rows))))
}
