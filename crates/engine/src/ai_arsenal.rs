//! The arsenal (docs/rules.md §3.8) in the bot's hands: when to fire a radar, an air strike
//! or a torpedo instead of a plain shot, and where.
//!
//! A turn ends at a miss or a weapon, so hits are free, misses cost a turn and a weapon costs
//! one. The hard and learning levels weigh each weapon over the layouts sampled for the field
//! `aim` chose (`heat.rs`, where the radar readings already weigh the layouts):
//!
//! - an air strike at the square with the most ship cells expected in its unknown cells;
//! - a torpedo along the line most likely to stop on a ship, counting the cells it clears;
//! - a radar at the square whose count is the least certain (the entropy of its count over
//!   the layouts), or which most likely reads 0 and clears the square.
//!
//! Each is worth its turn when its value beats what a plain shot is expected to find in a turn
//! (`p / (1 − p)` ship cells for the best cell's chance `p`) by a margin that falls as the
//! fleet afloat shrinks, and with four ship cells or fewer afloat the best weapon left is
//! fired anyway (a weapon left at the end is wasted). Never while a ship is wounded:
//! finishing it costs few misses. Easy fires a weapon left at a random moment at a random
//! square or line; normal fires its weapons, while hunting, at the square or line with the
//! most cells the rules leave possible.

use crate::aim::aim;
use crate::budget::Budget;
use crate::coord::Coord;
use crate::event::{Action, SeatId};
use crate::heat::{layouts, Layout};
use crate::hunt::{easy, excluded, normal, open, wounded};
use crate::level::Level;
use crate::view::{FieldView, View};
use crate::weapon::{headings_from, run_cells, square, Heading, Weapon};
use rand::seq::SliceRandom;
use rand::Rng;

/// How much a cell a torpedo clears is worth, in ship cells found.
const CLEAR: f64 = 0.08;
/// How much a bit of a radar's count is worth, in ship cells found.
const BIT: f64 = 0.6;
/// The margin (in ship cells found) a weapon must beat a plain shot by, with the whole fleet
/// afloat; it falls in proportion to the ship cells left.
const MARGIN: f64 = 1.0;
/// Ship cells afloat (expected, unhit) at or below which a weapon left is fired anyway.
const ENDGAME: f64 = 4.0;
/// Easy's chance of firing a weapon it has left, each move.
const EASY_CHANCE: f64 = 0.08;
/// Normal's chance of firing a weapon it has left, each move while hunting.
const NORMAL_CHANCE: f64 = 0.12;

/// The next action for `seat` seeing `view`: a plain shot as [`crate::ai::choose_shot_within`]
/// chooses it, or one of the weapons the seat has left where the level finds it worth the turn.
/// Always legal: a radar or an air strike centred on a square with an unknown cell, a torpedo
/// from an edge cell along a heading it may take, over a run with an unknown cell.
pub(crate) fn choose_action_in(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<Action> {
    // Only the learning level uses what was learned (as in `aim`).
    let budget = if level == Level::Learning {
        budget
    } else {
        Budget {
            habits: None,
            ..budget
        }
    };
    let (field, ranks) = aim(view, seat, level, &budget, &[], rng)?;
    let left = view
        .fields
        .iter()
        .find(|f| f.seat == seat)
        .map_or([0; 3], |f| f.weapons);
    let arsenal = view.ruleset.arsenal > 0 && left.iter().any(|&n| n > 0);
    let hunting = wounded(field).is_empty();
    let weapon = if !arsenal {
        None
    } else {
        match level {
            Level::Easy if rng.gen_bool(EASY_CHANCE) => random_weapon(field, left, rng),
            Level::Easy => None,
            Level::Normal if hunting && rng.gen_bool(NORMAL_CHANCE) => {
                normal_weapon(view, field, left, rng)
            }
            Level::Normal => None,
            Level::Hard | Level::Learning if hunting => {
                hard_weapon(view, field, left, &budget, ranks.as_deref(), rng)
            }
            Level::Hard | Level::Learning => None,
        }
    };
    if let Some(action) = weapon {
        return Some(action.into_action(seat, field.seat));
    }
    let cell = match (level, ranks) {
        (Level::Easy, _) => easy(field, rng),
        (Level::Hard | Level::Learning, Some(r)) if !r.is_empty() => Some(r[0].1),
        _ => normal(view, field, rng),
    }?;
    Some(Action::Fire(seat, field.seat, cell))
}

/// A weapon's use, before the seats are named.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Use {
    /// A radar centred here.
    Radar(Coord),
    /// An air strike centred here.
    AirStrike(Coord),
    /// A torpedo from here, this way.
    Torpedo(Coord, Heading),
}

