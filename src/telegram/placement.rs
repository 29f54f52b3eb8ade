//! The placement editor in the private chat: the field as monospace text, a keyboard of one
//! block of cells at a time, and Undo, Clear, Random, Perelman, Ready. A straight ship is
//! placed by tapping its two ends; where ships (or land-sea-air units) may take other shapes,
//! by tapping its cells and Confirm. Mines have a tool of their own, and so has the land-sea
//! border (a tap moves its column by a row; or a random border). Tapping a ship removes it.

use super::chat::edit_dm;
use super::{answer, answer_store_error, now, Ctx, HandlerResult};
use crate::game::delivery::Effect;
use crate::game::lang::Lang;
use crate::game::record::{Editor, GameRecord, Tool};
use crate::store::{GameId, StoreError};
use crate::view::buttons::{Button, EditOp};
use crate::view::editor::{cell_by_cell, editor_keyboard, editor_text, viewport};
use crate::view::i18n::{t, ta};
use crate::view::render::{self};
use engine::{
    perelman_fleet, random_fleet, Action, ActionError, Coord, Event, Phase, PlayerId, SeatId,
};
use teloxide::types::CallbackQuery;

/// What an edit did, for the answer to the tap.
enum Edited {
    Placed(engine::Kind),
    Pending,
    Picked,
    Removed,
    Moved,
    Nothing,
    /// Refused, with the problem in words.
    Refused(String),
}

/// The editor's buttons.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let uid = q.from.id.0;
    let id = match button {
        Button::Cell(g, _) | Button::Block(g, _) | Button::Edit(g, _) => g,
        _ => return Ok(()),
    };
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => return answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    if let Some(again) = rec.answered(&q.id.0) {
        return answer(ctx, q, again.text.clone(), again.alert).await;
    }
    let Some(seat) = rec.game.seat_of(PlayerId(uid)) else {
        return answer(ctx, q, t(lang, "error-not-a-player"), true).await;
    };
    if rec.game.phase() != &Phase::Placement {
        let key = if rec.game.is_finished() {
            "error-game-over"
        } else {
            "error-out-of-date"
        };
        return answer(ctx, q, t(lang, key), true).await;
    }
    if rec.game.is_ready(seat) {
        return answer(ctx, q, t(lang, "editor-locked"), true).await;
    }
    if button == Button::Edit(id, EditOp::Ready) {
        return ready(ctx, q, lang, id, seat).await;
    }
    let ruleset = rec.game.ruleset().clone();
    let size = ruleset.size();
    let vp = viewport(&rec);
    let alphabet = rec.alphabet;
    let rng = ctx.fork();
    let done = ctx
        .store
        .edit_draft(
            id,
            seat,
            || Editor::new(&ruleset),
            |ed: &mut Editor| {
                let r = &ruleset;
                Ok::<_, ()>(match button {
                    Button::Block(_, b) => {
                        ed.block = b % vp.blocks() as u8;
                        Edited::Moved
                    }
                    Button::Cell(_, i) if usize::from(i) < size.area() => {
                        tap(r, ed, size.coord(usize::from(i)), lang, alphabet)
                    }
                    Button::Edit(_, EditOp::Undo) => {
                        ed.pending = None;
                        ed.picked.clear();
                        match ed.draft.undo() {
                            Ok(()) => Edited::Removed,
                            Err(_) => Edited::Nothing,
                        }
                    }
                    Button::Edit(_, EditOp::Clear) => {
                        ed.pending = None;
                        ed.picked.clear();
                        ed.draft.clear();
                        Edited::Removed
                    }
                    Button::Edit(_, op @ (EditOp::Random | EditOp::Perelman)) => {
                        ed.pending = None;
                        ed.picked.clear();
                        let mut rng = rng.clone();
                        let fleet = if op == EditOp::Random {
                            random_fleet(r, &mut rng)
                        } else {
                            perelman_fleet(r, &mut rng)
                        };
                        match fleet {
                            Ok(f) => {
                                ed.draft.fill(&f);
                                Edited::Moved
                            }
                            Err(_) => Edited::Nothing,
                        }
                    }
                    Button::Edit(_, EditOp::Confirm) => confirm(r, ed, lang, alphabet),
                    Button::Edit(_, op @ (EditOp::Mines | EditOp::Border)) => {
                        let tool = if op == EditOp::Mines {
                            Tool::Mine
                        } else {
                            Tool::Border
                        };
                        ed.pending = None;
                        ed.tool = if ed.tool == tool { Tool::Ship } else { tool };
                        Edited::Moved
                    }
                    Button::Edit(_, EditOp::RandomBorder) if r.has_terrain() => {
                        let border = engine::Border::random(size.width, &mut rng.clone());
                        match ed.draft.set_border(r, border) {
                            Ok(()) => Edited::Moved,
                            Err(_) => Edited::Nothing,
                        }
                    }
                    _ => Edited::Nothing,
                })
            },
        )
        .await;
    let (what, ed) = match done {
        Ok(Ok(v)) => v,
        Ok(Err(())) => return Ok(()),
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let note = match what {
        Edited::Placed(kind) => ta(
            lang,
            "editor-placed",
            &[("ship", render::kind_name(lang, kind).into())],
        ),
        Edited::Pending => t(lang, "editor-second-end"),
        Edited::Removed | Edited::Moved | Edited::Picked => String::new(),
        Edited::Nothing => t(lang, "editor-nothing"),
        Edited::Refused(ref words) => words.clone(),
    };
    answer(ctx, q, note, matches!(what, Edited::Refused(_))).await?;
    if let Some(m) = q.regular_message() {
        edit_dm(
            ctx,
            uid,
            m.id.0,
            editor_text(&rec, lang, &ed),
            Some(editor_keyboard(&rec, id, lang, &ed)),
        )
        .await;
    }
    Ok(())
}

