//! The battle's presses and typed moves: a cell's button (a shot, or a salvo's cell), the
//! field aimed at, a salvo's Fire, another block of the field, the cell given up after a
//! mine, a shot or salvo typed in reply to the battle message, `/surrender`. Each is one
//! transition of `game/battle.rs` run in the store; here only the answer and what follows.

use super::context::{crash_point, now, store_error_key, user_lang, BotError, Ctx, HandlerResult};
use super::metered::refusal;
use super::metered::Metered;
use super::send::{answer, answer_once, pressed, pressed_on, reply};
use super::{bot_turns, sender};
use crate::game::battle::{self as rules, Cell};
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::{came_on, timer, GameId, Made, Press, Refused};
use crate::store::settings::Claim;
use crate::store::Atomic;
use crate::store::StoreError;
use crate::view::buttons::Button;
use crate::view::group::{cell_answer, shot_answer, target_answer};
use crate::view::i18n::{t, ta};
use crate::view::mine::gave_up_words;
use crate::view::render::{self, escape};
use engine::{parse_cell, Coord, Event, PlayerId, SeatId};
use teloxide::payloads::SendMessageSetters;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, ParseMode, User};

/// When the timer should look at the game after a change: the one rule of `game/timer.rs`.
pub fn due(ctx: &Ctx) -> impl Fn(&GameRecord) -> Option<u64> + '_ {
    |r: &GameRecord| timer::deadline(r, now(), ctx.config.ai_pause)
}

/// What follows an accepted change: the sender wakes, and the bot moves if it is its turn.
pub fn follow_up(ctx: &Ctx, id: GameId, rec: &GameRecord) {
    sender::kick(ctx, id);
    bot_turns::wake(ctx, rec, id);
}

/// A shot or salvo was stored (its timer with it, so should this process die right after,
/// another finds the game due): counted (`mb_shots_total`), and the tests' crash point
/// before its answer.
pub(crate) fn shot_taken(ctx: &Ctx, rec: &GameRecord) {
    crate::metrics::shot(crate::metrics::Shooter::Player);
    crash_point(
        ctx,
        if rec.is_finished() {
            "final-shot"
        } else {
            "shot"
        },
    );
}

/// A cell's button of the battle message, in one atomic transition that checks everything
/// a press must pass (the game, the message's generation, the seat, the turn, a repeat of
/// the same press) on the record as it is, and claims the press's update (`update_id`) with
/// the change: no load before it and no claim of its own. The change keeps the press's
/// answer, so a second delivery of the update (after a crash) changes nothing and gets that
/// answer, unless the first was answered already, or is being handled by a live process.
pub async fn on_cell(
    ctx: &Ctx,
    q: &CallbackQuery,
    update_id: u32,
    lang: Lang,
    button: &Button,
) -> HandlerResult {
    let Button::Fire(id, generation, target, index) = *button else {
        return Ok(());
    };
    // Posted again while this process handles it (its answer is on the way): not twice.
    let Some(_hand) = ctx.take_in_hand(update_id) else {
        return Err(BotError::Elsewhere);
    };
    let player = PlayerId(q.from.id.0);
    let on = pressed_on(q);
    let rng = ctx.fork();
    let words = |r: &GameRecord, done: &Cell| (cell_answer(lang, r, done), false);
    let press = Press {
        query: &q.id.0,
        words: &words,
    };
    let due = due(ctx);
    let done = ctx
        .store
        .transition(
            id,
            Atomic::due(Some(&due))
                .settled(&Refused::settled)
                .press((update_id, &ctx.replica)),
            |r| {
                came_on(r, Made::Live, player, on.as_ref())?;
                let mut rng = rng.clone();
                rules::press_cell(
                    r,
                    player,
                    generation,
                    target,
                    index,
                    Some(&press),
                    now(),
                    &mut rng,
                )
            },
        )
        .await;
    // Redis away: answered "try again" below, at once, in webhook mode as in long polling
    // (Telegram takes a press's answer only within about 15 s of it).
    match &done {
        Ok(Err(Refused::Again(_))) => {
            crate::metrics::mark(crate::metrics::Outcome::Duplicate);
            if !answer_again(ctx, id, update_id).await? {
                return Ok(());
            }
        }
        // A refusal changes nothing, so nothing claimed the update: it is claimed now, so
        // that one process answers it (two polling processes both get every update).
        Ok(Err(_)) => match ctx
            .store
            .claim_update(update_id, &ctx.replica, ctx.config.claim_stale)
            .await
        {
            // Again: this process's own earlier claim, whose handling failed (it holds the
            // update in hand now).
            Ok(Claim::Mine | Claim::Again) | Err(_) => {}
            Ok(Claim::Handled) => return Ok(()),
            Ok(Claim::Elsewhere) => return Err(BotError::Elsewhere),
        },
        _ => {}
    }
    let again = matches!(done, Ok(Err(Refused::Again(_))));
    let refused = matches!(done, Ok(Err(_))) && !again;
    let Some(done) = pressed(ctx, q, lang, done).await? else {
        if refused {
            let _ = ctx.store.finish_update(update_id).await;
        }
        if again {
            answered(ctx, id, update_id).await;
        }
        return Ok(());
    };
    if let Cell::Shot(_) = done.value {
        shot_taken(ctx, &done.record);
    }
    // Noted as answered before the answer goes: a copy posted again after a kill between the
    // two is not answered twice (Telegram refuses that), at the cost of no answer at all.
    answered(ctx, id, update_id).await;
    answer_once(ctx, q, cell_answer(lang, &done.record, &done.value), false).await?;
    follow_up(ctx, id, &done.record);
    Ok(())
}

