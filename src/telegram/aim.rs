//! Aiming in the group's battle message: the field to shoot at (free-for-all and teams) and,
//! in salvo games, the cells of the salvo, picked one tap at a time and fired together.

use super::play::{accepted, battle_press, play_with, refusal, Reply, NAME_IN_ANSWER};
use super::{answer, answer_store_error, Ctx, HandlerResult};
use crate::game::battle::{aimed, cell_of};
use crate::game::lang::Lang;
use crate::game::record::{Aim, GameRecord};
use crate::store::{Committed, GameId, StoreError};
use crate::view::buttons::Button;
use crate::view::i18n::{t, ta};
use crate::view::render;
use engine::{Action, ActionError, Coord, SeatId};
use teloxide::types::CallbackQuery;

/// Whether `seat` may aim at `target` now.
fn check(rec: &GameRecord, seat: SeatId, target: SeatId) -> Result<(), ActionError> {
    if rec.game.mine_choice().is_some() {
        return Err(ActionError::MineChoicePending);
    }
    if rec.game.turn() != seat {
        return Err(ActionError::NotYourTurn);
    }
    if !rec.game.can_target(seat, target) {
        return Err(ActionError::BadTarget);
    }
    Ok(())
}

/// The shooter's current aim, if it is at `target`.
fn current_aim_at(rec: &GameRecord, seat: SeatId, target: SeatId) -> Option<Aim> {
    rec.current_aim()
        .filter(|a| a.shooter == seat && a.target == target)
}

/// The shooter's aim at `target`: the current one if it is there, else a fresh one.
fn aim_at(rec: &GameRecord, seat: SeatId, target: SeatId) -> Aim {
    current_aim_at(rec, seat, target).unwrap_or(Aim {
        shooter: seat,
        target,
        picked: Vec::new(),
    })
}

/// In one transition of the game: checks that `seat` may aim at `target`, lets `f` change
/// the shooter's aim at it and stores that aim (nothing is stored when `f` refuses).
async fn change_aim<T, E: From<ActionError>>(
    ctx: &Ctx,
    id: GameId,
    seat: SeatId,
    target: SeatId,
    mut f: impl FnMut(&GameRecord, &mut Aim) -> Result<T, E>,
) -> Result<Result<Committed<T>, E>, StoreError> {
    ctx.store
        .transition(id, |r| {
            check(r, seat, target)?;
            let mut aim = aim_at(r, seat, target);
            let value = f(r, &mut aim)?;
            if let Some(sb) = r.sea_mut() {
                sb.aim = Some(aim);
            }
            Ok(value)
        })
        .await
}

