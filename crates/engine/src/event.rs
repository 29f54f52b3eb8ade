//! What a game says back: actions in, events out, and the typed refusals.

use crate::coord::Coord;
use crate::fleet::Fleet;
use crate::kind::Kind;
use crate::validate::Problem;
use serde::{Deserialize, Serialize};

/// A seat at the table: 0 and 1 in a duel; in teams, 0 and 2 play against 1 and 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatId(pub u8);

impl SeatId {
    /// The seat as an index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Who sits in a seat: an opaque id given by the caller (the bot uses Telegram user ids and
/// a reserved id for its AI).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u64);

/// Seconds since the Unix epoch, passed in by the caller: the engine reads no clock.
pub type Timestamp = u64;

/// Seconds the shooter has to give up a cell after hitting a mine (docs/rules.md §3.5).
pub const MINE_CHOICE_SECONDS: u64 = 60;

/// One move or event a game can be asked to take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A player takes the next free seat (lobby).
    Join(PlayerId),
    /// A player leaves the lobby.
    Leave(PlayerId),
    /// Two seats swap places, e.g. to choose teams (lobby).
    Swap(SeatId, SeatId),
    /// The lobby is full: placement begins.
    Start,
    /// A seat locks its fleet (placement). When the last fleet is in, the battle begins.
    Ready(SeatId, Fleet),
    /// One shot at a cell of a target's field.
    Fire(SeatId, SeatId, Coord),
    /// A salvo of distinct cells at one target's field.
    Salvo(SeatId, SeatId, Vec<Coord>),
    /// The arsenal (docs/rules.md §3.8): a radar over the 3×3 square around a cell of a
    /// target's field.
    Radar(SeatId, SeatId, Coord),
    /// The arsenal: an air strike on the 3×3 square around a cell of a target's field.
    AirStrike(SeatId, SeatId, Coord),
    /// The arsenal: a torpedo from an edge cell of a target's field, away from that edge (the
    /// heading named at a corner; elsewhere it may be left out).
    Torpedo(SeatId, SeatId, Coord, Option<crate::weapon::Heading>),
    /// After a mine: the shooter gives up this cell of their own fleet.
    GiveUp(SeatId, Coord),
    /// The seat surrenders.
    Surrender(SeatId),
    /// The game is called off before the battle.
    Cancel,
    /// The game is called off in any phase, the battle included: its chat is gone (the bot
    /// was removed from the group). Nobody wins.
    Abandon,
    /// Time passes: reminders, forfeits and the mine choice's timeout.
    Tick,
}

/// The answer to one shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShotResult {
    /// Nothing there: the turn passes.
    Miss,
    /// A ship is hit and still afloat: shoot again.
    Hit,
    /// The ship's last whole cell was hit: shoot again.
    Sunk(Kind),
    /// A mine: the shooter gives up one of their own cells, then the turn passes.
    Mine,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EndReason {
    /// Every fleet but the winners' is sunk.
    Sunk,
    /// The others surrendered or ran out of time.
    Retired,
    /// Called off before the battle.
    Cancelled,
}

