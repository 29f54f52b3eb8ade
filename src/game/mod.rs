//! The game as the bot keeps it, with no I/O: the record, its outbox, and every transition.

pub mod battle;
pub mod delivery;
pub mod lang;
pub mod log;
pub mod rating;
pub mod record;
pub mod riga;
pub mod settings;
