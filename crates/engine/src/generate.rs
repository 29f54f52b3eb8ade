//! Layout generators: a fast random legal layout for every ruleset, and Perelman's layout
//! (docs/rules.md, seed 001): the multi-cell ships packed along the edges into one corner, the
//! single-cell ships spread over the rest of the field.

use crate::coord::{Coord, Size};
use crate::fleet::{self, Fleet, Ship};
use crate::kind::{Force, Kind};
use crate::ruleset::{Ruleset, RulesetError, LAYOUT_SEARCH_ATTEMPTS};
use crate::shape::{self, Cells};
use crate::terrain::{self, Border};
use rand::seq::SliceRandom;
use rand::Rng;

/// Cells that can still take an item, given what is placed and the touching rule.
struct Grid<'a> {
    size: Size,
    blocked: Vec<bool>,
    border: Option<&'a Border>,
    ruleset: &'a Ruleset,
}

impl<'a> Grid<'a> {
    fn new(ruleset: &'a Ruleset, border: Option<&'a Border>) -> Self {
        let size = ruleset.size();
        Grid {
            size,
            blocked: vec![false; size.area()],
            border,
            ruleset,
        }
    }

    fn free(&self, c: Coord, force: Force) -> bool {
        self.size.contains(c)
            && !self.blocked[self.size.index(c)]
            && terrain::allows(self.border, force, c)
    }

    fn take(&mut self, cells: &[Coord]) {
        let halo = fleet::halo(cells, self.ruleset.touching(), self.size);
        for &c in cells.iter().chain(&halo) {
            self.blocked[self.size.index(c)] = true;
        }
    }

    /// Every placement of one of `templates` on free cells.
    fn placements(&self, templates: &[Cells], force: Force) -> Vec<Vec<Coord>> {
        let mut out = Vec::new();
        for t in templates {
            for o in shape::orientations(t) {
                let w = o.iter().map(|c| c.0).max().unwrap_or(0);
                let h = o.iter().map(|c| c.1).max().unwrap_or(0);
                for y in 0..self.size.height.saturating_sub(h) {
                    for x in 0..self.size.width.saturating_sub(w) {
                        let cells: Vec<Coord> = o
                            .iter()
                            .map(|&(dx, dy)| Coord::new(x + dx, y + dy))
                            .collect();
                        if cells.iter().all(|&c| self.free(c, force)) {
                            out.push(cells);
                        }
                    }
                }
            }
        }
        out
    }

    /// A random connected shape of `n` free cells, grown from a random cell.
    fn grow(&self, n: u8, force: Force, rng: &mut impl Rng) -> Option<Vec<Coord>> {
        let free: Vec<Coord> = self.size.cells().filter(|&c| self.free(c, force)).collect();
        for _ in 0..32 {
            let mut cells = vec![*free.choose(rng)?];
            while cells.len() < usize::from(n) {
                let frontier: Vec<Coord> = cells
                    .iter()
                    .flat_map(|c| c.sides(self.size))
                    .filter(|&c| self.free(c, force) && !cells.contains(&c))
                    .collect();
                match frontier.choose(rng) {
                    Some(&c) => cells.push(c),
                    None => break,
                }
            }
            if cells.len() == usize::from(n) {
                return Some(cells);
            }
        }
        None
    }

    fn mines(&mut self, count: u8, rng: &mut impl Rng) -> Option<Vec<Coord>> {
        let mut mines = Vec::new();
        for _ in 0..count {
            let free: Vec<Coord> = self
                .size
                .cells()
                .filter(|&c| self.free(c, Force::Sea))
                .collect();
            let &m = free.choose(rng)?;
            self.take(&[m]);
            mines.push(m);
        }
        Some(mines)
    }
}

fn random_once(ruleset: &Ruleset, rng: &mut impl Rng) -> Option<Fleet> {
    let border = ruleset
        .has_terrain()
        .then(|| Border::random(ruleset.size().width, rng));
    let mut grid = Grid::new(ruleset, border.as_ref());
    let mut ships = Vec::new();
    for kind in ruleset.fleet() {
        let cells = match kind.templates(ruleset.shapes()) {
            Some(templates) => grid
                .placements(&templates, kind.force())
                .choose(rng)?
                .clone(),
            None => grid.grow(kind.size(), kind.force(), rng)?,
        };
        grid.take(&cells);
        ships.push(Ship { kind, cells });
    }
    let mines = grid.mines(ruleset.mines, rng)?;
    Some(Fleet::new_unchecked(ships, mines, border))
}

