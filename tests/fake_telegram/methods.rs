//! The Bot API methods, with Telegram's checks and error descriptions.

use serde_json::{json, Value};

use super::http::{Params, Reply};
use super::polling::get_updates;
use super::sending::{
    answer_callback_query, chat_for_send, chat_mut, chat_with_bot, delete_message, edit_media,
    edit_reply_markup, edit_text, existing_chat, send_message, send_photo, Answer,
};
use super::state::{ChatKind, Shared, State};
use super::webhook;
use super::{ApiErrorRecord, BOT_FIRST_NAME, BOT_ID, BOT_USERNAME};

/// The methods this fake answers, as the Bot API spells them.
const METHODS: &[&str] = &[
    "getMe",
    "logOut",
    "close",
    "setWebhook",
    "getWebhookInfo",
    "deleteWebhook",
    "getUpdates",
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
    "editMessageMedia",
    "deleteMessage",
    "deleteMessages",
    "answerCallbackQuery",
    "setMyCommands",
    "getMyCommands",
    "deleteMyCommands",
    "sendChatAction",
    "getChat",
    "getChatMember",
    "getChatAdministrators",
    "getChatMemberCount",
    "setChatMenuButton",
    "getChatMenuButton",
    "setMyDescription",
    "setMyShortDescription",
    "setMyName",
    "setMyDefaultAdministratorRights",
    "pinChatMessage",
    "unpinChatMessage",
    "unpinAllChatMessages",
    "leaveChat",
];

/// Some of the emoji Telegram takes as a reaction (the whole list is longer).
const REACTIONS: &[&str] = &["👍", "👎", "❤", "🔥", "👀", "🎉", "😢", "🤔", "👌", "✍"];

const CHAT_ACTIONS: &[&str] = &[
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
];

/// The Bot API's spelling of a method name, matched case-insensitively.
pub(super) fn canonical(method: &str) -> Option<&'static str> {
    METHODS
        .iter()
        .copied()
        .find(|m| m.eq_ignore_ascii_case(method))
}

/// Answers one call, recording it and any error.
pub(super) async fn call(shared: &Shared, method: &str, params: Params) -> Reply {
    let lower = method.to_ascii_lowercase();
    let name = canonical(&lower).unwrap_or(method).to_owned();
    shared.update(|st| *st.calls.entry(lower.clone()).or_default() += 1);
    let reply = if lower == "getupdates" {
        get_updates(shared, &params).await
    } else {
        shared.update(|st| dispatch(st, &lower, &params).unwrap_or_else(|e| e))
    };
    super::budget::record(shared, &lower, &params, reply.status);
    if reply.status >= 400 {
        let record = ApiErrorRecord {
            method: name,
            status: reply.status,
            description: reply.description(),
            injected: reply.injected,
            chat: params.i64("chat_id"),
            message: params.i64("message_id"),
        };
        shared.update(|st| st.errors.push(record));
    }
    reply
}

