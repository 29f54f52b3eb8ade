//! What the sampler knows of a land-sea border while it builds one layout (land-sea-air).
//!
//! The enemy's border is secret; every unit placed narrows it: a sea cell `(x, y)` puts the
//! land's first row of column `x` below `y`, a land cell at or above it. [`Shore`] keeps, for
//! each column, the rows the border may still take — within rows 5–11, neighbouring columns
//! at most one row apart, propagated so that any row left in a column extends to a whole
//! border — and the cells where a sea or a land unit may still stand. For a field without
//! land, or with the border shown, the cells are fixed.

use crate::bits::Bits;
use crate::coord::Size;
use crate::kind::Force;
use crate::terrain::{Border, LAND_FIRST, LAND_LAST};

/// The border as far as it is known, and where each force may stand.
#[derive(Clone, Debug)]
pub(crate) struct Shore<const W: usize> {
    /// The lowest and highest row each column's land may start at; empty when fixed.
    bounds: Vec<(u8, u8)>,
    size: Size,
    /// Cells a sea unit may stand on.
    pub sea: Bits<W>,
    /// Cells a land unit may stand on.
    pub land: Bits<W>,
}

impl<const W: usize> Shore<W> {
    /// No land: every cell is sea.
    pub fn sea(size: Size) -> Self {
        let mut sea = Bits::EMPTY;
        (0..size.area()).for_each(|i| sea.set(i));
        Shore {
            bounds: Vec::new(),
            size,
            sea,
            land: Bits::EMPTY,
        }
    }

    /// A border shown in full.
    pub fn known(border: &Border, size: Size) -> Self {
        let mut s = Shore::sea(size);
        for (i, c) in size.cells().enumerate() {
            if border.is_land(c) {
                s.land.set(i);
            }
        }
        s.sea = s.sea.minus(&s.land);
        s
    }

    /// A secret border: any allowed one.
    pub fn secret(size: Size) -> Self {
        let mut s = Shore::sea(size);
        s.bounds = vec![(LAND_FIRST, LAND_LAST); usize::from(size.width)];
        s.update();
        s
    }

    /// Whether an item of `force` may stand on `cells`.
    #[inline]
    pub fn fits(&self, cells: &Bits<W>, force: Force) -> bool {
        match force {
            Force::Air => true,
            Force::Sea => cells.subset_of(&self.sea),
            Force::Land => cells.subset_of(&self.land),
        }
    }

    /// Narrows a secret border by an item of `force` on `cells`; `false` if no border is left.
    pub fn stand(&mut self, cells: &Bits<W>, force: Force) -> bool {
        if self.bounds.is_empty() || force == Force::Air {
            return true;
        }
        for i in cells.ones() {
            let c = self.size.coord(i);
            let b = &mut self.bounds[usize::from(c.x)];
            match force {
                Force::Sea => b.0 = b.0.max(c.y + 1),
                _ => b.1 = b.1.min(c.y),
            }
        }
        self.update()
    }

    /// Propagates the one-row steps between columns and recomputes the cells.
    fn update(&mut self) -> bool {
        let n = self.bounds.len();
        for x in 1..n {
            let prev = self.bounds[x - 1];
            let b = &mut self.bounds[x];
            b.0 = b.0.max(prev.0.saturating_sub(1));
            b.1 = b.1.min(prev.1 + 1);
        }
        for x in (0..n.saturating_sub(1)).rev() {
            let next = self.bounds[x + 1];
            let b = &mut self.bounds[x];
            b.0 = b.0.max(next.0.saturating_sub(1));
            b.1 = b.1.min(next.1 + 1);
        }
        if self.bounds.iter().any(|b| b.0 > b.1) {
            return false;
        }
        let (mut sea, mut land) = (Bits::EMPTY, Bits::EMPTY);
        for (i, c) in self.size.cells().enumerate() {
            let (lo, hi) = self.bounds[usize::from(c.x)];
            if c.y < hi {
                sea.set(i);
            }
            if c.y >= lo {
                land.set(i);
            }
        }
        (self.sea, self.land) = (sea, land);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::Coord;

    #[test]
    fn a_tank_low_down_and_a_ship_just_above_pin_the_border_of_their_column() {
        let size = Size::new(20, 15);
        let mut s = Shore::<6>::secret(size);
        let cell = |x, y| {
            let mut b = Bits::EMPTY;
            b.set(size.index(Coord::new(x, y)));
            b
        };
        assert!(s.fits(&cell(3, 2), Force::Sea));
        assert!(!s.fits(&cell(3, 2), Force::Land));
        assert!(s.stand(&cell(3, 7), Force::Land));
        assert!(s.stand(&cell(3, 6), Force::Sea));
        // Column 3 starts land at row 7 now; column 5 at 5 to 9.
        assert!(!s.fits(&cell(3, 6), Force::Land));
        assert!(s.fits(&cell(5, 5), Force::Land));
        assert!(!s.fits(&cell(5, 4), Force::Land));
        assert!(!s.stand(&cell(4, 9), Force::Sea));
    }
}