/// How many placements the exhaustive search may try before it gives up.
const SEARCH_BUDGET: usize = 200_000;

/// Mines on the cells left free, each after the one before in cell order, trying every choice:
/// the ships' search only counts as found when the mines fit too.
fn exhaustive_mines(grid: &Grid, count: u8, after: Option<usize>) -> Option<Vec<Coord>> {
    if count == 0 {
        return Some(Vec::new());
    }
    let start = after.map_or(0, |a| a + 1);
    for c in grid.size.cells().filter(|&c| grid.size.index(c) >= start) {
        if !grid.free(c, Force::Sea) {
            continue;
        }
        let mut next = Grid {
            blocked: grid.blocked.clone(),
            ..*grid
        };
        next.take(&[c]);
        if let Some(mut rest) = exhaustive_mines(&next, count - 1, Some(grid.size.index(c))) {
            rest.insert(0, c);
            return Some(rest);
        }
    }
    None
}

/// Backtracking over every placement of every ship, largest first, within a budget, and then
/// of the mines: finds the tight layouts that random placement misses (four bent 4-ships as
/// squares in a 5×5 field, or ships that leave no room for the mines unless packed).
fn exhaustive(
    grid: &Grid,
    kinds: &[Kind],
    last_first: Option<usize>,
    budget: &mut usize,
    rng: &mut impl Rng,
) -> Option<(Vec<Ship>, Vec<Coord>)> {
    let Some((&kind, rest)) = kinds.split_first() else {
        let mines = exhaustive_mines(grid, grid.ruleset.mines, None)?;
        return Some((Vec::new(), mines));
    };
    // Free shapes: lines and the bent set, a small sample of the allowed shapes.
    let templates = kind
        .templates(grid.ruleset.shapes())
        .or_else(|| shape::ship_templates(kind.size(), shape::Shapes::Bent))
        .unwrap_or_default();
    let mut options = grid.placements(&templates, kind.force());
    options.shuffle(rng);
    // Least constraining first: the placement that blocks the fewest free cells.
    let touching = grid.ruleset.touching();
    options.sort_by_cached_key(|cells| {
        let halo = fleet::halo(cells, touching, grid.size);
        halo.iter()
            .filter(|&&c| !grid.blocked[grid.size.index(c)])
            .count()
    });
    for cells in options {
        // Equal kinds in a row are placed in cell order, so no arrangement is tried twice.
        let first = cells.iter().map(|&c| grid.size.index(c)).min().unwrap_or(0);
        if last_first.is_some_and(|l| first <= l) {
            continue;
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut next = Grid {
            blocked: grid.blocked.clone(),
            ..*grid
        };
        next.take(&cells);
        let same = rest.first() == Some(&kind);
        if let Some((mut ships, mines)) =
            exhaustive(&next, rest, same.then_some(first), budget, rng)
        {
            ships.insert(0, Ship { kind, cells });
            return Some((ships, mines));
        }
    }
    None
}

/// Up to `attempts` random layouts, then an exhaustive search within a budget.
pub(crate) fn search_layout(
    ruleset: &Ruleset,
    rng: &mut impl Rng,
    attempts: usize,
) -> Option<Fleet> {
    if let Some(f) = (0..attempts).find_map(|_| random_once(ruleset, rng)) {
        return Some(f);
    }
    let border = ruleset
        .has_terrain()
        .then(|| Border::random(ruleset.size().width, rng));
    let grid = Grid::new(ruleset, border.as_ref());
    let mut budget = SEARCH_BUDGET;
    let (ships, mines) = exhaustive(&grid, &ruleset.fleet(), None, &mut budget, rng)?;
    Some(Fleet::new_unchecked(ships, mines, border))
}

/// How many whole layouts [`uniform`] draws before it gives up on a ruleset (a crowded custom
/// field, where almost every draw collides): then the backtracking search takes over. About
/// 10 ms.
const UNIFORM_ATTEMPTS: usize = 300_000;

/// A layout drawn exactly uniformly among all legal layouts (given the border, in
/// land-sea-air): every item is put on one of *all* its placements, each equally likely and
/// independently of the others, and the whole draw starts again from nothing as soon as one
/// item covers a cell another item's zone holds (its cells and, under the touching rule, the
/// halo) or a cell its force may not stand on. Every legal layout is then equally likely, since
/// each is drawn by exactly the same number of orderings of equal items. Checking the largest
/// items first only makes a doomed draw end sooner. `None` after `attempts` draws.
fn uniform<const W: usize>(
    ruleset: &Ruleset,
    border: Option<&Border>,
    attempts: usize,
    rng: &mut impl Rng,
) -> Option<Fleet> {
    use crate::bits::Bits;
    let size = ruleset.size();
    let (touching, shapes) = (ruleset.touching(), ruleset.shapes());
    let allowed = |force: Force| {
        let mut b = Bits::<W>::EMPTY;
        for c in size.cells().filter(|&c| terrain::allows(border, force, c)) {
            b.set(size.index(c));
        }
        b
    };
    // Each item's places on ground its force may stand on: the same distribution as drawing
    // among all places and starting again when one stands on the wrong ground, faster.
    let places = |k: Kind, force: Force| -> Vec<crate::tables::Placement<W>> {
        let ground = allowed(force);
        crate::tables::table::<W>(size, touching, shapes, k)
            .list
            .iter()
            .filter(|p| p.cells.subset_of(&ground))
            .copied()
            .collect()
    };
    let mut items: Vec<(Option<Kind>, Vec<crate::tables::Placement<W>>)> = ruleset
        .fleet()
        .into_iter()
        .map(|k| (Some(k), places(k, k.force())))
        .collect();
    if ruleset.mines > 0 {
        // A mine is a single cell at sea, kept apart from ships as a ship would be.
        let sea = places(Kind::Ship(1), Force::Sea);
        items.extend((0..ruleset.mines).map(|_| (None, sea.clone())));
    }
    if items.iter().any(|(_, list)| list.is_empty()) {
        return None;
    }
    let mut chosen = Vec::with_capacity(items.len());
    'draw: for _ in 0..attempts {
        chosen.clear();
        let mut zones = Bits::<W>::EMPTY;
        for (_, list) in &items {
            let p = &list[rng.gen_range(0..list.len())];
            if p.cells.intersects(&zones) {
                continue 'draw;
            }
            zones = zones | p.zone;
            chosen.push(p.cells);
        }
        let mut ships = Vec::new();
        let mut mines = Vec::new();
        for ((kind, _), cells) in items.iter().zip(&chosen) {
            let coords: Vec<Coord> = cells.ones().map(|i| size.coord(i)).collect();
            match kind {
                Some(kind) => ships.push(Ship {
                    kind: *kind,
                    cells: coords,
                }),
                None => mines.extend(coords),
            }
        }
        return Some(Fleet::new_unchecked(ships, mines, border.cloned()));
    }
    None
}