/// A target button: the shooter aims at another field (cells picked so far are dropped).
async fn choose_target(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    rec: &GameRecord,
    id: GameId,
    seat: SeatId,
    target: SeatId,
) -> HandlerResult {
    let done = change_aim(ctx, id, seat, target, |_, _| Ok::<_, ActionError>(())).await;
    match done {
        Ok(Ok(_)) => {
            let name = rec.short_name(target, NAME_IN_ANSWER);
            let words = ta(lang, "battle-target-chosen", &[("name", name.into())]);
            answer(ctx, q, words, false).await?;
            super::outbox::kick(ctx, id);
            Ok(())
        }
        Ok(Err(e)) => answer(ctx, q, refusal(lang, &e), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// What a tap on a cell did to the salvo.
enum Picked {
    Added(Vec<Coord>, usize),
    Dropped(Coord, usize, usize),
}

/// Why a tap on a cell changed nothing.
enum NotPicked {
    Refused(ActionError),
    Full(usize),
}

impl From<ActionError> for NotPicked {
    fn from(e: ActionError) -> Self {
        NotPicked::Refused(e)
    }
}

/// A cell button in a salvo game: picks the cell, or drops it when it was picked.
#[allow(clippy::too_many_arguments)]
async fn pick(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    rec: &GameRecord,
    id: GameId,
    seat: SeatId,
    target: SeatId,
    cell: Coord,
) -> HandlerResult {
    let done = change_aim(ctx, id, seat, target, |r, aim| {
        let total = r.salvo_size(target).unwrap_or(0);
        if let Some(i) = aim.picked.iter().position(|&c| c == cell) {
            aim.picked.remove(i);
            Ok(Picked::Dropped(cell, aim.picked.len(), total))
        } else if r.game.is_known(target, cell) {
            Err(ActionError::AlreadyKnown(cell).into())
        } else if aim.picked.len() >= total {
            Err(NotPicked::Full(total))
        } else {
            aim.picked.push(cell);
            Ok(Picked::Added(aim.picked.clone(), total))
        }
    })
    .await;
    let (alphabet, size) = (rec.alphabet, rec.game.ruleset().size());
    let name = |c: Coord| render::cell_name(c, alphabet, size);
    let words = match done {
        Ok(Ok(done)) => match done.value {
            Picked::Added(cells, total) => {
                let names: Vec<String> = cells.iter().map(|&c| name(c)).collect();
                ta(
                    lang,
                    "salvo-picked",
                    &[
                        ("cells", names.join(" ").into()),
                        ("picked", cells.len().into()),
                        ("total", total.into()),
                    ],
                )
            }
            Picked::Dropped(c, picked, total) => ta(
                lang,
                "salvo-unpicked",
                &[
                    ("cell", name(c).into()),
                    ("picked", picked.into()),
                    ("total", total.into()),
                ],
            ),
        },
        Ok(Err(NotPicked::Full(total))) => {
            let words = ta(lang, "salvo-too-many", &[("total", total.into())]);
            return answer(ctx, q, words, true).await;
        }
        Ok(Err(NotPicked::Refused(e))) => return answer(ctx, q, refusal(lang, &e), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    answer(ctx, q, words, false).await?;
    super::outbox::kick(ctx, id);
    Ok(())
}

/// The salvo's Fire button: the picked cells, as they stand when the salvo is applied.
async fn fire_salvo(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    rec: &GameRecord,
    id: GameId,
    seat: SeatId,
    target: SeatId,
) -> HandlerResult {
    let picked = current_aim_at(rec, seat, target).map_or(0, |a| a.picked.len());
    let done = play_with(ctx, id, Some((q.id.0.as_str(), lang)), |r| {
        check(r, seat, target)?;
        let aim = aim_at(r, seat, target);
        let total = r.salvo_size(target).unwrap_or(0);
        if aim.picked.len() != total {
            return Err(ActionError::SalvoSize {
                expected: total as u8,
            });
        }
        Ok(Action::Salvo(seat, target, aim.picked))
    })
    .await;
    match done {
        Ok(Ok(done)) => accepted(ctx, id, lang, &done, &Reply::Callback(q)).await,
        Ok(Err(ActionError::SalvoSize { expected })) => {
            let count = usize::from(expected).saturating_sub(picked).max(1);
            let words = ta(lang, "salvo-too-few", &[("count", count.into())]);
            answer(ctx, q, words, true).await
        }
        Ok(Err(e)) => answer(ctx, q, refusal(lang, &e), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// A field's button under the battle message (free-for-all, teams): aim at it.
pub async fn on_target(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Target(id, generation, target) = button else {
        return Ok(());
    };
    let Some((rec, seat)) = battle_press(ctx, q, lang, id, Some(generation)).await? else {
        return Ok(());
    };
    choose_target(ctx, q, lang, &rec, id, seat, SeatId(target)).await
}

/// A salvo's Fire button.
pub async fn on_salvo(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Salvo(id, generation, target) = button else {
        return Ok(());
    };
    let Some((rec, seat)) = battle_press(ctx, q, lang, id, Some(generation)).await? else {
        return Ok(());
    };
    let target = aimed(&rec, seat, target);
    fire_salvo(ctx, q, lang, &rec, id, seat, target).await
}

/// A cell's button in a salvo game: picked for the salvo (or picked no more).
pub async fn on_pick(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Fire(id, generation, target, index) = button else {
        return Ok(());
    };
    let Some((rec, seat)) = battle_press(ctx, q, lang, id, Some(generation)).await? else {
        return Ok(());
    };
    let Some(cell) = cell_of(&rec, index) else {
        return answer(ctx, q, t(lang, "error-unknown-button"), true).await;
    };
    let target = aimed(&rec, seat, target);
    pick(ctx, q, lang, &rec, id, seat, target, cell).await
}
