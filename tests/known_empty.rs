//! The board and the keyboard agree on what is known empty: over many random positions in
//! several rulesets, the cells the battle's text board draws as `-` are exactly the cells a
//! press of the battle message refuses as already known without a shot there (a sunk ship's
//! halo, and where ships never touch the corners of a hit). Both come from the engine's
//! `Game::known_empty`; these tests would catch a second rule creeping back into either.

use engine::{
    random_fleet, Action, ActionError, Coord, Field, Game, Mark, PlayerId, Players, Ruleset,
    SeatId, Shapes, Size, Touching, Weapon,
};
use morskoy_boy::game::battle::press_cell;
use morskoy_boy::game::lang::Lang;
use morskoy_boy::game::record::GameRecord;
use morskoy_boy::game::Refused;
use morskoy_boy::view::refusal;
use morskoy_boy::view::render::{field_text, symbol};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// A game of `ruleset` in its battle, every fleet placed at random; seat `s` is player
/// `s + 1`.
fn record(ruleset: &Ruleset, seed: u64) -> (GameRecord, StdRng) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(ruleset.clone());
    for p in 0..ruleset.seats() as u64 {
        game.apply(Action::Join(PlayerId(p + 1)), 0, &mut rng)
            .unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    for s in 0..ruleset.seats() as u8 {
        let fleet = random_fleet(ruleset, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    let mut rec = GameRecord::new(game, -1, 0);
    rec.delivery.begun = true;
    (rec, rng)
}

/// One move of random play: a cell given up after a mine, a salvo, now and then a radar or
/// an air strike, else a shot at a random cell not known yet.
fn step(rec: &mut GameRecord, rng: &mut StdRng) {
    let game = &rec.game;
    let size = game.ruleset().size();
    let action = if let Some(m) = game.mine_choice() {
        let fleet = game.fleet(m.seat).unwrap();
        let cell = fleet
            .ship_cells()
            .find(|&c| !game.is_known(m.seat, c))
            .unwrap();
        Action::GiveUp(m.seat, cell)
    } else {
        let shooter = game.turn();
        let targets = game.targets(shooter);
        let target = targets[rng.gen_range(0..targets.len())];
        let mut unknown: Vec<Coord> = size
            .cells()
            .filter(|&c| !game.is_known(target, c))
            .collect();
        let left = game.weapons_left(shooter);
        match rec.salvo_size(target) {
            Some(n) => {
                let mut cells = Vec::new();
                for _ in 0..n {
                    cells.push(unknown.swap_remove(rng.gen_range(0..unknown.len())));
                }
                Action::Salvo(shooter, target, cells)
            }
            None => {
                let c = unknown[rng.gen_range(0..unknown.len())];
                if left[Weapon::Radar.index()] > 0 && rng.gen_bool(0.1) {
                    Action::Radar(shooter, target, c)
                } else if left[Weapon::AirStrike.index()] > 0 && rng.gen_bool(0.1) {
                    Action::AirStrike(shooter, target, c)
                } else {
                    Action::Fire(shooter, target, c)
                }
            }
        }
    };
    let events = rec.game.apply(action, 0, rng).unwrap();
    rec.push_log(&events);
}

/// The cells a text board draws with `ch`, read off its rows (a row's number, then one
/// character a cell).
fn drawn(text: &str, size: Size, ch: char) -> BTreeSet<Coord> {
    let mut cells = BTreeSet::new();
    for (y, line) in text.lines().skip(1).enumerate() {
        let row: Vec<&str> = line.split_whitespace().skip(1).collect();
        assert_eq!(row.len(), usize::from(size.width), "{text}");
        for (x, cell) in row.iter().enumerate() {
            if cell.chars().eq([ch]) {
                cells.insert(Coord::new(x as u8, y as u8));
            }
        }
    }
    cells
}

/// The cells of `target`'s field whose press by the seat to move is refused as already
/// known; each refusal leaves the record as it was.
fn refused_as_known(rec: &GameRecord, target: SeatId, rng: &mut StdRng) -> BTreeSet<Coord> {
    let shooter = rec.game.turn();
    let player = PlayerId(u64::from(shooter.0) + 1);
    let size = rec.game.ruleset().size();
    let mut cells = BTreeSet::new();
    for c in size.cells() {
        let mut r = rec.clone();
        let index = size.index(c) as u16;
        let generation = rec.delivery.generation;
        match press_cell(&mut r, player, generation, target.0, index, None, 0, rng) {
            Err(Refused::Rules(ActionError::AlreadyKnown(at))) => {
                assert_eq!(at, c);
                assert_eq!(&r, rec, "a refused press changed the record");
                cells.insert(c);
            }
            Err(other) => panic!("a press at {c:?} refused for {other:?}"),
            Ok(_) => {}
        }
    }
    cells
}

/// What a random game of `ruleset` showed, position after position: the board's `-` and the
/// presses refused as known are compared at every one. Returns how many `-` were drawn with
/// no sunk ship beside them (a hit's corners, a radar's or torpedo's empty cells).
fn board_and_presses_agree(ruleset: &Ruleset, seed: u64) -> usize {
    let (mut rec, mut rng) = record(ruleset, seed);
    let size = ruleset.size();
    let shot: String = [Mark::Miss, Mark::Hit, Mark::Sunk, Mark::Shot, Mark::Mine]
        .map(symbol)
        .into_iter()
        .collect();
    let mut apart = 0;
    let mut positions = 0;
    while !rec.game.is_finished() {
        positions += 1;
        assert!(positions < 2000, "the game does not end");
        if rec.game.mine_choice().is_none() && positions % 3 == 0 {
            let view = rec.game.public_view();
            // A cell's button fires at the field aimed at (the first, unless another was
            // chosen), the one the keyboard shows.
            if let Some(aim) = rec.current_aim() {
                let target = aim.target;
                let field = view.field(target);
                let text = field_text(field, rec.alphabet);
                let empty = drawn(&text, size, '-');
                let mut shot_at = BTreeSet::new();
                for ch in shot.chars() {
                    shot_at.extend(drawn(&text, size, ch));
                }
                let refused = refused_as_known(&rec, target, &mut rng);
                let refused_unshot: BTreeSet<Coord> =
                    refused.difference(&shot_at).copied().collect();
                assert_eq!(
                    empty, refused_unshot,
                    "{ruleset}, seed {seed}: the board's \"-\" and the refused presses differ\n{text}"
                );
                assert!(shot_at.is_subset(&refused), "{ruleset}: a shot cell taken");
                apart += empty
                    .iter()
                    .filter(|c| !c.around(size).any(|d| field.mark(d) == Mark::Sunk))
                    .count();
            }
        }
        step(&mut rec, &mut rng);
    }
    apart
}

#[test]
fn the_board_marks_known_empty_exactly_the_cells_a_press_refuses_as_known() {
    let with = |f: fn(&mut Ruleset)| {
        let mut r = Ruleset::default();
        f(&mut r);
        r
    };
    // (ruleset, whether a cell can be known empty with no sunk ship beside it)
    let rulesets = [
        (Ruleset::default(), true),
        (with(|r| r.field = Field::Big), true),
        (with(|r| r.players = Players::FreeForAll(3)), true),
        (with(|r| r.arsenal = 1), true),
        (with(|r| r.touching = Touching::Corners), false),
        (with(|r| r.touching = Touching::Any), false),
        (with(|r| r.shapes = Shapes::Bent), false),
        (with(|r| r.mines = 1), false),
        (with(|r| r.salvo = Some(3)), false),
        (with(|r| r.field = Field::LandSeaAir), false),
    ];
    for (ruleset, corners) in rulesets {
        let apart: usize = (0..3)
            .map(|seed| board_and_presses_agree(&ruleset, 40 + seed))
            .sum();
        assert_eq!(apart > 0, corners, "{ruleset}: {apart} cells known apart");
    }
}

/// A ship of two cells or more of `seat`'s fleet: its first cell and a corner of that cell
/// on the field.
fn wounded_corner(game: &Game, seat: SeatId) -> (Coord, Coord) {
    let size = game.ruleset().size();
    let fleet = game.fleet(seat).unwrap();
    let ship = fleet
        .ships()
        .iter()
        .find(|s| s.cells.len() > 1)
        .expect("a ship of two cells");
    let hit = ship.cells[0];
    (hit, hit.corners(size).next().unwrap())
}

#[test]
fn a_corner_of_a_wounded_ship_is_refused_as_known_in_every_language_and_changes_nothing() {
    let (mut rec, mut rng) = record(&Ruleset::default(), 7);
    let shooter = rec.game.turn();
    let target = SeatId(1 - shooter.0);
    let player = PlayerId(u64::from(shooter.0) + 1);
    let size = rec.game.ruleset().size();
    let generation = rec.delivery.generation;
    let (hit, corner) = wounded_corner(&rec.game, target);
    press_cell(
        &mut rec,
        player,
        generation,
        target.0,
        size.index(hit) as u16,
        None,
        0,
        &mut rng,
    )
    .expect("the hit is taken");
    assert_eq!(rec.game.turn(), shooter, "a hit shoots again");
    let before = rec.clone();
    let refused = press_cell(
        &mut rec,
        player,
        generation,
        target.0,
        size.index(corner) as u16,
        None,
        0,
        &mut rng,
    )
    .expect_err("a wounded ship's corner cannot hold a ship");
    assert_eq!(refused, Refused::Rules(ActionError::AlreadyKnown(corner)));
    assert_eq!(rec, before, "the refused press changed the game");
    for (lang, words) in [
        (Lang::Ru, "уже стреляли"),
        (Lang::Bg, "вече е стреляно"),
        (Lang::En, "already known"),
    ] {
        let said = refusal::words(lang, &refused);
        assert!(said.contains(words), "{lang:?}: {said}");
    }
    // The same rules with ships that may touch at corners: the corner is open.
    let (mut rec, mut rng) = record(
        &Ruleset {
            touching: Touching::Corners,
            ..Ruleset::default()
        },
        7,
    );
    let shooter = rec.game.turn();
    let target = SeatId(1 - shooter.0);
    let player = PlayerId(u64::from(shooter.0) + 1);
    let (hit, corner) = wounded_corner(&rec.game, target);
    let generation = rec.delivery.generation;
    for c in [hit, corner] {
        press_cell(
            &mut rec,
            player,
            generation,
            target.0,
            size.index(c) as u16,
            None,
            0,
            &mut rng,
        )
        .expect("where ships touch at corners, a hit's corner is shot");
    }
}
