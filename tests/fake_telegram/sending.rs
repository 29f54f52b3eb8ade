//! Sending, editing and deleting messages and answering button presses, with Telegram's checks,
//! its 403s for chats the bot may not write to, and flood control.

use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

use super::budget::{self, Limit};
use super::http::{Params, Reply};
use super::markup::{self, Formatted, MAX_CALLBACK_ANSWER, MAX_CAPTION, MAX_TEXT};
use super::state::{bot_user_json, unix_now, ChatKind, Msg, State};
use super::{CallbackAnswer, BOT_ID};

/// A method's answer: the error is an answer too.
pub(super) type Answer = Result<Reply, Reply>;

const NOT_MODIFIED: &str = "Bad Request: message is not modified: specified new message content \
                            and reply markup are exactly the same as a current content and reply \
                            markup of the message";
const QUERY_INVALID: &str =
    "Bad Request: query is too old and response timeout expired or query ID is invalid";
/// How long after a press Telegram takes its answer: later, the answer is refused as "query is
/// too old" (the player's app stopped waiting for it).
pub(super) const ANSWER_WITHIN: std::time::Duration = std::time::Duration::from_secs(15);

/// The chat of `chat_id`, to change: its waiters (`FakeTelegram::wait_for`) are woken.
pub(super) fn chat_mut(st: &mut State, chat_id: i64) -> &mut super::state::Chat {
    st.touched.push(super::state::chat_key(chat_id));
    st.chats.get_mut(&chat_id).expect("the chat was checked")
}

/// The chat of `chat_id`, which must exist.
pub(super) fn existing_chat(st: &State, p: &Params) -> Result<i64, Reply> {
    if !p.map.contains_key("chat_id") {
        return Err(Reply::bad_request("Bad Request: chat_id is empty"));
    }
    p.i64("chat_id")
        .filter(|id| st.chats.contains_key(id))
        .ok_or_else(|| Reply::bad_request("Bad Request: chat not found"))
}

/// The 403 of a group the bot was removed from (kicked, or left): Telegram answers it to
/// every method on that chat.
fn removed_from(st: &State, chat_id: i64) -> Result<(), Reply> {
    let chat = &st.chats[&chat_id];
    let what = match chat.kind {
        ChatKind::Private => return Ok(()),
        ChatKind::Group => "group",
        _ => "supergroup",
    };
    let forbidden = |d: String| Err(Reply::error(403, format!("Forbidden: {d}")));
    match chat.status(BOT_ID) {
        "kicked" => forbidden(format!("bot was kicked from the {what} chat")),
        "left" => forbidden(format!("bot is not a member of the {what} chat")),
        _ => Ok(()),
    }
}

/// The chat of `chat_id`, which must exist and, when it is a group, have the bot in it.
pub(super) fn chat_with_bot(st: &State, p: &Params) -> Result<i64, Reply> {
    let chat_id = existing_chat(st, p)?;
    removed_from(st, chat_id)?;
    Ok(chat_id)
}

/// The chat of `chat_id`, which must exist and take messages from the bot.
pub(super) fn chat_for_send(st: &State, p: &Params) -> Result<i64, Reply> {
    let chat_id = existing_chat(st, p)?;
    let chat = &st.chats[&chat_id];
    let forbidden = |d: &str| Err(Reply::error(403, format!("Forbidden: {d}")));
    match chat.kind {
        ChatKind::Private => {
            let user = &st.users[&chat_id];
            if user.blocked {
                return forbidden("bot was blocked by the user");
            }
            if !user.started {
                return forbidden("bot can't initiate conversation with a user");
            }
        }
        _ => removed_from(st, chat_id)?,
    }
    Ok(chat_id)
}

/// The forum topic a send goes to (`message_thread_id`), checked as Telegram does: only in a
/// forum, only a topic that exists, not a closed one; a send without a thread goes to
/// General, refused while General is closed.
fn topic_for_send(st: &State, chat_id: i64, p: &Params) -> Result<Option<i32>, Reply> {
    let chat = &st.chats[&chat_id];
    let closed = || Err(Reply::bad_request("Bad Request: TOPIC_CLOSED"));
    match p.i64("message_thread_id") {
        None | Some(0) => {
            if chat.forum && chat.general_closed {
                return closed();
            }
            Ok(None)
        }
        Some(t) => {
            let t = i32::try_from(t).unwrap_or(-1);
            match chat.topics.get(&t) {
                _ if !chat.forum => Ok(None),
                None => Err(Reply::bad_request("Bad Request: message thread not found")),
                Some(true) => closed(),
                Some(false) => Ok(Some(t)),
            }
        }
    }
}

