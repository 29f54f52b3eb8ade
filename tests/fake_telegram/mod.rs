//! An in-process fake of the Telegram Bot API for end-to-end tests: the bot (the real binary, or
//! a teloxide `Bot` in the test) talks to it over HTTP through `TELOXIDE_API_URL`, the test plays
//! the users (messages, commands, button presses) and inspects what the bot sent.
//!
//! It behaves like Telegram where the bot can tell: the same JSON shapes, long polling with
//! `offset`/`limit`/`timeout`/`allowed_updates`, HTML / MarkdownV2 / Markdown parsing into plain
//! text and entities, Telegram's limits and error descriptions, 403 for users who never started
//! the bot (or blocked it) and for groups the bot was removed from (to every method on that
//! chat: [`FakeTelegram::set_member_status`] of [`BOT_ID`]), group privacy mode, and 429s a
//! test injects, or the budget of one bot token ([`FakeTelegram::set_token_limits`]: 30 sends
//! and edits a second across all chats, 20 a minute per group, about one a second per private
//! chat) with counters of what it spent. A webhook (setWebhook) is served too:
//! the fake then POSTs the updates to the bot's replicas, round-robin, as a load balancer in
//! front of them would ([`FakeTelegram::set_webhook_backends`]).
//!
//! The end-to-end test binary (tests/e2e/main.rs) includes it with
//! `#[path = "../fake_telegram/mod.rs"] mod fake_telegram;`, a bench with
//! `#[path = "../tests/fake_telegram/mod.rs"] mod fake_telegram;`.
//!
//! The server runs on a thread of its own with its own runtime, so it keeps answering while the
//! test blocks; it stops when the last clone of the handle is dropped.
//!
//! ```text
//! let fake = FakeTelegram::start().await;
//! fake.group(-100, "Морской бой");
//! let anya = fake.user(11, "Аня", "ru");
//! // run the bot with TELOXIDE_TOKEN=fake.token(), TELOXIDE_API_URL=fake.url()
//! fake.send_command(-100, &anya, "/newgame");
//! let lobby = fake.wait_for_text(-100, "Лобби", Duration::from_secs(10)).await.unwrap();
//! let q = fake.press(-100, &anya, lobby.message_id, &lobby.button("Вступить").unwrap());
//! assert!(fake.wait_answer(&q, Duration::from_secs(5)).await.is_some());
//! assert!(fake.max_per_minute(-100) <= 20);
//! ```
//!
//! Files: `http` (server, parameters), `budget` (the token's limits and counters), `methods` /
//! `sending` / `polling` / `webhook` (the Bot API methods, the webhook's deliveries),
//! `markup` / `html` / `markdown` (parse modes, limits, keyboards), `state` (what it knows),
//! `users` (what test users do), `inspect` (what the bot did).

#![allow(dead_code)]

pub mod budget;
mod html;
mod http;
mod inline;
mod inspect;
mod markdown;
mod markup;
mod methods;
mod polling;
mod sending;
mod state;
mod users;
mod webhook;

#[allow(unused_imports)] // The bench reads them all; the tests only some.
pub use budget::{ChatType, Limit, TokenCall, TokenLimits, TokenUsage};
use serde_json::Value;
use std::sync::Arc;
use teloxide::types::{User, UserId};
use tokio::sync::oneshot;

use state::{Chat, ChatKind, Shared};

/// The bot's user id.
pub const BOT_ID: i64 = 123_456;
/// The bot's username (without `@`).
pub const BOT_USERNAME: &str = "morskoy_test_bot";
/// The bot's first name.
pub const BOT_FIRST_NAME: &str = "Морской бой";
/// The only token the fake accepts; any other gets 401 Unauthorized.
pub const TOKEN: &str = "123456:TEST";

/// One state of a message: as sent, or after an edit.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// When the fake took it.
    pub at: tokio::time::Instant,
    /// The text as a user sees it.
    pub text: String,
    /// Whether it had an inline keyboard.
    pub keyboard: bool,
    /// The picture it showed (a photo's latest upload).
    pub photo: Option<Arc<Vec<u8>>>,
    /// The callback data of its buttons then, row by row.
    pub data: Vec<String>,
}

