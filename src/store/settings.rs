//! Chat and user settings, and Telegram updates already handled.

use super::{Store, StoreError, CODEC};
use crate::game::record::{Card, ChatSettings, UserSettings, CARD_TTL};
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

    /// What `user`'s latest inline card offers (see [`Card`]), if they sent one within
    /// [`CARD_TTL`].
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn card(&self, user: u64) -> Result<Option<Card>, StoreError> {
        self.get_json(self.keys.card(user)).await
    }

    /// Keeps what `user`'s inline cards offer now, for [`CARD_TTL`].
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_card(&self, user: u64, card: &Card) -> Result<(), StoreError> {
        let data = Self::encode(card)?;
        let key = self.keys.card(user);
        self.run(|mut c| async move { c.set_ex(key, data, CARD_TTL.as_secs()).await })
            .await
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

    /// Claims a Telegram update for `claimant` (this process, `name/boot`): [`Claim::Mine`]
    /// when it is this process's to handle (new; or claimed by a process that is no longer
    /// alive, see [`Store::alive`], or longer than `stale` ago, and never finished),
    /// [`Claim::Handled`] when it was handled to the end, [`Claim::Elsewhere`] while a live
    /// process (this one included) handles it.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn claim_update(
        &self,
        update_id: u32,
        claimant: &str,
        stale: std::time::Duration,
    ) -> Result<Claim, StoreError> {
        let (key, field) = self.keys.update(update_id);
        let mut expected = String::new();
        // At most twice: a claim of a process found dead is taken over by a second call that
        // names it, so a claim made meanwhile by a third is not.
        for _ in 0..2 {
            let now = crate::clock::unix_ms();
            let (key, field, claimant, expected_now) = (
                key.clone(),
                field.clone(),
                claimant.to_owned(),
                expected.clone(),
            );
            let (got, holder): (i32, Option<String>) = self
                .run(|mut c| async move {
                    let reply: Vec<redis::Value> = redis::Script::new(CLAIM)
                        .key(key)
                        .arg(field)
                        .arg(claimant)
                        .arg(UPDATE_TTL)
                        .arg(now)
                        .arg(stale.as_millis() as u64)
                        .arg(expected_now)
                        .invoke_async(&mut c)
                        .await?;
                    let at = |i: usize| reply.get(i).cloned().unwrap_or(redis::Value::Nil);
                    Ok((
                        redis::from_redis_value(at(0))?,
                        redis::from_redis_value(at(1))?,
                    ))
                })
                .await?;
            match (got, holder) {
                (1, _) => {
                    if !expected.is_empty() {
                        crate::metrics::takeover(crate::metrics::Takeover::UpdateClaim);
                    }
                    return Ok(Claim::Mine);
                }
                (0, _) => return Ok(Claim::Handled),
                (3, _) => return Ok(Claim::Again),
                (2, Some(claim)) if expected.is_empty() => {
                    let owner = claim.split('\t').next().unwrap_or_default();
                    if self.alive(owner).await? {
                        return Ok(Claim::Elsewhere);
                    }
                    log::info!("update {update_id}: taken over from {owner}, no longer alive");
                    expected = claim;
                }
                _ => return Ok(Claim::Elsewhere),
            }
        }
        Ok(Claim::Elsewhere)
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

    /// Notes that button press `query` (a callback query id) is being answered: `false` when
    /// it was answered before, by this process or one that died before it let the update go
    /// (Telegram refuses a second answer). Kept fifteen minutes, far longer than Telegram
    /// takes an answer.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn first_answer(&self, query: &str) -> Result<bool, StoreError> {
        self.set_once(self.keys.answered(query), 900).await
    }

    /// Sets `key` for `secs` unless it is set: `true` when this call set it.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
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
pub(super) const UPDATE_TTL: i64 = 24 * 3600;

/// Whose an update is (see [`Store::claim_update`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This process's to handle.
    Mine,
    /// Handled to the end already: skipped.
    Handled,
    /// A live process handles it.
    Elsewhere,
    /// This claimant claimed it before: it handles it now, or its handling failed.
    Again,
}

/// Claims an update (see the script's words). A claim is `claimant<TAB>when`; a handled
/// update is `done`. `{1}`: this claimant's now; `{0}`: handled; `{2, claim}`: another's,
/// claimed lately; `{3}`: this claimant's already.
const CLAIM: &str = include_str!("lua/claim.lua");
