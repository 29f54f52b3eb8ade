//! The battle: shots by buttons and by typed replies to the battle message, the answers,
//! each player's own field in their private chat, surrender and the turn timer.

use super::callback::Button;
use super::commands::reply;
use super::group::{battle_viewport, live_message, redraw};
use super::placement::{edit_dm, user_lang_by_id};
use super::render::{self, escape, field_text};
use super::{answer, answer_store_error, now, Ctx, HandlerResult};
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::GameRecord;
use crate::store::{Committed, GameId, StoreError};
use engine::{parse_cell, Action, ActionError, Coord, Event, Phase, PlayerId, SeatId, ShotResult};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, ParseMode, User};

/// A player's own field as they see it: their ships and every shot the enemy took at them.
pub fn own_field_text(rec: &GameRecord, lang: Lang, seat: SeatId) -> String {
    let view = rec.game.view_for(seat);
    let field = view.field(seat);
    let mut text = format!(
        "<b>{}</b>\n<pre>{}</pre>",
        t(lang, "own-field-title"),
        field_text(field, rec.alphabet)
    );
    let key = match rec.game.phase() {
        Phase::Placement => "own-field-waiting",
        Phase::Battle if rec.game.turn() == seat => "own-field-your-turn",
        Phase::Battle => "own-field-their-turn",
        _ => "own-field-over",
    };
    text.push_str(&format!("\n{}", t(lang, key)));
    text
}

/// The battle begins: a new live message in the group, the lobby's buttons retired, and
/// each player's private message turned into their own field.
pub async fn begin(ctx: &Ctx, id: GameId) -> HandlerResult {
    let done = ctx
        .store
        .transition(id, |rec| {
            rec.generation += 1;
            Ok::<_, ()>(rec.message.take())
        })
        .await?;
    let Ok(done) = done else { return Ok(()) };
    let rec = done.record;
    let chat = ChatId(rec.chat);
    if let Some(old) = done.value {
        // The lobby's buttons are retired; the battle gets a message of its own.
        let lobby_done = t(rec.lang, "lobby-battle-started");
        super::pace(ctx, chat).await;
        let _ = ctx
            .bot
            .edit_message_text(chat, teloxide::types::MessageId(old), lobby_done)
            .await;
    }
    let (text, kb) = live_message(&rec, id, &ctx.username);
    super::pace(ctx, chat).await;
    let mut req = ctx.bot.send_message(chat, text).parse_mode(ParseMode::Html);
    if let Some(kb) = kb {
        req = req.reply_markup(kb);
    }
    let sent = req.await?;
    ctx.store
        .transition(id, |r| {
            r.message = Some(sent.id.0);
            Ok::<_, ()>(())
        })
        .await?
        .ok();
    ctx.store
        .schedule(id, super::ai::deadline(ctx, &rec))
        .await?;
    let everyone: Vec<SeatId> = (0..rec.game.seats().len() as u8).map(SeatId).collect();
    refresh_dms(ctx, &rec, &everyone).await;
    super::ai::wake(ctx, &rec, id);
    Ok(())
}

/// The seats whose private field these events change: the fields shot at, and everyone's
/// when the turn passes or the game ends (their "your turn" line changes).
fn changed_fields(rec: &GameRecord, events: &[Event]) -> Vec<SeatId> {
    let all: Vec<SeatId> = (0..rec.game.seats().len() as u8).map(SeatId).collect();
    let mut actor = None;
    let mut out = Vec::new();
    for e in events {
        match *e {
            Event::Shot {
                shooter, target, ..
            }
            | Event::Salvo {
                shooter, target, ..
            } => {
                actor = Some(shooter);
                out.push(target);
            }
            Event::GaveUp { seat, .. } => {
                actor = Some(seat);
                out.push(seat);
            }
            Event::Turn(s) if actor != Some(s) => return all,
            Event::Finished { .. } | Event::Forfeit(_) | Event::Surrendered(_) => return all,
            _ => {}
        }
    }
    out
}

/// The players' own fields in their private chats, for `seats`.
async fn refresh_dms(ctx: &Ctx, rec: &GameRecord, seats: &[SeatId]) {
    for (i, seat) in rec.game.seats().iter().enumerate() {
        if !seats.contains(&SeatId(i as u8)) {
            continue;
        }
        if let Some(Some(m)) = rec.dms.get(i) {
            let user = seat.player.0;
            let lang = user_lang_by_id(ctx, user).await;
            edit_dm(
                ctx,
                user,
                *m,
                own_field_text(rec, lang, SeatId(i as u8)),
                None,
            )
            .await;
        }
    }
}

