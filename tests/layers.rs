//! The code's layers, read from the source (ARCHITECTURE.md says why):
//!
//! - one direction, `telegram → view → game ← store`: `game/` uses only itself and the
//!   engine crates; `view/` uses `game/`; `store/` uses `game/`; nothing but `telegram/` (and
//!   the binary) uses `telegram/`; `game/` and `view/` name no `teloxide`, `redis` or `tokio`;
//!   `metrics.rs` (the counters) uses none of them, and only the store and the adapter use it;
//!   nor does `clock.rs` (the wall clock on the runtime's time), used by the same two;
//! - no import circle among the bot's files (`mod.rs` files included), nor among each engine
//!   crate's;
//! - no transition outside `game/`: `telegram/` changes no record (no `.apply(`, no
//!   `push_effect`, no answer kept, no `&mut GameRecord`, no field assigned but its own
//!   state's);
//! - a shot's path in ARCHITECTURE.md names functions that exist, each called by a step
//!   before it, in at most 8 files;
//! - docs/layout.md lists every source file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file's code without its unit tests and without comments (nothing of a `tests.rs`: a
/// module of unit tests in a file of its own).
fn code(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.trim_start().starts_with("//") {
            true => "",
            false => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The paths after each `prefix` in `code` as segments: `prefix::a::b` is `[a, b]`, and
/// `prefix::a::{b, c::d}` is `[a, b]` and `[a, c, d]`. A `prefix` inside a longer path
/// (`x::crate::`) does not count.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut rest = &code[at + prefix.len()..];
        let mut segments = Vec::new();
        loop {
            if let Some(group) = rest.strip_prefix('{') {
                let inner = &group[..group.find('}').unwrap_or(group.len())];
                for item in inner.split(',') {
                    let mut path = segments.clone();
                    path.extend(
                        item.trim()
                            .split("::")
                            .map(ident)
                            .take_while(|s| !s.is_empty()),
                    );
                    out.push(path);
                }
                break;
            }
            let name = ident(rest);
            if name.is_empty() {
                out.push(segments);
                break;
            }
            rest = &rest[name.len()..];
            segments.push(name);
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => {
                    out.push(segments);
                    break;
                }
            }
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// A crate's source files as modules: each file's module path (`src/game/battle.rs` is
/// `[game, battle]`, `src/game/mod.rs` is `[game]`, `src/lib.rs` is `[]`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

/// The file of the longest module prefix of `path` that `modules` has.
fn resolve<'a>(
    modules: &'a BTreeMap<Vec<String>, PathBuf>,
    path: &[String],
) -> Option<&'a PathBuf> {
    (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

/// The import graph of the crate in `src`: each file and the files it uses, by `crate::`,
/// `super::`, a child module's name in a `use`, or `krate::` (the binary's name for the
/// library).
fn graph(src: &Path, krate: Option<&str>) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let files = rust_files(src);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .filter(|f| !f.ends_with("main.rs"))
        .map(|f| (module_of(src, f), f.clone()))
        .collect();
    let mut out = BTreeMap::new();
    for file in &files {
        let text = code(file);
        let me = module_of(src, file);
        let is_dir_module = file.ends_with("mod.rs") || file.ends_with("lib.rs");
        let parent: Vec<String> = if is_dir_module {
            me.iter()
                .take(me.len().saturating_sub(1))
                .cloned()
                .collect()
        } else {
            me[..me.len().saturating_sub(1)].to_vec()
        };
        let mut used: Vec<Vec<String>> = paths_after(&text, "crate::");
        if let Some(k) = krate {
            used.extend(paths_after(&text, &format!("{k}::")));
        }
        for p in paths_after(&text, "super::") {
            let mut full = parent.clone();
            full.extend(p);
            used.push(full);
        }
        // `use child::…` in a module with children.
        let here: Vec<String> = if is_dir_module {
            me.clone()
        } else {
            Vec::new()
        };
        for p in paths_after(&text, "use ") {
            let mut full = here.clone();
            full.extend(p.clone());
            if is_dir_module && modules.contains_key(&full[..here.len() + 1]) {
                used.push(full);
            }
        }
        let deps: &mut BTreeSet<PathBuf> = out.entry(file.clone()).or_default();
        for p in used {
            if let Some(f) = resolve(&modules, &p) {
                // The crate root only declares the modules and re-exports their items (the
                // crate's public face): a use of `crate::Item` is a use of the item's file,
                // not of the root.
                let root_file = f.ends_with("lib.rs") && f.parent() == Some(src);
                if f != file && !root_file {
                    deps.insert(f.clone());
                }
            }
        }
    }
    out
}

/// A circle in `graph`, if there is one.
fn find_circle<T: Ord + Clone>(graph: &BTreeMap<T, BTreeSet<T>>) -> Option<Vec<T>> {
    fn visit<T: Ord + Clone>(
        graph: &BTreeMap<T, BTreeSet<T>>,
        node: &T,
        path: &mut Vec<T>,
        done: &mut BTreeSet<T>,
    ) -> Option<Vec<T>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.clone());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(graph, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(graph, n, &mut Vec::new(), &mut done))
}

