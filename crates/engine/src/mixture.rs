//! The Perelman model beside the uniform one: many players put their multi-cell ships along
//! the edges and spread the single-cell ships over the rest (RULES.md, seed 001;
//! [`perelman_fleet`] draws that family). The model is the family itself, not a sample of
//! it: the same sampler, with every multi-cell ship's places cut down to the field's outer
//! ring and every single-cell ship's to the cells off it, so it follows any packing of the
//! edges, as consistent with the view as the uniform model is. The two are weighed by how
//! well each explains the cells known empty: the chance that the multi-cell ships of a layout
//! of each model avoid them, by sequential importance sampling (each ship, largest first,
//! among the places free of earlier ships; the weight is the share of them that avoid the
//! empty cells). The Perelman model's posterior weight is the share of the layouts it draws.
//!
//! [`perelman_fleet`]: crate::perelman_fleet

use crate::bits::Bits;
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

/// The Perelman model for one decision: the field's problem with the ring's places only,
/// and the model's weight.
pub(crate) struct Model<const W: usize> {
    /// The sampling problem of the family.
    ring: Problem<W>,
    /// The posterior weight of the model: the share of layouts drawn from it.
    pub weight: f64,
}

impl<const W: usize> Model<W> {
    /// The model for `field`, or `None` where it does not apply (land-sea-air, salvoes, a
    /// fleet of single cells) or no pack is consistent with the view.
    pub fn new(
        view: &View,
        field: &FieldView,
        problem: &Problem<W>,
        rng: &mut impl Rng,
        buf: &mut Vec<(u16, u32)>,
    ) -> Option<Model<W>> {
        let ruleset = &view.ruleset;
        let big: Vec<Kind> = ruleset
            .fleet()
            .into_iter()
            .filter(|k| k.size() > 1)
            .collect();
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
        let all: Vec<Rc<Table<W>>> = big
            .iter()
            .map(|&k| table::<W>(size, ruleset.touching(), ruleset.shapes(), k))
            .collect();
        let on_ring: Vec<Rc<Table<W>>> = all
            .iter()
            .map(|t| Rc::new(restrict(t, |p| p.subset_of(&ring))))
            .collect();
        let uniform = likelihood::<W>(&all, &problem.empty, rng, buf);
        let perelman = likelihood::<W>(&on_ring, &problem.empty, rng, buf);
        if perelman <= 0.0 {
            return None;
        }
        let prior = PERELMAN_PRIOR;
        let weight = prior * perelman / (prior * perelman + (1.0 - prior) * uniform);
        Some(Model {
            ring: family,
            weight,
        })
    }

    /// One layout of the family consistent with the view, with its importance weight.
    pub fn sample(
        &self,
        rng: &mut impl Rng,
        buf: &mut Vec<(u16, u32)>,
    ) -> Option<(Bits<W>, Bits<W>, f64)> {
        self.ring.sample(rng, buf)
    }
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
/// the places free of earlier ships) avoid `empty`.
fn likelihood<const W: usize>(
    tables: &[Rc<Table<W>>],
    empty: &Bits<W>,
    rng: &mut impl Rng,
    buf: &mut Vec<(u16, u32)>,
) -> f64 {
    let mut total = 0.0;
    for _ in 0..SIS_SAMPLES {
        let mut taken = Bits::<W>::EMPTY;
        let mut weight = 1.0;
        for t in tables {
            buf.clear();
            let mut prior = 0u32;
            for (k, p) in t.list.iter().enumerate() {
                if !p.cells.intersects(&taken) {
                    prior += 1;
                    if !p.cells.intersects(empty) {
                        buf.push((0, k as u32));
                    }
                }
            }
            let Some(&(_, k)) = buf.choose(rng) else {
                weight = 0.0;
                break;
            };
            weight *= buf.len() as f64 / f64::from(prior);
            taken = taken | t.list[k as usize].zone;
        }
        total += weight;
    }
    total / SIS_SAMPLES as f64
}
