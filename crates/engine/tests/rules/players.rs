//! docs/rules.md §3.6: duel (everywhere else), free-for-all of 3 or 4, and teams of 2 against 2.
//!
//! Every player has the same small fleet on a 5×5 field, a destroyer on а1–б1 and a boat on
//! д3, so a fleet sinks in three shots.

use crate::common::*;
use rand::rngs::StdRng;
use seabattle_engine::*;

const SMALL: &str = "
    ##...
    .....
    ....#
    .....
    .....
";

/// A table of `players` where seat 0 shoots first.
pub fn table(players: Players) -> (Ruleset, Game, StdRng) {
    let r = Ruleset {
        field: Field::Custom {
            size: Size::new(5, 5),
            ships: vec![2, 1],
        },
        players,
        ..Ruleset::default()
    };
    let fleet = fleet_from_picture(&r, SMALL);
    let (game, rng) = game_where_first(&r, vec![fleet; players.seats()], A);
    (r, game, rng)
}

/// `shooter` sinks the whole fleet of `target`; the events of the last shot.
fn sink(
    r: &Ruleset,
    game: &mut Game,
    rng: &mut StdRng,
    shooter: SeatId,
    target: SeatId,
) -> Vec<Event> {
    let mut last = Vec::new();
    for c in cells(r, "а1 б1 д3") {
        last = fire(game, rng, 1, shooter, target, c).unwrap();
    }
    last
}

/// `shooter` misses `target`, on the first cell of its field that is open water not shot yet.
pub fn miss(game: &mut Game, rng: &mut StdRng, shooter: SeatId, target: SeatId) {
    let water = Size::new(5, 5)
        .cells()
        .find(|&c| game.fleet(target).unwrap().ship_at(c).is_none() && !game.is_known(target, c))
        .unwrap();
    let events = fire(game, rng, 1, shooter, target, water).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Miss);
}

