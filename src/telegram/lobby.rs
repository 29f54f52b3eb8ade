//! Creating and joining games: `/newgame` and `/play`, the Join button (with the deep link for
//! people who never opened the bot), the bot's seats, Start, Cancel, Rematch.

use super::chat::{active_game, default_alphabet, reply};
use super::{answer, answer_store_error, display_name, now, Ctx, HandlerResult};
use crate::game::battle::place_fleets;
use crate::game::delivery::Effect;
use crate::game::lang::Lang;
use crate::game::record::{ai_player, GameRecord};
use crate::store::{GameId, StoreError};
use crate::view::bot::{level_words, name, parse_level};
use crate::view::buttons::{join_payload, parse_join_payload, Button};
use crate::view::i18n::{t, ta};
use engine::ai::Level;
use engine::{Action, ActionError, Game, Phase, PlayerId, Ruleset};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, User};

/// Remembers that a user opened the private chat, so the bot may write to them.
pub async fn note_started(ctx: &Ctx, user: &User) {
    if let Ok(mut s) = ctx.store.user_settings(user.id.0).await {
        let detected = Some(Lang::from_telegram(user.language_code.as_deref()));
        if !s.started || s.detected != detected {
            s.started = true;
            s.detected = detected;
            let _ = ctx.store.set_user_settings(user.id.0, &s).await;
        }
    }
}

async fn create(
    ctx: &Ctx,
    chat: i64,
    creator: &User,
    lang: Lang,
    ruleset: Ruleset,
    riga: bool,
) -> Result<GameId, StoreError> {
    let mut settings = ctx.store.chat_settings(chat).await?;
    // A group speaks the language of whoever created its first game, until /lang changes it.
    if settings.lang.is_none() && chat < 0 {
        settings.lang = Some(lang);
        ctx.store.set_chat_settings(chat, &settings).await?;
    }
    let lang = settings.lang.unwrap_or(lang);
    let mut rec = GameRecord::new(Game::new(ruleset), chat, now());
    rec.lang = lang;
    rec.alphabet = settings.alphabet.unwrap_or_else(|| default_alphabet(lang));
    rec.board = settings.board.unwrap_or(ctx.config.board);
    rec.ai_level = settings.ai_level;
    rec.creator = creator.id.0;
    if riga {
        rec.game = Game::new(super::riga_core::duel(rec.game.ruleset()));
        rec.play = crate::game::record::Play::Riga(crate::game::riga::RigaPlay::default());
    }
    rec.push_effect(Effect::LiveMessage);
    let id = ctx.store.create_game(&rec).await?;
    ctx.store.set_chat_game(chat, id).await?;
    super::outbox::kick(ctx, id);
    Ok(id)
}

/// `/newgame [riga]`: a lobby in a group (of the Riga game with `riga`); with `bot`, the
/// bot takes a seat at that level (`/play`).
pub async fn on_newgame(
    ctx: &Ctx,
    msg: &Message,
    user: &User,
    lang: Lang,
    bot: Option<engine::ai::Level>,
    arg: &str,
) -> HandlerResult {
    let (riga, rest) = super::riga_core::wants_riga(arg);
    if !rest.is_empty() && bot.is_none() {
        let words = ta(lang, "newgame-bad-arg", &[("arg", rest.into())]);
        return reply(ctx, msg, crate::view::render::escape(&words)).await;
    }
    if msg.chat.is_private() {
        return reply(ctx, msg, t(lang, "newgame-in-group")).await;
    }
    let chat = msg.chat.id.0;
    match active_game(ctx, chat).await {
        Ok(Some(_)) => return reply(ctx, msg, t(lang, "newgame-running")).await,
        Ok(None) => {}
        Err(e) => return reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    }
    let ruleset = match ctx.store.chat_settings(chat).await {
        Ok(s) => s.ruleset,
        Err(e) => return reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    };
    match create(ctx, chat, user, lang, ruleset, riga).await {
        Ok(id) => {
            if ctx
                .store
                .user_settings(user.id.0)
                .await
                .is_ok_and(|s| s.started)
            {
                let _ = join(ctx, id, user, lang).await;
            }
            if let Some(level) = bot {
                if let Err(e) = seat(ctx, id, level).await {
                    log::warn!("seating the bot in {id}: {e}");
                }
            }
            Ok(())
        }
        Err(e) => reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    }
}