/// Answers an injected 429, or a real one when a limit is set and reached: the group's flood
/// limit, or the token's own (a private chat's, or all chats' a second: see `budget`).
fn flood_gate(st: &mut State, chat_id: i64) -> Result<(), Reply> {
    let limit = st.flood_limit;
    let chat = chat_mut(st, chat_id);
    if chat.inject_429.0 > 0 {
        chat.inject_429.0 -= 1;
        let mut reply = Reply::retry_after(chat.inject_429.1);
        reply.injected = true;
        st.refused(Limit::Injected);
        return Err(reply);
    }
    if let (Some(limit), true) = (limit, chat.kind != ChatKind::Private) {
        let now = Instant::now();
        let window: Vec<Instant> = chat
            .flood
            .iter()
            .copied()
            .filter(|t| now.duration_since(*t) < Duration::from_secs(60))
            .collect();
        if limit == 0 || window.len() >= limit {
            let oldest = window
                .get(window.len().saturating_sub(limit.max(1)))
                .copied();
            let wait = oldest.map_or(60.0, |t| 60.0 - now.duration_since(t).as_secs_f64());
            st.refused(Limit::Group);
            return Err(Reply::retry_after(wait.ceil().max(1.0) as u32));
        }
    }
    budget::gate(st, chat_id)
}

fn format(text: &str, p: &Params, entities_key: &str) -> Result<Formatted, Reply> {
    let parse_mode = p.str("parse_mode");
    markup::format(text, parse_mode.as_deref(), p.json(entities_key).as_ref())
        .map_err(Reply::bad_request)
}

fn reply_markup(p: &Params) -> Result<Option<Value>, Reply> {
    let Some(markup) = p.json("reply_markup") else {
        return Ok(None);
    };
    markup::check_reply_markup(&markup).map_err(Reply::bad_request)?;
    // A web_app button opens a Mini App only from a private chat: elsewhere Telegram refuses
    // the whole message.
    let in_group = p.i64("chat_id").is_some_and(|c| c < 0);
    let web_app = markup["inline_keyboard"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_array)
        .flatten()
        .any(|b| b.get("web_app").is_some());
    if in_group && web_app {
        return Err(Reply::bad_request("Bad Request: BUTTON_TYPE_INVALID"));
    }
    Ok(Some(markup))
}

fn reply_to(st: &State, chat_id: i64, p: &Params) -> Result<Option<i32>, Reply> {
    let (id, allow) = match p.json("reply_parameters") {
        Some(rp) => (
            rp["message_id"].as_i64(),
            rp["allow_sending_without_reply"].as_bool(),
        ),
        None => (
            p.i64("reply_to_message_id"),
            Some(p.bool("allow_sending_without_reply")),
        ),
    };
    let Some(id) = id else {
        return Ok(None);
    };
    let id = id as i32;
    if st.chats[&chat_id]
        .messages
        .get(&id)
        .is_some_and(|m| !m.deleted)
    {
        Ok(Some(id))
    } else if allow == Some(true) {
        Ok(None)
    } else {
        Err(Reply::bad_request(
            "Bad Request: message to be replied not found",
        ))
    }
}

struct NewMessage {
    content: Formatted,
    raw: String,
    parse_mode: Option<String>,
    markup: Option<Value>,
    photo: Option<String>,
    photos: Vec<std::sync::Arc<Vec<u8>>>,
    reply_to: Option<i32>,
    thread: Option<i32>,
}

