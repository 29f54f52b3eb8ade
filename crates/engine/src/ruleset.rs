//! Rulesets: every option of docs/rules.md §3 as one value that can be shown, stored and compared.
//!
//! Whether one can be played, [`Ruleset::check`], is proved by finding a layout, so it lives
//! above the generators, in `check.rs`; the generators and every other module read rulesets
//! from here.

use crate::coord::Size;
use crate::kind::Kind;
pub use crate::players::{Players, TurnTimer};
use crate::shape::Shapes;
use crate::terrain::LAND_SEA_AIR_SIZE;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which ships may touch each other (docs/rules.md §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Touching {
    /// Not by sides, not by corners (classic).
    #[default]
    None,
    /// At corners, not by sides.
    Corners,
    /// Anyhow; only overlap is forbidden.
    Any,
}

/// The field and its fleet (docs/rules.md §3.3, §3.7).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// 10×10 with 4·3·3·2·2·2·1·1·1·1.
    #[default]
    Classic,
    /// 15×15 with 5·4·4·3·3·3·2·2·2·2·1·1·1·1·1.
    Big,
    /// Any size from 5×5 to 26×26 and any list of ship sizes.
    Custom {
        /// Width and height.
        size: Size,
        /// Ship sizes, one entry a ship.
        ships: Vec<u8>,
    },
    /// 20×15 with a secret land-sea border and the 14 units of §3.7.
    LandSeaAir,
}

/// A whole ruleset. `Ruleset::default()` is the classic game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ruleset {
    /// Which ships may touch.
    #[serde(default, skip_serializing_if = "is_default")]
    pub touching: Touching,
    /// Which shapes ships may take.
    #[serde(default, skip_serializing_if = "is_default")]
    pub shapes: Shapes,
    /// The field and fleet.
    #[serde(default, skip_serializing_if = "is_default")]
    pub field: Field,
    /// Cells a salvo, if salvoes are played (1–10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salvo: Option<u8>,
    /// Mines per player (0–2).
    #[serde(default, skip_serializing_if = "is_default")]
    pub mines: u8,
    /// Who plays.
    #[serde(default, skip_serializing_if = "is_default")]
    pub players: Players,
    /// The turn timer.
    #[serde(default, skip_serializing_if = "is_default")]
    pub timer: TurnTimer,
    /// How many of each weapon of the arsenal a player holds (0 = no arsenal, 1 or 2;
    /// docs/rules.md §3.8).
    #[serde(default, skip_serializing_if = "is_default")]
    pub arsenal: u8,
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

/// Why a ruleset cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesetError {
    /// Width or height outside 5–26.
    SideOutOfRange(Size),
    /// The fleet has no ships.
    NoShips,
    /// A ship larger than the field's longer side, or of size 0.
    ShipSizeOutOfRange(u8),
    /// More ship cells than the field has, or more than 64 ships.
    FleetTooLarge,
    /// Salvo of other than 1–10 cells.
    SalvoOutOfRange(u8),
    /// Other than 0–2 mines.
    MinesOutOfRange(u8),
    /// Free-for-all with other than 3 or 4 players.
    PlayersOutOfRange(u8),
    /// No legal layout was found within the bounded search.
    NoLegalLayout,
    /// An arsenal of other than 0–2 of each weapon.
    ArsenalOutOfRange(u8),
    /// The arsenal with salvoes (docs/rules.md §3.8).
    ArsenalWithSalvo,
    /// The arsenal on land-sea-air: a torpedo's run would tell the secret border (§3.8).
    ArsenalWithTerrain,
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesetError::SideOutOfRange(s) => write!(f, "field {s} is not within 5–26"),
            RulesetError::NoShips => f.write_str("the fleet has no ships"),
            RulesetError::ShipSizeOutOfRange(n) => write!(f, "a ship of {n} cells does not fit"),
            RulesetError::FleetTooLarge => f.write_str("the fleet does not fit on the field"),
            RulesetError::SalvoOutOfRange(n) => write!(f, "a salvo of {n} is not within 1–10"),
            RulesetError::MinesOutOfRange(n) => write!(f, "{n} mines is not within 0–2"),
            RulesetError::PlayersOutOfRange(n) => write!(f, "{n} players is not 3 or 4"),
            RulesetError::NoLegalLayout => f.write_str("no legal layout was found"),
            RulesetError::ArsenalOutOfRange(n) => write!(f, "an arsenal of {n} is not within 0–2"),
            RulesetError::ArsenalWithSalvo => f.write_str("the arsenal is not played with salvoes"),
            RulesetError::ArsenalWithTerrain => {
                f.write_str("the arsenal is not played on land-sea-air")
            }
        }
    }
}

