//! A Riga game (docs/rules.md §5) inside a game record: the set-up of each seat, the game itself
//! once both fleets are ordered, the turn timer and how it ended; and its transitions.
//!
//! A Riga game uses the record's Sea Battle game for its lobby and seats only (two seats:
//! seat 0 is North, seat 1 South). That game stays in its placement phase while the Riga
//! game is played and is cancelled at the end, so every path that frees the chat and the
//! players at the end of a game (the Settle effect) serves Riga games too; who won is kept
//! here.

use super::record::{GameRecord, Play};
use super::{delivery::Effect, lang::Lang, pressed, Press, Refused};
use engine::{PlayerId, SeatId};
use rand::seq::SliceRandom;
use rand::Rng;
use riga::{Game, Kind, Move, MoveError, Outcome, Point, Side, FLEET};
use serde::{Deserialize, Serialize};

/// How many lines of the latest moves the group's message shows.
pub const LINES: usize = 4;

/// A Riga game's state beyond the lobby.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RigaPlay {
    /// Each seat's order of ships on its start points, west to east.
    #[serde(default)]
    pub orders: Vec<Vec<Kind>>,
    /// Each seat's start point tapped first, waiting for the second to swap with.
    #[serde(default)]
    pub picked: Vec<Option<u8>>,
    /// Which seats have locked their order.
    #[serde(default)]
    pub ready: Vec<bool>,
    /// The game, once both orders are locked.
    #[serde(default)]
    pub game: Option<Game>,
    /// The latest moves in words (the group's language), oldest first.
    #[serde(default)]
    pub lines: Vec<String>,
    /// The last move's points (from, to), to mark on the board.
    #[serde(default)]
    pub last: Option<(Point, Point)>,
    /// When the side to move began its turn (Unix seconds).
    #[serde(default)]
    pub turn_started: u64,
    /// Whether the side to move has been reminded of the timer.
    #[serde(default)]
    pub reminded: bool,
    /// How it ended, once it has.
    #[serde(default)]
    pub end: Option<RigaEnd>,
}

/// How a Riga game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RigaEnd {
    /// As the rules say: a side sank the other's fleet, or a draw.
    Played(Outcome),
    /// A side gave up.
    Surrendered(Side),
    /// A side let its turn time run out.
    TimedOut(Side),
    /// Called off before the battle.
    Cancelled,
}

/// Why a tap of the set-up is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Not a seat of this game.
    NotASeat,
    /// The set-up is over (the order is locked, or the battle began).
    NotOrdering,
    /// No such start point.
    NoPoint,
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The battle is not on.
    NotInBattle,
    /// The other side's turn.
    NotYourTurn,
    /// The rules refuse the move.
    Rules(MoveError),
}

/// The side a seat plays.
pub fn side_of(seat: u8) -> Side {
    if seat == 0 {
        Side::North
    } else {
        Side::South
    }
}

/// The seat that plays a side.
pub fn seat_of(side: Side) -> u8 {
    match side {
        Side::North => 0,
        Side::South => 1,
    }
}

/// A random order of the fleet.
pub fn random_order(rng: &mut impl Rng) -> Vec<Kind> {
    let mut order = FLEET.to_vec();
    order.shuffle(rng);
    order
}

impl RigaPlay {
    /// The set-up of two seats, each with a random order to start from.
    pub fn ordering(rng: &mut impl Rng) -> RigaPlay {
        RigaPlay {
            orders: vec![random_order(rng), random_order(rng)],
            picked: vec![None, None],
            ready: vec![false, false],
            ..RigaPlay::default()
        }
    }

    /// Whether the seats are still ordering their fleets.
    pub fn is_ordering(&self) -> bool {
        self.game.is_none() && self.end.is_none() && !self.orders.is_empty()
    }

    /// Whether the battle is on.
    pub fn in_battle(&self) -> bool {
        self.end.is_none() && self.game.is_some()
    }

    fn open_seat(&self, seat: u8) -> Result<usize, SetupError> {
        let i = usize::from(seat);
        if i >= self.orders.len() {
            return Err(SetupError::NotASeat);
        }
        if !self.is_ordering() || self.ready[i] {
            return Err(SetupError::NotOrdering);
        }
        Ok(i)
    }

    /// A tap on start point `point` of the seat's set-up: the first tap picks it, the
    /// second swaps the two ships (the same point again drops the pick).
    pub fn tap(&mut self, seat: u8, point: u8) -> Result<(), SetupError> {
        let i = self.open_seat(seat)?;
        let p = usize::from(point);
        if p >= self.orders[i].len() {
            return Err(SetupError::NoPoint);
        }
        match self.picked[i].take() {
            None => self.picked[i] = Some(point),
            Some(q) => self.orders[i].swap(usize::from(q), p),
        }
        Ok(())
    }

    /// A new random order for the seat.
    pub fn shuffle(&mut self, seat: u8, rng: &mut impl Rng) -> Result<(), SetupError> {
        let i = self.open_seat(seat)?;
        self.orders[i] = random_order(rng);
        self.picked[i] = None;
        Ok(())
    }

    /// Locks the seat's order; when both are locked the fleets are revealed together and
    /// the first mover is drawn by lot. `true` when the battle began.
    pub fn lock(&mut self, seat: u8, now: u64, rng: &mut impl Rng) -> Result<bool, SetupError> {
        let i = self.open_seat(seat)?;
        self.ready[i] = true;
        self.picked[i] = None;
        if !self.ready.iter().all(|&r| r) {
            return Ok(false);
        }
        let first = if rng.gen_bool(0.5) {
            Side::North
        } else {
            Side::South
        };
        let game = Game::new(&self.orders[0], &self.orders[1], first)
            .map_err(|_| SetupError::NotOrdering)?;
        self.game = Some(game);
        self.turn_started = now;
        self.reminded = false;
        Ok(true)
    }

