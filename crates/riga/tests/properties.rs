//! Random games: every legal move keeps the invariants, and every game ends.

use proptest::prelude::*;
use riga::game::QUIET_MOVES;
use riga::*;
use std::collections::HashSet;

/// A fleet order from a seed (a Fisher–Yates shuffle driven by a small LCG).
fn order(seed: &mut u64) -> Vec<Kind> {
    let mut v = FLEET.to_vec();
    for i in (1..v.len()).rev() {
        let j = (next(seed) % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_invariants_and_always_end(start in any::<u64>(), greedy in any::<bool>()) {
        let mut seed = start;
        let first = if next(&mut seed).is_multiple_of(2) { Side::North } else { Side::South };
        let mut g = Game::new(&order(&mut seed), &order(&mut seed), first).unwrap();
        // Each loss resets the quiet count; 24 ships bound the losses.
        let bound = (24 + 1) * u32::from(QUIET_MOVES) + 1;
        let mut quiet = 0u16;
        while g.outcome().is_none() {
            prop_assert!(g.moves() < bound, "the game did not end");
            let moves = g.legal_moves();
            prop_assert!(!moves.is_empty());
            // Greedy play prefers steps forward, so ships meet and fight.
            let forward: Vec<Move> = moves.iter().copied().filter(|m| matches!(m, Move::Forward(_) | Move::Lay(_))).collect();
            let pool = if greedy && !forward.is_empty() && !next(&mut seed).is_multiple_of(4) { forward } else { moves };
            let mv = pool[(next(&mut seed) % pool.len() as u64) as usize];
            let before = g.afloat(Side::North) + g.afloat(Side::South);
            let side = g.turn();
            let lost = g.play(side, mv).map_err(|e| TestCaseError::fail(format!("{mv:?}: {e}")))?;
            let after = g.afloat(Side::North) + g.afloat(Side::South);
            prop_assert_eq!(before - after, lost.len());
            quiet = if lost.is_empty() { quiet + 1 } else { 0 };
            prop_assert_eq!(g.quiet(), quiet);
            let mut seen = HashSet::new();
            for s in g.ships().iter().flatten() {
                prop_assert!(s.at.is_sea(), "{:?} on land", s);
                prop_assert!(seen.insert(s.at), "two ships on {:?}", s.at);
                prop_assert!(!matches!(s.at.terrain(), Terrain::Red(o) if o != s.side), "{:?} under a battery", s);
            }
            prop_assert!(g.mines().len() <= 4);
        }
    }
}
