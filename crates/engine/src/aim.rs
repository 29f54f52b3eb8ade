//! Where the bot shoots next, shared by single shots (`ai.rs`) and salvoes (`ai_salvo.rs`):
//! the field to shoot at and, for the hard and learning levels, its cells ranked by how often
//! the sampled layouts cover them (`heat.rs`).

use crate::budget::Budget;
use crate::coord::Coord;
use crate::event::SeatId;
use crate::heat::heat;
use crate::hunt::{afloat_sizes, excluded, open, wounded};
use crate::level::Level;
use crate::report::SalvoReport;
use crate::view::{FieldView, View};
use rand::seq::SliceRandom;
use rand::Rng;

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
    let left: u32 = afloat_sizes(view, field)
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
