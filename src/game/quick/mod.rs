//! The quick match's queue, with no I/O: who waits for a stranger, and who is paired with
//! whom.
//!
//! `/find` puts a player in the queue under their own saved rules; only players with
//! identical rules are paired. Pairing prefers a close rating and widens with the wait
//! ([`WINDOWS`]); after [`LONELY_MS`] alone a game against the bot is offered.
//!
//! The whole queue is one stored [`Queue`]: the store runs each transition in one atomic
//! compare-and-set, so two replicas never pair one person twice. A pair leaves the waiting
//! list and enters [`Queue::paired`] in the same write and stays there until whoever opens
//! its game takes it ([`Queue::take_pair`]): a crash between the pairing and the game loses
//! nobody, and a player who cancelled is gone from the queue and is never paired.

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

/// The schema version of a stored [`Queue`]: fields added later come with a default.
pub const QUEUE_VERSION: u16 = 1;

/// The rating windows, widest last: (waited at least this many ms, ± this rating; `None`:
/// anyone).
pub const WINDOWS: [(u64, Option<i64>); 3] = [(0, Some(100)), (20_000, Some(300)), (45_000, None)];

/// After this long alone (in ms), the bot is offered.
pub const LONELY_MS: u64 = 60_000;

/// The bot's level whose fixed rating is nearest `rating` (offered to one left alone).
pub fn bot_level_near(rating: i64) -> engine::ai::Level {
    engine::ai::Level::ALL
        .into_iter()
        .min_by_key(|&l| (crate::game::rating::bot_rating(l).shown() - rating).abs())
        .unwrap_or_default()
}

/// The rating window of someone who has waited `waited_ms`: ± this much, `None` for anyone.
pub fn window(waited_ms: u64) -> Option<i64> {
    WINDOWS
        .iter()
        .rev()
        .find(|(after, _)| waited_ms >= *after)
        .map_or(WINDOWS[0].1, |(_, width)| *width)
}

/// Someone waiting for a stranger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeker {
    /// Their Telegram user id.
    pub user: u64,
    /// Their name as it was when they began to wait.
    pub name: String,
    /// Their shown rating (1000 for a newcomer).
    pub rating: i64,
    /// The key of their saved ruleset: equal keys are identical rules.
    pub rules: String,
    /// When they began to wait (Unix ms).
    pub since: u64,
    /// The users they never want to meet.
    #[serde(default)]
    pub blocked: Vec<u64>,
    /// Whether the bot has been offered to them already.
    #[serde(default)]
    pub offered_bot: bool,
}

impl Seeker {
    /// How long they have waited by `now` (Unix ms).
    pub fn waited(&self, now: u64) -> u64 {
        now.saturating_sub(self.since)
    }

    /// Whether the two may be paired at `now`: different users, identical rules, neither
    /// blocks the other, and their ratings within the wider of their two windows.
    pub fn fits(&self, other: &Seeker, now: u64) -> bool {
        if self.user == other.user
            || self.rules != other.rules
            || self.blocked.contains(&other.user)
            || other.blocked.contains(&self.user)
        {
            return false;
        }
        let (mine, theirs) = (window(self.waited(now)), window(other.waited(now)));
        match (mine, theirs) {
            (None, _) | (_, None) => true,
            (Some(x), Some(y)) => self.rating.abs_diff(other.rating) <= x.max(y).unsigned_abs(),
        }
    }
}

/// Two seekers paired for a duel, their game not yet opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    /// The one who waited longer.
    pub a: Seeker,
    /// The other.
    pub b: Seeker,
    /// When they were paired (Unix ms).
    pub at: u64,
    /// Their duel's game id, once one is reserved for it: the game is created under it
    /// (once), then the pair is taken.
    #[serde(default)]
    pub game: Option<u64>,
}

impl Pair {
    /// Whether `user` is one of the two.
    pub fn has(&self, user: u64) -> bool {
        self.a.user == user || self.b.user == user
    }

    /// The opponent of `user`, if `user` is one of the two.
    pub fn other(&self, user: u64) -> Option<&Seeker> {
        if self.a.user == user {
            Some(&self.b)
        } else if self.b.user == user {
            Some(&self.a)
        } else {
            None
        }
    }
}

/// The quick match's queue as stored: one value for everyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Queue {
    /// The schema version ([`QUEUE_VERSION`] when written).
    pub v: u16,
    /// Everyone waiting, in the order they came.
    #[serde(default)]
    pub waiting: Vec<Seeker>,
    /// Pairs made and not yet taken by whoever opens their game (so a crash between the
    /// pairing and the game's creation loses nobody): the adapter takes a pair with
    /// [`Queue::take_pair`] once its game exists.
    #[serde(default)]
    pub paired: Vec<Pair>,
}

impl Default for Queue {
    /// An empty queue of the current version.
    fn default() -> Queue {
        Queue {
            v: QUEUE_VERSION,
            waiting: Vec::new(),
            paired: Vec::new(),
        }
    }
}

/// Why a queue's transition changed nothing (its words are under [`Self::key`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuickRefused {
    /// The person waits already.
    AlreadyWaiting,
    /// The person is paired already and their game is being opened.
    AlreadyPaired,
    /// The person is not waiting.
    NotWaiting,
}

