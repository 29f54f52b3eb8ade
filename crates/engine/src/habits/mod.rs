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
//!
//! Its parts: this file keeps the layouts seen and how far they are trusted; `fit.rs` fits a
//! player's tendencies from them (`tilt.rs`: the exponential tilt's maximum likelihood), by
//! the layout features of `layout_features.rs` beside what uniform random layouts show;
//! `tendencies.rs` tells them for `/stats`.

mod fit;
mod layout_features;
mod tendencies;
mod tilt;

use crate::coord::Size;
use crate::fleet::Fleet;
use std::collections::HashMap;

pub(crate) use fit::Fit;
pub use tendencies::{Half, Quarter, Tendencies};

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
    /// The fits made of these layouts, by the placement rules they were made for.
    fits: FitCache,
    /// The placer's true law, where a bench knows it: see [`Oracle`].
    oracle: Option<Oracle>,
}

/// A placer's true law as a weight of each layout against the uniform one (given the ship
/// cells' indices, the sunk ships' too): for `ai-bench`'s ceiling only, never learned. With
/// it the learning level draws uniform layouts weighed by it and uses no other model, so it
/// shoots as well as knowing exactly how the player places can make it.
#[derive(Clone)]
pub struct Oracle(pub std::sync::Arc<Law>);

/// A layout's weight under a placer's law, from its ship cells' indices.
pub type Law = dyn Fn(&[usize]) -> f64 + Send + Sync;

impl PartialEq for Oracle {
    fn eq(&self, other: &Oracle) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Oracle")
    }
}

/// [`Habits::fit`]'s results, kept until a layout is counted: a fit costs a few
/// milliseconds and a decision asks for it each time.
#[derive(Default)]
struct FitCache(std::sync::Mutex<HashMap<String, Option<std::sync::Arc<Fit>>>>);

impl Clone for FitCache {
    fn clone(&self) -> FitCache {
        FitCache::default()
    }
}

impl PartialEq for FitCache {
    /// A cache is no part of what the habits are.
    fn eq(&self, _: &FitCache) -> bool {
        true
    }
}

impl std::fmt::Debug for FitCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FitCache")
    }
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

    /// Habits that are the placer's true law (see [`Oracle`]), for a bench's ceiling.
    pub fn oracle(oracle: Oracle) -> Habits {
        Habits {
            oracle: Some(oracle),
            ..Habits::default()
        }
    }

    /// The placer's true law, where given.
    pub(crate) fn law(&self) -> Option<&Oracle> {
        self.oracle.as_ref()
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
        self.fits = FitCache::default();
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
mod tests;
