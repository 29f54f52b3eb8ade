//! Each game's one sender: it delivers the game's outbox (`game/delivery.rs`) and keeps the live
//! message drawn from the latest record.
//!
//! Handlers never send. A transition stores the new state and its effects together and marks
//! the game in the outbox index; then [`kick`] wakes this process's sender, and the ticker's
//! [`poll`] wakes one for every marked game, on any replica, after any crash. A sender first
//! takes the game's lease (a fencing token in Redis): one sender a game at a time, and a
//! sender that lost its lease cannot store anything. It then loops: load the latest record;
//! edit the live message when what it would show differs from what it shows (never an
//! older version: it renders what it just loaded), within the chat's budget and the gap
//! between edits; else deliver the first effect and remove it; else release the lease,
//! which fails if the game changed meanwhile, and goes on.
//!
//! Every send and edit of a chat takes a token of the chat's GCRA bucket (shared by replicas,
//! never skipped): a group gets at most [`BotConfig::group_per_minute`] a minute, evenly,
//! however fast people play; and one of the bot token's budget (`token.rs`), at the effect's
//! priority.
//!
//! In parts: the lease and the marks of edits on their way ([`lease`]); who goes first and
//! when (the chat's budget, priorities, Telegram's waits: [`pace`]); the live board
//! ([`live`]); one function per kind of effect ([`effects`]), a player's private message
//! ([`dm`]) and the end's settlement ([`ending`]). This file holds the loop.

mod dm;
mod effects;
mod ending;
mod lease;
mod live;
mod pace;

use super::context::{crash_point, BotError, Ctx};
use super::token::with_priority;
use crate::game::delivery::{Effect, Outgoing};
use crate::game::record::GameRecord;
use crate::game::sent::{self, Sent};
use crate::store::outbox::Release;
use crate::store::Atomic;
use crate::store::{GameId, StoreError};
use effects::{deliver, target_chat};
use lease::{lease_token, Lease, HOLD, TOKEN_PATIENCE};
use live::{live_due, Redraw};
use pace::{budget, own_field_waits, priority, OWN_FIELD_PATIENCE};
use std::time::Duration;

pub use effects::topic_name;
pub use lease::drawing_hash;
pub use pace::now_ms;

/// The longest a sender sleeps at once while it waits for a budget or the gap.
const MAX_NAP: Duration = Duration::from_secs(5);

/// How long before the live board's queued turn of the token a sender stops starting other
/// deliveries (a call and the picture it draws take about this long at most), so that the
/// board is drawn when its turn comes.
const TURN_ROOM: Duration = Duration::from_secs(1);

/// Wakes this process's sender of game `id` (it starts one when none runs here).
pub fn kick(ctx: &Ctx, id: GameId) {
    start(ctx, id, true);
}

/// Starts a sender of game `id` when none runs here; `again`: one that runs looks again.
fn start(ctx: &Ctx, id: GameId, again: bool) {
    {
        let mut running = ctx
            .sending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(flag) = running.get_mut(&id) {
            *flag |= again;
            return;
        }
        running.insert(id, false);
    }
    let ctx = ctx.clone();
    let span = tracing::info_span!("game", game = id.0);
    // The sender's work is boxed: the future spawned stays small, so a sender started from
    // deep inside another one (a tournament's next match, opened by its last match's
    // settlement) is not built on that one's stack.
    let sender = async move {
        loop {
            Box::pin(drain(&ctx, id)).await;
            let mut running = ctx
                .sending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match running.get_mut(&id) {
                Some(again) if *again => *again = false,
                _ => {
                    running.remove(&id);
                    return;
                }
            }
        }
    };
    // Every log line of the sender names its game.
    tokio::spawn(tracing::Instrument::instrument(sender, span));
}

/// Wakes a sender for every game marked in the index: the ones whose sender died, or
/// whose change was made on another replica.
pub async fn poll(ctx: &Ctx) {
    match ctx.store.outbox_games(500).await {
        Ok(ids) => {
            for id in ids {
                // A sender running here will see the game's latest record anyway.
                start(ctx, id, false);
            }
        }
        Err(e) => log::debug!("outbox: {e}"),
    }
}

/// What one step of a sender did.
enum Step {
    /// Something was sent: look again. With the record as the sender stored it after,
    /// when it did: if that leaves nothing to send, the sender can let go without loading
    /// it again (letting go fails if the game changed since).
    Sent(Option<Box<(GameRecord, u64)>>),
    /// Something waits for the budget, the gap or Telegram: look again after this.
    Wait(Duration),
    /// Nothing to send at this version of the record.
    Idle(u64),
}

