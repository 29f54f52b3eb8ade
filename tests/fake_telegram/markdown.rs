//! Telegram's MarkdownV2 and legacy Markdown parse modes: ports of TDLib's `parse_markdown_v2`
//! and `parse_markdown`, with their error messages.

use super::markup::{at, check_link, is_space, parse_error, utf16_units, Entity};

#[derive(Clone, Copy, PartialEq)]
enum Md {
    Bold,
    Italic,
    Underline,
    Strikethrough,
    Spoiler,
    Code,
    Pre,
    TextUrl,
    CustomEmoji,
}

impl Md {
    /// TDLib's name of the entity type, as its errors print it.
    fn name(self) -> &'static str {
        match self {
            Md::Bold => "Bold",
            Md::Italic => "Italic",
            Md::Underline => "Underline",
            Md::Strikethrough => "Strikethrough",
            Md::Spoiler => "Spoiler",
            Md::Code => "Code",
            Md::Pre => "Pre",
            Md::TextUrl => "TextUrl",
            Md::CustomEmoji => "CustomEmoji",
        }
    }
}

struct OpenMd {
    kind: Md,
    arg: String,
    offset: usize,
    byte: usize,
    result_pos: usize,
}

fn reserved_error(c: u8) -> String {
    parse_error(format!(
        "Character '{}' is reserved and must be escaped with the preceding '\\'",
        c as char
    ))
}

