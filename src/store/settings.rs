//! Chat and user settings, statistics, and Telegram updates already handled.

use super::{Store, StoreError, CODEC};
use crate::record::{ChatSettings, Stats, UserSettings};
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