/// Why a join was refused, as a localisation key.
async fn join(ctx: &Ctx, id: GameId, user: &User, lang: Lang) -> Result<&'static str, StoreError> {
    let uid = user.id.0;
    if let Some(other) = ctx.store.user_game(uid).await? {
        if other != id {
            if let Ok((rec, _)) = ctx.store.load_game(other).await {
                if !rec.game.is_finished() {
                    return Ok("join-busy-elsewhere");
                }
            }
        }
    }
    let name = display_name(user);
    let rng = ctx.fork();
    let done = ctx
        .store
        .transition(id, |rec| {
            rec.game
                .apply(Action::Join(PlayerId(uid)), now(), &mut rng.clone())?;
            rec.names.push(name.clone());
            Ok::<_, ActionError>(rec.chat)
        })
        .await?;
    match done {
        Ok(_c) => {
            ctx.store.set_user_game(uid, id).await?;
            super::outbox::kick(ctx, id);
            let _ = lang;
            Ok("join-done")
        }
        Err(ActionError::AlreadySeated) => Ok("join-already"),
        Err(ActionError::Full) => Ok("join-full"),
        Err(_) => Ok("error-out-of-date"),
    }
}

/// `/start` in the private chat, with or without a deep-link payload.
pub async fn on_start(
    ctx: &Ctx,
    msg: &Message,
    user: &User,
    lang: Lang,
    payload: &str,
) -> HandlerResult {
    if !msg.chat.is_private() {
        return reply(ctx, msg, t(lang, "help")).await;
    }
    let Some(id) = parse_join_payload(payload.trim()) else {
        return reply(ctx, msg, t(lang, "welcome")).await;
    };
    let key = match join(ctx, id, user, lang).await {
        Ok(k) => k,
        Err(StoreError::NotFound) => "error-game-over",
        Err(e) => super::store_error_key(&e),
    };
    reply(ctx, msg, t(lang, key)).await
}

/// The lobby's buttons: Join, Start, Cancel, and Rematch after the end.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let uid = q.from.id.0;
    let (id, generation) = match button {
        Button::Join(g, n) | Button::Start(g, n) | Button::Cancel(g, n) => (g, Some(n)),
        Button::Rematch(g) => (g, None),
        _ => return Ok(()),
    };
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => return answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    if let (Some(again), false) = (rec.answered(&q.id.0), matches!(button, Button::Rematch(_))) {
        return answer(ctx, q, again.text.clone(), again.alert).await;
    }
    if let Button::Rematch(_) = button {
        return rematch(ctx, q, lang, id, rec).await;
    }
    if rec.game.is_finished() {
        return answer(ctx, q, t(lang, "error-game-over"), true).await;
    }
    if generation != Some(rec.delivery.generation) {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    match button {
        Button::Join(..) => {
            let started = ctx.store.user_settings(uid).await.is_ok_and(|s| s.started);
            if !started {
                // Telegram opens the private chat from this link; /start there completes the join.
                let url = format!("https://t.me/{}?start={}", ctx.username, join_payload(id));
                if let Ok(url) = url.parse() {
                    ctx.bot.answer_callback_query(q.id.clone()).url(url).await?;
                    return Ok(());
                }
            }
            let key = match join(ctx, id, &q.from, lang).await {
                Ok(k) => k,
                Err(e) => super::store_error_key(&e),
            };
            answer(ctx, q, t(lang, key), key != "join-done").await
        }
        Button::Start(..) => start(ctx, q, lang, id, &rec).await,
        Button::Cancel(..) => {
            if uid != rec.creator {
                return answer(ctx, q, t(lang, "error-creator-only"), true).await;
            }
            cancel(ctx, id, lang).await?;
            answer(ctx, q, t(lang, "cancel-done"), false).await
        }
        _ => Ok(()),
    }
}