/// Telegram's MarkdownV2 parse mode (a port of TDLib's `parse_markdown_v2`; block quotes are
/// simplified: lines that start with `>`).
pub(super) fn parse_markdown_v2(text: &str) -> Result<(String, Vec<Entity>), String> {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut offset = 0usize;
    let mut nested: Vec<OpenMd> = Vec::new();
    let mut entities: Vec<Entity> = Vec::new();
    let mut quote_start: Option<usize> = None;
    let mut i = 0usize;
    while i < b.len() {
        let c = b[i];
        let line_start = i == 0 || b[i - 1] == b'\n';
        if line_start {
            if c == b'>'
                && !matches!(nested.last(), Some(o) if matches!(o.kind, Md::Code | Md::Pre))
            {
                quote_start.get_or_insert(offset);
                i += 1;
                continue;
            }
            if let Some(start) = quote_start.take() {
                // The quote ended with the previous line (without its line break).
                let end = offset - 1;
                if end > start {
                    entities.push(Entity {
                        kind: "blockquote",
                        offset: start,
                        length: end - start,
                        arg: String::new(),
                    });
                }
            }
        }
        if c == b'\\' && (1..=126).contains(&at(b, i + 1)) {
            out.push(b[i + 1]);
            offset += 1;
            i += 2;
            continue;
        }
        let reserved: &[u8] = match nested.last() {
            Some(o) if matches!(o.kind, Md::Code | Md::Pre) => b"`",
            _ => b"_*[]()~`>#+-=|{}.!",
        };
        if !reserved.contains(&c) {
            out.push(c);
            offset += utf16_units(c);
            i += 1;
            continue;
        }
        let is_end = match nested.last().map(|o| o.kind) {
            None => false,
            Some(Md::Bold) => c == b'*',
            Some(Md::Italic) => c == b'_' && at(b, i + 1) != b'_',
            Some(Md::Code) => c == b'`',
            Some(Md::Pre) => c == b'`' && at(b, i + 1) == b'`' && at(b, i + 2) == b'`',
            Some(Md::TextUrl | Md::CustomEmoji) => c == b']',
            Some(Md::Underline) => c == b'_' && at(b, i + 1) == b'_',
            Some(Md::Strikethrough) => c == b'~',
            Some(Md::Spoiler) => c == b'|' && at(b, i + 1) == b'|',
        };
        if !is_end {
            let byte = i;
            let mut arg = String::new();
            let kind = match c {
                b'_' if at(b, i + 1) == b'_' => {
                    i += 1;
                    Md::Underline
                }
                b'_' => Md::Italic,
                b'*' => Md::Bold,
                b'~' => Md::Strikethrough,
                b'|' if at(b, i + 1) == b'|' => {
                    i += 1;
                    Md::Spoiler
                }
                b'[' => Md::TextUrl,
                b'`' if at(b, i + 1) == b'`' && at(b, i + 2) == b'`' => {
                    i += 3;
                    let mut language_end = i;
                    while !is_space(at(b, language_end)) && at(b, language_end) != b'`' {
                        language_end += 1;
                    }
                    if i != language_end && language_end < b.len() && at(b, language_end) != b'`' {
                        arg = String::from_utf8_lossy(&b[i..language_end]).into_owned();
                        i = language_end;
                    }
                    if matches!(at(b, i), b'\n' | b'\r') {
                        if matches!(at(b, i + 1), b'\n' | b'\r') && at(b, i) != at(b, i + 1) {
                            i += 2;
                        } else {
                            i += 1;
                        }
                    }
                    i -= 1;
                    Md::Pre
                }
                b'`' => Md::Code,
                b'!' if at(b, i + 1) == b'[' => {
                    i += 1;
                    Md::CustomEmoji
                }
                _ => return Err(reserved_error(c)),
            };
            nested.push(OpenMd {
                kind,
                arg,
                offset,
                byte,
                result_pos: out.len(),
            });
            i += 1;
            continue;
        }
        let open = nested.pop().expect("is_end implies an open entity");
        let skip = offset == open.offset;
        let mut arg = open.arg;
        match open.kind {
            Md::Underline | Md::Spoiler => i += 1,
            Md::Pre => i += 2,
            Md::TextUrl | Md::CustomEmoji => {
                let mut url = String::new();
                if at(b, i + 1) != b'(' {
                    url = String::from_utf8_lossy(&out[open.result_pos..]).into_owned();
                } else {
                    i += 2;
                    let url_begin = i;
                    let mut bytes: Vec<u8> = Vec::new();
                    while i < b.len() && b[i] != b')' {
                        if b[i] == b'\\' && (1..=126).contains(&at(b, i + 1)) {
                            bytes.push(b[i + 1]);
                            i += 2;
                            continue;
                        }
                        bytes.push(b[i]);
                        i += 1;
                    }
                    if at(b, i) != b')' {
                        return Err(parse_error(format!(
                            "Can't find end of a URL at byte offset {url_begin}"
                        )));
                    }
                    url.push_str(&String::from_utf8_lossy(&bytes));
                }
                arg = url;
            }
            _ => {}
        }
        if !skip {
            let length = offset - open.offset;
            let kind = match open.kind {
                Md::Bold => "bold",
                Md::Italic => "italic",
                Md::Underline => "underline",
                Md::Strikethrough => "strikethrough",
                Md::Spoiler => "spoiler",
                Md::Code => "code",
                Md::Pre => "pre",
                Md::TextUrl => "text_link",
                Md::CustomEmoji => "custom_emoji",
            };
            match open.kind {
                Md::TextUrl => {
                    if let Some(url) = check_link(&arg) {
                        entities.push(Entity {
                            kind,
                            offset: open.offset,
                            length,
                            arg: url,
                        });
                    }
                }
                Md::CustomEmoji => {
                    let id = arg.strip_prefix("tg://emoji?id=").unwrap_or_default();
                    if id.parse::<i64>().map_or(true, |id| id == 0) {
                        return Err(parse_error(
                            "Custom emoji entity must contain a tg://emoji URL",
                        ));
                    }
                    entities.push(Entity {
                        kind,
                        offset: open.offset,
                        length,
                        arg: id.to_owned(),
                    });
                }
                Md::Code => entities.push(Entity {
                    kind,
                    offset: open.offset,
                    length,
                    arg: String::new(),
                }),
                _ => entities.push(Entity {
                    kind,
                    offset: open.offset,
                    length,
                    arg,
                }),
            }
        }
        i += 1;
    }
    if let Some(open) = nested.last() {
        return Err(parse_error(format!(
            "Can't find end of {} entity at byte offset {}",
            open.kind.name(),
            open.byte
        )));
    }
    if let Some(start) = quote_start {
        if offset > start {
            entities.push(Entity {
                kind: "blockquote",
                offset: start,
                length: offset - start,
                arg: String::new(),
            });
        }
    }
    Ok((String::from_utf8_lossy(&out).into_owned(), entities))
}

