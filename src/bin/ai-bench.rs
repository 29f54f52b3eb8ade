//! The AI benchmark: each level against seeded layouts on the classic field.
//!
//! `cargo run --release --bin ai-bench -- --games 2000 --seed 1`
//!
//! For each level and each layout generator (uniform random, Perelman) it prints the games,
//! the mean shots to sink the whole fleet with its 95 % interval, the median, p10 and p90,
//! and the mean and p99 milliseconds a move takes.

use engine::ai::{choose_shot, Level};
use engine::{perelman_fleet, random_fleet, Action, Event, Game, PlayerId, Ruleset, SeatId};
use rand::rngs::StdRng as ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Instant;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One game: the AI in seat 0 shoots at a fleet in seat 1 until it is sunk; seat 1 only
/// ever shoots at water, so the count is the AI's alone. Returns the shots and the
/// milliseconds of each move.
fn play(level: Level, perelman: bool, seed: u64) -> (u32, Vec<f64>) {
    let r = Ruleset::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(r.clone());
    for p in [1, 2] {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    let mine = random_fleet(&r, &mut rng).unwrap();
    let theirs = if perelman {
        perelman_fleet(&r, &mut rng).unwrap()
    } else {
        random_fleet(&r, &mut rng).unwrap()
    };
    let mut water: Vec<_> = r
        .size()
        .cells()
        .filter(|&c| mine.ship_at(c).is_none())
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
        let events = game.apply(action, 0, &mut rng).expect("a legal shot");
        debug_assert!(!events.is_empty() || matches!(events.first(), Some(Event::Shot { .. })));
    }
    (shots, times)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let games = arg("--games", 2000);
    let seed = arg("--seed", 1);
    println!("AI benchmark, classic 10×10, {games} games a row, seed {seed}");
    println!("level   layouts    games  mean shots (95% CI)   median  p10  p90  ms/move mean  p99");
    for level in Level::ALL {
        for (perelman, name) in [(false, "uniform"), (true, "perelman")] {
            let mut shots = Vec::new();
            let mut times = Vec::new();
            for g in 0..games {
                let (s, t) = play(
                    level,
                    perelman,
                    seed.wrapping_mul(1_000_003).wrapping_add(g),
                );
                shots.push(f64::from(s));
                times.extend(t);
            }
            let n = shots.len() as f64;
            let mean = shots.iter().sum::<f64>() / n;
            let sd =
                (shots.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
            let half = 1.96 * sd / n.sqrt();
            shots.sort_by(f64::total_cmp);
            times.sort_by(f64::total_cmp);
            let mean_ms = times.iter().sum::<f64>() / times.len() as f64;
            println!(
                "{:<7} {:<9} {:>6}  {:>6.2} ({:.2}–{:.2})   {:>6.0} {:>4.0} {:>4.0}  {:>12.3} {:>6.3}",
                level.to_string(),
                name,
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
    }
}
