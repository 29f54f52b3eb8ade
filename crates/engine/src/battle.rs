//! Shooting: single shots with the extra shot and halo marking, salvoes with their limited
//! report, mines and the give-up step, elimination, victory, surrender and the turn timer.

use crate::coord::Coord;
use crate::event::{
    ActionError, EndReason, Event, SeatId, ShotResult, Timestamp, MINE_CHOICE_SECONDS,
};
use crate::fleet;
use crate::game::{Game, MineChoice, Phase};
use crate::ruleset::Players;
use rand::seq::SliceRandom;
use rand::Rng;

impl Game {
    fn team(&self, seat: SeatId) -> usize {
        self.ruleset.players.team(seat.index())
    }

    /// Whether the seat's fleet still has an unhit ship cell and the seat has not retired.
    pub fn is_afloat(&self, seat: SeatId) -> bool {
        let size = self.ruleset.size();
        self.seat(seat).is_some_and(|s| {
            !s.retired
                && s.fleet
                    .as_ref()
                    .is_some_and(|f| f.ship_cells().any(|c| !s.shots.contains(size, c)))
        })
    }

    fn team_afloat(&self, team: usize) -> bool {
        (0..self.seats.len())
            .map(|i| SeatId(i as u8))
            .any(|s| self.team(s) == team && self.is_afloat(s))
    }

    /// Whether the seat takes turns: afloat, or in teams, not retired while its team is afloat.
    pub fn can_shoot(&self, seat: SeatId) -> bool {
        match self.ruleset.players {
            Players::Teams => {
                self.seat(seat).is_some_and(|s| !s.retired) && self.team_afloat(self.team(seat))
            }
            _ => self.is_afloat(seat),
        }
    }

    /// Whether `shooter` may shoot at `target`'s field.
    pub fn can_target(&self, shooter: SeatId, target: SeatId) -> bool {
        self.team(shooter) != self.team(target) && self.is_afloat(target)
    }

    /// The fields `shooter` may shoot at.
    pub fn targets(&self, shooter: SeatId) -> Vec<SeatId> {
        (0..self.seats.len() as u8)
            .map(SeatId)
            .filter(|&t| self.can_target(shooter, t))
            .collect()
    }

    pub(crate) fn check_shooter(&self, seat: SeatId, target: SeatId) -> Result<(), ActionError> {
        if self.phase != Phase::Battle {
            return Err(ActionError::WrongPhase);
        }
        if self.seat(seat).is_none() {
            return Err(ActionError::NotInGame);
        }
        if self.mine_choice.is_some() {
            return Err(ActionError::MineChoicePending);
        }
        if self.turn != seat {
            return Err(ActionError::NotYourTurn);
        }
        if !self.can_target(seat, target) {
            return Err(ActionError::BadTarget);
        }
        Ok(())
    }

    fn check_cell(&self, target: SeatId, c: Coord) -> Result<(), ActionError> {
        if !self.ruleset.size().contains(c) {
            return Err(ActionError::OffField(c));
        }
        if self.is_known(target, c) {
            return Err(ActionError::AlreadyKnown(c));
        }
        Ok(())
    }

    /// Marks `c` of `target` as shot and says what it hit; marks the halo of a sunk ship
    /// unless salvoes are played.
    pub(crate) fn strike(&mut self, target: SeatId, c: Coord) -> ShotResult {
        let size = self.ruleset.size();
        let touching = self.ruleset.touching();
        let halo_marking = self.ruleset.salvo.is_none();
        let seat = &mut self.seats[target.index()];
        seat.shots.insert(size, c);
        let Some(fleet) = seat.fleet.as_ref() else {
            return ShotResult::Miss;
        };
        if fleet.is_mine(c) {
            return ShotResult::Mine;
        }
        let Some(id) = fleet.ship_at(c) else {
            return ShotResult::Miss;
        };
        let ship = fleet.ship(id);
        if !ship.cells.iter().all(|&s| seat.shots.contains(size, s)) {
            return ShotResult::Hit;
        }
        if halo_marking {
            for h in fleet::halo(&ship.cells, touching, size) {
                seat.halo.insert(size, h);
            }
        }
        ShotResult::Sunk(ship.kind)
    }

