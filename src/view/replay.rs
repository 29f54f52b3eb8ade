//! A finished game's replay, in a private chat: one message stepping through the game with
//! ⏮ ◀ ▶ ⏭, each step a result of the game's log with both fields as they were after it
//! (every ship shown: the game is over), and at the last step the reveal and how to check the
//! commitments. Text, so it fits any variant's fields and the message is edited in place.

use super::buttons::Button;
use super::group::end_words_in;
use super::keyboard::{Key, Keyboard};
use super::render::{escape, field_text, log_line};
use super::reveal::fleet_words;
use crate::game::id::GameId;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::record::Play;
use crate::view::i18n::{t, ta};
use engine::{Coord, Event, SeatId};

pub use super::reveal::replay_key;

/// The results a replay steps through: the log's shots, salvoes, cells given up after a mine
/// and the players who left (not the reminders, nor the mine's question).
pub fn steps(rec: &GameRecord) -> Vec<&Event> {
    rec.log
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Shot { .. }
                    | Event::Salvo { .. }
                    | Event::Radar { .. }
                    | Event::AirStrike { .. }
                    | Event::Torpedo { .. }
                    | Event::GaveUp { .. }
                    | Event::Surrendered(_)
                    | Event::Forfeit(_)
                    | Event::Eliminated(_)
            )
        })
        .collect()
}

/// The replay of finished game `id` at `step` (0: before the first result; clamped to the
/// last), in `lang`: its text (HTML) and its buttons. `None` for a game not finished (its
/// fleets are secret), one called off before its battle, or a Riga game begun before
/// replays were kept.
pub fn replay_view(
    rec: &GameRecord,
    id: GameId,
    step: usize,
    lang: Lang,
) -> Option<(String, Keyboard)> {
    match &rec.play {
        Play::Riga(r) => return riga_replay(rec, r, id, step, lang),
        Play::SeaBattle(_) => {}
    }
    if !rec.game.is_finished() || rec.game.fleet(SeatId(0)).is_none() {
        return None;
    }
    let steps = steps(rec);
    let last = steps.len();
    // The pages: each step, then the reveal on a page of its own (every field of four
    // players on a big field and four fleets in words would not fit in one message).
    let reveal = last + 1;
    let step = step.min(reveal);
    let ruleset = rec.game.ruleset();
    let size = ruleset.size();
    let name = |s: SeatId| escape(rec.names.get(s.index()).map_or("?", String::as_str));
    let seats: Vec<SeatId> = (0..rec.game.seats().len() as u8).map(SeatId).collect();
    let players: Vec<String> = seats.iter().map(|&s| name(s)).collect();
    let title = ta(
        lang,
        "replay-title",
        &[
            ("game", id.0.to_string().into()),
            ("players", players.join(" — ").into()),
        ],
    );
    if step == reveal {
        let mut text = format!(
            "<b>{title}</b>\n{}\n\n<b>{}</b>\n\n{}",
            t(lang, "replay-reveal"),
            end_words_in(rec, lang),
            t(lang, "end-reveal")
        );
        for &s in &seats {
            let (Some((layout, salt)), Some(fleet)) = (rec.game.reveal(s), rec.game.fleet(s))
            else {
                continue;
            };
            let words = fleet_words(lang, fleet, rec.alphabet, size, ruleset.mines > 0);
            let commitment = rec.game.commitment(s).unwrap_or_default();
            text.push_str(&format!(
                "\n\n{}: {words}\n<code>{layout}|{salt}</code>\nSHA-256: <code>{commitment}</code>",
                name(s)
            ));
        }
        text.push_str(&format!("\n\n{}", t(lang, "replay-check")));
        return Some((text, steps_keyboard(id, step, reveal)));
    }
    let mut text = format!(
        "<b>{title}</b>\n{}",
        ta(
            lang,
            "replay-step",
            &[("step", step.into()), ("count", last.into())]
        )
    );
    let (shots, empty) = marks_of(&steps[..step], size);
    let fields = rec.game.fields_after_with(&shots, &empty);
    for (s, field) in seats.iter().zip(&fields) {
        text.push_str(&format!(
            "\n\n<b>{}</b>\n<pre>{}</pre>",
            name(*s),
            field_text(field, rec.alphabet)
        ));
    }
    let aimed = seats.len() > 2;
    let line = match step.checked_sub(1).and_then(|i| steps.get(i)) {
        Some(e) => log_line(lang, e, &rec.names, rec.alphabet, size, aimed).unwrap_or_default(),
        None => t(lang, "replay-start"),
    };
    text.push_str(&format!("\n\n{line}"));
    if step == last {
        text.push_str(&format!(
            "\n\n<b>{}</b>\n{}",
            end_words_in(rec, lang),
            t(lang, "replay-to-reveal")
        ));
    }
    Some((text, steps_keyboard(id, step, reveal)))
}