    /// Plays the seat's move; the indices of the ships lost. `line` puts the move in words.
    pub fn play(
        &mut self,
        seat: u8,
        mv: Move,
        now: u64,
        line: impl FnOnce(&Game, Move, &[usize]) -> String,
    ) -> Result<Vec<usize>, PlayError> {
        if self.end.is_some() {
            return Err(PlayError::NotInBattle);
        }
        let game = self.game.as_mut().ok_or(PlayError::NotInBattle)?;
        let side = side_of(seat);
        if game.turn() != side {
            return Err(PlayError::NotYourTurn);
        }
        let before = game.clone();
        let lost = game.play(side, mv).map_err(PlayError::Rules)?;
        let outcome = game.outcome();
        self.last = move_points(&before, mv);
        self.push_line(line(&before, mv, &lost));
        self.turn_started = now;
        self.reminded = false;
        if let Some(outcome) = outcome {
            self.end = Some(RigaEnd::Played(outcome));
        }
        Ok(lost)
    }

    /// Adds a line to the latest moves, keeping [`LINES`].
    pub fn push_line(&mut self, line: String) {
        self.lines.push(line);
        if self.lines.len() > LINES {
            self.lines.remove(0);
        }
    }

    /// The side to move, while the battle is on.
    pub fn to_move(&self) -> Option<Side> {
        self.game
            .as_ref()
            .filter(|_| self.end.is_none())
            .map(Game::turn)
    }

    /// When the timer next has something to do (Unix seconds): the reminder at half the
    /// turn's time, then the forfeit.
    pub fn deadline(&self, turn_seconds: Option<u64>) -> Option<u64> {
        self.to_move()?;
        let secs = turn_seconds?;
        Some(if self.reminded {
            self.turn_started + secs
        } else {
            self.turn_started + secs / 2
        })
    }

    /// What the timer does at `now`: `Some(false)` a reminder, `Some(true)` the side to move
    /// forfeits (the game ends), `None` nothing yet.
    pub fn tick(&mut self, now: u64, turn_seconds: Option<u64>) -> Option<bool> {
        let due = self.deadline(turn_seconds)?;
        if now < due {
            return None;
        }
        let side = self.to_move()?;
        if self.reminded {
            self.end = Some(RigaEnd::TimedOut(side));
            Some(true)
        } else {
            self.reminded = true;
            Some(false)
        }
    }

    /// The seat gives up; `false` when the game is not on.
    pub fn surrender(&mut self, seat: u8) -> bool {
        if self.end.is_some() || self.orders.is_empty() {
            return false;
        }
        self.end = Some(RigaEnd::Surrendered(side_of(seat)));
        true
    }

    /// The winning side, once decided.
    pub fn winner(&self) -> Option<Side> {
        match self.end? {
            RigaEnd::Played(Outcome::Win(s)) => Some(s),
            RigaEnd::Surrendered(s) | RigaEnd::TimedOut(s) => Some(s.other()),
            RigaEnd::Played(Outcome::Draw) | RigaEnd::Cancelled => None,
        }
    }
}

/// The points a move concerns in the position before it: (from, to) for a step, the ship's
/// point twice for a turn; `None` for a pass or a move of no ship.
pub fn move_points(before: &Game, mv: Move) -> Option<(Point, Point)> {
    let ship = |i: u8| before.ships().get(usize::from(i)).copied().flatten();
    match mv {
        Move::Forward(i) | Move::Lay(i) => {
            let s = ship(i)?;
            Some((s.at, s.facing.step(s.at)?))
        }
        Move::Left(i) | Move::Right(i) => ship(i).map(|s| (s.at, s.at)),
        Move::Pass => None,
    }
}

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
    let side = rec.riga()?.to_move()?;
    let seat = seat_of(side);
    rec.is_ai_seat(SeatId(seat)).then_some(seat)
}

/// A move in words for the group's message: the game's language, the position before it,
/// the move, the ships it lost.
pub type MoveLine = dyn Fn(Lang, &Game, Move, &[usize]) -> String + Sync;

/// The Riga state of a record that must be a Riga game.
fn riga_of(rec: &mut GameRecord) -> Result<&mut RigaPlay, Refused> {
    rec.riga_mut().ok_or(Refused::OutOfDate)
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
///
/// # Errors
/// [`Refused::RigaNotation`] for words that name no move; as [`play_move`].
pub fn play_typed(
    rec: &mut GameRecord,
    player: PlayerId,
    text: &str,
    now: u64,
    line: &MoveLine,
) -> Result<Vec<usize>, Refused> {
    let game = rec
        .riga()
        .and_then(|r| r.game.as_ref())
        .ok_or(Refused::GameOver)?;
    let mv = ::riga::notation::parse_move(text, game).map_err(Refused::RigaNotation)?;
    play_move(rec, player, mv, None, None, now, line)
}

/// `/surrender` in a Riga game.
///
/// # Errors
/// [`Refused::NotAPlayer`], [`Refused::NothingToSurrender`] when the game is not on.
pub fn surrender(rec: &mut GameRecord, player: PlayerId) -> Result<(), Refused> {
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    let r = rec.riga_mut().ok_or(Refused::NothingToSurrender)?;
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
    let Some(r) = rec.riga_mut() else {
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
