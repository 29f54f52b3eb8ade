//! A sender's hold on its game (a fenced lease in Redis: one sender a game at a time, and one
//! that lost it stores nothing), and the marks of edits on their way under it: an edit whose
//! fate nobody knows is sent again as a variant of itself, never lost, never "not modified".

use crate::game::delivery::EditOf;
use crate::game::sent::{self, Sent};
use crate::store::Atomic;
use crate::store::{GameId, StoreError};
use crate::telegram::context::Ctx;
use crate::view::keyboard::Keyboard;
use std::hash::{Hash, Hasher};
use std::time::Duration;
use teloxide::RequestError;

/// How long a sender holds a game: renewed before every send and, while a delivery is under
/// way (its calls waiting their turn for the token's budget), every quarter of it
/// ([`Lease::hold_during`]): a live sender keeps it however long the token makes it wait. A dead sender's lease is taken over as soon as its process's life key
/// is gone (`store/life.rs`), within two seconds. Longer than a Redis outage a replica lives
/// through (it exits after `MB_UNHEALTHY_EXIT_SECS`, 60 s by default): a lease that ran out
/// while Redis was away would go to another sender, which cannot know what this one sent
/// and could not acknowledge.
pub(super) const HOLD: Duration = Duration::from_secs(60);

/// How long an effect's first call waits for the token before its sender looks again at the
/// latest record (an effect that waits long may no longer be the one to send first, and a
/// board due meanwhile goes before it). (A call that waited longer than the hold, before the
/// lease was renewed during deliveries, let it run out under a live sender: another sender
/// took the game over and both sent its battle message.)
pub(super) const TOKEN_PATIENCE: Duration = Duration::from_secs(15);

/// A new sender's token, `name/boot/n`: this process's claimant (`name/boot`, see
/// `store/life.rs`) and a number of its own.
pub(super) fn lease_token(ctx: &Ctx) -> String {
    format!("{}/{:016x}", ctx.replica, rand::random::<u64>())
}

/// A sender's hold on its game: the token, and when it was last renewed.
pub(super) struct Lease {
    pub(super) token: String,
    pub(super) renewed: tokio::time::Instant,
    /// The drawing this sender last edited the live message to, though the record may not
    /// say so yet (its acknowledgement failed): not sent again.
    pub(super) edited: u64,
    /// An effect this sender delivered whose acknowledgement failed: its number, what it
    /// left, and the version of the record it was delivered from.
    pub(super) unacked: Option<(u64, Sent, u64)>,
    /// The live board's turn of the token this sender queued for and waits for (`token.rs`).
    pub(super) board_turn: Option<tokio::time::Instant>,
}

impl Lease {
    /// The live message was edited to show `hash`.
    pub(super) fn made_edit(&mut self, hash: u64) {
        self.edited = hash;
    }

    /// Effect `n` of the record at `version` was delivered, leaving `ack`: kept until it is
    /// acknowledged.
    pub(super) fn delivered(&mut self, n: u64, ack: Sent, version: u64) {
        self.unacked = Some((n, ack, version));
    }

    /// The effect delivered was acknowledged.
    pub(super) fn delivered_and_acknowledged(&mut self) {
        self.unacked = None;
    }

    /// The live board's turn of the token, queued for now, comes at `at`.
    pub(super) fn queued_for_board(&mut self, at: tokio::time::Instant) {
        self.board_turn = Some(at);
    }

    /// The live board's turn, if one is queued for: forgotten (it came, or it is not needed).
    pub(super) fn take_board_turn(&mut self) -> Option<tokio::time::Instant> {
        self.board_turn.take()
    }

    /// Makes sure the lease holds for most of [`HOLD`] yet, before a send: it is renewed
    /// once a quarter of it has passed (not before every send: that would be a round trip
    /// each). [`StoreError::Fenced`] when it went to another sender.
    pub(super) async fn keep(&mut self, ctx: &Ctx, id: GameId) -> Result<(), StoreError> {
        if self.renewed.elapsed() < HOLD / 4 {
            return Ok(());
        }
        if !ctx.store.renew_send_lease(id, &self.token, HOLD).await? {
            return Err(StoreError::Fenced);
        }
        self.renewed = tokio::time::Instant::now();
        Ok(())
    }
}

impl Lease {
    /// Runs `work` (a delivery: its calls may wait their turn for the token's budget as long
    /// as they must) with the lease renewed meanwhile ([`crate::store::Store::holding_send_lease`]).
    /// [`StoreError::Fenced`] when it went to another sender: `work` is dropped.
    pub(super) async fn hold_during<F: std::future::Future>(
        &mut self,
        ctx: &Ctx,
        id: GameId,
        work: F,
    ) -> Result<F::Output, StoreError> {
        let (out, renewed) = ctx
            .store
            .holding_send_lease(id, &self.token, HOLD, work)
            .await?;
        if let Some(at) = renewed {
            self.renewed = at;
        }
        Ok(out)
    }
}

/// Marks an edit of `to` showing `hash` on its way, fenced by the lease `token`, just before
/// its request: the variant to send it as. An edit of the same content whose fate nobody
/// knows (its sender died, or its answer was lost, before it was acknowledged) makes this
/// one a variant of it, so that it differs from whatever the message shows now: it is never
/// lost, and Telegram never finds it "not modified".
pub(super) async fn mark_editing(
    ctx: &Ctx,
    id: GameId,
    token: &str,
    to: EditOf,
    hash: u64,
) -> Result<u8, StoreError> {
    let marked = ctx
        .store
        .transition(id, Atomic::by_sender(token), |r| {
            Ok::<_, ()>(sent::editing(r, to, hash, token))
        })
        .await?;
    let variant = marked.map_or(0, |c| c.value);
    if variant > 0 {
        log::info!(
            "game {id}: an edit of {to:?} whose fate is unknown is sent again as variant {variant}"
        );
    }
    Ok(variant)
}

/// What a private message's edit is marked on its way with: the game and the lease.
pub(super) struct Marker<'a> {
    pub(super) ctx: &'a Ctx,
    pub(super) id: GameId,
    pub(super) token: &'a str,
}

impl Marker<'_> {
    /// [`mark_editing`] of `to` showing `hash`; a store away is a failure of the edit, tried
    /// again later.
    pub(super) async fn mark(&self, to: EditOf, hash: u64) -> Result<u8, RequestError> {
        mark_editing(self.ctx, self.id, self.token, to, hash)
            .await
            .map_err(|e| RequestError::Io(std::io::Error::other(e.to_string()).into()))
    }
}

/// A hash of a message's text and keyboard: what is drawn, to draw nothing twice.
pub fn drawing_hash(text: &str, kb: &Option<Keyboard>) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    serde_json::to_string(kb).unwrap_or_default().hash(&mut h);
    // 0 means "nothing drawn yet".
    h.finish().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sender renews its lease before an effect once a quarter of the hold has passed, then
    /// waits for the token at most [`TOKEN_PATIENCE`] before it looks again: together well
    /// within the hold, with a quarter of it left for a slow Redis and the call itself. (Were
    /// the wait unbounded, a live sender would lose its game to another, which sends again.)
    #[test]
    fn a_sender_waiting_for_the_token_renews_its_lease_well_within_the_hold() {
        let renewed_at_most_every = HOLD / 4;
        let longest_wait = TOKEN_PATIENCE;
        assert!(renewed_at_most_every + longest_wait <= HOLD * 3 / 4);
    }
}
