//! The budget of one bot token, as Telegram publishes it: about 30 sends and edits a second
//! across all chats, 20 a minute per group, about one a second per private chat (a short
//! burst allowed); beyond a limit, a 429 with `retry_after`, and the call has no effect.
//!
//! What is modelled, exactly:
//! - **Counted calls**: sends and edits of any kind ([`COUNTED`]), inline messages' edits
//!   included; not answerCallbackQuery, getUpdates, getMe, setWebhook, getChat, deletions,
//!   chat actions. Only a call that took effect is spent; a refused one (429, 400, 403) is
//!   not.
//! - **Global**: a sliding one-second window: a call is refused while `per_second` calls took
//!   effect within the last second, across every chat of the token (`retry_after` 1).
//! - **Group**: the fake's per-group flood limit ([`FakeTelegram::set_flood_limit`]), set to
//!   `group_per_minute`: a sliding 60-second window per group (and per inline message),
//!   `retry_after` until its oldest call leaves the window.
//! - **Private chat**: a token bucket per chat, `private_burst` deep, refilled at
//!   `private_per_second` (`retry_after`: the whole seconds until the next token).
//!
//! The counters ([`FakeTelegram::token_usage`]) are kept whether the limits are on or not.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Duration;
use tokio::time::Instant;

use super::http::{Params, Reply};
use super::state::{ChatKind, Shared, State};
use super::FakeTelegram;

/// The methods the token's budget counts, as the Bot API spells them (the fake answers the
/// first eight; the others would be counted the same if it did).
pub const COUNTED: &[&str] = &[
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "sendDocument",
    "sendMediaGroup",
    "sendAnimation",
    "sendSticker",
    "sendPoll",
    "copyMessage",
    "forwardMessage",
];

/// One bot token's limits on sends and edits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenLimits {
    /// Across all chats, within any one second.
    pub per_second: usize,
    /// Per group (and per inline message), within any 60 seconds.
    pub group_per_minute: usize,
    /// Per private chat: the bucket's refill a second.
    pub private_per_second: f64,
    /// Per private chat: the bucket's depth (calls at once after a quiet while).
    pub private_burst: f64,
}

impl TokenLimits {
    /// Telegram's published limits: 30 a second, 20 a minute per group, 1 a second per
    /// private chat with a burst of 3.
    pub const TELEGRAM: TokenLimits = TokenLimits {
        per_second: 30,
        group_per_minute: 20,
        private_per_second: 1.0,
        private_burst: 3.0,
    };
}

/// The kind of chat a counted call went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChatType {
    /// A group or supergroup.
    Group,
    Private,
    /// An inline message (`inline_message_id`).
    Inline,
}

/// Which limit refused a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Limit {
    /// The token's calls a second.
    Global,
    /// A group's (or an inline message's) calls a minute.
    Group,
    /// A private chat's bucket.
    Private,
    /// A 429 a test injected ([`FakeTelegram::inject_429`]).
    Injected,
}

/// A counted call that took effect.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenCall {
    pub at: Instant,
    /// As the Bot API spells it.
    pub method: &'static str,
    pub chat_type: ChatType,
    /// The chat (for an inline message, the fake's own chat of it).
    pub chat: i64,
}

