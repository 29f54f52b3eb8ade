//! A group's tournament, with no I/O: sign-up, the format, the rounds and their pairings,
//! the results of its matches and the standings.
//!
//! A match is one duel game of Sea Battle and always has a winner. A win is a point, a bye
//! is a point, a loss is none. The caller opens each match's game ([`Tournament::next_match`],
//! [`Tournament::assign_game`]) and hands in its end ([`Tournament::record`]); the next round
//! is made when the current one is complete. Who meets whom is in `pairing.rs`; the
//! standings and the podium in `standings.rs`.

mod pairing;
mod standings;
#[cfg(test)]
mod tests;

pub use standings::Standing;

use serde::{Deserialize, Serialize};

/// The schema version of a stored [`Tournament`]: fields added later come with a default.
pub const TOURNAMENT_VERSION: u16 = 1;

/// How a tournament is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Everyone meets everyone once.
    RoundRobin,
    /// ⌈log2 N⌉ rounds, each pairing players with equal points who have not met yet.
    #[default]
    Swiss,
    /// A knock-out bracket: a loss and the player is out.
    Elimination,
}

impl Format {
    /// Every format, in the order offered.
    pub const ALL: [Format; 3] = [Format::RoundRobin, Format::Swiss, Format::Elimination];

    /// The most entrants the format takes.
    pub fn max_players(self) -> usize {
        match self {
            Format::RoundRobin => 8,
            Format::Swiss | Format::Elimination => 32,
        }
    }
}

/// What a tournament's button does (a press's action).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourOp {
    /// Sign up.
    Join,
    /// Take one's name back before the start.
    Leave,
    /// The runner picks the format.
    Format(Format),
    /// The runner closes the sign-up: the first round is paired.
    Start,
    /// The runner calls the tournament off.
    Cancel,
}

/// Someone who signed up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Their Telegram user id.
    pub user: u64,
    /// Their name as it was at sign-up, to show in the standings.
    pub name: String,
}

/// One match of a round between two entrants (their indices in
/// [`Tournament::entrants`]), or a bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    /// The first entrant (the higher-ranked or higher seed).
    pub a: usize,
    /// The second entrant; `None`: a bye for `a`, won from the start.
    pub b: Option<usize>,
    /// The duel's game id once it is opened.
    pub game: Option<u64>,
    /// The winner, once decided.
    pub winner: Option<usize>,
    /// Whether the loser forfeited (ran out of time, gave up before the end, left).
    pub forfeit: bool,
}

impl Match {
    /// A match to be played between `a` and `b`.
    fn pair(a: usize, b: usize) -> Match {
        Match {
            a,
            b: Some(b),
            game: None,
            winner: None,
            forfeit: false,
        }
    }

    /// A bye for `a`: won already, it needs no game.
    fn bye(a: usize) -> Match {
        Match {
            a,
            b: None,
            game: None,
            winner: Some(a),
            forfeit: false,
        }
    }

    /// Whether this is a bye.
    pub fn is_bye(&self) -> bool {
        self.b.is_none()
    }

    /// The loser of a decided match between two entrants.
    pub fn loser(&self) -> Option<usize> {
        let (b, winner) = (self.b?, self.winner?);
        Some(if winner == self.a { b } else { self.a })
    }

    /// Whether the entrant plays in (or has the bye of) this match.
    pub fn has(&self, entrant: usize) -> bool {
        self.a == entrant || self.b == Some(entrant)
    }
}

/// One round: its matches, byes last.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round's matches.
    pub matches: Vec<Match>,
}

impl Round {
    /// Whether every match of the round has its winner.
    pub fn complete(&self) -> bool {
        self.matches.iter().all(|m| m.winner.is_some())
    }
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players sign up; the format may change.
    #[default]
    SignUp,
    /// The rounds are being played.
    Running,
    /// Every round is played.
    Finished,
    /// Called off.
    Cancelled,
}

