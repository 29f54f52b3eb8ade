//! The game state machine: lobby → placement → battle → finished.
//!
//! [`Game::apply`] takes an [`Action`], the current time and a random source, and either
//! changes the game and returns the [`Event`]s, or refuses with an [`ActionError`] and changes
//! nothing. Shooting lives in `battle.rs`, the views in `view.rs`.

use crate::cellset::CellSet;
use crate::commit;
use crate::coord::Coord;
use crate::event::{Action, ActionError, EndReason, Event, PlayerId, SeatId, Timestamp};
use crate::fleet::Fleet;
use crate::ruleset::Ruleset;
use crate::validate;
use crate::SCHEMA_VERSION;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Where a game is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Players join.
    Lobby,
    /// Players place their fleets.
    Placement,
    /// Players shoot.
    Battle,
    /// Over.
    Finished {
        /// The winning seats.
        winners: Vec<SeatId>,
        /// Why it ended.
        reason: EndReason,
    },
}

/// One seat: its player, fleet, commitment salt and the shots its field has taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Who sits here.
    #[serde(rename = "p")]
    pub player: PlayerId,
    #[serde(rename = "f", default, skip_serializing_if = "Option::is_none")]
    pub(crate) fleet: Option<Fleet>,
    /// The commitment's salt; the commitment itself is recomputed from fleet and salt.
    #[serde(rename = "k", default, skip_serializing_if = "Option::is_none")]
    pub(crate) salt: Option<String>,
    /// Cells of this seat's field that were shot at (or given up after a mine).
    #[serde(rename = "x", default)]
    pub(crate) shots: CellSet,
    /// Cells of this seat's field marked empty around sunk ships.
    #[serde(rename = "o", default)]
    pub(crate) halo: CellSet,
    /// Surrendered or forfeited.
    #[serde(rename = "r", default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) retired: bool,
    /// How many of each weapon of the arsenal this seat used (docs/rules.md §3.8), in
    /// [`crate::Weapon::ALL`]'s order.
    #[serde(rename = "w", default, skip_serializing_if = "unused")]
    pub(crate) used: [u8; 3],
    /// The radar readings taken of this seat's field.
    #[serde(rename = "sc", default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) scans: Vec<crate::weapon::Scan>,
    /// The torpedoes' runs over this seat's field.
    #[serde(rename = "tr", default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) runs: Vec<crate::weapon::Run>,
}

/// Whether no weapon was used (not written then).
fn unused(used: &[u8; 3]) -> bool {
    used.iter().all(|&n| n == 0)
}

/// A pending "give up one of your cells" step after a mine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MineChoice {
    /// Who must choose.
    pub seat: SeatId,
    /// How many cells are still to be given up.
    pub remaining: u8,
    /// When a random cell is taken instead.
    pub deadline: Timestamp,
}

/// A whole game. Stored as it is (serde); see `v` for the schema version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// Schema version of the stored game.
    pub v: u16,
    #[serde(rename = "r")]
    pub(crate) ruleset: Ruleset,
    #[serde(rename = "ph")]
    pub(crate) phase: Phase,
    #[serde(rename = "s")]
    pub(crate) seats: Vec<Seat>,
    #[serde(rename = "t")]
    pub(crate) turn: SeatId,
    /// When the current turn (or the last shot) started.
    #[serde(rename = "ts")]
    pub(crate) turn_started: Timestamp,
    #[serde(rename = "rm", default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) reminded: bool,
    #[serde(rename = "mc", default, skip_serializing_if = "Option::is_none")]
    pub(crate) mine_choice: Option<MineChoice>,
    /// Actions applied so far: a version that changes with every accepted action.
    #[serde(rename = "n")]
    pub(crate) moves: u32,
}

impl Game {
    /// A new game in its lobby.
    pub fn new(ruleset: Ruleset) -> Game {
        Game {
            v: SCHEMA_VERSION,
            ruleset,
            phase: Phase::Lobby,
            seats: Vec::new(),
            turn: SeatId(0),
            turn_started: 0,
            reminded: false,
            mine_choice: None,
            moves: 0,
        }
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The phase.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        matches!(self.phase, Phase::Finished { .. })
    }

    /// The seats taken so far.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The seat of a player.
    pub fn seat_of(&self, player: PlayerId) -> Option<SeatId> {
        self.seats
            .iter()
            .position(|s| s.player == player)
            .map(|i| SeatId(i as u8))
    }

    /// Whose turn it is (meaningful in battle).
    pub fn turn(&self) -> SeatId {
        self.turn
    }

    /// The pending mine choice, if any.
    pub fn mine_choice(&self) -> Option<MineChoice> {
        self.mine_choice
    }

    /// A number that changes with every accepted action: buttons carry it to detect staleness.
    pub fn version(&self) -> u32 {
        self.moves
    }

