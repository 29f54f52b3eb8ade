//! The simulated habitual placers of the `--habits` bench: the kinds of habit, a placer's
//! layouts, and its true law for the `--oracle` ceiling.

use engine::{random_fleet, Coord, Fleet, Oracle, Ruleset};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::sync::Arc;

/// One kind of habit a simulated player may have; each player draws a kind (or two) and its
/// parameters at random. Layouts are uniform random ones ([`random_fleet`]), the best of a
/// number that grows with the habit's strength by the habit's score, so they are legal and
/// fresh every game. None is drawn from the learning level's model.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Habit {
    /// Multi-cell ships' cells on the outer ring of the field.
    Border,
    /// All ships near a corner (Chebyshev distance).
    Corner(u8, u8),
    /// Ship cells in one half (0 left, 1 right, 2 top, 3 bottom).
    HalfField(u8),
    /// Ships packed together: the smallest bounding box.
    Cluster,
    /// Ships spread out: the largest sum of distances between ships' first cells.
    Spread,
    /// Single-cell ships near the middle.
    SinglesMiddle,
    /// Multi-cell ships vertical.
    Vertical,
}

impl Habit {
    /// The habit's name in the bench's table (`--by-habit`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Habit::Border => "border",
            Habit::Corner(..) => "corner",
            Habit::HalfField(_) => "half",
            Habit::Cluster => "cluster",
            Habit::Spread => "spread",
            Habit::SinglesMiddle => "singles",
            Habit::Vertical => "vertical",
        }
    }

    fn random(rng: &mut StdRng, r: &Ruleset) -> Habit {
        let (w, h) = (r.size().width - 1, r.size().height - 1);
        match rng.gen_range(0..7) {
            0 => Habit::Border,
            1 => Habit::Corner(
                if rng.gen_bool(0.5) { 0 } else { w },
                if rng.gen_bool(0.5) { 0 } else { h },
            ),
            2 => Habit::HalfField(rng.gen_range(0..4)),
            3 => Habit::Cluster,
            4 => Habit::Spread,
            5 => Habit::SinglesMiddle,
            _ => Habit::Vertical,
        }
    }

    /// The habit's score of a layout given as its ships' cells, each ship's in row-major
    /// order (higher: more habitual), roughly in cells.
    fn score(self, ships: &[Vec<Coord>], r: &Ruleset) -> f64 {
        let size = r.size();
        let (w, h) = (size.width, size.height);
        let big = || ships.iter().filter(|s| s.len() > 1);
        let cells = || ships.iter().flatten();
        match self {
            Habit::Border => big()
                .flatten()
                .filter(|c| c.x == 0 || c.y == 0 || c.x + 1 == w || c.y + 1 == h)
                .count() as f64,
            Habit::Corner(cx, cy) => {
                -cells()
                    .map(|c| f64::from(c.x.abs_diff(cx).max(c.y.abs_diff(cy))))
                    .sum::<f64>()
                    / 4.0
            }
            Habit::HalfField(k) => cells()
                .filter(|c| match k {
                    0 => 2 * c.x < w,
                    1 => 2 * c.x >= w,
                    2 => 2 * c.y < h,
                    _ => 2 * c.y >= h,
                })
                .count() as f64,
            Habit::Cluster => {
                let xs: Vec<u8> = cells().map(|c| c.x).collect();
                let ys: Vec<u8> = cells().map(|c| c.y).collect();
                let (x0, x1) = (
                    *xs.iter().min().unwrap_or(&0),
                    *xs.iter().max().unwrap_or(&0),
                );
                let (y0, y1) = (
                    *ys.iter().min().unwrap_or(&0),
                    *ys.iter().max().unwrap_or(&0),
                );
                -f64::from((x1 - x0 + 1) as u16 * (y1 - y0 + 1) as u16) / 5.0
            }
            Habit::Spread => {
                let heads: Vec<_> = ships.iter().map(|s| s[0]).collect();
                let mut d = 0.0;
                for (i, a) in heads.iter().enumerate() {
                    for b in &heads[i + 1..] {
                        d += f64::from(a.x.abs_diff(b.x) + a.y.abs_diff(b.y));
                    }
                }
                d / 20.0
            }
            Habit::SinglesMiddle => -ships
                .iter()
                .filter(|s| s.len() == 1)
                .map(|s| {
                    let c = s[0];
                    (f64::from(c.x) - f64::from(w - 1) / 2.0).abs()
                        + (f64::from(c.y) - f64::from(h - 1) / 2.0).abs()
                })
                .sum::<f64>(),
            Habit::Vertical => big().filter(|s| s.iter().all(|c| c.x == s[0].x)).count() as f64,
        }
    }
}

