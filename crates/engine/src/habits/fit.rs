//! A player's fitted tendencies ([`Fit`]): how often straight ships stand upright and the
//! exponential tilt by a layout's features, each counting as far as it predicted the player.

use super::layout_features::{
    cell_features, features, spread, upright_of, usual, CELL_FEATURES, FEATURES, SPREAD,
};
use super::tilt::{dot, log_mean_exp, tilt_for};
use super::*;
use crate::ruleset::Ruleset;

impl Habits {
    /// The player's tendencies as the learning level fits them on a field of `ruleset` (see
    /// [`Fit`]), made once and kept until another layout is counted. `None` where the field has
    /// terrain or no layout of its fleet was seen.
    pub(crate) fn fit(&self, ruleset: &Ruleset) -> Option<std::sync::Arc<Fit>> {
        let key = format!("{ruleset:?}");
        let mut cache = match self.fits.0.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        };
        cache
            .entry(key)
            .or_insert_with(|| self.fit_anew(ruleset).map(std::sync::Arc::new))
            .clone()
    }

    /// [`Habits::fit`], made anew.
    ///
    /// Two parts: how often a straight multi-cell ship stood upright, smoothed toward what
    /// uniform random layouts do with the weight of [`SMOOTHING`] games; and an exponential
    /// tilt by the layout's [`features`] (where the big ships' cells and the single ships sit,
    /// which side and corner the fleet leans to, how spread out it is), fitted by maximum
    /// likelihood against uniform random layouts, with a standard normal prior on each
    /// feature's tilt in units of its spread there. Each part counts (its factors raised to a
    /// power from 0 to 1) as far as the part fitted from the earlier layouts predicted each
    /// next one better than uniform layouts did (its prequential gain less [`NOISE_GAIN`],
    /// over [`FULL_GAIN`] nats); the model's prior weight grows with the layouts seen and as far as its better
    /// part counts. (Per-cell factors fitted freely, tried first, needed more layouts than
    /// people play and lost shots to their noise.)
    fn fit_anew(&self, ruleset: &Ruleset) -> Option<Fit> {
        if ruleset.has_terrain() {
            return None;
        }
        let size = ruleset.size();
        let area = size.area();
        let width = usize::from(size.width);
        let usual = usual(ruleset);
        let (mut big, mut single) = (vec![0.0; area], vec![0.0; area]);
        let (mut upright, mut straight) = (0.0, 0.0);
        let (mut games, mut spreads) = (0.0, 0.0);
        // Each part's prequential gain: upright, tilt.
        let mut gains = [0.0; 2];
        let lines = ruleset
            .fleet()
            .iter()
            .filter(|k| k.size() > 1)
            .count()
            .max(1) as f64;
        let shrunk = |count: f64, games: f64, usual: f64| {
            ((count + SMOOTHING * usual) / (games + SMOOTHING)).clamp(1e-4, 1.0 - 1e-4)
        };
        // The features of each layout seen, standardised, for the tilt; refitted for the
        // prequential gain at a few points only (a fit is a search), against a quarter of
        // the random layouts (the unmirrored ones).
        let mut seen: Vec<([f64; FEATURES], f64)> = Vec::new();
        let mut theta = [0.0; FEATURES];
        let uniform: Vec<([f64; FEATURES], f64)> = usual
            .features
            .iter()
            .map(|f| (usual.standard(f), 1.0))
            .collect();
        let quarter: Vec<([f64; FEATURES], f64)> = uniform.iter().step_by(4).copied().collect();
        for (ships, w) in self.layouts() {
            if !fits_fleet(ships, ruleset) {
                continue;
            }
            let mut ups = (0.0, 0.0);
            for cells in ships {
                let to = if cells.len() > 1 {
                    &mut big
                } else {
                    &mut single
                };
                for &i in cells {
                    to[usize::from(i)] += w;
                }
                if let Some(up) = upright_of(cells.iter().map(|&i| usize::from(i)), width) {
                    ups.0 += f64::from(u8::from(up));
                    ups.1 += 1.0;
                }
            }
            let f = features(ships, size);
            spreads += w * f[SPREAD];
            let z = usual.standard(&f);
            // How much better than uniform layouts the fit so far predicts this one.
            let p_up = shrunk(upright / lines, straight / lines, usual.upright);
            let up = ups.0 * (p_up / usual.upright).ln()
                + (ups.1 - ups.0) * ((1.0 - p_up) / (1.0 - usual.upright)).ln();
            if REFITS.contains(&seen.len()) {
                theta = tilt_for(&seen, &quarter);
            }
            let tilt = dot(&theta, &z) - log_mean_exp(&theta, &quarter);
            gains[0] += w * up;
            gains[1] += w * tilt;
            upright += w * ups.0;
            straight += w * ups.1;
            seen.push((z, w));
            games += w;
        }
        if games <= 0.0 {
            return None;
        }
        let strength = gains.map(|g| ((g - NOISE_GAIN) / FULL_GAIN).clamp(0.0, 1.0));
        let prior = games / (games + SMOOTHING) * 0.95 * strength[0].max(strength[1]);
        let theta = tilt_for(&seen, &uniform).map(|t| t * strength[1]);
        let spread = usual.spread;
        let mut cell_log = vec![[0.0; 2]; area];
        // The features that add up over cells go into the places' weights; the spread stays
        // a weight of the whole layout, centred on its mean under the rest.
        for (i, logs) in cell_log.iter_mut().enumerate() {
            for (class, log) in logs.iter_mut().enumerate() {
                let phi = cell_features(i, class == 1, size);
                *log = (0..CELL_FEATURES)
                    .map(|k| theta[k] * phi[k] / spread[k])
                    .sum();
            }
        }
        let rest: Vec<f64> = usual
            .layouts
            .iter()
            .zip(&uniform)
            .map(|(ships, _)| {
                ships
                    .iter()
                    .flatten()
                    .map(|&i| usize::from(i))
                    .zip(
                        ships
                            .iter()
                            .flat_map(|c| std::iter::repeat_n(c.len() == 1, c.len())),
                    )
                    .map(|(i, one)| cell_log[i][usize::from(one)])
                    .sum::<f64>()
            })
            .collect();
        let top = rest.iter().copied().fold(f64::MIN, f64::max);
        let (mut total, mut centre) = (0.0, 0.0);
        for (l, (z, _)) in rest.iter().zip(&uniform) {
            let e = (l - top).exp();
            total += e;
            centre += e * z[SPREAD];
        }
        Some(Fit {
            games,
            big_share: big.iter().map(|c| c / games).collect(),
            single_share: single.iter().map(|c| c / games).collect(),
            upright_share: if straight > 0.0 {
                upright / straight
            } else {
                usual.upright
            },
            spread_seen: spreads / games,
            upright: shrunk(upright / lines, straight / lines, usual.upright),
            usual_upright: usual.upright,
            strength,
            theta,
            cell_log,
            centre: if total > 0.0 { centre / total } else { 0.0 },
            mean: usual.mean[SPREAD],
            spread: usual.spread[SPREAD],
            width,
            prior,
        })
    }
}

