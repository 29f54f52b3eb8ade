//! docs/rules.md §3.4: salvoes of N distinct cells, a report of counts and sunk kinds only, no
//! halo, and the turn always passes.

use crate::common::*;
use rand::rngs::StdRng;
use seabattle_engine::*;

fn salvo_rules(n: u8) -> Ruleset {
    Ruleset {
        salvo: Some(n),
        ..Ruleset::default()
    }
}

fn salvo_duel(n: u8) -> (Ruleset, Game, StdRng) {
    let r = salvo_rules(n);
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let (game, rng) = duel_where_first(&r, fleet.clone(), fleet, A);
    (r, game, rng)
}

fn salvo(
    game: &mut Game,
    rng: &mut StdRng,
    now: u64,
    shooter: SeatId,
    target: SeatId,
    at: Vec<Coord>,
) -> Result<Vec<Event>, ActionError> {
    game.apply(Action::Salvo(shooter, target, at), now, rng)
}

#[test]
fn a_salvo_reports_how_many_cells_hit_and_which_kinds_sank() {
    let (r, mut game, mut rng) = salvo_duel(3);
    let events = salvo(&mut game, &mut rng, 1, A, B, cells(&r, "а1 е1 в6")).unwrap();
    assert_eq!(
        events[0],
        Event::Salvo {
            shooter: A,
            target: B,
            shots: 3,
            hits: 2,
            mines: 0,
            sunk: vec![Kind::Ship(1)],
        }
    );
    assert_eq!(game.public_view().field(B).sunk, [Kind::Ship(1)]);
}

#[test]
fn a_salvo_report_names_no_cells() {
    let (r, mut game, mut rng) = salvo_duel(3);
    let shot = cells(&r, "а1 е1 в6");
    let events = salvo(&mut game, &mut rng, 1, A, B, shot.clone()).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Shot { .. })));
    let json = serde_json::to_string(&events).unwrap();
    for c in &shot {
        assert!(!json.contains(&c.latin()), "{} in {json}", c.latin());
    }
    assert!(!json.contains("cell"), "{json}");

    // The group and the shooter see which cells were shot, not what they held.
    for viewer in [None, Some(A)] {
        assert_eq!(marked(&game, viewer, B, Mark::Shot), shot);
        for mark in [Mark::Hit, Mark::Sunk, Mark::Miss, Mark::Halo] {
            assert!(marked(&game, viewer, B, mark).is_empty(), "{mark:?}");
        }
    }
    // The owner knows their own field.
    assert_eq!(marked(&game, Some(B), B, Mark::Hit), [shot[0]]);
    assert_eq!(marked(&game, Some(B), B, Mark::Sunk), [shot[1]]);
    assert_eq!(marked(&game, Some(B), B, Mark::Miss), [shot[2]]);
}

#[test]
fn a_salvo_always_passes_the_turn() {
    let (r, mut game, mut rng) = salvo_duel(3);
    let events = salvo(&mut game, &mut rng, 1, A, B, cells(&r, "а1 б1 в1")).unwrap();
    assert!(matches!(events[0], Event::Salvo { hits: 3, .. }));
    assert_eq!(events.last(), Some(&Event::Turn(B)));
    assert_eq!(game.turn(), B);
    let events = salvo(&mut game, &mut rng, 2, B, A, cells(&r, "е1 з1 к1")).unwrap();
    assert!(matches!(events[0], Event::Salvo { hits: 3, .. }));
    assert_eq!(game.turn(), A);
}

#[test]
fn a_salvo_must_have_exactly_n_distinct_unknown_cells() {
    let (r, mut game, mut rng) = salvo_duel(3);
    salvo(&mut game, &mut rng, 1, A, B, cells(&r, "а1 б1 в6")).unwrap();
    salvo(&mut game, &mut rng, 2, B, A, cells(&r, "а1 б1 в6")).unwrap();
    let off = Coord::new(10, 0);
    let wrong = [
        (cells(&r, "г1 д1"), ActionError::SalvoSize { expected: 3 }),
        (
            cells(&r, "г1 д1 е1 ж1"),
            ActionError::SalvoSize { expected: 3 },
        ),
        (
            cells(&r, "г1 г1 д1"),
            ActionError::SalvoSize { expected: 3 },
        ),
        (
            cells(&r, "г1 д1 а1"),
            ActionError::AlreadyKnown(cell(&r, "а1")),
        ),
        (
            vec![cell(&r, "г1"), cell(&r, "д1"), off],
            ActionError::OffField(off),
        ),
    ];
    for (at, error) in wrong {
        let before = game.clone();
        assert_eq!(salvo(&mut game, &mut rng, 3, A, B, at), Err(error));
        assert_eq!(game, before);
    }
    assert_eq!(
        fire(&mut game, &mut rng, 3, A, B, cell(&r, "г1")),
        Err(ActionError::WrongShotKind)
    );
    salvo(&mut game, &mut rng, 4, A, B, cells(&r, "г1 д1 е1")).unwrap();

    // And no salvo in a game of single shots.
    let (mut single, mut rng) = classic_duel();
    assert_eq!(
        salvo(&mut single, &mut rng, 1, A, B, cells(&r, "а1 б1 в1")),
        Err(ActionError::WrongShotKind)
    );
}

#[test]
fn a_salvo_game_marks_no_halo() {
    let (r, mut game, mut rng) = salvo_duel(3);
    let events = salvo(&mut game, &mut rng, 1, A, B, cells(&r, "е1 а10 б10")).unwrap();
    assert!(matches!(&events[0], Event::Salvo { sunk, .. } if sunk == &[Kind::Ship(1)]));
    assert!(marked(&game, Some(A), B, Mark::Halo).is_empty());
    salvo(&mut game, &mut rng, 2, B, A, cells(&r, "а10 б10 в10")).unwrap();
    // The cells around the sunk boat may still be shot.
    let events = salvo(&mut game, &mut rng, 3, A, B, cells(&r, "д1 ж1 е2")).unwrap();
    assert!(matches!(events[0], Event::Salvo { hits: 0, .. }));
}

#[test]
fn a_salvo_takes_n_cells_for_every_n_from_one_to_ten() {
    for n in [0, 11] {
        assert_eq!(
            salvo_rules(n).check(),
            Err(RulesetError::SalvoOutOfRange(n))
        );
    }
    for n in 1..=10 {
        let (r, mut game, mut rng) = salvo_duel(n);
        assert_eq!(r.check(), Ok(()));
        // Rows 6 to 9 are open water.
        let water: Vec<Coord> = r.size().cells().skip(50).take(usize::from(n) + 1).collect();
        assert_eq!(
            salvo(&mut game, &mut rng, 1, A, B, water.clone()),
            Err(ActionError::SalvoSize { expected: n })
        );
        let events = salvo(
            &mut game,
            &mut rng,
            1,
            A,
            B,
            water[..usize::from(n)].to_vec(),
        )
        .unwrap();
        assert!(matches!(events[0], Event::Salvo { shots, hits: 0, .. } if shots == n));
    }
}