    /// Whether the seat has locked its fleet.
    pub fn is_ready(&self, seat: SeatId) -> bool {
        self.seat(seat).is_some_and(|s| s.fleet.is_some())
    }

    /// The seat's own fleet: for its owner's view and the end-of-game reveal only.
    pub fn fleet(&self, seat: SeatId) -> Option<&Fleet> {
        self.seat(seat)?.fleet.as_ref()
    }

    /// The SHA-256 commitment to the seat's fleet, once locked.
    pub fn commitment(&self, seat: SeatId) -> Option<String> {
        let s = self.seat(seat)?;
        Some(commit::commitment(
            s.fleet.as_ref()?,
            s.salt.as_ref()?,
            self.v,
        ))
    }

    /// The seat's canonical layout text and salt, published only when the game is over. The
    /// text is of the game's schema version (see [`commit::COMPACT_SINCE`]), so a game
    /// stored before still reveals what its commitment was made of.
    pub fn reveal(&self, seat: SeatId) -> Option<(String, String)> {
        let s = self.seat(seat).filter(|_| self.is_finished())?;
        Some((
            commit::canonical_text_for(s.fleet.as_ref()?, self.v),
            s.salt.clone()?,
        ))
    }

    /// When [`Action::Tick`] next has something to do: a reminder, a forfeit or a mine timeout.
    pub fn next_deadline(&self) -> Option<Timestamp> {
        if self.phase != Phase::Battle {
            return None;
        }
        if let Some(m) = self.mine_choice {
            return Some(m.deadline);
        }
        let secs = self.ruleset.timer.seconds()?;
        Some(if self.reminded {
            self.turn_started + secs
        } else {
            self.turn_started + secs / 2
        })
    }

    pub(crate) fn seat(&self, seat: SeatId) -> Option<&Seat> {
        self.seats.get(seat.index())
    }

    /// Applies one action at time `now`.
    ///
    /// # Errors
    /// The reason the action is refused; the game is then exactly as it was.
    pub fn apply(
        &mut self,
        action: Action,
        now: Timestamp,
        rng: &mut impl Rng,
    ) -> Result<Vec<Event>, ActionError> {
        if self.is_finished() {
            return Err(ActionError::GameOver);
        }
        let events = match action {
            Action::Join(player) => self.join(player)?,
            Action::Leave(player) => self.leave(player)?,
            Action::Swap(a, b) => self.swap(a, b)?,
            Action::Start => self.start()?,
            Action::Ready(seat, fleet) => self.ready(seat, fleet, now, rng)?,
            Action::Fire(seat, target, cell) => self.fire(seat, target, cell, now)?,
            Action::Salvo(seat, target, cells) => self.salvo(seat, target, &cells, now)?,
            Action::Radar(seat, target, center) => self.radar(seat, target, center, now)?,
            Action::AirStrike(seat, target, center) => {
                self.air_strike(seat, target, center, now)?
            }
            Action::Torpedo(seat, target, from, heading) => {
                self.torpedo(seat, target, from, heading, now)?
            }
            Action::GiveUp(seat, cell) => self.give_up(seat, cell, now, false)?,
            Action::Surrender(seat) => self.surrender(seat, now)?,
            Action::Cancel => self.cancel()?,
            Action::Abandon => self.call_off(),
            Action::Tick => self.tick(now, rng),
        };
        if !events.is_empty() {
            self.moves += 1;
        }
        Ok(events)
    }

    fn in_phase(&self, phase: &Phase) -> Result<(), ActionError> {
        if &self.phase == phase {
            Ok(())
        } else {
            Err(ActionError::WrongPhase)
        }
    }

    fn join(&mut self, player: PlayerId) -> Result<Vec<Event>, ActionError> {
        self.in_phase(&Phase::Lobby)?;
        if self.seat_of(player).is_some() {
            return Err(ActionError::AlreadySeated);
        }
        if self.seats.len() >= self.ruleset.seats() {
            return Err(ActionError::Full);
        }
        self.seats.push(Seat {
            player,
            fleet: None,
            salt: None,
            shots: CellSet::default(),
            halo: CellSet::default(),
            retired: false,
            used: [0; 3],
            scans: Vec::new(),
            runs: Vec::new(),
        });
        Ok(vec![Event::Joined(
            SeatId(self.seats.len() as u8 - 1),
            player,
        )])
    }

    fn leave(&mut self, player: PlayerId) -> Result<Vec<Event>, ActionError> {
        self.in_phase(&Phase::Lobby)?;
        let seat = self.seat_of(player).ok_or(ActionError::NotInGame)?;
        self.seats.remove(seat.index());
        Ok(vec![Event::Left(player)])
    }

