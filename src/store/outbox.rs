//! What the games' senders share: the outbox index, each game's send lease with its fencing
//! token, and each chat's budget of sends and edits (a GCRA bucket), all across replicas.

use super::{Conn, GameId, Store, StoreError};
use crate::game::record::GameRecord;
use redis::AsyncCommands;
use std::time::Duration;

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
        let now_ms = crate::clock::unix_ms();
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

    /// How many games the outbox index holds, and when the oldest was marked (Unix ms), in
    /// one round trip.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn outbox_depth(&self) -> Result<(u64, Option<u64>), StoreError> {
        let key = self.keys.outbox_index();
        let (count, oldest): (u64, Vec<(u64, f64)>) = self
            .run(|mut c| async move {
                redis::pipe()
                    .zcard(&key)
                    .zrange_withscores(&key, 0, 0)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok((count, oldest.first().map(|&(_, at)| at as u64)))
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
        let mut expected = String::new();
        let (got, v, c, d) = loop {
            let mine = token;
            let (key, game, token, from) = (
                self.keys.send_lease(id),
                self.keys.game(id),
                token.to_owned(),
                expected.clone(),
            );
            let reply: Vec<redis::Value> = self
                .run(|mut c| async move {
                    self.outbox
                        .take
                        .key(key)
                        .key(game)
                        .arg(&token)
                        .arg(hold.as_millis() as u64)
                        .arg(from)
                        .invoke_async(&mut c)
                        .await
                })
                .await?;
            let got: i32 =
                redis::from_redis_value(reply.first().cloned().unwrap_or(redis::Value::Nil))
                    .map_err(|e| StoreError::Server(e.to_string()))?;
            if got == 1 {
                if !expected.is_empty() {
                    crate::metrics::takeover(crate::metrics::Takeover::SendLease);
                }
                break super::versioned::status_and_payload(&reply)?;
            }
            if !expected.is_empty() {
                return Ok(None);
            }
            // Held: taken over at once when its process is dead, else left to it.
            let held: Option<String> = reply
                .get(1)
                .and_then(|h| redis::from_redis_value(h.clone()).ok());
            match held {
                // A sender of this same process that ended without letting go (it gave up
                // after many failures): one process runs one sender a game at a time.
                Some(h) if super::life::holder(&h) == super::life::holder(mine) => {
                    expected = h;
                }
                Some(h) if !self.alive(super::life::holder(&h)).await? => {
                    log::info!("game {id}: its sender {h} is no longer alive; taken over");
                    expected = h;
                }
                _ => return Ok(None),
            }
        };
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
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(got == 1)
    }

    /// Runs `work` while holding the send lease: it is renewed every quarter of `hold` until
    /// `work` ends, so however long `work` waits (a call waiting its turn for the bot token's
    /// budget, minutes when hundreds of games start at once), the lease never runs out under
    /// a live sender, and no other sender takes the game and sends what this one is sending.
    /// A renewal that fails (Redis away) is tried again at the next quarter: the lease holds
    /// for the rest of `hold`. When it went to another sender, `work` is dropped where it
    /// stands: [`StoreError::Fenced`]. With the output, when the lease was last renewed.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] as above.
    pub async fn holding_send_lease<F: std::future::Future>(
        &self,
        id: GameId,
        token: &str,
        hold: Duration,
        work: F,
    ) -> Result<(F::Output, Option<tokio::time::Instant>), StoreError> {
        let every = hold / 4;
        let mut renewed = None;
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(work);
        loop {
            tokio::select! {
                out = &mut work => return Ok((out, renewed)),
                _ = tick.tick() => match self.renew_send_lease(id, token, hold).await {
                    Ok(true) => renewed = Some(tokio::time::Instant::now()),
                    Ok(false) => return Err(StoreError::Fenced),
                    Err(e) => log::debug!("game {id}: the send lease not renewed: {e}"),
                },
            }
        }
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

    /// Takes one send or edit of `chat`'s budget (`take`), or only looks whether one is free
    /// (`!take`, a caller whose call takes it itself later): at most one every `interval`,
    /// with a burst of `tolerance / interval` more. 0 when it was taken (or is free), else
    /// the milliseconds to wait (nothing taken). Shared by every replica; on the server's
    /// clock.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn take_budget(
        &self,
        chat: i64,
        (interval, tolerance): (Duration, Duration),
        take: bool,
    ) -> Result<u64, StoreError> {
        let mode = if take { "take" } else { "peek" };
        self.gcra(vec![self.keys.chat_budget(chat)], interval, tolerance, mode)
            .await
    }

    /// Takes one call of the bot token's budget (every replica's): `interval` apart, no burst,
    /// by strict priority: a caller of `rank` (0 the highest) is refused while a caller of a
    /// higher rank waits for a turn, and with none waiting every rank goes at the whole pace.
    /// 0 when the call may go now, else the milliseconds to wait (a pause Telegram asked for,
    /// the budget, or a higher priority).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn take_token(&self, interval: Duration, rank: u8) -> Result<u64, StoreError> {
        let (bucket, pause) = self.keys.token_budget();
        let waiting = self.keys.token_waiting();
        let wait: i64 = self
            .run(|mut c| {
                let (bucket, pause, waiting) = (bucket.clone(), pause.clone(), waiting.clone());
                async move {
                    self.outbox
                        .token
                        .key(bucket)
                        .key(pause)
                        .key(waiting)
                        .arg(interval.as_millis() as u64)
                        .arg(rank)
                        .invoke_async(&mut c)
                        .await
                }
            })
            .await?;
        Ok(wait.max(0) as u64)
    }

    /// Gives back a call of the bot token's budget (of one every `interval`) taken by
    /// [`Store::take_token`] and not made: another caller may take it.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn give_back_token(&self, interval: Duration) -> Result<(), StoreError> {
        let (bucket, _) = self.keys.token_budget();
        self.gcra(vec![bucket], interval, Duration::ZERO, "back")
            .await
            .map(|_| ())
    }

    /// One call of the GCRA script on `keys` (a bucket, and a pause when given), to `mode`
    /// (`take`, `peek` or `back`): 0 when taken (or free, or given back), else the
    /// milliseconds to wait.
    async fn gcra(
        &self,
        keys: Vec<String>,
        interval: Duration,
        tolerance: Duration,
        mode: &'static str,
    ) -> Result<u64, StoreError> {
        let wait: i64 = self
            .run(|mut c| {
                let keys = keys.clone();
                async move {
                    let mut call = self.outbox.gcra.prepare_invoke();
                    for k in keys {
                        call.key(k);
                    }
                    call.arg(interval.as_millis() as u64)
                        .arg(tolerance.as_millis() as u64)
                        .arg(mode)
                        .invoke_async(&mut c)
                        .await
                }
            })
            .await?;
        Ok(wait.max(0) as u64)
    }

    /// Telegram answered a call with 429 and `retry_after`: every replica's calls wait `for_`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn pause_token(&self, for_: Duration) -> Result<(), StoreError> {
        let (_, pause) = self.keys.token_budget();
        let _: i64 = self
            .run(|mut c| async move {
                self.outbox
                    .pause
                    .key(pause)
                    .arg(for_.as_millis() as u64)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(())
    }

    /// Takes the live boards' next turn of the token's budget (every replica's): turns
    /// `spacing` apart, first come first served, whoever asks. The milliseconds until the
    /// caller's turn (0: now); the caller sleeps until then, nothing to poll.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn take_board_turn(&self, spacing: Duration) -> Result<u64, StoreError> {
        let key = self.keys.board_turn();
        let wait: i64 = self
            .run(|mut c| {
                let key = key.clone();
                async move {
                    self.outbox
                        .board_turn
                        .key(key)
                        .arg(spacing.as_micros() as u64)
                        .invoke_async(&mut c)
                        .await
                }
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
