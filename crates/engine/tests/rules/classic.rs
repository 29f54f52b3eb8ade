//! docs/rules.md §2: the classic game — field, fleet, the lot, shots and their answers, halo,
//! refusals and the end.

use crate::common::*;
use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;

#[test]
fn the_classic_field_is_ten_by_ten_with_row_one_at_the_top() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    // The boat drawn in the picture's bottom-right corner is к10: column к, row 10.
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&r, "к10")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Sunk(Kind::Ship(1)));
    for off in [Coord::new(10, 0), Coord::new(0, 10)] {
        let before = game.clone();
        assert_eq!(
            fire(&mut game, &mut rng, 2, A, B, off),
            Err(ActionError::OffField(off))
        );
        assert_eq!(game, before);
    }
}

#[test]
fn the_classic_fleet_is_one_four_two_threes_three_twos_and_four_ones() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let mut sizes: Vec<u8> = fleet.ships().iter().map(|s| s.kind.size()).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(sizes, [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]);
    assert_eq!(fleet.ship_cells().count(), 20);

    // An eleventh ship, a fifth boat on к8, is one too many.
    let mut extra = draft_from_picture(&r, CLASSIC_FLEET);
    extra
        .place_line(&r, cell(&r, "к8"), cell(&r, "к8"))
        .unwrap();
    assert_eq!(
        extra.problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 10,
                kind: Kind::Ship(1)
            },
            cell: Some(cell(&r, "к8")),
            rule: Rule::TooMany { expected: 4 },
        }]
    );
}

#[test]
fn a_fleet_with_a_missing_ship_is_rejected_naming_the_kind() {
    let r = Ruleset::default();
    let mut draft = draft_from_picture(&r, CLASSIC_FLEET);
    draft.remove_at(cell(&r, "д3")).unwrap();
    assert_eq!(
        draft.problems(&r),
        [Problem {
            subject: Subject::Fleet {
                kind: Kind::Ship(3)
            },
            cell: None,
            rule: Rule::Missing { count: 1 },
        }]
    );
}

#[test]
fn a_bent_ship_is_rejected_in_classic() {
    let r = Ruleset::default();
    // The first cruiser is an L: а3, б3, б4.
    let draft = draft_from_picture(
        &r,
        "
        ####.#.#.#
        ..........
        ##..###...
        .#........
        ..........
        ##.##.##..
        ..........
        ..........
        ..........
        .........#
        ",
    );
    assert_eq!(
        draft.problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 4,
                kind: Kind::Ship(3)
            },
            cell: Some(cell(&r, "а3")),
            rule: Rule::ShapeNotAllowed,
        }]
    );
}

#[test]
fn a_diagonal_ship_is_rejected_in_classic() {
    let r = Ruleset::default();
    // The destroyer labelled 1 stands on г5 and д6, corner to corner.
    let draft = draft_from_picture(
        &r,
        "
        ####.#.#.#
        ..........
        ###.###...
        ..........
        ##.1..##..
        ....1.....
        ..........
        ..........
        ..........
        .........#
        ",
    );
    assert_eq!(
        draft.problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 7,
                kind: Kind::Ship(2)
            },
            cell: Some(cell(&r, "г5")),
            rule: Rule::NotConnected,
        }]
    );
}

/// The classic fleet with rows 5 and 6 redrawn and the boat of к10 removed.
fn with_rows_5_and_6(boat_row_5: &str, boat_row_6: &str) -> String {
    format!(
        "####.#.#.#\n..........\n###.###...\n..........\n{boat_row_5}\n{boat_row_6}\n\
         ..........\n..........\n..........\n.........."
    )
}

/// The boat on и6 touches the destroyer ж5–з5 at a corner only.
pub fn corner_picture() -> String {
    with_rows_5_and_6("##.##.##..", "........#.")
}

/// The boat on и5 (labelled 1) touches the destroyer ж5–з5 by a side.
pub fn side_picture() -> String {
    with_rows_5_and_6("##.##.##1.", "..........")
}

