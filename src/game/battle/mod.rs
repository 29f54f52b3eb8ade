//! The battle's transitions: a shot (by a button, typed, or the bot's), a salvo and its
//! cells, the field aimed at, another block of the field, the cell given up after a mine,
//! surrender. Every move goes through [`play`], whoever makes it.

use super::press::{pressed, seat_for_button, Press};
use super::record::{Aim, GameRecord, Play, SeaBattle};
use super::refused::Refused;
use engine::{Action, ActionError, Coord, Event, Phase, PlayerId, SeatId};
use rand::rngs::StdRng;

mod aim;
mod effects;

use aim::{aim_at, keep_aim};
pub use aim::{aimed, choose_target, fire_salvo, is_aimed, pick, show_block, Picked};
pub use effects::refresh_own_field;
use effects::{queue_effects, remember_salvo};

/// Plays `action` on the record: the game's events, the shooter's aim, the log, what the bot
/// is told of its own salvoes, and the outbox (the private fields it changed, the mine
/// question). The one way a move is played: a human's press or typed shot, the bot's move
/// and the timer's tick all come here.
///
/// # Errors
/// The engine's refusal (then the caller's transition saves nothing).
pub fn play(
    rec: &mut GameRecord,
    action: Action,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, ActionError> {
    let turn_before = rec.game.turn();
    let events = rec.game.apply(action.clone(), now, rng)?;
    let shot = match action {
        Action::Fire(shooter, target, _)
        | Action::Salvo(shooter, target, _)
        | Action::Radar(shooter, target, _)
        | Action::AirStrike(shooter, target, _)
        | Action::Torpedo(shooter, target, ..) => Some((shooter, target)),
        _ => None,
    };
    if let Some((shooter, target)) = shot {
        // The field shot at stays aimed at (in games of more fields); a weapon armed is
        // spent or, for a typed shot, put down.
        let aimed = is_aimed(rec);
        if let Some(sb) = sea_part(&mut rec.play) {
            sb.aim = aimed.then_some(Aim {
                shooter,
                target,
                picked: Vec::new(),
                armed: None,
                corner: None,
            });
        }
    }
    if let Action::Salvo(seat, _, _) = &action {
        if rec.is_ai_seat(*seat) {
            remember_salvo(rec, &action, &events);
        }
    }
    rec.push_log(&events);
    queue_effects(rec, turn_before, &events);
    Ok(events)
}

/// The bot's move, chosen from the game at `version`: played with [`play`] if the game is
/// still as the bot saw it.
///
/// # Errors
/// [`Refused::OutOfDate`] when the game moved on meanwhile; as [`play`].
pub fn bot_move(
    rec: &mut GameRecord,
    version: u32,
    action: Action,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    if rec.game.version() != version {
        return Err(Refused::OutOfDate);
    }
    Ok(play(rec, action, now, rng)?)
}

/// [`play`] for a press, the answer it earns kept with the move.
///
/// # Errors
/// As [`play`], and [`Refused::Again`] for a press answered already.
pub fn play_pressed(
    rec: &mut GameRecord,
    action: Action,
    press: Option<&Press<'_, Vec<Event>>>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    pressed(rec, press, |rec| Ok(play(rec, action, now, rng)?))
}

/// The cell a button names by its row-major index, if the field has it.
pub fn cell_of(rec: &GameRecord, index: u16) -> Option<Coord> {
    let size = rec.game.ruleset().size();
    (usize::from(index) < size.area()).then(|| size.coord(usize::from(index)))
}

/// A battle button's checks: [`seat_for_button`], and the battle is on.
///
/// # Errors
/// As [`seat_for_button`]; [`Refused::OutOfDate`] outside the battle.
pub fn battle_seat(
    rec: &GameRecord,
    player: PlayerId,
    generation: Option<u32>,
) -> Result<SeatId, Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    if generation.is_some_and(|g| g != rec.delivery.generation)
        || rec.game.phase() != &Phase::Battle
    {
        let newer = generation.is_some_and(|g| rec.delivery.generation > g);
        return Err(if newer {
            Refused::Stale
        } else {
            Refused::OutOfDate
        });
    }
    seat_for_button(rec, player, None)
}

/// A cell button of the battle message: the shot, in a game without salvoes (see
/// [`pick`] for a salvo's cells). Every check a press must pass is made on the record as it
/// is in the transition, so the press needs no load before it and no claim of its update.
///
/// # Errors
/// As [`battle_seat`] and [`play`]; [`Refused::UnknownButton`] for a cell off the field.
#[allow(clippy::too_many_arguments)]
pub fn fire(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    target: u8,
    index: u16,
    press: Option<&Press<'_, Vec<Event>>>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    pressed(rec, press, |rec| {
        let seat = battle_seat(rec, player, Some(generation))?;
        let cell = cell_of(rec, index).ok_or(Refused::UnknownButton)?;
        let target = aimed(rec, seat, target);
        let action = cell_action(rec, seat, target, cell).ok_or(Refused::OutOfDate)?;
        Ok(play(rec, action, now, rng)?)
    })
}

