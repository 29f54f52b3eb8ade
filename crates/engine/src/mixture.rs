//! The Perelman model beside the uniform one: many players pack their multi-cell ships along
//! the edges into one corner and spread the single-cell ships over the rest (RULES.md, seed 001;
//! [`perelman_fleet`]). The hard AI keeps a pool of such *packs* (the multi-cell ships only),
//! drawn once per thread and ruleset from a fixed seed, and weighs the two models by how well
//! each explains the cells known empty:
//!
//! - Perelman: the share of packs that avoid every known empty cell;
//! - uniform: the chance that the multi-cell ships of a uniform layout avoid them, estimated by
//!   sequential importance sampling (each ship, largest first, among the placements free of
//!   earlier ships; the weight is the share of them that avoid the empty cells).
//!
//! The posterior weight of the Perelman model decides what share of the layouts is drawn from
//! the packs consistent with everything seen (hits, sunk ships), completed by the sampler with
//! the single-cell ships and mines. With no consistent pack the model gets no layouts.
//!
//! [`perelman_fleet`]: crate::perelman_fleet

use crate::bits::Bits;
use crate::coord::Size;
use crate::kind::Kind;
use crate::ruleset::{Players, Ruleset, TurnTimer};
use crate::sampler::Problem;
use crate::tables::{table, zone_of};
use crate::view::{FieldView, View};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The prior weight of the Perelman model.
pub const PERELMAN_PRIOR: f64 = 0.5;
/// Perelman layouts drawn for the pool of packs (duplicates are dropped).
const POOL_DRAWS: usize = 600;
/// Importance samples for the uniform model's likelihood.
const SIS_SAMPLES: usize = 48;

/// One pack: the cells of each multi-cell ship, as cell indices.
type Pack = Vec<Vec<u16>>;

thread_local! {
    static POOLS: RefCell<HashMap<Ruleset, Rc<Vec<Pack>>>> = RefCell::new(HashMap::new());
}

/// The packs of a ruleset's Perelman layouts, drawn from a fixed seed on first use.
fn pool(ruleset: &Ruleset) -> Rc<Vec<Pack>> {
    let key = Ruleset {
        salvo: None,
        mines: 0,
        players: Players::Duel,
        timer: TurnTimer::default(),
        ..ruleset.clone()
    };
    POOLS.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() > 16 {
            p.clear();
        }
        Rc::clone(p.entry(key.clone()).or_insert_with(|| {
            let size = key.size();
            let mut rng = rand::rngs::StdRng::seed_from_u64(0x9E7E_1AA5);
            let mut packs = BTreeSet::new();
            for _ in 0..POOL_DRAWS {
                let Ok(fleet) = crate::perelman_fleet(&key, &mut rng) else {
                    continue;
                };
                let mut pack: Pack = fleet
                    .ships()
                    .iter()
                    .filter(|s| s.kind.size() > 1)
                    .map(|s| {
                        let mut v: Vec<u16> =
                            s.cells.iter().map(|&c| size.index(c) as u16).collect();
                        v.sort_unstable();
                        v
                    })
                    .collect();
                pack.sort_unstable();
                packs.insert(pack);
            }
            Rc::new(packs.into_iter().collect())
        }))
    })
}

/// The Perelman model for one decision: the packs consistent with the view, and its weight.
pub(crate) struct Model<const W: usize> {
    /// Consistent packs: all their cells, and their zone.
    packs: Vec<(Bits<W>, Bits<W>)>,
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
        let touching = ruleset.touching();
        let pool = pool(ruleset);
        let sunk_singles = field.sunk.iter().filter(|k| k.size() == 1).count() as u32;
        let (mut avoiding, mut packs) = (0usize, Vec::new());
        for pack in pool.iter() {
            let ships: Vec<Bits<W>> = pack.iter().map(|s| bits(s)).collect();
            let cells = ships.iter().fold(Bits::EMPTY, |a, &b| a | b);
            if cells.intersects(&problem.empty) {
                continue;
            }
            avoiding += 1;
            let consistent = problem.hits.subset_of(&cells)
                && ships.iter().all(|s| {
                    let sunk = *s & problem.sunk;
                    (sunk.is_empty() || sunk == *s) && !s.subset_of(&problem.hits)
                })
                && problem.sunk.minus(&cells).count() == sunk_singles;
            if consistent {
                packs.push((cells, zone_of(&cells, size, touching)));
            }
        }
        if packs.is_empty() {
            return None;
        }
        let perelman = avoiding as f64 / pool.len() as f64;
        let uniform = uniform_likelihood::<W>(size, ruleset, &big, &problem.empty, rng, buf);
        let prior = PERELMAN_PRIOR;
        let weight = prior * perelman / (prior * perelman + (1.0 - prior) * uniform);
        Some(Model { packs, weight })
    }

    /// One layout: a consistent pack, completed with the single cells and mines.
    pub fn sample(
        &self,
        problem: &Problem<W>,
        rng: &mut impl Rng,
        buf: &mut Vec<(u16, u32)>,
    ) -> Option<(Bits<W>, Bits<W>)> {
        for _ in 0..8 {
            let (cells, zone) = self.packs.choose(rng)?;
            if let Some(layout) = problem.fill(Some((cells, zone)), rng, buf) {
                return Some(layout);
            }
        }
        None
    }
}

fn bits<const W: usize>(cells: &[u16]) -> Bits<W> {
    let mut b = Bits::EMPTY;
    for &i in cells {
        b.set(usize::from(i));
    }
    b
}

/// The chance that the multi-cell ships of a uniformly drawn layout avoid `empty`.
fn uniform_likelihood<const W: usize>(
    size: Size,
    ruleset: &Ruleset,
    big: &[Kind],
    empty: &Bits<W>,
    rng: &mut impl Rng,
    buf: &mut Vec<(u16, u32)>,
) -> f64 {
    let tables: Vec<_> = big
        .iter()
        .map(|&k| table::<W>(size, ruleset.touching(), ruleset.shapes(), k))
        .collect();
    let mut total = 0.0;
    for _ in 0..SIS_SAMPLES {
        let mut taken = Bits::<W>::EMPTY;
        let mut weight = 1.0;
        for t in &tables {
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
