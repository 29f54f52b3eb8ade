//! The arsenal's weapons (docs/rules.md §3.8) and their geometry: the 3×3 square of a radar
//! or an air strike, and a torpedo's headings and run. No game state: `arsenal.rs` plays them.

use crate::coord::{Coord, Size};
use serde::{Deserialize, Serialize};

/// A weapon of the arsenal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Weapon {
    /// Counts the unhit ship cells of a 3×3 square.
    Radar,
    /// Shoots every new cell of a 3×3 square.
    AirStrike,
    /// Runs from an edge cell along its row or column to the first unhit ship cell.
    Torpedo,
}

impl Weapon {
    /// Every weapon, in the order of a seat's counts.
    pub const ALL: [Weapon; 3] = [Weapon::Radar, Weapon::AirStrike, Weapon::Torpedo];

    /// The weapon's place in a seat's counts.
    pub fn index(self) -> usize {
        match self {
            Weapon::Radar => 0,
            Weapon::AirStrike => 1,
            Weapon::Torpedo => 2,
        }
    }
}

/// Which way a torpedo runs: away from the edge it starts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Heading {
    /// Towards higher columns (from the left edge).
    East,
    /// Towards lower columns (from the right edge).
    West,
    /// Towards higher rows (from the top edge).
    South,
    /// Towards lower rows (from the bottom edge).
    North,
}

impl Heading {
    /// Every heading.
    pub const ALL: [Heading; 4] = [Heading::East, Heading::West, Heading::South, Heading::North];

    /// One step of the run.
    pub fn step(self) -> (i8, i8) {
        match self {
            Heading::East => (1, 0),
            Heading::West => (-1, 0),
            Heading::South => (0, 1),
            Heading::North => (0, -1),
        }
    }
}

/// The headings a torpedo may take from `start`: away from each edge the cell lies on — one
/// on an edge, two at a corner, none inside the field (or off it).
pub fn headings_from(start: Coord, size: Size) -> Vec<Heading> {
    if !size.contains(start) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if start.x == 0 {
        out.push(Heading::East);
    }
    if start.x + 1 == size.width {
        out.push(Heading::West);
    }
    if start.y == 0 {
        out.push(Heading::South);
    }
    if start.y + 1 == size.height {
        out.push(Heading::North);
    }
    out
}

/// The cells of a torpedo's run from `start` heading `heading`, to the edge of the field.
pub fn run_cells(start: Coord, heading: Heading, size: Size) -> Vec<Coord> {
    let (dx, dy) = heading.step();
    let mut cells = Vec::new();
    let mut at = Some(start).filter(|&c| size.contains(c));
    while let Some(c) = at {
        cells.push(c);
        at = c.offset(dx, dy, size);
    }
    cells
}

/// The 3×3 square centred on `center`, clipped at the field's edges, in row-major order.
pub fn square(center: Coord, size: Size) -> Vec<Coord> {
    let mut cells = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            if let Some(c) = center.offset(dx, dy, size) {
                cells.push(c);
            }
        }
    }
    cells
}

/// A radar's reading of a field: the square's centre, how many unhit ship cells it counted,
/// and how many ship cells the square holds in all (the count and the hits it had then, which
/// the public knew): what a player learns from it for the rest of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scan {
    /// The square's centre.
    #[serde(rename = "c")]
    pub center: Coord,
    /// The unhit ship cells counted.
    #[serde(rename = "n")]
    pub count: u8,
    /// Every ship cell of the square, hit or not.
    #[serde(rename = "s")]
    pub ships: u8,
}

/// A torpedo's run over a field, as everyone saw it: where it started, which way it ran, and
/// how many cells it went, the last the one it stopped at (if it stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Run {
    /// The edge cell it started at.
    #[serde(rename = "f")]
    pub from: Coord,
    /// Which way it ran.
    #[serde(rename = "h")]
    pub heading: Heading,
    /// The cells of its track, counted from `from`, to where it stopped or left the field.
    #[serde(rename = "l")]
    pub len: u8,
}

impl Run {
    /// The cells of its track, from the start.
    pub fn cells(&self, size: Size) -> Vec<Coord> {
        let mut cells = run_cells(self.from, self.heading, size);
        cells.truncate(usize::from(self.len));
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torpedo_leaves_an_edge_away_from_it_and_a_corner_either_way() {
        let size = Size::new(10, 10);
        assert_eq!(headings_from(Coord::new(0, 4), size), vec![Heading::East]);
        assert_eq!(headings_from(Coord::new(9, 4), size), vec![Heading::West]);
        assert_eq!(headings_from(Coord::new(4, 0), size), vec![Heading::South]);
        assert_eq!(headings_from(Coord::new(4, 9), size), vec![Heading::North]);
        assert_eq!(
            headings_from(Coord::new(0, 0), size),
            vec![Heading::East, Heading::South]
        );
        assert_eq!(
            headings_from(Coord::new(9, 9), size),
            vec![Heading::West, Heading::North]
        );
        assert!(headings_from(Coord::new(4, 4), size).is_empty());
        assert!(headings_from(Coord::new(10, 0), size).is_empty());
        let run = run_cells(Coord::new(9, 2), Heading::West, size);
        assert_eq!(run.len(), 10);
        assert_eq!(run[0], Coord::new(9, 2));
        assert_eq!(run[9], Coord::new(0, 2));
    }

    #[test]
    fn a_square_is_clipped_at_the_edges() {
        let size = Size::new(10, 10);
        assert_eq!(square(Coord::new(4, 4), size).len(), 9);
        assert_eq!(square(Coord::new(0, 4), size).len(), 6);
        assert_eq!(square(Coord::new(0, 0), size).len(), 4);
        assert_eq!(square(Coord::new(9, 9), size)[0], Coord::new(8, 8));
    }
}
