//! The secret land-sea border of land-sea-air (docs/rules.md §3.7).

use crate::coord::{Coord, Size};
use crate::kind::Force;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// The land-sea-air field: 20 columns, 15 rows.
pub const LAND_SEA_AIR_SIZE: Size = Size::new(20, 15);
/// The highest row (from zero) where land may start: row 5 for people.
pub const LAND_FIRST: u8 = 4;
/// The lowest row (from zero) where land may start: row 11 for people.
pub const LAND_LAST: u8 = 10;

/// For each column, the row (from zero) where land starts; above it is sea.
/// Neighbouring columns differ by at most one row.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Border(Vec<u8>);

/// Why a border is not allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorderError {
    /// The border has a different number of columns than the field.
    WrongWidth,
    /// Land starts outside rows 5–11 in this column.
    OutOfRange {
        /// The column.
        column: u8,
    },
    /// This column differs by more than one row from the one to its left.
    TooSteep {
        /// The column.
        column: u8,
    },
}

impl Border {
    /// A straight border with land from row `start` (from zero) in every column.
    pub fn flat(width: u8, start: u8) -> Border {
        Border(vec![start; usize::from(width)])
    }

    /// A random wavy border for a field `width` wide.
    pub fn random(width: u8, rng: &mut impl Rng) -> Border {
        let mut rows = Vec::with_capacity(usize::from(width));
        let mut row = rng.gen_range(LAND_FIRST..=LAND_LAST);
        for _ in 0..width {
            rows.push(row);
            let step: i8 = rng.gen_range(-1..=1);
            row = row.saturating_add_signed(step).clamp(LAND_FIRST, LAND_LAST);
        }
        Border(rows)
    }

    /// A border from the land's first row (from zero) in each column.
    ///
    /// # Errors
    /// The first rule the rows break.
    pub fn from_rows(rows: Vec<u8>, width: u8) -> Result<Border, BorderError> {
        let border = Border(rows);
        border.check(width)?;
        Ok(border)
    }

    /// The land's first row (from zero) in each column.
    pub fn rows(&self) -> &[u8] {
        &self.0
    }

    /// Checks the border against the rules for a field `width` wide.
    ///
    /// # Errors
    /// The first rule the border breaks.
    pub fn check(&self, width: u8) -> Result<(), BorderError> {
        if self.0.len() != usize::from(width) {
            return Err(BorderError::WrongWidth);
        }
        for (x, &row) in self.0.iter().enumerate() {
            let column = x as u8;
            if !(LAND_FIRST..=LAND_LAST).contains(&row) {
                return Err(BorderError::OutOfRange { column });
            }
            if x > 0 && self.0[x - 1].abs_diff(row) > 1 {
                return Err(BorderError::TooSteep { column });
            }
        }
        Ok(())
    }

    /// The border with one column moved up (`-1`) or down (`+1`).
    ///
    /// # Errors
    /// The rule the moved border would break; `self` is unchanged.
    pub fn shifted(&self, column: u8, delta: i8) -> Result<Border, BorderError> {
        let mut rows = self.0.clone();
        let row = rows
            .get_mut(usize::from(column))
            .ok_or(BorderError::OutOfRange { column })?;
        *row = row
            .checked_add_signed(delta)
            .ok_or(BorderError::OutOfRange { column })?;
        Border::from_rows(rows, self.0.len() as u8)
    }

    /// Whether the cell is land.
    pub fn is_land(&self, c: Coord) -> bool {
        self.0.get(usize::from(c.x)).is_some_and(|&row| c.y >= row)
    }

    /// Whether a unit of `force` may stand on `c`.
    pub fn allows(&self, force: Force, c: Coord) -> bool {
        match force {
            Force::Air => true,
            Force::Land => self.is_land(c),
            Force::Sea => !self.is_land(c),
        }
    }
}

/// Whether a unit of `force` may stand on `c` given an optional border (no border: all sea).
pub fn allows(border: Option<&Border>, force: Force, c: Coord) -> bool {
    match border {
        Some(b) => b.allows(force, c),
        None => force != Force::Land,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_random_border_keeps_land_between_rows_five_and_eleven_and_steps_by_one() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..500 {
            let b = Border::random(20, &mut rng);
            assert_eq!(b.check(20), Ok(()));
        }
    }

    #[test]
    fn a_border_step_of_two_rows_is_refused() {
        let mut rows = vec![6; 20];
        rows[3] = 8;
        assert_eq!(
            Border::from_rows(rows, 20),
            Err(BorderError::TooSteep { column: 3 })
        );
        assert_eq!(
            Border::from_rows(vec![3; 20], 20),
            Err(BorderError::OutOfRange { column: 0 })
        );
    }

    #[test]
    fn shifting_a_column_past_its_neighbours_is_refused_and_changes_nothing() {
        let b = Border::flat(20, 6);
        let once = b.shifted(5, 1).unwrap();
        assert!(once.shifted(5, 1).is_err());
        assert_eq!(once.rows()[5], 7);
        assert_eq!(b.rows()[5], 6);
    }

    #[test]
    fn land_lies_below_the_border_and_sea_above() {
        let b = Border::flat(20, 6);
        assert!(b.is_land(Coord::new(0, 6)));
        assert!(!b.is_land(Coord::new(0, 5)));
        assert!(b.allows(Force::Air, Coord::new(0, 0)));
        assert!(!b.allows(Force::Land, Coord::new(0, 0)));
    }
}
