//! Why a transition changed nothing: the typed refusals every transition returns (their
//! words are in `view/refusal.rs`).

use super::delivery::Answered;
use engine::{ActionError, Problem, RulesetError};

/// Why a transition changed nothing: said to the person who asked (see `view/refusal.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// This press was answered already (its update came again): the answer it got.
    Again(Answered),
    /// The game is over.
    GameOver,
    /// The button is of an older message, or the game has moved on.
    OutOfDate,
    /// As [`Refused::OutOfDate`], for a button the record is already newer than: no later
    /// version of the record takes it.
    Stale,
    /// The person has no seat in this game.
    NotAPlayer,
    /// Only the game's creator may do this.
    CreatorOnly,
    /// A button that names no cell of the field.
    UnknownButton,
    /// A button pressed on a message it was not made for (forged callback data).
    WrongMessage,
    /// The engine refuses the move.
    Rules(ActionError),
    /// The person plays another game that is not over.
    BusyElsewhere,
    /// Every seat is taken.
    Full,
    /// The person is seated already.
    AlreadySeated,
    /// Not every seat is taken: the game has this many.
    NotFull(usize),
    /// The battle is on: it can no more be called off.
    InBattle,
    /// The Riga game is a duel, and more are seated.
    TwoPlayersOnly,
    /// The seat's fleet is locked.
    Locked,
    /// The fleet breaks the rules: every problem, and the field's letters and size to name
    /// its cells by.
    IllegalFleet(Vec<Problem>, engine::Alphabet, engine::Size),
    /// The salvo has all its cells: this many.
    SalvoFull(usize),
    /// The salvo lacks this many cells.
    SalvoTooFew(usize),
    /// After a mine, another seat gives up a cell.
    NotYourMine,
    /// The other side's turn (the Riga game).
    NotYourTurn,
    /// The Riga game's rules refuse the move, in the position it was tried in.
    RigaRules(Box<(::riga::Game, ::riga::Move, ::riga::MoveError)>),
    /// A typed Riga move that names no move.
    RigaNotation(::riga::notation::ParseError),
    /// Nothing to give up now.
    NothingToSurrender,
    /// A setting is refused.
    Settings(Refusal),
}

impl Refused {
    /// Whether no later version of the record could take the request: such a refusal of the
    /// record a process knows is the answer, with no fresh look (a flood of presses by
    /// someone who is not playing costs no round trip).
    pub fn settled(&self) -> bool {
        match self {
            Refused::Again(_)
            | Refused::GameOver
            | Refused::Stale
            | Refused::NotAPlayer
            | Refused::UnknownButton => true,
            Refused::Rules(e) => matches!(e, ActionError::AlreadyKnown(_) | ActionError::GameOver),
            _ => false,
        }
    }
}

impl From<ActionError> for Refused {
    fn from(e: ActionError) -> Refused {
        match e {
            ActionError::GameOver => Refused::GameOver,
            ActionError::NotInGame => Refused::NotAPlayer,
            ActionError::Full => Refused::Full,
            ActionError::AlreadySeated => Refused::AlreadySeated,
            ActionError::AlreadyReady => Refused::Locked,
            e => Refused::Rules(e),
        }
    }
}

impl From<Refusal> for Refused {
    fn from(r: Refusal) -> Refused {
        Refused::Settings(r)
    }
}

/// Why a change of the settings was refused (see `view/refusal.rs` for the words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The new rules fail [`Ruleset::check`].
    Rules(RulesetError),
    /// Land-sea-air has its own touching and shape rules.
    LandSeaAir,
    /// A custom-field control without a custom field.
    NotCustom,
    /// A salvo step with salvo off.
    SalvoOff,
    /// More players are seated than the new rules have seats.
    Seated {
        /// Seated.
        count: usize,
        /// Seats of the new rules.
        seats: usize,
    },
    /// The button is of an older panel, or the lobby is gone.
    OutOfDate,
    /// The rules changed since they were checked: check the new ones.
    RulesChanged,
    /// A private chat plays duels only.
    Private,
}
