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
//! [`Priority::Other`]). A priority is the burst the bucket allows it: the group's live board
//! may take the last five calls of a second, the end and the reveal four, a player's own
//! field three, everything else (lobbies, editors, stats, rules) two. Under load the bucket
//! runs ahead of the clock and the lower priorities wait while the higher ones still go:
//! nothing is dropped (a sender's work waits, and draws the latest state when it goes).
//! Answers to presses (answerCallbackQuery) are not limited by Telegram and never wait here.

use crate::store::Store;
use std::sync::OnceLock;
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

    /// The burst it may take, in calls: the higher the priority, the further the bucket may
    /// run ahead of the clock for it.
    fn burst(self) -> u32 {
        match self {
            Priority::Board => 5,
            Priority::End => 4,
            Priority::OwnField => 3,
            Priority::Other => 2,
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

/// The budget this process takes from.
struct Budget {
    store: Store,
    interval: Duration,
}

static BUDGET: OnceLock<Budget> = OnceLock::new();

/// Every send and edit of this process takes from the token's budget in `store`, of
/// `per_second` calls a second (all replicas together). Once, at start-up.
pub fn install(store: Store, per_second: u32) {
    let interval = Duration::from_micros(1_000_000 / u64::from(per_second.max(1)));
    let _ = BUDGET.set(Budget { store, interval });
}

/// Whether a Bot API method (a payload's name, `SendMessage`) sends or edits a message: what
/// Telegram counts against the token's budget.
pub fn limited(method: &str) -> bool {
    (method.starts_with("Send") && method != "SendChatAction")
        || method.starts_with("EditMessage")
        || method == "CopyMessage"
        || method == "ForwardMessage"
}

/// The burst tolerance of `p` for a bucket of `interval`.
pub fn tolerance(interval: Duration, p: Priority) -> Duration {
    interval * p.burst()
}

/// Waits until a call of `method` may go, and takes it from the token's budget (nothing for a
/// method that is not limited, or in a process with no budget installed). With Redis away
/// the call goes: Telegram's own limit still answers, and a 429 then pauses everyone.
pub async fn spend(method: &str) {
    if !limited(method) {
        return;
    }
    let Some(budget) = BUDGET.get() else {
        return;
    };
    let p = current();
    let tolerance = tolerance(budget.interval, p);
    let started = Instant::now();
    loop {
        // Redis slow or away: the call goes after a short wait rather than hang on it.
        let taken = tokio::time::timeout(
            Duration::from_millis(500),
            budget.store.take_token(budget.interval, tolerance),
        )
        .await
        .unwrap_or(Err(crate::store::StoreError::Busy));
        match taken {
            Ok(0) => break,
            Ok(ms) => {
                // A little spread, so that waiting callers do not all come back at once.
                let spread = rand::random::<u64>() % (budget.interval.as_millis() as u64 + 1);
                tokio::time::sleep(Duration::from_millis(ms.min(2_000) + spread)).await;
            }
            Err(e) => {
                log::debug!("token budget: {e}");
                break;
            }
        }
    }
    crate::metrics::token_call(p.label(), started.elapsed().as_secs_f64());
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
    fn a_higher_priority_may_run_further_ahead() {
        let i = Duration::from_millis(40);
        let t: Vec<Duration> = Priority::ALL.iter().map(|&p| tolerance(i, p)).collect();
        assert!(t.windows(2).all(|w| w[0] > w[1]), "{t:?}");
        // The highest burst and a second's rate stay under Telegram's 30 in any second.
        assert!(Priority::Board.burst() + 25 <= 30);
    }
}
