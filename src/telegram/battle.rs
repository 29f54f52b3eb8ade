//! The battle: shots by buttons and by typed replies to the battle message, another block of
//! the field, surrender. Aiming and salvoes are in `aim.rs`, the cell given up after a mine in
//! `mine.rs`, the move itself and the turn timer in `play.rs`.

use super::chat::reply;
use super::play::accepted;
use super::play::after;
use super::play::apply_and_answer;
use super::play::battle_press;
use super::play::play;
use super::play::play_with;
use super::play::refusal;
use super::play::say;
use super::play::Reply;
use super::{answer, answer_store_error, Ctx, HandlerResult};
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::store::{GameId, StoreError};
use crate::view::buttons::Button;
use crate::view::group::battle_viewport;
use crate::view::i18n::{t, ta};
pub use crate::view::own_field::own_field_text;
use crate::view::render::{self, escape};
use engine::{parse_cell, Action, ActionError, Coord, Phase, PlayerId, SeatId};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, User};

/// Why a shot's button was not taken, as its transition found.
enum NotFired {
    /// The press's update came again: the answer it earned.
    Again(String, bool),
    /// Refused before the engine was asked: the words' key.
    Words(&'static str),
    /// The button is of an older message (`true`: the record is newer than the button, so
    /// no later version makes it current).
    Stale(bool),
    /// The engine refused the shot.
    Refused(ActionError),
    /// A salvo game: a cell button picks, it does not shoot.
    Salvo,
}

impl NotFired {
    /// Whether no later version of the record could take the press: such a refusal of the
    /// record this process knows needs no fresh look (a flood of presses by someone who is
    /// not playing costs no round trip).
    fn settled(&self) -> bool {
        match self {
            NotFired::Again(..) | NotFired::Words(_) | NotFired::Salvo => true,
            NotFired::Stale(newer) => *newer,
            NotFired::Refused(e) => {
                matches!(e, ActionError::AlreadyKnown(_) | ActionError::GameOver)
            }
        }
    }
}

/// A shot's button, in one atomic transition that checks everything a press must pass (the
/// game, the message's generation, the seat, the turn, a repeat of the same press) on the
/// record as it is: no load before it and no claim of the update, as the transition keeps
/// the press's answer and a second delivery of it gets that answer and changes nothing.
/// `None` when this is not a shot's button of a game without salvoes: the update takes the
/// ordinary way.
pub async fn fire_at_once(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    button: &Button,
) -> Option<HandlerResult> {
    let Button::Fire(id, generation, target, index) = *button else {
        return None;
    };
    let user = PlayerId(q.from.id.0);
    let rng = ctx.fork();
    let due = |r: &GameRecord| super::play::deadline(ctx, r);
    let done = ctx
        .store
        .transition_settled(id, Some(&due), &NotFired::settled, |rec| {
            if let Some(again) = rec.answered(&q.id.0) {
                return Err(NotFired::Again(again.text.clone(), again.alert));
            }
            if rec.game.is_finished() {
                return Err(NotFired::Words("error-game-over"));
            }
            if generation != rec.delivery.generation || rec.game.phase() != &Phase::Battle {
                return Err(NotFired::Stale(rec.delivery.generation > generation));
            }
            // From here on the record is of the battle the button belongs to: its seats,
            // field and rules stay as they are.
            let Some(seat) = rec.game.seat_of(user) else {
                return Err(NotFired::Words("error-not-a-player"));
            };
            let size = rec.game.ruleset().size();
            if usize::from(index) >= size.area() {
                return Err(NotFired::Words("error-unknown-button"));
            }
            if rec.game.ruleset().salvo.is_some() {
                return Err(NotFired::Salvo);
            }
            // Redraws of the group's message are paced, so right after the shooter chose
            // another field its keyboard may still show the one before: its cells go to the
            // field chosen.
            let target = match rec.current_aim() {
                Some(aim) if aim.shooter == seat => aim.target,
                _ => SeatId(target),
            };
            let action = Action::Fire(seat, target, size.coord(usize::from(index)));
            apply_and_answer(rec, action, Some((&q.id.0, lang)), &mut rng.clone())
                .map_err(NotFired::Refused)
        })
        .await;
    Some(match done {
        Ok(Ok(done)) => accepted(ctx, id, lang, &done, &Reply::Callback(q)).await,
        Ok(Err(NotFired::Salvo)) => return None,
        Ok(Err(NotFired::Again(text, alert))) => answer(ctx, q, text, alert).await,
        Ok(Err(NotFired::Words(key))) => answer(ctx, q, t(lang, key), true).await,
        Ok(Err(NotFired::Stale(_))) => answer(ctx, q, t(lang, "error-out-of-date"), true).await,
        Ok(Err(NotFired::Refused(e))) => answer(ctx, q, refusal(lang, &e), true).await,
        Err(StoreError::NotFound) => answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => answer_store_error(ctx, q, lang, &e).await,
    })
}

/// "Show another block of the field" under the battle message: the shooter's view moves.
pub async fn on_view(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::View(id, generation, block) = button else {
        return Ok(());
    };
    let Some((rec, seat)) = battle_press(ctx, q, lang, id, Some(generation)).await? else {
        return Ok(());
    };
    if rec.game.turn() != seat {
        return answer(ctx, q, t(lang, "shot-not-your-turn"), true).await;
    }
    let blocks = battle_viewport(&rec).blocks() as u8;
    let done = ctx
        .store
        .transition(id, |r| {
            if let Some(sb) = r.sea_mut() {
                sb.block = block % blocks.max(1);
            }
            Ok::<_, ()>(())
        })
        .await;
    if let Err(e) = done {
        return answer_store_error(ctx, q, lang, &e).await;
    }
    answer(ctx, q, String::new(), false).await?;
    super::outbox::kick(ctx, id);
    Ok(())
}

async fn shoot(
    ctx: &Ctx,
    id: GameId,
    lang: Lang,
    seat: SeatId,
    target: SeatId,
    cell: Coord,
    to: Reply<'_>,
) -> HandlerResult {
    log::debug!("game {id}: seat {} fires at {cell}", seat.0);
    let press = match &to {
        Reply::Callback(q) => Some((q.id.0.as_str(), lang)),
        Reply::Message(_) => None,
    };
    let action = Action::Fire(seat, target, cell);
    match play_with(ctx, id, press, |_| Ok(action.clone())).await {
        Ok(Ok(done)) => accepted(ctx, id, lang, &done, &to).await,
        Ok(Err(e)) => say(ctx, &to, refusal(lang, &e), true).await,
        Err(e) => say(ctx, &to, t(lang, super::store_error_key(&e)), true).await,
    }
}

/// Plain text in a group whose game (`rec`, as the dispatcher loaded it) is Sea Battle: a
/// typed cell in reply to the battle message shoots.
pub async fn on_text(ctx: &Ctx, msg: &Message, id: GameId, rec: &GameRecord) -> HandlerResult {
    let (Some(user), Some(text), Some(replied)) =
        (msg.from.as_ref(), msg.text(), msg.reply_to_message())
    else {
        return Ok(());
    };
    // The battle message of this game: the one the record names, or (in the moment between
    // its sending and the record learning its id) one whose buttons fire in this game.
    let fires_here = replied.reply_markup().is_some_and(|kb| {
        kb.inline_keyboard.iter().flatten().any(|b| {
            matches!(&b.kind, teloxide::types::InlineKeyboardButtonKind::CallbackData(d)
                if matches!(Button::parse(d), Some(Button::Fire(g, ..)) if g == id))
        })
    });
    if rec.delivery.message != Some(replied.id.0) && !fires_here {
        log::debug!(
            "a reply to {} is not to the battle message {:?}",
            replied.id.0,
            rec.delivery.message
        );
        return Ok(());
    }
    let lang = super::user_lang(ctx, user).await;
    let Some(seat) = rec.game.seat_of(PlayerId(user.id.0)) else {
        return reply(ctx, msg, t(lang, "error-not-a-player")).await;
    };
    let size = rec.game.ruleset().size();
    // A salvo is typed as its cells in a row: "b6 c7 d8".
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    let salvo = rec.game.ruleset().salvo.is_some();
    let cells: Result<Vec<Coord>, _> = if salvo {
        words
            .iter()
            .map(|w| parse_cell(w, rec.alphabet, size))
            .collect()
    } else {
        parse_cell(text, rec.alphabet, size).map(|c| vec![c])
    };
    let cells = match cells {
        Ok(c) => c,
        Err(_) => {
            let first = render::cell_name(Coord::new(0, 0), rec.alphabet, size);
            let last = render::cell_name(
                Coord::new(size.width - 1, size.height - 1),
                rec.alphabet,
                size,
            );
            let words = ta(
                lang,
                "shot-bad-cell",
                &[("first", first.into()), ("last", last.into())],
            );
            return reply(ctx, msg, escape(&words)).await;
        }
    };
    let target = match rec.current_aim() {
        Some(aim) if aim.shooter == seat => aim.target,
        _ => match rec.game.targets(seat).first() {
            Some(&t) => t,
            None => return reply(ctx, msg, t(lang, "shot-not-your-turn")).await,
        },
    };
    if salvo {
        let action = Action::Salvo(seat, target, cells);
        return super::play::fire(ctx, id, lang, action, Reply::Message(msg)).await;
    }
    shoot(ctx, id, lang, seat, target, cells[0], Reply::Message(msg)).await
}

/// `/surrender`: the sender gives up their game (in the group, or in the private chat).
pub async fn on_surrender(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    let id = if msg.chat.is_private() {
        ctx.store.user_game(user.id.0).await
    } else {
        ctx.store.chat_game(msg.chat.id.0).await
    };
    let id = match id {
        Ok(Some(id)) => id,
        Ok(None) => return reply(ctx, msg, t(lang, "error-no-game")).await,
        Err(e) => return reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    };
    let seat = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec.game.seat_of(PlayerId(user.id.0)),
        Err(e) => return reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    };
    let Some(seat) = seat else {
        return reply(ctx, msg, t(lang, "error-not-a-player")).await;
    };
    match play(ctx, id, Action::Surrender(seat)).await {
        Ok(Ok(done)) => {
            after(ctx, id, &done).await?;
            if msg.chat.is_private() {
                reply(ctx, msg, t(lang, "surrender-done")).await?;
            }
            Ok(())
        }
        Ok(Err(_)) => reply(ctx, msg, t(lang, "surrender-not-now")).await,
        Err(e) => reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    }
}
