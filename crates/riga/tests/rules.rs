//! One test per rule of docs/rules.md §5.

use riga::game::{may_sink, MINES, QUIET_MOVES};
use riga::*;

fn p(col: u8, row: u8) -> Point {
    // Chart numbering: column and row from 1.
    Point::new(col - 1, row - 1).unwrap()
}

fn ship(side: Side, kind: Kind, at: Point, facing: Facing) -> Option<Ship> {
    Some(Ship {
        side,
        kind,
        at,
        facing,
    })
}

/// A position with North's ships first, then South's; North to move.
fn position(ships: Vec<Option<Ship>>) -> Game {
    Game::custom(ships, Vec::new(), [0, 0], Side::North)
}

#[test]
fn set_up_puts_each_fleet_on_its_start_line_facing_the_enemy() {
    let g = Game::new(&FLEET, &FLEET, Side::South).unwrap();
    assert_eq!(g.turn(), Side::South);
    assert_eq!(g.afloat(Side::North), 12);
    for s in g.ships().iter().flatten() {
        assert_eq!(s.at.terrain(), Terrain::Start(s.side));
        let enemy = match s.side {
            Side::North => Facing::South,
            Side::South => Facing::North,
        };
        assert_eq!(s.facing, enemy);
    }
    let mut wrong = FLEET;
    wrong[0] = Kind::Destroyer;
    assert_eq!(
        Game::new(&wrong, &FLEET, Side::North),
        Err(MoveError::BadSetup)
    );
    assert_eq!(
        Game::new(&FLEET[..11], &FLEET, Side::North),
        Err(MoveError::BadSetup)
    );
}

#[test]
fn a_ship_steps_forward_or_turns_but_never_onto_land_off_the_board_or_an_own_ship() {
    let mut g = position(vec![
        ship(Side::North, Kind::Destroyer, p(3, 4), Facing::South), // land at (3,5) ahead
        ship(Side::North, Kind::Destroyer, p(1, 4), Facing::West),  // the board's edge ahead
        ship(Side::North, Kind::Destroyer, p(6, 4), Facing::East),
        ship(Side::North, Kind::Destroyer, p(7, 4), Facing::South),
        ship(Side::South, Kind::Cruiser, p(12, 12), Facing::North),
    ]);
    let before = g.clone();
    assert_eq!(
        g.play(Side::North, Move::Forward(0)),
        Err(MoveError::Blocked)
    );
    assert_eq!(
        g.play(Side::North, Move::Forward(1)),
        Err(MoveError::Blocked)
    );
    assert_eq!(
        g.play(Side::North, Move::Forward(2)),
        Err(MoveError::OwnShip)
    );
    assert_eq!(
        g.play(Side::South, Move::Left(4)),
        Err(MoveError::NotYourTurn)
    );
    assert_eq!(
        g.play(Side::North, Move::Left(4)),
        Err(MoveError::NoSuchShip)
    );
    assert_eq!(g, before, "a refused move changes nothing");
    assert!(!g.legal_moves().contains(&Move::Forward(0)));
    g.play(Side::North, Move::Forward(3)).unwrap();
    assert_eq!(g.ships()[3].unwrap().at, p(7, 5));
    g.play(Side::South, Move::Left(4)).unwrap();
    assert_eq!(g.ships()[4].unwrap().facing, Facing::West);
    g.play(Side::North, Move::Right(0)).unwrap();
    assert_eq!(g.ships()[0].unwrap().facing, Facing::West);
}

#[test]
fn ships_pass_and_stop_on_a_lighthouse() {
    let mut g = position(vec![
        ship(Side::North, Kind::Destroyer, p(9, 5), Facing::South),
        ship(Side::South, Kind::Cruiser, p(12, 12), Facing::North),
    ]);
    g.play(Side::North, Move::Forward(0)).unwrap();
    assert_eq!(g.ships()[0].unwrap().at.terrain(), Terrain::Lighthouse);
}

#[test]
fn the_capture_table_holds_for_every_attacker_and_aspect() {
    use Kind::*;
    // The attacker faces South; the target faces North (bow-on), East (side-on) or South
    // (stern-on).
    let (bow, side, stern) = (Facing::North, Facing::East, Facing::South);
    let all = [Cruiser, Submarine, Destroyer, Patrol, Minesweeper];
    for target in all {
        for aspect in [bow, side, stern] {
            assert!(may_sink(Cruiser, Facing::South, target, aspect));
            assert!(may_sink(Submarine, Facing::South, target, aspect));
            assert_eq!(
                may_sink(Destroyer, Facing::South, target, aspect),
                aspect != stern
            );
            assert_eq!(
                may_sink(Patrol, Facing::South, target, aspect),
                target != Cruiser && aspect != bow
            );
            assert_eq!(
                may_sink(Minesweeper, Facing::South, target, aspect),
                matches!(target, Submarine | Minesweeper)
            );
        }
    }
    assert!(
        may_sink(Patrol, Facing::South, Destroyer, Facing::West),
        "west is side-on"
    );
}

#[test]
fn a_legal_capture_sinks_the_enemy_and_takes_its_point_a_forbidden_one_is_refused() {
    let mut g = position(vec![
        ship(Side::North, Kind::Destroyer, p(6, 6), Facing::South),
        ship(Side::North, Kind::Patrol, p(8, 6), Facing::South),
        ship(Side::South, Kind::Destroyer, p(6, 7), Facing::South), // shows its stern
        ship(Side::South, Kind::Cruiser, p(8, 7), Facing::North),   // bow-on, a cruiser
        ship(Side::South, Kind::Minesweeper, p(12, 12), Facing::North),
    ]);
    assert_eq!(
        g.play(Side::North, Move::Forward(0)),
        Err(MoveError::CannotSink)
    );
    assert_eq!(
        g.play(Side::North, Move::Forward(1)),
        Err(MoveError::CannotSink)
    );
    // The South destroyer turns side-on: now the North destroyer may sink it.
    g.play(Side::North, Move::Left(1)).unwrap();
    g.play(Side::South, Move::Left(2)).unwrap();
    assert_eq!(g.play(Side::North, Move::Forward(0)), Ok(vec![2]));
    assert_eq!(g.ships()[0].unwrap().at, p(6, 7));
    assert!(g.ships()[2].is_none());
}

