//! The Telegram adapter, I/O only: an update in, mapped to a transition of `game/` run in the
//! store, its effects delivered. No game rule and no change of a record is made here
//! (`tests/layers.rs` checks it).
//!
//! - `start.rs` — start-up and the choice of polling or webhook; `polling.rs`, `webhook.rs`,
//!   `health.rs` — the ways updates come in, and the health and metrics endpoint;
//!   `metered.rs` — what the adapter counts: updates' outcomes, Bot API calls;
//! - `dispatch.rs` — the one dispatch: an update to its handler, each update once;
//! - `context.rs` — what handlers share: the context, errors, the clock, pacing, languages;
//! - the handlers, one per kind of press or move, each calling one transition of `game/`:
//!   `commands.rs` (commands, their registration, help), `lobby/`, `placement.rs`,
//!   `battle.rs` (a cell's button, the field aimed at, a salvo, the cell given up after a
//!   mine, typed shots, surrender), `settings.rs`, `riga.rs`, `stats.rs`, `replay.rs`,
//!   `inline.rs` (inline mode: the cards, and the game opened on one);
//! - `init_data.rs` — a Mini App's `initData` checked with the bot's token; `webapp/` — the
//!   Mini App's page and API; `http.rs` — the one HTTP server (health, webhook, Mini App);
//! - `bot_turns.rs` — the bot's moves in both games, under a lease; `timer.rs` — the turn
//!   timer's ticks;
//! - `sender/` — each game's one sender, delivering its outbox; `mine_dm.rs` — the mine
//!   question in a private chat; `send.rs` — sending helpers (replies, private messages,
//!   edits, answers to presses, keyboards).

pub mod battle;
pub mod bot_turns;
pub mod commands;
pub mod context;
pub mod dispatch;
pub mod health;
pub mod http;
pub mod init_data;
pub mod inline;
pub mod lobby;
pub mod metered;
pub mod mine_dm;
pub mod placement;
pub mod polling;
pub mod quick;
pub mod replay;
pub mod riga;
pub mod send;
pub mod sender;
pub mod settings;
pub mod start;
pub mod stats;
pub mod timer;
pub mod token;
pub mod tournament;
pub mod webapp;
pub mod webapp_live;
pub mod webhook;

pub use start::run;
