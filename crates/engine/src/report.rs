//! What the caller keeps of each salvo's answer ([`SalvoReport`]): the view of a salvo game
//! shows shot cells but not what they hit (see `ai_salvo.rs`).

use crate::coord::Coord;
use crate::event::SeatId;

/// One salvo's answer, kept by the caller: where it went and what it hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SalvoReport {
    /// Whose field.
    pub target: SeatId,
    /// The cells of the salvo.
    pub cells: Vec<Coord>,
    /// How many of them hit a ship (as `Event::Salvo` tells).
    pub hits: u8,
    /// How many of them hit a mine.
    pub mines: u8,
}
