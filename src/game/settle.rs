//! The end's settlement: what a finished game writes to the ratings and statistics, worked
//! out from their values before it. The sender loads those ([`wanted`] says which), works it
//! out here, and stores it in the record (so a crash repeats the same write), then writes it
//! whole.

use super::rating::{self, rating_value, Leaderboard, Rating};
use super::record::{is_ai, GameRecord, RatingWrite, Settlement};
use super::riga::{side_of, RigaEnd};
use engine::{EndReason, Phase, SeatId};
use std::collections::HashMap;

/// What the settlement reads before it is worked out: the ratings on each board of these
/// users, and every statistic of these users.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Each board and the users rated on it, in the order of the outcome.
    pub ratings: Vec<(Leaderboard, Vec<u64>)>,
    /// The users whose statistics change.
    pub stats: Vec<u64>,
}

/// The values before the game: ratings by board and user (none for a newcomer), and each
/// user's statistics by field (`SCOPE|NAME`).
#[derive(Clone, Debug, Default)]
pub struct Before {
    /// Ratings by board and user.
    pub ratings: HashMap<(Leaderboard, u64), Rating>,
    /// Statistics by user and field.
    pub stats: HashMap<u64, HashMap<String, u64>>,
}

fn user(rec: &GameRecord, seat: u8) -> u64 {
    rec.game.seats()[usize::from(seat)].player.0
}

fn name(rec: &GameRecord, seat: u8) -> String {
    rec.names
        .get(usize::from(seat))
        .cloned()
        .unwrap_or_default()
}

/// The boards a game between people is rated on: the chat's (in a group) and everyone's. A
/// game in an inline message has no chat the bot knows: everyone's board only.
fn people_boards(rec: &GameRecord) -> Vec<Leaderboard> {
    let mut boards = vec![Leaderboard::People];
    if rec.chat < 0 && rec.inline.is_none() {
        boards.insert(0, Leaderboard::Chat(rec.chat));
    }
    boards
}

