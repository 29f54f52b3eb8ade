//! The files a shot runs through, measured rather than read: the bot binary runs under
//! valgrind's callgrind, which counts nothing until the test switches it on. After a warm-up
//! shot the counts are zeroed; then a player misses, and they are dumped once the game has
//! nothing left to send (the answer, the stored move, the group's edited board). Every source
//! file of the project with an instruction run in that window is on the shot's path;
//! ARCHITECTURE.md's section "Every file a shot runs through" must name exactly those.
//!
//! The bot's background loops (the timer's tick, the replica's heartbeat, the health watch)
//! are left out with callgrind's `--toggle-collect`: they run on their own clock, not because
//! of the press.

use crate::helpers::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The files of the project (`src/…` of the bot, `crates/<name>/src/…` of its crates) with an
/// instruction counted in a callgrind dump, relative to the project's root.
pub fn files_run(dump: &str, root: &Path) -> BTreeSet<String> {
    let root = format!("{}/", root.display());
    // Files, functions and objects are named by numbers of their own: `(n) name` the first
    // time, `(n)` after.
    let mut names: [std::collections::HashMap<String, String>; 3] = Default::default();
    let mut name_of = |space: usize, value: &str| -> String {
        let value = value.trim();
        match value.strip_prefix('(').and_then(|v| v.split_once(')')) {
            Some((id, rest)) if !rest.trim().is_empty() => {
                names[space].insert(id.to_owned(), rest.trim().to_owned());
                rest.trim().to_owned()
            }
            Some((id, _)) => names[space].get(id).cloned().unwrap_or_default(),
            None => value.to_owned(),
        }
    };
    let mut files = BTreeSet::new();
    let (mut file, mut current) = (String::new(), String::new());
    let mut after_calls = false;
    let mut line_no: i64 = 0;
    for line in dump.lines() {
        if let Some((key, value)) = line.split_once('=') {
            match key {
                "fl" => {
                    file = name_of(0, value);
                    current = file.clone();
                }
                "fi" | "fe" => current = name_of(0, value),
                "fn" => {
                    name_of(1, value);
                    current = file.clone();
                }
                "cfi" | "cfl" => {
                    name_of(0, value);
                }
                "cfn" => {
                    name_of(1, value);
                }
                "ob" | "cob" => {
                    name_of(2, value);
                }
                "calls" => after_calls = true,
                _ => {}
            }
            continue;
        }
        let mut fields = line.split_whitespace();
        let Some(position) = fields.next() else {
            continue;
        };
        // A cost line's position is its source line: a number, `+n` / `-n` from the last
        // one's, or `*` for the same.
        line_no = match position.as_bytes()[0] {
            b'*' => line_no,
            b'+' => line_no + position[1..].parse::<i64>().unwrap_or(0),
            b'-' => line_no - position[1..].parse::<i64>().unwrap_or(0),
            b'0'..=b'9' => position.parse().unwrap_or(0),
            _ => continue,
        };
        // The line after `calls=` is the callee's inclusive cost, not this file's own.
        if std::mem::take(&mut after_calls) {
            continue;
        }
        let cost: u64 = fields.next().and_then(|c| c.parse().ok()).unwrap_or(0);
        // Line 0: code the compiler made without a source line (its file is a guess).
        if cost == 0 || line_no <= 0 {
            continue;
        }
        let path = current.strip_prefix(&root).unwrap_or(&current);
        let ours = path.starts_with("src/")
            || (path.starts_with("crates/") && path.split('/').nth(2) == Some("src"));
        if ours && path.ends_with(".rs") {
            files.insert(path.to_owned());
        }
    }
    files
}

fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn callgrind_control(args: &[&str], pid: u32) {
    let out = Command::new("callgrind_control")
        .args(args)
        .arg(pid.to_string())
        .output()
        .expect("callgrind_control runs (valgrind is installed by scripts/test)");
    assert!(
        out.status.success(),
        "callgrind_control {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The first cell of `seat`'s enemy's field that is water nobody has shot at.
async fn water(app: &App, d: &Duel, seat: usize) -> usize {
    let (rec, _) = app
        .store()
        .await
        .load_game(morskoy_boy::store::GameId(d.game))
        .await
        .expect("the game");
    let target = engine::SeatId(1 - seat as u8);
    let fleet = rec.game.fleet(target).expect("a placed fleet");
    let size = rec.game.ruleset().size();
    let c = size
        .cells()
        .find(|&c| fleet.ship_at(c).is_none() && !rec.game.is_known(target, c))
        .expect("water");
    size.index(c)
}

/// `seat` shoots at water; waits until the group's board shows it and the game has nothing
/// left to send.
async fn miss(app: &App, d: &mut Duel, seat: usize) {
    assert_eq!(d.turn, seat);
    let cell = water(app, d, seat).await;
    let edits = |app: &App| {
        app.tg
            .messages(d.group)
            .into_iter()
            .find(|m| m.message_id == d.battle)
            .expect("the battle message")
            .edits
    };
    let before = edits(app);
    let answer = app
        .press(
            d.group,
            &d.players[seat],
            d.battle,
            &d.fire_data(seat, cell),
        )
        .await;
    let shot = read_answer(&said(&answer));
    assert_eq!(shot, Shot::Miss, "{answer:?}");
    d.follow(seat, cell, shot);
    app.tg
        .wait_for(
            d.group,
            |m| m.message_id == d.battle && m.edits > before,
            wait(),
        )
        .await
        .expect("the board is edited");
    settled(app, d.game).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shot_runs_through_the_files_architecture_md_names() {
    let dir = tempfile::tempdir().expect("a folder for the dumps");
    let mut app = App::world(150, Some(100_000)).await;
    app.wrapper = [
        "valgrind",
        "--tool=callgrind",
        "--quiet",
        "--instr-atstart=no",
        "--dump-instr=no",
        "--dump-line=yes",
        "--fair-sched=yes",
        // (Whole names: a closure within one would switch counting on again.)
        "--toggle-collect=morskoy_boy::telegram::timer::tick_forever::{{closure}}",
        "--toggle-collect=morskoy_boy::telegram::start::live::{{closure}}",
        "--toggle-collect=morskoy_boy::telegram::health::exit_when_unhealthy::{{closure}}",
        // (`--toggle-collect` alone would collect only within them.)
        "--collect-atstart=yes",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!(
        "--callgrind-out-file={}/callgrind.%p",
        dir.path().display()
    )])
    .collect();
    // Counting makes the bot many times slower: a Redis operation is given the time it takes.
    app.env.push(("MB_REDIS_TIMEOUT_MS".into(), "20000".into()));
    app.start_bot().await;
    let pid = app.bot_pid().expect("the bot runs");
    let a = app.player(31, "Alice", "en");
    let b = app.player(32, "Bob", "en");
    let mut d = duel(&app, -3100, a, b).await;
    settled(&app, d.game).await;
    // Counting slows the bot down many times over, most of all while it first translates
    // the code it runs: a shot of the other player's first, not counted.
    callgrind_control(&["--instr=on"], pid);
    let first = d.turn;
    miss(&app, &mut d, first).await;
    // A player's language is read again once the one read is 10 s old (`LANG_FRESH`): so
    // it is for a shot a turn or more after the player's last press, as most are.
    tokio::time::sleep(Duration::from_secs(11)).await;
    callgrind_control(&["--zero"], pid);
    miss(&app, &mut d, 1 - first).await;
    callgrind_control(&["--dump=shot"], pid);
    callgrind_control(&["--instr=off"], pid);
    let dump = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".1"))
        .expect("callgrind's dump of the shot");
    let text = std::fs::read_to_string(&dump).unwrap();
    let ran = files_run(&text, &project_root());
    let doc = std::fs::read_to_string(project_root().join("ARCHITECTURE.md")).unwrap();
    let named = named_in(&doc);
    let unnamed: Vec<&String> = ran.difference(&named).collect();
    let idle: Vec<&String> = named.difference(&ran).collect();
    if !(unnamed.is_empty() && idle.is_empty()) {
        // The dump stays, for `callgrind_annotate` to say which functions ran where.
        let kept = dir.keep();
        panic!(
            "ARCHITECTURE.md's \"Every file a shot runs through\" is not what runs: {} files \
             ran; ran but not named: {unnamed:?}; named but did not run: {idle:?} \
             (callgrind's dump: {})",
            ran.len(),
            kept.join(dump.file_name().unwrap()).display()
        );
    }
    // Its figures are the list's.
    let bot = ran.iter().filter(|f| f.starts_with("src/")).count();
    let said = format!(
        "It is {bot} files of the bot and {} of the engine",
        ran.len() - bot
    );
    assert!(
        doc.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains(&said),
        "ARCHITECTURE.md should say: {said}"
    );
}

/// The files ARCHITECTURE.md's section "Every file a shot runs through" (in `text`) names.
fn named_in(text: &str) -> BTreeSet<String> {
    let at = text
        .find("### Every file a shot runs through")
        .expect("ARCHITECTURE.md has a section \"Every file a shot runs through\"");
    let section = &text[at..];
    let section = &section[..section[3..].find("\n#").map_or(section.len(), |e| e + 3)];
    section
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.ends_with(".rs") && (t.starts_with("src/") || t.starts_with("crates/")))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_dump_reader_counts_each_files_own_lines() {
    // Two files of the project and one of a library; names compressed after their first use,
    // files, functions and objects numbered apart; an inlined file (`fi=`), a call whose
    // inclusive cost belongs to the callee, relative lines and a line 0.
    let dump = "\
version: 1
positions: line
events: Ir
ob=(1) /bin/bot
fl=(1) /repo/src/a.rs
fn=(1) a::run
3 5
+2 0
fi=(2) /repo/crates/engine/src/x.rs
7 4
fe=(1)
cfl=(3) /lib/dep.rs
cfn=(2) dep::f
calls=1 10
* 100
fl=(3)
fn=(2)
10 9
fl=(4) /repo/src/c.rs
fn=(3) c::gen
0 40
fl=(5) /repo/src/d.rs
fn=(1)
-1 8
";
    let files = files_run(dump, Path::new("/repo"));
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    // c.rs ran only on line 0; d.rs's line is -1 from c.rs's 0, so no line either.
    assert_eq!(files, ["crates/engine/src/x.rs", "src/a.rs"]);
}