/// The cells shot by `steps` (shots, cells given up, an air strike's, where a torpedo
/// stopped), and those the arsenal told empty (a torpedo's run, a radar's square that counted
/// nothing), each with the field it is of.
type Marks = (Vec<(SeatId, Coord)>, Vec<(SeatId, Coord)>);

fn marks_of(steps: &[&Event], size: engine::Size) -> Marks {
    let (mut shots, mut empty) = (Vec::new(), Vec::new());
    for e in steps {
        match e {
            Event::Shot { target, cell, .. } => shots.push((*target, *cell)),
            Event::GaveUp { seat, cell, .. } => shots.push((*seat, *cell)),
            Event::AirStrike { target, cells, .. } => {
                shots.extend(cells.iter().map(|(c, _)| (*target, *c)));
            }
            Event::Torpedo {
                target,
                passed,
                hit,
                ..
            } => {
                empty.extend(passed.iter().map(|c| (*target, *c)));
                shots.extend(hit.iter().map(|(c, _)| (*target, *c)));
            }
            Event::Radar {
                target,
                center,
                count: 0,
                ..
            } => {
                empty.extend(
                    engine::square(*center, size)
                        .into_iter()
                        .map(|c| (*target, c)),
                );
            }
            _ => {}
        }
    }
    (shots, empty)
}

/// ⏮ ◀ ▶ ⏭ for a replay at `step` of `last`; a button that would show the step shown is a
/// label.
fn steps_keyboard(id: GameId, step: usize, last: usize) -> Keyboard {
    let key = |label: &str, to: usize| {
        if to == step {
            Key::callback("·", Button::Noop.to_string())
        } else {
            Key::callback(label, Button::Replay(id, to as u16).to_string())
        }
    };
    Keyboard::new([vec![
        key("⏮", 0),
        key("◀", step.saturating_sub(1)),
        key("▶", (step + 1).min(last)),
        key("⏭", last),
    ]])
}

