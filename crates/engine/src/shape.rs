//! Ship shapes: polyominoes up to rotation and reflection.
//!
//! A shape is compared in its *canonical* form: the smallest, after sorting, of its eight
//! rotations and reflections translated to the origin. Straight ships are lines; bent ships
//! (docs/rules.md §3.2) add the L of three, and the L, square and zigzag of four; free ships are
//! any edge-connected set of cells.

use crate::coord::Coord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;

/// Which ship shapes a ruleset allows (docs/rules.md §3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shapes {
    /// Straight lines only (classic).
    #[default]
    Straight,
    /// Lines, plus the L of three and the L, square and zigzag of four.
    Bent,
    /// Any edge-connected shape of the ship's size.
    Free,
}

impl fmt::Display for Shapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Shapes::Straight => "straight",
            Shapes::Bent => "bent",
            Shapes::Free => "free",
        })
    }
}

/// Cells relative to the origin: `(x, y)` pairs.
pub type Cells = Vec<(u8, u8)>;

/// A line of `n` cells.
pub fn line(n: u8) -> Cells {
    (0..n).map(|x| (x, 0)).collect()
}

/// The L of three cells ("Г").
pub fn l_tromino() -> Cells {
    vec![(0, 0), (0, 1), (1, 1)]
}

/// The L of four cells.
pub fn l_tetromino() -> Cells {
    vec![(0, 0), (0, 1), (0, 2), (1, 2)]
}

/// The 2×2 square.
pub fn square() -> Cells {
    vec![(0, 0), (1, 0), (0, 1), (1, 1)]
}

/// The zigzag (S or Z) of four cells.
pub fn zigzag() -> Cells {
    vec![(1, 0), (2, 0), (0, 1), (1, 1)]
}

/// The T of four cells (the attack aircraft of land-sea-air).
pub fn t_tetromino() -> Cells {
    vec![(0, 0), (1, 0), (2, 0), (1, 1)]
}

fn normalise(cells: impl IntoIterator<Item = (i16, i16)>) -> Cells {
    let cells: Vec<(i16, i16)> = cells.into_iter().collect();
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut out: Cells = cells
        .iter()
        .map(|&(x, y)| ((x - min_x) as u8, (y - min_y) as u8))
        .collect();
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    out.dedup();
    out
}

/// The eight rotations and reflections of `cells`, each normalised (duplicates kept).
fn transforms(cells: &[(u8, u8)]) -> [Cells; 8] {
    let f = |t: fn(i16, i16) -> (i16, i16)| {
        normalise(cells.iter().map(|&(x, y)| t(i16::from(x), i16::from(y))))
    };
    [
        f(|x, y| (x, y)),
        f(|x, y| (-y, x)),
        f(|x, y| (-x, -y)),
        f(|x, y| (y, -x)),
        f(|x, y| (-x, y)),
        f(|x, y| (y, x)),
        f(|x, y| (x, -y)),
        f(|x, y| (-y, -x)),
    ]
}

/// The canonical form of a set of cells: equal for shapes that are rotations or
/// reflections of each other.
pub fn canonical(cells: &[Coord]) -> Cells {
    let rel = normalise(cells.iter().map(|c| (i16::from(c.x), i16::from(c.y))));
    canonical_of(&rel)
}

fn canonical_of(cells: &[(u8, u8)]) -> Cells {
    transforms(cells).into_iter().min().unwrap_or_default()
}

/// Every distinct placement orientation of a shape (1 to 8 of them), normalised.
pub fn orientations(cells: &[(u8, u8)]) -> Vec<Cells> {
    let set: BTreeSet<Cells> = transforms(cells).into_iter().collect();
    set.into_iter().collect()
}

/// Whether `cells` are edge-connected (an empty set is not).
pub fn is_connected(cells: &[Coord]) -> bool {
    let Some(&first) = cells.first() else {
        return false;
    };
    let mut seen = vec![first];
    let mut stack = vec![first];
    while let Some(c) = stack.pop() {
        for &n in cells {
            let adjacent = c.x.abs_diff(n.x) + c.y.abs_diff(n.y) == 1;
            if adjacent && !seen.contains(&n) {
                seen.push(n);
                stack.push(n);
            }
        }
    }
    seen.len() == cells.len()
}

/// Whether `cells` form one horizontal or vertical line without gaps.
pub fn is_straight(cells: &[Coord]) -> bool {
    cells.len() <= usize::from(u8::MAX)
        && canonical(cells) == canonical_of(&line(cells.len() as u8))
}

/// The canonical shapes allowed for a plain ship of `size` cells, or `None` when any
/// connected shape is (free shapes).
pub fn ship_templates(size: u8, shapes: Shapes) -> Option<Vec<Cells>> {
    let line = canonical_of(&line(size));
    match (shapes, size) {
        (Shapes::Free, _) => None,
        (Shapes::Bent, 3) => Some(vec![line, canonical_of(&l_tromino())]),
        (Shapes::Bent, 4) => Some(vec![
            line,
            canonical_of(&l_tetromino()),
            canonical_of(&square()),
            canonical_of(&zigzag()),
        ]),
        _ => Some(vec![line]),
    }
}

/// The canonical form of a template, for comparing with [`canonical`].
pub fn canonical_template(cells: &[(u8, u8)]) -> Cells {
    canonical_of(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coords(cells: &[(u8, u8)]) -> Vec<Coord> {
        cells.iter().map(|&(x, y)| Coord::new(x, y)).collect()
    }

    #[test]
    fn a_shape_and_its_rotations_and_reflections_share_one_canonical_form() {
        let l = coords(&[(5, 5), (5, 6), (5, 7), (6, 7)]);
        let j = coords(&[(6, 5), (6, 6), (6, 7), (5, 7)]);
        let lying = coords(&[(2, 1), (3, 1), (4, 1), (2, 2)]);
        assert_eq!(canonical(&l), canonical(&j));
        assert_eq!(canonical(&l), canonical(&lying));
        assert_ne!(canonical(&l), canonical(&coords(&square())));
    }

    #[test]
    fn the_free_tetrominoes_have_the_known_orientation_counts() {
        assert_eq!(orientations(&line(4)).len(), 2);
        assert_eq!(orientations(&square()).len(), 1);
        assert_eq!(orientations(&l_tetromino()).len(), 8);
        assert_eq!(orientations(&zigzag()).len(), 4);
        assert_eq!(orientations(&t_tetromino()).len(), 4);
        assert_eq!(orientations(&l_tromino()).len(), 4);
    }

    #[test]
    fn a_diagonal_pair_is_not_connected() {
        assert!(!is_connected(&coords(&[(0, 0), (1, 1)])));
        assert!(is_connected(&coords(&[(0, 0), (1, 0), (1, 1)])));
    }

    #[test]
    fn a_line_with_a_gap_is_not_straight() {
        assert!(is_straight(&coords(&[(0, 0), (0, 1), (0, 2)])));
        assert!(!is_straight(&coords(&[(0, 0), (0, 1), (0, 3)])));
        assert!(!is_straight(&coords(&[(0, 0), (1, 1)])));
    }

    #[test]
    fn bent_rules_allow_the_t_for_no_ship() {
        let t = canonical_template(&t_tetromino());
        let allowed = ship_templates(4, Shapes::Bent).unwrap();
        assert_eq!(allowed.len(), 4);
        assert!(!allowed.contains(&t));
        assert_eq!(ship_templates(2, Shapes::Bent).unwrap().len(), 1);
        assert!(ship_templates(4, Shapes::Free).is_none());
    }
}
