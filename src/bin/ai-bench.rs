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

use engine::ai::{
    choose_action_within, choose_give_up, choose_shot_within, hard_fleet, Budget, Level,
};
use engine::{
    headings_from, perelman_fleet, random_fleet, run_cells, square, Action, Coord, Event, Fleet,
    Game, Habits, Oracle, PlayerId, Ruleset, RulesetError, SeatId, View, Weapon,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use rand::SeedableRng;
use std::sync::Arc;
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
    play_against(r, level, &Budget::default(), seed, |rng| {
        generator.fleet(r, rng).unwrap()
    })
}

/// As [`play`], against the fleet `theirs` draws, with the shooter thinking within `budget`.
fn play_against(
    r: &Ruleset,
    level: Level,
    budget: &Budget,
    seed: u64,
    theirs: impl FnOnce(&mut StdRng) -> Fleet,
) -> (u32, Vec<f64>) {
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
fn learning(r: &Ruleset, name: &str, games: u64, seed: u64, threads: u64) {
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

/// One row of a paired table: `label`, the games, hard's and learning's mean shots, the mean
/// shots saved (hard − learning) with its 95 % interval, and learning's p99 ms a move.
fn paired_row(label: &str, pairs: &[(f64, f64)], mut times: Vec<f64>) -> String {
    let n = pairs.len() as f64;
    let hard = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let learn = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let diffs: Vec<f64> = pairs.iter().map(|p| p.0 - p.1).collect();
    let (mean, half) = mean_ci(&diffs);
    times.sort_by(f64::total_cmp);
    format!(
        "{label} {n:>6}  {hard:>5.2}  {learn:>8.2}  {mean:>+6.2} ({:+.2} to {:+.2})  {:>22.3}",
        mean - half,
        mean + half,
        percentile(&times, 0.99),
    )
}

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
fn play_arsenal(r: &Ruleset, shooter: Shooter, seed: u64) -> Played {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(r.clone());
    for p in [1, 2] {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    let mine = random_fleet(r, &mut rng).unwrap();
    let theirs = random_fleet(r, &mut rng).unwrap();
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

/// Mean and the half-width of its 95 % interval.
fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    (mean, 1.96 * sd / n.sqrt())
}

/// The arsenal benchmark: classic fleet, arsenal 1, uniform layouts; for each seed, three
/// shooters on the same boards and seeds — (a) hard without the arsenal, (b) hard with it
/// (`choose_action_within`), (c) hard firing its weapons at random moments and places — their
/// turns and cells shot (mean, 95 % interval), the paired differences (a)−(b) and (c)−(b), and
/// ms a decision. With several seeds, the means over them last.
fn arsenal(games: u64, seeds: &[u64], threads: u64) {
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

/// One kind of habit a simulated player may have; each player draws a kind (or two) and its
/// parameters at random. Layouts are uniform random ones ([`random_fleet`]), the best of a
/// number that grows with the habit's strength by the habit's score, so they are legal and
/// fresh every game. None is drawn from the learning level's model.
#[derive(Clone, Copy, Debug)]
enum Habit {
    /// Multi-cell ships' cells on the outer ring of the field.
    Border,
    /// All ships near a corner (Chebyshev distance).
    Corner(u8, u8),
    /// Ship cells in one half (0 left, 1 right, 2 top, 3 bottom).
    HalfField(u8),
    /// Ships packed together: the smallest bounding box.
    Cluster,
    /// Ships spread out: the largest sum of distances between ships' first cells.
    Spread,
    /// Single-cell ships near the middle.
    SinglesMiddle,
    /// Multi-cell ships vertical.
    Vertical,
}

impl Habit {
    /// The habit's name in the bench's table (`--by-habit`).
    fn name(self) -> &'static str {
        match self {
            Habit::Border => "border",
            Habit::Corner(..) => "corner",
            Habit::HalfField(_) => "half",
            Habit::Cluster => "cluster",
            Habit::Spread => "spread",
            Habit::SinglesMiddle => "singles",
            Habit::Vertical => "vertical",
        }
    }

    fn random(rng: &mut StdRng, r: &Ruleset) -> Habit {
        let (w, h) = (r.size().width - 1, r.size().height - 1);
        match rng.gen_range(0..7) {
            0 => Habit::Border,
            1 => Habit::Corner(
                if rng.gen_bool(0.5) { 0 } else { w },
                if rng.gen_bool(0.5) { 0 } else { h },
            ),
            2 => Habit::HalfField(rng.gen_range(0..4)),
            3 => Habit::Cluster,
            4 => Habit::Spread,
            5 => Habit::SinglesMiddle,
            _ => Habit::Vertical,
        }
    }

    /// The habit's score of a layout given as its ships' cells, each ship's in row-major
    /// order (higher: more habitual), roughly in cells.
    fn score(self, ships: &[Vec<Coord>], r: &Ruleset) -> f64 {
        let size = r.size();
        let (w, h) = (size.width, size.height);
        let big = || ships.iter().filter(|s| s.len() > 1);
        let cells = || ships.iter().flatten();
        match self {
            Habit::Border => big()
                .flatten()
                .filter(|c| c.x == 0 || c.y == 0 || c.x + 1 == w || c.y + 1 == h)
                .count() as f64,
            Habit::Corner(cx, cy) => {
                -cells()
                    .map(|c| f64::from(c.x.abs_diff(cx).max(c.y.abs_diff(cy))))
                    .sum::<f64>()
                    / 4.0
            }
            Habit::HalfField(k) => cells()
                .filter(|c| match k {
                    0 => 2 * c.x < w,
                    1 => 2 * c.x >= w,
                    2 => 2 * c.y < h,
                    _ => 2 * c.y >= h,
                })
                .count() as f64,
            Habit::Cluster => {
                let xs: Vec<u8> = cells().map(|c| c.x).collect();
                let ys: Vec<u8> = cells().map(|c| c.y).collect();
                let (x0, x1) = (
                    *xs.iter().min().unwrap_or(&0),
                    *xs.iter().max().unwrap_or(&0),
                );
                let (y0, y1) = (
                    *ys.iter().min().unwrap_or(&0),
                    *ys.iter().max().unwrap_or(&0),
                );
                -f64::from((x1 - x0 + 1) as u16 * (y1 - y0 + 1) as u16) / 5.0
            }
            Habit::Spread => {
                let heads: Vec<_> = ships.iter().map(|s| s[0]).collect();
                let mut d = 0.0;
                for (i, a) in heads.iter().enumerate() {
                    for b in &heads[i + 1..] {
                        d += f64::from(a.x.abs_diff(b.x) + a.y.abs_diff(b.y));
                    }
                }
                d / 20.0
            }
            Habit::SinglesMiddle => -ships
                .iter()
                .filter(|s| s.len() == 1)
                .map(|s| {
                    let c = s[0];
                    (f64::from(c.x) - f64::from(w - 1) / 2.0).abs()
                        + (f64::from(c.y) - f64::from(h - 1) / 2.0).abs()
                })
                .sum::<f64>(),
            Habit::Vertical => big().filter(|s| s.iter().all(|c| c.x == s[0].x)).count() as f64,
        }
    }
}

/// A simulated habitual placer: one or two habits, and how hard each is followed (the layouts
/// compared for each one drawn).
struct Placer {
    habits: Vec<Habit>,
    /// Random layouts compared per layout drawn (1: no habit at all).
    choices: usize,
    /// The same few layouts over and over, for exact repeaters.
    favourites: Vec<Fleet>,
}

impl Placer {
    fn habitual(r: &Ruleset, rng: &mut StdRng) -> Placer {
        let mut habits = vec![Habit::random(rng, r)];
        if rng.gen_bool(0.3) {
            habits.push(Habit::random(rng, r));
        }
        Placer {
            habits,
            choices: rng.gen_range(2..=40),
            favourites: Vec::new(),
        }
    }

    fn fleet(&self, r: &Ruleset, rng: &mut StdRng) -> Fleet {
        if !self.favourites.is_empty() {
            return self.favourites.choose(rng).expect("favourites").clone();
        }
        (0..self.choices.max(1))
            .map(|_| random_fleet(r, rng).unwrap())
            .map(|f| (self.score(&ships_of(&f, r), r), f))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a layout")
            .1
    }
}

impl Placer {
    /// The layout's score by all the placer's habits.
    fn score(&self, ships: &[Vec<Coord>], r: &Ruleset) -> f64 {
        self.habits.iter().map(|h| h.score(ships, r)).sum()
    }

    /// The placer's true law, for the learning level's ceiling (`--oracle`): a layout's
    /// chance under it against a uniform one's. The placer keeps the best of `choices`
    /// uniform layouts by its score S, so a layout of score s has the weight
    /// (F(s)^k − F(s⁻)^k) / P(S = s), with F the uniform layouts' distribution of S,
    /// estimated from `draws` of them (k·F^(k−1) for a score never drawn).
    fn law(&self, r: &Ruleset, draws: usize, rng: &mut StdRng) -> Oracle {
        let mut scores: Vec<f64> = (0..draws)
            .map(|_| self.score(&ships_of(&random_fleet(r, rng).unwrap(), r), r))
            .collect();
        scores.sort_by(f64::total_cmp);
        let k = self.choices.max(1) as i32;
        let n = scores.len() as f64;
        let (habits, ruleset) = (self.habits.clone(), r.clone());
        Oracle(Arc::new(move |cells: &[usize]| {
            let ships = ships_of_cells(cells, &ruleset);
            let s: f64 = habits.iter().map(|h| h.score(&ships, &ruleset)).sum();
            let below = scores.partition_point(|&x| x < s) as f64 / n;
            let upto = scores.partition_point(|&x| x <= s) as f64 / n;
            if upto > below {
                (upto.powi(k) - below.powi(k)) / (upto - below)
            } else {
                f64::from(k) * below.powi(k - 1)
            }
        }))
    }
}

/// `fleet`'s ships' cells, each ship's in row-major order.
fn ships_of(fleet: &Fleet, r: &Ruleset) -> Vec<Vec<Coord>> {
    let size = r.size();
    fleet
        .ships()
        .iter()
        .map(|s| {
            let mut cells = s.cells.clone();
            cells.sort_by_key(|&c| size.index(c));
            cells
        })
        .collect()
}

/// The ships of a layout given as its ship cells' indices: the cells joined side to side (the
/// classic rules keep ships apart), each ship's in row-major order.
fn ships_of_cells(cells: &[usize], r: &Ruleset) -> Vec<Vec<Coord>> {
    let size = r.size();
    let mut left: std::collections::BTreeSet<usize> = cells.iter().copied().collect();
    let mut ships = Vec::new();
    while let Some(first) = left.pop_first() {
        let mut ship = vec![first];
        let mut k = 0;
        while k < ship.len() {
            for side in size.coord(ship[k]).sides(size) {
                let i = size.index(side);
                if left.remove(&i) {
                    ship.push(i);
                }
            }
            k += 1;
        }
        ship.sort_unstable();
        ships.push(ship.into_iter().map(|i| size.coord(i)).collect());
    }
    ships
}

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
fn habits_bench(r: &Ruleset, name: &str, games: u64, seed: u64, threads: u64) {
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
