//! Which bot processes are alive: each process (`name/boot`, its claimant) keeps a key that
//! expires unless it is renewed ([`Store::beat`]). An update claimed, or a game's send lease
//! held, by a process whose key is gone is taken over at once: that process died (or lost
//! Redis for longer than the key lives, and then its fenced writes fail). A process that
//! starts again under the same name is a new claimant.

use super::{Store, StoreError};
use std::time::Duration;

/// How long a process's life key lives unless renewed.
pub const LIFE: Duration = Duration::from_millis(2000);

/// How often a process renews it: four times within [`LIFE`], so a slow tick or two cannot
/// make a live process look dead.
pub const BEAT: Duration = Duration::from_millis(500);

impl Store {
    /// Says `claimant` is alive for [`LIFE`].
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn beat(&self, claimant: &str) -> Result<(), StoreError> {
        let key = self.keys.life(claimant);
        self.run(|mut c| async move {
            redis::cmd("SET")
                .arg(key)
                .arg(1)
                .arg("PX")
                .arg(LIFE.as_millis() as u64)
                .query_async(&mut c)
                .await
        })
        .await
    }

    /// Whether `claimant` said it was alive within [`LIFE`].
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    ///
    /// Just after Redis came back from an outage (as this process saw it), every process's
    /// key has expired meanwhile: until the live ones have had [`LIFE`] and a beat to say
    /// so again, nobody is taken for dead (a live sender's delivery would be made twice).
    pub async fn alive(&self, claimant: &str) -> Result<bool, StoreError> {
        let key = self.keys.life(claimant);
        let alive: bool = self
            .run(|mut c| async move { redis::AsyncCommands::exists(&mut c, key).await })
            .await?;
        Ok(alive || self.back_within(LIFE + BEAT))
    }

    /// `claimant` stops: what it claimed or held is anybody's at once.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn end_life(&self, claimant: &str) -> Result<(), StoreError> {
        let key = self.keys.life(claimant);
        self.run(|mut c| async move { redis::AsyncCommands::del(&mut c, key).await })
            .await
    }
}

/// The process a lease token `name/boot/n` belongs to: `name/boot`.
pub fn holder(token: &str) -> &str {
    token.rsplit_once('/').map_or(token, |(owner, _)| owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokens_holder_is_its_process() {
        assert_eq!(holder("bot-1/00ff/0a"), "bot-1/00ff");
        assert_eq!(holder("plain"), "plain");
    }
}
