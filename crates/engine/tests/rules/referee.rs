//! docs/rules.md §4: the bot as referee — fleet commitments published at the start and checked at
//! the end, the turn timer, and surrender.

use crate::common::*;
use crate::players::{miss, table};
use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;

/// A classic duel of `fleet0` and `fleet1`, and the events of the last `Ready`.
fn begin(fleet0: Fleet, fleet1: Fleet) -> (Game, StdRng, Vec<Event>) {
    let mut rng = StdRng::seed_from_u64(5);
    let mut game = Game::new(Ruleset::default());
    game.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
    game.apply(Action::Join(PlayerId(2)), 0, &mut rng).unwrap();
    game.apply(Action::Start, 0, &mut rng).unwrap();
    game.apply(Action::Ready(A, fleet0), 0, &mut rng).unwrap();
    let events = game.apply(Action::Ready(B, fleet1), 0, &mut rng).unwrap();
    (game, rng, events)
}

fn commitments(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .find_map(|e| match e {
            Event::BattleBegan { commitments, .. } => Some(commitments.clone()),
            _ => None,
        })
        .expect("the battle began")
}

fn timed(timer: TurnTimer) -> (Game, StdRng) {
    let r = Ruleset {
        timer,
        ..Ruleset::default()
    };
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    duel_where_first(&r, fleet.clone(), fleet, A)
}

#[test]
fn the_commitment_published_at_the_start_verifies_against_the_reveal() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let (mut game, mut rng, events) = begin(fleet.clone(), fleet);
    let published = commitments(&events);
    assert_eq!(published.len(), 2);
    for seat in [A, B] {
        assert_eq!(
            game.commitment(seat).as_ref(),
            Some(&published[seat.index()])
        );
        assert_eq!(game.reveal(seat), None, "revealed before the end");
    }
    let shooter = game.turn();
    fire(
        &mut game,
        &mut rng,
        1,
        shooter,
        SeatId(1 - shooter.0),
        cell(&r, "а1"),
    )
    .unwrap();
    game.apply(Action::Surrender(shooter), 2, &mut rng).unwrap();
    for seat in [A, B] {
        let (text, salt) = game.reveal(seat).expect("revealed at the end");
        assert_eq!(text, commit::canonical_text(game.fleet(seat).unwrap()));
        assert!(commit::verify(&published[seat.index()], &text, &salt));
    }
}

#[test]
fn a_new_games_reveal_leaves_out_the_empty_mines_and_verifies() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let (mut game, mut rng, events) = begin(fleet.clone(), fleet);
    assert_eq!(game.v, SCHEMA_VERSION);
    let published = commitments(&events);
    game.apply(Action::Surrender(A), 1, &mut rng).unwrap();
    for seat in [A, B] {
        let (text, salt) = game.reveal(seat).unwrap();
        assert!(text.starts_with("ships="), "{text}");
        assert!(!text.contains("mines="), "{text}");
        assert_eq!(text, commit::canonical_text(game.fleet(seat).unwrap()));
        assert!(commit::verify(&published[seat.index()], &text, &salt));
    }
}

#[test]
fn a_game_stored_before_the_compact_texts_reveals_its_old_text_and_verifies() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let mut rng = StdRng::seed_from_u64(5);
    let mut game = Game::new(r.clone());
    for p in [1, 2] {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    game.apply(Action::Ready(A, fleet.clone()), 0, &mut rng)
        .unwrap();
    // As a game of schema 1 was stored, in the middle of placement.
    let mut stored = serde_json::to_value(&game).unwrap();
    stored["v"] = 1.into();
    let mut game: Game = serde_json::from_value(stored).unwrap();
    let events = game.apply(Action::Ready(B, fleet), 0, &mut rng).unwrap();
    let published = commitments(&events);
    // Stored again in the battle and read back by a newer bot.
    let mut game: Game = serde_json::from_str(&serde_json::to_string(&game).unwrap()).unwrap();
    assert_eq!(game.v, 1);
    game.apply(Action::Surrender(A), 1, &mut rng).unwrap();
    for seat in [A, B] {
        let (text, salt) = game.reveal(seat).unwrap();
        assert!(text.contains(";mines="), "{text}");
        assert_eq!(text, commit::canonical_text_v1(game.fleet(seat).unwrap()));
        assert!(commit::verify(&published[seat.index()], &text, &salt));
        let compact = commit::canonical_text(game.fleet(seat).unwrap());
        assert!(!commit::verify(&published[seat.index()], &compact, &salt));
    }
}

