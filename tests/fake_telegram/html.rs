//! Telegram's HTML parse mode: a port of TDLib's `parse_html`, with its error messages.

use super::markup::{at, check_link, is_space, parse_error, utf16_units, Entity};

/// Decodes the HTML entity at `b[pos]` (`&lt;`, `&gt;`, `&amp;`, `&quot;`, `&#NN;`, `&#xHH;`),
/// returning the character and the position after it.
fn decode_html_entity(b: &[u8], pos: usize) -> Option<(char, usize)> {
    if at(b, pos) != b'&' {
        return None;
    }
    let mut end = pos + 1;
    let code: u32;
    if at(b, pos + 1) == b'#' {
        end += 1;
        let mut res: u64 = 0;
        if at(b, pos + 2) == b'x' {
            end += 1;
            while at(b, end).is_ascii_hexdigit() {
                res = res * 16 + (at(b, end) as char).to_digit(16)? as u64;
                end += 1;
                if res > 0x10FFFF {
                    return None;
                }
            }
        } else {
            while at(b, end).is_ascii_digit() {
                res = res * 10 + (at(b, end) - b'0') as u64;
                end += 1;
                if res > 0x10FFFF {
                    return None;
                }
            }
        }
        if res == 0 || res >= 0x10FFFF || end - pos >= 10 {
            return None;
        }
        code = res as u32;
    } else {
        while at(b, end).is_ascii_alphabetic() {
            end += 1;
        }
        code = match &b[pos + 1..end] {
            b"lt" => '<' as u32,
            b"gt" => '>' as u32,
            b"amp" => '&' as u32,
            b"quot" => '"' as u32,
            _ => return None,
        };
    }
    let ch = char::from_u32(code)?;
    if at(b, end) == b';' {
        end += 1;
    }
    Some((ch, end))
}

struct OpenTag {
    tag: String,
    arg: String,
    offset: usize,
    result_pos: usize,
}

const HTML_TAGS: &[&str] = &[
    "a",
    "b",
    "strong",
    "i",
    "em",
    "s",
    "strike",
    "del",
    "u",
    "ins",
    "tg-spoiler",
    "tg-emoji",
    "span",
    "pre",
    "code",
    "blockquote",
];

