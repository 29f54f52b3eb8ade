//! The quick match (`/find`): a player waits in the queue for a stranger under their own
//! rules (`game/quick/`, one value changed by compare-and-set); a pair's duel is opened as a
//! game of its own ([`GameRecord::quick`](crate::game::record::GameRecord::quick)), played
//! on each player's private board. This process's beat ([`tick`]) pairs as the rating
//! windows widen, offers the bot after a minute alone, and opens any pair whose game is not
//! open yet (a crash between pairing and the game loses nobody).

use super::context::{crash_point, now, store_error_key, Ctx, HandlerResult};
use super::metered::Metered;
use super::send::{answer, answer_store_error, markup, reply};
use crate::game::lang::Lang;
use crate::game::lobby;
use crate::game::quick::{Pair, QuickRefused, Seeker};
use crate::game::record::GameKind;
use crate::store::{GameId, Leaderboard, StoreError};
use crate::view::buttons::Button;
use crate::view::i18n::{t, ta};
use crate::view::keyboard::{Key, Keyboard};
use crate::view::render::escape;
use engine::Ruleset;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, ParseMode, User};

/// Unix milliseconds, the queue's clock.
fn now_ms() -> u64 {
    crate::clock::unix_ms()
}

/// The rules a player looks for a match under: their private chat's, as a duel.
async fn rules_of(ctx: &Ctx, user: u64) -> Result<Ruleset, StoreError> {
    let settings = ctx.store.chat_settings(user as i64).await?;
    Ok(Ruleset {
        players: engine::Players::Duel,
        ..settings.ruleset
    })
}

/// A player's rating among all players, as shown (1000 for a newcomer).
async fn rating_of(ctx: &Ctx, user: u64) -> Result<i64, StoreError> {
    let found = ctx.store.ratings(Leaderboard::People, &[user]).await?;
    Ok(found
        .into_iter()
        .flatten()
        .next()
        .unwrap_or_default()
        .shown())
}

/// `/find` in a private chat: into the queue, paired at once when someone fits.
pub async fn on_find(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    if !msg.chat.is_private() {
        return reply(ctx, msg, t(lang, "quick-in-private")).await;
    }
    seek(ctx, user, lang).await
}

/// The welcome's "Find an opponent": as `/find`.
pub async fn on_find_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang) -> HandlerResult {
    answer(ctx, q, String::new(), false).await?;
    seek(ctx, &q.from, lang).await
}

/// `user` into the queue (words in their private chat): paired at once when someone fits.
async fn seek(ctx: &Ctx, user: &User, lang: Lang) -> HandlerResult {
    let uid = user.id.0;
    let chat = ChatId(uid as i64);
    let say = |words: String| async move {
        super::context::pace(ctx, chat).await?;
        ctx.bot
            .send_message(chat, words)
            .parse_mode(ParseMode::Html)
            .metered()
            .await?;
        Ok::<(), super::context::BotError>(())
    };
    let looked = async {
        let rules = rules_of(ctx, uid).await?;
        let rating = rating_of(ctx, uid).await?;
        let blocked = ctx.store.user_settings(uid).await?.blocked;
        let busy = super::lobby::busy_elsewhere(ctx, uid, None).await?;
        Ok::<_, StoreError>((rules, rating, blocked, busy))
    };
    let (rules, rating, blocked, busy) = match looked.await {
        Ok(found) => found,
        Err(e) => return say(t(lang, store_error_key(&e))).await,
    };
    if busy {
        return say(t(lang, "quick-busy")).await;
    }
    let key = rules.to_string();
    let at = now_ms();
    let seeker = Seeker {
        user: uid,
        // Strangers see each other's first name and rating only.
        name: user.first_name.clone(),
        rating,
        rules: key.clone(),
        since: at,
        blocked,
        offered_bot: false,
    };
    let done = ctx.store.update_quick(|q| q.seek(seeker.clone(), at)).await;
    match done {
        Ok(Ok((Some(_), _))) => {
            if let Err(e) = open_pair(ctx, uid, None).await {
                log::warn!("the quick match of {uid}: {e}");
            }
            Ok(())
        }
        Ok(Ok((None, queue))) => {
            let words = ta(
                lang,
                "quick-waiting",
                &[
                    (
                        "rules",
                        escape(&crate::view::render::ruleset_words(lang, &rules)).into(),
                    ),
                    ("rating", rating.into()),
                    ("count", queue.waiting_for(&key).into()),
                ],
            );
            let kb = Keyboard::new([[Key::callback(
                t(lang, "btn-quick-cancel"),
                Button::Find(false).to_string(),
            )]]);
            super::context::pace(ctx, chat).await?;
            ctx.bot
                .send_message(chat, words)
                .parse_mode(ParseMode::Html)
                .reply_markup(markup(kb))
                .metered()
                .await?;
            Ok(())
        }
        Ok(Err(r)) => say(refused_words(lang, r)).await,
        Err(e) => say(t(lang, store_error_key(&e))).await,
    }
}

