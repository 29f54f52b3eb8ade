//! What a move makes visible besides the live message: the private own fields it brought
//! up to date (or left behind until the turn comes), the mine question, and the answers to
//! the bot's own salvoes.

use super::*;
use crate::game::delivery::Effect;
use crate::game::record::{AiSalvo, GameRecord};
use crate::game::refused::Refused;
use engine::{Action, Event, Phase, PlayerId, SeatId, ShotResult};

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
pub(super) fn queue_effects(rec: &mut GameRecord, turn_before: SeatId, events: &[Event]) {
    if rec.quick && !events.is_empty() {
        // A quick match's private messages are its boards: every move redraws both.
        for s in rec.human_seats() {
            show_own_field(rec, s);
        }
    }
    let mut turn = turn_before;
    for e in events {
        match *e {
            Event::GaveUp { seat, .. } => {
                mark_behind(rec, seat);
                show_own_field(rec, seat);
            }
            Event::Turn(s) if s != turn => {
                turn = s;
                if sea_part(&mut rec.play).is_some_and(|sb| sb.fields_behind.contains(&s.0)) {
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
        _ if sea_part(&mut rec.play).is_none() => Err(Refused::OutOfDate),
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
    if let Some(sb) = sea_part(&mut rec.play) {
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
    if let Some(sb) = sea_part(&mut rec.play) {
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
pub(super) fn remember_salvo(rec: &mut GameRecord, action: &Action, events: &[Event]) {
    let Action::Salvo(seat, target, cells) = action else {
        return;
    };
    for e in events {
        if let Event::Salvo { hits, mines, .. } = *e {
            let Some(sb) = sea_part(&mut rec.play) else {
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
