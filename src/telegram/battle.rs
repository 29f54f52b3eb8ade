//! The battle: shots by buttons and by typed replies to the battle message, the answers,
//! surrender and the turn timer; each player's own field lives in `own_field.rs`, aiming and
//! salvoes in `aim.rs`, the cell given up after a mine in `mine.rs`.

use super::callback::Button;
use super::commands::reply;
use super::group::{battle_viewport, redraw};
use super::own_field::changed_fields;
pub use super::own_field::own_field_text;
use super::render::{self, escape};
use super::{answer, answer_store_error, now, Ctx, HandlerResult};
use crate::effects::Effect;
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::{Aim, GameRecord};
use crate::store::{Committed, GameId, StoreError};
use engine::{parse_cell, Action, ActionError, Coord, Event, Phase, PlayerId, SeatId, ShotResult};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, ParseMode, User};

/// Applies an action of the battle in a transition, logging its results.
pub(super) async fn play(
    ctx: &Ctx,
    id: GameId,
    action: Action,
) -> Result<Result<Committed<Vec<Event>>, ActionError>, StoreError> {
    play_with(ctx, id, None, |_| Ok(action.clone())).await
}

/// Applies the action `choose` makes of the record as it stands in the transition (a salvo
/// of the cells picked by then), logging its results. A shot at another field becomes the
/// shooter's aim.
pub(super) async fn play_with(
    ctx: &Ctx,
    id: GameId,
    press: Option<(&str, Lang)>,
    choose: impl Fn(&GameRecord) -> Result<Action, ActionError>,
) -> Result<Result<Committed<Vec<Event>>, ActionError>, StoreError> {
    let rng = ctx.fork();
    let due = |r: &GameRecord| super::ai::deadline(ctx, r);
    ctx.store
        .transition_due(id, Some(&due), |rec| {
            let action = choose(rec)?;
            apply_move(rec, action, press, &mut rng.clone())
        })
        .await
}

