//! The scenario-file runner: a board, shots and the answers they must get.
//!
//! A scenario file (`tests/scenarios/*.txt`) reads:
//!
//! ```text
//! # rule: docs/rules.md §2 — a hit shoots again, a sink marks the halo
//! alphabet: russian          the alphabet cells are typed in (an `Alphabet` id)
//! touching: corners          optional options: touching, shapes, salvo, mines and
//! field: custom 6x6 3 2 1    field (classic | big | land-sea-air | custom WxH sizes…)
//!
//! target:                    the field shot at (seat 1), a picture as in `common`
//! ####.#.#.#
//! …
//! shooter:                   optional: the shooter's own field (seat 0); else a random fleet
//! …
//! shots:
//! в6 miss                    a shot and its answer: miss | hit | sunk KIND | mine | refused
//! а4 sunk 4                  KIND is a ship's size or a unit (tank, battery, …)
//! salvo а1 б1 в1 hits 2 sunk 2   a salvo: hits N [mines N] [sunk KIND…], or `refused`
//! give-up а1 hit             after a mine: the shooter gives up an own cell
//! mark б2 halo               what the shooter sees on the target's field at a cell
//! own а1 hit                 what the shooter sees on its own field at a cell
//! winner shooter             the game is over and the shooter (or target) won
//! radar в6 count 2           the arsenal (`arsenal: 1`): a radar and its count, or `refused`
//! air-strike в6 hit miss sunk-3   an air strike: the answers of its new cells in reading
//!                            order (miss | hit | mine | sunk-KIND), or `refused`
//! torpedo а7 east passed 6 mine   a torpedo (its heading, or `-` for the only one): how
//!                            many cells it crossed, and where it stopped (hit | sunk-KIND |
//!                            mine | out), or `refused`
//! ```
//!
//! Keys come before the pictures; outside a picture, lines starting with `#` are comments, and
//! one of them must be the `# rule:` line. The shooter always moves first;
//! when an answer passes the turn, the runner checks that it did, and before the shooter's next
//! shot the target answers with a miss on open water. A refused action must leave the game
//! exactly as it was. Each file stops at its first mismatch, reported as `file:line: …`.

use super::{draft_from_picture, duel_where_first};
use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;
use std::path::Path;

const SHOOTER: SeatId = SeatId(0);
const TARGET: SeatId = SeatId(1);

/// What a shot (or a given-up cell) is expected to answer.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Answer {
    Result(ShotResult),
    Refused,
}

/// What a salvo is expected to report.
#[derive(Clone, Debug, PartialEq)]
enum SalvoAnswer {
    Report {
        hits: u8,
        mines: u8,
        sunk: Vec<Kind>,
    },
    Refused,
}

/// Which weapon a step uses, and where.
#[derive(Clone, Debug)]
enum Weapon {
    Radar(Coord),
    AirStrike(Coord),
    Torpedo(Coord, Option<Heading>),
}

/// What a weapon is expected to answer.
#[derive(Clone, Debug, PartialEq)]
enum WeaponAnswer {
    /// A radar's count.
    Count(u8),
    /// An air strike's answers, cell by cell.
    Cells(Vec<ShotResult>),
    /// A torpedo's crossed cells and where it stopped (`None`: it left the field).
    Run(usize, Option<ShotResult>),
    Refused,
}

#[derive(Clone, Debug)]
enum Step {
    Weapon(Weapon, WeaponAnswer),
    Shot(Coord, Answer),
    Salvo(Vec<Coord>, SalvoAnswer),
    GiveUp(Coord, Answer),
    Mark(Coord, Mark),
    Own(Coord, Mark),
    Winner(SeatId),
}

struct Scenario {
    ruleset: Ruleset,
    /// The picture and the line of its header.
    target: (String, usize),
    shooter: Option<(String, usize)>,
    steps: Vec<(usize, Step)>,
}

/// A failure message naming the line (1-based) of the file.
type Failure = (usize, String);

