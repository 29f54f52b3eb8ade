//! docs/rules.md §3.3: the field presets `classic` (in `classic.rs`) and `big`, and `custom` fields
//! accepted only when a legal layout exists.

use crate::common::*;
use seabattle_engine::*;

fn custom(width: u8, height: u8, ships: &[u8]) -> Ruleset {
    Ruleset {
        field: Field::Custom {
            size: Size::new(width, height),
            ships: ships.to_vec(),
        },
        ..Ruleset::default()
    }
}

#[test]
fn the_big_field_is_fifteen_by_fifteen_with_a_five_cell_carrier() {
    let r = Ruleset::big();
    let picture = "
        #####.####.####
        ...............
        ###.###.###....
        ...............
        ##.##.##.##....
        ...............
        #.#.#.#.#......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
    ";
    let fleet = fleet_from_picture(&r, picture);
    assert_eq!(fleet.ships()[0].kind, Kind::Ship(5));
    assert_eq!(fleet.ships().len(), 15);
    // The classic fleet is not a big one: the carrier and five more ships are missing.
    let widened: Vec<String> = CLASSIC_FLEET
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}....."))
        .collect();
    let classic = format!("{}\n{}", widened.join("\n"), "...............\n".repeat(5));
    let missing: Vec<(Kind, usize)> = draft_from_picture(&r, &classic)
        .problems(&r)
        .iter()
        .filter_map(|p| match (p.subject, p.rule) {
            (Subject::Fleet { kind }, Rule::Missing { count }) => Some((kind, count)),
            _ => None,
        })
        .collect();
    assert_eq!(
        missing,
        [
            (Kind::Ship(5), 1),
            (Kind::Ship(4), 1),
            (Kind::Ship(3), 1),
            (Kind::Ship(2), 1),
            (Kind::Ship(1), 1)
        ]
    );

    // Shots reach п15, the last cell, and no further.
    let (mut game, mut rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    let corner = parse_cell("п15", Alphabet::Russian, r.size()).unwrap();
    assert_eq!(corner, Coord::new(14, 14));
    let events = fire(&mut game, &mut rng, 1, A, B, corner).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
    let off = Coord::new(15, 0);
    assert_eq!(
        fire(&mut game, &mut rng, 2, B, A, off),
        Err(ActionError::OffField(off))
    );
}

#[test]
fn a_custom_field_plays_with_its_own_size_and_fleet() {
    let r = custom(7, 5, &[3, 2, 1]);
    assert_eq!(r.check(), Ok(()));
    let fleet = fleet_from_picture(
        &r,
        "
        ###....
        .......
        ##...#.
        .......
        .......
        ",
    );
    let (mut game, mut rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    for off in [Coord::new(7, 0), Coord::new(0, 5)] {
        assert_eq!(
            fire(&mut game, &mut rng, 1, A, B, off),
            Err(ActionError::OffField(off))
        );
    }
    let mut last = Vec::new();
    for c in cells(&r, "а1 б1 в1 а3 б3 е3") {
        last = fire(&mut game, &mut rng, 2, A, B, c).unwrap();
    }
    assert_eq!(finished(&last), Some((vec![A], EndReason::Sunk)));
}

#[test]
fn a_custom_ruleset_without_a_legal_layout_is_refused() {
    // Ten boats that may not touch even at a corner need more than 6×6 (at most 9 fit);
    // touching at corners, they fit.
    let boats = custom(6, 6, &[1; 10]);
    assert_eq!(boats.check(), Err(RulesetError::NoLegalLayout));
    let corners = Ruleset {
        touching: Touching::Corners,
        ..boats
    };
    assert_eq!(corners.check(), Ok(()));
    // Three 4-cell lines and a boat do not fit 5×5 without touching; a bent 4 (or touching
    // at corners) makes room.
    let fours = custom(5, 5, &[4, 4, 4, 1]);
    assert_eq!(fours.check(), Err(RulesetError::NoLegalLayout));
    for roomier in [
        Ruleset {
            shapes: Shapes::Bent,
            ..fours.clone()
        },
        Ruleset {
            touching: Touching::Corners,
            ..fours
        },
    ] {
        assert_eq!(roomier.check(), Ok(()), "{roomier}");
    }
}
