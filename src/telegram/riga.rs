//! The Riga board game in Telegram (docs/rules.md §5; its transitions in `game/riga.rs`,
//! words in `view/riga_text.rs`).
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

use super::battle::{acknowledge, due, follow_up, refuse_typed};
use super::context::{crash_point, now, store_error_key, user_lang, Ctx, HandlerResult};
use super::metered::refusal;
use super::send::{answer, pressed, reply};
use super::sender;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::riga::{self as rules, SetupTap};
use crate::game::{lobby, GameId, Press, Refused};
use crate::store::Atomic;
use crate::store::{Committed, StoreError};
use crate::view::buttons::Button;
use crate::view::i18n::t;
use crate::view::riga_text;
use engine::PlayerId;
use teloxide::prelude::*;
use teloxide::types::CallbackQuery;

/// A press of a Riga button.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let player = PlayerId(q.from.id.0);
    match button {
        Button::RigaMove(id, drawn_at, mv) => {
            let words = |_: &GameRecord, _: &Vec<usize>| (t(lang, "rg-move-done"), false);
            let press = Press {
                query: &q.id.0,
                words: &words,
            };
            let done = riga_move(ctx, id, player, drawn_at, mv, Some(&press)).await;
            let Some(done) = pressed(ctx, q, lang, done).await? else {
                return Ok(());
            };
            answer(ctx, q, t(lang, "rg-move-done"), false).await?;
            follow_up(ctx, id, &done.record);
            Ok(())
        }
        Button::RigaTap(id, _) | Button::RigaShuffle(id) | Button::RigaLock(id) => {
            let tap = match button {
                Button::RigaTap(_, p) => SetupTap::Point(p),
                Button::RigaShuffle(_) => SetupTap::Shuffle,
                _ => SetupTap::Lock,
            };
            let words = |_: &GameRecord, locked: &bool| (setup_words(lang, *locked), false);
            let press = Press {
                query: &q.id.0,
                words: &words,
            };
            let done = riga_setup(ctx, id, player, tap, Some(&press)).await;
            let Some(done) = pressed(ctx, q, lang, done).await? else {
                return Ok(());
            };
            answer(ctx, q, setup_words(lang, done.value), false).await?;
            follow_up(ctx, id, &done.record);
            Ok(())
        }
        Button::RigaToggle(id, generation) => {
            let done = ctx
                .store
                .transition(id, Atomic::plain(), |r| {
                    lobby::switch_game(r, player.0, generation, now())
                })
                .await;
            let Some(done) = pressed(ctx, q, lang, done).await? else {
                return Ok(());
            };
            let key = if done.value { "rg-on" } else { "rg-off" };
            answer(ctx, q, t(lang, key), false).await?;
            sender::kick(ctx, id);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The answer to a set-up tap: words only once the order is locked.
pub fn setup_words(lang: Lang, locked: bool) -> String {
    if locked {
        t(lang, "rg-locked")
    } else {
        String::new()
    }
}

/// A move of `player`'s from a button of the chat or the Mini App's board: the position it
/// was drawn for, `drawn_at`, must still be the game's.
///
/// # Errors
/// The store's; the refusal inside.
pub async fn riga_move(
    ctx: &Ctx,
    id: GameId,
    player: PlayerId,
    drawn_at: u32,
    mv: riga::Move,
    press: Option<&Press<'_, Vec<usize>>>,
) -> Result<Result<Committed<Vec<usize>>, Refused>, StoreError> {
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            let line = &riga_text::move_line;
            rules::play_move(r, player, mv, Some(drawn_at), press, now(), line)
        })
        .await;
    if let Ok(Ok(_)) = &done {
        crash_point(ctx, "riga_move");
    }
    done
}

/// A tap of `player`'s set-up, from the chat or the Mini App's board.
///
/// # Errors
/// The store's; the refusal inside.
pub async fn riga_setup(
    ctx: &Ctx,
    id: GameId,
    player: PlayerId,
    tap: SetupTap,
    press: Option<&Press<'_, bool>>,
) -> Result<Result<Committed<bool>, Refused>, StoreError> {
    let rng = ctx.fork();
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            rules::setup(r, player, tap, press, now(), &mut rng.clone())
        })
        .await;
    if let Ok(Ok(c)) = &done {
        if c.value {
            crash_point(ctx, "riga_lock");
        }
    }
    done
}

/// A reply in a group, or in the private chat of a game against the bot, whose game (`rec`,
/// as the dispatcher loaded it) is a Riga game: a typed move when it answers the battle's
/// message.
pub async fn on_reply(ctx: &Ctx, msg: &Message, id: GameId, rec: &GameRecord) -> HandlerResult {
    let (Some(text), Some(replied)) = (msg.text(), msg.reply_to_message()) else {
        return Ok(());
    };
    if rec.delivery.message != Some(replied.id.0) {
        return Ok(());
    }
    on_text(ctx, msg, id, rec, text).await
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
    let lang = user_lang(ctx, user).await;
    let player = PlayerId(user.id.0);
    if rec.game.seat_of(player).is_none() {
        return reply(ctx, msg, t(lang, "error-not-a-player")).await;
    }
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            rules::play_typed(r, player, text, now(), &riga_text::move_line)
        })
        .await;
    let words = match done {
        Ok(Ok(done)) => {
            follow_up(ctx, id, &done.record);
            acknowledge(ctx, msg).await;
            return Ok(());
        }
        Ok(Err(r)) => refusal::words(lang, &r),
        Err(e) => t(lang, store_error_key(&e)),
    };
    // Refusals go where Sea Battle's typed shots send them: the player's private chat.
    refuse_typed(ctx, msg, words).await
}

/// `/surrender` in a Riga game.
pub async fn on_surrender(
    ctx: &Ctx,
    msg: &Message,
    id: GameId,
    user: u64,
    lang: Lang,
) -> HandlerResult {
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| rules::surrender(r, PlayerId(user)))
        .await;
    match done {
        Ok(Ok(c)) => {
            follow_up(ctx, id, &c.record);
            if msg.chat.is_private() {
                reply(ctx, msg, t(lang, "surrender-done")).await?;
            }
            Ok(())
        }
        Ok(Err(r)) => reply(ctx, msg, refusal::words(lang, &r)).await,
        Err(e) => reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}
