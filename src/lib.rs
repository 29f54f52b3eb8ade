//! The Telegram bot around the Sea Battle engine.
//!
//! # Layout
//! - `store/` — game state in Redis: `keys.rs` (the key schema), `conn.rs` (one server or a
//!   cluster), `mod.rs` ([`store::Store`]: atomic transitions, settings, statistics).
//! - `record.rs` — what is stored: [`record::GameRecord`], chat and user settings, statistics.
//! - `game_log.rs` — the game's log as stored: a shot as a short text.
//! - `lang.rs` — the bot's languages.
//! - `picture.rs` — the battle picture: fields drawn into a PNG ([`picture::render_png`]).
//! - `rating.rs` — ratings (Weng-Lin) of finished games and a seat's figures of one game.
//! - `riga_play.rs` — a Riga board game inside a record (set-up, timer, end); `riga_text.rs`
//!   — its board and moves in words.
//!
//! The rules live in the `engine` crate (`crates/engine`), which knows nothing of Telegram or
//! Redis.

pub mod config;
pub mod game;
pub mod store;
pub mod telegram;
pub mod terminal;
pub mod view;
