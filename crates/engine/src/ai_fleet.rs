//! The hard level's own placement: random legal layouts scored against what a sampling shooter
//! expects, keeping the least expected one.
//!
//! A shooter like the hard level aims where layouts most often put ships. The expectation is
//! the cover density of uniform layouts mixed with Perelman layouts (as the hard level's prior),
//! estimated once per thread and ruleset from a fixed seed. Of [`CANDIDATES`] random layouts
//! the one whose ship cells have the lowest summed density is kept; the draw stays random, so
//! the bot's fleet is not predictable.

use crate::fleet::Fleet;
use crate::generate::{perelman_fleet, random_fleet};
use crate::mixture::PERELMAN_PRIOR;
use crate::ruleset::{Players, Ruleset, RulesetError, TurnTimer};
use rand::{Rng, SeedableRng};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Random layouts drawn for one placement.
pub const CANDIDATES: usize = 24;
/// Layouts of each model that estimate the density.
const DENSITY_LAYOUTS: usize = 1000;

thread_local! {
    static DENSITY: RefCell<HashMap<Ruleset, Rc<Vec<f64>>>> = RefCell::new(HashMap::new());
}

/// The prior cover density of each cell, by cell index.
fn density(ruleset: &Ruleset) -> Rc<Vec<f64>> {
    let key = Ruleset {
        salvo: None,
        players: Players::Duel,
        timer: TurnTimer::default(),
        ..ruleset.clone()
    };
    DENSITY.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() > 16 {
            d.clear();
        }
        Rc::clone(d.entry(key.clone()).or_insert_with(|| {
            let size = key.size();
            let mut rng = rand::rngs::StdRng::seed_from_u64(0xF1EE7);
            let mut out = vec![0.0; size.area()];
            let weights = [(false, 1.0 - PERELMAN_PRIOR), (true, PERELMAN_PRIOR)];
            for (perelman, w) in weights {
                if perelman && key.has_terrain() {
                    continue;
                }
                for _ in 0..DENSITY_LAYOUTS {
                    let fleet = if perelman {
                        perelman_fleet(&key, &mut rng)
                    } else {
                        random_fleet(&key, &mut rng)
                    };
                    let Ok(fleet) = fleet else { continue };
                    for c in fleet.ship_cells() {
                        out[size.index(c)] += w / DENSITY_LAYOUTS as f64;
                    }
                }
            }
            Rc::new(out)
        }))
    })
}

/// A legal layout for the hard level: of [`CANDIDATES`] random layouts, the one a sampling
/// shooter expects least.
///
/// # Errors
/// As [`random_fleet`].
pub fn hard_fleet(ruleset: &Ruleset, rng: &mut impl Rng) -> Result<Fleet, RulesetError> {
    let density = density(ruleset);
    let size = ruleset.size();
    let score = |f: &Fleet| -> f64 { f.ship_cells().map(|c| density[size.index(c)]).sum() };
    let mut best = random_fleet(ruleset, rng)?;
    let mut best_score = score(&best);
    for _ in 1..CANDIDATES {
        let f = random_fleet(ruleset, rng)?;
        let s = score(&f);
        if s < best_score {
            (best, best_score) = (f, s);
        }
    }
    Ok(best)
}
