//! The application layer: what an action does to a game's record, with no Telegram and no
//! Redis. Each function takes the record (and the action, the clock, a random source) and
//! leaves the new record with the effects it implies in its outbox (`effects.rs`); the store
//! saves both in one atomic transition, and the Telegram adapter (`telegram/`) only parses
//! updates into actions and delivers the effects.

use crate::game::delivery::Effect;
use crate::game::record::{Aim, GameRecord};
use engine::ai::{hard_fleet, Level};
use engine::{
    perelman_fleet, random_fleet, Action, ActionError, Coord, Event, Fleet, Ruleset, RulesetError,
    SeatId,
};
use rand::Rng;

/// Applies `action` to the record: the game's events, the shooter's aim, the log and the
/// outbox (the private fields it changed, the mine question). The events, or the engine's
/// refusal (then the caller's transition saves nothing).
pub fn apply_move(
    rec: &mut GameRecord,
    action: Action,
    now: u64,
    rng: &mut rand::rngs::StdRng,
) -> Result<Vec<Event>, ActionError> {
    let events = rec.game.apply(action.clone(), now, rng)?;
    if let Action::Fire(shooter, target, _) | Action::Salvo(shooter, target, _) = action {
        let aimed = is_aimed(rec);
        if let Some(sb) = rec.sea_mut().filter(|_| aimed) {
            sb.aim = Some(Aim {
                shooter,
                target,
                picked: Vec::new(),
            });
        }
    }
    rec.push_log(&events);
    queue_effects(rec, &events);
    Ok(events)
}

/// Puts in the outbox what a move makes visible besides the live message: the private
/// fields it changed, and the mine question it asked or answered.
fn queue_effects(rec: &mut GameRecord, events: &[Event]) {
    for seat in changed_fields(rec, events) {
        if !rec.is_ai_seat(seat) {
            rec.push_effect(Effect::Dm { seat: seat.0 });
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

/// Keeps the answer to a salvo of the bot's: the view will not tell which cells hit.
pub fn remember_salvo(rec: &mut GameRecord, action: &Action, events: &[Event]) {
    let Action::Salvo(seat, target, cells) = action else {
        return;
    };
    for e in events {
        if let Event::Salvo { hits, mines, .. } = *e {
            let Some(sb) = rec.sea_mut() else {
                return;
            };
            sb.ai_salvos.push(crate::game::record::AiSalvo {
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

/// The bot's fleet for a level: random for easy; random or Perelman's for normal; for hard,
/// and learning, the layout the engine chooses to be dear for a strong shooter.
pub fn fleet(ruleset: &Ruleset, level: Level, rng: &mut impl Rng) -> Result<Fleet, RulesetError> {
    match level {
        Level::Easy => random_fleet(ruleset, rng),
        Level::Normal if rng.gen_bool(0.5) => random_fleet(ruleset, rng),
        Level::Normal => perelman_fleet(ruleset, rng),
        Level::Hard | Level::Learning => hard_fleet(ruleset, rng),
    }
}

/// Locks a fleet for every seat of the bot that has none yet (in the Start transition).
pub fn place_fleets(
    rec: &mut GameRecord,
    now: u64,
    rng: &mut impl Rng,
) -> Result<Vec<Event>, ActionError> {
    let mut events = Vec::new();
    for seat in rec.ai_seats() {
        if rec.game.is_ready(seat) {
            continue;
        }
        let fleet = fleet(rec.game.ruleset(), rec.ai_level, rng)
            .map_err(|_| ActionError::IllegalFleet(Vec::new()))?;
        events.extend(rec.game.apply(Action::Ready(seat, fleet), now, rng)?);
    }
    Ok(events)
}

/// The seats whose private message these events change: the fields shot at (and their
/// teammates, who see them), the seats whose "your turn" line changes, and everyone's when
/// the game ends or time ran out.
fn changed_fields(rec: &GameRecord, events: &[Event]) -> Vec<SeatId> {
    let all: Vec<SeatId> = (0..rec.game.seats().len() as u8).map(SeatId).collect();
    let mut actor = None;
    let mut fields = Vec::new();
    let mut turns = Vec::new();
    for e in events {
        match *e {
            Event::Shot {
                shooter, target, ..
            }
            | Event::Salvo {
                shooter, target, ..
            } => {
                actor = Some(shooter);
                fields.push(target);
            }
            Event::GaveUp { seat, .. } => {
                actor = Some(seat);
                fields.push(seat);
            }
            Event::Turn(s) if actor != Some(s) => match actor {
                Some(a) => turns.extend([a, s]),
                None => return all,
            },
            Event::Finished { .. } | Event::Forfeit(_) | Event::Surrendered(_) => return all,
            _ => {}
        }
    }
    let mut out: Vec<SeatId> = fields.iter().flat_map(|&s| teammates(rec, s)).collect();
    out.extend(fields);
    out.extend(turns);
    out.sort_unstable();
    out.dedup();
    out
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
    use crate::game::record::AiSalvo;
    use engine::Game;

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
