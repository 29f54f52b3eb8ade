//! Cells and field sizes.
//!
//! A [`Coord`] is a column (`x`, from the left) and a row (`y`, from the top), both counted
//! from zero. How a cell is written for people (`в6`, `К10`, `D6`) depends on the chat's
//! [`Alphabet`](crate::Alphabet) and lives in `alphabet.rs`; stored games write cells in the
//! Latin form (`D6`), which is compact and readable in `redis-cli`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The smallest and largest width or height a field may have.
pub const MIN_SIDE: u8 = 5;
/// The largest width or height a field may have (26 Latin letters).
pub const MAX_SIDE: u8 = 26;

/// One cell of a field: column `x` and row `y`, both from zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// Column, 0 = the leftmost (`а`, `A`).
    pub x: u8,
    /// Row, 0 = the top one (`1`).
    pub y: u8,
}

impl Coord {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u8, y: u8) -> Self {
        Coord { x, y }
    }

    /// The cell shifted by `(dx, dy)`, if it stays inside `size`.
    pub fn offset(self, dx: i8, dy: i8, size: Size) -> Option<Coord> {
        let x = i16::from(self.x) + i16::from(dx);
        let y = i16::from(self.y) + i16::from(dy);
        let c = Coord::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
        size.contains(c).then_some(c)
    }

    /// The up to four cells sharing a side with this one.
    pub fn sides(self, size: Size) -> impl Iterator<Item = Coord> {
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .into_iter()
            .filter_map(move |(dx, dy)| self.offset(dx, dy, size))
    }

    /// The up to four cells sharing only a corner with this one.
    pub fn corners(self, size: Size) -> impl Iterator<Item = Coord> {
        [(-1, -1), (1, -1), (-1, 1), (1, 1)]
            .into_iter()
            .filter_map(move |(dx, dy)| self.offset(dx, dy, size))
    }

    /// The up to eight cells around this one.
    pub fn around(self, size: Size) -> impl Iterator<Item = Coord> {
        self.sides(size).chain(self.corners(size))
    }

    /// The Latin form used in storage and in fleet commitments: `A1` … `Z26`.
    pub fn latin(self) -> String {
        format!("{}{}", char::from(b'A' + self.x), u32::from(self.y) + 1)
    }

    /// Reads the Latin storage form written by [`Coord::latin`].
    pub fn from_latin(text: &str) -> Option<Coord> {
        let mut chars = text.chars();
        let col = chars.next()?;
        if !col.is_ascii_uppercase() {
            return None;
        }
        let row: u8 = chars.as_str().parse().ok()?;
        if row == 0 || row > MAX_SIDE {
            return None;
        }
        Some(Coord::new(col as u8 - b'A', row - 1))
    }
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.latin())
    }
}

impl Serialize for Coord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.latin())
    }
}

impl<'de> Deserialize<'de> for Coord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Coord::from_latin(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a cell: {text:?}")))
    }
}

/// The width and height of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Size {
    /// Number of columns.
    #[serde(rename = "w")]
    pub width: u8,
    /// Number of rows.
    #[serde(rename = "h")]
    pub height: u8,
}

impl Size {
    /// A field of `width` columns and `height` rows.
    pub const fn new(width: u8, height: u8) -> Self {
        Size { width, height }
    }

    /// Number of cells.
    pub fn area(self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Whether `c` lies on the field.
    pub fn contains(self, c: Coord) -> bool {
        c.x < self.width && c.y < self.height
    }

    /// The index of `c` in row-major order.
    pub fn index(self, c: Coord) -> usize {
        usize::from(c.y) * usize::from(self.width) + usize::from(c.x)
    }

    /// The cell with row-major index `i`.
    pub fn coord(self, i: usize) -> Coord {
        let w = usize::from(self.width);
        Coord::new((i % w) as u8, (i / w) as u8)
    }

    /// Every cell, row by row.
    pub fn cells(self) -> impl Iterator<Item = Coord> {
        (0..self.area()).map(move |i| self.coord(i))
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_storage_form_of_a_cell_round_trips_on_the_widest_board() {
        let size = Size::new(MAX_SIDE, MAX_SIDE);
        for c in size.cells() {
            assert_eq!(Coord::from_latin(&c.latin()), Some(c));
        }
        assert_eq!(Coord::new(3, 5).latin(), "D6");
        assert_eq!(Coord::from_latin("A0"), None);
        assert_eq!(Coord::from_latin("a1"), None);
    }

    #[test]
    fn a_corner_cell_has_three_neighbours() {
        let size = Size::new(10, 10);
        assert_eq!(Coord::new(0, 0).around(size).count(), 3);
        assert_eq!(Coord::new(5, 5).around(size).count(), 8);
        assert_eq!(Coord::new(9, 0).sides(size).count(), 2);
    }
}
