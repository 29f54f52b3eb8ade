//! Every link in README.md, ARCHITECTURE.md and docs/ resolves: a file or folder of the
//! project, and a heading of that page when the link names one (`page.md#heading`, as GitHub
//! makes a heading's anchor). Links to the web are left alone.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages: README.md, ARCHITECTURE.md and every Markdown file under docs/.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages
}

/// The targets of the Markdown links and images of `text` (`[words](target)`), outside code.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans are not links.
        let line: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push(after[..end].trim().to_owned());
            rest = &after[end..];
        }
    }
    found
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of the headings of the page at `path`.
fn anchors(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with('#') {
            out.push(anchor(line.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_link_of_the_readme_and_the_docs_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for link in links(&text) {
            if link.starts_with("http://")
                || link.starts_with("https://")
                || link.starts_with("mailto:")
            {
                continue;
            }
            checked += 1;
            let (file, heading) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let name = page.strip_prefix(root()).unwrap().display().to_string();
            if !target.exists() {
                broken.push(format!("{name}: {link} (no such file)"));
            } else if !heading.is_empty() && !anchors(&target).contains(&heading.to_owned()) {
                broken.push(format!("{name}: {link} (no such heading)"));
            }
        }
    }
    assert!(
        checked >= 10,
        "only {checked} links found: the reader is broken"
    );
    assert!(broken.is_empty(), "{broken:#?}");
}

#[test]
fn the_reader_finds_links_and_headings_as_github_does() {
    assert_eq!(
        links("see [a](docs/a.md#x) and ![](p.png), not `[b](c)`\n```\n[d](e)\n```\n[f](g)"),
        ["docs/a.md#x", "p.png", "g"]
    );
    assert_eq!(anchor(" The Mini App"), "the-mini-app");
    assert_eq!(anchor("Store (Redis)"), "store-redis");
    assert_eq!(
        anchor("Bot (through the fake Bot API)"),
        "bot-through-the-fake-bot-api"
    );
}

#[test]
fn the_readme_is_short_and_starts_with_its_two_commands() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(
        readme.lines().count() <= 200,
        "{} lines",
        readme.lines().count()
    );
    let block = readme.split("```").nth(1).expect("a code block");
    let commands: Vec<&str> = block
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(
        commands,
        [
            "TELOXIDE_TOKEN=<token from @BotFather> scripts/run",
            "scripts/test"
        ]
    );
}
