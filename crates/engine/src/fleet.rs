//! A validated fleet: ships (or units), mines and, in land-sea-air, the border.
//!
//! A [`Fleet`] is only made by [`Draft::validate`](crate::Draft::validate) or the
//! generators, so every fleet in a game obeys its ruleset.

use crate::coord::{Coord, Size};
use crate::kind::Kind;
use crate::ruleset::Touching;
use crate::terrain::Border;
use serde::{Deserialize, Serialize};

/// One ship or unit and the cells it stands on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ship {
    /// What it is.
    #[serde(rename = "k")]
    pub kind: Kind,
    /// Where it stands.
    #[serde(rename = "c")]
    pub cells: Vec<Coord>,
}

/// Index of a ship in its fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ShipId(pub u8);

/// A legal layout: the ships, the mines and the border of one player.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fleet {
    #[serde(rename = "s")]
    pub(crate) ships: Vec<Ship>,
    #[serde(rename = "m", default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) mines: Vec<Coord>,
    #[serde(rename = "b", default, skip_serializing_if = "Option::is_none")]
    pub(crate) border: Option<Border>,
}

impl Fleet {
    /// Builds a fleet without checking it: for the validator and generators only.
    pub(crate) fn new_unchecked(
        ships: Vec<Ship>,
        mines: Vec<Coord>,
        border: Option<Border>,
    ) -> Self {
        Fleet {
            ships,
            mines,
            border,
        }
    }

    /// The ships, largest first as placed.
    pub fn ships(&self) -> &[Ship] {
        &self.ships
    }

    /// The mines.
    pub fn mines(&self) -> &[Coord] {
        &self.mines
    }

    /// The land-sea border, in land-sea-air.
    pub fn border(&self) -> Option<&Border> {
        self.border.as_ref()
    }

    /// The ship standing on `c`, if any.
    pub fn ship_at(&self, c: Coord) -> Option<ShipId> {
        self.ships
            .iter()
            .position(|s| s.cells.contains(&c))
            .map(|i| ShipId(i as u8))
    }

    /// The ship with this id.
    ///
    /// # Panics
    /// If the id is not of this fleet.
    pub fn ship(&self, id: ShipId) -> &Ship {
        &self.ships[usize::from(id.0)]
    }

    /// Whether a mine lies on `c`.
    pub fn is_mine(&self, c: Coord) -> bool {
        self.mines.contains(&c)
    }

    /// Every ship cell.
    pub fn ship_cells(&self) -> impl Iterator<Item = Coord> + '_ {
        self.ships.iter().flat_map(|s| s.cells.iter().copied())
    }
}

/// How two sets of cells meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Contact {
    /// They share a cell.
    Overlap,
    /// Two cells share a side.
    Side,
    /// Two cells share only a corner.
    Corner,
}

/// The closest contact between two sets of cells, and the cell of `b` where it is.
pub fn contact(a: &[Coord], b: &[Coord]) -> Option<(Contact, Coord)> {
    let mut best: Option<(Contact, Coord)> = None;
    for &q in b {
        for &p in a {
            let (dx, dy) = (p.x.abs_diff(q.x), p.y.abs_diff(q.y));
            let c = match (dx, dy) {
                (0, 0) => Contact::Overlap,
                (0, 1) | (1, 0) => Contact::Side,
                (1, 1) => Contact::Corner,
                _ => continue,
            };
            if best.is_none_or(|(b, _)| c < b) {
                best = Some((c, q));
            }
        }
    }
    best
}

/// Whether the touching rule forbids this contact.
pub fn forbidden(touching: Touching, c: Contact) -> bool {
    match touching {
        Touching::None => true,
        Touching::Corners => c != Contact::Corner,
        Touching::Any => c == Contact::Overlap,
    }
}

/// The cells around `cells` that no other ship may occupy under `touching`: the halo that is
/// marked empty when the ship sinks.
pub fn halo(cells: &[Coord], touching: Touching, size: Size) -> Vec<Coord> {
    let mut out = Vec::new();
    for &c in cells {
        let around: Vec<Coord> = match touching {
            Touching::None => c.around(size).collect(),
            Touching::Corners => c.sides(size).collect(),
            Touching::Any => Vec::new(),
        };
        for n in around {
            if !cells.contains(&n) && !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(v: &[(u8, u8)]) -> Vec<Coord> {
        v.iter().map(|&(x, y)| Coord::new(x, y)).collect()
    }

    #[test]
    fn the_closest_contact_is_reported_with_the_cell_where_it_is() {
        let a = cells(&[(0, 0), (1, 0)]);
        assert_eq!(
            contact(&a, &cells(&[(2, 1)])),
            Some((Contact::Corner, Coord::new(2, 1)))
        );
        assert_eq!(
            contact(&a, &cells(&[(2, 0)])),
            Some((Contact::Side, Coord::new(2, 0)))
        );
        assert_eq!(contact(&a, &cells(&[(3, 0)])), None);
    }

    #[test]
    fn the_halo_of_a_ship_depends_on_the_touching_rule() {
        let size = Size::new(10, 10);
        let ship = cells(&[(0, 0), (1, 0)]);
        assert_eq!(halo(&ship, Touching::None, size).len(), 4);
        assert_eq!(halo(&ship, Touching::Corners, size).len(), 3);
        assert!(halo(&ship, Touching::Any, size).is_empty());
    }
}
