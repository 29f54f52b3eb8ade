//! The quick match's queue: one value, changed atomically (the compare-and-set of
//! `versioned.rs`), so every replica pairs from the same queue and a pair is made once.

use super::versioned::Extra;
use super::{Store, StoreError};
use crate::game::quick::{Queue, QUEUE_VERSION};

impl Store {
    /// The quick match's queue as stored (an empty one when none is), with its version
    /// (0 when none is stored).
    ///
    /// # Errors
    /// [`StoreError::Undecodable`], [`StoreError::Unavailable`].
    pub async fn quick_queue(&self) -> Result<(Queue, u64), StoreError> {
        Ok(self
            .load_versioned(&self.keys.quick())
            .await?
            .unwrap_or_else(|| (empty(), 0)))
    }

    /// Changes the quick match's queue atomically: `f` runs on the stored queue (an empty
    /// one when none is stored), and its change is saved only if nothing changed the queue
    /// meanwhile, else `f` runs again on what is stored now. A refusal saves nothing.
    ///
    /// # Errors
    /// As [`Store::transition`].
    pub async fn update_quick<T, E>(
        &self,
        f: impl FnMut(&mut Queue) -> Result<T, E>,
    ) -> Result<Result<(T, Queue), E>, StoreError> {
        let ttl = |_: &Queue| self.config.finished_ttl;
        let done = self
            .update_versioned(
                &self.keys.quick(),
                ttl,
                || Some(empty()),
                &Extra::default(),
                None,
                &|_| false,
                f,
            )
            .await?;
        Ok(done.map(|(value, queue, _)| (value, queue)))
    }
}

/// A queue nobody waits in.
fn empty() -> Queue {
    Queue {
        v: QUEUE_VERSION,
        ..Queue::default()
    }
}
