//! Property tests over random rulesets and random play (proptest).

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use seabattle_engine::*;

fn rulesets() -> impl Strategy<Value = Ruleset> {
    let touching = prop_oneof![
        Just(Touching::None),
        Just(Touching::Corners),
        Just(Touching::Any)
    ];
    let shapes = prop_oneof![
        Just(Shapes::Straight),
        Just(Shapes::Bent),
        Just(Shapes::Free)
    ];
    let custom =
        (5u8..=12, 5u8..=12, prop::collection::vec(1u8..=4, 1..=6)).prop_map(|(w, h, ships)| {
            Field::Custom {
                size: Size::new(w, h),
                ships,
            }
        });
    let field = prop_oneof![
        3 => Just(Field::Classic),
        1 => Just(Field::Big),
        2 => custom,
        1 => Just(Field::LandSeaAir),
    ];
    let players = prop_oneof![
        Just(Players::Duel),
        Just(Players::FreeForAll(3)),
        Just(Players::FreeForAll(4)),
        Just(Players::Teams),
    ];
    let salvo = prop_oneof![3 => Just(None), 1 => (1u8..=10).prop_map(Some)];
    let arsenal = prop_oneof![2 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)];
    (touching, shapes, field, salvo, 0u8..=2, players, arsenal)
        .prop_map(
            |(touching, shapes, field, salvo, mines, players, arsenal)| {
                // The arsenal is not played with salvoes nor on land-sea-air (§3.8).
                let armed = salvo.is_none() && field != Field::LandSeaAir;
                Ruleset {
                    touching,
                    shapes,
                    field,
                    salvo,
                    mines,
                    players,
                    timer: TurnTimer::Off,
                    arsenal: if armed { arsenal } else { 0 },
                }
            },
        )
        .prop_filter("a playable ruleset", |r| r.check().is_ok())
}

/// An independent check of the placement rules, written without the validator's code.
fn obeys_rules(ruleset: &Ruleset, fleet: &Fleet) -> Result<(), String> {
    let size = ruleset.size();
    let mut items: Vec<(Vec<Coord>, Force)> = fleet
        .ships()
        .iter()
        .map(|s| (s.cells.clone(), s.kind.force()))
        .collect();
    items.extend(fleet.mines().iter().map(|&m| (vec![m], Force::Sea)));
    for (i, (a, force)) in items.iter().enumerate() {
        for c in a {
            if !size.contains(*c) {
                return Err(format!("{c} off the field"));
            }
            if let Some(b) = fleet.border() {
                let land = c.y >= b.rows()[usize::from(c.x)];
                if (*force == Force::Sea && land) || (*force == Force::Land && !land) {
                    return Err(format!("{c} on the wrong terrain"));
                }
            }
        }
        for (b, _) in &items[..i] {
            for p in a {
                for q in b {
                    let (dx, dy) = (p.x.abs_diff(q.x), p.y.abs_diff(q.y));
                    let bad = match ruleset.touching() {
                        Touching::None => dx <= 1 && dy <= 1,
                        Touching::Corners => dx + dy <= 1,
                        Touching::Any => dx == 0 && dy == 0,
                    };
                    if bad {
                        return Err(format!("{p} and {q} touch under {:?}", ruleset.touching()));
                    }
                }
            }
        }
    }
    for s in fleet.ships() {
        let n = s.cells.len();
        if n != usize::from(s.kind.size()) || !shape::is_connected(&s.cells) {
            return Err(format!("{:?} has a bad size or is not connected", s.kind));
        }
        let straight = shape::is_straight(&s.cells);
        let canonical = shape::canonical(&s.cells);
        let t = shape::canonical_template(&shape::t_tetromino());
        let ok = match s.kind {
            Kind::Ship(_) => match ruleset.shapes() {
                Shapes::Straight => straight,
                Shapes::Bent => straight || (matches!(n, 3 | 4) && canonical != t),
                Shapes::Free => true,
            },
            Kind::AttackAircraft => canonical == t,
            Kind::Battery => canonical == shape::canonical_template(&shape::square()),
            Kind::Tank | Kind::AntiAircraft => straight,
        };
        if !ok {
            return Err(format!("{:?} has a shape the rules forbid", s.kind));
        }
    }
    Ok(())
}

