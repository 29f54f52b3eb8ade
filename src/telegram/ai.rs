//! The bot's own seats: `/play` (a duel against the bot at once in a private chat, a lobby
//! with the bot seated in a group), the lobby's "Play against the bot" button, and its moves.
//!
//! The bot sees only its seat's view and thinks on the blocking pool. Its move is applied in a
//! transition that checks the game has not changed since it looked, so no replica ever moves
//! twice for it; a lease in Redis lets one replica think at a time, and the timer wakes it
//! again when the thinker died (the game is due soon after the lease runs out).

use super::commands::reply;
use super::{answer, answer_store_error, battle, display_name, now, Ctx, HandlerResult};
use crate::effects::Effect;
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::{ai_player, GameRecord};
use crate::store::{GameId, StoreError};
use engine::ai::{
    choose_give_up, choose_salvo_informed, choose_shot_within, hard_fleet, Budget, Level,
    SalvoReport,
};
use engine::{
    perelman_fleet, random_fleet, Action, ActionError, Event, Fleet, Game, PlayerId, Ruleset,
    RulesetError, SeatId,
};
use rand::Rng;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatAction, ChatId, User};

/// The most time the bot may think about one move (the hard level stops sampling then; on
/// the classic field it needs far less).
const THINKING: Duration = Duration::from_millis(1500);

/// The lease covers the pause, the thinking and the move's own requests.
const MARGIN: Duration = Duration::from_secs(4);

/// How long the handler of the last Ready has to send the battle's message before the timer
/// does it in its place.
const BEGIN_GRACE: Duration = Duration::from_secs(5);

/// How long one replica holds the right to move for the bot.
fn lease(ctx: &Ctx) -> Duration {
    ctx.config.ai_pause + THINKING + MARGIN
}

/// The name of the bot's seat `player` in a game, in the game's language: "🤖 Bot (easy)",
/// and with a number from the second seat on ("🤖 Bot 2 (easy)").
pub fn name(lang: Lang, level: Level, player: PlayerId) -> String {
    let level = level_words(lang, level);
    match player.0.saturating_sub(crate::record::AI_PLAYER_BASE) {
        0 => ta(lang, "ai-name", &[("level", level.into())]),
        n => ta(
            lang,
            "ai-name-nth",
            &[("level", level.into()), ("n", ((n + 1) as i64).into())],
        ),
    }
}

/// A level in words.
pub fn level_words(lang: Lang, level: Level) -> String {
    let key = match level {
        Level::Easy => "ai-level-easy",
        Level::Normal => "ai-level-normal",
        Level::Hard => "ai-level-hard",
    };
    t(lang, key)
}

/// Reads a level as typed after `/play`: its English name or its name in any language.
pub fn parse_level(text: &str) -> Option<Level> {
    let text = text.trim().to_lowercase();
    Level::ALL.into_iter().find(|&l| {
        l.to_string() == text
            || Lang::ALL
                .iter()
                .any(|&lang| level_words(lang, l).to_lowercase() == text)
    })
}

/// The bot's fleet for a level: random for easy; random or Perelman's for normal; for hard,
/// the layout the engine chooses to be dear for a strong shooter.
pub fn fleet(ruleset: &Ruleset, level: Level, rng: &mut impl Rng) -> Result<Fleet, RulesetError> {
    match level {
        Level::Easy => random_fleet(ruleset, rng),
        Level::Normal if rng.gen_bool(0.5) => random_fleet(ruleset, rng),
        Level::Normal => perelman_fleet(ruleset, rng),
        Level::Hard => hard_fleet(ruleset, rng),
    }
}

/// Locks a fleet for every seat of the bot that has none yet (in the Start transition).
pub fn place_fleets(rec: &mut GameRecord, rng: &mut impl Rng) -> Result<Vec<Event>, ActionError> {
    let mut events = Vec::new();
    for seat in rec.ai_seats() {
        if rec.game.is_ready(seat) {
            continue;
        }
        let fleet = fleet(rec.game.ruleset(), rec.ai_level, rng)
            .map_err(|_| ActionError::IllegalFleet(Vec::new()))?;
        events.extend(rec.game.apply(Action::Ready(seat, fleet), now(), rng)?);
    }
    Ok(events)
}

/// When the timer should look at a game: its own deadline; while the bot is to move, soon
/// after a thinker's lease would run out (so a crash mid-thought delays it by seconds); and
/// soon after the last fleet is locked, until the battle's message is out.
pub fn deadline(ctx: &Ctx, rec: &GameRecord) -> Option<u64> {
    let own = rec.game.next_deadline();
    if *rec.game.phase() == engine::Phase::Battle && !rec.begun {
        // The battle's message is still to be sent: should its sender die, the timer sends it.
        return Some(now() + BEGIN_GRACE.as_secs());
    }
    match rec.ai_to_move() {
        Some(_) => {
            let soon = now() + lease(ctx).as_secs() + 1;
            Some(own.map_or(soon, |d| d.min(soon)))
        }
        None => own,
    }
}

/// Lets the bot move if it is its turn (in the background).
pub fn wake(ctx: &Ctx, rec: &GameRecord, id: GameId) {
    if rec.ai_to_move().is_none() || rec.game.is_finished() {
        return;
    }
    log::debug!("game {id}: the bot is to move");
    let ctx = ctx.clone();
    tokio::spawn(async move {
        if let Err(e) = drive(&ctx, id).await {
            log::warn!("the bot's move in {id}: {e}");
        }
    });
}

