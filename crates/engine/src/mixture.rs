//! The models of how the enemy placed, beside the uniform one.
//!
//! - Perelman's: many players put their multi-cell ships along the edges and spread the
//!   single-cell ships over the rest (docs/rules.md, seed 001; [`perelman_fleet`] draws that
//!   family). The model is the family itself, not a sample of it: the same sampler, with every
//!   multi-cell ship's places cut down to the field's outer ring and every single-cell ship's
//!   to the cells off it, so it follows any packing of the edges, as consistent with the view
//!   as the uniform model is.
//! - The remembered one (the learning level only): the layouts revealed in earlier games
//!   ([`Habits`]) that fit everything seen, each as often as it was seen; its prior is the share
//!   of those games whose layout repeated an earlier one, so it matters for people who reuse
//!   their layouts and fades for people who do not.
//! - The tendencies (the learning level only): a player's layouts as a whole ([`Habits`]'s
//!   fit): which side and corner their fleet leans to, whether the big ships hug the edge and
//!   the single ships keep off it or to the middle, how often the big ships stand upright,
//!   how packed or spread out the fleet is. The sampler draws each place with chance ∝ its
//!   cells' factors and its upright factor (the importance weight corrected for it), and each
//!   layout is weighed by its spread; the prior grows with the layouts seen and with how much
//!   better than uniform the fit predicted each next one, and is 0 below `MIN_TILT_PRIOR`,
//!   where the level shoots as hard.
//!
//! The models are weighed by how well each explains the cells known empty: the chance that the
//! multi-cell ships of a layout of each model avoid them, by sequential importance sampling
//! (each ship, largest first, among the places free of earlier ships; the weight is the share
//! of them that avoid the empty cells; for the remembered layouts, the share of them that fit
//! everything seen). Each model's posterior weight is the share of the layouts it draws.
//!
//! [`perelman_fleet`]: crate::perelman_fleet

use crate::bits::Bits;
use crate::habits::{Fit, Habits, Oracle};
use crate::kind::Kind;

use crate::sampler::Problem;
use crate::tables::{table, Table};
use crate::view::{FieldView, View};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::rc::Rc;
use std::sync::Arc;

/// The prior weight of the Perelman model.
pub const PERELMAN_PRIOR: f64 = 0.5;
/// The least prior weight of a player's fitted tendencies ([`Habits`]) for the model to be
/// used at all: below it the learning level shoots as hard does.
const MIN_TILT_PRIOR: f64 = 0.02;
/// The least posterior weight of a model the learning level adds (the tendencies, the
/// remembered layouts) for it to draw layouts at all: below it the level shoots as hard.
const MIN_SHARE: f64 = 0.01;
/// Importance samples for each model's likelihood.
const SIS_SAMPLES: usize = 48;

/// Remembered layouts' ship cells afloat, by weight.
type Recalled<const W: usize> = Vec<(Bits<W>, f64)>;

/// How a model draws its layouts.
pub(crate) enum Draw<const W: usize> {
    /// The field's own problem: the uniform model.
    Plain,
    /// Another problem: the Perelman model.
    Problem(Problem<W>),
    /// Remembered layouts consistent with the view: their ship cells afloat, by weight.
    Recall(Recalled<W>),
    /// A player's tendencies: the field's problem tilted by the places' weights, each layout
    /// also weighed by the fit's tilt over all its ship cells (the sunk ones too).
    Tilted(Problem<W>, Arc<Fit>),
    /// The placer's true law: the field's problem, each layout weighed by it.
    Law(Oracle),
}

/// One model of how the enemy placed: how it draws and its posterior weight.
pub(crate) struct Source<const W: usize> {
    /// How it draws.
    pub draw: Draw<W>,
    /// The posterior weight: the share of the layouts drawn from this model.
    pub weight: f64,
}

impl<const W: usize> Source<W> {
    /// One layout: ship cells, mine cells and importance weight.
    pub fn sample(
        &self,
        plain: &Problem<W>,
        rng: &mut impl Rng,
        buf: &mut Vec<(u16, u32)>,
    ) -> Option<(Bits<W>, Bits<W>, f64)> {
        match &self.draw {
            Draw::Plain => plain.sample(rng, buf),
            Draw::Problem(p) => p.sample(rng, buf),
            Draw::Recall(layouts) => layouts
                .choose_weighted(rng, |l| l.1)
                .ok()
                .map(|l| (l.0, Bits::EMPTY, 1.0)),
            Draw::Tilted(p, fit) => p.sample(rng, buf).map(|(ships, mines, importance)| {
                let all = ships | p.sunk;
                (ships, mines, importance * fit.tilt(all.ones()))
            }),
            Draw::Law(law) => plain.sample(rng, buf).map(|(ships, mines, importance)| {
                let all: Vec<usize> = (ships | plain.sunk).ones().collect();
                (ships, mines, importance * (law.0)(&all))
            }),
        }
    }
}

