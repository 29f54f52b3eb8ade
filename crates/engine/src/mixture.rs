//! The models of how the enemy placed, beside the uniform one.
//!
//! - Perelman's: many players put their multi-cell ships along the edges and spread the
//!   single-cell ships over the rest (RULES.md, seed 001; [`perelman_fleet`] draws that
//!   family). The model is the family itself, not a sample of it: the same sampler, with every
//!   multi-cell ship's places cut down to the field's outer ring and every single-cell ship's
//!   to the cells off it, so it follows any packing of the edges, as consistent with the view
//!   as the uniform model is.
//! - The learned one (the learning level only): the same sampler with each place weighed by
//!   how often people put a ship there ([`Habits`]).
//!
//! The models are weighed by how well each explains the cells known empty: the chance that the
//! multi-cell ships of a layout of each model avoid them, by sequential importance sampling
//! (each ship, largest first, among the places free of earlier ships; the weight is the share
//! of them, by weight where places have weights, that avoid the empty cells). Each model's
//! posterior weight is the share of the layouts it draws.
//!
//! [`perelman_fleet`]: crate::perelman_fleet

use crate::bits::Bits;
use crate::habits::Habits;
use crate::kind::Kind;

use crate::sampler::Problem;
use crate::tables::{table, Table};
use crate::view::{FieldView, View};
use rand::seq::SliceRandom;
use rand::Rng;
use std::rc::Rc;

/// The prior weight of the Perelman model.
pub const PERELMAN_PRIOR: f64 = 0.5;
/// Importance samples for each model's likelihood.
const SIS_SAMPLES: usize = 48;

/// One model of how the enemy placed: its sampling problem and its posterior weight.
pub(crate) struct Source<const W: usize> {
    /// The problem to draw layouts from; `None` for the plain one (the uniform model).
    pub problem: Option<Problem<W>>,
    /// The posterior weight: the share of the layouts drawn from this model.
    pub weight: f64,
}

/// The models for one decision, weighed by how well each explains the cells known empty: the
/// uniform one first, then the Perelman one where it applies, then the learned one where
/// `habits` are given (`habits.rs`). The weights add up to 1.
pub(crate) fn sources<const W: usize>(
    view: &View,
    field: &FieldView,
    problem: &Problem<W>,
    habits: Option<&Habits>,
    rng: &mut impl Rng,
    buf: &mut Vec<(u16, u32)>,
) -> Vec<Source<W>> {
    let ruleset = &view.ruleset;
    let size = field.size;
    let big: Vec<Kind> = ruleset
        .fleet()
        .into_iter()
        .filter(|k| k.size() > 1)
        .collect();
    let all: Vec<Rc<Table<W>>> = big
        .iter()
        .map(|&k| table::<W>(size, ruleset.touching(), ruleset.shapes(), k))
        .collect();
    let learned = habits
        .filter(|h| h.games() > 0.0 && !ruleset.has_terrain())
        .map(|h| {
            let trust = h.trust();
            let weigh = |t: &Table<W>, kind_size: u8| -> Rc<Vec<f64>> {
                let alike = ruleset
                    .fleet()
                    .into_iter()
                    .filter(|k| k.size() == kind_size)
                    .count();
                let expected = h.games() * alike as f64 / t.list.len().max(1) as f64;
                Rc::new(
                    t.list
                        .iter()
                        .map(|p| {
                            let key = p.cells.ones().map(|i| i as u16).collect();
                            Habits::weight(h.seen_indices(kind_size, key), expected)
                        })
                        .collect(),
                )
            };
            let mut family = problem.clone();
            family.weights = family
                .items
                .iter()
                .map(|it| Some(weigh(&it.0, it.2)))
                .collect();
            let weights: Vec<Option<Rc<Vec<f64>>>> = all
                .iter()
                .zip(&big)
                .map(|(t, k)| Some(weigh(t, k.size())))
                .collect();
            (family, weights, trust)
        });
    let learned_prior = learned.as_ref().map_or(0.0, |l| l.2);
    let ring = ring_model(view, field, problem, &all);
    if ring.is_none() && learned.is_none() {
        return vec![Source {
            problem: None,
            weight: 1.0,
        }];
    }
    // (problem, prior, likelihood)
    let uniform = likelihood::<W>(&all, &[], &problem.empty, rng, buf);
    let mut out = vec![(None, 1.0 - learned_prior, uniform)];
    if let Some((ring, on_ring)) = ring {
        let perelman = likelihood::<W>(&on_ring, &[], &problem.empty, rng, buf);
        if perelman > 0.0 {
            out[0].1 *= 1.0 - PERELMAN_PRIOR;
            out.push((Some(ring), (1.0 - learned_prior) * PERELMAN_PRIOR, perelman));
        }
    }
    if let Some((family, weights, prior)) = learned {
        let l = likelihood::<W>(&all, &weights, &problem.empty, rng, buf);
        out.push((Some(family), prior, l));
    }
    let total: f64 = out.iter().map(|s| s.1 * s.2).sum();
    out.into_iter()
        .map(|(problem, prior, l)| Source {
            problem,
            weight: if total > 0.0 {
                prior * l / total
            } else {
                prior
            },
        })
        .collect()
}