/// A tap on cell `c` with the editor's tool.
fn tap(
    r: &engine::Ruleset,
    ed: &mut Editor,
    c: Coord,
    lang: Lang,
    alphabet: engine::Alphabet,
) -> Edited {
    let size = r.size();
    let on_item =
        ed.draft.ships().iter().any(|s| s.cells.contains(&c)) || ed.draft.mines().contains(&c);
    match ed.tool {
        Tool::Border => {
            let Some(border) = ed.draft.border() else {
                return Edited::Nothing;
            };
            // A tap on sea raises the land of that column by a row; on land, lowers it.
            let delta = if border.is_land(c) { 1 } else { -1 };
            match ed.draft.shift_border(c.x, delta) {
                Ok(()) => Edited::Moved,
                Err(engine::EditError::Border(Some(e))) => {
                    let p = engine::Problem {
                        subject: engine::Subject::Border,
                        cell: Some(c),
                        rule: engine::Rule::Border(e),
                    };
                    Edited::Refused(render::problem_words(lang, &p, alphabet, size))
                }
                Err(_) => Edited::Nothing,
            }
        }
        _ if on_item => {
            ed.pending = None;
            match ed.draft.remove_at(c) {
                Ok(()) => Edited::Removed,
                Err(_) => Edited::Nothing,
            }
        }
        Tool::Mine => match ed.draft.place_mine(r, c) {
            Ok(()) => Edited::Moved,
            Err(_) => Edited::Nothing,
        },
        Tool::Ship if cell_by_cell(r) => {
            if let Some(i) = ed.picked.iter().position(|&p| p == c) {
                ed.picked.remove(i);
                return Edited::Picked;
            }
            let largest = r
                .fleet()
                .iter()
                .map(|k| usize::from(k.size()))
                .max()
                .unwrap_or(1);
            if ed.picked.len() >= largest {
                return Edited::Refused(ta(
                    lang,
                    "editor-too-many-cells",
                    &[("count", largest.into())],
                ));
            }
            ed.picked.push(c);
            Edited::Picked
        }
        Tool::Ship => {
            if let Some(a) = ed.pending.take() {
                match ed.draft.place_line(r, a, c) {
                    Ok(kind) => Edited::Placed(kind),
                    Err(_) => {
                        ed.pending = Some(c);
                        Edited::Pending
                    }
                }
            } else {
                ed.pending = Some(c);
                Edited::Pending
            }
        }
    }
}

/// Confirm: the tapped cells become a ship, if their shape is one the fleet still has room
/// for under the rules; otherwise the cells stay picked and the answer says why.
fn confirm(r: &engine::Ruleset, ed: &mut Editor, lang: Lang, alphabet: engine::Alphabet) -> Edited {
    if ed.picked.is_empty() {
        return Edited::Nothing;
    }
    let cells = ed.picked.clone();
    let kind = ed.draft.kind_for(r, &cells);
    if ed.draft.place(r, kind, cells).is_err() {
        return Edited::Nothing;
    }
    let index = ed.draft.ships().len() - 1;
    let shape_problem = ed.draft.problems(r).into_iter().find(|p| {
        matches!(p.subject, engine::Subject::Ship { index: i, .. } if i == index)
            && matches!(
                p.rule,
                engine::Rule::WrongSize
                    | engine::Rule::NotConnected
                    | engine::Rule::ShapeNotAllowed
                    | engine::Rule::WrongTerrain(_)
            )
    });
    if let Some(p) = shape_problem {
        let _ = ed.draft.undo();
        return Edited::Refused(render::problem_words(lang, &p, alphabet, r.size()));
    }
    ed.picked.clear();
    Edited::Placed(kind)
}

