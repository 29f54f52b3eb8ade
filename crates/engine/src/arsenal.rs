//! The arsenal ("Морской бой 2", docs/rules.md §3.8) as the game plays it: a radar, an air
//! strike and a submarine's torpedo, each usable once a game (or twice, by the lobby's
//! choice). A weapon is the player's whole turn: the turn passes afterwards, whatever it
//! found, unless a mine it set off asks for a cell first. The weapons themselves, their
//! squares and runs, are in `weapon.rs`.

use crate::coord::Coord;
use crate::event::{ActionError, Event, SeatId, ShotResult, Timestamp};
use crate::game::Game;
use crate::weapon::{headings_from, run_cells, square, Heading, Run, Scan, Weapon};

impl Game {
    /// How many of each weapon (in [`Weapon::ALL`]'s order) `seat` has left: public.
    pub fn weapons_left(&self, seat: SeatId) -> [u8; 3] {
        let per = self.ruleset.arsenal;
        let used = self.seat(seat).map_or([0; 3], |s| s.used);
        [0, 1, 2].map(|i| per.saturating_sub(used[i]))
    }

    /// The radar readings taken of `seat`'s field, oldest first: public.
    pub fn scans(&self, seat: SeatId) -> &[Scan] {
        self.seat(seat).map_or(&[], |s| &s.scans)
    }

    /// The checks every weapon passes: the arsenal is played, the shooter may shoot at
    /// `target` now, and has `weapon` left.
    fn check_weapon(
        &self,
        seat: SeatId,
        target: SeatId,
        weapon: Weapon,
    ) -> Result<(), ActionError> {
        if self.ruleset.arsenal == 0 {
            return Err(ActionError::NoArsenal);
        }
        self.check_shooter(seat, target)?;
        if self.weapons_left(seat)[weapon.index()] == 0 {
            return Err(ActionError::UsedUp(weapon));
        }
        Ok(())
    }

    /// The unknown cells of `target`'s square around `center`; refused when the centre is
    /// off the field or the square has none.
    fn new_cells_of_square(
        &self,
        target: SeatId,
        center: Coord,
    ) -> Result<Vec<Coord>, ActionError> {
        let size = self.ruleset.size();
        if !size.contains(center) {
            return Err(ActionError::OffField(center));
        }
        let new: Vec<Coord> = square(center, size)
            .into_iter()
            .filter(|&c| !self.is_known(target, c))
            .collect();
        if new.is_empty() {
            return Err(ActionError::NoNewCell(center));
        }
        Ok(new)
    }

    fn use_weapon(&mut self, seat: SeatId, weapon: Weapon) {
        self.seats[seat.index()].used[weapon.index()] += 1;
    }

    /// A radar over `target`'s square around `center`.
    pub(crate) fn radar(
        &mut self,
        seat: SeatId,
        target: SeatId,
        center: Coord,
        now: Timestamp,
    ) -> Result<Vec<Event>, ActionError> {
        self.check_weapon(seat, target, Weapon::Radar)?;
        let unknown = self.new_cells_of_square(target, center)?;
        let size = self.ruleset.size();
        let cells = square(center, size);
        let s = &self.seats[target.index()];
        let fleet = s.fleet.as_ref().ok_or(ActionError::WrongPhase)?;
        let ships = cells
            .iter()
            .filter(|&&c| fleet.ship_at(c).is_some())
            .count() as u8;
        let count = cells
            .iter()
            .filter(|&&c| fleet.ship_at(c).is_some() && !s.shots.contains(size, c))
            .count() as u8;
        self.use_weapon(seat, Weapon::Radar);
        let s = &mut self.seats[target.index()];
        if count == 0 {
            // Nothing afloat in the square: every unknown cell of it is known empty.
            for c in unknown {
                s.halo.insert(size, c);
            }
        }
        s.scans.push(Scan {
            center,
            count,
            ships,
        });
        let mut events = vec![Event::Radar {
            shooter: seat,
            target,
            center,
            count,
        }];
        self.pass_turn(now, &mut events);
        Ok(events)
    }

    /// An air strike on `target`'s square around `center`: every new cell shot.
    pub(crate) fn air_strike(
        &mut self,
        seat: SeatId,
        target: SeatId,
        center: Coord,
        now: Timestamp,
    ) -> Result<Vec<Event>, ActionError> {
        self.check_weapon(seat, target, Weapon::AirStrike)?;
        let new = self.new_cells_of_square(target, center)?;
        self.use_weapon(seat, Weapon::AirStrike);
        let mut cells = Vec::with_capacity(new.len());
        let mut mines = 0;
        for c in new {
            let result = self.strike(target, c);
            if result == ShotResult::Mine {
                mines += 1;
            }
            cells.push((c, result));
        }
        let mut events = vec![Event::AirStrike {
            shooter: seat,
            target,
            center,
            cells,
        }];
        self.after_weapon(seat, target, mines, now, &mut events);
        Ok(events)
    }

    /// A torpedo fired at `target`'s field from edge cell `from` (`heading` chosen at a
    /// corner; elsewhere the only one, which may be left out).
    pub(crate) fn torpedo(
        &mut self,
        seat: SeatId,
        target: SeatId,
        from: Coord,
        heading: Option<Heading>,
        now: Timestamp,
    ) -> Result<Vec<Event>, ActionError> {
        self.check_weapon(seat, target, Weapon::Torpedo)?;
        let size = self.ruleset.size();
        if !size.contains(from) {
            return Err(ActionError::OffField(from));
        }
        let allowed = headings_from(from, size);
        let heading = match (heading, allowed.as_slice()) {
            (_, []) => return Err(ActionError::NotFromEdge(from)),
            (Some(h), _) if allowed.contains(&h) => h,
            (Some(h), _) => return Err(ActionError::WrongHeading(from, h)),
            (None, [only]) => *only,
            (None, _) => return Err(ActionError::NeedsHeading(from)),
        };
        let run = run_cells(from, heading, size);
        let mut len = run.len() as u8;
        if run.iter().all(|&c| self.is_known(target, c)) {
            return Err(ActionError::NoNewCell(from));
        }
        self.use_weapon(seat, Weapon::Torpedo);
        let mut passed = Vec::new();
        let mut hit = None;
        for (i, c) in run.into_iter().enumerate() {
            if self.is_known(target, c) {
                // Hit cells, misses and cells known empty: the torpedo runs on.
                continue;
            }
            let s = &self.seats[target.index()];
            let stops = s
                .fleet
                .as_ref()
                .is_some_and(|f| f.ship_at(c).is_some() || f.is_mine(c));
            if stops {
                hit = Some((c, self.strike(target, c)));
                len = i as u8 + 1;
                break;
            }
            self.seats[target.index()].halo.insert(size, c);
            passed.push(c);
        }
        self.seats[target.index()]
            .runs
            .push(Run { from, heading, len });
        let mines = u8::from(matches!(hit, Some((_, ShotResult::Mine))));
        let mut events = vec![Event::Torpedo {
            shooter: seat,
            target,
            from,
            heading,
            passed,
            hit,
        }];
        self.after_weapon(seat, target, mines, now, &mut events);
        Ok(events)
    }

    /// After a weapon that shot: eliminations and the end, then the mine's rule once for each
    /// mine set off, else the turn passes.
    fn after_weapon(
        &mut self,
        seat: SeatId,
        target: SeatId,
        mines: u8,
        now: Timestamp,
        events: &mut Vec<Event>,
    ) {
        self.after_strikes(seat, &[target], now, events);
        if mines > 0 {
            self.begin_mine_choice(seat, mines, now, events);
        } else {
            self.pass_turn(now, events);
        }
    }
}
