//! Game state in Redis: atomic, restart-proof, ready for several replicas.
//!
//! Every change to a game goes through [`Store::transition`]: load the record and its version,
//! apply a pure function, and save only if the stored version is still the one loaded (a Lua
//! compare-and-set: WATCH/MULTI is unsafe on a shared multiplexed connection). On a conflict the
//! function runs again on the fresh record, a bounded number of times. Every operation ends in
//! bounded time: when Redis is away it returns [`StoreError::Unavailable`], and the same
//! [`Store`] works again once Redis is back.
//!
//! The key schema is in `keys.rs`; the connection (one server or a cluster) in `conn.rs`;
//! the active-game pointers in `pointers.rs`; the layouts the learning level learns from in
//! `habits.rs`; settings, statistics and handled updates in
//! `settings.rs`; turn-timer deadlines and the group redraw lease in `timing.rs`.
//! A game's record (create, load, every kind of transition, delete) is in `games.rs`, on the
//! versioned hashes and their compare-and-set of `versioned.rs`; placement drafts in
//! `drafts.rs`; a chat's tournament in `tournaments.rs`; the quick match's queue in
//! `quick.rs`.

mod conn;
mod drafts;
mod games;
pub mod habits;
pub mod keys;
pub mod life;
pub mod memory;
pub mod outbox;
pub mod pointers;
mod quick;
pub mod ratings;
pub mod scripts;
pub mod settings;
pub mod timing;
mod tournaments;
mod versioned;

pub use conn::Conn;
pub use keys::{GameId, Keys, Leaderboard, DEFAULT_NAMESPACE};

use crate::game::record::GameRecord;
use engine::Phase;
use redis::Script;
use serde::{de::DeserializeOwned, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::time::Duration;

/// The codec of stored payloads: JSON of the records in `game/record/`. Bump it when the
/// encoding changes; a payload of another codec is reported as [`StoreError::Undecodable`].
pub const CODEC: u32 = 1;

/// How long a sender's lease is held again when its fenced write finds it expired and
/// taken by nobody (as after Redis was away): the senders' hold.
pub const FENCE_HOLD: Duration = Duration::from_secs(20);

/// How many round trips to Redis this process has made so far (each request: a command, a
/// script or a pipeline; `mb_redis_seconds_count`).
pub fn round_trips() -> u64 {
    crate::metrics::redis_round_trips()
}

/// What can go wrong with storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// Redis did not answer in time or the connection is down: try again later.
    Unavailable(String),
    /// The game changed under us too many times in a row: try again.
    Busy,
    /// No such game (finished long ago, or never was).
    NotFound,
    /// A stored payload no longer decodes; the game should be closed politely.
    Undecodable {
        /// The key.
        key: String,
        /// Why.
        reason: String,
    },
    /// Redis answered with an error we did not expect.
    Server(String),
    /// A game's sender lost its lease (it was too slow, or another replica took over): it
    /// must stop and change nothing.
    Fenced,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Unavailable(why) => write!(f, "Redis is unavailable: {why}"),
            StoreError::Busy => f.write_str("the game is busy: too many concurrent changes"),
            StoreError::NotFound => f.write_str("no such game"),
            StoreError::Undecodable { key, reason } => write!(f, "{key} does not decode: {reason}"),
            StoreError::Server(why) => write!(f, "Redis error: {why}"),
            StoreError::Fenced => f.write_str("the game's send lease is held by another sender"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<redis::RedisError> for StoreError {
    fn from(e: redis::RedisError) -> StoreError {
        if e.is_io_error()
            || e.is_timeout()
            || e.is_connection_dropped()
            || e.is_connection_refusal()
        {
            StoreError::Unavailable(e.to_string())
        } else {
            StoreError::Server(e.to_string())
        }
    }
}

/// Expiry times and limits.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// Key namespace, `mb:v1` by default.
    pub namespace: String,
    /// The longest one operation may take before it fails as unavailable.
    pub op_timeout: Duration,
    /// Compare-and-set attempts before a transition gives up as busy.
    pub max_attempts: u32,
    /// A lobby or a placement nobody touches expires after this.
    pub setup_ttl: Duration,
    /// A battle nobody touches expires after this.
    pub battle_ttl: Duration,
    /// A finished game is kept this long.
    pub finished_ttl: Duration,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            namespace: DEFAULT_NAMESPACE.to_owned(),
            op_timeout: Duration::from_millis(1500),
            max_attempts: 32,
            setup_ttl: Duration::from_secs(24 * 3600),
            battle_ttl: Duration::from_secs(7 * 24 * 3600),
            finished_ttl: Duration::from_secs(30 * 24 * 3600),
        }
    }
}

impl StoreConfig {
    /// How many days a finished game is kept (at least one).
    pub fn finished_days(&self) -> u64 {
        (self.finished_ttl.as_secs() / 86_400).max(1)
    }

    fn ttl(&self, phase: &Phase) -> Duration {
        match phase {
            Phase::Lobby | Phase::Placement => self.setup_ttl,
            Phase::Battle => self.battle_ttl,
            Phase::Finished { .. } => self.finished_ttl,
        }
    }
}

