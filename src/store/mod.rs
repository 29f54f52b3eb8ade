//! Game state in Redis: atomic, restart-proof, ready for several replicas.
//!
//! Every change to a game goes through [`Store::transition`]: load the record and its version,
//! apply a pure function, and save only if the stored version is still the one loaded (a Lua
//! compare-and-set: WATCH/MULTI is unsafe on a shared multiplexed connection). On a conflict the
//! function runs again on the fresh record, a bounded number of times. Every operation ends in
//! bounded time: when Redis is away it returns [`StoreError::Unavailable`], and the same
//! [`Store`] works again once Redis is back.
//!
//! The key schema is in `keys.rs`; the connection (one server or a cluster) in `conn.rs`.

mod conn;
pub mod keys;

pub use conn::Conn;
pub use keys::{GameId, Keys, DEFAULT_NAMESPACE};

use crate::record::{ChatSettings, GameRecord, Stats, UserSettings};
use engine::{Phase, SeatId};
use redis::{AsyncCommands, Script};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt;
use std::future::Future;
use std::time::Duration;

/// The codec of stored payloads: JSON of the records in `record.rs`. Bump it when the
/// encoding changes; a payload of another codec is reported as [`StoreError::Undecodable`].
pub const CODEC: u32 = 1;

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
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Unavailable(why) => write!(f, "Redis is unavailable: {why}"),
            StoreError::Busy => f.write_str("the game is busy: too many concurrent changes"),
            StoreError::NotFound => f.write_str("no such game"),
            StoreError::Undecodable { key, reason } => write!(f, "{key} does not decode: {reason}"),
            StoreError::Server(why) => write!(f, "Redis error: {why}"),
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
    /// The defaults, with `MB_FINISHED_DAYS` (days a finished game is kept) and
    /// `MB_NAMESPACE` (the key prefix; tests give each bot its own) from the environment.
    pub fn from_env() -> StoreConfig {
        let mut c = StoreConfig::default();
        if let Ok(ns) = std::env::var("MB_NAMESPACE") {
            if !ns.trim().is_empty() {
                c.namespace = ns.trim().to_owned();
            }
        }
        if let Some(days) = std::env::var("MB_FINISHED_DAYS")
            .ok()
            .and_then(|d| d.parse::<u64>().ok())
        {
            c.finished_ttl = Duration::from_secs(days * 24 * 3600);
        }
        c
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
const COMPARE_AND_SET: &str = r"
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'c', ARGV[3], 'd', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1";

/// Releases a chat's redraw lease unless its redraw mark is set (KEYS: mark, lease).
const END_REDRAW: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2])
return 1";

const DELETE_IF_EQUAL: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0";