/// Games' weight of the uniform layouts in each fitted share (see [`Habits::fit`]).
pub const SMOOTHING: f64 = 8.0;
/// The prequential gain (nats) a part of the fit may reach by chance: for a player without
/// the habit, the prequential likelihood ratio is a martingale of mean 1, so it ever reaches
/// `e^4` with chance at most `e^-4` (Ville's inequality), under 2 %. Below it a part counts
/// for nothing, and the learning level shoots exactly as hard does.
const NOISE_GAIN: f64 = 4.0;
/// The prequential gain (nats) beyond [`NOISE_GAIN`] at which a part of the fit counts fully.
const FULL_GAIN: f64 = 10.0;

/// Layouts seen after which the tilt is fitted anew for the prequential gain.
const REFITS: [usize; 11] = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 130];

/// A player's fitted tendencies, for the learning level's sampler (see [`Habits::fit`]).
#[derive(Clone, Debug)]
pub(crate) struct Fit {
    /// Weighted layouts the fit is from.
    pub games: f64,
    /// For each cell, the share of layouts with a multi-cell ship on it (raw).
    pub big_share: Vec<f64>,
    /// For each cell, the share of layouts with a single-cell ship on it (raw).
    pub single_share: Vec<f64>,
    /// The share of straight multi-cell ships seen standing upright (raw).
    pub upright_share: f64,
    /// The mean [`spread`] of the layouts seen (raw).
    pub spread_seen: f64,
    /// The smoothed share of straight multi-cell ships standing upright.
    pub upright: f64,
    /// The same share in uniform random layouts.
    pub usual_upright: f64,
    /// How far each part counts (0 to 1): the upright share, the tilt. It is the part's
    /// prequential gain less [`NOISE_GAIN`] over [`FULL_GAIN`], and the power its factors
    /// are raised to.
    pub strength: [f64; 2],
    /// The tilt by the layout's standardised [`features`], times its strength: a layout
    /// weighs `exp(theta · z)`, up to a constant.
    pub theta: [f64; FEATURES],
    /// For each cell, the log factor the features that add up over cells give a ship cell
    /// there: of a multi-cell ship, of a single-cell one.
    pub cell_log: Vec<[f64; 2]>,
    /// The standardised spread's mean in random layouts weighed by `cell_log` (so that the
    /// spread's weights stay near 1).
    pub centre: f64,
    /// The spread's mean in uniform random layouts.
    pub mean: f64,
    /// The spread's standard deviation in uniform random layouts.
    pub spread: f64,
    /// The field's width, for cell indices.
    pub width: usize,
    /// The model's prior weight in the mixture: `games / (games + SMOOTHING)`, times 0.95, times
    /// the stronger part's strength, so it is 0 for people without habits.
    pub prior: f64,
}

impl Fit {
    /// The log of how much likelier a ship on `cells` (indices) is under the tendencies than
    /// in uniform layouts (up to a constant): its cells' factors and, for a straight
    /// multi-cell ship, its upright factor.
    pub fn place_log(&self, cells: &[usize]) -> f64 {
        let class = usize::from(cells.len() == 1);
        let mut log: f64 = cells
            .iter()
            .map(|&i| self.cell_log.get(i).map_or(0.0, |l| l[class]))
            .sum();
        let up = self.strength[0];
        match upright_of(cells.iter().copied(), self.width) {
            Some(true) => log += up * (self.upright / self.usual_upright).ln(),
            Some(false) => log += up * ((1.0 - self.upright) / (1.0 - self.usual_upright)).ln(),
            None => {}
        }
        log
    }

    /// [`Fit::place_log`]'s factor, bounded.
    pub fn place(&self, cells: &[usize]) -> f64 {
        self.place_log(cells).clamp(-60.0, 60.0).exp()
    }

    /// The tilt's weight of a layout whose ship cells (all of them, sunk ones too) are
    /// `cells`, by the features that do not add up over cells (the spread), bounded.
    pub fn tilt(&self, cells: impl Iterator<Item = usize>) -> f64 {
        let z = (spread(cells, self.width) - self.mean) / self.spread;
        (self.theta[SPREAD] * (z - self.centre))
            .clamp(-30.0, 30.0)
            .exp()
    }
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
