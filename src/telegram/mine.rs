//! Mines: after a mine, the shooter gives up a cell of their own fleet. The bot asks in the
//! shooter's private chat with a keyboard of the fleet's unhit cells; the engine's deadline
//! (60 s) is the game's next deadline, so the turn timer's tick takes a random cell when
//! nobody chose in time.

use super::play::{after, battle_press, play, refusal};
use super::{answer, answer_store_error, Ctx, HandlerResult};
use crate::game::battle::cell_of;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::store::GameId;
use crate::view::buttons::Button;
use crate::view::i18n::t;
use crate::view::mine::gave_up_words;
use engine::{Action, Coord, SeatId};
use teloxide::types::CallbackQuery;

/// A cell button of the question: gives the cell up.
#[allow(clippy::too_many_arguments)]
async fn give_up(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    rec: &GameRecord,
    id: GameId,
    seat: SeatId,
    deadline: u64,
    cell: Coord,
) -> HandlerResult {
    let Some(m) = rec.game.mine_choice() else {
        return answer(ctx, q, t(lang, "mine-no-choice"), true).await;
    };
    if m.deadline != deadline {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    if m.seat != seat {
        return answer(ctx, q, t(lang, "mine-not-yours"), true).await;
    }
    match play(ctx, id, Action::GiveUp(seat, cell)).await {
        Ok(Ok(done)) => {
            let words = done
                .value
                .iter()
                .find_map(|e| gave_up_words(lang, &done.record, e))
                .unwrap_or_default();
            answer(ctx, q, words, false).await?;
            after(ctx, id, &done).await
        }
        Ok(Err(e)) => answer(ctx, q, refusal(lang, &e), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// The button of a cell given up after a mine, in the shooter's private chat.
pub async fn on_give_up(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::GiveUp(id, deadline, index) = button else {
        return Ok(());
    };
    let Some((rec, seat)) = battle_press(ctx, q, lang, id, None).await? else {
        return Ok(());
    };
    let Some(cell) = cell_of(&rec, index) else {
        return answer(ctx, q, t(lang, "error-unknown-button"), true).await;
    };
    give_up(ctx, q, lang, &rec, id, seat, deadline, cell).await
}
