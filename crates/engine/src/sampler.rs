//! The hard AI's sampler: whole-fleet layouts of the items still afloat (and the mines not yet
//! found), sampled among those consistent with everything the view shows — misses, halos,
//! hits, sunk ships, the touching, shape and terrain rules. How often each cell is covered over
//! such layouts is counted in `heat.rs`.
//!
//! A layout is built on bit boards ([`Bits`]) from precomputed placement tables: first an item
//! through every hit (never wholly on hits, which would have sunk it), then the rest largest
//! first, each uniformly among the placements still free. Each layout carries the product of
//! the choices it had, so that the weighted layouts stand for the uniform prior that
//! [`random_fleet`] draws from (see [`Problem::fill`]). In land-sea-air the enemy's border is secret: each layout narrows it as its units stand
//! ([`Shore`]), starting from what the sunk units tell. A share of the samples may come from the
//! Perelman model instead (`mixture.rs`, which draws with this sampler on a narrowed problem).
//!
//! [`random_fleet`]: crate::random_fleet

use crate::bits::Bits;
use crate::hunt::{afloat_kinds, excluded};
use crate::kind::{Force, Kind};
use crate::shore::Shore;
use crate::tables::{table, Table};
use crate::view::{FieldView, Mark, View};
use crate::weapon::square;
use rand::seq::SliceRandom;
use rand::Rng;
use std::rc::Rc;

/// Attempts to build one consistent layout before giving it up.
const ATTEMPTS: usize = 40;

/// One field's sampling problem.
#[derive(Clone)]
pub(crate) struct Problem<const W: usize> {
    /// Items afloat, largest first: placements, force and size.
    pub items: Vec<(Rc<Table<W>>, Force, u8)>,
    /// Single cells, for mines.
    pub single: Rc<Table<W>>,
    /// Mines not yet found.
    pub mines: usize,
    /// Cells an unseen item may cover.
    pub free: Bits<W>,
    /// Hits on items afloat.
    pub hits: Bits<W>,
    /// Unknown cells a radar reading says are all ship cells (its square's unknown cells
    /// when it counted as many ship cells as they are): covered like hits, but an item may
    /// lie wholly on them.
    pub must: Bits<W>,
    /// Cells known to hold no ship: misses, halos, mines.
    pub empty: Bits<W>,
    /// Cells of sunk items.
    pub sunk: Bits<W>,
    /// Where each force may stand, before any item afloat is placed.
    pub shore: Shore<W>,
    /// The learning level's tendencies (`mixture.rs`): for each item, a weight for each of
    /// its placements; each step then picks a place with chance ∝ its weight instead of
    /// uniformly. `None`: uniformly.
    pub tilt: Option<Rc<Vec<Vec<f64>>>>,
}

/// Connected groups of sunk cells and the forces of the sunk kinds of their size.
fn sunk_groups<const W: usize>(field: &FieldView, sunk: &Bits<W>) -> Vec<(Bits<W>, Vec<Force>)> {
    let size = field.size;
    let mut seen = Bits::<W>::EMPTY;
    let mut out = Vec::new();
    for start in sunk.ones() {
        if seen.get(start) {
            continue;
        }
        let mut group = Bits::<W>::EMPTY;
        let mut stack = vec![start];
        seen.set(start);
        while let Some(i) = stack.pop() {
            group.set(i);
            for n in size.coord(i).sides(size) {
                let j = size.index(n);
                if sunk.get(j) && !seen.get(j) {
                    seen.set(j);
                    stack.push(j);
                }
            }
        }
        let n = group.count() as u8;
        let mut forces: Vec<Force> = field
            .sunk
            .iter()
            .filter(|k| k.size() == n)
            .map(|k| k.force())
            .collect();
        if forces.is_empty() {
            forces.push(Force::Air);
        }
        out.push((group, forces));
    }
    out
}

