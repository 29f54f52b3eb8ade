//! Each level against seeded layouts (the plain run and `--placements`): one game, and one
//! row of the table a level and a layout generator.

use crate::stats::percentile;
use engine::ai::{choose_shot_within, hard_fleet, Budget, Level};
use engine::{
    perelman_fleet, random_fleet, Action, Coord, Fleet, Game, PlayerId, Ruleset, RulesetError,
    SeatId,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Instant;

/// A layout generator under test.
#[derive(Clone, Copy)]
pub(crate) enum Generator {
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
    play_against(r, level, &Budget::default(), seed, |rng| {
        generator.fleet(r, rng).unwrap()
    })
}

/// As [`play`], against the fleet `theirs` draws, with the shooter thinking within `budget`.
pub(crate) fn play_against(
    r: &Ruleset,
    level: Level,
    budget: &Budget,
    seed: u64,
    theirs: impl FnOnce(&mut StdRng) -> Fleet,
) -> (u32, Vec<f64>) {
    let (mut game, mut water, mut rng) = set_up(r, seed, theirs);
    let (mut shots, mut times) = (0, Vec::new());
    while !game.is_finished() {
        let action = if game.turn() == SeatId(0) {
            let view = game.view_for(SeatId(0));
            let started = Instant::now();
            let (target, cell) =
                choose_shot_within(&view, SeatId(0), level, &mut rng, budget.clone())
                    .expect("a shot");
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

/// A bench game of seed `seed` in its battle: a random fleet in seat 0, the one `theirs`
/// draws in seat 1; with seat 0's water in a random order (seat 1 only ever shoots there) and
/// the game's random source.
pub(crate) fn set_up(
    r: &Ruleset,
    seed: u64,
    theirs: impl FnOnce(&mut StdRng) -> Fleet,
) -> (Game, Vec<Coord>, StdRng) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(r.clone());
    for p in [1, 2] {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    let mine = random_fleet(r, &mut rng).unwrap();
    let theirs = theirs(&mut rng);
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
    (game, water, rng)
}

/// Plays `games` seeded games on `threads` threads and prints one row.
pub(crate) fn row(
    r: &Ruleset,
    level: Level,
    generator: Generator,
    games: u64,
    seed: u64,
    threads: u64,
) {
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