/// A press's update that came again, its change made: whether to answer it (with the answer
/// its change kept). Not when it was answered; [`BotError::Elsewhere`] while a live process
/// other than this one handles it; yes when the process that made the change died before
/// its answer went (or the claim is not known).
async fn answer_again(ctx: &Ctx, id: GameId, update_id: u32) -> Result<bool, BotError> {
    let claim = ctx.store.press_claim(id, update_id).await?;
    match claim.as_deref() {
        Some("done") => Ok(false),
        Some(owner) if owner != ctx.replica.as_str() && ctx.store.alive(owner).await? => {
            Err(BotError::Elsewhere)
        }
        _ => Ok(true),
    }
}

/// Notes that a press is answered (before its answer goes, and before the update is let
/// go): a copy of it posted again finds it answered.
async fn answered(ctx: &Ctx, id: GameId, update_id: u32) {
    if let Err(e) = ctx.store.press_answered(id, update_id).await {
        log::debug!("press {update_id} of {id}: {e}");
    }
}

/// "Show another block of the field" under the battle message: the shooter's view moves.
pub async fn on_view(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::View(id, generation, block) = button else {
        return Ok(());
    };
    let player = PlayerId(q.from.id.0);
    let on = pressed_on(q);
    let blocks = |r: &GameRecord| crate::view::group::battle_viewport(r).blocks() as u8;
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            came_on(r, Made::Live, player, on.as_ref())?;
            let blocks = blocks(r);
            rules::show_block(r, player, generation, block, blocks)
        })
        .await;
    if pressed(ctx, q, lang, done).await?.is_some() {
        answer(ctx, q, String::new(), false).await?;
        sender::kick(ctx, id);
    }
    Ok(())
}

/// A field's button under the battle message (free-for-all, teams): aim at it.
pub async fn on_target(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Target(id, generation, target) = button else {
        return Ok(());
    };
    let player = PlayerId(q.from.id.0);
    let on = pressed_on(q);
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            came_on(r, Made::Live, player, on.as_ref())?;
            rules::choose_target(r, player, generation, SeatId(target))
        })
        .await;
    if let Some(done) = pressed(ctx, q, lang, done).await? {
        answer(
            ctx,
            q,
            target_answer(lang, &done.record, SeatId(target)),
            false,
        )
        .await?;
        sender::kick(ctx, id);
    }
    Ok(())
}

/// A weapon's button under the battle message (docs/rules.md §3.8): armed for the next
/// cell, or put down.
pub async fn on_arm(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Arm(id, generation, weapon) = button else {
        return Ok(());
    };
    let player = PlayerId(q.from.id.0);
    let on = pressed_on(q);
    let words = |_: &GameRecord, armed: &Option<engine::Weapon>| (armed_words(lang, *armed), false);
    let press = Press {
        query: &q.id.0,
        words: &words,
    };
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| {
            came_on(r, Made::Live, player, on.as_ref())?;
            rules::arm(r, player, generation, weapon, Some(&press))
        })
        .await;
    if let Some(done) = pressed(ctx, q, lang, done).await? {
        answer(ctx, q, armed_words(lang, done.value), false).await?;
        sender::kick(ctx, id);
    }
    Ok(())
}

/// What arming a weapon answers.
fn armed_words(lang: Lang, armed: Option<engine::Weapon>) -> String {
    match armed {
        Some(w) => {
            let name = crate::view::refusal::weapon_name(lang, w);
            let mut chars = name.chars();
            let name = match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => name,
            };
            ta(lang, "weapon-armed", &[("weapon", name.into())])
        }
        None => t(lang, "weapon-disarmed"),
    }
}

