//! The three locales agree: the same keys, the same variables; every key the bot uses exists;
//! plural forms are right in Russian and Bulgarian.

use morskoy_boy::game::lang::Lang;
use morskoy_boy::view::i18n::ta;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Message ids of a language's .ftl files (every file of its directory), each with the
/// variables its text uses.
fn messages(lang: &str) -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("locales/{lang}"));
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ftl") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
            text.push('\n');
        }
    }
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            if let Some((id, _)) = line.split_once(" =") {
                current = Some(id.trim().to_owned());
                out.entry(id.trim().to_owned()).or_default();
            }
        }
        if let Some(id) = &current {
            let vars = out.get_mut(id).unwrap();
            for part in line.split("{ $").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                vars.insert(name);
            }
        }
    }
    out
}

#[test]
fn every_locale_has_the_same_keys_and_variables() {
    let en = messages("en");
    assert!(en.len() > 50);
    for lang in ["ru", "bg"] {
        let other = messages(lang);
        let missing: Vec<_> = en.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<_> = other.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(extra.is_empty(), "{lang} has extra {extra:?}");
        for (key, vars) in &en {
            assert_eq!(&other[key], vars, "{lang}: variables of {key} differ");
        }
    }
}

#[test]
fn every_key_the_bot_uses_exists_in_every_locale() {
    let en = messages("en");
    let mut used = BTreeSet::new();
    for dir in ["src/telegram", "src/view", "src/game"] {
        // Recursively: a flow may keep its parts in a directory (`telegram/settings/`).
        for path in sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)) {
            let text = std::fs::read_to_string(path).unwrap();
            for part in text.split('"').skip(1).step_by(2) {
                let is_key = part.contains('-')
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                    && en.contains_key(part);
                let looks_like_key = [
                    "error-",
                    "btn-",
                    "cmd-",
                    "lobby-",
                    "editor-",
                    "battle-",
                    "shot-",
                    "answer-",
                    "log-",
                    "end-",
                    "join-",
                    "problem-",
                    "rules-",
                    "settings-",
                    "ai-",
                    "play-",
                    "riga-",
                ]
                .iter()
                .any(|p| part.starts_with(p))
                    && !part.contains(' ');
                if looks_like_key {
                    assert!(is_key, "the bot uses {part:?}, which no locale has");
                }
                if is_key {
                    used.insert(part.to_owned());
                }
            }
        }
    }
    assert!(used.len() > 40);
    for lang in Lang::ALL {
        let keys = messages(lang.code());
        for key in &used {
            assert!(keys.contains_key(key), "{lang} lacks {key}");
        }
        for n in 1..=5 {
            assert!(keys.contains_key(&format!("ship-{n}")));
        }
    }
}

/// The string literals beginning with `prefix` (and holding no `{`) in the code of the given
/// source files, their tests left out.
fn literal_keys(files: &[&str], prefix: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for file in files {
        let source =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        let code = source.split("#[cfg(test)]").next().unwrap();
        used.extend(
            code.split('"')
                .skip(1)
                .step_by(2)
                .filter(|s| s.starts_with(prefix) && !s.contains('{'))
                .map(str::to_owned),
        );
    }
    used
}

#[test]
fn the_terminal_uses_every_term_key_and_every_one_it_uses_exists() {
    let en: BTreeMap<String, BTreeSet<String>> = messages("en")
        .into_iter()
        .filter(|(k, _)| k.starts_with("term-"))
        .collect();
    // Sea Battle's terminal and the Riga game's.
    let mut used = literal_keys(
        &[
            "src/terminal/mod.rs",
            "src/terminal/prompt.rs",
            "src/terminal/riga.rs",
        ],
        "term-",
    );
    for level in engine::ai::Level::ALL {
        used.insert(format!("term-level-{level}"));
    }
    assert!(used.len() > 20, "{used:?}");
    for key in &used {
        assert!(
            en.contains_key(key),
            "the terminal uses {key}, which no locale has"
        );
    }
    let unused: Vec<_> = en.keys().filter(|k| !used.contains(*k)).collect();
    assert!(unused.is_empty(), "keys nothing uses: {unused:?}");
}

#[test]
fn the_riga_text_uses_every_riga_key_and_every_one_it_uses_exists() {
    let en: BTreeSet<String> = messages("en")
        .into_keys()
        .filter(|k| k.starts_with("riga-"))
        .collect();
    let used = literal_keys(&["src/view/riga_text.rs", "src/terminal/riga.rs"], "riga-");
    assert!(used.len() > 40, "{used:?}");
    for key in &used {
        assert!(
            en.contains(key),
            "the Riga text uses {key}, which no locale has"
        );
    }
    let unused: Vec<_> = en.iter().filter(|k| !used.contains(*k)).collect();
    assert!(unused.is_empty(), "keys nothing uses: {unused:?}");
}

#[test]
fn riga_counts_take_russian_and_bulgarian_plural_forms() {
    let draw = |lang, n: i64| ta(lang, "riga-end-draw-quiet", &[("moves", n.into())]);
    for (n, word) in [
        (1, "ход"),
        (2, "хода"),
        (4, "хода"),
        (5, "ходов"),
        (11, "ходов"),
        (21, "ход"),
        (60, "ходов"),
    ] {
        let text = draw(Lang::Ru, n);
        assert!(text.contains(&format!(" {n} {word} ")), "{n}: {text}");
    }
    for (n, word) in [(1, "ход"), (2, "хода"), (60, "хода")] {
        let text = draw(Lang::Bg, n);
        assert!(text.contains(&format!(" {n} {word} ")), "{n}: {text}");
    }
    let fleet = |lang, ships: i64, mines: i64| {
        ta(
            lang,
            "riga-fleet",
            &[
                ("side", "X".into()),
                ("ships", ships.into()),
                ("mines", mines.into()),
            ],
        )
    };
    assert_eq!(
        fleet(Lang::Ru, 12, 0),
        "X: 12 кораблей на плаву, 0 мин в запасе"
    );
    assert_eq!(
        fleet(Lang::Ru, 2, 1),
        "X: 2 корабля на плаву, 1 мина в запасе"
    );
    assert_eq!(fleet(Lang::Bg, 1, 2), "X: 1 кораб на вода, 2 мини в запас");
    assert_eq!(fleet(Lang::En, 1, 1), "X: 1 ship afloat, 1 mine left");
}