impl<const W: usize> Problem<W> {
    /// The problem of `field` as `view` shows it.
    pub fn new(view: &View, field: &FieldView) -> Problem<W> {
        let size = field.size;
        let ruleset = &view.ruleset;
        let (touching, shapes) = (ruleset.touching(), ruleset.shapes());
        let bad = excluded(view, field);
        let (mut free, mut hits, mut empty, mut sunk) =
            (Bits::EMPTY, Bits::EMPTY, Bits::EMPTY, Bits::EMPTY);
        let mut found_mines = 0;
        for (i, &m) in field.marks.iter().enumerate() {
            match m {
                Mark::Unknown | Mark::Shot if !bad[i] => free.set(i),
                Mark::Hit => {
                    free.set(i);
                    hits.set(i);
                }
                Mark::Miss | Mark::Halo => empty.set(i),
                Mark::Mine => {
                    empty.set(i);
                    found_mines += 1;
                }
                Mark::Sunk => sunk.set(i),
                _ => {}
            }
        }
        // A radar square whose unknown cells must all be ship cells.
        let mut must = Bits::EMPTY;
        for scan in field.scans.iter().filter(|s| size.contains(s.center)) {
            let cells = square(scan.center, size);
            let known = cells
                .iter()
                .filter(|&&c| matches!(field.mark(c), Mark::Hit | Mark::Sunk))
                .count();
            let unknown: Vec<usize> = cells
                .iter()
                .filter(|&&c| field.mark(c) == Mark::Unknown)
                .map(|&c| size.index(c))
                .collect();
            if !unknown.is_empty() && usize::from(scan.ships) == known + unknown.len() {
                for i in unknown.into_iter().filter(|&i| free.get(i)) {
                    must.set(i);
                }
            }
        }
        let items = afloat_kinds(view, field)
            .into_iter()
            .map(|k: Kind| (table::<W>(size, touching, shapes, k), k.force(), k.size()))
            .collect();
        let shore = match (&field.border, ruleset.has_terrain()) {
            (Some(b), _) => Shore::known(b, size),
            (None, false) => Shore::sea(size),
            (None, true) => {
                // Sunk units of one force only narrow the secret border.
                let mut shore = Shore::secret(size);
                for (group, forces) in sunk_groups(field, &sunk) {
                    if forces.iter().all(|&f| f == forces[0]) {
                        let mut next = shore.clone();
                        if next.stand(&group, forces[0]) {
                            shore = next;
                        }
                    }
                }
                shore
            }
        };
        Problem {
            items,
            single: table::<W>(size, touching, shapes, Kind::Ship(1)),
            mines: usize::from(ruleset.mines).saturating_sub(found_mines),
            free,
            hits,
            must,
            empty,
            sunk,
            shore,
            tilt: None,
        }
    }

    /// One consistent layout: the ship cells, the mine cells and its importance weight (see
    /// [`Problem::fill`]).
    pub fn sample(
        &self,
        rng: &mut impl Rng,
        buf: &mut Vec<(u16, u32)>,
    ) -> Option<(Bits<W>, Bits<W>, f64)> {
        for _ in 0..ATTEMPTS {
            if let Some(layout) = self.fill(None, rng, buf) {
                return Some(layout);
            }
        }
        None
    }

