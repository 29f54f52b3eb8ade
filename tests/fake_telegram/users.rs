//! What users do: messages, replies, commands and button presses, queued as updates.

use serde_json::json;
use std::time::Duration;
use teloxide::types::{Message, User};

use super::state::{self, Callback, ChatKind, Msg};
use super::{chat_instance, markup, CallbackAnswer, FakeTelegram, BOT_USERNAME};

impl FakeTelegram {
    // ----- what users do -----

    /// A user writes `text` in a chat (a group, or their private chat: `chat_id` = user id).
    /// Telegram's entities (bot commands, mentions) are added. The update is queued unless
    /// privacy mode hides it from the bot.
    pub fn send_text(&self, chat_id: i64, user: &User, text: &str) -> Message {
        self.incoming(chat_id, user, text, None)
    }

    /// A user replies to message `reply_to_message_id` of the chat.
    pub fn send_reply(
        &self,
        chat_id: i64,
        user: &User,
        text: &str,
        reply_to_message_id: i32,
    ) -> Message {
        self.incoming(chat_id, user, text, Some(reply_to_message_id))
    }

    /// A user sends a command, e.g. `/newgame` or `/newgame@morskoy_test_bot`, with arguments
    /// after a space if any.
    pub fn send_command(&self, chat_id: i64, user: &User, command: &str) -> Message {
        assert!(
            command.starts_with('/'),
            "fake_telegram: a command starts with '/'"
        );
        self.incoming(chat_id, user, command, None)
    }

    /// A user sends a command in topic `topic` of a forum (its thread id, see
    /// [`FakeTelegram::create_topic`]).
    pub fn send_command_in_topic(
        &self,
        chat_id: i64,
        user: &User,
        command: &str,
        topic: i32,
    ) -> Message {
        assert!(
            command.starts_with('/'),
            "fake_telegram: a command starts with '/'"
        );
        self.incoming_in(chat_id, user, command, None, false, Some(topic))
    }

    /// An anonymous administrator writes `text` in a group: Telegram sends it from its
    /// GroupAnonymousBot, with the group itself as `sender_chat`.
    pub fn send_anonymous(&self, chat_id: i64, text: &str) -> Message {
        let anonymous = self.user(1_087_968_824, "Group", "en");
        let mut anonymous = anonymous;
        anonymous.is_bot = true;
        anonymous.username = Some("GroupAnonymousBot".into());
        self.incoming_in(chat_id, &anonymous, text, None, true, None)
    }

    fn incoming(&self, chat_id: i64, user: &User, text: &str, reply_to: Option<i32>) -> Message {
        self.incoming_in(chat_id, user, text, reply_to, false, None)
    }

    /// A message in topic `topic` (or, for a reply, in the topic of the message it replies
    /// to, as Telegram puts it).
    fn incoming_in(
        &self,
        chat_id: i64,
        user: &User,
        text: &str,
        reply_to: Option<i32>,
        as_chat: bool,
        topic: Option<i32>,
    ) -> Message {
        assert!(
            !text.trim().is_empty(),
            "fake_telegram: Telegram has no empty messages"
        );
        let user_json = serde_json::to_value(user).expect("a user serialises");
        let json = self.shared.update(|st| {
            let user_id = st.register_user(user_json.clone());
            let Some(chat) = st.chats.get_mut(&chat_id) else {
                panic!(
                    "fake_telegram: chat {chat_id} does not exist: call group() first (a \
                     private chat's id is the user's id)"
                )
            };
            if chat.kind == ChatKind::Private {
                assert_eq!(
                    chat_id, user_id,
                    "fake_telegram: only its user writes in a private chat"
                );
            } else {
                let status = chat
                    .members
                    .entry(user_id)
                    .or_insert_with(|| "member".to_owned());
                assert!(
                    status != "kicked",
                    "fake_telegram: user {user_id} is banned from chat {chat_id}"
                );
                if status == "left" {
                    *status = "member".to_owned();
                }
            }
            if let Some(r) = reply_to {
                assert!(
                    chat.messages.get(&r).is_some_and(|m| !m.deleted),
                    "fake_telegram: no message {r} to reply to in chat {chat_id}"
                );
            }
            let thread = topic.or_else(|| reply_to.and_then(|r| chat.messages[&r].thread));
            if let Some(t) = topic {
                assert!(
                    chat.topics.contains_key(&t),
                    "fake_telegram: chat {chat_id} has no topic {t}"
                );
            }
            let id = chat.next_id();
            let content = markup::Formatted {
                text: text.to_owned(),
                entities: markup::user_entities(text),
            };
            chat.messages.insert(
                id,
                Msg {
                    id,
                    from: user_json,
                    from_bot: false,
                    date: state::unix_now(),
                    edit_date: None,
                    content,
                    raw: text.to_owned(),
                    parse_mode: None,
                    markup: None,
                    photo: None,
                    photos: Vec::new(),
                    reply_to,
                    thread,
                    edits: 0,
                    versions: vec![text.to_owned()],
                    history: Vec::new(),
                    deleted: false,
                },
            );
            if chat.kind == ChatKind::Private {
                let u = st.users.get_mut(&user_id).expect("registered above");
                u.started = true;
                u.blocked = false;
            }
            let mut json = st.message_json(chat_id, id, true);
            if as_chat {
                json["sender_chat"] = st.chat_json(&st.chats[&chat_id]);
            }
            if bot_sees(st, chat_id, text, reply_to) {
                st.enqueue("message", json.clone());
            } else {
                eprintln!(
                    "fake_telegram: privacy mode: the bot does not get {text:?} in chat {chat_id} \
                     (not a command, not a reply to the bot)"
                );
            }
            json
        });
        serde_json::from_value(json).expect("teloxide reads the fake's Message")
    }