/// Moves for the bot for as long as it is its turn and this replica holds the lease.
async fn drive(ctx: &Ctx, id: GameId) -> HandlerResult {
    loop {
        let (rec, _) = ctx.store.load_game(id).await?;
        let Some(seat) = rec.ai_to_move() else {
            return Ok(());
        };
        if !ctx.store.take_ai_lease(id, lease(ctx)).await? {
            log::debug!("game {id}: another replica moves for the bot");
            return Ok(());
        }
        let moved = think_and_move(ctx, id, &rec, seat).await;
        let _ = ctx.store.drop_ai_lease(id).await;
        if !moved? {
            return Ok(());
        }
    }
}

/// One move: "typing…", a pause, the choice on the blocking pool, then the shot, applied
/// only if the game is still as the bot saw it. `false` when nothing was played.
async fn think_and_move(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    seat: SeatId,
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
    let reports: Vec<SalvoReport> = rec
        .ai_salvos
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
    let budget = Budget::until(std::time::Instant::now() + THINKING);
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
            let events = r
                .game
                .apply(action.clone(), now(), &mut rng.clone())
                .map_err(Some)?;
            r.push_log(&events);
            remember_salvo(r, &action, &events);
            Ok(events)
        })
        .await?;
    match done {
        Ok(done) => {
            battle::after(ctx, id, &done).await?;
            Ok(true)
        }
        Err(None) => Ok(false),
        Err(Some(e)) => {
            log::warn!("game {id}: the bot's {action:?} was refused: {e:?}");
            Ok(false)
        }
    }
}

/// Keeps the answer to a salvo of the bot's: the view will not tell which cells hit.
fn remember_salvo(rec: &mut GameRecord, action: &Action, events: &[Event]) {
    let Action::Salvo(seat, target, cells) = action else {
        return;
    };
    for e in events {
        if let Event::Salvo { hits, mines, .. } = *e {
            rec.ai_salvos.push(crate::record::AiSalvo {
                seat: seat.0,
                target: target.0,
                cells: cells.clone(),
                hits,
                mines,
            });
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
        Ok(c) => {
            super::group::redraw(ctx, id, c.value).await;
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
    if generation != rec.generation || *rec.game.phase() != engine::Phase::Lobby {
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
        return reply(ctx, msg, super::render::escape(&words)).await;
    };
    if !msg.chat.is_private() {
        return super::lobby::on_newgame(ctx, msg, user, lang, Some(level)).await;
    }
    match play_private(ctx, user, lang, level, None).await {
        Ok(None) => Ok(()),
        Ok(Some(key)) => reply(ctx, msg, t(lang, key)).await,
        Err(e) => reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    }
}

/// A duel against the bot in the user's private chat: the game is created with both seats
/// taken and the bot's fleet locked, the user is told, and their placement editor opens.
/// `Some(key)`: why not (a localisation key).
pub async fn play_private(
    ctx: &Ctx,
    user: &User,
    lang: Lang,
    level: Level,
    ruleset: Option<Ruleset>,
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
    let ruleset = ruleset.unwrap_or(settings.ruleset);
    let mut rec = GameRecord::new(Game::new(ruleset), chat, now());
    rec.lang = lang;
    rec.alphabet = settings
        .alphabet
        .unwrap_or_else(|| super::lobby::default_alphabet(lang));
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
        rec.dms = vec![None; rec.game.seats().len()];
        place_fleets(&mut rec, &mut rng)?;
        Ok(())
    })();
    if let Err(e) = built {
        log::warn!("a game against the bot for {uid}: {e:?}");
        return Ok(Some("error-out-of-date"));
    }
    let text = ta(
        lang,
        "play-started",
        &[("level", level_words(lang, level).into())],
    );
    rec.push_effect(Effect::Notice {
        chat,
        text: super::render::escape(&text),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::AiSalvo;
    use engine::Coord;

    #[test]
    fn the_bots_salvoes_and_their_answers_are_kept_for_its_next_aim() {
        let ruleset = Ruleset {
            salvo: Some(3),
            ..Ruleset::default()
        };
        let mut rec = GameRecord::new(Game::new(ruleset), 1, 0);
        let cells = vec![Coord::new(0, 0), Coord::new(1, 0), Coord::new(2, 0)];
        let salvo = Action::Salvo(SeatId(1), SeatId(0), cells.clone());
        let told = Event::Salvo {
            shooter: SeatId(1),
            target: SeatId(0),
            shots: 3,
            hits: 1,
            mines: 0,
            sunk: Vec::new(),
        };
        remember_salvo(&mut rec, &salvo, &[Event::Turn(SeatId(0)), told]);
        let kept = AiSalvo {
            seat: 1,
            target: 0,
            cells,
            hits: 1,
            mines: 0,
        };
        assert_eq!(rec.ai_salvos, vec![kept]);
        // A single shot is no salvo; the record keeps what it had, through storage too.
        remember_salvo(
            &mut rec,
            &Action::Fire(SeatId(1), SeatId(0), Coord::new(5, 5)),
            &[],
        );
        let stored: GameRecord =
            serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(stored.ai_salvos.len(), 1);
    }

    #[test]
    fn levels_are_read_in_every_language_and_bots_are_told_apart() {
        assert_eq!(parse_level("hard"), Some(Level::Hard));
        assert_eq!(parse_level(" Сильный "), Some(Level::Hard));
        assert_eq!(parse_level("лесен"), Some(Level::Easy));
        assert_eq!(parse_level("genius"), None);
        assert_ne!(
            name(Lang::En, Level::Easy, ai_player(0)),
            name(Lang::En, Level::Easy, ai_player(1))
        );
    }
}
