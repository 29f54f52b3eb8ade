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
//! Perelman and the hard level's own [`hard_fleet`]), `--levels easy,normal,hard`,
//! `--threads N` (games in parallel; the figures do not depend on it, the times do).

use engine::ai::{choose_shot, hard_fleet, Level};
use engine::{
    perelman_fleet, random_fleet, Action, Fleet, Game, PlayerId, Ruleset, RulesetError, SeatId,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Instant;

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

/// A layout generator under test.
#[derive(Clone, Copy)]
enum Generator {
    Random,
    Perelman,
    Hard,
}

impl Generator {
    fn name(self) -> &'static str {
        match self {
            Generator::Random => "uniform",
            Generator::Perelman => "perelman",
            Generator::Hard => "hard",
        }
    }

    fn fleet(self, r: &Ruleset, rng: &mut StdRng) -> Result<Fleet, RulesetError> {
        match self {
            Generator::Random => random_fleet(r, rng),
            Generator::Perelman => perelman_fleet(r, rng),
            Generator::Hard => hard_fleet(r, rng),
        }
    }
}

/// One game: the AI in seat 0 shoots at a fleet in seat 1 until it is sunk; seat 1 only
/// ever shoots at water, so the count is the AI's alone. Returns the shots and the
/// milliseconds of each move.
fn play(r: &Ruleset, level: Level, generator: Generator, seed: u64) -> (u32, Vec<f64>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(r.clone());
    for p in [1, 2] {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    let mine = random_fleet(r, &mut rng).unwrap();
    let theirs = generator.fleet(r, &mut rng).unwrap();
    let mut water: Vec<_> = r
        .size()
        .cells()
        .filter(|&c| mine.ship_at(c).is_none() && !mine.is_mine(c))
        .collect();
    water.shuffle(&mut rng);
    game.apply(Action::Ready(SeatId(0), mine), 0, &mut rng)
        .unwrap();
    game.apply(Action::Ready(SeatId(1), theirs), 0, &mut rng)
        .unwrap();
    let (mut shots, mut times) = (0, Vec::new());
    while !game.is_finished() {
        let action = if game.turn() == SeatId(0) {
            let view = game.view_for(SeatId(0));
            let started = Instant::now();
            let (target, cell) = choose_shot(&view, SeatId(0), level, &mut rng).expect("a shot");
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            shots += 1;
            Action::Fire(SeatId(0), target, cell)
        } else {
            let cell = water.pop().expect("water to miss at");
            Action::Fire(SeatId(1), SeatId(0), cell)
        };
        game.apply(action, 0, &mut rng).expect("a legal shot");
    }
    (shots, times)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Plays `games` seeded games on `threads` threads and prints one row.
fn row(r: &Ruleset, level: Level, generator: Generator, games: u64, seed: u64, threads: u64) {
    let seeds: Vec<u64> = (0..games)
        .map(|g| seed.wrapping_mul(1_000_003).wrapping_add(g))
        .collect();
    let chunk = seeds.len().div_ceil(threads.max(1) as usize).max(1);
    let results: Vec<(u32, Vec<f64>)> = std::thread::scope(|s| {
        let handles: Vec<_> = seeds
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&g| play(r, level, generator, g))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a bench thread"))
            .collect()
    });
    let mut shots: Vec<f64> = results.iter().map(|r| f64::from(r.0)).collect();
    let mut times: Vec<f64> = results.into_iter().flat_map(|r| r.1).collect();
    let n = shots.len() as f64;
    let mean = shots.iter().sum::<f64>() / n;
    let sd = (shots.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let half = 1.96 * sd / n.sqrt();
    shots.sort_by(f64::total_cmp);
    times.sort_by(f64::total_cmp);
    let mean_ms = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "{:<7} {:<9} {:>6}  {:>6.2} ({:.2}–{:.2})   {:>6.0} {:>4.0} {:>4.0}  {:>12.3} {:>6.3}",
        level.to_string(),
        generator.name(),
        games,
        mean,
        mean - half,
        mean + half,
        percentile(&shots, 0.5),
        percentile(&shots, 0.1),
        percentile(&shots, 0.9),
        mean_ms,
        percentile(&times, 0.99),
    );
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