#[test]
fn ships_touching_at_a_corner_are_rejected_in_classic() {
    let r = Ruleset::default();
    assert_eq!(
        draft_from_picture(&r, &corner_picture()).problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 9,
                kind: Kind::Ship(1)
            },
            cell: Some(cell(&r, "и6")),
            rule: Rule::Touches(
                Subject::Ship {
                    index: 8,
                    kind: Kind::Ship(2)
                },
                Contact::Corner
            ),
        }]
    );
}

#[test]
fn ships_touching_by_a_side_are_rejected_in_classic() {
    let r = Ruleset::default();
    assert_eq!(
        draft_from_picture(&r, &side_picture()).problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 9,
                kind: Kind::Ship(1)
            },
            cell: Some(cell(&r, "и5")),
            rule: Rule::Touches(
                Subject::Ship {
                    index: 8,
                    kind: Kind::Ship(2)
                },
                Contact::Side
            ),
        }]
    );
}

/// A classic fleet pressed against the edges, with a ship in every corner of the field.
const EDGE_FLEET: &str = "
    ####....##
    ..........
    #........#
    #........#
    #........#
    ..........
    #........#
    #........#
    ..........
    #..#..#..#
";

#[test]
fn ships_may_touch_the_edges_and_corners_of_the_field() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, EDGE_FLEET);
    for corner in ["а1", "к1", "а10", "к10"] {
        assert!(fleet.ship_at(cell(&r, corner)).is_some(), "{corner}");
    }
}

#[test]
fn a_locked_fleet_cannot_be_changed() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let other = fleet_from_picture(&r, EDGE_FLEET);
    let mut rng = StdRng::seed_from_u64(1);
    let mut game = Game::new(r.clone());
    game.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
    game.apply(Action::Join(PlayerId(2)), 0, &mut rng).unwrap();
    game.apply(Action::Start, 0, &mut rng).unwrap();
    game.apply(Action::Ready(A, fleet.clone()), 0, &mut rng)
        .unwrap();
    assert_eq!(
        game.apply(Action::Ready(A, other.clone()), 0, &mut rng),
        Err(ActionError::AlreadyReady)
    );
    assert_eq!(game.fleet(A), Some(&fleet));
    game.apply(Action::Ready(B, fleet.clone()), 0, &mut rng)
        .unwrap();
    assert_eq!(game.phase(), &Phase::Battle);
    for seat in [A, B] {
        assert_eq!(
            game.apply(Action::Ready(seat, other.clone()), 1, &mut rng),
            Err(ActionError::WrongPhase)
        );
        assert_eq!(game.fleet(seat), Some(&fleet));
    }
}

#[test]
fn the_first_shooter_is_drawn_by_lot_and_announced() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let mut firsts = [0; 2];
    for seed in 0..64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(r.clone());
        game.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
        game.apply(Action::Join(PlayerId(2)), 0, &mut rng).unwrap();
        game.apply(Action::Start, 0, &mut rng).unwrap();
        game.apply(Action::Ready(A, fleet.clone()), 0, &mut rng)
            .unwrap();
        let events = game
            .apply(Action::Ready(B, fleet.clone()), 0, &mut rng)
            .unwrap();
        let first = game.turn();
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::BattleBegan { first: f, .. } if *f == first)));
        assert_eq!(events.last(), Some(&Event::Turn(first)));
        firsts[first.index()] += 1;
    }
    // A fair lot: each seat starts in about half the games, never in none of them.
    assert!(firsts.iter().all(|&n| n >= 16), "first shooters {firsts:?}");
}

#[test]
fn a_miss_passes_the_turn() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&r, "в6")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
    assert_eq!(events.last(), Some(&Event::Turn(B)));
    assert_eq!(game.turn(), B);
    assert_eq!(
        fire(&mut game, &mut rng, 2, A, B, cell(&r, "в7")),
        Err(ActionError::NotYourTurn)
    );
    let events = fire(&mut game, &mut rng, 2, B, A, cell(&r, "в7")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
    assert_eq!(game.turn(), A);
}

#[test]
fn a_hit_shoots_again() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&r, "б1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Hit);
    assert_eq!(events.last(), Some(&Event::Turn(A)));
    assert_eq!(game.turn(), A);
    assert_eq!(marked(&game, None, B, Mark::Hit), [cell(&r, "б1")]);
}