fn dispatch(st: &mut State, method: &str, p: &Params) -> Answer {
    match method {
        "getme" => Ok(Reply::ok(json!({
            "id": BOT_ID,
            "is_bot": true,
            "first_name": BOT_FIRST_NAME,
            "username": BOT_USERNAME,
            "can_join_groups": true,
            "can_read_all_group_messages": !st.privacy_mode,
            "supports_inline_queries": false,
            "can_connect_to_business": false,
            "has_main_web_app": false,
        }))),
        "logout"
        | "close"
        | "setmydescription"
        | "setmyshortdescription"
        | "setmyname"
        | "setmydefaultadministratorrights" => Ok(Reply::ok(json!(true))),
        "setwebhook" => webhook::set_webhook(st, p),
        "getwebhookinfo" => Ok(Reply::ok(webhook::webhook_info(st))),
        "deletewebhook" => Ok(webhook::delete_webhook(st, p)),
        "sendmessage" => send_message(st, p),
        "sendphoto" => send_photo(st, p),
        "editmessagetext" => inline_true(p, edit_text(st, p, false)),
        "editmessagecaption" => inline_true(p, edit_text(st, p, true)),
        "editmessagereplymarkup" => inline_true(p, edit_reply_markup(st, p)),
        "editmessagemedia" => inline_true(p, edit_media(st, p)),
        "answerinlinequery" => super::inline::answer_inline_query(st, p),
        "deletemessage" => {
            let chat_id = chat_with_bot(st, p)?;
            let message_id = p.i64("message_id").unwrap_or(0) as i32;
            delete_message(st, chat_id, message_id)
        }
        "deletemessages" => {
            let chat_id = chat_with_bot(st, p)?;
            let ids = p
                .json("message_ids")
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default();
            for id in ids.iter().filter_map(Value::as_i64) {
                let _ = delete_message(st, chat_id, id as i32);
            }
            Ok(Reply::ok(json!(true)))
        }
        "answercallbackquery" => answer_callback_query(st, p),
        "setmycommands" => set_my_commands(st, p),
        "getmycommands" => {
            let (scope, lang) = command_key(p);
            let list = st
                .commands
                .iter()
                .find(|(s, l, _)| *s == scope && *l == lang);
            let list: Vec<Value> = list.map_or_else(Vec::new, |(_, _, cmds)| {
                cmds.iter()
                    .map(|(c, d)| json!({"command": c, "description": d}))
                    .collect()
            });
            Ok(Reply::ok(json!(list)))
        }
        "deletemycommands" => {
            let (scope, lang) = command_key(p);
            st.commands.retain(|(s, l, _)| !(*s == scope && *l == lang));
            Ok(Reply::ok(json!(true)))
        }
        "sendchataction" => {
            let chat_id = chat_for_send(st, p)?;
            let action = p.str("action").unwrap_or_default();
            if !CHAT_ACTIONS.contains(&action.as_str()) {
                return Err(Reply::bad_request(
                    "Bad Request: wrong parameter action in request",
                ));
            }
            chat_mut(st, chat_id).actions.push(action);
            Ok(Reply::ok(json!(true)))
        }
        "getchat" => {
            let chat_id = existing_chat(st, p)?;
            let mut v = st.chat_json(&st.chats[&chat_id]);
            v["accepted_gift_types"] = json!({
                "unlimited_gifts": false,
                "limited_gifts": false,
                "unique_gifts": false,
                "premium_subscription": false,
            });
            v["max_reaction_count"] = json!(11);
            Ok(Reply::ok(v))
        }
        "getchatmember" => {
            let chat_id = existing_chat(st, p)?;
            let user_id = p.i64("user_id").unwrap_or(0);
            if user_id != BOT_ID && !st.users.contains_key(&user_id) {
                return Err(Reply::bad_request("Bad Request: user not found"));
            }
            let chat = &st.chats[&chat_id];
            let status = chat.status(user_id).to_owned();
            let mut member = member_json(st.user_json(user_id), &status);
            if status == "administrator" && chat.forum {
                member["can_manage_topics"] = json!(true);
            }
            Ok(Reply::ok(member))
        }
        "getchatadministrators" => {
            let chat_id = existing_chat(st, p)?;
            let chat = &st.chats[&chat_id];
            if chat.kind == ChatKind::Private {
                return Err(Reply::bad_request(
                    "Bad Request: there are no administrators in the private chat",
                ));
            }
            let mut admins: Vec<(i64, String)> = chat
                .members
                .iter()
                .filter(|(_, s)| matches!(s.as_str(), "creator" | "administrator"))
                .map(|(id, s)| (*id, s.clone()))
                .collect();
            admins.sort();
            let list: Vec<Value> = admins
                .into_iter()
                .map(|(id, s)| member_json(st.user_json(id), &s))
                .collect();
            Ok(Reply::ok(json!(list)))
        }
        "getchatmembercount" => {
            let chat_id = existing_chat(st, p)?;
            let chat = &st.chats[&chat_id];
            let count = if chat.kind == ChatKind::Private {
                2
            } else {
                chat.members
                    .values()
                    .filter(|s| {
                        matches!(
                            s.as_str(),
                            "creator" | "administrator" | "member" | "restricted"
                        )
                    })
                    .count()
            };
            Ok(Reply::ok(json!(count)))
        }
        "setchatmenubutton" => {
            let chat_id = p.i64("chat_id");
            let button = p
                .json("menu_button")
                .unwrap_or_else(|| json!({"type": "default"}));
            st.menu_buttons.insert(chat_id, button);
            Ok(Reply::ok(json!(true)))
        }
        "getchatmenubutton" => {
            let chat_id = p.i64("chat_id");
            let button = st
                .menu_buttons
                .get(&chat_id)
                .or_else(|| st.menu_buttons.get(&None));
            Ok(Reply::ok(
                button
                    .cloned()
                    .unwrap_or_else(|| json!({"type": "commands"})),
            ))
        }
        "setmessagereaction" => {
            let chat_id = chat_with_bot(st, p)?;
            let message_id = p.i64("message_id").unwrap_or(0) as i32;
            let chat = chat_mut(st, chat_id);
            if chat.messages.get(&message_id).is_none_or(|m| m.deleted) {
                return Err(Reply::bad_request(
                    "Bad Request: message to react not found",
                ));
            }
            let reactions = p.json("reaction").unwrap_or(json!([]));
            let Some(list) = reactions.as_array() else {
                return Err(Reply::bad_request(
                    "Bad Request: can't parse reaction types",
                ));
            };
            if list.len() > 1 {
                return Err(Reply::bad_request("Bad Request: REACTIONS_TOO_MANY"));
            }
            for r in list {
                let emoji = r["emoji"].as_str().unwrap_or_default();
                // Bots may set only the standard reactions; a few of them are checked here.
                if r["type"] != "emoji" || !REACTIONS.contains(&emoji) {
                    return Err(Reply::bad_request("Bad Request: REACTION_INVALID"));
                }
                chat.reactions.push((message_id, emoji.to_owned()));
            }
            Ok(Reply::ok(json!(true)))
        }
        "pinchatmessage" => {
            let chat_id = chat_with_bot(st, p)?;
            let message_id = p.i64("message_id").unwrap_or(0) as i32;
            let chat = chat_mut(st, chat_id);
            if chat.messages.get(&message_id).is_none_or(|m| m.deleted) {
                return Err(Reply::bad_request("Bad Request: message to pin not found"));
            }
            if chat.kind != ChatKind::Private && !chat.bot_is_admin() {
                return Err(Reply::bad_request(
                    "Bad Request: not enough rights to manage pinned messages in the chat",
                ));
            }
            chat.pinned.retain(|m| *m != message_id);
            chat.pinned.push(message_id);
            Ok(Reply::ok(json!(true)))
        }
        "unpinchatmessage" | "unpinallchatmessages" => {
            let chat_id = chat_with_bot(st, p)?;
            let chat = chat_mut(st, chat_id);
            match p.i64("message_id").filter(|_| method == "unpinchatmessage") {
                Some(id) => chat.pinned.retain(|m| *m as i64 != id),
                None if method == "unpinchatmessage" => {
                    chat.pinned.pop();
                }
                None => chat.pinned.clear(),
            }
            Ok(Reply::ok(json!(true)))
        }
        "createforumtopic" | "editforumtopic" | "closeforumtopic" | "reopenforumtopic" => {
            forum_topic(st, method, p)
        }
        "leavechat" => {
            let chat_id = existing_chat(st, p)?;
            chat_mut(st, chat_id)
                .members
                .insert(BOT_ID, "left".to_owned());
            Ok(Reply::ok(json!(true)))
        }
        _ => Err(Reply::error(404, "Not Found")),
    }
}

