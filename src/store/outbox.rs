//! What the games' senders share: the outbox index, each game's send lease with its fencing
//! token, and each chat's budget of sends and edits (a GCRA bucket), all across replicas.

use super::{Conn, GameId, Store, StoreError};
use crate::game::record::GameRecord;
use redis::{AsyncCommands, Script};
use std::time::Duration;

/// Takes a game's send lease when free, or when its holder is an earlier run of this same
/// replica, which is dead since this one runs (KEYS: the lease, the game; ARGV: token, hold
/// in ms, the replica's prefix `name/`). Tokens read `name/boot/n`. `{1, v, c, d}` with the
/// game as it is (the sender's first look, in the same round trip) when taken, else `{0}`.
const TAKE: &str = r"
local function taken()
  local g = redis.call('HMGET', KEYS[2], 'v', 'c', 'd')
  return {1, g[1], g[2], g[3]}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return taken() end
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return taken()
end
local mine = ARGV[3]
local boot = string.match(ARGV[1], '^(.*/)')
if cur and string.sub(cur, 1, #mine) == mine and string.sub(cur, 1, #boot) ~= boot then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return taken()
end
return {0}";

/// Extends the lease while it is the caller's (KEYS: the lease; ARGV: token, hold in ms).
const RENEW: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1";

/// The sender is done: unless the game changed since the version it last saw, the game
/// leaves the index and the lease is freed (KEYS: the game, the lease, the index; ARGV:
/// version, token, member). 1 when done, 0 when the game changed (send again), -1 when the
/// lease is not the caller's any more.
const RELEASE: &str = r"
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return -1 end
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[3], ARGV[3])
redis.call('DEL', KEYS[2])
return 1";

/// Drops a lease that is the caller's (KEYS: the lease; ARGV: token).
const DROP: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0";

/// A GCRA bucket on the server's clock (KEYS: the bucket; ARGV: the emission interval and
/// the burst tolerance, in ms). 0 when a send may go now (and it is counted), else the
/// milliseconds to wait. Never counts a send it refuses.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local allowed_at = tat - tolerance
if now < allowed_at then return allowed_at - now end
local new_tat = tat + interval
redis.call('SET', KEYS[1], new_tat, 'PX', new_tat - now + 1000)
return 0";

/// The scripts of this file, loaded once per store.
#[derive(Clone)]
pub(super) struct Scripts {
    take: Script,
    renew: Script,
    release: Script,
    drop: Script,
    gcra: Script,
}

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            take: Script::new(TAKE),
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
            drop: Script::new(DROP),
            gcra: Script::new(GCRA),
        }
    }
}

/// The replica part of a lease token `name/boot/n`: `name/` (empty when the token has no
/// such parts, which no other token then matches).
fn replica_prefix(token: &str) -> String {
    match token.split_once('/') {
        Some((name, _)) => format!("{name}/"),
        None => "\u{0}/".to_owned(),
    }
}

/// How a sender's release went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// Nothing more to send: the game left the index and the lease is free.
    Done,
    /// The game changed meanwhile: the sender still holds the lease and goes on.
    Changed,
    /// The lease was not the sender's any more.
    Lost,
}

impl Store {
    /// Marks a game as having something to send (the compare-and-set does this itself on
    /// one server; in a cluster the index is in another slot).
    pub(super) async fn mark_due(&self, index: &str, member: &str) -> Result<(), StoreError> {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let (index, member) = (index.to_owned(), member.to_owned());
        self.run(|mut c| async move { c.zadd(index, member, now_ms).await })
            .await
    }

