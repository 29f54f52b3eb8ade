//! The alpha-beta search: principal variation search with a transposition table, killer and
//! history moves, and a quiescence search that plays out captures.

use super::eval::{eval, Weights, VALUES, WIN};
use super::pos::{tables, Mv, Pos, State, What, MAX_SHIPS, NONE};

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

pub(super) struct Search {
    weights: Weights,
    tt: Vec<Entry>,
    killers: [[Option<Mv>; 2]; MAX_PLY],
    history: [[i32; 5]; MAX_SHIPS],
    pub(super) nodes: u64,
    limit: u64,
    pub(super) aborted: bool,
    /// Side of the bot: a draw is worth `-contempt` to it.
    me: u8,
    contempt: i32,
    bufs: Vec<Vec<Mv>>,
}

impl Search {
    pub(super) fn new(weights: Weights, tt_bits: u32, limit: u64, me: u8, contempt: i32) -> Search {
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
    pub(super) fn root(&mut self, p: &Pos, moves: &mut [Mv], depth: i32) -> Option<(i32, Mv)> {
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