/// A move a press of the battle message plays on the record (a salvo's Fire, a torpedo's
/// way), the answer it earns kept with it by `press`.
pub type PressMove<'a> = dyn Fn(&mut GameRecord, &Press<'_, Vec<Event>>, &mut StdRng) -> Result<Vec<Event>, Refused>
    + Sync
    + 'a;

/// What a cell button of the battle message did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// The shot (or the armed weapon) was taken: its events.
    Shot(Vec<Event>),
    /// A salvo game: the cell was picked for the salvo, or dropped from it.
    Picked(Picked),
    /// The torpedo armed, a corner was tapped: which way it runs is asked.
    Corner(Coord),
}

/// The arsenal's button of the battle message (docs/rules.md §3.8): `weapon` is armed for
/// the shooter's next cell, or put down when it was armed already. The weapon armed now.
///
/// # Errors
/// As [`battle_seat`]; [`Refused::Rules`] without the arsenal, out of turn, or with the
/// weapon used up.
pub fn arm(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    weapon: engine::Weapon,
    press: Option<&Press<'_, Option<engine::Weapon>>>,
) -> Result<Option<engine::Weapon>, Refused> {
    pressed(rec, press, |rec| {
        let seat = battle_seat(rec, player, Some(generation))?;
        if rec.game.ruleset().arsenal == 0 {
            return Err(Refused::Rules(ActionError::NoArsenal));
        }
        if rec.game.mine_choice().is_some() {
            return Err(Refused::Rules(ActionError::MineChoicePending));
        }
        let mut aim = rec
            .current_aim()
            .filter(|a| a.shooter == seat)
            .ok_or(Refused::Rules(ActionError::NotYourTurn))?;
        if rec.game.weapons_left(seat)[weapon.index()] == 0 {
            return Err(Refused::Rules(ActionError::UsedUp(weapon)));
        }
        aim.corner = None;
        aim.armed = if aim.armed == Some(weapon) {
            None
        } else {
            Some(weapon)
        };
        let armed = aim.armed;
        keep_aim(rec, aim);
        Ok(armed)
    })
}

/// The torpedo's heading from the corner tapped (see [`Cell::Corner`]): it is fired.
///
/// # Errors
/// As [`battle_seat`] and [`play`]; [`Refused::OutOfDate`] when no corner waits.
pub fn torpedo_heading(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    heading: engine::Heading,
    press: Option<&Press<'_, Vec<Event>>>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    pressed(rec, press, |rec| {
        let seat = battle_seat(rec, player, Some(generation))?;
        let aim = rec
            .current_aim()
            .filter(|a| a.shooter == seat && a.armed == Some(engine::Weapon::Torpedo))
            .ok_or(Refused::Rules(ActionError::NotYourTurn))?;
        let corner = aim.corner.ok_or(Refused::OutOfDate)?;
        let action = Action::Torpedo(seat, aim.target, corner, Some(heading));
        Ok(play(rec, action, now, rng)?)
    })
}

/// The action a cell of the battle message fires for `seat` at `target`: a shot, or the
/// weapon armed; `None` for a corner tapped with the torpedo armed (its heading is asked).
fn cell_action(rec: &GameRecord, seat: SeatId, target: SeatId, cell: Coord) -> Option<Action> {
    let armed = rec
        .current_aim()
        .filter(|a| a.shooter == seat)
        .and_then(|a| a.armed);
    Some(match armed {
        None => Action::Fire(seat, target, cell),
        Some(engine::Weapon::Radar) => Action::Radar(seat, target, cell),
        Some(engine::Weapon::AirStrike) => Action::AirStrike(seat, target, cell),
        Some(engine::Weapon::Torpedo) => {
            let size = rec.game.ruleset().size();
            if engine::headings_from(cell, size).len() > 1 {
                return None;
            }
            Action::Torpedo(seat, target, cell, None)
        }
    })
}

/// A cell button of the battle message, whatever the game: the shot ([`fire`]), or in a
/// salvo game the cell picked ([`pick`]). One transition, the answer kept with it, so the
/// press needs no claim of its update: a second delivery gets the answer the first earned.
///
/// # Errors
/// As [`fire`] and [`pick`].
#[allow(clippy::too_many_arguments)]
pub fn press_cell(
    rec: &mut GameRecord,
    player: PlayerId,
    generation: u32,
    target: u8,
    index: u16,
    press: Option<&Press<'_, Cell>>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Cell, Refused> {
    pressed(rec, press, |rec| {
        if sea_part(&mut rec.play).is_some() && rec.game.ruleset().salvo.is_some() {
            return Ok(Cell::Picked(pick(rec, player, generation, target, index)?));
        }
        // The torpedo armed, a corner: the shooter says which way it runs.
        let seat = battle_seat(rec, player, Some(generation))?;
        let cell = cell_of(rec, index).ok_or(Refused::UnknownButton)?;
        let at = aimed(rec, seat, target);
        if rec.game.turn() == seat && cell_action(rec, seat, at, cell).is_none() {
            let mut aim = aim_at(rec, seat, at);
            aim.corner = Some(cell);
            keep_aim(rec, aim);
            return Ok(Cell::Corner(cell));
        }
        Ok(Cell::Shot(fire(
            rec, player, generation, target, index, None, now, rng,
        )?))
    })
}

