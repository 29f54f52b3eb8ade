//! docs/rules.md §3.8: the arsenal — a 3×3 radar, a 3×3 air strike and a submarine's torpedo,
//! each once a game (or twice); a weapon is the whole turn; mines; what it combines with.
//!
//! The target is [`CLASSIC_FLEET`]: the battleship а1–г1, boats е1, з1, к1 and к10, cruisers
//! а3–в3 and д3–ж3, destroyers а5–б5, г5–д5 and ж5–з5.

use crate::common::*;
use rand::rngs::StdRng;
use seabattle_engine::*;

fn arsenal(n: u8) -> Ruleset {
    Ruleset {
        arsenal: n,
        ..Ruleset::default()
    }
}

/// A duel under `r` of two classic fleets (a mine on з7 when `r` has mines), A first.
fn armed(r: &Ruleset) -> (Game, StdRng) {
    let picture = if r.mines > 0 {
        with_row(CLASSIC_FLEET, 7, ".......m..")
    } else {
        CLASSIC_FLEET.to_owned()
    };
    let fleet = fleet_from_picture(r, &picture);
    duel_where_first(r, fleet.clone(), fleet, A)
}

fn radar(
    game: &mut Game,
    rng: &mut StdRng,
    r: &Ruleset,
    at: &str,
) -> Result<Vec<Event>, ActionError> {
    game.apply(Action::Radar(A, B, cell(r, at)), 5, rng)
}

fn air_strike(
    game: &mut Game,
    rng: &mut StdRng,
    r: &Ruleset,
    at: &str,
) -> Result<Vec<Event>, ActionError> {
    game.apply(Action::AirStrike(A, B, cell(r, at)), 5, rng)
}

fn torpedo(
    game: &mut Game,
    rng: &mut StdRng,
    r: &Ruleset,
    from: &str,
    heading: Option<Heading>,
) -> Result<Vec<Event>, ActionError> {
    game.apply(Action::Torpedo(A, B, cell(r, from), heading), 5, rng)
}

/// B's turn passes back to A: one miss of B's at A's field (the cells of row 8 are empty).
fn pass_back(game: &mut Game, rng: &mut StdRng, r: &Ruleset, at: &str) {
    let events = fire(game, rng, 6, B, A, cell(r, at)).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
    assert_eq!(game.turn(), A);
}

#[test]
fn a_radar_counts_the_unhit_ship_cells_of_its_square_and_the_turn_passes() {
    let r = arsenal(1);
    let (mut game, mut rng) = armed(&r);
    assert_eq!(game.weapons_left(A), [1, 1, 1]);
    // а1 hit first: the battleship's а1–в1 and the cruiser's а3–в3 are in the square of б2.
    fire(&mut game, &mut rng, 1, A, B, cell(&r, "а1")).unwrap();
    let events = radar(&mut game, &mut rng, &r, "б2").unwrap();
    assert_eq!(
        events,
        [
            Event::Radar {
                shooter: A,
                target: B,
                center: cell(&r, "б2"),
                count: 5
            },
            Event::Turn(B)
        ]
    );
    assert_eq!(
        game.scans(B),
        [Scan {
            center: cell(&r, "б2"),
            count: 5,
            ships: 6
        }]
    );
    // The remaining weapons are public; a count marks nothing.
    assert_eq!(game.weapons_left(A), [0, 1, 1]);
    // Everyone's view carries the reading and the weapons left, the public's too.
    let public = game.public_view();
    assert_eq!(public.field(B).scans, game.scans(B));
    assert_eq!(public.field(A).weapons, [0, 1, 1]);
    assert!(public.field(A).scans.is_empty());
    assert_eq!(game.weapons_left(B), [1, 1, 1]);
    // Only а1's corner is known empty (ships never touch), not the square counted.
    assert_eq!(marked(&game, None, B, Mark::Halo), [cell(&r, "б2")]);
    // Its square at the edge is clipped: к1 and к2 hold the boat к1 only.
    pass_back(&mut game, &mut rng, &r, "а8");
    assert_eq!(
        radar(&mut game, &mut rng, &r, "к1"),
        Err(ActionError::UsedUp(Weapon::Radar))
    );
}

#[test]
fn a_radar_does_not_count_mines() {
    let r = Ruleset {
        mines: 1,
        ..arsenal(1)
    };
    let (mut game, mut rng) = armed(&r);
    // ж5 and з5 of a destroyer, and the mine on з7, in the square of з6.
    let events = radar(&mut game, &mut rng, &r, "з6").unwrap();
    assert!(
        matches!(events[0], Event::Radar { count: 2, .. }),
        "{events:?}"
    );
    // Without the mine the count is the same.
    let plain = arsenal(1);
    let (mut game, mut rng) = armed(&plain);
    let events = radar(&mut game, &mut rng, &plain, "з6").unwrap();
    assert!(
        matches!(events[0], Event::Radar { count: 2, .. }),
        "{events:?}"
    );
}

