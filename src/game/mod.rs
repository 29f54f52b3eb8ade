//! The game as the bot keeps it, with no I/O: the record, its outbox, and every transition.
//!
//! Each transition is one function that takes the record (and the action's values, the
//! time, a random source) and leaves the new record with the effects it implies in its
//! outbox, or refuses with a [`Refused`] and the caller saves nothing. The store runs it in
//! one atomic compare-and-set; a human's press, a typed move, the bot's move and the turn
//! timer call the same function. Words never come from here: where a record keeps words
//! (a bot's name, a Riga move's line, a press's answer), the caller hands in the function
//! that makes them.
//!
//! # Layout
//! - `record.rs` — [`record::GameRecord`]: who plays where, the game ([`record::Play`]), its
//!   delivery bookkeeping ([`record::Delivery`]); chat and user settings; the placement
//!   editor's state.
//! - `delivery.rs` — the outbox: effects, their acknowledgements by the sender, the answers
//!   presses got, and the effects that follow from the state (the battle's beginning, the end).
//! - `log.rs` — the game's log as stored: a shot as a short text.
//! - `lobby.rs` — create, join, seat the bot, start, cancel, rematch, a game against the bot,
//!   the Riga switch.
//! - `placement.rs` — the editor's taps, random layouts, undo, Ready.
//! - `battle.rs` — a shot, a salvo, the aim, a mine's give-up, surrender, the bot's move.
//! - `timer.rs` — the turn timer (reminder, forfeit) of both games and when to look again.
//! - `settings.rs` — the settings panel's changes, of a lobby and of a chat.
//! - `riga.rs` — the Riga game's set-up, moves, timer and end.
//! - `sent.rs` — what the sender's deliveries leave in the record.
//! - `rating.rs`, `settle.rs` — ratings of a finished game, and what its end writes.
//! - `lang.rs` — the bot's languages.

pub mod battle;
pub mod delivery;
pub mod lang;
pub mod lobby;
pub mod log;
pub mod placement;
pub mod rating;
pub mod record;
pub mod riga;
pub mod sent;
pub mod settings;
pub mod settle;
pub mod timer;

use delivery::Answered;
use engine::{ActionError, Problem};
use record::GameRecord;
use std::fmt;

/// A game's id: handed out by `INCR`, small enough for 64-byte callback data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

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
    Settings(settings::Refusal),
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

impl From<settings::Refusal> for Refused {
    fn from(r: settings::Refusal) -> Refused {
        Refused::Settings(r)
    }
}

/// A button press, for a transition that keeps the answer it earns with the change it
/// makes: should the answer be lost, the press's update comes again and gets that answer,
/// not a refusal of its own repeat.
pub struct Press<'a, T> {
    /// The callback query's id.
    pub query: &'a str,
    /// The answer's words for what the transition did (the record after it, and its value),
    /// and whether they are an alert.
    pub words: &'a (dyn Fn(&GameRecord, &T) -> (String, bool) + Sync),
}

/// Runs `change` for a press: refused with the earlier answer when the press was answered
/// already; once `change` is done, the answer it earned is kept in the record.
pub fn pressed<T>(
    rec: &mut GameRecord,
    press: Option<&Press<'_, T>>,
    change: impl FnOnce(&mut GameRecord) -> Result<T, Refused>,
) -> Result<T, Refused> {
    if let Some(p) = press {
        if let Some(again) = rec.delivery.answered(p.query) {
            return Err(Refused::Again(again.clone()));
        }
    }
    let value = change(rec)?;
    if let Some(p) = press {
        let (text, alert) = (p.words)(rec, &value);
        rec.delivery.remember_answer(p.query, &text, alert);
    }
    Ok(value)
}

/// The checks a button of a game's message passes before anything else: the game is not
/// over, the button is of its live message (`generation`, when it names one) and the
/// presser has a seat; the seat.
///
/// # Errors
/// [`Refused::GameOver`], [`Refused::Stale`] (an older button), [`Refused::OutOfDate`],
/// [`Refused::NotAPlayer`].
pub fn seat_for_button(
    rec: &GameRecord,
    player: engine::PlayerId,
    generation: Option<u32>,
) -> Result<engine::SeatId, Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    if let Some(g) = generation {
        if g != rec.delivery.generation {
            return Err(if rec.delivery.generation > g {
                Refused::Stale
            } else {
                Refused::OutOfDate
            });
        }
    }
    rec.game.seat_of(player).ok_or(Refused::NotAPlayer)
}
