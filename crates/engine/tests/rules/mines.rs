//! docs/rules.md §3.5: mines — placed with the fleet under the touching rule, not part of the
//! fleet; a mine costs the shooter a cell of their own, chosen in 60 s or at random.

use crate::common::*;
use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;

fn mines(n: u8) -> Ruleset {
    Ruleset {
        mines: n,
        ..Ruleset::default()
    }
}

/// The classic fleet with a mine on з7 and, given `second`, another on в9.
fn mined(second: bool) -> String {
    let one = with_row(CLASSIC_FLEET, 7, ".......m..");
    if second {
        with_row(&one, 9, "..m.......")
    } else {
        one
    }
}

fn mined_duel(n: u8) -> (Ruleset, Game, StdRng) {
    let r = mines(n);
    let fleet = fleet_from_picture(&r, &mined(n == 2));
    let (game, rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    (r, game, rng)
}

#[test]
fn a_mine_obeys_the_touching_rule() {
    let classic = mines(1);
    // A mine on и6, at a corner of the destroyer ж5–з5.
    let corner = with_row(CLASSIC_FLEET, 6, "........m.");
    assert_eq!(
        draft_from_picture(&classic, &corner).problems(&classic),
        [Problem {
            subject: Subject::Mine { index: 0 },
            cell: Some(cell(&classic, "и6")),
            rule: Rule::Touches(
                Subject::Ship {
                    index: 8,
                    kind: Kind::Ship(2)
                },
                Contact::Corner
            ),
        }]
    );
    let corners = Ruleset {
        touching: Touching::Corners,
        ..mines(1)
    };
    assert_eq!(draft_from_picture(&corners, &corner).problems(&corners), []);
    // By a side it touches even under corners.
    let side = with_row(CLASSIC_FLEET, 5, "##.##.##m.");
    assert_eq!(
        draft_from_picture(&corners, &side)
            .problems(&corners)
            .iter()
            .map(|p| (p.subject, p.rule))
            .collect::<Vec<_>>(),
        [(
            Subject::Mine { index: 0 },
            Rule::Touches(
                Subject::Ship {
                    index: 8,
                    kind: Kind::Ship(2)
                },
                Contact::Side
            )
        )]
    );
    // Two mines side by side touch each other.
    let two = mines(2);
    let pair = mined(false).replace(".......m..", "......mm..");
    assert_eq!(
        draft_from_picture(&two, &pair)
            .problems(&two)
            .iter()
            .map(|p| (p.subject, p.rule))
            .collect::<Vec<_>>(),
        [(
            Subject::Mine { index: 1 },
            Rule::Touches(Subject::Mine { index: 0 }, Contact::Side)
        )]
    );
}

#[test]
fn a_mine_is_not_part_of_the_fleet() {
    let r = mines(1);
    assert_eq!(
        draft_from_picture(&r, CLASSIC_FLEET).problems(&r),
        [Problem {
            subject: Subject::Mines,
            cell: None,
            rule: Rule::MissingMines { count: 1 },
        }]
    );
    assert_eq!(
        draft_from_picture(&r, &mined(true)).problems(&r),
        [Problem {
            subject: Subject::Mine { index: 1 },
            cell: Some(cell(&r, "в9")),
            rule: Rule::TooManyMines { expected: 1 },
        }]
    );

    // Sinking every ship wins, though the mine was never shot.
    let small = Ruleset {
        field: Field::Custom {
            size: Size::new(5, 5),
            ships: vec![1],
        },
        ..mines(1)
    };
    let fleet = fleet_from_picture(&small, "#....\n.....\n..m..\n.....\n.....");
    let (mut game, mut rng) = duel_where_first(&small, fleet.clone(), fleet, A);
    let events = fire(&mut game, &mut rng, 1, A, B, cell(&small, "а1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Sunk(Kind::Ship(1)));
    assert_eq!(finished(&events), Some((vec![A], EndReason::Sunk)));
}

#[test]
fn a_shot_on_a_mine_makes_the_shooter_give_up_an_own_cell() {
    let (r, mut game, mut rng) = mined_duel(2);
    let events = fire(&mut game, &mut rng, 10, A, B, cell(&r, "з7")).unwrap();
    assert_eq!(
        events,
        [
            Event::Shot {
                shooter: A,
                target: B,
                cell: cell(&r, "з7"),
                result: ShotResult::Mine
            },
            Event::MineChoice {
                seat: A,
                remaining: 1,
                deadline: 10 + MINE_CHOICE_SECONDS
            },
        ]
    );
    assert_eq!(MINE_CHOICE_SECONDS, 60);
    assert_eq!(marked(&game, None, B, Mark::Mine), [cell(&r, "з7")]);

    // Nothing else happens until the shooter gives up a cell of their own.
    let refusals = [
        (
            Action::Fire(A, B, cell(&r, "а1")),
            ActionError::MineChoicePending,
        ),
        (
            Action::Fire(B, A, cell(&r, "а1")),
            ActionError::MineChoicePending,
        ),
        (Action::GiveUp(B, cell(&r, "а1")), ActionError::NotYourTurn),
        (
            Action::GiveUp(A, cell(&r, "в6")),
            ActionError::NotYourCell(cell(&r, "в6")),
        ),
    ];
    for (action, error) in refusals {
        let before = game.clone();
        assert_eq!(game.apply(action, 11, &mut rng), Err(error));
        assert_eq!(game, before);
    }
    let events = game
        .apply(Action::GiveUp(A, cell(&r, "а1")), 12, &mut rng)
        .unwrap();
    assert_eq!(
        events,
        [
            Event::GaveUp {
                seat: A,
                cell: cell(&r, "а1"),
                result: ShotResult::Hit,
                timed_out: false
            },
            Event::Turn(B),
        ]
    );
    assert_eq!(marked(&game, None, A, Mark::Hit), [cell(&r, "а1")]);

    // The second mine: a cell already hit cannot be given up; a boat given up sinks.
    fire(&mut game, &mut rng, 13, B, A, cell(&r, "в6")).unwrap();
    let events = fire(&mut game, &mut rng, 14, A, B, cell(&r, "в9")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Mine);
    assert_eq!(
        game.apply(Action::GiveUp(A, cell(&r, "а1")), 15, &mut rng),
        Err(ActionError::NotYourCell(cell(&r, "а1")))
    );
    let events = game
        .apply(Action::GiveUp(A, cell(&r, "е1")), 15, &mut rng)
        .unwrap();
    assert!(matches!(
        events[0],
        Event::GaveUp {
            result: ShotResult::Sunk(Kind::Ship(1)),
            ..
        }
    ));
    assert_eq!(game.turn(), B);
    assert_eq!(marked(&game, None, A, Mark::Sunk), [cell(&r, "е1")]);
}

#[test]
fn the_mine_choice_times_out_after_sixty_seconds_with_a_random_cell() {
    let mut chosen = Vec::new();
    for seed in 0..8 {
        let (r, mut game, _) = mined_duel(1);
        let mut rng = StdRng::seed_from_u64(seed);
        fire(&mut game, &mut rng, 100, A, B, cell(&r, "з7")).unwrap();
        assert_eq!(game.next_deadline(), Some(160));
        assert_eq!(game.apply(Action::Tick, 159, &mut rng), Ok(vec![]));
        let events = game.apply(Action::Tick, 160, &mut rng).unwrap();
        let Event::GaveUp {
            seat,
            cell,
            result,
            timed_out,
        } = events[0]
        else {
            panic!("no cell given up: {events:?}");
        };
        assert_eq!((seat, timed_out), (A, true));
        assert!(game.fleet(A).unwrap().ship_at(cell).is_some());
        assert!(matches!(result, ShotResult::Hit | ShotResult::Sunk(_)));
        assert_eq!(events.last(), Some(&Event::Turn(B)));
        assert_eq!(game.mine_choice(), None);
        chosen.push(cell);
    }
    chosen.sort();
    chosen.dedup();
    assert!(chosen.len() > 1, "always the same cell: {chosen:?}");
}

#[test]
fn a_salvo_on_a_mine_costs_the_shooter_a_cell_too() {
    let r = Ruleset {
        salvo: Some(3),
        ..mines(1)
    };
    let fleet = fleet_from_picture(&r, &mined(false));
    let (mut game, mut rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    let events = game
        .apply(Action::Salvo(A, B, cells(&r, "з7 а1 в6")), 1, &mut rng)
        .unwrap();
    assert!(matches!(
        events[0],
        Event::Salvo {
            hits: 1,
            mines: 1,
            ..
        }
    ));
    assert!(matches!(
        events[1],
        Event::MineChoice {
            seat: A,
            remaining: 1,
            ..
        }
    ));
    let events = game
        .apply(Action::GiveUp(A, cell(&r, "к10")), 2, &mut rng)
        .unwrap();
    assert!(matches!(
        events[0],
        Event::GaveUp {
            result: ShotResult::Sunk(Kind::Ship(1)),
            ..
        }
    ));
    assert_eq!(game.turn(), B);
}