#[test]
fn a_radar_that_counts_nothing_marks_its_square_empty() {
    let r = arsenal(1);
    let (mut game, mut rng) = armed(&r);
    let events = radar(&mut game, &mut rng, &r, "д8").unwrap();
    assert!(
        matches!(events[0], Event::Radar { count: 0, .. }),
        "{events:?}"
    );
    assert_eq!(
        marked(&game, None, B, Mark::Halo),
        sorted(cells(&r, "г7 д7 е7 г8 д8 е8 г9 д9 е9"))
    );
    // Those cells are known: a shot there is refused.
    pass_back(&mut game, &mut rng, &r, "а8");
    assert_eq!(
        fire(&mut game, &mut rng, 7, A, B, cell(&r, "д8")),
        Err(ActionError::AlreadyKnown(cell(&r, "д8")))
    );
}

#[test]
fn an_air_strike_shoots_every_new_cell_of_its_square_and_marks_a_sunk_ships_halo() {
    let r = arsenal(2);
    let (mut game, mut rng) = armed(&r);
    let events = air_strike(&mut game, &mut rng, &r, "б2").unwrap();
    let hit = ShotResult::Hit;
    let miss = ShotResult::Miss;
    let expected: Vec<(Coord, ShotResult)> = [
        ("а1", hit),
        ("б1", hit),
        ("в1", hit),
        ("а2", miss),
        ("б2", miss),
        ("в2", miss),
        ("а3", hit),
        ("б3", hit),
        ("в3", ShotResult::Sunk(Kind::Ship(3))),
    ]
    .into_iter()
    .map(|(c, result)| (cell(&r, c), result))
    .collect();
    assert_eq!(
        events,
        [
            Event::AirStrike {
                shooter: A,
                target: B,
                center: cell(&r, "б2"),
                cells: expected
            },
            // Hits or not, a weapon is the whole turn.
            Event::Turn(B)
        ]
    );
    assert_eq!(
        marked(&game, None, B, Mark::Halo),
        sorted(cells(&r, "г2 г3 а4 б4 в4 г4"))
    );
    pass_back(&mut game, &mut rng, &r, "а8");
    // A square with no new cell is refused, and the strike kept.
    assert_eq!(
        air_strike(&mut game, &mut rng, &r, "б3"),
        Err(ActionError::NoNewCell(cell(&r, "б3")))
    );
    assert_eq!(game.weapons_left(A)[Weapon::AirStrike.index()], 1);
    // Over the sunk cruiser's halo, only the new cells are shot.
    let events = air_strike(&mut game, &mut rng, &r, "в4").unwrap();
    let Event::AirStrike { cells: shot, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(
        shot,
        &[
            (cell(&r, "б5"), ShotResult::Hit),
            (cell(&r, "в5"), ShotResult::Miss),
            (cell(&r, "г5"), ShotResult::Hit),
        ]
    );
    assert_eq!(game.weapons_left(A), [2, 0, 2]);
}

#[test]
fn an_air_strike_over_a_mine_sets_it_off() {
    let r = Ruleset {
        mines: 1,
        ..arsenal(1)
    };
    let (mut game, mut rng) = armed(&r);
    let events = air_strike(&mut game, &mut rng, &r, "з7").unwrap();
    let Event::AirStrike { cells: shot, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(shot.len(), 9);
    assert!(shot.contains(&(cell(&r, "з7"), ShotResult::Mine)));
    assert_eq!(
        events[1],
        Event::MineChoice {
            seat: A,
            remaining: 1,
            deadline: 5 + MINE_CHOICE_SECONDS
        }
    );
    // The shooter gives up a cell of their own; then the turn passes.
    let events = game
        .apply(Action::GiveUp(A, cell(&r, "к10")), 6, &mut rng)
        .unwrap();
    assert!(events.contains(&Event::Turn(B)), "{events:?}");
}

#[test]
fn a_torpedo_runs_through_hit_cells_to_the_first_unhit_ship_cell() {
    let r = arsenal(2);
    let (mut game, mut rng) = armed(&r);
    for c in ["а1", "б1"] {
        fire(&mut game, &mut rng, 1, A, B, cell(&r, c)).unwrap();
    }
    let events = torpedo(&mut game, &mut rng, &r, "а1", Some(Heading::East)).unwrap();
    assert_eq!(
        events,
        [
            Event::Torpedo {
                shooter: A,
                target: B,
                from: cell(&r, "а1"),
                heading: Heading::East,
                passed: Vec::new(),
                hit: Some((cell(&r, "в1"), ShotResult::Hit)),
            },
            Event::Turn(B)
        ]
    );
    pass_back(&mut game, &mut rng, &r, "а8");
    // Up column б from the bottom edge: every empty cell it crossed is known empty.
    let events = torpedo(&mut game, &mut rng, &r, "б10", None).unwrap();
    assert_eq!(
        events[0],
        Event::Torpedo {
            shooter: A,
            target: B,
            from: cell(&r, "б10"),
            heading: Heading::North,
            passed: cells(&r, "б10 б9 б8 б7 б6"),
            hit: Some((cell(&r, "б5"), ShotResult::Hit)),
        }
    );
    for c in ["б10", "б6"] {
        assert!(game.is_known(B, cell(&r, c)));
    }
    assert!(!game.is_known(B, cell(&r, "б4")));
    // Both tracks are public, each to where it stopped.
    let runs = game.public_view().field(B).runs.clone();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].cells(r.size()), cells(&r, "а1 б1 в1"));
    assert_eq!(runs[1].cells(r.size()), cells(&r, "б10 б9 б8 б7 б6 б5"));
}