#[test]
fn a_reveal_names_the_mines_when_there_are_some() {
    let r = Ruleset {
        mines: 1,
        ..Ruleset::default()
    };
    let mut rng = StdRng::seed_from_u64(8);
    let fleet = random_fleet(&r, &mut rng).unwrap();
    let text = commit::canonical_text(&fleet);
    assert_eq!(text.matches(";mines=").count(), 1, "{text}");
    assert!(!text.ends_with("mines="), "{text}");
    assert_eq!(text, commit::canonical_text_v1(&fleet));
}

#[test]
fn a_changed_layout_does_not_verify() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let (mut game, mut rng, events) = begin(fleet.clone(), fleet);
    let published = commitments(&events);
    game.apply(Action::Surrender(A), 1, &mut rng).unwrap();
    let (text, salt) = game.reveal(B).unwrap();
    assert!(commit::verify(&published[1], &text, &salt));

    // The boat of к10 moved to а10.
    let moved = fleet_from_picture(&r, &with_row(CLASSIC_FLEET, 10, "#........."));
    let other = commit::canonical_text(&moved);
    assert_ne!(other, text);
    assert!(!commit::verify(&published[1], &other, &salt));
    // The right layout with another salt, or another seat's commitment.
    let (_, salt_a) = game.reveal(A).unwrap();
    assert!(!commit::verify(&published[1], &text, &salt_a));
    assert!(!commit::verify(&published[0], &text, &salt));
}

#[test]
fn equal_fleets_get_different_commitments() {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    let (mut game, mut rng, events) = begin(fleet.clone(), fleet);
    let published = commitments(&events);
    assert_ne!(published[0], published[1]);
    game.apply(Action::Surrender(A), 1, &mut rng).unwrap();
    assert_eq!(game.reveal(A).unwrap().0, game.reveal(B).unwrap().0);
}

#[test]
fn the_turn_timer_reminds_at_half_time_and_forfeits_at_the_end() {
    let (mut game, mut rng) = timed(TurnTimer::OneMinute);
    assert_eq!(game.next_deadline(), Some(30));
    assert_eq!(game.apply(Action::Tick, 29, &mut rng), Ok(vec![]));
    assert_eq!(
        game.apply(Action::Tick, 30, &mut rng),
        Ok(vec![Event::Reminder(A)])
    );
    assert_eq!(game.next_deadline(), Some(60));
    assert_eq!(game.apply(Action::Tick, 31, &mut rng), Ok(vec![]));
    assert_eq!(game.apply(Action::Tick, 59, &mut rng), Ok(vec![]));
    assert_eq!(
        game.apply(Action::Tick, 60, &mut rng),
        Ok(vec![
            Event::Forfeit(A),
            Event::Finished {
                winners: vec![B],
                reason: EndReason::Retired
            }
        ])
    );
    assert!(game.is_finished());
}

#[test]
fn the_turn_timer_is_off_or_one_three_or_ten_minutes() {
    assert_eq!(TurnTimer::default(), TurnTimer::ThreeMinutes);
    let half = [
        (TurnTimer::OneMinute, 30),
        (TurnTimer::ThreeMinutes, 90),
        (TurnTimer::TenMinutes, 300),
    ];
    for (timer, half) in half {
        let (mut game, mut rng) = timed(timer);
        assert_eq!(game.next_deadline(), Some(half));
        assert_eq!(game.apply(Action::Tick, half - 1, &mut rng), Ok(vec![]));
        assert_eq!(
            game.apply(Action::Tick, half, &mut rng),
            Ok(vec![Event::Reminder(A)])
        );
        assert_eq!(game.next_deadline(), Some(2 * half));
    }
    let (mut game, mut rng) = timed(TurnTimer::Off);
    assert_eq!(game.next_deadline(), None);
    assert_eq!(game.apply(Action::Tick, 1_000_000, &mut rng), Ok(vec![]));
    assert_eq!(game.phase(), &Phase::Battle);
}