/// Applies an action of the battle in a transition, logging its results.
async fn play(
    ctx: &Ctx,
    id: GameId,
    action: Action,
) -> Result<Result<Committed<Vec<Event>>, ActionError>, StoreError> {
    let rng = ctx.fork();
    ctx.store
        .transition(id, |rec| {
            let events = rec.game.apply(action.clone(), now(), &mut rng.clone())?;
            rec.push_log(&events);
            Ok(events)
        })
        .await
}

/// After an accepted move: the timer, the group's message, the private fields, the end.
pub async fn after(ctx: &Ctx, id: GameId, done: &Committed<Vec<Event>>) -> HandlerResult {
    let rec = &done.record;
    ctx.store
        .schedule(id, super::ai::deadline(ctx, rec))
        .await?;
    redraw(ctx, id, rec.chat).await;
    refresh_dms(ctx, rec, &changed_fields(rec, &done.value)).await;
    if rec.game.is_finished() {
        super::group::finish_soon(ctx, id);
    } else {
        super::ai::wake(ctx, rec, id);
    }
    Ok(())
}

/// The words for the shooter's answer.
fn shot_answer(lang: Lang, rec: &GameRecord, events: &[Event]) -> String {
    let size = rec.game.ruleset().size();
    for e in events {
        if let Event::Shot { cell, result, .. } = e {
            let key = match result {
                ShotResult::Miss => "answer-miss",
                ShotResult::Hit => "answer-hit",
                ShotResult::Sunk(_) => "answer-sunk",
                ShotResult::Mine => "answer-mine",
            };
            let ship = match result {
                ShotResult::Sunk(k) => render::kind_name(lang, *k),
                _ => String::new(),
            };
            let cell = render::cell_name(*cell, rec.alphabet, size);
            return ta(lang, key, &[("cell", cell.into()), ("ship", ship.into())]);
        }
    }
    String::new()
}

/// The localisation key for a refused shot.
fn refusal_key(e: &ActionError) -> &'static str {
    match e {
        ActionError::NotYourTurn => "shot-not-your-turn",
        ActionError::AlreadyKnown(_) => "shot-already-known",
        ActionError::GameOver => "error-game-over",
        ActionError::NotInGame => "error-not-a-player",
        ActionError::OffField(_) => "shot-off-field",
        ActionError::BadTarget => "shot-bad-target",
        _ => "error-out-of-date",
    }
}

/// The battle's buttons: a cell to shoot, or another block of the field.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let (id, generation) = match button {
        Button::Fire(g, n, ..) | Button::View(g, n, _) => (g, n),
        _ => return Ok(()),
    };
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => return answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    if rec.game.is_finished() {
        return answer(ctx, q, t(lang, "error-game-over"), true).await;
    }
    if generation != rec.generation || rec.game.phase() != &Phase::Battle {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    let Some(seat) = rec.game.seat_of(PlayerId(q.from.id.0)) else {
        return answer(ctx, q, t(lang, "error-not-a-player"), true).await;
    };
    match button {
        Button::View(_, _, block) => {
            if rec.game.turn() != seat {
                return answer(ctx, q, t(lang, "shot-not-your-turn"), true).await;
            }
            let blocks = battle_viewport(&rec).blocks() as u8;
            let done = ctx
                .store
                .transition(id, |r| {
                    r.block = block % blocks.max(1);
                    Ok::<_, ()>(())
                })
                .await;
            if let Err(e) = done {
                return answer_store_error(ctx, q, lang, &e).await;
            }
            answer(ctx, q, String::new(), false).await?;
            redraw(ctx, id, rec.chat).await;
            Ok(())
        }
        Button::Fire(_, _, target, index) => {
            let size = rec.game.ruleset().size();
            if usize::from(index) >= size.area() {
                return answer(ctx, q, t(lang, "error-unknown-button"), true).await;
            }
            let cell = size.coord(usize::from(index));
            shoot(
                ctx,
                id,
                lang,
                seat,
                SeatId(target),
                cell,
                Reply::Callback(q),
            )
            .await
        }
        _ => Ok(()),
    }
}

