//! What the Mini App's live board is sent (issue 31): one game as one viewer may see it, as
//! JSON. Built from the engine's [`engine::View`] of that viewer, so by type it holds no unhit
//! ship, idle mine or land border of a field the viewer does not see whole; the tests scan
//! every state of whole games to be sure.
//!
//! A field's cells are one string, a character a cell in row-major order: `.` not known, `o` a
//! miss, `-` known empty, `+` shot in a salvo (its answer not told), `x` a hit, `#` a sunk
//! ship's cell, `*` a mine that went off, and only on a field the viewer sees whole: `S` a
//! ship's cell not hit, `m` a mine not hit.

use crate::game::record::GameRecord;
use crate::view::render::{escape, log_line};
use engine::{FieldView, Mark, Phase, SeatId, Weapon};
use serde_json::{json, Value};

/// A mark as the page's character.
pub fn mark_char(m: Mark) -> char {
    match m {
        Mark::Unknown => '.',
        Mark::Miss => 'o',
        Mark::Halo => '-',
        Mark::Shot => '+',
        Mark::Hit => 'x',
        Mark::Sunk => '#',
        Mark::Mine => '*',
        Mark::Ship => 'S',
        Mark::IdleMine => 'm',
    }
}

/// How many results the page gets with each state.
pub const LOG_LINES: usize = 8;

fn field_json(f: &FieldView, name: &str) -> Value {
    let cells: String = f.marks.iter().map(|&m| mark_char(m)).collect();
    let land: Option<String> = f.border.as_ref().map(|b| {
        f.size
            .cells()
            .map(|c| if b.is_land(c) { 'L' } else { 'W' })
            .collect()
    });
    json!({
        "seat": f.seat.0,
        "name": escape(name),
        "cells": cells,
        "land": land,
        "whole": f.full,
        "afloat": f.afloat,
        "retired": f.retired,
        "sunk": f.sunk.len(),
        "weapons": Weapon::ALL.map(|w| f.weapons[w.index()]),
        "scans": f.scans.iter().map(|s| json!({
            "x": s.center.x, "y": s.center.y, "count": s.count,
        })).collect::<Vec<_>>(),
        "runs": f.runs.iter().map(|r| json!({
            "x": r.from.x, "y": r.from.y, "len": r.len,
            "heading": crate::view::render::arrow(r.heading),
        })).collect::<Vec<_>>(),
    })
}