/// Something that happened, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A player took a seat.
    Joined(SeatId, PlayerId),
    /// A player left the lobby.
    Left(PlayerId),
    /// Placement began.
    PlacementBegan,
    /// A seat locked its fleet.
    Ready(SeatId),
    /// The battle began: who shoots first, and the commitment to every fleet by seat.
    BattleBegan {
        /// The first to shoot, drawn by lot.
        first: SeatId,
        /// SHA-256 commitments, by seat.
        commitments: Vec<String>,
    },
    /// A single shot and its answer.
    Shot {
        /// Who shot.
        shooter: SeatId,
        /// Whose field.
        target: SeatId,
        /// Where.
        cell: Coord,
        /// The answer.
        result: ShotResult,
    },
    /// A salvo's limited report: counts and sunk kinds, never cells (docs/rules.md §3.4).
    Salvo {
        /// Who shot.
        shooter: SeatId,
        /// Whose field.
        target: SeatId,
        /// Cells in the salvo.
        shots: u8,
        /// How many of them hit a ship.
        hits: u8,
        /// How many hit a mine.
        mines: u8,
        /// Kinds of ship sunk by it.
        sunk: Vec<Kind>,
    },
    /// A radar's reading (docs/rules.md §3.8): the unhit ship cells of the square.
    Radar {
        /// Who used it.
        shooter: SeatId,
        /// Whose field.
        target: SeatId,
        /// The square's centre.
        center: Coord,
        /// The unhit ship cells in it (mines not counted).
        count: u8,
    },
    /// An air strike: each new cell of the square and its answer, in row-major order.
    AirStrike {
        /// Who used it.
        shooter: SeatId,
        /// Whose field.
        target: SeatId,
        /// The square's centre.
        center: Coord,
        /// Every cell shot, and its answer.
        cells: Vec<(Coord, ShotResult)>,
    },
    /// A torpedo's run: the cells it crossed that were not known (now known empty), and where
    /// it stopped, if it did not leave the field.
    Torpedo {
        /// Who fired it.
        shooter: SeatId,
        /// Whose field.
        target: SeatId,
        /// The edge cell it started from.
        from: Coord,
        /// Which way it ran.
        heading: crate::weapon::Heading,
        /// The unknown cells it crossed, in order: empty.
        passed: Vec<Coord>,
        /// The cell it stopped at and the answer (a ship's hit or sink, or a mine).
        hit: Option<(Coord, ShotResult)>,
    },
    /// The shooter must give up cells of their own fleet within the deadline.
    MineChoice {
        /// Who must choose.
        seat: SeatId,
        /// How many cells.
        remaining: u8,
        /// When a random cell is taken instead.
        deadline: Timestamp,
    },
    /// A cell given up after a mine, and what it did to the owner's ship.
    GaveUp {
        /// Whose cell.
        seat: SeatId,
        /// Which.
        cell: Coord,
        /// Hit or sunk.
        result: ShotResult,
        /// Whether the time ran out and the cell was chosen at random.
        timed_out: bool,
    },
    /// Whose turn it is now (the same seat again after a hit).
    Turn(SeatId),
    /// Half the turn's time is gone.
    Reminder(SeatId),
    /// The seat's fleet is sunk.
    Eliminated(SeatId),
    /// The seat surrendered.
    Surrendered(SeatId),
    /// The seat ran out of time and lost by forfeit.
    Forfeit(SeatId),
    /// The game is over.
    Finished {
        /// The winning seats (a team), empty if cancelled.
        winners: Vec<SeatId>,
        /// Why.
        reason: EndReason,
    },
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Not possible in the current phase (e.g. shooting in the lobby).
    WrongPhase,
    /// The game is over.
    GameOver,
    /// That player is already seated.
    AlreadySeated,
    /// Every seat is taken.
    Full,
    /// Not every seat is taken.
    NotFull,
    /// That player or seat is not in this game.
    NotInGame,
    /// The seat's fleet is already locked.
    AlreadyReady,
    /// The fleet breaks the ruleset: every problem.
    IllegalFleet(Vec<Problem>),
    /// Another seat is to move.
    NotYourTurn,
    /// That field cannot be shot at (own team, sunk, retired or no such seat).
    BadTarget,
    /// The cell is off the field.
    OffField(Coord),
    /// The cell was already shot at or is known to be empty; the turn does not pass.
    AlreadyKnown(Coord),
    /// This game is played in salvoes (or it is not): wrong kind of shot.
    WrongShotKind,
    /// A salvo of the wrong number of cells, or with a cell twice.
    SalvoSize {
        /// How many cells are wanted.
        expected: u8,
    },
    /// A mine's cell must be given up first.
    MineChoicePending,
    /// No cell is to be given up now.
    NoMineChoice,
    /// Not an unhit cell of the seat's own fleet.
    NotYourCell(Coord),
    /// This game has no arsenal.
    NoArsenal,
    /// The seat has none of this weapon left.
    UsedUp(crate::weapon::Weapon),
    /// The weapon would reach no cell that is not known yet (a square, or a torpedo's run).
    NoNewCell(Coord),
    /// A torpedo starts only from an edge cell.
    NotFromEdge(Coord),
    /// A torpedo from a corner needs its heading.
    NeedsHeading(Coord),
    /// A torpedo runs only away from the edge it starts at.
    WrongHeading(Coord, crate::weapon::Heading),
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for ActionError {}