/// Telegram's legacy Markdown parse mode (a port of TDLib's `parse_markdown`).
pub(super) fn parse_markdown(text: &str) -> Result<(String, Vec<Entity>), String> {
    let b = text.as_bytes();
    let size = b.len();
    let mut out: Vec<u8> = Vec::with_capacity(size);
    let mut offset = 0usize;
    let mut entities: Vec<Entity> = Vec::new();
    let mut i = 0usize;
    while i < size {
        let c = b[i];
        if c == b'\\' && matches!(at(b, i + 1), b'_' | b'*' | b'`' | b'[') {
            out.push(b[i + 1]);
            offset += 1;
            i += 2;
            continue;
        }
        if !matches!(c, b'_' | b'*' | b'`' | b'[') {
            out.push(c);
            offset += utf16_units(c);
            i += 1;
            continue;
        }
        let begin = i;
        let end_char = if c == b'[' { b']' } else { c };
        let mut is_pre = false;
        let mut language = String::new();
        i += 1;
        if c == b'`' && at(b, i) == b'`' && at(b, i + 1) == b'`' {
            i += 2;
            is_pre = true;
            let mut language_end = i;
            while !is_space(at(b, language_end)) && at(b, language_end) != b'`' {
                language_end += 1;
            }
            if i != language_end && language_end < size && at(b, language_end) != b'`' {
                language = String::from_utf8_lossy(&b[i..language_end]).into_owned();
                i = language_end;
            }
            if matches!(at(b, i), b'\n' | b'\r') {
                if matches!(at(b, i + 1), b'\n' | b'\r') && at(b, i) != at(b, i + 1) {
                    i += 2;
                } else {
                    i += 1;
                }
            }
        }
        let start_offset = offset;
        let start_pos = out.len();
        while i < size
            && (b[i] != end_char || (is_pre && !(at(b, i + 1) == b'`' && at(b, i + 2) == b'`')))
        {
            out.push(b[i]);
            offset += utf16_units(b[i]);
            i += 1;
        }
        if i >= size {
            return Err(parse_error(format!(
                "Can't find end of the entity starting at byte offset {begin}"
            )));
        }
        if offset != start_offset {
            let length = offset - start_offset;
            let simple = |kind| Entity {
                kind,
                offset: start_offset,
                length,
                arg: String::new(),
            };
            match c {
                b'_' => entities.push(simple("italic")),
                b'*' => entities.push(simple("bold")),
                b'[' => {
                    let url = if at(b, i + 1) != b'(' {
                        String::from_utf8_lossy(&out[start_pos..]).into_owned()
                    } else {
                        i += 2;
                        let url_begin = i;
                        while i < size && b[i] != b')' {
                            i += 1;
                        }
                        String::from_utf8_lossy(&b[url_begin..i.min(size)]).into_owned()
                    };
                    if let Some(url) = check_link(&url) {
                        entities.push(Entity {
                            arg: url,
                            ..simple("text_link")
                        });
                    }
                }
                _ if is_pre => entities.push(Entity {
                    arg: language,
                    ..simple("pre")
                }),
                _ => entities.push(simple("code")),
            }
        }
        if is_pre {
            i += 2;
        }
        i += 1;
    }
    Ok((String::from_utf8_lossy(&out).into_owned(), entities))
}
