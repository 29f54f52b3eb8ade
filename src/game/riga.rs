//! A Riga game (docs/rules.md §5) inside a game record: the set-up of each seat, the game itself
//! once both fleets are ordered, the turn timer and how it ended; and its transitions.
//!
//! A Riga game uses the record's Sea Battle game for its lobby and seats only (two seats:
//! seat 0 is North, seat 1 South). That game stays in its placement phase while the Riga
//! game is played and is cancelled at the end, so every path that frees the chat and the
//! players at the end of a game (the Settle effect) serves Riga games too; who won is kept
//! here.

pub use super::riga_state::*;

use super::press::{pressed, Press};
use super::record::{GameRecord, Play};
use super::refused::Refused;
use super::{delivery::Effect, lang::Lang};
use engine::{PlayerId, SeatId};
use rand::Rng;
use riga::{Game, Move};

/// The set-up of a Riga game as its Start begins it: both seats get a random order, the
/// bot's seats lock theirs at once.
pub fn begin_setup(rec: &mut GameRecord, now: u64, rng: &mut impl Rng) {
    let mut play = RigaPlay::ordering(rng);
    for seat in rec.ai_seats() {
        let _ = play.lock(seat.0, now, rng);
    }
    rec.play = Play::Riga(play);
}

/// The turn's time in seconds, under the game's timer.
pub fn turn_seconds(rec: &GameRecord) -> Option<u64> {
    rec.game.ruleset().timer.seconds()
}

/// The level the bot plays a Riga game at.
pub fn bot_level(level: engine::ai::Level) -> riga::ai::Level {
    match level {
        engine::ai::Level::Easy => riga::ai::Level::Easy,
        engine::ai::Level::Normal => riga::ai::Level::Normal,
        engine::ai::Level::Hard | engine::ai::Level::Learning => riga::ai::Level::Hard,
    }
}

/// The bot's seat when it is the bot's turn.
pub fn bot_to_move(rec: &GameRecord) -> Option<u8> {
    let side = riga_play(&rec.play)?.to_move()?;
    let seat = seat_of(side);
    rec.is_ai_seat(SeatId(seat)).then_some(seat)
}

/// A move in words for the group's message: the game's language, the position before it,
/// the move, the ships it lost.
pub type MoveLine = dyn Fn(Lang, &Game, Move, &[usize]) -> String + Sync;

/// The Riga state of a record that must be a Riga game.
fn riga_of(rec: &mut GameRecord) -> Result<&mut RigaPlay, Refused> {
    riga_play_mut(&mut rec.play).ok_or(Refused::OutOfDate)
}

/// The Riga game's state; `None` in another game's record (a button or a tap of Riga's
/// that reached one is out of date).
fn riga_play(play: &Play) -> Option<&RigaPlay> {
    match play {
        Play::Riga(r) => Some(r),
        Play::SeaBattle(_) => None,
    }
}

/// The same, to change.
fn riga_play_mut(play: &mut Play) -> Option<&mut RigaPlay> {
    match play {
        Play::Riga(r) => Some(r),
        Play::SeaBattle(_) => None,
    }
}

/// A tap of the set-up keyboard in a person's private chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupTap {
    /// This start point: the first tap picks it, the second swaps.
    Point(u8),
    /// A new random order.
    Shuffle,
    /// The order is locked.
    Lock,
}

/// A tap of the set-up: the seat's order changes, or is locked (when both are, the battle
/// begins); the seat's private message is redrawn. `true` when the order was locked.
///
/// # Errors
/// [`Refused::NotAPlayer`], [`Refused::GameOver`], [`Refused::OutOfDate`] once the set-up
/// is over for the seat.
pub fn setup(
    rec: &mut GameRecord,
    player: PlayerId,
    tap: SetupTap,
    press: Option<&Press<'_, bool>>,
    now: u64,
    rng: &mut impl Rng,
) -> Result<bool, Refused> {
    pressed(rec, press, |rec| {
        if rec.is_finished() {
            return Err(Refused::GameOver);
        }
        let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
        let r = riga_of(rec)?;
        let done = match tap {
            SetupTap::Point(p) => r.tap(seat.0, p).map(|()| false),
            SetupTap::Shuffle => r.shuffle(seat.0, rng).map(|()| false),
            SetupTap::Lock => r.lock(seat.0, now, rng).map(|_| true),
        };
        let locked = done.map_err(|e| match e {
            SetupError::NotASeat => Refused::NotAPlayer,
            SetupError::NotOrdering | SetupError::NoPoint => Refused::OutOfDate,
        })?;
        rec.push_effect(Effect::Dm { seat: seat.0 });
        Ok(locked)
    })
}