    pub(crate) fn fire(
        &mut self,
        seat: SeatId,
        target: SeatId,
        c: Coord,
        now: Timestamp,
    ) -> Result<Vec<Event>, ActionError> {
        self.check_shooter(seat, target)?;
        if self.ruleset.salvo.is_some() {
            return Err(ActionError::WrongShotKind);
        }
        self.check_cell(target, c)?;
        let result = self.strike(target, c);
        let mut events = vec![Event::Shot {
            shooter: seat,
            target,
            cell: c,
            result,
        }];
        self.after_strikes(seat, &[target], now, &mut events);
        match result {
            ShotResult::Mine => self.begin_mine_choice(seat, 1, now, &mut events),
            ShotResult::Miss => self.pass_turn(now, &mut events),
            ShotResult::Hit | ShotResult::Sunk(_) => self.keep_turn(now, &mut events),
        }
        Ok(events)
    }

    pub(crate) fn salvo(
        &mut self,
        seat: SeatId,
        target: SeatId,
        cells: &[Coord],
        now: Timestamp,
    ) -> Result<Vec<Event>, ActionError> {
        self.check_shooter(seat, target)?;
        let n = self.ruleset.salvo.ok_or(ActionError::WrongShotKind)?;
        let size = self.ruleset.size();
        let unknown = size.cells().filter(|&c| !self.is_known(target, c)).count();
        let expected = usize::from(n).min(unknown);
        let mut distinct = cells.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        if cells.len() != expected || distinct.len() != cells.len() {
            return Err(ActionError::SalvoSize {
                expected: expected as u8,
            });
        }
        for &c in cells {
            self.check_cell(target, c)?;
        }
        let (mut hits, mut mines, mut sunk) = (0, 0, Vec::new());
        for &c in cells {
            match self.strike(target, c) {
                ShotResult::Miss => {}
                ShotResult::Hit => hits += 1,
                ShotResult::Sunk(kind) => {
                    hits += 1;
                    sunk.push(kind);
                }
                ShotResult::Mine => mines += 1,
            }
        }
        let mut events = vec![Event::Salvo {
            shooter: seat,
            target,
            shots: cells.len() as u8,
            hits,
            mines,
            sunk,
        }];
        self.after_strikes(seat, &[target], now, &mut events);
        if mines > 0 {
            self.begin_mine_choice(seat, mines, now, &mut events);
        } else {
            self.pass_turn(now, &mut events);
        }
        Ok(events)
    }

    /// Reports eliminations among `fields` and ends the game when one team is left.
    pub(crate) fn after_strikes(
        &mut self,
        _shooter: SeatId,
        fields: &[SeatId],
        now: Timestamp,
        events: &mut Vec<Event>,
    ) {
        let _ = now;
        for &f in fields {
            if !self.is_afloat(f) && !self.seats[f.index()].retired {
                events.push(Event::Eliminated(f));
            }
        }
        self.check_end(EndReason::Sunk, events);
    }

    fn check_end(&mut self, reason: EndReason, events: &mut Vec<Event>) {
        if self.is_finished() {
            return;
        }
        let teams: Vec<usize> = (0..self.seats.len())
            .map(|i| self.team(SeatId(i as u8)))
            .filter(|&t| self.team_afloat(t))
            .collect();
        let mut alive = teams.clone();
        alive.dedup();
        if alive.len() > 1 {
            return;
        }
        let winners: Vec<SeatId> = (0..self.seats.len() as u8)
            .map(SeatId)
            .filter(|&s| alive.contains(&self.team(s)))
            .collect();
        self.mine_choice = None;
        self.phase = Phase::Finished {
            winners: winners.clone(),
            reason,
        };
        events.push(Event::Finished { winners, reason });
    }

    fn keep_turn(&mut self, now: Timestamp, events: &mut Vec<Event>) {
        if self.is_finished() {
            return;
        }
        self.turn_started = now;
        self.reminded = false;
        events.push(Event::Turn(self.turn));
    }

    pub(crate) fn pass_turn(&mut self, now: Timestamp, events: &mut Vec<Event>) {
        if self.is_finished() {
            return;
        }
        let n = self.seats.len();
        let next = (1..=n)
            .map(|k| SeatId(((self.turn.index() + k) % n) as u8))
            .find(|&s| self.can_shoot(s));
        if let Some(next) = next {
            self.turn = next;
        }
        self.keep_turn(now, events);
    }