fn kind(text: &str) -> Result<Kind, String> {
    if let Ok(n) = text.parse::<u8>() {
        return Kind::try_from(n);
    }
    [
        Kind::Tank,
        Kind::Battery,
        Kind::AntiAircraft,
        Kind::AttackAircraft,
    ]
    .into_iter()
    .find(|k| k.to_string() == text)
    .ok_or_else(|| format!("no kind {text:?}"))
}

fn mark(text: &str) -> Result<Mark, String> {
    Ok(match text {
        "unknown" => Mark::Unknown,
        "shot" => Mark::Shot,
        "miss" => Mark::Miss,
        "halo" => Mark::Halo,
        "hit" => Mark::Hit,
        "sunk" => Mark::Sunk,
        "mine" => Mark::Mine,
        "ship" => Mark::Ship,
        "idle-mine" => Mark::IdleMine,
        _ => return Err(format!("no mark {text:?}")),
    })
}

fn answer(words: &[&str]) -> Result<Answer, String> {
    Ok(match words {
        ["miss"] => Answer::Result(ShotResult::Miss),
        ["hit"] => Answer::Result(ShotResult::Hit),
        ["mine"] => Answer::Result(ShotResult::Mine),
        ["sunk", k] => Answer::Result(ShotResult::Sunk(kind(k)?)),
        ["refused"] => Answer::Refused,
        _ => return Err(format!("expected an answer, got {words:?}")),
    })
}

/// One answer word of a weapon: miss | hit | mine | sunk-KIND.
fn result_word(word: &str) -> Result<ShotResult, String> {
    Ok(match word {
        "miss" => ShotResult::Miss,
        "hit" => ShotResult::Hit,
        "mine" => ShotResult::Mine,
        w => match w.strip_prefix("sunk-") {
            Some(k) => ShotResult::Sunk(kind(k)?),
            None => return Err(format!("expected miss, hit, mine or sunk-KIND, got {w:?}")),
        },
    })
}

fn heading(word: &str) -> Result<Option<Heading>, String> {
    Ok(Some(match word {
        "-" => return Ok(None),
        "east" => Heading::East,
        "west" => Heading::West,
        "south" => Heading::South,
        "north" => Heading::North,
        w => return Err(format!("no heading {w:?}")),
    }))
}

fn weapon_answer(weapon: &Weapon, words: &[&str]) -> Result<WeaponAnswer, String> {
    if words == ["refused"] {
        return Ok(WeaponAnswer::Refused);
    }
    Ok(match (weapon, words) {
        (Weapon::Radar(_), ["count", n]) => {
            WeaponAnswer::Count(n.parse().map_err(|e| format!("{e}"))?)
        }
        (Weapon::AirStrike(_), answers) if !answers.is_empty() => WeaponAnswer::Cells(
            answers
                .iter()
                .map(|w| result_word(w))
                .collect::<Result<_, _>>()?,
        ),
        (Weapon::Torpedo(..), ["passed", n, end]) => WeaponAnswer::Run(
            n.parse().map_err(|e| format!("{e}"))?,
            match *end {
                "out" => None,
                w => Some(result_word(w)?),
            },
        ),
        _ => return Err(format!("expected the weapon's answer, got {words:?}")),
    })
}

fn salvo_answer(words: &[&str]) -> Result<SalvoAnswer, String> {
    if words == ["refused"] {
        return Ok(SalvoAnswer::Refused);
    }
    let number = |w: Option<&&str>| -> Result<u8, String> {
        w.and_then(|w| w.parse().ok())
            .ok_or_else(|| format!("expected a number in {words:?}"))
    };
    let (mut hits, mut mines, mut sunk) = (None, 0, Vec::new());
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "hits" => {
                hits = Some(number(words.get(i + 1))?);
                i += 2;
            }
            "mines" => {
                mines = number(words.get(i + 1))?;
                i += 2;
            }
            "sunk" => {
                for k in &words[i + 1..] {
                    sunk.push(kind(k)?);
                }
                i = words.len();
            }
            w => return Err(format!("unexpected {w:?} in a salvo's report")),
        }
    }
    let hits = hits.ok_or("a salvo's report needs `hits N` or `refused`")?;
    Ok(SalvoAnswer::Report { hits, mines, sunk })
}