/// [`uniform`] at the word width the field needs.
fn uniform_layout(
    ruleset: &Ruleset,
    border: Option<&Border>,
    attempts: usize,
    rng: &mut impl Rng,
) -> Option<Fleet> {
    match crate::bits::words_for(ruleset.size().area()) {
        2 => uniform::<2>(ruleset, border, attempts, rng),
        4 => uniform::<4>(ruleset, border, attempts, rng),
        6 => uniform::<6>(ruleset, border, attempts, rng),
        _ => uniform::<11>(ruleset, border, attempts, rng),
    }
}

/// A random legal layout: border (in land-sea-air), ships and mines, every legal layout
/// equally likely (given the border). Free-shaped ships of more than five cells take the
/// straight and bent shapes only. On a field so crowded that uniform draws almost never fit,
/// it falls back to a search that finds a layout, not a uniform one.
///
/// # Errors
/// [`RulesetError::NoLegalLayout`] only for a ruleset that fails [`Ruleset::check`]: when the
/// random search runs out, the search `check` made is made again (with its seed), so a layout
/// it found is found again.
pub fn random_fleet(ruleset: &Ruleset, rng: &mut impl Rng) -> Result<Fleet, RulesetError> {
    let border = ruleset
        .has_terrain()
        .then(|| Border::random(ruleset.size().width, rng));
    if let Some(f) = uniform_layout(ruleset, border.as_ref(), UNIFORM_ATTEMPTS, rng) {
        return Ok(f);
    }
    search_layout(ruleset, rng, LAYOUT_SEARCH_ATTEMPTS * 4)
        .or_else(|| checks_layout(ruleset))
        .ok_or(RulesetError::NoLegalLayout)
}

