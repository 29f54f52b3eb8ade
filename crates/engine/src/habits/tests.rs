//! The habits' unit tests: layouts' codes, every chat's weight, and the fit.

use super::layout_features::SPREAD;
use super::*;
use crate::coord::Coord;
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
