//! The Riga game's state as the record keeps it: both players' set-up, the game, its lines
//! for the group's message, its end. The transitions that change it are in `riga.rs`.

use rand::seq::SliceRandom;
use rand::Rng;
use riga::{Game, Kind, Move, MoveError, Outcome, Point, Side, FLEET};
use serde::{Deserialize, Serialize};

/// How many lines of the latest moves the group's message shows.
pub const LINES: usize = 4;

/// A Riga game's state beyond the lobby.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RigaPlay {
    /// Each seat's order of ships on its start points, west to east.
    #[serde(default)]
    pub orders: Vec<Vec<Kind>>,
    /// Each seat's start point tapped first, waiting for the second to swap with.
    #[serde(default)]
    pub picked: Vec<Option<u8>>,
    /// Which seats have locked their order.
    #[serde(default)]
    pub ready: Vec<bool>,
    /// The game, once both orders are locked.
    #[serde(default)]
    pub game: Option<Game>,
    /// The latest moves in words (the group's language), oldest first.
    #[serde(default)]
    pub lines: Vec<String>,
    /// The last move's points (from, to), to mark on the board.
    #[serde(default)]
    pub last: Option<(Point, Point)>,
    /// When the side to move began its turn (Unix seconds).
    #[serde(default)]
    pub turn_started: u64,
    /// Whether the side to move has been reminded of the timer.
    #[serde(default)]
    pub reminded: bool,
    /// How it ended, once it has.
    #[serde(default)]
    pub end: Option<RigaEnd>,
    /// The position the battle began in (both orders locked, the first to move drawn), and
    /// every move since, in order: the game's replay. Games begun before replays have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Game>,
    /// Every move played, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Move>,
}

/// How a Riga game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RigaEnd {
    /// As the rules say: a side sank the other's fleet, or a draw.
    Played(Outcome),
    /// A side gave up.
    Surrendered(Side),
    /// A side let its turn time run out.
    TimedOut(Side),
    /// Called off before the battle.
    Cancelled,
}

/// Why a tap of the set-up is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Not a seat of this game.
    NotASeat,
    /// The set-up is over (the order is locked, or the battle began).
    NotOrdering,
    /// No such start point.
    NoPoint,
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The battle is not on.
    NotInBattle,
    /// The other side's turn.
    NotYourTurn,
    /// The rules refuse the move.
    Rules(MoveError),
}

/// The side a seat plays.
pub fn side_of(seat: u8) -> Side {
    if seat == 0 {
        Side::North
    } else {
        Side::South
    }
}

/// The seat that plays a side.
pub fn seat_of(side: Side) -> u8 {
    match side {
        Side::North => 0,
        Side::South => 1,
    }
}

/// A random order of the fleet.
pub fn random_order(rng: &mut impl Rng) -> Vec<Kind> {
    let mut order = FLEET.to_vec();
    order.shuffle(rng);
    order
}

impl RigaPlay {
    /// The set-up of two seats, each with a random order to start from.
    pub fn ordering(rng: &mut impl Rng) -> RigaPlay {
        RigaPlay {
            orders: vec![random_order(rng), random_order(rng)],
            picked: vec![None, None],
            ready: vec![false, false],
            ..RigaPlay::default()
        }
    }

    /// Whether the seats are still ordering their fleets.
    pub fn is_ordering(&self) -> bool {
        self.game.is_none() && self.end.is_none() && !self.orders.is_empty()
    }

    /// Whether the battle is on.
    pub fn in_battle(&self) -> bool {
        self.end.is_none() && self.game.is_some()
    }

    fn open_seat(&self, seat: u8) -> Result<usize, SetupError> {
        let i = usize::from(seat);
        if i >= self.orders.len() {
            return Err(SetupError::NotASeat);
        }
        if !self.is_ordering() || self.ready[i] {
            return Err(SetupError::NotOrdering);
        }
        Ok(i)
    }

    /// A tap on start point `point` of the seat's set-up: the first tap picks it, the
    /// second swaps the two ships (the same point again drops the pick).
    pub fn tap(&mut self, seat: u8, point: u8) -> Result<(), SetupError> {
        let i = self.open_seat(seat)?;
        let p = usize::from(point);
        if p >= self.orders[i].len() {
            return Err(SetupError::NoPoint);
        }
        match self.picked[i].take() {
            None => self.picked[i] = Some(point),
            Some(q) => self.orders[i].swap(usize::from(q), p),
        }
        Ok(())
    }

    /// A new random order for the seat.
    pub fn shuffle(&mut self, seat: u8, rng: &mut impl Rng) -> Result<(), SetupError> {
        let i = self.open_seat(seat)?;
        self.orders[i] = random_order(rng);
        self.picked[i] = None;
        Ok(())
    }