fn new_game(ruleset: &Ruleset, rng: &mut ChaCha8Rng, perelman: bool) -> Game {
    let mut game = Game::new(ruleset.clone());
    for p in 0..ruleset.seats() {
        game.apply(Action::Join(PlayerId(p as u64 + 10)), 0, rng)
            .unwrap();
    }
    game.apply(Action::Start, 0, rng).unwrap();
    for s in 0..ruleset.seats() {
        let fleet = if perelman && s % 2 == 0 {
            perelman_fleet(ruleset, rng).unwrap()
        } else {
            random_fleet(ruleset, rng).unwrap()
        };
        game.apply(Action::Ready(SeatId(s as u8), fleet), 0, rng)
            .unwrap();
    }
    game
}

/// A random legal action for whoever is to move.
fn random_action(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    if let Some(choice) = game.mine_choice() {
        let own = game.view_for(choice.seat);
        let field = own.field(choice.seat);
        let cells: Vec<Coord> = field
            .size
            .cells()
            .filter(|&c| field.mark(c) == Mark::Ship)
            .collect();
        return Action::GiveUp(choice.seat, *cells.choose(rng).unwrap());
    }
    let shooter = game.turn();
    let target = *game.targets(shooter).choose(rng).unwrap();
    let view = game.view_for(shooter);
    let field = view.field(target);
    let mut unknown: Vec<Coord> = field
        .size
        .cells()
        .filter(|&c| !field.mark(c).is_known())
        .collect();
    unknown.shuffle(rng);
    // A weapon now and then, while there is one left (§3.8): aimed at an unknown cell, so
    // it always reaches a new one.
    let left = game.weapons_left(shooter);
    let weapons: Vec<Weapon> = Weapon::ALL
        .into_iter()
        .filter(|w| left[w.index()] > 0)
        .collect();
    if !weapons.is_empty() && rng.gen_bool(0.2) {
        let size = field.size;
        match *weapons.choose(rng).unwrap() {
            Weapon::Radar => return Action::Radar(shooter, target, unknown[0]),
            Weapon::AirStrike => return Action::AirStrike(shooter, target, unknown[0]),
            Weapon::Torpedo => {
                let edge = unknown
                    .iter()
                    .copied()
                    .find(|&c| !headings_from(c, size).is_empty());
                if let Some(from) = edge {
                    let heading = *headings_from(from, size).choose(rng).unwrap();
                    return Action::Torpedo(shooter, target, from, Some(heading));
                }
            }
        }
    }
    match game.ruleset().salvo {
        Some(n) => {
            unknown.truncate(usize::from(n));
            Action::Salvo(shooter, target, unknown)
        }
        None => Action::Fire(shooter, target, unknown[0]),
    }
}

/// Whether `c` of `seat`'s field lies in the square of a radar that counted nothing: every
/// unknown cell there is marked empty, an idle mine's too (a radar does not count mines).
fn in_an_empty_scan(game: &Game, seat: SeatId, c: Coord) -> bool {
    let size = game.ruleset().size();
    game.scans(seat)
        .iter()
        .any(|s| s.count == 0 && square(s.center, size).contains(&c))
}

