//! The end-to-end tests, as one test binary (`cargo test --test e2e`): the real bot binary
//! (`CARGO_BIN_EXE_morskoy-boy`, or `MB_BOT_BIN`), a real Redis at `REDIS_URL`, and the fake
//! Telegram Bot API, so the fake, the helpers and the tests compile and link once.
//!
//! One module per subject; a test's full name is `<module>::<test>` (e.g.
//! `cargo test --test e2e bot_riga::`). The shared modules stay where the benches include
//! them from too (`benches/bot.rs`, `benches/store.rs`): the fake in tests/fake_telegram/,
//! the players and worlds in tests/bot/helpers.rs, the stores and Redis servers in
//! tests/common/ (shared with tests/store.rs).
//!
//! The tests run in parallel threads of this one process (libtest's default: one per core;
//! `scripts/test` runs six, as they mostly wait; `--test-threads` or `RUST_TEST_THREADS` to
//! change it). Each test has its own fake
//! Telegram, its own Redis namespace and its own bot processes, and none sets an environment
//! variable of this process, so any two may run side by side.
//!
//! A test written `flow! { fn name() { … } }` (bot/helpers.rs) runs instead in a process of
//! its own, on paused time: the bot as a task of the test's runtime, the fake Telegram on it
//! too, the in-memory store (`memory://`), all on one clock that moves while they all wait.
//! The tests that need processes (kill -9, restarts, replicas, webhooks, Redis stopped, the
//! browser, start-up) or the machine's own time (the AI's real pause, latencies, fast play
//! in pictures for 90 s, the default gap end to end) stay with the bot binary on the real clock.

#[path = "../common/mod.rs"]
mod common;
#[path = "../fake_telegram/mod.rs"]
mod fake_telegram;
#[path = "../bot/helpers.rs"]
#[macro_use]
mod helpers;

mod bot;
mod bot_ai;
mod bot_arsenal;
mod bot_delivery;
mod bot_editor;
mod bot_exactly_once;
mod bot_inline;
mod bot_pictures;
mod bot_quick;
mod bot_replay;
mod bot_riga;
mod bot_settings;
mod bot_stats;
mod bot_token;
mod bot_topics;
mod bot_tournament;
mod bot_typed;
mod bot_variants;
mod bot_webapp;
mod bot_webapp_browser;
mod fake_telegram_selftest;
mod flows;
mod metrics;
mod shot_path;
mod startup;
mod webdriver;
mod webdriver_selftest;
