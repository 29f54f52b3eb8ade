//! What the fake Telegram knows: users, chats, every message with its versions, the update
//! queue, callback queries, commands, and the record of calls, errors and flood counters.

use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::Notify;
use tokio::time::Instant;

use super::markup;
use super::{BOT_FIRST_NAME, BOT_ID, BOT_USERNAME};

/// The state behind one fake server, shared by the HTTP side and the test's handle.
pub(super) struct Shared {
    state: Mutex<State>,
    /// Woken on every change; waiters re-check the state.
    pub changed: Notify,
    /// Waiters for one thing (a callback query's answer), woken only when it changes: a
    /// hundred players each waiting for their own answer are not all woken by every call.
    keyed: Mutex<HashMap<String, Arc<Notify>>>,
}

impl Shared {
    pub fn new() -> Self {
        Shared {
            state: Mutex::new(State::default()),
            changed: Notify::new(),
            keyed: Mutex::new(HashMap::new()),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the state, then wakes every waiter, and the waiters of the keys it touched.
    pub fn update<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let (r, touched) = {
            let mut st = self.lock();
            let r = f(&mut st);
            (r, std::mem::take(&mut st.touched))
        };
        self.changed.notify_waiters();
        if !touched.is_empty() {
            let keyed = self.keyed.lock().unwrap_or_else(|e| e.into_inner());
            for key in touched {
                if let Some(n) = keyed.get(&key) {
                    n.notify_waiters();
                }
            }
        }
        r
    }

    /// Waits until `f` returns `Some`, re-checking on every change, for at most `timeout`.
    pub async fn wait<R>(
        &self,
        timeout: Duration,
        f: impl FnMut(&State) -> Option<R>,
    ) -> Option<R> {
        self.wait_on(&self.changed, timeout, f).await
    }

    /// As [`Shared::wait`], woken only by changes that touch `key` (see `State::touched`).
    pub async fn wait_key<R>(
        &self,
        key: &str,
        timeout: Duration,
        f: impl FnMut(&State) -> Option<R>,
    ) -> Option<R> {
        let notify = self
            .keyed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key.to_owned())
            .or_default()
            .clone();
        let r = self.wait_on(&notify, timeout, f).await;
        let mut keyed = self.keyed.lock().unwrap_or_else(|e| e.into_inner());
        // Only this waiter's handle and the map's: nobody else waits for the key.
        if Arc::strong_count(&notify) == 2 {
            keyed.remove(key);
        }
        r
    }

    async fn wait_on<R>(
        &self,
        changed: &Notify,
        timeout: Duration,
        mut f: impl FnMut(&State) -> Option<R>,
    ) -> Option<R> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(r) = f(&self.lock()) {
                return Some(r);
            }
            // Re-check now and then too: time-based conditions change without a notification.
            let wake = deadline.min(tokio::time::Instant::now() + Duration::from_millis(200));
            if tokio::time::timeout_at(wake, notified).await.is_err()
                && tokio::time::Instant::now() >= deadline
            {
                return f(&self.lock());
            }
        }
    }
}

/// The key (see `State::touched`) of a change to a chat's messages.
pub(super) fn chat_key(chat_id: i64) -> String {
    format!("chat:{chat_id}")
}

/// The time now as Unix seconds, as Telegram's `date` fields.
pub(super) fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

