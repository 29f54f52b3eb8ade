//! The rules engine of Sea Battle («Морской бой»): every ruleset of `docs/rules.md` §1–§4.
//!
//! # Layout
//! - `coord.rs` — [`Coord`] and [`Size`]: cells and fields, and the Latin storage form.
//! - `alphabet.rs` — [`Alphabet`]: the column letters of every alphabet.
//! - `notation.rs` — typed cells: [`format_cell`], [`parse_cell`], [`CellParseError`].
//! - `shape.rs` — polyominoes up to rotation and reflection; [`Shapes`].
//! - `kind.rs` — [`Kind`] of ship or unit, its size, [`Force`] and shapes.
//! - `ruleset.rs` — [`Ruleset`] with every option of §3.
//! - `players.rs` — [`Players`] (duel, free-for-all, teams) and the [`TurnTimer`].
//! - `terrain.rs` — the land-sea [`Border`] of land-sea-air.
//! - `fleet.rs` — a validated [`Fleet`]; contacts and halos.
//! - `draft.rs` — the placement editor's [`Draft`]: place, remove, undo, clear, validate.
//! - `validate.rs` — every [`Problem`] of a layout, naming ship, cell and [`Rule`].
//! - `generate.rs` — [`random_fleet`] and [`perelman_fleet`].
//! - `check.rs` — [`Ruleset::check`]: every option in range, and a legal layout found by the
//!   generators' search.
//! - `game.rs` — the [`Game`] state machine: lobby, placement, battle, finished.
//! - `battle.rs` — shots, salvoes, mines, turns, elimination, victory, timer.
//! - `weapon.rs` — the arsenal's [`Weapon`]s, their squares and a torpedo's run (§3.8);
//!   `arsenal.rs` — the game's use of them.
//! - `event.rs` — [`Action`]s in, [`Event`]s out, [`ActionError`] refusals.
//! - `view.rs` — the owner's and the public [`View`].
//! - `commit.rs` — SHA-256 fleet commitments and their verification.
//! - `cellset.rs` — a compact bit set of cells.
//! - `ai.rs` — the bot as a player, from its seat's [`View`] only: easy, normal, hard
//!   ([`ai::choose_shot`], [`ai::choose_shot_within`], [`ai::choose_salvo`],
//!   [`ai::choose_give_up`], [`ai::hard_fleet`], [`ai::choose_action`] with the arsenal).
//!   Its parts, each using only those below it:
//!   - `ai_salvo.rs` — the cells of a salvo; `ai_fleet.rs` — the hard level's own placement;
//!     `ai_arsenal.rs` — when and where to fire a radar, an air strike or a torpedo.
//!   - `aim.rs` — the field to shoot at and its ranked cells, for single shots and salvoes.
//!   - `hunt.rs` — easy and normal: hunt and target, parity, cells the rules rule out.
//!   - `heat.rs` — the hard level's posterior cover (radar readings as evidence), mixed from the models of `mixture.rs`
//!     (the Perelman and the remembered layouts beside the uniform one), each drawing with
//!     `sampler.rs` on bit boards (`bits.rs`) from cached placement tables (`tables.rs`),
//!     with the secret land-sea border narrowed as units stand (`shore.rs`).
//!   - `level.rs` — the [`ai::Level`]s; `budget.rs` — the [`ai::Budget`] of one decision;
//!     `report.rs` — the [`ai::SalvoReport`]s the caller keeps; `habits/` — [`Habits`]: how
//!     people placed, for the learning level (`mod.rs` — the layouts seen and their trust;
//!     `fit.rs` — each player's fitted tendencies, with `tilt.rs` — the tilt's fit and
//!     `layout_features.rs` — a layout's features beside uniform layouts'; `tendencies.rs` —
//!     [`Tendencies`] told for `/stats`).
//!
//! Nothing here reads a clock, a socket or a global random source: the time and the random
//! source are passed in, and the answers are enums, never text for people.
//!
//! # Example
//! ```
//! use rand::SeedableRng;
//! use seabattle_engine::*;
//!
//! let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! let ruleset = Ruleset::default();
//! let mut game = Game::new(ruleset.clone());
//! game.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
//! game.apply(Action::Join(PlayerId(2)), 0, &mut rng).unwrap();
//! game.apply(Action::Start, 0, &mut rng).unwrap();
//! for seat in [SeatId(0), SeatId(1)] {
//!     let fleet = random_fleet(&ruleset, &mut rng).unwrap();
//!     game.apply(Action::Ready(seat, fleet), 0, &mut rng).unwrap();
//! }
//! let shooter = game.turn();
//! let target = game.targets(shooter)[0];
//! let events = game
//!     .apply(Action::Fire(shooter, target, Coord::new(0, 0)), 1, &mut rng)
//!     .unwrap();
//! assert!(matches!(events[0], Event::Shot { .. }));
//! ```

pub mod ai;
mod ai_arsenal;
mod ai_fleet;
mod ai_salvo;
mod aim;
mod alphabet;
mod arsenal;
mod battle;
mod bits;
mod budget;
mod cellset;
mod check;
pub mod commit;
mod coord;
mod draft;
mod event;
mod fleet;
mod game;
mod generate;
mod habits;
mod heat;
mod hunt;
mod kind;
mod level;
mod mixture;
mod notation;
mod players;
mod report;
mod ruleset;
mod sampler;
pub mod shape;
mod shore;
mod tables;
mod terrain;
mod validate;
mod view;
mod weapon;

pub use alphabet::*;
pub use cellset::CellSet;
pub use coord::{Coord, Size, MAX_SIDE, MIN_SIDE};
pub use draft::{Draft, EditError, Rejected, UNDO_DEPTH};
pub use event::*;
pub use fleet::{contact, halo, Contact, Fleet, Ship, ShipId};
pub use game::{Game, MineChoice, Phase, Seat};
pub use generate::{perelman_fleet, random_fleet};
pub use habits::{layout_code, Habits, Half, Oracle, Quarter, Tendencies};
pub use kind::{Force, Kind};
pub use notation::*;
pub use ruleset::{
    Field, Players, Ruleset, RulesetError, Touching, TurnTimer, LAYOUT_SEARCH_ATTEMPTS,
};
pub use shape::Shapes;
pub use terrain::{Border, BorderError, LAND_FIRST, LAND_LAST, LAND_SEA_AIR_SIZE};
pub use validate::{Problem, Rule, Subject};
pub use view::{FieldView, Mark, View};
pub use weapon::{headings_from, run_cells, square, Heading, Run, Scan, Weapon};

/// The schema version of every stored value (games, drafts). Bump it when a stored shape
/// changes, and teach the store to read the old one or to close such games politely.
///
/// 2: the canonical texts of the fleet commitments leave out empty parts
/// ([`commit::COMPACT_SINCE`]); games of 1 keep the old texts.
pub const SCHEMA_VERSION: u16 = 2;
