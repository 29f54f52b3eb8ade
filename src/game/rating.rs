//! Ratings and per-game figures, from finished games: pure, no storage and no chat.
//!
//! # The model
//! Ratings are Weng-Lin's (OpenSkill, [`skillratings::weng_lin`]) with the crate's default
//! configuration: a player's skill is a normal belief of mean `mu` and deviation `sigma`,
//! updated by the ranking of the sides of each game. One model covers every kind of game:
//!
//! - **Duel**: two sides of one seat; the winner takes place 1, the loser place 2.
//! - **Teams** (2v2): two sides of two seats (0 and 2 against 1 and 3); the winning team takes
//!   place 1, the other place 2. Both teammates move the same way, each by a share of the team's
//!   change that grows with their own `sigma` (the less known player moves more).
//! - **Free-for-all** (3 or 4): each seat is a side. The winner takes place 1; the others are
//!   placed by when they left the battle (sunk, surrendered or out of time): the later, the
//!   better. Seats knocked out by the same shot (no other result between their
//!   [`Event::Eliminated`]) share a place. A loser whose leaving is no longer in the log (the
//!   log keeps its last [`crate::game::record::LOG_MAX`] results) is taken as the first to leave.
//! - **Against the bot**: not rated with people. A game with any seat of the bot's gets no
//!   [`Outcome`]; instead each human seat whose opponents are all the bot's is rated by
//!   [`rate_against_bot`] against a fixed rating for the bot's level ([`bot_rating`]), which
//!   never changes. The caller keeps these ratings apart from the ratings between people.
//!   Games where people play against people and the bot alike are not rated at all.
//!
//! Not rated: games that did not finish, cancelled games (no winners), games of fewer than two
//! people, and Riga games ([`GameRecord::riga`]). A surrender or a forfeit is a loss like any
//! other.
//!
//! # The number shown
//! [`Rating::shown`] is what players see and what the leaderboard sorts by: the conservative
//! estimate `mu - 3·sigma` (the skill the player has with about 99.9% certainty) scaled to
//! look like Elo, `(mu - 3·sigma)·40 + 1000`, rounded and never below 0. A new player
//! (mu 25, sigma 25/3) shows 1000; playing makes `sigma` smaller, so the number shown rises
//! with games played as much as with games won, and one lucky win cannot make a newcomer top
//! the board.
//!
//! # Figures of one game
//! [`figures`] counts a seat's shots and hits in a finished game's log for `/stats`.

pub use super::leaderboard::Leaderboard;
use crate::game::record::Play;
use crate::game::record::{is_ai, GameRecord};
use engine::ai::Level;
use engine::{EndReason, Event, Phase, SeatId, ShotResult};
use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin, weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

/// A player's rating: Weng-Lin's `mu` and `sigma`, and the number of rated games behind it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The estimated skill.
    pub mu: f64,
    /// The uncertainty of `mu` (a standard deviation).
    pub sigma: f64,
    /// Rated games played.
    pub games: u32,
}

impl Default for Rating {
    /// The crate's starting rating (mu 25, sigma 25/3), no games: shows 1000.
    fn default() -> Rating {
        Rating::from_weng_lin(WengLinRating::new(), 0)
    }
}

impl Rating {
    /// The number shown to players and used as the leaderboard's score: the conservative
    /// estimate `mu - 3·sigma` scaled to look like Elo, `(mu - 3·sigma)·40 + 1000`, rounded,
    /// never below 0. A new player shows 1000.
    pub fn shown(&self) -> i64 {
        let score = ((self.mu - 3.0 * self.sigma) * 40.0 + 1000.0).round();
        // `as` saturates, and turns a NaN into 0.
        (score as i64).max(0)
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.mu,
            uncertainty: self.sigma,
        }
    }

    fn from_weng_lin(r: WengLinRating, games: u32) -> Rating {
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
            games,
        }
    }
}

