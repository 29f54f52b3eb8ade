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

use crate::coord::{Coord, Size};
use crate::fleet::Fleet;
use crate::ruleset::Ruleset;
use rand::SeedableRng;
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

    /// The player's tendencies as the learning level fits them on a field of `ruleset`: how
    /// often each cell held a multi-cell ship and a single-cell one over the layouts seen,
    /// each smoothed toward what uniform random layouts do with the weight of [`SMOOTHING`]
    /// games, and the model's prior weight (see [`Fit`]). `None` where the field has terrain or
    /// no layout of its fleet was seen.
    pub(crate) fn fit(&self, ruleset: &Ruleset) -> Option<Fit> {
        if ruleset.has_terrain() {
            return None;
        }
        let area = ruleset.size().area();
        let usual = usual(ruleset);
        let (mut big, mut single) = (vec![0.0; area], vec![0.0; area]);
        let mut games = 0.0;
        // Prequential gain: how much better than uniform layouts the fit from the earlier
        // layouts predicted each next one, in nats (cells taken as independent).
        let mut gain = 0.0;
        let shrunk = |count: f64, games: f64, usual: f64| {
            ((count + SMOOTHING * usual) / (games + SMOOTHING)).clamp(1e-4, 1.0 - 1e-4)
        };
        let bernoulli = |on: bool, p: f64, u: f64| {
            if on {
                (p / u).ln()
            } else {
                ((1.0 - p) / (1.0 - u)).ln()
            }
        };
        let mut on_big = vec![false; area];
        let mut on_single = vec![false; area];
        for (ships, w) in self.layouts() {
            if !fits_fleet(ships, ruleset) {
                continue;
            }
            on_big.iter_mut().for_each(|b| *b = false);
            on_single.iter_mut().for_each(|b| *b = false);
            for cells in ships {
                for &i in cells {
                    if cells.len() > 1 {
                        on_big[usize::from(i)] = true;
                    } else {
                        on_single[usize::from(i)] = true;
                    }
                }
            }
            let mut score = 0.0;
            for i in 0..area {
                score += bernoulli(on_big[i], shrunk(big[i], games, usual.big[i]), usual.big[i]);
                score += bernoulli(
                    on_single[i],
                    shrunk(single[i], games, usual.single[i]),
                    usual.single[i],
                );
            }
            gain += w * score;
            for i in 0..area {
                big[i] += w * f64::from(u8::from(on_big[i]));
                single[i] += w * f64::from(u8::from(on_single[i]));
            }
            games += w;
        }
        if games <= 0.0 {
            return None;
        }
        let tilt = |counts: &[f64], usual: &[f64]| -> Vec<f64> {
            counts
                .iter()
                .zip(usual)
                .map(|(&c, &u)| shrunk(c, games, u) / u.max(1e-4))
                .collect()
        };
        let prior = games / (games + SMOOTHING) * 0.95 / (1.0 + (-gain / GAIN_SCALE).exp());
        Some(Fit {
            games,
            big_share: big.iter().map(|c| c / games).collect(),
            single_share: single.iter().map(|c| c / games).collect(),
            big: tilt(&big, &usual.big),
            single: tilt(&single, &usual.single),
            gain,
            prior,
        })
    }

    /// What the bot has learned of this player's placements on a field of `ruleset`, in the
    /// figures its model uses (the per-cell shares the learning level's fit samples by, summed over parts of
    /// the field), once at least 3 layouts (`TENDENCIES_FROM`) were seen; `None` before, or on
    /// a field with terrain.
    pub fn tendencies(&self, ruleset: &Ruleset) -> Option<Tendencies> {
        let fit = self.fit(ruleset)?;
        if fit.games < TENDENCIES_FROM {
            return None;
        }
        let size = ruleset.size();
        let usual = usual(ruleset);
        let (w, h) = (size.width, size.height);
        let border = |i: usize| {
            let c = size.coord(i);
            c.x == 0 || c.y == 0 || c.x + 1 == w || c.y + 1 == h
        };
        let share = |v: &[f64], keep: &dyn Fn(usize) -> bool| {
            let all: f64 = v.iter().sum();
            let part: f64 = v
                .iter()
                .enumerate()
                .filter(|(i, _)| keep(*i))
                .map(|x| x.1)
                .sum();
            if all > 0.0 {
                part / all
            } else {
                0.0
            }
        };
        let cells: Vec<f64> = fit
            .big_share
            .iter()
            .zip(&fit.single_share)
            .map(|(a, b)| a + b)
            .collect();
        let in_half = |k: usize, i: usize| {
            let c = size.coord(i);
            match k {
                0 => 2 * c.x < w,
                1 => 2 * c.x >= w,
                2 => 2 * c.y < h,
                _ => 2 * c.y >= h,
            }
        };
        let in_quarter = |k: usize, i: usize| in_half(k % 2, i) && in_half(2 + k / 2, i);
        let best = |n: usize, inside: &dyn Fn(usize, usize) -> bool| {
            (0..n)
                .map(|k| (k, share(&cells, &|i| inside(k, i))))
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap_or((0, 0.0))
        };
        let (half, half_share) = best(4, &in_half);
        let (quarter, quarter_share) = best(4, &in_quarter);
        Some(Tendencies {
            games: fit.games,
            big_on_border: share(&fit.big_share, &border),
            big_on_border_usual: share(&usual.big, &border),
            singles_inside: 1.0 - share(&fit.single_share, &border),
            singles_inside_usual: 1.0 - share(&usual.single, &border),
            half: [Half::Left, Half::Right, Half::Top, Half::Bottom][half],
            half_share,
            quarter: [
                Quarter::TopLeft,
                Quarter::TopRight,
                Quarter::BottomLeft,
                Quarter::BottomRight,
            ][quarter],
            quarter_share,
            weight: fit.prior,
        })
    }
}

