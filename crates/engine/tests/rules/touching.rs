//! docs/rules.md §3.1: touching `none` (classic, in `classic.rs`), `corners` and `any`, and the
//! halo each of them marks after a sink.

use crate::classic::{corner_picture, side_picture};
use crate::common::*;
use seabattle_engine::*;

fn touching(t: Touching) -> Ruleset {
    Ruleset {
        touching: t,
        ..Ruleset::default()
    }
}

#[test]
fn corner_touching_allows_diagonal_neighbours_but_not_sides() {
    let r = touching(Touching::Corners);
    assert_eq!(draft_from_picture(&r, &corner_picture()).problems(&r), []);
    let problems = draft_from_picture(&r, &side_picture()).problems(&r);
    assert_eq!(
        problems
            .iter()
            .map(|p| (p.rule, p.cell))
            .collect::<Vec<_>>(),
        [(
            Rule::Touches(
                Subject::Ship {
                    index: 8,
                    kind: Kind::Ship(2)
                },
                Contact::Side
            ),
            Some(cell(&r, "и5"))
        )]
    );
}

#[test]
fn any_touching_allows_sides_but_not_overlap() {
    let r = touching(Touching::Any);
    assert_eq!(draft_from_picture(&r, &corner_picture()).problems(&r), []);
    assert_eq!(draft_from_picture(&r, &side_picture()).problems(&r), []);
    // Ships packed side by side in one block, each drawn with its own label.
    let packed = draft_from_picture(
        &r,
        "
        1111222...
        3334455...
        667890....
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ",
    );
    assert_eq!(packed.problems(&r), []);

    let mut overlap = draft_from_picture(&r, CLASSIC_FLEET);
    overlap.remove_at(cell(&r, "к10")).unwrap();
    overlap
        .place(&r, Kind::Ship(1), vec![cell(&r, "а1")])
        .unwrap();
    assert_eq!(
        overlap.problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 9,
                kind: Kind::Ship(1)
            },
            cell: Some(cell(&r, "а1")),
            rule: Rule::Overlaps(Subject::Ship {
                index: 0,
                kind: Kind::Ship(4)
            }),
        }]
    );
}

#[test]
fn corner_touching_marks_only_the_sides_of_a_sunk_ship() {
    let r = touching(Touching::Corners);
    let fleet = fleet_from_picture(&r, &corner_picture());
    let (mut game, mut rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&r, "и6")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Sunk(Kind::Ship(1)));
    assert_eq!(
        marked(&game, Some(A), B, Mark::Halo),
        cells(&r, "и5 з6 к6 и7")
    );
    // The corner cell з5 may hold a ship, and does.
    let events = fire(&mut game, &mut rng, 2, A, B, cell(&r, "з5")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Hit);
}

#[test]
fn any_touching_marks_no_halo_after_a_sink() {
    let r = touching(Touching::Any);
    let fleet = fleet_from_picture(&r, &side_picture());
    let (mut game, mut rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&r, "и5")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Sunk(Kind::Ship(1)));
    assert!(marked(&game, Some(A), B, Mark::Halo).is_empty());
    // Its neighbour by a side is a destroyer.
    let events = fire(&mut game, &mut rng, 2, A, B, cell(&r, "з5")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Hit);
    let events = fire(&mut game, &mut rng, 3, A, B, cell(&r, "и4")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
}
