//! Who meets whom: the rounds of each format made from the entrants' sign-up order and the
//! results so far, and the tally of those results. No randomness: the same entrants and
//! results always make the same rounds.

use super::{Match, Round};
use std::cmp::Reverse;

/// How many steps the Swiss pairing's search may take before it gives up on avoiding
/// rematches (never reached for the sizes allowed; a guard against a damaged record).
const SEARCH_BUDGET: u32 = 200_000;

/// One entrant's results so far: decided matches only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// Matches won on the board (or by forfeit).
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
    /// Rounds sat out with a bye.
    pub byes: u32,
    /// The opponents of the decided matches, in the order played.
    pub opponents: Vec<usize>,
}

impl Tally {
    /// The points: a win and a bye are one each.
    pub fn points(&self) -> u32 {
        self.wins + self.byes
    }
}

/// The tally of every entrant (`n` of them) over the rounds.
pub(super) fn tally(n: usize, rounds: &[Round]) -> Vec<Tally> {
    let mut out = vec![Tally::default(); n];
    for m in rounds.iter().flat_map(|r| &r.matches) {
        let Some(winner) = m.winner else { continue };
        match m.b {
            None => {
                if let Some(t) = out.get_mut(m.a) {
                    t.byes += 1;
                }
            }
            Some(b) => {
                let loser = if winner == m.a { b } else { m.a };
                if winner >= n || loser >= n {
                    continue;
                }
                out[winner].wins += 1;
                out[winner].opponents.push(loser);
                out[loser].losses += 1;
                out[loser].opponents.push(winner);
            }
        }
    }
    out
}

/// ⌈log2 n⌉: the rounds of a Swiss event and of an elimination bracket (0 below two).
pub(super) fn log2_rounds(n: usize) -> usize {
    if n < 2 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// The rounds of a round robin: everyone meets everyone once; an odd field has a bye each
/// round.
pub(super) fn round_robin_rounds(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        _ if n.is_multiple_of(2) => n - 1,
        _ => n,
    }
}

/// Round `round` (0-based) of a round robin of `n` by the circle method: the last place
/// stays, the others turn by one each round. With an odd `n` the fixed place is empty, and
/// whoever it would meet has the bye: everyone once.
pub(super) fn round_robin_round(n: usize, round: usize) -> Vec<Match> {
    let m = n + n % 2;
    let turning = m - 1;
    let mut pairs = vec![(round % turning, m - 1)];
    for j in 1..m / 2 {
        pairs.push(((round + j) % turning, (round + turning - j) % turning));
    }
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for (x, y) in pairs {
        match (x < n, y < n) {
            (true, true) => games.push(Match::pair(x.min(y), x.max(y))),
            (true, false) => byes.push(Match::bye(x)),
            (false, true) => byes.push(Match::bye(y)),
            (false, false) => {}
        }
    }
    games.extend(byes);
    games
}

/// A Swiss event's first round: the top half of the sign-up order against the bottom half
/// (1 against N/2+1, …); an odd field's last to sign up has the bye.
pub(super) fn swiss_first(n: usize) -> Vec<Match> {
    let half = n / 2;
    let mut out: Vec<Match> = (0..half).map(|i| Match::pair(i, i + half)).collect();
    if !n.is_multiple_of(2) {
        out.push(Match::bye(n - 1));
    }
    out
}