/// Where the shooter's answer goes.
enum Reply<'a> {
    Callback(&'a CallbackQuery),
    Message(&'a Message),
}

async fn say(ctx: &Ctx, to: &Reply<'_>, text: String, alert: bool) -> HandlerResult {
    match to {
        Reply::Callback(q) => answer(ctx, q, text, alert).await,
        // A typed shot's answer is the group's log line. A refusal goes to the player's
        // private chat: the group's budget of about 20 messages a minute is for the battle.
        Reply::Message(m) if alert => {
            let to = m.from.as_ref().map_or(m.chat.id, |u| ChatId(u.id.0 as i64));
            ctx.bot
                .send_message(to, escape(&text))
                .parse_mode(ParseMode::Html)
                .await?;
            Ok(())
        }
        Reply::Message(_) => Ok(()),
    }
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
    match play(ctx, id, Action::Fire(seat, target, cell)).await {
        Ok(Ok(done)) => {
            // The timer first: should this process die right after the answer, another
            // finds the game due (the bot's move after a miss, the turn timer).
            ctx.store
                .schedule(id, super::ai::deadline(ctx, &done.record))
                .await?;
            say(
                ctx,
                &to,
                shot_answer(lang, &done.record, &done.value),
                false,
            )
            .await?;
            after(ctx, id, &done).await
        }
        Ok(Err(e)) => say(ctx, &to, t(lang, refusal_key(&e)), true).await,
        Err(e) => say(ctx, &to, t(lang, super::store_error_key(&e)), true).await,
    }
}

/// Plain text: a typed cell in reply to the battle message shoots.
pub async fn on_text(ctx: Ctx, msg: Message) -> HandlerResult {
    let (Some(user), Some(text), Some(replied)) =
        (msg.from.clone(), msg.text(), msg.reply_to_message())
    else {
        return Ok(());
    };
    if msg.chat.is_private() {
        return Ok(());
    }
    let Ok(Some(id)) = ctx.store.chat_game(msg.chat.id.0).await else {
        return Ok(());
    };
    let Ok((rec, _)) = ctx.store.load_game(id).await else {
        return Ok(());
    };
    if rec.message != Some(replied.id.0) {
        log::debug!(
            "a reply to {} is not to the battle message {:?}",
            replied.id.0,
            rec.message
        );
        return Ok(());
    }
    let lang = super::user_lang(&ctx, &user).await;
    let Some(seat) = rec.game.seat_of(PlayerId(user.id.0)) else {
        return reply(&ctx, &msg, t(lang, "error-not-a-player")).await;
    };
    let size = rec.game.ruleset().size();
    let cell = match parse_cell(text, rec.alphabet, size) {
        Ok(c) => c,
        Err(e) => {
            let first = render::cell_name(Coord::new(0, 0), rec.alphabet, size);
            let last = render::cell_name(
                Coord::new(size.width - 1, size.height - 1),
                rec.alphabet,
                size,
            );
            let _ = e;
            let words = ta(
                lang,
                "shot-bad-cell",
                &[("first", first.into()), ("last", last.into())],
            );
            return reply(&ctx, &msg, escape(&words)).await;
        }
    };
    let Some(&target) = rec.game.targets(seat).first() else {
        return reply(&ctx, &msg, t(lang, "shot-not-your-turn")).await;
    };
    shoot(&ctx, id, lang, seat, target, cell, Reply::Message(&msg)).await
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

/// The turn timer: every tick, games whose reminder, forfeit or mine choice is due get
/// [`Action::Tick`]. Safe with several replicas: the transition is atomic, and a tick with
/// nothing to do changes nothing.
pub async fn tick_forever(ctx: Ctx) {
    loop {
        tokio::time::sleep(ctx.config.tick).await;
        // A redraw whose drawer crashed (its lease expired with the mark still set) is
        // picked up here, by any replica.
        let stale = now().saturating_sub(super::group::redraw_hold(&ctx, -1).as_secs() + 1);
        if let Ok(redraws) = ctx.store.stale_redraws(stale).await {
            for (chat, id) in redraws {
                redraw(&ctx, id, chat).await;
            }
        }
        let due = match ctx.store.due(now()).await {
            Ok(due) => due,
            Err(e) => {
                log::debug!("timer: {e}");
                continue;
            }
        };
        for id in due {
            log::debug!("timer: game {id} is due");
            match play(&ctx, id, Action::Tick).await {
                Ok(Ok(done)) => {
                    if done.value.is_empty() {
                        // Nothing was due but, perhaps, the bot's move after a crash.
                        let deadline = super::ai::deadline(&ctx, &done.record);
                        let _ = ctx.store.schedule(id, deadline).await;
                        super::ai::wake(&ctx, &done.record, id);
                    } else if let Err(e) = after(&ctx, id, &done).await {
                        log::warn!("timer of {id}: {e}");
                    }
                }
                Ok(Err(_)) | Err(StoreError::NotFound) => {
                    let _ = ctx.store.schedule(id, None).await;
                }
                Err(e) => log::warn!("timer of {id}: {e}"),
            }
        }
    }
}