    /// Completes a layout: `preset` ships (cells and zone) already stand and replace every
    /// item larger than one cell; the other items cover the hits left, then go anywhere free.
    ///
    /// Each step picks uniformly among the places open to it, so a layout is drawn with the
    /// chance 1/∏(places open at each step), which favours layouts whose early items left
    /// few places to the later ones. Its weight is that product: weighted so, the layouts
    /// stand for the uniform distribution over all layouts consistent with the view
    /// (sequential importance sampling), as `random_fleet` draws them.
    pub fn fill(
        &self,
        preset: Option<(&Bits<W>, &Bits<W>)>,
        rng: &mut impl Rng,
        buf: &mut Vec<(u16, u32)>,
    ) -> Option<(Bits<W>, Bits<W>, f64)> {
        let mut weight = 1.0;
        let (mut free, mut ships, mut used) = (self.free, Bits::EMPTY, 0u64);
        let mut shore = self.shore.clone();
        let mut uncovered = self.hits | self.must;
        if let Some((cells, zone)) = preset {
            free = free.minus(zone);
            ships = *cells;
            uncovered = uncovered.minus(cells);
            for (i, item) in self.items.iter().enumerate() {
                if item.2 > 1 {
                    used |= 1 << i;
                }
            }
        }
        // An item through every hit.
        while let Some(h) = uncovered.lowest() {
            buf.clear();
            for (i, (t, force, _)) in self.items.iter().enumerate() {
                if used >> i & 1 == 1 {
                    continue;
                }
                for &k in &t.by_cell[h] {
                    let p = &t.list[k as usize];
                    if p.cells.subset_of(&free)
                        && (p.zone & uncovered).subset_of(&p.cells)
                        && !p.cells.subset_of(&self.hits)
                        && shore.fits(&p.cells, *force)
                    {
                        buf.push((i as u16, k));
                    }
                }
            }
            let (i, k) = match &self.tilt {
                None => {
                    let &(i, k) = buf.choose(rng)?;
                    weight *= buf.len() as f64;
                    (i, k)
                }
                Some(tilt) => {
                    let (at, sum) =
                        choose_tilted(buf, |i, k| tilt[usize::from(i)][k as usize], rng)?;
                    weight *= sum;
                    buf[at]
                }
            };
            let (t, force, _) = &self.items[usize::from(i)];
            let p = &t.list[k as usize];
            if !shore.stand(&p.cells, *force) {
                return None;
            }
            used |= 1 << i;
            free = free.minus(&p.zone);
            ships = ships | p.cells;
            uncovered = uncovered.minus(&p.cells);
        }
        // The rest anywhere free, largest first.
        let mut open = free.minus(&self.hits);
        for (i, (t, force, _)) in self.items.iter().enumerate() {
            if used >> i & 1 == 1 {
                continue;
            }
            let k = match &self.tilt {
                None => {
                    let k = pick(t, &open, *force, &shore, rng, buf)?;
                    weight *= buf.len() as f64;
                    k
                }
                Some(tilt) => {
                    pick(t, &open, *force, &shore, rng, buf)?;
                    let (at, sum) = choose_tilted(buf, |_, k| tilt[i][k as usize], rng)?;
                    weight *= sum;
                    buf[at].1 as usize
                }
            };
            let p = &t.list[k];
            if !shore.stand(&p.cells, *force) {
                return None;
            }
            open = open.minus(&p.zone);
            ships = ships | p.cells;
        }
        let mut mines = Bits::EMPTY;
        for _ in 0..self.mines {
            let k = pick(&self.single, &open, Force::Sea, &shore, rng, buf)?;
            weight *= buf.len() as f64;
            let p = &self.single.list[k];
            if !shore.stand(&p.cells, Force::Sea) {
                return None;
            }
            open = open.minus(&p.zone);
            mines = mines | p.cells;
        }
        Some((ships, mines, weight))
    }
}

/// A random placement of `t` wholly on `open` cells, on its terrain.
fn pick<const W: usize>(
    t: &Table<W>,
    open: &Bits<W>,
    force: Force,
    shore: &Shore<W>,
    rng: &mut impl Rng,
    buf: &mut Vec<(u16, u32)>,
) -> Option<usize> {
    buf.clear();
    for (k, p) in t.list.iter().enumerate() {
        if p.cells.subset_of(open) && shore.fits(&p.cells, force) {
            buf.push((0, k as u32));
        }
    }
    buf.choose(rng).map(|&(_, k)| k as usize)
}

/// One of `buf`'s places with chance ∝ `weigh(item, place)`: its position in `buf` and the
/// weights' sum (the tilted step's importance factor: the layout's chance under the tilted
/// prior over its chance to be drawn). `None` if `buf` is empty or weighs nothing.
fn choose_tilted(
    buf: &[(u16, u32)],
    weigh: impl Fn(u16, u32) -> f64,
    rng: &mut impl Rng,
) -> Option<(usize, f64)> {
    let sum: f64 = buf.iter().map(|&(i, k)| weigh(i, k)).sum();
    if buf.is_empty() || sum.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let mut at = rng.gen::<f64>() * sum;
    for (n, &(i, k)) in buf.iter().enumerate() {
        at -= weigh(i, k);
        if at < 0.0 {
            return Some((n, sum));
        }
    }
    Some((buf.len() - 1, sum))
}
