//! The `--arsenal` bench: the hard level without the arsenal, with it, and firing its weapons
//! at random, on the same boards.

use crate::stats::{mean_ci, percentile};
use engine::ai::{choose_action_within, choose_give_up, choose_shot_within, Budget, Level};
use engine::{
    headings_from, random_fleet, run_cells, square, Action, Event, Ruleset, SeatId, View, Weapon,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use rand::SeedableRng;
use std::time::Instant;

/// A shooter of the arsenal benchmark.
#[derive(Clone, Copy, PartialEq)]
enum Shooter {
    /// Hard, plain shots only.
    Plain,
    /// Hard with the arsenal: `choose_action_within`.
    Arsenal,
    /// Hard's plain shots, its weapons fired at random moments and random legal places.
    Random,
}

/// One game's figures: turns, cells shot, weapons used, ms of each decision.
struct Played {
    turns: u32,
    cells: u32,
    weapons: u32,
    times: Vec<f64>,
}

/// A random legal use of a weapon `seat` has left at `target`, if any.
fn random_use(view: &View, seat: SeatId, target: SeatId, rng: &mut StdRng) -> Option<Action> {
    let left = view.field(seat).weapons;
    let field = view.field(target);
    let size = field.size;
    let weapons: Vec<Weapon> = Weapon::ALL
        .into_iter()
        .filter(|w| left[w.index()] > 0)
        .collect();
    let weapon = *weapons.choose(rng)?;
    let unknown = |c: engine::Coord| !field.mark(c).is_known();
    if weapon == Weapon::Torpedo {
        let ways: Vec<(engine::Coord, engine::Heading)> = size
            .cells()
            .flat_map(|c| headings_from(c, size).into_iter().map(move |h| (c, h)))
            .filter(|&(c, h)| run_cells(c, h, size).into_iter().any(unknown))
            .collect();
        let &(c, h) = ways.choose(rng)?;
        return Some(Action::Torpedo(seat, target, c, Some(h)));
    }
    let centres: Vec<engine::Coord> = size
        .cells()
        .filter(|&c| square(c, size).into_iter().any(unknown))
        .collect();
    let &c = centres.choose(rng)?;
    Some(if weapon == Weapon::Radar {
        Action::Radar(seat, target, c)
    } else {
        Action::AirStrike(seat, target, c)
    })
}

/// One arsenal game: as [`play_against`] (seat 1 only shoots water), the hard level in seat 0
/// playing as `shooter`; a turn ends at a miss or a weapon, as the game passes it.
///
/// [`play_against`]: crate::levels::play_against
fn play_arsenal(r: &Ruleset, shooter: Shooter, seed: u64) -> Played {
    let (mut game, mut water, mut rng) =
        crate::levels::set_up(r, seed, |rng| random_fleet(r, rng).unwrap());
    // The shooters' own random source, apart from the game's.
    let mut ai = StdRng::seed_from_u64(seed ^ 0x5eed);
    let budget = Budget::default();
    let mut out = Played {
        turns: 0,
        cells: 0,
        weapons: 0,
        times: Vec::new(),
    };
    let mut in_turn = false;
    while !game.is_finished() {
        if let Some(choice) = game.mine_choice() {
            let view = game.view_for(choice.seat);
            let cell = choose_give_up(&view, choice.seat, &mut ai).expect("a cell to give up");
            game.apply(Action::GiveUp(choice.seat, cell), 0, &mut rng)
                .expect("a legal give-up");
            continue;
        }
        let action = if game.turn() == SeatId(0) {
            if !in_turn {
                out.turns += 1;
                in_turn = true;
            }
            let view = game.view_for(SeatId(0));
            let started = Instant::now();
            let action = match shooter {
                Shooter::Arsenal => {
                    choose_action_within(&view, SeatId(0), Level::Hard, &mut ai, budget.clone())
                        .expect("an action")
                }
                Shooter::Plain | Shooter::Random => {
                    let (target, cell) =
                        choose_shot_within(&view, SeatId(0), Level::Hard, &mut ai, budget.clone())
                            .expect("a shot");
                    let weapon = (shooter == Shooter::Random && ai.gen_bool(1.0 / 20.0))
                        .then(|| random_use(&view, SeatId(0), target, &mut ai))
                        .flatten();
                    weapon.unwrap_or(Action::Fire(SeatId(0), target, cell))
                }
            };
            out.times.push(started.elapsed().as_secs_f64() * 1000.0);
            action
        } else {
            in_turn = false;
            let cell = water.pop().expect("water to miss at");
            Action::Fire(SeatId(1), SeatId(0), cell)
        };
        let events = game.apply(action, 0, &mut rng).expect("a legal action");
        for e in &events {
            match e {
                Event::Shot { shooter, .. } if *shooter == SeatId(0) => out.cells += 1,
                Event::AirStrike { cells, .. } => {
                    out.cells += cells.len() as u32;
                    out.weapons += 1;
                }
                Event::Torpedo { hit, .. } => {
                    out.cells += u32::from(hit.is_some());
                    out.weapons += 1;
                }
                Event::Radar { .. } => out.weapons += 1,
                _ => {}
            }
        }
    }
    out
}

/// The arsenal benchmark: classic fleet, arsenal 1, uniform layouts; for each seed, three
/// shooters on the same boards and seeds — (a) hard without the arsenal, (b) hard with it
/// (`choose_action_within`), (c) hard firing its weapons at random moments and places — their
/// turns and cells shot (mean, 95 % interval), the paired differences (a)−(b) and (c)−(b), and
/// ms a decision. With several seeds, the means over them last.
pub(crate) fn arsenal(games: u64, seeds: &[u64], threads: u64) {
    let r = Ruleset {
        arsenal: 1,
        ..Ruleset::default()
    };
    println!("Arsenal benchmark, classic 10×10, arsenal 1, uniform layouts, {games} games a seed");
    println!(
        "seed  shooter        turns (95% CI)        cells shot (95% CI)   weapons  ms/move mean   p99"
    );
    let shooters = [
        (Shooter::Plain, "(a) hard"),
        (Shooter::Arsenal, "(b) arsenal"),
        (Shooter::Random, "(c) random"),
    ];
    let mut over: Vec<[f64; 5]> = Vec::new();
    for &seed in seeds {
        let ids: Vec<u64> = (0..games)
            .map(|g| seed.wrapping_mul(1_000_003).wrapping_add(g))
            .collect();
        let chunk = ids.len().div_ceil(threads.max(1) as usize).max(1);
        let mut all: Vec<Vec<Played>> = Vec::new();
        for (shooter, name) in shooters {
            let played: Vec<Played> = std::thread::scope(|s| {
                let handles: Vec<_> = ids
                    .chunks(chunk)
                    .map(|part| {
                        let r = &r;
                        s.spawn(move || {
                            part.iter()
                                .map(|&g| play_arsenal(r, shooter, g))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .flat_map(|h| h.join().expect("a bench thread"))
                    .collect()
            });
            let turns: Vec<f64> = played.iter().map(|p| f64::from(p.turns)).collect();
            let cells: Vec<f64> = played.iter().map(|p| f64::from(p.cells)).collect();
            let weapons = played.iter().map(|p| f64::from(p.weapons)).sum::<f64>() / games as f64;
            let mut times: Vec<f64> = played.iter().flat_map(|p| p.times.clone()).collect();
            times.sort_by(f64::total_cmp);
            let (t, th) = mean_ci(&turns);
            let (c, ch) = mean_ci(&cells);
            println!(
                "{seed:<5} {name:<12} {t:>6.2} ({:.2}–{:.2})   {c:>6.2} ({:.2}–{:.2})   {weapons:>6.2}  {:>11.3}  {:>6.3}",
                t - th,
                t + th,
                c - ch,
                c + ch,
                times.iter().sum::<f64>() / times.len() as f64,
                percentile(&times, 0.99),
            );
            all.push(played);
        }
        let diff = |i: usize, j: usize| {
            let d: Vec<f64> = all[i]
                .iter()
                .zip(&all[j])
                .map(|(x, y)| f64::from(x.turns) - f64::from(y.turns))
                .collect();
            mean_ci(&d)
        };
        let (ab, abh) = diff(0, 1);
        let (cb, cbh) = diff(2, 1);
        println!(
            "{seed:<5} paired turns: (a)−(b) {ab:+.2} ({:+.2} to {:+.2}), (c)−(b) {cb:+.2} ({:+.2} to {:+.2})",
            ab - abh,
            ab + abh,
            cb - cbh,
            cb + cbh
        );
        let mean = |k: usize| all[k].iter().map(|p| f64::from(p.turns)).sum::<f64>() / games as f64;
        over.push([mean(0), mean(1), mean(2), ab, cb]);
    }
    if seeds.len() > 1 {
        let n = over.len() as f64;
        let m: Vec<f64> = (0..5)
            .map(|k| over.iter().map(|o| o[k]).sum::<f64>() / n)
            .collect();
        println!(
            "mean over {} seeds: turns (a) {:.2}, (b) {:.2}, (c) {:.2}; (a)−(b) {:+.2}, (c)−(b) {:+.2}",
            seeds.len(),
            m[0],
            m[1],
            m[2],
            m[3],
            m[4]
        );
    }
}
