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

/// Games' weight of the uniform layouts in each fitted share (see [`Habits::fit`]).
pub const SMOOTHING: f64 = 8.0;
/// The prequential gain (nats) a part of the fit may reach by chance: for a player without
/// the habit, the prequential likelihood ratio is a martingale of mean 1, so it ever reaches
/// `e^4` with chance at most `e^-4` (Ville's inequality), under 2 %. Below it a part counts
/// for nothing, and the learning level shoots exactly as hard does.
const NOISE_GAIN: f64 = 4.0;
/// The prequential gain (nats) beyond [`NOISE_GAIN`] at which a part of the fit counts fully.
const FULL_GAIN: f64 = 10.0;
/// Layouts seen before [`Habits::tendencies`] tells anything.
pub const TENDENCIES_FROM: f64 = 3.0;

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

/// How many layout [`features`] the fit tilts by: those that add up over cells
/// ([`cell_features`]), then the spread.
pub(crate) const FEATURES: usize = CELL_FEATURES + 1;
/// How many of the [`features`] add up over cells.
const CELL_FEATURES: usize = 5;
/// Where the spread is among the [`features`].
const SPREAD: usize = CELL_FEATURES;

/// What a ship cell at index `i` adds to a layout's features, for a single-cell ship's cell
/// or a multi-cell ship's: on the outer ring (multi-cell ships); its column and its row from
/// the middle (any ship: which side, which corner); on the outer ring, and how far from the
/// middle (single-cell ships).
fn cell_features(i: usize, single: bool, size: Size) -> [f64; CELL_FEATURES] {
    let (w, h) = (usize::from(size.width), usize::from(size.height));
    let (x, y) = (i % w, i / w);
    let ring = f64::from(u8::from(x == 0 || y == 0 || x + 1 == w || y + 1 == h));
    let dx = x as f64 - (w as f64 - 1.0) / 2.0;
    let dy = y as f64 - (h as f64 - 1.0) / 2.0;
    if single {
        [0.0, dx, dy, ring, dx.abs() + dy.abs()]
    } else {
        [ring, dx, dy, 0.0, 0.0]
    }
}

/// What a layout (ships of cell indices on a field of `size`) looks like as a whole, beside
/// where each ship stands: the sums of its cells' [`cell_features`], and how spread out its
/// ship cells are ([`spread`]).
pub(crate) fn features(ships: &[Vec<u16>], size: Size) -> [f64; FEATURES] {
    let mut f = [0.0; FEATURES];
    for cells in ships {
        for &i in cells {
            let phi = cell_features(usize::from(i), cells.len() == 1, size);
            for k in 0..CELL_FEATURES {
                f[k] += phi[k];
            }
        }
    }
    f[SPREAD] = spread(
        ships.iter().flatten().map(|&i| usize::from(i)),
        usize::from(size.width),
    );
    f
}