#[test]
fn a_minesweeper_lays_two_mines_at_most_on_the_points_it_leaves() {
    let mut g = position(vec![
        ship(Side::North, Kind::Minesweeper, p(6, 4), Facing::South),
        ship(Side::North, Kind::Destroyer, p(11, 4), Facing::South),
        ship(Side::South, Kind::Cruiser, p(12, 12), Facing::North),
    ]);
    assert_eq!(
        g.play(Side::North, Move::Lay(1)),
        Err(MoveError::NotAMinesweeper)
    );
    for k in 0..MINES {
        g.play(Side::North, Move::Lay(0)).unwrap();
        assert_eq!(g.mines().len(), usize::from(k) + 1);
        assert!(g.mines().contains(&p(6, 4 + k)));
        g.play(Side::South, Move::Left(2)).unwrap();
    }
    assert_eq!(g.mines_left(Side::North), 0);
    assert_eq!(
        g.play(Side::North, Move::Lay(0)),
        Err(MoveError::NoMinesLeft)
    );
    assert!(!g.legal_moves().contains(&Move::Lay(0)));
}

#[test]
fn a_mine_destroys_any_ship_but_a_minesweeper_which_sweeps_it_on_leaving() {
    let mut g = Game::custom(
        vec![
            ship(Side::North, Kind::Cruiser, p(6, 4), Facing::South),
            ship(Side::North, Kind::Minesweeper, p(8, 4), Facing::South),
            ship(Side::South, Kind::Cruiser, p(12, 12), Facing::North),
        ],
        vec![p(6, 5), p(8, 5)],
        [0, 2],
        Side::North,
    );
    // Even the own side's cruiser: the mine is spent with it.
    assert_eq!(g.play(Side::North, Move::Forward(0)), Ok(vec![0]));
    assert_eq!(g.mines(), &[p(8, 5)]);
    g.play(Side::South, Move::Left(2)).unwrap();
    assert_eq!(g.play(Side::North, Move::Forward(1)), Ok(vec![]));
    assert_eq!(g.mines(), &[p(8, 5)], "the mine lies under the minesweeper");
    g.play(Side::South, Move::Left(2)).unwrap();
    g.play(Side::North, Move::Forward(1)).unwrap();
    assert!(g.mines().is_empty(), "swept when the minesweeper steps off");
}

#[test]
fn an_enemy_battery_destroys_a_ship_ending_on_its_red_points_and_an_own_one_does_not() {
    let mut g = position(vec![
        ship(Side::North, Kind::Cruiser, p(8, 11), Facing::South), // (8,12) is South's red
        ship(Side::North, Kind::Cruiser, p(2, 3), Facing::North),  // (2,2) is North's own red
        ship(Side::North, Kind::Destroyer, p(9, 11), Facing::South),
        ship(Side::South, Kind::Patrol, p(9, 12), Facing::East), // side-on, on its own red
        ship(Side::South, Kind::Cruiser, p(12, 10), Facing::North),
    ]);
    assert_eq!(g.play(Side::North, Move::Forward(0)), Ok(vec![0]));
    g.play(Side::South, Move::Left(4)).unwrap();
    assert_eq!(g.play(Side::North, Move::Forward(1)), Ok(vec![]));
    assert_eq!(g.ships()[1].unwrap().at, p(2, 2));
    g.play(Side::South, Move::Left(4)).unwrap();
    // Sinking a ship on the enemy's own red point: both are lost.
    assert_eq!(g.play(Side::North, Move::Forward(2)), Ok(vec![3, 2]));
}

#[test]
fn sinking_the_whole_enemy_fleet_wins() {
    let mut g = position(vec![
        ship(Side::North, Kind::Submarine, p(6, 6), Facing::South),
        ship(Side::South, Kind::Cruiser, p(6, 7), Facing::North),
    ]);
    g.play(Side::North, Move::Forward(0)).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::North)));
    assert_eq!(g.play(Side::South, Move::Pass), Err(MoveError::Over));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn sixty_moves_in_a_row_with_no_ship_lost_draw_and_a_pass_needs_no_move() {
    let mut g = position(vec![
        ship(Side::North, Kind::Cruiser, p(6, 4), Facing::South),
        ship(Side::South, Kind::Cruiser, p(6, 10), Facing::North),
    ]);
    assert_eq!(g.play(Side::North, Move::Pass), Err(MoveError::MustMove));
    for k in 0..QUIET_MOVES {
        assert_eq!(g.outcome(), None, "after {k} moves");
        let side = g.turn();
        let i = if side == Side::North { 0 } else { 1 };
        g.play(side, Move::Left(i)).unwrap();
    }
    assert_eq!(g.quiet(), QUIET_MOVES);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_whole_game_is_stored_in_well_under_two_kilobytes() {
    let mut g = Game::new(&FLEET, &FLEET, Side::North).unwrap();
    for _ in 0..10 {
        let mv = g.legal_moves()[0];
        g.play(g.turn(), mv).unwrap();
    }
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.len() <= 2048, "{} bytes", json.len());
    assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), g);
}
