//! The bot as a player: it sees only what its seat's [`View`] shows, never a hidden fleet.
//!
//! - [`Level::Easy`]: a random cell not known to be empty.
//! - [`Level::Normal`]: hunt and target — finish a wounded ship along its line; otherwise
//!   shoot a parity pattern sized to the smallest ship afloat, never next to a hit or a sunk
//!   ship where the touching rule forbids another ship.
//! - [`Level::Hard`]: sample whole-fleet layouts consistent with everything seen (a mixture of
//!   uniform and Perelman-packed layouts, `sampler.rs` and `mixture.rs`), and shoot the cell
//!   most often covered by a ship, shunning likely mines.
//! - [`Level::Learning`]: as hard, with a third model in the mixture — how people actually
//!   placed in the games the bot has seen end ([`Habits`](crate::Habits), given in the
//!   [`Budget`]).
//!
//! Every ruleset of docs/rules.md §3 is played: [`choose_shot`] (and [`choose_shot_within`], with a
//! bound on thinking) picks the field and the cell, [`choose_salvo`] the cells of a salvo,
//! [`choose_give_up`] the own cell to give up after a mine, and [`hard_fleet`] places the
//! hard level's own fleet. With the arsenal (§3.8), [`choose_action`] (and
//! [`choose_action_within`]) also decides when a radar, an air strike or a torpedo is worth
//! the turn, and where.

use crate::aim::aim;
use crate::coord::Coord;
use crate::event::{Action, SeatId};
use crate::hunt::{easy, normal};
use crate::view::{Mark, View};
use rand::seq::SliceRandom;
use rand::Rng;

pub use crate::ai_fleet::hard_fleet;
pub use crate::ai_salvo::{choose_salvo, choose_salvo_informed, choose_salvo_within};
pub use crate::budget::{Budget, SAMPLES};
pub use crate::level::Level;
pub use crate::report::SalvoReport;

/// The cell to shoot and the field to shoot at, for `seat` seeing `view`; the hard level
/// samples [`Budget::default`] layouts.
pub fn choose_shot(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
) -> Option<(SeatId, Coord)> {
    choose_shot_within(view, seat, level, rng, Budget::default())
}

/// As [`choose_shot`], with the hard level's thinking bounded by `budget` (e.g.
/// [`Budget::until`] a deadline on big fields).
pub fn choose_shot_within(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<(SeatId, Coord)> {
    let (field, ranks) = aim(view, seat, level, &budget, &[], rng)?;
    let cell = match (level, ranks) {
        (Level::Easy, _) => easy(field, rng),
        (Level::Hard | Level::Learning, Some(r)) if !r.is_empty() => Some(r[0].1),
        _ => normal(view, field, rng),
    }?;
    Some((field.seat, cell))
}

/// The next action for `seat` seeing `view`: [`Action::Fire`] at the cell
/// [`choose_shot`] would choose, or, with the arsenal (docs/rules.md §3.8) and a weapon left,
/// [`Action::Radar`], [`Action::AirStrike`] or [`Action::Torpedo`] at the same field where the
/// level finds the weapon worth the turn. The hard level samples [`Budget::default`] layouts.
pub fn choose_action(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
) -> Option<Action> {
    choose_action_within(view, seat, level, rng, Budget::default())
}

/// As [`choose_action`], with the hard level's thinking bounded by `budget`. The action is
/// always one [`crate::Game::apply`] accepts on the seat's turn (no pending mine choice): a
/// square with an unknown cell, a torpedo from an edge cell along a heading it may take over a
/// run with an unknown cell, and a weapon the seat has left. `None` when there is nothing to
/// shoot at.
pub fn choose_action_within(
    view: &View,
    seat: SeatId,
    level: Level,
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<Action> {
    crate::ai_arsenal::choose_action_in(view, seat, level, rng, budget)
}

/// After a mine (docs/rules.md §3.5): the cell of its own fleet `seat` gives up. A cell of a ship
/// already hit, whose place the enemy knows, if one is left whole enough not to sink by it;
/// else any cell of a wounded ship; else an end cell of the largest ship, which is the easiest
/// to find anyway. `None` if the seat has no unhit ship cell.
pub fn choose_give_up(view: &View, seat: SeatId, rng: &mut impl Rng) -> Option<Coord> {
    let field = view.fields.iter().find(|f| f.seat == seat)?;
    let size = field.size;
    let ship = |c: Coord| matches!(field.mark(c), Mark::Ship | Mark::Hit | Mark::Sunk);
    // Ships as groups of side-connected ship cells.
    let mut group = vec![usize::MAX; size.area()];
    let mut groups: Vec<Vec<Coord>> = Vec::new();
    for c in size.cells().filter(|&c| ship(c)) {
        if group[size.index(c)] != usize::MAX {
            continue;
        }
        let mut cells = vec![c];
        group[size.index(c)] = groups.len();
        let mut k = 0;
        while k < cells.len() {
            for n in cells[k].sides(size) {
                if ship(n) && group[size.index(n)] == usize::MAX {
                    group[size.index(n)] = groups.len();
                    cells.push(n);
                }
            }
            k += 1;
        }
        groups.push(cells);
    }
    let whole = |g: &Vec<Coord>| g.iter().filter(|&&c| field.mark(c) == Mark::Ship).count();
    let hit = |g: &Vec<Coord>| g.iter().any(|&c| field.mark(c) == Mark::Hit);
    let pick = |g: &Vec<Coord>, rng: &mut dyn rand::RngCore| {
        let cells: Vec<Coord> = g
            .iter()
            .copied()
            .filter(|&c| field.mark(c) == Mark::Ship)
            .collect();
        // An end: the whole cell with the fewest whole neighbours.
        let ends = |c: &Coord| {
            c.sides(size)
                .filter(|&n| field.mark(n) == Mark::Ship)
                .count()
        };
        let least = cells.iter().map(ends).min()?;
        let ends: Vec<Coord> = cells.iter().copied().filter(|c| ends(c) == least).collect();
        ends.choose(rng).copied()
    };
    let wounded: Vec<&Vec<Coord>> = groups.iter().filter(|g| hit(g) && whole(g) > 0).collect();
    if let Some(g) = wounded
        .iter()
        .filter(|g| whole(g) > 1)
        .max_by_key(|g| whole(g))
    {
        return pick(g, rng);
    }
    if let Some(g) = wounded.first() {
        return pick(g, rng);
    }
    let largest = groups.iter().filter(|g| whole(g) > 0).map(whole).max()?;
    let biggest: Vec<&Vec<Coord>> = groups.iter().filter(|g| whole(g) == largest).collect();
    let g = biggest.choose(rng)?;
    pick(g, rng)
}
