//! Playing a move, the core every flow shares: apply an action inside an atomic store
//! transition with the effects it implies, answer the shooter, wake the sender and the bot's
//! seats; and the bot's own turns and the turn timers.

use super::{answer, now, Ctx, HandlerResult};
use crate::game::battle::{is_aimed, remember_salvo};
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::store::{Committed, GameId, StoreError};
use crate::view::i18n::{t, ta};
use crate::view::render::{self, escape};
use engine::ai::{
    choose_give_up, choose_salvo_informed, choose_shot_within, Budget, Level, SalvoReport,
};
use engine::Habits;
use engine::{Action, ActionError, Event, Phase, PlayerId, SeatId, ShotResult};
use std::sync::Arc;
use std::time::Duration;
use teloxide::payloads::SendMessageSetters;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatAction, ChatId, ParseMode};

/// Applies an action of the battle in a transition, logging its results.
pub async fn play(
    ctx: &Ctx,
    id: GameId,
    action: Action,
) -> Result<Result<Committed<Vec<Event>>, ActionError>, StoreError> {
    play_with(ctx, id, None, |_| Ok(action.clone())).await
}

/// Applies the action `choose` makes of the record as it stands in the transition (a salvo
/// of the cells picked by then), logging its results. A shot at another field becomes the
/// shooter's aim.
pub async fn play_with(
    ctx: &Ctx,
    id: GameId,
    press: Option<(&str, Lang)>,
    choose: impl Fn(&GameRecord) -> Result<Action, ActionError>,
) -> Result<Result<Committed<Vec<Event>>, ActionError>, StoreError> {
    let rng = ctx.fork();
    let due = |r: &GameRecord| super::play::deadline(ctx, r);
    ctx.store
        .transition_due(id, Some(&due), |rec| {
            let action = choose(rec)?;
            apply_and_answer(rec, action, press, &mut rng.clone())
        })
        .await
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
        super::play::wake(ctx, &done.record, id);
    }
}

/// Where the shooter's answer goes.
pub enum Reply<'a> {
    Callback(&'a CallbackQuery),
    Message(&'a Message),
}

pub async fn say(ctx: &Ctx, to: &Reply<'_>, text: String, alert: bool) -> HandlerResult {
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
        Reply::Message(m) => {
            acknowledge(ctx, m).await;
            Ok(())
        }
    }
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
        .await;
    if let Err(e) = done {
        log::debug!("a reaction in {}: {e}", m.chat.id);
    }
}

