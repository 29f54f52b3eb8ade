//! What a player may see: their own and their teammates' fields in full, every other field as
//! the public knows it. The AI is given a [`View`], so by type it cannot see hidden ships.

use crate::coord::{Coord, Size};
use crate::event::SeatId;
use crate::game::{Game, Phase};
use crate::kind::Kind;
use crate::ruleset::Ruleset;
use crate::terrain::Border;
use crate::weapon::{Run, Scan};

/// What a viewer knows about one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Not shot at, nothing known (or, on an own field, empty water).
    Unknown,
    /// Shot at in a salvo; the answer is not told for single cells.
    Shot,
    /// Shot at: nothing there.
    Miss,
    /// Not shot at, known empty ([`Game::known_empty`]): around a sunk ship, a corner of a
    /// hit where ships never touch, a torpedo's run, a radar's empty square. Shown to those
    /// who do not see the whole field (an own field shows only what was marked).
    Halo,
    /// A hit on a ship still afloat.
    Hit,
    /// A cell of a sunk ship.
    Sunk,
    /// A mine that was shot.
    Mine,
    /// An own ship cell not hit (owner and teammates only).
    Ship,
    /// An own mine not shot (owner and teammates only).
    IdleMine,
}

impl Mark {
    /// Whether the cell is already shot or known empty, so it cannot be shot again.
    pub fn is_known(self) -> bool {
        !matches!(self, Mark::Unknown | Mark::Ship | Mark::IdleMine)
    }
}

/// One field as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldView {
    /// Whose field.
    pub seat: SeatId,
    /// Its size.
    pub size: Size,
    /// Marks in row-major order.
    pub marks: Vec<Mark>,
    /// Whether the viewer sees the whole field (own, teammate's, or the game is over).
    pub full: bool,
    /// The land-sea border, when the viewer sees the whole field.
    pub border: Option<Border>,
    /// Kinds of the ships sunk on this field (public: the answer "убил" names them).
    pub sunk: Vec<Kind>,
    /// Whether the fleet still has an unhit ship cell.
    pub afloat: bool,
    /// Whether the player surrendered or forfeited.
    pub retired: bool,
    /// The radar readings taken of this field, oldest first (public, docs/rules.md §3.8).
    pub scans: Vec<Scan>,
    /// The torpedoes' runs over this field, oldest first (public).
    pub runs: Vec<Run>,
    /// How many of each weapon (in [`crate::Weapon::ALL`]'s order) this field's owner has
    /// left to fire (public; all 0 without the arsenal).
    pub weapons: [u8; 3],
}

impl FieldView {
    /// The mark of a cell.
    pub fn mark(&self, c: Coord) -> Mark {
        self.marks[self.size.index(c)]
    }
}

/// A whole game as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The viewer's seat; `None` for the public (the group chat).
    pub viewer: Option<SeatId>,
    /// The ruleset.
    pub ruleset: Ruleset,
    /// The phase.
    pub phase: Phase,
    /// Whose turn it is.
    pub turn: SeatId,
    /// Every field, by seat.
    pub fields: Vec<FieldView>,
}

impl View {
    /// The field of a seat.
    pub fn field(&self, seat: SeatId) -> &FieldView {
        &self.fields[seat.index()]
    }
}

impl Game {
    /// The public view: what the group may see.
    pub fn public_view(&self) -> View {
        self.view(None)
    }

    /// What the player in `seat` may see.
    pub fn view_for(&self, seat: SeatId) -> View {
        self.view(Some(seat))
    }

    /// Every field of the game in full (every ship shown), as it was after only `shots` had
    /// been made, in order: each the seat shot at and the cell. A replay's step of a finished
    /// game; halos are marked as in play. A shot off the field, or at no seat, is left out.
    pub fn fields_after(&self, shots: &[(SeatId, Coord)]) -> Vec<FieldView> {
        self.fields_after_with(shots, &[])
    }

    /// [`Game::fields_after`], with the cells the arsenal told empty (a torpedo's run, a
    /// radar's square that counted nothing) marked so, unless shot.
    pub fn fields_after_with(
        &self,
        shots: &[(SeatId, Coord)],
        empty: &[(SeatId, Coord)],
    ) -> Vec<FieldView> {
        let size = self.ruleset.size();
        let mut g = self.clone();
        for s in &mut g.seats {
            s.shots = crate::cellset::CellSet::default();
            s.halo = crate::cellset::CellSet::default();
            s.retired = false;
            s.scans.clear();
            s.runs.clear();
        }
        for &(target, c) in shots {
            if target.index() < g.seats.len() && size.contains(c) {
                g.strike(target, c);
            }
        }
        for &(seat, c) in empty {
            if let Some(s) = g.seats.get_mut(seat.index()).filter(|_| size.contains(c)) {
                if !s.shots.contains(size, c) {
                    s.halo.insert(size, c);
                }
            }
        }
        (0..g.seats.len() as u8)
            .map(|s| g.field_view(SeatId(s), true))
            .collect()
    }

