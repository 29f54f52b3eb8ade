//! The easy and normal levels, and what every level reads off a field: open cells, hits of
//! ships afloat, cells the touching rule rules out, and the kinds still afloat.

use crate::coord::Coord;
use crate::kind::Kind;
use crate::ruleset::Touching;
use crate::shape::Shapes;
use crate::view::{FieldView, Mark, View};
use rand::seq::SliceRandom;
use rand::Rng;

/// Whether a cell may still hold an unseen ship cell.
pub(crate) fn open(mark: Mark) -> bool {
    matches!(mark, Mark::Unknown)
}

/// Hits of ships still afloat on this field.
pub(crate) fn wounded(field: &FieldView) -> Vec<Coord> {
    field
        .size
        .cells()
        .filter(|&c| field.mark(c) == Mark::Hit)
        .collect()
}

/// Cells that cannot hold a ship by the touching rule: next to a sunk ship or a found mine,
/// and (no touching, only straight units afloat) diagonal to a hit.
pub(crate) fn excluded(view: &View, field: &FieldView) -> Vec<bool> {
    let size = field.size;
    let touching = view.ruleset.touching();
    // A hit's diagonal cells may belong to its own unit unless every unit afloat is a line.
    let straight = view.ruleset.shapes() == Shapes::Straight
        && afloat_kinds(view, field)
            .iter()
            .all(|k| matches!(k, Kind::Ship(_) | Kind::Tank | Kind::AntiAircraft));
    let mut out = vec![false; size.area()];
    for c in size.cells() {
        match (field.mark(c), touching) {
            (Mark::Sunk | Mark::Mine, Touching::None) => {
                c.around(size).for_each(|n| out[size.index(n)] = true)
            }
            (Mark::Sunk | Mark::Mine, Touching::Corners) => {
                c.sides(size).for_each(|n| out[size.index(n)] = true)
            }
            (Mark::Hit, Touching::None) if straight => {
                c.corners(size).for_each(|n| out[size.index(n)] = true)
            }
            _ => {}
        }
    }
    out
}

/// The kinds still afloat on a field, largest first: the fleet less the sunk kinds.
pub(crate) fn afloat_kinds(view: &View, field: &FieldView) -> Vec<Kind> {
    let mut kinds = view.ruleset.fleet();
    for k in &field.sunk {
        if let Some(i) = kinds.iter().position(|x| x == k) {
            kinds.remove(i);
        }
    }
    kinds
}

/// The sizes of the ships still afloat on a field.
pub(crate) fn afloat_sizes(view: &View, field: &FieldView) -> Vec<u8> {
    afloat_kinds(view, field).iter().map(|k| k.size()).collect()
}

pub(crate) fn easy(field: &FieldView, rng: &mut impl Rng) -> Option<Coord> {
    let cells: Vec<Coord> = field
        .size
        .cells()
        .filter(|&c| open(field.mark(c)))
        .collect();
    cells.choose(rng).copied()
}

pub(crate) fn normal(view: &View, field: &FieldView, rng: &mut impl Rng) -> Option<Coord> {
    let size = field.size;
    let bad = excluded(view, field);
    let candidate = |c: Coord| open(field.mark(c)) && !bad[size.index(c)];
    let hits = wounded(field);
    if !hits.is_empty() {
        // Target: extend a line of hits at its ends; a lone hit, at its sides.
        let mut options: Vec<Coord> = Vec::new();
        for &h in &hits {
            for (dx, dy) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
                let aligned = h
                    .offset(-dx, -dy, size)
                    .is_some_and(|p| field.mark(p) == Mark::Hit);
                let mut c = h;
                while let Some(n) = c.offset(dx, dy, size) {
                    if field.mark(n) == Mark::Hit {
                        c = n;
                        continue;
                    }
                    if candidate(n) {
                        // Ends of a line count twice: they are likelier.
                        options.push(n);
                        if aligned {
                            options.push(n);
                        }
                    }
                    break;
                }
            }
        }
        if let Some(&c) = options.choose(rng) {
            return Some(c);
        }
    }
    // Hunt: the parity of the smallest ship afloat, and of those cells the ones the most
    // placements of the ships afloat cover (lines of open cells through it), those on the
    // edge counted `EDGE_FACTOR` times.
    let sizes = afloat_sizes(view, field);
    let smallest = usize::from(sizes.iter().copied().min().unwrap_or(1).max(1));
    // Each size afloat once, with how many ships have it.
    let mut kinds: Vec<(u8, u32)> = Vec::new();
    for &n in &sizes {
        match kinds.iter_mut().find(|k| k.0 == n) {
            Some(k) => k.1 += 1,
            None => kinds.push((n, 1)),
        }
    }
    let mut best: Vec<(u32, Coord)> = Vec::new();
    for c in size.cells().filter(|&c| candidate(c)) {
        if smallest > 1 && (usize::from(c.x) + usize::from(c.y)) % smallest != 0 {
            continue;
        }
        // How many ways the ships afloat could lie over it: the more, the likelier a hit.
        let ways: u32 = kinds
            .iter()
            .map(|&(n, count)| count * line_placements(field, &bad, c, n))
            .sum();
        // People put ships on the edge more often than chance would: its cells count twice.
        let edge = c.x == 0 || c.y == 0 || c.x + 1 == size.width || c.y + 1 == size.height;
        let ways = if edge { ways * EDGE_FACTOR } else { ways };
        best.push((ways, c));
    }
    if best.is_empty() {
        return easy(field, rng);
    }
    let top = best.iter().map(|b| b.0).max().unwrap_or(0);
    let pick: Vec<Coord> = best.iter().filter(|b| b.0 == top).map(|b| b.1).collect();
    pick.choose(rng).copied()
}

/// How much more the normal level's hunt counts an edge cell's placements: people put their
/// ships along the edges more often than chance would (docs/rules.md, seed 001). Against
/// edge-packed boards normal needs 60.3 shots instead of 63.5, against uniform ones 57.7
/// instead of 58.0 (`ai-bench --levels normal --games 4000`, seeds 1–3).
const EDGE_FACTOR: u32 = 2;

/// How many straight placements of a ship of `n` cells over open cells cover `c`.
fn line_placements(field: &FieldView, bad: &[bool], c: Coord, n: u8) -> u32 {
    let size = field.size;
    let ok = |p: Coord| open(field.mark(p)) && !bad[size.index(p)];
    let mut count = 0;
    for (dx, dy) in [(1i8, 0i8), (0, 1)] {
        for start in 0..n {
            let first = c.offset(-dx * start as i8, -dy * start as i8, size);
            let Some(first) = first else { continue };
            let cells: Option<Vec<Coord>> = (0..n)
                .map(|k| first.offset(dx * k as i8, dy * k as i8, size))
                .collect();
            if cells.is_some_and(|cells| cells.iter().all(|&p| ok(p))) {
                count += 1;
            }
            if n == 1 {
                break;
            }
        }
        if n == 1 {
            break;
        }
    }
    count
}
