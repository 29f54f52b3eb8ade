//! The Riga board game in Telegram (docs/rules.md §5; state in `riga_play.rs`, words in
//! `riga_text.rs`).
//!
//! - The lobby is Sea Battle's (Join, Start, Cancel, the bot's seat), for two seats; its
//!   "Riga game" button, or `/newgame riga`, makes it a Riga lobby.
//! - Set-up: each player gets their twelve start points in the private chat as buttons, in
//!   a random order to begin with; two taps swap two ships, 🎲 draws another order, Ready
//!   locks it. Both fleets are revealed together when both are locked; the lot picks who
//!   moves first.
//! - Battle: the group's message shows the board, the latest moves and whose turn it is;
//!   under it, one row per ship of the side to move that can move, with only its legal moves
//!   (a tap plays it); or a move typed in reply to the message (`е11 вперёд`, `f11 f`).
//! - Every change is one atomic transition of the game's record, with what it must send put
//!   in its outbox (the battle's message, the private messages, the end); the turn timer and
//!   the bot's moves work as in Sea Battle.

use super::chat::reply;
use super::riga_core::{deadline, duel, follow_up};
use super::{answer, answer_store_error, now, Ctx, HandlerResult};
use crate::game::delivery::Effect;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::riga::{PlayError, RigaPlay, SetupError};
use crate::store::{GameId, StoreError};
use crate::view::buttons::Button;
use crate::view::i18n::t;
use crate::view::riga_text;
use engine::{Action, Phase, PlayerId};
use riga::Move;
use teloxide::prelude::*;
use teloxide::types::CallbackQuery;

/// The words for a refused tap of the set-up.
fn setup_refusal_key(e: SetupError) -> &'static str {
    match e {
        SetupError::NotASeat => "error-not-a-player",
        SetupError::NotOrdering | SetupError::NoPoint => "error-out-of-date",
    }
}

/// Why a press is not played.
enum NotPlayed {
    Again(String, bool),
    Text(String),
    Words(&'static str),
}

/// Plays `mv` for the presser or the writer `user` in a transition; the record after it.
async fn play_move(
    ctx: &Ctx,
    id: GameId,
    user: u64,
    lang: Lang,
    press: Option<(&str, u32)>,
    mv: impl Fn(&GameRecord) -> Result<Move, NotPlayed>,
) -> Result<Result<GameRecord, NotPlayed>, StoreError> {
    let due = |r: &GameRecord| deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |rec| {
            if let Some((query, _)) = press {
                if let Some(again) = rec.answered(query) {
                    return Err(NotPlayed::Again(again.text.clone(), again.alert));
                }
            }
            if rec.game.is_finished() {
                return Err(NotPlayed::Words("error-game-over"));
            }
            let Some(seat) = rec.game.seat_of(PlayerId(user)) else {
                return Err(NotPlayed::Words("error-not-a-player"));
            };
            // A button names the position it was drawn for (the number of moves played): a
            // press of an older one (a second tap, a slow client) plays nothing.
            if let Some((_, drawn_at)) = press {
                let played = rec
                    .riga()
                    .and_then(|r| r.game.as_ref())
                    .map(riga::Game::moves);
                if played != Some(drawn_at) {
                    return Err(NotPlayed::Words("error-out-of-date"));
                }
            }
            let m = mv(rec)?;
            let group_lang = rec.lang;
            let r = rec
                .riga_mut()
                .ok_or(NotPlayed::Words("error-out-of-date"))?;
            // No battle on: what `play` would refuse with `NotInBattle`.
            let Some(before) = r.game.clone() else {
                return Err(NotPlayed::Words("error-game-over"));
            };
            r.play(seat.0, m, now(), |before, m, lost| {
                riga_text::move_line(group_lang, before, m, lost)
            })
            .map_err(|e| match e {
                PlayError::NotInBattle => NotPlayed::Words("error-game-over"),
                PlayError::NotYourTurn => NotPlayed::Words("shot-not-your-turn"),
                // The rules' refusals are put in words with the position.
                PlayError::Rules(e) => NotPlayed::Text(riga_text::move_error(lang, &before, m, e)),
            })?;
            if let Some((query, _)) = press {
                rec.remember_answer(query, &t(lang, "rg-move-done"), false);
            }
            Ok(())
        })
        .await?;
    Ok(done.map(|c| c.record))
}

