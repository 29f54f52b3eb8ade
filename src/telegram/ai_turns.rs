//! The bot's turns, whatever the game: one replica at a time moves for the bot, holding a
//! lease in Redis for the move (so a move is never played twice, and a replica that died
//! mid-thought is relieved when the lease runs out). What a move is, each game says as a
//! [`Mover`]: Sea Battle in `play.rs`, the Riga game in `riga_core.rs`.

use super::{BotError, Ctx, HandlerResult};
use crate::game::record::GameRecord;
use crate::store::GameId;
use std::future::Future;
use std::time::Duration;

/// What a lease of the bot's move covers besides the pause and the thinking: the move's own
/// requests.
const LEASE_MARGIN: Duration = Duration::from_secs(4);

/// How long one replica holds the right to move for the bot: the pause, the most time the
/// game's search may take (`thinking`), and the move's own requests.
pub fn move_lease(ctx: &Ctx, thinking: Duration) -> Duration {
    ctx.config.ai_pause + thinking + LEASE_MARGIN
}

/// A game as the bot plays it.
pub trait Mover {
    /// The bot's seat, as the game names it.
    type Seat: Send;
    /// The most time the search takes for one move (the lease covers it).
    const THINKING: Duration;
    /// The bot's seat when it is the bot's turn.
    fn to_move(&self, rec: &GameRecord) -> Option<Self::Seat>;
    /// One move for `seat` in the game as `rec` shows it ("typing…", a pause, the choice on
    /// the blocking pool), played only if the game is still so. `false` when nothing was
    /// played.
    fn think_and_move(
        &mut self,
        ctx: &Ctx,
        id: GameId,
        rec: &GameRecord,
        seat: Self::Seat,
    ) -> impl Future<Output = Result<bool, BotError>> + Send;
}

/// Lets the bot move in the background, for as long as it is its turn (`what` names its
/// move in the log).
pub fn spawn<M: Mover + Send + 'static>(ctx: &Ctx, id: GameId, mover: M, what: &'static str) {
    let ctx = ctx.clone();
    tokio::spawn(async move {
        if let Err(e) = drive(&ctx, id, mover).await {
            log::warn!("{what} in {id}: {e}");
        }
    });
}

/// Moves for the bot for as long as it is its turn and this replica holds the lease.
async fn drive<M: Mover>(ctx: &Ctx, id: GameId, mut mover: M) -> HandlerResult {
    loop {
        let (rec, _) = ctx.store.load_game(id).await?;
        let Some(seat) = mover.to_move(&rec) else {
            return Ok(());
        };
        if !ctx
            .store
            .take_ai_lease(id, move_lease(ctx, M::THINKING))
            .await?
        {
            log::debug!("game {id}: another replica moves for the bot");
            return Ok(());
        }
        let moved = mover.think_and_move(ctx, id, &rec, seat).await;
        let _ = ctx.store.drop_ai_lease(id).await;
        if !moved? {
            return Ok(());
        }
    }
}
