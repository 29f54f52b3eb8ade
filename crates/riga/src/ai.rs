//! The bot as a Riga opponent, from the whole position (the game has no hidden information).
//!
//! - [`Level::Easy`]: a random legal move, a capture when there is one.
//! - [`Level::Normal`]: alpha-beta search two moves deep.
//! - [`Level::Hard`]: alpha-beta search four moves deep, captures tried first.
//!
//! The evaluation is material (cruiser 9, submarine 7, destroyer 4, patrol ship 3,
//! minesweeper 3) plus a little for ships that have advanced and for mines left.

use crate::board::Side;
use crate::game::{Game, Kind, Move, Outcome};

/// How well the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Random moves, captures first.
    Easy,
    /// Two moves deep.
    Normal,
    /// Four moves deep.
    Hard,
}

const WIN: i32 = 1_000_000;

fn value(k: Kind) -> i32 {
    match k {
        Kind::Cruiser => 900,
        Kind::Submarine => 700,
        Kind::Destroyer => 400,
        Kind::Patrol | Kind::Minesweeper => 300,
    }
}

/// The position's worth for `side`.
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

/// The worth of `m` for the side to move, searched `depth` moves deep, the opponent's window
/// being `their_alpha..their_beta` (a finished game is scored from the mover's side); `None`
/// if illegal.
fn after(g: &Game, m: Move, depth: u32, their_alpha: i32, their_beta: i32) -> Option<i32> {
    let side = g.turn();
    let mut next = g.clone();
    next.play(side, m).ok()?;
    Some(if next.outcome().is_some() {
        evaluate(&next, side)
    } else {
        -negamax(&next, depth - 1, their_alpha, their_beta)
    })
}

fn negamax(g: &Game, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let side = g.turn();
    if depth == 0 || g.outcome().is_some() {
        return evaluate(g, side);
    }
    let mut moves = g.legal_moves();
    moves.sort_by_key(|&m| !captures(g, m));
    let mut best = -WIN - 1;
    for m in moves {
        let Some(score) = after(g, m, depth, -beta, -alpha) else {
            continue;
        };
        if score > best {
            best = score;
        }
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The bot's move for the side to move; `pick` chooses among equals (e.g. a random index
/// below its argument), so the bot does not always play the same game.
pub fn choose(g: &Game, level: Level, pick: &mut impl FnMut(usize) -> usize) -> Option<Move> {
    let moves = g.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let depth = match level {
        Level::Easy => {
            let caps: Vec<Move> = moves.iter().copied().filter(|&m| captures(g, m)).collect();
            let pool = if caps.is_empty() { moves } else { caps };
            return Some(pool[pick(pool.len())]);
        }
        Level::Normal => 2,
        Level::Hard => 4,
    };
    let mut scored = Vec::with_capacity(moves.len());
    let mut ordered = moves;
    ordered.sort_by_key(|&m| !captures(g, m));
    for m in ordered {
        if let Some(score) = after(g, m, depth, -WIN - 1, WIN + 1) {
            scored.push((score, m));
        }
    }
    let best = scored.iter().map(|s| s.0).max()?;
    let top: Vec<Move> = scored.iter().filter(|s| s.0 == best).map(|s| s.1).collect();
    Some(top[pick(top.len())])
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
}
