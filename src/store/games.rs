//! A game's record: creating it, loading it, every kind of transition (plain, with its
//! deadline, with settled refusals, a press's with its claim, the sender's fenced one), and
//! deleting it.

use super::versioned::{Cas, Extra};
use super::{Committed, DueFn, GameId, Settled, Store, StoreError};
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
    /// # Errors
    /// [`StoreError::Busy`] after too many conflicts; [`StoreError::NotFound`],
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn transition<T, E>(
        &self,
        id: GameId,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        self.transition_due(id, None, f).await
    }

    /// [`Store::transition`] that also sets the game's deadline (see [`Store::schedule`]) to
    /// what `due` says of the new record, in the same atomic step: a crash cannot leave a
    /// move stored without its timer.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn transition_due<T, E>(
        &self,
        id: GameId,
        due: Option<&DueFn<'_, GameRecord>>,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        self.transition_settled(id, due, &|_| false, f).await
    }

    /// [`Store::transition_due`] for a change whose refusals `settled` says no later version
    /// of the record can lift (a cell already shot, a game over, a press already answered):
    /// such a refusal of the record this process knows is the answer, with no round trip.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn transition_settled<T, E>(
        &self,
        id: GameId,
        due: Option<&DueFn<'_, GameRecord>>,
        settled: &Settled<'_, E>,
        mut f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let extra = Extra {
            index: Some((self.keys.outbox_index(), id.0.to_string())),
            deadline: due.map(|_| (self.keys.deadlines(), id.0.to_string())),
            ..Extra::default()
        };
        self.transition_with(id, &extra, due, settled, move |rec| {
            let value = f(rec)?;
            rec.derive_effects();
            Ok(value)
        })
        .await
    }

    /// [`Store::transition_settled`] for a button press whose update (`update_id`) is claimed
    /// by `claimant` in the same atomic step as the change it makes, in the game's own hash
    /// slot (see [`Store::press_claim`]): no round trip of its own on the shot's path.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn transition_press<T, E>(
        &self,
        id: GameId,
        (update_id, claimant): (u32, &str),
        due: Option<&DueFn<'_, GameRecord>>,
        settled: &Settled<'_, E>,
        mut f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let extra = Extra {
            index: Some((self.keys.outbox_index(), id.0.to_string())),
            deadline: due.map(|_| (self.keys.deadlines(), id.0.to_string())),
            claim: Some((
                self.keys.presses(id),
                update_id.to_string(),
                claimant.to_owned(),
            )),
            ..Extra::default()
        };
        self.transition_with(id, &extra, due, settled, move |rec| {
            let value = f(rec)?;
            rec.derive_effects();
            Ok(value)
        })
        .await
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

    /// A change by the game's sender: saved only while `token` still holds the game's send
    /// lease (a sender that lost it changes nothing), and it does not mark the game due.
    ///
    /// # Errors
    /// [`StoreError::Fenced`] when the lease is gone; as [`Store::transition`] otherwise.
    pub async fn transition_fenced<T, E>(
        &self,
        id: GameId,
        token: &str,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let extra = Extra {
            fence: Some((self.keys.send_lease(id), token.to_owned())),
            ..Extra::default()
        };
        self.transition_with(id, &extra, None, &|_| false, f).await
    }

    async fn transition_with<T, E>(
        &self,
        id: GameId,
        extra: &Extra,
        due: Option<&DueFn<'_, GameRecord>>,
        settled: &Settled<'_, E>,
        f: impl FnMut(&mut GameRecord) -> Result<T, E>,
    ) -> Result<Result<Committed<T>, E>, StoreError> {
        let ttl = |r: &GameRecord| self.config.ttl(r.game.phase());
        let done = self
            .update_versioned(&self.keys.game(id), ttl, || None, extra, due, settled, f)
            .await?;
        Ok(done.map(|(value, record, version)| Committed {
            value,
            record,
            version,
        }))
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