impl Use {
    fn into_action(self, seat: SeatId, target: SeatId) -> Action {
        match self {
            Use::Radar(c) => Action::Radar(seat, target, c),
            Use::AirStrike(c) => Action::AirStrike(seat, target, c),
            Use::Torpedo(c, h) => Action::Torpedo(seat, target, c, Some(h)),
        }
    }

    fn weapon(self) -> Weapon {
        match self {
            Use::Radar(_) => Weapon::Radar,
            Use::AirStrike(_) => Weapon::AirStrike,
            Use::Torpedo(..) => Weapon::Torpedo,
        }
    }
}

/// The centres whose square has an unknown cell, with those cells.
fn squares(field: &FieldView) -> Vec<(Coord, Vec<usize>)> {
    let size = field.size;
    size.cells()
        .filter_map(|c| {
            let cells: Vec<usize> = square(c, size)
                .into_iter()
                .filter(|&n| open(field.mark(n)))
                .map(|n| size.index(n))
                .collect();
            (!cells.is_empty()).then_some((c, cells))
        })
        .collect()
}

/// Every torpedo's way (an edge cell and a heading it may take) whose run has an unknown
/// cell, with the run's unknown cells in order.
fn lines(field: &FieldView) -> Vec<(Coord, Heading, Vec<usize>)> {
    let size = field.size;
    let mut out = Vec::new();
    for c in size.cells() {
        for h in headings_from(c, size) {
            let cells: Vec<usize> = run_cells(c, h, size)
                .into_iter()
                .filter(|&n| open(field.mark(n)))
                .map(|n| size.index(n))
                .collect();
            if !cells.is_empty() {
                out.push((c, h, cells));
            }
        }
    }
    out
}

/// Every legal use of the weapons left.
fn uses(field: &FieldView, left: [u8; 3]) -> Vec<Use> {
    let mut out = Vec::new();
    let sq = squares(field);
    if left[Weapon::Radar.index()] > 0 {
        out.extend(sq.iter().map(|(c, _)| Use::Radar(*c)));
    }
    if left[Weapon::AirStrike.index()] > 0 {
        out.extend(sq.iter().map(|(c, _)| Use::AirStrike(*c)));
    }
    if left[Weapon::Torpedo.index()] > 0 {
        out.extend(lines(field).into_iter().map(|(c, h, _)| Use::Torpedo(c, h)));
    }
    out
}

/// Easy: any legal use of any weapon left.
fn random_weapon(field: &FieldView, left: [u8; 3], rng: &mut impl Rng) -> Option<Use> {
    let weapons: Vec<Weapon> = Weapon::ALL
        .into_iter()
        .filter(|w| left[w.index()] > 0)
        .collect();
    let weapon = *weapons.choose(rng)?;
    let all: Vec<Use> = uses(field, left)
        .into_iter()
        .filter(|u| u.weapon() == weapon)
        .collect();
    all.choose(rng).copied()
}

/// Normal: a weapon left at the square or line with the most cells the rules leave possible.
fn normal_weapon(view: &View, field: &FieldView, left: [u8; 3], rng: &mut impl Rng) -> Option<Use> {
    let bad = excluded(view, field);
    let possible = |cells: &[usize]| cells.iter().filter(|&&i| !bad[i]).count();
    let weapons: Vec<Weapon> = Weapon::ALL
        .into_iter()
        .filter(|w| left[w.index()] > 0)
        .collect();
    let weapon = *weapons.choose(rng)?;
    let mut best: Vec<(usize, Use)> = match weapon {
        Weapon::Radar | Weapon::AirStrike => squares(field)
            .into_iter()
            .map(|(c, cells)| {
                let u = if weapon == Weapon::Radar {
                    Use::Radar(c)
                } else {
                    Use::AirStrike(c)
                };
                (possible(&cells), u)
            })
            .collect(),
        Weapon::Torpedo => lines(field)
            .into_iter()
            .map(|(c, h, cells)| (possible(&cells), Use::Torpedo(c, h)))
            .collect(),
    };
    let top = best.iter().map(|b| b.0).max()?;
    best.retain(|b| b.0 == top);
    best.choose(rng).map(|b| b.1)
}

