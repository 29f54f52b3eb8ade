//! Fixed-width bit boards for the AI's sampler: one bit a cell in row-major order, `W` words.
//!
//! The sampler is generic over `W` so that the classic field (100 cells) works on two words
//! and the widest field (26×26 = 676 cells) on eleven; [`words_for`] picks the width.

use std::ops::{BitAnd, BitOr, Not};

/// A set of cells of one field as `W` 64-bit words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bits<const W: usize>(pub [u64; W]);

/// The number of words the sampler uses for a field of `area` cells: 2, 4, 6 or 11.
pub(crate) fn words_for(area: usize) -> usize {
    match area {
        0..=128 => 2,
        129..=256 => 4,
        257..=384 => 6,
        _ => 11,
    }
}

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    /// The empty set.
    pub const EMPTY: Self = Bits([0; W]);

    /// Adds cell `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Whether cell `i` is in the set.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn subset_of(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(&self, other: &Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// `self` without the cells of `other`.
    #[inline]
    pub fn minus(&self, other: &Self) -> Self {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&other.0) {
            *a &= !b;
        }
        out
    }

    /// Number of cells.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The lowest cell in the set.
    #[inline]
    pub fn lowest(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
    }

    /// The cells, lowest first.
    pub fn ones(self) -> impl Iterator<Item = usize> {
        (0..W).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let i = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + i
                })
            })
        })
    }
}

impl<const W: usize> BitOr for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
        self
    }
}

impl<const W: usize> BitAnd for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitand(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
        self
    }
}

impl<const W: usize> Not for Bits<W> {
    type Output = Self;
    #[inline]
    fn not(mut self) -> Self {
        for a in self.0.iter_mut() {
            *a = !*a;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_holds_cells_across_words_and_lists_them_in_order() {
        let mut b = Bits::<2>::EMPTY;
        for i in [0, 63, 64, 99] {
            b.set(i);
        }
        assert_eq!(b.ones().collect::<Vec<_>>(), vec![0, 63, 64, 99]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.lowest(), Some(0));
        let mut all = Bits::<2>::EMPTY;
        (0..100).for_each(|i| all.set(i));
        assert!(b.subset_of(&all));
        assert!(!all.subset_of(&b));
        assert_eq!(all.minus(&b).count(), 96);
        assert!(b.intersects(&all));
        assert_eq!(words_for(100), 2);
        assert_eq!(words_for(676), 11);
    }
}
