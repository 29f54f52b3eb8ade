//! A compact copy of a [`Game`] for the search: a board of ship indices, ships as bytes, mines
//! as a bit set and an incremental Zobrist hash. It plays the rules of `game.rs` exactly (a test
//! plays random games on both and compares them move by move); it is only much cheaper to copy
//! and to play on.

use crate::board::{Point, Side, Terrain, COLS, ROWS};
use crate::game::{may_sink, Facing, Game, Kind, Move, Outcome, MINES, QUIET_MOVES};
use std::sync::OnceLock;

/// Points of the lattice.
pub const N: usize = COLS as usize * ROWS as usize;
/// The most ships a position may hold (a [`Game::custom`] with more is not searched).
pub const MAX_SHIPS: usize = 32;
/// No point, no ship.
pub const NONE: u8 = u8::MAX;

/// Facings as numbers: north, east, south, west (a right turn adds one).
pub const FACINGS: [Facing; 4] = [Facing::North, Facing::East, Facing::South, Facing::West];
/// Kinds as numbers.
pub const KINDS: [Kind; 5] = [
    Kind::Cruiser,
    Kind::Submarine,
    Kind::Destroyer,
    Kind::Patrol,
    Kind::Minesweeper,
];
/// The kind number of a minesweeper.
pub const SWEEPER: u8 = 4;

pub fn facing_no(f: Facing) -> u8 {
    FACINGS.iter().position(|&x| x == f).expect("a facing") as u8
}

pub fn kind_no(k: Kind) -> u8 {
    KINDS.iter().position(|&x| x == k).expect("a kind") as u8
}

fn side_no(s: Side) -> u8 {
    match s {
        Side::North => 0,
        Side::South => 1,
    }
}

pub fn point_of(p: u8) -> Point {
    Point {
        col: p % COLS,
        row: p / COLS,
    }
}

fn point_no(p: Point) -> u8 {
    p.row * COLS + p.col
}

/// Tables computed once: steps, red points, the capture table and the Zobrist keys.
pub struct Tables {
    /// The point one step from a point in a facing, `NONE` off the board or onto land.
    pub step: [[u8; 4]; N],
    /// Whose battery covers the point: 0 North's, 1 South's, `NONE` nobody's.
    pub red: [u8; N],
    /// `sink[attacker][towards][target][target facing]`: the capture table.
    pub sink: [[[[bool; 4]; 5]; 4]; 5],
    ship_key: [[[[u64; 4]; N]; 5]; 2],
    mine_key: [u64; N],
    laid_key: [[u64; 4]; 2],
    quiet_key: [u64; QUIET_MOVES as usize + 1],
    turn_key: u64,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn tables() -> &'static Tables {
    static T: OnceLock<Box<Tables>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new(Tables {
            step: [[NONE; 4]; N],
            red: [NONE; N],
            sink: [[[[false; 4]; 5]; 4]; 5],
            ship_key: [[[[0; 4]; N]; 5]; 2],
            mine_key: [0; N],
            laid_key: [[0; 4]; 2],
            quiet_key: [0; QUIET_MOVES as usize + 1],
            turn_key: 0,
        });
        for p in 0..N as u8 {
            let pt = point_of(p);
            for (f, &facing) in FACINGS.iter().enumerate() {
                if let Some(q) = facing.step(pt).filter(|q| q.is_sea()) {
                    t.step[usize::from(p)][f] = point_no(q);
                }
            }
            if let Terrain::Red(owner) = pt.terrain() {
                t.red[usize::from(p)] = side_no(owner);
            }
        }
        for (a, &ak) in KINDS.iter().enumerate() {
            for (f, &towards) in FACINGS.iter().enumerate() {
                for (k, &tk) in KINDS.iter().enumerate() {
                    for (g, &tf) in FACINGS.iter().enumerate() {
                        t.sink[a][f][k][g] = may_sink(ak, towards, tk, tf);
                    }
                }
            }
        }
        let mut seed = 0x0005_EABA_771E_u64;
        for side in &mut t.ship_key {
            for kind in side.iter_mut() {
                for point in kind.iter_mut() {
                    for key in point.iter_mut() {
                        *key = splitmix(&mut seed);
                    }
                }
            }
        }
        for key in &mut t.mine_key {
            *key = splitmix(&mut seed);
        }
        for side in &mut t.laid_key {
            for key in side.iter_mut() {
                *key = splitmix(&mut seed);
            }
        }
        for key in &mut t.quiet_key {
            *key = splitmix(&mut seed);
        }
        t.turn_key = splitmix(&mut seed);
        t
    })
}

