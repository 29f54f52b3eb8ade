//! A seat's placement draft: loading it, its version, and editing it atomically.

use super::versioned::Extra;
use super::{GameId, Store, StoreError};
use engine::SeatId;
use serde::{de::DeserializeOwned, Serialize};

impl Store {
    /// A seat's placement state (the bot's editor, or a bare draft), if one is stored.
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn draft<R: DeserializeOwned>(
        &self,
        id: GameId,
        seat: SeatId,
    ) -> Result<Option<R>, StoreError> {
        Ok(self.draft_versioned(id, seat).await?.map(|(d, _)| d))
    }

    /// A seat's placement draft with its version, if it has one.
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn draft_versioned<R: DeserializeOwned>(
        &self,
        id: GameId,
        seat: SeatId,
    ) -> Result<Option<(R, u64)>, StoreError> {
        self.load_versioned(&self.keys.draft(id, seat.0)).await
    }

    /// The version of a seat's draft alone (none before its first edit): what a watcher
    /// looks at before reading the whole draft.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`].
    pub async fn draft_version(&self, id: GameId, seat: SeatId) -> Result<Option<u64>, StoreError> {
        self.version_at(self.keys.draft(id, seat.0)).await
    }

    /// Edits a seat's placement draft atomically, starting from `fresh` when none is stored.
    /// Two taps at once both land, one after the other; a refused edit saves nothing.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn edit_draft<R, T, E>(
        &self,
        id: GameId,
        seat: SeatId,
        fresh: impl Fn() -> R,
        f: impl FnMut(&mut R) -> Result<T, E>,
    ) -> Result<Result<(T, R), E>, StoreError>
    where
        R: Serialize + DeserializeOwned + Clone + PartialEq,
    {
        let ttl = |_: &R| self.config.setup_ttl;
        let done = self
            .update_versioned(
                &self.keys.draft(id, seat.0),
                ttl,
                || Some(fresh()),
                &Extra::default(),
                None,
                &|_| false,
                f,
            )
            .await?;
        Ok(done.map(|(value, draft, _)| (value, draft)))
    }
}
