//! docs/rules.md §3.7: land, sea and air — a secret wavy border, units on their own terrain,
//! aircraft anywhere, no touching, and a sink that names the unit. Cells are typed in Latin
//! letters, A–T.

use crate::common::*;
use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;

/// Sea above the border, land (`_`, `@`) below it: land starts on row 8, rising to row 5 in
/// the last columns. At sea: the carrier A1–E1, the battleship G1–J1, cruisers L1–N1 and
/// P1–R1, destroyers A3–B3, D3–E3, G3–H3 and an aircraft L5–N5 + M6. On land: tanks A9–B9,
/// D9–E9, G9–H9, the battery J9–K10, the gun M9 and an aircraft N12–P12 + O13.
const LSA_FLEET: &str = "
    #####.####.###.###..
    ....................
    ##.##.##............
    ....................
    ...........###....._
    ............#.....__
    .................___
    ____________________
    @@_@@_@@_@@_@_______
    _________@@_________
    ____________________
    _____________@@@____
    ______________@_____
    ____________________
    ____________________
";

fn at(typed: &str) -> Coord {
    parse_cell(typed, Alphabet::Latin, LAND_SEA_AIR_SIZE).unwrap()
}

fn lsa_duel() -> (Ruleset, Game, StdRng) {
    let r = Ruleset::land_sea_air();
    let fleet = fleet_from_picture(&r, LSA_FLEET);
    let (game, rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    (r, game, rng)
}

/// The draft of [`LSA_FLEET`] with the unit on `remove` taken away and a `kind` placed on
/// `cells` instead; its problems.
fn moved(r: &Ruleset, remove: &str, kind: Kind, cells: &[&str]) -> Vec<Problem> {
    let mut draft = draft_from_picture(r, LSA_FLEET);
    draft.remove_at(at(remove)).unwrap();
    draft
        .place(r, kind, cells.iter().map(|c| at(c)).collect())
        .unwrap();
    draft.problems(r)
}

#[test]
fn the_land_sea_air_fleet_is_fourteen_units_of_the_table_on_twenty_by_fifteen() {
    let r = Ruleset::land_sea_air();
    let fleet = fleet_from_picture(&r, LSA_FLEET);
    let count = |k: Kind| fleet.ships().iter().filter(|s| s.kind == k).count();
    let table = [
        (Kind::Ship(5), 1),
        (Kind::Ship(4), 1),
        (Kind::Ship(3), 2),
        (Kind::Ship(2), 3),
        (Kind::Tank, 3),
        (Kind::Battery, 1),
        (Kind::AntiAircraft, 1),
        (Kind::AttackAircraft, 2),
    ];
    for (kind, n) in table {
        assert_eq!(count(kind), n, "{kind}");
    }
    assert_eq!(fleet.ships().len(), 14);
    let border = fleet.border().unwrap();
    assert!(border.is_land(at("A8")) && !border.is_land(at("A7")));
    assert!(border.is_land(at("T5")) && !border.is_land(at("T4")));
}

#[test]
fn a_land_unit_at_sea_is_rejected() {
    let r = Ruleset::land_sea_air();
    let cases = [
        (Kind::Tank, "A9", &["A5", "B5"][..], "A5"),
        (Kind::Battery, "J9", &["A5", "B5", "A6", "B6"], "A5"),
        (Kind::AntiAircraft, "M9", &["A6"], "A6"),
    ];
    for (kind, from, to, first) in cases {
        assert_eq!(
            moved(&r, from, kind, to),
            [Problem {
                subject: Subject::Ship { index: 13, kind },
                cell: Some(at(first)),
                rule: Rule::WrongTerrain(Force::Land),
            }],
            "{kind}"
        );
    }
}

#[test]
fn a_sea_ship_on_land_is_rejected() {
    let r = Ruleset::land_sea_air();
    let problem = |cell| Problem {
        subject: Subject::Ship {
            index: 13,
            kind: Kind::Ship(3),
        },
        cell: Some(at(cell)),
        rule: Rule::WrongTerrain(Force::Sea),
    };
    assert_eq!(
        moved(&r, "P1", Kind::Ship(3), &["Q14", "R14", "S14"]),
        [problem("Q14")]
    );
    // Across the border: the cell on land is named.
    assert_eq!(
        moved(&r, "P1", Kind::Ship(3), &["T3", "T4", "T5"]),
        [problem("T5")]
    );
}

#[test]
fn aircraft_may_stand_anywhere() {
    let r = Ruleset::land_sea_air();
    // The picture has one aircraft at sea and one on land; this one straddles the border.
    assert_eq!(draft_from_picture(&r, LSA_FLEET).problems(&r), []);
    let across = ["P7", "Q7", "R7", "Q8"];
    let draft = draft_from_picture(&r, LSA_FLEET);
    let border = draft.border().unwrap();
    assert!(!border.is_land(at("P7")) && border.is_land(at("R7")) && border.is_land(at("Q8")));
    assert_eq!(moved(&r, "L5", Kind::AttackAircraft, &across), []);
    // Where a tank may not stand.
    let tank = moved(&r, "A9", Kind::Tank, &["P7", "Q7"]);
    assert_eq!(
        tank.iter().map(|p| p.rule).collect::<Vec<_>>(),
        [Rule::WrongTerrain(Force::Land)]
    );
}

#[test]
fn land_sea_air_units_never_touch_whatever_the_touching_option() {
    let r = Ruleset {
        touching: Touching::Any,
        ..Ruleset::land_sea_air()
    };
    assert_eq!(
        moved(&r, "D9", Kind::Tank, &["C9", "C10"]),
        [Problem {
            subject: Subject::Ship {
                index: 13,
                kind: Kind::Tank
            },
            cell: Some(at("C9")),
            rule: Rule::Touches(
                Subject::Ship {
                    index: 8,
                    kind: Kind::Tank
                },
                Contact::Side
            ),
        }]
    );
}

#[test]
fn each_player_draws_or_randomises_their_own_border() {
    let r = Ruleset::land_sea_air();
    let mut draft = draft_from_picture(&r, LSA_FLEET);
    draft.shift_border(0, 1).unwrap();
    draft.shift_border(1, 1).unwrap();
    assert_eq!(draft.problems(&r), []);
    // Land now starts on row 10 in column A: the tank on A9 stands at sea.
    draft.shift_border(0, 1).unwrap();
    assert_eq!(
        draft.problems(&r),
        [Problem {
            subject: Subject::Ship {
                index: 8,
                kind: Kind::Tank
            },
            cell: Some(at("A9")),
            rule: Rule::WrongTerrain(Force::Land),
        }]
    );
    // Neighbouring columns may differ by one row only.
    let kept = draft.clone();
    assert!(matches!(
        draft.shift_border(0, 1),
        Err(EditError::Border(Some(BorderError::TooSteep { .. })))
    ));
    assert_eq!(draft, kept);
    draft.undo().unwrap();
    assert_eq!(draft.problems(&r), []);

    let mut borders: Vec<Border> = (0..6)
        .map(|seed| {
            let fleet = random_fleet(&r, &mut StdRng::seed_from_u64(seed)).unwrap();
            let border = fleet.border().unwrap().clone();
            assert_eq!(border.check(LAND_SEA_AIR_SIZE.width), Ok(()));
            border
        })
        .collect();
    borders.dedup();
    assert!(borders.len() > 1, "every random border is the same");
}

#[test]
fn the_enemy_never_sees_the_border_before_the_end() {
    let (_, mut game, mut rng) = lsa_duel();
    // T4 is sea and T5 land on B's field: both answer just "miss".
    let sea = fire(&mut game, &mut rng, 1, A, B, at("T4")).unwrap();
    fire(&mut game, &mut rng, 2, B, A, at("T4")).unwrap();
    let land = fire(&mut game, &mut rng, 3, A, B, at("T5")).unwrap();
    let strip = |events: &[Event]| {
        serde_json::to_string(events)
            .unwrap()
            .replace("T4", "··")
            .replace("T5", "··")
    };
    assert_eq!(strip(&sea), strip(&land));
    for viewer in [None, Some(A)] {
        assert_eq!(marked(&game, viewer, B, Mark::Miss), [at("T4"), at("T5")]);
        let view = match viewer {
            Some(v) => game.view_for(v),
            None => game.public_view(),
        };
        assert_eq!(view.field(B).border, None);
    }
    assert_eq!(
        game.view_for(B).field(B).border.as_ref(),
        game.fleet(B).unwrap().border()
    );

    game.apply(Action::Surrender(A), 4, &mut rng).unwrap();
    assert_eq!(
        game.public_view().field(B).border.as_ref(),
        game.fleet(B).unwrap().border()
    );
}

#[test]
fn a_sink_names_the_unit_and_a_hit_does_not() {
    let (_, mut game, mut rng) = lsa_duel();
    let mut shoot = |c: &str| shot_result(&fire(&mut game, &mut rng, 1, A, B, at(c)).unwrap());
    assert_eq!(shoot("A9"), ShotResult::Hit);
    assert_eq!(shoot("B9"), ShotResult::Sunk(Kind::Tank));
    for c in ["J9", "K9", "J10"] {
        assert_eq!(shoot(c), ShotResult::Hit);
    }
    assert_eq!(shoot("K10"), ShotResult::Sunk(Kind::Battery));
    assert_eq!(shoot("M9"), ShotResult::Sunk(Kind::AntiAircraft));
    for c in ["L5", "M5", "N5"] {
        assert_eq!(shoot(c), ShotResult::Hit);
    }
    assert_eq!(shoot("M6"), ShotResult::Sunk(Kind::AttackAircraft));
    assert_eq!(shoot("A3"), ShotResult::Hit);
    assert_eq!(shoot("B3"), ShotResult::Sunk(Kind::Ship(2)));
}