/// A ship: its point (`NONE` once lost), facing, kind and side numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sh {
    pub at: u8,
    pub facing: u8,
    pub kind: u8,
    pub side: u8,
}

/// A move: the ship's index and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mv {
    pub ship: u8,
    pub what: What,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum What {
    Forward,
    Left,
    Right,
    Lay,
    Pass,
}

impl Mv {
    pub const PASS: Mv = Mv {
        ship: NONE,
        what: What::Pass,
    };

    pub fn to_move(self) -> Move {
        match self.what {
            What::Forward => Move::Forward(self.ship),
            What::Left => Move::Left(self.ship),
            What::Right => Move::Right(self.ship),
            What::Lay => Move::Lay(self.ship),
            What::Pass => Move::Pass,
        }
    }

    /// Whether it steps forward (and so may sink, or be sunk).
    pub fn steps(self) -> bool {
        matches!(self.what, What::Forward | What::Lay)
    }
}

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Playing,
    Won(u8),
    Drawn,
}

/// The position.
#[derive(Clone, Copy)]
pub struct Pos {
    /// The ship index on each point, `NONE` for none.
    pub board: [u8; N],
    pub ships: [Sh; MAX_SHIPS],
    pub count: u8,
    /// Ships afloat by side.
    pub afloat: [u8; 2],
    pub mines: [u64; 3],
    pub laid: [u8; 2],
    pub turn: u8,
    pub quiet: u16,
    pub state: State,
    pub hash: u64,
}

impl Pos {
    /// The position of `g`, if it holds at most [`MAX_SHIPS`] ships.
    pub fn from_game(g: &Game) -> Option<Pos> {
        let t = tables();
        if g.ships().len() > MAX_SHIPS {
            return None;
        }
        let mut p = Pos {
            board: [NONE; N],
            ships: [Sh {
                at: NONE,
                facing: 0,
                kind: 0,
                side: 0,
            }; MAX_SHIPS],
            count: g.ships().len() as u8,
            afloat: [0, 0],
            mines: [0; 3],
            laid: [
                MINES - g.mines_left(Side::North),
                MINES - g.mines_left(Side::South),
            ],
            turn: side_no(g.turn()),
            quiet: g.quiet(),
            state: match g.outcome() {
                None => State::Playing,
                Some(Outcome::Draw) => State::Drawn,
                Some(Outcome::Win(s)) => State::Won(side_no(s)),
            },
            hash: 0,
        };
        for (i, s) in g.ships().iter().enumerate() {
            if let Some(s) = s {
                let at = point_no(s.at);
                p.ships[i] = Sh {
                    at,
                    facing: facing_no(s.facing),
                    kind: kind_no(s.kind),
                    side: side_no(s.side),
                };
                p.board[usize::from(at)] = i as u8;
                p.afloat[usize::from(side_no(s.side))] += 1;
            }
        }
        for &m in g.mines() {
            p.set_mine(point_no(m), true);
        }
        p.hash = p.full_hash(t);
        Some(p)
    }

    fn full_hash(&self, t: &Tables) -> u64 {
        let mut h = 0;
        for s in &self.ships[..usize::from(self.count)] {
            if s.at != NONE {
                h ^= t.ship_key[usize::from(s.side)][usize::from(s.kind)][usize::from(s.at)]
                    [usize::from(s.facing)];
            }
        }
        for p in 0..N {
            if self.mine(p as u8) {
                h ^= t.mine_key[p];
            }
        }
        for side in 0..2 {
            h ^= t.laid_key[side][usize::from(self.laid[side].min(3))];
        }
        if self.turn == 1 {
            h ^= t.turn_key;
        }
        h ^ t.quiet_key[usize::from(self.quiet.min(QUIET_MOVES))]
    }