/// A move of `player`'s (a button, a typed move, the bot's): `line` puts it in words for the
/// group's message. A button names the position it was drawn for (`drawn_at`, the number of
/// moves played): a press of an older one (a second tap, a slow client) plays nothing.
///
/// # Errors
/// [`Refused::GameOver`] outside the battle, [`Refused::NotAPlayer`],
/// [`Refused::NotYourTurn`], [`Refused::OutOfDate`] for an older button,
/// [`Refused::RigaRules`] with the position.
#[allow(clippy::too_many_arguments)]
pub fn play_move(
    rec: &mut GameRecord,
    player: PlayerId,
    mv: Move,
    drawn_at: Option<u32>,
    press: Option<&Press<'_, Vec<usize>>>,
    now: u64,
    line: &MoveLine,
) -> Result<Vec<usize>, Refused> {
    pressed(rec, press, |rec| {
        if rec.is_finished() {
            return Err(Refused::GameOver);
        }
        let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
        let lang = rec.lang;
        let r = riga_of(rec)?;
        if drawn_at.is_some() && drawn_at != r.game.as_ref().map(Game::moves) {
            return Err(Refused::OutOfDate);
        }
        let Some(before) = r.game.clone() else {
            return Err(Refused::GameOver);
        };
        r.play(seat.0, mv, now, |before, m, lost| {
            line(lang, before, m, lost)
        })
        .map_err(|e| match e {
            PlayError::NotInBattle => Refused::GameOver,
            PlayError::NotYourTurn => Refused::NotYourTurn,
            PlayError::Rules(e) => Refused::RigaRules(Box::new((before, mv, e))),
        })
    })
}

/// A move typed in reply to the battle's message, read in the position it is played in.
/// Whose turn it is is checked first: the words are read as a move of the side to move, so
/// the other player's own ship would be "no ship of yours" to them.
///
/// # Errors
/// [`Refused::NotYourTurn`] for the player not to move, whatever they typed;
/// [`Refused::RigaNotation`] for words that name no move; as [`play_move`].
pub fn play_typed(
    rec: &mut GameRecord,
    player: PlayerId,
    text: &str,
    now: u64,
    line: &MoveLine,
) -> Result<Vec<usize>, Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    let r = riga_play(&rec.play).ok_or(Refused::GameOver)?;
    let game = r.game.as_ref().ok_or(Refused::GameOver)?;
    if r.to_move().is_some_and(|side| side != side_of(seat.0)) {
        return Err(Refused::NotYourTurn);
    }
    let mv = ::riga::notation::parse_move(text, game).map_err(Refused::RigaNotation)?;
    play_move(rec, player, mv, None, None, now, line)
}

/// `/surrender` in a Riga game.
///
/// # Errors
/// [`Refused::NotAPlayer`], [`Refused::NothingToSurrender`] when the game is not on.
pub fn surrender(rec: &mut GameRecord, player: PlayerId) -> Result<(), Refused> {
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    let r = riga_play_mut(&mut rec.play).ok_or(Refused::NothingToSurrender)?;
    if !r.surrender(seat.0) {
        return Err(Refused::NothingToSurrender);
    }
    Ok(())
}