/// Who played on which side of a game and how each side placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The sides: indices into the ratings given to [`rate`]. From [`outcome`], an index is a
    /// seat (see [`Outcome::seats`]).
    pub sides: Vec<Vec<usize>>,
    /// Each side's place: 1 is the best; equal places are a tie.
    pub ranks: Vec<usize>,
}

impl Outcome {
    /// The seats of an outcome made by [`outcome`], in the order [`rate`] wants their ratings:
    /// every seat of the game, 0 first.
    pub fn seats(&self) -> Vec<SeatId> {
        let n = self.sides.iter().flatten().max().map_or(0, |&m| m + 1);
        (0..n).map(|i| SeatId(i as u8)).collect()
    }
}

/// The new ratings after a game, in the order of `before`, each played one more game. A
/// rating no side names is returned as it was. With fewer than two sides of players nothing
/// changes.
///
/// # Panics
/// If a side names an index past the end of `before`, or `ranks` and `sides` differ in length.
pub fn rate(game: &Outcome, before: &[Rating]) -> Vec<Rating> {
    assert_eq!(game.sides.len(), game.ranks.len(), "a place for every side");
    let mut after = before.to_vec();
    let sides: Vec<(&[usize], usize)> = game
        .sides
        .iter()
        .zip(&game.ranks)
        .filter(|(side, _)| !side.is_empty())
        .map(|(side, &rank)| (side.as_slice(), rank))
        .collect();
    if sides.len() < 2 {
        return after;
    }
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|(side, _)| side.iter().map(|&i| before[i].weng_lin()).collect())
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&sides)
        .map(|(team, &(_, rank))| (team.as_slice(), MultiTeamOutcome::new(rank)))
        .collect();
    let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
    for ((side, _), team) in sides.iter().zip(new) {
        for (&i, r) in side.iter().zip(team) {
            after[i] = Rating::from_weng_lin(r, before[i].games.saturating_add(1));
        }
    }
    after
}

/// The outcome of a finished game between people, by seat (see [`Outcome::seats`]): sides
/// by team, places by the winners and the order the others left the battle (see the module's
/// documentation). `None` for a game not finished, cancelled, of the Riga board game, with
/// any seat of the bot's, or with fewer than two people.
pub fn outcome(rec: &GameRecord) -> Option<Outcome> {
    match rec.play {
        Play::SeaBattle(_) => {}
        Play::Riga(_) => return None,
    }
    let Phase::Finished { winners, reason } = rec.game.phase() else {
        return None;
    };
    if *reason == EndReason::Cancelled || winners.is_empty() {
        return None;
    }
    let seats = rec.game.seats();
    if seats.len() < 2 || seats.iter().any(|s| is_ai(s.player)) {
        return None;
    }
    let players = rec.game.ruleset().players;
    let out = knocked_out(&rec.log, seats.len());
    // Sides by team, in the order of their first seat.
    let mut teams: Vec<usize> = Vec::new();
    let mut sides: Vec<Vec<usize>> = Vec::new();
    for seat in 0..seats.len() {
        let team = players.team(seat);
        match teams.iter().position(|&t| t == team) {
            Some(k) => sides[k].push(seat),
            None => {
                teams.push(team);
                sides.push(vec![seat]);
            }
        }
    }
    // A side's standing, higher is better: the winners above everyone, the others at the
    // step their last member left.
    let standing: Vec<usize> = sides
        .iter()
        .map(|side| {
            if side.iter().any(|&s| winners.contains(&SeatId(s as u8))) {
                usize::MAX
            } else {
                side.iter().map(|&s| out[s].unwrap_or(0)).max().unwrap_or(0)
            }
        })
        .collect();
    let ranks = standing
        .iter()
        .map(|&mine| 1 + standing.iter().filter(|&&other| other > mine).count())
        .collect();
    Some(Outcome { sides, ranks })
}

