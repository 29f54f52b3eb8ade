//! The `--learning` bench: simulated players of four placing styles, one a chat, and the
//! learning level against plain hard on their layouts.

use crate::levels::play_against;
use crate::stats::paired_row;
use engine::ai::{Budget, Level};
use engine::{random_fleet, Fleet, Habits, Ruleset};
use rand::rngs::StdRng;
use rand::Rng;
use rand::SeedableRng;
use std::sync::Arc;

/// How a simulated player places, habitually.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Exactly uniform layouts ([`random_fleet`]).
    Uniform,
    /// Ships along two favourite sides of the field: of 40 random layouts, the one with the
    /// most ship cells on those sides.
    Edges,
    /// Multi-cell ships packed near a favourite corner: of 40 random layouts, the one whose
    /// multi-cell ships stand nearest to it.
    Corner,
    /// Two favourite layouts, the first seven times in ten.
    Repeater,
}

impl Style {
    const ALL: [Style; 4] = [Style::Uniform, Style::Edges, Style::Corner, Style::Repeater];

    fn name(self) -> &'static str {
        match self {
            Style::Uniform => "uniform",
            Style::Edges => "edges",
            Style::Corner => "corner",
            Style::Repeater => "repeater",
        }
    }
}

/// One simulated player: a style and its personal favourites.
struct Person {
    style: Style,
    /// Favourite sides (left, top, right, bottom) or corner (the first two entries).
    sides: [bool; 4],
    favourites: Vec<Fleet>,
}

impl Person {
    fn new(style: Style, r: &Ruleset, rng: &mut StdRng) -> Person {
        let mut sides = [false; 4];
        let first = rng.gen_range(0..4);
        sides[first] = true;
        sides[(first + rng.gen_range(1..4)) % 4] = true;
        let favourites = if style == Style::Repeater {
            (0..2).map(|_| random_fleet(r, rng).unwrap()).collect()
        } else {
            Vec::new()
        };
        Person {
            style,
            sides,
            favourites,
        }
    }

    fn fleet(&self, r: &Ruleset, rng: &mut StdRng) -> Fleet {
        let size = r.size();
        let (w, h) = (size.width - 1, size.height - 1);
        let best_of = |rng: &mut StdRng, score: &dyn Fn(&Fleet) -> i64| {
            (0..40)
                .map(|_| random_fleet(r, rng).unwrap())
                .max_by_key(score)
                .unwrap()
        };
        match self.style {
            Style::Uniform => random_fleet(r, rng).unwrap(),
            Style::Edges => best_of(rng, &|f: &Fleet| {
                f.ship_cells()
                    .filter(|c| {
                        (self.sides[0] && c.x == 0)
                            || (self.sides[1] && c.y == 0)
                            || (self.sides[2] && c.x == w)
                            || (self.sides[3] && c.y == h)
                    })
                    .count() as i64
            }),
            Style::Corner => {
                let (cx, cy) = (
                    if self.sides[0] { 0 } else { w },
                    if self.sides[1] { 0 } else { h },
                );
                best_of(rng, &|f: &Fleet| {
                    -f.ships()
                        .iter()
                        .filter(|s| s.cells.len() > 1)
                        .flat_map(|s| s.cells.iter())
                        .map(|c| i64::from(c.x.abs_diff(cx).max(c.y.abs_diff(cy))))
                        .sum::<i64>()
                })
            }
            Style::Repeater => {
                let k = usize::from(!rng.gen_bool(0.7));
                self.favourites[k].clone()
            }
        }
    }
}

/// Observed games before the learning level plays.
const OBSERVED: usize = 200;
/// Chats (players) of each style.
const CHATS: u64 = 10;

/// The learning level against plain hard: for each style, [`CHATS`] chats each with one player
/// of it; the bot sees [`OBSERVED`] of the player's layouts revealed, then both levels shoot at
/// the same next layouts (`games` in all, over the chats). Prints each level's mean shots and
/// the paired difference (hard minus learning) with its 95 % interval.
pub(crate) fn learning(r: &Ruleset, name: &str, games: u64, seed: u64, threads: u64) {
    println!(
        "Learning against hard, {name}, {CHATS} chats a style, {OBSERVED} layouts seen each, \
         {games} games a style, seed {seed}"
    );
    println!("style      games  hard   learning  hard − learning (95% CI)  learning ms/move p99");
    let per_chat = games.div_ceil(CHATS);
    for style in Style::ALL {
        let chats: Vec<u64> = (0..CHATS).collect();
        let chunk = chats.len().div_ceil(threads.max(1) as usize).max(1);
        let results: Vec<(f64, f64, Vec<f64>)> = std::thread::scope(|s| {
            let handles: Vec<_> = chats
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        let mut out = Vec::new();
                        for &chat in part {
                            let base = seed
                                .wrapping_mul(1_000_003)
                                .wrapping_add(chat * 7919 + style as u64 * 104_729);
                            let mut rng = StdRng::seed_from_u64(base);
                            let person = Person::new(style, r, &mut rng);
                            let mut habits = Habits::new();
                            for _ in 0..OBSERVED {
                                habits.observe(&person.fleet(r, &mut rng), r.size(), 1.0);
                            }
                            let learned = Budget::default().learning(Arc::new(habits));
                            for g in 0..per_chat {
                                let game_seed = base.wrapping_add(1 + g);
                                let layout = person.fleet(r, &mut rng);
                                let (hard, _) = play_against(
                                    r,
                                    Level::Hard,
                                    &Budget::default(),
                                    game_seed,
                                    |_| layout.clone(),
                                );
                                let (learn, times) =
                                    play_against(r, Level::Learning, &learned, game_seed, |_| {
                                        layout.clone()
                                    });
                                out.push((f64::from(hard), f64::from(learn), times));
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
        let pairs: Vec<(f64, f64)> = results.iter().map(|r| (r.0, r.1)).collect();
        let times: Vec<f64> = results.into_iter().flat_map(|r| r.2).collect();
        println!(
            "{}",
            paired_row(&format!("{:<9}", style.name()), &pairs, times)
        );
    }
}
