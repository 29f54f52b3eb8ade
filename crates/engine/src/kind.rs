//! What a ship or unit is: its kind, size, force and allowed shapes.

use crate::shape::{self, Cells, Shapes};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a unit may stand in land-sea-air (docs/rules.md §3.7); plain ships are all sea.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Force {
    /// Wholly on sea.
    Sea,
    /// Wholly on land.
    Land,
    /// Anywhere.
    Air,
}

/// A kind of ship or unit. Plain ships are named by their size (1 torpedo boat … 5 aircraft
/// carrier); the land and air units of land-sea-air have kinds of their own.
///
/// Stored as a small number: `1`–`26` for ships, `101`–`104` for the units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum Kind {
    /// A straight (or bent, or free) ship of this many cells.
    Ship(u8),
    /// Tank: two cells in a line, on land.
    Tank,
    /// Battery: a 2×2 square, on land.
    Battery,
    /// Anti-aircraft gun: one cell, on land.
    AntiAircraft,
    /// Attack aircraft: a T of four cells, anywhere.
    AttackAircraft,
}

impl Kind {
    /// Number of cells.
    pub fn size(self) -> u8 {
        match self {
            Kind::Ship(n) => n,
            Kind::Tank => 2,
            Kind::Battery => 4,
            Kind::AntiAircraft => 1,
            Kind::AttackAircraft => 4,
        }
    }

    /// Where the kind may stand.
    pub fn force(self) -> Force {
        match self {
            Kind::Ship(_) => Force::Sea,
            Kind::Tank | Kind::Battery | Kind::AntiAircraft => Force::Land,
            Kind::AttackAircraft => Force::Air,
        }
    }

    /// The canonical shapes this kind may take under `shapes`; `None` means any connected
    /// shape of its size.
    pub fn templates(self, shapes: Shapes) -> Option<Vec<Cells>> {
        let fixed = |cells: Cells| Some(vec![shape::canonical_template(&cells)]);
        match self {
            Kind::Ship(n) => shape::ship_templates(n, shapes),
            Kind::Tank => fixed(shape::line(2)),
            Kind::Battery => fixed(shape::square()),
            Kind::AntiAircraft => fixed(shape::line(1)),
            Kind::AttackAircraft => fixed(shape::t_tetromino()),
        }
    }
}

impl From<Kind> for u8 {
    fn from(k: Kind) -> u8 {
        match k {
            Kind::Ship(n) => n,
            Kind::Tank => 101,
            Kind::Battery => 102,
            Kind::AntiAircraft => 103,
            Kind::AttackAircraft => 104,
        }
    }
}

impl TryFrom<u8> for Kind {
    type Error = String;
    fn try_from(n: u8) -> Result<Kind, String> {
        match n {
            1..=26 => Ok(Kind::Ship(n)),
            101 => Ok(Kind::Tank),
            102 => Ok(Kind::Battery),
            103 => Ok(Kind::AntiAircraft),
            104 => Ok(Kind::AttackAircraft),
            _ => Err(format!("no ship kind {n}")),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Ship(n) => write!(f, "ship-{n}"),
            Kind::Tank => f.write_str("tank"),
            Kind::Battery => f.write_str("battery"),
            Kind::AntiAircraft => f.write_str("anti-aircraft"),
            Kind::AttackAircraft => f.write_str("attack-aircraft"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips_through_its_stored_number() {
        let kinds = (1..=26).map(Kind::Ship).chain([
            Kind::Tank,
            Kind::Battery,
            Kind::AntiAircraft,
            Kind::AttackAircraft,
        ]);
        for k in kinds {
            assert_eq!(Kind::try_from(u8::from(k)), Ok(k));
        }
        assert!(Kind::try_from(0).is_err());
        assert!(Kind::try_from(27).is_err());
    }

    #[test]
    fn land_sea_air_units_have_the_table_shapes() {
        assert_eq!(Kind::Battery.templates(Shapes::Free).unwrap().len(), 1);
        assert_eq!(Kind::AttackAircraft.size(), 4);
        assert_eq!(Kind::AttackAircraft.force(), Force::Air);
        assert_eq!(Kind::Tank.force(), Force::Land);
    }
}
