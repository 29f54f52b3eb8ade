//! The `--habits` bench: the learning level against plain hard on a population of simulated
//! placers, after 0, 20, 50 and 200 of each one's layouts seen.

use crate::levels::play_against;
use crate::placers::Placer;
use crate::stats::paired_row;
use crate::{arg, number};
use engine::ai::{Budget, Level};
use engine::{random_fleet, Fleet, Habits, Ruleset};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::Arc;

/// Blocks of the habits bench: layouts of the player seen before the learning level shoots.
const SEEN: [usize; 4] = [0, 20, 50, 200];
/// The learning level's budget with `habits`, drawing `times` the default layouts.
fn knowing(habits: Habits, times: usize) -> Budget {
    Budget {
        samples: engine::ai::SAMPLES * times,
        ..Budget::default().learning(Arc::new(habits))
    }
}

/// Uniform layouts a placer's true law is estimated from (`--oracle`).
const LAW_DRAWS: usize = 20_000;
/// Games each simulated player plays in each block (the same boards in every block).
const GAMES_EACH: u64 = 4;

/// The learning level against plain hard on a population of simulated placers: habitual ones
/// (see [`Habit`]: each player's kind and strength drawn at random), exact repeaters (one of
/// three layouts each game) and uniform ones. For each player, the bot sees its first 0, 20,
/// 50 and 200 layouts, then hard and learning shoot at the same [`GAMES_EACH`] next layouts with
/// the same seeds. Prints for each population and block the games, each level's mean shots, the
/// paired difference (hard − learning, shots saved) with its 95 % interval, and learning's p99
/// ms a move.
///
/// [`Habit`]: crate::placers::Habit
pub(crate) fn habits_bench(r: &Ruleset, name: &str, games: u64, seed: u64, threads: u64) {
    println!(
        "Learning against hard on simulated placers, {name}, {games} games a block ({GAMES_EACH} \
         a player), seed {seed}"
    );
    println!(
        "placers    seen  games  hard   learning  saved (hard − learning, 95% CI)  learning p99 ms"
    );
    let players = games.div_ceil(GAMES_EACH);
    let blocks: Vec<usize> = arg("--seen").map_or(SEEN.to_vec(), |list| {
        list.split(',')
            .filter_map(|n| n.trim().parse().ok())
            .collect()
    });
    let blocks = &blocks;
    let oracle = std::env::args().any(|a| a == "--oracle");
    let law_samples = number("--law-samples", 1) as usize;
    let learn_samples = number("--learn-samples", 1) as usize;
    let by_strength = std::env::args().any(|a| a == "--by-strength");
    let pops: Vec<(&str, u64)> = [("habitual", 0u64), ("repeater", 1), ("uniform", 2)]
        .into_iter()
        .filter(|(k, _)| arg("--placers").is_none_or(|only| only.split(',').any(|o| o == *k)))
        .collect();
    for (kind, pop) in pops {
        let ids: Vec<u64> = (0..players).collect();
        let chunk = ids.len().div_ceil(threads.max(1) as usize).max(1);
        // For each game: hard's shots, then learning's shots and times in each block.
        type Played = (&'static str, f64, Vec<(f64, Vec<f64>)>);
        let results: Vec<Played> = std::thread::scope(|s| {
            let handles: Vec<_> = ids
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut out = Vec::new();
                        for &p in part {
                            let base = seed
                                .wrapping_mul(1_000_003)
                                .wrapping_add(p * 7919 + pop * 104_729 + 17);
                            let mut rng = StdRng::seed_from_u64(base);
                            let placer = match pop {
                                0 => Placer::habitual(r, &mut rng),
                                1 => Placer {
                                    habits: Vec::new(),
                                    choices: 1,
                                    favourites: (0..3)
                                        .map(|_| random_fleet(r, &mut rng).unwrap())
                                        .collect(),
                                },
                                _ => Placer {
                                    habits: Vec::new(),
                                    choices: 1,
                                    favourites: Vec::new(),
                                },
                            };
                            let seen: Vec<Fleet> = (0..blocks.iter().copied().max().unwrap_or(0))
                                .map(|_| placer.fleet(r, &mut rng))
                                .collect();
                            let mut budgets: Vec<Budget> = blocks
                                .iter()
                                .map(|&n| {
                                    let mut h = Habits::new();
                                    for f in &seen[..n] {
                                        h.observe(f, r.size(), 1.0);
                                    }
                                    if std::env::var("HABITS_DEBUG").is_ok() {
                                        eprintln!(
                                            "{kind} {p} {:?} {} seen {n}: {:?}",
                                            placer.habits,
                                            placer.choices,
                                            h.tendencies(r).map(|t| (t.weight, t.big_on_border))
                                        );
                                    }
                                    knowing(h, learn_samples)
                                })
                                .collect();
                            if oracle {
                                let mut side = StdRng::seed_from_u64(base ^ 0x0AC1E);
                                let law = if pop == 1 {
                                    Habits::new()
                                } else {
                                    Habits::oracle(placer.law(r, LAW_DRAWS, &mut side))
                                };
                                budgets.push(knowing(law, law_samples));
                            }
                            for g in 0..GAMES_EACH {
                                let game_seed = base.wrapping_add(1 + g);
                                let layout = placer.fleet(r, &mut rng);
                                let (hard, _) = play_against(
                                    r,
                                    Level::Hard,
                                    &Budget::default(),
                                    game_seed,
                                    |_| layout.clone(),
                                );
                                let blocks = budgets
                                    .iter()
                                    .map(|b| {
                                        let (n, t) =
                                            play_against(r, Level::Learning, b, game_seed, |_| {
                                                layout.clone()
                                            });
                                        (f64::from(n), t)
                                    })
                                    .collect();
                                let label = if by_strength {
                                    match placer.choices {
                                        0..=10 => "best of 2-10",
                                        11..=25 => "best of 11-25",
                                        _ => "best of 26-40",
                                    }
                                } else {
                                    placer.habits.first().map_or(kind, |h| h.name())
                                };
                                out.push((label, f64::from(hard), blocks));
                            }
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a bench thread"))
                .collect()
        });
        let mut groups: Vec<(&str, Vec<&Played>)> = vec![(kind, results.iter().collect())];
        if (by_strength || std::env::args().any(|a| a == "--by-habit")) && pop == 0 {
            let mut names: Vec<&str> = results.iter().map(|r| r.0).collect();
            names.sort_unstable();
            names.dedup();
            for name in names {
                groups.push((name, results.iter().filter(|r| r.0 == name).collect()));
            }
        }
        for (label, results) in groups {
            let names = blocks
                .iter()
                .map(ToString::to_string)
                .chain(oracle.then(|| "law".to_string()));
            for (b, seen) in names.enumerate() {
                let pairs: Vec<(f64, f64)> = results.iter().map(|r| (r.1, r.2[b].0)).collect();
                let times: Vec<f64> = results.iter().flat_map(|r| r.2[b].1.clone()).collect();
                println!(
                    "{}",
                    paired_row(&format!("{label:<9} {seen:>5}"), &pairs, times)
                );
            }
        }
    }
}