/// A group's tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    /// The schema version ([`TOURNAMENT_VERSION`] when written).
    pub v: u16,
    /// The tournament's id.
    pub id: u64,
    /// The group chat it is played in.
    pub chat: i64,
    /// The forum topic it is played in, if any.
    pub topic: Option<i32>,
    /// Who opened it and runs it (they may leave the entrants and still run it).
    pub runner: u64,
    /// How it is played.
    pub format: Format,
    /// Everyone signed up, in sign-up order (the seeding); indices name them everywhere.
    pub entrants: Vec<Entrant>,
    /// Where it stands.
    pub phase: Phase,
    /// The rounds made so far, the current one last.
    pub rounds: Vec<Round>,
    /// When it was opened (Unix seconds).
    pub created: u64,
    /// The group's message with its sign-up or standings, kept for the adapter.
    pub message: Option<i32>,
    /// How many rounds' standings have been posted as a picture.
    #[serde(default)]
    pub pictured: usize,
    /// A hash of what its message was last drawn with (0: nothing yet), so two replicas
    /// that both see a change edit the message once.
    #[serde(default)]
    pub drawn: u64,
}

/// Why a tournament's transition changed nothing (its words are under [`Self::key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentRefused {
    /// Sign-up is over (or the tournament is over).
    NotOpen,
    /// The person has signed up already.
    AlreadyIn,
    /// The person has not signed up.
    NotIn,
    /// The format takes no more entrants.
    Full,
    /// Fewer than two entrants.
    TooFew,
    /// More entrants than the format takes.
    TooManyForFormat,
    /// Only the runner or a chat admin may do this.
    NotRunner,
    /// The tournament is not being played.
    NotRunning,
    /// No match of the tournament has this game (or no such match to give a game).
    UnknownGame,
    /// The winner named does not play in the match.
    NotInMatch,
}

impl TournamentRefused {
    /// The localisation key of the refusal's words.
    pub fn key(self) -> &'static str {
        match self {
            TournamentRefused::NotOpen => "tournament-refused-not-open",
            TournamentRefused::AlreadyIn => "tournament-refused-already-in",
            TournamentRefused::NotIn => "tournament-refused-not-in",
            TournamentRefused::Full => "tournament-refused-full",
            TournamentRefused::TooFew => "tournament-refused-too-few",
            TournamentRefused::TooManyForFormat => "tournament-refused-too-many-for-format",
            TournamentRefused::NotRunner => "tournament-refused-not-runner",
            TournamentRefused::NotRunning => "tournament-refused-not-running",
            TournamentRefused::UnknownGame => "tournament-refused-unknown-game",
            TournamentRefused::NotInMatch => "tournament-refused-not-in-match",
        }
    }
}

/// What [`Tournament::record`] did with a game's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// The result is recorded (and the next round made, or the tournament finished, if the
    /// round is complete).
    Recorded,
    /// The match had its result already: nothing changed.
    AlreadyRecorded,
}

impl Tournament {
    /// A new tournament open for sign-up, its runner the first entrant.
    pub fn open(
        id: u64,
        chat: i64,
        topic: Option<i32>,
        runner: Entrant,
        format: Format,
        now: u64,
    ) -> Tournament {
        Tournament {
            v: TOURNAMENT_VERSION,
            id,
            chat,
            topic,
            runner: runner.user,
            format,
            entrants: vec![runner],
            phase: Phase::SignUp,
            rounds: Vec::new(),
            created: now,
            message: None,
            pictured: 0,
            drawn: 0,
        }
    }

    /// Whether `by` may run it: the runner, or a chat admin (`is_admin`, as the caller knows).
    pub fn may_run(&self, by: u64, is_admin: bool) -> bool {
        by == self.runner || is_admin
    }

    /// Signs someone up.
    pub fn join(&mut self, who: Entrant) -> Result<(), TournamentRefused> {
        if self.phase != Phase::SignUp {
            return Err(TournamentRefused::NotOpen);
        }
        if self.seat_of(who.user).is_some() {
            return Err(TournamentRefused::AlreadyIn);
        }
        if self.entrants.len() >= self.format.max_players() {
            return Err(TournamentRefused::Full);
        }
        self.entrants.push(who);
        Ok(())
    }

    /// Takes someone off the sign-up (the runner too: they still run it).
    pub fn leave(&mut self, user: u64) -> Result<(), TournamentRefused> {
        if self.phase != Phase::SignUp {
            return Err(TournamentRefused::NotOpen);
        }
        let seat = self.seat_of(user).ok_or(TournamentRefused::NotIn)?;
        self.entrants.remove(seat);
        Ok(())
    }

