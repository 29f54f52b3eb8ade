//! The battle's transitions: a shot (by a button, typed, or the bot's), a salvo and its
//! cells, the field aimed at, another block of the field, the cell given up after a mine,
//! surrender. Every move goes through [`play`], whoever makes it.

use super::delivery::Effect;
use super::press::{pressed, seat_for_button, Press};
use super::record::{AiSalvo, Aim, GameRecord};
use super::refused::Refused;
use engine::{Action, ActionError, Coord, Event, Phase, PlayerId, SeatId, ShotResult};
use rand::rngs::StdRng;

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
        if let Some(sb) = rec.sea_mut() {
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

/// Puts in the outbox what a move makes visible besides the live message: the private
/// fields it brought up to date, and the mine question it asked or answered. `turn_before`
/// is whose turn it was before the move.
///
/// A private own field is not redrawn after every shot on it. What only it shows is the
/// player's fleet (every shot at it is on the battle message, which all see), so the shots
/// that matter are the ones that strike a ship or a mine: they mark it behind
/// ([`SeaBattle::fields_behind`](super::record::SeaBattle)), and it is redrawn once, with
/// the enemy's whole turn, when the turn passes to its seat (when the player looks at it
/// again). Misses alone wait for its next redraw: a hit's, the end's (which redraws every
/// field, [`GameRecord::derive_effects`]) or the player's own ask ([`refresh_own_field`]).
/// A cell given up after a mine is the player's own choice on their own field, shown at
/// once.
fn queue_effects(rec: &mut GameRecord, turn_before: SeatId, events: &[Event]) {
    let mut turn = turn_before;
    for e in events {
        match *e {
            Event::GaveUp { seat, .. } => {
                mark_behind(rec, seat);
                show_own_field(rec, seat);
            }
            Event::Turn(s) if s != turn => {
                turn = s;
                if rec.sea().is_some_and(|sb| sb.fields_behind.contains(&s.0)) {
                    show_own_field(rec, s);
                }
            }
            _ => {
                if let Some(target) = struck(e) {
                    mark_behind(rec, target);
                }
            }
        }
    }
    if events
        .iter()
        .any(|e| matches!(e, Event::MineChoice { .. } | Event::GaveUp { .. }))
    {
        rec.push_effect(Effect::Mine {
            events: events.to_vec(),
        });
    }
}

/// The player asks for their own field now (its button in their private chat): it is
/// queued for a redraw, whatever the turn (the sender draws it from the latest record, and
/// sends nothing when it shows that already).
///
/// # Errors
/// [`Refused::NotAPlayer`]; [`Refused::GameOver`] once the game is over (the end redrew
/// it); [`Refused::OutOfDate`] outside the battle.
pub fn refresh_own_field(rec: &mut GameRecord, player: PlayerId) -> Result<(), Refused> {
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    match rec.game.phase() {
        _ if rec.sea().is_none() => Err(Refused::OutOfDate),
        Phase::Battle => {
            show_own_field(rec, seat);
            Ok(())
        }
        Phase::Finished { .. } => Err(Refused::GameOver),
        _ => Err(Refused::OutOfDate),
    }
}

/// Queues the redraw of `seat`'s private own field (a human's), which is then no longer
/// behind.
pub(crate) fn show_own_field(rec: &mut GameRecord, seat: SeatId) {
    if let Some(sb) = rec.sea_mut() {
        sb.fields_behind.retain(|&s| s != seat.0);
    }
    if !rec.is_ai_seat(seat) {
        rec.push_effect(Effect::Dm { seat: seat.0 });
    }
}

/// Marks behind the private own fields that show `field`: its seat's and its teammates'.
fn mark_behind(rec: &mut GameRecord, field: SeatId) {
    let seats: Vec<u8> = std::iter::once(field)
        .chain(teammates(rec, field))
        .filter(|&s| !rec.is_ai_seat(s))
        .map(|s| s.0)
        .collect();
    if let Some(sb) = rec.sea_mut() {
        for s in seats {
            if !sb.fields_behind.contains(&s) {
                sb.fields_behind.push(s);
            }
        }
        sb.fields_behind.sort_unstable();
    }
}

/// The field a shot (or a weapon) struck a ship or a mine on; none for a miss, or a radar's
/// look, which change nothing of the fleet.
fn struck(e: &Event) -> Option<SeatId> {
    let strikes = |r: &ShotResult| *r != ShotResult::Miss;
    match e {
        Event::Shot { target, result, .. } => strikes(result).then_some(*target),
        Event::Salvo {
            target,
            hits,
            mines,
            ..
        } => (*hits > 0 || *mines > 0).then_some(*target),
        Event::AirStrike { target, cells, .. } => {
            cells.iter().any(|(_, r)| strikes(r)).then_some(*target)
        }
        Event::Torpedo { target, hit, .. } => hit
            .as_ref()
            .is_some_and(|(_, r)| strikes(r))
            .then_some(*target),
        _ => None,
    }
}

/// Keeps the answer to a salvo of the bot's: the view will not tell which cells hit.
fn remember_salvo(rec: &mut GameRecord, action: &Action, events: &[Event]) {
    let Action::Salvo(seat, target, cells) = action else {
        return;
    };
    for e in events {
        if let Event::Salvo { hits, mines, .. } = *e {
            let Some(sb) = rec.sea_mut() else {
                return;
            };
            sb.ai_salvos.push(AiSalvo {
                seat: seat.0,
                target: target.0,
                cells: cells.clone(),
                hits,
                mines,
            });
        }
    }
}

/// The field a cell button of `seat` shoots at: redraws of the group's message are paced,
/// so right after the shooter chose another field its keyboard may still show the one
/// before; its cells go to the field chosen.
pub fn aimed(rec: &GameRecord, seat: SeatId, target: u8) -> SeatId {
    match rec.current_aim() {
        Some(aim) if aim.shooter == seat => aim.target,
        _ => SeatId(target),
    }
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
        if rec.sea().is_some() && rec.game.ruleset().salvo.is_some() {
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

/// Whether `seat` may aim at `target` now.
fn may_aim(rec: &GameRecord, seat: SeatId, target: SeatId) -> Result<(), ActionError> {
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
fn aim_at(rec: &GameRecord, seat: SeatId, target: SeatId) -> Aim {
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
fn keep_aim(rec: &mut GameRecord, aim: Aim) {
    if let Some(sb) = rec.sea_mut() {
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
    if let Some(sb) = rec.sea_mut() {
        sb.block = block % blocks.max(1);
    }
    Ok(())
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

/// Whether the game has more than two fields, so every shot names the field it goes to.
pub fn is_aimed(rec: &GameRecord) -> bool {
    rec.game.ruleset().seats() > 2
}

/// The other seats of `seat`'s team (none but in teams).
pub fn teammates(rec: &GameRecord, seat: SeatId) -> Vec<SeatId> {
    let players = rec.game.ruleset().players;
    (0..rec.game.seats().len() as u8)
        .map(SeatId)
        .filter(|&s| s != seat && players.team(s.index()) == players.team(seat.index()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::{ai_player, AiSalvo};
    use engine::{random_fleet, Game, Players, Ruleset};
    use rand::SeedableRng;

    /// A game of `ruleset` whose battle has begun (its opening effects sent), between
    /// `players` (the bot where `true`), placed at random.
    fn battle(ruleset: Ruleset, bots: &[bool]) -> GameRecord {
        let mut rng = StdRng::seed_from_u64(7);
        let mut game = Game::new(ruleset.clone());
        for (i, &bot) in bots.iter().enumerate() {
            let p = if bot {
                ai_player(i as u8)
            } else {
                PlayerId(100 + i as u64)
            };
            game.apply(Action::Join(p), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..bots.len() as u8 {
            let fleet = random_fleet(&ruleset, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        let mut rec = GameRecord::new(game, -1, 0);
        rec.derive_effects();
        rec.delivery.outbox.clear();
        rec
    }

    /// A cell of `target`'s field not shot yet: a ship's (`hit`) or the water's.
    fn cell(rec: &GameRecord, target: SeatId, hit: bool) -> Coord {
        let fleet = rec.game.fleet(target).unwrap();
        let ships: Vec<Coord> = fleet.ship_cells().collect();
        rec.game
            .ruleset()
            .size()
            .cells()
            .find(|c| ships.contains(c) == hit && !rec.game.is_known(target, *c))
            .unwrap()
    }

    /// The seats whose own field these effects redraw, in order.
    fn own_fields(rec: &GameRecord) -> Vec<u8> {
        rec.delivery
            .outbox
            .iter()
            .filter_map(|o| match o.effect {
                Effect::Dm { seat } => Some(seat),
                _ => None,
            })
            .collect()
    }

    /// `action` played as the store plays it (the state's own effects after it); the own
    /// fields it queued (and the outbox emptied, as a sender would).
    fn queued(rec: &mut GameRecord, action: Action) -> Vec<u8> {
        let mut rng = StdRng::seed_from_u64(1);
        play(rec, action, 0, &mut rng).unwrap();
        rec.derive_effects();
        let seats = own_fields(rec);
        rec.delivery.outbox.clear();
        seats
    }

    /// A single shot of the player whose turn it is at `target`.
    fn shot(rec: &mut GameRecord, target: u8, hit: bool) -> Vec<u8> {
        let shooter = rec.game.turn();
        let c = cell(rec, SeatId(target), hit);
        queued(rec, Action::Fire(shooter, SeatId(target), c))
    }

    #[test]
    fn a_turn_of_three_hits_and_a_miss_redraws_the_targets_own_field_once_when_the_turn_passes() {
        let mut rec = battle(Ruleset::default(), &[false, false]);
        assert_eq!(rec.game.turn(), SeatId(0), "seat 0 begins (seeded)");
        for _ in 0..3 {
            assert_eq!(
                shot(&mut rec, 1, true),
                Vec::<u8>::new(),
                "a hit redraws nothing"
            );
        }
        assert_eq!(
            shot(&mut rec, 1, false),
            vec![1],
            "the miss passes the turn"
        );
        // The shooter's own field, not shot at, is not redrawn when the turn leaves it; it
        // is when the turn comes back after the enemy's shots.
        assert_eq!(shot(&mut rec, 0, true), Vec::<u8>::new());
        assert_eq!(shot(&mut rec, 0, false), vec![0]);
        // A turn of a miss alone: the miss is on the battle message, and waits for the
        // field's next redraw.
        assert_eq!(shot(&mut rec, 1, false), Vec::<u8>::new());
        assert_eq!(shot(&mut rec, 0, true), Vec::<u8>::new());
        assert_eq!(shot(&mut rec, 0, false), vec![0]);
        // Stored and read back, nothing is behind (both were just queued).
        let stored: GameRecord =
            serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert!(stored.sea().unwrap().fields_behind.is_empty());
    }

    #[test]
    fn a_field_shot_at_is_kept_behind_through_storage_until_its_turn() {
        let mut rec = battle(Ruleset::default(), &[false, false]);
        assert_eq!(rec.game.turn(), SeatId(0), "seat 0 begins (seeded)");
        shot(&mut rec, 1, true);
        let stored: GameRecord =
            serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(stored.sea().unwrap().fields_behind, vec![1]);
        rec = stored;
        assert_eq!(shot(&mut rec, 1, false), vec![1]);
    }

    #[test]
    fn the_end_redraws_every_own_field_once() {
        let mut rec = battle(Ruleset::default(), &[false, false]);
        // Seat 0 sinks every ship of seat 1 but the last cell, missing in between; seat 1
        // misses every time.
        let cells = rec.game.fleet(SeatId(1)).unwrap().ship_cells().count();
        for _ in 0..cells - 1 {
            shot(&mut rec, 1, true);
        }
        let mut rng = StdRng::seed_from_u64(1);
        let last = cell(&rec, SeatId(1), true);
        play(
            &mut rec,
            Action::Fire(SeatId(0), SeatId(1), last),
            0,
            &mut rng,
        )
        .unwrap();
        rec.derive_effects();
        rec.derive_effects();
        assert!(rec.game.is_finished());
        assert_eq!(own_fields(&rec), vec![0, 1], "each once, the winner's too");
    }

    #[test]
    fn a_salvo_redraws_the_targets_own_field_once_when_the_turn_passes() {
        let ruleset = Ruleset {
            salvo: Some(3),
            ..Ruleset::default()
        };
        let mut rec = battle(ruleset, &[false, false]);
        let first = rec.game.turn();
        let other = SeatId(1 - first.0);
        let size = rec.game.ruleset().size();
        let ships: Vec<Coord> = rec.game.fleet(other).unwrap().ship_cells().collect();
        let water: Vec<Coord> = size.cells().filter(|c| !ships.contains(c)).collect();
        // Three misses: nothing of the fleet changed.
        let seats = queued(&mut rec, Action::Salvo(first, other, water[..3].to_vec()));
        assert_eq!(seats, Vec::<u8>::new());
        // A salvo back, then one with a hit: the field it struck, once.
        let back: Vec<Coord> = size.cells().take(3).collect();
        queued(&mut rec, Action::Salvo(other, first, back));
        let cells = vec![ships[0], water[3], water[4]];
        let seats = queued(&mut rec, Action::Salvo(first, other, cells));
        assert_eq!(seats, vec![other.0]);
    }

    #[test]
    fn in_a_free_for_all_a_field_waits_for_its_own_turn() {
        let ruleset = Ruleset {
            players: Players::FreeForAll(3),
            ..Ruleset::default()
        };
        let mut rec = battle(ruleset, &[false, false, false]);
        // The seats in turn order from the first.
        let first = rec.game.turn().0;
        let [a, b, c] = [0, 1, 2].map(|k| (first + k) % 3);
        // a hits c, then misses at c: the turn goes to b, whose field nobody struck.
        assert_eq!(shot(&mut rec, c, true), Vec::<u8>::new());
        assert_eq!(shot(&mut rec, c, false), Vec::<u8>::new());
        assert_eq!(rec.sea().unwrap().fields_behind, vec![c]);
        // b misses at a: the turn goes to c, struck before.
        assert_eq!(shot(&mut rec, a, false), vec![c]);
        // c hits b, then misses at b: the turn goes to a, whose field only a miss reached;
        // b waits for its turn.
        assert_eq!(shot(&mut rec, b, true), Vec::<u8>::new());
        assert_eq!(shot(&mut rec, b, false), Vec::<u8>::new());
        assert_eq!(rec.sea().unwrap().fields_behind, vec![b]);
        assert_eq!(shot(&mut rec, c, false), vec![b]);
    }

    #[test]
    fn in_teams_a_field_struck_is_behind_for_the_teammate_who_sees_it_too() {
        let ruleset = Ruleset {
            players: Players::Teams,
            ..Ruleset::default()
        };
        let mut rec = battle(ruleset, &[false, false, false, false]);
        // The seats in turn order from the first: a and c against b and d.
        let first = rec.game.turn().0;
        let [a, b, c, d] = [0, 1, 2, 3].map(|k| (first + k) % 4);
        let sorted = |mut v: Vec<u8>| {
            v.sort_unstable();
            v
        };
        shot(&mut rec, b, true);
        assert_eq!(shot(&mut rec, b, false), vec![b]);
        assert_eq!(rec.sea().unwrap().fields_behind, vec![d]);
        shot(&mut rec, a, true);
        assert_eq!(
            shot(&mut rec, a, false),
            vec![c],
            "c sees its teammate's field"
        );
        assert_eq!(rec.sea().unwrap().fields_behind, sorted(vec![a, d]));
        shot(&mut rec, d, true);
        assert_eq!(shot(&mut rec, d, false), vec![d]);
        // d's own field shows b's too, which a struck: b waits for its turn, as a does.
        assert_eq!(rec.sea().unwrap().fields_behind, sorted(vec![a, b]));
    }

    #[test]
    fn a_cell_given_up_after_a_mine_is_shown_on_the_own_field_at_once() {
        let ruleset = Ruleset {
            mines: 1,
            ..Ruleset::default()
        };
        let mut rec = battle(ruleset, &[false, false]);
        let shooter = rec.game.turn();
        let target = SeatId(1 - shooter.0);
        let mine = rec.game.fleet(target).unwrap().mines()[0];
        // The mine struck is the target's: its field is behind; the shooter is asked.
        queued(&mut rec, Action::Fire(shooter, target, mine));
        assert!(rec.sea().unwrap().fields_behind.contains(&target.0));
        let own = rec
            .game
            .fleet(shooter)
            .unwrap()
            .ship_cells()
            .next()
            .unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        play(&mut rec, Action::GiveUp(shooter, own), 0, &mut rng).unwrap();
        // The giver's own field at once; then the turn passes to the target, whose mine
        // went off.
        assert_eq!(own_fields(&rec), vec![shooter.0, target.0]);
        assert!(rec
            .delivery
            .outbox
            .iter()
            .any(|o| matches!(o.effect, Effect::Mine { .. })));
    }

    #[test]
    fn a_player_may_ask_for_their_own_field_in_the_battle_only() {
        let mut rec = battle(Ruleset::default(), &[false, false]);
        let player = rec.game.seats()[1].player;
        shot(&mut rec, 1, true);
        assert_eq!(refresh_own_field(&mut rec, player), Ok(()));
        assert_eq!(own_fields(&rec), vec![1]);
        assert!(
            rec.sea().unwrap().fields_behind.is_empty(),
            "no longer behind"
        );
        assert_eq!(
            refresh_own_field(&mut rec, PlayerId(1)),
            Err(Refused::NotAPlayer)
        );
        let mut rng = StdRng::seed_from_u64(1);
        play(&mut rec, Action::Surrender(SeatId(0)), 0, &mut rng).unwrap();
        assert_eq!(refresh_own_field(&mut rec, player), Err(Refused::GameOver));
    }

    #[test]
    fn the_bots_seat_has_no_own_field_to_redraw() {
        let mut rec = battle(Ruleset::default(), &[false, true]);
        assert_eq!(rec.game.turn(), SeatId(0), "the player begins (seeded)");
        shot(&mut rec, 1, true);
        assert_eq!(shot(&mut rec, 1, false), Vec::<u8>::new());
        assert!(rec.sea().unwrap().fields_behind.is_empty());
        // The bot's turn of hits and a miss: the player's field when the turn comes back.
        assert_eq!(shot(&mut rec, 0, true), Vec::<u8>::new());
        assert_eq!(shot(&mut rec, 0, false), vec![0]);
    }

    #[test]
    fn the_bots_salvoes_and_their_answers_are_kept_for_its_next_aim() {
        let ruleset = Ruleset {
            salvo: Some(3),
            ..Ruleset::default()
        };
        let mut rec = GameRecord::new(Game::new(ruleset), 1, 0);
        let cells = vec![Coord::new(0, 0), Coord::new(1, 0), Coord::new(2, 0)];
        let salvo = Action::Salvo(SeatId(1), SeatId(0), cells.clone());
        let told = Event::Salvo {
            shooter: SeatId(1),
            target: SeatId(0),
            shots: 3,
            hits: 1,
            mines: 0,
            sunk: Vec::new(),
        };
        remember_salvo(&mut rec, &salvo, &[Event::Turn(SeatId(0)), told]);
        let kept = AiSalvo {
            seat: 1,
            target: 0,
            cells,
            hits: 1,
            mines: 0,
        };
        assert_eq!(rec.sea().unwrap().ai_salvos, vec![kept]);
        // A single shot is no salvo; the record keeps what it had, through storage too.
        remember_salvo(
            &mut rec,
            &Action::Fire(SeatId(1), SeatId(0), Coord::new(5, 5)),
            &[],
        );
        let stored: GameRecord =
            serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(stored.sea().unwrap().ai_salvos.len(), 1);
    }
}
