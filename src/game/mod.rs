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
//! - `id.rs`, `refused.rs`, `press.rs` — a game's id, the refusals, a press's answer kept
//!   with its change.
//! - `record/` — [`record::GameRecord`]: who plays where, the game ([`record::Play`]), its
//!   delivery bookkeeping ([`record::Delivery`]); chat and user settings; the placement
//!   editor's state.
//! - `delivery.rs` — the outbox: effects, their acknowledgements by the sender, the answers
//!   presses got, and the effects that follow from the state (the battle's beginning, the end).
//! - `log.rs` — the game's log as stored: a shot as a short text.
//! - `lobby.rs` — create, join, seat the bot, start, cancel, rematch, a game against the bot,
//!   the Riga switch.
//! - `placement.rs` — the editor's taps, random layouts, undo, Ready.
//! - `battle/` — a shot, a salvo, the aim, a mine's give-up, surrender, the bot's move;
//!   `ai_move.rs` — the computer's move chosen, the same in a chat and in the terminal.
//! - `timer.rs` — the turn timer (reminder, forfeit) of both games and when to look again.
//! - `settings.rs` — the settings panel's changes, of a lobby and of a chat.
//! - `riga.rs`, `riga_state.rs` — the Riga game's set-up, moves, timer and end; its state.
//! - `sent.rs` — what the sender's deliveries leave in the record.
//! - `rating.rs`, `leaderboard.rs`, `settle.rs` — ratings of a finished game, the boards
//!   they are kept on, and what its end writes.
//! - `lang.rs` — the bot's languages.
//! - `tournament/` — a group's tournament: sign-up, formats, pairings, results, standings.
//! - `quick/` — the quick match's queue: who waits for a stranger, and who is paired with whom.

pub mod ai_move;
pub mod battle;
pub mod delivery;
pub mod id;
pub mod lang;
pub mod leaderboard;
pub mod lobby;
pub mod log;
pub mod placement;
pub mod press;
pub mod quick;
pub mod rating;
pub mod record;
pub mod refused;
pub mod riga;
pub mod riga_state;
pub mod sent;
pub mod settings;
pub mod settle;
pub mod timer;
pub mod tournament;

pub use id::GameId;
pub use press::{came_on, pressed, seat_for_button, Made, On, Press};
pub use refused::Refused;
