//! The rules of `docs/rules.md` §2–§4 as the engine plays them: at least one test a bullet, each
//! named after the rule it checks, plus the data-driven scenarios of `tests/scenarios/`.
//!
//! Fleets are drawn as pictures (see `common/mod.rs`); cells are typed as players type them,
//! in the Russian alphabet unless a test says otherwise.

mod common;

#[path = "rules/arsenal.rs"]
mod arsenal;
#[path = "rules/classic.rs"]
mod classic;
#[path = "rules/fields.rs"]
mod fields;
#[path = "rules/land_sea_air.rs"]
mod land_sea_air;
#[path = "rules/mines.rs"]
mod mines;
#[path = "rules/players.rs"]
mod players;
#[path = "rules/referee.rs"]
mod referee;
#[path = "rules/salvo.rs"]
mod salvo;
#[path = "rules/shapes.rs"]
mod shapes;
#[path = "rules/touching.rs"]
mod touching;
#[path = "rules/violations.rs"]
mod violations;

use std::path::PathBuf;

/// Every scenario file, in name order.
fn scenario_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_scenario_file_plays_as_written() {
    let files = scenario_files();
    assert!(files.len() >= 4, "only {} scenario files", files.len());
    let failures: Vec<String> = files
        .iter()
        .flat_map(|f| common::scenario::run(f))
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn a_scenario_mismatch_is_reported_with_its_file_and_line() {
    let text = "# rule: a hit is not a miss\n\
                alphabet: latin\n\
                target:\n\
                ####.#.#.#\n..........\n###.###...\n..........\n##.##.##..\n\
                ..........\n..........\n..........\n..........\n.........#\n\
                shots:\n\
                C6 miss\n\
                A1 miss\n";
    assert_eq!(
        common::scenario::run_text("wrong.txt", text),
        vec!["wrong.txt:16: expected Miss, got Hit".to_string()]
    );
    let no_rule = text.replacen("# rule: a hit is not a miss\n", "", 1);
    assert_eq!(
        common::scenario::run_text("bare.txt", &no_rule),
        vec!["bare.txt:1: no `# rule:` line".to_string()]
    );
}