/// A press that plays a move on the battle message (a salvo's Fire, a torpedo's way): `play`
/// makes it in one transition with the checks of the message it came on, the answer kept
/// with it; then the shot is counted, the press answered and the game followed up.
async fn move_press(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    play: &rules::PressMove<'_>,
) -> HandlerResult {
    let player = PlayerId(q.from.id.0);
    let on = pressed_on(q);
    let rng = ctx.fork();
    let words = |r: &GameRecord, events: &Vec<Event>| (shot_answer(lang, r, events), false);
    let press = Press {
        query: &q.id.0,
        words: &words,
    };
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            came_on(r, Made::Live, player, on.as_ref())?;
            play(r, &press, &mut rng.clone())
        })
        .await;
    let Some(done) = pressed(ctx, q, lang, done).await? else {
        return Ok(());
    };
    shot_taken(ctx, &done.record);
    answer(ctx, q, shot_answer(lang, &done.record, &done.value), false).await?;
    follow_up(ctx, id, &done.record);
    Ok(())
}

/// A torpedo's heading, asked after a corner was tapped: the torpedo is fired.
pub async fn on_heading(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Heading(id, generation, heading) = button else {
        return Ok(());
    };
    let player = PlayerId(q.from.id.0);
    move_press(ctx, q, lang, id, &|r, press, rng| {
        rules::torpedo_heading(r, player, generation, heading, Some(press), now(), rng)
    })
    .await
}

/// A salvo's Fire button: the cells picked, as they stand when the salvo is played.
pub async fn on_salvo(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::Salvo(id, generation, target) = button else {
        return Ok(());
    };
    let player = PlayerId(q.from.id.0);
    move_press(ctx, q, lang, id, &|r, press, rng| {
        rules::fire_salvo(r, player, generation, target, Some(press), now(), rng)
    })
    .await
}

/// The button under a player's own field in their private chat: the field is brought up to
/// date now rather than when the turn comes to them.
pub async fn on_own_field(ctx: &Ctx, q: &CallbackQuery, lang: Lang, id: GameId) -> HandlerResult {
    let player = PlayerId(q.from.id.0);
    let done = ctx
        .store
        .transition(id, Atomic::plain(), |r| rules::refresh_own_field(r, player))
        .await;
    if pressed(ctx, q, lang, done).await?.is_some() {
        answer(ctx, q, t(lang, "own-field-refreshed"), false).await?;
        sender::kick(ctx, id);
    }
    Ok(())
}

/// The button of a cell given up after a mine, in the shooter's private chat.
pub async fn on_give_up(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let Button::GiveUp(id, deadline, index) = button else {
        return Ok(());
    };
    let player = PlayerId(q.from.id.0);
    let on = pressed_on(q);
    let rng = ctx.fork();
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            came_on(r, Made::Mine, player, on.as_ref())?;
            rules::give_up(r, player, deadline, index, now(), &mut rng.clone())
        })
        .await;
    let Some(done) = pressed(ctx, q, lang, done).await? else {
        return Ok(());
    };
    let words = done
        .value
        .iter()
        .find_map(|e| gave_up_words(lang, &done.record, e))
        .unwrap_or_default();
    answer(ctx, q, words, false).await?;
    follow_up(ctx, id, &done.record);
    Ok(())
}

/// The emoji a typed move that was played gets at once.
const PLAYED: &str = "👍";

/// A typed shot or move that was played gets a 👍 on the player's message at once: its result
/// shows with the next redraw of the battle's message, which may wait for the group's budget
/// (a reaction is no message and takes none of it).
pub async fn acknowledge(ctx: &Ctx, m: &Message) {
    let reaction = teloxide::types::ReactionType::Emoji {
        emoji: PLAYED.to_owned(),
    };
    let done = ctx
        .bot
        .set_message_reaction(m.chat.id, m.id)
        .reaction(vec![reaction])
        .metered()
        .await;
    if let Err(e) = done {
        log::debug!("a reaction in {}: {e}", m.chat.id);
    }
}

/// A typed move that was refused: the words go to the player's private chat, as the group's
/// budget of about 20 messages a minute is for the battle; in a private game they answer the
/// move typed there.
pub async fn refuse_typed(ctx: &Ctx, m: &Message, text: String) -> HandlerResult {
    if m.chat.is_private() {
        return reply(ctx, m, escape(&text)).await;
    }
    let to = m.from.as_ref().map_or(m.chat.id, |u| ChatId(u.id.0 as i64));
    ctx.bot
        .send_message(to, escape(&text))
        .parse_mode(ParseMode::Html)
        .metered()
        .await?;
    Ok(())
}

