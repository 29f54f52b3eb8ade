//! The Telegram bot around the Sea Battle engine, in layers (ARCHITECTURE.md):
//!
//! - [`game`] — the application core, no I/O: the record, its outbox, every transition;
//! - [`view`] — what people see, pure: words, keyboards, pictures of a record;
//! - [`store`] — Redis: the atomic compare-and-set transition with its outbox, leases,
//!   budgets, ratings, habits;
//! - [`telegram`] — the Telegram adapter, I/O only: updates in, transitions run, effects
//!   delivered;
//! - [`terminal`] — `morskoy-boy play`, both games in the terminal;
//! - [`config`] — the environment, read once;
//! - [`metrics`] — this process's counters, for `GET /metrics` (the store and the adapter
//!   count, the health endpoint serves them).
//!
//! The rules live in the `engine` crate (`crates/engine`) and the Riga board game in
//! `crates/riga`; neither knows anything of Telegram or Redis.

pub mod clock;
pub mod config;
pub mod game;
pub mod metrics;
pub mod store;
pub mod telegram;
pub mod terminal;
pub mod view;