/// Every button's callback data in an inline keyboard's JSON.
pub(crate) fn keyboard_data(inline: Option<&serde_json::Value>) -> Vec<String> {
    inline
        .and_then(|k| k["inline_keyboard"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|row| row.as_array())
        .flatten()
        .filter_map(|b| b["callback_data"].as_str().map(str::to_owned))
        .collect()
}

/// A message the bot sent, as it stands now.
#[derive(Clone, Debug, PartialEq)]
pub struct SentMessage {
    pub chat_id: i64,
    pub message_id: i32,
    /// The text as a user sees it: markup parsed away (tags stripped, `&lt;` … unescaped) and
    /// trimmed, as Telegram stores it. For a photo, its caption.
    pub text: String,
    /// The text (or caption) exactly as the bot sent it, with its markup.
    pub raw_text: String,
    /// The `parse_mode` the bot sent with the latest text (`"HTML"`, `"MarkdownV2"`, …).
    pub parse_mode: Option<String>,
    /// The entities Telegram made of it (JSON, UTF-16 offsets).
    pub entities: Vec<Value>,
    /// The reply markup as the bot sent it, `None` once an edit removed it.
    pub reply_markup: Option<Value>,
    /// How many edits succeeded (text, caption or reply markup).
    pub edits: usize,
    /// Every text version in order, the first as sent (a markup-only edit adds none).
    pub versions: Vec<String>,
    /// Every state it was shown in, the first as sent, then one for every edit.
    pub history: Vec<Shown>,
    pub deleted: bool,
    /// For a photo: the uploaded file's name and size, or the file id / URL sent.
    pub photo: Option<String>,
    /// Every picture uploaded for it, in order: the one sent, then one per editMessageMedia.
    pub photos: Vec<Arc<Vec<u8>>>,
    pub reply_to_message_id: Option<i32>,
    /// The forum topic it was sent to (its thread id); `None` in General and elsewhere.
    pub thread: Option<i32>,
}

impl SentMessage {
    /// The inline keyboard: rows of (button text, callback data or URL).
    pub fn buttons(&self) -> Vec<Vec<(String, String)>> {
        let Some(rows) = markup::inline_markup(self.reply_markup.as_ref()) else {
            return Vec::new();
        };
        let rows = rows["inline_keyboard"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        rows.iter()
            .map(|row| {
                row.as_array()
                    .into_iter()
                    .flatten()
                    .map(|b| {
                        let text = b["text"].as_str().unwrap_or_default().to_owned();
                        let action = b["callback_data"].as_str().or_else(|| b["url"].as_str());
                        (text, action.unwrap_or_default().to_owned())
                    })
                    .collect()
            })
            .collect()
    }

    /// The callback data of the first button whose text contains `label`.
    pub fn button(&self, label: &str) -> Option<String> {
        self.buttons()
            .into_iter()
            .flatten()
            .find(|(t, _)| t.contains(label))
            .map(|(_, d)| d)
    }

    /// Every button's callback data (or URL), row by row.
    pub fn callback_data(&self) -> Vec<String> {
        self.buttons()
            .into_iter()
            .flatten()
            .map(|(_, d)| d)
            .collect()
    }

    /// Whether the message has an inline keyboard.
    pub fn has_keyboard(&self) -> bool {
        markup::inline_markup(self.reply_markup.as_ref()).is_some()
    }
}

/// How the bot answered a callback query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallbackAnswer {
    pub text: Option<String>,
    pub show_alert: bool,
    pub url: Option<String>,
}

/// A command list the bot set: (scope as JSON, language code or "", [(command, description)]).
pub type CommandList = (Value, String, Vec<(String, String)>);

/// A 4xx answer the fake gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiErrorRecord {
    /// The method as the Bot API spells it (`sendMessage`), or as called when unknown.
    pub method: String,
    pub status: u16,
    pub description: String,
    /// A 429 the test asked for with [`FakeTelegram::inject_429`].
    pub injected: bool,
    /// The call's `chat_id` and `message_id`, when it had them: which message it was.
    pub chat: Option<i64>,
    pub message: Option<i64>,
}