/// Stores a message from the bot and counts it as delivered.
fn store_bot_message(st: &mut State, chat_id: i64, m: NewMessage) -> Reply {
    let chat = chat_mut(st, chat_id);
    let id = chat.next_id();
    chat.log.push((id, m.content.text.clone()));
    chat.flood.push(Instant::now());
    budget::spend(st, chat_id);
    let chat = chat_mut(st, chat_id);
    chat.messages.insert(
        id,
        Msg {
            id,
            from: bot_user_json(),
            from_bot: true,
            date: unix_now(),
            edit_date: None,
            versions: vec![m.content.text.clone()],
            history: vec![super::Shown {
                at: Instant::now(),
                text: m.content.text.clone(),
                keyboard: markup::inline_markup(m.markup.as_ref()).is_some(),
                data: super::keyboard_data(markup::inline_markup(m.markup.as_ref()).as_ref()),
                photo: m.photos.last().cloned(),
            }],
            content: m.content,
            raw: m.raw,
            parse_mode: m.parse_mode,
            markup: m.markup,
            photo: m.photo,
            photos: m.photos,
            reply_to: m.reply_to,
            thread: m.thread,
            edits: 0,
            deleted: false,
        },
    );
    Reply::ok(st.message_json(chat_id, id, true))
}

pub(super) fn send_message(st: &mut State, p: &Params) -> Answer {
    let chat_id = chat_for_send(st, p)?;
    flood_gate(st, chat_id)?;
    let raw = p.str("text").unwrap_or_default();
    let content = format(&raw, p, "entities")?;
    if content.text.is_empty() {
        return Err(Reply::bad_request("Bad Request: message text is empty"));
    }
    if content.chars() > MAX_TEXT {
        return Err(Reply::bad_request("Bad Request: message is too long"));
    }
    let markup = reply_markup(p)?;
    let reply_to = reply_to(st, chat_id, p)?;
    let thread = topic_for_send(st, chat_id, p)?;
    let parse_mode = p.str("parse_mode");
    let m = NewMessage {
        content,
        raw,
        parse_mode,
        markup,
        photo: None,
        photos: Vec::new(),
        reply_to,
        thread,
    };
    Ok(store_bot_message(st, chat_id, m))
}

/// The most bytes Telegram takes in an uploaded photo.
const MAX_PHOTO_BYTES: usize = 10 * 1024 * 1024;

/// Checks an uploaded picture as Telegram does: a PNG or JPEG of at most 10 MB whose width and
/// height add up to at most 10 000 pixels, neither more than 20 times the other.
fn check_picture(bytes: &[u8]) -> Result<(), Reply> {
    if bytes.len() > MAX_PHOTO_BYTES {
        return Err(Reply::bad_request("Bad Request: PHOTO_INVALID_DIMENSIONS"));
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Ok(());
    }
    let png =
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() >= 24 && &bytes[12..16] == b"IHDR";
    if !png {
        return Err(Reply::bad_request("Bad Request: IMAGE_PROCESS_FAILED"));
    }
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let h = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    if w == 0 || h == 0 || w + h > 10_000 || w > 20 * h || h > 20 * w {
        return Err(Reply::bad_request("Bad Request: PHOTO_INVALID_DIMENSIONS"));
    }
    Ok(())
}

/// The photo a request names: an upload in the field `key` (or one `attach://` names), or a
/// file id / URL. What the message records of it, and the upload's bytes.
fn photo_of(
    p: &Params,
    value: Option<String>,
    key: &str,
) -> Result<(String, Option<Vec<u8>>), Reply> {
    let upload = |key: &str| {
        p.files.get(key).map(|(name, bytes)| {
            (
                format!("{name} ({} bytes)", bytes.len()),
                Some(bytes.clone()),
            )
        })
    };
    let none = || Reply::bad_request("Bad Request: there is no photo in the request");
    let (shown, bytes) = match (upload(key), value) {
        (Some(up), _) => up,
        (None, Some(s)) => match s.strip_prefix("attach://") {
            Some(key) => upload(key).ok_or_else(none)?,
            None if s.is_empty() => return Err(none()),
            None => (s, None),
        },
        (None, None) => return Err(none()),
    };
    if let Some(b) = &bytes {
        check_picture(b)?;
    }
    Ok((shown, bytes))
}