    /// Changes the format during sign-up. `may_run`: whether `by` is a chat admin or
    /// otherwise may run it (the runner always may).
    pub fn set_format(
        &mut self,
        by: u64,
        may_run: bool,
        format: Format,
    ) -> Result<(), TournamentRefused> {
        self.check_runner(by, may_run)?;
        if self.phase != Phase::SignUp {
            return Err(TournamentRefused::NotOpen);
        }
        if self.entrants.len() > format.max_players() {
            return Err(TournamentRefused::TooManyForFormat);
        }
        self.format = format;
        Ok(())
    }

    /// `/tournament` again: `fresh` takes the chat's place when the stored one is over
    /// (finished or called off), or is `fresh` already (the same command run again). `false`
    /// while another one signs up or runs: nothing changes.
    pub fn open_anew(&mut self, fresh: &Tournament) -> bool {
        if self.id == fresh.id {
            return true;
        }
        match self.phase {
            Phase::SignUp | Phase::Running => false,
            Phase::Finished | Phase::Cancelled => {
                *self = fresh.clone();
                true
            }
        }
    }

    /// The tournament `id` is shown in the group's message `message` (its first, kept).
    pub fn shown_in(&mut self, id: u64, message: i32) {
        if self.id == id && self.message.is_none() {
            self.message = Some(message);
        }
    }

    /// Its message is to be drawn as `hash` now: `false` when it shows that already (drawn
    /// by another replica, or unchanged), else noted as drawn.
    pub fn to_draw(&mut self, hash: u64) -> bool {
        if self.drawn == hash {
            return false;
        }
        self.drawn = hash;
        true
    }

    /// The round whose standings are to be posted as a picture now (from 1), if one was
    /// completed since the last: noted as posted (the caller posts it once the note is
    /// stored, so a crash between leaves it out rather than posting it twice).
    pub fn picture_due(&mut self) -> Option<usize> {
        let completed = match self.phase {
            Phase::Finished => self.rounds.len(),
            Phase::Running => self.rounds.len().saturating_sub(1),
            Phase::SignUp | Phase::Cancelled => 0,
        };
        if completed <= self.pictured {
            return None;
        }
        self.pictured = completed;
        Some(completed)
    }

    /// Ends sign-up and makes the first round (seeded by sign-up order). `may_run` as in
    /// [`Self::set_format`].
    pub fn start(&mut self, by: u64, may_run: bool) -> Result<(), TournamentRefused> {
        self.check_runner(by, may_run)?;
        if self.phase != Phase::SignUp {
            return Err(TournamentRefused::NotOpen);
        }
        if self.entrants.len() < 2 {
            return Err(TournamentRefused::TooFew);
        }
        if self.entrants.len() > self.format.max_players() {
            return Err(TournamentRefused::TooManyForFormat);
        }
        self.phase = Phase::Running;
        self.rounds.clear();
        self.advance();
        Ok(())
    }

    /// Calls it off, during sign-up or play. `may_run` as in [`Self::set_format`].
    pub fn cancel(&mut self, by: u64, may_run: bool) -> Result<(), TournamentRefused> {
        self.check_runner(by, may_run)?;
        if matches!(self.phase, Phase::Finished | Phase::Cancelled) {
            return Err(TournamentRefused::NotOpen);
        }
        self.phase = Phase::Cancelled;
        Ok(())
    }

    /// The refusal for someone who may not run it.
    fn check_runner(&self, by: u64, may_run: bool) -> Result<(), TournamentRefused> {
        if self.may_run(by, may_run) {
            Ok(())
        } else {
            Err(TournamentRefused::NotRunner)
        }
    }

    /// The index of the round being played, while it runs.
    pub fn current_round(&self) -> Option<usize> {
        if self.phase == Phase::Running {
            self.rounds.len().checked_sub(1)
        } else {
            None
        }
    }

    /// How many rounds the format plays with this many entrants.
    pub fn rounds_total(&self) -> usize {
        let n = self.entrants.len();
        match self.format {
            Format::RoundRobin => pairing::round_robin_rounds(n),
            Format::Swiss | Format::Elimination => pairing::log2_rounds(n),
        }
    }