    pub fn mine(&self, p: u8) -> bool {
        self.mines[usize::from(p / 64)] & (1 << (p % 64)) != 0
    }

    fn set_mine(&mut self, p: u8, on: bool) {
        let bit = 1u64 << (p % 64);
        if on {
            self.mines[usize::from(p / 64)] |= bit;
        } else {
            self.mines[usize::from(p / 64)] &= !bit;
        }
    }

    fn toggle_ship_key(&mut self, t: &Tables, s: Sh) {
        self.hash ^= t.ship_key[usize::from(s.side)][usize::from(s.kind)][usize::from(s.at)]
            [usize::from(s.facing)];
    }

    /// The point ship `i` would step onto, if it may step forward (sinking what stands there).
    pub fn step_to(&self, t: &Tables, i: usize) -> Option<u8> {
        let s = self.ships[i];
        let to = t.step[usize::from(s.at)][usize::from(s.facing)];
        if to == NONE {
            return None;
        }
        let j = self.board[usize::from(to)];
        if j != NONE {
            let o = self.ships[usize::from(j)];
            if o.side == s.side
                || !t.sink[usize::from(s.kind)][usize::from(s.facing)][usize::from(o.kind)]
                    [usize::from(o.facing)]
            {
                return None;
            }
        }
        Some(to)
    }

    /// The legal moves of the side to move, in the order of [`Game::legal_moves`].
    pub fn moves(&self, out: &mut Vec<Mv>) {
        out.clear();
        if self.state != State::Playing {
            return;
        }
        let t = tables();
        for i in 0..usize::from(self.count) {
            let s = self.ships[i];
            if s.at == NONE || s.side != self.turn {
                continue;
            }
            let ship = i as u8;
            out.push(Mv {
                ship,
                what: What::Left,
            });
            out.push(Mv {
                ship,
                what: What::Right,
            });
            if self.step_to(t, i).is_some() {
                out.push(Mv {
                    ship,
                    what: What::Forward,
                });
                if s.kind == SWEEPER && self.laid[usize::from(s.side)] < MINES && !self.mine(s.at) {
                    out.push(Mv {
                        ship,
                        what: What::Lay,
                    });
                }
            }
        }
        if out.is_empty() {
            out.push(Mv::PASS);
        }
    }

    /// The enemy ship a forward step of ship `i` would sink, if any (the step being legal).
    pub fn victim(&self, t: &Tables, i: usize) -> Option<usize> {
        let to = self.step_to(t, i)?;
        let j = self.board[usize::from(to)];
        (j != NONE).then_some(usize::from(j))
    }

    fn remove(&mut self, t: &Tables, i: usize) {
        let s = self.ships[i];
        self.toggle_ship_key(t, s);
        if self.board[usize::from(s.at)] == i as u8 {
            self.board[usize::from(s.at)] = NONE;
        }
        self.ships[i].at = NONE;
        self.afloat[usize::from(s.side)] -= 1;
    }