#[test]
fn a_torpedo_that_finds_nothing_leaves_the_field_and_its_row_is_known_empty() {
    let r = arsenal(1);
    let (mut game, mut rng) = armed(&r);
    let events = torpedo(&mut game, &mut rng, &r, "к2", None).unwrap();
    assert_eq!(
        events[0],
        Event::Torpedo {
            shooter: A,
            target: B,
            from: cell(&r, "к2"),
            heading: Heading::West,
            passed: cells(&r, "к2 и2 з2 ж2 е2 д2 г2 в2 б2 а2"),
            hit: None,
        }
    );
    assert_eq!(events[1], Event::Turn(B));
    assert_eq!(marked(&game, None, B, Mark::Halo).len(), 10);
    // Its track crosses the whole row.
    assert_eq!(game.public_view().field(B).runs[0].len, 10);
}

#[test]
fn a_torpedo_starts_at_an_edge_runs_away_from_it_and_asks_the_way_at_a_corner() {
    let r = arsenal(1);
    let (mut game, mut rng) = armed(&r);
    let refusals = [
        ("д4", None, ActionError::NotFromEdge(cell(&r, "д4"))),
        ("а1", None, ActionError::NeedsHeading(cell(&r, "а1"))),
        (
            "а1",
            Some(Heading::West),
            ActionError::WrongHeading(cell(&r, "а1"), Heading::West),
        ),
        (
            "а5",
            Some(Heading::North),
            ActionError::WrongHeading(cell(&r, "а5"), Heading::North),
        ),
    ];
    for (from, heading, refusal) in refusals {
        assert_eq!(
            torpedo(&mut game, &mut rng, &r, from, heading),
            Err(refusal)
        );
    }
    // Nothing was spent, and it is still A's turn.
    assert_eq!(game.weapons_left(A), [1, 1, 1]);
    assert_eq!(game.turn(), A);
    // From the corner downwards: а1 is the battleship's.
    let events = torpedo(&mut game, &mut rng, &r, "а1", Some(Heading::South)).unwrap();
    assert!(
        matches!(&events[0], Event::Torpedo { hit: Some((c, ShotResult::Hit)), .. } if *c == cell(&r, "а1")),
        "{events:?}"
    );
}

#[test]
fn a_torpedo_that_reaches_a_mine_stops_there_and_sets_it_off() {
    let r = Ruleset {
        mines: 1,
        ..arsenal(1)
    };
    let (mut game, mut rng) = armed(&r);
    let events = torpedo(&mut game, &mut rng, &r, "а7", None).unwrap();
    assert_eq!(
        events[0],
        Event::Torpedo {
            shooter: A,
            target: B,
            from: cell(&r, "а7"),
            heading: Heading::East,
            passed: cells(&r, "а7 б7 в7 г7 д7 е7 ж7"),
            hit: Some((cell(&r, "з7"), ShotResult::Mine)),
        }
    );
    assert!(matches!(
        events[1],
        Event::MineChoice {
            seat: A,
            remaining: 1,
            ..
        }
    ));
    // и7 and к7, beyond the mine, are not known.
    assert!(!game.is_known(B, cell(&r, "и7")));
}