/// The (scope, language code) a command list is kept under; a numeric chat id in the scope is
/// kept as a number however it came.
fn command_key(p: &Params) -> (Value, String) {
    let mut scope = p
        .json("scope")
        .unwrap_or_else(|| json!({"type": "default"}));
    if let Some(id) = scope
        .get("chat_id")
        .and_then(Value::as_str)
        .and_then(|s| s.parse::<i64>().ok())
    {
        scope["chat_id"] = json!(id);
    }
    (scope, p.str("language_code").unwrap_or_default())
}

fn set_my_commands(st: &mut State, p: &Params) -> Answer {
    let Some(Value::Array(list)) = p.json("commands") else {
        return Err(Reply::bad_request(
            "Bad Request: parameter \"commands\" is required",
        ));
    };
    if list.len() > 100 {
        return Err(Reply::bad_request("Bad Request: BOT_COMMANDS_TOO_MUCH"));
    }
    let mut commands = Vec::new();
    for c in &list {
        let command = c["command"].as_str().unwrap_or_default();
        let description = c["description"].as_str().unwrap_or_default();
        let valid = (1..=32).contains(&command.len())
            && command
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid {
            return Err(Reply::bad_request("Bad Request: BOT_COMMAND_INVALID"));
        }
        if description.trim().is_empty() {
            return Err(Reply::bad_request(
                "Bad Request: command description must be non-empty",
            ));
        }
        commands.push((command.to_owned(), description.to_owned()));
    }
    let (scope, lang) = command_key(p);
    match st
        .commands
        .iter_mut()
        .find(|(s, l, _)| *s == scope && *l == lang)
    {
        Some(entry) => entry.2 = commands,
        None => st.commands.push((scope, lang, commands)),
    }
    Ok(Reply::ok(json!(true)))
}