/// The Perelman model's problem for `field`, and its multi-cell ships' places on the ring,
/// or `None` where it does not apply (land-sea-air, salvoes, a fleet of single cells) or the
/// view rules it out.
fn ring_model<const W: usize>(
    view: &View,
    field: &FieldView,
    problem: &Problem<W>,
    all: &[Rc<Table<W>>],
) -> Option<(Problem<W>, Vec<Rc<Table<W>>>)> {
    let ruleset = &view.ruleset;
    if ruleset.has_terrain() || ruleset.salvo.is_some() || all.is_empty() {
        return None;
    }
    let size = field.size;
    let mut ring = Bits::<W>::EMPTY;
    for c in size.cells() {
        if c.x == 0 || c.y == 0 || c.x + 1 == size.width || c.y + 1 == size.height {
            ring.set(size.index(c));
        }
    }
    // Sunk ships tell: a multi-cell one off the ring, or a single-cell one on it, and
    // the model is out.
    let lone = |i: usize| {
        size.coord(i)
            .sides(size)
            .all(|n| !problem.sunk.get(size.index(n)))
    };
    let sunk_ok = problem.sunk.ones().all(|i| ring.get(i) != lone(i));
    if !sunk_ok {
        return None;
    }
    let mut family = problem.clone();
    for item in &mut family.items {
        let keep = |p: &Bits<W>| {
            if item.2 > 1 {
                p.subset_of(&ring)
            } else {
                !p.intersects(&ring)
            }
        };
        item.0 = Rc::new(restrict(&item.0, keep));
    }
    if family.items.iter().any(|i| i.0.list.is_empty()) {
        return None;
    }
    let on_ring = all
        .iter()
        .map(|t| Rc::new(restrict(t, |p| p.subset_of(&ring))))
        .collect();
    Some((family, on_ring))
}

/// The places of `t` that `keep` keeps, indexed anew.
fn restrict<const W: usize>(t: &Table<W>, keep: impl Fn(&Bits<W>) -> bool) -> Table<W> {
    let list: Vec<_> = t.list.iter().filter(|p| keep(&p.cells)).copied().collect();
    let mut by_cell = vec![Vec::new(); t.by_cell.len()];
    for (k, p) in list.iter().enumerate() {
        for i in p.cells.ones() {
            by_cell[i].push(k as u32);
        }
    }
    Table { list, by_cell }
}

/// The chance that multi-cell ships drawn on `tables`' places (largest first, each among
/// the places free of earlier ships, by the places' `weights` where given) avoid `empty`.
fn likelihood<const W: usize>(
    tables: &[Rc<Table<W>>],
    weights: &[Option<Rc<Vec<f64>>>],
    empty: &Bits<W>,
    rng: &mut impl Rng,
    buf: &mut Vec<(u16, u32)>,
) -> f64 {
    let mut total = 0.0;
    for _ in 0..SIS_SAMPLES {
        let mut taken = Bits::<W>::EMPTY;
        let mut weight = 1.0;
        for (i, t) in tables.iter().enumerate() {
            let w = |k: usize| match weights.get(i) {
                Some(Some(w)) => w[k],
                _ => 1.0,
            };
            buf.clear();
            let (mut prior, mut fit) = (0.0, 0.0);
            for (k, p) in t.list.iter().enumerate() {
                if !p.cells.intersects(&taken) {
                    prior += w(k);
                    if !p.cells.intersects(empty) {
                        fit += w(k);
                        buf.push((0, k as u32));
                    }
                }
            }
            if buf.is_empty() || fit <= 0.0 {
                weight = 0.0;
                break;
            }
            let chosen = if weights.is_empty() {
                buf.choose(rng).map_or(0, |&(_, k)| k)
            } else {
                let mut r = rng.gen::<f64>() * fit;
                let mut chosen = buf[buf.len() - 1].1;
                for &(_, k) in buf.iter() {
                    r -= w(k as usize);
                    if r < 0.0 {
                        chosen = k;
                        break;
                    }
                }
                chosen
            };
            weight *= fit / prior;
            taken = taken | t.list[chosen as usize].zone;
        }
        total += weight;
    }
    total / SIS_SAMPLES as f64
}