/// The models for one decision, weighed by how well each explains the cells known empty: the
/// uniform one first, then the Perelman one where it applies, then, where `habits` are given,
/// the layouts remembered (`habits/`). The weights add up to 1.
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
    if let Some(law) = habits.and_then(Habits::law) {
        return vec![Source {
            draw: Draw::Law(law.clone()),
            weight: 1.0,
        }];
    }
    let recall = habits
        .filter(|h| h.games() > 0.0 && !ruleset.has_terrain())
        .and_then(|h| recalled(view, problem, h));
    let fit = habits
        .filter(|h| h.games() > 0.0)
        .and_then(|h| h.fit(ruleset))
        .filter(|f| f.prior >= MIN_TILT_PRIOR);
    let big: Vec<Kind> = ruleset
        .fleet()
        .into_iter()
        .filter(|k| k.size() > 1)
        .collect();
    let ring = ring_model(view, field, problem, &big);
    if ring.is_none() && recall.is_none() && fit.is_none() {
        return vec![Source {
            draw: Draw::Plain,
            weight: 1.0,
        }];
    }
    let all: Vec<Rc<Table<W>>> = big
        .iter()
        .map(|&k| table::<W>(size, ruleset.touching(), ruleset.shapes(), k))
        .collect();
    // The uniform and Perelman models' likelihoods first, from the same random source as
    // the hard level's, then what the learning level adds, each from a source of its own, so
    // that where it adds nothing the level's choices are the hard level's.
    let uniform = if ring.is_some() {
        likelihood::<W>(&all, None, &problem.empty, rng, buf)
    } else {
        let mut side = rand::rngs::StdRng::seed_from_u64(fingerprint(problem));
        likelihood::<W>(&all, None, &problem.empty, &mut side, buf)
    };
    let perelman = ring.map(|ring| {
        let on_ring: Vec<Rc<Table<W>>> = all
            .iter()
            .map(|t| Rc::new(restrict(t, |p| p.subset_of(&ring.1))))
            .collect();
        let l = likelihood::<W>(&on_ring, None, &problem.empty, rng, buf);
        (ring.0, l)
    });
    let perelman = perelman.filter(|p| p.1 > 0.0);
    let tilt = fit.and_then(|fit| {
        let weigh = |t: &Table<W>| -> Vec<f64> {
            t.list
                .iter()
                .map(|p| fit.place(&p.cells.ones().collect::<Vec<_>>()))
                .collect()
        };
        let big_weights: Vec<Vec<f64>> = all.iter().map(|t| weigh(t)).collect();
        let mut side = rand::rngs::StdRng::seed_from_u64(fingerprint(problem) ^ 0x7117);
        let l = likelihood::<W>(&all, Some(&big_weights), &problem.empty, &mut side, buf);
        if l <= 0.0 {
            return None;
        }
        // The items' tables are mostly the multi-cell ones just weighed: those not again.
        let items = problem
            .items
            .iter()
            .map(|(t, _, _)| {
                all.iter()
                    .position(|a| Rc::ptr_eq(a, t))
                    .map_or_else(|| weigh(t), |k| big_weights[k].clone())
            })
            .collect();
        let mut tilted = problem.clone();
        tilted.tilt = Some(Rc::new(items));
        Some((tilted, fit, l))
    });
    // Priors and likelihoods: uniform, Perelman, tendencies, remembered; each model the
    // learning level adds kept only while its posterior weight is at least `MIN_SHARE`.
    let p = |has: bool| if has { PERELMAN_PRIOR } else { 0.0 };
    let weights = |tilt: Option<(f64, f64)>, recall: Option<(f64, f64)>| -> [f64; 4] {
        let (t, lt) = tilt.unwrap_or((0.0, 0.0));
        let (r, lr) = recall.unwrap_or((0.0, 0.0));
        let lp = perelman.as_ref().map_or(0.0, |x| x.1);
        let priors = [
            (1.0 - r) * (1.0 - t) * (1.0 - p(perelman.is_some())),
            (1.0 - r) * (1.0 - t) * p(perelman.is_some()),
            (1.0 - r) * t,
            r,
        ];
        let ls = [uniform, lp, lt, lr];
        let total: f64 = priors.iter().zip(&ls).map(|(a, b)| a * b).sum();
        let mut w = [0.0; 4];
        for k in 0..4 {
            w[k] = if total > 0.0 {
                priors[k] * ls[k] / total
            } else {
                priors[k]
            };
        }
        w
    };
    let tilt_of = tilt.as_ref().map(|t| (t.1.prior, t.2));
    let recall_of = recall.as_ref().map(|r| (r.1, r.2));
    let first = weights(tilt_of, recall_of);
    let tilt = tilt.filter(|_| first[2] >= MIN_SHARE);
    let recall = recall.filter(|_| first[3] >= MIN_SHARE);
    if perelman.is_none() && tilt.is_none() && recall.is_none() {
        return vec![Source {
            draw: Draw::Plain,
            weight: 1.0,
        }];
    }
    let w = weights(tilt.as_ref().and(tilt_of), recall.as_ref().and(recall_of));
    let mut out = vec![Source {
        draw: Draw::Plain,
        weight: w[0],
    }];
    if let Some((problem, _)) = perelman {
        out.push(Source {
            draw: Draw::Problem(problem),
            weight: w[1],
        });
    }
    if let Some((tilted, fit, _)) = tilt {
        out.push(Source {
            draw: Draw::Tilted(tilted, fit),
            weight: w[2],
        });
    }
    if let Some((layouts, _, _)) = recall {
        out.push(Source {
            draw: Draw::Recall(layouts),
            weight: w[3],
        });
    }
    out
}