#[test]
fn russian_plural_forms_follow_cldr() {
    let form = |n: i64| {
        ta(
            Lang::Ru,
            "rules-field-classic",
            &[
                ("width", 10i64.into()),
                ("height", 10i64.into()),
                ("ships", n.into()),
            ],
        )
    };
    for (n, word) in [
        (0, "кораблей"),
        (1, "корабль"),
        (2, "корабля"),
        (4, "корабля"),
        (5, "кораблей"),
        (11, "кораблей"),
        (12, "кораблей"),
        (21, "корабль"),
        (22, "корабля"),
        (25, "кораблей"),
        (101, "корабль"),
        (111, "кораблей"),
    ] {
        let text = form(n);
        assert!(text.ends_with(&format!(" {n} {word}")), "{n}: {text}");
    }
}

#[test]
fn bulgarian_plural_forms_follow_cldr() {
    let form = |n: i64| {
        ta(
            Lang::Bg,
            "rules-field-classic",
            &[
                ("width", 10i64.into()),
                ("height", 10i64.into()),
                ("ships", n.into()),
            ],
        )
    };
    for (n, word) in [
        (0, "кораба"),
        (1, "кораб"),
        (2, "кораба"),
        (4, "кораба"),
        (5, "кораба"),
        (11, "кораба"),
        (12, "кораба"),
        (21, "кораба"),
        (22, "кораба"),
        (25, "кораба"),
        (101, "кораба"),
        (111, "кораба"),
    ] {
        let text = form(n);
        assert!(text.ends_with(&format!(" {n} {word}")), "{n}: {text}");
    }
}

/// Every message of a language's .ftl files, as written (comments left out): `(file, line)`.
fn lines(lang: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("locales/{lang}"));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if !line.trim_start().starts_with('#') {
                out.push((name.clone(), line.to_owned()));
            }
        }
    }
    out
}

#[test]
fn english_quotes_with_english_quotation_marks() {
    let guillemets: Vec<_> = lines("en")
        .into_iter()
        .filter(|(_, l)| l.contains(['«', '»']))
        .collect();
    assert!(guillemets.is_empty(), "«» in English: {guillemets:?}");
    // As a player reads it.
    let text = ta(
        Lang::En,
        "term-bad-cell",
        &[
            ("input", "z9".into()),
            ("first", "A1".into()),
            ("last", "J10".into()),
        ],
    );
    assert!(text.starts_with("“z9” is not a cell"), "{text}");
}

#[test]
fn chat_text_has_no_unicode_isolation_marks() {
    let text = ta(
        Lang::Ru,
        "log-shot",
        &[
            ("name", "Аня".into()),
            ("cell", "в6".into()),
            ("result", "мимо".into()),
        ],
    );
    assert_eq!(text, "Аня: в6 — мимо");
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// Whether `path` is a module of tests in a file of its own: a `tests.rs` that its parent
/// (the folder's `mod.rs`) declares only under `#[cfg(test)]`.
fn is_test_module(path: &Path) -> bool {
    if path.file_name().is_none_or(|n| n != "tests.rs") {
        return false;
    }
    let parent = path.with_file_name("mod.rs");
    std::fs::read_to_string(parent).is_ok_and(|p| p.contains("#[cfg(test)]\nmod tests;"))
}

/// The arguments of a call, split at its own commas (not those of nested calls), up to its
/// closing parenthesis or the end of the line.
fn top_level_args(rest: &str) -> Vec<String> {
    let (mut depth, mut args, mut current) = (0i32, Vec::new(), String::new());
    for c in rest.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => break,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    args.push(current);
    args
}

#[test]
fn no_user_visible_string_literal_in_the_bot_outside_tests() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let calls = [
        ".send_message(",
        ".edit_message_text(",
        ".text(",
        "answer(ctx, q, ",
        "reply(ctx, msg, ",
        "reply(&ctx, &msg, ",
        "InlineKeyboardButton::callback(",
        "InlineKeyboardButton::url(",
        "BotCommand::new(",
    ];
    let mut found = Vec::new();
    for path in sources(&src) {
        if is_test_module(&path) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") {
                continue;
            }
            if line.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)) {
                found.push(format!(
                    "{}:{}: Cyrillic in code: {trimmed}",
                    path.display(),
                    n + 1
                ));
            }
            for call in calls {
                if let Some(at) = line.find(call) {
                    // The first argument after the call's opening parenthesis, or the second
                    // for calls whose first is the chat or the query.
                    let rest = &line[at + call.len()..];
                    let literal = top_level_args(rest)
                        .iter()
                        .take(if call.ends_with(", ") { 1 } else { 2 })
                        .any(|arg| arg.trim_start().starts_with('"') && arg.trim().len() > 2);
                    if literal {
                        found.push(format!(
                            "{}:{}: a literal sent to users: {trimmed}",
                            path.display(),
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "user-visible words outside locales/:\n{}",
        found.join("\n")
    );
}
