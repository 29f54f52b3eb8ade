//! The turn timer, of both games: what a tick does when a game is due (a reminder, a
//! forfeit, a mine's cell given up in the player's stead, the Riga game's reminder and
//! forfeit), and when the timer should look at a game next.

use super::record::{GameRecord, Play};
use super::{battle, lang::Lang, riga};
use engine::{Action, Phase};
use rand::rngs::StdRng;
use std::time::Duration;

/// The most time the bot may think about one Sea Battle move (the hard level stops sampling
/// then; on the classic field it needs far less).
pub const SEA_BATTLE_THINKING: Duration = Duration::from_millis(1500);

/// The most time the bot's search takes for one Riga move: a node budget, far below a second.
pub const RIGA_THINKING: Duration = Duration::from_secs(1);

/// What a lease of the bot's move covers besides the pause and the thinking: the move's own
/// requests.
const LEASE_MARGIN: Duration = Duration::from_secs(4);

/// How long the handler of the last Ready has to send the battle's message before the timer
/// does it in its place.
const BEGIN_GRACE: Duration = Duration::from_secs(5);

/// The most time the bot thinks about one move of this game.
pub fn thinking(play: &Play) -> Duration {
    match play {
        Play::SeaBattle(_) => SEA_BATTLE_THINKING,
        Play::Riga(_) => RIGA_THINKING,
    }
}

/// How long one replica holds the right to move for the bot: its pause before a move
/// (`ai_pause`), the most time the game's search may take, and the move's own requests.
pub fn bot_lease(play: &Play, ai_pause: Duration) -> Duration {
    ai_pause + thinking(play) + LEASE_MARGIN
}

/// Whether the bot is to move (its seat's turn, or its cell to give up after a mine).
pub fn bot_to_move(rec: &GameRecord) -> bool {
    match &rec.play {
        Play::SeaBattle(_) => rec.ai_to_move().is_some(),
        Play::Riga(_) => riga::bot_to_move(rec).is_some(),
    }
}

/// When the timer should look at a game (Unix seconds): its own deadline; while the bot is
/// to move, soon after a thinker's lease would run out (so a crash mid-thought delays it by
/// seconds); and soon after the last fleet is locked, until the battle's message is out.
pub fn deadline(rec: &GameRecord, now: u64, ai_pause: Duration) -> Option<u64> {
    let own = match &rec.play {
        Play::SeaBattle(_) => {
            if *rec.game.phase() == Phase::Battle && !rec.delivery.begun {
                // The battle's message is still to be sent: should its sender die, the
                // timer sends it.
                return Some(now + BEGIN_GRACE.as_secs());
            }
            rec.game.next_deadline().or_else(|| placement_deadline(rec))
        }
        Play::Riga(r) => r.deadline(riga::turn_seconds(rec)),
    };
    if !bot_to_move(rec) {
        return own;
    }
    let soon = now + bot_lease(&rec.play, ai_pause).as_secs() + 1;
    Some(own.map_or(soon, |d| d.min(soon)))
}

/// A tick of the timer at `now`: whatever is due happens (`reminder` puts a Riga game's
/// reminder in words from the name of the side to move and the seconds left). `false` when
/// nothing was due.
pub fn tick(
    rec: &mut GameRecord,
    now: u64,
    rng: &mut StdRng,
    reminder: &dyn Fn(Lang, &str, u64) -> String,
) -> bool {
    match &rec.play {
        Play::SeaBattle(_) if placement_deadline(rec).is_some_and(|d| d <= now) => {
            // A tournament's match whose fleets are not all placed in time is called off:
            // the tournament gives it to whoever placed (`telegram/tournament.rs`).
            rec.game.apply(Action::Cancel, now, rng).is_ok()
        }
        Play::SeaBattle(_) => {
            battle::play(rec, Action::Tick, now, rng).is_ok_and(|events| !events.is_empty())
        }
        Play::Riga(_) => riga::tick(rec, now, reminder),
    }
}

/// A tournament's match or a quick match still being placed: when its placement runs out
/// (its start, and the turn timer's length). No other game's placement has a limit.
fn placement_deadline(rec: &GameRecord) -> Option<u64> {
    if (rec.tournament.is_none() && !rec.quick) || *rec.game.phase() != Phase::Placement {
        return None;
    }
    Some(rec.created + rec.game.ruleset().timer.seconds()?)
}
