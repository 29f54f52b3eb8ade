//! The bot's turns, in both games: one replica at a time moves for the bot, holding a lease
//! in Redis for the move (so a move is never played twice, and a replica that died
//! mid-thought is relieved when the lease runs out). The move is chosen on the blocking pool
//! and played by the same transition a person's move goes through
//! (`game::battle::bot_move`, `game::riga::play_move`).

use super::context::{now, BotError, Ctx, HandlerResult};
use super::metered::Metered;
use super::sender;
use crate::game::record::{GameRecord, Play, SeaBattle};
use crate::game::riga_state::RigaPlay;
use crate::game::{battle, riga, timer, GameId};
use crate::store::Atomic;
use crate::view::riga_text;
use engine::ai::{Budget, SalvoReport};
use engine::{Habits, SeatId};
use std::sync::Arc;
use teloxide::prelude::*;
use teloxide::types::{ChatAction, ChatId};

/// Lets the bot move in the background if it is its turn, for as long as it is.
pub fn wake(ctx: &Ctx, rec: &GameRecord, id: GameId) {
    if rec.is_finished() || !timer::bot_to_move(rec) {
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
    // What the learning level learned, read once for the bot's moves in a row.
    let mut learned: Option<Learned> = None;
    loop {
        let (rec, _) = ctx.store.load_game(id).await?;
        if rec.is_finished() || !timer::bot_to_move(&rec) {
            return Ok(());
        }
        let lease = timer::bot_lease(&rec.play, ctx.config.ai_pause);
        if !ctx.store.take_ai_lease(id, lease).await? {
            log::debug!("game {id}: another replica moves for the bot");
            return Ok(());
        }
        let _ = ctx
            .bot
            .send_chat_action(ChatId(rec.chat), ChatAction::Typing)
            .metered()
            .await;
        tokio::time::sleep(ctx.config.ai_pause).await;
        let moved = match &rec.play {
            Play::SeaBattle(sb) => sea_battle_move(ctx, id, &rec, sb, &mut learned).await,
            Play::Riga(r) => riga_move(ctx, id, &rec, r).await,
        };
        let _ = ctx.store.drop_ai_lease(id).await;
        match moved? {
            Some(after) => {
                match rec.play {
                    Play::SeaBattle(_) => crate::metrics::shot(crate::metrics::Shooter::Bot),
                    Play::Riga(_) => {}
                }
                sender::kick(ctx, id);
                if after.is_finished() {
                    return Ok(());
                }
            }
            None => return Ok(()),
        }
    }
}

/// The record after the move, or `None` when nothing was played.
type Moved = Result<Option<GameRecord>, BotError>;

/// One Sea Battle move: the choice on the blocking pool, then the shot, played only if the
/// game is still as the bot saw it.
async fn sea_battle_move(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    sb: &SeaBattle,
    learned: &mut Option<Learned>,
) -> Moved {
    let Some(seat) = rec.ai_to_move() else {
        return Ok(None);
    };
    log::debug!("game {id}: the bot thinks for seat {}", seat.0);
    let view = rec.game.view_for(seat);
    let level = rec.ai_level;
    let mine = rec.game.mine_choice().is_some();
    let reports: Vec<SalvoReport> = sb
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
    // The thinking time counts from when the choice starts on the blocking pool (below):
    // reading what the learning level knows, or a pool busy for a moment, takes none of it.
    let mut budget = Budget::default();
    // The learning level learns from the layouts revealed in this chat and in all chats;
    // without them (Redis away) it plays as hard.
    if level == engine::ai::Level::Learning && learned.is_none() {
        *learned = Some(learn(ctx, id, rec).await);
    }
    if let Some(l) = learned
        .as_ref()
        .filter(|_| level == engine::ai::Level::Learning)
    {
        budget = budget
            .learning(l.chat.clone())
            .learning_by_seat(l.seats.clone());
    }
    let choice = tokio::task::spawn_blocking(move || {
        let budget = Budget {
            deadline: Some(std::time::Instant::now() + timer::SEA_BATTLE_THINKING),
            ..budget
        };
        crate::game::ai_move::decide(&view, seat, level, mine, &reports, &mut rng, budget)
    })
    .await
    .ok()
    .flatten();
    let Some(action) = choice else {
        log::warn!("game {id}: the bot found no move");
        return Ok(None);
    };
    let version = rec.game.version();
    let rng = ctx.fork();
    let due = |r: &GameRecord| timer::deadline(r, now(), ctx.config.ai_pause);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            battle::bot_move(r, version, action.clone(), now(), &mut rng.clone())
        })
        .await?;
    match done {
        Ok(done) => Ok(Some(done.record)),
        Err(e) => {
            log::debug!("game {id}: the bot's {action:?} was not played: {e:?}");
            Ok(None)
        }
    }
}