/// Every invariant of a game in progress, checked after every action.
fn check_invariants(game: &Game, truth: &[Fleet]) -> Result<(), TestCaseError> {
    let public = game.public_view();
    for (s, field) in public.fields.iter().enumerate() {
        let fleet = &truth[s];
        for c in field.size.cells() {
            let mark = field.mark(c);
            if !game.is_finished() {
                prop_assert!(
                    !matches!(mark, Mark::Ship | Mark::IdleMine),
                    "the public view shows an unhit cell {c}"
                );
                prop_assert!(field.border.is_none(), "the public view shows the border");
            }
            if mark == Mark::Halo {
                prop_assert!(fleet.ship_at(c).is_none(), "halo over a ship at {c}");
                prop_assert!(
                    !fleet.is_mine(c) || in_an_empty_scan(game, SeatId(s as u8), c),
                    "halo over a mine at {c}"
                );
            }
            if matches!(mark, Mark::Hit | Mark::Sunk) {
                prop_assert!(fleet.ship_at(c).is_some(), "a hit mark on water at {c}");
            }
        }
    }
    for (s, fleet) in truth.iter().enumerate() {
        for c in game.halo_marks(SeatId(s as u8)) {
            prop_assert!(
                fleet.ship_at(c).is_none(),
                "a halo mark covers the ship cell {}",
                c
            );
            prop_assert!(
                !fleet.is_mine(c) || in_an_empty_scan(game, SeatId(s as u8), c),
                "a halo mark covers the mine {}",
                c
            );
        }
    }
    // A player's view of an enemy field is the public one.
    if let Some(viewer) = (0..game.seats().len() as u8).map(SeatId).next() {
        let view = game.view_for(viewer);
        for t in game.targets(viewer) {
            prop_assert_eq!(&view.field(t).marks, &public.field(t).marks);
        }
    }
    Ok(())
}

