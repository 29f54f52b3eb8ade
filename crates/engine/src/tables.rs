//! Every placement of one kind of ship or unit on a field, as bit boards: its cells and its
//! *zone* (the cells and the halo no other item may cover under the touching rule). Built once
//! per thread and field, then shared by every decision of the AI.

use crate::bits::Bits;
use crate::coord::{Coord, Size};
use crate::kind::Kind;
use crate::ruleset::Touching;
use crate::shape::{self, Cells, Shapes};
use std::any::Any;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// Free shapes are enumerated in full up to this size; larger ones use lines and bent shapes.
pub(crate) const FREE_SHAPES_UP_TO: u8 = 5;

/// One placement: its cells, and its cells with the halo around them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement<const W: usize> {
    /// The cells the item covers.
    pub cells: Bits<W>,
    /// The cells plus the halo no other item may cover.
    pub zone: Bits<W>,
}

/// Every placement of one kind.
pub(crate) struct Table<const W: usize> {
    /// The placements.
    pub list: Vec<Placement<W>>,
    /// For each cell, the placements covering it (indices into `list`).
    pub by_cell: Vec<Vec<u32>>,
}

/// The cells plus the halo of `cells` under `touching`.
pub(crate) fn zone_of<const W: usize>(cells: &Bits<W>, size: Size, touching: Touching) -> Bits<W> {
    let mut out = *cells;
    for i in cells.ones() {
        let c = size.coord(i);
        let near: Vec<Coord> = match touching {
            Touching::None => c.around(size).collect(),
            Touching::Corners => c.sides(size).collect(),
            Touching::Any => Vec::new(),
        };
        for n in near {
            out.set(size.index(n));
        }
    }
    out
}

/// Every fixed (not up to rotation) polyomino of `n` cells, normalised to the origin.
fn fixed_polyominoes(n: u8) -> Vec<Cells> {
    let mut level: BTreeSet<Vec<(i16, i16)>> = BTreeSet::from([vec![(0, 0)]]);
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for shape in &level {
            for &(x, y) in shape {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let c = (x + dx, y + dy);
                    if shape.contains(&c) {
                        continue;
                    }
                    let mut s = shape.clone();
                    s.push(c);
                    let mx = s.iter().map(|c| c.0).min().unwrap_or(0);
                    let my = s.iter().map(|c| c.1).min().unwrap_or(0);
                    let mut s: Vec<(i16, i16)> = s.iter().map(|&(x, y)| (x - mx, y - my)).collect();
                    s.sort_unstable();
                    next.insert(s);
                }
            }
        }
        level = next;
    }
    level
        .into_iter()
        .map(|s| s.into_iter().map(|(x, y)| (x as u8, y as u8)).collect())
        .collect()
}

/// The oriented shapes the sampler places for `kind` under `shapes`.
pub(crate) fn oriented_shapes(kind: Kind, shapes: Shapes) -> Vec<Cells> {
    match kind.templates(shapes) {
        Some(templates) => {
            let set: BTreeSet<Cells> = templates
                .iter()
                .flat_map(|t| shape::orientations(t))
                .collect();
            set.into_iter().collect()
        }
        None if kind.size() <= FREE_SHAPES_UP_TO => fixed_polyominoes(kind.size()),
        None => {
            let templates = shape::ship_templates(kind.size(), Shapes::Bent).unwrap_or_default();
            let set: BTreeSet<Cells> = templates
                .iter()
                .flat_map(|t| shape::orientations(t))
                .collect();
            set.into_iter().collect()
        }
    }
}

fn build<const W: usize>(size: Size, touching: Touching, shapes: Shapes, kind: Kind) -> Table<W> {
    let mut list = Vec::new();
    for o in oriented_shapes(kind, shapes) {
        let w = o.iter().map(|c| c.0).max().unwrap_or(0);
        let h = o.iter().map(|c| c.1).max().unwrap_or(0);
        for y in 0..size.height.saturating_sub(h) {
            for x in 0..size.width.saturating_sub(w) {
                let mut cells = Bits::EMPTY;
                for &(dx, dy) in &o {
                    cells.set(size.index(Coord::new(x + dx, y + dy)));
                }
                let zone = zone_of(&cells, size, touching);
                list.push(Placement { cells, zone });
            }
        }
    }
    let mut by_cell = vec![Vec::new(); size.area()];
    for (k, p) in list.iter().enumerate() {
        for i in p.cells.ones() {
            by_cell[i].push(k as u32);
        }
    }
    Table { list, by_cell }
}

type Key = (Size, Touching, Shapes, Kind, usize);

thread_local! {
    static TABLES: RefCell<HashMap<Key, Rc<dyn Any>>> = RefCell::new(HashMap::new());
}

/// The placements of `kind` on a field, built on first use in this thread.
pub(crate) fn table<const W: usize>(
    size: Size,
    touching: Touching,
    shapes: Shapes,
    kind: Kind,
) -> Rc<Table<W>> {
    let key = (size, touching, shapes, kind, W);
    TABLES.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() > 64 {
            t.clear();
        }
        let entry = t
            .entry(key)
            .or_insert_with(|| Rc::new(build::<W>(size, touching, shapes, kind)) as Rc<dyn Any>);
        Rc::clone(entry)
            .downcast::<Table<W>>()
            .unwrap_or_else(|_| Rc::new(build::<W>(size, touching, shapes, kind)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_one_two_six_nineteen_and_sixty_three_fixed_polyominoes() {
        let counts: Vec<usize> = (1..=5).map(|n| fixed_polyominoes(n).len()).collect();
        assert_eq!(counts, vec![1, 2, 6, 19, 63]);
    }

    #[test]
    fn a_four_ship_has_one_hundred_and_forty_placements_on_the_classic_field() {
        let size = Size::new(10, 10);
        let t = table::<2>(size, Touching::None, Shapes::Straight, Kind::Ship(4));
        assert_eq!(t.list.len(), 140);
        let corner = t.list.iter().find(|p| p.cells.get(0)).unwrap();
        assert_eq!(corner.zone.count(), 4 + 6);
        assert_eq!(t.by_cell[0].len(), 2);
    }
}