/// What the learning level knows before its moves: the chat's layouts (with everyone's), and
/// each person's own by their seat, so in a group each one's habits are theirs.
pub struct Learned {
    /// The layouts revealed in this chat, and over all chats.
    chat: Arc<Habits>,
    /// Each seat's player's own layouts, their habits; `None` for the bot's seats and for
    /// people the bot has seen no layout of (the chat's are used for them).
    seats: Vec<Option<Arc<Habits>>>,
}

/// Reads what the learning level learns from for game `id`; without Redis, nothing (it then
/// plays as hard).
async fn learn(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Learned {
    let ruleset = rec.game.ruleset().to_string();
    let area = rec.game.ruleset().size().area();
    // The chat's and every chat's layouts, and each person's own, all asked at once.
    let seats: Vec<Option<u64>> = rec
        .game
        .seats()
        .iter()
        .map(|seat| (!crate::game::record::is_ai(seat.player)).then_some(seat.player.0))
        .collect();
    let users: Vec<u64> = seats.iter().flatten().copied().collect();
    let (chat, all, own) = match ctx
        .store
        .layouts_with_people(rec.chat, &ruleset, &users)
        .await
    {
        Ok(lists) => lists,
        Err(e) => {
            log::warn!("game {id}: no layouts to learn from: {e}");
            Default::default()
        }
    };
    let mut own = own.into_iter();
    let people: Vec<Option<Vec<String>>> = seats
        .iter()
        .map(|seat| seat.and_then(|_| own.next()))
        .collect();
    let built = tokio::task::spawn_blocking(move || {
        // A person's own layouts alone: others' would blur their tendencies.
        let seats = people
            .iter()
            .map(|own| {
                own.as_ref()
                    .filter(|own| !own.is_empty())
                    .map(|own| Arc::new(Habits::from_codes(own, &[], area)))
            })
            .collect();
        (Arc::new(Habits::from_codes(&chat, &all, area)), seats)
    })
    .await;
    match built {
        Ok((chat, seats)) => Learned { chat, seats },
        Err(_) => Learned {
            chat: Arc::new(Habits::new()),
            seats: Vec::new(),
        },
    }
}

/// One Riga move: chosen on the blocking pool, played only if the game is still as the bot
/// saw it.
async fn riga_move(ctx: &Ctx, id: GameId, rec: &GameRecord, play: &RigaPlay) -> Moved {
    let Some(seat) = riga::bot_to_move(rec) else {
        return Ok(None);
    };
    let Some(game) = play.game.clone() else {
        return Ok(None);
    };
    let moves_before = game.moves();
    let level = riga::bot_level(rec.ai_level);
    let mut rng = ctx.fork();
    let choice = tokio::task::spawn_blocking(move || {
        use rand::Rng;
        ::riga::ai::choose(&game, level, &mut |n| rng.gen_range(0..n.max(1)))
    })
    .await
    .ok()
    .flatten();
    let Some(mv) = choice else {
        return Ok(None);
    };
    let player = rec.game.seats()[usize::from(seat)].player;
    let due = |r: &GameRecord| timer::deadline(r, now(), ctx.config.ai_pause);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            riga::play_move(
                r,
                player,
                mv,
                Some(moves_before),
                None,
                now(),
                &riga_text::move_line,
            )
        })
        .await?;
    Ok(done.ok().map(|c| c.record))
}
