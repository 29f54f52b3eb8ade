//! A game's record: creating it, loading it, every kind of transition (plain, with its
//! deadline, with settled refusals, a press's with its claim, the sender's fenced one), and
//! deleting it.

use super::versioned::{Cas, Extra};
use super::{Atomic, Committed, GameId, Store, StoreError};

use crate::game::record::GameRecord;
use redis::AsyncCommands;

impl Store {
    /// Stores a new game and returns its id.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn create_game(&self, record: &GameRecord) -> Result<GameId, StoreError> {
        let id = self.reserve_game_id().await?;
        if self.create_game_at(id, record).await? {
            Ok(id)
        } else {
            Err(StoreError::Server(format!("game {id} already exists")))
        }
    }

    /// A new game id, for [`Store::create_game_at`].
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn reserve_game_id(&self) -> Result<GameId, StoreError> {
        let seq = self.keys.game_seq();
        Ok(GameId(
            self.run(|mut c| async move { c.incr(seq, 1).await })
                .await?,
        ))
    }

    /// Stores a new game under `id` unless a game is there already: `false` then (and the
    /// one there is kept), so creating a game is safe to repeat.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn create_game_at(
        &self,
        id: GameId,
        record: &GameRecord,
    ) -> Result<bool, StoreError> {
        let ttl = self.config.ttl(record.game.phase());
        let extra = Extra {
            index: Some((self.keys.outbox_index(), id.0.to_string())),
            ..Extra::default()
        };
        let data = Self::encode(record)?;
        Ok(matches!(
            self.compare_and_set(&self.keys.game(id), 0, data, ttl, &extra, None)
                .await?,
            Cas::Saved(_)
        ))
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

    /// The stored version of game `id` alone (a few bytes), for those who only watch for a
    /// change; `None` if there is no such game.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn game_version(&self, id: GameId) -> Result<Option<u64>, StoreError> {
        self.version_at(self.keys.game(id)).await
    }

    /// Applies `f` to the game atomically: `f` runs on the record this process last read or
    /// wrote (or a fresh one) and its change is saved only if nobody changed the game since;
    /// otherwise `f` runs again on the current record. So `f` may see an old record first
    /// and must not assume more than it checks. When `f` refuses (returns `Err`) on a record
    /// read just now, nothing is saved and the refusal is returned. When `f` leaves such a
    /// record as it was, nothing is written.
    ///
    /// `atomic` says what the same atomic step does besides: the game's deadline set from
    /// the new record ([`Atomic::due`]: a crash cannot leave a move stored without its
    /// timer), refusals taken from the record this process knows ([`Atomic::settled`]), a
    /// press's update claimed ([`Atomic::press`]), or a change by the game's sender, saved
    /// only while its lease holds ([`Atomic::by_sender`]). Every change but the sender's
    /// derives the effects that follow from the new state and indexes the game's outbox.
    ///
    /// # Errors
    /// [`StoreError::Busy`] after too many conflicts; [`StoreError::NotFound`],
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn transition<T, E>(
        &self,
        id: GameId,
        atomic: Atomic<'_, E>,
        mut f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let by_sender = atomic.fence.is_some();
        let extra = Extra {
            index: (!by_sender).then(|| (self.keys.outbox_index(), id.0.to_string())),
            deadline: atomic
                .due
                .map(|_| (self.keys.deadlines(), id.0.to_string())),
            claim: atomic.press.map(|(update_id, claimant)| {
                (
                    self.keys.presses(id),
                    update_id.to_string(),
                    claimant.to_owned(),
                )
            }),
            fence: atomic
                .fence
                .map(|token| (self.keys.send_lease(id), token.to_owned())),
        };
        let ttl = |r: &GameRecord| self.config.ttl(r.game.phase());
        let settled = atomic.settled.unwrap_or(&|_| false);
        let done = self
            .update_versioned(
                &self.keys.game(id),
                ttl,
                || None,
                &extra,
                atomic.due,
                settled,
                move |rec| {
                    let value = f(rec)?;
                    if !by_sender {
                        rec.derive_effects();
                    }
                    Ok(value)
                },
            )
            .await?;
        Ok(done.map(|(value, record, version)| Committed {
            value,
            record,
            version,
        }))
    }

    /// Who claimed the press of update `update_id` in game `id` with its change: the
    /// claimant (`name/boot`), `done` once its answer went, or `None`.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn press_claim(
        &self,
        id: GameId,
        update_id: u32,
    ) -> Result<Option<String>, StoreError> {
        let key = self.keys.presses(id);
        self.run(|mut c| async move { c.hget(key, update_id).await })
            .await
    }

    /// The press of update `update_id` in game `id` was answered.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn press_answered(&self, id: GameId, update_id: u32) -> Result<(), StoreError> {
        let key = self.keys.presses(id);
        self.run(|mut c| async move { c.hset(key, update_id, "done").await })
            .await
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
}
