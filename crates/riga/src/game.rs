//! Fleets, set-up and play of docs/rules.md §5.

use crate::board::{Point, Side, Terrain, COLS, ROWS};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A type of ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Крейсер: sinks any ship.
    Cruiser,
    /// Подводная лодка: sinks any ship.
    Submarine,
    /// Эсминец: sinks a ship facing it bow-on or side-on.
    Destroyer,
    /// Сторожевой корабль: sinks any ship but a cruiser, stern-on or side-on.
    Patrol,
    /// Тральщик: sinks only a submarine or a minesweeper; lays and sweeps mines.
    Minesweeper,
}

/// Each side's twelve ships.
pub const FLEET: [Kind; 12] = [
    Kind::Cruiser,
    Kind::Submarine,
    Kind::Submarine,
    Kind::Destroyer,
    Kind::Destroyer,
    Kind::Destroyer,
    Kind::Destroyer,
    Kind::Destroyer,
    Kind::Destroyer,
    Kind::Patrol,
    Kind::Patrol,
    Kind::Minesweeper,
];

/// Mines each fleet may lay.
pub const MINES: u8 = 2;
/// Moves in a row with no ship lost that end the game in a draw.
pub const QUIET_MOVES: u16 = 60;

/// Where a bow points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Facing {
    /// Towards row 1.
    North,
    /// Towards column 12.
    East,
    /// Towards row 13.
    South,
    /// Towards column 1.
    West,
}

impl Facing {
    /// 90° to the left.
    pub fn left(self) -> Facing {
        match self {
            Facing::North => Facing::West,
            Facing::West => Facing::South,
            Facing::South => Facing::East,
            Facing::East => Facing::North,
        }
    }

    /// 90° to the right.
    pub fn right(self) -> Facing {
        self.left().left().left()
    }

    /// The opposite way.
    pub fn back(self) -> Facing {
        self.left().left()
    }

    /// The next point this way from `p`, if on the lattice.
    pub fn step(self, p: Point) -> Option<Point> {
        let (c, r) = (i16::from(p.col), i16::from(p.row));
        let (c, r) = match self {
            Facing::North => (c, r - 1),
            Facing::East => (c + 1, r),
            Facing::South => (c, r + 1),
            Facing::West => (c - 1, r),
        };
        if c < 0 || r < 0 || c >= i16::from(COLS) || r >= i16::from(ROWS) {
            return None;
        }
        Point::new(c as u8, r as u8)
    }
}

/// One ship on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    /// Whose.
    pub side: Side,
    /// What.
    pub kind: Kind,
    /// Where.
    pub at: Point,
    /// Where its bow points.
    pub facing: Facing,
}

/// What a player does on a turn; ships are named by their index in [`Game::ships`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// One step to the next point the bow points at (sinking an enemy ship there).
    Forward(u8),
    /// A quarter turn left in place.
    Left(u8),
    /// A quarter turn right in place.
    Right(u8),
    /// A minesweeper's step forward, leaving a mine on the point it left.
    Lay(u8),
    /// Only when no other move is legal.
    Pass,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// This side sank the whole enemy fleet.
    Win(Side),
    /// Neither can move, or [`QUIET_MOVES`] moves passed with no ship lost.
    Draw,
}

/// Why a move or a set-up is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over.
    Over,
    /// It is the other side's turn.
    NotYourTurn,
    /// No ship of the mover with that index is afloat.
    NoSuchShip,
    /// The step leaves the board or runs onto land.
    Blocked,
    /// An own ship stands there.
    OwnShip,
    /// The capture table forbids sinking that ship from here.
    CannotSink,
    /// Only a minesweeper lays mines.
    NotAMinesweeper,
    /// Both mines are laid.
    NoMinesLeft,
    /// A mine lies here already.
    AlreadyMined,
    /// A pass while a move is possible.
    MustMove,
    /// A set-up that is not the twelve ships of the fleet.
    BadSetup,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl std::error::Error for MoveError {}

/// How the target shows itself to the attacker's bow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aspect {
    Bow,
    Side,
    Stern,
}