pub(super) fn bot_user_json() -> Value {
    json!({"id": BOT_ID, "is_bot": true, "first_name": BOT_FIRST_NAME, "username": BOT_USERNAME})
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChatKind {
    Private,
    Group,
    Supergroup,
}

pub(super) struct UserRecord {
    pub json: Value,
    pub started: bool,
    pub blocked: bool,
}

/// One message in a chat: the bot's or a user's.
#[derive(Clone, Debug)]
pub(super) struct Msg {
    pub id: i32,
    pub from: Value,
    pub from_bot: bool,
    pub date: i64,
    pub edit_date: Option<i64>,
    /// Text (or caption) as Telegram stores it.
    pub content: markup::Formatted,
    /// Text (or caption) as the bot sent it, and how it asked it parsed.
    pub raw: String,
    pub parse_mode: Option<String>,
    /// The reply markup as the bot sent it (any kind).
    pub markup: Option<Value>,
    /// For a photo: what was sent (upload's file name or a file id / URL).
    pub photo: Option<String>,
    /// Every picture uploaded for it, in order: the one sent, then one per editMessageMedia.
    pub photos: Vec<std::sync::Arc<Vec<u8>>>,
    pub reply_to: Option<i32>,
    /// The forum topic it is in (its thread id); `None` in General and outside forums.
    pub thread: Option<i32>,
    pub edits: usize,
    pub versions: Vec<String>,
    /// Every state the message was shown in, the first as sent, one for every edit.
    pub history: Vec<super::Shown>,
    pub deleted: bool,
}

impl Msg {
    pub fn inline_markup(&self) -> Option<Value> {
        markup::inline_markup(self.markup.as_ref())
    }
}

pub(super) struct Chat {
    pub id: i64,
    pub kind: ChatKind,
    pub title: String,
    pub next_message_id: i32,
    pub messages: BTreeMap<i32, Msg>,
    /// Every text version of the bot's messages, in the order they appeared: (message id, text).
    pub log: Vec<(i32, String)>,
    /// Members' statuses (`creator`, `administrator`, `member`, `restricted`, `left`, `kicked`).
    pub members: HashMap<i64, String>,
    pub actions: Vec<String>,
    /// When each successful send or edit into this chat happened.
    pub flood: Vec<Instant>,
    /// Injected 429s still to answer, and their `retry_after`.
    pub inject_429: (usize, u32),
    pub pinned: Vec<i32>,
    /// Reactions the bot set: (message id, emoji), in order.
    pub reactions: Vec<(i32, String)>,
    /// A forum supergroup (topics on).
    pub forum: bool,
    /// A forum's topics by thread id: whether each is closed.
    pub topics: BTreeMap<i32, bool>,
    /// The names of the topics the bot created or renamed.
    pub topic_names: BTreeMap<i32, String>,
    /// A forum's General topic is closed: sends without a thread are refused.
    pub general_closed: bool,
}

impl Chat {
    pub fn new(id: i64, kind: ChatKind, title: &str) -> Self {
        let mut members = HashMap::new();
        members.insert(BOT_ID, "member".to_owned());
        Chat {
            id,
            kind,
            title: title.to_owned(),
            next_message_id: 1,
            messages: BTreeMap::new(),
            log: Vec::new(),
            members,
            actions: Vec::new(),
            flood: Vec::new(),
            inject_429: (0, 0),
            pinned: Vec::new(),
            reactions: Vec::new(),
            forum: false,
            topics: BTreeMap::new(),
            topic_names: BTreeMap::new(),
            general_closed: false,
        }
    }

    pub fn next_id(&mut self) -> i32 {
        let id = self.next_message_id;
        self.next_message_id += 1;
        id
    }

    pub fn status(&self, user_id: i64) -> &str {
        if self.kind == ChatKind::Private {
            return "member";
        }
        self.members.get(&user_id).map_or("left", String::as_str)
    }

    pub fn bot_is_admin(&self) -> bool {
        matches!(self.status(BOT_ID), "administrator" | "creator")
    }

    /// The largest number of successful sends and edits within any 60 s.
    pub fn max_per_minute(&self) -> usize {
        let t = &self.flood;
        let mut best = 0;
        let mut first = 0;
        for last in 0..t.len() {
            while t[last].duration_since(t[first]) >= Duration::from_secs(60) {
                first += 1;
            }
            best = best.max(last - first + 1);
        }
        best
    }
}

pub(super) struct QueuedUpdate {
    pub id: u32,
    /// The update's kind as `allowed_updates` names it (`message`, `callback_query`, …).
    pub kind: &'static str,
    pub json: Value,
    /// Its webhook deliveries so far: in flight, when to retry, where it failed.
    pub redelivery: super::webhook::Redelivery,
}

pub(super) struct Callback {
    pub answer: Option<super::CallbackAnswer>,
    /// When it was pressed: Telegram takes its answer only within [`super::sending::ANSWER_WITHIN`].
    pub at: tokio::time::Instant,
    pub chat_id: i64,
    pub message_id: i32,
    pub user_id: i64,
}

pub(super) struct State {
    pub users: HashMap<i64, UserRecord>,
    pub chats: HashMap<i64, Chat>,
    pub updates: VecDeque<QueuedUpdate>,
    pub next_update_id: u32,
    /// Bumped by every getUpdates; a held request whose number is no longer current ends with 409.
    pub poll_generation: u64,
    pub allowed_updates: Option<Vec<String>>,
    pub callbacks: HashMap<String, Callback>,
    pub callback_order: Vec<String>,
    pub next_callback: u64,
    /// Current command lists: (scope, language code) → commands, in the order first set.
    pub commands: Vec<super::CommandList>,
    pub calls: HashMap<String, usize>,
    pub errors: Vec<super::ApiErrorRecord>,
    pub privacy_mode: bool,
    /// Whether concurrent getUpdates may all be held (no 409 Conflict).
    pub concurrent_polling: bool,
    pub flood_limit: Option<usize>,
    /// The token's budget (limits off by default) and what it spent.
    pub budget: super::budget::Budget,
    pub menu_buttons: HashMap<Option<i64>, Value>,
    pub next_file: u64,
    /// Keys changed by the current update, for [`Shared::wait_key`] (`answer:<callback id>`).
    pub touched: Vec<String>,
    /// The webhook setWebhook set; while there is one, updates are POSTed, not polled.
    pub webhook: Option<super::webhook::Webhook>,
    /// The replicas behind the webhook URL (the fake is their load balancer), round-robin.
    pub webhook_backends: Vec<std::net::SocketAddr>,
    pub next_backend: usize,
    /// How long a replica may take to answer a delivery.
    pub webhook_timeout: Duration,
    /// Deliveries under way (at most the webhook's `max_connections`).
    pub webhook_in_flight: usize,
    /// The latest failed delivery: (Unix time, Telegram's message), for getWebhookInfo.
    pub webhook_error: Option<(i64, String)>,
    /// Every delivery attempt, in the order they ended.
    pub deliveries: Vec<super::Delivery>,
    /// Inline queries sent to the bot, by id.
    pub inline_queries: HashMap<String, super::inline::InlineQuery>,
    /// Inline messages, by `inline_message_id`: the chat of their own and the message.
    pub inline_messages: HashMap<String, (i64, i32)>,
}

impl Default for State {
    fn default() -> Self {
        State {
            users: HashMap::new(),
            chats: HashMap::new(),
            updates: VecDeque::new(),
            // Random, like a bot's real update ids, so that a store which remembers update ids
            // (to skip redeliveries) does not take a new fake's updates for old ones.
            next_update_id: 100_000_000 + rand::random::<u32>() % 2_000_000_000,
            poll_generation: 0,
            allowed_updates: None,
            callbacks: HashMap::new(),
            callback_order: Vec::new(),
            next_callback: 1,
            commands: Vec::new(),
            calls: HashMap::new(),
            errors: Vec::new(),
            privacy_mode: true,
            concurrent_polling: false,
            flood_limit: None,
            budget: Default::default(),
            menu_buttons: HashMap::new(),
            next_file: 1,
            touched: Vec::new(),
            webhook: None,
            webhook_backends: Vec::new(),
            next_backend: 0,
            webhook_timeout: Duration::from_secs(10),
            webhook_in_flight: 0,
            webhook_error: None,
            deliveries: Vec::new(),
            inline_queries: HashMap::new(),
            inline_messages: HashMap::new(),
        }
    }
}

impl State {
    /// Adds (or refreshes) a user and their private chat.
    pub fn register_user(&mut self, json: Value) -> i64 {
        let id = json["id"].as_i64().expect("a user has an id");
        let first_name = json["first_name"].as_str().unwrap_or_default().to_owned();
        self.users
            .entry(id)
            .and_modify(|u| u.json = json.clone())
            .or_insert(UserRecord {
                json,
                started: false,
                blocked: false,
            });
        self.chats
            .entry(id)
            .or_insert_with(|| Chat::new(id, ChatKind::Private, &first_name));
        id
    }

    pub fn user_json(&self, id: i64) -> Value {
        if id == BOT_ID {
            return bot_user_json();
        }
        self.users.get(&id).map(|u| u.json.clone()).unwrap_or_else(
            || json!({"id": id, "is_bot": false, "first_name": format!("user{id}")}),
        )
    }

    pub fn chat_json(&self, chat: &Chat) -> Value {
        match chat.kind {
            ChatKind::Private => {
                let user = self.user_json(chat.id);
                let mut v =
                    json!({"id": chat.id, "type": "private", "first_name": user["first_name"]});
                for key in ["last_name", "username"] {
                    if let Some(x) = user.get(key).filter(|x| !x.is_null()) {
                        v[key] = x.clone();
                    }
                }
                v
            }
            ChatKind::Group => json!({"id": chat.id, "type": "group", "title": chat.title}),
            ChatKind::Supergroup if chat.forum => {
                json!({"id": chat.id, "type": "supergroup", "title": chat.title, "is_forum": true})
            }
            ChatKind::Supergroup => {
                json!({"id": chat.id, "type": "supergroup", "title": chat.title})
            }
        }
    }

    /// A message as Telegram shows it now; `with_reply` adds the message it replies to.
    pub fn message_json(&self, chat_id: i64, message_id: i32, with_reply: bool) -> Value {
        let chat = &self.chats[&chat_id];
        let m = &chat.messages[&message_id];
        let mut v = json!({
            "message_id": m.id,
            "from": m.from,
            "chat": self.chat_json(chat),
            "date": m.date,
        });
        if let Some(edit_date) = m.edit_date {
            v["edit_date"] = json!(edit_date);
        }
        if let Some(thread) = m.thread {
            v["message_thread_id"] = json!(thread);
            v["is_topic_message"] = json!(true);
        }
        let (text_key, entities_key) = if m.photo.is_some() {
            let n = m.id as u64;
            v["photo"] = json!([
                {"file_id": format!("AgACfakephoto{n}s"), "file_unique_id": format!("AQADs{n}"),
                 "width": 90, "height": 90, "file_size": 1200},
                {"file_id": format!("AgACfakephoto{n}m"), "file_unique_id": format!("AQADm{n}"),
                 "width": 800, "height": 800, "file_size": 48000},
            ]);
            ("caption", "caption_entities")
        } else {
            ("text", "entities")
        };
        if m.photo.is_none() || !m.content.text.is_empty() {
            v[text_key] = json!(m.content.text);
        }
        if !m.content.entities.is_empty() {
            v[entities_key] = json!(m.content.entities);
        }
        if let Some(markup) = m.inline_markup() {
            v["reply_markup"] = markup;
        }
        if with_reply {
            if let Some(r) = m.reply_to {
                if chat.messages.get(&r).is_some_and(|r| !r.deleted) {
                    v["reply_to_message"] = self.message_json(chat_id, r, false);
                }
            }
        }
        v
    }

    /// Queues an update for getUpdates (or the webhook).
    pub fn enqueue(&mut self, kind: &'static str, payload: Value) -> u32 {
        let id = self.next_update_id;
        self.next_update_id += 1;
        let mut json = json!({"update_id": id});
        json[kind] = payload;
        self.updates.push_back(QueuedUpdate {
            id,
            kind,
            json,
            redelivery: Default::default(),
        });
        id
    }

    /// Takes an `allowed_updates` parameter (getUpdates', setWebhook's): a list replaces the
    /// filter (an empty one means the default kinds), none keeps the previous one.
    pub fn set_allowed_updates(&mut self, allowed: Option<Value>) {
        if let Some(Value::Array(list)) = allowed {
            self.allowed_updates = Some(
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
    }

    /// Whether getUpdates (or the webhook) hands out updates of this kind under the current
    /// `allowed_updates`.
    pub fn allowed(&self, kind: &str) -> bool {
        match &self.allowed_updates {
            Some(list) if !list.is_empty() => list.iter().any(|k| k == kind),
            _ => !matches!(
                kind,
                "chat_member" | "message_reaction" | "message_reaction_count"
            ),
        }
    }

    pub fn sent(&self, chat_id: i64, m: &Msg) -> super::SentMessage {
        super::SentMessage {
            chat_id,
            message_id: m.id,
            text: m.content.text.clone(),
            raw_text: m.raw.clone(),
            parse_mode: m.parse_mode.clone(),
            entities: m.content.entities.clone(),
            reply_markup: m.markup.clone(),
            edits: m.edits,
            versions: m.versions.clone(),
            history: m.history.clone(),
            deleted: m.deleted,
            photo: m.photo.clone(),
            photos: m.photos.clone(),
            reply_to_message_id: m.reply_to,
            thread: m.thread,
        }
    }

    /// The bot's messages in a chat, oldest first.
    pub fn bot_messages(&self, chat_id: i64) -> Vec<super::SentMessage> {
        self.chats.get(&chat_id).map_or_else(Vec::new, |chat| {
            chat.messages
                .values()
                .filter(|m| m.from_bot)
                .map(|m| self.sent(chat_id, m))
                .collect()
        })
    }
}