/// What each candidate use of a weapon is worth, in ship cells found, over the layouts.
struct Valued {
    value: f64,
    tie: u32,
    action: Use,
}

/// Hard and learning: the weapon whose value most beats a plain shot's, if any does.
fn hard_weapon(
    view: &View,
    field: &FieldView,
    left: [u8; 3],
    budget: &Budget,
    ranks: Option<&[(f64, Coord)]>,
    rng: &mut impl Rng,
) -> Option<Use> {
    let mut layouts = layouts(view, field, budget, rng);
    let total: f64 = layouts.iter().map(|l| l.weight).sum();
    if layouts.is_empty() || total <= 0.0 || !total.is_finite() {
        return None;
    }
    layouts.iter_mut().for_each(|l| l.weight /= total);
    let area = field.size.area();
    let (mut ship, mut mine) = (vec![0.0; area], vec![0.0; area]);
    for l in &layouts {
        for (i, &k) in l.cells.iter().enumerate() {
            match k {
                1 => ship[i] += l.weight,
                2 => mine[i] += l.weight,
                _ => {}
            }
        }
    }
    let open_cells: Vec<usize> = (0..area).filter(|&i| open(field.marks[i])).collect();
    let afloat: f64 = open_cells.iter().map(|&i| ship[i]).sum();
    let full: f64 = view
        .ruleset
        .fleet()
        .iter()
        .map(|k| f64::from(k.size()))
        .sum();
    let best_p = ranks
        .and_then(|r| r.first())
        .map_or(0.0, |r| r.0)
        .clamp(0.0, 0.95);
    let plain = best_p / (1.0 - best_p);
    let margin = MARGIN * (afloat / full.max(1.0)).min(1.0);
    let mut options: Vec<Valued> = Vec::new();
    let sq = squares(field);
    if left[Weapon::AirStrike.index()] > 0 {
        for (c, cells) in &sq {
            let value: f64 = cells.iter().map(|&i| ship[i] - 0.5 * mine[i]).sum();
            options.push(Valued {
                value,
                tie: rng.gen(),
                action: Use::AirStrike(*c),
            });
        }
    }
    if left[Weapon::Radar.index()] > 0 {
        for (c, cells) in &sq {
            options.push(Valued {
                value: BIT * count_entropy(&layouts, cells),
                tie: rng.gen(),
                action: Use::Radar(*c),
            });
        }
    }
    if left[Weapon::Torpedo.index()] > 0 {
        for (c, h, cells) in lines(field) {
            let (mut hit, mut cleared) = (0.0, 0.0);
            for l in &layouts {
                let mut n = 0.0;
                for &i in &cells {
                    match l.cells[i] {
                        0 => n += 1.0,
                        1 => {
                            hit += l.weight;
                            break;
                        }
                        _ => break,
                    }
                }
                cleared += l.weight * n;
            }
            options.push(Valued {
                value: hit + CLEAR * cleared,
                tie: rng.gen(),
                action: Use::Torpedo(c, h),
            });
        }
    }
    let best = options
        .into_iter()
        .max_by(|a, b| a.value.total_cmp(&b.value).then(a.tie.cmp(&b.tie)))?;
    // Near the end a weapon kept is a weapon wasted: the last ship hit ends the hunt.
    let last = afloat <= ENDGAME && best.value > 0.0;
    (last || best.value > plain + margin).then_some(best.action)
}

/// The entropy (in bits) of how many ship cells the layouts hold among `cells`.
fn count_entropy(layouts: &[Layout], cells: &[usize]) -> f64 {
    let mut p = [0.0f64; 10];
    for l in layouts {
        let n = cells.iter().filter(|&&i| l.cells[i] == 1).count().min(9);
        p[n] += l.weight;
    }
    -p.iter()
        .filter(|&&q| q > 0.0)
        .map(|&q| q * q.log2())
        .sum::<f64>()
}