    /// The matches of the current round.
    fn current_matches(&self) -> impl Iterator<Item = (usize, usize, &Match)> {
        let round = self.current_round();
        round.into_iter().flat_map(move |r| {
            self.rounds[r]
                .matches
                .iter()
                .enumerate()
                .map(move |(i, m)| (r, i, m))
        })
    }

    /// The next match to open a game for: (round, index) of the current round's first
    /// match between two entrants with no game and no winner yet.
    pub fn next_match(&self) -> Option<(usize, usize)> {
        self.current_matches()
            .find(|(_, _, m)| m.b.is_some() && m.game.is_none() && m.winner.is_none())
            .map(|(r, i, _)| (r, i))
    }

    /// The match being played: (round, index) of the current round's first match with a
    /// game and no winner yet.
    pub fn playing(&self) -> Option<(usize, usize)> {
        self.current_matches()
            .find(|(_, _, m)| m.game.is_some() && m.winner.is_none())
            .map(|(r, i, _)| (r, i))
    }

    /// Gives a match of the current round the game its players play it in (again: a new
    /// game for a match whose game came to nothing). Refused with
    /// [`TournamentRefused::UnknownGame`] for a match that is not of the current round, is
    /// a bye or decided, or for a game another match has.
    pub fn assign_game(
        &mut self,
        round: usize,
        index: usize,
        game: u64,
    ) -> Result<(), TournamentRefused> {
        if self.phase != Phase::Running {
            return Err(TournamentRefused::NotRunning);
        }
        if self.current_round() != Some(round) {
            return Err(TournamentRefused::UnknownGame);
        }
        let taken = self.rounds.iter().enumerate().any(|(r, rd)| {
            rd.matches
                .iter()
                .enumerate()
                .any(|(i, m)| m.game == Some(game) && (r, i) != (round, index))
        });
        let m = self.rounds[round]
            .matches
            .get_mut(index)
            .ok_or(TournamentRefused::UnknownGame)?;
        if taken || m.b.is_none() || m.winner.is_some() {
            return Err(TournamentRefused::UnknownGame);
        }
        m.game = Some(game);
        Ok(())
    }

    /// Records the end of a match's game: its winner (a user id) and whether the loser
    /// forfeited. When the current round is complete, the next is made, or the tournament
    /// is finished after its last.
    pub fn record(
        &mut self,
        game: u64,
        winner_user: u64,
        forfeit: bool,
    ) -> Result<Recorded, TournamentRefused> {
        let (r, i) = self
            .rounds
            .iter()
            .enumerate()
            .find_map(|(r, rd)| {
                rd.matches
                    .iter()
                    .position(|m| m.game == Some(game))
                    .map(|i| (r, i))
            })
            .ok_or(TournamentRefused::UnknownGame)?;
        if self.rounds[r].matches[i].winner.is_some() {
            return Ok(Recorded::AlreadyRecorded);
        }
        if self.phase != Phase::Running {
            return Err(TournamentRefused::NotRunning);
        }
        let winner = self
            .seat_of(winner_user)
            .ok_or(TournamentRefused::NotInMatch)?;
        let m = &mut self.rounds[r].matches[i];
        if !m.has(winner) {
            return Err(TournamentRefused::NotInMatch);
        }
        m.winner = Some(winner);
        m.forfeit = forfeit;
        self.advance();
        Ok(Recorded::Recorded)
    }

    /// Makes rounds while the last is complete, and finishes after the last planned.
    fn advance(&mut self) {
        while self.phase == Phase::Running {
            if self.rounds.last().is_some_and(|r| !r.complete()) {
                return;
            }
            if self.rounds.len() >= self.rounds_total() {
                self.phase = Phase::Finished;
                return;
            }
            let n = self.entrants.len();
            let matches = match (self.format, self.rounds.last()) {
                (Format::RoundRobin, _) => pairing::round_robin_round(n, self.rounds.len()),
                (Format::Swiss, None) => pairing::swiss_first(n),
                (Format::Swiss, Some(_)) => pairing::swiss_next(n, &self.rounds),
                (Format::Elimination, None) => pairing::elimination_first(n),
                (Format::Elimination, Some(last)) => pairing::elimination_next(last),
            };
            self.rounds.push(Round { matches });
        }
    }

    /// The entrant index of a user.
    pub fn seat_of(&self, user: u64) -> Option<usize> {
        self.entrants.iter().position(|e| e.user == user)
    }
}