/// When each seat left the battle, as a step of the log (1 + the index of the result that
/// caused it): sunk by a shot, a salvo or a cell given up after a mine, or surrendered, or out
/// of time. Seats knocked out by the same result share its step. `None` for a seat that never
/// left (or whose leaving is no longer in the log).
fn knocked_out(log: &[Event], seats: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; seats];
    let mut cause = 0;
    for (i, e) in log.iter().enumerate() {
        let seat = match e {
            Event::Eliminated(s) => Some(*s),
            Event::Surrendered(s) | Event::Forfeit(s) => {
                cause = i + 1;
                Some(*s)
            }
            _ => {
                cause = i + 1;
                None
            }
        };
        if let Some(slot) = seat.and_then(|s| out.get_mut(s.index())) {
            // The first leaving counts: a sunk seat may still surrender.
            slot.get_or_insert(cause);
        }
    }
    out
}

/// The fixed rating the bot plays at, by level, as the opponent of [`rate_against_bot`]. Its
/// `sigma` is small (1): the bot's strength is taken as known, so the human's change follows
/// the gap. `games` is 0.
///
/// | level    | mu | shown |
/// |----------|----|-------|
/// | easy     | 20 | 1680  |
/// | normal   | 25 | 1880  |
/// | hard     | 30 | 2080  |
/// | learning | 30 | 2080  |
///
/// Easy shoots at random, normal hunts and targets, hard and learning sample whole layouts
/// (learning differs only in how it guesses people's placements), so learning is put level
/// with hard until games say otherwise.
pub fn bot_rating(level: Level) -> Rating {
    let mu = match level {
        Level::Easy => 20.0,
        Level::Normal => 25.0,
        Level::Hard | Level::Learning => 30.0,
    };
    Rating {
        mu,
        sigma: BOT_SIGMA,
        games: 0,
    }
}

/// The deviation of the bot's fixed ratings.
const BOT_SIGMA: f64 = 1.0;

/// A human's rating against the bot after one game against the bot at `level`: a duel with
/// [`bot_rating`], of which only the human's side changes. One more game.
pub fn rate_against_bot(before: &Rating, level: Level, won: bool) -> Rating {
    let bot = bot_rating(level).weng_lin();
    let result = if won { Outcomes::WIN } else { Outcomes::LOSS };
    let (human, _) = weng_lin(&before.weng_lin(), &bot, &result, &WengLinConfig::new());
    Rating::from_weng_lin(human, before.games.saturating_add(1))
}

/// The human seats of a finished game that are rated against the bot (at the record's
/// `ai_level`, by [`rate_against_bot`]), each with whether it won: those whose opponents are
/// all the bot's seats. Empty for a game the bot did not play, or one not finished, cancelled
/// or of the Riga board game, and for every seat of a game where people played against people.
pub fn against_bot(rec: &GameRecord) -> Vec<(SeatId, bool)> {
    let Phase::Finished { winners, reason } = rec.game.phase() else {
        return Vec::new();
    };
    match rec.play {
        Play::SeaBattle(_) if *reason != EndReason::Cancelled && !winners.is_empty() => {}
        Play::SeaBattle(_) | Play::Riga(_) => return Vec::new(),
    }
    let seats = rec.game.seats();
    let players = rec.game.ruleset().players;
    let opponents_all_ai = |seat: usize| {
        (0..seats.len())
            .filter(|&o| players.team(o) != players.team(seat))
            .all(|o| is_ai(seats[o].player))
    };
    let humans: Vec<usize> = (0..seats.len())
        .filter(|&s| !is_ai(seats[s].player))
        .collect();
    if humans.len() == seats.len() || !humans.iter().all(|&s| opponents_all_ai(s)) {
        return Vec::new();
    }
    humans
        .into_iter()
        .map(|s| {
            let seat = SeatId(s as u8);
            (seat, winners.contains(&seat))
        })
        .collect()
}