pub(super) fn send_photo(st: &mut State, p: &Params) -> Answer {
    let chat_id = chat_for_send(st, p)?;
    flood_gate(st, chat_id)?;
    let (photo, bytes) = photo_of(p, p.str("photo"), "photo")?;
    let raw = p.str("caption").unwrap_or_default();
    let content = format(&raw, p, "caption_entities")?;
    if content.chars() > MAX_CAPTION {
        return Err(Reply::bad_request(
            "Bad Request: message caption is too long",
        ));
    }
    let markup = reply_markup(p)?;
    let reply_to = reply_to(st, chat_id, p)?;
    let thread = topic_for_send(st, chat_id, p)?;
    let parse_mode = p.str("parse_mode");
    let m = NewMessage {
        content,
        raw,
        parse_mode,
        markup,
        photo: Some(photo),
        photos: bytes.into_iter().map(std::sync::Arc::new).collect(),
        reply_to,
        thread,
    };
    Ok(store_bot_message(st, chat_id, m))
}

/// editMessageMedia with a photo: a new picture and caption (and keyboard) for a photo message.
pub(super) fn edit_media(st: &mut State, p: &Params) -> Answer {
    let (chat_id, message_id) = message_to_edit(st, p)?;
    if st.chats[&chat_id].messages[&message_id].photo.is_none() {
        return Err(Reply::bad_request(
            "Bad Request: there is no media in the message to edit",
        ));
    }
    let Some(media) = p.json("media").filter(Value::is_object) else {
        return Err(Reply::bad_request(
            "Bad Request: can't parse InputMedia: media is not an object",
        ));
    };
    if media["type"].as_str() != Some("photo") {
        return Err(Reply::bad_request(
            "Bad Request: wrong type of the web page content",
        ));
    }
    let (photo, bytes) = photo_of(p, media["media"].as_str().map(str::to_owned), "")?;
    let raw = media["caption"].as_str().unwrap_or_default().to_owned();
    let parse_mode = media["parse_mode"].as_str().map(str::to_owned);
    let content = markup::format(&raw, parse_mode.as_deref(), media.get("caption_entities"))
        .map_err(Reply::bad_request)?;
    if content.chars() > MAX_CAPTION {
        return Err(Reply::bad_request(
            "Bad Request: message caption is too long",
        ));
    }
    let markup = reply_markup(p)?;
    let m = chat_mut(st, chat_id)
        .messages
        .get_mut(&message_id)
        .expect("checked");
    if bytes.is_none()
        && m.photo.as_deref() == Some(photo.as_str())
        && content == m.content
        && markup::inline_markup(markup.as_ref()) == m.inline_markup()
    {
        return Err(Reply::bad_request(NOT_MODIFIED));
    }
    let text_changed = content.text != m.content.text;
    m.photo = Some(photo);
    m.photos.extend(bytes.map(std::sync::Arc::new));
    m.content = content;
    m.raw = raw;
    m.parse_mode = parse_mode;
    m.markup = markup;
    Ok(finish_edit(st, chat_id, message_id, text_changed))
}

/// The bot's message to edit, checked as Telegram does.
fn message_to_edit(st: &mut State, p: &Params) -> Result<(i64, i32), Reply> {
    if p.map.contains_key("inline_message_id") {
        let (chat_id, message_id) = super::inline::inline_target(st, p)?;
        flood_gate(st, chat_id)?;
        return Ok((chat_id, message_id));
    }
    let chat_id = chat_for_send(st, p)?;
    flood_gate(st, chat_id)?;
    let Some(message_id) = p.i64("message_id") else {
        return Err(Reply::bad_request(
            "Bad Request: message identifier is not specified",
        ));
    };
    let message_id = message_id as i32;
    match st.chats[&chat_id].messages.get(&message_id) {
        Some(m) if !m.deleted && m.from_bot => Ok((chat_id, message_id)),
        Some(m) if !m.deleted => Err(Reply::bad_request("Bad Request: message can't be edited")),
        _ => Err(Reply::bad_request("Bad Request: message to edit not found")),
    }
}

/// Counts an edit and returns the message as Telegram answers it.
fn finish_edit(st: &mut State, chat_id: i64, message_id: i32, text_changed: bool) -> Reply {
    budget::spend(st, chat_id);
    let chat = chat_mut(st, chat_id);
    chat.flood.push(Instant::now());
    let m = chat.messages.get_mut(&message_id).expect("checked");
    m.edits += 1;
    m.edit_date = Some(unix_now());
    let shown = super::Shown {
        at: Instant::now(),
        text: m.content.text.clone(),
        keyboard: m.inline_markup().is_some(),
        data: super::keyboard_data(m.inline_markup().as_ref()),
        photo: m.photos.last().cloned(),
    };
    m.history.push(shown);
    if text_changed {
        let text = m.content.text.clone();
        m.versions.push(text.clone());
        chat.log.push((message_id, text));
    }
    Reply::ok(st.message_json(chat_id, message_id, true))
}