/// Telegram's HTML parse mode (a port of TDLib's `parse_html`).
pub(super) fn parse_html(text: &str) -> Result<(String, Vec<Entity>), String> {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut offset = 0usize;
    let mut nested: Vec<OpenTag> = Vec::new();
    let mut entities: Vec<Entity> = Vec::new();
    let mut i = 0usize;
    while i < b.len() {
        let c = b[i];
        if c == b'&' {
            if let Some((ch, next)) = decode_html_entity(b, i) {
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                offset += ch.len_utf16();
                i = next;
                continue;
            }
        }
        if c != b'<' {
            out.push(c);
            offset += utf16_units(c);
            i += 1;
            continue;
        }
        let begin = i;
        i += 1;
        if at(b, i) != b'/' {
            // A start tag.
            while !is_space(at(b, i)) && at(b, i) != b'>' {
                i += 1;
            }
            if at(b, i) == 0 {
                return Err(parse_error(format!(
                    "Unclosed start tag at byte offset {begin}"
                )));
            }
            let tag = String::from_utf8_lossy(&b[begin + 1..i]).to_lowercase();
            if !HTML_TAGS.contains(&tag.as_str()) {
                return Err(parse_error(format!(
                    "Unsupported start tag \"{tag}\" at byte offset {begin}"
                )));
            }
            let mut arg = String::new();
            while at(b, i) != b'>' {
                while at(b, i) != 0 && is_space(at(b, i)) {
                    i += 1;
                }
                if at(b, i) == b'>' {
                    break;
                }
                let name_begin = i;
                while !is_space(at(b, i)) && at(b, i) != b'=' && at(b, i) != b'>' {
                    i += 1;
                }
                let name = &b[name_begin..i];
                if name.is_empty() {
                    return Err(parse_error(format!(
                        "Empty attribute name in the tag \"{tag}\" at byte offset {begin}"
                    )));
                }
                while at(b, i) != 0 && is_space(at(b, i)) {
                    i += 1;
                }
                if at(b, i) != b'=' {
                    if tag == "blockquote" && name == b"expandable" {
                        arg = "1".to_owned();
                        continue;
                    }
                    return Err(parse_error(format!(
                        "Expected equal sign in declaration of an attribute of the tag \
                         \"{tag}\" at byte offset {begin}"
                    )));
                }
                i += 1;
                while at(b, i) != 0 && is_space(at(b, i)) {
                    i += 1;
                }
                if at(b, i) == 0 {
                    return Err(parse_error(format!(
                        "Unclosed start tag \"{tag}\" at byte offset {begin}"
                    )));
                }
                let mut value: Vec<u8> = Vec::new();
                if at(b, i) != b'\'' && at(b, i) != b'"' {
                    let token_begin = i;
                    while at(b, i).is_ascii_alphanumeric() || at(b, i) == b'.' || at(b, i) == b'-' {
                        i += 1;
                    }
                    value.extend(b[token_begin..i].iter().map(u8::to_ascii_lowercase));
                    if !is_space(at(b, i)) && at(b, i) != b'>' {
                        return Err(parse_error(format!(
                            "Unexpected end of name token at byte offset {token_begin}"
                        )));
                    }
                } else {
                    let quote = at(b, i);
                    i += 1;
                    while at(b, i) != quote && at(b, i) != 0 {
                        if at(b, i) == b'&' {
                            if let Some((ch, next)) = decode_html_entity(b, i) {
                                let mut buf = [0u8; 4];
                                value.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                                i = next;
                                continue;
                            }
                        }
                        value.push(at(b, i));
                        i += 1;
                    }
                    if at(b, i) == quote {
                        i += 1;
                    }
                }
                if at(b, i) == 0 {
                    return Err(parse_error(format!(
                        "Unclosed start tag at byte offset {begin}"
                    )));
                }
                let value = String::from_utf8_lossy(&value).into_owned();
                match (tag.as_str(), name) {
                    ("a", b"href") | ("tg-emoji", b"emoji-id") => arg = value,
                    ("code", b"class") if value.starts_with("language-") => {
                        arg = value["language-".len()..].to_owned()
                    }
                    ("span", b"class") if value.starts_with("tg-") => {
                        arg = value["tg-".len()..].to_owned()
                    }
                    ("blockquote", b"expandable") => arg = "1".to_owned(),
                    _ => {}
                }
            }
            if tag == "span" && arg != "spoiler" {
                return Err(parse_error(format!(
                    "Tag \"span\" must have class \"tg-spoiler\" at byte offset {begin}"
                )));
            }
            nested.push(OpenTag {
                tag,
                arg,
                offset,
                result_pos: out.len(),
            });
            i += 1;
        } else {
            // An end tag.
            if nested.is_empty() {
                return Err(parse_error(format!(
                    "Unexpected end tag at byte offset {begin}"
                )));
            }
            while !is_space(at(b, i)) && at(b, i) != b'>' {
                i += 1;
            }
            let end_name = String::from_utf8_lossy(&b[begin + 2..i]).into_owned();
            while is_space(at(b, i)) && at(b, i) != 0 {
                i += 1;
            }
            if at(b, i) != b'>' {
                return Err(parse_error(format!(
                    "Unclosed end tag at byte offset {begin}"
                )));
            }
            let open = nested.pop().expect("checked above");
            if !end_name.is_empty() && end_name != open.tag {
                return Err(parse_error(format!(
                    "Unmatched end tag at byte offset {begin}, expected \"</{}>\", found \
                     \"</{end_name}>\"",
                    open.tag
                )));
            }
            if offset > open.offset {
                let length = offset - open.offset;
                let simple = |kind| Entity {
                    kind,
                    offset: open.offset,
                    length,
                    arg: String::new(),
                };
                match open.tag.as_str() {
                    "i" | "em" => entities.push(simple("italic")),
                    "b" | "strong" => entities.push(simple("bold")),
                    "s" | "strike" | "del" => entities.push(simple("strikethrough")),
                    "u" | "ins" => entities.push(simple("underline")),
                    "tg-spoiler" | "span" => entities.push(simple("spoiler")),
                    "tg-emoji" => {
                        if open.arg.parse::<i64>().map_or(true, |id| id == 0) {
                            return Err(parse_error("Invalid custom emoji identifier specified"));
                        }
                        entities.push(Entity {
                            arg: open.arg,
                            ..simple("custom_emoji")
                        });
                    }
                    "a" => {
                        let url = if open.arg.is_empty() {
                            String::from_utf8_lossy(&out[open.result_pos..]).into_owned()
                        } else {
                            open.arg
                        };
                        if let Some(url) = check_link(&url) {
                            entities.push(Entity {
                                arg: url,
                                ..simple("text_link")
                            });
                        }
                    }
                    "pre" => match entities.last_mut() {
                        Some(last)
                            if last.kind == "code"
                                && last.offset == open.offset
                                && last.length == length
                                && !last.arg.is_empty() =>
                        {
                            last.kind = "pre";
                        }
                        _ => entities.push(simple("pre")),
                    },
                    "code" => match entities.last_mut() {
                        Some(last)
                            if last.kind == "pre"
                                && last.offset == open.offset
                                && last.length == length
                                && !open.arg.is_empty() =>
                        {
                            last.arg = open.arg;
                        }
                        _ => entities.push(Entity {
                            arg: open.arg,
                            ..simple("code")
                        }),
                    },
                    "blockquote" if open.arg.is_empty() => entities.push(simple("blockquote")),
                    "blockquote" => entities.push(simple("expandable_blockquote")),
                    _ => {}
                }
            }
            i += 1;
        }
    }
    if let Some(open) = nested.last() {
        return Err(parse_error(format!(
            "Can't find end tag corresponding to start tag \"{}\"",
            open.tag
        )));
    }
    // A `code` entity keeps its language only inside `pre`.
    for e in &mut entities {
        if e.kind == "code" {
            e.arg.clear();
        }
    }
    Ok((
        String::from_utf8(out).expect("split only at ASCII bytes"),
        entities,
    ))
}
