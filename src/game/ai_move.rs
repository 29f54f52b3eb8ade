//! The computer's Sea Battle move as one decision, the same for the bot in a chat
//! (`telegram/bot_turns.rs`) and the computer in the terminal (`terminal/`): after a mine, the
//! own cell given up; in a salvo game, the salvo; else a shot or, with the arsenal
//! (docs/rules.md §3.8), a weapon where the level finds one worth the turn. No I/O: the move
//! is then played by the same transition a person's goes through.

use engine::ai::{
    choose_action_within, choose_give_up, choose_salvo_informed, Budget, Level, SalvoReport,
};
use engine::{Action, SeatId, View};
use rand::Rng;

/// The move `seat` makes seeing `view`: `mine` when a mine it hit asks for a cell of its own;
/// `reports` are the answers its earlier salvoes got (salvo games); the hard levels think
/// within `budget`. `None` when there is nothing to do.
pub fn decide(
    view: &View,
    seat: SeatId,
    level: Level,
    mine: bool,
    reports: &[SalvoReport],
    rng: &mut impl Rng,
    budget: Budget,
) -> Option<Action> {
    if mine {
        choose_give_up(view, seat, rng).map(|c| Action::GiveUp(seat, c))
    } else if view.ruleset.salvo.is_some() {
        choose_salvo_informed(view, seat, level, reports, rng, budget)
            .map(|(target, cells)| Action::Salvo(seat, target, cells))
    } else {
        choose_action_within(view, seat, level, rng, budget)
    }
}