fn field(value: &str) -> Result<Field, String> {
    let words: Vec<&str> = value.split_whitespace().collect();
    Ok(match words.as_slice() {
        ["classic"] => Field::Classic,
        ["big"] => Field::Big,
        ["land-sea-air"] => Field::LandSeaAir,
        ["custom", size, ships @ ..] => {
            let (w, h) = size.split_once('x').ok_or("custom needs WxH")?;
            let side = |s: &str| s.parse::<u8>().map_err(|e| e.to_string());
            let ships = ships.iter().map(|s| side(s)).collect::<Result<_, _>>()?;
            Field::Custom {
                size: Size::new(side(w)?, side(h)?),
                ships,
            }
        }
        _ => return Err(format!("no field {value:?}")),
    })
}

/// Reads a serde name of an option, e.g. `corners` for [`Touching::Corners`].
fn option<T: serde::de::DeserializeOwned>(value: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(value.to_owned())).map_err(|e| e.to_string())
}

fn parse(text: &str) -> Result<Scenario, Failure> {
    let mut ruleset = Ruleset {
        timer: TurnTimer::Off,
        ..Ruleset::default()
    };
    let mut alphabet = None;
    let mut rule = false;
    let (mut target, mut shooter) = (None::<(String, usize)>, None::<(String, usize)>);
    let mut section = ("", 0);
    let mut shot_lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if matches!(line, "target:" | "shooter:" | "shots:") {
            section = (line, n);
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let picture = match section.0 {
            "target:" => Some(&mut target),
            "shooter:" => Some(&mut shooter),
            _ => None,
        };
        if let Some(picture) = picture {
            let (p, _) = picture.get_or_insert_with(|| (String::new(), section.1));
            p.push_str(line);
            p.push('\n');
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            rule |= comment.trim_start().starts_with("rule:");
            continue;
        }
        if section.0 == "shots:" {
            shot_lines.push((n, line));
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or((n, format!("expected `key: value`, got {line:?}")))?;
        let value = value.trim();
        let set = match key.trim() {
            "alphabet" => value
                .parse()
                .map(|a| alphabet = Some(a))
                .map_err(|e| format!("{e}")),
            "touching" => option(value).map(|t| ruleset.touching = t),
            "shapes" => option(value).map(|s| ruleset.shapes = s),
            "field" => field(value).map(|f| ruleset.field = f),
            "salvo" => value
                .parse()
                .map(|s| ruleset.salvo = Some(s))
                .map_err(|e| format!("{e}")),
            "mines" => value
                .parse()
                .map(|m| ruleset.mines = m)
                .map_err(|e| format!("{e}")),
            "arsenal" => value
                .parse()
                .map(|a| ruleset.arsenal = a)
                .map_err(|e| format!("{e}")),
            other => Err(format!("unknown key {other:?}")),
        };
        set.map_err(|e| (n, e))?;
    }
    if !rule {
        return Err((1, "no `# rule:` line".into()));
    }
    let alphabet: Alphabet = alphabet.ok_or((1, "no `alphabet:` line".to_string()))?;
    let target = target.ok_or((1, "no `target:` picture".to_string()))?;
    if let Err(e) = ruleset.check() {
        return Err((1, format!("the ruleset is refused: {e}")));
    }
    let size = ruleset.size();
    let cell = |n: usize, t: &str| {
        parse_cell(t, alphabet, size).map_err(|e| (n, format!("{t:?} is not a cell: {e:?}")))
    };
    let mut steps = Vec::new();
    for (n, line) in shot_lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let step = match words.as_slice() {
            ["salvo", rest @ ..] => {
                let split = rest
                    .iter()
                    .position(|w| matches!(*w, "hits" | "refused"))
                    .ok_or((n, "a salvo needs `hits N` or `refused`".to_string()))?;
                let cells = rest[..split]
                    .iter()
                    .map(|t| cell(n, t))
                    .collect::<Result<_, _>>()?;
                Step::Salvo(cells, salvo_answer(&rest[split..]).map_err(|e| (n, e))?)
            }
            ["radar", c, rest @ ..] => {
                let w = Weapon::Radar(cell(n, c)?);
                let a = weapon_answer(&w, rest).map_err(|e| (n, e))?;
                Step::Weapon(w, a)
            }
            ["air-strike", c, rest @ ..] => {
                let w = Weapon::AirStrike(cell(n, c)?);
                let a = weapon_answer(&w, rest).map_err(|e| (n, e))?;
                Step::Weapon(w, a)
            }
            ["torpedo", c, h, rest @ ..] => {
                let w = Weapon::Torpedo(cell(n, c)?, heading(h).map_err(|e| (n, e))?);
                let a = weapon_answer(&w, rest).map_err(|e| (n, e))?;
                Step::Weapon(w, a)
            }
            ["give-up", c, rest @ ..] => {
                Step::GiveUp(cell(n, c)?, answer(rest).map_err(|e| (n, e))?)
            }
            ["mark", c, m] => Step::Mark(cell(n, c)?, mark(m).map_err(|e| (n, e))?),
            ["own", c, m] => Step::Own(cell(n, c)?, mark(m).map_err(|e| (n, e))?),
            ["winner", "shooter"] => Step::Winner(SHOOTER),
            ["winner", "target"] => Step::Winner(TARGET),
            [c, rest @ ..] => Step::Shot(cell(n, c)?, answer(rest).map_err(|e| (n, e))?),
            [] => continue,
        };
        steps.push((n, step));
    }
    Ok(Scenario {
        ruleset,
        target,
        shooter,
        steps,
    })
}

