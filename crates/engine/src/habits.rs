//! How people place their fleets, as the learning level sees it: the layouts revealed at the
//! end of games, each with how often it was seen.
//!
//! Many people reuse a layout they like. The learning level's prior is a third model beside
//! the uniform and the Perelman ones (`mixture.rs`): the remembered layouts that fit everything
//! seen so far, each as often as it was seen. Its prior weight is [`Habits::trust`], the share
//! of the games seen whose layout repeated an earlier one — near 1 in a chat of people who
//! repeat themselves, near 0 where every layout is new, so people who place afresh lose
//! nothing to it.
//!
//! Layouts travel as text ([`layout_code`], [`Habits::observe_code`]): ships separated by
//! spaces, each a comma-separated list of cell indices (`y * width + x`).

use crate::coord::Size;
use crate::fleet::Fleet;
use std::collections::HashMap;

/// What every chat's layouts weigh together beside one chat's own, in games: people in
/// general are a hint, the people of this chat the evidence.
pub const OVERALL: f64 = 20.0;

/// A layout: its ships, each as its cell indices in order, the ships in order.
type Layout = Vec<Vec<u16>>;

/// Revealed layouts of one field, with how often each was seen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Habits {
    /// Distinct layouts and their weighted counts.
    layouts: Vec<(Layout, f64)>,
    /// Where each layout is in `layouts`.
    index: HashMap<Layout, usize>,
    /// Weighted count of layouts seen.
    games: f64,
    /// Weighted count of layouts seen that had been seen before.
    repeats: f64,
}

/// `fleet`'s ships as cell indices, as given.
fn layout_of(fleet: &Fleet, size: Size) -> Layout {
    fleet
        .ships()
        .iter()
        .map(|s| s.cells.iter().map(|&c| size.index(c) as u16).collect())
        .collect()
}

/// `ships` in the one order every layout is compared in: cells and ships sorted.
fn normalised(mut ships: Layout) -> Layout {
    for cells in &mut ships {
        cells.sort_unstable();
    }
    ships.sort_unstable();
    ships
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
    /// (together counted as at most [`OVERALL`] games; the chat's own among them not again),
    /// as [`layout_code`] texts on a field of `area` cells; texts that are not layouts are
    /// skipped.
    pub fn from_codes(chat: &[String], all: &[String], area: usize) -> Habits {
        let mut h = Habits::new();
        for code in chat {
            h.observe_code(code, area, 1.0);
        }
        let own: std::collections::HashSet<&String> = chat.iter().collect();
        let others: Vec<&String> = all.iter().filter(|c| !own.contains(c)).collect();
        let each = (OVERALL / others.len().max(1) as f64).min(1.0);
        for code in others {
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
        self.observe_cells(layout_of(fleet, size), weight);
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

    fn observe_cells(&mut self, ships: Layout, weight: f64) {
        let ships = normalised(ships);
        match self.index.get(&ships) {
            Some(&i) => {
                self.layouts[i].1 += weight;
                self.repeats += weight;
            }
            None => {
                self.index.insert(ships.clone(), self.layouts.len());
                self.layouts.push((ships, weight));
            }
        }
        self.games += weight;
    }

    /// The distinct layouts seen, with their weighted counts.
    pub(crate) fn layouts(&self) -> impl Iterator<Item = (&Layout, f64)> {
        self.layouts.iter().map(|(l, w)| (l, *w))
    }

    /// How often `fleet` was seen (weighted).
    pub fn seen(&self, fleet: &Fleet, size: Size) -> f64 {
        let ships = normalised(layout_of(fleet, size));
        self.index.get(&ships).map_or(0.0, |&i| self.layouts[i].1)
    }

    /// The prior weight of the remembered layouts: the share of games whose layout had been
    /// seen before, `(repeats + 0.1) / (games + 1)`, at most 0.95.
    pub fn trust(&self) -> f64 {
        ((self.repeats + 0.1) / (self.games + 1.0)).min(0.95)
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
        assert_eq!(a.seen(&f, r.size()), 1.0);
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
        assert_eq!(
            h.trust(),
            0.1 / (h.games() + 1.0),
            "the chat's own layouts are not counted twice"
        );
        let few = Habits::from_codes(&[], &codes[..5], 100);
        assert!(
            (few.games() - 5.0).abs() < 1e-9,
            "a few layouts count fully"
        );
        assert!(
            h.trust() < 0.1,
            "random layouts do not repeat: {}",
            h.trust()
        );
        let mut again = Habits::new();
        for _ in 0..10 {
            again.observe_code(&codes[0], 100, 1.0);
        }
        assert!(
            again.trust() > 0.8,
            "one layout ten times: {}",
            again.trust()
        );
        assert_eq!(
            again.seen(&random_fleet(&r, &mut rng).unwrap(), r.size()),
            0.0
        );
    }
}