/// A move typed in reply to the battle message: a shot, or a salvo's cells in a row, at the
/// field the shooter aims at.
///
/// # Errors
/// As [`play`]; [`Refused::NotAPlayer`]; [`Refused::Rules`] with `NotYourTurn` when the
/// writer may shoot at no field.
pub fn typed(
    rec: &mut GameRecord,
    player: PlayerId,
    cells: Vec<Coord>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    let (seat, target) = typed_target(rec, player)?;
    let action = if rec.game.ruleset().salvo.is_some() {
        Action::Salvo(seat, target, cells)
    } else {
        let cell = *cells.first().ok_or(Refused::UnknownButton)?;
        Action::Fire(seat, target, cell)
    };
    Ok(play(rec, action, now, rng)?)
}

/// A weapon of the arsenal typed in reply to the battle message (`радар в6`, `torpedo a5 →`):
/// used at the field the shooter aims at.
///
/// # Errors
/// As [`play`]; [`Refused::NotAPlayer`]; [`Refused::Rules`] with `NotYourTurn` when the
/// writer may shoot at no field.
pub fn typed_weapon(
    rec: &mut GameRecord,
    player: PlayerId,
    (weapon, cell, heading): (engine::Weapon, Coord, Option<engine::Heading>),
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    let (seat, target) = typed_target(rec, player)?;
    let action = match weapon {
        engine::Weapon::Radar => Action::Radar(seat, target, cell),
        engine::Weapon::AirStrike => Action::AirStrike(seat, target, cell),
        engine::Weapon::Torpedo => Action::Torpedo(seat, target, cell, heading),
    };
    Ok(play(rec, action, now, rng)?)
}

/// The seat of a player who typed a move, and the field it goes to: the one aimed at, else
/// the first the seat may shoot at.
fn typed_target(rec: &GameRecord, player: PlayerId) -> Result<(SeatId, SeatId), Refused> {
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    let target = match rec.current_aim() {
        Some(aim) if aim.shooter == seat => aim.target,
        _ => *rec
            .game
            .targets(seat)
            .first()
            .ok_or(Refused::Rules(ActionError::NotYourTurn))?,
    };
    Ok((seat, target))
}

/// A cell button of the question after a mine: the cell given up. The question is named by
/// its deadline, so a button of an earlier question is out of date.
///
/// # Errors
/// As [`battle_seat`] and [`play`]; [`Refused::NotYourMine`]; [`Refused::Rules`] with
/// `NoMineChoice` when nothing is to be given up.
pub fn give_up(
    rec: &mut GameRecord,
    player: PlayerId,
    deadline: u64,
    index: u16,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    let seat = battle_seat(rec, player, None)?;
    let cell = cell_of(rec, index).ok_or(Refused::UnknownButton)?;
    let m = rec
        .game
        .mine_choice()
        .ok_or(Refused::Rules(ActionError::NoMineChoice))?;
    if m.deadline != deadline {
        return Err(Refused::OutOfDate);
    }
    if m.seat != seat {
        return Err(Refused::NotYourMine);
    }
    Ok(play(rec, Action::GiveUp(seat, cell), now, rng)?)
}

/// `/surrender` in a Sea Battle game.
///
/// # Errors
/// [`Refused::NotAPlayer`]; [`Refused::NothingToSurrender`] outside the battle.
pub fn surrender(
    rec: &mut GameRecord,
    player: PlayerId,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    play(rec, Action::Surrender(seat), now, rng).map_err(|_| Refused::NothingToSurrender)
}

/// The other seats of `seat`'s team (none but in teams).
pub fn teammates(rec: &GameRecord, seat: SeatId) -> Vec<SeatId> {
    let players = rec.game.ruleset().players;
    (0..rec.game.seats().len() as u8)
        .map(SeatId)
        .filter(|&s| s != seat && players.team(s.index()) == players.team(seat.index()))
        .collect()
}

/// Sea Battle's own part of the record, to change; `None` in another game's (whose moves
/// never come here: a Sea Battle button or shot that reached one is out of date).
fn sea_part(play: &mut Play) -> Option<&mut SeaBattle> {
    match play {
        Play::SeaBattle(sb) => Some(sb),
        Play::Riga(_) => None,
    }
}

#[cfg(test)]
mod tests;
