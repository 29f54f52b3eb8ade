//! Rematch, after the end: a new lobby with every seat taken again in a group, a new duel
//! against the bot in a private chat.

use super::*;
use crate::store::Atomic;

/// Rematch, after the end: in a group a new lobby with every seat taken again (once only,
/// however often the press comes: the new id is kept in the old game first, and the new
/// game is created under it only if absent); in a private chat, a duel against the bot that
/// starts at once.
pub(super) async fn rematch(ctx: &Ctx, q: &CallbackQuery, lang: Lang, id: GameId) -> HandlerResult {
    let old = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => return answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    if !old.game.is_finished() {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    if old.game.seat_of(PlayerId(q.from.id.0)).is_none() {
        return answer(ctx, q, t(lang, "error-not-a-player"), true).await;
    }
    match active_game(ctx, old.chat, old.topic).await {
        // The game this Rematch made (its update again, after a crash) is no other game.
        Ok(Some((running, _))) if old.rematch != Some(running.0) => {
            return answer(ctx, q, t(lang, "newgame-running"), true).await
        }
        Ok(_) => {}
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    }
    let ruleset = old.game.ruleset().clone();
    if old.chat < 0 {
        // The new lobby is stored with its message in its outbox before the answer.
        let new = match recreate(ctx, id, &old, &q.from, ruleset).await {
            Ok(Ok(new)) => new,
            Ok(Err(r)) => return answer(ctx, q, refusal::words(lang, &r), true).await,
            Err(e) => return answer_store_error(ctx, q, lang, &e).await,
        };
        crash_point(ctx, "rematch");
        sender::kick(ctx, new);
        return answer(ctx, q, t(lang, "rematch-done"), false).await;
    }
    answer(ctx, q, t(lang, "rematch-done"), false).await?;
    // A duel against the bot in a private chat starts again at once.
    let kind = old.play.kind();
    let done = play_private(ctx, &q.from, old.lang, old.ai_level, Some(ruleset), kind).await;
    let words = match done {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(r)) => refusal::words(lang, &r),
        Err(e) => t(lang, store_error_key(&e)),
    };
    ctx.bot
        .send_message(ChatId(old.chat), words)
        .metered()
        .await?;
    Ok(())
}

/// The game a Rematch of `old` makes in a group, stored under the id kept in `old`.
pub(super) async fn recreate(
    ctx: &Ctx,
    id: GameId,
    old: &GameRecord,
    creator: &User,
    ruleset: Ruleset,
) -> Result<Result<GameId, Refused>, StoreError> {
    let reserved = ctx.store.reserve_game_id().await?;
    let new = match ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            lobby::rematch_id(r, creator.id.0, reserved)
        })
        .await?
    {
        Ok(c) => c.value,
        Err(r) => return Ok(Err(r)),
    };
    let settings = ctx.store.chat_settings(old.chat).await?;
    let setup = setup(
        ctx,
        &settings,
        old.chat,
        creator.id.0,
        old.lang,
        old.ai_level,
        ruleset,
        old.play.kind(),
    );
    let setup = Setup {
        topic: old.topic,
        own_topic: old.own_topic,
        inline: old.inline.clone(),
        ..setup
    };
    if let (true, Some(thread)) = (old.own_topic, old.topic) {
        // The game's own topic was closed at its end: the rematch plays on in it.
        let thread = teloxide::types::ThreadId(teloxide::types::MessageId(thread));
        match ctx
            .bot
            .reopen_forum_topic(ChatId(old.chat), thread)
            .metered()
            .await
        {
            Ok(_) => {}
            Err(e) => log::info!("reopening the topic of {id}: {e}"),
        }
    }
    let rec = lobby::rematch(old, &setup, now());
    ctx.store.create_game_at(new, &rec).await?;
    ctx.store.set_chat_game(old.chat, old.topic, new).await?;
    for seat in old.game.seats() {
        if !is_ai(seat.player) {
            ctx.store.set_user_game(seat.player.0, new).await?;
        }
    }
    Ok(Ok(new))
}
