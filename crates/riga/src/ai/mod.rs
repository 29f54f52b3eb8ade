//! The bot as a Riga opponent, from the whole position (the game has no hidden information).
//!
//! - [`Level::Easy`]: a random legal move, a capture when there is one.
//! - [`Level::Normal`]: alpha-beta two moves deep (its move and the reply), then a quiescence
//!   search that plays out captures, on the evaluation below with its plain weights.
//! - [`Level::Hard`]: iterative deepening alpha-beta (principal variation search) within a budget
//!   of 80 000 nodes — not of time, so the same position and the same `pick` always give the same
//!   move — with a Zobrist transposition table, captures, killer and history moves first, and
//!   the same quiescence search. Its weights are sharper: a steeper reward for closing on enemy
//!   ships; no fear of threats to its own ships beyond what the search sees, save losing the
//!   second of two ships under an immediate threat; a share of the worth of an enemy ship near
//!   its attackers with few safe choices left (stay, turn left or right, step); a sunk enemy
//!   ship counts an eighth above its worth (trades please it); and each quiet move costs it 3
//!   points and a draw 1000, so it keeps up the pressure rather than let the 60 quiet moves run.
//!
//! Both searching levels play on a compact copy of the game (`pos`), which keeps the rules of
//! `game.rs` exactly but is cheap to copy. `pick` shuffles the root moves first, so that among
//! moves of equal worth it decides which is played.
//!
//! The evaluation, for the side to move: material (cruiser 9, submarine 7, destroyer 4, patrol
//! ship and minesweeper 3), then threats. For every pair of enemy ships it takes the number of
//! moves the one needs to sink the other from how both stand — steps and quarter turns on the
//! chart without ships, arriving from a side the capture table allows against the target's
//! facing. A ship close to being sunk costs a share of its worth, more the closer the threat; the
//! bot's own ships earn points for being close to a ship they can sink, so its fleet hunts
//! instead of standing off (the 60 quiet moves would end the game in a draw).
//!
//! Its parts: this file keeps the levels and the bot's move; `eval.rs` the evaluation and
//! its weights; `search.rs` the alpha-beta search with its transposition table; `pos.rs` the
//! compact position both play on.

mod eval;
mod pos;
mod search;

use crate::board::Side;
use crate::game::{Game, Kind, Move, Outcome};
use eval::{Weights, HARD_WEIGHTS, NORMAL_WEIGHTS, WIN};
use pos::{tables, Pos};
use search::Search;

/// How well the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Random moves, captures first.
    Easy,
    /// Two moves deep, captures followed to the end.
    Normal,
    /// As deep as 80 000 nodes go, with sharper weights.
    Hard,
}

fn value(k: Kind) -> i32 {
    match k {
        Kind::Cruiser => 900,
        Kind::Submarine => 700,
        Kind::Destroyer => 400,
        Kind::Patrol | Kind::Minesweeper => 300,
    }
}

