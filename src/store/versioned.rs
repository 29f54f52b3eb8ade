//! Versioned hashes `{v, c, d}`: loading one, the compare-and-set that writes one with what
//! goes with it (the outbox index, the fencing token, the deadline, a press's claim), and the
//! loop that retries it on a conflict, from the payload this process knows.

use super::{
    settings, Conn, DueFn, GameId, Payload, Settled, Store, StoreError, CODEC, FENCE_HOLD,
};
use serde::{de::DeserializeOwned, Serialize};
use std::time::Duration;

/// What a compare-and-set writes or checks besides the record.
#[derive(Clone, Default)]
pub(super) struct Extra {
    /// The outbox index and the game's member in it, marked due with the change.
    pub(super) index: Option<(String, String)>,
    /// The send lease's key and the token it must hold.
    pub(super) fence: Option<(String, String)>,
    /// The deadlines' key and the game's member in it: set with the change.
    pub(super) deadline: Option<(String, String)>,
    /// The game's claims of presses (key, the update's field, the claim): a press's update
    /// claimed by the change that answers it.
    pub(super) claim: Option<(String, String, String)>,
}

/// A script's status, and the version, codec and data of the payload it names.
type ScriptAnswer = (i32, Option<u64>, Option<u32>, Option<String>);

/// A script's answer `{status, v, c, d}` (the last three nil or absent when it names no
/// payload): the status and the payload's version, codec and data.
pub(super) fn status_and_payload(reply: &[redis::Value]) -> redis::RedisResult<ScriptAnswer> {
    let at = |i: usize| reply.get(i).cloned().unwrap_or(redis::Value::Nil);
    Ok((
        redis::from_redis_value(at(0))?,
        redis::from_redis_value(at(1))?,
        redis::from_redis_value(at(2))?,
        redis::from_redis_value(at(3))?,
    ))
}

/// What a compare-and-set found.
pub(super) enum Cas {
    /// Saved as this version.
    Saved(u64),
    /// Another change came first: what is stored now (`None`: nothing).
    Conflict(Option<Payload>),
}

impl Store {
    pub(super) async fn load_versioned<R: DeserializeOwned>(
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
    pub(super) fn found<R: DeserializeOwned>(
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
    pub(super) async fn compare_and_set(
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
    pub(super) async fn update_versioned<R, T, E>(
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

    /// The version field of the versioned hash at `k`.
    pub(super) async fn version_at(&self, k: String) -> Result<Option<u64>, StoreError> {
        self.run(|mut conn| async move {
            redis::cmd("HGET")
                .arg(k)
                .arg("v")
                .query_async(&mut conn)
                .await
        })
        .await
    }
}
