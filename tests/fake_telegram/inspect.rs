//! What the bot did: its messages with every version, calls, errors, commands, flood counters.

use serde_json::Value;
use std::time::Duration;

use super::state::Chat;
use super::{ApiErrorRecord, CommandList, Delivery, FakeTelegram, SentMessage};

impl FakeTelegram {
    // ----- what the bot did -----

    /// The bot's messages in a chat, oldest first, deleted ones included (see `deleted`).
    pub fn messages(&self, chat_id: i64) -> Vec<SentMessage> {
        self.shared.lock().bot_messages(chat_id)
    }

    /// The bot's messages in a chat newer than `after`, oldest first: cheaper than
    /// [`FakeTelegram::messages`] when a player checks for news after every move.
    pub fn messages_after(&self, chat_id: i64, after: i32) -> Vec<SentMessage> {
        let st = self.shared.lock();
        st.chats.get(&chat_id).map_or_else(Vec::new, |chat| {
            chat.messages
                .range(after.saturating_add(1)..)
                .map(|(_, m)| m)
                .filter(|m| m.from_bot)
                .map(|m| st.sent(chat_id, m))
                .collect()
        })
    }

    /// The bot's latest message in a chat (deleted or not).
    pub fn last_message(&self, chat_id: i64) -> Option<SentMessage> {
        self.messages(chat_id).pop()
    }

    /// Waits until one of the bot's messages in the chat, as it stands now (so edits count),
    /// matches; returns the newest that does.
    pub async fn wait_for(
        &self,
        chat_id: i64,
        predicate: impl Fn(&SentMessage) -> bool,
        timeout: Duration,
    ) -> Option<SentMessage> {
        // Woken by changes to this chat only (and re-checked now and then): with a thousand
        // waiters, one for every chat, a wake on every change costs each of them a look.
        self.shared
            .wait_key(&super::state::chat_key(chat_id), timeout, |st| {
                st.bot_messages(chat_id)
                    .into_iter()
                    .rev()
                    .find(|m| predicate(m))
            })
            .await
    }

    /// [`FakeTelegram::wait_for`] a message whose text contains `needle`.
    pub async fn wait_for_text(
        &self,
        chat_id: i64,
        needle: &str,
        timeout: Duration,
    ) -> Option<SentMessage> {
        self.wait_for(chat_id, |m| m.text.contains(needle), timeout)
            .await
    }

    /// Every text version of every bot message in the chat, in the order they appeared.
    pub fn all_texts(&self, chat_id: i64) -> Vec<String> {
        let st = self.shared.lock();
        st.chats
            .get(&chat_id)
            .map_or_else(Vec::new, |c| c.log.iter().map(|(_, t)| t.clone()).collect())
    }

    /// Every error answer so far.
    pub fn errors(&self) -> Vec<ApiErrorRecord> {
        self.shared.lock().errors.clone()
    }

    /// How many times the bot called a method (any case: `sendMessage`, `SendMessage`).
    pub fn calls(&self, method: &str) -> usize {
        self.shared
            .lock()
            .calls
            .get(&method.to_ascii_lowercase())
            .copied()
            .unwrap_or(0)
    }

    /// Waits until the bot has called `method` at least `count` times.
    pub async fn wait_calls(&self, method: &str, count: usize, timeout: Duration) -> bool {
        let key = method.to_ascii_lowercase();
        self.shared
            .wait(timeout, |st| {
                (st.calls.get(&key).copied().unwrap_or(0) >= count).then_some(())
            })
            .await
            .is_some()
    }

    /// The bot's command lists now: (scope as JSON, language code or "", [(command, description)]).
    pub fn commands(&self) -> Vec<CommandList> {
        self.shared.lock().commands.clone()
    }

    /// The chat actions (`typing`, …) the bot sent to a chat, in order.
    pub fn chat_actions(&self, chat_id: i64) -> Vec<String> {
        self.shared
            .lock()
            .chats
            .get(&chat_id)
            .map_or_else(Vec::new, |c| c.actions.clone())
    }

    /// The reactions the bot set in a chat: (message id, emoji), in order.
    pub fn reactions(&self, chat_id: i64) -> Vec<(i32, String)> {
        self.shared
            .lock()
            .chats
            .get(&chat_id)
            .map_or_else(Vec::new, |c| c.reactions.clone())
    }

    /// Successful sends and edits into a chat.
    pub fn sends_and_edits(&self, chat_id: i64) -> usize {
        self.shared
            .lock()
            .chats
            .get(&chat_id)
            .map_or(0, |c| c.flood.len())
    }

    /// The most successful sends and edits into a chat within any 60 s.
    pub fn max_per_minute(&self, chat_id: i64) -> usize {
        self.shared
            .lock()
            .chats
            .get(&chat_id)
            .map_or(0, Chat::max_per_minute)
    }

    /// Updates queued and not yet confirmed by the bot (confirmation comes with its next
    /// getUpdates' `offset`, or a replica's 2xx answer to the webhook's POST).
    pub fn pending_updates(&self) -> usize {
        self.shared.lock().updates.len()
    }

    /// Waits until the bot has confirmed every queued update.
    pub async fn wait_confirmed(&self, timeout: Duration) -> bool {
        self.shared
            .wait(timeout, |st| st.updates.is_empty().then_some(()))
            .await
            .is_some()
    }

    /// Messages the bot pinned in a chat, oldest first.
    pub fn pinned(&self, chat_id: i64) -> Vec<i32> {
        self.shared
            .lock()
            .chats
            .get(&chat_id)
            .map_or_else(Vec::new, |c| c.pinned.clone())
    }

    /// The menu button the bot set for a chat (`None`: the default for all chats).
    pub fn menu_button(&self, chat_id: Option<i64>) -> Option<Value> {
        self.shared.lock().menu_buttons.get(&chat_id).cloned()
    }

    /// The webhook set now: its URL and secret token.
    pub fn webhook(&self) -> Option<(String, Option<String>)> {
        let st = self.shared.lock();
        st.webhook
            .as_ref()
            .map(|w| (w.url.clone(), w.secret.clone()))
    }

    /// Every attempt to deliver an update to the webhook, in the order they ended.
    pub fn webhook_deliveries(&self) -> Vec<Delivery> {
        self.shared.lock().deliveries.clone()
    }
}
