//! The hard AI's posterior: whole-fleet layouts of the ships still afloat, sampled at random
//! among those consistent with everything seen (misses, halos, hits, sunk ships and the
//! touching rule), and the cell most of them cover.

use crate::ai::{afloat_sizes, excluded, open, wounded};
use crate::coord::Coord;
use crate::fleet;
use crate::view::{FieldView, Mark, View};
use rand::seq::SliceRandom;
use rand::Rng;

/// Layouts sampled for one decision.
pub const SAMPLES: usize = 300;
/// Attempts to build one consistent layout before giving it up.
const ATTEMPTS: usize = 40;

/// The open cell covered by the most sampled layouts, if any layout could be sampled.
pub fn most_likely(view: &View, field: &FieldView, rng: &mut impl Rng) -> Option<Coord> {
    let size = field.size;
    let touching = view.ruleset.touching();
    let bad = excluded(field, touching);
    let hits = wounded(field);
    let mut sizes = afloat_sizes(view, field);
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    // Cells no afloat ship may cover: known empty, sunk, or ruled out by the touching rule.
    let blocked: Vec<bool> = size
        .cells()
        .map(|c| {
            let m = field.mark(c);
            !(open(m) || m == Mark::Hit) || bad[size.index(c)]
        })
        .collect();
    let mut counts = vec![0u32; size.area()];
    let mut found = 0;
    for _ in 0..SAMPLES {
        if let Some(cells) = sample(field, &blocked, &hits, &sizes, touching, rng) {
            found += 1;
            for c in cells {
                counts[size.index(c)] += 1;
            }
        }
    }
    if found == 0 {
        return None;
    }
    size.cells()
        .filter(|&c| open(field.mark(c)) && !bad[size.index(c)])
        .max_by_key(|&c| (counts[size.index(c)], rng.gen::<u16>()))
}

/// One layout: ships through the hits first, then the rest anywhere allowed.
fn sample(
    field: &FieldView,
    blocked: &[bool],
    hits: &[Coord],
    sizes: &[u8],
    touching: crate::ruleset::Touching,
    rng: &mut impl Rng,
) -> Option<Vec<Coord>> {
    let size = field.size;
    'attempt: for _ in 0..ATTEMPTS {
        let mut taken = blocked.to_vec();
        let mut covered: Vec<Coord> = Vec::new();
        let mut left: Vec<u8> = sizes.to_vec();
        // Cover every hit with some ship through it.
        for &h in hits {
            if covered.contains(&h) {
                continue;
            }
            let mut options: Vec<(usize, Vec<Coord>)> = Vec::new();
            for (i, &n) in left.iter().enumerate() {
                for cells in lines_through(h, n, size) {
                    if cells.iter().all(|&c| {
                        !taken[size.index(c)]
                            || (field.mark(c) == Mark::Hit && !covered.contains(&c))
                    }) {
                        options.push((i, cells));
                    }
                }
            }
            let Some((i, cells)) = options.choose(rng).cloned() else {
                continue 'attempt;
            };
            left.remove(i);
            place(&mut taken, &cells, touching, size);
            covered.extend(cells);
        }
        // The rest, largest first, anywhere free.
        for &n in &left {
            let free: Vec<Vec<Coord>> = size
                .cells()
                .flat_map(|c| straight(c, n, size))
                .filter(|cells| cells.iter().all(|&c| !taken[size.index(c)]))
                .collect();
            let Some(cells) = free.choose(rng).cloned() else {
                continue 'attempt;
            };
            place(&mut taken, &cells, touching, size);
            covered.extend(cells);
        }
        return Some(covered);
    }
    None
}

fn place(
    taken: &mut [bool],
    cells: &[Coord],
    touching: crate::ruleset::Touching,
    size: crate::Size,
) {
    for &c in cells.iter().chain(&fleet::halo(cells, touching, size)) {
        taken[size.index(c)] = true;
    }
}

/// The horizontal and vertical lines of `n` cells starting at `c`.
fn straight(c: Coord, n: u8, size: crate::Size) -> Vec<Vec<Coord>> {
    let dirs: &[(i8, i8)] = if n == 1 { &[(1, 0)] } else { &[(1, 0), (0, 1)] };
    dirs.iter()
        .filter_map(|&(dx, dy)| {
            (0..n)
                .map(|k| c.offset(dx * k as i8, dy * k as i8, size))
                .collect()
        })
        .collect()
}

/// Every line of `n` cells through `c`.
fn lines_through(c: Coord, n: u8, size: crate::Size) -> Vec<Vec<Coord>> {
    let mut out = Vec::new();
    for (dx, dy) in [(1i8, 0i8), (0, 1)] {
        for back in 0..n {
            if let Some(start) = c.offset(-dx * back as i8, -dy * back as i8, size) {
                if let Some(cells) = (0..n)
                    .map(|k| start.offset(dx * k as i8, dy * k as i8, size))
                    .collect::<Option<Vec<Coord>>>()
                {
                    out.push(cells);
                }
            }
            if n == 1 {
                return out;
            }
        }
    }
    out
}