impl std::error::Error for RulesetError {}

/// How many random layouts [`Ruleset::check`] tries before it gives up.
pub const LAYOUT_SEARCH_ATTEMPTS: usize = 400;

impl Ruleset {
    /// The 15×15 big game, otherwise classic.
    pub fn big() -> Ruleset {
        Ruleset {
            field: Field::Big,
            ..Ruleset::default()
        }
    }

    /// Land, sea and air, otherwise classic.
    pub fn land_sea_air() -> Ruleset {
        Ruleset {
            field: Field::LandSeaAir,
            ..Ruleset::default()
        }
    }

    /// The field's size.
    pub fn size(&self) -> Size {
        match &self.field {
            Field::Classic => Size::new(10, 10),
            Field::Big => Size::new(15, 15),
            Field::Custom { size, .. } => *size,
            Field::LandSeaAir => LAND_SEA_AIR_SIZE,
        }
    }

    /// The fleet, largest first.
    pub fn fleet(&self) -> Vec<Kind> {
        let ships = |sizes: &[u8]| {
            let mut v: Vec<Kind> = sizes.iter().map(|&n| Kind::Ship(n)).collect();
            v.sort_by_key(|k| std::cmp::Reverse(k.size()));
            v
        };
        match &self.field {
            Field::Classic => ships(&[4, 3, 3, 2, 2, 2, 1, 1, 1, 1]),
            Field::Big => ships(&[5, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1]),
            Field::Custom { ships: s, .. } => ships(s),
            Field::LandSeaAir => {
                let mut v = ships(&[5, 4, 3, 3, 2, 2, 2]);
                v.extend([
                    Kind::AttackAircraft,
                    Kind::AttackAircraft,
                    Kind::Battery,
                    Kind::Tank,
                    Kind::Tank,
                    Kind::Tank,
                    Kind::AntiAircraft,
                ]);
                v
            }
        }
    }

    /// Whether the field has a land-sea border.
    pub fn has_terrain(&self) -> bool {
        self.field == Field::LandSeaAir
    }

    /// The touching rule in force: land-sea-air units never touch (§3.7).
    pub fn touching(&self) -> Touching {
        if self.has_terrain() {
            Touching::None
        } else {
            self.touching
        }
    }

    /// The shapes in force: land-sea-air units have the shapes of their table (§3.7).
    pub fn shapes(&self) -> Shapes {
        if self.has_terrain() {
            Shapes::Straight
        } else {
            self.shapes
        }
    }