/// A press of a Riga button.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    match button {
        Button::RigaMove(id, drawn_at, mv) => {
            let press = Some((q.id.0.as_str(), drawn_at));
            let done = play_move(ctx, id, q.from.id.0, lang, press, |_| Ok(mv)).await;
            match done {
                Ok(Ok(rec)) => {
                    super::crash_point("riga_move");
                    answer(ctx, q, t(lang, "rg-move-done"), false).await?;
                    follow_up(ctx, id, &rec);
                    Ok(())
                }
                Ok(Err(e)) => answer_refusal(ctx, q, lang, e).await,
                Err(StoreError::NotFound) => answer(ctx, q, t(lang, "error-game-over"), true).await,
                Err(e) => answer_store_error(ctx, q, lang, &e).await,
            }
        }
        Button::RigaTap(id, _) | Button::RigaShuffle(id) | Button::RigaLock(id) => {
            setup_press(ctx, q, lang, id, button).await
        }
        Button::RigaToggle(id, generation) => toggle(ctx, q, lang, id, generation).await,
        _ => Ok(()),
    }
}

async fn answer_refusal(ctx: &Ctx, q: &CallbackQuery, lang: Lang, e: NotPlayed) -> HandlerResult {
    match e {
        NotPlayed::Again(text, alert) => answer(ctx, q, text, alert).await,
        NotPlayed::Words(key) => answer(ctx, q, t(lang, key), true).await,
        NotPlayed::Text(text) => answer(ctx, q, text, true).await,
    }
}