async fn ready(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    seat: SeatId,
) -> HandlerResult {
    let uid = q.from.id.0;
    let ed = match ctx.store.draft::<Editor>(id, seat).await {
        Ok(ed) => ed,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let (rec, _) = match ctx.store.load_game(id).await {
        Ok(r) => r,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let ruleset = rec.game.ruleset().clone();
    let ed = ed.unwrap_or_else(|| Editor::new(&ruleset));
    let fleet = match ed.draft.clone().validate(&ruleset) {
        Ok(f) => f,
        Err(rejected) => {
            let size = ruleset.size();
            let first: Vec<String> = rejected
                .problems
                .iter()
                .take(3)
                .map(|p| render::problem_words(lang, p, rec.alphabet, size))
                .collect();
            return answer(ctx, q, first.join("\n"), true).await;
        }
    };
    let rng = ctx.fork();
    let words = t(lang, "editor-ready-done");
    // The timer with the change: should this process die before the answer, the bot's
    // first move (when it shoots first) and the battle's beginning are still found due.
    let due = |r: &GameRecord| super::play::deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |r| {
            let events =
                r.game
                    .apply(Action::Ready(seat, fleet.clone()), now(), &mut rng.clone())?;
            // The editor becomes the own field (with the battle, every field does).
            r.push_effect(Effect::Dm { seat: seat.0 });
            r.remember_answer(&q.id.0, &words, false);
            Ok::<_, ActionError>(events)
        })
        .await;
    let committed = match done {
        Ok(Ok(c)) => c,
        Ok(Err(ActionError::AlreadyReady)) => {
            return answer(ctx, q, t(lang, "editor-locked"), true).await
        }
        Ok(Err(_)) => return answer(ctx, q, t(lang, "error-out-of-date"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let began = committed
        .value
        .iter()
        .any(|e| matches!(e, Event::BattleBegan { .. }));
    super::crash_point(if began { "last-ready" } else { "ready" });
    answer(ctx, q, words, false).await?;
    super::outbox::kick(ctx, id);
    if began {
        super::play::wake(ctx, &committed.record, id);
    }
    let _ = uid;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Field, Game, Ruleset, Shapes, Size};

    /// Every preset, and the largest custom field with every tool.
    fn rulesets() -> Vec<Ruleset> {
        let largest = Ruleset {
            field: Field::Custom {
                size: Size::new(26, 26),
                ships: vec![5, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1],
            },
            shapes: Shapes::Free,
            mines: 2,
            ..Ruleset::default()
        };
        let wide = Ruleset {
            field: Field::Custom {
                size: Size::new(26, 5),
                ships: vec![3, 2, 1],
            },
            ..Ruleset::default()
        };
        vec![
            Ruleset::default(),
            Ruleset::big(),
            Ruleset::land_sea_air(),
            Ruleset {
                mines: 2,
                ..Ruleset::land_sea_air()
            },
            Ruleset {
                shapes: Shapes::Bent,
                mines: 1,
                ..Ruleset::default()
            },
            largest,
            wide,
        ]
    }

    #[test]
    fn the_editor_keyboard_keeps_within_telegrams_limits_on_every_field() {
        for r in rulesets() {
            let rec = GameRecord::new(Game::new(r.clone()), 1, 0);
            let mut ed = Editor::new(&r);
            let blocks = viewport(&rec).blocks() as u8;
            let mut cells_seen = std::collections::HashSet::new();
            for tool in [Tool::Ship, Tool::Mine, Tool::Border] {
                ed.tool = tool;
                for block in 0..blocks {
                    ed.block = block;
                    let kb = editor_keyboard(&rec, GameId(u64::MAX), Lang::Bg, &ed);
                    let all: usize = kb.inline_keyboard.iter().map(Vec::len).sum();
                    assert!(all <= 100, "{r}: {all} buttons");
                    for row in &kb.inline_keyboard {
                        assert!(row.len() <= 8, "{r}: a row of {}", row.len());
                        for b in row {
                            let crate::view::keyboard::KeyKind::Callback(data) = &b.kind else {
                                panic!("{r}: a button without data");
                            };
                            assert!(!data.is_empty() && data.len() <= 64, "{data}");
                            if let Some(Button::Cell(_, i)) = Button::parse(data) {
                                cells_seen.insert(i);
                            }
                        }
                    }
                }
            }
            assert_eq!(
                cells_seen.len(),
                r.size().area(),
                "{r}: a cell no block shows"
            );
        }
    }

    #[test]
    fn the_editor_text_keeps_within_a_message_on_every_field() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for r in rulesets() {
            let rec = GameRecord::new(Game::new(r.clone()), 1, 0);
            let mut ed = Editor::new(&r);
            ed.draft
                .fill(&random_fleet(&r, &mut rng).expect("a layout"));
            for lang in Lang::ALL {
                let text = editor_text(&rec, lang, &ed);
                assert!(
                    text.chars().count() <= 4096,
                    "{r} in {lang}: {} characters",
                    text.chars().count()
                );
            }
        }
    }
}