#[test]
fn each_move_restarts_the_turn_timer() {
    let r = Ruleset::default();
    let (mut game, mut rng) = timed(TurnTimer::OneMinute);
    fire(&mut game, &mut rng, 50, A, B, cell(&r, "а1")).unwrap();
    assert_eq!(game.next_deadline(), Some(80));
    assert_eq!(game.apply(Action::Tick, 60, &mut rng), Ok(vec![]));
    fire(&mut game, &mut rng, 70, A, B, cell(&r, "в6")).unwrap();
    assert_eq!(game.turn(), B);
    assert_eq!(game.next_deadline(), Some(100));
    assert_eq!(
        game.apply(Action::Tick, 129, &mut rng),
        Ok(vec![Event::Reminder(B)])
    );
    let events = game.apply(Action::Tick, 130, &mut rng).unwrap();
    assert_eq!(events[0], Event::Forfeit(B));
    assert_eq!(finished(&events), Some((vec![A], EndReason::Retired)));
}

#[test]
fn a_forfeit_in_free_for_all_drops_only_that_player() {
    let (_, mut game, mut rng) = table(Players::FreeForAll(3));
    let (b, c) = (SeatId(1), SeatId(2));
    assert_eq!(
        game.apply(Action::Tick, 180, &mut rng),
        Ok(vec![Event::Forfeit(A), Event::Turn(b)])
    );
    assert!(game.public_view().field(A).retired);
    assert_eq!(game.targets(b), [c]);
    miss(&mut game, &mut rng, b, c);
    assert_eq!(game.turn(), c);
}

#[test]
fn surrender_ends_a_duel_for_the_other_player() {
    let r = Ruleset::default();
    for (who, winner) in [(B, A), (A, B)] {
        let (mut game, mut rng) = classic_duel();
        assert_eq!(game.turn(), A);
        let events = game.apply(Action::Surrender(who), 5, &mut rng).unwrap();
        assert_eq!(
            events,
            [
                Event::Surrendered(who),
                Event::Finished {
                    winners: vec![winner],
                    reason: EndReason::Retired
                }
            ]
        );
        assert!(game.is_finished());
        assert_eq!(
            fire(&mut game, &mut rng, 6, A, B, cell(&r, "а1")),
            Err(ActionError::GameOver)
        );
    }
    let mut rng = StdRng::seed_from_u64(1);
    let mut lobby = Game::new(r);
    lobby.apply(Action::Join(PlayerId(1)), 0, &mut rng).unwrap();
    assert_eq!(
        lobby.apply(Action::Surrender(A), 0, &mut rng),
        Err(ActionError::WrongPhase)
    );
}

#[test]
fn surrender_in_free_for_all_or_teams_ends_the_game_for_that_player_only() {
    let (_, mut game, mut rng) = table(Players::FreeForAll(3));
    let events = game.apply(Action::Surrender(A), 1, &mut rng).unwrap();
    assert_eq!(events, [Event::Surrendered(A), Event::Turn(SeatId(1))]);
    assert_eq!(game.targets(SeatId(1)), [SeatId(2)]);
    assert_eq!(
        game.apply(Action::Surrender(A), 2, &mut rng),
        Err(ActionError::NotInGame)
    );

    // In teams the teammate plays on, and the turn order skips the one who left.
    let (_, mut game, mut rng) = table(Players::Teams);
    game.apply(Action::Surrender(A), 1, &mut rng).unwrap();
    assert!(!game.is_finished());
    let mut order = vec![game.turn()];
    for _ in 0..3 {
        let shooter = game.turn();
        let target = game.targets(shooter)[0];
        miss(&mut game, &mut rng, shooter, target);
        order.push(game.turn());
    }
    assert_eq!(order, [1, 2, 3, 1].map(SeatId));
}