fn play_to_the_end(ruleset: &Ruleset, seed: u64, perelman: bool) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = new_game(ruleset, &mut rng, perelman);
    let truth: Vec<Fleet> = (0..ruleset.seats())
        .map(|s| game.fleet(SeatId(s as u8)).unwrap().clone())
        .collect();
    let commitments: Vec<String> = (0..ruleset.seats())
        .map(|s| game.commitment(SeatId(s as u8)).unwrap())
        .collect();
    let mut resolved = std::collections::HashSet::new();
    let limit = ruleset.size().area() * ruleset.seats() * 2 + 10;
    let mut steps = 0;
    while !game.is_finished() {
        steps += 1;
        prop_assert!(steps < limit, "the game did not end in {limit} actions");
        let action = random_action(&game, &mut rng);
        let before = game.clone();
        let shots_before: usize = (0..ruleset.seats())
            .map(|s| count_shot(&before, SeatId(s as u8)))
            .sum();
        let events = game
            .apply(action.clone(), steps as u64, &mut rng)
            .map_err(|e| TestCaseError::fail(format!("{action:?} refused: {e:?}")))?;
        // The same action again is refused now, and a refusal changes nothing.
        if let Action::Fire(..) | Action::Salvo(..) = action {
            let after = game.clone();
            if game.apply(action.clone(), steps as u64, &mut rng).is_ok() {
                return Err(TestCaseError::fail(format!("{action:?} accepted twice")));
            }
            prop_assert_eq!(&game, &after);
        }
        let shots_after: usize = (0..ruleset.seats())
            .map(|s| count_shot(&game, SeatId(s as u8)))
            .sum();
        let mut fired = 0;
        for e in &events {
            match e {
                Event::Shot {
                    target,
                    cell,
                    result,
                    ..
                } => {
                    fired += 1;
                    prop_assert!(resolved.insert((*target, *cell)), "{cell} resolved twice");
                    let fleet = &truth[target.index()];
                    let expected_hit = fleet.ship_at(*cell).is_some();
                    prop_assert_eq!(
                        matches!(result, ShotResult::Hit | ShotResult::Sunk(_)),
                        expected_hit
                    );
                }
                Event::Salvo {
                    target,
                    shots,
                    hits,
                    ..
                } => {
                    fired += usize::from(*shots);
                    let Action::Salvo(_, _, cells) = &action else {
                        return Err(TestCaseError::fail("a salvo event without a salvo"));
                    };
                    let fleet = &truth[target.index()];
                    let real = cells
                        .iter()
                        .filter(|&&c| fleet.ship_at(c).is_some())
                        .count();
                    prop_assert_eq!(usize::from(*hits), real, "the salvo's hit count is wrong");
                    for &c in cells {
                        prop_assert!(resolved.insert((*target, c)), "{c} resolved twice");
                    }
                }
                Event::Radar {
                    target,
                    center,
                    count,
                    ..
                } => {
                    let size = ruleset.size();
                    let fleet = &truth[target.index()];
                    let real = square(*center, size)
                        .into_iter()
                        .filter(|&c| fleet.ship_at(c).is_some() && !before.is_known(*target, c))
                        .count();
                    prop_assert_eq!(usize::from(*count), real, "the radar's count is wrong");
                }
                Event::AirStrike { target, cells, .. } => {
                    fired += cells.len();
                    let fleet = &truth[target.index()];
                    for (c, result) in cells {
                        prop_assert!(resolved.insert((*target, *c)), "{c} resolved twice");
                        prop_assert_eq!(
                            matches!(result, ShotResult::Hit | ShotResult::Sunk(_)),
                            fleet.ship_at(*c).is_some()
                        );
                    }
                }
                Event::Torpedo {
                    target,
                    passed,
                    hit,
                    ..
                } => {
                    let fleet = &truth[target.index()];
                    for c in passed {
                        prop_assert!(
                            fleet.ship_at(*c).is_none() && !fleet.is_mine(*c),
                            "the torpedo passed a ship or a mine at {c}"
                        );
                    }
                    if let Some((c, result)) = hit {
                        fired += 1;
                        prop_assert!(resolved.insert((*target, *c)), "{c} resolved twice");
                        prop_assert_eq!(*result == ShotResult::Mine, fleet.is_mine(*c));
                    }
                }
                Event::GaveUp { seat, cell, .. } => {
                    fired += 1;
                    prop_assert!(resolved.insert((*seat, *cell)), "{cell} given up twice");
                }
                _ => {}
            }
        }
        prop_assert_eq!(
            shots_after,
            shots_before + fired,
            "cells shot without an event"
        );
        check_invariants(&game, &truth)?;
        if steps % 17 == 0 {
            let json = serde_json::to_string(&game).unwrap();
            let back: Game = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, &game, "serialisation does not round-trip");
        }
    }
    let Phase::Finished { winners, .. } = game.phase().clone() else {
        unreachable!()
    };
    prop_assert!(!winners.is_empty());
    for s in 0..ruleset.seats() {
        let seat = SeatId(s as u8);
        let field = game.public_view().fields[s].clone();
        if !winners.contains(&seat) {
            for c in truth[s].ship_cells() {
                prop_assert_eq!(field.mark(c), Mark::Sunk, "a loser's cell {} is not hit", c);
            }
        }
        let (text, salt) = game.reveal(seat).unwrap();
        prop_assert!(commit::verify(&commitments[s], &text, &salt));
    }
    Ok(())
}

