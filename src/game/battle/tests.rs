use super::*;
use crate::game::delivery::Effect;
use crate::game::record::{ai_player, AiSalvo};
use engine::{random_fleet, Game, Players, Ruleset};
use rand::SeedableRng;

/// Sea Battle's part of a Sea Battle record.
fn sea_of(rec: &GameRecord) -> &SeaBattle {
    match &rec.play {
        Play::SeaBattle(sb) => sb,
        Play::Riga(_) => panic!("a Riga record"),
    }
}

/// A game of `ruleset` whose battle has begun (its opening effects sent), between
/// `players` (the bot where `true`), placed at random.
fn battle(ruleset: Ruleset, bots: &[bool]) -> GameRecord {
    let mut rng = StdRng::seed_from_u64(7);
    let mut game = Game::new(ruleset.clone());
    for (i, &bot) in bots.iter().enumerate() {
        let p = if bot {
            ai_player(i as u8)
        } else {
            PlayerId(100 + i as u64)
        };
        game.apply(Action::Join(p), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    for s in 0..bots.len() as u8 {
        let fleet = random_fleet(&ruleset, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    let mut rec = GameRecord::new(game, -1, 0);
    rec.derive_effects();
    rec.delivery.outbox.clear();
    rec
}

/// A cell of `target`'s field not shot yet: a ship's (`hit`) or the water's.
fn cell(rec: &GameRecord, target: SeatId, hit: bool) -> Coord {
    let fleet = rec.game.fleet(target).unwrap();
    let ships: Vec<Coord> = fleet.ship_cells().collect();
    rec.game
        .ruleset()
        .size()
        .cells()
        .find(|c| ships.contains(c) == hit && !rec.game.is_known(target, *c))
        .unwrap()
}

/// The seats whose own field these effects redraw, in order.
fn own_fields(rec: &GameRecord) -> Vec<u8> {
    rec.delivery
        .outbox
        .iter()
        .filter_map(|o| match o.effect {
            Effect::Dm { seat } => Some(seat),
            _ => None,
        })
        .collect()
}

/// `action` played as the store plays it (the state's own effects after it); the own
/// fields it queued (and the outbox emptied, as a sender would).
fn queued(rec: &mut GameRecord, action: Action) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(1);
    play(rec, action, 0, &mut rng).unwrap();
    rec.derive_effects();
    let seats = own_fields(rec);
    rec.delivery.outbox.clear();
    seats
}

/// A single shot of the player whose turn it is at `target`.
fn shot(rec: &mut GameRecord, target: u8, hit: bool) -> Vec<u8> {
    let shooter = rec.game.turn();
    let c = cell(rec, SeatId(target), hit);
    queued(rec, Action::Fire(shooter, SeatId(target), c))
}

#[test]
fn a_turn_of_three_hits_and_a_miss_redraws_the_targets_own_field_once_when_the_turn_passes() {
    let mut rec = battle(Ruleset::default(), &[false, false]);
    assert_eq!(rec.game.turn(), SeatId(0), "seat 0 begins (seeded)");
    for _ in 0..3 {
        assert_eq!(
            shot(&mut rec, 1, true),
            Vec::<u8>::new(),
            "a hit redraws nothing"
        );
    }
    assert_eq!(
        shot(&mut rec, 1, false),
        vec![1],
        "the miss passes the turn"
    );
    // The shooter's own field, not shot at, is not redrawn when the turn leaves it; it
    // is when the turn comes back after the enemy's shots.
    assert_eq!(shot(&mut rec, 0, true), Vec::<u8>::new());
    assert_eq!(shot(&mut rec, 0, false), vec![0]);
    // A turn of a miss alone: the miss is on the battle message, and waits for the
    // field's next redraw.
    assert_eq!(shot(&mut rec, 1, false), Vec::<u8>::new());
    assert_eq!(shot(&mut rec, 0, true), Vec::<u8>::new());
    assert_eq!(shot(&mut rec, 0, false), vec![0]);
    // Stored and read back, nothing is behind (both were just queued).
    let stored: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    assert!(sea_of(&stored).fields_behind.is_empty());
}

#[test]
fn a_field_shot_at_is_kept_behind_through_storage_until_its_turn() {
    let mut rec = battle(Ruleset::default(), &[false, false]);
    assert_eq!(rec.game.turn(), SeatId(0), "seat 0 begins (seeded)");
    shot(&mut rec, 1, true);
    let stored: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    assert_eq!(sea_of(&stored).fields_behind, vec![1]);
    rec = stored;
    assert_eq!(shot(&mut rec, 1, false), vec![1]);
}

#[test]
fn the_end_redraws_every_own_field_once() {
    let mut rec = battle(Ruleset::default(), &[false, false]);
    // Seat 0 sinks every ship of seat 1 but the last cell, missing in between; seat 1
    // misses every time.
    let cells = rec.game.fleet(SeatId(1)).unwrap().ship_cells().count();
    for _ in 0..cells - 1 {
        shot(&mut rec, 1, true);
    }
    let mut rng = StdRng::seed_from_u64(1);
    let last = cell(&rec, SeatId(1), true);
    play(
        &mut rec,
        Action::Fire(SeatId(0), SeatId(1), last),
        0,
        &mut rng,
    )
    .unwrap();
    rec.derive_effects();
    rec.derive_effects();
    assert!(rec.game.is_finished());
    assert_eq!(own_fields(&rec), vec![0, 1], "each once, the winner's too");
}

#[test]
fn a_salvo_redraws_the_targets_own_field_once_when_the_turn_passes() {
    let ruleset = Ruleset {
        salvo: Some(3),
        ..Ruleset::default()
    };
    let mut rec = battle(ruleset, &[false, false]);
    let first = rec.game.turn();
    let other = SeatId(1 - first.0);
    let size = rec.game.ruleset().size();
    let ships: Vec<Coord> = rec.game.fleet(other).unwrap().ship_cells().collect();
    let water: Vec<Coord> = size.cells().filter(|c| !ships.contains(c)).collect();
    // Three misses: nothing of the fleet changed.
    let seats = queued(&mut rec, Action::Salvo(first, other, water[..3].to_vec()));
    assert_eq!(seats, Vec::<u8>::new());
    // A salvo back, then one with a hit: the field it struck, once.
    let back: Vec<Coord> = size.cells().take(3).collect();
    queued(&mut rec, Action::Salvo(other, first, back));
    let cells = vec![ships[0], water[3], water[4]];
    let seats = queued(&mut rec, Action::Salvo(first, other, cells));
    assert_eq!(seats, vec![other.0]);
}

#[test]
fn in_a_free_for_all_a_field_waits_for_its_own_turn() {
    let ruleset = Ruleset {
        players: Players::FreeForAll(3),
        ..Ruleset::default()
    };
    let mut rec = battle(ruleset, &[false, false, false]);
    // The seats in turn order from the first.
    let first = rec.game.turn().0;
    let [a, b, c] = [0, 1, 2].map(|k| (first + k) % 3);
    // a hits c, then misses at c: the turn goes to b, whose field nobody struck.
    assert_eq!(shot(&mut rec, c, true), Vec::<u8>::new());
    assert_eq!(shot(&mut rec, c, false), Vec::<u8>::new());
    assert_eq!(sea_of(&rec).fields_behind, vec![c]);
    // b misses at a: the turn goes to c, struck before.
    assert_eq!(shot(&mut rec, a, false), vec![c]);
    // c hits b, then misses at b: the turn goes to a, whose field only a miss reached;
    // b waits for its turn.
    assert_eq!(shot(&mut rec, b, true), Vec::<u8>::new());
    assert_eq!(shot(&mut rec, b, false), Vec::<u8>::new());
    assert_eq!(sea_of(&rec).fields_behind, vec![b]);
    assert_eq!(shot(&mut rec, c, false), vec![b]);
}

#[test]
fn in_teams_a_field_struck_is_behind_for_the_teammate_who_sees_it_too() {
    let ruleset = Ruleset {
        players: Players::Teams,
        ..Ruleset::default()
    };
    let mut rec = battle(ruleset, &[false, false, false, false]);
    // The seats in turn order from the first: a and c against b and d.
    let first = rec.game.turn().0;
    let [a, b, c, d] = [0, 1, 2, 3].map(|k| (first + k) % 4);
    let sorted = |mut v: Vec<u8>| {
        v.sort_unstable();
        v
    };
    shot(&mut rec, b, true);
    assert_eq!(shot(&mut rec, b, false), vec![b]);
    assert_eq!(sea_of(&rec).fields_behind, vec![d]);
    shot(&mut rec, a, true);
    assert_eq!(
        shot(&mut rec, a, false),
        vec![c],
        "c sees its teammate's field"
    );
    assert_eq!(sea_of(&rec).fields_behind, sorted(vec![a, d]));
    shot(&mut rec, d, true);
    assert_eq!(shot(&mut rec, d, false), vec![d]);
    // d's own field shows b's too, which a struck: b waits for its turn, as a does.
    assert_eq!(sea_of(&rec).fields_behind, sorted(vec![a, b]));
}

#[test]
fn a_cell_given_up_after_a_mine_is_shown_on_the_own_field_at_once() {
    let ruleset = Ruleset {
        mines: 1,
        ..Ruleset::default()
    };
    let mut rec = battle(ruleset, &[false, false]);
    let shooter = rec.game.turn();
    let target = SeatId(1 - shooter.0);
    let mine = rec.game.fleet(target).unwrap().mines()[0];
    // The mine struck is the target's: its field is behind; the shooter is asked.
    queued(&mut rec, Action::Fire(shooter, target, mine));
    assert!(sea_of(&rec).fields_behind.contains(&target.0));
    let own = rec
        .game
        .fleet(shooter)
        .unwrap()
        .ship_cells()
        .next()
        .unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    play(&mut rec, Action::GiveUp(shooter, own), 0, &mut rng).unwrap();
    // The giver's own field at once; then the turn passes to the target, whose mine
    // went off.
    assert_eq!(own_fields(&rec), vec![shooter.0, target.0]);
    assert!(rec
        .delivery
        .outbox
        .iter()
        .any(|o| matches!(o.effect, Effect::Mine { .. })));
}

#[test]
fn a_player_may_ask_for_their_own_field_in_the_battle_only() {
    let mut rec = battle(Ruleset::default(), &[false, false]);
    let player = rec.game.seats()[1].player;
    shot(&mut rec, 1, true);
    assert_eq!(refresh_own_field(&mut rec, player), Ok(()));
    assert_eq!(own_fields(&rec), vec![1]);
    assert!(sea_of(&rec).fields_behind.is_empty(), "no longer behind");
    assert_eq!(
        refresh_own_field(&mut rec, PlayerId(1)),
        Err(Refused::NotAPlayer)
    );
    let mut rng = StdRng::seed_from_u64(1);
    play(&mut rec, Action::Surrender(SeatId(0)), 0, &mut rng).unwrap();
    assert_eq!(refresh_own_field(&mut rec, player), Err(Refused::GameOver));
}

#[test]
fn the_bots_seat_has_no_own_field_to_redraw() {
    let mut rec = battle(Ruleset::default(), &[false, true]);
    assert_eq!(rec.game.turn(), SeatId(0), "the player begins (seeded)");
    shot(&mut rec, 1, true);
    assert_eq!(shot(&mut rec, 1, false), Vec::<u8>::new());
    assert!(sea_of(&rec).fields_behind.is_empty());
    // The bot's turn of hits and a miss: the player's field when the turn comes back.
    assert_eq!(shot(&mut rec, 0, true), Vec::<u8>::new());
    assert_eq!(shot(&mut rec, 0, false), vec![0]);
}

#[test]
fn the_bots_salvoes_and_their_answers_are_kept_for_its_next_aim() {
    let ruleset = Ruleset {
        salvo: Some(3),
        ..Ruleset::default()
    };
    let mut rec = GameRecord::new(Game::new(ruleset), 1, 0);
    let cells = vec![Coord::new(0, 0), Coord::new(1, 0), Coord::new(2, 0)];
    let salvo = Action::Salvo(SeatId(1), SeatId(0), cells.clone());
    let told = Event::Salvo {
        shooter: SeatId(1),
        target: SeatId(0),
        shots: 3,
        hits: 1,
        mines: 0,
        sunk: Vec::new(),
    };
    remember_salvo(&mut rec, &salvo, &[Event::Turn(SeatId(0)), told]);
    let kept = AiSalvo {
        seat: 1,
        target: 0,
        cells,
        hits: 1,
        mines: 0,
    };
    assert_eq!(sea_of(&rec).ai_salvos, vec![kept]);
    // A single shot is no salvo; the record keeps what it had, through storage too.
    remember_salvo(
        &mut rec,
        &Action::Fire(SeatId(1), SeatId(0), Coord::new(5, 5)),
        &[],
    );
    let stored: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    assert_eq!(sea_of(&stored).ai_salvos.len(), 1);
}
