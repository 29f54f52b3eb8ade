//! The bot as a player: it sees only what its seat's [`View`] shows, never a hidden fleet.
//!
//! - [`Level::Easy`]: a random cell not known to be empty.
//! - [`Level::Normal`]: hunt and target — finish a wounded ship along its line; otherwise
//!   shoot a parity pattern sized to the smallest ship afloat, never next to a hit or a sunk
//!   ship where the touching rule forbids another ship.
//! - [`Level::Hard`]: sample whole-fleet layouts consistent with everything seen (a mixture of
//!   uniform and Perelman-packed layouts, `sampler.rs` and `mixture.rs`), and shoot the cell
//!   most often covered by a ship, shunning likely mines.
//! - [`Level::Learning`]: as hard, with a third model in the mixture — how people actually
//!   placed in the games the bot has seen end ([`Habits`], given in the [`Budget`]).
//!
//! Every ruleset of docs/rules.md §3 is played: [`choose_shot`] (and [`choose_shot_within`], with a
//! bound on thinking) picks the field and the cell, [`choose_salvo`] the cells of a salvo,
//! [`choose_give_up`] the own cell to give up after a mine, and [`hard_fleet`] places the
//! hard level's own fleet.

use crate::coord::Coord;
use crate::event::SeatId;
use crate::habits::Habits;
use crate::hunt::{easy, excluded, normal, open, wounded};
use crate::sampler::heat;
use crate::view::{FieldView, Mark, View};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

pub use crate::ai_fleet::hard_fleet;
pub use crate::ai_salvo::{choose_salvo, choose_salvo_informed, choose_salvo_within, SalvoReport};
pub use crate::sampler::SAMPLES;

/// How well the bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Random cells, never one known to be empty.
    Easy,
    /// Hunt and target, with parity and the no-touch inferences.
    #[default]
    Normal,
    /// The posterior over whole-fleet layouts, by sampling.
    Hard,
    /// As hard, with a prior that learns how people place from the fleets revealed at the end
    /// of games.
    Learning,
}

impl Level {
    /// Every level.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Learning];

    /// Whether the level samples layouts (hard and learning).
    pub fn samples(self) -> bool {
        matches!(self, Level::Hard | Level::Learning)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Learning => "learning",
        })
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| format!("no level {s:?}"))
    }
}

/// How long the hard level may think about one decision: at most `samples` layouts, and (if
/// set) no more once `deadline` has passed. A deadline makes the choice depend on the machine's
/// speed; without one the choice depends only on the view and the random source. The learning
/// level also takes what it has learned here.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Layouts to sample at most.
    pub samples: usize,
    /// When to stop sampling, if ever.
    pub deadline: Option<Instant>,
    /// How people placed, for [`Level::Learning`] (ignored by the other levels).
    pub habits: Option<Arc<Habits>>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            samples: SAMPLES,
            deadline: None,
            habits: None,
        }
    }
}

impl Budget {
    /// The default number of layouts, and no more after `deadline`.
    pub fn until(deadline: Instant) -> Budget {
        Budget {
            deadline: Some(deadline),
            ..Budget::default()
        }
    }

    /// The same budget, with `habits` for the learning level.
    pub fn learning(self, habits: Arc<Habits>) -> Budget {
        Budget {
            habits: Some(habits),
            ..self
        }
    }
}

/// The fields `seat` may shoot at, as its view shows them.
fn targets(view: &View, seat: SeatId) -> Vec<&FieldView> {
    view.fields
        .iter()
        .filter(|f| f.seat != seat && f.afloat && !f.full && f.marks.iter().any(|&m| open(m)))
        .collect()
}

/// The cells `field` may still be shot at, and which of them the rules leave possible.
pub(crate) fn candidates(view: &View, field: &FieldView) -> (Vec<Coord>, Vec<Coord>) {
    let bad = excluded(view, field);
    let all: Vec<Coord> = field
        .size
        .cells()
        .filter(|&c| open(field.mark(c)))
        .collect();
    let good = all
        .iter()
        .copied()
        .filter(|&c| !bad[field.size.index(c)])
        .collect();
    (all, good)
}

/// The share of `field`'s open cells still holding ship cells: where shots pay best.
fn density(view: &View, field: &FieldView) -> f64 {
    let left: u32 = crate::hunt::afloat_sizes(view, field)
        .iter()
        .map(|&n| u32::from(n))
        .sum();
    let hits = wounded(field).len() as u32;
    let open_cells = field.marks.iter().filter(|&&m| open(m)).count().max(1);
    f64::from(left.saturating_sub(hits)) / open_cells as f64
}

