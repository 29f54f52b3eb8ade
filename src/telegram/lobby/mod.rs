//! Creating and joining games: `/newgame` and `/play`, the Join button (with the deep link for
//! people who never opened the bot), the bot's seats, Start, Cancel, Rematch. Each change is
//! one transition of `game/lobby.rs`.

use super::context::{crash_point, display_name, now, store_error_key, Ctx, HandlerResult};
use super::metered::refusal;
use super::metered::Metered;
use super::send::{active_game, answer, answer_store_error, pressed, reply, topic_of};
use super::send::{answer_with_start_link, markup};
use super::sender;
use crate::game::lang::Lang;
use crate::game::lobby::{self, Setup};
use crate::game::record::GameKind;
use crate::game::record::{ai_player, is_ai, ChatSettings, GameRecord};
use crate::game::settings::{self as choices, Choice};
use crate::game::{GameId, Press, Refused};
use crate::store::Atomic;
use crate::store::StoreError;
use crate::view::bot::{level_words, name, parse_level};
use crate::view::buttons::{join_payload, parse_join_payload, Button};
use crate::view::i18n::{t, ta};
use crate::view::keyboard::{Key, Keyboard};
use crate::view::render::escape;
use engine::ai::Level;
use engine::{PlayerId, Ruleset};
use teloxide::prelude::*;
use teloxide::types::ParseMode;
use teloxide::types::{CallbackQuery, ChatId, User};

mod play;
mod rematch;

pub use play::*;
use rematch::*;

/// Remembers that a user opened the private chat, so the bot may write to them.
pub async fn note_started(ctx: &Ctx, user: &User) {
    if let Ok(mut s) = ctx.store.user_settings(user.id.0).await {
        let detected = Lang::from_telegram(user.language_code.as_deref());
        if choices::started(&mut s, detected) {
            let _ = ctx.store.set_user_settings(user.id.0, &s).await;
        }
    }
}

/// A new game's set-up from the chat's settings (the bot's default board where the chat
/// chose none).
#[allow(clippy::too_many_arguments)]
fn setup(
    ctx: &Ctx,
    settings: &ChatSettings,
    chat: i64,
    creator: u64,
    lang: Lang,
    ai_level: Level,
    ruleset: Ruleset,
    kind: GameKind,
) -> Setup {
    let (board, place) = (ctx.config.board, (chat, creator, lang));
    Setup {
        ai_level,
        ..Setup::from_settings(settings, place, board, ruleset, kind)
    }
}

