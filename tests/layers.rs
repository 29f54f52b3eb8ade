//! The code's layers, read from the source: the application layer (`src/app.rs`) knows
//! nothing of Telegram or Redis; the modules of the Telegram adapter form no import circle;
//! and the flows (lobby, placement, battle, aim, mine, settings) never call each other —
//! what they share lives below them (`play.rs`, `chat.rs`, the views, the outbox).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const FLOWS: &[&str] = &[
    "lobby",
    "placement",
    "battle",
    "aim",
    "mine",
    "settings",
    "riga",
];

/// A file's code without its unit tests.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The names right after each `prefix` in `code`: `prefix::name`, or each name of
/// `prefix::{a, b::c}`.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                out.insert(ident(item.trim()));
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out.remove("");
    out
}

/// The adapter's modules and the sibling modules each one uses. A module's own folder
/// (`settings/change.rs`) counts as the module.
fn telegram_graph() -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/telegram");
    let mut files: Vec<(String, std::path::PathBuf, bool)> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            for sub in std::fs::read_dir(&path).unwrap() {
                files.push((name.clone(), sub.unwrap().path(), true));
            }
        } else if name != "mod" {
            files.push((name, path, false));
        }
    }
    let modules: BTreeSet<String> = files.iter().map(|(n, _, _)| n.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, path, nested) in &files {
        let text = code(path);
        let mut used = names_after(&text, "crate::telegram::");
        used.extend(names_after(
            &text,
            if *nested { "super::super::" } else { "super::" },
        ));
        let deps = graph.entry(name.clone()).or_default();
        deps.extend(
            used.into_iter()
                .filter(|u| modules.contains(u) && u != name),
        );
    }
    graph
}

/// A circle in `graph`, if there is one.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        graph: &BTreeMap<String, BTreeSet<String>>,
        node: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_owned());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(graph, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(graph, n, &mut Vec::new(), &mut done))
}

#[test]
fn the_telegram_modules_form_no_import_circle() {
    let graph = telegram_graph();
    assert!(graph.len() > 10, "{graph:?}");
    assert!(graph["outbox"].contains("group"), "the reader sees uses");
    if let Some(circle) = find_circle(&graph) {
        panic!("an import circle: {}", circle.join(" → "));
    }
}

#[test]
fn the_flows_never_call_each_other() {
    let graph = telegram_graph();
    for flow in FLOWS {
        let calls: Vec<&String> = graph[*flow]
            .iter()
            .filter(|d| FLOWS.contains(&d.as_str()))
            .collect();
        assert!(calls.is_empty(), "{flow} uses {calls:?}");
    }
}

#[test]
fn the_application_layer_knows_nothing_of_telegram_or_redis() {
    let app = code(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app.rs"));
    for word in [
        "teloxide",
        "crate::telegram",
        "crate::store",
        "redis",
        "async fn",
    ] {
        assert!(!app.contains(word), "src/app.rs mentions {word}");
    }
    assert!(app.contains("pub fn apply_move("));
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
    .collect();
    let circle = find_circle(&graph).expect("a → b → c → a");
    assert_eq!(circle.first(), circle.last());
    assert_eq!(circle.len(), 4);
    let names = names_after(
        "use super::{a, b::c};\nsuper::d::e(); crate::telegram::f",
        "super::",
    );
    assert_eq!(
        names,
        ["a", "b", "d"].into_iter().map(str::to_owned).collect()
    );
}
