//! The hard level's own placement: of many random legal layouts, the one with the most ship
//! cells on the field's edge.
//!
//! A sampling shooter like the hard level expects uniform layouts (few ship cells on the edge,
//! where fewer placements fit) or Perelman's packs in one corner. Ships hugging all four sides
//! fit neither model, and `ai-bench --placements` measures that they cost the hard shooter
//! more shots than either. The draw stays random, so the bot's fleet is not predictable cell
//! by cell.

use crate::coord::{Coord, Size};
use crate::fleet::Fleet;
use crate::generate::random_fleet;
use crate::ruleset::{Ruleset, RulesetError};
use rand::Rng;

/// Random layouts drawn for one placement.
pub const CANDIDATES: usize = 300;

fn on_edge(c: Coord, size: Size) -> bool {
    c.x == 0 || c.y == 0 || c.x + 1 == size.width || c.y + 1 == size.height
}

/// A legal layout for the hard level: of 300 random layouts, the one with the most
/// ship cells on the edge of the field (the first such, so ties go to chance).
///
/// # Errors
/// As [`random_fleet`].
pub fn hard_fleet(ruleset: &Ruleset, rng: &mut impl Rng) -> Result<Fleet, RulesetError> {
    let size = ruleset.size();
    let score = |f: &Fleet| f.ship_cells().filter(|&c| on_edge(c, size)).count();
    let mut best = random_fleet(ruleset, rng)?;
    let mut best_score = score(&best);
    for _ in 1..CANDIDATES {
        let f = random_fleet(ruleset, rng)?;
        let s = score(&f);
        if s > best_score {
            (best, best_score) = (f, s);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_hard_layout_is_legal_and_hugs_the_edge_more_than_a_random_one() {
        let r = Ruleset::default();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let size = r.size();
        let edge = |f: &Fleet| f.ship_cells().filter(|&c| on_edge(c, size)).count();
        let (mut hard, mut random) = (0, 0);
        for _ in 0..10 {
            let f = hard_fleet(&r, &mut rng).unwrap();
            let problems = crate::validate::problems(&r, f.ships(), f.mines(), f.border());
            assert!(problems.is_empty());
            hard += edge(&f);
            random += edge(&random_fleet(&r, &mut rng).unwrap());
        }
        assert!(hard > random + 30, "{hard} edge cells against {random}");
    }
}
