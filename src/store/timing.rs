//! Time-driven work shared by replicas: turn-timer deadlines, and the lease that paces
//! redraws of a group's live message.

use super::{GameId, Store, StoreError};
use redis::AsyncCommands;
use std::time::Duration;

impl Store {
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

    /// Takes the right to think for the bot's seat in game `id` for `hold`: `true` when this
    /// caller has it. A replica that crashed while thinking loses it when `hold` runs out.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn take_ai_lease(&self, id: GameId, hold: Duration) -> Result<bool, StoreError> {
        let key = self.keys.ai_lease(id);
        let got: Option<String> = self
            .run(|mut c| async move { take_lease(&key, hold).query_async(&mut c).await })
            .await?;
        Ok(got.is_some())
    }

    /// Gives the right to think for game `id` back.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn drop_ai_lease(&self, id: GameId) -> Result<(), StoreError> {
        let key = self.keys.ai_lease(id);
        self.run(|mut c| async move { c.del(key).await }).await
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
        let got: Option<String> = self
            .run(|mut c| async move {
                let () = c.set_ex(&dirty, 1, 3600).await?;
                let () = c.zadd(wanted, format!("{chat}:{id}"), now).await?;
                take_lease(&lease, hold).query_async(&mut c).await
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

    /// Takes one of a group's sends-or-edits for the minute: `0` when taken, else how many
    /// milliseconds until one is free. At most `limit` are taken in any 60 seconds, across
    /// every replica.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn group_slot(&self, chat: i64, now_ms: u64, limit: u32) -> Result<u64, StoreError> {
        let key = self.keys.chat_sent(chat);
        let member = format!("{now_ms}-{:08x}", rand::random::<u32>());
        let wait: i64 = self
            .run(|mut c| async move {
                self.slot
                    .key(key)
                    .arg(now_ms)
                    .arg(60_000)
                    .arg(limit)
                    .arg(member)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(wait.max(0) as u64)
    }
}

/// `SET key 1 NX PX hold`: takes a lease unless someone holds it; replies `OK` or nil.
fn take_lease(key: &str, hold: Duration) -> redis::Cmd {
    let mut cmd = redis::cmd("SET");
    cmd.arg(key)
        .arg(1)
        .arg("NX")
        .arg("PX")
        .arg(hold.as_millis() as u64);
    cmd
}