    fn unhit_own_cells(&self, seat: SeatId) -> Vec<Coord> {
        let size = self.ruleset.size();
        let s = &self.seats[seat.index()];
        s.fleet
            .as_ref()
            .map(|f| {
                f.ship_cells()
                    .filter(|&c| !s.shots.contains(size, c))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub(crate) fn begin_mine_choice(
        &mut self,
        seat: SeatId,
        count: u8,
        now: Timestamp,
        events: &mut Vec<Event>,
    ) {
        if self.is_finished() {
            return;
        }
        let remaining = count.min(self.unhit_own_cells(seat).len() as u8);
        if remaining == 0 {
            return self.pass_turn(now, events);
        }
        let deadline = now + MINE_CHOICE_SECONDS;
        self.mine_choice = Some(MineChoice {
            seat,
            remaining,
            deadline,
        });
        events.push(Event::MineChoice {
            seat,
            remaining,
            deadline,
        });
    }

    pub(crate) fn give_up(
        &mut self,
        seat: SeatId,
        c: Coord,
        now: Timestamp,
        timed_out: bool,
    ) -> Result<Vec<Event>, ActionError> {
        let choice = self.mine_choice.ok_or(ActionError::NoMineChoice)?;
        if choice.seat != seat {
            return Err(ActionError::NotYourTurn);
        }
        if !self.unhit_own_cells(seat).contains(&c) {
            return Err(ActionError::NotYourCell(c));
        }
        let result = self.strike(seat, c);
        let mut events = vec![Event::GaveUp {
            seat,
            cell: c,
            result,
            timed_out,
        }];
        self.after_strikes(seat, &[seat], now, &mut events);
        let remaining = choice.remaining - 1;
        if self.is_finished() {
            return Ok(events);
        }
        if remaining > 0 && !self.unhit_own_cells(seat).is_empty() {
            self.mine_choice = Some(MineChoice {
                remaining,
                ..choice
            });
            events.push(Event::MineChoice {
                seat,
                remaining,
                deadline: choice.deadline,
            });
        } else {
            self.mine_choice = None;
            self.pass_turn(now, &mut events);
        }
        Ok(events)
    }

    fn retire(&mut self, seat: SeatId, now: Timestamp, events: &mut Vec<Event>) {
        self.seats[seat.index()].retired = true;
        if self.mine_choice.is_some_and(|m| m.seat == seat) {
            self.mine_choice = None;
        }
        self.check_end(EndReason::Retired, events);
        if self.turn == seat || !self.can_shoot(self.turn) {
            self.pass_turn(now, events);
        }
    }

    pub(crate) fn surrender(
        &mut self,
        seat: SeatId,
        now: Timestamp,
    ) -> Result<Vec<Event>, ActionError> {
        if self.phase != Phase::Battle {
            return Err(ActionError::WrongPhase);
        }
        let s = self.seat(seat).ok_or(ActionError::NotInGame)?;
        if s.retired {
            return Err(ActionError::NotInGame);
        }
        let mut events = vec![Event::Surrendered(seat)];
        self.retire(seat, now, &mut events);
        Ok(events)
    }

    pub(crate) fn tick(&mut self, now: Timestamp, rng: &mut impl Rng) -> Vec<Event> {
        if self.phase != Phase::Battle {
            return Vec::new();
        }
        if let Some(choice) = self.mine_choice {
            if now < choice.deadline {
                return Vec::new();
            }
            let mut events = Vec::new();
            while let Some(m) = self.mine_choice {
                let Some(&c) = self.unhit_own_cells(m.seat).choose(rng) else {
                    self.mine_choice = None;
                    self.pass_turn(now, &mut events);
                    break;
                };
                match self.give_up(m.seat, c, now, true) {
                    Ok(more) => events.extend(more),
                    Err(_) => break,
                }
            }
            return events;
        }
        let Some(secs) = self.ruleset.timer.seconds() else {
            return Vec::new();
        };
        let seat = self.turn;
        if now >= self.turn_started + secs {
            let mut events = vec![Event::Forfeit(seat)];
            self.retire(seat, now, &mut events);
            events
        } else if !self.reminded && now >= self.turn_started + secs / 2 {
            self.reminded = true;
            vec![Event::Reminder(seat)]
        } else {
            Vec::new()
        }
    }
}
