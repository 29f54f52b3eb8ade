//! The Riga board game below its flows: the set-up a Start begins, the turn timer, the
//! bot's moves, and what `/newgame` and `/play` read — what the lobby, the timers
//! (`play.rs`) and the Riga flow (`riga.rs`) share.

use super::{now, Ctx};
use crate::game::delivery::Effect;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::riga::{seat_of, RigaPlay};
use crate::store::GameId;
use crate::view::i18n::{t, ta};
use crate::view::riga_text;
use engine::SeatId;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{ChatAction, ChatId};

/// The set-up of a Riga game as its Start begins it: both seats get a random order, the
/// bot's seats lock theirs at once, each person gets the set-up in the private chat.
pub fn begin_setup(rec: &mut GameRecord, rng: &mut impl rand::Rng) {
    let mut play = RigaPlay::ordering(rng);
    for seat in rec.ai_seats() {
        let _ = play.lock(seat.0, now(), rng);
    }
    rec.play = crate::game::record::Play::Riga(play);
    rec.delivery.dms = vec![None; rec.game.seats().len()];
    for seat in rec.human_seats() {
        rec.push_effect(Effect::Dm { seat: seat.0 });
    }
}

/// The turn's time in seconds, under the game's timer.
fn turn_seconds(rec: &GameRecord) -> Option<u64> {
    rec.game.ruleset().timer.seconds()
}

/// The most time the bot's search takes for one move: a node budget, far below a second.
const THINKING: Duration = Duration::from_secs(1);

/// The level the bot plays a Riga game at.
fn level(rec: &GameRecord) -> riga::ai::Level {
    match rec.ai_level {
        engine::ai::Level::Easy => riga::ai::Level::Easy,
        engine::ai::Level::Normal => riga::ai::Level::Normal,
        engine::ai::Level::Hard | engine::ai::Level::Learning => riga::ai::Level::Hard,
    }
}

/// The bot's seat when it is the bot's turn.
pub fn ai_to_move(rec: &GameRecord) -> Option<u8> {
    let side = rec.riga()?.to_move()?;
    let seat = seat_of(side);
    rec.is_ai_seat(SeatId(seat)).then_some(seat)
}

/// When the timer should look at a Riga game: its reminder or forfeit, and while the bot is
/// to move, soon after a thinker's lease would run out.
pub fn deadline(ctx: &Ctx, rec: &GameRecord) -> Option<u64> {
    let r = rec.riga()?;
    let own = r.deadline(turn_seconds(rec));
    match ai_to_move(rec) {
        Some(_) => {
            let soon = now() + super::ai_turns::move_lease(ctx, THINKING).as_secs() + 1;
            Some(own.map_or(soon, |d| d.min(soon)))
        }
        None => own,
    }
}

/// After a change: the sender wakes, and the bot moves if it is its turn.
pub fn follow_up(ctx: &Ctx, id: GameId, rec: &GameRecord) {
    super::outbox::kick(ctx, id);
    wake(ctx, rec, id);
}

/// The ruleset a Riga lobby keeps: two players, the chat's turn timer.
pub fn duel(r: &engine::Ruleset) -> engine::Ruleset {
    engine::Ruleset {
        players: engine::Players::Duel,
        timer: r.timer,
        ..engine::Ruleset::default()
    }
}