async fn start(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    rec: &GameRecord,
) -> HandlerResult {
    if q.from.id.0 != rec.creator {
        return answer(ctx, q, t(lang, "error-creator-only"), true).await;
    }
    match begin_placement(ctx, id, Some((&q.id.0, &t(lang, "start-done")))).await {
        Ok(Ok(())) => answer(ctx, q, t(lang, "start-done"), false).await,
        Ok(Err(ActionError::NotFull)) => {
            let seats = rec.game.ruleset().seats();
            answer(
                ctx,
                q,
                ta(lang, "start-not-full", &[("seats", seats.into())]),
                true,
            )
            .await
        }
        Ok(Err(_)) => answer(ctx, q, t(lang, "error-out-of-date"), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// Placement begins: the bot's fleets are locked at once, each player gets their editor in
/// the private chat (and when only the bot plays, the battle begins).
pub async fn begin_placement(
    ctx: &Ctx,
    id: GameId,
    press: Option<(&str, &str)>,
) -> Result<Result<(), ActionError>, StoreError> {
    let rng = ctx.fork();
    let done = ctx
        .store
        .transition(id, |rec| {
            let mut rng = rng.clone();
            rec.game.apply(Action::Start, now(), &mut rng)?;
            rec.delivery.dms = vec![None; rec.game.seats().len()];
            if rec.is_riga() {
                // The Riga set-up: each person orders their ships in the private chat.
                super::riga_core::begin_setup(rec, &mut rng);
                if let Some((query, words)) = press {
                    rec.remember_answer(query, words, false);
                }
                return Ok(Vec::new());
            }
            let events = crate::game::battle::place_fleets(rec, now(), &mut rng)?;
            // Every person gets their editor; when only the bot plays, the battle begins
            // at once (the store adds its effects).
            for seat in rec.human_seats() {
                rec.push_effect(Effect::Dm { seat: seat.0 });
            }
            if let Some((query, words)) = press {
                rec.remember_answer(query, words, false);
            }
            Ok(events)
        })
        .await?;
    let _c = match done {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    super::crash_point("start");
    super::outbox::kick(ctx, id);
    Ok(Ok(()))
}

async fn cancel(ctx: &Ctx, id: GameId, lang: Lang) -> HandlerResult {
    let rng = ctx.fork();
    let done = ctx
        .store
        .transition(id, |rec| {
            rec.game.apply(Action::Cancel, now(), &mut rng.clone())
        })
        .await?;
    if done.is_ok() {
        super::outbox::kick(ctx, id);
    }
    let _ = lang;
    Ok(())
}

/// `/cancel`: the creator calls the chat's game off before the battle.
pub async fn on_cancel_command(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    let game = match active_game(ctx, msg.chat.id.0).await {
        Ok(g) => g,
        Err(e) => return reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    };
    let Some((id, rec)) = game else {
        return reply(ctx, msg, t(lang, "error-no-game")).await;
    };
    if user.id.0 != rec.creator {
        return reply(ctx, msg, t(lang, "error-creator-only")).await;
    }
    if rec.game.phase() == &Phase::Battle || super::riga_core::in_battle(&rec) {
        return reply(ctx, msg, t(lang, "cancel-in-battle")).await;
    }
    cancel(ctx, id, lang).await?;
    reply(ctx, msg, t(lang, "cancel-done")).await
}

/// The game a Rematch of `old` makes: every seat of the old game taken again, in the same
/// order, its lobby message in its outbox. Once only, however often the press comes: the
/// new id is kept in the old game first, and the new game is created under it only if absent.
async fn recreate(
    ctx: &Ctx,
    id: GameId,
    old: &GameRecord,
    creator: &User,
    ruleset: Ruleset,
) -> Result<GameId, StoreError> {
    let reserved = ctx.store.reserve_game_id().await?;
    let new = ctx
        .store
        .transition(id, |r| {
            Ok::<_, ()>(GameId(*r.rematch.get_or_insert(reserved.0)))
        })
        .await?
        .map_or(reserved, |c| c.value);
    let mut settings = ctx.store.chat_settings(old.chat).await?;
    if settings.lang.is_none() {
        settings.lang = Some(old.lang);
    }
    let mut rec = GameRecord::new(Game::new(ruleset), old.chat, now());
    rec.lang = settings.lang.unwrap_or(old.lang);
    rec.alphabet = settings
        .alphabet
        .unwrap_or_else(|| default_alphabet(rec.lang));
    rec.board = settings.board.unwrap_or(ctx.config.board);
    rec.ai_level = old.ai_level;
    rec.creator = creator.id.0;
    if old.is_riga() {
        rec.play = crate::game::record::Play::Riga(crate::game::riga::RigaPlay::default());
    }
    let rng = ctx.fork();
    for (seat, name) in old.game.seats().iter().zip(&old.names) {
        if rec
            .game
            .apply(Action::Join(seat.player), now(), &mut rng.clone())
            .is_ok()
        {
            rec.names.push(name.clone());
        }
    }
    rec.push_effect(Effect::LiveMessage);
    ctx.store.create_game_at(new, &rec).await?;
    ctx.store.set_chat_game(old.chat, new).await?;
    for seat in old.game.seats() {
        if !crate::game::record::is_ai(seat.player) {
            ctx.store.set_user_game(seat.player.0, new).await?;
        }
    }
    Ok(new)
}

async fn rematch(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    old: GameRecord,
) -> HandlerResult {
    if !old.game.is_finished() {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    if old.game.seat_of(PlayerId(q.from.id.0)).is_none() {
        return answer(ctx, q, t(lang, "error-not-a-player"), true).await;
    }
    match active_game(ctx, old.chat).await {
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
            Ok(new) => new,
            Err(e) => return answer_store_error(ctx, q, lang, &e).await,
        };
        super::crash_point("rematch");
        super::outbox::kick(ctx, new);
        return answer(ctx, q, t(lang, "rematch-done"), false).await;
    }
    answer(ctx, q, t(lang, "rematch-done"), false).await?;
    // A duel against the bot in a private chat starts again at once.
    let riga = old.is_riga();
    match play_private(ctx, &q.from, old.lang, old.ai_level, Some(ruleset), riga).await {
        Ok(None) => Ok(()),
        Ok(Some(key)) => {
            ctx.bot.send_message(ChatId(old.chat), t(lang, key)).await?;
            Ok(())
        }
        Err(e) => {
            let key = super::store_error_key(&e);
            ctx.bot.send_message(ChatId(old.chat), t(lang, key)).await?;
            Ok(())
        }
    }
}

/// Seats the bot in a lobby; the localisation key of the outcome.
pub async fn seat(ctx: &Ctx, id: GameId, level: Level) -> Result<&'static str, StoreError> {
    let rng = ctx.fork();
    let done = ctx
        .store
        .transition(id, |rec| {
            let player = ai_player(rec.ai_seats().len() as u8);
            rec.game
                .apply(Action::Join(player), now(), &mut rng.clone())?;
            rec.names.push(name(rec.lang, level, player));
            rec.ai_level = level;
            Ok::<_, ActionError>(rec.chat)
        })
        .await?;
    match done {
        Ok(_c) => {
            super::outbox::kick(ctx, id);
            Ok("ai-seated")
        }
        Err(ActionError::Full) => Ok("join-full"),
        Err(_) => Ok("error-out-of-date"),
    }
}

/// The lobby's "Play against the bot" button (the creator's).
pub async fn on_seat_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    generation: u32,
) -> HandlerResult {
    let Some(rec) = super::game_for_button(ctx, q, lang, id).await? else {
        return Ok(());
    };
    if generation != rec.delivery.generation || *rec.game.phase() != engine::Phase::Lobby {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    if q.from.id.0 != rec.creator {
        return answer(ctx, q, t(lang, "error-creator-only"), true).await;
    }
    let level = match ctx.store.chat_settings(rec.chat).await {
        Ok(s) => s.ai_level,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let key = match seat(ctx, id, level).await {
        Ok(k) => k,
        Err(e) => super::store_error_key(&e),
    };
    answer(ctx, q, t(lang, key), key != "ai-seated").await
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
    let (riga, arg) = super::riga_core::wants_riga(arg);
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
            Err(e) => return reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
        }
    } else if let Some(l) = parse_level(arg) {
        l
    } else {
        let words = ta(lang, "play-bad-level", &[("level", arg.trim().into())]);
        return reply(ctx, msg, crate::view::render::escape(&words)).await;
    };
    if !msg.chat.is_private() {
        let game = if riga { "riga" } else { "" };
        return on_newgame(ctx, msg, user, lang, Some(level), game).await;
    }
    match play_private(ctx, user, lang, level, None, riga).await {
        Ok(None) => Ok(()),
        Ok(Some(key)) => reply(ctx, msg, t(lang, key)).await,
        Err(e) => reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    }
}

/// A duel against the bot in the user's private chat: the game is created with both seats
/// taken and the bot's fleet locked, the user is told, and their placement editor opens.
/// `Some(key)`: why not (a localisation key).
async fn play_private(
    ctx: &Ctx,
    user: &User,
    lang: Lang,
    level: Level,
    ruleset: Option<Ruleset>,
    riga: bool,
) -> Result<Option<&'static str>, StoreError> {
    let uid = user.id.0;
    if let Some(other) = ctx.store.user_game(uid).await? {
        if let Ok((rec, _)) = ctx.store.load_game(other).await {
            if !rec.game.is_finished() {
                return Ok(Some("join-busy-elsewhere"));
            }
        }
    }
    let chat = uid as i64;
    let settings = ctx.store.chat_settings(chat).await?;
    let mut ruleset = ruleset.unwrap_or(settings.ruleset);
    if riga {
        ruleset = super::riga_core::duel(&ruleset);
    }
    let mut rec = GameRecord::new(Game::new(ruleset), chat, now());
    rec.lang = lang;
    rec.alphabet = settings
        .alphabet
        .unwrap_or_else(|| super::chat::default_alphabet(lang));
    rec.board = settings.board.unwrap_or(ctx.config.board);
    rec.creator = uid;
    rec.ai_level = level;
    let mut rng = ctx.fork();
    let built = (|| -> Result<(), ActionError> {
        rec.game
            .apply(Action::Join(PlayerId(uid)), now(), &mut rng)?;
        rec.game
            .apply(Action::Join(ai_player(0)), now(), &mut rng)?;
        rec.names = vec![display_name(user), name(lang, level, ai_player(0))];
        rec.game.apply(Action::Start, now(), &mut rng)?;
        rec.delivery.dms = vec![None; rec.game.seats().len()];
        if riga {
            super::riga_core::begin_setup(&mut rec, &mut rng);
            return Ok(());
        }
        place_fleets(&mut rec, now(), &mut rng)?;
        Ok(())
    })();
    if let Err(e) = built {
        log::warn!("a game against the bot for {uid}: {e:?}");
        return Ok(Some("error-out-of-date"));
    }
    let key = if riga {
        "rg-play-started"
    } else {
        "play-started"
    };
    let text = ta(lang, key, &[("level", level_words(lang, level).into())]);
    rec.push_effect(Effect::Notice {
        chat,
        text: crate::view::render::escape(&text),
    });
    rec.push_effect(Effect::Dm { seat: 0 });
    let id = ctx.store.create_game(&rec).await?;
    ctx.store.set_chat_game(chat, id).await?;
    ctx.store.set_user_game(uid, id).await?;
    if let Ok(mut s) = ctx.store.user_settings(uid).await {
        if s.ai_level != level {
            s.ai_level = level;
            let _ = ctx.store.set_user_settings(uid, &s).await;
        }
    }
    super::outbox::kick(ctx, id);
    Ok(None)
}
