//! What the learning level has learned of a player's placements, told for `/stats`:
//! [`Tendencies`], with the favourite [`Half`] and [`Quarter`] of the field.

use super::layout_features::{usual, SPREAD};
use super::*;
use crate::ruleset::Ruleset;

/// Layouts seen before [`Habits::tendencies`] tells anything.
pub const TENDENCIES_FROM: f64 = 3.0;

impl Habits {
    /// What the bot has learned of this player's placements on a field of `ruleset`, in the
    /// figures its model is fitted to (the shares of the layouts seen that its features sum:
    /// big ships' cells on the edge, single ships off it, the favourite half and quarter, the
    /// ships upright, how packed), once at least 3 layouts (`TENDENCIES_FROM`) were seen; `None` before, or on
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
            upright: fit.upright_share,
            upright_usual: usual.upright,
            compact: usual
                .features
                .iter()
                .filter(|f| f[SPREAD] > fit.spread_seen)
                .count() as f64
                / usual.features.len().max(1) as f64,
            weight: fit.prior,
        })
    }
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
    /// Share of the straight multi-cell ships standing upright.
    pub upright: f64,
    /// The same share in uniform random layouts.
    pub upright_usual: f64,
    /// Share of uniform random layouts whose ship cells are more spread out than this
    /// player's on average (about 0.5 for random layouts; near 1 for packed fleets).
    pub compact: f64,
    /// The prior weight (0 to 0.95) the learning level gives these tendencies beside the
    /// uniform model: near 0 when they do not predict this player better than chance.
    pub weight: f64,
}