/// The seed [`Ruleset::check`] searches with, so its verdict on a ruleset never changes.
pub(crate) const CHECK_SEED: u64 = 0x5EA_BA77;

/// The layout [`Ruleset::check`] finds: its search with its seed and its number of tries.
pub(crate) fn checks_layout(ruleset: &Ruleset) -> Option<Fleet> {
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(CHECK_SEED);
    search_layout(ruleset, &mut rng, LAYOUT_SEARCH_ATTEMPTS)
}

fn perelman_once(ruleset: &Ruleset, rng: &mut impl Rng, noise: f64) -> Option<Fleet> {
    let size = ruleset.size();
    let border = ruleset
        .has_terrain()
        .then(|| Border::random(size.width, rng));
    let mut grid = Grid::new(ruleset, border.as_ref());
    // The corner the big ships are pressed into; in land-sea-air a top corner, at sea.
    let cx = if rng.gen() { 0 } else { size.width - 1 };
    let cy = if ruleset.has_terrain() || rng.gen() {
        0
    } else {
        size.height - 1
    };
    let score = |cells: &[Coord], rng: &mut dyn rand::RngCore| -> f64 {
        let s: u32 = cells
            .iter()
            .map(|c| {
                let (dx, dy) = (u32::from(c.x.abs_diff(cx)), u32::from(c.y.abs_diff(cy)));
                dx.min(dy) * 16 + dx.max(dy)
            })
            .sum();
        f64::from(s) + rng.gen::<f64>() * noise
    };
    let mut ships = Vec::new();
    let fleet = ruleset.fleet();
    let (big, small): (Vec<Kind>, Vec<Kind>) = fleet.iter().partition(|k| k.size() > 1);
    for kind in big {
        let templates = match kind {
            // Straight lines are allowed under every shape rule and pack tightest along an edge.
            Kind::Ship(n) => vec![shape::line(n)],
            _ => kind.templates(ruleset.shapes())?,
        };
        let mut options = grid.placements(&templates, kind.force());
        options.shuffle(rng);
        let cells = options
            .into_iter()
            .map(|cells| (score(&cells, rng), cells))
            .min_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        grid.take(&cells);
        ships.push(Ship { kind, cells });
    }
    for kind in small {
        let placed: Vec<Coord> = ships.iter().flat_map(|s| s.cells.clone()).collect();
        let mut options: Vec<Coord> = size
            .cells()
            .filter(|&c| grid.free(c, kind.force()))
            .collect();
        options.shuffle(rng);
        // Spread out: the free cell farthest from everything placed so far.
        let &cell = options.iter().max_by_key(|c| {
            placed
                .iter()
                .map(|p| u32::from(p.x.abs_diff(c.x)).pow(2) + u32::from(p.y.abs_diff(c.y)).pow(2))
                .min()
                .unwrap_or(0)
        })?;
        grid.take(&[cell]);
        ships.push(Ship {
            kind,
            cells: vec![cell],
        });
    }
    let mines = grid.mines(ruleset.mines, rng)?;
    Some(Fleet::new_unchecked(ships, mines, border))
}

/// How many draws [`perelman_ring`] makes before it leaves the field to the older packing.
const RING_ATTEMPTS: usize = 20_000;