    /// Games that may have something to send, oldest mark first (at most `limit`).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn outbox_games(&self, limit: isize) -> Result<Vec<GameId>, StoreError> {
        let key = self.keys.outbox_index();
        let ids: Vec<u64> = self
            .run(|mut c| async move { c.zrange(key, 0, limit - 1).await })
            .await?;
        Ok(ids.into_iter().map(GameId).collect())
    }

    /// Takes (or keeps) the right to send game `id`'s outbox, as `token`, for `hold`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn take_send_lease(
        &self,
        id: GameId,
        token: &str,
        hold: Duration,
    ) -> Result<bool, StoreError> {
        match self.take_send_lease_and_load(id, token, hold).await {
            Ok(taken) => Ok(taken.is_some()),
            Err(StoreError::NotFound) => Ok(true),
            Err(e) => Err(e),
        }
    }

    /// [`Store::take_send_lease`], and the game as it is now when taken (in the same round
    /// trip): `None` when another sender holds it.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when the lease was taken but the game is gone;
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`] and the like.
    pub async fn take_send_lease_and_load(
        &self,
        id: GameId,
        token: &str,
        hold: Duration,
    ) -> Result<Option<(GameRecord, u64)>, StoreError> {
        let key = self.keys.send_lease(id);
        let game = self.keys.game(id);
        let token = token.to_owned();
        let (got, v, c, d): super::ScriptAnswer = self
            .run(|mut c| async move {
                let reply: Vec<redis::Value> = self
                    .outbox
                    .take
                    .key(key)
                    .key(game)
                    .arg(&token)
                    .arg(hold.as_millis() as u64)
                    .arg(replica_prefix(&token))
                    .invoke_async(&mut c)
                    .await?;
                super::status_and_payload(&reply)
            })
            .await?;
        if got != 1 {
            return Ok(None);
        }
        match (v, d) {
            (Some(v), Some(d)) => Ok(Some((self.found(&self.keys.game(id), v, c, d)?, v))),
            _ => Err(StoreError::NotFound),
        }
    }

    /// Extends the send lease; `false` when it is not `token`'s any more.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn renew_send_lease(
        &self,
        id: GameId,
        token: &str,
        hold: Duration,
    ) -> Result<bool, StoreError> {
        let key = self.keys.send_lease(id);
        let token = token.to_owned();
        let got: i32 = self
            .run(|mut c| async move {
                self.outbox
                    .renew
                    .key(key)
                    .arg(&token)
                    .arg(hold.as_millis() as u64)
                    .arg(replica_prefix(&token))
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(got == 1)
    }

    /// Gives the send lease back after the game was seen with nothing to send at `version`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn release_send_lease(
        &self,
        id: GameId,
        token: &str,
        version: u64,
    ) -> Result<Release, StoreError> {
        let (game, lease, index) = (
            self.keys.game(id),
            self.keys.send_lease(id),
            self.keys.outbox_index(),
        );
        if let Conn::Cluster(_) = self.conn {
            // The index is in another slot: leave it first, then look again, so a change
            // made meanwhile is not missed (it marks the game again, or is seen here).
            let member = id.0;
            let () = self
                .run(|mut c| async move { c.zrem(index, member).await })
                .await?;
            let (_, now_version) = self.load_game(id).await?;
            if now_version != version {
                self.mark_due(&self.keys.outbox_index(), &id.0.to_string())
                    .await?;
                return Ok(Release::Changed);
            }
            let token = token.to_owned();
            let _: i32 = self
                .run(|mut c| async move {
                    self.outbox
                        .drop
                        .key(lease)
                        .arg(token)
                        .invoke_async(&mut c)
                        .await
                })
                .await?;
            return Ok(Release::Done);
        }
        let token = token.to_owned();
        let got: i32 = self
            .run(|mut c| async move {
                self.outbox
                    .release
                    .key(game)
                    .key(lease)
                    .key(index)
                    .arg(version)
                    .arg(token)
                    .arg(id.0)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(match got {
            1 => Release::Done,
            0 => Release::Changed,
            _ => Release::Lost,
        })
    }

    /// Drops a game from the outbox index (a game that is gone).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn forget_outbox(&self, id: GameId) -> Result<(), StoreError> {
        let key = self.keys.outbox_index();
        self.run(|mut c| async move { c.zrem(key, id.0).await })
            .await
    }

    /// Takes one send or edit of `chat`'s budget: at most one every `interval`, with a burst
    /// of `tolerance / interval` more. 0 when it was taken, else the milliseconds to wait
    /// (nothing taken). Shared by every replica; on the server's clock.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn take_budget(
        &self,
        chat: i64,
        interval: Duration,
        tolerance: Duration,
    ) -> Result<u64, StoreError> {
        let key = self.keys.chat_budget(chat);
        let wait: i64 = self
            .run(|mut c| async move {
                self.outbox
                    .gcra
                    .key(key)
                    .arg(interval.as_millis() as u64)
                    .arg(tolerance.as_millis() as u64)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(wait.max(0) as u64)
    }

    /// Whether `user`'s command `what` in `chat` may be answered now: once a minute at most.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn may_answer(&self, chat: i64, user: u64, what: &str) -> Result<bool, StoreError> {
        self.set_once(self.keys.said(chat, user, what), 60).await
    }
}