/// A refusal of the queue in words.
fn refused_words(lang: Lang, r: QuickRefused) -> String {
    t(lang, r.key())
}

/// The waiting message's Cancel: out of the queue (a pair already made stands).
pub async fn on_cancel(ctx: &Ctx, q: &CallbackQuery, lang: Lang) -> HandlerResult {
    let uid = q.from.id.0;
    match ctx.store.update_quick(|queue| queue.cancel(uid)).await {
        Ok(Ok(_)) => {
            answer(ctx, q, t(lang, "quick-cancelled"), false).await?;
            if let Some(m) = q.regular_message() {
                let edit = ctx
                    .bot
                    .edit_message_text(m.chat.id, m.id, t(lang, "quick-cancelled"))
                    .metered()
                    .await;
                if let Err(e) = edit {
                    log::debug!("the waiting message of {uid}: {e}");
                }
            }
            Ok(())
        }
        Ok(Err(r)) => answer(ctx, q, refused_words(lang, r), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// The queue's pass, on this process's beat: pairs that fit now (the windows widen with
/// the wait), the bot offered to whoever waited a minute alone, and every pair's game
/// opened. One read when nobody waits.
pub async fn tick(ctx: &Ctx) {
    if let Err(e) = pass(ctx).await {
        log::debug!("the quick match's queue: {e}");
    }
}

async fn pass(ctx: &Ctx) -> Result<(), StoreError> {
    let (queue, _) = ctx.store.quick_queue().await?;
    if queue.waiting.is_empty() && queue.paired.is_empty() {
        return Ok(());
    }
    let at = now_ms();
    let made = ctx
        .store
        .update_quick(|q| {
            let paired = q.pair_due(at);
            let lonely = q.offer_bot(at);
            Ok::<_, ()>((paired, lonely))
        })
        .await?;
    let Ok(((_, lonely), queue)) = made else {
        return Ok(());
    };
    for s in lonely {
        let lang = super::send::user_lang_by_id(ctx, s.user).await;
        let level = crate::game::quick::bot_level_near(s.rating).to_string();
        let words = ta(lang, "quick-alone", &[("level", level.into())]);
        let sent = ctx
            .bot
            .send_message(ChatId(s.user as i64), words)
            .metered()
            .await;
        if let Err(e) = sent {
            log::debug!("the bot offered to {}: {e}", s.user);
        }
    }
    for pair in &queue.paired {
        open_pair(ctx, pair.a.user, pair.game).await?;
    }
    Ok(())
}

/// Opens the duel of `user`'s pair (`known`: its game's id, when the caller saw one): a
/// game id kept in the pair first, the game created under it (once), the players' pointers
/// set, then the pair taken from the queue.
async fn open_pair(ctx: &Ctx, user: u64, known: Option<u64>) -> Result<(), StoreError> {
    // A pair that has its game's id already (the beat looks at it again) needs no new one.
    let reserved = match known {
        Some(game) => game,
        None => ctx.store.reserve_game_id().await?.0,
    };
    let kept = ctx
        .store
        .update_quick(|q| {
            let game = q.game_for(user, reserved).ok_or(())?;
            let pair = q.pair_of(user).cloned().ok_or(())?;
            Ok::<_, ()>((game, pair))
        })
        .await?;
    let Ok(((game, pair), _)) = kept else {
        return Ok(());
    };
    crash_point(ctx, "quick-paired");
    let id = GameId(game);
    match ctx.store.load_game(id).await {
        Ok(_) => {}
        Err(StoreError::NotFound) => create(ctx, id, &pair).await?,
        Err(e) => return Err(e),
    }
    ctx.store
        .update_quick(|q| Ok::<_, ()>(q.take_pair(user)))
        .await?
        .ok();
    Ok(())
}

/// The duel's game of `pair`, under `id`: each player told whom they play.
async fn create(ctx: &Ctx, id: GameId, pair: &Pair) -> Result<(), StoreError> {
    let (a, b) = (&pair.a, &pair.b);
    let settings = ctx.store.chat_settings(a.user as i64).await?;
    let lang = super::send::user_lang_by_id(ctx, a.user).await;
    let ruleset = rules_of(ctx, a.user).await?;
    let place = (a.user as i64, a.user, lang);
    let (board, kind) = (ctx.config.board, GameKind::SeaBattle);
    let setup = lobby::Setup::from_settings(&settings, place, board, ruleset, kind);
    let mut told = Vec::new();
    for (me, other) in [(a, b), (b, a)] {
        let lang = super::send::user_lang_by_id(ctx, me.user).await;
        told.push(ta(
            lang,
            "quick-found",
            &[
                ("name", escape(&other.name).into()),
                ("rating", other.rating.into()),
            ],
        ));
    }
    let told: [String; 2] = [told.remove(0), told.remove(0)];
    let players = [(a.user, a.name.as_str()), (b.user, b.name.as_str())];
    let rec = match lobby::quick_match(&setup, players, told, now(), &mut ctx.fork()) {
        Ok(rec) => rec,
        Err(r) => {
            log::warn!("quick match {id}: not opened: {r:?}");
            return Ok(());
        }
    };
    if ctx.store.create_game_at(id, &rec).await? {
        let due = crate::game::timer::deadline(&rec, now(), ctx.config.ai_pause);
        ctx.store.schedule(id, due).await?;
        for user in [a.user, b.user] {
            ctx.store.set_user_game(user, id).await?;
        }
    }
    Ok(())
}

/// The quick match `id` of the presser `user`: the game and the opponent (their seat's
/// user), or the words of a refusal.
async fn opponent(ctx: &Ctx, id: GameId, user: u64) -> Result<(u64, Lang), &'static str> {
    let (rec, _) = ctx.store.load_game(id).await.map_err(|e| match e {
        StoreError::NotFound => "error-game-over",
        e => store_error_key(&e),
    })?;
    let seat = rec.game.seat_of(engine::PlayerId(user));
    let other = rec
        .game
        .seats()
        .iter()
        .map(|s| s.player.0)
        .find(|&p| p != user);
    match (rec.quick, seat, other) {
        (true, Some(_), Some(other)) => Ok((other, super::send::user_lang_by_id(ctx, other).await)),
        _ => Err("error-not-a-player"),
    }
}

/// A reaction pressed on a quick match's board: sent to the opponent as "name: 👍", each
/// reaction at most once a minute (no free text passes between strangers).
pub async fn on_reaction(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    i: u8,
) -> HandlerResult {
    let uid = q.from.id.0;
    let Some(reaction) = crate::view::own_field::REACTIONS.get(usize::from(i)) else {
        return answer(ctx, q, t(lang, "error-unknown-button"), true).await;
    };
    let (other, other_lang) = match opponent(ctx, id, uid).await {
        Ok(found) => found,
        Err(key) => return answer(ctx, q, t(lang, key), true).await,
    };
    let what = format!("reaction:{id}:{i}");
    if !ctx.store.may_answer(other as i64, uid, &what).await? {
        return answer(ctx, q, t(lang, "quick-reaction-lately"), false).await;
    }
    let words = ta(
        other_lang,
        "quick-reaction",
        &[
            ("name", escape(&q.from.first_name).into()),
            ("reaction", (*reaction).into()),
        ],
    );
    super::context::pace(ctx, ChatId(other as i64)).await?;
    ctx.bot
        .send_message(ChatId(other as i64), words)
        .parse_mode(ParseMode::Html)
        .metered()
        .await?;
    answer(ctx, q, t(lang, "quick-reaction-sent"), false).await
}

/// Block on a quick match's board at its end: the opponent is never paired with the
/// presser again (either way round, see `game/quick/`).
pub async fn on_block(ctx: &Ctx, q: &CallbackQuery, lang: Lang, id: GameId) -> HandlerResult {
    let uid = q.from.id.0;
    let other = match opponent(ctx, id, uid).await {
        Ok((other, _)) => other,
        Err(key) => return answer(ctx, q, t(lang, key), true).await,
    };
    let mut settings = match ctx.store.user_settings(uid).await {
        Ok(s) => s,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    if crate::game::settings::block(&mut settings, other) {
        if let Err(e) = ctx.store.set_user_settings(uid, &settings).await {
            return answer_store_error(ctx, q, lang, &e).await;
        }
    }
    answer(ctx, q, t(lang, "quick-blocked"), false).await
}
