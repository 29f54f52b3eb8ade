//! A compact set of cells of one field, stored as bits in row-major order.

use crate::coord::{Coord, Size};
use serde::{Deserialize, Serialize};

/// A set of cells as bits: `index = y * width + x`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CellSet(Vec<u64>);

impl CellSet {
    /// Whether `c` is in the set.
    pub fn contains(&self, size: Size, c: Coord) -> bool {
        let i = size.index(c);
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Adds `c`; returns whether it was new.
    pub fn insert(&mut self, size: Size, c: Coord) -> bool {
        let i = size.index(c);
        if self.0.len() <= i / 64 {
            self.0.resize(i / 64 + 1, 0);
        }
        let bit = 1u64 << (i % 64);
        let new = self.0[i / 64] & bit == 0;
        self.0[i / 64] |= bit;
        new
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The cells in the set, row by row.
    pub fn iter(&self, size: Size) -> impl Iterator<Item = Coord> + '_ {
        (0..size.area())
            .filter(|&i| self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1))
            .map(move |i| size.coord(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_set_holds_each_cell_once_on_the_widest_field() {
        let size = Size::new(26, 26);
        let mut set = CellSet::default();
        assert!(set.insert(size, Coord::new(25, 25)));
        assert!(!set.insert(size, Coord::new(25, 25)));
        assert!(set.insert(size, Coord::new(0, 0)));
        assert_eq!(set.len(), 2);
        assert!(set.contains(size, Coord::new(25, 25)));
        assert!(!set.contains(size, Coord::new(1, 0)));
        assert_eq!(set.iter(size).count(), 2);
    }
}
