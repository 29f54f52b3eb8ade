//! Which game is active in a chat and for a user.

use super::{GameId, Store, StoreError};
use redis::AsyncCommands;

impl Store {
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

    /// The active game of a chat, or of one of its forum topics (`topic`): one at a time in
    /// each.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn chat_game(
        &self,
        chat: i64,
        topic: Option<i32>,
    ) -> Result<Option<GameId>, StoreError> {
        self.get_pointer(self.keys.chat_game(chat, topic)).await
    }

    /// Makes `id` the active game of a chat (or of its forum topic).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_chat_game(
        &self,
        chat: i64,
        topic: Option<i32>,
        id: GameId,
    ) -> Result<(), StoreError> {
        self.set_pointer(self.keys.chat_game(chat, topic), id).await
    }

    /// Makes `id` the active game of a chat unless it has one: the one it has then.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn claim_chat_game(&self, chat: i64, id: GameId) -> Result<GameId, StoreError> {
        let key = self.keys.chat_game(chat, None);
        let ttl = self.config.battle_ttl.max(self.config.setup_ttl).as_secs();
        let k = key.clone();
        let set: bool = self
            .run(|mut c| async move {
                redis::cmd("SET")
                    .arg(k)
                    .arg(id.0)
                    .arg("NX")
                    .arg("EX")
                    .arg(ttl)
                    .query_async::<Option<String>>(&mut c)
                    .await
                    .map(|r| r.is_some())
            })
            .await?;
        if set {
            return Ok(id);
        }
        Ok(self.get_pointer(key).await?.unwrap_or(id))
    }

    /// Forgets the active game of a chat (or of its forum topic) if it is still `id`;
    /// returns whether it was.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn clear_chat_game(
        &self,
        chat: i64,
        topic: Option<i32>,
        id: GameId,
    ) -> Result<bool, StoreError> {
        self.clear_pointer(self.keys.chat_game(chat, topic), id)
            .await
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
}