    /// Locks the seat's order; when both are locked the fleets are revealed together and
    /// the first mover is drawn by lot. `true` when the battle began.
    pub fn lock(&mut self, seat: u8, now: u64, rng: &mut impl Rng) -> Result<bool, SetupError> {
        let i = self.open_seat(seat)?;
        self.ready[i] = true;
        self.picked[i] = None;
        if !self.ready.iter().all(|&r| r) {
            return Ok(false);
        }
        let first = if rng.gen_bool(0.5) {
            Side::North
        } else {
            Side::South
        };
        let game = Game::new(&self.orders[0], &self.orders[1], first)
            .map_err(|_| SetupError::NotOrdering)?;
        self.start = Some(game.clone());
        self.game = Some(game);
        self.turn_started = now;
        self.reminded = false;
        Ok(true)
    }

    /// Plays the seat's move; the indices of the ships lost. `line` puts the move in words.
    pub fn play(
        &mut self,
        seat: u8,
        mv: Move,
        now: u64,
        line: impl FnOnce(&Game, Move, &[usize]) -> String,
    ) -> Result<Vec<usize>, PlayError> {
        if self.end.is_some() {
            return Err(PlayError::NotInBattle);
        }
        let game = self.game.as_mut().ok_or(PlayError::NotInBattle)?;
        let side = side_of(seat);
        if game.turn() != side {
            return Err(PlayError::NotYourTurn);
        }
        let before = game.clone();
        let lost = game.play(side, mv).map_err(PlayError::Rules)?;
        let outcome = game.outcome();
        self.history.push(mv);
        self.last = move_points(&before, mv);
        self.push_line(line(&before, mv, &lost));
        self.turn_started = now;
        self.reminded = false;
        if let Some(outcome) = outcome {
            self.end = Some(RigaEnd::Played(outcome));
        }
        Ok(lost)
    }

    /// Adds a line to the latest moves, keeping [`LINES`].
    pub fn push_line(&mut self, line: String) {
        self.lines.push(line);
        if self.lines.len() > LINES {
            self.lines.remove(0);
        }
    }

    /// The side to move, while the battle is on.
    pub fn to_move(&self) -> Option<Side> {
        self.game
            .as_ref()
            .filter(|_| self.end.is_none())
            .map(Game::turn)
    }

    /// When the timer next has something to do (Unix seconds): the reminder at half the
    /// turn's time, then the forfeit.
    pub fn deadline(&self, turn_seconds: Option<u64>) -> Option<u64> {
        self.to_move()?;
        let secs = turn_seconds?;
        Some(if self.reminded {
            self.turn_started + secs
        } else {
            self.turn_started + secs / 2
        })
    }

    /// What the timer does at `now`: `Some(false)` a reminder, `Some(true)` the side to move
    /// forfeits (the game ends), `None` nothing yet.
    pub fn tick(&mut self, now: u64, turn_seconds: Option<u64>) -> Option<bool> {
        let due = self.deadline(turn_seconds)?;
        if now < due {
            return None;
        }
        let side = self.to_move()?;
        if self.reminded {
            self.end = Some(RigaEnd::TimedOut(side));
            Some(true)
        } else {
            self.reminded = true;
            Some(false)
        }
    }

    /// The seat gives up; `false` when the game is not on.
    pub fn surrender(&mut self, seat: u8) -> bool {
        if self.end.is_some() || self.orders.is_empty() {
            return false;
        }
        self.end = Some(RigaEnd::Surrendered(side_of(seat)));
        true
    }

    /// The winning side, once decided.
    pub fn winner(&self) -> Option<Side> {
        match self.end? {
            RigaEnd::Played(Outcome::Win(s)) => Some(s),
            RigaEnd::Surrendered(s) | RigaEnd::TimedOut(s) => Some(s.other()),
            RigaEnd::Played(Outcome::Draw) | RigaEnd::Cancelled => None,
        }
    }
}

/// The points a move concerns in the position before it: (from, to) for a step, the ship's
/// point twice for a turn; `None` for a pass or a move of no ship.
pub fn move_points(before: &Game, mv: Move) -> Option<(Point, Point)> {
    let ship = |i: u8| before.ships().get(usize::from(i)).copied().flatten();
    match mv {
        Move::Forward(i) | Move::Lay(i) => {
            let s = ship(i)?;
            Some((s.at, s.facing.step(s.at)?))
        }
        Move::Left(i) | Move::Right(i) => ship(i).map(|s| (s.at, s.at)),
        Move::Pass => None,
    }
}
