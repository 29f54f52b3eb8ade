//! The bot token's budget (issue 43): Telegram takes about 30 sends and edits a second from
//! one bot token, across all its chats, whatever the number of replicas. Every send and edit
//! (every Bot API call whose method sends or edits a message: [`limited`]) takes one call of
//! a budget kept in Redis ([`crate::store::Store::take_token`]: a GCRA bucket of
//! `MB_TOKEN_PER_SECOND`, 25 by default, shared by every replica, one round trip), where it
//! is awaited (`.metered()`, so none is forgotten). A 429 with `retry_after` on any call
//! pauses every replica's calls for that long ([`paused`]): it is Telegram telling that the
//! token's budget is spent.
//!
//! **Priorities.** Who waits first when the budget is short is the call's [`Priority`], the
//! task's (the sender sets it per effect, [`with_priority`]; anything else is
//! [`Priority::Other`]). Priorities are strict ([`Priority::rank`]): a call waits while one of
//! a higher priority waits for a turn — the group's live board first, then the end and the
//! reveal, a player's own field, and everything else (lobbies, editors, stats, rules). Under
//! load the lower priorities wait while the higher ones still go, and with no higher one
//! waiting any goes at the budget's whole pace: nothing is dropped (a sender's work waits,
//! and draws the latest state when it goes).
//! Answers to presses (answerCallbackQuery) are not limited by Telegram and never wait here.
//!
//! **The live boards' gap stretches with the load.** Each sender that has a live board to
//! redraw says so ([`board_wants`]); every second each replica adds the chats it saw to a set
//! in Redis and reads how many chats (of every replica) wanted a redraw in the last ten
//! seconds ([`crate::store::Store::live_boards`]). With `live` boards sharing the token, each
//! waits at least `live / (0.9 × MB_TOKEN_PER_SECOND)` between two redraws ([`board_gap`]):
//! the boards together plan for nine tenths of the budget (the rest, and whatever the boards
//! leave, is for own fields, the end and the lobbies, which wait behind them anyway), and every group gets the same gap, so none waits on luck while others
//! go twice (fair: the same gap for all, where a race for a short budget is won by whoever
//! asks most often). With few games the group's own gap (`MB_GROUP_GAP_MS`) is the longer.

use crate::store::Store;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Who goes first when the token's budget is short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// The group's live board (the battle message).
    Board,
    /// The end: the announcement, the reveal, the old message retired, the topic closed.
    End,
    /// A player's own field and words in their private chat.
    OwnField,
    /// Lobbies, editors, settings, stats, rules, replies to commands.
    Other,
}

impl Priority {
    /// Every priority, highest first.
    pub const ALL: [Priority; 4] = [
        Priority::Board,
        Priority::End,
        Priority::OwnField,
        Priority::Other,
    ];

    /// Its label in the metrics.
    pub fn label(self) -> &'static str {
        match self {
            Priority::Board => "board",
            Priority::End => "end",
            Priority::OwnField => "own_field",
            Priority::Other => "other",
        }
    }

    /// Its rank, 0 the highest: a call waits while a call of a higher rank waits for a turn
    /// (`store/lua/token.lua`), so a board is never overtaken by a lower priority, and the
    /// lower ones share what the boards leave, in order. (When each priority ran ahead of the
    /// clock by a burst of its own instead, own fields took the turns napping boards slept
    /// through, and at 640 duels a board's call waited 5.4 s for the token on average.) No
    /// priority bursts: with `MB_TOKEN_PER_SECOND` 25 at most 26 calls go in any one second,
    /// four under Telegram's 30 for the network's jitter (Telegram counts calls as they
    /// arrive, and a call that took its turn may arrive after later ones: with 640 boards
    /// keeping the bucket full, bursts of three and of one let 31 arrive within a second).
    pub fn rank(self) -> u8 {
        match self {
            Priority::Board => 0,
            Priority::End => 1,
            Priority::OwnField => 2,
            Priority::Other => 3,
        }
    }
}

tokio::task_local! {
    /// The priority of the calls of the task (the sender's effect being delivered).
    static PRIORITY: Priority;
}

/// Runs `f` with its calls at priority `p`.
pub async fn with_priority<F: std::future::Future>(p: Priority, f: F) -> F::Output {
    PRIORITY.scope(p, f).await
}

/// The priority of the calls made now.
fn current() -> Priority {
    PRIORITY.try_with(|p| *p).unwrap_or(Priority::Other)
}

tokio::task_local! {
    /// Until when the task's first call may wait for the token (see [`with_patience`]).
    static PATIENCE: std::cell::Cell<Option<Instant>>;
}

/// Runs `f` with its first send or edit waiting for the token at most `patience`: when the
/// token is not free by then the call is not made and answers [`not_now`]. (Once a call has
/// gone, the later ones of `f` wait as long as they must: an effect begun is finished.) The
/// sender delivers a player's own field so, for as long as its group's board can wait: a
/// board never waits behind an own field that waits for the token.
pub async fn with_patience<F: std::future::Future>(patience: Duration, f: F) -> F::Output {
    let until = Instant::now() + patience;
    PATIENCE.scope(std::cell::Cell::new(Some(until)), f).await
}

