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

mod pos;

use crate::board::Side;
use crate::game::{Game, Kind, Move, Outcome};
use pos::{tables, Mv, Pos, State, What, MAX_SHIPS, N, NONE};
use std::sync::OnceLock;

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

const WIN: i32 = 1_000_000;

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

/// States of a ship on the empty chart: a point and a facing.
const STATES: usize = N * 4;

/// How fast ships reach each other, computed once.
struct Reach {
    /// `strike[state * N + point]`: for each facing `f` (byte `f`), the fewest moves (steps and
    /// quarter turns on the chart without ships) from a ship's state to a step onto the point
    /// heading `f`; 255 if never.
    strike: Vec<u32>,
    /// `closed[attacker][target][target facing]`: 255 in byte `f` if the capture table forbids
    /// the attacker heading `f` to sink the target, 0 if it allows it.
    closed: [[[u32; 4]; 5]; 5],
}

fn reach() -> &'static Reach {
    static R: OnceLock<Reach> = OnceLock::new();
    R.get_or_init(|| {
        let t = tables();
        let mut strike = vec![u32::MAX; STATES * N];
        let mut row = vec![u8::MAX; STATES];
        let mut queue = Vec::with_capacity(STATES);
        for from in 0..STATES {
            if !is_sea(from / 4) {
                continue;
            }
            row.fill(u8::MAX);
            queue.clear();
            row[from] = 0;
            queue.push(from);
            let mut head = 0;
            while head < queue.len() {
                let s = queue[head];
                head += 1;
                let (p, f) = (s / 4, s % 4);
                let next = row[s].saturating_add(1);
                let mut go = |to: usize| {
                    if row[to] == u8::MAX {
                        row[to] = next;
                        queue.push(to);
                    }
                };
                go(p * 4 + (f + 1) % 4);
                go(p * 4 + (f + 3) % 4);
                let q = t.step[p][f];
                if q != NONE {
                    go(usize::from(q) * 4 + f);
                }
            }
            for q in 0..N {
                let mut packed = 0u32;
                for f in 0..4 {
                    // The attacker stands behind the point, looking at it.
                    let n = t.step[q][(f + 2) % 4];
                    let d = if n == NONE {
                        u8::MAX
                    } else {
                        row[usize::from(n) * 4 + f].saturating_add(1)
                    };
                    packed |= u32::from(d) << (8 * f);
                }
                strike[from * N + q] = packed;
            }
        }
        let mut closed = [[[0u32; 4]; 5]; 5];
        for (a, by_target) in closed.iter_mut().enumerate() {
            for (k, by_facing) in by_target.iter_mut().enumerate() {
                for (g, mask) in by_facing.iter_mut().enumerate() {
                    for f in 0..4 {
                        if !t.sink[a][f][k][g] {
                            *mask |= 0xFF << (8 * f);
                        }
                    }
                }
            }
        }
        Reach { strike, closed }
    })
}

fn is_sea(p: usize) -> bool {
    pos::point_of(p as u8).is_sea()
}

/// Fewer moves than this to a capture count as a threat.
const FAR: usize = 16;

/// What the evaluation weighs.
#[derive(Clone, Copy)]
struct Weights {
    /// Share (of 256) of a ship's worth lost when an enemy is this many moves from sinking it.
    threat: [i32; FAR],
    /// Points for a ship this many moves from sinking an enemy ship.
    hunt: [i32; FAR],
    /// Share (of 256) of the second most valuable of the mover's ships under a threat of one
    /// move: both cannot be saved.
    double: i32,
    /// Moves added to the threats on the mover's ships (it may answer them first).
    lag: usize,
    /// Points the bot loses per quiet move (a draw draws nearer).
    quiet: i32,
    /// Share (of 256) of the worth of each enemy ship sunk added: trades please the bot.
    greed: i32,
    /// Share (of 256) of the threat term counted on the bot's own ships.
    fear: i32,
    /// Share (of 256) of an enemy ship's worth won when an attacker is near and only this many
    /// of its four choices (stay, turn left, turn right, step) keep it out of a capture.
    trap: [i32; 5],
}

