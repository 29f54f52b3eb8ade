//! What the Mini App's live board is sent (issue 31): one game as one viewer may see it, as
//! JSON. Built from the engine's [`engine::View`] of that viewer, so by type it holds no unhit
//! ship, idle mine or land border of a field the viewer does not see whole; the tests scan
//! every state of whole games to be sure.
//!
//! A field's cells are one string, a character a cell in row-major order: `.` not known, `o` a
//! miss, `-` known empty, `+` shot in a salvo (its answer not told), `x` a hit, `#` a sunk
//! ship's cell, `*` a mine that went off, and only on a field the viewer sees whole: `S` a
//! ship's cell not hit, `m` a mine not hit.

use crate::game::lang::Lang;
use crate::game::placement::cell_by_cell;
use crate::game::record::{Editor, GameRecord, Tool};
use crate::view::editor::{hint, still_to_place};
use crate::view::i18n::{t, ta};
use crate::view::render::{self, escape, log_line};
use engine::{Coord, FieldView, Mark, Phase, SeatId, Size, Subject, Touching, Weapon};
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
///
/// A seat still placing its fleet gets its editor too (`editor`, with the draft's version):
/// the page and the chat's editor edit the same draft. Words are in `lang`, the viewer's.
pub fn state(
    rec: &GameRecord,
    viewer: Option<SeatId>,
    version: u64,
    lang: Lang,
    editor: Option<(&Editor, u64)>,
) -> Value {
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
        .filter_map(|e| log_line(lang, e, &rec.names, rec.alphabet, size, aimed))
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
    let placing =
        viewer.filter(|&me| *rec.game.phase() == Phase::Placement && !rec.game.is_ready(me));
    let (draft, draft_version) = match (placing, editor) {
        (Some(_), Some((ed, v))) => (editor_json(rec, lang, ed), v),
        (Some(_), None) => (editor_json(rec, lang, &Editor::new(rec.game.ruleset())), 0),
        (None, _) => (Value::Null, 0),
    };
    json!({
        "version": version,
        "draftVersion": draft_version,
        "draft": draft,
        "status": status(rec, viewer, lang),
        "labels": labels(lang),
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

/// The line over the board: whose turn it is, or what the viewer waits for.
fn status(rec: &GameRecord, viewer: Option<SeatId>, lang: Lang) -> String {
    match rec.game.phase() {
        Phase::Lobby => t(lang, "webapp-lobby"),
        Phase::Placement => match viewer {
            Some(me) if rec.game.is_ready(me) => t(lang, "webapp-waiting"),
            Some(_) => t(lang, "editor-title"),
            None => t(lang, "webapp-placing"),
        },
        Phase::Battle => {
            let turn = rec.game.turn();
            if viewer == Some(turn) {
                t(lang, "webapp-your-turn")
            } else {
                let name = rec.names.get(turn.index()).map_or("?", String::as_str);
                ta(lang, "webapp-turn-of", &[("name", escape(name).into())])
            }
        }
        Phase::Finished { .. } => t(lang, "webapp-over"),
    }
}

/// The page's own words: its buttons and hints.
fn labels(lang: Lang) -> Value {
    json!({
        "undo": t(lang, "btn-undo"),
        "clear": t(lang, "btn-clear"),
        "random": t(lang, "btn-random"),
        "perelman": t(lang, "btn-perelman"),
        "ready": t(lang, "btn-ready"),
        "mines": t(lang, "btn-mines"),
        "border": t(lang, "btn-border"),
        "randomBorder": t(lang, "btn-random-border"),
        "dock": t(lang, "webapp-dock"),
        "dragHint": t(lang, "webapp-drag-hint"),
        "toPlace": t(lang, "editor-to-place"),
        "problems": t(lang, "editor-problems"),
        "complete": t(lang, "editor-complete"),
        "conflict": t(lang, "webapp-conflict"),
    })
}

/// The cells a subject of a problem stands on, as indexes.
fn subject_cells(ed: &Editor, size: Size, subject: Subject) -> Vec<usize> {
    let cells: Vec<Coord> = match subject {
        Subject::Ship { index, .. } => ed
            .draft
            .ships()
            .get(index)
            .map(|s| s.cells.clone())
            .unwrap_or_default(),
        Subject::Mine { index } => ed.draft.mines().get(index).copied().into_iter().collect(),
        _ => Vec::new(),
    };
    cells.into_iter().map(|c| size.index(c)).collect()
}

/// A seat's editor for the page: its ships, mines and border, what is still to place (in
/// drag mode, the dock: a ship of each size still missing), every problem in the editor's
/// words with the cells it is about, and the buttons' words.
fn editor_json(rec: &GameRecord, lang: Lang, ed: &Editor) -> Value {
    let r = rec.game.ruleset();
    let size = r.size();
    let index = |c: &Coord| size.index(*c);
    let ships: Vec<Value> = ed
        .draft
        .ships()
        .iter()
        .map(|s| {
            json!({
                "cells": s.cells.iter().map(index).collect::<Vec<_>>(),
                "size": s.cells.len(),
                "name": render::kind_name(lang, s.kind),
            })
        })
        .collect();
    let mut kinds = r.fleet();
    kinds.dedup();
    let dock: Vec<Value> = kinds
        .into_iter()
        .filter_map(|kind| {
            let wanted = r.fleet().iter().filter(|&&k| k == kind).count();
            let placed = ed.draft.ships().iter().filter(|s| s.kind == kind).count();
            (placed < wanted).then(|| {
                json!({
                    "size": kind.size(),
                    "left": wanted - placed,
                    "name": render::kind_name(lang, kind),
                })
            })
        })
        .collect();
    let problems: Vec<Value> = ed
        .draft
        .problems(r)
        .iter()
        .filter(|p| !matches!(p.rule, engine::Rule::Missing { .. }))
        .take(12)
        .map(|p| {
            let mut cells = subject_cells(ed, size, p.subject);
            if let engine::Rule::Overlaps(other) | engine::Rule::Touches(other, _) = p.rule {
                cells.extend(subject_cells(ed, size, other));
            }
            cells.extend(p.cell.filter(|&c| size.contains(c)).map(|c| size.index(c)));
            cells.sort_unstable();
            cells.dedup();
            json!({
                "words": render::problem_words(lang, p, rec.alphabet, size),
                "cells": cells,
            })
        })
        .collect();
    let land: Option<String> = ed.draft.border().map(|b| {
        size.cells()
            .map(|c| if b.is_land(c) { 'L' } else { 'W' })
            .collect()
    });
    let missing = still_to_place(r, lang, &ed.draft);
    json!({
        "mode": if cell_by_cell(r) { "cells" } else { "drag" },
        "tool": match ed.tool { Tool::Ship => "ship", Tool::Mine => "mine", Tool::Border => "border" },
        "touching": match r.touching() {
            Touching::None => "none",
            Touching::Corners => "corners",
            Touching::Any => "any",
        },
        "ships": ships,
        "mines": ed.draft.mines().iter().map(index).collect::<Vec<_>>(),
        "minesWanted": r.mines,
        "land": land,
        "picked": ed.picked.iter().map(index).collect::<Vec<_>>(),
        "pending": ed.pending.as_ref().map(index),
        "dock": dock,
        "missing": missing.join(", "),
        "problems": problems,
        "complete": missing.is_empty() && problems.is_empty(),
        "hint": hint(rec, lang, ed),
        "confirm": ta(lang, "btn-confirm", &[("count", ed.picked.len().into())]),
    })
}

/// A Riga game (docs/rules.md §5) as `viewer` may see it on the page: the chart, and in the
/// set-up only the viewer's own order (the other's is secret until both are locked: it is
/// never sent), from the battle on every ship and mine (both sides see them all). What a tap
/// may do comes as the chat's own buttons (their words and callback data): the viewer's
/// set-up keyboard, or the moves of the side to move, each row one ship's; the page sends a
/// button's data back, and it goes through the very transition of that button.
pub fn riga_state(
    rec: &GameRecord,
    r: &crate::game::riga::RigaPlay,
    id: crate::game::GameId,
    viewer: Option<SeatId>,
    version: u64,
    lang: Lang,
) -> Value {
    use crate::game::riga::{seat_of, side_of};
    use crate::view::buttons::Button;
    use crate::view::riga as rv;
    use crate::view::riga_text;
    use riga::{Point, Side, Terrain};
    let chart: Vec<String> = (0..riga::ROWS)
        .map(|row| {
            (0..riga::COLS)
                .filter_map(|col| Point::new(col, row))
                .map(|p| match p.terrain() {
                    Terrain::Land => '#',
                    Terrain::Start(_) => 'o',
                    Terrain::Red(_) => 'r',
                    Terrain::Lighthouse => 'L',
                    Terrain::Sea => '.',
                })
                .collect()
        })
        .collect();
    let side_char = |s: Side| if s == Side::North { "n" } else { "s" };
    let mine_side = viewer.map(|s| side_of(s.0));
    let keys = |kb: Option<crate::view::keyboard::Keyboard>| -> Vec<Value> {
        kb.map(|kb| kb.inline_keyboard)
            .unwrap_or_default()
            .into_iter()
            .map(|row| {
                let keys: Vec<Value> = row
                    .into_iter()
                    .map(|k| {
                        let data = k.data().unwrap_or_default().to_owned();
                        let button = Button::parse(&data);
                        let ship = match button {
                            Some(Button::RigaMove(_, _, mv)) => rv::ship_of(mv),
                            _ => None,
                        };
                        let point = match button {
                            Some(Button::RigaTap(_, p)) => Some(p),
                            _ => None,
                        };
                        json!({
                            "label": k.text, "data": data, "ship": ship, "point": point,
                            "noop": button == Some(Button::Noop),
                        })
                    })
                    .collect();
                Value::Array(keys)
            })
            .collect()
    };
    let (phase, ships, mines, actions, order) = match &r.game {
        None => {
            // The set-up: the viewer's own keyboard and order, nothing of the other's.
            let own = viewer.and_then(|s| rv::dm_view(rec, r, id, s.0, lang));
            let order: Vec<Value> = match (viewer, mine_side) {
                (Some(s), Some(side)) => r
                    .orders
                    .get(s.index())
                    .map(|o| {
                        Point::starts(side)
                            .into_iter()
                            .zip(o)
                            .map(|(p, k)| {
                                json!({
                                    "col": p.col, "row": p.row,
                                    "letter": riga_text::ship_letter(lang, *k).to_string(),
                                    "name": riga_text::ship_name(lang, *k),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            let phase = if rec.is_finished() { "over" } else { "setup" };
            (
                phase,
                Vec::new(),
                Vec::new(),
                keys(own.and_then(|(_, kb)| kb)),
                order,
            )
        }
        Some(game) => {
            let ships: Vec<Value> = game
                .ships()
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.map(|s| (i, s)))
                .map(|(i, s)| {
                    json!({
                        "i": i,
                        "side": side_char(s.side),
                        "own": Some(s.side) == mine_side,
                        "letter": riga_text::ship_letter(lang, s.kind).to_string(),
                        "name": riga_text::ship_name(lang, s.kind),
                        "arrow": riga_text::arrow(s.facing).to_string(),
                        "col": s.at.col, "row": s.at.row,
                    })
                })
                .collect();
            let mines: Vec<Value> = game
                .mines()
                .iter()
                .map(|p| json!({ "col": p.col, "row": p.row }))
                .collect();
            // Only the side to move's player gets its moves.
            let moving = r.to_move().map(seat_of);
            let actions = match (viewer, moving) {
                (Some(me), Some(m)) if me.0 == m && !rec.is_finished() => {
                    keys(rv::move_keyboard(rec, r, id, lang))
                }
                _ => Vec::new(),
            };
            let phase = if rec.is_finished() { "over" } else { "battle" };
            (phase, ships, mines, actions, Vec::new())
        }
    };
    let status = match (phase, viewer) {
        ("setup", Some(s)) if r.ready.get(s.index()).copied().unwrap_or(false) => {
            t(lang, "webapp-waiting")
        }
        ("setup", Some(_)) => t(lang, "webapp-riga-order"),
        ("setup", None) => t(lang, "webapp-placing"),
        ("battle", _) if !actions.is_empty() => t(lang, "webapp-riga-your-turn"),
        ("battle", _) => {
            let seat = r.to_move().map_or(0, seat_of);
            let name = rec.names.get(usize::from(seat)).map_or("?", String::as_str);
            ta(lang, "webapp-turn-of", &[("name", escape(name).into())])
        }
        _ => t(lang, "webapp-over"),
    };
    json!({
        "version": version,
        "draftVersion": 0,
        "phase": phase,
        "status": status,
        "me": viewer.map(|s| s.0),
        "riga": {
            "chart": chart,
            "side": mine_side.map(side_char),
            "ships": ships,
            "mines": mines,
            "order": order,
            "picked": viewer.and_then(|s| r.picked.get(s.index()).copied().flatten()),
            "last": r.last.map(|(a, b)| json!([[a.col, a.row], [b.col, b.row]])),
            "actions": actions,
        },
        "log": r.lines.iter().rev().take(LOG_LINES).rev().map(|l| escape(l)).collect::<Vec<_>>(),
        "labels": labels(lang),
    })
}

/// The language a page is shown in, unless it is the game's chat's (`None`): the viewer's
/// own choice (`/lang`), else the `language_code` their Telegram puts in `initData`, else
/// the one Telegram last told the bot for them. A member who arrives by the group's link
/// and never wrote to the bot reads their own language, not the chat's.
pub fn viewer_lang(
    chosen: Option<Lang>,
    init_data_code: Option<&str>,
    detected: Option<Lang>,
) -> Option<Lang> {
    chosen
        .or_else(|| {
            init_data_code
                .filter(|c| !c.is_empty())
                .map(|c| Lang::from_telegram(Some(c)))
        })
        .or(detected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{random_fleet, Action, Game, PlayerId, Ruleset};
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn a_page_speaks_the_viewers_choice_else_their_telegrams_else_the_chats() {
        // Chosen with /lang: that, whatever Telegram says.
        assert_eq!(
            viewer_lang(Some(Lang::Bg), Some("ru"), Some(Lang::En)),
            Some(Lang::Bg)
        );
        // Never wrote to the bot, arrived by the group's link: their initData's language.
        assert_eq!(viewer_lang(None, Some("ru"), None), Some(Lang::Ru));
        assert_eq!(
            viewer_lang(None, Some("bg"), Some(Lang::En)),
            Some(Lang::Bg)
        );
        assert_eq!(viewer_lang(None, Some("de"), None), Some(Lang::En));
        // No language in initData: the one Telegram told before, else the chat's (None).
        assert_eq!(viewer_lang(None, None, Some(Lang::Ru)), Some(Lang::Ru));
        assert_eq!(viewer_lang(None, Some(""), None), None);
        assert_eq!(viewer_lang(None, None, None), None);
    }

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
                    let s = state(&rec, viewer, 1, Lang::Ru, None);
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
            let s = state(&rec, None, 2, Lang::Ru, None);
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
        let s = state(&rec, Some(shooter), 9, Lang::Ru, None);
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
        // In the viewer's words: the log and whose turn it is.
        assert_eq!(s["status"], "Стреляет P&lt;1&gt;.");
        let en = state(&rec, Some(shooter), 9, Lang::En, None);
        assert!(en["log"][0].as_str().unwrap().contains("miss"), "{en}");
        assert_eq!(en["labels"]["ready"], "Ready");
        let shot = s["fields"][target.index()]["cells"].as_str().unwrap();
        let mark = shot.chars().nth(5 * 10 + 4).unwrap();
        assert!("ox#".contains(mark), "{shot}");
    }
}
