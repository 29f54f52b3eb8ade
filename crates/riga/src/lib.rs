//! The Riga board game of the same name (docs/rules.md §5): a second game beside Sea Battle,
//! with perfect information after set-up. Pure: no I/O, no randomness (the caller draws the
//! first mover and any random set-up).
//!
//! - [`board`]: the 12 × 13 lattice — sea, land, batteries' red points, start lines, lighthouses.
//! - [`game`]: fleets with facing, set-up, legal moves, the capture table, mines, batteries,
//!   passes and the draw rules.
//! - [`ai`]: the bot as an opponent at three levels.
//! - [`notation`]: typed moves, the same in Russian, Bulgarian and English (`е3 вперёд`).

pub mod ai;
pub mod board;
pub mod game;
pub mod notation;

pub use board::{Point, Side, Terrain, COLS, ROWS};
pub use game::{Facing, Game, Kind, Move, MoveError, Outcome, Ship, FLEET};