/// A change that was saved: what the function returned, the record as saved, its version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committed<T> {
    /// What the transition function returned.
    pub value: T,
    /// The record as saved.
    pub record: GameRecord,
    /// The stored version after the change.
    pub version: u64,
}

/// Compare-and-set on a versioned hash `{v, c, d}`; expected version 0 means "absent".
/// KEYS: the hash, the outbox index, the sender's lease, the games' deadlines, the game's
/// claims of presses (the last four are the hash itself when unused, so that every key is in
/// the hash's cluster slot).
/// ARGV: expected version, new version, codec, data, ttl, the index member ('' for none),
/// the fencing token the lease must hold ('' for none), the deadlines' member ('' for
/// none), its deadline ('' to remove it), the field of the update claimed with the change
/// in KEYS[5] ('' for none), the claim, its expiry in seconds.
/// the hold in ms of a fencing token found absent (the lease expired while nobody took it:
/// the caller holds it again).
/// `{1}` when saved; `{0, v, c, d}` on a version conflict (or a payload of another codec:
/// written by another build), with what is stored now (so the
/// caller tries again without loading it); `{-1}` when the lease is no longer the caller's.
const COMPARE_AND_SET: &str = include_str!("lua/compare-and-set.lua");

const DELETE_IF_EQUAL: &str = include_str!("lua/delete-if-equal.lua");

/// The payloads this process read or wrote last, by key: a transition starts from the one
/// it knows instead of loading it (the compare-and-set checks it is still current, and
/// answers with the current one when not). Only a change is ever concluded from it: a
/// refusal or a no-change is checked against a fresh load first.
#[derive(Clone, Default)]
struct Known(std::sync::Arc<std::sync::Mutex<HashMap<String, Payload>>>);

/// A stored payload: its version, codec and data.
type Payload = (u64, Option<u32>, String);

/// What gives a game's deadline from its new record (see [`Atomic::due`]).
pub type DueFn<'a, R> = dyn Fn(&R) -> Option<u64> + Sync + 'a;

/// Which refusals of a transition no later version of the record can lift (see
/// [`Atomic::settled`]).
pub type Settled<'a, E> = dyn Fn(&E) -> bool + Sync + 'a;

/// What a game's transition does in its atomic step besides saving the new record (see
/// [`Store::transition`]): by default nothing more.
pub struct Atomic<'a, E> {
    due: Option<&'a DueFn<'a, GameRecord>>,
    settled: Option<&'a Settled<'a, E>>,
    press: Option<(u32, &'a str)>,
    fence: Option<&'a str>,
}

impl<'a, E> Atomic<'a, E> {
    /// A change by a player, the bot or the timer: its effects derived, nothing more.
    pub fn plain() -> Self {
        Atomic {
            due: None,
            settled: None,
            press: None,
            fence: None,
        }
    }

    /// The game's deadline (see [`Store::schedule`]) set to what `due` says of the new
    /// record, in the same step.
    pub fn due(due: Option<&'a DueFn<'a, GameRecord>>) -> Self {
        Atomic {
            due,
            ..Atomic::plain()
        }
    }

    /// A change by the game's sender: saved only while `token` still holds the game's send
    /// lease (a sender that lost it changes nothing, [`StoreError::Fenced`]); it derives no
    /// effects and does not mark the game due.
    pub fn by_sender(token: &'a str) -> Self {
        Atomic {
            fence: Some(token),
            ..Atomic::plain()
        }
    }

    /// Refusals `settled` says no later version of the record can lift (a cell already
    /// shot, a game over, a press already answered): such a refusal of the record this
    /// process knows is the answer, with no round trip.
    #[must_use]
    pub fn settled(self, settled: &'a Settled<'a, E>) -> Self {
        Atomic {
            settled: Some(settled),
            ..self
        }
    }

    /// A button press whose update (`update_id`) is claimed by `claimant` in the same step,
    /// in the game's own hash slot (see [`Store::press_claim`]): no round trip of its own
    /// on the shot's path.
    #[must_use]
    pub fn press(self, (update_id, claimant): (u32, &'a str)) -> Self {
        Atomic {
            press: Some((update_id, claimant)),
            ..self
        }
    }
}

/// How many payloads [`Known`] keeps before it starts again.
const KNOWN_MAX: usize = 4096;

impl Known {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Payload>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn get(&self, key: &str) -> Option<Payload> {
        self.lock().get(key).cloned()
    }

    fn put(&self, key: &str, version: u64, codec: Option<u32>, data: String) {
        let mut known = self.lock();
        if known.len() >= KNOWN_MAX && !known.contains_key(key) {
            known.clear();
        }
        match known.get(key) {
            Some((v, ..)) if *v > version => {}
            _ => {
                known.insert(key.to_owned(), (version, codec, data));
            }
        }
    }