    /// Whether the corner neighbours of a hit are known to be empty water: ships are
    /// straight and never touch, even at corners, so a hit ship runs along a row or a column
    /// and no other ship may touch it; there are no mines (which may lie there) and shots
    /// are told one by one (a salvo's are not). The land-sea-air field's units are of other
    /// shapes, and are left out.
    pub fn corners_of_a_hit_are_empty(&self) -> bool {
        !self.has_terrain()
            && self.touching() == Touching::None
            && self.shapes() == Shapes::Straight
            && self.mines == 0
            && self.salvo.is_none()
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        self.players.seats()
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Field::Classic => f.write_str("classic")?,
            Field::Big => f.write_str("big")?,
            Field::LandSeaAir => f.write_str("land-sea-air")?,
            Field::Custom { size, ships } => {
                let list: Vec<String> = ships.iter().map(u8::to_string).collect();
                write!(f, "custom {size} [{}]", list.join(" "))?;
            }
        }
        let touching = match self.touching() {
            Touching::None => "none",
            Touching::Corners => "corners",
            Touching::Any => "any",
        };
        write!(f, ", touching {touching}, {} ships", self.shapes())?;
        if let Some(n) = self.salvo {
            write!(f, ", salvo {n}")?;
        }
        if self.mines > 0 {
            write!(f, ", {} mines", self.mines)?;
        }
        match self.players {
            Players::Duel => f.write_str(", duel")?,
            Players::FreeForAll(n) => write!(f, ", free-for-all {n}")?,
            Players::Teams => f.write_str(", teams 2v2")?,
        }
        if self.arsenal > 0 {
            write!(f, ", arsenal {}", self.arsenal)?;
        }
        match self.timer.seconds() {
            Some(s) => write!(f, ", {} min a turn", s / 60),
            None => f.write_str(", no timer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_fleet_is_ten_ships_of_twenty_cells_on_ten_by_ten() {
        let r = Ruleset::default();
        assert_eq!(r.size(), Size::new(10, 10));
        let fleet = r.fleet();
        assert_eq!(fleet.len(), 10);
        assert_eq!(fleet.iter().map(|k| u32::from(k.size())).sum::<u32>(), 20);
        assert_eq!(r.check(), Ok(()));
    }

    #[test]
    fn the_big_fleet_has_a_five_cell_carrier_on_fifteen_by_fifteen() {
        let r = Ruleset::big();
        assert_eq!(r.size(), Size::new(15, 15));
        assert_eq!(r.fleet()[0], Kind::Ship(5));
        assert_eq!(r.fleet().len(), 15);
        assert_eq!(r.check(), Ok(()));
    }

    #[test]
    fn land_sea_air_has_fourteen_units_that_never_touch() {
        let r = Ruleset {
            touching: Touching::Any,
            ..Ruleset::land_sea_air()
        };
        assert_eq!(r.fleet().len(), 14);
        assert_eq!(r.touching(), Touching::None);
        assert_eq!(r.size(), Size::new(20, 15));
        assert_eq!(r.check(), Ok(()));
    }

    #[test]
    fn a_custom_field_outside_five_to_twenty_six_is_refused() {
        let r = |w, h| Ruleset {
            field: Field::Custom {
                size: Size::new(w, h),
                ships: vec![2],
            },
            ..Ruleset::default()
        };
        assert_eq!(
            r(4, 10).check(),
            Err(RulesetError::SideOutOfRange(Size::new(4, 10)))
        );
        assert_eq!(
            r(10, 27).check(),
            Err(RulesetError::SideOutOfRange(Size::new(10, 27)))
        );
        assert_eq!(r(5, 5).check(), Ok(()));
        assert_eq!(r(26, 26).check(), Ok(()));
    }

    #[test]
    fn a_custom_fleet_with_no_legal_layout_is_refused_after_a_bounded_search() {
        // Four 5-ships cannot share a 5×5 field without touching.
        let r = Ruleset {
            field: Field::Custom {
                size: Size::new(5, 5),
                ships: vec![5, 5, 5, 5],
            },
            ..Ruleset::default()
        };
        assert_eq!(r.check(), Err(RulesetError::NoLegalLayout));
        let touching = Ruleset {
            touching: Touching::Any,
            ..r
        };
        assert_eq!(touching.check(), Ok(()));
    }

    #[test]
    fn a_tight_custom_fleet_is_found_by_the_exhaustive_search() {
        // Four bent 4-ships fit a 5×5 field only as squares in the corners.
        let r = Ruleset {
            shapes: Shapes::Bent,
            field: Field::Custom {
                size: Size::new(5, 5),
                ships: vec![4, 4, 4, 4],
            },
            ..Ruleset::default()
        };
        assert_eq!(r.check(), Ok(()));
    }

    #[test]
    fn out_of_range_options_are_refused() {
        let salvo = Ruleset {
            salvo: Some(11),
            ..Ruleset::default()
        };
        assert_eq!(salvo.check(), Err(RulesetError::SalvoOutOfRange(11)));
        let mines = Ruleset {
            mines: 3,
            ..Ruleset::default()
        };
        assert_eq!(mines.check(), Err(RulesetError::MinesOutOfRange(3)));
        let ffa = Ruleset {
            players: Players::FreeForAll(5),
            ..Ruleset::default()
        };
        assert_eq!(ffa.check(), Err(RulesetError::PlayersOutOfRange(5)));
    }

    #[test]
    fn a_ruleset_is_shown_in_words_and_compared_by_value() {
        let r = Ruleset {
            salvo: Some(3),
            players: Players::Teams,
            ..Ruleset::default()
        };
        assert_eq!(
            r.to_string(),
            "classic, touching none, straight ships, salvo 3, teams 2v2, 3 min a turn"
        );
        assert_ne!(r, Ruleset::default());
        assert_eq!(Players::Teams.team(2), Players::Teams.team(0));
        assert_ne!(Players::Teams.team(1), Players::Teams.team(0));
    }
}