/// A new lobby in `chat`, stored with its first seats taken (`creator_seated`: the creator
/// takes the first; `bot`: the bot the next), so its message is right from the first.
#[allow(clippy::too_many_arguments)]
async fn create(
    ctx: &Ctx,
    (chat, topic, own_topic): (i64, Option<i32>, bool),
    creator: &User,
    lang: Lang,
    ruleset: Ruleset,
    kind: GameKind,
    creator_seated: bool,
    bot: Option<Level>,
) -> Result<GameId, StoreError> {
    let mut settings = ctx.store.chat_settings(chat).await?;
    // A group speaks the language of whoever created its first game, until /lang changes it.
    if choices::first_game(&mut settings, chat, lang) {
        ctx.store.set_chat_settings(chat, &settings).await?;
    }
    let level = settings.ai_level;
    let setup = setup(
        ctx,
        &settings,
        chat,
        creator.id.0,
        lang,
        level,
        ruleset,
        kind,
    );
    let setup = Setup {
        topic,
        own_topic,
        ..setup
    };
    let creator_name = display_name(creator);
    let rec = lobby::open(
        &setup,
        &lobby::Seated {
            creator: creator_seated.then_some(creator_name.as_str()),
            bot: bot.map(|l| (l, &name as &lobby::BotName)),
        },
        now(),
    );
    let id = ctx.store.create_game(&rec).await?;
    ctx.store.set_chat_game(chat, topic, id).await?;
    if creator_seated {
        ctx.store.set_user_game(creator.id.0, id).await?;
    }
    sender::kick(ctx, id);
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
    let (kind, rest) = game_asked(arg);
    if !rest.is_empty() && bot.is_none() {
        let words = ta(lang, "newgame-bad-arg", &[("arg", rest.into())]);
        return reply(ctx, msg, escape(&words)).await;
    }
    if msg.chat.is_private() {
        return reply(ctx, msg, t(lang, "newgame-in-group")).await;
    }
    let chat = msg.chat.id.0;
    let settings = match ctx.store.chat_settings(chat).await {
        Ok(s) => s,
        Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
    };
    // A forum whose games get topics of their own: a new topic, and a word where it was
    // asked for (should the bot no more be allowed to, the game stays where it was asked).
    let made = match settings.own_topics {
        true => own_topic(ctx, chat, user, lang).await,
        false => None,
    };
    // Else, in a forum, the game lives in the topic it was started in: one at a time a topic.
    let topic = match &made {
        Some((thread, _)) => Some(*thread),
        None => topic_of(msg),
    };
    if made.is_none() {
        match active_game(ctx, chat, topic).await {
            Ok(Some(_)) => {
                let key = if topic.is_some() {
                    "newgame-running-topic"
                } else {
                    "newgame-running"
                };
                return reply(ctx, msg, t(lang, key)).await;
            }
            Ok(None) => {}
            Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
        }
    }
    let seated = seated_at_once(ctx, user.id.0).await;
    let place = (chat, topic, made.is_some());
    match create(ctx, place, user, lang, settings.ruleset, kind, seated, bot).await {
        Ok(_) => match made {
            Some((_, name)) => {
                let words = ta(
                    lang,
                    "newgame-own-topic",
                    &[("topic", escape(&name).into())],
                );
                reply(ctx, msg, words).await
            }
            None => Ok(()),
        },
        Err(e) => reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}

/// Whether a new game's creator sits down at once: when the bot may write to them and they
/// play no other game; else they join by the button like anyone.
pub(super) async fn seated_at_once(ctx: &Ctx, user: u64) -> bool {
    let started = ctx.store.user_settings(user).await.is_ok_and(|s| s.started);
    started && !busy_elsewhere(ctx, user, None).await.unwrap_or(true)
}

/// A new forum topic of `chat` for a game `user` starts: its thread id and name; `None`
/// when Telegram refuses (the bot lost the right to manage topics).
async fn own_topic(ctx: &Ctx, chat: i64, user: &User, lang: Lang) -> Option<(i32, String)> {
    let name = ta(
        lang,
        "topic-name-lobby",
        &[("name", display_name(user).into())],
    );
    let name: String = name.chars().take(128).collect();
    match ctx
        .bot
        .create_forum_topic(ChatId(chat), name.clone())
        .metered()
        .await
    {
        Ok(topic) => Some((topic.thread_id.0 .0, name)),
        Err(e) => {
            log::warn!("a topic of its own for a game in {chat}: {e}");
            None
        }
    }
}

/// Reads `/newgame` and `/play` arguments: the game they ask for (the Riga game when a
/// word names it), and the rest.
pub fn game_asked(arg: &str) -> (GameKind, String) {
    let names: Vec<String> = Lang::ALL
        .iter()
        .flat_map(|&l| {
            t(l, "rg-game-words")
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut riga = false;
    let rest: Vec<&str> = arg
        .split_whitespace()
        .filter(|w| {
            let is = names.contains(&w.to_lowercase());
            riga |= is;
            !is
        })
        .collect();
    let kind = match riga {
        true => GameKind::Riga,
        false => GameKind::SeaBattle,
    };
    (kind, rest.join(" "))
}

/// Whether `user` plays another game that is not over.
pub(crate) async fn busy_elsewhere(
    ctx: &Ctx,
    user: u64,
    id: Option<GameId>,
) -> Result<bool, StoreError> {
    let Some(other) = ctx.store.user_game(user).await? else {
        return Ok(false);
    };
    if Some(other) == id {
        return Ok(false);
    }
    Ok(match ctx.store.load_game(other).await {
        Ok((rec, _)) => !rec.game.is_finished(),
        Err(_) => false,
    })
}

/// `user` joins game `id` (by the Join button of `generation`, or the deep link).
async fn join(
    ctx: &Ctx,
    id: GameId,
    user: &User,
    generation: Option<u32>,
) -> Result<Result<(), Refused>, StoreError> {
    let uid = user.id.0;
    if busy_elsewhere(ctx, uid, Some(id)).await? {
        return Ok(Err(Refused::BusyElsewhere));
    }
    let name = display_name(user);
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            lobby::join(r, PlayerId(uid), &name, generation, now())
        })
        .await?;
    if done.is_ok() {
        ctx.store.set_user_game(uid, id).await?;
        sender::kick(ctx, id);
    }
    Ok(done.map(|_| ()))
}

/// The welcome in a private chat, with its "Find an opponent" button.
async fn welcome(ctx: &Ctx, msg: &Message, lang: Lang) -> HandlerResult {
    let kb = Keyboard::new([[Key::callback(
        t(lang, "btn-quick-find"),
        Button::Find(true).to_string(),
    )]]);
    super::context::pace(ctx, msg.chat.id).await?;
    ctx.bot
        .send_message(msg.chat.id, t(lang, "welcome"))
        .parse_mode(ParseMode::Html)
        .reply_markup(markup(kb))
        .metered()
        .await?;
    Ok(())
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
    if let Some((id, key)) = crate::view::buttons::parse_replay_payload(payload.trim()) {
        return super::replay::on_start(ctx, msg, lang, id, &key).await;
    }
    let Some(id) = parse_join_payload(payload.trim()) else {
        return welcome(ctx, msg, lang).await;
    };
    let words = match join(ctx, id, user, None).await {
        Ok(Ok(())) => t(lang, "join-done"),
        Ok(Err(r)) => refusal::words(lang, &r),
        Err(StoreError::NotFound) => t(lang, "error-game-over"),
        Err(e) => t(lang, store_error_key(&e)),
    };
    reply(ctx, msg, words).await
}

/// The lobby's buttons: Join, Start, Cancel, and Rematch after the end.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let uid = q.from.id.0;
    match button {
        Button::Join(id, generation) => {
            let started = ctx.store.user_settings(uid).await.is_ok_and(|s| s.started);
            if !started {
                // What the join would refuse (a full lobby, a finished game) is said here,
                // not after a detour through the private chat.
                let Some(rec) = super::send::game_for_button(ctx, q, lang, id).await? else {
                    return Ok(());
                };
                if let Err(r) = lobby::may_join(&rec, PlayerId(uid), Some(generation), now()) {
                    return answer(ctx, q, refusal::words(lang, &r), true).await;
                }
                // Telegram opens the private chat from this link; /start there completes the join.
                if answer_with_start_link(ctx, q, &join_payload(id)).await? {
                    return Ok(());
                }
            }
            let done = join(ctx, id, &q.from, Some(generation)).await;
            match done {
                Ok(Ok(())) => answer(ctx, q, t(lang, "join-done"), false).await,
                Ok(Err(r)) => answer(ctx, q, refusal::words(lang, &r), true).await,
                Err(StoreError::NotFound) => answer(ctx, q, t(lang, "error-game-over"), true).await,
                Err(e) => answer_store_error(ctx, q, lang, &e).await,
            }
        }
        Button::Start(id, generation) => {
            let words = |_: &GameRecord, _: &Vec<engine::Event>| (t(lang, "start-done"), false);
            let press = Press {
                query: &q.id.0,
                words: &words,
            };
            let rng = ctx.fork();
            let done = ctx
                .store
                .transition(id, Atomic::plain(), |r| {
                    crate::game::pressed(r, Some(&press), |r| {
                        lobby::start(r, Some((uid, generation)), now(), &mut rng.clone())
                    })
                })
                .await;
            if pressed(ctx, q, lang, done).await?.is_none() {
                return Ok(());
            }
            crash_point(ctx, "start");
            sender::kick(ctx, id);
            answer(ctx, q, t(lang, "start-done"), false).await
        }
        Button::Cancel(id, generation) => {
            let done = ctx
                .store
                .transition(id, Atomic::plain(), |r| {
                    lobby::cancel(r, uid, Some(generation), now())
                })
                .await;
            if pressed(ctx, q, lang, done).await?.is_none() {
                return Ok(());
            }
            sender::kick(ctx, id);
            answer(ctx, q, t(lang, "cancel-done"), false).await
        }
        Button::Rematch(id) => rematch(ctx, q, lang, id).await,
        _ => Ok(()),
    }
}

/// `/cancel`: the creator calls the chat's game off before the battle.
pub async fn on_cancel_command(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    let game = match active_game(ctx, msg.chat.id.0, topic_of(msg)).await {
        Ok(g) => g,
        Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
    };
    let Some((id, _)) = game else {
        return reply(ctx, msg, t(lang, "error-no-game")).await;
    };
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            lobby::cancel(r, user.id.0, None, now())
        })
        .await;
    match done {
        Ok(Ok(_)) => {
            sender::kick(ctx, id);
            reply(ctx, msg, t(lang, "cancel-done")).await
        }
        Ok(Err(r)) => reply(ctx, msg, refusal::words(lang, &r)).await,
        Err(e) => reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}