pub(super) fn edit_text(st: &mut State, p: &Params, caption: bool) -> Answer {
    let (chat_id, message_id) = message_to_edit(st, p)?;
    let is_photo = st.chats[&chat_id].messages[&message_id].photo.is_some();
    if caption && !is_photo {
        return Err(Reply::bad_request(
            "Bad Request: there is no caption in the message to edit",
        ));
    }
    if !caption && is_photo {
        return Err(Reply::bad_request(
            "Bad Request: there is no text in the message to edit",
        ));
    }
    let (text_key, entities_key) = if caption {
        ("caption", "caption_entities")
    } else {
        ("text", "entities")
    };
    let raw = p.str(text_key).unwrap_or_default();
    let content = format(&raw, p, entities_key)?;
    if caption {
        if content.chars() > MAX_CAPTION {
            return Err(Reply::bad_request(
                "Bad Request: message caption is too long",
            ));
        }
    } else if content.text.is_empty() {
        return Err(Reply::bad_request("Bad Request: message text is empty"));
    } else if content.chars() > MAX_TEXT {
        return Err(Reply::bad_request("Bad Request: MESSAGE_TOO_LONG"));
    }
    let markup = reply_markup(p)?;
    let m = chat_mut(st, chat_id)
        .messages
        .get_mut(&message_id)
        .expect("checked");
    if content == m.content && markup::inline_markup(markup.as_ref()) == m.inline_markup() {
        return Err(Reply::bad_request(NOT_MODIFIED));
    }
    let text_changed = content.text != m.content.text;
    m.content = content;
    m.raw = raw;
    m.parse_mode = p.str("parse_mode");
    m.markup = markup;
    Ok(finish_edit(st, chat_id, message_id, text_changed))
}

pub(super) fn edit_reply_markup(st: &mut State, p: &Params) -> Answer {
    let (chat_id, message_id) = message_to_edit(st, p)?;
    let markup = reply_markup(p)?;
    let m = chat_mut(st, chat_id)
        .messages
        .get_mut(&message_id)
        .expect("checked");
    if markup::inline_markup(markup.as_ref()) == m.inline_markup() {
        return Err(Reply::bad_request(NOT_MODIFIED));
    }
    m.markup = markup;
    Ok(finish_edit(st, chat_id, message_id, false))
}

pub(super) fn delete_message(st: &mut State, chat_id: i64, message_id: i32) -> Answer {
    let chat = chat_mut(st, chat_id);
    let may_delete_others = chat.kind == ChatKind::Private || chat.bot_is_admin();
    match chat.messages.get_mut(&message_id) {
        Some(m) if !m.deleted && (m.from_bot || may_delete_others) => {
            m.deleted = true;
            Ok(Reply::ok(json!(true)))
        }
        Some(m) if !m.deleted => Err(Reply::bad_request("Bad Request: message can't be deleted")),
        _ => Err(Reply::bad_request(
            "Bad Request: message to delete not found",
        )),
    }
}

pub(super) fn answer_callback_query(st: &mut State, p: &Params) -> Answer {
    let id = p.str("callback_query_id").unwrap_or_default();
    let Some(cb) = st
        .callbacks
        .get_mut(&id)
        .filter(|cb| cb.answer.is_none() && cb.at.elapsed() <= ANSWER_WITHIN)
    else {
        return Err(Reply::bad_request(QUERY_INVALID));
    };
    let text = p.str("text");
    if text
        .as_ref()
        .is_some_and(|t| t.chars().count() > MAX_CALLBACK_ANSWER)
    {
        return Err(Reply::bad_request("Bad Request: MESSAGE_TOO_LONG"));
    }
    cb.answer = Some(CallbackAnswer {
        text,
        show_alert: p.bool("show_alert"),
        url: p.str("url"),
    });
    st.touched.push(format!("answer:{id}"));
    Ok(Reply::ok(json!(true)))
}