/// The remembered layouts consistent with the view (their ship cells afloat, by weight), the
/// model's prior ([`Habits::trust`]) and its likelihood: the weighted share of remembered
/// layouts consistent with everything seen. (The other models' likelihoods count the empty
/// cells only, which is generous to them: a few remembered layouts that happen to fit do not
/// outweigh chance.) `None` when no remembered layout fits the view.
fn recalled<const W: usize>(
    view: &View,
    problem: &Problem<W>,
    habits: &Habits,
) -> Option<(Recalled<W>, f64, f64)> {
    let size = view.ruleset.size();
    let area = size.area();
    let mut sizes: Vec<usize> = view
        .ruleset
        .fleet()
        .iter()
        .map(|k| usize::from(k.size()))
        .collect();
    sizes.sort_unstable();
    let may_hold = problem.free | problem.hits | problem.sunk;
    let (mut total, mut fit) = (0.0, 0.0);
    let mut fits = Vec::new();
    for (ships, w) in habits.layouts() {
        let mut lens: Vec<usize> = ships.iter().map(Vec::len).collect();
        lens.sort_unstable();
        if lens != sizes || ships.iter().flatten().any(|&i| usize::from(i) >= area) {
            continue;
        }
        let mut cells = Bits::<W>::EMPTY;
        for &i in ships.iter().flatten() {
            cells.set(usize::from(i));
        }
        total += w;
        if cells.subset_of(&may_hold)
            && problem.hits.subset_of(&cells)
            && problem.sunk.subset_of(&cells)
        {
            fit += w;
            fits.push((cells.minus(&problem.sunk), w));
        }
    }
    (!fits.is_empty() && total > 0.0).then(|| (fits, habits.trust(), fit / total))
}

/// A number that stands for what the view shows (for a random source of its own).
fn fingerprint<const W: usize>(problem: &Problem<W>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for b in [&problem.empty, &problem.hits, &problem.sunk] {
        b.ones().for_each(|i| i.hash(&mut h));
        u8::MAX.hash(&mut h);
    }
    h.finish()
}

/// The Perelman model's problem for `field` and the field's outer ring, or `None` where it
/// does not apply (land-sea-air, salvoes, a fleet of single cells) or the view rules it out.
fn ring_model<const W: usize>(
    view: &View,
    field: &FieldView,
    problem: &Problem<W>,
    big: &[Kind],
) -> Option<(Problem<W>, Bits<W>)> {
    let ruleset = &view.ruleset;
    if ruleset.has_terrain() || ruleset.salvo.is_some() || big.is_empty() {
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
    Some((family, ring))
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
/// the places free of earlier ships) avoid `empty`. With `weights` (by table, then place: a
/// player's tendencies), each place is drawn with chance ∝ its weight among those free of
/// earlier ships and the draw weighs the share of the free places' weight that avoids
/// `empty`; without, every place weighs 1.
fn likelihood<const W: usize>(
    tables: &[Rc<Table<W>>],
    weights: Option<&[Vec<f64>]>,
    empty: &Bits<W>,
    rng: &mut impl Rng,
    buf: &mut Vec<(u16, u32)>,
) -> f64 {
    let weigh = |t: usize, k: usize| weights.map_or(1.0, |w| w[t][k]);
    let mut total = 0.0;
    for _ in 0..SIS_SAMPLES {
        let mut taken = Bits::<W>::EMPTY;
        let mut weight = 1.0;
        for (j, t) in tables.iter().enumerate() {
            buf.clear();
            let (mut prior, mut kept) = (0.0, 0.0);
            for (k, p) in t.list.iter().enumerate() {
                if !p.cells.intersects(&taken) {
                    prior += weigh(j, k);
                    if !p.cells.intersects(empty) {
                        kept += weigh(j, k);
                        buf.push((0, k as u32));
                    }
                }
            }
            if buf.is_empty() || kept <= 0.0 || prior <= 0.0 {
                weight = 0.0;
                break;
            }
            let chosen = if weights.is_none() {
                buf.choose(rng).map_or(0, |&(_, k)| k)
            } else {
                let mut at = rng.gen::<f64>() * kept;
                let mut chosen = buf[buf.len() - 1].1;
                for &(_, k) in buf.iter() {
                    at -= weigh(j, k as usize);
                    if at < 0.0 {
                        chosen = k;
                        break;
                    }
                }
                chosen
            };
            weight *= kept / prior;
            taken = taken | t.list[chosen as usize].zone;
        }
        total += weight;
    }
    total / SIS_SAMPLES as f64
}
