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

mod conn;
pub mod habits;
pub mod keys;
pub mod life;
pub mod outbox;
pub mod pointers;
pub mod ratings;
pub mod scripts;
pub mod settings;
pub mod timing;

pub use conn::Conn;
pub use keys::{GameId, Keys, Leaderboard, DEFAULT_NAMESPACE};

use crate::game::record::GameRecord;
use engine::{Phase, SeatId};
use redis::{AsyncCommands, Script};
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

/// What a compare-and-set writes or checks besides the record.
#[derive(Clone, Default)]
struct Extra {
    /// The outbox index and the game's member in it, marked due with the change.
    index: Option<(String, String)>,
    /// The send lease's key and the token it must hold.
    fence: Option<(String, String)>,
    /// The deadlines' key and the game's member in it: set with the change.
    deadline: Option<(String, String)>,
    /// The game's claims of presses (key, the update's field, the claim): a press's update
    /// claimed by the change that answers it.
    claim: Option<(String, String, String)>,
}

/// A script's status, and the version, codec and data of the payload it names.
type ScriptAnswer = (i32, Option<u64>, Option<u32>, Option<String>);

/// A script's answer `{status, v, c, d}` (the last three nil or absent when it names no
/// payload): the status and the payload's version, codec and data.
fn status_and_payload(reply: &[redis::Value]) -> redis::RedisResult<ScriptAnswer> {
    let at = |i: usize| reply.get(i).cloned().unwrap_or(redis::Value::Nil);
    Ok((
        redis::from_redis_value(at(0))?,
        redis::from_redis_value(at(1))?,
        redis::from_redis_value(at(2))?,
        redis::from_redis_value(at(3))?,
    ))
}

/// What a compare-and-set found.
enum Cas {
    /// Saved as this version.
    Saved(u64),
    /// Another change came first: what is stored now (`None`: nothing).
    Conflict(Option<Payload>),
}

/// The payloads this process read or wrote last, by key: a transition starts from the one
/// it knows instead of loading it (the compare-and-set checks it is still current, and
/// answers with the current one when not). Only a change is ever concluded from it: a
/// refusal or a no-change is checked against a fresh load first.
#[derive(Clone, Default)]
struct Known(std::sync::Arc<std::sync::Mutex<HashMap<String, Payload>>>);

/// A stored payload: its version, codec and data.
type Payload = (u64, Option<u32>, String);

/// What gives a game's deadline from its new record (see [`Store::transition_due`]).
pub type DueFn<'a, R> = dyn Fn(&R) -> Option<u64> + Sync + 'a;

