//! The AI benchmark: each level against seeded layouts.
//!
//! `cargo run --release --bin ai-bench -- --games 2000 --seed 1`
//!
//! For each level and each layout generator (uniform random, Perelman) it prints the games,
//! the mean shots to sink the whole fleet with its 95 % interval, the median, p10 and p90,
//! and the mean and p99 milliseconds a move takes.
//!
//! Options: `--ruleset classic|big|lsa` (the field; classic by default), `--placements` (score
//! placements instead: the shots the hard shooter needs against each generator — random,
//! Perelman and the hard level's own [`hard_fleet`]), `--learning` (the learning level against
//! plain hard, in chats of habitual placers: see [`learning`]), `--habits` (the learning level
//! against plain hard, paired, against a population of simulated habitual placers after 0, 20,
//! 50 and 200 of each one's layouts seen: see [`habits_bench`]; `--placers habitual,repeater,uniform`
//! picks the populations, `--seen 0,200,2000` other numbers of layouts seen, `--by-habit` the
//! habitual rows by habit kind (`--by-strength`: by the layouts each placer picks from),
//! `--oracle` adds the ceiling: the learning level given each
//! placer's true law instead of layouts (`--law-samples K`: with K times the layouts a
//! decision draws; `--learn-samples K` the same for the learning level), `HABITS_DEBUG=1` prints each player's fitted tendencies), `--levels easy,normal,hard`,
//! `--threads N` (games in parallel; the figures do not depend on it, the times do),
//! `--arsenal` (the hard level with the arsenal, in turns: see [`arsenal`]; `--seeds 1,2,3`
//! averages it over several seeds).
//!
//! Its parts: `levels.rs` (each level against seeded layouts, `--placements`), `styles.rs`
//! (`--learning`), `placers.rs` and `habits.rs` (`--habits`), `shooters.rs` (`--arsenal`) and
//! `stats.rs` (the figures the tables print).
//!
//! [`hard_fleet`]: engine::ai::hard_fleet

mod habits;
mod levels;
mod placers;
mod shooters;
mod stats;
mod styles;

use engine::ai::Level;
use engine::Ruleset;
use habits::habits_bench;
use levels::{row, Generator};
use shooters::arsenal;
use styles::learning;

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn number(name: &str, default: u64) -> u64 {
    arg(name).and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let games = number("--games", 2000);
    let seed = number("--seed", 1);
    let threads = number("--threads", 1);
    let (r, name) = match arg("--ruleset").as_deref() {
        None | Some("classic") => (Ruleset::default(), "classic 10×10"),
        Some("big") => (Ruleset::big(), "big 15×15"),
        Some("lsa") => (Ruleset::land_sea_air(), "land-sea-air 20×15"),
        Some(other) => panic!("no ruleset {other:?}: classic, big or lsa"),
    };
    let levels: Vec<Level> = match arg("--levels") {
        Some(list) => list
            .split(',')
            .map(|l| l.parse().expect("a level"))
            .collect(),
        None => Level::ALL.to_vec(),
    };
    if std::env::args().any(|a| a == "--arsenal") {
        let seeds: Vec<u64> = match arg("--seeds") {
            Some(list) => list
                .split(',')
                .map(|s| s.parse().expect("a seed"))
                .collect(),
            None => vec![seed],
        };
        arsenal(games, &seeds, threads);
        return;
    }
    if std::env::args().any(|a| a == "--habits") {
        habits_bench(&r, name, games, seed, threads);
        return;
    }
    if std::env::args().any(|a| a == "--learning") {
        learning(&r, name, games, seed, threads);
        return;
    }
    let placements = std::env::args().any(|a| a == "--placements");
    if placements {
        println!("Placements against the hard shooter, {name}, {games} games a row, seed {seed}");
    } else {
        println!("AI benchmark, {name}, {games} games a row, seed {seed}");
    }
    println!("level   layouts    games  mean shots (95% CI)   median  p10  p90  ms/move mean  p99");
    if placements {
        for generator in [Generator::Random, Generator::Perelman, Generator::Hard] {
            row(&r, Level::Hard, generator, games, seed, threads);
        }
        return;
    }
    for level in levels {
        for generator in [Generator::Random, Generator::Perelman] {
            row(&r, level, generator, games, seed, threads);
        }
    }
}