#[test]
fn each_weapon_is_used_as_often_as_the_lobby_set_and_no_more() {
    let r = arsenal(2);
    let (mut game, mut rng) = armed(&r);
    for (n, at) in ["д8", "д9"].into_iter().enumerate() {
        radar(&mut game, &mut rng, &r, at).unwrap();
        assert_eq!(game.weapons_left(A)[0], 1 - n as u8);
        pass_back(&mut game, &mut rng, &r, &format!("{}8", ["а", "б"][n]));
    }
    assert_eq!(
        radar(&mut game, &mut rng, &r, "и8"),
        Err(ActionError::UsedUp(Weapon::Radar))
    );
    // Without the arsenal no weapon at all.
    let (mut game, mut rng) = classic_duel();
    let plain = Ruleset::default();
    assert_eq!(
        radar(&mut game, &mut rng, &plain, "д8"),
        Err(ActionError::NoArsenal)
    );
    // Not out of turn.
    let (mut game, mut rng) = armed(&r);
    assert_eq!(
        game.apply(Action::Radar(B, A, cell(&r, "д8")), 5, &mut rng),
        Err(ActionError::NotYourTurn)
    );
}

#[test]
fn an_air_strike_that_sinks_the_last_ship_wins() {
    let r = Ruleset {
        field: Field::Custom {
            size: Size::new(5, 5),
            ships: vec![2],
        },
        arsenal: 1,
        ..Ruleset::default()
    };
    let fleet = fleet_from_picture(&r, ".....\n.##..\n.....\n.....\n.....");
    let (mut game, mut rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    let events = air_strike(&mut game, &mut rng, &r, "в2").unwrap();
    assert_eq!(finished(&events), Some((vec![A], EndReason::Sunk)));
}

#[test]
fn a_weapon_aims_at_one_opponents_field_never_a_teammates() {
    let r = Ruleset {
        players: Players::Teams,
        ..arsenal(1)
    };
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let (mut game, mut rng) = game_where_first(&r, vec![fleet; 4], A);
    // Seat 2 is A's teammate.
    assert_eq!(
        game.apply(Action::Radar(A, SeatId(2), cell(&r, "д8")), 5, &mut rng),
        Err(ActionError::BadTarget)
    );
    let events = game
        .apply(Action::Radar(A, SeatId(3), cell(&r, "б2")), 5, &mut rng)
        .unwrap();
    assert!(matches!(
        events[0],
        Event::Radar {
            target: SeatId(3),
            count: 6,
            ..
        }
    ));
    assert_eq!(game.scans(SeatId(3)).len(), 1);
    assert!(game.scans(B).is_empty());
}

#[test]
fn the_lobby_refuses_the_arsenal_with_salvoes_or_land_sea_air_and_more_than_two() {
    let with = |r: Ruleset| Ruleset { arsenal: 1, ..r };
    assert_eq!(
        with(Ruleset {
            salvo: Some(3),
            ..Ruleset::default()
        })
        .check(),
        Err(RulesetError::ArsenalWithSalvo)
    );
    assert_eq!(
        with(Ruleset::land_sea_air()).check(),
        Err(RulesetError::ArsenalWithTerrain)
    );
    assert_eq!(arsenal(3).check(), Err(RulesetError::ArsenalOutOfRange(3)));
    for n in [1, 2] {
        assert_eq!(arsenal(n).check(), Ok(()));
    }
    // It combines with mines, shapes, touching and the other fields.
    let rich = Ruleset {
        mines: 2,
        shapes: Shapes::Bent,
        touching: Touching::Corners,
        players: Players::FreeForAll(3),
        ..with(Ruleset::big())
    };
    assert_eq!(rich.check(), Ok(()));
    assert!(arsenal(2).to_string().contains("arsenal 2"));
    assert!(!Ruleset::default().to_string().contains("arsenal"));
}

#[test]
fn the_weapons_used_and_the_readings_are_stored_with_the_game() {
    let r = arsenal(1);
    let (mut game, mut rng) = armed(&r);
    radar(&mut game, &mut rng, &r, "б2").unwrap();
    let json = serde_json::to_string(&game).unwrap();
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);
    assert_eq!(back.weapons_left(A), [0, 1, 1]);
    assert_eq!(back.scans(B).len(), 1);
    // A game without the arsenal is stored as before.
    let (plain, _) = classic_duel();
    let json = serde_json::to_string(&plain).unwrap();
    assert!(
        !json.contains("\"w\"") && !json.contains("\"sc\""),
        "{json}"
    );
}