/// Whether `attacker`, facing `towards`, may sink `target` (the capture table of §5).
pub fn may_sink(attacker: Kind, towards: Facing, target: Kind, target_facing: Facing) -> bool {
    let aspect = if target_facing == towards.back() {
        Aspect::Bow
    } else if target_facing == towards {
        Aspect::Stern
    } else {
        Aspect::Side
    };
    match attacker {
        Kind::Cruiser | Kind::Submarine => true,
        Kind::Destroyer => aspect != Aspect::Stern,
        Kind::Patrol => target != Kind::Cruiser && aspect != Aspect::Bow,
        Kind::Minesweeper => matches!(target, Kind::Submarine | Kind::Minesweeper),
    }
}

/// A game in play: the ships (indices 0–11 North's, 12–23 South's; `None` once lost), the
/// mines, whose turn it is and the counters of the draw rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    #[serde(rename = "s")]
    ships: Vec<Option<Ship>>,
    #[serde(rename = "m")]
    mines: Vec<Point>,
    #[serde(rename = "l")]
    laid: [u8; 2],
    #[serde(rename = "t")]
    turn: Side,
    #[serde(rename = "q")]
    quiet: u16,
    #[serde(rename = "n")]
    moves: u32,
    #[serde(rename = "o", default, skip_serializing_if = "Option::is_none")]
    outcome: Option<Outcome>,
}

fn side_index(s: Side) -> usize {
    match s {
        Side::North => 0,
        Side::South => 1,
    }
}

impl Game {
    /// A game with each side's twelve ships in the given order on its start points (west to
    /// east), all facing the enemy; `first` moves first (drawn by lot by the caller).
    ///
    /// # Errors
    /// [`MoveError::BadSetup`] unless each order is the fleet's twelve ships.
    pub fn new(north: &[Kind], south: &[Kind], first: Side) -> Result<Game, MoveError> {
        let is_fleet = |order: &[Kind]| {
            let mut a = order.to_vec();
            let mut b = FLEET.to_vec();
            let key = |k: &Kind| *k as u8;
            a.sort_by_key(key);
            b.sort_by_key(key);
            a == b
        };
        if !is_fleet(north) || !is_fleet(south) {
            return Err(MoveError::BadSetup);
        }
        let mut ships = Vec::with_capacity(24);
        for (side, order, facing) in [
            (Side::North, north, Facing::South),
            (Side::South, south, Facing::North),
        ] {
            for (&kind, at) in order.iter().zip(Point::starts(side)) {
                ships.push(Some(Ship {
                    side,
                    kind,
                    at,
                    facing,
                }));
            }
        }
        Ok(Game {
            ships,
            mines: Vec::new(),
            laid: [0, 0],
            turn: first,
            quiet: 0,
            moves: 0,
            outcome: None,
        })
    }

    /// A position as given (for scenarios and tests): `ships` by index, mines on the board,
    /// mines laid so far by North and South, and the side to move.
    pub fn custom(ships: Vec<Option<Ship>>, mines: Vec<Point>, laid: [u8; 2], turn: Side) -> Game {
        Game {
            ships,
            mines,
            laid,
            turn,
            quiet: 0,
            moves: 0,
            outcome: None,
        }
    }

    /// The ships by index; `None` for a ship lost.
    pub fn ships(&self) -> &[Option<Ship>] {
        &self.ships
    }

    /// The mines on the board.
    pub fn mines(&self) -> &[Point] {
        &self.mines
    }