    /// Plays a legal move of the side to move.
    pub fn play(&mut self, m: Mv) {
        let t = tables();
        let side = self.turn;
        let mut lost = false;
        self.hash ^= t.quiet_key[usize::from(self.quiet.min(QUIET_MOVES))];
        match m.what {
            What::Pass => {}
            What::Left | What::Right => {
                let i = usize::from(m.ship);
                let s = self.ships[i];
                self.toggle_ship_key(t, s);
                let turn = if m.what == What::Left { 3 } else { 1 };
                self.ships[i].facing = (s.facing + turn) % 4;
                self.toggle_ship_key(t, self.ships[i]);
            }
            What::Forward | What::Lay => {
                let i = usize::from(m.ship);
                let s = self.ships[i];
                let to = t.step[usize::from(s.at)][usize::from(s.facing)];
                if s.kind == SWEEPER && self.mine(s.at) {
                    self.set_mine(s.at, false);
                    self.hash ^= t.mine_key[usize::from(s.at)];
                }
                if m.what == What::Lay {
                    self.set_mine(s.at, true);
                    self.hash ^= t.mine_key[usize::from(s.at)];
                    let l = usize::from(side);
                    self.hash ^= t.laid_key[l][usize::from(self.laid[l].min(3))];
                    self.laid[l] += 1;
                    self.hash ^= t.laid_key[l][usize::from(self.laid[l].min(3))];
                }
                let j = self.board[usize::from(to)];
                if j != NONE {
                    self.remove(t, usize::from(j));
                    lost = true;
                }
                self.toggle_ship_key(t, s);
                self.board[usize::from(s.at)] = NONE;
                let mut alive = true;
                if s.kind != SWEEPER && self.mine(to) {
                    self.set_mine(to, false);
                    self.hash ^= t.mine_key[usize::from(to)];
                    alive = false;
                }
                if t.red[usize::from(to)] != NONE && t.red[usize::from(to)] != side {
                    alive = false;
                }
                if alive {
                    self.ships[i].at = to;
                    self.board[usize::from(to)] = m.ship;
                    self.toggle_ship_key(t, self.ships[i]);
                } else {
                    // Already unhashed and off the board.
                    self.ships[i].at = NONE;
                    self.afloat[usize::from(side)] -= 1;
                    lost = true;
                }
            }
        }
        self.quiet = if lost { 0 } else { self.quiet + 1 };
        self.hash ^= t.quiet_key[usize::from(self.quiet.min(QUIET_MOVES))];
        self.turn ^= 1;
        self.hash ^= t.turn_key;
        let (mine, theirs) = (
            self.afloat[usize::from(side)],
            self.afloat[usize::from(side ^ 1)],
        );
        self.state = if theirs == 0 {
            State::Won(side)
        } else if mine == 0 {
            State::Won(side ^ 1)
        } else if self.quiet >= QUIET_MOVES {
            State::Drawn
        } else {
            // A side with a ship afloat may always turn, so neither is ever stuck here.
            State::Playing
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::FLEET;

    fn next(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *seed >> 33
    }

    /// Random games played on a [`Game`] and a [`Pos`] side by side stay the same game.
    #[test]
    fn the_search_position_plays_the_rules_of_the_game() {
        let t = tables();
        for start in 0..200u64 {
            let mut seed = start;
            let mut order = || {
                let mut v = FLEET.to_vec();
                for i in (1..v.len()).rev() {
                    let j = (next(&mut seed) % (i as u64 + 1)) as usize;
                    v.swap(i, j);
                }
                v
            };
            let (n, s) = (order(), order());
            let first = if start % 2 == 0 {
                Side::North
            } else {
                Side::South
            };
            let mut g = Game::new(&n, &s, first).unwrap();
            let mut p = Pos::from_game(&g).unwrap();
            let mut seed = start.wrapping_mul(31) + 7;
            let mut moves = Vec::new();
            loop {
                p.moves(&mut moves);
                let legal: Vec<Move> = moves.iter().map(|m| m.to_move()).collect();
                assert_eq!(legal, g.legal_moves());
                let fresh = Pos::from_game(&g).unwrap();
                assert_eq!(p.hash, fresh.hash);
                assert_eq!(p.board, fresh.board);
                assert_eq!(p.state, fresh.state);
                if g.outcome().is_some() {
                    break;
                }
                // Mostly forward, so that ships meet, mines are laid and batteries fire.
                let fwd: Vec<Mv> = moves.iter().copied().filter(|m| m.steps()).collect();
                let pool = if !fwd.is_empty() && !next(&mut seed).is_multiple_of(3) {
                    fwd
                } else {
                    moves.clone()
                };
                let m = pool[(next(&mut seed) % pool.len() as u64) as usize];
                let victim = if m.steps() {
                    p.victim(t, usize::from(m.ship))
                } else {
                    None
                };
                let lost = g.play(g.turn(), m.to_move()).unwrap();
                if let Some(v) = victim {
                    assert!(lost.contains(&v));
                }
                p.play(m);
            }
        }
    }
}