/// A tap of the set-up keyboard in the private chat.
async fn setup_press(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    button: Button,
) -> HandlerResult {
    let user = q.from.id.0;
    let rng = ctx.fork();
    let due = |r: &GameRecord| deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |rec| {
            if let Some(again) = rec.answered(&q.id.0) {
                return Err(NotPlayed::Again(again.text.clone(), again.alert));
            }
            if rec.game.is_finished() {
                return Err(NotPlayed::Words("error-game-over"));
            }
            let Some(seat) = rec.game.seat_of(PlayerId(user)) else {
                return Err(NotPlayed::Words("error-not-a-player"));
            };
            let r = rec
                .riga_mut()
                .ok_or(NotPlayed::Words("error-out-of-date"))?;
            let mut rng = rng.clone();
            let key = match button {
                Button::RigaTap(_, p) => r.tap(seat.0, p).map(|()| ""),
                Button::RigaShuffle(_) => r.shuffle(seat.0, &mut rng).map(|()| ""),
                _ => r.lock(seat.0, now(), &mut rng).map(|_| "rg-locked"),
            }
            .map_err(|e| NotPlayed::Words(setup_refusal_key(e)))?;
            rec.push_effect(Effect::Dm { seat: seat.0 });
            let words = if key.is_empty() {
                String::new()
            } else {
                t(lang, key)
            };
            rec.remember_answer(&q.id.0, &words, false);
            Ok(words)
        })
        .await;
    match done {
        Ok(Ok(c)) => {
            if matches!(button, Button::RigaLock(_)) {
                super::crash_point("riga_lock");
            }
            answer(ctx, q, c.value, false).await?;
            follow_up(ctx, id, &c.record);
            Ok(())
        }
        Ok(Err(e)) => answer_refusal(ctx, q, lang, e).await,
        Err(StoreError::NotFound) => answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// The lobby's "Riga game" / "Sea Battle" button: the creator switches the lobby's game (a
/// Riga game takes two seats).
async fn toggle(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    generation: u32,
) -> HandlerResult {
    let Some(rec) = super::game_for_button(ctx, q, lang, id).await? else {
        return Ok(());
    };
    if generation != rec.delivery.generation || *rec.game.phase() != Phase::Lobby {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    if q.from.id.0 != rec.creator {
        return answer(ctx, q, t(lang, "error-creator-only"), true).await;
    }
    let rng = ctx.fork();
    let done = ctx
        .store
        .transition(id, |rec| {
            if *rec.game.phase() != Phase::Lobby {
                return Err("error-out-of-date");
            }
            if rec.is_riga() {
                rec.play =
                    crate::game::record::Play::SeaBattle(crate::game::record::SeaBattle::default());
                return Ok("rg-off");
            }
            if rec.game.seats().len() > 2 {
                return Err("rg-two-players");
            }
            let ruleset = duel(rec.game.ruleset());
            let mut game = engine::Game::new(ruleset);
            for seat in rec.game.seats() {
                game.apply(Action::Join(seat.player), now(), &mut rng.clone())
                    .map_err(|_| "error-out-of-date")?;
            }
            rec.game = game;
            rec.panel = None;
            rec.play = crate::game::record::Play::Riga(RigaPlay::default());
            Ok("rg-on")
        })
        .await;
    match done {
        Ok(Ok(c)) => {
            answer(ctx, q, t(lang, c.value), false).await?;
            super::outbox::kick(ctx, id);
            Ok(())
        }
        Ok(Err(key)) => answer(ctx, q, t(lang, key), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    }
}

/// The chat's game when it is a Riga game.
async fn riga_game_of(ctx: &Ctx, msg: &Message, user: u64) -> Option<(GameId, GameRecord)> {
    let id = if msg.chat.is_private() {
        ctx.store.user_game(user).await
    } else {
        ctx.store.chat_game(msg.chat.id.0).await
    };
    let id = id.ok().flatten()?;
    let (rec, _) = ctx.store.load_game(id).await.ok()?;
    rec.is_riga().then_some((id, rec))
}

/// A reply in a group whose game (`rec`, as the dispatcher loaded it) is a Riga game: a
/// typed move when it answers the battle's message.
pub async fn on_reply(ctx: &Ctx, msg: &Message, id: GameId, rec: &GameRecord) -> HandlerResult {
    let (Some(text), Some(replied)) = (msg.text(), msg.reply_to_message()) else {
        return Ok(());
    };
    if rec.delivery.message != Some(replied.id.0) {
        return Ok(());
    }
    on_text(ctx, msg, id, rec, text).await
}

/// `/surrender` in a Riga game; `None` when the user's game is no Riga game.
pub async fn on_surrender_command(
    ctx: &Ctx,
    msg: &Message,
    user: u64,
    lang: Lang,
) -> Option<HandlerResult> {
    let (id, _) = riga_game_of(ctx, msg, user).await?;
    Some(on_surrender(ctx, msg, id, user, lang).await)
}

/// A move typed in reply to the battle's message.
async fn on_text(
    ctx: &Ctx,
    msg: &Message,
    id: GameId,
    rec: &GameRecord,
    text: &str,
) -> HandlerResult {
    let Some(user) = msg.from.as_ref() else {
        return Ok(());
    };
    let lang = super::user_lang(ctx, user).await;
    if rec.game.seat_of(PlayerId(user.id.0)).is_none() {
        return reply(ctx, msg, t(lang, "error-not-a-player")).await;
    }
    let text = text.to_owned();
    let example = t(lang, "rg-typed-example");
    let done = play_move(ctx, id, user.id.0, lang, None, |rec| {
        let game = rec
            .riga()
            .and_then(|r| r.game.as_ref())
            .ok_or(NotPlayed::Words("error-game-over"))?;
        riga::notation::parse_move(&text, game)
            .map_err(|e| NotPlayed::Text(riga_text::parse_error(lang, &e, &example)))
    })
    .await;
    let words = match done {
        Ok(Ok(rec)) => {
            follow_up(ctx, id, &rec);
            super::play::acknowledge(ctx, msg).await;
            return Ok(());
        }
        Ok(Err(NotPlayed::Again(text, _))) => text,
        Ok(Err(NotPlayed::Words(key))) => t(lang, key),
        Ok(Err(NotPlayed::Text(text))) => text,
        Err(e) => t(lang, super::store_error_key(&e)),
    };
    // Refusals go where Sea Battle's typed shots send them: the player's private chat.
    super::play::say(ctx, &super::play::Reply::Message(msg), words, true).await
}

/// `/surrender` in a Riga game.
async fn on_surrender(
    ctx: &Ctx,
    msg: &Message,
    id: GameId,
    user: u64,
    lang: Lang,
) -> HandlerResult {
    let done = ctx
        .store
        .transition(id, |rec| {
            let seat = rec
                .game
                .seat_of(PlayerId(user))
                .ok_or("error-not-a-player")?;
            let r = rec.riga_mut().ok_or("surrender-not-now")?;
            if !r.surrender(seat.0) {
                return Err("surrender-not-now");
            }
            Ok(())
        })
        .await;
    match done {
        Ok(Ok(c)) => {
            follow_up(ctx, id, &c.record);
            if msg.chat.is_private() {
                reply(ctx, msg, t(lang, "surrender-done")).await?;
            }
            Ok(())
        }
        Ok(Err(key)) => reply(ctx, msg, t(lang, key)).await,
        Err(e) => reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    }
}