/// The layer of a bot source file: its folder under `src/`, or its name.
fn layer(file: &Path) -> String {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let first = rel.iter().next().unwrap().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_owned()
}

fn one(file: &Path) -> String {
    show(&[file.to_path_buf()])
}

fn show(files: &[PathBuf]) -> String {
    let base = root();
    files
        .iter()
        .map(|f| f.strip_prefix(&base).unwrap_or(f).display().to_string())
        .collect::<Vec<_>>()
        .join(" → ")
}

#[test]
fn the_layers_use_each_other_in_one_direction_only() {
    let g = graph(&root().join("src"), Some("morskoy_boy"));
    assert!(g.len() > 60, "{} files", g.len());
    // Which layers each layer may use.
    let allowed: BTreeMap<&str, &[&str]> = [
        ("game", &["game"][..]),
        ("view", &["view", "game"][..]),
        ("store", &["store", "game", "metrics", "clock"][..]),
        // The counters and the clock: used by the store and the adapter, using nothing of
        // the bot.
        ("metrics", &["metrics"][..]),
        ("clock", &["clock"][..]),
        ("terminal", &["terminal", "view", "game"][..]),
        ("config", &["config", "store", "game"][..]),
        (
            "telegram",
            &[
                "telegram", "view", "game", "store", "config", "metrics", "clock",
            ][..],
        ),
        (
            "lib",
            &[
                "game", "view", "store", "telegram", "terminal", "config", "metrics", "clock",
            ][..],
        ),
        (
            "main",
            &[
                "game", "view", "store", "telegram", "terminal", "config", "metrics", "clock",
            ][..],
        ),
        (
            "bin",
            &[
                "game", "view", "store", "telegram", "terminal", "config", "metrics", "clock",
            ][..],
        ),
    ]
    .into_iter()
    .collect();
    let mut seen_edges = 0;
    for (file, deps) in &g {
        let from = layer(file);
        let ok = allowed
            .get(from.as_str())
            .unwrap_or_else(|| panic!("{file:?}: a layer ARCHITECTURE.md does not name"));
        for dep in deps {
            seen_edges += 1;
            let to = layer(dep);
            assert!(
                ok.contains(&to.as_str()),
                "{} uses {} ({from} → {to})",
                one(file),
                one(dep)
            );
        }
    }
    assert!(seen_edges > 100, "the reader sees uses: {seen_edges}");
    // The reader sees what it must: a view using the game, the adapter using the sender.
    let file = |p: &str| root().join(p);
    assert!(g[&file("src/view/group/mod.rs")].contains(&file("src/game/record/mod.rs")));
    assert!(g[&file("src/telegram/battle.rs")].contains(&file("src/telegram/sender/mod.rs")));
}