/// The Riga game's timer at `now`: a reminder (in words by `reminder`, from the name of the
/// side to move and the seconds left), or the side to move forfeits. `false` when nothing
/// was due.
pub fn tick(rec: &mut GameRecord, now: u64, reminder: &dyn Fn(Lang, &str, u64) -> String) -> bool {
    let secs = turn_seconds(rec);
    let lang = rec.lang;
    let names: Vec<String> = (0..2u8).map(|s| rec.short_name(SeatId(s), 40)).collect();
    let Some(r) = riga_play_mut(&mut rec.play) else {
        return false;
    };
    let Some(side) = r.to_move() else {
        return false;
    };
    match r.tick(now, secs) {
        Some(false) => {
            let left = secs.unwrap_or(0).div_ceil(2);
            r.push_line(reminder(lang, &names[usize::from(seat_of(side))], left));
            true
        }
        Some(true) => true,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use riga::Kind;

    #[test]
    fn taps_swap_ships_and_both_locks_reveal_the_fleets_together() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut r = RigaPlay::ordering(&mut rng);
        let before = r.orders[1].clone();
        r.tap(1, 0).unwrap();
        r.tap(1, 11).unwrap();
        assert_eq!(r.orders[1][0], before[11]);
        assert_eq!(r.orders[1][11], before[0]);
        assert_eq!(r.tap(1, 12), Err(SetupError::NoPoint));
        assert_eq!(r.tap(2, 0), Err(SetupError::NotASeat));
        assert!(!r.lock(0, 10, &mut rng).unwrap());
        assert!(
            r.game.is_none(),
            "nothing is revealed until both are locked"
        );
        assert_eq!(r.tap(0, 1), Err(SetupError::NotOrdering));
        assert!(r.lock(1, 10, &mut rng).unwrap());
        let g = r.game.as_ref().unwrap();
        let south: Vec<Kind> = g.ships()[12..].iter().map(|s| s.unwrap().kind).collect();
        assert_eq!(south, r.orders[1]);
        assert_eq!(r.lock(1, 10, &mut rng), Err(SetupError::NotOrdering));
    }

    #[test]
    fn a_move_typed_by_the_player_not_to_move_is_refused_as_out_of_turn() {
        use crate::game::lobby;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let duel = lobby::riga_duel(&engine::Ruleset::default());
        let mut rec = GameRecord::new(engine::Game::new(duel), -1, 0);
        lobby::join(&mut rec, PlayerId(1), "Анна", None, 0).unwrap();
        lobby::join(&mut rec, PlayerId(2), "Борис", None, 0).unwrap();
        rec.play = Play::Riga(RigaPlay::default());
        lobby::start(&mut rec, None, 0, &mut rng).unwrap();
        for p in [1, 2] {
            setup(&mut rec, PlayerId(p), SetupTap::Lock, None, 0, &mut rng).unwrap();
        }
        let game = riga_play(&rec.play).unwrap().game.clone().unwrap();
        let waiting = game.turn().other();
        let player = PlayerId(u64::from(seat_of(waiting)) + 1);
        // A ship of the waiting player's own that could step forward, were it their turn.
        let ship = game
            .ships()
            .iter()
            .flatten()
            .find(|s| s.side == waiting)
            .unwrap();
        let typed = format!("{} forward", ::riga::notation::format_point(ship.at, false));
        let before = rec.clone();
        let line = |_: Lang, _: &Game, _: Move, _: &[usize]| String::new();
        assert_eq!(
            play_typed(&mut rec, player, &typed, 1, &line),
            Err(Refused::NotYourTurn)
        );
        // Words that name no move at all are refused the same way, for the same reason.
        assert_eq!(
            play_typed(&mut rec, player, "a7 forward", 1, &line),
            Err(Refused::NotYourTurn)
        );
        assert_eq!(rec, before);
        // The player to move still hears what is wrong with their words.
        let mover = PlayerId(u64::from(seat_of(game.turn())) + 1);
        assert!(matches!(
            play_typed(&mut rec, mover, "hello", 1, &line),
            Err(Refused::RigaNotation(_))
        ));
    }

    #[test]
    fn a_move_out_of_turn_is_refused_and_changes_nothing_and_the_timer_reminds_then_ends() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let mut r = RigaPlay::ordering(&mut rng);
        r.lock(0, 100, &mut rng).unwrap();
        r.lock(1, 100, &mut rng).unwrap();
        let mover = seat_of(r.to_move().unwrap());
        let other = 1 - mover;
        let copy = r.clone();
        assert_eq!(
            r.play(other, Move::Pass, 101, |_, _, _| String::new()),
            Err(PlayError::NotYourTurn)
        );
        assert_eq!(r, copy);
        let mv = r.game.as_ref().unwrap().legal_moves()[0];
        r.play(mover, mv, 102, |_, _, _| "moved".into()).unwrap();
        assert_eq!(r.lines, vec!["moved".to_owned()]);
        assert_eq!(r.to_move(), Some(side_of(other)));
        assert_eq!(r.deadline(Some(60)), Some(132));
        assert_eq!(r.tick(131, Some(60)), None);
        assert_eq!(r.tick(132, Some(60)), Some(false));
        assert_eq!(r.tick(161, Some(60)), None);
        assert_eq!(r.tick(162, Some(60)), Some(true));
        assert_eq!(r.winner(), Some(side_of(mover)));
        assert_eq!(r.to_move(), None);
    }
}
