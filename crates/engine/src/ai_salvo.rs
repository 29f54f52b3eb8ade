//! Salvoes (docs/rules.md §3.4): the cells of the next salvo.
//!
//! A view of a salvo game shows shot cells but not what they hit: the answer to a salvo only
//! counts hits, mines and names the sunk kinds. [`choose_salvo`] plays from the view alone.
//! [`choose_salvo_informed`] also takes the answers the caller has kept ([`SalvoReport`]): a
//! salvo with no hit and no mine marks its cells as water for every level; for the hard level
//! every other answer weighs the sampled layouts — a layout whose ships afloat cover more cells
//! of a salvo than it hit is dropped, and each hit it does not explain (perhaps on a ship sunk
//! since) divides its weight by four.

use crate::aim::{aim, candidates};
use crate::budget::Budget;
use crate::coord::Coord;
use crate::event::SeatId;
use crate::hunt::normal;
use crate::level::Level;
use crate::report::SalvoReport;
use crate::view::{Mark, View};
use rand::seq::SliceRandom;
use rand::Rng;

/// The cells of a salvo (docs/rules.md §3.4) and the field it goes to: as many distinct cells as
/// the ruleset's salvo, or every cell left if fewer; none of them already known. For a game
/// without salvoes, one cell.
pub fn choose_salvo(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
) -> Option<(SeatId, Vec<Coord>)> {
    choose_salvo_informed(view, seat, level, &[], rng, Budget::default())
}

/// As [`choose_salvo`], with the hard level's thinking bounded by `budget`.
pub fn choose_salvo_within(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<(SeatId, Vec<Coord>)> {
    choose_salvo_informed(view, seat, level, &[], rng, budget)
}

/// As [`choose_salvo_within`], using the answers to earlier salvoes (any seat's, at any
/// field; those at other fields are ignored where they do not apply).
pub fn choose_salvo_informed(
    view: &View,
    seat: SeatId,
    level: Level,
    reports: &[SalvoReport],
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<(SeatId, Vec<Coord>)> {
    // Salvoes that hit nothing: their cells are water.
    let mut seen = view.clone();
    let mut mixed = Vec::new();
    for r in reports {
        let Some(f) = seen.fields.iter_mut().find(|f| f.seat == r.target) else {
            continue;
        };
        if r.hits == 0 && r.mines == 0 {
            for &c in r.cells.iter().filter(|&&c| f.size.contains(c)) {
                let i = f.size.index(c);
                if f.marks[i] == Mark::Shot {
                    f.marks[i] = Mark::Miss;
                }
            }
        } else {
            mixed.push(r.clone());
        }
    }
    let view = &seen;
    let n = usize::from(view.ruleset.salvo.unwrap_or(1));
    let (field, ranks) = aim(view, seat, level, &budget, &mixed, rng)?;
    let (mut all, _) = candidates(view, field);
    let want = n.min(all.len());
    let mut cells: Vec<Coord> = match (level, ranks) {
        (Level::Easy, _) => Vec::new(),
        (Level::Hard | Level::Learning, Some(r)) => {
            r.into_iter().map(|(_, c)| c).take(want).collect()
        }
        _ => {
            // Normal: its choice again and again, each chosen cell marked as shot.
            let mut f = field.clone();
            let mut out = Vec::new();
            while out.len() < want {
                let Some(c) = normal(view, &f, rng) else {
                    break;
                };
                let i = f.size.index(c);
                f.marks[i] = Mark::Shot;
                out.push(c);
            }
            out
        }
    };
    all.shuffle(rng);
    for c in all {
        if cells.len() >= want {
            break;
        }
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    Some((field.seat, cells))
}