/// Games' weight of the uniform layouts in each fitted share (see [`Habits::fit`]).
pub const SMOOTHING: f64 = 8.0;
/// The prequential gain (nats) at which the fitted model's prior weight is about 73 % of its
/// most: the gain's scale in the logistic.
const GAIN_SCALE: f64 = 10.0;
/// Layouts seen before [`Habits::tendencies`] tells anything.
pub const TENDENCIES_FROM: f64 = 3.0;

/// A player's fitted tendencies (per cell), for the learning level's sampler.
#[derive(Clone, Debug)]
pub(crate) struct Fit {
    /// Weighted layouts the fit is from.
    pub games: f64,
    /// For each cell, the share of layouts with a multi-cell ship on it (raw).
    pub big_share: Vec<f64>,
    /// For each cell, the share of layouts with a single-cell ship on it (raw).
    pub single_share: Vec<f64>,
    /// For each cell, how much likelier than in uniform layouts a multi-cell ship covers it
    /// (the smoothed share over the uniform one): a placement weighs the product over its cells.
    pub big: Vec<f64>,
    /// As `big`, for single-cell ships.
    pub single: Vec<f64>,
    /// How much better (nats, in all) the fit from the earlier layouts predicted each next
    /// one than uniform layouts do: negative for people who place at random.
    #[allow(dead_code)]
    pub gain: f64,
    /// The model's prior weight in the mixture: `games / (games + SMOOTHING)`, times 0.95, times
    /// the logistic of `gain / GAIN_SCALE`, so it stays near 0 for people without habits.
    pub prior: f64,
}

/// A half of the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// Columns left of the middle.
    Left,
    /// Columns from the middle on.
    Right,
    /// Rows above the middle.
    Top,
    /// Rows from the middle down.
    Bottom,
}

/// A quarter of the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quarter {
    /// Left and top halves.
    TopLeft,
    /// Right and top.
    TopRight,
    /// Left and bottom.
    BottomLeft,
    /// Right and bottom.
    BottomRight,
}

/// What the learning level has learned of one player's placements, for `/stats` to tell in
/// words: shares (0 to 1) of ship cells over the layouts seen, each beside what uniform random
/// layouts give, from the same per-cell counts the model samples by.
#[derive(Clone, Debug, PartialEq)]
pub struct Tendencies {
    /// Weighted layouts seen.
    pub games: f64,
    /// Share of the multi-cell ships' cells on the field's outer ring ("you put big ships on
    /// the edge 80 % of the time").
    pub big_on_border: f64,
    /// The same share in uniform random layouts.
    pub big_on_border_usual: f64,
    /// Share of the single-cell ships off the outer ring.
    pub singles_inside: f64,
    /// The same share in uniform random layouts.
    pub singles_inside_usual: f64,
    /// The half of the field with most ship cells.
    pub half: Half,
    /// Share of all ship cells in that half (about 0.5 for random layouts).
    pub half_share: f64,
    /// The quarter with most ship cells.
    pub quarter: Quarter,
    /// Share of all ship cells in that quarter (about 0.25 for random layouts).
    pub quarter_share: f64,
    /// The prior weight (0 to 0.95) the learning level gives these tendencies beside the
    /// uniform model: near 0 when they do not predict this player better than chance.
    pub weight: f64,
}