#[test]
fn the_core_and_the_views_name_no_io_crate() {
    for dir in ["src/game", "src/view"] {
        for file in rust_files(&root().join(dir)) {
            let text = code(&file);
            for word in ["teloxide", "redis", "tokio", "reqwest", "hyper", "async fn"] {
                assert!(!text.contains(word), "{} mentions {word}", one(&file));
            }
        }
    }
}

#[test]
fn no_import_circle_among_the_bots_files_nor_the_engines() {
    for (src, krate) in [
        ("src", Some("morskoy_boy")),
        ("crates/engine/src", None),
        ("crates/riga/src", None),
    ] {
        let g = graph(&root().join(src), krate);
        assert!(g.len() > 5, "{src}: {} files", g.len());
        if let Some(circle) = find_circle(&g) {
            panic!("an import circle in {src}: {}", show(&circle));
        }
    }
}

#[test]
fn the_telegram_adapter_changes_no_record() {
    let forbidden = [
        ".apply(",
        "push_effect",
        "remember_answer",
        "&mut GameRecord",
        "&mut ChatSettings",
        "&mut UserSettings",
        "mark_shown",
        "derive_effects",
    ];
    let files = rust_files(&root().join("src/telegram"));
    assert!(files.len() > 10);
    for file in files {
        let text = code(&file);
        for word in forbidden {
            assert!(!text.contains(word), "{} has {word}", one(&file));
        }
        // A field assigned: only the adapter's own state (`self.…`) may be.
        for (n, line) in text.lines().enumerate() {
            let t = line.trim_start();
            let Some(eq) = assignment(t) else { continue };
            let target = t[..eq].trim();
            assert!(
                !target.contains('.') || target.starts_with("self."),
                "{}:{}: assigns {target}",
                one(&file),
                n + 1
            );
        }
    }
}

#[test]
fn every_bot_api_call_of_the_adapter_is_counted() {
    // A call is a method on `bot` other than its own accessors; it is counted when the
    // `.await` that sends it is `.metered().await` (`src/telegram/metered.rs`).
    let accessors = [
        "clone", "inner", "api_url", "token", "client", "throttle", "is_none", "is_some", "map",
    ];
    let mut calls = 0;
    for file in rust_files(&root().join("src/telegram")) {
        if file.ends_with("metered.rs") {
            continue;
        }
        let text = code(&file);
        for (at, _) in text.match_indices("bot") {
            let before = text[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &text[at + 3..];
            let Some(call) = rest.trim_start().strip_prefix('.') else {
                continue;
            };
            let method = ident(call);
            if method.is_empty() || accessors.contains(&method.as_str()) {
                continue;
            }
            calls += 1;
            let Some(sent) = rest.find(".await") else {
                panic!("{}: bot.{method} is never awaited", one(&file));
            };
            let line = text[..at].lines().count();
            assert!(
                rest[..sent].trim_end().ends_with(".metered()"),
                "{}:{line}: bot.{method} is sent without `.metered()`, so /metrics misses it",
                one(&file)
            );
        }
    }
    assert!(calls > 20, "the reader sees the calls: {calls}");
}

/// Where the `=` of an assignment (`x.y = …`, `x.y += …`) is in a line, if it is one.
fn assignment(line: &str) -> Option<usize> {
    if line.starts_with("let ") || line.starts_with("const ") || line.starts_with("static ") {
        return None;
    }
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'"' | b'{' | b'|' => return None,
            b'=' => {
                let next = bytes.get(i + 1).copied();
                let prev = i.checked_sub(1).map(|j| bytes[j]);
                if next == Some(b'=') || next == Some(b'>') {
                    return None;
                }
                if matches!(prev, Some(b'!' | b'<' | b'>' | b'=')) {
                    return None;
                }
                return Some(if matches!(prev, Some(b'+' | b'-' | b'*' | b'|')) {
                    i - 1
                } else {
                    i
                });
            }
            _ => {}
        }
    }
    None
}

