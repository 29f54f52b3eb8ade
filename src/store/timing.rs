//! Time-driven work shared by replicas: turn-timer deadlines, and the lease of the bot's
//! thinking.

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
}

fn take_lease(key: &str, hold: Duration) -> redis::Cmd {
    let mut cmd = redis::cmd("SET");
    cmd.arg(key)
        .arg(1)
        .arg("NX")
        .arg("PX")
        .arg(hold.as_millis() as u64);
    cmd
}
