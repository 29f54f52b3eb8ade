//! The Riga AI benchmark: levels against each other, sides and first move alternating.
//!
//! `cargo run --release -p riga --bin riga-bench -- --games 200 --seed 1`
//!
//! For hard against normal and normal against easy it prints the stronger level's wins,
//! draws and losses, and the p99 time of a move of each level. `--pair hard-normal` (or
//! `normal-easy`) plays one pair only. With `RIGA_BENCH_TRACE` set in the environment it also
//! prints each game's length, the ships left and, for a draw, where they stand.

use riga::ai::{choose, Level};
use riga::{Game, Kind, Outcome, Side, FLEET};
use std::time::Instant;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic random source (an LCG), enough for shuffles and ties.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }

    fn order(&mut self) -> Vec<Kind> {
        let mut v = FLEET.to_vec();
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
        v
    }
}

/// One game: `strong` plays North when `north` is set. Returns the outcome for `strong` (1 a
/// win, 0 a draw, -1 a loss) and the milliseconds of each move by level.
fn game(strong: Level, weak: Level, north: bool, seed: u64) -> (i32, Vec<(Level, f64)>) {
    let mut rng = Lcg(seed);
    let first = if rng.below(2) == 0 {
        Side::North
    } else {
        Side::South
    };
    let mut g = Game::new(&rng.order(), &rng.order(), first).expect("a fleet");
    let strong_side = if north { Side::North } else { Side::South };
    let mut times = Vec::new();
    while g.outcome().is_none() {
        let level = if g.turn() == strong_side {
            strong
        } else {
            weak
        };
        let started = Instant::now();
        let mv = choose(&g, level, &mut |n| rng.below(n)).expect("a move");
        times.push((level, started.elapsed().as_secs_f64() * 1000.0));
        g.play(g.turn(), mv).expect("a legal move");
    }
    if std::env::var_os("RIGA_BENCH_TRACE").is_some() {
        eprintln!(
            "moves {} strong {} weak {} outcome {:?}",
            g.moves(),
            g.afloat(strong_side),
            g.afloat(strong_side.other()),
            g.outcome()
        );
        if g.outcome() == Some(Outcome::Draw) {
            for s in g.ships().iter().flatten() {
                eprintln!("  {:?} {:?} {:?} {:?}", s.side, s.kind, s.at, s.facing);
            }
        }
    }
    let result = match g.outcome() {
        Some(Outcome::Win(s)) if s == strong_side => 1,
        Some(Outcome::Win(_)) => -1,
        _ => 0,
    };
    (result, times)
}

fn p99(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(((v.len() as f64 - 1.0) * 0.99).round() as usize)
        .copied()
        .unwrap_or(0.0)
}

fn main() {
    let games = arg("--games", 200);
    let seed = arg("--seed", 1);
    println!("Riga AI benchmark, {games} games a pair, seed {seed}");
    println!("pair            wins  draws  losses  win %   p99 ms strong  p99 ms weak");
    let pair = std::env::args()
        .skip_while(|a| a != "--pair")
        .nth(1)
        .unwrap_or_default();
    for (strong, weak) in [(Level::Hard, Level::Normal), (Level::Normal, Level::Easy)] {
        let name = format!("{strong:?}-{weak:?}").to_lowercase();
        if !pair.is_empty() && pair != name {
            continue;
        }
        let (mut w, mut d, mut l) = (0, 0, 0);
        let (mut ts, mut tw) = (Vec::new(), Vec::new());
        for k in 0..games {
            let (r, times) = game(strong, weak, k % 2 == 0, seed.wrapping_mul(7919) + k);
            match r {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
            for (level, t) in times {
                if level == strong {
                    ts.push(t);
                } else {
                    tw.push(t);
                }
            }
        }
        println!(
            "{:<15} {:>4}  {:>5}  {:>6}  {:>5.1}  {:>13.2}  {:>11.2}",
            name,
            w,
            d,
            l,
            100.0 * f64::from(w) / games as f64,
            p99(ts),
            p99(tw),
        );
    }
}