/// The task's first call is out of patience by `at` ([`with_patience`]).
fn out_of_patience(at: Instant) -> bool {
    PATIENCE
        .try_with(|p| p.get().is_some_and(|until| at > until))
        .unwrap_or(false)
}

/// The task's call goes: its later calls wait as long as they must.
fn patience_spent() {
    let _ = PATIENCE.try_with(|p| p.set(None));
}

/// The answer of a call not made because the token was not free within the caller's
/// patience ([`with_patience`]): a `retry_after` of 0 (Telegram's are never less than 1).
pub fn not_now() -> teloxide::RequestError {
    teloxide::RequestError::RetryAfter(teloxide::types::Seconds::from_seconds(0))
}

/// Whether `e` is [`not_now`]'s.
pub fn is_not_now(e: &teloxide::RequestError) -> bool {
    matches!(e, teloxide::RequestError::RetryAfter(s) if s.seconds() == 0)
}

/// The budget this process takes from.
struct Budget {
    store: Store,
    interval: Duration,
    /// A private chat's budget: its interval and burst tolerance.
    private: (Duration, Duration),
}

static BUDGET: OnceLock<Budget> = OnceLock::new();

/// Every send and edit of this process takes from the token's budget in `store`, of
/// `per_second` calls a second (all replicas together), and each to a private chat that
/// chat's budget too (`private`: its interval and burst tolerance). Once, at start-up
/// (within the runtime: it starts the task that counts the live boards).
pub fn install(store: Store, per_second: u32, private: (Duration, Duration)) {
    let interval = Duration::from_micros(1_000_000 / u64::from(per_second.max(1)));
    if BUDGET
        .set(Budget {
            store: store.clone(),
            interval,
            private,
        })
        .is_ok()
    {
        tokio::spawn(count_live_boards(store));
    }
}

/// The share of the token's budget the live boards plan for: nine tenths, so that 640 boards
/// at 25 calls a second wait 28 s each (at four fifths, 32 s: a result's p90 on its board
/// above 30 s). Below about 100 boards the group's own gap is the longer anyway.
const BOARD_SHARE: f64 = 0.9;
/// How long a board that wanted a redraw counts as live.
const LIVE_WINDOW: Duration = Duration::from_secs(10);

/// The chats whose live boards wanted a redraw since the last count (this process's).
static WANTED: Mutex<Vec<i64>> = Mutex::new(Vec::new());
/// Live boards of every replica, as last counted.
static LIVE: AtomicU64 = AtomicU64::new(0);

/// The live board of `chat` wants a redraw: it counts among those that share the token.
pub fn board_wants(chat: i64) {
    if let Ok(mut wanted) = WANTED.lock() {
        if wanted.last() != Some(&chat) {
            wanted.push(chat);
        }
    }
}

/// The least time between two redraws of a live board whose chat's own gap is `base`: longer
/// when many boards share the token's budget ([`stretched`]).
pub fn board_gap(base: Duration) -> Duration {
    match BUDGET.get() {
        Some(budget) => stretched(base, budget.interval, LIVE.load(Ordering::Relaxed)),
        None => base,
    }
}

/// The gap of each of `live` boards when together they take [`BOARD_SHARE`] of a budget of
/// one call every `interval`, or `base` when that is longer.
pub fn stretched(base: Duration, interval: Duration, live: u64) -> Duration {
    base.max(interval.mul_f64(live as f64 / BOARD_SHARE))
}

/// Every second: the chats seen here go to Redis, and the live boards of every replica are
/// counted. With Redis away the last count stands.
async fn count_live_boards(store: Store) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let mut chats = match WANTED.lock() {
            Ok(mut wanted) => std::mem::take(&mut *wanted),
            Err(_) => Vec::new(),
        };
        chats.sort_unstable();
        chats.dedup();
        match store.live_boards(&chats, LIVE_WINDOW).await {
            Ok(n) => {
                LIVE.store(n, Ordering::Relaxed);
                crate::metrics::live_boards(n);
            }
            Err(e) => log::debug!("live boards: {e}"),
        }
    }
}

/// Whether a Bot API method (a payload's name, `SendMessage`) sends or edits a message: what
/// Telegram counts against the token's budget.
pub fn limited(method: &str) -> bool {
    (method.starts_with("Send") && method != "SendChatAction")
        || method.starts_with("EditMessage")
        || method == "CopyMessage"
        || method == "ForwardMessage"
}