/// Whether `replied` is the battle message of game `id`: the one the record names, or (in
/// the moment between its sending and the record learning its id) one whose buttons fire in
/// this game.
pub fn is_battle_message(rec: &GameRecord, id: GameId, replied: &Message) -> bool {
    let fires_here = replied.reply_markup().is_some_and(|kb| {
        kb.inline_keyboard.iter().flatten().any(|b| {
            matches!(&b.kind, teloxide::types::InlineKeyboardButtonKind::CallbackData(d)
                if matches!(Button::parse(d), Some(Button::Fire(g, ..)) if g == id))
        })
    });
    rec.delivery.message == Some(replied.id.0) || fires_here
}

/// A reply in a chat whose game (`rec`, as the dispatcher loaded it) is Sea Battle, in a
/// group or in the private chat of a game against the bot: a typed cell (a salvo's cells in
/// a row: "b6 c7 d8") or weapon ("радар д5") in reply to the battle message plays it, by the
/// same transitions as the buttons; a reply to another message is let be.
pub async fn on_text(ctx: &Ctx, msg: &Message, id: GameId, rec: &GameRecord) -> HandlerResult {
    let (Some(user), Some(text), Some(replied)) =
        (msg.from.as_ref(), msg.text(), msg.reply_to_message())
    else {
        return Ok(());
    };
    if !is_battle_message(rec, id, replied) {
        log::debug!(
            "a reply to {} is not to the battle message {:?}",
            replied.id.0,
            rec.delivery.message
        );
        return Ok(());
    }
    let lang = user_lang(ctx, user).await;
    let player = PlayerId(user.id.0);
    if rec.game.seat_of(player).is_none() {
        return reply(ctx, msg, t(lang, "error-not-a-player")).await;
    }
    let size = rec.game.ruleset().size();
    if let Some(weapon) = render::typed_weapon(text, rec.alphabet, size) {
        let Ok(weapon) = weapon else {
            return reply(ctx, msg, t(lang, "weapon-typed-bad")).await;
        };
        let rng = ctx.fork();
        let due = due(ctx);
        let done = ctx
            .store
            .transition(id, Atomic::due(Some(&due)), |r| {
                rules::typed_weapon(r, player, weapon, now(), &mut rng.clone())
            })
            .await;
        return typed_done(ctx, msg, id, lang, done).await;
    }
    let cells: Result<Vec<Coord>, _> = if rec.game.ruleset().salvo.is_some() {
        text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|w| !w.is_empty())
            .map(|w| parse_cell(w, rec.alphabet, size))
            .collect()
    } else {
        parse_cell(text, rec.alphabet, size).map(|c| vec![c])
    };
    let Ok(cells) = cells else {
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
    };
    let rng = ctx.fork();
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            rules::typed(r, player, cells.clone(), now(), &mut rng.clone())
        })
        .await;
    match done {
        Ok(Ok(done)) => {
            shot_taken(ctx, &done.record);
            acknowledge(ctx, msg).await;
            follow_up(ctx, id, &done.record);
            Ok(())
        }
        Ok(Err(Refused::Rules(engine::ActionError::NotYourTurn)))
            if rec
                .game
                .targets(rec.game.seat_of(player).unwrap_or(SeatId(0)))
                .is_empty() =>
        {
            reply(ctx, msg, t(lang, "shot-not-your-turn")).await
        }
        Ok(Err(r)) => refuse_typed(ctx, msg, refusal::words(lang, &r)).await,
        Err(e) => refuse_typed(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}

/// `/surrender` in a Sea Battle game `id` (in the group, or in the private chat).
pub async fn on_surrender(
    ctx: &Ctx,
    msg: &Message,
    user: &User,
    lang: Lang,
    id: GameId,
) -> HandlerResult {
    let player = PlayerId(user.id.0);
    let rng = ctx.fork();
    let due = due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            rules::surrender(r, player, now(), &mut rng.clone())
        })
        .await;
    match done {
        Ok(Ok(done)) => {
            follow_up(ctx, id, &done.record);
            if msg.chat.is_private() {
                reply(ctx, msg, t(lang, "surrender-done")).await?;
            }
            Ok(())
        }
        Ok(Err(r)) => reply(ctx, msg, refusal::words(lang, &r)).await,
        Err(StoreError::NotFound) => reply(ctx, msg, t(lang, "error-no-game")).await,
        Err(e) => reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}

/// What a typed weapon did: acknowledged and followed up, or refused in the player's private
/// chat.
async fn typed_done(
    ctx: &Ctx,
    msg: &Message,
    id: GameId,
    lang: Lang,
    done: Result<Result<crate::store::Committed<Vec<Event>>, Refused>, StoreError>,
) -> HandlerResult {
    match done {
        Ok(Ok(done)) => {
            shot_taken(ctx, &done.record);
            acknowledge(ctx, msg).await;
            follow_up(ctx, id, &done.record);
            Ok(())
        }
        Ok(Err(r)) => refuse_typed(ctx, msg, refusal::words(lang, &r)).await,
        Err(e) => refuse_typed(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}