    fn swap(&mut self, a: SeatId, b: SeatId) -> Result<Vec<Event>, ActionError> {
        self.in_phase(&Phase::Lobby)?;
        if a.index() >= self.seats.len() || b.index() >= self.seats.len() {
            return Err(ActionError::NotInGame);
        }
        self.seats.swap(a.index(), b.index());
        Ok(vec![
            Event::Joined(a, self.seats[a.index()].player),
            Event::Joined(b, self.seats[b.index()].player),
        ])
    }

    fn start(&mut self) -> Result<Vec<Event>, ActionError> {
        self.in_phase(&Phase::Lobby)?;
        if self.seats.len() < self.ruleset.seats() {
            return Err(ActionError::NotFull);
        }
        self.phase = Phase::Placement;
        Ok(vec![Event::PlacementBegan])
    }

    fn ready(
        &mut self,
        seat: SeatId,
        fleet: Fleet,
        now: Timestamp,
        rng: &mut impl Rng,
    ) -> Result<Vec<Event>, ActionError> {
        self.in_phase(&Phase::Placement)?;
        let s = self.seat(seat).ok_or(ActionError::NotInGame)?;
        if s.fleet.is_some() {
            return Err(ActionError::AlreadyReady);
        }
        let problems =
            validate::problems(&self.ruleset, fleet.ships(), fleet.mines(), fleet.border());
        if !problems.is_empty() {
            return Err(ActionError::IllegalFleet(problems));
        }
        let salt = commit::salt(rng);
        let s = &mut self.seats[seat.index()];
        s.fleet = Some(fleet);
        s.salt = Some(salt);
        let mut events = vec![Event::Ready(seat)];
        if self.seats.iter().all(|s| s.fleet.is_some()) {
            let first = SeatId(rng.gen_range(0..self.seats.len()) as u8);
            self.phase = Phase::Battle;
            self.turn = first;
            self.turn_started = now;
            let commitments = (0..self.seats.len())
                .filter_map(|i| self.commitment(SeatId(i as u8)))
                .collect();
            events.push(Event::BattleBegan { first, commitments });
            events.push(Event::Turn(first));
        }
        Ok(events)
    }

    fn cancel(&mut self) -> Result<Vec<Event>, ActionError> {
        if self.phase == Phase::Battle {
            return Err(ActionError::WrongPhase);
        }
        Ok(self.call_off())
    }

    /// The game ends, called off, with no winner: in any phase.
    fn call_off(&mut self) -> Vec<Event> {
        let reason = EndReason::Cancelled;
        self.mine_choice = None;
        self.phase = Phase::Finished {
            winners: Vec::new(),
            reason,
        };
        vec![Event::Finished {
            winners: Vec::new(),
            reason,
        }]
    }

    /// The cells of the seat's field marked empty around its sunk ships.
    pub fn halo_marks(&self, seat: SeatId) -> Vec<Coord> {
        let size = self.ruleset.size();
        self.seat(seat)
            .map(|s| s.halo.iter(size).collect())
            .unwrap_or_default()
    }

    /// Whether `c` of the seat's field is already shot at or known empty: a cell the shooter
    /// may not shoot at.
    pub fn is_known(&self, seat: SeatId, c: Coord) -> bool {
        let size = self.ruleset.size();
        self.seat(seat).is_some_and(|s| s.shots.contains(size, c)) || self.known_empty(seat, c)
    }

    /// Whether `c` of the seat's field, not shot at, is known to hold nothing the shooter
    /// looks for: marked empty (the halo of a sunk ship, a torpedo's run, a radar's empty
    /// square), or a corner of a hit where the rules say it is empty
    /// ([`Ruleset::corners_of_a_hit_are_empty`]). What everyone else sees as
    /// [`crate::Mark::Halo`] on this field, and what a shot there is refused for
    /// ([`crate::ActionError::AlreadyKnown`]): the one rule of both.
    pub fn known_empty(&self, seat: SeatId, c: Coord) -> bool {
        let size = self.ruleset.size();
        let Some(s) = self.seat(seat) else {
            return false;
        };
        if s.shots.contains(size, c) {
            return false;
        }
        s.halo.contains(size, c)
            || (self.ruleset.corners_of_a_hit_are_empty()
                && c.corners(size).any(|d| self.open_hit(s, d)))
    }

    /// Whether `c` of seat `s`'s field is a hit on a ship still afloat.
    fn open_hit(&self, s: &Seat, c: Coord) -> bool {
        let size = self.ruleset.size();
        if !s.shots.contains(size, c) {
            return false;
        }
        let Some(fleet) = s.fleet.as_ref() else {
            return false;
        };
        fleet.ship_at(c).is_some_and(|id| {
            !fleet
                .ship(id)
                .cells
                .iter()
                .all(|&x| s.shots.contains(size, x))
        })
    }
}
