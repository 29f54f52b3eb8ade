//! Whether a ruleset can be played: [`Ruleset::check`]. It sits above both the ruleset and the
//! generators, since its verdict is proved by the generators' own search (`generate.rs`), which
//! itself only reads rulesets.

use crate::coord::{MAX_SIDE, MIN_SIDE};
use crate::generate::checks_layout;
use crate::ruleset::{Players, Ruleset, RulesetError};

impl Ruleset {
    /// Checks every option and proves, by finding one, that a legal layout exists.
    ///
    /// # Errors
    /// The first problem found.
    pub fn check(&self) -> Result<(), RulesetError> {
        let size = self.size();
        let side_ok = |n: u8| (MIN_SIDE..=MAX_SIDE).contains(&n);
        if !side_ok(size.width) || !side_ok(size.height) {
            return Err(RulesetError::SideOutOfRange(size));
        }
        let fleet = self.fleet();
        if fleet.is_empty() {
            return Err(RulesetError::NoShips);
        }
        let longest = size.width.max(size.height);
        if let Some(k) = fleet.iter().find(|k| k.size() == 0 || k.size() > longest) {
            return Err(RulesetError::ShipSizeOutOfRange(k.size()));
        }
        let cells: usize = fleet.iter().map(|k| usize::from(k.size())).sum();
        if fleet.len() > 64 || cells + usize::from(self.mines) > size.area() {
            return Err(RulesetError::FleetTooLarge);
        }
        match self.salvo {
            Some(n) if !(1..=10).contains(&n) => return Err(RulesetError::SalvoOutOfRange(n)),
            _ => {}
        }
        if self.mines > 2 {
            return Err(RulesetError::MinesOutOfRange(self.mines));
        }
        if self.arsenal > 2 {
            return Err(RulesetError::ArsenalOutOfRange(self.arsenal));
        }
        if self.arsenal > 0 && self.salvo.is_some() {
            return Err(RulesetError::ArsenalWithSalvo);
        }
        if self.arsenal > 0 && self.has_terrain() {
            return Err(RulesetError::ArsenalWithTerrain);
        }
        if let Players::FreeForAll(n) = self.players {
            if !(3..=4).contains(&n) {
                return Err(RulesetError::PlayersOutOfRange(n));
            }
        }
        // A fixed seed makes the verdict on a ruleset the same every time it is asked, and
        // lets the generators find the same layout when their own tries run out.
        checks_layout(self)
            .map(|_| ())
            .ok_or(RulesetError::NoLegalLayout)
    }
}