/// The steps of a shot's path in ARCHITECTURE.md: each `` `file` `` with its
/// `` `function` ``, in order, from the section that names them.
fn shot_path() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let at = doc
        .find("## A shot's path")
        .expect("a section \"## A shot's path\"");
    let section = &doc[at..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut steps = Vec::new();
    for line in section.lines() {
        let Some(item) = line.trim_start().strip_prefix(|c: char| c.is_ascii_digit()) else {
            continue;
        };
        let ticks: Vec<&str> = item.split('`').collect();
        if ticks.len() >= 5 && ticks[1].starts_with("src/") {
            steps.push((ticks[1].to_owned(), ticks[3].to_owned()));
        }
    }
    steps
}

#[test]
fn a_shots_path_is_written_down_true_and_short() {
    let steps = shot_path();
    assert!(steps.len() >= 6, "{steps:?}");
    let files: BTreeSet<&String> = steps.iter().map(|(f, _)| f).collect();
    assert!(
        files.len() <= 8,
        "a shot's path touches {} files",
        files.len()
    );
    for (i, (file, f)) in steps.iter().enumerate() {
        let text = code(&root().join(file));
        assert!(function_body(&text, f).is_some(), "{file} has no fn {f}");
        // Each step is handed on by one before it.
        if i > 0 {
            let called = steps[..i]
                .iter()
                .any(|(earlier, _)| code(&root().join(earlier)).contains(&format!("{f}(")));
            assert!(called, "no step before {file}'s {f} calls it");
        }
    }
    let (last_file, last) = steps.last().unwrap();
    let text = code(&root().join(last_file));
    assert!(
        function_body(&text, last).is_some(),
        "{last_file} has no fn {last}"
    );
}