/// The scopes of a seat's statistics, and each field with its value and whether the larger
/// of old and new is kept.
type SeatStats = (Vec<String>, Vec<(&'static str, u64, bool)>);

/// The statistics a seat's game adds: the scopes (the game's rules and all games, or the
/// Riga game) and each field with its value and whether the larger of old and new is kept
/// rather than the sum. `None` for a seat that counts for nothing.
fn seat_stats(rec: &GameRecord, i: u8, winners: &[SeatId]) -> Option<SeatStats> {
    match &rec.play {
        super::record::Play::Riga(riga) if riga.game.is_some() => {
            let won = riga.winner() == Some(side_of(i));
            Some((
                vec!["riga".to_owned()],
                vec![("games", 1, false), ("wins", u64::from(won), false)],
            ))
        }
        super::record::Play::Riga(_) => None,
        super::record::Play::SeaBattle(_) if rec.game.fleet(SeatId(i)).is_some() => {
            let f = rating::figures(rec, i);
            Some((
                vec![rec.game.ruleset().to_string(), "all".to_owned()],
                vec![
                    ("games", 1, false),
                    ("wins", u64::from(winners.contains(&SeatId(i))), false),
                    ("shots", u64::from(f.shots), false),
                    ("hits", u64::from(f.hits), false),
                    ("winshots", u64::from(f.shots_to_win.unwrap_or(0)), false),
                    ("turns", u64::from(f.turns), false),
                    (
                        "winturns",
                        u64::from(if f.won { f.turns } else { 0 }),
                        false,
                    ),
                    ("streak", u64::from(f.longest_streak), true),
                ],
            ))
        }
        super::record::Play::SeaBattle(_) => None,
    }
}

/// The winners, when the game counts in the statistics at all: only a game that came to
/// battle counts, not one called off during the placement.
fn counted(rec: &GameRecord) -> Option<Vec<SeatId>> {
    match (&rec.play, rec.game.phase()) {
        (super::record::Play::Riga(r), _) => {
            (r.game.is_some() && r.end != Some(RigaEnd::Cancelled)).then(Vec::new)
        }
        (super::record::Play::SeaBattle(_), Phase::Finished { winners, reason })
            if *reason != EndReason::Cancelled =>
        {
            Some(winners.clone())
        }
        (super::record::Play::SeaBattle(_), _) => None,
    }
}

/// What the settlement of `rec` reads first.
pub fn wanted(rec: &GameRecord) -> Wanted {
    let mut out = Wanted::default();
    if let Some(outcome) = rating::outcome(rec) {
        let users: Vec<u64> = outcome.seats().iter().map(|s| user(rec, s.0)).collect();
        for board in people_boards(rec) {
            out.ratings.push((board, users.clone()));
        }
    }
    let vs_bot: Vec<u64> = rating::against_bot(rec)
        .iter()
        .map(|(s, _)| user(rec, s.0))
        .collect();
    out.ratings.push((Leaderboard::Bot, vs_bot));
    if let Some(winners) = counted(rec) {
        for (i, seat) in rec.game.seats().iter().enumerate() {
            if !is_ai(seat.player) && seat_stats(rec, i as u8, &winners).is_some() {
                out.stats.push(seat.player.0);
            }
        }
    }
    out
}

/// What the end writes to the ratings and statistics, from their values `before` it: the
/// game's players rated on the chat's board and everyone's (a game between people in a
/// group), or against the bot; each player who placed a fleet (or took part in a Riga
/// game) counted in the statistics of the game's rules and of all games.
pub fn work_out(rec: &GameRecord, before: &Before) -> Settlement {
    let mut out = Settlement::default();
    let rating_of =
        |board: Leaderboard, u: u64| before.ratings.get(&(board, u)).cloned().unwrap_or_default();
    if let Some(outcome) = rating::outcome(rec) {
        let order = outcome.seats();
        for board in people_boards(rec) {
            let was: Vec<Rating> = order
                .iter()
                .map(|s| rating_of(board, user(rec, s.0)))
                .collect();
            let after = rating::rate(&outcome, &was);
            for (i, seat) in order.iter().enumerate() {
                out.ratings.push(RatingWrite {
                    board,
                    seat: seat.0,
                    user: user(rec, seat.0),
                    value: rating_value(&after[i], &name(rec, seat.0)),
                    before: was[i].shown(),
                    after: after[i].shown(),
                });
            }
        }
    }
    for (seat, won) in rating::against_bot(rec) {
        let u = user(rec, seat.0);
        let b = rating_of(Leaderboard::Bot, u);
        let a = rating::rate_against_bot(&b, rec.ai_level, won);
        out.ratings.push(RatingWrite {
            board: Leaderboard::Bot,
            seat: seat.0,
            user: u,
            value: rating_value(&a, &name(rec, seat.0)),
            before: b.shown(),
            after: a.shown(),
        });
    }
    let Some(winners) = counted(rec) else {
        return out;
    };
    for (i, seat) in rec.game.seats().iter().enumerate() {
        if is_ai(seat.player) {
            continue;
        }
        let Some((scopes, fields)) = seat_stats(rec, i as u8, &winners) else {
            continue;
        };
        let u = seat.player.0;
        let empty = HashMap::new();
        let now = before.stats.get(&u).unwrap_or(&empty);
        for scope in &scopes {
            for &(field, v, max) in &fields {
                let key = format!("{scope}|{field}");
                let old = now.get(&key).copied().unwrap_or(0);
                let new = if max { old.max(v) } else { old + v };
                out.stats.push((u, key, new));
            }
        }
    }
    out
}

/// What the learning level learns from at the end: every fleet a person placed, revealed at
/// the end of a game that came to battle (not one cancelled while fleets were placed), as
/// layout codes, each with the person's user id.
pub fn revealed_layouts(rec: &GameRecord) -> Vec<(u64, String)> {
    let size = rec.game.ruleset().size();
    let seats = rec.game.seats().len();
    let finished = matches!(rec.game.phase(), Phase::Finished { .. })
        && (0..seats).all(|i| rec.game.fleet(SeatId(i as u8)).is_some());
    rec.game
        .seats()
        .iter()
        .enumerate()
        .filter(|(_, seat)| finished && !is_ai(seat.player))
        .filter_map(|(i, seat)| {
            let fleet = rec.game.fleet(SeatId(i as u8))?;
            Some((seat.player.0, engine::layout_code(fleet, size)))
        })
        .collect()
}