    fn view(&self, viewer: Option<SeatId>) -> View {
        let players = self.ruleset.players;
        let fields = (0..self.seats.len() as u8)
            .map(SeatId)
            .map(|s| {
                let full = self.is_finished()
                    || viewer.is_some_and(|v| players.team(v.index()) == players.team(s.index()));
                self.field_view(s, full)
            })
            .collect();
        View {
            viewer,
            ruleset: self.ruleset.clone(),
            phase: self.phase.clone(),
            turn: self.turn,
            fields,
        }
    }

    fn field_view(&self, seat: SeatId, full: bool) -> FieldView {
        let size = self.ruleset.size();
        let s = &self.seats[seat.index()];
        let salvo = self.ruleset.salvo.is_some();
        let fleet = s.fleet.as_ref();
        let sunk_ship = |id| {
            let ship = fleet.map(|f| f.ship(id));
            ship.is_some_and(|ship| ship.cells.iter().all(|&c| s.shots.contains(size, c)))
        };
        let marks = size
            .cells()
            .map(|c| {
                let ship = fleet.and_then(|f| f.ship_at(c));
                let mine = fleet.is_some_and(|f| f.is_mine(c));
                if s.shots.contains(size, c) {
                    match (salvo && !full, ship, mine) {
                        (true, _, _) => Mark::Shot,
                        (_, Some(id), _) if sunk_ship(id) => Mark::Sunk,
                        (_, Some(_), _) => Mark::Hit,
                        (_, None, true) => Mark::Mine,
                        _ => Mark::Miss,
                    }
                } else if s.halo.contains(size, c) || (!full && self.known_empty(seat, c)) {
                    Mark::Halo
                } else if full && ship.is_some() {
                    Mark::Ship
                } else if full && mine {
                    Mark::IdleMine
                } else {
                    Mark::Unknown
                }
            })
            .collect();
        let sunk = fleet
            .map(|f| {
                f.ships()
                    .iter()
                    .filter(|sh| sh.cells.iter().all(|&c| s.shots.contains(size, c)))
                    .map(|sh| sh.kind)
                    .collect()
            })
            .unwrap_or_default();
        FieldView {
            seat,
            size,
            marks,
            full,
            border: if full {
                fleet.and_then(|f| f.border().cloned())
            } else {
                None
            },
            sunk,
            afloat: self.is_afloat(seat),
            retired: s.retired,
            scans: s.scans.clone(),
            runs: s.runs.clone(),
            weapons: self.weapons_left(seat),
        }
    }
}

#[cfg(test)]
mod replay_tests {
    use super::*;
    use crate::event::{Action, Event, PlayerId, ShotResult};
    use crate::generate::random_fleet;
    use rand::SeedableRng;

    /// Shooting the same cells again from the start, step by step, gives the fields the game
    /// itself showed after each shot; after every shot, the game's own final fields.
    #[test]
    fn the_fields_after_each_shot_are_the_fields_the_game_showed_then() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let r = Ruleset::default();
        let mut game = Game::new(r.clone());
        for p in [1, 2] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..2 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        let size = r.size();
        let mut shots = Vec::new();
        let mut seen = Vec::new();
        let mut next = [0usize; 2];
        while !game.is_finished() {
            let shooter = game.turn();
            let target = SeatId(1 - shooter.0);
            let c = loop {
                let c = size.coord(next[shooter.index()]);
                next[shooter.index()] += 1;
                if !game.is_known(target, c) {
                    break c;
                }
            };
            let events = game
                .apply(Action::Fire(shooter, target, c), 0, &mut rng)
                .unwrap();
            assert!(events.iter().any(|e| matches!(
                e,
                Event::Shot {
                    result: ShotResult::Miss | ShotResult::Hit | ShotResult::Sunk(_),
                    ..
                }
            )));
            shots.push((target, c));
            seen.push(game.clone());
        }
        for (k, then) in seen.iter().enumerate() {
            let fields = game.fields_after(&shots[..=k]);
            for s in 0..2u8 {
                let mut expected = then.field_view(SeatId(s), true);
                expected.afloat = fields[s as usize].afloat;
                assert_eq!(
                    fields[s as usize].marks, expected.marks,
                    "step {k}, seat {s}"
                );
                assert_eq!(fields[s as usize].sunk, expected.sunk, "step {k}, seat {s}");
            }
        }
        assert_eq!(game.fields_after(&shots), game.public_view().fields);
    }
}
