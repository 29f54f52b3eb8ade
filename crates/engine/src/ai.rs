//! The bot as a player: it sees only what its seat's [`View`] shows, never a hidden fleet.
//!
//! - [`Level::Easy`]: a random cell not known to be empty.
//! - [`Level::Normal`]: hunt and target — finish a wounded ship along its line; otherwise
//!   shoot a parity pattern sized to the smallest ship afloat, never next to a hit or a sunk
//!   ship where the touching rule forbids another ship.
//! - [`Level::Hard`]: sample whole-fleet layouts consistent with everything seen, and shoot
//!   the cell most often covered.

use crate::coord::Coord;
use crate::event::SeatId;
use crate::ruleset::Touching;
use crate::view::{FieldView, Mark, View};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How well the bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Random cells, never one known to be empty.
    Easy,
    /// Hunt and target, with parity and the no-touch inferences.
    #[default]
    Normal,
    /// The posterior over whole-fleet layouts, by sampling.
    Hard,
}

impl Level {
    /// Every level.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        })
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| format!("no level {s:?}"))
    }
}

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

/// Cells that cannot hold a ship by the touching rule: next to a sunk ship, and (no touching)
/// diagonal to a hit.
pub(crate) fn excluded(field: &FieldView, touching: Touching) -> Vec<bool> {
    let size = field.size;
    let mut out = vec![false; size.area()];
    for c in size.cells() {
        match (field.mark(c), touching) {
            (Mark::Sunk, Touching::None) => c.around(size).for_each(|n| out[size.index(n)] = true),
            (Mark::Sunk, Touching::Corners) => {
                c.sides(size).for_each(|n| out[size.index(n)] = true)
            }
            (Mark::Hit, Touching::None) => c.corners(size).for_each(|n| out[size.index(n)] = true),
            _ => {}
        }
    }
    out
}

/// The sizes of the ships still afloat on a field, from the fleet and the sunk kinds.
pub(crate) fn afloat_sizes(view: &View, field: &FieldView) -> Vec<u8> {
    let mut sizes: Vec<u8> = view.ruleset.fleet().iter().map(|k| k.size()).collect();
    for k in &field.sunk {
        if let Some(i) = sizes.iter().position(|&s| s == k.size()) {
            sizes.remove(i);
        }
    }
    sizes
}

fn easy(field: &FieldView, rng: &mut impl Rng) -> Option<Coord> {
    let cells: Vec<Coord> = field
        .size
        .cells()
        .filter(|&c| open(field.mark(c)))
        .collect();
    cells.choose(rng).copied()
}

fn normal(view: &View, field: &FieldView, rng: &mut impl Rng) -> Option<Coord> {
    let size = field.size;
    let touching = view.ruleset.touching();
    let bad = excluded(field, touching);
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
    // Hunt: the parity of the smallest ship afloat, among cells where the largest ship afloat
    // still fits (a line of open cells through it).
    let sizes = afloat_sizes(view, field);
    let smallest = usize::from(sizes.iter().copied().min().unwrap_or(1).max(1));
    let mut best: Vec<(u32, Coord)> = Vec::new();
    for c in size.cells().filter(|&c| candidate(c)) {
        if smallest > 1 && (usize::from(c.x) + usize::from(c.y)) % smallest != 0 {
            continue;
        }
        let largest = sizes.iter().copied().max().unwrap_or(1);
        let fits = u32::from(line_placements(field, &bad, c, largest) > 0);
        best.push((fits, c));
    }
    if best.is_empty() {
        return easy(field, rng);
    }
    let top = best.iter().map(|b| b.0).max().unwrap_or(0);
    let pick: Vec<Coord> = best.iter().filter(|b| b.0 == top).map(|b| b.1).collect();
    pick.choose(rng).copied()
}

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

/// The cell to shoot and the field to shoot at, for `seat` seeing `view`.
pub fn choose_shot(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
) -> Option<(SeatId, Coord)> {
    let targets: Vec<&FieldView> = view
        .fields
        .iter()
        .filter(|f| f.seat != seat && f.afloat && !f.full)
        .collect();
    // Finish a wounded ship first, wherever it is.
    let field = targets
        .iter()
        .find(|f| !wounded(f).is_empty())
        .or_else(|| targets.first())?;
    let cell = match level {
        Level::Easy => easy(field, rng),
        Level::Normal => normal(view, field, rng),
        Level::Hard => {
            crate::sampler::most_likely(view, field, rng).or_else(|| normal(view, field, rng))
        }
    }?;
    Some((field.seat, cell))
}
