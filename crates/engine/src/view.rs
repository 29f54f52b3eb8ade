//! What a player may see: their own and their teammates' fields in full, every other field as
//! the public knows it. The AI is given a [`View`], so by type it cannot see hidden ships.

use crate::coord::{Coord, Size};
use crate::event::SeatId;
use crate::game::{Game, Phase};
use crate::kind::Kind;
use crate::ruleset::Ruleset;
use crate::terrain::Border;

/// What a viewer knows about one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Not shot at, nothing known (or, on an own field, empty water).
    Unknown,
    /// Shot at in a salvo; the answer is not told for single cells.
    Shot,
    /// Shot at: nothing there.
    Miss,
    /// Marked empty around a sunk ship.
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
                } else if s.halo.contains(size, c) {
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
        }
    }
}