fn count_shot(game: &Game, seat: SeatId) -> usize {
    let view = game.view_for(seat);
    view.field(seat)
        .marks
        .iter()
        .filter(|m| matches!(m, Mark::Miss | Mark::Hit | Mark::Sunk | Mark::Mine))
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_generated_layout_validates_and_obeys_the_rules(r in rulesets(), seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (random, perelman) = (random_fleet(&r, &mut rng), perelman_fleet(&r, &mut rng));
        // Every ruleset `rulesets()` gives passed `Ruleset::check`, so both generators find a
        // layout for it, however tight it is packed.
        for fleet in [random?, perelman?] {
            let mut draft = Draft::new(&r);
            draft.fill(&fleet);
            prop_assert_eq!(draft.problems(&r), vec![]);
            prop_assert_eq!(draft.validate(&r).unwrap(), fleet.clone());
            obeys_rules(&r, &fleet).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn no_validated_layout_breaks_the_touching_shape_or_terrain_rules(
        r in rulesets(),
        seed in any::<u64>(),
        moves in prop::collection::vec((any::<prop::sample::Index>(), -3i8..=3, -3i8..=3, any::<bool>()), 1..6),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let fleet = random_fleet(&r, &mut rng).unwrap();
        // Move, turn or reshape ships at random, then ask the validator.
        let size = r.size();
        let mut ships: Vec<Ship> = fleet.ships().to_vec();
        for (index, dx, dy, turn) in moves {
            let ship = &mut ships[index.index(fleet.ships().len())];
            let Some(&origin) = ship.cells.first() else { continue };
            ship.cells = ship.cells.iter().filter_map(|c| {
                let (rx, ry) = (i16::from(c.x) - i16::from(origin.x), i16::from(c.y) - i16::from(origin.y));
                let (rx, ry) = if turn { (ry, rx) } else { (rx, ry) };
                let x = i16::from(origin.x) + rx + i16::from(dx);
                let y = i16::from(origin.y) + ry + i16::from(dy);
                let c = Coord::new(u8::try_from(x).ok()?, u8::try_from(y).ok()?);
                size.contains(c).then_some(c)
            }).collect();
        }
        let mut draft = Draft::new(&r);
        draft.fill(&fleet);
        draft.clear();
        if let Some(b) = fleet.border() {
            draft.set_border(&r, b.clone()).unwrap();
        }
        for s in ships {
            if !s.cells.is_empty() {
                draft.place(&r, s.kind, s.cells).unwrap();
            }
        }
        for &m in fleet.mines() {
            draft.place_mine(&r, m).unwrap();
        }
        if let Ok(valid) = draft.validate(&r) {
            obeys_rules(&r, &valid).map_err(TestCaseError::fail)?;
        }
    }

    #[test]
    fn every_game_ends_with_every_loser_ship_cell_hit(r in rulesets(), seed in any::<u64>(), perelman in any::<bool>()) {
        play_to_the_end(&r, seed, perelman)?;
    }

    #[test]
    fn a_game_with_surrenders_and_forfeits_still_ends(r in rulesets(), seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let r = Ruleset { timer: TurnTimer::OneMinute, ..r };
        let mut game = new_game(&r, &mut rng, false);
        let mut now = 0;
        let mut steps = 0;
        while !game.is_finished() {
            steps += 1;
            prop_assert!(steps < 10_000);
            let roll: f64 = rng.gen();
            let action = if roll < 0.02 {
                Action::Surrender(game.turn())
            } else if roll < 0.05 {
                now += 61;
                Action::Tick
            } else {
                random_action(&game, &mut rng)
            };
            let before = game.clone();
            if let Err(e) = game.apply(action.clone(), now, &mut rng) {
                prop_assert_eq!(&game, &before, "a refused {:?} ({:?}) changed the game", action, e);
            }
        }
    }

    #[test]
    fn serialisation_round_trips_for_drafts_and_rulesets(r in rulesets(), seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draft = Draft::new(&r);
        draft.fill(&random_fleet(&r, &mut rng).unwrap());
        let _ = draft.remove_at(draft.ships()[0].cells[0]);
        let json = serde_json::to_string(&draft).unwrap();
        prop_assert_eq!(serde_json::from_str::<Draft>(&json).unwrap(), draft);
        let json = serde_json::to_string(&r).unwrap();
        prop_assert_eq!(serde_json::from_str::<Ruleset>(&json).unwrap(), r);
    }
}

#[test]
fn a_classic_game_in_progress_serialises_within_one_kibibyte() {
    let r = Ruleset::default();
    let mut worst = 0;
    for seed in 0..20 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = new_game(&r, &mut rng, seed % 2 == 0);
        let mut largest = serde_json::to_vec(&game).unwrap().len();
        let mut now = 1_764_470_000;
        while !game.is_finished() {
            now += 7;
            let action = random_action(&game, &mut rng);
            game.apply(action, now, &mut rng).unwrap();
            largest = largest.max(serde_json::to_vec(&game).unwrap().len());
        }
        worst = worst.max(largest);
    }
    assert!(worst <= 1024, "a classic game took {worst} bytes");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every seat played by the AI, under every ruleset (salvoes, mines, free-for-all, teams,
    /// land-sea-air included): it only takes legal actions, never shoots a cell its view
    /// already knows, gives up only unhit cells of its own fleet, and every game ends.
    #[test]
    fn the_ai_only_shoots_legally_and_finishes_every_game(
        r in rulesets(),
        seed in any::<u64>(),
        level in prop_oneof![
            Just(ai::Level::Easy),
            Just(ai::Level::Normal),
            Just(ai::Level::Hard),
            Just(ai::Level::Learning),
        ],
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The hard level thinks with fewer layouts here on big fields (the benchmark measures it);
        // the learning level has seen a few layouts of the ruleset.
        let mut habits = Habits::new();
        for _ in 0..3 {
            habits.observe(&random_fleet(&r, &mut rng).unwrap(), r.size(), 1.0);
        }
        // One seat's player has a strong habit: one layout ten times (the fitted tendencies
        // weigh much), so the tilted sampler is played too. On the classic field only: fitting
        // draws 2000 random layouts of each new ruleset to compare with, which in a debug
        // build would make these cases many times slower.
        let mut strong = Habits::new();
        if r.field == Field::Classic && r.shapes == Shapes::default() {
            let favourite = random_fleet(&r, &mut rng).unwrap();
            for _ in 0..10 {
                strong.observe(&favourite, r.size(), 1.0);
            }
        }
        let budget = ai::Budget {
            samples: if r.size().area() > 100 { 24 } else { 120 },
            deadline: None,
            habits: Some(std::sync::Arc::new(habits)),
            seat_habits: vec![None, Some(std::sync::Arc::new(strong))],
        };
        let mut game = new_game(&r, &mut rng, seed % 2 == 0);
        let limit = (r.size().area() + 2 * usize::from(r.mines)) * r.seats() + 10;
        for _ in 0..limit {
            if game.is_finished() {
                break;
            }
            let action = if let Some(choice) = game.mine_choice() {
                let view = game.view_for(choice.seat);
                let cell = ai::choose_give_up(&view, choice.seat, &mut rng)
                    .ok_or_else(|| TestCaseError::fail("the AI gave up no cell"))?;
                prop_assert_eq!(view.field(choice.seat).mark(cell), Mark::Ship, "gave up {}", cell);
                Action::GiveUp(choice.seat, cell)
            } else {
                let seat = game.turn();
                let view = game.view_for(seat);
                if r.salvo.is_some() {
                    let (target, cells) = ai::choose_salvo_within(&view, seat, level, &mut rng, budget.clone())
                        .ok_or_else(|| TestCaseError::fail("the AI found no salvo"))?;
                    prop_assert!(game.can_target(seat, target), "{:?} cannot shoot at {:?}", seat, target);
                    for &c in &cells {
                        prop_assert!(!view.field(target).mark(c).is_known(), "the AI chose a known cell {}", c);
                    }
                    Action::Salvo(seat, target, cells)
                } else {
                    let (target, cell) = ai::choose_shot_within(&view, seat, level, &mut rng, budget.clone())
                        .ok_or_else(|| TestCaseError::fail("the AI found no shot"))?;
                    prop_assert!(game.can_target(seat, target), "{:?} cannot shoot at {:?}", seat, target);
                    prop_assert!(!view.field(target).mark(cell).is_known(), "the AI chose a known cell {}", cell);
                    Action::Fire(seat, target, cell)
                }
            };
            let result = game.apply(action.clone(), 0, &mut rng);
            prop_assert!(result.is_ok(), "the AI's {:?} was refused: {:?}", action, result);
        }
        prop_assert!(game.is_finished(), "the game did not end");
    }
}
