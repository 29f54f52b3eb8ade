//! The hard AI's posterior cover: how often each cell holds a ship or a mine over the layouts
//! sampled within a [`Budget`], drawn from the models of `mixture.rs` (each one's layouts by the
//! sampler of `sampler.rs`) and mixed by their weights, the answers to earlier salvoes
//! ([`SalvoReport`]) weighing each layout.

use crate::bits::{words_for, Bits};
use crate::budget::Budget;
use crate::mixture::sources;
use crate::report::SalvoReport;
use crate::sampler::Problem;
use crate::view::{FieldView, View};
use rand::Rng;

/// How often each cell was covered by a ship and by a mine, over the weighted layouts.
pub(crate) struct Heat {
    /// Ship cover weights, by cell index.
    pub ship: Vec<f64>,
    /// Mine cover weights, by cell index.
    pub mine: Vec<f64>,
    /// The total weight of the layouts sampled.
    pub samples: f64,
}

/// Cover weights of `field` over sampled layouts within `budget`, weighed by the answers to
/// earlier salvoes at it (see `ai_salvo.rs`); `None` if no layout was found.
pub(crate) fn heat(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    reports: &[&SalvoReport],
    rng: &mut impl Rng,
) -> Option<Heat> {
    match words_for(field.size.area()) {
        2 => heat_in::<2>(view, field, budget, reports, rng),
        4 => heat_in::<4>(view, field, budget, reports, rng),
        6 => heat_in::<6>(view, field, budget, reports, rng),
        _ => heat_in::<11>(view, field, budget, reports, rng),
    }
}

/// The weight of a layout given the salvo answers: 0 if its ships or mines cover more cells of
/// a salvo than it hit, else a quarter for each hit it does not explain.
fn weight<const W: usize>(ships: &Bits<W>, mines: &Bits<W>, answers: &[(Bits<W>, u8, u8)]) -> f64 {
    let mut unexplained = 0;
    for (cells, hits, found) in answers {
        let (s, m) = ((*ships & *cells).count(), (*mines & *cells).count());
        if s > u32::from(*hits) || m > u32::from(*found) {
            return 0.0;
        }
        unexplained += u32::from(*hits) - s + u32::from(*found) - m;
    }
    0.25f64.powi(unexplained as i32)
}

fn heat_in<const W: usize>(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    reports: &[&SalvoReport],
    rng: &mut impl Rng,
) -> Option<Heat> {
    let problem = Problem::<W>::new(view, field);
    let size = field.size;
    let answers: Vec<(Bits<W>, u8, u8)> = reports
        .iter()
        .map(|r| {
            let mut cells = Bits::EMPTY;
            for &c in r.cells.iter().filter(|&&c| size.contains(c)) {
                cells.set(size.index(c));
            }
            (cells, r.hits, r.mines)
        })
        .collect();
    let area = size.area();
    let empty = || Heat {
        ship: vec![0.0; area],
        mine: vec![0.0; area],
        samples: 0.0,
    };
    // Per source (the uniform model, the Perelman model, the learned layouts): weighed by
    // importance and by the salvo answers, and by importance alone (for when no layout
    // explains the answers).
    let mut buf = Vec::new();
    let habits = budget.habits_for(field.seat);
    let sources = sources(view, field, &problem, habits, rng, &mut buf);
    let mut heat: Vec<Heat> = sources.iter().map(|_| empty()).collect();
    let mut plain: Vec<Heat> = sources.iter().map(|_| empty()).collect();
    let salvo = view.ruleset.salvo.is_some();
    // Layouts from each source in turn: source `j` (from the second on) draws the layouts
    // numbered from `ends[j - 2]` (or 0) below `ends[j - 1]`; the first source the rest.
    let mut ends = Vec::with_capacity(sources.len());
    let mut upto = 0usize;
    for src in sources.iter().skip(1) {
        upto += (src.weight * budget.samples as f64).round() as usize;
        ends.push(upto);
    }
    for s in 0..budget.samples {
        if s % 16 == 15
            && budget
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            break;
        }
        let source = ends.iter().position(|&e| s < e).map_or(0, |j| j + 1);
        let Some((ships, mines, importance)) = sources[source].sample(&problem, rng, &mut buf)
        else {
            continue;
        };
        // In salvo games the answers weigh the layouts; importance weights on top leave too
        // few layouts that count (the hard level hit less with them).
        let importance = if salvo { 1.0 } else { importance };
        let w = weight(&ships, &mines, &answers);
        for (h, w) in [
            (&mut heat[source], w * importance),
            (&mut plain[source], importance),
        ] {
            if w > 0.0 {
                h.samples += w;
                ships.ones().for_each(|i| h.ship[i] += w);
                mines.ones().for_each(|i| h.mine[i] += w);
            }
        }
    }
    // Answers no layout explains (a ship sunk since, unseen) are better ignored than obeyed.
    let picked: Vec<&Heat> = (0..sources.len())
        .map(|i| {
            if heat[i].samples > 0.0 {
                &heat[i]
            } else {
                &plain[i]
            }
        })
        .collect();
    // The models mixed by their weights, shared out among those that drew layouts (all to
    // one that has layouts when the others have none).
    let with_layouts = picked.iter().filter(|h| h.samples > 0.0).count();
    if with_layouts == 0 {
        return None;
    }
    let drawn: f64 = picked
        .iter()
        .zip(&sources)
        .filter(|(h, _)| h.samples > 0.0)
        .map(|(_, s)| s.weight)
        .sum();
    let mut out = empty();
    out.samples = 1.0;
    for (h, src) in picked.iter().zip(&sources) {
        if h.samples <= 0.0 {
            continue;
        }
        let part = if drawn > 0.0 {
            src.weight / drawn
        } else {
            1.0 / with_layouts as f64
        };
        if part > 0.0 {
            for i in 0..area {
                out.ship[i] += part * h.ship[i] / h.samples;
                out.mine[i] += part * h.mine[i] / h.samples;
            }
        }
    }
    let heat = out;
    (heat.samples > 0.0).then_some(heat)
}