/// The timer of a Riga game is due: a reminder, or the side to move forfeits.
pub async fn on_due(ctx: &Ctx, id: GameId) {
    let due = |r: &GameRecord| deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |rec| {
            let secs = turn_seconds(rec);
            let lang = rec.lang;
            let names: Vec<String> = (0..2u8).map(|s| rec.short_name(SeatId(s), 40)).collect();
            let r = rec.riga_mut().ok_or(())?;
            let side = r.to_move().ok_or(())?;
            let name = names[usize::from(seat_of(side))].clone();
            match r.tick(now(), secs) {
                Some(false) => {
                    let left = secs.unwrap_or(0).div_ceil(2);
                    r.push_line(ta(
                        lang,
                        "rg-reminder",
                        &[("name", name.into()), ("seconds", (left as i64).into())],
                    ));
                    Ok(())
                }
                Some(true) => Ok(()),
                None => Err(()),
            }
        })
        .await;
    match done {
        Ok(Ok(c)) => follow_up(ctx, id, &c.record),
        Ok(Err(())) => {
            // Nothing due but perhaps the bot's move after a crash.
            if let Ok((rec, _)) = ctx.store.load_game(id).await {
                let _ = ctx.store.schedule(id, deadline(ctx, &rec)).await;
                wake(ctx, &rec, id);
            }
        }
        Err(e) => log::warn!("timer of {id}: {e}"),
    }
}

/// Lets the bot move if it is its turn (in the background).
pub fn wake(ctx: &Ctx, rec: &GameRecord, id: GameId) {
    if ai_to_move(rec).is_none() {
        return;
    }
    super::ai_turns::spawn(ctx, id, RigaGame, "the bot's Riga move");
}

/// The Riga game as the bot plays it.
struct RigaGame;

impl super::ai_turns::Mover for RigaGame {
    type Seat = u8;
    const THINKING: Duration = THINKING;

    fn to_move(&self, rec: &GameRecord) -> Option<u8> {
        ai_to_move(rec)
    }

    fn think_and_move(
        &mut self,
        ctx: &Ctx,
        id: GameId,
        rec: &GameRecord,
        seat: u8,
    ) -> impl std::future::Future<Output = Result<bool, super::BotError>> + Send {
        think_and_move(ctx, id, rec, seat)
    }
}

/// One move of the bot's: chosen on the blocking pool, played only if the game is still as
/// the bot saw it.
async fn think_and_move(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    seat: u8,
) -> Result<bool, super::BotError> {
    let _ = ctx
        .bot
        .send_chat_action(ChatId(rec.chat), ChatAction::Typing)
        .await;
    tokio::time::sleep(ctx.config.ai_pause).await;
    let Some(game) = rec.riga().and_then(|r| r.game.clone()) else {
        return Ok(false);
    };
    let moves_before = game.moves();
    let level = level(rec);
    let mut rng = ctx.fork();
    let choice = tokio::task::spawn_blocking(move || {
        use rand::Rng;
        riga::ai::choose(&game, level, &mut |n| rng.gen_range(0..n.max(1)))
    })
    .await
    .ok()
    .flatten();
    let Some(mv) = choice else {
        return Ok(false);
    };
    let due = |r: &GameRecord| deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |r| {
            let lang = r.lang;
            let play = r.riga_mut().ok_or(())?;
            if play.game.as_ref().map(riga::Game::moves) != Some(moves_before) {
                return Err(());
            }
            play.play(seat, mv, now(), |before, m, lost| {
                riga_text::move_line(lang, before, m, lost)
            })
            .map_err(|_| ())?;
            Ok(())
        })
        .await?;
    match done {
        Ok(c) => {
            super::outbox::kick(ctx, id);
            Ok(!c.record.game.is_finished())
        }
        Err(()) => Ok(false),
    }
}

/// Reads `/newgame` and `/play` arguments: whether they ask for the Riga game, and the rest.
pub fn wants_riga(arg: &str) -> (bool, String) {
    let names: Vec<String> = Lang::ALL
        .iter()
        .flat_map(|&l| {
            t(l, "rg-game-words")
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut riga = false;
    let rest: Vec<&str> = arg
        .split_whitespace()
        .filter(|w| {
            let is = names.contains(&w.to_lowercase());
            riga |= is;
            !is
        })
        .collect();
    (riga, rest.join(" "))
}

/// Whether a record's battle is a Riga battle that has begun.
pub fn in_battle(rec: &GameRecord) -> bool {
    rec.riga().is_some_and(|r| r.game.is_some())
}
