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
pub fn live_message(rec: &GameRecord, r: &RigaPlay, id: GameId) -> (String, Option<Keyboard>) {
    let lang = rec.lang;
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
    let keyboard = move_keyboard(rec, r, id, rec.lang);
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
            let key = match rec.inline {
                Some(_) => super::render::tap_key("rg-turn"),
                None => "rg-turn",
            };
            text.push_str(&ta(
                lang,
                key,
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
    end_words_in(rec, r, rec.lang)
}

/// How the game ended, in words, in `lang`.
pub fn end_words_in(rec: &GameRecord, r: &RigaPlay, lang: Lang) -> String {
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
pub fn end_texts(rec: &GameRecord, r: &RigaPlay) -> Vec<String> {
    vec![format!(
        "<b>{}</b>\n{}",
        t(rec.lang, "rg-title"),
        escape(&end_words(rec, r))
    )]
}

/// One row per ship of the side to move that can move: its name and point, then its legal
/// moves, in `lang`. Only the side to move's player may press them.
pub fn move_keyboard(rec: &GameRecord, r: &RigaPlay, id: GameId, lang: Lang) -> Option<Keyboard> {
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
pub fn ship_of(m: Move) -> Option<u8> {
    match m {
        Move::Forward(i) | Move::Left(i) | Move::Right(i) | Move::Lay(i) => Some(i),
        Move::Pass => None,
    }
}

/// A seat's private message: the set-up keyboard while it orders its fleet, then words
/// about where the battle is. `None` when there is nothing to show.
pub fn dm_view(
    rec: &GameRecord,
    r: &RigaPlay,
    id: GameId,
    seat: u8,
    lang: Lang,
) -> Option<(String, Option<Keyboard>)> {
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
        let key = if rec.inline.is_some() {
            "rg-dm-battle-inline"
        } else if rec.chat < 0 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::lobby;
    use crate::game::record::Play;
    use engine::PlayerId;
    use rand::SeedableRng;
    use riga::{Game, Kind, FLEET};

    /// The Riga game's state of a Riga record.
    fn riga_of(rec: &GameRecord) -> &RigaPlay {
        match &rec.play {
            Play::Riga(r) => r,
            Play::SeaBattle(_) => panic!("a Sea Battle record"),
        }
    }

    /// A group's Riga game of two people in its set-up, in `lang`.
    fn setup_record(lang: Lang) -> GameRecord {
        let duel = lobby::riga_duel(&engine::Ruleset::default());
        let mut rec = GameRecord::new(engine::Game::new(duel), -1, 0);
        rec.lang = lang;
        lobby::join(&mut rec, PlayerId(1), "Анна", None, 0).unwrap();
        lobby::join(&mut rec, PlayerId(2), "Вера", None, 0).unwrap();
        rec.play = Play::Riga(RigaPlay::default());
        let mut rng = rand::rngs::StdRng::seed_from_u64(9);
        lobby::start(&mut rec, None, 0, &mut rng).unwrap();
        rec
    }

    /// The labels of the start points' keys (the two rows above 🎲 and Ready).
    fn labels(kb: &Keyboard) -> Vec<String> {
        kb.inline_keyboard
            .iter()
            .take(2)
            .flatten()
            .map(|k| k.text.trim_start_matches("• ").to_owned())
            .collect()
    }

    #[test]
    fn the_keys_name_ships_by_the_letters_of_the_board() {
        for lang in Lang::ALL {
            let letters: Vec<String> = FLEET
                .iter()
                .map(|&k| riga_text::ship_letter(lang, k).to_string())
                .collect();
            let legend = riga_text::legend(lang);
            // The set-up keyboard in the private chat: a point and a ship each.
            let mut rec = setup_record(lang);
            let (_, kb) = dm_view(&rec, riga_of(&rec), GameId(1), 0, lang).unwrap();
            let keys = labels(&kb.unwrap());
            let ships: Vec<&str> = keys
                .iter()
                .filter_map(|l| l.split(' ').nth(1))
                .filter(|w| !w.is_empty())
                .collect();
            assert_eq!(ships.len(), 12, "{lang}: {keys:?}");
            for ship in &ships {
                assert!(letters.contains(&(*ship).to_owned()), "{lang}: {keys:?}");
                assert!(legend.contains(ship), "{lang}: {ship} is not on the legend");
            }
            // The moves' keyboard in the group: each row begins with a ship and its point.
            if let Play::Riga(r) = &mut rec.play {
                r.game = Some(Game::new(&FLEET, &FLEET, riga::Side::South).unwrap());
            }
            let (_, kb) = live_message(&rec, riga_of(&rec), GameId(1));
            let kb = kb.unwrap();
            for row in &kb.inline_keyboard {
                let ship = row[0].text.split(' ').next().unwrap().to_owned();
                assert!(letters.contains(&ship), "{lang}: {:?}", row[0].text);
            }
        }
        // The words that list the fleet use the same letters.
        let g = Game::new(&FLEET, &FLEET, riga::Side::South).unwrap();
        let bad_setup =
            |lang| riga_text::move_error(lang, &g, Move::Pass, riga::game::MoveError::BadSetup);
        assert!(bad_setup(Lang::Ru).ends_with("1 К, 2 П, 6 Э, 2 С, 1 Т."));
        assert!(bad_setup(Lang::Bg).ends_with("1 К, 2 П, 6 Р, 2 Т, 1 М."));
        assert!(bad_setup(Lang::En).ends_with("1 C, 2 S, 6 D, 2 P, 1 M."));
        let rules = t(Lang::Ru, "rg-rules");
        assert!(
            rules.contains("6 эсминцев (Э)") && !rules.contains("ЭМ"),
            "{rules}"
        );
    }

    /// Two ships that only turn: sixty quiet moves draw.
    fn quiet_draw() -> Game {
        let ship = |side, col, row, facing| {
            Some(riga::Ship {
                side,
                kind: Kind::Destroyer,
                at: riga::Point { col, row },
                facing,
            })
        };
        let mut g = Game::custom(
            vec![
                ship(riga::Side::North, 0, 3, riga::Facing::South),
                ship(riga::Side::South, 11, 9, riga::Facing::North),
            ],
            Vec::new(),
            [0, 0],
            riga::Side::North,
        );
        while g.outcome().is_none() {
            let i = u8::from(g.turn() == riga::Side::South);
            g.play(g.turn(), Move::Left(i)).unwrap();
        }
        g
    }

    #[test]
    fn a_draw_is_told_without_a_handshake() {
        let mut rec = setup_record(Lang::Ru);
        for lang in Lang::ALL {
            rec.lang = lang;
            for game in [None, Some(quiet_draw())] {
                if let Play::Riga(r) = &mut rec.play {
                    r.game = game.clone();
                    r.end = Some(RigaEnd::Played(Outcome::Draw));
                }
                let text = end_texts(&rec, riga_of(&rec)).join("\n");
                assert!(!text.contains('🤝'), "{lang}: {text}");
                let expected = match (lang, game.is_some()) {
                    (Lang::Ru, false) => "Ничья.",
                    (Lang::Bg, false) => "Равенство.",
                    (Lang::En, false) => "A draw.",
                    (Lang::Ru, true) => "Ничья: 60 ходов подряд без потерь",
                    (Lang::Bg, true) => "Равенство: 60 хода поред без загуби",
                    (Lang::En, true) => "A draw: 60 moves in a row without a loss",
                };
                assert!(text.contains(expected), "{lang}: {text}");
            }
        }
    }
}