/// A Riga game's replay: the board after each move, the move in words, and the end.
fn riga_replay(
    rec: &GameRecord,
    r: &crate::game::riga_state::RigaPlay,
    id: GameId,
    step: usize,
    lang: Lang,
) -> Option<(String, Keyboard)> {
    use crate::view::riga_text::{board, move_line, move_points};
    r.end.as_ref()?;
    let start = r.start.as_ref()?;
    let last = r.history.len();
    let step = step.min(last);
    let mut game = start.clone();
    let mut shown = (t(lang, "replay-riga-start"), None);
    for &mv in &r.history[..step] {
        let before = game.clone();
        let lost = game.play(before.turn(), mv).unwrap_or_default();
        shown = (
            move_line(lang, &before, mv, &lost),
            move_points(&before, mv),
        );
    }
    let players: Vec<String> = (0..2u8)
        .map(|s| escape(rec.names.get(usize::from(s)).map_or("?", String::as_str)))
        .collect();
    let mut text = format!(
        "<b>{}</b>\n{}\n\n<pre>{}</pre>\n\n{}",
        ta(
            lang,
            "replay-title",
            &[
                ("game", id.0.to_string().into()),
                ("players", players.join(" — ").into()),
            ]
        ),
        ta(
            lang,
            "replay-step",
            &[("step", step.into()), ("count", last.into())]
        ),
        escape(&board(lang, &game, shown.1)),
        escape(&shown.0)
    );
    if step == last {
        text.push_str(&format!(
            "\n\n<b>{}</b>",
            escape(&crate::view::riga::end_words_in(rec, r, lang))
        ));
    }
    Some((text, steps_keyboard(id, step, last)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::group::visible_len;
    use engine::{random_fleet, Action, Game, PlayerId, Ruleset};
    use rand::SeedableRng;

    #[test]
    fn a_game_with_the_arsenal_replays_to_the_fields_it_ended_with() {
        use rand::Rng;
        for seed in 0..4 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let r = Ruleset {
                arsenal: 2,
                mines: 1,
                ..Ruleset::default()
            };
            let mut game = Game::new(r.clone());
            for p in [7, 8] {
                game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
            }
            game.apply(Action::Start, 0, &mut rng).unwrap();
            for s in 0..2 {
                let fleet = random_fleet(&r, &mut rng).unwrap();
                game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                    .unwrap();
            }
            let mut rec = GameRecord::new(game, -100, 0);
            rec.names = vec!["Anna".into(), "Boris".into()];
            let size = r.size();
            let mut weapons = 0;
            while !rec.game.is_finished() {
                if let Some(m) = rec.game.mine_choice() {
                    let own = rec.game.fleet(m.seat).unwrap();
                    let c = own
                        .ship_cells()
                        .find(|&c| !rec.game.is_known(m.seat, c))
                        .unwrap();
                    let events = rec
                        .game
                        .apply(Action::GiveUp(m.seat, c), 0, &mut rng)
                        .unwrap();
                    rec.push_log(&events);
                    continue;
                }
                let shooter = rec.game.turn();
                let target = SeatId(1 - shooter.0);
                let unknown: Vec<Coord> = size
                    .cells()
                    .filter(|&c| !rec.game.is_known(target, c))
                    .collect();
                let c = unknown[rng.gen_range(0..unknown.len())];
                let left = rec.game.weapons_left(shooter);
                let action = match rng.gen_range(0..6) {
                    0 if left[0] > 0 => Action::Radar(shooter, target, c),
                    1 if left[1] > 0 => Action::AirStrike(shooter, target, c),
                    2 if left[2] > 0 && !engine::headings_from(c, size).is_empty() => {
                        let h = engine::headings_from(c, size)[0];
                        Action::Torpedo(shooter, target, c, Some(h))
                    }
                    _ => Action::Fire(shooter, target, c),
                };
                weapons += usize::from(!matches!(action, Action::Fire(..)));
                let events = rec.game.apply(action, 0, &mut rng).unwrap();
                rec.push_log(&events);
            }
            assert!(weapons > 0, "seed {seed} used no weapon");
            let last = steps(&rec).len();
            let (shots, empty) = marks_of(&steps(&rec), size);
            let replayed = rec.game.fields_after_with(&shots, &empty);
            let ended = rec.game.public_view().fields;
            for (a, b) in replayed.iter().zip(&ended) {
                assert_eq!(a.marks, b.marks, "seed {seed}: the replay's last step");
            }
            let (text, _) = replay_view(&rec, GameId(3), last, Lang::Ru).unwrap();
            assert!(visible_len(&text) <= crate::view::group::MAX_TEXT);
        }
    }

    fn finished() -> GameRecord {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let r = Ruleset::default();
        let mut game = Game::new(r.clone());
        for p in [7, 8] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        let mut rec = GameRecord::new(game, -100, 0);
        rec.names = vec!["Anna".into(), "Boris".into()];
        for s in 0..2 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            let events = rec
                .game
                .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
            rec.push_log(&events);
        }
        let size = r.size();
        let mut next = [0usize; 2];
        while !rec.game.is_finished() {
            let shooter = rec.game.turn();
            let target = SeatId(1 - shooter.0);
            let c = loop {
                let c = size.coord(next[shooter.index()]);
                next[shooter.index()] += 1;
                if !rec.game.is_known(target, c) {
                    break c;
                }
            };
            let events = rec
                .game
                .apply(Action::Fire(shooter, target, c), 0, &mut rng)
                .unwrap();
            rec.push_log(&events);
        }
        rec
    }

    #[test]
    fn every_step_shows_its_result_and_the_last_the_reveal_within_telegrams_limit() {
        let rec = finished();
        let n = steps(&rec).len();
        assert!(n > 20);
        for lang in Lang::ALL {
            for step in 0..=n + 1 {
                let (text, kb) = replay_view(&rec, GameId(9), step, lang).unwrap();
                assert!(visible_len(&text) <= 4096, "{lang:?} step {step}");
                let expected = match step {
                    0 => t(lang, "replay-start"),
                    _ if step > n => t(lang, "replay-check"),
                    _ => log_line(
                        lang,
                        steps(&rec)[step - 1],
                        &rec.names,
                        rec.alphabet,
                        rec.game.ruleset().size(),
                        false,
                    )
                    .unwrap(),
                };
                assert!(text.contains(&expected), "{lang:?} step {step}: {text}");
                assert_eq!(text.contains("SHA-256"), step == n + 1);
                let data: Vec<String> = kb.inline_keyboard[0]
                    .iter()
                    .filter_map(|k| k.data().map(str::to_owned))
                    .collect();
                // The way back and forward, never to the step shown.
                assert_eq!(data.contains(&format!("rp:9:{}", step + 1)), step <= n);
                assert_eq!(
                    data.contains(&format!("rp:9:{}", step.wrapping_sub(1))),
                    step > 0
                );
                assert!(!data.contains(&format!("rp:9:{step}")));
            }
        }
        // Past the end is the reveal.
        assert_eq!(
            replay_view(&rec, GameId(9), n + 5, Lang::En),
            replay_view(&rec, GameId(9), n + 1, Lang::En)
        );
    }

    #[test]
    fn a_replay_link_names_the_game_and_a_key_from_its_commitments() {
        use crate::view::buttons::{parse_replay_payload, replay_payload};
        let rec = finished();
        let key = replay_key(&rec).unwrap();
        assert_eq!(key.len(), 12);
        assert!(key.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(replay_key(&rec.clone()), Some(key.clone()));
        let payload = replay_payload(GameId(41), &key);
        // A deep link's payload: at most 64 of A–Z, a–z, 0–9, _ and -.
        assert!(payload.len() <= 64);
        assert!(payload
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
        assert_eq!(
            parse_replay_payload(&payload),
            Some((GameId(41), key.clone()))
        );
        assert_eq!(parse_replay_payload("rp41"), None);
        assert_eq!(parse_replay_payload("j41"), None);
        // Another game's fleets, another key.
        let mut other = finished();
        other.game = {
            let mut rng = rand::rngs::StdRng::seed_from_u64(99);
            let r = Ruleset::default();
            let mut g = Game::new(r.clone());
            for p in [7, 8] {
                g.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
            }
            g.apply(Action::Start, 0, &mut rng).unwrap();
            for s in 0..2 {
                let fleet = random_fleet(&r, &mut rng).unwrap();
                g.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                    .unwrap();
            }
            g
        };
        assert_ne!(replay_key(&other), Some(key));
    }

    #[test]
    fn a_game_not_finished_has_no_replay() {
        let mut rec = finished();
        rec.game = Game::new(Ruleset::default());
        assert!(replay_view(&rec, GameId(9), 0, Lang::En).is_none());
    }

    /// A Riga game played some moves (the first legal move each time) and surrendered: its
    /// replay replays exactly those moves from the start position, in the words the group
    /// read, and ends with the surrender.
    #[test]
    fn a_riga_replay_shows_every_move_in_order_and_the_end() {
        use crate::game::record::Play;
        use crate::game::riga::{play_move, setup, surrender, SetupTap};
        use crate::game::riga_state::RigaPlay;
        use crate::game::{lobby, riga_state};
        let mut rng = rand::rngs::StdRng::seed_from_u64(6);
        let duel = lobby::riga_duel(&Ruleset::default());
        let mut rec = GameRecord::new(Game::new(duel), -1, 0);
        lobby::join(&mut rec, PlayerId(1), "Anna", None, 0).unwrap();
        lobby::join(&mut rec, PlayerId(2), "Boris", None, 0).unwrap();
        rec.play = Play::Riga(RigaPlay::default());
        lobby::start(&mut rec, None, 0, &mut rng).unwrap();
        for p in [1, 2] {
            setup(&mut rec, PlayerId(p), SetupTap::Lock, None, 0, &mut rng).unwrap();
        }
        let line = |l: Lang, before: &::riga::Game, mv: ::riga::Move, lost: &[usize]| {
            crate::view::riga_text::move_line(l, before, mv, lost)
        };
        let mut lines = Vec::new();
        for _ in 0..30 {
            let Play::Riga(r) = &rec.play else {
                panic!("a Riga record")
            };
            let game = r.game.clone().unwrap();
            let side = game.turn();
            let player = PlayerId(u64::from(riga_state::seat_of(side)) + 1);
            let mv = game.legal_moves()[0];
            let lost = play_move(&mut rec, player, mv, None, None, 1, &line).unwrap();
            lines.push(crate::view::riga_text::move_line(
                Lang::En,
                &game,
                mv,
                &lost,
            ));
        }
        assert!(
            replay_view(&rec, GameId(3), 0, Lang::En).is_none(),
            "not over yet"
        );
        surrender(&mut rec, PlayerId(1)).unwrap();
        for (k, expected) in lines.iter().enumerate() {
            let (text, _) = replay_view(&rec, GameId(3), k + 1, Lang::En).unwrap();
            assert!(text.contains(&escape(expected)), "step {}: {text}", k + 1);
            assert!(text.contains(&format!("Step {} of 30", k + 1)), "{text}");
        }
        let (end, kb) = replay_view(&rec, GameId(3), 30, Lang::En).unwrap();
        assert!(end.contains("Anna"), "{end}");
        let data: Vec<&str> = kb.inline_keyboard[0].iter().filter_map(Key::data).collect();
        assert!(
            data.contains(&"rp:3:29") && !data.contains(&"rp:3:31"),
            "{data:?}"
        );
        // A game begun before replays were kept has none.
        let mut old = rec.clone();
        if let Play::Riga(r) = &mut old.play {
            r.start = None;
        }
        assert!(replay_view(&old, GameId(3), 0, Lang::En).is_none());
    }

    /// Four players on the big field with long names, given up at once: every step of the
    /// replay, the last with four fleets revealed, fits in a message.
    #[test]
    fn four_players_on_the_big_field_fit_in_one_message() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        for r in [
            Ruleset {
                players: engine::Players::FreeForAll(4),
                ..Ruleset::big()
            },
            Ruleset {
                players: engine::Players::FreeForAll(4),
                ..Ruleset::land_sea_air()
            },
        ] {
            let mut game = Game::new(r.clone());
            for p in 1..=4 {
                game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
            }
            game.apply(Action::Start, 0, &mut rng).unwrap();
            let mut rec = GameRecord::new(game, -100, 0);
            rec.names = (0..4).map(|i| format!("{}{i}", "Ш".repeat(60))).collect();
            for s in 0..4 {
                let fleet = random_fleet(&r, &mut rng).unwrap();
                rec.game
                    .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                    .unwrap();
            }
            for s in 0..3 {
                let events = rec
                    .game
                    .apply(Action::Surrender(SeatId(s)), 0, &mut rng)
                    .unwrap();
                rec.push_log(&events);
            }
            assert!(rec.game.is_finished());
            let n = steps(&rec).len();
            for lang in Lang::ALL {
                for step in 0..=n + 1 {
                    let (text, _) = replay_view(&rec, GameId(9), step, lang).unwrap();
                    assert!(
                        visible_len(&text) <= 4096,
                        "{lang:?} step {step}: {} characters",
                        visible_len(&text)
                    );
                }
            }
        }
    }
}