/// Which refusals of a transition no later version of the record can lift (see
/// [`Store::transition_settled`]).
pub type Settled<'a, E> = dyn Fn(&E) -> bool + Sync + 'a;

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
        let now = || {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_millis() as u64)
                .max(1)
        };
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
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |t| t.as_millis() as u64);
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

    /// Stores a new game and returns its id.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn create_game(&self, record: &GameRecord) -> Result<GameId, StoreError> {
        let id = self.reserve_game_id().await?;
        if self.create_game_at(id, record).await? {
            Ok(id)
        } else {
            Err(StoreError::Server(format!("game {id} already exists")))
        }
    }

    /// A new game id, for [`Store::create_game_at`].
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn reserve_game_id(&self) -> Result<GameId, StoreError> {
        let seq = self.keys.game_seq();
        Ok(GameId(
            self.run(|mut c| async move { c.incr(seq, 1).await })
                .await?,
        ))
    }

    /// Stores a new game under `id` unless a game is there already: `false` then (and the
    /// one there is kept), so creating a game is safe to repeat.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn create_game_at(
        &self,
        id: GameId,
        record: &GameRecord,
    ) -> Result<bool, StoreError> {
        let ttl = self.config.ttl(record.game.phase());
        let extra = Extra {
            index: Some((self.keys.outbox_index(), id.0.to_string())),
            ..Extra::default()
        };
        let data = Self::encode(record)?;
        Ok(matches!(
            self.compare_and_set(&self.keys.game(id), 0, data, ttl, &extra, None)
                .await?,
            Cas::Saved(_)
        ))
    }

    async fn load_versioned<R: DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<(R, u64)>, StoreError> {
        let k = key.to_owned();
        let (v, c, d): (Option<u64>, Option<u32>, Option<String>) = self
            .run(|mut conn| async move {
                redis::cmd("HMGET")
                    .arg(k)
                    .arg(&["v", "c", "d"])
                    .query_async(&mut conn)
                    .await
            })
            .await?;
        match (v, d) {
            (Some(v), Some(d)) => Ok(Some((self.found(key, v, c, d)?, v))),
            _ => {
                self.known.forget(key);
                Ok(None)
            }
        }
    }

    /// A payload just read from Redis: decoded, and known from now on.
    fn found<R: DeserializeOwned>(
        &self,
        key: &str,
        version: u64,
        codec: Option<u32>,
        data: String,
    ) -> Result<R, StoreError> {
        let found = Self::decode(key, codec, &data)?;
        self.known.put(key, version, codec, data);
        Ok(found)
    }

    /// Writes `data` at `key` if its version is still `version`. With `version` 0 the key
    /// must not exist yet. `extra` marks the game in the outbox index, checks the sender's
    /// fencing token and sets the game's deadline (`due`), in the same script.
    async fn compare_and_set(
        &self,
        key: &str,
        version: u64,
        data: String,
        ttl: Duration,
        extra: &Extra,
        due: Option<Option<u64>>,
    ) -> Result<Cas, StoreError> {
        let k = key.to_owned();
        let cluster = matches!(self.conn, Conn::Cluster(_));
        // In a cluster the index and the deadlines live in other slots than the game: they
        // are written after.
        let (index_key, member) = match (&extra.index, cluster) {
            (Some((index, member)), false) => (index.clone(), member.clone()),
            _ => (k.clone(), String::new()),
        };
        let (fence_key, token) = extra
            .fence
            .clone()
            .unwrap_or_else(|| (k.clone(), String::new()));
        let (deadline_key, deadline_member, deadline_at) = match (&extra.deadline, due, cluster) {
            (Some((key, member)), Some(at), false) => (
                key.clone(),
                member.clone(),
                at.map(|a| a.to_string()).unwrap_or_default(),
            ),
            _ => (k.clone(), String::new(), String::new()),
        };
        let (claim_key, claim_field, claim) = extra
            .claim
            .clone()
            .unwrap_or_else(|| (k.clone(), String::new(), String::new()));
        let sent = data.clone();
        let (saved, v, c, d): ScriptAnswer = self
            .run(|mut c| async move {
                let reply: Vec<redis::Value> = self
                    .cas
                    .key(k)
                    .key(index_key)
                    .key(fence_key)
                    .key(deadline_key)
                    .key(claim_key)
                    .arg(version)
                    .arg(version + 1)
                    .arg(CODEC)
                    .arg(sent)
                    .arg(ttl.as_secs().max(1))
                    .arg(member)
                    .arg(token)
                    .arg(deadline_member)
                    .arg(deadline_at)
                    .arg(claim_field)
                    .arg(claim)
                    .arg(settings::UPDATE_TTL)
                    .arg(FENCE_HOLD.as_millis() as u64)
                    .invoke_async(&mut c)
                    .await?;
                status_and_payload(&reply)
            })
            .await?;
        match saved {
            -1 => Err(StoreError::Fenced),
            1 => {
                self.known.put(key, version + 1, Some(CODEC), data);
                if let (Some((index, member)), true) = (&extra.index, cluster) {
                    self.mark_due(index, member).await?;
                }
                if let (Some((_, member)), Some(at), true) = (&extra.deadline, due, cluster) {
                    if let Ok(id) = member.parse() {
                        self.schedule(GameId(id), at).await?;
                    }
                }
                Ok(Cas::Saved(version + 1))
            }
            _ => Ok(Cas::Conflict(match (v, d) {
                (Some(v), Some(d)) => {
                    self.known.put(key, v, c, d.clone());
                    Some((v, c, d))
                }
                _ => {
                    self.known.forget(key);
                    None
                }
            })),
        }
    }

    /// The compare-and-set loop shared by games and drafts. It starts from the payload this
    /// process knows, if any; `due` gives the game's deadline to set with the change.
    // Every caller names each of these; a struct of them would only be built to be taken apart.
    #[allow(clippy::too_many_arguments)]
    async fn update_versioned<R, T, E>(
        &self,
        key: &str,
        ttl: impl Fn(&R) -> Duration,
        missing: impl Fn() -> Option<R>,
        extra: &Extra,
        due: Option<&DueFn<'_, R>>,
        settled: &Settled<'_, E>,
        mut f: impl FnMut(&mut R) -> Result<T, E>,
    ) -> Result<Result<(T, R, u64), E>, StoreError>
    where
        R: Serialize + DeserializeOwned + Clone + PartialEq,
    {
        // What to start from: (payload, version, whether it was read from Redis just now).
        let decoded = |found: Option<Payload>| -> Result<_, StoreError> {
            match found {
                Some((v, c, d)) => Ok((Self::decode::<R>(key, c, &d)?, v)),
                None => Ok((missing().ok_or(StoreError::NotFound)?, 0)),
            }
        };
        let mut start: Option<((R, u64), bool)> = match self.known.get(key) {
            Some(found) => decoded(Some(found)).ok().map(|s| (s, false)),
            None => None,
        };
        for _ in 0..self.config.max_attempts {
            let ((before, version), fresh) = match start.take() {
                Some(s) => s,
                None => {
                    let found = match self.load_versioned::<R>(key).await? {
                        Some(found) => found,
                        None => (missing().ok_or(StoreError::NotFound)?, 0),
                    };
                    (found, true)
                }
            };
            let mut record = before.clone();
            let value = match f(&mut record) {
                Ok(value) => value,
                // Only a fresh record may refuse (a known one may be out of date), unless the
                // refusal is one no later version can lift.
                Err(refusal) if !fresh && !settled(&refusal) => continue,
                Err(refusal) => return Ok(Err(refusal)),
            };
            if record == before && version > 0 {
                if !fresh {
                    continue;
                }
                return Ok(Ok((value, record, version)));
            }
            let data = Self::encode(&record)?;
            let when = due.map(|due| due(&record));
            match self
                .compare_and_set(key, version, data, ttl(&record), extra, when)
                .await?
            {
                Cas::Saved(v) => return Ok(Ok((value, record, v))),
                Cas::Conflict(now) => start = Some((decoded(now)?, true)),
            }
            tokio::task::yield_now().await;
        }
        Err(StoreError::Busy)
    }

    /// Loads a game and its version.
    ///
    /// # Errors
    /// [`StoreError::NotFound`], [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn load_game(&self, id: GameId) -> Result<(GameRecord, u64), StoreError> {
        self.load_versioned(&self.keys.game(id))
            .await?
            .ok_or(StoreError::NotFound)
    }

    /// The stored version of game `id` alone (a few bytes), for those who only watch for a
    /// change; `None` if there is no such game.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn game_version(&self, id: GameId) -> Result<Option<u64>, StoreError> {
        self.version_at(self.keys.game(id)).await
    }

    /// The version field of the versioned hash at `k`.
    async fn version_at(&self, k: String) -> Result<Option<u64>, StoreError> {
        self.run(|mut conn| async move {
            redis::cmd("HGET")
                .arg(k)
                .arg("v")
                .query_async(&mut conn)
                .await
        })
        .await
    }

    /// Applies `f` to the game atomically: `f` runs on the record this process last read or
    /// wrote (or a fresh one) and its change is saved only if nobody changed the game since;
    /// otherwise `f` runs again on the current record. So `f` may see an old record first
    /// and must not assume more than it checks. When `f` refuses (returns `Err`) on a record
    /// read just now, nothing is saved and the refusal is returned. When `f` leaves such a
    /// record as it was, nothing is written.
    ///
    /// # Errors
    /// [`StoreError::Busy`] after too many conflicts; [`StoreError::NotFound`],
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn transition<T, E>(
        &self,
        id: GameId,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        self.transition_due(id, None, f).await
    }

    /// [`Store::transition`] that also sets the game's deadline (see [`Store::schedule`]) to
    /// what `due` says of the new record, in the same atomic step: a crash cannot leave a
    /// move stored without its timer.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn transition_due<T, E>(
        &self,
        id: GameId,
        due: Option<&DueFn<'_, GameRecord>>,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        self.transition_settled(id, due, &|_| false, f).await
    }

    /// [`Store::transition_due`] for a change whose refusals `settled` says no later version
    /// of the record can lift (a cell already shot, a game over, a press already answered):
    /// such a refusal of the record this process knows is the answer, with no round trip.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn transition_settled<T, E>(
        &self,
        id: GameId,
        due: Option<&DueFn<'_, GameRecord>>,
        settled: &Settled<'_, E>,
        mut f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let extra = Extra {
            index: Some((self.keys.outbox_index(), id.0.to_string())),
            deadline: due.map(|_| (self.keys.deadlines(), id.0.to_string())),
            ..Extra::default()
        };
        self.transition_with(id, &extra, due, settled, move |rec| {
            let value = f(rec)?;
            rec.derive_effects();
            Ok(value)
        })
        .await
    }

    /// [`Store::transition_settled`] for a button press whose update (`update_id`) is claimed
    /// by `claimant` in the same atomic step as the change it makes, in the game's own hash
    /// slot (see [`Store::press_claim`]): no round trip of its own on the shot's path.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn transition_press<T, E>(
        &self,
        id: GameId,
        (update_id, claimant): (u32, &str),
        due: Option<&DueFn<'_, GameRecord>>,
        settled: &Settled<'_, E>,
        mut f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let extra = Extra {
            index: Some((self.keys.outbox_index(), id.0.to_string())),
            deadline: due.map(|_| (self.keys.deadlines(), id.0.to_string())),
            claim: Some((
                self.keys.presses(id),
                update_id.to_string(),
                claimant.to_owned(),
            )),
            ..Extra::default()
        };
        self.transition_with(id, &extra, due, settled, move |rec| {
            let value = f(rec)?;
            rec.derive_effects();
            Ok(value)
        })
        .await
    }

    /// Who claimed the press of update `update_id` in game `id` with its change: the
    /// claimant (`name/boot`), `done` once its answer went, or `None`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn press_claim(
        &self,
        id: GameId,
        update_id: u32,
    ) -> Result<Option<String>, StoreError> {
        let key = self.keys.presses(id);
        self.run(|mut c| async move { c.hget(key, update_id).await })
            .await
    }

    /// The press of update `update_id` in game `id` was answered.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn press_answered(&self, id: GameId, update_id: u32) -> Result<(), StoreError> {
        let key = self.keys.presses(id);
        self.run(|mut c| async move { c.hset(key, update_id, "done").await })
            .await
    }

    /// A change by the game's sender: saved only while `token` still holds the game's send
    /// lease (a sender that lost it changes nothing), and it does not mark the game due.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] when the lease is gone; as [`Store::transition`] otherwise.
    pub async fn transition_fenced<T, E>(
        &self,
        id: GameId,
        token: &str,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let extra = Extra {
            fence: Some((self.keys.send_lease(id), token.to_owned())),
            ..Extra::default()
        };
        self.transition_with(id, &extra, None, &|_| false, f).await
    }

    async fn transition_with<T, E>(
        &self,
        id: GameId,
        extra: &Extra,
        due: Option<&DueFn<'_, GameRecord>>,
        settled: &Settled<'_, E>,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let ttl = |r: &GameRecord| self.config.ttl(r.game.phase());
        let done = self
            .update_versioned(&self.keys.game(id), ttl, || None, extra, due, settled, f)
            .await?;
        Ok(done.map(|(value, record, version)| Committed {
            value,
            record,
            version,
        }))
    }

    /// A seat's placement state (the bot's editor, or a bare draft), if one is stored.
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn draft<R: DeserializeOwned>(
        &self,
        id: GameId,
        seat: SeatId,
    ) -> Result<Option<R>, StoreError> {
        Ok(self.draft_versioned(id, seat).await?.map(|(d, _)| d))
    }

    /// A seat's placement draft with its version, if it has one.
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn draft_versioned<R: DeserializeOwned>(
        &self,
        id: GameId,
        seat: SeatId,
    ) -> Result<Option<(R, u64)>, StoreError> {
        self.load_versioned(&self.keys.draft(id, seat.0)).await
    }

    /// The version of a seat's draft alone (none before its first edit): what a watcher
    /// looks at before reading the whole draft.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`].
    pub async fn draft_version(&self, id: GameId, seat: SeatId) -> Result<Option<u64>, StoreError> {
        self.version_at(self.keys.draft(id, seat.0)).await
    }

    /// Edits a seat's placement draft atomically, starting from `fresh` when none is stored.
    /// Two taps at once both land, one after the other; a refused edit saves nothing.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn edit_draft<R, T, E>(
        &self,
        id: GameId,
        seat: SeatId,
        fresh: impl Fn() -> R,
        f: impl FnMut(&mut R) -> Result<T, E>,
    ) -> Result<Result<(T, R), E>, StoreError>
    where
        R: Serialize + DeserializeOwned + Clone + PartialEq,
    {
        let ttl = |_: &R| self.config.setup_ttl;
        let done = self
            .update_versioned(
                &self.keys.draft(id, seat.0),
                ttl,
                || Some(fresh()),
                &Extra::default(),
                None,
                &|_| false,
                f,
            )
            .await?;
        Ok(done.map(|(value, draft, _)| (value, draft)))
    }

    /// Deletes a game (e.g. one whose payload no longer decodes, after telling its chat).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn delete_game(&self, id: GameId) -> Result<(), StoreError> {
        let keys = self.keys.game_keys(id, 4);
        self.run(|mut c| async move {
            for k in keys {
                let () = c.del(k).await?;
            }
            Ok(())
        })
        .await
    }
}