/// A simulated habitual placer: one or two habits, and how hard each is followed (the layouts
/// compared for each one drawn).
pub(crate) struct Placer {
    pub(crate) habits: Vec<Habit>,
    /// Random layouts compared per layout drawn (1: no habit at all).
    pub(crate) choices: usize,
    /// The same few layouts over and over, for exact repeaters.
    pub(crate) favourites: Vec<Fleet>,
}

impl Placer {
    pub(crate) fn habitual(r: &Ruleset, rng: &mut StdRng) -> Placer {
        let mut habits = vec![Habit::random(rng, r)];
        if rng.gen_bool(0.3) {
            habits.push(Habit::random(rng, r));
        }
        Placer {
            habits,
            choices: rng.gen_range(2..=40),
            favourites: Vec::new(),
        }
    }

    pub(crate) fn fleet(&self, r: &Ruleset, rng: &mut StdRng) -> Fleet {
        if !self.favourites.is_empty() {
            return self.favourites.choose(rng).expect("favourites").clone();
        }
        (0..self.choices.max(1))
            .map(|_| random_fleet(r, rng).unwrap())
            .map(|f| (self.score(&ships_of(&f, r), r), f))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a layout")
            .1
    }
}

impl Placer {
    /// The layout's score by all the placer's habits.
    fn score(&self, ships: &[Vec<Coord>], r: &Ruleset) -> f64 {
        self.habits.iter().map(|h| h.score(ships, r)).sum()
    }

    /// The placer's true law, for the learning level's ceiling (`--oracle`): a layout's
    /// chance under it against a uniform one's. The placer keeps the best of `choices`
    /// uniform layouts by its score S, so a layout of score s has the weight
    /// (F(s)^k − F(s⁻)^k) / P(S = s), with F the uniform layouts' distribution of S,
    /// estimated from `draws` of them (k·F^(k−1) for a score never drawn).
    pub(crate) fn law(&self, r: &Ruleset, draws: usize, rng: &mut StdRng) -> Oracle {
        let mut scores: Vec<f64> = (0..draws)
            .map(|_| self.score(&ships_of(&random_fleet(r, rng).unwrap(), r), r))
            .collect();
        scores.sort_by(f64::total_cmp);
        let k = self.choices.max(1) as i32;
        let n = scores.len() as f64;
        let (habits, ruleset) = (self.habits.clone(), r.clone());
        Oracle(Arc::new(move |cells: &[usize]| {
            let ships = ships_of_cells(cells, &ruleset);
            let s: f64 = habits.iter().map(|h| h.score(&ships, &ruleset)).sum();
            let below = scores.partition_point(|&x| x < s) as f64 / n;
            let upto = scores.partition_point(|&x| x <= s) as f64 / n;
            if upto > below {
                (upto.powi(k) - below.powi(k)) / (upto - below)
            } else {
                f64::from(k) * below.powi(k - 1)
            }
        }))
    }
}

/// `fleet`'s ships' cells, each ship's in row-major order.
fn ships_of(fleet: &Fleet, r: &Ruleset) -> Vec<Vec<Coord>> {
    let size = r.size();
    fleet
        .ships()
        .iter()
        .map(|s| {
            let mut cells = s.cells.clone();
            cells.sort_by_key(|&c| size.index(c));
            cells
        })
        .collect()
}

/// The ships of a layout given as its ship cells' indices: the cells joined side to side (the
/// classic rules keep ships apart), each ship's in row-major order.
fn ships_of_cells(cells: &[usize], r: &Ruleset) -> Vec<Vec<Coord>> {
    let size = r.size();
    let mut left: std::collections::BTreeSet<usize> = cells.iter().copied().collect();
    let mut ships = Vec::new();
    while let Some(first) = left.pop_first() {
        let mut ship = vec![first];
        let mut k = 0;
        while k < ship.len() {
            for side in size.coord(ship[k]).sides(size) {
                let i = size.index(side);
                if left.remove(&i) {
                    ship.push(i);
                }
            }
            k += 1;
        }
        ship.sort_unstable();
        ships.push(ship.into_iter().map(|i| size.coord(i)).collect());
    }
    ships
}