    fn forget(&self, key: &str) {
        self.lock().remove(key);
    }
}

/// The store. Cheap to clone: clones share one connection.
#[derive(Clone)]
pub struct Store {
    conn: Conn,
    keys: Keys,
    config: StoreConfig,
    cas: Script,
    delete_if_equal: Script,
    outbox: scripts::Scripts,
    known: Known,
    /// Since when (Unix ms) Redis has not answered; 0 while it does.
    down_since: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// When (Unix ms) Redis last came back after not answering; 0 if it never went away.
    back_at: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Store {
    /// Connects to `url` (a comma-separated list: a cluster).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when Redis does not answer in time.
    pub async fn connect(url: &str, config: StoreConfig) -> Result<Store, StoreError> {
        let conn =
            tokio::time::timeout(config.op_timeout * 2, Conn::connect(url, config.op_timeout))
                .await
                .map_err(|_| StoreError::Unavailable("connect timed out".into()))??;
        Ok(Store {
            conn,
            keys: Keys::new(config.namespace.clone()),
            config,
            cas: Script::new(COMPARE_AND_SET),
            delete_if_equal: Script::new(DELETE_IF_EQUAL),
            outbox: scripts::Scripts::new(),
            known: Known::default(),
            down_since: std::sync::Arc::default(),
            back_at: std::sync::Arc::default(),
        })
    }

    /// How many days a finished game is kept: how long its replay lasts.
    pub fn finished_days(&self) -> u64 {
        self.config.finished_days()
    }

    /// The key schema in use.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// A connection for direct commands (tests and benchmarks).
    pub fn connection(&self) -> Conn {
        self.conn.clone()
    }

    /// Runs one Redis operation with the time limit.
    async fn run<T, F>(&self, op: impl FnOnce(Conn) -> F) -> Result<T, StoreError>
    where
        F: Future<Output = redis::RedisResult<T>>,
    {
        let started = std::time::Instant::now();
        let result = match tokio::time::timeout(self.config.op_timeout, op(self.conn.clone())).await
        {
            Ok(result) => result,
            Err(_) => {
                crate::metrics::redis_request(started.elapsed().as_secs_f64(), Some("timeout"));
                return self.noted(Err(StoreError::Unavailable(
                    "Redis did not answer in time".into(),
                )));
            }
        };
        let kind = result.as_ref().err().map(|e| {
            if e.is_timeout() {
                "timeout"
            } else if e.is_io_error() || e.is_connection_dropped() || e.is_connection_refusal() {
                "connection"
            } else {
                "server"
            }
        });
        crate::metrics::redis_request(started.elapsed().as_secs_f64(), kind);
        self.noted(result.map_err(StoreError::from))
    }

    /// An operation's result, its outage noted.
    fn noted<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        self.note_outage(&result);
        result
    }

    /// Notes Redis going away (one warning) and coming back (one line with how long it was
    /// away), from an operation's result.
    fn note_outage<T>(&self, result: &Result<T, StoreError>) {
        use std::sync::atomic::Ordering;
        let now = || crate::clock::unix_ms().max(1);
        match result {
            Err(StoreError::Unavailable(why)) => {
                if self
                    .down_since
                    .compare_exchange(0, now(), Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
                {
                    log::warn!("Redis is unreachable: {why}; the bot answers \"try again\" until it is back");
                }
            }
            _ => {
                let since = self.down_since.swap(0, Ordering::SeqCst);
                if since != 0 {
                    self.back_at.store(now(), Ordering::SeqCst);
                    let secs = now().saturating_sub(since) as f64 / 1000.0;
                    log::info!("Redis is back after {secs:.1} s away");
                }
            }
        }
    }

    /// Whether Redis came back within `d` after not answering (to this process).
    pub fn back_within(&self, d: std::time::Duration) -> bool {
        let back = self.back_at.load(std::sync::atomic::Ordering::SeqCst);
        let now = crate::clock::unix_ms();
        back != 0 && now.saturating_sub(back) < d.as_millis() as u64
    }

    /// Whether Redis failed to answer the last operation (and none has succeeded since).
    pub fn unreachable(&self) -> bool {
        self.down_since.load(std::sync::atomic::Ordering::SeqCst) != 0
    }

    /// Whether Redis answers a PING (within the operation timeout).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.run(|mut c| async move { redis::cmd("PING").query_async::<String>(&mut c).await })
            .await
            .map(|_| ())
    }

    fn encode<T: Serialize>(value: &T) -> Result<String, StoreError> {
        serde_json::to_string(value).map_err(|e| StoreError::Server(format!("encode: {e}")))
    }

    fn decode<T: DeserializeOwned>(
        key: &str,
        codec: Option<u32>,
        data: &str,
    ) -> Result<T, StoreError> {
        let undecodable = |reason: String| StoreError::Undecodable {
            key: key.to_owned(),
            reason,
        };
        if codec != Some(CODEC) {
            return Err(undecodable(format!("codec {codec:?}, expected {CODEC}")));
        }
        serde_json::from_str(data).map_err(|e| undecodable(e.to_string()))
    }
}