/// Open water of `seat`'s field that was not shot at: where a returned shot misses.
fn open_water(game: &Game, seat: SeatId) -> Vec<Coord> {
    let fleet = game.fleet(seat).expect("a locked fleet");
    game.ruleset()
        .size()
        .cells()
        .filter(|&c| fleet.ship_at(c).is_none() && !fleet.is_mine(c) && !game.is_known(seat, c))
        .collect()
}

/// The target misses on purpose, so the shooter gets the turn back.
fn return_fire(game: &mut Game, rng: &mut StdRng, now: u64) -> Result<(), String> {
    let water = open_water(game, SHOOTER);
    let action = match game.ruleset().salvo {
        Some(n) => {
            let unknown = game
                .ruleset()
                .size()
                .cells()
                .filter(|&c| !game.is_known(SHOOTER, c))
                .count();
            let n = usize::from(n).min(unknown);
            if water.len() < n {
                return Err("the shooter's field has too little open water".into());
            }
            Action::Salvo(TARGET, SHOOTER, water[..n].to_vec())
        }
        None => Action::Fire(TARGET, SHOOTER, *water.first().ok_or("no open water")?),
    };
    game.apply(action, now, rng)
        .map_err(|e| format!("the target's returned shot was refused: {e:?}"))?;
    if game.turn() != SHOOTER {
        return Err(format!(
            "after the target's miss the turn is {:?}",
            game.turn()
        ));
    }
    Ok(())
}