/// Whether `ships` is a layout of `ruleset`'s fleet on its field.
fn fits_fleet(ships: &Layout, ruleset: &Ruleset) -> bool {
    let area = ruleset.size().area();
    let mut sizes: Vec<usize> = ruleset
        .fleet()
        .iter()
        .map(|k| usize::from(k.size()))
        .collect();
    sizes.sort_unstable();
    let mut lens: Vec<usize> = ships.iter().map(Vec::len).collect();
    lens.sort_unstable();
    lens == sizes && ships.iter().flatten().all(|&i| usize::from(i) < area)
}

/// How often each cell holds a multi-cell and a single-cell ship in uniform random layouts.
pub(crate) struct Usual {
    /// Multi-cell ships, by cell.
    pub big: Vec<f64>,
    /// Single-cell ships, by cell.
    pub single: Vec<f64>,
}

/// Layouts drawn for [`Usual`].
const USUAL_LAYOUTS: usize = 2000;

thread_local! {
    static USUAL: std::cell::RefCell<HashMap<String, std::rc::Rc<Usual>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// [`Usual`] for `ruleset`: from [`USUAL_LAYOUTS`] seeded [`random_fleet`] layouts, each
/// also mirrored both ways; computed once per thread and placement: what shapes a fleet's
/// layout (the field, the touching rule, the shapes), not the players, the shots, the mines
/// or the timer.
///
/// [`random_fleet`]: crate::random_fleet
pub(crate) fn usual(ruleset: &Ruleset) -> std::rc::Rc<Usual> {
    let ruleset = &Ruleset {
        touching: ruleset.touching,
        shapes: ruleset.shapes,
        field: ruleset.field.clone(),
        ..Ruleset::default()
    };
    let key = format!("{ruleset:?}");
    if let Some(u) = USUAL.with(|m| m.borrow().get(&key).cloned()) {
        return u;
    }
    let size = ruleset.size();
    let area = size.area();
    let (mut big, mut single) = (vec![0.0; area], vec![0.0; area]);
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5EA);
    let mut n = 0.0;
    for _ in 0..USUAL_LAYOUTS {
        let Ok(f) = crate::random_fleet(ruleset, &mut rng) else {
            continue;
        };
        n += 4.0;
        for s in f.ships() {
            let to = if s.cells.len() > 1 {
                &mut big
            } else {
                &mut single
            };
            for c in &s.cells {
                let (x, y) = (c.x, c.y);
                let (mx, my) = (size.width - 1 - x, size.height - 1 - y);
                for (a, b) in [(x, y), (mx, y), (x, my), (mx, my)] {
                    to[size.index(Coord::new(a, b))] += 1.0;
                }
            }
        }
    }
    let n: f64 = if n > 0.0 { n } else { 1.0 };
    let u = std::rc::Rc::new(Usual {
        big: big.iter().map(|c| (c / n).max(1e-3)).collect(),
        single: single.iter().map(|c| (c / n).max(1e-3)).collect(),
    });
    USUAL.with(|m| m.borrow_mut().insert(key, u.clone()));
    u
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

    #[test]
    fn the_fit_leans_where_the_player_puts_ships_and_is_none_before_any_layout() {
        let r = Ruleset::default();
        let size = r.size();
        assert!(
            Habits::new().fit(&r).is_none(),
            "no layout: the uniform prior alone"
        );
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut h = Habits::new();
        for _ in 0..40 {
            let f = (0..60)
                .map(|_| random_fleet(&r, &mut rng).unwrap())
                .max_by_key(|f| f.ship_cells().filter(|c| c.x < 5).count())
                .unwrap();
            h.observe(&f, size, 1.0);
        }
        let fit = h.fit(&r).expect("a fit");
        let side = |x: std::ops::Range<u8>| -> f64 {
            size.cells()
                .filter(|c| x.contains(&c.x))
                .map(|c| fit.big[size.index(c)] + fit.single[size.index(c)])
                .sum::<f64>()
                / 100.0
        };
        assert!(
            side(0..5) > 1.0 && side(5..10) < 1.0,
            "{} {}",
            side(0..5),
            side(5..10)
        );
        assert!(fit.prior > 0.5 && fit.gain > 0.0, "{fit:?}");
        // One layout weighs little against the uniform prior: the factors stay near 1.
        let mut one = Habits::new();
        one.observe(&random_fleet(&r, &mut rng).unwrap(), size, 1.0);
        let fit = one.fit(&r).expect("a fit");
        assert!(fit.big.iter().all(|&f| f < 2.0), "{:?}", fit.big);
        assert!(fit.prior < 0.11, "{fit:?}");
    }
}