/// Perelman's family on bit boards: every multi-cell ship lies wholly on the field's outer
/// ring of cells (along an edge, or round a corner), each on one of all such places and the
/// draw begun again on any collision, so any packing of the edges is possible; the
/// single-cell ships stand off the ring, spread out (the best spread of a few uniform
/// draws); mines at random at sea.
fn perelman_ring<const W: usize>(ruleset: &Ruleset, rng: &mut impl Rng) -> Option<Fleet> {
    use crate::bits::Bits;
    use crate::tables::{table, Placement};
    let size = ruleset.size();
    let (touching, shapes) = (ruleset.touching(), ruleset.shapes());
    let mut ring = Bits::<W>::EMPTY;
    for c in size.cells() {
        if c.x == 0 || c.y == 0 || c.x + 1 == size.width || c.y + 1 == size.height {
            ring.set(size.index(c));
        }
    }
    let fleet = ruleset.fleet();
    let (big, small): (Vec<Kind>, Vec<Kind>) = fleet.iter().partition(|k| k.size() > 1);
    if big.is_empty() {
        return None;
    }
    let on_ring = |k: Kind| -> Vec<Placement<W>> {
        table::<W>(size, touching, shapes, k)
            .list
            .iter()
            .filter(|p| p.cells.subset_of(&ring))
            .copied()
            .collect()
    };
    let big_places: Vec<Vec<Placement<W>>> = big.iter().map(|&k| on_ring(k)).collect();
    if big_places.iter().any(Vec::is_empty) {
        return None;
    }
    let inner: Vec<Placement<W>> = table::<W>(size, touching, shapes, Kind::Ship(1))
        .list
        .iter()
        .filter(|p| !p.cells.intersects(&ring))
        .copied()
        .collect();
    let spread = |cells: &[usize]| -> u32 {
        let mut least = u32::MAX;
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                let (ca, cb) = (size.coord(a), size.coord(b));
                let d =
                    u32::from(ca.x.abs_diff(cb.x)).pow(2) + u32::from(ca.y.abs_diff(cb.y)).pow(2);
                least = least.min(d);
            }
        }
        least
    };
    'draw: for _ in 0..RING_ATTEMPTS {
        let mut zones = Bits::<W>::EMPTY;
        let mut ships = Vec::new();
        for (kind, places) in big.iter().zip(&big_places) {
            let p = &places[rng.gen_range(0..places.len())];
            if p.cells.intersects(&zones) {
                continue 'draw;
            }
            zones = zones | p.zone;
            ships.push(Ship {
                kind: *kind,
                cells: p.cells.ones().map(|i| size.coord(i)).collect(),
            });
        }
        // The single-cell ships: of a few uniform placements off the ring, the most spread.
        let mut best: Option<(u32, Vec<usize>, Bits<W>)> = None;
        for _ in 0..4 {
            let mut taken = zones;
            let mut cells = Vec::new();
            let mut fits = true;
            for _ in &small {
                let free: Vec<&Placement<W>> = inner
                    .iter()
                    .filter(|p| !p.cells.intersects(&taken))
                    .collect();
                let Some(p) = free.get(rng.gen_range(0..free.len().max(1))) else {
                    fits = false;
                    break;
                };
                taken = taken | p.zone;
                cells.extend(p.cells.ones());
            }
            if fits && best.as_ref().is_none_or(|(s, _, _)| spread(&cells) > *s) {
                best = Some((spread(&cells), cells, taken));
            }
        }
        let Some((_, singles, taken)) = best else {
            continue;
        };
        for (kind, i) in small.iter().zip(singles) {
            ships.push(Ship {
                kind: *kind,
                cells: vec![size.coord(i)],
            });
        }
        // Mines: at sea, anywhere still free.
        let mut grid = Grid::new(ruleset, None);
        for i in taken.ones() {
            grid.blocked[i] = true;
        }
        let mines = grid.mines(ruleset.mines, rng)?;
        return Some(Fleet::new_unchecked(ships, mines, None));
    }
    None
}

/// A layout of Perelman's family (docs/rules.md, seed 001): every multi-cell ship on the field's
/// outer ring, in any of the many ways they can share it, the single-cell ships spread over
/// the rest, mines at random. In land-sea-air, or where the ring cannot
/// take the fleet (a crowded custom field), the big ships are pressed towards a corner
/// instead, with more and more randomness, and at last it falls back to [`random_fleet`].
///
/// # Errors
/// As [`random_fleet`].
pub fn perelman_fleet(ruleset: &Ruleset, rng: &mut impl Rng) -> Result<Fleet, RulesetError> {
    if !ruleset.has_terrain() {
        let ring = match crate::bits::words_for(ruleset.size().area()) {
            2 => perelman_ring::<2>(ruleset, rng),
            4 => perelman_ring::<4>(ruleset, rng),
            6 => perelman_ring::<6>(ruleset, rng),
            _ => perelman_ring::<11>(ruleset, rng),
        };
        if let Some(f) = ring {
            return Ok(f);
        }
    }
    for attempt in 0..64 {
        if let Some(f) = perelman_once(ruleset, rng, 1.0 + f64::from(attempt) * 4.0) {
            return Ok(f);
        }
    }
    random_fleet(ruleset, rng)
}
