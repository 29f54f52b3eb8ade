//! The placement editor in the private chat: the field as monospace text, a keyboard of one
//! block of cells at a time, and Undo, Clear, Random, Perelman, Ready. A straight ship is
//! placed by tapping its two ends; where ships (or land-sea-air units) may take other shapes,
//! by tapping its cells and Confirm. Mines have a tool of their own, and so has the land-sea
//! border (a tap moves its column by a row; or a random border). Tapping a ship removes it.
//! The taps are `game/placement.rs`'s [`placement::edit`] on the seat's draft, Ready its
//! [`placement::ready`].

use super::battle::{due, follow_up};
use super::context::{crash_point, now, Ctx, HandlerResult};
use super::send::{answer, answer_refusal, answer_store_error, edit_dm, pressed, pressed_on};
use crate::game::lang::Lang;
use crate::game::placement::{self, Change, Edit};
use crate::game::record::{Editor, GameRecord};
use crate::game::{came_on, GameId, Made, Press};
use crate::store::Atomic;
use crate::store::StoreError;
use crate::view::buttons::{Button, EditOp};
use crate::view::editor::{edited_words, editor_keyboard, editor_text, viewport};
use crate::view::i18n::t;
use engine::{Event, PlayerId, SeatId};
use teloxide::types::CallbackQuery;

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
    if let Some(again) = rec.delivery.answered(&q.id.0) {
        return answer(ctx, q, again.text.clone(), again.alert).await;
    }
    // Only on the seat's own editor: forged data on another message edits nothing.
    if let Err(r) = came_on(&rec, Made::Private, PlayerId(uid), pressed_on(q).as_ref()) {
        return answer_refusal(ctx, q, lang, &r).await;
    }
    let seat = match placement::editing_seat(&rec, PlayerId(uid)) {
        Ok(seat) => seat,
        Err(r) => return answer_refusal(ctx, q, lang, &r).await,
    };
    if button == Button::Edit(id, EditOp::Ready) {
        return ready(ctx, q, lang, id, seat, &rec).await;
    }
    let size = rec.game.ruleset().size();
    let edit = match button {
        Button::Block(_, b) => Edit::Block(b, viewport(&rec).blocks() as u8),
        Button::Cell(_, i) if usize::from(i) < size.area() => {
            Edit::Cell(size.coord(usize::from(i)))
        }
        // A cell off the field: an edit that does nothing.
        Button::Cell(..) => Edit::Op(EditOp::Ready),
        Button::Edit(_, op) => Edit::Op(op),
        _ => return Ok(()),
    };
    let (what, ed, changed) =
        match change_draft(ctx, &rec, id, seat, lang, Change::Edit(edit)).await {
            Ok(done) => done,
            Err(e) => return answer_store_error(ctx, q, lang, &e).await,
        };
    let (mut note, alert) = edited_words(lang, rec.alphabet, size, &what);
    if !changed && note.is_empty() {
        // Undo with nothing to undo, Clear on an empty field, the block already shown.
        note = t(lang, "editor-nothing");
    }
    answer(ctx, q, note, alert).await?;
    // An editor that did not change shows the same: an edit would be "not modified".
    if !changed {
        return Ok(());
    }
    if let Some(m) = q.regular_message() {
        edit_dm(
            ctx,
            uid,
            m.id.0,
            editor_text(&rec, lang, &ed),
            Some(super::send::editor_markup(ctx, &rec, id, lang, &ed)),
        );
    }
    Ok(())
}

/// One change of seat `seat`'s draft, from the chat's keyboard or the Mini App's board: what
/// it did, the editor now, and whether the chat's editor shows anything else now (a refused
/// shape put back, say, may leave only its undo history otherwise).
///
/// # Errors
/// The store's.
pub async fn change_draft(
    ctx: &Ctx,
    rec: &GameRecord,
    id: GameId,
    seat: SeatId,
    lang: Lang,
    change: Change,
) -> Result<(placement::Edited, Editor, bool), StoreError> {
    let ruleset = rec.game.ruleset().clone();
    let rng = ctx.fork();
    let drawn = |ed: &Editor| {
        (
            editor_text(rec, lang, ed),
            editor_keyboard(rec, id, lang, ed),
        )
    };
    let done = ctx
        .store
        .edit_draft(
            id,
            seat,
            || Editor::new(&ruleset),
            |ed: &mut Editor| {
                let before = ed.clone();
                let what = placement::change(&ruleset, ed, change.clone(), &mut rng.clone());
                let changed = *ed != before && drawn(ed) != drawn(&before);
                Ok::<_, std::convert::Infallible>((what, changed))
            },
        )
        .await?;
    let Ok(((what, changed), ed)) = done;
    Ok((what, ed, changed))
}

/// Ready from the chat or the page: seat's stored draft becomes its locked fleet, if the
/// rules take it (with the timer, so should this process die before the answer, the bot's
/// first move and the battle's beginning are still found due).
///
/// # Errors
/// The store's; the refusal inside.
pub async fn lock_fleet<'a>(
    ctx: &Ctx,
    id: GameId,
    seat: SeatId,
    player: PlayerId,
    rec: &GameRecord,
    press: Option<&Press<'a, Vec<Event>>>,
) -> Result<Result<crate::store::Committed<Vec<Event>>, crate::game::Refused>, StoreError> {
    let draft = ctx
        .store
        .draft::<Editor>(id, seat)
        .await?
        .unwrap_or_else(|| Editor::new(rec.game.ruleset()))
        .draft;
    let rng = ctx.fork();
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            placement::ready(r, player, &draft, press, now(), &mut rng.clone())
        })
        .await?;
    if let Ok(done) = &done {
        let began = done
            .value
            .iter()
            .any(|e| matches!(e, Event::BattleBegan { .. }));
        crash_point(ctx, if began { "last-ready" } else { "ready" });
    }
    Ok(done)
}

/// Ready: the seat's draft becomes its locked fleet, if the rules take it.
async fn ready(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    seat: SeatId,
    rec: &GameRecord,
) -> HandlerResult {
    let player = PlayerId(q.from.id.0);
    let words = |_: &GameRecord, _: &Vec<Event>| (t(lang, "editor-ready-done"), false);
    let press = Press {
        query: &q.id.0,
        words: &words,
    };
    let done = lock_fleet(ctx, id, seat, player, rec, Some(&press)).await;
    let Some(done) = pressed(ctx, q, lang, done).await? else {
        return Ok(());
    };
    answer(ctx, q, t(lang, "editor-ready-done"), false).await?;
    follow_up(ctx, id, &done.record);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::Tool;
    use engine::{random_fleet, Field, Game, Ruleset, Shapes, Size};

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
