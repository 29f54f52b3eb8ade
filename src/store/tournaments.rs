//! A chat's tournament: loading it, and changing it atomically (the compare-and-set of
//! `versioned.rs`, as games and drafts).

use super::versioned::Extra;
use super::{Store, StoreError};
use crate::game::tournament::Tournament;

impl Store {
    /// The chat's latest tournament (sign-up, running or over) with its version, if any.
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn tournament(&self, chat: i64) -> Result<Option<(Tournament, u64)>, StoreError> {
        self.load_versioned(&self.keys.tournament(chat)).await
    }

    /// Changes the chat's tournament atomically: `f` runs on the stored one (or on `fresh()`
    /// when none is stored), and its change is
    /// saved only if nothing changed it meanwhile, else `f` runs again on what is stored
    /// now. A refusal saves nothing. The new tournament comes back with its change's value.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when none is stored and `fresh` makes none; as
    /// [`Store::transition`].
    pub async fn update_tournament<T, E>(
        &self,
        chat: i64,
        fresh: impl Fn() -> Option<Tournament>,
        f: impl FnMut(&mut Tournament) -> Result<T, E>,
    ) -> Result<Result<(T, Tournament), E>, StoreError> {
        let ttl = |_: &Tournament| self.config.finished_ttl;
        let done = self
            .update_versioned(
                &self.keys.tournament(chat),
                ttl,
                fresh,
                &Extra::default(),
                None,
                &|_| false,
                f,
            )
            .await?;
        Ok(done.map(|(value, t, _)| (value, t)))
    }
}