/// Cells of `field` ranked for the hard level, best first, with their scores; `None` if no
/// layout could be sampled.
fn ranked(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    reports: &[SalvoReport],
    rng: &mut impl Rng,
) -> Option<Ranks> {
    let reports: Vec<&SalvoReport> = reports.iter().filter(|r| r.target == field.seat).collect();
    let h = heat(view, field, budget, &reports, rng)?;
    let (all, good) = candidates(view, field);
    let pool = if good.is_empty() { all } else { good };
    let n = h.samples;
    let mut scored: Vec<(f64, u32, Coord)> = pool
        .into_iter()
        .map(|c| {
            let i = field.size.index(c);
            let score = (h.ship[i] - 0.5 * h.mine[i]) / n;
            (score, rng.gen::<u32>(), c)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    Some(scored.into_iter().map(|(s, _, c)| (s, c)).collect())
}

/// Cells ranked best first, with their scores.
pub(crate) type Ranks = Vec<(f64, Coord)>;

/// The field to shoot at and, for the hard level, its ranked cells.
pub(crate) fn aim<'a>(
    view: &'a View,
    seat: SeatId,
    level: Level,
    budget: &Budget,
    reports: &[SalvoReport],
    rng: &mut impl Rng,
) -> Option<(&'a FieldView, Option<Ranks>)> {
    // Only the learning level uses what was learned.
    let plain;
    let budget = if level == Level::Learning || budget.habits.is_none() {
        budget
    } else {
        plain = Budget {
            habits: None,
            ..budget.clone()
        };
        &plain
    };
    let targets = targets(view, seat);
    // Finish a wounded ship first, wherever it is.
    if let Some(f) = targets.iter().find(|f| !wounded(f).is_empty()) {
        let ranks = level
            .samples()
            .then(|| ranked(view, f, budget, reports, rng))
            .flatten();
        return Some((f, ranks));
    }
    match level {
        Level::Easy => targets.choose(rng).map(|&f| (f, None)),
        Level::Normal => targets
            .iter()
            .max_by(|a, b| density(view, a).total_cmp(&density(view, b)))
            .map(|&f| (f, None)),
        Level::Hard | Level::Learning => {
            let mut best: Option<(&FieldView, Option<Ranks>)> = None;
            for &f in &targets {
                let ranks = ranked(view, f, budget, reports, rng);
                let top = ranks.as_ref().and_then(|r| r.first()).map_or(-1.0, |r| r.0);
                let best_top = best.as_ref().map_or(-2.0, |b| {
                    b.1.as_ref().and_then(|r| r.first()).map_or(-1.0, |r| r.0)
                });
                if top > best_top {
                    best = Some((f, ranks));
                }
            }
            best
        }
    }
}

/// The cell to shoot and the field to shoot at, for `seat` seeing `view`; the hard level
/// samples [`Budget::default`] layouts.
pub fn choose_shot(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
) -> Option<(SeatId, Coord)> {
    choose_shot_within(view, seat, level, rng, Budget::default())
}

/// As [`choose_shot`], with the hard level's thinking bounded by `budget` (e.g.
/// [`Budget::until`] a deadline on big fields).
pub fn choose_shot_within(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<(SeatId, Coord)> {
    let (field, ranks) = aim(view, seat, level, &budget, &[], rng)?;
    let cell = match (level, ranks) {
        (Level::Easy, _) => easy(field, rng),
        (Level::Hard | Level::Learning, Some(r)) if !r.is_empty() => Some(r[0].1),
        _ => normal(view, field, rng),
    }?;
    Some((field.seat, cell))
}

/// After a mine (docs/rules.md §3.5): the cell of its own fleet `seat` gives up. A cell of a ship
/// already hit, whose place the enemy knows, if one is left whole enough not to sink by it;
/// else any cell of a wounded ship; else an end cell of the largest ship, which is the easiest
/// to find anyway. `None` if the seat has no unhit ship cell.
pub fn choose_give_up(view: &View, seat: SeatId, rng: &mut impl Rng) -> Option<Coord> {
    let field = view.fields.iter().find(|f| f.seat == seat)?;
    let size = field.size;
    let ship = |c: Coord| matches!(field.mark(c), Mark::Ship | Mark::Hit | Mark::Sunk);
    // Ships as groups of side-connected ship cells.
    let mut group = vec![usize::MAX; size.area()];
    let mut groups: Vec<Vec<Coord>> = Vec::new();
    for c in size.cells().filter(|&c| ship(c)) {
        if group[size.index(c)] != usize::MAX {
            continue;
        }
        let mut cells = vec![c];
        group[size.index(c)] = groups.len();
        let mut k = 0;
        while k < cells.len() {
            for n in cells[k].sides(size) {
                if ship(n) && group[size.index(n)] == usize::MAX {
                    group[size.index(n)] = groups.len();
                    cells.push(n);
                }
            }
            k += 1;
        }
        groups.push(cells);
    }
    let whole = |g: &Vec<Coord>| g.iter().filter(|&&c| field.mark(c) == Mark::Ship).count();
    let hit = |g: &Vec<Coord>| g.iter().any(|&c| field.mark(c) == Mark::Hit);
    let pick = |g: &Vec<Coord>, rng: &mut dyn rand::RngCore| {
        let cells: Vec<Coord> = g
            .iter()
            .copied()
            .filter(|&c| field.mark(c) == Mark::Ship)
            .collect();
        // An end: the whole cell with the fewest whole neighbours.
        let ends = |c: &Coord| {
            c.sides(size)
                .filter(|&n| field.mark(n) == Mark::Ship)
                .count()
        };
        let least = cells.iter().map(ends).min()?;
        let ends: Vec<Coord> = cells.iter().copied().filter(|c| ends(c) == least).collect();
        ends.choose(rng).copied()
    };
    let wounded: Vec<&Vec<Coord>> = groups.iter().filter(|g| hit(g) && whole(g) > 0).collect();
    if let Some(g) = wounded
        .iter()
        .filter(|g| whole(g) > 1)
        .max_by_key(|g| whole(g))
    {
        return pick(g, rng);
    }
    if let Some(g) = wounded.first() {
        return pick(g, rng);
    }
    let largest = groups.iter().filter(|g| whole(g) > 0).map(whole).max()?;
    let biggest: Vec<&Vec<Coord>> = groups.iter().filter(|g| whole(g) == largest).collect();
    let g = biggest.choose(rng)?;
    pick(g, rng)
}
