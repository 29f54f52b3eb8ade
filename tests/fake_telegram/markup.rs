//! Text formatting and keyboards as Telegram checks them: `parse_mode` HTML, MarkdownV2 and the
//! legacy Markdown turned into plain text plus entities (ported from TDLib's parsers, with their
//! error messages), trimming, length counting, and inline keyboard validation.

use serde_json::{json, Value};

use super::{html, markdown};

/// Telegram's limit for a message text, in characters after entity parsing.
pub(super) const MAX_TEXT: usize = 4096;
/// Telegram's limit for a media caption, in characters after entity parsing.
pub(super) const MAX_CAPTION: usize = 1024;
/// Telegram's limit for the text of an answer to a callback query.
pub(super) const MAX_CALLBACK_ANSWER: usize = 200;

/// Text as Telegram stores it: plain text and entities with UTF-16 offsets.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Formatted {
    pub text: String,
    pub entities: Vec<Value>,
}

impl Formatted {
    /// The length Telegram's limits count: Unicode characters.
    pub fn chars(&self) -> usize {
        self.text.chars().count()
    }
}

/// One entity before it becomes JSON.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Entity {
    pub kind: &'static str,
    pub offset: usize,
    pub length: usize,
    pub arg: String,
}

impl Entity {
    fn json(&self) -> Value {
        let mut v = json!({"type": self.kind, "offset": self.offset, "length": self.length});
        match self.kind {
            "text_link" => v["url"] = json!(self.arg),
            "pre" if !self.arg.is_empty() => v["language"] = json!(self.arg),
            "custom_emoji" => v["custom_emoji_id"] = json!(self.arg),
            _ => {}
        }
        v
    }
}

pub(super) fn parse_error(message: impl std::fmt::Display) -> String {
    format!("Bad Request: can't parse entities: {message}")
}

/// Formats `text` as Telegram does: parses it by `parse_mode` (or takes the explicit `entities`
/// when there is no parse mode), then trims leading and trailing white space. The error is the
/// full `description` Telegram would answer.
pub(super) fn format(
    text: &str,
    parse_mode: Option<&str>,
    entities: Option<&Value>,
) -> Result<Formatted, String> {
    let (text, entities) = match parse_mode.map(str::to_ascii_lowercase).as_deref() {
        None | Some("") => (text.to_owned(), explicit_entities(entities)),
        Some("html") => html::parse_html(text)?,
        Some("markdownv2") => markdown::parse_markdown_v2(text)?,
        Some("markdown") => markdown::parse_markdown(text)?,
        Some(_) => return Err("Bad Request: unsupported parse_mode".to_owned()),
    };
    Ok(trim(text, entities))
}

fn explicit_entities(entities: Option<&Value>) -> Vec<Entity> {
    let Some(Value::Array(list)) = entities else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|e| {
            let kind = match e.get("type")?.as_str()? {
                "mention" => "mention",
                "hashtag" => "hashtag",
                "cashtag" => "cashtag",
                "bot_command" => "bot_command",
                "url" => "url",
                "email" => "email",
                "phone_number" => "phone_number",
                "bold" => "bold",
                "italic" => "italic",
                "underline" => "underline",
                "strikethrough" => "strikethrough",
                "spoiler" => "spoiler",
                "blockquote" => "blockquote",
                "expandable_blockquote" => "expandable_blockquote",
                "code" => "code",
                "pre" => "pre",
                "text_link" => "text_link",
                "custom_emoji" => "custom_emoji",
                _ => return None,
            };
            let arg = ["url", "language", "custom_emoji_id"]
                .iter()
                .find_map(|k| e.get(*k).and_then(Value::as_str))
                .unwrap_or_default()
                .to_owned();
            Some(Entity {
                kind,
                offset: e.get("offset")?.as_u64()? as usize,
                length: e.get("length")?.as_u64()? as usize,
                arg,
            })
        })
        .collect()
}

/// Strips leading and trailing white space, moving and clipping the entities, and sorts them as
/// Telegram does (by offset, longer first).
fn trim(text: String, entities: Vec<Entity>) -> Formatted {
    let trimmed = text.trim_matches(char::is_whitespace);
    let lead: usize = text[..text.len() - text.trim_start_matches(char::is_whitespace).len()]
        .chars()
        .map(char::len_utf16)
        .sum();
    let total: usize = trimmed.encode_utf16().count();
    let mut out: Vec<Entity> = entities
        .into_iter()
        .filter_map(|mut e| {
            let start = e.offset.max(lead) - lead;
            let end = (e.offset + e.length).min(lead + total).saturating_sub(lead);
            (end > start).then(|| {
                e.offset = start;
                e.length = end - start;
                e
            })
        })
        .collect();
    out.sort_by_key(|e| (e.offset, std::cmp::Reverse(e.length)));
    Formatted {
        text: trimmed.to_owned(),
        entities: out.iter().map(Entity::json).collect(),
    }
}

/// UTF-16 length of the character that starts with byte `c` (0 for continuation bytes).
pub(super) fn utf16_units(c: u8) -> usize {
    if c & 0xC0 == 0x80 {
        0
    } else if c >= 0xF0 {
        2
    } else {
        1
    }
}

