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

/// The message a press came on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum On {
    /// A message of a chat: the chat and the message's id in it.
    Message {
        /// The chat.
        chat: i64,
        /// The message's id in it.
        message: i32,
    },
    /// An inline message (sent through inline mode): its `inline_message_id`.
    Inline(String),
}

/// Which of a game's messages a grid's button is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    /// The live message in the game's chat (the battle), or the game's inline message.
    Live,
    /// The presser's own private message of the game (the placement editor).
    Private,
    /// The question after a mine, in the private chat of the seat it asks.
    Mine,
}

/// Whether a press of a grid's button came on the message of the game it was made for, by
/// the chat and the message id the record keeps (a message the record does not know yet,
/// just sent, is taken in the right chat), or by the inline message's id of a game that
/// lives in one. Callback data can be forged: a press on any other message is refused.
///
/// # Errors
/// [`Refused::WrongMessage`].
pub fn came_on(
    rec: &GameRecord,
    made: Made,
    player: engine::PlayerId,
    on: Option<&On>,
) -> Result<(), Refused> {
    let on = match on {
        Some(On::Message { chat, message }) => (*chat, *message),
        Some(On::Inline(id)) => {
            return match (made, &rec.inline) {
                (Made::Live, Some(own)) if own == id => Ok(()),
                _ => Err(Refused::WrongMessage),
            };
        }
        None => return Err(Refused::WrongMessage),
    };
    if made == Made::Live && rec.inline.is_some() {
        return Err(Refused::WrongMessage);
    }
    let (chat, known) = match made {
        Made::Live if !rec.quick => (rec.chat, rec.delivery.message),
        // A quick match's grid is on the presser's own board, their private message.
        Made::Live | Made::Private => (
            player.0 as i64,
            rec.game
                .seat_of(player)
                .and_then(|s| rec.delivery.dms.get(s.index()).copied().flatten()),
        ),
        // The question is the asked seat's, whoever presses.
        Made::Mine => {
            let asked = rec
                .game
                .mine_choice()
                .and_then(|m| rec.game.seats().get(m.seat.index()))
                .map_or(player, |s| s.player);
            (asked.0 as i64, rec.delivery.mine_dm)
        }
    };
    if on.0 == chat && known.is_none_or(|m| m == on.1) {
        Ok(())
    } else {
        Err(Refused::WrongMessage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Action, Game, PlayerId, Ruleset};
    use rand::SeedableRng;

    #[test]
    fn a_grid_press_is_taken_only_on_the_message_it_was_made_for() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut game = Game::new(Ruleset::default());
        for p in [7, 8] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        let mut rec = GameRecord::new(game, -100, 0);
        let on = |chat, message| Some(On::Message { chat, message });
        let alice = PlayerId(7);
        // Nothing known yet: the right chat is enough.
        assert_eq!(
            came_on(&rec, Made::Live, alice, on(-100, 5).as_ref()),
            Ok(())
        );
        assert_eq!(
            came_on(&rec, Made::Private, alice, on(7, 9).as_ref()),
            Ok(())
        );
        assert_eq!(
            came_on(&rec, Made::Live, alice, on(7, 5).as_ref()),
            Err(Refused::WrongMessage)
        );
        assert_eq!(
            came_on(&rec, Made::Private, alice, on(8, 9).as_ref()),
            Err(Refused::WrongMessage)
        );
        rec.delivery.message = Some(5);
        rec.delivery.dms = vec![Some(9), Some(3)];
        rec.delivery.mine_dm = Some(11);
        assert_eq!(
            came_on(&rec, Made::Live, alice, on(-100, 5).as_ref()),
            Ok(())
        );
        assert_eq!(
            came_on(&rec, Made::Private, alice, on(7, 9).as_ref()),
            Ok(())
        );
        assert_eq!(came_on(&rec, Made::Mine, alice, on(7, 11).as_ref()), Ok(()));
        // Another message of the same chat: a panel, the own field, an old question.
        for (made, chat, message) in [
            (Made::Live, -100, 6),
            (Made::Private, 7, 3),
            (Made::Mine, 7, 9),
        ] {
            assert_eq!(
                came_on(&rec, made, alice, on(chat, message).as_ref()),
                Err(Refused::WrongMessage),
                "{made:?} on {message}"
            );
        }
        assert_eq!(
            came_on(&rec, Made::Live, alice, None),
            Err(Refused::WrongMessage)
        );
        // An inline message: only a game that lives in it takes its presses, and such a
        // game takes none of a chat's message.
        let inline = |id: &str| Some(On::Inline(id.to_owned()));
        assert_eq!(
            came_on(&rec, Made::Live, alice, inline("AgAA").as_ref()),
            Err(Refused::WrongMessage)
        );
        rec.inline = Some("AgAA".into());
        assert_eq!(
            came_on(&rec, Made::Live, alice, inline("AgAA").as_ref()),
            Ok(())
        );
        for (made, on) in [
            (Made::Live, inline("AgAB")),
            (Made::Private, inline("AgAA")),
            (Made::Live, on(-100, 5)),
        ] {
            assert_eq!(
                came_on(&rec, made, alice, on.as_ref()),
                Err(Refused::WrongMessage),
                "{made:?} on {on:?}"
            );
        }
    }

    #[test]
    fn a_quick_matchs_grid_is_taken_only_on_the_pressers_own_board() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut game = Game::new(Ruleset::default());
        for p in [7, 8] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        let mut rec = GameRecord::new(game, 7, 0);
        rec.quick = true;
        rec.delivery.dms = vec![Some(9), Some(3)];
        let on = |chat, message| Some(On::Message { chat, message });
        let (alice, bob) = (PlayerId(7), PlayerId(8));
        assert_eq!(came_on(&rec, Made::Live, alice, on(7, 9).as_ref()), Ok(()));
        assert_eq!(came_on(&rec, Made::Live, bob, on(8, 3).as_ref()), Ok(()));
        for (who, chat, message) in [(alice, 8, 3), (bob, 7, 9), (alice, 7, 3), (bob, 8, 9)] {
            assert_eq!(
                came_on(&rec, Made::Live, who, on(chat, message).as_ref()),
                Err(Refused::WrongMessage),
                "{who:?} on {chat}/{message}"
            );
        }
    }
}