/// A shot or salvo was taken (its timer was set with it, so should this process die right
/// after the answer, another finds the game due): the shooter's answer, then the rest.
pub async fn accepted(
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

/// The turn timer: every tick, games whose reminder, forfeit or mine choice is due get
/// [`Action::Tick`]. Safe with several replicas: the transition is atomic, and a tick with
/// nothing to do changes nothing.
pub async fn tick_forever(ctx: Ctx) {
    loop {
        tokio::time::sleep(ctx.config.tick).await;
        super::health::ticked();
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
                Ok(Ok(done)) if done.record.is_riga() => {
                    super::riga_core::on_due(&ctx, id).await;
                }
                Ok(Ok(done)) => {
                    if done.value.is_empty() {
                        // Nothing was due but, perhaps, the bot's move after a crash.
                        let deadline = super::play::deadline(&ctx, &done.record);
                        let _ = ctx.store.schedule(id, deadline).await;
                        super::play::wake(&ctx, &done.record, id);
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

/// The most time the bot may think about one move (the hard level stops sampling then; on
/// the classic field it needs far less).
const THINKING: Duration = Duration::from_millis(1500);

/// How long the handler of the last Ready has to send the battle's message before the timer
/// does it in its place.
const BEGIN_GRACE: Duration = Duration::from_secs(5);

/// When the timer should look at a game: its own deadline; while the bot is to move, soon
/// after a thinker's lease would run out (so a crash mid-thought delays it by seconds); and
/// soon after the last fleet is locked, until the battle's message is out.
pub fn deadline(ctx: &Ctx, rec: &GameRecord) -> Option<u64> {
    if rec.is_riga() {
        return super::riga_core::deadline(ctx, rec);
    }
    let own = rec.game.next_deadline();
    if *rec.game.phase() == engine::Phase::Battle && !rec.delivery.begun {
        // The battle's message is still to be sent: should its sender die, the timer sends it.
        return Some(now() + BEGIN_GRACE.as_secs());
    }
    match rec.ai_to_move() {
        Some(_) => {
            let soon = now() + super::ai_turns::move_lease(ctx, THINKING).as_secs() + 1;
            Some(own.map_or(soon, |d| d.min(soon)))
        }
        None => own,
    }
}

/// Lets the bot move if it is its turn (in the background).
pub fn wake(ctx: &Ctx, rec: &GameRecord, id: GameId) {
    if rec.is_riga() {
        return super::riga_core::wake(ctx, rec, id);
    }
    if rec.ai_to_move().is_none() || rec.game.is_finished() {
        return;
    }
    log::debug!("game {id}: the bot is to move");
    super::ai_turns::spawn(ctx, id, SeaBattle::default(), "the bot's move");
}

/// Sea Battle as the bot plays it: what the learning level learned, read once for the bot's
/// moves in a row.
#[derive(Default)]
struct SeaBattle {
    learned: Option<Arc<Habits>>,
}

impl super::ai_turns::Mover for SeaBattle {
    type Seat = SeatId;
    const THINKING: Duration = THINKING;

    fn to_move(&self, rec: &GameRecord) -> Option<SeatId> {
        rec.ai_to_move()
    }

    fn think_and_move(
        &mut self,
        ctx: &Ctx,
        id: GameId,
        rec: &GameRecord,
        seat: SeatId,
    ) -> impl std::future::Future<Output = Result<bool, super::BotError>> + Send {
        think_and_move(ctx, id, rec, seat, &mut self.learned)
    }
}

/// One move: "typing…", a pause, the choice on the blocking pool, then the shot, applied
/// only if the game is still as the bot saw it. `false` when nothing was played.
async fn think_and_move(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    seat: SeatId,
    learned: &mut Option<Arc<Habits>>,
) -> Result<bool, super::BotError> {
    log::debug!("game {id}: the bot thinks for seat {}", seat.0);
    let _ = ctx
        .bot
        .send_chat_action(ChatId(rec.chat), ChatAction::Typing)
        .await;
    tokio::time::sleep(ctx.config.ai_pause).await;
    let view = rec.game.view_for(seat);
    let level = rec.ai_level;
    let mine = rec.game.mine_choice().is_some();
    let salvos = rec.sea().map_or(&[][..], |sb| &sb.ai_salvos);
    let reports: Vec<SalvoReport> = salvos
        .iter()
        .filter(|s| s.seat == seat.0)
        .map(|s| SalvoReport {
            target: SeatId(s.target),
            cells: s.cells.clone(),
            hits: s.hits,
            mines: s.mines,
        })
        .collect();
    let mut rng = ctx.fork();
    let mut budget = Budget::until(std::time::Instant::now() + THINKING);
    // The learning level learns from the layouts revealed in this chat and in all chats;
    // without them (Redis away) it plays as hard.
    if level == Level::Learning && learned.is_none() {
        let ruleset = rec.game.ruleset().to_string();
        let area = rec.game.ruleset().size().area();
        match ctx.store.layouts(rec.chat, &ruleset).await {
            Ok((chat, all)) => {
                let habits =
                    tokio::task::spawn_blocking(move || Habits::from_codes(&chat, &all, area))
                        .await
                        .ok();
                *learned = habits.map(Arc::new);
            }
            Err(e) => log::warn!("game {id}: no layouts to learn from: {e}"),
        }
    }
    if let Some(habits) = learned.as_ref().filter(|_| level == Level::Learning) {
        budget = budget.learning(habits.clone());
    }
    let choice = tokio::task::spawn_blocking(move || {
        if mine {
            choose_give_up(&view, seat, &mut rng).map(|c| Action::GiveUp(seat, c))
        } else if view.ruleset.salvo.is_some() {
            choose_salvo_informed(&view, seat, level, &reports, &mut rng, budget)
                .map(|(target, cells)| Action::Salvo(seat, target, cells))
        } else {
            choose_shot_within(&view, seat, level, &mut rng, budget)
                .map(|(target, cell)| Action::Fire(seat, target, cell))
        }
    })
    .await
    .ok()
    .flatten();
    let Some(action) = choice else {
        log::warn!("game {id}: the bot found no move");
        return Ok(false);
    };
    let version = rec.game.version();
    let rng = ctx.fork();
    let due = |r: &GameRecord| deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |r| {
            if r.game.version() != version {
                return Err(None::<ActionError>);
            }
            let events =
                crate::game::battle::apply_move(r, action.clone(), now(), &mut rng.clone())
                    .map_err(Some)?;
            remember_salvo(r, &action, &events);
            Ok(events)
        })
        .await?;
    match done {
        Ok(done) => {
            super::play::after(ctx, id, &done).await?;
            Ok(true)
        }
        Err(None) => Ok(false),
        Err(Some(e)) => {
            log::warn!("game {id}: the bot's {action:?} was refused: {e:?}");
            Ok(false)
        }
    }
}

/// A salvo typed in reply to the battle message.
pub async fn fire(
    ctx: &Ctx,
    id: GameId,
    lang: Lang,
    action: Action,
    to: Reply<'_>,
) -> HandlerResult {
    match play_with(ctx, id, None, |_| Ok(action.clone())).await {
        Ok(Ok(done)) => accepted(ctx, id, lang, &done, &to).await,
        Ok(Err(e)) => say(ctx, &to, refusal(lang, &e), true).await,
        Err(e) => say(ctx, &to, t(lang, super::store_error_key(&e)), true).await,
    }
}

/// The checks every button of a battle goes through: the game is going, the button is of
/// this battle (`generation`, when it names one), and the presser has a seat. The record
/// and the seat, or `None` when the press was answered already (refused).
pub async fn battle_press(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    generation: Option<u32>,
) -> Result<Option<(GameRecord, SeatId)>, super::BotError> {
    let Some(rec) = super::game_for_button(ctx, q, lang, id).await? else {
        return Ok(None);
    };
    let stale = generation.is_some_and(|n| n != rec.delivery.generation);
    if stale || rec.game.phase() != &Phase::Battle {
        answer(ctx, q, t(lang, "error-out-of-date"), true).await?;
        return Ok(None);
    }
    let Some(seat) = rec.game.seat_of(PlayerId(q.from.id.0)) else {
        answer(ctx, q, t(lang, "error-not-a-player"), true).await?;
        return Ok(None);
    };
    Ok(Some((rec, seat)))
}

/// The most characters of a name in an answer to a button (Telegram takes 200 in all).
pub const NAME_IN_ANSWER: usize = 32;

/// The words for the shooter's answer; in games of more than two fields, a fleet it sank
/// is named too, so the shooter turns to another field.
fn shot_answer(lang: Lang, rec: &GameRecord, events: &[Event]) -> String {
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
                if is_aimed(rec) {
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
            Event::Eliminated(s) if is_aimed(rec) && !out.is_empty() => {
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
pub fn refusal(lang: Lang, e: &ActionError) -> String {
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

/// [`crate::game::battle::apply_move`] in a transition, and the answer a press earned kept with the
/// move: should the answer be lost, the press's update comes again and gets it.
pub fn apply_and_answer(
    rec: &mut GameRecord,
    action: Action,
    press: Option<(&str, Lang)>,
    rng: &mut rand::rngs::StdRng,
) -> Result<Vec<Event>, ActionError> {
    let events = crate::game::battle::apply_move(rec, action, now(), rng)?;
    if let Some((query, lang)) = press {
        let text = shot_answer(lang, rec, &events);
        rec.remember_answer(query, &text, false);
    }
    Ok(events)
}
