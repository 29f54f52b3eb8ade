//! The end, in storage: the settlement (new ratings and statistics) worked out from what is
//! stored and kept in the record, then written whole (again after a crash changes nothing).

use crate::game::record::Play;
use crate::game::record::{GameRecord, Settlement};
use crate::game::sent::Sent;
use crate::game::settle;
use crate::store::{GameId, Leaderboard, StoreError};
use crate::telegram::context::{crash_point, Ctx};
use std::time::Duration;

/// The end's settlement effect: first worked out and stored (the effect stays), then written
/// (ratings, statistics, the chat and players freed). `Err` with a wait while Redis is away.
pub(super) async fn settle_effect(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
) -> Result<Sent, Duration> {
    if rec.settlement.is_none() {
        return match settlement(ctx, rec).await {
            Ok(s) => Ok(Sent::Settlement(Box::new(s))),
            Err(e) => {
                log::warn!("game {id}: the end is not settled yet: {e}");
                Err(Duration::from_secs(1))
            }
        };
    }
    crash_point(ctx, "rating");
    match settle(ctx, id, rec).await {
        Ok(()) => {
            if rec.delivery.begun {
                crate::metrics::game_finished();
            }
            Ok(Sent::Done)
        }
        Err(e) => {
            log::warn!("game {id}: the end is not written yet: {e}");
            Err(Duration::from_secs(1))
        }
    }
}

/// The end's settlement ([`settle::work_out`]), from the ratings and statistics it reads
/// first ([`settle::wanted`]).
async fn settlement(ctx: &Ctx, rec: &GameRecord) -> Result<Settlement, StoreError> {
    let wanted = settle::wanted(rec);
    let mut before = settle::Before::default();
    for (board, users) in &wanted.ratings {
        let found = ctx.store.ratings(*board, users).await?;
        for (&u, r) in users.iter().zip(found) {
            if let Some(r) = r {
                before.ratings.insert((*board, u), r);
            }
        }
    }
    for &u in &wanted.stats {
        before.stats.insert(u, ctx.store.all_stats(u).await?);
    }
    Ok(settle::work_out(rec, &before))
}

/// The end, in storage: the ratings and statistics of the settlement written (whole, so
/// again after a crash changes nothing), then the chat and the players are free for another
/// game and the timer is off.
async fn settle(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Result<(), StoreError> {
    if let Some(s) = &rec.settlement {
        let mut boards: Vec<Leaderboard> = s.ratings.iter().map(|w| w.board).collect();
        boards.dedup();
        for board in boards {
            ctx.store.set_ratings(board, &s.ratings).await?;
        }
        let mut users: Vec<u64> = s.stats.iter().map(|(u, _, _)| *u).collect();
        users.dedup();
        for u in users {
            let values: Vec<(String, u64)> = s
                .stats
                .iter()
                .filter(|(w, _, _)| *w == u)
                .map(|(_, k, v)| (k.clone(), *v))
                .collect();
            ctx.store.set_stats(u, &values).await?;
        }
    }
    match rec.play {
        // The rulesets played, for /stats.
        Play::SeaBattle(_) => {
            let r = rec.game.ruleset();
            if let Ok(json) = serde_json::to_string(r) {
                ctx.store.note_ruleset(&r.to_string(), &json).await?;
            }
        }
        Play::Riga(_) => {}
    }
    crash_point(ctx, "rated");
    let _ = ctx.store.clear_chat_game(rec.chat, rec.topic, id).await;
    let _ = ctx.store.schedule(id, None).await;
    for seat in rec.game.seats() {
        if !crate::game::record::is_ai(seat.player) {
            let _ = ctx.store.clear_user_game(seat.player.0, id).await;
        }
    }
    // What the learning level learns from.
    let codes = settle::revealed_layouts(rec);
    let ruleset = rec.game.ruleset().to_string();
    if let Err(e) = ctx
        .store
        .observe_layouts(id, rec.chat, &ruleset, &codes)
        .await
    {
        log::warn!("game {id}: its layouts were not counted: {e}");
    }
    // A tournament's match: its result, and the next match.
    crate::telegram::tournament::match_over(ctx, id, rec).await?;
    log::info!("game {id} finished");
    Ok(())
}