/// One attempt to deliver an update to the webhook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    pub update_id: u32,
    /// The replica it was POSTed to.
    pub backend: std::net::SocketAddr,
    /// The replica's HTTP status, or why it gave none (`Connection refused`, `Read timeout
    /// expired`, …).
    pub outcome: Result<u16, String>,
}

impl Delivery {
    /// Whether the replica took the update (a 2xx answer): it is not delivered again.
    pub fn delivered(&self) -> bool {
        matches!(self.outcome, Ok(status) if (200..300).contains(&status))
    }
}

/// A handle on one fake Telegram server; clones share it.
#[derive(Clone)]
pub struct FakeTelegram {
    shared: Arc<Shared>,
    /// Dropping the last one stops the server.
    _stop: Arc<oneshot::Sender<()>>,
    url: String,
}

impl std::fmt::Debug for FakeTelegram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeTelegram")
            .field("url", &self.url)
            .finish()
    }
}

fn chat_instance(chat_id: i64) -> String {
    ((chat_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as i64).to_string()
}

impl FakeTelegram {
    /// Starts a server on 127.0.0.1 at a free port.
    pub async fn start() -> FakeTelegram {
        Self::start_blocking()
    }

    /// A server run as a task of the caller's runtime rather than on a thread of its own: a
    /// test on paused time shares its clock with the server (its budgets, its long polls).
    pub async fn start_here() -> FakeTelegram {
        Self::start_on(|serve| {
            tokio::spawn(serve);
        })
    }

    /// [`FakeTelegram::start`] for code outside a runtime (benches, sync tests).
    pub fn start_blocking() -> FakeTelegram {
        Self::start_on(|serve| {
            std::thread::Builder::new()
                .name("fake-telegram".to_owned())
                .spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .expect("a runtime for the fake Telegram");
                    runtime.block_on(serve);
                })
                .expect("a thread for the fake Telegram");
        })
    }

    /// A server on 127.0.0.1 at a free port, its serving future given to `run`.
    fn start_on(
        run: impl FnOnce(std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>),
    ) -> FakeTelegram {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let port = listener.local_addr().expect("a local address").port();
        let shared = Arc::new(Shared::new());
        let (stop, stopped) = oneshot::channel();
        let server = shared.clone();
        run(Box::pin(http::serve(listener, server, stopped)));
        FakeTelegram {
            shared,
            _stop: Arc::new(stop),
            url: format!("http://127.0.0.1:{port}"),
        }
    }

    /// The base URL for `TELOXIDE_API_URL`, e.g. `http://127.0.0.1:40123`.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// [`FakeTelegram::url`] parsed, for `Bot::set_api_url`.
    pub fn api_url(&self) -> url::Url {
        url::Url::parse(&self.url).expect("a valid URL")
    }

    /// The token for `TELOXIDE_TOKEN`.
    pub fn token(&self) -> &'static str {
        TOKEN
    }

    /// A teloxide `Bot` talking to this server.
    pub fn bot(&self) -> teloxide::Bot {
        teloxide::Bot::new(TOKEN).set_api_url(self.api_url())
    }

    // ----- users and chats -----

    /// A user (registered, with a private chat whose id is the user's id; not yet started).
    /// An empty `language_code` means none.
    pub fn user(&self, id: i64, first_name: &str, language_code: &str) -> User {
        let user = User {
            id: UserId(id as u64),
            is_bot: false,
            first_name: first_name.to_owned(),
            last_name: None,
            username: None,
            language_code: (!language_code.is_empty()).then(|| language_code.to_owned()),
            is_premium: false,
            added_to_attachment_menu: false,
        };
        let json = serde_json::to_value(&user).expect("a user serialises");
        self.shared.update(|st| st.register_user(json));
        user
    }

    /// A basic group (`type: "group"`) with the bot in it. The id must be negative.
    pub fn group(&self, chat_id: i64, title: &str) {
        self.add_group(chat_id, title, ChatKind::Group);
    }

    /// A supergroup (`type: "supergroup"`, ids like -100…) with the bot in it.
    pub fn supergroup(&self, chat_id: i64, title: &str) {
        self.add_group(chat_id, title, ChatKind::Supergroup);
    }

    /// A forum supergroup (topics on) with the bot in it: only its General topic, open, until
    /// [`FakeTelegram::create_topic`].
    pub fn forum(&self, chat_id: i64, title: &str) {
        self.add_group(chat_id, title, ChatKind::Supergroup);
        self.shared.update(|st| {
            st.chats.get_mut(&chat_id).expect("added").forum = true;
        });
    }

    /// A new topic of forum `chat_id`: its thread id (the id of the service message that
    /// opens it, as Telegram numbers it).
    pub fn create_topic(&self, chat_id: i64) -> i32 {
        self.shared.update(|st| {
            let chat = st.chats.get_mut(&chat_id).expect("a forum");
            assert!(chat.forum, "fake_telegram: chat {chat_id} is no forum");
            let id = chat.next_id();
            chat.topics.insert(id, false);
            id
        })
    }

    /// `admin` closes (`true`) or reopens a topic of forum `chat_id`: sends to a closed one are
    /// refused with `TOPIC_CLOSED`. Telegram posts a service message in the topic
    /// (`forum_topic_closed` / `forum_topic_reopened`), which the bot gets whatever its
    /// privacy mode. (Edits of the bot's messages there are left alone: the Bot API does not
    /// say they are refused.)
    pub fn close_topic(&self, chat_id: i64, topic: i32, closed: bool, admin: &User) {
        let admin = serde_json::to_value(admin).expect("a user serialises");
        self.shared.update(|st| {
            st.register_user(admin.clone());
            let chat = st.chats.get_mut(&chat_id).expect("a forum");
            *chat.topics.get_mut(&topic).expect("a topic") = closed;
            let id = chat.next_id();
            let mut json = serde_json::json!({
                "message_id": id,
                "from": admin,
                "date": state::unix_now(),
                "message_thread_id": topic,
                "is_topic_message": true,
            });
            json["chat"] = st.chat_json(&st.chats[&chat_id]);
            let what = if closed {
                "forum_topic_closed"
            } else {
                "forum_topic_reopened"
            };
            json[what] = serde_json::json!({});
            st.enqueue("message", json);
        });
    }

    /// A topic's name as the bot created or renamed it, and whether it is closed; `None` for
    /// no such topic.
    pub fn topic(&self, chat_id: i64, topic: i32) -> Option<(Option<String>, bool)> {
        let st = self.shared.lock();
        let chat = st.chats.get(&chat_id)?;
        let closed = *chat.topics.get(&topic)?;
        Some((chat.topic_names.get(&topic).cloned(), closed))
    }

    /// The forum's topics, by thread id.
    pub fn topics(&self, chat_id: i64) -> Vec<i32> {
        let st = self.shared.lock();
        st.chats
            .get(&chat_id)
            .map(|c| c.topics.keys().copied().collect())
            .unwrap_or_default()
    }

    /// Topic `topic` of forum `chat_id` is deleted, and every message in it with it: sends
    /// there are refused ("message thread not found"), edits find no message. Telegram
    /// posts nothing about it.
    pub fn delete_topic(&self, chat_id: i64, topic: i32) {
        self.shared.update(|st| {
            st.touched.push(state::chat_key(chat_id));
            let chat = st.chats.get_mut(&chat_id).expect("a forum");
            chat.topics.remove(&topic).expect("a topic");
            for m in chat.messages.values_mut() {
                if m.thread == Some(topic) {
                    m.deleted = true;
                }
            }
        });
    }

    /// Closes (`true`) or reopens the General topic of forum `chat_id`: sends without a
    /// thread are refused with `TOPIC_CLOSED` while it is closed.
    pub fn close_general(&self, chat_id: i64, closed: bool) {
        self.shared.update(|st| {
            st.chats.get_mut(&chat_id).expect("a forum").general_closed = closed;
        });
    }

    fn add_group(&self, chat_id: i64, title: &str, kind: ChatKind) {
        assert!(
            chat_id < 0,
            "fake_telegram: a group's id is negative, got {chat_id}"
        );
        self.shared.update(|st| {
            let chat = st
                .chats
                .entry(chat_id)
                .or_insert_with(|| Chat::new(chat_id, kind, title));
            chat.kind = kind;
            chat.title = title.to_owned();
        });
    }

    /// Marks that the user has started the bot (sending anything in the private chat does too).
    pub fn start_bot(&self, user_id: i64) {
        self.shared.update(|st| match st.users.get_mut(&user_id) {
            Some(u) => {
                u.started = true;
                u.blocked = false;
            }
            None => panic!("fake_telegram: unknown user {user_id}: create it with user() first"),
        });
    }

    /// The user blocks the bot: sends to them get 403 "bot was blocked by the user".
    pub fn block_bot(&self, user_id: i64) {
        self.shared.update(|st| {
            if let Some(u) = st.users.get_mut(&user_id) {
                u.blocked = true;
            }
        });
    }

    /// Sets a member's status in a group: `creator`, `administrator`, `member`, `restricted`,
    /// `left` or `kicked`. Use [`BOT_ID`] for the bot itself (an administrator bot may delete
    /// others' messages, pin, and sees every message despite privacy mode; a `left` or `kicked`
    /// bot gets 403).
    pub fn set_member_status(&self, chat_id: i64, user_id: i64, status: &str) {
        assert!(
            [
                "creator",
                "administrator",
                "member",
                "restricted",
                "left",
                "kicked"
            ]
            .contains(&status),
            "fake_telegram: unknown member status {status:?}"
        );
        self.shared.update(|st| {
            let chat = st
                .chats
                .get_mut(&chat_id)
                .expect("fake_telegram: unknown chat");
            chat.members.insert(user_id, status.to_owned());
        });
    }

    /// Group privacy mode (on by default, as BotFather sets it): in groups the bot then gets only
    /// commands (not those addressed to another bot), replies to its own messages, and
    /// everything when it is an administrator. Turning it off makes `getMe` say
    /// `can_read_all_group_messages: true`.
    pub fn set_privacy_mode(&self, on: bool) {
        self.shared.update(|st| st.privacy_mode = on);
    }

    /// Lets several getUpdates be held at once, each answered with every pending update (for
    /// tests that run more than one bot replica). Off by default: as on Telegram, a newer
    /// getUpdates ends a held one with 409 "Conflict: terminated by other getUpdates request".
    pub fn allow_concurrent_polling(&self, allow: bool) {
        self.shared.update(|st| st.concurrent_polling = allow);
    }

    /// The replicas behind the webhook URL, by their plain-HTTP listen addresses: while a
    /// webhook is set, each update is POSTed to the next one, round-robin, at the webhook URL's
    /// path (TLS ends at this "load balancer"); one that fails is retried on another. With none,
    /// updates wait.
    pub fn set_webhook_backends(&self, backends: Vec<std::net::SocketAddr>) {
        self.shared.update(|st| st.webhook_backends = backends);
    }

    /// How long a replica may take to answer a webhook delivery before it counts as failed
    /// ("Read timeout expired") and the update is retried: 10 s by default.
    pub fn set_webhook_timeout(&self, timeout: std::time::Duration) {
        self.shared.update(|st| st.webhook_timeout = timeout);
    }

    /// Makes groups answer sends and edits with a real 429 once `per_minute` succeeded within
    /// the last 60 s (Telegram's limit is about 20 a minute per group). Off by default.
    pub fn set_flood_limit(&self, per_minute: Option<usize>) {
        self.shared.update(|st| st.flood_limit = per_minute);
    }

    /// The next `count` sends or edits into the chat fail with 429 and `retry_after`.
    pub fn inject_429(&self, chat_id: i64, count: usize, retry_after_secs: u32) {
        self.shared.update(|st| {
            let chat = st
                .chats
                .get_mut(&chat_id)
                .expect("fake_telegram: unknown chat");
            chat.inject_429 = (count, retry_after_secs);
        });
    }
}