/// A later Swiss round: ranked by points, then sign-up order; an odd field's bye goes to
/// the lowest-ranked entrant who has had none; the rest are paired from the top, searching
/// back so that nobody meets an opponent again.
pub(super) fn swiss_next(n: usize, rounds: &[Round]) -> Vec<Match> {
    let tally = tally(n, rounds);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (Reverse(tally[i].points()), i));
    let mut met = vec![vec![false; n]; n];
    for m in rounds.iter().flat_map(|r| &r.matches) {
        if let Some(b) = m.b {
            if m.a < n && b < n {
                met[m.a][b] = true;
                met[b][m.a] = true;
            }
        }
    }
    let mut budget = SEARCH_BUDGET;
    if n.is_multiple_of(2) {
        let pairs = pair_fresh(&order, &met, &mut budget).unwrap_or_else(|| adjacent(&order));
        return with_bye(pairs, None);
    }
    let mut candidates: Vec<usize> = order
        .iter()
        .rev()
        .copied()
        .filter(|&i| tally[i].byes == 0)
        .collect();
    if candidates.is_empty() {
        candidates = order.iter().rev().copied().collect();
    }
    for &bye in &candidates {
        let rest: Vec<usize> = order.iter().copied().filter(|&i| i != bye).collect();
        if let Some(pairs) = pair_fresh(&rest, &met, &mut budget) {
            return with_bye(pairs, Some(bye));
        }
    }
    let bye = candidates[0];
    let rest: Vec<usize> = order.iter().copied().filter(|&i| i != bye).collect();
    with_bye(adjacent(&rest), Some(bye))
}

/// The matches of the pairs, the bye last.
fn with_bye(pairs: Vec<(usize, usize)>, bye: Option<usize>) -> Vec<Match> {
    let mut out: Vec<Match> = pairs.into_iter().map(|(a, b)| Match::pair(a, b)).collect();
    out.extend(bye.map(Match::bye));
    out
}

/// Neighbours in the order paired: the last resort when no pairing avoids a rematch.
fn adjacent(order: &[usize]) -> Vec<(usize, usize)> {
    order.chunks_exact(2).map(|p| (p[0], p[1])).collect()
}

/// Pairs of the entrants in `order` (an even number) where nobody meets an opponent again:
/// the first unpaired one takes the next one it may meet, searching back when the rest
/// cannot be paired. `None` if there is no such pairing (or the budget ran out).
fn pair_fresh(order: &[usize], met: &[Vec<bool>], budget: &mut u32) -> Option<Vec<(usize, usize)>> {
    let mut used = vec![false; order.len()];
    let mut out = Vec::with_capacity(order.len() / 2);
    search(order, met, &mut used, &mut out, budget).then_some(out)
}

/// One step of [`pair_fresh`]'s search: pairs the first unpaired entrant, then the rest.
fn search(
    order: &[usize],
    met: &[Vec<bool>],
    used: &mut [bool],
    out: &mut Vec<(usize, usize)>,
    budget: &mut u32,
) -> bool {
    let Some(first) = used.iter().position(|&u| !u) else {
        return true;
    };
    used[first] = true;
    for j in first + 1..order.len() {
        if used[j] || met[order[first]][order[j]] {
            continue;
        }
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        used[j] = true;
        out.push((order[first], order[j]));
        if search(order, met, used, out, budget) {
            return true;
        }
        out.pop();
        used[j] = false;
    }
    used[first] = false;
    false
}

/// The seeds (0-based) of a bracket of `size` (a power of two) in the order they stand:
/// neighbours meet in the first round, and the top seeds can only meet late (seeds 1 and 2
/// in the final).
pub(super) fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, next - 1 - s]).collect();
    }
    order
}

/// An elimination bracket's first round: seeds by sign-up order in a bracket of the next
/// power of two; the seeds with no opponent there (the top ones) have a bye.
pub(super) fn elimination_first(n: usize) -> Vec<Match> {
    let size = n.next_power_of_two();
    bracket_order(size)
        .chunks_exact(2)
        .map(|p| {
            let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
            if b < n {
                Match::pair(a, b)
            } else {
                Match::bye(a)
            }
        })
        .collect()
}

/// An elimination bracket's next round: the winners of neighbouring matches of the round
/// before (which is complete) meet.
pub(super) fn elimination_next(previous: &Round) -> Vec<Match> {
    let winners: Vec<usize> = previous.matches.iter().filter_map(|m| m.winner).collect();
    winners
        .chunks(2)
        .map(|p| match p.get(1) {
            Some(&b) => Match::pair(p[0], b),
            None => Match::bye(p[0]),
        })
        .collect()
}