/// TDLib's `is_space`: the end of the text (a 0 byte) counts as space too.
pub(super) fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0 | 0x0B)
}

/// Byte `i` of `b`, or 0 past the end (TDLib parses 0-terminated strings).
pub(super) fn at(b: &[u8], i: usize) -> u8 {
    b.get(i).copied().unwrap_or(0)
}

/// Checks a link as Telegram does for text links; `None` drops the entity.
pub(super) fn check_link(url: &str) -> Option<String> {
    let candidate = if url.contains("://") {
        url.to_owned()
    } else {
        format!("http://{url}")
    };
    let parsed = url::Url::parse(&candidate).ok()?;
    match parsed.scheme() {
        "http" | "https" => parsed.host_str().filter(|h| !h.is_empty())?,
        "tg" | "ton" => "",
        _ => return None,
    };
    Some(parsed.to_string())
}

/// Checks the URL of an inline keyboard button as Telegram does (roughly): http(s) to a real
/// domain name, or tg://.
pub(super) fn button_url_ok(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else {
        return false;
    };
    match parsed.scheme() {
        "http" | "https" => match parsed.host() {
            Some(url::Host::Domain(d)) => {
                let d = d.trim_end_matches('.');
                d.contains('.') && !d.starts_with('.') && d != "localhost"
            }
            _ => false,
        },
        "tg" => true,
        _ => false,
    }
}

/// Entities Telegram adds to a user's text: bot commands and mentions.
pub(super) fn user_entities(text: &str) -> Vec<Value> {
    let chars: Vec<char> = text.chars().collect();
    let mut units = Vec::with_capacity(chars.len() + 1);
    let mut acc = 0usize;
    for ch in &chars {
        units.push(acc);
        acc += ch.len_utf16();
    }
    units.push(acc);
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let boundary =
            k == 0 || !(word(chars[k - 1]) || chars[k - 1] == '/' || chars[k - 1] == '@');
        if boundary && (c == '/' || c == '@') {
            let mut end = k + 1;
            while end < chars.len() && word(chars[end]) {
                end += 1;
            }
            let name_len = end - k - 1;
            let mut kind = None;
            if c == '/' && (1..=64).contains(&name_len) {
                if end < chars.len() && chars[end] == '@' {
                    let mut e2 = end + 1;
                    while e2 < chars.len() && word(chars[e2]) {
                        e2 += 1;
                    }
                    if e2 - end > 3 {
                        end = e2;
                    }
                }
                kind = Some("bot_command");
            } else if c == '@' && (3..=32).contains(&name_len) {
                kind = Some("mention");
            }
            if let Some(kind) = kind {
                out.push(
                    json!({"type": kind, "offset": units[k], "length": units[end] - units[k]}),
                );
                k = end;
                continue;
            }
        }
        k += 1;
    }
    out
}

/// Checks an inline keyboard as Telegram does; the error is the full description.
pub(super) fn check_reply_markup(markup: &Value) -> Result<(), String> {
    if !markup.is_object() {
        return Err("Bad Request: can't parse reply keyboard markup JSON object".to_owned());
    }
    let Some(rows) = markup.get("inline_keyboard") else {
        return Ok(());
    };
    let Some(rows) = rows.as_array() else {
        return Err("Bad Request: can't parse inline keyboard markup JSON object".to_owned());
    };
    let mut total = 0;
    for row in rows {
        let Some(row) = row.as_array() else {
            return Err("Bad Request: can't parse inline keyboard markup JSON object".to_owned());
        };
        if row.len() > 8 {
            return Err("Bad Request: too many buttons".to_owned());
        }
        total += row.len();
        for button in row {
            if !button.get("text").is_some_and(Value::is_string) {
                return Err(
                    "Bad Request: can't parse inline keyboard button: Field \"text\" \
                            must be of type String"
                        .to_owned(),
                );
            }
            if let Some(data) = button.get("callback_data") {
                let len = data.as_str().map_or(0, str::len);
                if !(1..=64).contains(&len) {
                    return Err("Bad Request: BUTTON_DATA_INVALID".to_owned());
                }
            }
            if let Some(url) = button.get("url") {
                if !url.as_str().is_some_and(button_url_ok) {
                    return Err("Bad Request: BUTTON_URL_INVALID".to_owned());
                }
            }
            // A Mini App's button: its page must be https.
            if let Some(app) = button.get("web_app") {
                if !app["url"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("https://"))
                {
                    return Err("Bad Request: BUTTON_URL_INVALID".to_owned());
                }
            }
        }
    }
    if total > 100 {
        return Err("Bad Request: too many buttons".to_owned());
    }
    Ok(())
}

/// The inline keyboard of a reply markup as it shows in a `Message`: only an `inline_keyboard`
/// with at least one button; anything else is not part of the message.
pub(super) fn inline_markup(markup: Option<&Value>) -> Option<Value> {
    let rows = markup?.get("inline_keyboard")?.as_array()?;
    if rows.iter().all(|r| r.as_array().is_none_or(Vec::is_empty)) {
        return None;
    }
    Some(json!({"inline_keyboard": rows}))
}
