//! The board of docs/rules.md §5: ships stand on the points of a 12-column × 13-row lattice.
//! The chart is point-symmetric, so both sides are equal.

use serde::{Deserialize, Serialize};

/// Columns of the lattice.
pub const COLS: u8 = 12;
/// Rows of the lattice.
pub const ROWS: u8 = 13;

/// The chart, row 1 (north) first: `.` sea, `#` land, `B` battery (land), `o` start point,
/// `r` a point covered by the battery of its half, `L` a lighthouse (a sea point).
const CHART: [&str; ROWS as usize] = [
    "###B##......",
    "rrrrr.......",
    "oooooooooooo",
    "............",
    "..##........",
    "..##....L...",
    "............",
    "...L....##..",
    "........##..",
    "............",
    "oooooooooooo",
    ".......rrrrr",
    "......##B###",
];

/// One of the two players: North starts on row 3, South on row 11.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Rows 1–6 are its half.
    North,
    /// Rows 8–13 are its half.
    South,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::North => Side::South,
            Side::South => Side::North,
        }
    }

    /// Both sides, North first.
    pub const BOTH: [Side; 2] = [Side::North, Side::South];
}

/// What a point of the chart is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Open sea.
    Sea,
    /// Land, a coastal battery included: no ship may stand there.
    Land,
    /// A start point of the side whose start line it is on.
    Start(Side),
    /// A sea point covered by the battery of the side whose half it is on.
    Red(Side),
    /// A lighthouse: a sea point ships pass and stop on.
    Lighthouse,
}

/// A point of the lattice: column and row from 0 (column 1 and row 1 of the chart are 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Point {
    /// Column, 0–11.
    pub col: u8,
    /// Row, 0–12 (0 is the north coast).
    pub row: u8,
}

impl Point {
    /// The point at `col`, `row` (from 0), if on the lattice.
    pub fn new(col: u8, row: u8) -> Option<Point> {
        (col < COLS && row < ROWS).then_some(Point { col, row })
    }

    /// What the chart shows here.
    pub fn terrain(self) -> Terrain {
        let c = CHART[usize::from(self.row)].as_bytes()[usize::from(self.col)];
        match c {
            b'#' | b'B' => Terrain::Land,
            b'o' => Terrain::Start(if self.row < 7 {
                Side::North
            } else {
                Side::South
            }),
            b'r' => Terrain::Red(if self.row < 7 {
                Side::North
            } else {
                Side::South
            }),
            b'L' => Terrain::Lighthouse,
            _ => Terrain::Sea,
        }
    }

    /// Whether a ship may stand here.
    pub fn is_sea(self) -> bool {
        self.terrain() != Terrain::Land
    }

    /// The half the point lies on (row 7 belongs to neither).
    pub fn half(self) -> Option<Side> {
        match self.row {
            0..=5 => Some(Side::North),
            7..=12 => Some(Side::South),
            _ => None,
        }
    }

    /// Every point of the lattice, row by row.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..ROWS).flat_map(|row| (0..COLS).map(move |col| Point { col, row }))
    }

    /// `side`'s start points, west to east.
    pub fn starts(side: Side) -> Vec<Point> {
        Point::all()
            .filter(|p| p.terrain() == Terrain::Start(side))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_is_point_symmetric_and_each_side_has_twelve_starts() {
        for p in Point::all() {
            let q = Point::new(COLS - 1 - p.col, ROWS - 1 - p.row).unwrap();
            let mirror = |t: Terrain| match t {
                Terrain::Start(s) => Terrain::Start(s.other()),
                Terrain::Red(s) => Terrain::Red(s.other()),
                t => t,
            };
            assert_eq!(p.terrain(), mirror(q.terrain()), "{p:?} against {q:?}");
        }
        for side in Side::BOTH {
            assert_eq!(Point::starts(side).len(), 12);
        }
        assert_eq!(
            Point::new(3, 0).unwrap().terrain(),
            Terrain::Land,
            "a battery is land"
        );
        assert_eq!(Point::new(8, 5).unwrap().terrain(), Terrain::Lighthouse);
        assert_eq!(
            Point::new(0, 1).unwrap().terrain(),
            Terrain::Red(Side::North)
        );
        assert_eq!(Point::new(6, 3).unwrap().half(), Some(Side::North));
        assert_eq!(Point::new(6, 6).unwrap().half(), None);
        assert!(Point::new(12, 0).is_none() && Point::new(0, 13).is_none());
    }
}