/// Checks whose move it is after an answer: the same shooter after a hit or sink, the target
/// after a miss or a finished give-up, the shooter's give-up after a mine.
fn check_turn(game: &Game, result: ShotResult, after_give_up: bool) -> Result<(), String> {
    if game.is_finished() {
        return Ok(());
    }
    let choice = game.mine_choice().map(|m| m.seat);
    let (turn, pending) = (game.turn(), choice == Some(SHOOTER));
    match result {
        ShotResult::Mine if pending => Ok(()),
        ShotResult::Mine => Err("a mine did not ask the shooter to give up a cell".into()),
        _ if pending => Ok(()),
        ShotResult::Miss if turn == TARGET => Ok(()),
        ShotResult::Miss => Err("the turn did not pass after a miss".into()),
        _ if after_give_up && turn == TARGET => Ok(()),
        _ if after_give_up => Err("the turn did not pass after the give-up".into()),
        _ if turn == SHOOTER => Ok(()),
        _ => Err(format!("the turn passed to {turn:?} after {result:?}")),
    }
}

fn refused(game: &mut Game, rng: &mut StdRng, action: Action, now: u64) -> Result<(), String> {
    let before = game.clone();
    match game.apply(action, now, rng) {
        Err(_) if *game == before => Ok(()),
        Err(e) => Err(format!("refused ({e:?}) but the game changed")),
        Ok(events) => Err(format!("expected a refusal, got {events:?}")),
    }
}

fn step(game: &mut Game, rng: &mut StdRng, now: u64, step: &Step) -> Result<(), String> {
    let shooting = matches!(step, Step::Shot(..) | Step::Salvo(..) | Step::Weapon(..));
    if shooting && !game.is_finished() && game.mine_choice().is_none() && game.turn() == TARGET {
        return_fire(game, rng, now)?;
    }
    match step {
        Step::Weapon(w, want) => {
            let action = match *w {
                Weapon::Radar(c) => Action::Radar(SHOOTER, TARGET, c),
                Weapon::AirStrike(c) => Action::AirStrike(SHOOTER, TARGET, c),
                Weapon::Torpedo(c, h) => Action::Torpedo(SHOOTER, TARGET, c, h),
            };
            if *want == WeaponAnswer::Refused {
                return refused(game, rng, action, now);
            }
            let events = game
                .apply(action, now, rng)
                .map_err(|e| format!("expected {want:?}, the weapon was refused: {e:?}"))?;
            let got = events.iter().find_map(|e| match e {
                Event::Radar { count, .. } => Some(WeaponAnswer::Count(*count)),
                Event::AirStrike { cells, .. } => {
                    Some(WeaponAnswer::Cells(cells.iter().map(|(_, r)| *r).collect()))
                }
                Event::Torpedo { passed, hit, .. } => {
                    Some(WeaponAnswer::Run(passed.len(), hit.map(|(_, r)| r)))
                }
                _ => None,
            });
            if got.as_ref() != Some(want) {
                return Err(format!("expected {want:?}, got {events:?}"));
            }
            // A weapon is the whole turn; a mine it set off asks for a cell first.
            let mine = match want {
                WeaponAnswer::Cells(rs) => rs.contains(&ShotResult::Mine),
                WeaponAnswer::Run(_, Some(ShotResult::Mine)) => true,
                _ => false,
            };
            check_turn(
                game,
                if mine {
                    ShotResult::Mine
                } else {
                    ShotResult::Miss
                },
                false,
            )
        }
        Step::Shot(c, Answer::Refused) => {
            refused(game, rng, Action::Fire(SHOOTER, TARGET, *c), now)
        }
        Step::GiveUp(c, Answer::Refused) => refused(game, rng, Action::GiveUp(SHOOTER, *c), now),
        Step::Salvo(cs, SalvoAnswer::Refused) => {
            refused(game, rng, Action::Salvo(SHOOTER, TARGET, cs.clone()), now)
        }
        Step::Shot(c, Answer::Result(want)) => {
            let events = game
                .apply(Action::Fire(SHOOTER, TARGET, *c), now, rng)
                .map_err(|e| format!("expected {want:?}, the shot was refused: {e:?}"))?;
            let got = super::shot_result(&events);
            if got != *want {
                return Err(format!("expected {want:?}, got {got:?}"));
            }
            check_turn(game, got, false)
        }
        Step::GiveUp(c, Answer::Result(want)) => {
            let events = game
                .apply(Action::GiveUp(SHOOTER, *c), now, rng)
                .map_err(|e| format!("expected {want:?}, the give-up was refused: {e:?}"))?;
            let got = events.iter().find_map(|e| match e {
                Event::GaveUp { result, .. } => Some(*result),
                _ => None,
            });
            if got != Some(*want) {
                return Err(format!("expected {want:?}, got {events:?}"));
            }
            check_turn(game, *want, true)
        }
        Step::Salvo(cs, SalvoAnswer::Report { hits, mines, sunk }) => {
            let events = game
                .apply(Action::Salvo(SHOOTER, TARGET, cs.clone()), now, rng)
                .map_err(|e| format!("the salvo was refused: {e:?}"))?;
            let report = events.iter().find_map(|e| match e {
                Event::Salvo {
                    hits, mines, sunk, ..
                } => Some((*hits, *mines, sunk.clone())),
                _ => None,
            });
            if report != Some((*hits, *mines, sunk.clone())) {
                return Err(format!(
                    "expected hits {hits} mines {mines} sunk {sunk:?}, got {events:?}"
                ));
            }
            let as_shot = if *mines > 0 {
                ShotResult::Mine
            } else {
                ShotResult::Miss
            };
            check_turn(game, as_shot, false)
        }
        Step::Mark(c, want) | Step::Own(c, want) => {
            let seat = if matches!(step, Step::Mark(..)) {
                TARGET
            } else {
                SHOOTER
            };
            let got = game.view_for(SHOOTER).field(seat).mark(*c);
            if got != *want {
                return Err(format!("expected the mark {want:?}, got {got:?}"));
            }
            Ok(())
        }
        Step::Winner(seat) => match game.phase() {
            Phase::Finished { winners, .. } if winners == &vec![*seat] => Ok(()),
            other => Err(format!(
                "expected {seat:?} to have won, the game is {other:?}"
            )),
        },
    }
}

