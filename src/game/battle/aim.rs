//! Where the shooter aims: the field (free-for-all, teams), the cells picked for a salvo
//! and the salvo fired, the block of the field the keyboard shows.

use super::*;
use crate::game::record::{Aim, GameRecord};
use crate::game::refused::Refused;
use engine::{Action, ActionError, Coord, Event, PlayerId, SeatId};

/// The field a cell button of `seat` shoots at: redraws of the group's message are paced,
/// so right after the shooter chose another field its keyboard may still show the one
/// before; its cells go to the field chosen.
pub fn aimed(rec: &GameRecord, seat: SeatId, target: u8) -> SeatId {
    match rec.current_aim() {
        Some(aim) if aim.shooter == seat => aim.target,
        _ => SeatId(target),
    }
}

/// Whether `seat` may aim at `target` now.
pub(super) fn may_aim(rec: &GameRecord, seat: SeatId, target: SeatId) -> Result<(), ActionError> {
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

/// The shooter's aim at `target`: the current one if it is there, else a fresh one.
pub(super) fn aim_at(rec: &GameRecord, seat: SeatId, target: SeatId) -> Aim {
    rec.current_aim()
        .filter(|a| a.shooter == seat && a.target == target)
        .unwrap_or(Aim {
            shooter: seat,
            target,
            picked: Vec::new(),
            armed: None,
            corner: None,
        })
}

/// Stores the shooter's aim.
pub(super) fn keep_aim(rec: &mut GameRecord, aim: Aim) {
    if let Some(sb) = sea_part(&mut rec.play) {
        sb.aim = Some(aim);
    }
}

/// A field's button (free-for-all, teams): the shooter aims at it, the cells picked so far
/// dropped.
///
/// # Errors
/// As [`battle_seat`]; [`Refused::Rules`] when the seat may not aim there now.
pub fn choose_target(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    target: SeatId,
) -> Result<(), Refused> {
    let seat = battle_seat(rec, player, Some(generation))?;
    may_aim(rec, seat, target)?;
    let aim = aim_at(rec, seat, target);
    keep_aim(rec, aim);
    Ok(())
}

/// What a tap on a cell did to the salvo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picked {
    /// The cell was added: the cells picked now, and how many the salvo takes.
    Added(Vec<Coord>, usize),
    /// The cell was dropped: how many are picked now, and how many the salvo takes.
    Dropped(Coord, usize, usize),
}

/// A cell button in a salvo game: picks the cell for the salvo, or drops it when it was
/// picked.
///
/// # Errors
/// As [`battle_seat`]; [`Refused::SalvoFull`]; [`Refused::Rules`] for a cell known already
/// or a seat that may not aim there.
pub fn pick(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    target: u8,
    index: u16,
) -> Result<Picked, Refused> {
    let seat = battle_seat(rec, player, Some(generation))?;
    let cell = cell_of(rec, index).ok_or(Refused::UnknownButton)?;
    let target = aimed(rec, seat, target);
    may_aim(rec, seat, target)?;
    let mut aim = aim_at(rec, seat, target);
    let total = rec.salvo_size(target).unwrap_or(0);
    let picked = if let Some(i) = aim.picked.iter().position(|&c| c == cell) {
        aim.picked.remove(i);
        Picked::Dropped(cell, aim.picked.len(), total)
    } else if rec.game.is_known(target, cell) {
        return Err(Refused::Rules(ActionError::AlreadyKnown(cell)));
    } else if aim.picked.len() >= total {
        return Err(Refused::SalvoFull(total));
    } else {
        aim.picked.push(cell);
        Picked::Added(aim.picked.clone(), total)
    };
    keep_aim(rec, aim);
    Ok(picked)
}

/// A salvo's Fire button: the cells picked, as they stand now.
///
/// # Errors
/// As [`battle_seat`] and [`play`]; [`Refused::SalvoTooFew`] while cells are missing.
pub fn fire_salvo(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    target: u8,
    press: Option<&Press<'_, Vec<Event>>>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    pressed(rec, press, |rec| {
        let seat = battle_seat(rec, player, Some(generation))?;
        let target = aimed(rec, seat, target);
        may_aim(rec, seat, target)?;
        let aim = aim_at(rec, seat, target);
        let total = rec.salvo_size(target).unwrap_or(0);
        if aim.picked.len() != total {
            return Err(Refused::SalvoTooFew(
                total.saturating_sub(aim.picked.len()).max(1),
            ));
        }
        Ok(play(
            rec,
            Action::Salvo(seat, target, aim.picked),
            now,
            rng,
        )?)
    })
}

/// "Show another block of the field" under the battle message: the shooter's keyboard shows
/// block `block` of `blocks`.
///
/// # Errors
/// As [`battle_seat`]; [`Refused::Rules`] with `NotYourTurn` for anyone but the shooter.
pub fn show_block(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    block: u8,
    blocks: u8,
) -> Result<(), Refused> {
    let seat = battle_seat(rec, player, Some(generation))?;
    if rec.game.turn() != seat {
        return Err(Refused::Rules(ActionError::NotYourTurn));
    }
    if let Some(sb) = sea_part(&mut rec.play) {
        sb.block = block % blocks.max(1);
    }
    if rec.quick {
        // The grid is on the shooter's private board.
        super::effects::show_own_field(rec, seat);
    }
    Ok(())
}

/// Whether the game has more than two fields, so every shot names the field it goes to.
pub fn is_aimed(rec: &GameRecord) -> bool {
    rec.game.ruleset().seats() > 2
}