/// Applies `action` to the record in a transition: the game's events, the shooter's aim, the
/// log, the outbox, and the answer a press earned (kept with the move: should the answer be
/// lost, the press's update comes again and gets it).
fn apply_move(
    rec: &mut GameRecord,
    action: Action,
    press: Option<(&str, Lang)>,
    rng: &mut rand::rngs::StdRng,
) -> Result<Vec<Event>, ActionError> {
    let events = rec.game.apply(action.clone(), now(), rng)?;
    if let Action::Fire(shooter, target, _) | Action::Salvo(shooter, target, _) = action {
        if super::group::is_aimed(rec) {
            rec.aim = Some(Aim {
                shooter,
                target,
                picked: Vec::new(),
            });
        }
    }
    rec.push_log(&events);
    queue_effects(rec, &events);
    if let Some((query, lang)) = press {
        let text = shot_answer(lang, rec, &events);
        rec.remember_answer(query, &text, false);
    }
    Ok(events)
}

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
    let due = |r: &GameRecord| super::ai::deadline(ctx, r);
    let done = ctx
        .store
        .transition_settled(id, Some(&due), &NotFired::settled, |rec| {
            if let Some(again) = rec.answered(&q.id.0) {
                return Err(NotFired::Again(again.text.clone(), again.alert));
            }
            if rec.game.is_finished() {
                return Err(NotFired::Words("error-game-over"));
            }
            if generation != rec.generation || rec.game.phase() != &Phase::Battle {
                return Err(NotFired::Stale(rec.generation > generation));
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
            apply_move(rec, action, Some((&q.id.0, lang)), &mut rng.clone())
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

/// Puts in the outbox what a move makes visible besides the live message: the private
/// fields it changed, and the mine question it asked or answered.
pub(super) fn queue_effects(rec: &mut GameRecord, events: &[Event]) {
    for seat in changed_fields(rec, events) {
        if !rec.is_ai_seat(seat) {
            rec.push_effect(Effect::Dm { seat: seat.0 });
        }
    }
    if events
        .iter()
        .any(|e| matches!(e, Event::MineChoice { .. } | Event::GaveUp { .. }))
    {
        rec.push_effect(Effect::Mine {
            events: events.to_vec(),
        });
    }
}

/// After an accepted move (its timer was set with it): the sender, the bot's turn.
pub async fn after(ctx: &Ctx, id: GameId, done: &Committed<Vec<Event>>) -> HandlerResult {
    follow_up(ctx, id, done);
    Ok(())
}

/// What follows a move: the sender wakes, and the bot moves if it is its turn.
fn follow_up(ctx: &Ctx, id: GameId, done: &Committed<Vec<Event>>) {
    super::outbox::kick(ctx, id);
    if !done.record.game.is_finished() {
        super::ai::wake(ctx, &done.record, id);
    }
}

/// The most characters of a name in an answer to a button (Telegram takes 200 in all).
pub(super) const NAME_IN_ANSWER: usize = 32;

/// The words for the shooter's answer; in games of more than two fields, a fleet it sank
/// is named too, so the shooter turns to another field.
pub(super) fn shot_answer(lang: Lang, rec: &GameRecord, events: &[Event]) -> String {
    let size = rec.game.ruleset().size();
    let mut out = String::new();
    for e in events {
        match e {
            Event::Shot {
                target,
                cell,
                result,
                ..
            } => {
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
                out = ta(lang, key, &[("cell", cell.into()), ("ship", ship.into())]);
                if super::group::is_aimed(rec) {
                    let name = rec.short_name(*target, NAME_IN_ANSWER);
                    out = ta(
                        lang,
                        "battle-answer-at",
                        &[("target", name.into()), ("answer", out.into())],
                    );
                }
            }
            Event::Salvo {
                hits, mines, sunk, ..
            } => {
                out = ta(
                    lang,
                    if *mines > 0 {
                        "salvo-answer-mine"
                    } else {
                        "salvo-answer"
                    },
                    &[
                        ("hits", (*hits).into()),
                        ("mines", (*mines).into()),
                        ("rest", render::salvo_rest(lang, *mines, sunk).into()),
                    ],
                );
            }
            Event::Eliminated(s) if super::group::is_aimed(rec) && !out.is_empty() => {
                let name = rec.short_name(*s, NAME_IN_ANSWER);
                out.push(' ');
                out.push_str(&ta(lang, "battle-eliminated", &[("name", name.into())]));
            }
            _ => {}
        }
    }
    out
}

/// The words for a refused move.
pub(super) fn refusal(lang: Lang, e: &ActionError) -> String {
    let key = match e {
        ActionError::NotYourTurn => "shot-not-your-turn",
        ActionError::AlreadyKnown(_) => "shot-already-known",
        ActionError::GameOver => "error-game-over",
        ActionError::NotInGame => "error-not-a-player",
        ActionError::OffField(_) => "shot-off-field",
        ActionError::BadTarget => "shot-bad-target",
        ActionError::MineChoicePending => "mine-pending",
        ActionError::WrongShotKind => "battle-wrong-shot",
        ActionError::NoMineChoice => "mine-no-choice",
        ActionError::NotYourCell(_) => "mine-not-your-cell",
        ActionError::SalvoSize { expected } => {
            return ta(lang, "salvo-bad-cells", &[("count", (*expected).into())]);
        }
        _ => "error-out-of-date",
    };
    t(lang, key)
}

/// The battle's buttons: a cell to shoot (or, in salvo games, to pick), another block of the
/// field, a field to aim at, the salvo's Fire, and the cell given up after a mine.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let (id, generation) = match button {
        Button::Fire(g, n, ..)
        | Button::View(g, n, _)
        | Button::Target(g, n, _)
        | Button::Salvo(g, n, _) => (g, Some(n)),
        Button::GiveUp(g, ..) => (g, None),
        _ => return Ok(()),
    };
    let Some(rec) = super::game_for_button(ctx, q, lang, id).await? else {
        return Ok(());
    };
    let stale = generation.is_some_and(|n| n != rec.generation);
    if stale || rec.game.phase() != &Phase::Battle {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    }
    let Some(seat) = rec.game.seat_of(PlayerId(q.from.id.0)) else {
        return answer(ctx, q, t(lang, "error-not-a-player"), true).await;
    };
    let size = rec.game.ruleset().size();
    // Redraws of the group's message are paced, so right after the shooter chose another
    // field its keyboard may still show the one before: its cells go to the field chosen.
    let aimed = |target: u8| match rec.current_aim() {
        Some(aim) if aim.shooter == seat => aim.target,
        _ => SeatId(target),
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
        Button::Target(_, _, target) => {
            super::aim::choose_target(ctx, q, lang, &rec, id, seat, SeatId(target)).await
        }
        Button::Salvo(_, _, target) => {
            super::aim::fire_salvo(ctx, q, lang, &rec, id, seat, aimed(target)).await
        }
        Button::GiveUp(_, deadline, index) => {
            if usize::from(index) >= size.area() {
                return answer(ctx, q, t(lang, "error-unknown-button"), true).await;
            }
            let cell = size.coord(usize::from(index));
            super::mine::give_up(ctx, q, lang, &rec, id, seat, deadline, cell).await
        }
        Button::Fire(_, _, target, index) => {
            if usize::from(index) >= size.area() {
                return answer(ctx, q, t(lang, "error-unknown-button"), true).await;
            }
            let cell = size.coord(usize::from(index));
            let target = aimed(target);
            if rec.game.ruleset().salvo.is_some() {
                return super::aim::pick(ctx, q, lang, &rec, id, seat, target, cell).await;
            }
            shoot(ctx, id, lang, seat, target, cell, Reply::Callback(q)).await
        }
        _ => Ok(()),
    }
}

/// Where the shooter's answer goes.
pub(super) enum Reply<'a> {
    Callback(&'a CallbackQuery),
    Message(&'a Message),
}

pub(super) async fn say(ctx: &Ctx, to: &Reply<'_>, text: String, alert: bool) -> HandlerResult {
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

/// A shot or salvo was taken (its timer was set with it, so should this process die right
/// after the answer, another finds the game due): the shooter's answer, then the rest.
pub(super) async fn accepted(
    ctx: &Ctx,
    id: GameId,
    lang: Lang,
    done: &Committed<Vec<Event>>,
    to: &Reply<'_>,
) -> HandlerResult {
    super::crash_point(if done.record.game.is_finished() {
        "final-shot"
    } else {
        "shot"
    });
    say(ctx, to, shot_answer(lang, &done.record, &done.value), false).await?;
    follow_up(ctx, id, done);
    Ok(())
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
    // The battle message of this game: the one the record names, or (in the moment between
    // its sending and the record learning its id) one whose buttons fire in this game.
    let fires_here = replied.reply_markup().is_some_and(|kb| {
        kb.inline_keyboard.iter().flatten().any(|b| {
            matches!(&b.kind, teloxide::types::InlineKeyboardButtonKind::CallbackData(d)
                if matches!(Button::parse(d), Some(Button::Fire(g, ..)) if g == id))
        })
    });
    if rec.message != Some(replied.id.0) && !fires_here {
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
            return reply(&ctx, &msg, escape(&words)).await;
        }
    };
    let target = match rec.current_aim() {
        Some(aim) if aim.shooter == seat => aim.target,
        _ => match rec.game.targets(seat).first() {
            Some(&t) => t,
            None => return reply(&ctx, &msg, t(lang, "shot-not-your-turn")).await,
        },
    };
    if salvo {
        let action = Action::Salvo(seat, target, cells);
        return super::aim::fire(&ctx, id, lang, action, Reply::Message(&msg)).await;
    }
    shoot(&ctx, id, lang, seat, target, cells[0], Reply::Message(&msg)).await
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
        super::write_metrics();
        // Outboxes whose sender died, or that were filled on another replica.
        super::outbox::poll(&ctx).await;
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