/// Waits until a call of `method` to `chat` (if it names one) may go, and takes it from the
/// token's budget (nothing for a method that is not limited, or in a process with no budget
/// installed). A call to a private chat takes that chat's budget too, right after the
/// token's, so that it goes when its slot says: a slot taken before a wait for the token
/// would let calls that waited arrive together (and Telegram refuse them 429). When the
/// chat's slot is not free the token's call is given back and both are waited for again.
/// With Redis away the call goes: Telegram's own limit still answers, and a 429 then pauses
/// everyone. `Err` when the caller's patience ran out first ([`with_patience`]): the call is
/// not to be made.
pub async fn spend(method: &str, chat: Option<i64>) -> Result<(), ()> {
    if !limited(method) {
        return Ok(());
    }
    let Some(budget) = BUDGET.get() else {
        return Ok(());
    };
    let p = current();
    let started = Instant::now();
    let private = chat.filter(|&c| c > 0);
    let went = loop {
        match briefly(budget.store.take_token(budget.interval, p.rank())).await {
            Ok(0) => {}
            Ok(ms) => {
                // A little spread, so that waiting callers do not all come back at once (a
                // quarter of an interval: less than the slack between two priorities).
                let spread = rand::random::<u64>() % (budget.interval.as_millis() as u64 / 4 + 1);
                if !nap_within_patience(Duration::from_millis(ms.min(2_000) + spread)).await {
                    break Err(());
                }
                continue;
            }
            Err(e) => {
                log::debug!("token budget: {e}");
                break Ok(());
            }
        }
        let Some(chat) = private else {
            break Ok(());
        };
        match briefly(budget.store.take_budget(chat, budget.private, true)).await {
            Ok(0) => break Ok(()),
            Ok(ms) => {
                if let Err(e) = briefly(budget.store.give_back_token(budget.interval)).await {
                    log::debug!("token budget: {e}");
                }
                if !nap_within_patience(Duration::from_millis(ms.min(2_000))).await {
                    break Err(());
                }
            }
            Err(e) => {
                log::debug!("budget of {chat}: {e}");
                break Ok(());
            }
        }
    };
    if went.is_ok() {
        patience_spent();
    }
    crate::metrics::token_call(p.label(), started.elapsed().as_secs_f64());
    went
}

/// Sleeps `nap`, unless the task's patience runs out before it ends ([`with_patience`]):
/// then `false` at once.
async fn nap_within_patience(nap: Duration) -> bool {
    if out_of_patience(Instant::now() + nap) {
        return false;
    }
    tokio::time::sleep(nap).await;
    true
}

/// A call to Redis that answers within half a second: when Redis is slow or away a call goes
/// after a short wait rather than hang on it.
async fn briefly<T>(
    f: impl std::future::Future<Output = Result<T, crate::store::StoreError>>,
) -> Result<T, crate::store::StoreError> {
    tokio::time::timeout(Duration::from_millis(500), f)
        .await
        .unwrap_or(Err(crate::store::StoreError::Busy))
}

/// Telegram answered 429 with `retry_after`: every replica's calls wait that long.
pub async fn paused(retry_after: Duration) {
    crate::metrics::token_paused();
    if let Some(budget) = BUDGET.get() {
        if let Err(e) = budget.store.pause_token(retry_after).await {
            log::debug!("token budget: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_and_edits_are_limited_and_answers_are_not() {
        for m in [
            "SendMessage",
            "SendPhoto",
            "EditMessageText",
            "EditMessageCaption",
            "EditMessageMedia",
            "EditMessageReplyMarkup",
            "CopyMessage",
        ] {
            assert!(limited(m), "{m}");
        }
        for m in [
            "AnswerCallbackQuery",
            "GetUpdates",
            "GetMe",
            "GetChat",
            "SendChatAction",
            "SetMyCommands",
            "AnswerInlineQuery",
            "DeleteMessage",
        ] {
            assert!(!limited(m), "{m}");
        }
    }

    #[test]
    fn the_boards_gap_stretches_with_the_live_boards_to_nine_tenths_of_the_budget() {
        let base = Duration::from_millis(3500);
        let interval = Duration::from_millis(40); // 25 a second
                                                  // Few boards: the group's own gap.
        assert_eq!(stretched(base, interval, 0), base);
        assert_eq!(stretched(base, interval, 40), base);
        // 90 boards at 22.5 a second: four seconds each; 640: 28.4 s.
        assert_eq!(stretched(base, interval, 60), base);
        assert_eq!(stretched(base, interval, 90), Duration::from_secs(4));
        assert_eq!(stretched(base, interval, 180), Duration::from_secs(8));
        assert_eq!(stretched(base, interval, 640).as_millis(), 28_444);
        // Together they take nine tenths of the budget, whatever their number.
        for live in [100u64, 250, 640, 5_000] {
            let gap = stretched(base, interval, live).as_secs_f64();
            let per_second = live as f64 / gap;
            assert!((per_second - 22.5).abs() < 1e-6, "{live}: {per_second}");
        }
    }

    #[test]
    fn the_priorities_rank_in_the_issues_order() {
        let ranks: Vec<u8> = Priority::ALL.iter().map(|p| p.rank()).collect();
        assert_eq!(ranks, [0, 1, 2, 3]);
    }
}
