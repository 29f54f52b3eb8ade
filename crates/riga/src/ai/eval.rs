//! The evaluation of a position for the side to move: material, threats between ships (how
//! fast each can sink each), the hunt, traps, and the [`Weights`] of each searching level.

use super::pos::{self, tables, Pos, MAX_SHIPS, N, NONE};
use std::sync::OnceLock;

pub(super) const WIN: i32 = 1_000_000;

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
pub(super) struct Weights {
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

pub(super) const NORMAL_WEIGHTS: Weights = Weights {
    threat: [0, 64, 24, 8, 4, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    hunt: [0, 120, 90, 70, 56, 48, 42, 36, 32, 28, 24, 20, 16, 12, 8, 4],
    double: 0,
    lag: 0,
    quiet: 0,
    greed: 0,
    fear: 256,
    trap: [0; 5],
};

pub(super) const HARD_WEIGHTS: Weights = Weights {
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

pub(super) const VALUES: [i32; 5] = [900, 700, 400, 300, 300];

/// The fewest moves ship `a` needs to sink ship `b` as they stand (at least one).
fn attack(r: &Reach, a: pos::Sh, b: pos::Sh) -> usize {
    let from = (usize::from(a.at) * 4 + usize::from(a.facing)) * N;
    let v = r.strike[from + usize::from(b.at)]
        | r.closed[usize::from(a.kind)][usize::from(b.kind)][usize::from(b.facing)];
    let [x, y, z, w] = v.to_le_bytes();
    usize::from(x.min(y).min(z.min(w)))
}

/// The worth of the position for the side to move.
pub(super) fn eval(p: &Pos, w: &Weights, me: u8) -> i32 {
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