#[test]
fn in_free_for_all_every_shot_picks_its_opponent_and_a_hit_shoots_again_at_any() {
    let (r, mut game, mut rng) = table(Players::FreeForAll(3));
    assert_eq!(game.targets(A), [SeatId(1), SeatId(2)]);
    let events = fire(&mut game, &mut rng, 1, A, SeatId(1), cell(&r, "а1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Hit);
    let events = fire(&mut game, &mut rng, 1, A, SeatId(2), cell(&r, "а1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Hit);
    assert_eq!(game.turn(), A);
    assert_eq!(
        fire(&mut game, &mut rng, 1, A, A, cell(&r, "в3")),
        Err(ActionError::BadTarget)
    );
    assert_eq!(marked(&game, None, SeatId(1), Mark::Hit), [cell(&r, "а1")]);
    assert_eq!(marked(&game, None, SeatId(2), Mark::Hit), [cell(&r, "а1")]);
}

#[test]
fn in_free_for_all_the_turn_goes_round_three_or_four_players() {
    for n in [3, 4] {
        let (_, mut game, mut rng) = table(Players::FreeForAll(n));
        for k in 1..=usize::from(n) {
            let shooter = game.turn();
            miss(&mut game, &mut rng, shooter, SeatId((shooter.0 + 1) % n));
            assert_eq!(game.turn(), SeatId((k % usize::from(n)) as u8));
        }
    }
    for n in [2, 5] {
        let r = Ruleset {
            players: Players::FreeForAll(n),
            ..Ruleset::default()
        };
        assert_eq!(r.check(), Err(RulesetError::PlayersOutOfRange(n)));
    }
}

#[test]
fn in_free_for_all_a_sunk_player_drops_out_and_is_skipped() {
    let (r, mut game, mut rng) = table(Players::FreeForAll(3));
    let (b, c) = (SeatId(1), SeatId(2));
    let events = sink(&r, &mut game, &mut rng, A, b);
    assert!(events.contains(&Event::Eliminated(b)));
    assert_eq!(finished(&events), None);
    assert!(!game.public_view().field(b).afloat);
    assert_eq!(game.targets(A), [c]);
    assert_eq!(game.targets(c), [A]);
    assert_eq!(
        fire(&mut game, &mut rng, 1, A, b, cell(&r, "в3")),
        Err(ActionError::BadTarget)
    );
    miss(&mut game, &mut rng, A, c);
    assert_eq!(game.turn(), c);
    miss(&mut game, &mut rng, c, A);
    assert_eq!(game.turn(), A);
}

#[test]
fn the_last_fleet_afloat_wins_free_for_all() {
    let (r, mut game, mut rng) = table(Players::FreeForAll(4));
    for target in [1, 2] {
        let events = sink(&r, &mut game, &mut rng, A, SeatId(target));
        assert_eq!(finished(&events), None);
    }
    let events = sink(&r, &mut game, &mut rng, A, SeatId(3));
    assert_eq!(finished(&events), Some((vec![A], EndReason::Sunk)));
}

#[test]
fn teams_take_turns_a1_b1_a2_b2() {
    let (_, mut game, mut rng) = table(Players::Teams);
    let mut order = vec![game.turn()];
    for _ in 0..4 {
        let shooter = game.turn();
        miss(&mut game, &mut rng, shooter, SeatId((shooter.0 + 1) % 4));
        order.push(game.turn());
    }
    // Seats 0 and 2 are team A, seats 1 and 3 team B.
    assert_eq!(order, [0, 1, 2, 3, 0].map(SeatId));
}

#[test]
fn in_teams_shots_go_at_either_field_of_the_other_team() {
    let (r, mut game, mut rng) = table(Players::Teams);
    assert_eq!(game.targets(A), [SeatId(1), SeatId(3)]);
    assert_eq!(
        fire(&mut game, &mut rng, 1, A, SeatId(2), cell(&r, "а1")),
        Err(ActionError::BadTarget)
    );
    for target in [1, 3] {
        let events = fire(&mut game, &mut rng, 1, A, SeatId(target), cell(&r, "а1")).unwrap();
        assert_eq!(shot_result(&events), ShotResult::Hit);
    }
}

#[test]
fn teammates_see_each_others_fields() {
    let (_, game, _) = table(Players::Teams);
    for (viewer, mate) in [(0, 2), (2, 0), (1, 3), (3, 1)] {
        let (viewer, mate) = (SeatId(viewer), SeatId(mate));
        assert!(game.view_for(viewer).field(mate).full);
        assert_eq!(marked(&game, Some(viewer), mate, Mark::Ship).len(), 3);
        for enemy in game.targets(viewer) {
            assert!(!game.view_for(viewer).field(enemy).full);
            assert!(marked(&game, Some(viewer), enemy, Mark::Ship).is_empty());
        }
    }
    assert!(game.public_view().fields.iter().all(|f| !f.full));
}

#[test]
fn in_teams_a_sunk_player_keeps_shooting_for_the_team() {
    let (r, mut game, mut rng) = table(Players::Teams);
    let (b1, b2) = (SeatId(1), SeatId(3));
    let events = sink(&r, &mut game, &mut rng, A, b1);
    assert!(events.contains(&Event::Eliminated(b1)));
    assert_eq!(finished(&events), None);
    assert_eq!(game.targets(A), [b2]);
    miss(&mut game, &mut rng, A, b2);
    assert_eq!(game.turn(), b1);
    let events = fire(&mut game, &mut rng, 1, b1, A, cell(&r, "а1")).unwrap();
    assert_eq!(shot_result(&events), ShotResult::Hit);
    assert_eq!(game.turn(), b1);
}

#[test]
fn a_team_loses_when_both_fleets_are_sunk() {
    let (r, mut game, mut rng) = table(Players::Teams);
    let events = sink(&r, &mut game, &mut rng, A, SeatId(1));
    assert_eq!(finished(&events), None);
    let events = sink(&r, &mut game, &mut rng, A, SeatId(3));
    assert_eq!(
        finished(&events),
        Some((vec![SeatId(0), SeatId(2)], EndReason::Sunk))
    );
}