/// A ChatMember object for a status.
/// An edit of an inline message is answered `true`, not with the message.
fn inline_true(p: &Params, answer: Answer) -> Answer {
    match answer {
        Ok(_) if p.map.contains_key("inline_message_id") => Ok(Reply::ok(json!(true))),
        other => other,
    }
}

/// The forum topic methods, as Telegram checks them: a forum, the bot an administrator that
/// may manage topics, a name of 1–128 characters, a topic that exists.
fn forum_topic(st: &mut State, method: &str, p: &Params) -> Answer {
    let chat_id = chat_for_send(st, p)?;
    let chat = st.chats.get_mut(&chat_id).expect("checked");
    if !chat.forum {
        return Err(Reply::bad_request("Bad Request: the chat is not a forum"));
    }
    if chat.status(BOT_ID) != "administrator" {
        return Err(Reply::bad_request(
            "Bad Request: not enough rights to manage topics",
        ));
    }
    let name = p.str("name");
    if let Some(n) = &name {
        let len = n.chars().count();
        if len == 0 || len > 128 {
            return Err(Reply::bad_request("Bad Request: TOPIC_TITLE_EMPTY"));
        }
    }
    if method == "createforumtopic" {
        let Some(name) = name else {
            return Err(Reply::bad_request("Bad Request: TOPIC_TITLE_EMPTY"));
        };
        let id = chat.next_id();
        chat.topics.insert(id, false);
        chat.topic_names.insert(id, name.clone());
        chat.flood.push(tokio::time::Instant::now());
        return Ok(Reply::ok(json!({
            "message_thread_id": id,
            "name": name,
            "icon_color": 7_322_096,
        })));
    }
    let thread = p
        .i64("message_thread_id")
        .and_then(|t| i32::try_from(t).ok())
        .filter(|t| chat.topics.contains_key(t));
    let Some(thread) = thread else {
        return Err(Reply::bad_request("Bad Request: message thread not found"));
    };
    match method {
        "editforumtopic" => {
            if let Some(n) = name {
                chat.topic_names.insert(thread, n);
            }
        }
        "closeforumtopic" => {
            if chat.topics[&thread] {
                return Err(Reply::bad_request("Bad Request: TOPIC_NOT_MODIFIED"));
            }
            chat.topics.insert(thread, true);
        }
        _ => {
            chat.topics.insert(thread, false);
        }
    }
    chat.flood.push(tokio::time::Instant::now());
    Ok(Reply::ok(json!(true)))
}

fn member_json(user: Value, status: &str) -> Value {
    match status {
        "creator" => json!({"status": "creator", "user": user, "is_anonymous": false}),
        "administrator" => json!({
            "status": "administrator",
            "user": user,
            "can_be_edited": false,
            "is_anonymous": false,
            "can_manage_chat": true,
            "can_delete_messages": true,
            "can_manage_video_chats": true,
            "can_restrict_members": true,
            "can_promote_members": false,
            "can_change_info": true,
            "can_invite_users": true,
            "can_post_stories": false,
            "can_edit_stories": false,
            "can_delete_stories": false,
            "can_pin_messages": true,
        }),
        "restricted" => json!({
            "status": "restricted",
            "user": user,
            "is_member": true,
            "until_date": 0,
            "can_send_messages": false,
            "can_send_audios": false,
            "can_send_documents": false,
            "can_send_photos": false,
            "can_send_videos": false,
            "can_send_video_notes": false,
            "can_send_voice_notes": false,
            "can_send_polls": false,
            "can_send_other_messages": false,
            "can_add_web_page_previews": false,
            "can_change_info": false,
            "can_invite_users": false,
            "can_pin_messages": false,
            "can_manage_topics": false,
        }),
        "kicked" => json!({"status": "kicked", "user": user, "until_date": 0}),
        "left" => json!({"status": "left", "user": user}),
        _ => json!({"status": "member", "user": user}),
    }
}