/// The text of `fn name` in `code`, from its name to its closing brace.
fn function_body<'a>(code: &'a str, name: &str) -> Option<&'a str> {
    let at = code
        .find(&format!("fn {name}("))
        .or_else(|| code.find(&format!("fn {name}<")))?;
    let rest = &code[at..];
    let open = rest.find('{')?;
    let mut depth = 0;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&rest[..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn the_readme_layout_lists_every_source_file() {
    let readme = std::fs::read_to_string(root().join("docs/layout.md")).unwrap();
    let at = readme.find("# Layout").expect("a Layout section");
    let layout = &readme[at..];
    let layout = &layout[..layout[3..].find("\n## ").map_or(layout.len(), |e| e + 3)];
    // Each crate's part of the layout: from its folder's line to the next one's.
    let part = |from: &str, to: &str| -> &str {
        let a = layout
            .find(from)
            .unwrap_or_else(|| panic!("{from} in the layout"));
        let b = layout[a..].find(to).map_or(layout.len(), |b| a + b);
        &layout[a..b]
    };
    let mut missing = Vec::new();
    for (dir, from, to) in [
        ("crates/engine", "crates/engine/", "crates/riga/"),
        ("crates/riga", "crates/riga/", "\nsrc/ "),
        (".", "\nsrc/ ", "\ntests/ "),
    ] {
        let text = part(from, to);
        for file in rust_files(&root().join(dir).join("src")) {
            let rel = file
                .strip_prefix(root().join(dir))
                .unwrap()
                .display()
                .to_string();
            if !text.contains(&rel) {
                missing.push(format!("{dir}/{rel}"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/layout.md misses {missing:?}");
}

#[test]
fn the_readers_of_this_test_find_what_there_is() {
    let graph: BTreeMap<&str, BTreeSet<&str>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.into_iter().collect()))
    .collect();
    let circle = find_circle(&graph).expect("a → b → c → a");
    assert_eq!(circle.first(), circle.last());
    assert_eq!(circle.len(), 4);
    let paths = paths_after(
        "use super::{a, b::c};\nsuper::d::e(); x::super::f; crate::g",
        "super::",
    );
    let want: Vec<Vec<String>> = [vec!["a"], vec!["b", "c"], vec!["d", "e"]]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(paths, want);
    assert_eq!(assignment("r.delivery.drawn = hash;"), Some(17));
    assert_eq!(assignment("x += 1;"), Some(2));
    assert_eq!(assignment("if a == b {"), None);
    assert_eq!(assignment("let x = 1;"), None);
    assert_eq!(assignment("f(a = b)"), None);
    assert_eq!(
        function_body("fn a() { b(); { c } }\nfn d() {}", "a"),
        Some("fn a() { b(); { c } ")
    );
}

/// Every `.rs` file of the bot and its crates.
fn all_sources() -> Vec<PathBuf> {
    let mut files = rust_files(&root().join("src"));
    files.extend(rust_files(&root().join("crates/engine/src")));
    files.extend(rust_files(&root().join("crates/riga/src")));
    files
}

/// The record's own module (its accessors, its stored form, its tests).
fn is_record(file: &Path) -> bool {
    file.parent()
        .is_some_and(|dir| dir.ends_with("src/game/record"))
}

#[test]
fn no_code_asks_which_game_it_is_but_the_records_own_module() {
    // Tests and benches included: they build on the same record.
    let mut everything = all_sources();
    everything.extend(rust_files(&root().join("tests")));
    everything.extend(rust_files(&root().join("benches")));
    // This file names them to look for them.
    everything.retain(|f| !f.ends_with("tests/layers.rs"));
    let asked = [
        "is_riga(",
        ".riga()",
        ".sea()",
        ".riga_mut()",
        ".sea_mut()",
        "riga: bool",
    ];
    // Ways to test one game that the compiler does not walk through a new one.
    let partial = [
        "if let Play::",
        "let Play::",
        "== GameKind::",
        "!= GameKind::",
        "== Play::",
    ];
    let mut found = Vec::new();
    for file in everything.iter().filter(|f| !is_record(f)) {
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in text.lines().enumerate() {
            if let Some(a) = asked.iter().find(|a| line.contains(*a)) {
                found.push(format!("{}:{}: {a}", one(file), n + 1));
            }
        }
        for (n, line) in code(file).lines().enumerate() {
            let kind_test = line.contains("matches!(")
                && (line.contains("Play::") || line.contains("GameKind::"));
            if let Some(p) = partial.iter().find(|p| line.contains(*p)) {
                found.push(format!("{}:{}: {p}", one(file), n + 1));
            } else if kind_test {
                found.push(format!("{}:{}: matches!", one(file), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "asks which game it is: {found:#?}");
}

/// The match arms of the Riga game in the code (tests aside): where a third game adds its
/// own, with the files they are in.
fn riga_arms() -> (usize, BTreeSet<String>) {
    let mut arms = 0;
    let mut files = BTreeSet::new();
    for file in all_sources() {
        for line in code(&file).lines() {
            let arm = ["Play::Riga", "GameKind::Riga"]
                .iter()
                .any(|v| line.find(v).is_some_and(|at| line[at..].contains("=>")));
            if arm {
                arms += 1;
                files.insert(one(&file));
            }
        }
    }
    (arms, files)
}

#[test]
fn architecture_counts_the_places_a_new_game_extends() {
    let (arms, files) = riga_arms();
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let said = format!("{arms} arms in {} files", files.len());
    assert!(
        doc.contains(&said),
        "ARCHITECTURE.md should say \"{said}\" (the Riga game's arms: {files:?})"
    );
}

/// The most lines of code a source file holds (its unit tests aside) unless it says why it is
/// one noun.
const FILE_LINES: usize = 600;

#[test]
fn every_source_file_is_short_or_says_why_it_is_one_noun() {
    let mut long = Vec::new();
    for file in all_sources() {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines = match file.file_name().is_some_and(|n| n == "tests.rs") {
            true => 0,
            false => match text.find("#[cfg(test)]\nmod tests") {
                Some(at) => text[..at].lines().count(),
                None => text.lines().count(),
            },
        };
        if lines > FILE_LINES && !text.contains("One noun:") {
            long.push(format!("{} ({lines} lines)", one(&file)));
        }
    }
    assert!(
        long.is_empty(),
        "longer than {FILE_LINES} lines, with no \"One noun:\" note saying why: {long:#?}"
    );
}