impl QuickRefused {
    /// The localisation key of the refusal's words.
    pub fn key(self) -> &'static str {
        match self {
            QuickRefused::AlreadyWaiting => "quick-refused-already-waiting",
            QuickRefused::AlreadyPaired => "quick-refused-already-paired",
            QuickRefused::NotWaiting => "quick-refused-not-waiting",
        }
    }
}

impl Queue {
    /// Joins the queue; pairs at once when someone fits (then returns the pair, also kept
    /// in [`Self::paired`]).
    pub fn seek(&mut self, s: Seeker, now: u64) -> Result<Option<Pair>, QuickRefused> {
        if self.position(s.user).is_some() {
            return Err(QuickRefused::AlreadyWaiting);
        }
        if self.pair_of(s.user).is_some() {
            return Err(QuickRefused::AlreadyPaired);
        }
        let Some(i) = self.best_for(&s, now) else {
            self.waiting.push(s);
            return Ok(None);
        };
        let waiter = self.waiting.remove(i);
        let (a, b) = if s.since < waiter.since {
            (s, waiter)
        } else {
            (waiter, s)
        };
        let pair = Pair {
            a,
            b,
            at: now,
            game: None,
        };
        self.paired.push(pair.clone());
        Ok(Some(pair))
    }

    /// Leaves the queue; returns who left. A paired player is no longer waiting.
    pub fn cancel(&mut self, user: u64) -> Result<Seeker, QuickRefused> {
        let i = self
            .waiting
            .iter()
            .position(|w| w.user == user)
            .ok_or(QuickRefused::NotWaiting)?;
        Ok(self.waiting.remove(i))
    }

    /// The periodic pass as windows widen: every pair that fits now (oldest waiters first,
    /// each taking its closest fit), moved to [`Self::paired`].
    pub fn pair_due(&mut self, now: u64) -> Vec<Pair> {
        let mut order: Vec<(u64, u64)> = self.waiting.iter().map(|w| (w.since, w.user)).collect();
        order.sort_unstable();
        let mut made = Vec::new();
        for (_, user) in order {
            let Some(i) = self.waiting.iter().position(|w| w.user == user) else {
                continue; // paired earlier in this pass
            };
            let Some(j) = self.best_for(&self.waiting[i], now) else {
                continue;
            };
            let (first, second) = if i > j { (i, j) } else { (j, i) };
            let x = self.waiting.remove(first);
            let y = self.waiting.remove(second);
            let (a, b) = if x.user == user { (x, y) } else { (y, x) };
            let pair = Pair {
                a,
                b,
                at: now,
                game: None,
            };
            self.paired.push(pair.clone());
            made.push(pair);
        }
        made
    }

    /// Those who have waited [`LONELY_MS`] or more with nobody who fits them, not offered the
    /// bot yet: marked offered and returned. They keep waiting until they cancel.
    pub fn offer_bot(&mut self, now: u64) -> Vec<Seeker> {
        let lonely: Vec<usize> = (0..self.waiting.len())
            .filter(|&i| {
                let w = &self.waiting[i];
                !w.offered_bot && w.waited(now) >= LONELY_MS && self.best_for(w, now).is_none()
            })
            .collect();
        lonely
            .into_iter()
            .map(|i| {
                self.waiting[i].offered_bot = true;
                self.waiting[i].clone()
            })
            .collect()
    }

    /// The game of `user`'s pair: the one it has, else `game` (a fresh id), kept from now on;
    /// `None` when `user` has no pair waiting for its game.
    pub fn game_for(&mut self, user: u64, game: u64) -> Option<u64> {
        let pair = self.paired.iter_mut().find(|p| p.has(user))?;
        Some(*pair.game.get_or_insert(game))
    }

    /// The pair of `user` made and not taken: removed and returned (`None` the second time).
    pub fn take_pair(&mut self, user: u64) -> Option<Pair> {
        let i = self.paired.iter().position(|p| p.has(user))?;
        Some(self.paired.remove(i))
    }

    /// How many wait under these rules.
    pub fn waiting_for(&self, rules: &str) -> usize {
        self.waiting.iter().filter(|w| w.rules == rules).count()
    }

    /// `user` as they wait, if they do.
    pub fn position(&self, user: u64) -> Option<&Seeker> {
        self.waiting.iter().find(|w| w.user == user)
    }

    /// The pair of `user` made and not taken, if any.
    pub fn pair_of(&self, user: u64) -> Option<&Pair> {
        self.paired.iter().find(|p| p.has(user))
    }

    /// The next moment (Unix ms) after `now` a pass may find something new: a waiter's window
    /// widens, or they have waited [`LONELY_MS`] and were not offered the bot. `None` when
    /// nobody waits.
    pub fn next_look(&self, now: u64) -> Option<u64> {
        self.waiting
            .iter()
            .filter_map(|w| {
                let waited = w.waited(now);
                let lonely = (!w.offered_bot).then_some(LONELY_MS);
                WINDOWS
                    .iter()
                    .map(|(after, _)| *after)
                    .chain(lonely)
                    .filter(|&t| t > waited)
                    .min()
                    .map(|t| w.since.saturating_add(t))
            })
            .min()
    }

    /// The index of the waiter `s` would be paired with at `now`: of those who fit, the
    /// closest rating, then the longest wait, then the lower user id.
    fn best_for(&self, s: &Seeker, now: u64) -> Option<usize> {
        self.waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| s.fits(w, now))
            .min_by_key(|(_, w)| (s.rating.abs_diff(w.rating), w.since, w.user))
            .map(|(i, _)| i)
    }
}
