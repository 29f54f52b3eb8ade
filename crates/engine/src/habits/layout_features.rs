//! What a layout looks like to the fit: its [`features`] (where its ships' cells stand, how
//! spread out they are, which ships stand upright), and what uniform random layouts show of
//! them ([`Usual`]).

use super::*;
use crate::coord::{Coord, Size};
use crate::ruleset::Ruleset;
use rand::SeedableRng;
use std::collections::HashMap;

/// How many layout [`features`] the fit tilts by: those that add up over cells
/// ([`cell_features`]), then the spread.
pub(crate) const FEATURES: usize = CELL_FEATURES + 1;
/// How many of the [`features`] add up over cells.
pub(super) const CELL_FEATURES: usize = 5;
/// Where the spread is among the [`features`].
pub(super) const SPREAD: usize = CELL_FEATURES;

/// What a ship cell at index `i` adds to a layout's features, for a single-cell ship's cell
/// or a multi-cell ship's: on the outer ring (multi-cell ships); its column and its row from
/// the middle (any ship: which side, which corner); on the outer ring, and how far from the
/// middle (single-cell ships).
pub(super) fn cell_features(i: usize, single: bool, size: Size) -> [f64; CELL_FEATURES] {
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
pub(super) fn spread(cells: impl Iterator<Item = usize>, width: usize) -> f64 {
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
pub(super) fn upright_of(cells: impl Iterator<Item = usize>, width: usize) -> Option<bool> {
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
