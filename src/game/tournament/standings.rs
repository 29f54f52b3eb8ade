//! A tournament's standings: points (a win or a bye), Buchholz, wins, places, the podium.

use super::{pairing, Format, Match, Tournament};
use std::cmp::Reverse;

/// One entrant's line of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The entrant (an index in [`Tournament::entrants`]).
    pub entrant: usize,
    /// The place, from 1; shared only by an elimination's semi-final losers (3rd).
    pub place: usize,
    /// Wins and byes.
    pub points: u32,
    /// The sum of the points of every opponent played (byes count nothing).
    pub buchholz: u32,
    /// Matches won.
    pub wins: u32,
    /// Matches lost.
    pub losses: u32,
    /// Byes had.
    pub byes: u32,
}

impl Tournament {
    /// The standings, place 1 first. Round robin and Swiss: by points, then Buchholz, then
    /// wins, then sign-up order. Elimination: by the round each went out in (later is
    /// better, still in is best), then sign-up order; the semi-finals' losers share 3rd.
    pub fn standings(&self) -> Vec<Standing> {
        let n = self.entrants.len();
        let tally = pairing::tally(n, &self.rounds);
        let mut lines: Vec<Standing> = tally
            .iter()
            .enumerate()
            .map(|(entrant, t)| Standing {
                entrant,
                place: 0,
                points: t.points(),
                buchholz: t.opponents.iter().map(|&o| tally[o].points()).sum(),
                wins: t.wins,
                losses: t.losses,
                byes: t.byes,
            })
            .collect();
        if self.format != Format::Elimination {
            lines.sort_by_key(|s| (Reverse((s.points, s.buchholz, s.wins)), s.entrant));
            for (i, s) in lines.iter_mut().enumerate() {
                s.place = i + 1;
            }
            return lines;
        }
        let mut out_in = vec![None; n];
        for (r, round) in self.rounds.iter().enumerate() {
            for loser in round.matches.iter().filter_map(Match::loser) {
                out_in[loser] = Some(r);
            }
        }
        let semi = self.rounds_total().checked_sub(2);
        lines.sort_by_key(|s| (Reverse(out_in[s.entrant].unwrap_or(usize::MAX)), s.entrant));
        for i in 0..lines.len() {
            let shares = i > 0
                && semi.is_some()
                && out_in[lines[i].entrant] == semi
                && out_in[lines[i - 1].entrant] == semi;
            lines[i].place = if shares { lines[i - 1].place } else { i + 1 };
        }
        lines
    }

    /// The entrants on places 1, 2 and 3 (3rd holds two after an elimination's
    /// semi-finals), places with nobody left out; meant for a finished tournament.
    pub fn podium(&self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut last_place = 0;
        for s in self.standings().into_iter().take_while(|s| s.place <= 3) {
            if s.place == last_place {
                if let Some(group) = out.last_mut() {
                    group.push(s.entrant);
                }
            } else {
                out.push(vec![s.entrant]);
                last_place = s.place;
            }
        }
        out
    }
}