    /// A user presses the inline button with `callback_data` under the bot's message; returns
    /// the callback query id. Panics when the message (as the bot last set it) has no such
    /// button: a user can only press what they see.
    pub fn press(&self, chat_id: i64, user: &User, message_id: i32, callback_data: &str) -> String {
        self.press_inner(chat_id, user, message_id, callback_data, true)
    }

    /// A press carrying data the message no longer shows: a client that had not yet received
    /// the bot's last edit.
    pub fn press_stale(
        &self,
        chat_id: i64,
        user: &User,
        message_id: i32,
        callback_data: &str,
    ) -> String {
        self.press_inner(chat_id, user, message_id, callback_data, false)
    }

    fn press_inner(
        &self,
        chat_id: i64,
        user: &User,
        message_id: i32,
        data: &str,
        check: bool,
    ) -> String {
        self.press_on(user, (chat_id, message_id), None, data, check)
    }

    /// `user` presses the button with `data` on message `message_id` of `chat_id` (checked
    /// to be there when `check`): a callback query with the message, or for an inline
    /// message (`inline`, kept as that chat's message) its `inline_message_id` and no
    /// message. Returns the callback's id.
    pub(super) fn press_on(
        &self,
        user: &User,
        (chat_id, message_id): (i64, i32),
        inline: Option<&str>,
        data: &str,
        check: bool,
    ) -> String {
        let user_json = serde_json::to_value(user).expect("a user serialises");
        self.shared.update(|st| {
            let user_id = st.register_user(user_json.clone());
            let Some(m) = st
                .chats
                .get(&chat_id)
                .and_then(|c| c.messages.get(&message_id))
                .filter(|m| !m.deleted)
            else {
                panic!("fake_telegram: no message {message_id} in chat {chat_id} to press on")
            };
            if check {
                let sent = st.sent(chat_id, m);
                assert!(
                    sent.callback_data().iter().any(|d| d == data),
                    "fake_telegram: message {message_id} in chat {chat_id} ({inline:?}) has no \
                     button with callback_data {data:?}; its buttons: {:?}",
                    sent.buttons()
                );
            }
            let id = (5_000_000_000_000_000_000u64 + st.next_callback).to_string();
            st.next_callback += 1;
            st.callbacks.insert(
                id.clone(),
                Callback {
                    at: tokio::time::Instant::now(),
                    answer: None,
                    chat_id,
                    message_id,
                    user_id,
                },
            );
            st.callback_order.push(id.clone());
            let mut query = json!({
                "id": id,
                "from": user_json,
                "chat_instance": chat_instance(chat_id),
                "data": data,
            });
            match inline {
                Some(inline) => query["inline_message_id"] = json!(inline),
                None => query["message"] = st.message_json(chat_id, message_id, true),
            }
            st.enqueue("callback_query", query);
            id
        })
    }

    /// Waits until the bot answers the callback query.
    pub async fn wait_answer(
        &self,
        callback_id: &str,
        timeout: Duration,
    ) -> Option<CallbackAnswer> {
        self.shared
            .wait_key(&format!("answer:{callback_id}"), timeout, |st| {
                st.callbacks.get(callback_id).and_then(|c| c.answer.clone())
            })
            .await
    }

    /// Callback queries the bot has not answered (the user's button still shows a spinner).
    pub fn unanswered_callbacks(&self) -> Vec<String> {
        let st = self.shared.lock();
        st.callback_order
            .iter()
            .filter(|id| st.callbacks[*id].answer.is_none())
            .cloned()
            .collect()
    }

    /// Makes the press `query` as if it had been made `by` earlier (to try Telegram's time
    /// limit on its answer without waiting for it).
    #[allow(dead_code)]
    pub fn age_press(&self, query: &str, by: std::time::Duration) {
        let mut st = self.shared.lock();
        if let Some(cb) = st.callbacks.get_mut(query) {
            cb.at -= by;
        }
    }
}

/// Whether the bot gets a user's message: always in private chats; in groups under privacy
/// mode only commands (not addressed to another bot) and replies to the bot, unless it is an
/// administrator.
fn bot_sees(st: &state::State, chat_id: i64, text: &str, reply_to: Option<i32>) -> bool {
    let chat = &st.chats[&chat_id];
    if chat.kind == ChatKind::Private || !st.privacy_mode || chat.bot_is_admin() {
        return true;
    }
    if reply_to.is_some_and(|r| chat.messages.get(&r).is_some_and(|m| m.from_bot)) {
        return true;
    }
    let Some(command) = text.strip_prefix('/') else {
        return false;
    };
    let token = command.split_whitespace().next().unwrap_or_default();
    match token.split_once('@') {
        Some((name, bot)) => !name.is_empty() && bot.eq_ignore_ascii_case(BOT_USERNAME),
        None => !token.is_empty(),
    }
}
