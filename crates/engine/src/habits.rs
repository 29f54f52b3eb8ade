//! How people place their fleets, as the learning level sees it: the places their ships took in
//! games that ended (where each ship stood, by its size), counted over many revealed layouts.
//!
//! The learning level's prior is a third model beside the uniform and the Perelman ones
//! (`mixture.rs`): layouts drawn with each ship's place weighted by how often people put a
//! ship of that size there, against how often the uniform model would,
//! `(seen + ALPHA) / (expected + ALPHA)` — a smoothed ratio that is 1 where people do what
//! chance does, and grows where they keep coming back (the same edge, the same corner, the
//! very same layout). The model's prior weight grows with the games seen,
//! `games / (games + TRUST)`, and the evidence of each game weighs it against the others as it
//! goes.
//!
//! Layouts travel as text ([`layout_code`], [`Habits::observe_code`]): ships separated by
//! spaces, each a comma-separated list of cell indices (`y * width + x`).

use crate::coord::{Coord, Size};
use crate::fleet::Fleet;
use std::collections::HashMap;

/// Pseudo-games added to every place's count: how much chance is trusted over what was seen.
pub const ALPHA: f64 = 3.0;
/// Games seen after which the learned model holds half the prior.
pub const TRUST: f64 = 20.0;
/// What every chat's layouts weigh together beside one chat's own, in games: people in
/// general are a hint, the people of this chat the evidence.
pub const OVERALL: f64 = 20.0;

/// Counts of the places ships took, over revealed layouts of one field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Habits {
    /// Weighted count of ships at each place: (ship size, its cell indices in order).
    places: HashMap<(u8, Vec<u16>), f64>,
    /// Weighted count of layouts seen.
    games: f64,
}

/// `fleet`'s ships as text: ships separated by spaces, cell indices by commas.
pub fn layout_code(fleet: &Fleet, size: Size) -> String {
    let ships: Vec<String> = fleet
        .ships()
        .iter()
        .map(|s| {
            let mut cells: Vec<usize> = s.cells.iter().map(|&c| size.index(c)).collect();
            cells.sort_unstable();
            cells
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    ships.join(" ")
}

impl Habits {
    /// No layouts seen.
    pub fn new() -> Habits {
        Habits::default()
    }

    /// What the bot knows of a chat: its own layouts (each counted once) and every chat's
    /// (together counted as at most [`OVERALL`] games), as [`layout_code`] texts on a field of
    /// `area` cells; texts that are not layouts are skipped.
    pub fn from_codes(chat: &[String], all: &[String], area: usize) -> Habits {
        let mut h = Habits::new();
        for code in chat {
            h.observe_code(code, area, 1.0);
        }
        let each = (OVERALL / all.len().max(1) as f64).min(1.0);
        for code in all {
            h.observe_code(code, area, each);
        }
        h
    }

    /// The weighted number of layouts seen.
    pub fn games(&self) -> f64 {
        self.games
    }

    /// Counts one layout, `weight` times.
    pub fn observe(&mut self, fleet: &Fleet, size: Size, weight: f64) {
        let cells: Vec<Vec<u16>> = fleet
            .ships()
            .iter()
            .map(|s| s.cells.iter().map(|&c| size.index(c) as u16).collect())
            .collect();
        self.observe_cells(cells, weight);
    }

    /// Counts one layout given as [`layout_code`] text, `weight` times; `false` (and nothing
    /// counted) if the text is not a layout on a field of `area` cells.
    pub fn observe_code(&mut self, code: &str, area: usize, weight: f64) -> bool {
        let mut ships = Vec::new();
        for ship in code.split_whitespace() {
            let cells: Option<Vec<u16>> = ship
                .split(',')
                .map(|c| c.parse::<u16>().ok().filter(|&i| usize::from(i) < area))
                .collect();
            match cells {
                Some(cells) if !cells.is_empty() && cells.len() < 256 => ships.push(cells),
                _ => return false,
            }
        }
        if ships.is_empty() {
            return false;
        }
        self.observe_cells(ships, weight);
        true
    }

    fn observe_cells(&mut self, ships: Vec<Vec<u16>>, weight: f64) {
        for mut cells in ships {
            cells.sort_unstable();
            let key = (cells.len() as u8, cells);
            *self.places.entry(key).or_insert(0.0) += weight;
        }
        self.games += weight;
    }

    /// Adds `other`'s counts, each scaled by `scale`.
    pub fn merge(&mut self, other: &Habits, scale: f64) {
        for (k, v) in &other.places {
            *self.places.entry(k.clone()).or_insert(0.0) += v * scale;
        }
        self.games += other.games * scale;
    }

    /// The weighted count of ships of `size` cells seen on exactly `cells`.
    pub fn seen(&self, size: u8, cells: &[Coord], field: Size) -> f64 {
        let mut key: Vec<u16> = cells.iter().map(|&c| field.index(c) as u16).collect();
        key.sort_unstable();
        self.seen_indices(size, key)
    }

    pub(crate) fn seen_indices(&self, size: u8, key: Vec<u16>) -> f64 {
        self.places.get(&(size, key)).copied().unwrap_or(0.0)
    }

    /// The prior weight of the learned model.
    pub fn trust(&self) -> f64 {
        self.games / (self.games + TRUST)
    }

    /// The weight of a place seen `seen` times where chance would put `expected` ships.
    pub fn weight(seen: f64, expected: f64) -> f64 {
        (seen + ALPHA) / (expected + ALPHA)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{random_fleet, Ruleset};
    use rand::SeedableRng;

    #[test]
    fn a_layout_round_trips_through_its_code_and_counts_each_place() {
        let r = Ruleset::default();
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let f = random_fleet(&r, &mut rng).unwrap();
        let code = layout_code(&f, r.size());
        let (mut a, mut b) = (Habits::new(), Habits::new());
        a.observe(&f, r.size(), 1.0);
        assert!(b.observe_code(&code, r.size().area(), 1.0));
        assert_eq!(a, b);
        for s in f.ships() {
            assert_eq!(a.seen(s.cells.len() as u8, &s.cells, r.size()), 1.0);
        }
        assert!(!b.observe_code("1,2 x", 100, 1.0));
        assert!(!b.observe_code("100", 100, 1.0));
        assert!(!b.observe_code("", 100, 1.0));
        assert_eq!(b.games(), 1.0, "a bad code counts nothing");
    }

    #[test]
    fn every_chat_weighs_at_most_a_few_games_beside_the_chat_itself() {
        let r = Ruleset::default();
        let mut rng = rand::rngs::StdRng::seed_from_u64(6);
        let codes: Vec<String> = (0..100)
            .map(|_| layout_code(&random_fleet(&r, &mut rng).unwrap(), r.size()))
            .collect();
        let h = Habits::from_codes(&codes[..10], &codes, 100);
        assert!((h.games() - (10.0 + OVERALL)).abs() < 1e-9, "{}", h.games());
        let few = Habits::from_codes(&[], &codes[..5], 100);
        assert!(
            (few.games() - 5.0).abs() < 1e-9,
            "a few layouts count fully"
        );
        assert!(h.trust() > few.trust());
    }
}