#[test]
fn a_sink_shoots_again_and_marks_the_halo() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&r, "е1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Sunk(Kind::Ship(1)));
    assert_eq!(game.turn(), A);
    assert_eq!(
        marked(&game, Some(A), B, Mark::Halo),
        cells(&r, "д1 ж1 д2 е2 ж2")
    );

    // A whole battleship: three hits, then the sink rings every one of its cells.
    for c in ["а1", "б1", "в1"] {
        let events = fire(&mut game, &mut rng, 2, A, B, cell(&r, c)).unwrap();
        assert_eq!(shot_result(&events), ShotResult::Hit);
    }
    let events = fire(&mut game, &mut rng, 3, A, B, cell(&r, "г1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Sunk(Kind::Ship(4)));
    assert_eq!(game.turn(), A);
    assert_eq!(
        marked(&game, Some(A), B, Mark::Halo),
        sorted(cells(&r, "д1 ж1 а2 б2 в2 г2 д2 е2 ж2"))
    );
    assert_eq!(
        marked(&game, Some(A), B, Mark::Sunk),
        cells(&r, "а1 б1 в1 г1 е1")
    );
}

#[test]
fn a_cell_already_shot_is_refused_and_the_turn_does_not_pass() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    fire(&mut game, &mut rng, 1, A, B, cell(&r, "а1")).unwrap();
    let before = game.clone();
    assert_eq!(
        fire(&mut game, &mut rng, 2, A, B, cell(&r, "а1")),
        Err(ActionError::AlreadyKnown(cell(&r, "а1")))
    );
    assert_eq!(game, before);

    // A missed cell is refused too, once the turn comes back.
    fire(&mut game, &mut rng, 3, A, B, cell(&r, "в6")).unwrap();
    fire(&mut game, &mut rng, 4, B, A, cell(&r, "в6")).unwrap();
    let before = game.clone();
    assert_eq!(
        fire(&mut game, &mut rng, 5, A, B, cell(&r, "в6")),
        Err(ActionError::AlreadyKnown(cell(&r, "в6")))
    );
    assert_eq!(game, before);
    assert_eq!(game.turn(), A);
}

#[test]
fn a_halo_cell_is_refused_like_a_shot_cell() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    fire(&mut game, &mut rng, 1, A, B, cell(&r, "к1")).unwrap();
    for halo in ["и1", "и2", "к2"] {
        let before = game.clone();
        assert_eq!(
            fire(&mut game, &mut rng, 2, A, B, cell(&r, halo)),
            Err(ActionError::AlreadyKnown(cell(&r, halo)))
        );
        assert_eq!(game, before);
    }
    // Outside the halo the field is open.
    let events = fire(&mut game, &mut rng, 3, A, B, cell(&r, "к3")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
}

#[test]
fn the_first_to_sink_the_whole_fleet_wins_and_both_fields_are_shown() {
    let r = Ruleset::default();
    let (mut game, mut rng) = classic_duel();
    let targets: Vec<Coord> = game.fleet(B).unwrap().ship_cells().collect();
    let (last, rest) = targets.split_last().unwrap();
    for &c in rest {
        let events = fire(&mut game, &mut rng, 1, A, B, c).unwrap();
        assert_eq!(finished(&events), None);
        assert_eq!(game.turn(), A);
    }
    assert!(game.public_view().fields.iter().all(|f| !f.full));
    let events = fire(&mut game, &mut rng, 2, A, B, *last).unwrap();
    assert!(events.contains(&Event::Eliminated(B)));
    assert_eq!(finished(&events), Some((vec![A], EndReason::Sunk)));
    assert!(game.is_finished());

    // Both fields are shown to everyone, the winner's unhit ships too.
    let view = game.public_view();
    assert!(view.fields.iter().all(|f| f.full));
    assert_eq!(marked(&game, None, A, Mark::Ship).len(), 20);
    assert_eq!(marked(&game, Some(B), A, Mark::Ship).len(), 20);
    assert_eq!(marked(&game, None, B, Mark::Sunk).len(), 20);
    assert_eq!(
        fire(&mut game, &mut rng, 3, B, A, cell(&r, "а1")),
        Err(ActionError::GameOver)
    );
}