/// The store. Cheap to clone: clones share one connection.
#[derive(Clone)]
pub struct Store {
    conn: Conn,
    keys: Keys,
    config: StoreConfig,
    cas: Script,
    delete_if_equal: Script,
    end_redraw: Script,
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
            end_redraw: Script::new(END_REDRAW),
        })
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
        match tokio::time::timeout(self.config.op_timeout, op(self.conn.clone())).await {
            Ok(result) => result.map_err(StoreError::from),
            Err(_) => Err(StoreError::Unavailable(
                "Redis did not answer in time".into(),
            )),
        }
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
        let seq = self.keys.game_seq();
        let id = GameId(
            self.run(|mut c| async move { c.incr(seq, 1).await })
                .await?,
        );
        let ttl = self.config.ttl(record.game.phase());
        match self
            .compare_and_set(&self.keys.game(id), 0, record, ttl)
            .await?
        {
            Some(_) => Ok(id),
            None => Err(StoreError::Server(format!("game {id} already exists"))),
        }
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
            (Some(v), Some(d)) => Ok(Some((Self::decode(key, c, &d)?, v))),
            _ => Ok(None),
        }
    }

    /// Writes `record` at `key` if its version is still `version`: `Some(new version)`, or
    /// `None` on a conflict. With `version` 0 the key must not exist yet.
    async fn compare_and_set<R: Serialize>(
        &self,
        key: &str,
        version: u64,
        record: &R,
        ttl: Duration,
    ) -> Result<Option<u64>, StoreError> {
        let data = Self::encode(record)?;
        let k = key.to_owned();
        let saved: i32 = self
            .run(|mut c| async move {
                self.cas
                    .key(k)
                    .arg(version)
                    .arg(version + 1)
                    .arg(CODEC)
                    .arg(data)
                    .arg(ttl.as_secs().max(1))
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok((saved == 1).then_some(version + 1))
    }

    /// The compare-and-set loop shared by games and drafts.
    async fn update_versioned<R, T, E>(
        &self,
        key: &str,
        ttl: impl Fn(&R) -> Duration,
        missing: impl Fn() -> Option<R>,
        mut f: impl FnMut(&mut R) -> Result<T, E>,
    ) -> Result<Result<(T, R, u64), E>, StoreError>
    where
        R: Serialize + DeserializeOwned + Clone + PartialEq,
    {
        for _ in 0..self.config.max_attempts {
            let (before, version) = match self.load_versioned::<R>(key).await? {
                Some(found) => found,
                None => (missing().ok_or(StoreError::NotFound)?, 0),
            };
            let mut record = before.clone();
            let value = match f(&mut record) {
                Ok(value) => value,
                Err(refusal) => return Ok(Err(refusal)),
            };
            if record == before && version > 0 {
                return Ok(Ok((value, record, version)));
            }
            if let Some(v) = self
                .compare_and_set(key, version, &record, ttl(&record))
                .await?
            {
                return Ok(Ok((value, record, v)));
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

    /// Applies `f` to the game atomically: `f` runs on the freshest record and its change is
    /// saved only if nobody changed the game meanwhile; otherwise `f` runs again on the new
    /// record. When `f` refuses (returns `Err`), nothing is saved and the refusal is returned.
    /// When `f` leaves the record as it was, nothing is written.
    ///
    /// # Errors
    /// [`StoreError::Busy`] after too many conflicts; [`StoreError::NotFound`],
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn transition<T, E>(
        &self,
        id: GameId,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let ttl = |r: &GameRecord| self.config.ttl(r.game.phase());
        let done = self
            .update_versioned(&self.keys.game(id), ttl, || None, f)
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
        let found = self.load_versioned(&self.keys.draft(id, seat.0)).await?;
        Ok(found.map(|(d, _)| d))
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
            .update_versioned(&self.keys.draft(id, seat.0), ttl, || Some(fresh()), f)
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

    async fn get_pointer(&self, key: String) -> Result<Option<GameId>, StoreError> {
        let id: Option<u64> = self.run(|mut c| async move { c.get(key).await }).await?;
        Ok(id.map(GameId))
    }

    async fn set_pointer(&self, key: String, id: GameId) -> Result<(), StoreError> {
        let ttl = self.config.battle_ttl.max(self.config.setup_ttl).as_secs();
        self.run(|mut c| async move { c.set_ex(key, id.0, ttl).await })
            .await
    }

    async fn clear_pointer(&self, key: String, id: GameId) -> Result<bool, StoreError> {
        let removed: i32 = self
            .run(|mut c| async move {
                self.delete_if_equal
                    .key(key)
                    .arg(id.0)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(removed == 1)
    }

    /// The active game of a chat.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn chat_game(&self, chat: i64) -> Result<Option<GameId>, StoreError> {
        self.get_pointer(self.keys.chat_game(chat)).await
    }

    /// Makes `id` the active game of a chat.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_chat_game(&self, chat: i64, id: GameId) -> Result<(), StoreError> {
        self.set_pointer(self.keys.chat_game(chat), id).await
    }

    /// Forgets the chat's active game if it is still `id`; returns whether it was.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn clear_chat_game(&self, chat: i64, id: GameId) -> Result<bool, StoreError> {
        self.clear_pointer(self.keys.chat_game(chat), id).await
    }

    /// The active game of a user.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn user_game(&self, user: u64) -> Result<Option<GameId>, StoreError> {
        self.get_pointer(self.keys.user_game(user)).await
    }

    /// Makes `id` the active game of a user.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_user_game(&self, user: u64, id: GameId) -> Result<(), StoreError> {
        self.set_pointer(self.keys.user_game(user), id).await
    }

    /// Forgets the user's active game if it is still `id`; returns whether it was.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn clear_user_game(&self, user: u64, id: GameId) -> Result<bool, StoreError> {
        self.clear_pointer(self.keys.user_game(user), id).await
    }

    async fn get_json<T: DeserializeOwned + Default>(&self, key: String) -> Result<T, StoreError> {
        let k = key.clone();
        let data: Option<String> = self.run(|mut c| async move { c.get(k).await }).await?;
        match data {
            Some(d) => Self::decode(&key, Some(CODEC), &d),
            None => Ok(T::default()),
        }
    }

    async fn set_json<T: Serialize>(&self, key: String, value: &T) -> Result<(), StoreError> {
        let data = Self::encode(value)?;
        self.run(|mut c| async move { c.set(key, data).await })
            .await
    }

    /// A chat's settings (the defaults if none are stored).
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn chat_settings(&self, chat: i64) -> Result<ChatSettings, StoreError> {
        self.get_json(self.keys.chat_settings(chat)).await
    }

    /// Saves a chat's settings.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_chat_settings(&self, chat: i64, s: &ChatSettings) -> Result<(), StoreError> {
        self.set_json(self.keys.chat_settings(chat), s).await
    }

    /// A user's settings (the defaults if none are stored).
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn user_settings(&self, user: u64) -> Result<UserSettings, StoreError> {
        self.get_json(self.keys.user_settings(user)).await
    }

    /// Saves a user's settings.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_user_settings(&self, user: u64, s: &UserSettings) -> Result<(), StoreError> {
        self.set_json(self.keys.user_settings(user), s).await
    }

    /// Adds to a user's statistics for one ruleset and for all rulesets together.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn add_stats(&self, user: u64, ruleset: &str, add: Stats) -> Result<(), StoreError> {
        let key = self.keys.user_stats(user);
        let mut pipe = redis::pipe();
        for scope in [ruleset, "all"] {
            for (field, n) in [
                ("games", add.games),
                ("wins", add.wins),
                ("shots", add.shots),
                ("hits", add.hits),
            ] {
                pipe.hincr(&key, format!("{scope}|{field}"), n).ignore();
            }
        }
        self.run(|mut c| async move { pipe.query_async(&mut c).await })
            .await
    }

    /// A user's statistics for one ruleset, or `"all"`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn stats(&self, user: u64, ruleset: &str) -> Result<Stats, StoreError> {
        let key = self.keys.user_stats(user);
        let fields: Vec<String> = ["games", "wins", "shots", "hits"]
            .iter()
            .map(|f| format!("{ruleset}|{f}"))
            .collect();
        let v: Vec<Option<u64>> = self
            .run(|mut c| async move {
                redis::cmd("HMGET")
                    .arg(key)
                    .arg(fields)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        let n = |i: usize| v.get(i).copied().flatten().unwrap_or(0);
        Ok(Stats {
            games: n(0),
            wins: n(1),
            shots: n(2),
            hits: n(3),
        })
    }

    /// Asks for a tick of game `id` at `at` (Unix seconds), or for none.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn schedule(&self, id: GameId, at: Option<u64>) -> Result<(), StoreError> {
        let key = self.keys.deadlines();
        self.run(|mut c| async move {
            match at {
                Some(at) => c.zadd(key, id.0, at).await,
                None => c.zrem(key, id.0).await,
            }
        })
        .await
    }

    /// Games whose tick is due at `now`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn due(&self, now: u64) -> Result<Vec<GameId>, StoreError> {
        let key = self.keys.deadlines();
        let ids: Vec<u64> = self
            .run(|mut c| async move { c.zrangebyscore_limit(key, 0, now, 0, 100).await })
            .await?;
        Ok(ids.into_iter().map(GameId).collect())
    }

    /// Marks that a chat's live message needs redrawing, and tries to take the right to draw
    /// it for `hold`. `true`: this caller draws; `false`: the holder will see the mark.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn want_redraw(
        &self,
        chat: i64,
        id: GameId,
        hold: Duration,
        now: u64,
    ) -> Result<bool, StoreError> {
        let (dirty, lease) = (self.keys.chat_dirty(chat), self.keys.chat_lease(chat));
        let wanted = self.keys.redraws();
        let ms = hold.as_millis() as u64;
        let got: Option<String> = self
            .run(|mut c| async move {
                let () = c.set_ex(&dirty, 1, 3600).await?;
                let () = c.zadd(wanted, format!("{chat}:{id}"), now).await?;
                redis::cmd("SET")
                    .arg(lease)
                    .arg(1)
                    .arg("NX")
                    .arg("PX")
                    .arg(ms)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(got.is_some())
    }

    /// Redraws asked for before `before` and not finished: their drawer may have crashed.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn stale_redraws(&self, before: u64) -> Result<Vec<(i64, GameId)>, StoreError> {
        let key = self.keys.redraws();
        let members: Vec<String> = self
            .run(|mut c| async move { c.zrangebyscore_limit(key, 0, before, 0, 100).await })
            .await?;
        Ok(members
            .iter()
            .filter_map(|m| {
                let (chat, id) = m.split_once(':')?;
                Some((chat.parse().ok()?, GameId(id.parse().ok()?)))
            })
            .collect())
    }

    /// Clears the redraw mark before drawing, and extends the right to draw.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn begin_redraw(&self, chat: i64, hold: Duration) -> Result<(), StoreError> {
        let (dirty, lease) = (self.keys.chat_dirty(chat), self.keys.chat_lease(chat));
        let ms = hold.as_millis() as u64;
        self.run(|mut c| async move {
            let () = c.del(dirty).await?;
            c.pexpire(lease, ms as i64).await
        })
        .await
    }

    /// Gives up the right to draw unless a redraw was asked for meanwhile; `true` when it was
    /// given up, `false` when the caller must draw again.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn end_redraw(&self, chat: i64, id: GameId) -> Result<bool, StoreError> {
        let (dirty, lease) = (self.keys.chat_dirty(chat), self.keys.chat_lease(chat));
        let wanted = self.keys.redraws();
        let released: i32 = self
            .run(|mut c| async move {
                self.end_redraw
                    .key(dirty)
                    .key(lease)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        if released == 1 {
            let member = format!("{chat}:{id}");
            let () = self
                .run(|mut c| async move { c.zrem(wanted, member).await })
                .await?;
        }
        Ok(released == 1)
    }

    /// Whether a Telegram update was already handled (by this or another replica).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn was_handled(&self, update_id: u32) -> Result<bool, StoreError> {
        let key = self.keys.update(update_id);
        self.run(|mut c| async move { c.exists(key).await }).await
    }

    /// Records a Telegram update as handled; `true` the first time, `false` for a repeat
    /// (a second replica or a redelivery), which must then be skipped.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn first_delivery(&self, update_id: u32) -> Result<bool, StoreError> {
        let key = self.keys.update(update_id);
        let set: Option<String> = self
            .run(|mut c| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg(1)
                    .arg("NX")
                    .arg("EX")
                    .arg(24 * 3600)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(set.is_some())
    }
}
