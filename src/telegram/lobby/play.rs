//! The bot's seats in a lobby, and `/play`: a duel against the bot.

use super::*;
use crate::game::record::GameKind;
use crate::store::Atomic;

/// Seats the bot in a lobby (by the creator's button of `generation`, when `by` names them).
pub(super) async fn seat(
    ctx: &Ctx,
    id: GameId,
    by: Option<(u64, u32)>,
    level: Level,
) -> Result<Result<(), Refused>, StoreError> {
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            lobby::seat_bot(r, by, level, &name, now())
        })
        .await?;
    if done.is_ok() {
        sender::kick(ctx, id);
    }
    Ok(done.map(|_| ()))
}

/// The lobby's "Play against the bot" button (the creator's).
pub async fn on_seat_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    generation: u32,
) -> HandlerResult {
    let Some(rec) = crate::telegram::send::game_for_button(ctx, q, lang, id).await? else {
        return Ok(());
    };
    let level = match ctx.store.chat_settings(rec.chat).await {
        Ok(s) => s.ai_level,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let done = seat(ctx, id, Some((q.from.id.0, generation)), level).await;
    match done {
        Ok(Ok(())) => answer(ctx, q, t(lang, "ai-seated"), false).await,
        Ok(Err(r)) => answer(ctx, q, refusal::words(lang, &r), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// `/play [level]`: in a private chat a duel against the bot begins at once; in a group a
/// lobby opens with the bot seated.
pub async fn on_play(
    ctx: &Ctx,
    msg: &Message,
    user: &User,
    lang: Lang,
    arg: &str,
) -> HandlerResult {
    let (kind, arg) = game_asked(arg);
    let arg = arg.as_str();
    let level = if arg.trim().is_empty() {
        let settings = if msg.chat.is_private() {
            ctx.store.user_settings(user.id.0).await.map(|s| s.ai_level)
        } else {
            ctx.store
                .chat_settings(msg.chat.id.0)
                .await
                .map(|s| s.ai_level)
        };
        match settings {
            Ok(l) => l,
            Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
        }
    } else if let Some(l) = parse_level(arg) {
        l
    } else {
        let words = ta(lang, "play-bad-level", &[("level", arg.trim().into())]);
        return reply(ctx, msg, escape(&words)).await;
    };
    if !msg.chat.is_private() {
        let game = match kind {
            GameKind::Riga => "riga",
            GameKind::SeaBattle => "",
        };
        return on_newgame(ctx, msg, user, lang, Some(level), game).await;
    }
    match play_private(ctx, user, lang, level, None, kind).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(r)) => reply(ctx, msg, refusal::words(lang, &r)).await,
        Err(e) => reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}

/// A duel against the bot in the user's private chat: the game is created with both seats
/// taken and the bot's fleet locked, the user is told, and their placement editor opens.
pub(super) async fn play_private(
    ctx: &Ctx,
    user: &User,
    lang: Lang,
    level: Level,
    ruleset: Option<Ruleset>,
    kind: GameKind,
) -> Result<Result<(), Refused>, StoreError> {
    let uid = user.id.0;
    if busy_elsewhere(ctx, uid, None).await? {
        return Ok(Err(Refused::BusyElsewhere));
    }
    let chat = uid as i64;
    let settings = ctx.store.chat_settings(chat).await?;
    let ruleset = ruleset.unwrap_or_else(|| settings.ruleset.clone());
    // A game in a private chat speaks the user's language.
    let settings = ChatSettings {
        lang: None,
        ..settings
    };
    let setup = setup(ctx, &settings, chat, uid, lang, level, ruleset, kind);
    let key = match kind {
        GameKind::Riga => "rg-play-started",
        GameKind::SeaBattle => "play-started",
    };
    let notice = escape(&ta(
        lang,
        key,
        &[("level", level_words(lang, level).into())],
    ));
    let bot_name = name(lang, level, ai_player(0));
    let mut rng = ctx.fork();
    let rec = match lobby::against_bot(
        &setup,
        &display_name(user),
        &bot_name,
        notice,
        now(),
        &mut rng,
    ) {
        Ok(rec) => rec,
        Err(r) => {
            log::warn!("a game against the bot for {uid}: {r:?}");
            return Ok(Err(r));
        }
    };
    let id = ctx.store.create_game(&rec).await?;
    ctx.store.set_chat_game(chat, None, id).await?;
    ctx.store.set_user_game(uid, id).await?;
    if let Ok(mut s) = ctx.store.user_settings(uid).await {
        if s.ai_level != level {
            choices::choose_for_user(&mut s, Choice::Level(level));
            let _ = ctx.store.set_user_settings(uid, &s).await;
        }
    }
    sender::kick(ctx, id);
    Ok(Ok(()))
}