/// Plays the scenario `text` (named `name` in messages); the mismatches, as `name:line: …`.
pub fn run_text(name: &str, text: &str) -> Vec<String> {
    let fail = |(line, message): Failure| vec![format!("{name}:{line}: {message}")];
    let scenario = match parse(text) {
        Ok(s) => s,
        Err(f) => return fail(f),
    };
    let ruleset = &scenario.ruleset;
    let build = |(picture, line): &(String, usize), whose: &str| -> Result<Fleet, Failure> {
        let draft = std::panic::catch_unwind(|| draft_from_picture(ruleset, picture))
            .map_err(|_| (*line, format!("the {whose}'s picture cannot be read")))?;
        draft.validate(ruleset).map_err(|r| {
            let problems = r.problems;
            (
                *line,
                format!("the {whose}'s fleet is not legal: {problems:?}"),
            )
        })
    };
    let target = match build(&scenario.target, "target") {
        Ok(f) => f,
        Err(f) => return fail(f),
    };
    let shooter = match scenario.shooter.as_ref().map(|p| build(p, "shooter")) {
        Some(Ok(f)) => f,
        Some(Err(f)) => return fail(f),
        None => random_fleet(ruleset, &mut StdRng::seed_from_u64(7)).expect("a random fleet"),
    };
    let (mut game, mut rng) = duel_where_first(ruleset, shooter, target, SHOOTER);
    for (now, (line, s)) in (1..).zip(&scenario.steps) {
        if let Err(message) = step(&mut game, &mut rng, now, s) {
            return fail((*line, message));
        }
    }
    Vec::new()
}

/// Plays a scenario file; the mismatches, as `path:line: …`.
pub fn run(path: &Path) -> Vec<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => run_text(&path.display().to_string(), &text),
        Err(e) => vec![format!("{}: {e}", path.display())],
    }
}