/// One seat's figures in one game, for `/stats` and the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    /// Cells shot at: a shot counts one, a salvo one for each of its cells, an air strike one
    /// for each cell it shot, a torpedo the one it stopped at (the cells it crossed it did not
    /// shoot; a radar shoots none).
    pub shots: u32,
    /// Of them, those that hit a ship (hit or sunk). A mine is not a hit: it costs the shooter.
    pub hits: u32,
    /// The seat's turns: a turn ends at a miss, a mine, a salvo or a weapon of the arsenal
    /// (docs/rules.md §3.8), so without weapons it is the runs of shots.
    pub turns: u32,
    /// The longest run of hits among the seat's own shots (other seats' shots between do not
    /// break it). A salvo's (or an air strike's) cells have no order: it adds its hits to the
    /// run, and ends the run if any of its cells missed or found a mine.
    pub longest_streak: u32,
    /// Whether the seat is among the winners.
    pub won: bool,
    /// The shots it took to win: `shots` when won.
    pub shots_to_win: Option<u32>,
}

/// What one entry of the log counts for its shooter: the cells it shot, the hits among them,
/// and whether the shooter's turn goes on after it (only a plain shot that hit).
fn counts(e: &Event) -> Option<(SeatId, u32, u32, bool)> {
    let hit = |r: &ShotResult| matches!(r, ShotResult::Hit | ShotResult::Sunk(_));
    Some(match e {
        Event::Shot {
            shooter, result, ..
        } => (*shooter, 1, u32::from(hit(result)), hit(result)),
        Event::Salvo {
            shooter,
            shots,
            hits,
            ..
        } => (*shooter, u32::from(*shots), u32::from(*hits), false),
        Event::AirStrike { shooter, cells, .. } => (
            *shooter,
            cells.len() as u32,
            cells.iter().filter(|(_, r)| hit(r)).count() as u32,
            false,
        ),
        Event::Torpedo {
            shooter, hit: h, ..
        } => (
            *shooter,
            u32::from(h.is_some()),
            u32::from(h.as_ref().is_some_and(|(_, r)| hit(r))),
            false,
        ),
        Event::Radar { shooter, .. } => (*shooter, 0, 0, false),
        _ => return None,
    })
}

/// A seat's figures in a game, from its log (which keeps the last
/// [`crate::game::record::LOG_MAX`] results, far more than a game has). Cells given up after a mine
/// are not shots.
pub fn figures(rec: &GameRecord, seat: u8) -> Figures {
    let seat = SeatId(seat);
    let mut f = figures_of(&rec.log, seat);
    f.won = matches!(rec.game.phase(), Phase::Finished { winners, .. } if winners.contains(&seat));
    f.shots_to_win = f.won.then_some(f.shots);
    f
}

/// A seat's shots, hits, turns and longest run of hits in `log`, the results of a game in
/// order (whether it won is not in them).
pub fn figures_of(log: &[Event], seat: SeatId) -> Figures {
    let mut f = Figures::default();
    let mut streak = 0u32;
    // Whether the seat's turn is still going at this point of the log.
    let mut going = false;
    for e in log {
        let Some((shooter, shots, hits, goes_on)) = counts(e) else {
            continue;
        };
        if shooter != seat {
            going = false;
            continue;
        }
        if !going {
            f.turns += 1;
        }
        going = goes_on;
        f.shots += shots;
        f.hits += hits;
        streak += hits;
        f.longest_streak = f.longest_streak.max(streak);
        if hits < shots {
            streak = 0;
        }
    }
    f
}

/// Reads a stored rating and name.
pub fn read_rating(s: &str) -> Option<(Rating, String)> {
    decode(s)
}

/// How a rating is stored: `mu|sigma|games|name`.
pub fn rating_value(r: &Rating, name: &str) -> String {
    format!("{:.6}|{:.6}|{}|{name}", r.mu, r.sigma, r.games)
}