/// How spread out ship cells (indices on a field `width` cells wide) are: the variance of
/// their columns plus that of their rows, in cells² (small for a fleet packed into one part
/// of the field, large for one spread over all of it).
fn spread(cells: impl Iterator<Item = usize>, width: usize) -> f64 {
    let (mut n, mut sx, mut sy, mut sxx, mut syy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for i in cells {
        let (x, y) = ((i % width) as f64, (i / width) as f64);
        n += 1.0;
        sx += x;
        sy += y;
        sxx += x * x;
        syy += y * y;
    }
    if n == 0.0 {
        return 0.0;
    }
    sxx / n - (sx / n).powi(2) + syy / n - (sy / n).powi(2)
}

/// Whether a straight ship of more than one cell (indices on a field `width` cells wide)
/// stands upright; `None` for a single cell or a bent shape.
fn upright_of(cells: impl Iterator<Item = usize>, width: usize) -> Option<bool> {
    let (mut first, mut n, mut same_x, mut same_y) = (None, 0, true, true);
    for i in cells {
        let (x, y) = (i % width, i / width);
        match first {
            None => first = Some((x, y)),
            Some((x0, y0)) => {
                same_x &= x == x0;
                same_y &= y == y0;
            }
        }
        n += 1;
    }
    match (n > 1, same_x, same_y) {
        (true, true, false) => Some(true),
        (true, false, true) => Some(false),
        _ => None,
    }
}

/// Layouts seen after which the tilt is fitted anew for the prequential gain.
const REFITS: [usize; 11] = [1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 130];

fn dot(a: &[f64; FEATURES], b: &[f64; FEATURES]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `ln` of the weighted mean of `exp(theta · z)` over `reference` (features and weights).
fn log_mean_exp(theta: &[f64; FEATURES], reference: &[([f64; FEATURES], f64)]) -> f64 {
    let top = reference
        .iter()
        .map(|(z, _)| dot(theta, z))
        .fold(f64::MIN, f64::max);
    let (mut sum, mut total) = (0.0, 0.0);
    for (z, w) in reference {
        sum += w * (dot(theta, z) - top).exp();
        total += w;
    }
    if total > 0.0 && sum > 0.0 {
        top + (sum / total).ln()
    } else {
        0.0
    }
}

/// The tilt `theta` that makes the layouts `seen` likeliest (each `exp(theta · z)` over
/// `reference`'s weighted mean of it), with a standard normal prior on each coordinate: by
/// Newton's method (the log-likelihood is concave), each coordinate within ±[`TILT_MAX`].
fn tilt_for(
    seen: &[([f64; FEATURES], f64)],
    reference: &[([f64; FEATURES], f64)],
) -> [f64; FEATURES] {
    let mut theta = [0.0; FEATURES];
    let n: f64 = seen.iter().map(|s| s.1).sum();
    if n <= 0.0 || reference.is_empty() {
        return theta;
    }
    let mut observed = [0.0; FEATURES];
    for (z, w) in seen {
        for k in 0..FEATURES {
            observed[k] += w * z[k] / n;
        }
    }
    for _ in 0..12 {
        // The reference's mean and covariance of z under the tilt `theta`.
        let top = reference
            .iter()
            .map(|(z, _)| dot(&theta, z))
            .fold(f64::MIN, f64::max);
        let mut total = 0.0;
        let mut mean = [0.0; FEATURES];
        let mut second = [[0.0; FEATURES]; FEATURES];
        for (z, w) in reference {
            let e = w * (dot(&theta, z) - top).exp();
            total += e;
            for a in 0..FEATURES {
                mean[a] += e * z[a];
                for b in 0..=a {
                    second[a][b] += e * z[a] * z[b];
                }
            }
        }
        if total <= 0.0 {
            break;
        }
        // The gradient, n (observed − mean) − theta, and the negated Hessian,
        // n · covariance + I.
        let mut grad = [0.0; FEATURES];
        let mut hess = [[0.0; FEATURES]; FEATURES];
        mean.iter_mut().for_each(|m| *m /= total);
        for a in 0..FEATURES {
            grad[a] = n * (observed[a] - mean[a]) - theta[a];
            for b in 0..=a {
                let c = second[a][b] / total - mean[a] * mean[b];
                hess[a][b] = n * c + f64::from(u8::from(a == b));
                hess[b][a] = hess[a][b];
            }
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut moved = 0.0f64;
        for k in 0..FEATURES {
            let next = (theta[k] + step[k]).clamp(-TILT_MAX, TILT_MAX);
            moved = moved.max((next - theta[k]).abs());
            theta[k] = next;
        }
        if moved < 1e-4 {
            break;
        }
    }
    theta
}

/// `x` with `a x = b`, for a symmetric positive definite `a` (Gaussian elimination with
/// partial pivoting); `None` if `a` is singular.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> Option<[f64; FEATURES]> {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, rest) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (r, row) in rest.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + r] -= f * b[col];
        }
    }
    let mut x = [0.0; FEATURES];
    for row in (0..FEATURES).rev() {
        let rest: f64 = (row + 1..FEATURES).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The largest tilt, per standardised feature.
const TILT_MAX: f64 = 4.0;

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

/// What uniform random layouts do, for the fit to compare a player's with.
pub(crate) struct Usual {
    /// How often each cell holds a multi-cell ship.
    pub big: Vec<f64>,
    /// How often each cell holds a single-cell ship.
    pub single: Vec<f64>,
    /// The share of straight multi-cell ships standing upright.
    pub upright: f64,
    /// The layouts drawn (each also mirrored both ways), as ships of cell indices.
    pub layouts: Vec<Layout>,
    /// Their [`features`].
    pub features: Vec<[f64; FEATURES]>,
    /// The features' mean.
    pub mean: [f64; FEATURES],
    /// The features' standard deviation (at least a little).
    pub spread: [f64; FEATURES],
}

impl Usual {
    /// `f` standardised: in standard deviations from the mean.
    pub fn standard(&self, f: &[f64; FEATURES]) -> [f64; FEATURES] {
        let mut z = [0.0; FEATURES];
        for k in 0..FEATURES {
            z[k] = (f[k] - self.mean[k]) / self.spread[k];
        }
        z
    }
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
    let width = usize::from(size.width);
    let (mut big, mut single) = (vec![0.0; area], vec![0.0; area]);
    let (mut upright, mut straight) = (0.0, 0.0);
    let mut layouts = Vec::with_capacity(USUAL_LAYOUTS * 4);
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5EA);
    let mut n = 0.0;
    for _ in 0..USUAL_LAYOUTS {
        let Ok(f) = crate::random_fleet(ruleset, &mut rng) else {
            continue;
        };
        n += 4.0;
        let mut mirrored: [Layout; 4] = Default::default();
        for s in f.ships() {
            let to = if s.cells.len() > 1 {
                &mut big
            } else {
                &mut single
            };
            let mut ship: [Vec<u16>; 4] = Default::default();
            for c in &s.cells {
                let (x, y) = (c.x, c.y);
                let (mx, my) = (size.width - 1 - x, size.height - 1 - y);
                for (m, (a, b)) in [(x, y), (mx, y), (x, my), (mx, my)].into_iter().enumerate() {
                    let i = size.index(Coord::new(a, b));
                    to[i] += 1.0;
                    ship[m].push(i as u16);
                }
            }
            if let Some(up) = upright_of(ship[0].iter().map(|&i| usize::from(i)), width) {
                upright += f64::from(u8::from(up));
                straight += 1.0;
            }
            for (m, cells) in ship.into_iter().enumerate() {
                mirrored[m].push(cells);
            }
        }
        layouts.extend(mirrored);
    }
    let n: f64 = if n > 0.0 { n } else { 1.0 };
    let features: Vec<[f64; FEATURES]> = layouts.iter().map(|l| features(l, size)).collect();
    let count = features.len().max(1) as f64;
    let (mut mean, mut spread) = ([0.0; FEATURES], [0.0; FEATURES]);
    for k in 0..FEATURES {
        mean[k] = features.iter().map(|f| f[k]).sum::<f64>() / count;
        spread[k] = (features
            .iter()
            .map(|f| (f[k] - mean[k]).powi(2))
            .sum::<f64>()
            / count)
            .sqrt()
            .max(1e-3);
    }
    let u = std::rc::Rc::new(Usual {
        big: big.iter().map(|c| (c / n).max(1e-3)).collect(),
        single: single.iter().map(|c| (c / n).max(1e-3)).collect(),
        upright: if straight > 0.0 {
            (upright / straight).clamp(0.05, 0.95)
        } else {
            0.5
        },
        layouts,
        features,
        mean,
        spread,
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

    /// `n` layouts of a player who keeps the best of `choices` random layouts by `score`.
    fn habitual(n: usize, choices: usize, seed: u64, score: impl Fn(&Fleet) -> f64) -> Habits {
        let r = Ruleset::default();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut h = Habits::new();
        for _ in 0..n {
            let f = (0..choices)
                .map(|_| random_fleet(&r, &mut rng).unwrap())
                .max_by(|a, b| score(a).total_cmp(&score(b)))
                .unwrap();
            h.observe(&f, r.size(), 1.0);
        }
        h
    }

    /// A layout's weight under `fit` beside uniform layouts (up to a constant).
    fn weight_of(fit: &Fit, f: &Fleet, size: Size) -> f64 {
        let places: f64 = f
            .ships()
            .iter()
            .map(|s| {
                let cells: Vec<usize> = s.cells.iter().map(|&c| size.index(c)).collect();
                fit.place_log(&cells)
            })
            .sum();
        places.exp() * fit.tilt(f.ship_cells().map(|c| size.index(c)))
    }

    #[test]
    fn the_fit_leans_where_the_player_puts_ships_and_is_none_before_any_layout() {
        let r = Ruleset::default();
        let size = r.size();
        assert!(
            Habits::new().fit(&r).is_none(),
            "no layout: the uniform prior alone"
        );
        let h = habitual(40, 60, 7, |f| {
            f.ship_cells().filter(|c| c.x < 5).count() as f64
        });
        let fit = h.fit(&r).expect("a fit");
        let side = |x: std::ops::Range<u8>| -> f64 {
            size.cells()
                .filter(|c| x.contains(&c.x))
                .map(|c| fit.cell_log[size.index(c)][0] + fit.cell_log[size.index(c)][1])
                .sum::<f64>()
        };
        assert!(
            side(0..5) > side(5..10) + 1.0,
            "{} {}",
            side(0..5),
            side(5..10)
        );
        assert!(fit.prior > 0.5 && fit.strength[1] > 0.5, "{fit:?}");
        // The same layouts mirrored weigh less than the player's own.
        let mut rng = rand::rngs::StdRng::seed_from_u64(8);
        let (mut own, mut mirrored) = (0, 0);
        for _ in 0..40 {
            let f = (0..60)
                .map(|_| random_fleet(&r, &mut rng).unwrap())
                .max_by_key(|f| f.ship_cells().filter(|c| c.x < 5).count())
                .unwrap();
            let m = Fleet::new_unchecked(
                f.ships()
                    .iter()
                    .map(|s| crate::fleet::Ship {
                        kind: s.kind,
                        cells: s.cells.iter().map(|c| Coord::new(9 - c.x, c.y)).collect(),
                    })
                    .collect(),
                Vec::new(),
                None,
            );
            if weight_of(&fit, &f, size) > weight_of(&fit, &m, size) {
                own += 1;
            } else {
                mirrored += 1;
            }
        }
        assert!(own >= 36, "{own} own, {mirrored} mirrored");
        // One layout weighs nothing against the uniform prior.
        let mut one = Habits::new();
        one.observe(&random_fleet(&r, &mut rng).unwrap(), size, 1.0);
        let fit = one.fit(&r).expect("a fit");
        assert_eq!(fit.prior, 0.0, "{fit:?}");
    }

    #[test]
    fn packed_and_upright_fleets_are_learned_as_a_whole_and_random_ones_not_at_all() {
        let r = Ruleset::default();
        // Packed into a small box, wherever it is.
        let area_of = |f: &Fleet| {
            let (xs, ys): (Vec<u8>, Vec<u8>) = f.ship_cells().map(|c| (c.x, c.y)).unzip();
            let span = |v: &[u8]| f64::from(v.iter().max().unwrap() - v.iter().min().unwrap() + 1);
            span(&xs) * span(&ys)
        };
        let packed = habitual(50, 40, 9, |f| -area_of(f)).fit(&r).expect("a fit");
        assert!(packed.theta[SPREAD] < -0.3, "{packed:?}");
        assert!(packed.prior > 0.3, "{packed:?}");
        // Upright multi-cell ships.
        let upright = |f: &Fleet| {
            f.ships()
                .iter()
                .filter(|s| s.cells.len() > 1 && s.cells.iter().all(|c| c.x == s.cells[0].x))
                .count() as f64
        };
        let up = habitual(50, 40, 10, upright).fit(&r).expect("a fit");
        assert!(up.upright > 0.65 && up.strength[0] > 0.5, "{up:?}");
        let column: Vec<usize> = (0..4).map(|y| y * 10 + 3).collect();
        let row: Vec<usize> = (3..7).map(|x| 50 + x).collect();
        assert!(up.place(&column) > 1.5 * up.place(&row), "{up:?}");
        // Random layouts: nothing to learn, whatever the seed.
        for seed in 11..14 {
            let random = habitual(50, 1, seed, |_| 0.0).fit(&r).expect("a fit");
            assert!(random.prior < 0.1, "seed {seed}: {random:?}");
        }
    }
}
