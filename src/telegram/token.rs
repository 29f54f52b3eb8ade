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
//! **The live boards take turns.** A group's board due for a redraw (its own gap,
//! `MB_GROUP_GAP_MS`, passed) takes the next free turn of a queue kept in Redis for every
//! replica ([`board_turn`]: one round trip, first come first served), the turns
//! `1 / (0.9 × MB_TOKEN_PER_SECOND)` apart, and its sender sleeps until it, then loads the
//! latest record and draws it (so the wait is not spent on an older state), taking the token
//! at the board's priority (free by then: the boards plan for nine tenths of the budget; the
//! rest, and whatever the boards leave, is for the end, own fields and the lobbies, which
//! wait behind them anyway). With few games no board waits; with many each waits for the
//! boards queued before it, so each group's gap is as long as there are boards to draw,
//! every group the same (at 25 a second, 640 busy boards are redrawn every 28.4 s): fair
//! by construction, where boards racing for a short budget favour whoever comes back first,
//! and nobody polls the bucket while they wait. (When each board waited a gap stretched by
//! a count of the live boards and then raced for the token, at 640 duels it waited 5–8 s
//! more for the token and drew the record it had loaded before that wait.)

use crate::store::Store;
use std::sync::OnceLock;
use std::time::Duration;
use tokio::time::Instant;

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
/// chat's budget too (`private`: its interval and burst tolerance). Once, at start-up.
pub fn install(store: Store, per_second: u32, private: (Duration, Duration)) {
    let interval = Duration::from_micros(1_000_000 / u64::from(per_second.max(1)));
    let _ = BUDGET.set(Budget {
        store,
        interval,
        private,
    });
}

/// The share of the token's budget the live boards plan for: nine tenths, so that 640 boards
/// at 25 calls a second wait 28.4 s each (at four fifths, 32 s: a result's p90 on its board
/// above 30 s), and the end, own fields and the lobbies always have a tenth.
const BOARD_SHARE: f64 = 0.9;

/// The spacing of the live boards' turns for a budget of one call every `interval`: together
/// they take [`BOARD_SHARE`] of it.
pub fn board_spacing(interval: Duration) -> Duration {
    interval.div_f64(BOARD_SHARE)
}

/// Takes the next free turn of the live boards' queue (every replica's): how long until it
/// comes. Zero in a process with no budget installed, or with Redis away (the board then
/// races for the token like any call).
pub async fn board_turn() -> Duration {
    let Some(budget) = BUDGET.get() else {
        return Duration::ZERO;
    };
    match briefly(budget.store.take_board_turn(board_spacing(budget.interval))).await {
        Ok(ms) => {
            let wait = Duration::from_millis(ms);
            crate::metrics::board_queue(wait.as_secs_f64());
            wait
        }
        Err(e) => {
            log::debug!("boards' turn: {e}");
            Duration::ZERO
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
    fn the_boards_turns_take_nine_tenths_of_the_budget() {
        // 25 a second: a board's turn every 44.4 ms, 22.5 a second; 640 boards each 28.4 s.
        let spacing = board_spacing(Duration::from_millis(40));
        assert_eq!(spacing.as_micros(), 44_444);
        assert_eq!((spacing * 640).as_millis(), 28_444);
        for per_second in [1u64, 3, 25, 30, 1000] {
            let interval = Duration::from_micros(1_000_000 / per_second);
            let boards = 1.0 / board_spacing(interval).as_secs_f64();
            let share = boards / per_second as f64;
            assert!((share - 0.9).abs() < 1e-3, "{per_second}: {share}");
        }
    }

    #[test]
    fn the_priorities_rank_in_the_issues_order() {
        let ranks: Vec<u8> = Priority::ALL.iter().map(|p| p.rank()).collect();
        assert_eq!(ranks, [0, 1, 2, 3]);
    }
}
