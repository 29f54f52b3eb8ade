//! `random_fleet` is exactly uniform over the legal layouts: on small fields every layout is
//! enumerated here (with code of its own, not the generator's tables), and the frequencies of
//! many draws are checked against equal shares with a chi-square test.

use rand::SeedableRng;
use seabattle_engine::{random_fleet, Field, Ruleset, Size, Touching};
use std::collections::{BTreeSet, HashMap};

/// A layout as the set of its ships' cell sets (row-major indices), equal ships unordered.
type Layout = BTreeSet<Vec<usize>>;

/// Every straight placement of a ship of `n` cells on a `w`×`h` field.
fn lines(w: usize, h: usize, n: usize) -> Vec<Vec<usize>> {
    let mut out = BTreeSet::new();
    for y in 0..h {
        for x in 0..w {
            if x + n <= w {
                out.insert((0..n).map(|i| y * w + x + i).collect::<Vec<_>>());
            }
            if y + n <= h {
                out.insert((0..n).map(|i| (y + i) * w + x).collect::<Vec<_>>());
            }
        }
    }
    out.into_iter().collect()
}

/// Whether two cells are too close under `touching`: the same cell, or neighbours.
fn close(a: usize, b: usize, w: usize, touching: Touching) -> bool {
    let (ax, ay, bx, by) = (
        (a % w) as i32,
        (a / w) as i32,
        (b % w) as i32,
        (b / w) as i32,
    );
    let (dx, dy) = ((ax - bx).abs(), (ay - by).abs());
    match touching {
        Touching::None => dx <= 1 && dy <= 1,
        Touching::Corners => dx + dy <= 1,
        Touching::Any => dx == 0 && dy == 0,
    }
}

/// Every legal layout of straight ships `sizes` (largest first).
fn enumerate(w: usize, h: usize, sizes: &[usize], touching: Touching) -> BTreeSet<Layout> {
    fn go(
        w: usize,
        options: &[Vec<Vec<usize>>],
        touching: Touching,
        placed: &mut Vec<Vec<usize>>,
        out: &mut BTreeSet<Layout>,
    ) {
        let Some((here, rest)) = options.split_first() else {
            out.insert(placed.iter().cloned().collect());
            return;
        };
        for ship in here {
            let fits = placed
                .iter()
                .flatten()
                .all(|&p| ship.iter().all(|&c| !close(p, c, w, touching)));
            if fits {
                placed.push(ship.clone());
                go(w, rest, touching, placed, out);
                placed.pop();
            }
        }
    }
    let options: Vec<Vec<Vec<usize>>> = sizes.iter().map(|&n| lines(w, h, n)).collect();
    let mut out = BTreeSet::new();
    go(w, &options, touching, &mut Vec::new(), &mut out);
    out
}

/// Draws `per_layout` times as many layouts as there are, and returns the chi-square
/// statistic's distance from its mean in standard deviations and how many layouts there are;
/// it checks that no more layouts went undrawn than chance leaves.
fn chi_square(rules: &Ruleset, per_layout: usize, seed: u64) -> (f64, usize) {
    let size = rules.size();
    let (w, h) = (usize::from(size.width), usize::from(size.height));
    let sizes: Vec<usize> = rules
        .fleet()
        .iter()
        .map(|k| usize::from(k.size()))
        .collect();
    let all = enumerate(w, h, &sizes, rules.touching);
    let mut counts: HashMap<Layout, usize> = all.iter().map(|l| (l.clone(), 0)).collect();
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let draws = all.len() * per_layout;
    for _ in 0..draws {
        let fleet = random_fleet(rules, &mut rng).expect("a layout");
        let layout: Layout = fleet
            .ships()
            .iter()
            .map(|s| {
                let mut cells: Vec<usize> = s.cells.iter().map(|&c| size.index(c)).collect();
                cells.sort_unstable();
                cells
            })
            .collect();
        *counts.get_mut(&layout).unwrap_or_else(|| {
            panic!("drew a layout the enumeration does not know: {layout:?}")
        }) += 1;
    }
    let expected = per_layout as f64;
    let chi: f64 = counts
        .values()
        .map(|&n| (n as f64 - expected).powi(2) / expected)
        .sum();
    let df = (all.len() - 1) as f64;
    let unseen = counts.values().filter(|&&n| n == 0).count();
    // A layout goes undrawn with the chance e^-per_layout: a few may, many may not.
    let undrawn = all.len() as f64 * (-expected).exp();
    assert!(
        (unseen as f64) <= undrawn + 4.0 * undrawn.sqrt() + 2.0,
        "{unseen} of {} layouts never drawn, against {undrawn:.1} expected",
        all.len()
    );
    ((chi - df) / (2.0 * df).sqrt(), all.len())
}

fn custom(w: u8, h: u8, ships: &[u8], touching: Touching) -> Ruleset {
    Ruleset {
        field: Field::Custom {
            size: Size::new(w, h),
            ships: ships.to_vec(),
        },
        touching,
        ..Ruleset::default()
    }
}

#[test]
fn every_layout_of_a_six_by_six_field_is_equally_likely() {
    // Ships never touching, as in the classic game; the old generator, placing the largest
    // ship first, failed such a test by 147 standard deviations.
    let rules = custom(6, 6, &[3, 2, 2], Touching::None);
    let (z, layouts) = chi_square(&rules, 10, 1);
    eprintln!("{layouts} layouts, {z:.2} sd");
    assert!(layouts > 1000, "{layouts} layouts");
    assert!(
        z.abs() < 4.0,
        "chi-square off by {z:.1} sd over {layouts} layouts"
    );
}

#[test]
fn every_layout_is_equally_likely_under_the_other_touching_rules() {
    for touching in [Touching::Corners, Touching::Any] {
        let rules = custom(5, 5, &[3, 2, 1], touching);
        let (z, layouts) = chi_square(&rules, 20, 2);
        eprintln!("{touching:?}: {layouts} layouts, {z:.2} sd");
        assert!(
            z.abs() < 4.0,
            "{touching:?}: chi-square off by {z:.1} sd over {layouts} layouts"
        );
    }
}

#[test]
fn the_classic_four_ship_touches_the_edge_as_often_as_uniform_layouts_say() {
    // Over all classic layouts the 4-ship touches the edge in 62.5 % of them (the review's
    // count); placing it first, uniformly among its 140 places, gives 43 %.
    let rules = Ruleset::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let n = 2000;
    let edge = (0..n)
        .filter(|_| {
            let f = random_fleet(&rules, &mut rng).unwrap();
            let four = f.ships().iter().find(|s| s.cells.len() == 4).unwrap();
            four.cells
                .iter()
                .any(|c| c.x == 0 || c.y == 0 || c.x == 9 || c.y == 9)
        })
        .count();
    let share = edge as f64 / f64::from(n);
    // Three standard deviations of a share of 2000 draws are about 3.3 points.
    assert!((share - 0.625).abs() < 0.035, "{share:.3}");
}