/// What the token spent, and what it was refused.
#[derive(Clone, Debug, Default)]
pub struct TokenUsage {
    /// Every counted call the bot made, by method and chat type (refused ones too).
    pub calls: BTreeMap<(&'static str, ChatType), usize>,
    /// The 429s among them, by method and chat type.
    pub too_many: BTreeMap<(&'static str, ChatType), usize>,
    /// The 429s by the limit that answered them.
    pub by_limit: BTreeMap<Limit, usize>,
    /// Every counted call that took effect, in order.
    pub accepted: Vec<TokenCall>,
}

impl TokenUsage {
    /// All 429s.
    pub fn rejected(&self) -> usize {
        self.too_many.values().sum()
    }

    /// The most calls that took effect within any one second.
    pub fn max_per_second(&self) -> usize {
        let t: Vec<Instant> = self.accepted.iter().map(|c| c.at).collect();
        let mut best = 0;
        let mut first = 0;
        for last in 0..t.len() {
            while t[last].duration_since(t[first]) >= Duration::from_secs(1) {
                first += 1;
            }
            best = best.max(last - first + 1);
        }
        best
    }
}

/// The token's budget as the fake keeps it.
#[derive(Default)]
pub(super) struct Budget {
    pub limits: Option<TokenLimits>,
    /// When the calls within the last second took effect (kept while the limits are on).
    window: VecDeque<Instant>,
    /// Private chats' buckets: tokens left, and when they were last filled.
    buckets: HashMap<i64, (f64, Instant)>,
    pub usage: TokenUsage,
}

impl Budget {
    fn bucket(&mut self, chat: i64, limits: &TokenLimits, now: Instant) -> &mut (f64, Instant) {
        let b = self
            .buckets
            .entry(chat)
            .or_insert((limits.private_burst, now));
        let refill = now.duration_since(b.1).as_secs_f64() * limits.private_per_second;
        *b = ((b.0 + refill).min(limits.private_burst), now);
        b
    }

    fn prune(&mut self, now: Instant) {
        while self
            .window
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Duration::from_secs(1))
        {
            self.window.pop_front();
        }
    }
}

/// The token-wide and private-chat limits for a send or edit into `chat_id` (the group limit
/// is the flood gate's own): a 429 when one is reached.
pub(super) fn gate(st: &mut State, chat_id: i64) -> Result<(), Reply> {
    let Some(limits) = st.budget.limits else {
        return Ok(());
    };
    let now = Instant::now();
    if st.chats[&chat_id].kind == ChatKind::Private {
        let (tokens, _) = *st.budget.bucket(chat_id, &limits, now);
        if tokens < 1.0 {
            st.refused(Limit::Private);
            let wait = (1.0 - tokens) / limits.private_per_second.max(1e-9);
            return Err(Reply::retry_after(wait.ceil().max(1.0) as u32));
        }
    }
    st.budget.prune(now);
    if st.budget.window.len() >= limits.per_second {
        st.refused(Limit::Global);
        return Err(Reply::retry_after(1));
    }
    Ok(())
}

/// Spends the budget of a send or edit into `chat_id` that took effect.
pub(super) fn spend(st: &mut State, chat_id: i64) {
    let Some(limits) = st.budget.limits else {
        return;
    };
    let now = Instant::now();
    if st.chats[&chat_id].kind == ChatKind::Private {
        st.budget.bucket(chat_id, &limits, now).0 -= 1.0;
    }
    st.budget.prune(now);
    st.budget.window.push_back(now);
}

impl State {
    /// Counts a 429 of `limit`.
    pub(super) fn refused(&mut self, limit: Limit) {
        *self.budget.usage.by_limit.entry(limit).or_default() += 1;
    }
}

/// The Bot API's spelling of a counted method (matched in any case).
fn counted(method: &str) -> Option<&'static str> {
    COUNTED
        .iter()
        .copied()
        .find(|m| m.eq_ignore_ascii_case(method))
}

/// Counts a call of a counted method and its answer, with the chat type it went to.
pub(super) fn record(shared: &Shared, method: &str, p: &Params, status: u16) {
    let Some(method) = counted(method) else {
        return;
    };
    shared.update(|st| {
        let (chat_type, chat) = if p.map.contains_key("inline_message_id") {
            let id = p.str("inline_message_id").unwrap_or_default();
            let Some(&(chat, _)) = st.inline_messages.get(&id) else {
                return;
            };
            (ChatType::Inline, chat)
        } else {
            let Some(chat) = p.i64("chat_id").and_then(|id| st.chats.get(&id)) else {
                return;
            };
            let t = match chat.kind {
                ChatKind::Private => ChatType::Private,
                ChatKind::Group | ChatKind::Supergroup => ChatType::Group,
            };
            (t, chat.id)
        };
        let usage = &mut st.budget.usage;
        *usage.calls.entry((method, chat_type)).or_default() += 1;
        match status {
            429 => *usage.too_many.entry((method, chat_type)).or_default() += 1,
            200 => usage.accepted.push(TokenCall {
                at: Instant::now(),
                method,
                chat_type,
                chat,
            }),
            _ => {}
        }
    });
}

impl FakeTelegram {
    /// Makes the fake enforce one bot token's budget ([`TokenLimits::TELEGRAM`], say), or
    /// (`None`) none, as by default. The group limit is the per-group flood limit
    /// ([`FakeTelegram::set_flood_limit`]), which this sets (or clears) too.
    pub fn set_token_limits(&self, limits: Option<TokenLimits>) {
        self.shared.update(|st| {
            st.budget.limits = limits;
            st.flood_limit = limits.map(|l| l.group_per_minute);
        });
    }

    /// What the token spent so far and what it was refused (see [`TokenUsage`]).
    pub fn token_usage(&self) -> TokenUsage {
        self.shared.lock().budget.usage.clone()
    }
}
