//! A button press in a transition: the answer it earns kept with the change, and the checks
//! every button of a game's message passes first.

use super::record::GameRecord;
use super::refused::Refused;

/// A button press, for a transition that keeps the answer it earns with the change it
/// makes: should the answer be lost, the press's update comes again and gets that answer,
/// not a refusal of its own repeat.
pub struct Press<'a, T> {
    /// The callback query's id.
    pub query: &'a str,
    /// The answer's words for what the transition did (the record after it, and its value),
    /// and whether they are an alert.
    pub words: &'a (dyn Fn(&GameRecord, &T) -> (String, bool) + Sync),
}

/// Runs `change` for a press: refused with the earlier answer when the press was answered
/// already; once `change` is done, the answer it earned is kept in the record.
pub fn pressed<T>(
    rec: &mut GameRecord,
    press: Option<&Press<'_, T>>,
    change: impl FnOnce(&mut GameRecord) -> Result<T, Refused>,
) -> Result<T, Refused> {
    if let Some(p) = press {
        if let Some(again) = rec.delivery.answered(p.query) {
            return Err(Refused::Again(again.clone()));
        }
    }
    let value = change(rec)?;
    if let Some(p) = press {
        let (text, alert) = (p.words)(rec, &value);
        rec.delivery.remember_answer(p.query, &text, alert);
    }
    Ok(value)
}

/// The checks a button of a game's message passes before anything else: the game is not
/// over, the button is of its live message (`generation`, when it names one) and the
/// presser has a seat; the seat.
///
/// # Errors
/// [`Refused::GameOver`], [`Refused::Stale`] (an older button), [`Refused::OutOfDate`],
/// [`Refused::NotAPlayer`].
pub fn seat_for_button(
    rec: &GameRecord,
    player: engine::PlayerId,
    generation: Option<u32>,
) -> Result<engine::SeatId, Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    if let Some(g) = generation {
        if g != rec.delivery.generation {
            return Err(if rec.delivery.generation > g {
                Refused::Stale
            } else {
                Refused::OutOfDate
            });
        }
    }
    rec.game.seat_of(player).ok_or(Refused::NotAPlayer)
}