    /// Mines `side` may still lay.
    pub fn mines_left(&self, side: Side) -> u8 {
        MINES - self.laid[side_index(side)]
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Moves in a row with no ship lost.
    pub fn quiet(&self) -> u16 {
        self.quiet
    }

    /// Moves made so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// How it ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The ship at `p`, with its index.
    pub fn ship_at(&self, p: Point) -> Option<(usize, Ship)> {
        self.ships
            .iter()
            .enumerate()
            .find_map(|(i, s)| s.filter(|s| s.at == p).map(|s| (i, s)))
    }

    /// `side`'s ships afloat.
    pub fn afloat(&self, side: Side) -> usize {
        self.ships
            .iter()
            .flatten()
            .filter(|s| s.side == side)
            .count()
    }

    /// Checks `mv` by the side to move without playing it.
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        self.clone().play(self.turn, mv).map(|_| ())
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (i, s) in self.ships.iter().enumerate() {
            let Some(s) = s.filter(|s| s.side == self.turn) else {
                continue;
            };
            let i = i as u8;
            out.push(Move::Left(i));
            out.push(Move::Right(i));
            if self.step_error(s).is_none() {
                out.push(Move::Forward(i));
                if s.kind == Kind::Minesweeper
                    && self.mines_left(s.side) > 0
                    && !self.mines.contains(&s.at)
                {
                    out.push(Move::Lay(i));
                }
            }
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
        out
    }

    /// Why `s` may not step forward, if it may not.
    fn step_error(&self, s: Ship) -> Option<MoveError> {
        let Some(to) = s.facing.step(s.at).filter(|p| p.is_sea()) else {
            return Some(MoveError::Blocked);
        };
        match self.ship_at(to) {
            Some((_, t)) if t.side == s.side => Some(MoveError::OwnShip),
            Some((_, t)) if !may_sink(s.kind, s.facing, t.kind, t.facing) => {
                Some(MoveError::CannotSink)
            }
            _ => None,
        }
    }

    /// Plays `mv` for `side`; returns the indices of the ships lost by it.
    ///
    /// # Errors
    /// [`MoveError`] says why the move is illegal; the game is then unchanged.
    pub fn play(&mut self, side: Side, mv: Move) -> Result<Vec<usize>, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::Over);
        }
        if side != self.turn {
            return Err(MoveError::NotYourTurn);
        }
        let own = |i: u8| -> Result<(usize, Ship), MoveError> {
            let i = usize::from(i);
            match self.ships.get(i).copied().flatten() {
                Some(s) if s.side == side => Ok((i, s)),
                _ => Err(MoveError::NoSuchShip),
            }
        };
        let mut lost = Vec::new();
        match mv {
            Move::Pass => {
                if self.legal_moves() != vec![Move::Pass] {
                    return Err(MoveError::MustMove);
                }
            }
            Move::Left(i) | Move::Right(i) => {
                let (i, s) = own(i)?;
                let facing = if matches!(mv, Move::Left(_)) {
                    s.facing.left()
                } else {
                    s.facing.right()
                };
                self.ships[i] = Some(Ship { facing, ..s });
            }
            Move::Forward(i) | Move::Lay(i) => {
                let (i, s) = own(i)?;
                let lay = matches!(mv, Move::Lay(_));
                if lay {
                    if s.kind != Kind::Minesweeper {
                        return Err(MoveError::NotAMinesweeper);
                    }
                    if self.mines_left(side) == 0 {
                        return Err(MoveError::NoMinesLeft);
                    }
                    if self.mines.contains(&s.at) {
                        return Err(MoveError::AlreadyMined);
                    }
                }
                if let Some(e) = self.step_error(s) {
                    return Err(e);
                }
                let to = s.facing.step(s.at).expect("checked");
                // Leaving: a minesweeper standing on a mine has swept it; a layer leaves one.
                if s.kind == Kind::Minesweeper {
                    self.mines.retain(|&m| m != s.at);
                }
                if lay {
                    self.mines.push(s.at);
                    self.laid[side_index(side)] += 1;
                }
                // Sinking the enemy there.
                if let Some((j, _)) = self.ship_at(to) {
                    self.ships[j] = None;
                    lost.push(j);
                }
                let mut alive = true;
                // A mine destroys any ship but a minesweeper, and is spent.
                if s.kind != Kind::Minesweeper && self.mines.contains(&to) {
                    self.mines.retain(|&m| m != to);
                    alive = false;
                }
                // A red point of the enemy's half: its battery destroys the ship.
                if matches!(to.terrain(), Terrain::Red(owner) if owner != side) {
                    alive = false;
                }
                self.ships[i] = alive.then_some(Ship { at: to, ..s });
                if !alive {
                    lost.push(i);
                }
            }
        }
        self.moves += 1;
        self.quiet = if lost.is_empty() { self.quiet + 1 } else { 0 };
        self.turn = side.other();
        self.outcome = self.ended(side);
        Ok(lost)
    }

    /// The outcome after `mover`'s move, if the game is over.
    fn ended(&self, mover: Side) -> Option<Outcome> {
        let (mine, theirs) = (self.afloat(mover), self.afloat(mover.other()));
        if theirs == 0 {
            return Some(Outcome::Win(mover));
        }
        if mine == 0 {
            return Some(Outcome::Win(mover.other()));
        }
        if self.quiet >= QUIET_MOVES {
            return Some(Outcome::Draw);
        }
        let stuck = |side: Side| {
            let mut g = self.clone();
            g.turn = side;
            g.legal_moves() == vec![Move::Pass]
        };
        if stuck(Side::North) && stuck(Side::South) {
            return Some(Outcome::Draw);
        }
        None
    }
}