/// Sends game `id`'s outbox until nothing is left, if nobody else is.
async fn drain(ctx: &Ctx, id: GameId) {
    let token = lease_token(ctx);
    let mut lease = Lease {
        token: token.clone(),
        renewed: tokio::time::Instant::now(),
        edited: 0,
        unacked: None,
        board_turn: None,
    };
    // The first look at the game comes with the lease.
    let mut first = match ctx.store.take_send_lease_and_load(id, &token, HOLD).await {
        Ok(Some(found)) => Some(found),
        Ok(None) => return,
        Err(StoreError::NotFound) => {
            let _ = ctx.store.forget_outbox(id).await;
            let _ = ctx.store.release_send_lease(id, &token, 0).await;
            return;
        }
        Err(e) => {
            log::debug!("sender of {id}: {e}");
            let _ = ctx.store.release_send_lease(id, &token, 0).await;
            return;
        }
    };
    let mut failures = 0u32;
    loop {
        let step = step(ctx, id, &mut lease, first.take()).await;
        let nap = match step {
            Ok(Step::Sent(after)) => {
                failures = 0;
                match after.map(|b| *b) {
                    Some((rec, version))
                        if live_due(ctx, &rec, id).is_none() && rec.delivery.outbox.is_empty() =>
                    {
                        match ctx.store.release_send_lease(id, &token, version).await {
                            Ok(Release::Done | Release::Lost) => return,
                            Ok(Release::Changed) | Err(_) => continue,
                        }
                    }
                    _ => continue,
                }
            }
            Ok(Step::Wait(d)) => d.min(MAX_NAP),
            Ok(Step::Idle(version)) => {
                match ctx.store.release_send_lease(id, &token, version).await {
                    Ok(Release::Done | Release::Lost) => return,
                    Ok(Release::Changed) => continue,
                    Err(e) => {
                        log::warn!("sender of {id}: {e}");
                        Duration::from_millis(500)
                    }
                }
            }
            Err(BotError::Store(StoreError::Fenced)) => {
                log::warn!("sender of {id}: the lease went to another sender");
                return;
            }
            Err(BotError::Store(StoreError::NotFound)) => {
                let _ = ctx.store.forget_outbox(id).await;
                let _ = ctx.store.release_send_lease(id, &token, 0).await;
                return;
            }
            Err(e) => {
                failures += 1;
                log::warn!("sender of {id}: {e}");
                if failures > 20 {
                    // Left marked in the index: the ticker tries again later.
                    return;
                }
                Duration::from_millis(200 * u64::from(failures.min(10)))
            }
        };
        tokio::time::sleep(nap).await;
        match lease.keep(ctx, id).await {
            Ok(()) => {}
            Err(StoreError::Fenced) => return,
            Err(e) => log::warn!("sender of {id}: {e}"),
        }
    }
}