/// The material of a position for `side` (as before the search existed; kept for callers).
pub fn evaluate(g: &Game, side: Side) -> i32 {
    match g.outcome() {
        Some(Outcome::Win(s)) if s == side => return WIN,
        Some(Outcome::Win(_)) => return -WIN,
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    let mut score = 0;
    for s in g.ships().iter().flatten() {
        // Rows advanced from the own start line (North starts on row 2 from 0, South on 10).
        let advanced = match s.side {
            Side::North => i32::from(s.at.row) - 2,
            Side::South => 10 - i32::from(s.at.row),
        };
        let v = value(s.kind) + 4 * advanced.clamp(0, 8);
        score += if s.side == side { v } else { -v };
    }
    score + 20 * (i32::from(g.mines_left(side)) - i32::from(g.mines_left(side.other())))
}

/// Whether `mv` sinks an enemy ship.
fn captures(g: &Game, mv: Move) -> bool {
    match mv {
        Move::Forward(i) | Move::Lay(i) => g.ships()[usize::from(i)]
            .and_then(|s| s.facing.step(s.at))
            .and_then(|p| g.ship_at(p))
            .is_some_and(|(_, t)| t.side != g.turn()),
        _ => false,
    }
}

/// How each searching level searches.
struct Plan {
    weights: Weights,
    /// Iterations of deepening, the last one counted.
    depth: i32,
    /// Nodes before an iteration is abandoned (its result unused).
    nodes: u64,
    contempt: i32,
}

fn plan(level: Level) -> Plan {
    match level {
        Level::Easy | Level::Normal => Plan {
            weights: NORMAL_WEIGHTS,
            depth: 2,
            nodes: 2_000_000,
            contempt: 0,
        },
        Level::Hard => Plan {
            weights: HARD_WEIGHTS,
            depth: 32,
            nodes: 80_000,
            contempt: 1000,
        },
    }
}

/// The bot's move for the side to move; `pick` chooses among equals (e.g. a random index
/// below its argument), so the bot does not always play the same game.
pub fn choose(g: &Game, level: Level, pick: &mut impl FnMut(usize) -> usize) -> Option<Move> {
    let moves = g.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let easy = |moves: Vec<Move>, pick: &mut dyn FnMut(usize) -> usize| {
        let caps: Vec<Move> = moves.iter().copied().filter(|&m| captures(g, m)).collect();
        let pool = if caps.is_empty() { moves } else { caps };
        pool[pick(pool.len())]
    };
    if level == Level::Easy {
        return Some(easy(moves, pick));
    }
    let Some(p) = Pos::from_game(g) else {
        return Some(easy(moves, pick));
    };
    let mut ms = Vec::new();
    p.moves(&mut ms);
    // Shuffled, so that `pick` chooses among moves of equal worth (the first found is kept).
    for i in (1..ms.len()).rev() {
        let j = pick(i + 1).min(i);
        ms.swap(i, j);
    }
    let plan = plan(level);
    let mut s = Search::new(plan.weights, 16, plan.nodes, p.turn, plan.contempt);
    // Captures first, stably.
    let t = tables();
    ms.sort_by_key(|m| !(m.steps() && p.victim(t, usize::from(m.ship)).is_some()));
    let mut best = ms[0];
    for depth in 1..=plan.depth {
        let mut decided = false;
        if let Some((score, m)) = s.root(&p, &mut ms, depth) {
            best = m;
            decided = score.abs() > WIN - 1000;
        }
        // A won or lost game found, the budget spent, or the next iteration would hardly finish.
        if decided || s.aborted || s.nodes > plan.nodes / 4 {
            break;
        }
    }
    Some(best.to_move())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;
    use crate::game::{Facing, Ship};

    #[test]
    fn every_level_takes_a_free_capture_and_hard_avoids_losing_its_cruiser() {
        let ship = |side, kind, col, row, facing| {
            Some(Ship {
                side,
                kind,
                at: Point::new(col, row).unwrap(),
                facing,
            })
        };
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Cruiser, 5, 5, Facing::South),
                ship(Side::South, Kind::Destroyer, 5, 6, Facing::North),
                ship(Side::South, Kind::Cruiser, 0, 9, Facing::North),
            ],
            Vec::new(),
            [0, 0],
            Side::North,
        );
        for level in [Level::Easy, Level::Normal, Level::Hard] {
            assert_eq!(
                choose(&g, level, &mut |_| 0),
                Some(Move::Forward(0)),
                "{level:?}"
            );
        }
        // A South submarine facing the cruiser's point-to-be would sink it: hard sees that
        // the capture costs the cruiser for a destroyer (and nothing threatens it where it is).
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Cruiser, 5, 5, Facing::South),
                ship(Side::North, Kind::Destroyer, 11, 2, Facing::South),
                ship(Side::South, Kind::Destroyer, 5, 6, Facing::West),
                ship(Side::South, Kind::Submarine, 4, 6, Facing::East),
            ],
            Vec::new(),
            [0, 0],
            Side::North,
        );
        assert_ne!(choose(&g, Level::Hard, &mut |_| 0), Some(Move::Forward(0)));
    }

    fn ship(side: Side, kind: Kind, col: u8, row: u8, facing: Facing) -> Option<Ship> {
        Some(Ship {
            side,
            kind,
            at: Point::new(col, row).unwrap(),
            facing,
        })
    }

    #[test]
    fn normal_and_hard_sink_a_ship_two_moves_away() {
        for level in [Level::Normal, Level::Hard] {
            // The cruiser steps once and sinks the destroyer, which shows it its side; South
            // only turns its far patrol ship.
            let mut g = Game::custom(
                vec![
                    ship(Side::North, Kind::Cruiser, 5, 3, Facing::South),
                    ship(Side::South, Kind::Destroyer, 5, 5, Facing::East),
                    ship(Side::South, Kind::Patrol, 0, 10, Facing::North),
                ],
                Vec::new(),
                [0, 0],
                Side::North,
            );
            for _ in 0..2 {
                let mv = choose(&g, level, &mut |_| 0).unwrap();
                g.play(Side::North, mv).unwrap();
                g.play(Side::South, Move::Left(2)).unwrap();
            }
            assert!(
                g.ships()[1].is_none(),
                "{level:?} left the destroyer afloat"
            );
        }
    }

    #[test]
    fn hard_declines_a_capture_that_corners_its_cruiser_and_normal_does_not() {
        // Sinking the destroyer on the north edge leaves the cruiser facing off the board; the
        // submarine then steps beside it, and the cruiser can neither step nor turn away in time.
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Cruiser, 8, 1, Facing::North),
                ship(Side::North, Kind::Destroyer, 0, 3, Facing::South),
                ship(Side::South, Kind::Destroyer, 8, 0, Facing::West),
                ship(Side::South, Kind::Submarine, 10, 0, Facing::West),
                ship(Side::South, Kind::Patrol, 0, 9, Facing::North),
            ],
            Vec::new(),
            [0, 0],
            Side::North,
        );
        assert_eq!(
            choose(&g, Level::Normal, &mut |_| 0),
            Some(Move::Forward(0)),
            "two moves deep, the capture looks free"
        );
        assert_ne!(choose(&g, Level::Hard, &mut |_| 0), Some(Move::Forward(0)));
    }

    #[test]
    fn the_same_position_and_picks_give_the_same_move() {
        let g = Game::new(&crate::game::FLEET, &crate::game::FLEET, Side::South).unwrap();
        for level in [Level::Normal, Level::Hard] {
            let mut n = 0;
            let a = choose(&g, level, &mut |k| {
                n += 1;
                n % k
            });
            let mut n = 0;
            let b = choose(&g, level, &mut |k| {
                n += 1;
                n % k
            });
            assert_eq!(a, b, "{level:?}");
        }
    }
}