/// The game `rec` as `viewer` (a seat, or `None` for anyone else: the public) may see it: its
/// fields, whose turn, the phase, the latest results in the game's language, the generation
/// of its buttons (a tap sends it back, so a tap on an old board is refused as a stale
/// button is), and the record's version (the page shows a state only if it is newer than the
/// one it has).
pub fn state(rec: &GameRecord, viewer: Option<SeatId>, version: u64) -> Value {
    let view = match viewer {
        Some(seat) => rec.game.view_for(seat),
        None => rec.game.public_view(),
    };
    let size = rec.game.ruleset().size();
    let fields: Vec<Value> = view
        .fields
        .iter()
        .map(|f| field_json(f, rec.names.get(f.seat.index()).map_or("?", String::as_str)))
        .collect();
    let aimed = rec.game.seats().len() > 2;
    let start = rec.log.len().saturating_sub(LOG_LINES);
    let log: Vec<String> = rec.log[start..]
        .iter()
        .filter_map(|e| log_line(rec.lang, e, &rec.names, rec.alphabet, size, aimed))
        .collect();
    let phase = match rec.game.phase() {
        Phase::Lobby => "lobby",
        Phase::Placement => "placement",
        Phase::Battle => "battle",
        Phase::Finished { .. } => "over",
    };
    let columns: Vec<String> = (0..size.width)
        .map(|x| rec.alphabet.column_label(x, size.width).to_string())
        .collect();
    json!({
        "version": version,
        "generation": rec.delivery.generation,
        "phase": phase,
        "me": viewer.map(|s| s.0),
        "turn": rec.game.turn().0,
        "width": size.width,
        "height": size.height,
        "columns": columns,
        "fields": fields,
        "log": log,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::lang::Lang;
    use engine::{random_fleet, Action, Game, PlayerId, Ruleset};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// A game of `ruleset` among `seats` people, placed at random and in battle.
    fn battle(ruleset: Ruleset, seats: u8, seed: u64) -> (GameRecord, StdRng) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(ruleset.clone());
        for p in 0..seats {
            game.apply(Action::Join(PlayerId(u64::from(p) + 1)), 0, &mut rng)
                .unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..seats {
            let fleet = random_fleet(&ruleset, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        let mut rec = GameRecord::new(game, -1, 0);
        rec.names = (0..seats).map(|s| format!("P<{s}>")).collect();
        rec.lang = Lang::Ru;
        (rec, rng)
    }

    /// Every character of the fields of `state` that a viewer who does not see the field
    /// whole must never get.
    fn secrets(state: &Value) -> Vec<String> {
        let mut found = Vec::new();
        for f in state["fields"].as_array().unwrap() {
            if f["whole"].as_bool().unwrap() {
                continue;
            }
            let cells = f["cells"].as_str().unwrap();
            if cells.contains(['S', 'm']) {
                found.push(format!("field {}: {cells}", f["seat"]));
            }
            if !f["land"].is_null() {
                found.push(format!("field {}: the land border", f["seat"]));
            }
        }
        found
    }

    #[test]
    fn no_state_a_seat_or_the_public_gets_holds_anothers_secret_before_the_end() {
        let rulesets = [
            Ruleset {
                mines: 1,
                arsenal: 1,
                ..Ruleset::default()
            },
            Ruleset::land_sea_air(),
            Ruleset {
                players: engine::Players::Teams,
                ..Ruleset::default()
            },
        ];
        for (i, ruleset) in rulesets.into_iter().enumerate() {
            let seats = ruleset.seats() as u8;
            let (mut rec, mut rng) = battle(ruleset, seats, 40 + i as u64);
            let mut states = 0;
            while !rec.game.is_finished() {
                for viewer in (0..seats).map(|s| Some(SeatId(s))).chain([None]) {
                    let s = state(&rec, viewer, 1);
                    assert_eq!(secrets(&s), Vec::<String>::new(), "{viewer:?}");
                    // Own fields (and a teammate's) are whole, with their ships.
                    if let Some(me) = viewer {
                        let own = &s["fields"][me.index()];
                        assert!(own["whole"].as_bool().unwrap());
                        assert!(own["cells"].as_str().unwrap().contains(['S', 'x', '#']));
                    }
                    states += 1;
                }
                let action = engine::ai::choose_shot(
                    &rec.game.view_for(rec.game.turn()),
                    rec.game.turn(),
                    engine::ai::Level::Easy,
                    &mut rng,
                );
                let action = match (rec.game.mine_choice(), action) {
                    (Some(m), _) => {
                        let cell = engine::ai::choose_give_up(
                            &rec.game.view_for(m.seat),
                            m.seat,
                            &mut rng,
                        )
                        .unwrap();
                        Action::GiveUp(m.seat, cell)
                    }
                    (None, Some((target, cell))) => Action::Fire(rec.game.turn(), target, cell),
                    (None, None) => break,
                };
                let events = rec.game.apply(action, 0, &mut rng).unwrap();
                rec.log.extend(events);
            }
            assert!(states > 100, "{states}");
            // At the end every field is whole for everyone.
            let s = state(&rec, None, 2);
            assert_eq!(s["phase"], "over");
            assert!(s["fields"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["whole"].as_bool().unwrap()));
        }
    }

    #[test]
    fn a_state_tells_the_turn_the_columns_and_the_latest_results_with_names_escaped() {
        let (mut rec, mut rng) = battle(Ruleset::default(), 2, 7);
        rec.alphabet = engine::Alphabet::Russian;
        let shooter = rec.game.turn();
        let target = rec.game.targets(shooter)[0];
        let cell = engine::Coord::new(4, 5);
        let events = rec
            .game
            .apply(Action::Fire(shooter, target, cell), 0, &mut rng)
            .unwrap();
        rec.log.extend(events);
        let s = state(&rec, Some(shooter), 9);
        assert_eq!(s["version"], 9);
        assert_eq!(s["me"], shooter.0);
        assert_eq!(s["phase"], "battle");
        assert_eq!(s["columns"][4], "д");
        let log = s["log"].as_array().unwrap();
        assert!(!log.is_empty());
        let line = log.last().unwrap().as_str().unwrap();
        assert!(line.contains("д6"), "{line}");
        assert!(line.contains("P&lt;"), "names are escaped: {line}");
        assert!(!s.to_string().contains("P<"), "{s}");
        let shot = s["fields"][target.index()]["cells"].as_str().unwrap();
        let mark = shot.chars().nth(5 * 10 + 4).unwrap();
        assert!("ox#".contains(mark), "{shot}");
    }
}
