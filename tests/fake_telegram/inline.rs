//! Inline mode as Telegram runs it: a user types `@bot …` in any chat (an inline query), the
//! bot answers with results (`answerInlineQuery`: at most 50, ids of 1–64 bytes, each an
//! article with words to send), the user sends one into a chat (an inline message, known to
//! the bot only by its `inline_message_id`), and presses on it come as callback queries with
//! that id and no message. The bot edits it by `inline_message_id` (the answer is `true`, not
//! a message); it cannot send to it.
//!
//! Each inline message is kept as the only message of a chat of its own, which the bot
//! cannot see or send to, so edits reuse the checks of any message (limits, "message is not
//! modified") and each inline message has its own flood counter.

use super::http::{Params, Reply};
use super::markup;
use super::state::{Chat, ChatKind, Msg, State};
use super::{FakeTelegram, SentMessage};
use serde_json::{json, Value};
use teloxide::types::User;

/// The chats that hold inline messages count down from here.
const INLINE_CHATS: i64 = -9_000_000_000_000;

/// An inline query the fake sent: who asked, and the bot's answer once given.
pub(super) struct InlineQuery {
    pub user: Value,
    pub answer: Option<Vec<Value>>,
}

/// `answerInlineQuery`, checked as Telegram does.
pub(super) fn answer_inline_query(st: &mut State, p: &Params) -> Result<Reply, Reply> {
    let id = p.str("inline_query_id").unwrap_or_default();
    let Some(q) = st
        .inline_queries
        .get_mut(&id)
        .filter(|q| q.answer.is_none())
    else {
        return Err(Reply::bad_request(
            "Bad Request: query is too old and response timeout expired or query ID is invalid",
        ));
    };
    let results = p
        .json("results")
        .and_then(|r| r.as_array().cloned())
        .ok_or_else(|| Reply::bad_request("Bad Request: results must be an array"))?;
    if results.len() > 50 {
        return Err(Reply::bad_request("Bad Request: RESULTS_TOO_MUCH"));
    }
    let mut ids = std::collections::HashSet::new();
    for r in &results {
        let rid = r["id"].as_str().unwrap_or_default();
        if rid.is_empty() || rid.len() > 64 {
            return Err(Reply::bad_request("Bad Request: RESULT_ID_INVALID"));
        }
        if !ids.insert(rid.to_owned()) {
            return Err(Reply::bad_request("Bad Request: RESULT_ID_DUPLICATE"));
        }
        if r["type"] != "article" || r["title"].as_str().is_none_or(str::is_empty) {
            return Err(Reply::bad_request("Bad Request: RESULT_TYPE_INVALID"));
        }
        let content = &r["input_message_content"];
        let text = content["message_text"].as_str().unwrap_or_default();
        let formatted = markup::format(text, content["parse_mode"].as_str(), None)
            .map_err(Reply::bad_request)?;
        if formatted.text.is_empty() || formatted.chars() > 4096 {
            return Err(Reply::bad_request("Bad Request: MESSAGE_TEXT_INVALID"));
        }
        if let Some(kb) = r.get("reply_markup") {
            markup::check_reply_markup(kb).map_err(Reply::bad_request)?;
        }
    }
    q.answer = Some(results);
    st.touched.push(format!("inline:{id}"));
    Ok(Reply::ok(json!(true)))
}

/// The chat and message an `inline_message_id` names, or Telegram's refusal.
pub(super) fn inline_target(st: &State, p: &Params) -> Result<(i64, i32), Reply> {
    let id = p.str("inline_message_id").unwrap_or_default();
    st.inline_messages
        .get(&id)
        .copied()
        .ok_or_else(|| Reply::bad_request("Bad Request: MESSAGE_ID_INVALID"))
}

impl FakeTelegram {
    /// `user` types `@bot query` in a chat: the bot gets an inline query. Returns its id.
    pub fn inline_query(&self, user: &User, query: &str) -> String {
        let user_json = serde_json::to_value(user).expect("a user serialises");
        self.shared.update(|st| {
            st.register_user(user_json.clone());
            let id = (7_000_000_000_000_000_000u64 + st.next_callback).to_string();
            st.next_callback += 1;
            st.inline_queries.insert(
                id.clone(),
                InlineQuery {
                    user: user_json.clone(),
                    answer: None,
                },
            );
            st.enqueue(
                "inline_query",
                json!({
                    "id": id,
                    "from": user_json,
                    "query": query,
                    "offset": "",
                    "chat_type": "private",
                }),
            );
            id
        })
    }

