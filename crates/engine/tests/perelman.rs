//! `perelman_fleet` is a family, not a handful of layouts: the multi-cell ships lie on the
//! field's outer ring in any of the ways they can share it, the single-cell ships off it.

use rand::SeedableRng;
use seabattle_engine::{perelman_fleet, Draft, Ruleset};
use std::collections::BTreeSet;

#[test]
fn ten_thousand_draws_give_thousands_of_packs_all_on_the_edges() {
    let rules = Ruleset::default();
    let size = rules.size();
    let on_ring = |x: u8, y: u8| x == 0 || y == 0 || x + 1 == size.width || y + 1 == size.height;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let (mut packs, mut layouts) = (BTreeSet::new(), BTreeSet::new());
    let mut edges = [0usize; 4];
    for _ in 0..10_000 {
        let fleet = perelman_fleet(&rules, &mut rng).unwrap();
        let mut draft = Draft::new(&rules);
        draft.fill(&fleet);
        assert_eq!(draft.problems(&rules), vec![]);
        let mut pack = Vec::new();
        let mut all = Vec::new();
        for s in fleet.ships() {
            let mut cells: Vec<usize> = s.cells.iter().map(|&c| size.index(c)).collect();
            cells.sort_unstable();
            let edge = s.cells.iter().all(|c| on_ring(c.x, c.y));
            if s.cells.len() > 1 {
                assert!(edge, "{:?} is off the edge", s.cells);
                pack.push(cells.clone());
            } else {
                assert!(!edge, "a single-cell ship on the edge: {:?}", s.cells);
            }
            all.push(cells);
        }
        pack.sort_unstable();
        all.sort_unstable();
        // Which edge the 4-ship lies along: every one of them, about as often.
        let four = fleet.ships().iter().find(|s| s.cells.len() == 4).unwrap();
        let last = size.width - 1;
        for (edge, on) in [
            four.cells.iter().all(|c| c.y == 0),
            four.cells.iter().all(|c| c.y == last),
            four.cells.iter().all(|c| c.x == 0),
            four.cells.iter().all(|c| c.x == last),
        ]
        .into_iter()
        .enumerate()
        {
            edges[edge] += usize::from(on);
        }
        packs.insert(pack);
        layouts.insert(all);
    }
    assert!(packs.len() >= 1000, "{} distinct packs", packs.len());
    assert!(layouts.len() >= 1000, "{} distinct layouts", layouts.len());
    assert!(edges.iter().all(|&n| n > 2000), "{edges:?}");
}

/// A field packed so tight (found by the property tests: touching none, bent ships, two mines
/// on 6×5) that random tries rarely fit: whatever `Ruleset::check` accepts, both generators
/// still lay out, for every seed, so the editor's 🎲 and the bot's own fleet never fail.
#[test]
fn a_tight_ruleset_check_accepts_is_laid_out_by_both_generators_for_every_seed() {
    use seabattle_engine::{random_fleet, Field, Shapes, Size, Touching};
    let tight = |ships: &[u8], mines: u8| Ruleset {
        field: Field::Custom {
            size: Size::new(6, 5),
            ships: ships.to_vec(),
        },
        touching: Touching::None,
        shapes: Shapes::Bent,
        mines,
        ..Ruleset::default()
    };
    let mut checked = 0;
    for (ships, mines) in [
        (&[4, 4, 3, 1, 1][..], 2),
        (&[4, 4, 3, 1][..], 2),
        (&[4, 3, 3, 1, 1][..], 2),
        (&[4, 4, 3, 1, 1][..], 1),
    ] {
        let rules = tight(ships, mines);
        if rules.check().is_err() {
            continue;
        }
        checked += 1;
        for seed in 0..6 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for fleet in [
                random_fleet(&rules, &mut rng),
                perelman_fleet(&rules, &mut rng),
            ] {
                let fleet = fleet.unwrap_or_else(|e| panic!("{rules}, seed {seed}: {e}"));
                let mut draft = Draft::new(&rules);
                draft.fill(&fleet);
                assert_eq!(draft.problems(&rules), vec![], "{rules}, seed {seed}");
                assert_eq!(fleet.mines().len(), usize::from(mines));
            }
        }
    }
    assert!(
        checked >= 2,
        "only {checked} of the tight rulesets pass check"
    );
}