const NORMAL_WEIGHTS: Weights = Weights {
    threat: [0, 64, 24, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    hunt: [0, 120, 90, 70, 56, 48, 42, 36, 32, 28, 24, 20, 16, 12, 8, 4],
    double: 0,
    lag: 0,
    quiet: 0,
    greed: 0,
    fear: 256,
    trap: [0; 5],
};

const HARD_WEIGHTS: Weights = Weights {
    threat: [0, 64, 24, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    hunt: [
        0, 200, 180, 160, 140, 120, 100, 84, 72, 60, 48, 36, 24, 12, 6, 0,
    ],
    double: 160,
    lag: 1,
    quiet: 3,
    greed: 32,
    fear: 0,
    trap: [96, 40, 16, 4, 0],
};

const VALUES: [i32; 5] = [900, 700, 400, 300, 300];

/// The fewest moves ship `a` needs to sink ship `b` as they stand (at least one).
fn attack(r: &Reach, a: pos::Sh, b: pos::Sh) -> usize {
    let from = (usize::from(a.at) * 4 + usize::from(a.facing)) * N;
    let v = r.strike[from + usize::from(b.at)]
        | r.closed[usize::from(a.kind)][usize::from(b.kind)][usize::from(b.facing)];
    let [x, y, z, w] = v.to_le_bytes();
    usize::from(x.min(y).min(z.min(w)))
}

/// The worth of the position for the side to move.
fn eval(p: &Pos, w: &Weights, me: u8) -> i32 {
    let r = reach();
    let mut score = [0i32; 2];
    let mut sides: [[usize; MAX_SHIPS]; 2] = [[0; MAX_SHIPS]; 2];
    let mut len = [0usize; 2];
    for (i, s) in p.ships[..usize::from(p.count)].iter().enumerate() {
        if s.at != NONE {
            let side = usize::from(s.side);
            sides[side][len[side]] = i;
            len[side] += 1;
            score[side] += VALUES[usize::from(s.kind)];
        } else if s.side != me {
            // Sunk enemy ships count a little more: trades please the bot.
            score[usize::from(me)] += VALUES[usize::from(s.kind)] * w.greed / 256;
        }
    }
    let mut threat = [FAR; MAX_SHIPS];
    let mut hunt = [FAR; MAX_SHIPS];
    for &i in &sides[0][..len[0]] {
        for &j in &sides[1][..len[1]] {
            let (a, b) = (p.ships[i], p.ships[j]);
            let ij = attack(r, a, b);
            threat[j] = threat[j].min(ij);
            hunt[i] = hunt[i].min(ij);
            let ji = attack(r, b, a);
            threat[i] = threat[i].min(ji);
            hunt[j] = hunt[j].min(ji);
        }
    }
    let mover = usize::from(p.turn);
    let mut hanging = [0i32; 2];
    for side in 0..2 {
        for &i in &sides[side][..len[side]] {
            let s = p.ships[i];
            let v = VALUES[usize::from(s.kind)];
            let lag = if side == mover { w.lag } else { 0 };
            let t = v * w.threat[(threat[i] + lag).min(FAR - 1)] / 256;
            score[side ^ 1] += if side == usize::from(me) {
                t * w.fear / 256
            } else {
                t
            };
            if side == usize::from(me) {
                score[side] += w.hunt[hunt[i].min(FAR - 1)];
            }
            if side == mover && threat[i] == 1 {
                if v > hanging[0] {
                    hanging = [v, hanging[0]];
                } else if v > hanging[1] {
                    hanging[1] = v;
                }
            }
        }
    }
    score[mover] -= hanging[1] * w.double / 256;
    score[usize::from(me)] -= w.quiet * i32::from(p.quiet);
    if w.trap[0] != 0 {
        let me = usize::from(me);
        let t = tables();
        for &i in &sides[me ^ 1][..len[me ^ 1]] {
            if threat[i] > 3 {
                continue;
            }
            let x = p.ships[i];
            let hit = |y: pos::Sh| {
                sides[me][..len[me]]
                    .iter()
                    .any(|&a| attack(r, p.ships[a], y) == 1)
            };
            let mut safe = 0;
            if threat[i] > 1 {
                safe += 1;
            }
            for turn in [1, 3] {
                let y = pos::Sh {
                    facing: (x.facing + turn) % 4,
                    ..x
                };
                if !hit(y) {
                    safe += 1;
                }
            }
            if let Some(to) = p.step_to(t, i) {
                let dies = (x.kind != pos::SWEEPER && p.mine(to))
                    || (t.red[usize::from(to)] != NONE && t.red[usize::from(to)] != x.side);
                let takes = p.board[usize::from(to)] != NONE;
                if !dies && (takes || !hit(pos::Sh { at: to, ..x })) {
                    safe += 1;
                }
            }
            let v = VALUES[usize::from(x.kind)];
            score[me] += v * w.trap[safe] / 256;
        }
    }
    score[mover] - score[mover ^ 1]
}

/// A transposition table entry.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i8,
    bound: u8,
    ship: u8,
    what: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

fn what_no(w: What) -> u8 {
    match w {
        What::Forward => 0,
        What::Left => 1,
        What::Right => 2,
        What::Lay => 3,
        What::Pass => 4,
    }
}

fn what_of(n: u8) -> What {
    match n {
        0 => What::Forward,
        1 => What::Left,
        2 => What::Right,
        3 => What::Lay,
        _ => What::Pass,
    }
}

const MAX_PLY: usize = 64;

struct Search {
    weights: Weights,
    tt: Vec<Entry>,
    killers: [[Option<Mv>; 2]; MAX_PLY],
    history: [[i32; 5]; MAX_SHIPS],
    nodes: u64,
    limit: u64,
    aborted: bool,
    /// Side of the bot: a draw is worth `-contempt` to it.
    me: u8,
    contempt: i32,
    bufs: Vec<Vec<Mv>>,
}

impl Search {
    fn new(weights: Weights, tt_bits: u32, limit: u64, me: u8, contempt: i32) -> Search {
        Search {
            weights,
            tt: vec![Entry::default(); 1 << tt_bits],
            killers: [[None; 2]; MAX_PLY],
            history: [[0; 5]; MAX_SHIPS],
            nodes: 0,
            limit,
            aborted: false,
            me,
            contempt,
            bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// The score of a finished game for the side to move, `ply` moves from the root.
    fn terminal(&self, p: &Pos, ply: usize) -> i32 {
        match p.state {
            State::Won(s) if s == p.turn => WIN - ply as i32,
            State::Won(_) => -WIN + ply as i32,
            _ => {
                if p.turn == self.me {
                    -self.contempt
                } else {
                    self.contempt
                }
            }
        }
    }

    /// Orders `moves` best first: the table's move, captures by victim then attacker, killers,
    /// then by history.
    fn order(&self, p: &Pos, moves: &mut [Mv], best: Option<Mv>, ply: usize) {
        let t = tables();
        let mut keyed: Vec<(i32, Mv)> = moves
            .iter()
            .map(|&m| {
                let score = if Some(m) == best {
                    1 << 30
                } else if let Some(v) = (m.steps())
                    .then(|| p.victim(t, usize::from(m.ship)))
                    .flatten()
                {
                    (1 << 28) + VALUES[usize::from(p.ships[v].kind)] * 16
                        - VALUES[usize::from(p.ships[usize::from(m.ship)].kind)] / 16
                } else if ply < MAX_PLY && self.killers[ply].contains(&Some(m)) {
                    1 << 26
                } else if m.what == What::Pass {
                    0
                } else {
                    self.history[usize::from(m.ship)][usize::from(what_no(m.what))]
                };
                (score, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
    }

    fn quiesce(&mut self, p: &Pos, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if p.state != State::Playing {
            return self.terminal(p, ply);
        }
        self.nodes += 1;
        let stand = eval(p, &self.weights, self.me);
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let t = tables();
        let mut caps: Vec<(i32, Mv)> = Vec::new();
        for i in 0..usize::from(p.count) {
            let s = p.ships[i];
            if s.at == NONE || s.side != p.turn {
                continue;
            }
            if let Some(v) = p.victim(t, i) {
                let key = VALUES[usize::from(p.ships[v].kind)] * 16 - VALUES[usize::from(s.kind)];
                caps.push((
                    key,
                    Mv {
                        ship: i as u8,
                        what: What::Forward,
                    },
                ));
            }
        }
        caps.sort_by_key(|c| std::cmp::Reverse(c.0));
        let mut best = stand;
        for (_, m) in caps {
            let mut next = *p;
            next.play(m);
            let score = -self.quiesce(&next, -beta, -alpha, ply + 1);
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    fn search(&mut self, p: &Pos, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if p.state != State::Playing {
            return self.terminal(p, ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(p, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return 0;
        }
        let mask = self.tt.len() - 1;
        let slot = (p.hash as usize) & mask;
        let e = self.tt[slot];
        let mut tt_move = None;
        if e.key == p.hash && e.bound != 0 {
            tt_move = Some(Mv {
                ship: e.ship,
                what: what_of(e.what),
            });
            if i32::from(e.depth) >= depth && ply > 0 {
                let s = from_tt(e.score, ply);
                match e.bound {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        p.moves(&mut moves);
        self.order(p, &mut moves, tt_move, ply);
        let alpha0 = alpha;
        let mut best = -WIN - 1;
        let mut best_move = moves[0];
        for (k, &m) in moves.iter().enumerate() {
            let mut next = *p;
            next.play(m);
            let score = if k == 0 {
                -self.search(&next, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let s = -self.search(&next, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    -self.search(&next, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if self.aborted {
                self.bufs[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let quiet = !(m.steps() && p.victim(tables(), usize::from(m.ship)).is_some());
                if quiet && m.what != What::Pass {
                    let k = &mut self.killers[ply];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    self.history[usize::from(m.ship)][usize::from(what_no(m.what))] +=
                        depth * depth;
                }
                break;
            }
        }
        self.bufs[ply] = moves;
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = Entry {
            key: p.hash,
            score: to_tt(best, ply),
            depth: depth as i8,
            bound,
            ship: best_move.ship,
            what: what_no(best_move.what),
        };
        best
    }

    /// The best of `moves` (tried in this order, the first of equals kept) searched to `depth`;
    /// if the budget runs out first, the best of those searched in full, if any.
    fn root(&mut self, p: &Pos, moves: &mut [Mv], depth: i32) -> Option<(i32, Mv)> {
        let mut alpha = -WIN - 1;
        let mut best = None;
        for k in 0..moves.len() {
            let m = moves[k];
            let mut next = *p;
            next.play(m);
            let score = if k == 0 {
                -self.search(&next, depth - 1, -WIN - 1, -alpha, 1)
            } else {
                let s = -self.search(&next, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha {
                    -self.search(&next, depth - 1, -WIN - 1, -alpha, 1)
                } else {
                    s
                }
            };
            if self.aborted {
                return best;
            }
            if score > alpha {
                alpha = score;
                best = Some((score, m));
                // The best so far goes first in the next iteration.
                moves[..=k].rotate_right(1);
            }
        }
        best
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score + ply as i32
    } else if score < -WIN + 1000 {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score - ply as i32
    } else if score < -WIN + 1000 {
        score + ply as i32
    } else {
        score
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