    /// The bot's answer to an inline query, once it comes.
    pub async fn inline_answer(
        &self,
        query: &str,
        timeout: std::time::Duration,
    ) -> Option<Vec<Value>> {
        self.shared
            .wait_key(&format!("inline:{query}"), timeout, |st| {
                st.inline_queries.get(query).and_then(|q| q.answer.clone())
            })
            .await
    }

    /// The user who asked sends result `result` of the answer to `query` into a chat: an
    /// inline message, whose id is returned.
    pub fn send_inline_result(&self, query: &str, result: &str) -> String {
        self.shared.update(|st| {
            let q = st
                .inline_queries
                .get(query)
                .expect("fake_telegram: no such inline query");
            let answer = q
                .answer
                .as_ref()
                .expect("fake_telegram: the query is not answered");
            let r = answer
                .iter()
                .find(|r| r["id"] == result)
                .unwrap_or_else(|| panic!("fake_telegram: no result {result:?}"))
                .clone();
            let user = q.user.clone();
            let n = st.inline_messages.len() as i64 + 1;
            let chat_id = INLINE_CHATS - n;
            let inline_id = format!("AgAAAF{n:06}fake");
            let content = &r["input_message_content"];
            let text = content["message_text"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let formatted = markup::format(&text, content["parse_mode"].as_str(), None)
                .expect("checked when answered");
            st.touched.push(super::state::chat_key(chat_id));
            let mut chat = Chat::new(chat_id, ChatKind::Group, "inline");
            let id = chat.next_id();
            chat.messages.insert(
                id,
                Msg {
                    id,
                    from: user,
                    from_bot: true,
                    date: super::state::unix_now(),
                    edit_date: None,
                    content: formatted.clone(),
                    raw: text,
                    parse_mode: content["parse_mode"].as_str().map(str::to_owned),
                    markup: r.get("reply_markup").cloned(),
                    photo: None,
                    photos: Vec::new(),
                    reply_to: None,
                    thread: None,
                    edits: 0,
                    versions: vec![formatted.text.clone()],
                    history: Vec::new(),
                    deleted: false,
                },
            );
            st.chats.insert(chat_id, chat);
            st.inline_messages.insert(inline_id.clone(), (chat_id, id));
            inline_id
        })
    }

    /// The inline message as it shows now.
    pub fn inline_message(&self, inline_id: &str) -> Option<SentMessage> {
        let st = self.shared.lock();
        let (chat, id) = *st.inline_messages.get(inline_id)?;
        st.chats
            .get(&chat)?
            .messages
            .get(&id)
            .map(|m| st.sent(chat, m))
    }

    /// Waits until the inline message shows what `predicate` wants.
    pub async fn wait_for_inline(
        &self,
        inline_id: &str,
        predicate: impl Fn(&SentMessage) -> bool,
        timeout: std::time::Duration,
    ) -> Option<SentMessage> {
        let chat = self.shared.lock().inline_messages.get(inline_id)?.0;
        self.wait_for(chat, predicate, timeout).await
    }

    /// The most edits of an inline message within any 60 s.
    pub fn inline_max_per_minute(&self, inline_id: &str) -> usize {
        let chat = self
            .shared
            .lock()
            .inline_messages
            .get(inline_id)
            .map(|c| c.0);
        chat.map_or(0, |c| self.max_per_minute(c))
    }

    /// `user` presses the button with `data` on an inline message: a callback query with the
    /// `inline_message_id` and no message. Returns the callback's id.
    pub fn press_inline(&self, user: &User, inline_id: &str, data: &str) -> String {
        self.press_inline_inner(user, inline_id, data, true)
    }

    /// [`FakeTelegram::press_inline`] of a button the message may no longer show (a client
    /// that has not drawn the latest edit yet), as a player who taps fast does.
    pub fn press_inline_stale(&self, user: &User, inline_id: &str, data: &str) -> String {
        self.press_inline_inner(user, inline_id, data, false)
    }

    fn press_inline_inner(&self, user: &User, inline_id: &str, data: &str, check: bool) -> String {
        let at = *self
            .shared
            .lock()
            .inline_messages
            .get(inline_id)
            .unwrap_or_else(|| panic!("fake_telegram: no inline message {inline_id}"));
        self.press_on(user, at, Some(inline_id), data, check)
    }
}