fn decode(s: &str) -> Option<(Rating, String)> {
    let mut parts = s.splitn(4, '|');
    let mu = parts.next()?.parse().ok()?;
    let sigma = parts.next()?.parse().ok()?;
    let games = parts.next()?.parse().ok()?;
    let name = parts.next().unwrap_or_default().to_owned();
    Some((Rating { mu, sigma, games }, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::ai_player;
    use engine::{random_fleet, Action, Coord, Game, PlayerId, Players, Ruleset};
    use rand::SeedableRng;

    fn duel() -> Outcome {
        Outcome {
            sides: vec![vec![0], vec![1]],
            ranks: vec![1, 2],
        }
    }

    fn rating(mu: f64, sigma: f64) -> Rating {
        Rating {
            mu,
            sigma,
            games: 10,
        }
    }

    #[test]
    fn a_new_player_shows_1000_and_nobody_below_0() {
        let new = Rating::default();
        assert_eq!((new.mu, new.sigma, new.games), (25.0, 25.0 / 3.0, 0));
        assert_eq!(new.shown(), 1000);
        assert_eq!(rating(26.0, 1.0).shown(), 1920);
        assert_eq!(rating(-40.0, 8.0).shown(), 0);
        let json = serde_json::to_string(&new).unwrap();
        assert_eq!(serde_json::from_str::<Rating>(&json).unwrap(), new);
    }

    #[test]
    fn a_duel_winner_gains_and_the_loser_loses() {
        let before = [Rating::default(); 2];
        let after = rate(&duel(), &before);
        assert!(after[0].mu > before[0].mu, "{after:?}");
        assert!(after[1].mu < before[1].mu, "{after:?}");
        assert!(
            after[0].shown() > 1000 && after[1].shown() < 1000,
            "{after:?}"
        );
        assert!(after[0].sigma < before[0].sigma && after[1].sigma < before[1].sigma);
        assert_eq!((after[0].games, after[1].games), (1, 1));
        // Places, not the order of the sides, decide.
        let swapped = Outcome {
            sides: vec![vec![1], vec![0]],
            ranks: vec![2, 1],
        };
        assert_eq!(rate(&swapped, &before), after);
    }

    #[test]
    fn an_upset_moves_more_than_an_expected_win() {
        let (strong, weak) = (rating(32.0, 3.0), rating(20.0, 3.0));
        let expected = rate(&duel(), &[strong, weak]);
        let upset = rate(&duel(), &[weak, strong]);
        let gain = |after: &Rating, before: &Rating| after.mu - before.mu;
        assert!(gain(&expected[0], &strong) > 0.0 && gain(&upset[0], &weak) > 0.0);
        assert!(
            gain(&upset[0], &weak) > 2.0 * gain(&expected[0], &strong),
            "{expected:?} {upset:?}"
        );
        assert!(gain(&upset[1], &strong) < 2.0 * gain(&expected[1], &weak));
        assert!(upset[0].shown() - weak.shown() > expected[0].shown() - strong.shown());
    }

    #[test]
    fn teammates_of_two_against_two_move_the_same_way() {
        let before = [
            rating(25.0, 8.0),
            rating(28.0, 4.0),
            rating(22.0, 2.0),
            rating(30.0, 6.0),
        ];
        let teams = Outcome {
            sides: vec![vec![0, 2], vec![1, 3]],
            ranks: vec![1, 2],
        };
        let after = rate(&teams, &before);
        for (i, up) in [(0, true), (2, true), (1, false), (3, false)] {
            assert_eq!(after[i].mu > before[i].mu, up, "seat {i}: {after:?}");
            assert_eq!(after[i].games, 11);
        }
        // The less known teammate moves more.
        assert!(after[0].mu - before[0].mu > after[2].mu - before[2].mu);
    }

    #[test]
    fn in_a_free_for_all_the_winner_gains_most_and_the_first_out_loses_most() {
        let before = [Rating::default(); 4];
        let ffa = Outcome {
            sides: (0..4).map(|s| vec![s]).collect(),
            ranks: vec![3, 1, 4, 2],
        };
        let after = rate(&ffa, &before);
        let delta = |i: usize| after[i].mu - before[i].mu;
        assert!(delta(1) > delta(3) && delta(3) > delta(0) && delta(0) > delta(2));
        assert!(delta(1) > 0.0 && delta(2) < 0.0, "{after:?}");
        // Seats out by the same shot share a place and move alike.
        let tie = Outcome {
            ranks: vec![3, 1, 3, 2],
            ..ffa
        };
        let after = rate(&tie, &before);
        assert_eq!(after[0], after[2]);
    }

    #[test]
    fn beating_the_hard_bot_gains_more_than_beating_the_easy_one() {
        let me = Rating::default();
        let gain = |level, won| rate_against_bot(&me, level, won).mu - me.mu;
        assert!(gain(Level::Easy, true) > 0.0);
        assert!(gain(Level::Normal, true) > gain(Level::Easy, true));
        assert!(gain(Level::Hard, true) > gain(Level::Normal, true));
        // And losing to the easy one costs more than losing to the hard one.
        assert!(gain(Level::Easy, false) < gain(Level::Hard, false));
        assert!(gain(Level::Hard, false) < 0.0);
        assert_eq!(rate_against_bot(&me, Level::Learning, true).games, 1);
        assert_eq!(bot_rating(Level::Normal).shown(), 1880);
    }

    /// A game of `players` between the given players, placed at random, not yet shot at.
    fn battle(players: Players, who: &[PlayerId], seed: u64) -> GameRecord {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let r = Ruleset {
            players,
            ..Ruleset::default()
        };
        let mut game = Game::new(r.clone());
        for &p in who {
            game.apply(Action::Join(p), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..who.len() as u8 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        GameRecord::new(game, -1, 0)
    }

    /// Plays the game to its end: every shooter at its first target's first unknown cell.
    fn play_out(rec: &mut GameRecord) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(0);
        while !rec.game.is_finished() {
            let shooter = rec.game.turn();
            let target = rec.game.targets(shooter)[0];
            let cell = rec
                .game
                .ruleset()
                .size()
                .cells()
                .find(|&c| !rec.game.is_known(target, c))
                .unwrap();
            let events = rec
                .game
                .apply(Action::Fire(shooter, target, cell), 0, &mut rng)
                .unwrap();
            rec.push_log(&events);
        }
    }

    fn people(n: u64) -> Vec<PlayerId> {
        (1..=n).map(PlayerId).collect()
    }

    #[test]
    fn no_outcome_for_an_unfinished_or_cancelled_game_or_one_with_the_bot() {
        let mut rec = battle(Players::Duel, &people(2), 1);
        assert_eq!(outcome(&rec), None);
        play_out(&mut rec);
        assert!(outcome(&rec).is_some());

        let mut with_bot = battle(Players::Duel, &[PlayerId(1), ai_player(0)], 2);
        play_out(&mut with_bot);
        assert_eq!(outcome(&with_bot), None);
        let (seat, won) = against_bot(&with_bot)[0];
        assert_eq!(seat, SeatId(0));
        assert_eq!(won, figures(&with_bot, 0).won);
        assert!(against_bot(&rec).is_empty());

        let mut cancelled = Game::new(Ruleset::default());
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for p in people(2) {
            cancelled.apply(Action::Join(p), 0, &mut rng).unwrap();
        }
        cancelled.apply(Action::Cancel, 0, &mut rng).unwrap();
        assert_eq!(outcome(&GameRecord::new(cancelled, -1, 0)), None);

        // People against people and the bot alike: rated neither way.
        let mut mixed = battle(
            Players::FreeForAll(3),
            &[PlayerId(1), PlayerId(2), ai_player(0)],
            4,
        );
        play_out(&mut mixed);
        assert_eq!(outcome(&mixed), None);
        assert!(against_bot(&mixed).is_empty());
    }

    #[test]
    fn a_duel_is_won_by_the_seat_left_afloat() {
        let mut rec = battle(Players::Duel, &people(2), 5);
        play_out(&mut rec);
        let o = outcome(&rec).unwrap();
        assert_eq!(o.sides, vec![vec![0], vec![1]]);
        let winner = usize::from(figures(&rec, 1).won);
        assert_eq!(o.ranks[winner], 1);
        assert_eq!(o.ranks[1 - winner], 2);
        assert_eq!(o.seats(), vec![SeatId(0), SeatId(1)]);
    }

    #[test]
    fn a_played_free_for_all_is_ranked_by_the_order_seats_were_sunk() {
        let mut rec = battle(Players::FreeForAll(4), &people(4), 6);
        play_out(&mut rec);
        let sunk: Vec<usize> = rec
            .log
            .iter()
            .filter_map(|e| match e {
                Event::Eliminated(s) => Some(s.index()),
                _ => None,
            })
            .collect();
        assert_eq!(sunk.len(), 3, "{sunk:?}");
        let o = outcome(&rec).unwrap();
        assert_eq!(o.sides, (0..4).map(|s| vec![s]).collect::<Vec<_>>());
        let winner = (0..4).find(|s| !sunk.contains(s)).unwrap();
        assert_eq!(o.ranks[winner], 1);
        assert_eq!(o.ranks[sunk[2]], 2);
        assert_eq!(o.ranks[sunk[1]], 3);
        assert_eq!(o.ranks[sunk[0]], 4);
        let after = rate(&o, &[Rating::default(); 4]);
        assert!(after[winner].mu > after[sunk[2]].mu && after[sunk[0]].mu < 25.0);
    }

    #[test]
    fn seats_out_by_one_shot_share_a_place_and_a_surrender_counts() {
        let mut rec = battle(Players::FreeForAll(4), &people(4), 7);
        // Seat 3 surrenders, then one shot of seat 0's sinks seats 1 and 2 (made up: the
        // engine's results strike one field each, so this is the rule for a log that has it).
        let shot = Event::Shot {
            shooter: SeatId(0),
            target: SeatId(1),
            cell: Coord::new(0, 0),
            result: ShotResult::Sunk(engine::Kind::Ship(1)),
        };
        rec.log = vec![
            Event::Surrendered(SeatId(3)),
            shot,
            Event::Eliminated(SeatId(1)),
            Event::Eliminated(SeatId(2)),
        ];
        rec.game = finished(&rec.game, &[SeatId(0)]);
        assert_eq!(outcome(&rec).unwrap().ranks, vec![1, 2, 2, 4]);
    }

    /// The game as finished with these winners (through its stored form: its phase is the
    /// engine's own).
    fn finished(game: &Game, winners: &[SeatId]) -> Game {
        let mut json = serde_json::to_value(game).unwrap();
        json["ph"] = serde_json::to_value(Phase::Finished {
            winners: winners.to_vec(),
            reason: EndReason::Sunk,
        })
        .unwrap();
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn a_played_two_against_two_has_two_sides_of_teammates() {
        let mut rec = battle(Players::Teams, &people(4), 8);
        play_out(&mut rec);
        let o = outcome(&rec).unwrap();
        assert_eq!(o.sides, vec![vec![0, 2], vec![1, 3]]);
        let first_won = figures(&rec, 0).won;
        assert_eq!(figures(&rec, 2).won, first_won);
        assert_eq!(o.ranks, if first_won { vec![1, 2] } else { vec![2, 1] });
    }

    #[test]
    fn figures_of_a_played_game_count_each_seats_own_shots() {
        let mut rec = battle(Players::Duel, &people(2), 9);
        play_out(&mut rec);
        let mut winners = 0;
        for seat in 0..2u8 {
            let f = figures(&rec, seat);
            let shots = rec
                .log
                .iter()
                .filter(|e| matches!(e, Event::Shot { shooter, .. } if shooter.0 == seat))
                .count();
            assert_eq!(f.shots as usize, shots);
            assert!(f.hits <= f.shots && f.longest_streak <= f.hits, "{f:?}");
            assert!(f.longest_streak >= 1, "{f:?}");
            if f.won {
                winners += 1;
                assert_eq!(f.shots_to_win, Some(f.shots));
                // The classic fleet has 20 cells, all hit by the winner.
                assert_eq!(f.hits, 20);
            } else {
                assert_eq!(f.shots_to_win, None);
            }
        }
        assert_eq!(winners, 1);
    }

    fn shot(shooter: u8, result: ShotResult) -> Event {
        Event::Shot {
            shooter: SeatId(shooter),
            target: SeatId(1 - shooter),
            cell: Coord::new(0, 0),
            result,
        }
    }

    #[test]
    fn a_streak_runs_over_other_seats_shots_and_ends_at_a_miss_or_a_mine() {
        use ShotResult::{Hit, Mine, Miss, Sunk};
        let mut rec = battle(Players::Duel, &people(2), 10);
        let sunk = Sunk(engine::Kind::Ship(2));
        rec.log = vec![
            shot(0, Hit),
            shot(0, Hit),
            shot(0, Mine),
            shot(1, Hit),
            shot(0, Hit),
            shot(1, Miss),
            shot(0, sunk),
            shot(0, Hit),
            shot(0, Miss),
            shot(0, Hit),
        ];
        rec.game = finished(&rec.game, &[SeatId(0)]);
        let f = figures(&rec, 0);
        assert_eq!((f.shots, f.hits, f.longest_streak), (8, 6, 3));
        assert_eq!((f.won, f.shots_to_win), (true, Some(8)));
        // Turns: hit hit mine | hit | sunk hit miss | hit.
        assert_eq!(f.turns, 4);
        let g = figures(&rec, 1);
        assert_eq!((g.shots, g.hits, g.longest_streak, g.won), (2, 1, 1, false));
        assert_eq!(g.turns, 2);
    }

    #[test]
    fn a_salvo_counts_each_cell_and_breaks_a_streak_unless_every_cell_hit() {
        let salvo = |shots, hits, mines| Event::Salvo {
            shooter: SeatId(0),
            target: SeatId(1),
            shots,
            hits,
            mines,
            sunk: Vec::new(),
        };
        let mut rec = battle(Players::Duel, &people(2), 11);
        rec.log = vec![
            salvo(3, 3, 0),
            salvo(3, 2, 1),
            salvo(3, 1, 0),
            salvo(3, 0, 0),
        ];
        let f = figures(&rec, 0);
        assert_eq!((f.shots, f.hits, f.longest_streak), (12, 6, 5));
        assert_eq!((f.won, f.shots_to_win), (false, None));
        // Every salvo is a turn, even one that hit with every cell.
        assert_eq!(f.turns, 4);
    }

    #[test]
    fn a_weapon_is_a_turn_and_counts_the_cells_it_shot() {
        use engine::Heading;
        use ShotResult::{Hit, Miss, Sunk};
        let c = |x, y| Coord::new(x, y);
        let (a, b) = (SeatId(0), SeatId(1));
        let mut rec = battle(Players::Duel, &people(2), 12);
        rec.log = vec![
            // A hit goes on; the radar after it is the same turn's end and shoots nothing.
            shot(0, Hit),
            Event::Radar {
                shooter: a,
                target: b,
                center: c(4, 4),
                count: 2,
            },
            shot(1, Miss),
            // An air strike: four cells shot, two of them hits; the turn ends with it.
            Event::AirStrike {
                shooter: a,
                target: b,
                center: c(0, 0),
                cells: vec![
                    (c(0, 0), Hit),
                    (c(1, 0), Sunk(engine::Kind::Ship(2))),
                    (c(0, 1), Miss),
                    (c(1, 1), Miss),
                ],
            },
            shot(1, Miss),
            // A torpedo that hit: one cell shot (not the three it crossed), one hit.
            Event::Torpedo {
                shooter: a,
                target: b,
                from: c(9, 5),
                heading: Heading::West,
                passed: vec![c(9, 5), c(8, 5), c(7, 5)],
                hit: Some((c(6, 5), Hit)),
            },
            shot(1, Miss),
            // One that found nothing shot no cell.
            Event::Torpedo {
                shooter: a,
                target: b,
                from: c(9, 7),
                heading: Heading::West,
                passed: vec![c(9, 7)],
                hit: None,
            },
            shot(1, Miss),
            shot(0, Hit),
        ];
        let f = figures(&rec, 0);
        assert_eq!((f.turns, f.shots, f.hits), (5, 7, 5));
        assert_eq!(figures(&rec, 1).turns, 4);
    }
}
