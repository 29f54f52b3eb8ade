//! The turn timer: every tick, the games whose reminder, forfeit or mine choice is due get
//! [`timer::tick`], the same transition whatever the game. Safe with several replicas: the
//! transition is atomic, and a tick with nothing to do changes nothing.

use super::bot_turns;
use super::context::{now, Ctx};
use super::health;
use super::sender;
use crate::game::record::GameRecord;
use crate::game::timer;
use crate::store::Atomic;
use crate::store::StoreError;
use crate::view::riga_text;

/// How often the ticker reads the outbox's depth for `/metrics`.
const OUTBOX_GAUGE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Reads the outbox's depth and its oldest game's wait into the metrics.
async fn measure_outbox(ctx: &Ctx) {
    match ctx.store.outbox_depth().await {
        Ok((games, oldest)) => {
            let age_ms = oldest.map_or(0, |at| sender::now_ms().saturating_sub(at));
            crate::metrics::outbox(games, age_ms as f64 / 1000.0);
        }
        Err(e) => log::debug!("outbox depth: {e}"),
    }
}

/// Ticks until the process ends.
pub async fn tick_forever(ctx: Ctx) {
    let mut measured: Option<tokio::time::Instant> = None;
    loop {
        tokio::time::sleep(ctx.config.tick).await;
        health::ticked();
        if measured.is_none_or(|at| at.elapsed() >= OUTBOX_GAUGE_EVERY) {
            measured = Some(tokio::time::Instant::now());
            measure_outbox(&ctx).await;
        }
        let due = match ctx.store.due(now()).await {
            Ok(due) => due,
            Err(e) => {
                log::debug!("timer: {e}");
                continue;
            }
        };
        for id in due {
            log::debug!("timer: game {id} is due");
            let rng = ctx.fork();
            let deadline = |r: &GameRecord| timer::deadline(r, now(), ctx.config.ai_pause);
            let done = ctx
                .store
                .transition(id, Atomic::due(Some(&deadline)), |r| {
                    let ticked = timer::tick(r, now(), &mut rng.clone(), &riga_text::reminder);
                    if ticked {
                        Ok(())
                    } else {
                        Err(())
                    }
                })
                .await;
            match done {
                Ok(Ok(done)) => {
                    sender::kick(&ctx, id);
                    bot_turns::wake(&ctx, &done.record, id);
                }
                Ok(Err(())) => {
                    // Nothing was due but, perhaps, the bot's move after a crash.
                    if let Ok((rec, _)) = ctx.store.load_game(id).await {
                        let next = timer::deadline(&rec, now(), ctx.config.ai_pause);
                        let _ = ctx.store.schedule(id, next).await;
                        bot_turns::wake(&ctx, &rec, id);
                    }
                }
                Err(StoreError::NotFound) => {
                    let _ = ctx.store.schedule(id, None).await;
                }
                Err(e) => log::warn!("timer of {id}: {e}"),
            }
        }
    }
}
