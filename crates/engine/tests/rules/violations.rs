//! docs/rules.md §2, "What the paper rules call violations": refused at placement with the problem
//! and the cell, never punished; nobody sees another field before the end.

use crate::classic::corner_picture;
use crate::common::*;
use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;

#[test]
fn every_problem_is_reported_at_once_and_the_draft_is_handed_back() {
    let r = Ruleset::default();
    // An L-shaped cruiser on а3–б4 touching the destroyer а5–б5 (labelled apart) by a side,
    // a boat on и6 touching another destroyer at a corner, and a boat missing.
    let draft = draft_from_picture(
        &r,
        "
        ####.#.#..
        ..........
        ##..###...
        .#........
        11.##.##..
        ........#.
        ..........
        ..........
        ..........
        ..........
        ",
    );
    let kept = draft.clone();
    let rejected = draft.validate(&r).unwrap_err();
    let rules: Vec<(Rule, Option<Coord>)> =
        rejected.problems.iter().map(|p| (p.rule, p.cell)).collect();
    assert!(rules.contains(&(Rule::ShapeNotAllowed, Some(cell(&r, "а3")))));
    assert!(rules
        .iter()
        .any(|&(rule, c)| matches!(rule, Rule::Touches(_, Contact::Side))
            && c == Some(cell(&r, "б5"))));
    assert!(rules.contains(&(Rule::Missing { count: 1 }, None)));
    assert!(rules.iter().any(
        |&(rule, c)| matches!(rule, Rule::Touches(_, Contact::Corner)) && c == Some(cell(&r, "и6"))
    ));
    assert_eq!(
        rejected.problems.len(),
        4,
        "one problem each: {:#?}",
        rejected.problems
    );
    assert_eq!(*rejected.draft, kept);
}

#[test]
fn a_rejected_draft_can_be_fixed_without_losing_the_rest() {
    let r = Ruleset::default();
    let mut draft = *draft_from_picture(&r, &corner_picture())
        .validate(&r)
        .unwrap_err()
        .draft;
    draft.remove_at(cell(&r, "и6")).unwrap();
    assert_eq!(
        draft.problems(&r),
        [Problem {
            subject: Subject::Fleet {
                kind: Kind::Ship(1)
            },
            cell: None,
            rule: Rule::Missing { count: 1 },
        }]
    );
    let kind = draft
        .place_line(&r, cell(&r, "к10"), cell(&r, "к10"))
        .unwrap();
    assert_eq!(kind, Kind::Ship(1));
    let fleet = draft.validate(&r).unwrap();
    assert_eq!(fleet, fleet_from_picture(&r, CLASSIC_FLEET));
}

#[test]
fn a_ship_off_the_field_is_refused_at_placement() {
    let r = Ruleset::default();
    let mut draft = draft_from_picture(&r, CLASSIC_FLEET);
    draft.remove_at(cell(&r, "к10")).unwrap();
    let kept = draft.clone();
    let off = Coord::new(10, 9);
    assert_eq!(
        draft.place(&r, Kind::Ship(1), vec![off]),
        Err(EditError::OffField(off))
    );
    assert_eq!(
        draft.place_line(&r, cell(&r, "и10"), off),
        Err(EditError::OffField(off))
    );
    assert_eq!(draft.place_mine(&r, off), Err(EditError::OffField(off)));
    assert_eq!(draft, kept);
}

#[test]
fn a_fleet_legal_under_other_rules_is_refused_when_locked() {
    let r = Ruleset::default();
    let corners = Ruleset {
        touching: Touching::Corners,
        ..Ruleset::default()
    };
    let touching = fleet_from_picture(&corners, &corner_picture());
    let big = random_fleet(&Ruleset::big(), &mut StdRng::seed_from_u64(3)).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    let mut game = Game::new(r.clone());
    game.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
    game.apply(Action::Join(PlayerId(2)), 0, &mut rng).unwrap();
    game.apply(Action::Start, 0, &mut rng).unwrap();

    let before = game.clone();
    match game.apply(Action::Ready(A, touching), 0, &mut rng) {
        Err(ActionError::IllegalFleet(problems)) => assert!(
            problems
                .iter()
                .any(|p| matches!(p.rule, Rule::Touches(_, Contact::Corner))),
            "{problems:?}"
        ),
        other => panic!("a touching fleet was not refused: {other:?}"),
    }
    match game.apply(Action::Ready(A, big), 0, &mut rng) {
        Err(ActionError::IllegalFleet(problems)) => {
            assert!(problems.iter().any(|p| p.rule == Rule::OffField));
            assert!(problems.iter().any(|p| p.subject
                == Subject::Ship {
                    index: 0,
                    kind: Kind::Ship(5)
                }));
        }
        other => panic!("a big fleet was not refused: {other:?}"),
    }
    assert_eq!(game, before);
    assert!(!game.is_ready(A));
}

#[test]
fn the_public_view_hides_unhit_ships_before_the_end() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    fire(&mut game, &mut rng, 1, A, B, cell(&r, "а1")).unwrap();
    fire(&mut game, &mut rng, 2, A, B, cell(&r, "в6")).unwrap();

    let public = game.public_view();
    for seat in [A, B] {
        assert!(!public.field(seat).full);
        assert!(marked(&game, None, seat, Mark::Ship).is_empty());
        assert!(public.field(seat).border.is_none());
    }
    assert_eq!(marked(&game, None, B, Mark::Hit), [cell(&r, "а1")]);
    assert_eq!(marked(&game, None, B, Mark::Miss), [cell(&r, "в6")]);

    // Each player sees their own ships and only the shots on the other field.
    assert_eq!(marked(&game, Some(B), B, Mark::Ship).len(), 19);
    assert_eq!(marked(&game, Some(A), A, Mark::Ship).len(), 20);
    assert!(marked(&game, Some(A), B, Mark::Ship).is_empty());
    assert!(marked(&game, Some(B), A, Mark::Ship).is_empty());
    assert!(!game.view_for(A).field(B).full);
}

#[test]
fn a_fleet_locked_in_placement_is_seen_by_its_owner_only() {
    let r = Ruleset::default();
    let mut rng = StdRng::seed_from_u64(1);
    let mut game = Game::new(r.clone());
    game.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
    game.apply(Action::Join(PlayerId(2)), 0, &mut rng).unwrap();
    game.apply(Action::Start, 0, &mut rng).unwrap();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    game.apply(Action::Ready(A, fleet), 0, &mut rng).unwrap();
    assert_eq!(marked(&game, Some(A), A, Mark::Ship).len(), 20);
    assert!(marked(&game, Some(B), A, Mark::Ship).is_empty());
    assert!(marked(&game, None, A, Mark::Ship).is_empty());
}
