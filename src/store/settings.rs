//! Chat and user settings, and Telegram updates already handled.

use super::{Store, StoreError, CODEC};
use crate::game::record::{ChatSettings, UserSettings};
use redis::AsyncCommands;
use serde::{de::DeserializeOwned, Serialize};

impl Store {
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

    /// Claims a Telegram update for `replica`: [`Claim::Mine`] when it is this replica's to
    /// handle (new; or claimed before by this same replica, which crashed; or claimed by
    /// another more than `stale` ago and never finished: that one crashed),
    /// [`Claim::Handled`] when it was handled to the end, [`Claim::Elsewhere`] while another
    /// replica handles it.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn claim_update(
        &self,
        update_id: u32,
        replica: &str,
        stale: std::time::Duration,
    ) -> Result<Claim, StoreError> {
        let (key, field) = self.keys.update(update_id);
        let replica = replica.to_owned();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        let stale = stale.as_millis() as u64;
        let got: i32 = self
            .run(|mut c| async move {
                redis::Script::new(CLAIM)
                    .key(key)
                    .arg(field)
                    .arg(replica)
                    .arg(UPDATE_TTL)
                    .arg(now)
                    .arg(stale)
                    .invoke_async(&mut c)
                    .await
            })
            .await?;
        Ok(match got {
            1 => Claim::Mine,
            2 => Claim::Elsewhere,
            _ => Claim::Handled,
        })
    }

    /// Notes that a claimed update was handled to the end: it is skipped if it comes again.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn finish_update(&self, update_id: u32) -> Result<(), StoreError> {
        let (key, field) = self.keys.update(update_id);
        self.run(|mut c| async move {
            redis::pipe()
                .atomic()
                .hset(&key, field, "done")
                .ignore()
                .expire(&key, UPDATE_TTL)
                .ignore()
                .query_async(&mut c)
                .await
        })
        .await
    }

    /// Records a Telegram update as handled; `true` the first time, `false` for a repeat
    /// (a second replica or a redelivery), which must then be skipped.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn first_delivery(&self, update_id: u32) -> Result<bool, StoreError> {
        let (key, field) = self.keys.update(update_id);
        let (set,): (bool,) = self
            .run(|mut c| async move {
                redis::pipe()
                    .atomic()
                    .hset_nx(&key, field, "done")
                    .expire(&key, UPDATE_TTL)
                    .ignore()
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(set)
    }

    /// Sets `key` for `secs` unless it is set: `true` when this call set it.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    /// Notes that the `/settings` panel `message` of `chat` shows what hashes to `drawn`:
    /// `false` when it showed that already (nothing to edit).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn panel_drawn(
        &self,
        chat: i64,
        message: i32,
        drawn: u64,
    ) -> Result<bool, StoreError> {
        let key = self.keys.panel(chat, message);
        let before: Option<String> = self
            .run(|mut c| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg(drawn.to_string())
                    .arg("GET")
                    .arg("EX")
                    .arg(24 * 3600)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(before.as_deref() != Some(drawn.to_string().as_str()))
    }

    /// Forgets what a `/settings` panel message shows (its edit failed).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn panel_unknown(&self, chat: i64, message: i32) -> Result<(), StoreError> {
        let key = self.keys.panel(chat, message);
        self.run(|mut c| async move { redis::cmd("DEL").arg(key).query_async(&mut c).await })
            .await
    }

    pub(super) async fn set_once(&self, key: String, secs: u64) -> Result<bool, StoreError> {
        let set: Option<String> = self
            .run(|mut c| async move {
                redis::cmd("SET")
                    .arg(key)
                    .arg(1)
                    .arg("NX")
                    .arg("EX")
                    .arg(secs)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(set.is_some())
    }
}

/// How long the record of a handled update is kept (seconds): Telegram redelivers within
/// hours at most.
const UPDATE_TTL: i64 = 24 * 3600;

/// Whose an update is (see [`Store::claim_update`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This replica's to handle.
    Mine,
    /// Handled to the end already: skipped.
    Handled,
    /// Another replica is handling it.
    Elsewhere,
}

/// Claims an update (KEYS: its bucket; ARGV: its field, the replica, the expiry in seconds,
/// now and the staleness in milliseconds). A claim is `replica<TAB>when`; a handled update is
/// `done`. 1: this replica's now; 0: handled; 2: another replica's, claimed lately.
const CLAIM: &str = include_str!("lua/claim.lua");