/// One step of a sender: from the game as `first` shows it (read with the lease, just
/// now) or as loaded now.
async fn step(
    ctx: &Ctx,
    id: GameId,
    lease: &mut Lease,
    first: Option<(GameRecord, u64)>,
) -> Result<Step, BotError> {
    let (rec, version) = match first {
        Some(found) => found,
        None => ctx.store.load_game(id).await?,
    };
    // An effect delivered whose acknowledgement failed (Redis went away) is acknowledged
    // before anything else goes, not sent again. While it waits, a private field's effect
    // asked for again gets a new number: what the delivery left (the picture's message) is
    // kept all the same, or the next drawing would send the player a second field. Other
    // acknowledgements count (an announcement's parts), so they are made only while their
    // effect waits (one stored already, its reply lost, is not made twice).
    if let Some((n, ack, at)) = lease.unacked.clone() {
        let waits = rec.delivery.outbox.iter().any(|o| o.n == n);
        if waits || matches!(ack, Sent::Dm(..) | Sent::DmPicture(..)) {
            lease.keep(ctx, id).await?;
            return acknowledged(ctx, id, lease, n, &ack, at).await;
        }
        lease.delivered_and_acknowledged();
    }
    let mut wait = match live::redraw(ctx, id, lease, &rec, version).await? {
        Redraw::Drawn(after) => return Ok(Step::Sent(after)),
        Redraw::Refused(w) => return Ok(Step::Wait(w)),
        Redraw::Waits(w) => Some(w),
        Redraw::NotDue => None,
    };
    // A redraw of the live message is due but waits: the end's announcement waits behind it,
    // so the group reads the final board before "Winner" (and every result before the end).
    let redraw_waits = wait.is_some();
    let board_waits = wait;
    // The board's turn of the token is queued for and comes soon: nothing else starts now
    // (a delivery still out when the turn comes would make the board late for it, and its
    // group wait longer than the others).
    if let (Some(_), Some(soon)) = (&lease.board_turn, board_waits.filter(|&w| w < TURN_ROOM)) {
        return Ok(Step::Wait(soon));
    }
    let Some(first) = next_effect(ctx, &rec, &mut wait, redraw_waits).await? else {
        return Ok(match wait {
            Some(w) => Step::Wait(w),
            None => Step::Idle(version),
        });
    };
    lease.keep(ctx, id).await?;
    let n = first.n;
    let token = lease.token.clone();
    let delivery = with_priority(
        priority(&rec, &first.effect),
        deliver(ctx, id, &rec, &first, &token),
    );
    let patience = if matches!(first.effect, Effect::Dm { .. }) {
        // The group's board never waits behind an own field that waits for the token: the
        // field waits only until the board is due (a second when none is), then steps aside.
        // A turn queued for leaves room for the field's call before it.
        let room = if lease.board_turn.is_some() {
            TURN_ROOM
        } else {
            Duration::ZERO
        };
        board_waits
            .map(|w| w.saturating_sub(room))
            .unwrap_or(OWN_FIELD_PATIENCE)
            .min(TOKEN_PATIENCE)
    } else {
        TOKEN_PATIENCE
    };
    let delivered = lease
        .hold_during(ctx, id, super::token::with_patience(patience, delivery))
        .await?;
    let ack = match delivered {
        Ok(ack) => {
            log::debug!("effect {n} delivered: {:?}", first.effect);
            crash_point(ctx, "delivered");
            ack
        }
        Err(w) => return Ok(Step::Wait(w)),
    };
    lease.delivered(n, ack.clone(), version);
    acknowledged(ctx, id, lease, n, &ack, version).await
}

/// Stores what the delivery of effect `n` (of the record at `version`) left, fenced by the
/// lease; the lease forgets it once stored (until then it is kept, not sent again).
async fn acknowledged(
    ctx: &Ctx,
    id: GameId,
    lease: &mut Lease,
    n: u64,
    ack: &Sent,
    version: u64,
) -> Result<Step, BotError> {
    let stored = ctx
        .store
        .transition(id, Atomic::by_sender(&lease.token), |r| {
            sent::acknowledge(r, ack, version, n, now_ms());
            Ok::<_, ()>(())
        })
        .await?
        .ok();
    lease.delivered_and_acknowledged();
    Ok(Step::Sent(stored.map(|c| Box::new((c.record, c.version)))))
}

/// The first effect that can go now, its chat's budget taken; `wait` learns how long the
/// ones held back wait. Effects go in order, except that a private field does not wait
/// behind a group's budget: the players see their own fields at once, whatever the group's
/// pace (a private field draws from the latest record, so its order does not matter). While
/// `redraw_waits` (the live message is to be redrawn), the end's announcement is held back,
/// and everything after it.
async fn next_effect(
    ctx: &Ctx,
    rec: &GameRecord,
    wait: &mut Option<Duration>,
    redraw_waits: bool,
) -> Result<Option<Outgoing>, BotError> {
    let mut held: Vec<i64> = Vec::new();
    for o in &rec.delivery.outbox {
        let overtakes = matches!(o.effect, Effect::Dm { .. });
        if !held.is_empty() && !overtakes {
            continue;
        }
        if redraw_waits && o.effect == Effect::Announce {
            held.push(rec.chat);
            continue;
        }
        if let Some(w) = own_field_waits(ctx, rec, &o.effect) {
            *wait = Some(wait.map_or(w, |l| l.min(w)));
            continue;
        }
        let chat = target_chat(rec, &o.effect);
        if let Some(chat) = chat {
            if held.contains(&chat) {
                continue;
            }
            if let Some(w) = budget(ctx, chat).await? {
                *wait = Some(wait.map_or(w, |l| l.min(w)));
                held.push(chat);
                continue;
            }
        }
        return Ok(Some(o.clone()));
    }
    Ok(None)
}
