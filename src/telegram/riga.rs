//! The Riga board game in Telegram (RULES.md §5; state in `riga_play.rs`, words in
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

use super::callback::Button;
use super::chat::reply;
use super::render::escape;
use super::{answer, answer_store_error, now, Ctx, HandlerResult};
use crate::effects::Effect;
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::GameRecord;
use crate::riga_play::{seat_of, side_of, RigaEnd, RigaError, RigaPlay};
use crate::riga_text;
use crate::store::{GameId, StoreError};
use engine::{Action, Phase, PlayerId, SeatId};
use riga::{Move, Outcome};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChatAction, ChatId, InlineKeyboardButton, InlineKeyboardMarkup,
};

/// The group's message of a Riga game, whatever its phase.
pub fn live_message(rec: &GameRecord, id: GameId) -> (String, Option<InlineKeyboardMarkup>) {
    let lang = rec.lang;
    let Some(r) = &rec.riga else {
        return (String::new(), None);
    };
    let mut text = format!("<b>{}</b>\n", t(lang, "rg-title"));
    if r.game.is_none() {
        // Set-up (the lobby itself is drawn by `group.rs`), or called off during it.
        text.push_str(&t(lang, "rg-setup-intro"));
        text.push('\n');
        for (i, name) in rec.names.iter().enumerate().take(2) {
            let side = riga_text::side_name(lang, side_of(i as u8));
            let status = if rec.game.is_finished() {
                String::new()
            } else if r.ready.get(i).copied().unwrap_or(false) {
                format!(" — {}", t(lang, "lobby-ready"))
            } else {
                format!(" — {}", t(lang, "rg-ordering"))
            };
            text.push_str(&format!("\n{}: {}{status}", escape(&side), escape(name)));
        }
        if rec.game.is_finished() {
            text.push_str(&format!("\n\n{}", t(lang, "rg-cancelled")));
            return (text, None);
        }
        let kb = InlineKeyboardMarkup::new(vec![vec![InlineKeyboardButton::callback(
            t(lang, "btn-cancel"),
            Button::Cancel(id, rec.generation).to_string(),
        )]]);
        return (text, Some(kb));
    }
    text.push_str(&battle_text(rec, r));
    let keyboard = move_keyboard(rec, r, id);
    (text, keyboard)
}

/// The board, the sides, the latest moves and whose turn (or how it ended).
fn battle_text(rec: &GameRecord, r: &RigaPlay) -> String {
    let lang = rec.lang;
    let Some(game) = &r.game else {
        return String::new();
    };
    let mut text = String::new();
    for seat in 0..2u8 {
        let side = side_of(seat);
        text.push_str(&format!(
            "{}: {} · {}\n",
            escape(&riga_text::side_name(lang, side)),
            escape(&rec.short_name(SeatId(seat), 40)),
            ta(lang, "rg-afloat", &[("ships", game.afloat(side).into())])
        ));
    }
    text.push_str(&format!(
        "<pre>{}</pre>\n{}\n",
        escape(&riga_text::board(lang, game, r.last)),
        escape(&riga_text::legend(lang))
    ));
    for line in &r.lines {
        text.push_str(&format!("\n{}", escape(line)));
    }
    if !r.lines.is_empty() {
        text.push('\n');
    }
    text.push('\n');
    match r.to_move() {
        Some(side) => {
            let seat = seat_of(side);
            text.push_str(&ta(
                lang,
                "rg-turn",
                &[
                    ("side", riga_text::side_name(lang, side).into()),
                    ("name", escape(&rec.short_name(SeatId(seat), 40)).into()),
                    ("quiet", i64::from(game.quiet()).into()),
                    ("limit", i64::from(riga::game::QUIET_MOVES).into()),
                ],
            ));
        }
        None => text.push_str(&format!("<b>{}</b>", escape(&end_words(rec, r)))),
    }
    text
}

/// How the game ended, in words.
fn end_words(rec: &GameRecord, r: &RigaPlay) -> String {
    let lang = rec.lang;
    let name = |side| rec.short_name(SeatId(seat_of(side)), 40);
    let side_words = |side| riga_text::side_name(lang, side);
    match r.end {
        Some(RigaEnd::Played(Outcome::Win(side))) => ta(
            lang,
            "rg-end-win",
            &[
                ("side", side_words(side).into()),
                ("name", name(side).into()),
            ],
        ),
        Some(RigaEnd::Played(Outcome::Draw)) => r
            .game
            .as_ref()
            .and_then(|g| riga_text::outcome_line(lang, g))
            .unwrap_or_else(|| t(lang, "rg-end-draw")),
        Some(RigaEnd::Surrendered(side)) => ta(
            lang,
            "rg-end-surrendered",
            &[
                ("name", name(side).into()),
                ("winner", name(side.other()).into()),
            ],
        ),
        Some(RigaEnd::TimedOut(side)) => ta(
            lang,
            "rg-end-timeout",
            &[
                ("name", name(side).into()),
                ("winner", name(side.other()).into()),
            ],
        ),
        Some(RigaEnd::Cancelled) | None => t(lang, "rg-cancelled"),
    }
}

/// The end's announcement (with the Rematch button under it, by the sender).
pub fn end_texts(rec: &GameRecord) -> Vec<String> {
    let Some(r) = &rec.riga else {
        return Vec::new();
    };
    vec![format!(
        "<b>{}</b>\n{}",
        t(rec.lang, "rg-title"),
        escape(&end_words(rec, r))
    )]
}

/// One row per ship of the side to move that can move: its name and point, then its legal
/// moves. Only the side to move's player may press them.
fn move_keyboard(rec: &GameRecord, r: &RigaPlay, id: GameId) -> Option<InlineKeyboardMarkup> {
    let lang = rec.lang;
    let game = r.game.as_ref()?;
    let side = r.to_move()?;
    if rec.is_ai_seat(SeatId(seat_of(side))) {
        return None;
    }
    let g = rec.generation;
    let moves = game.legal_moves();
    let button = |label: String, mv: Move| {
        InlineKeyboardButton::callback(label, Button::RigaMove(id, g, mv).to_string())
    };
    if moves == [Move::Pass] {
        return Some(InlineKeyboardMarkup::new(vec![vec![button(
            t(lang, "rg-btn-pass"),
            Move::Pass,
        )]]));
    }
    let mut rows = Vec::new();
    for (i, ship) in game.ships().iter().enumerate() {
        let Some(ship) = ship.filter(|s| s.side == side) else {
            continue;
        };
        let own: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| ship_of(*m) == Some(i as u8))
            .collect();
        if own.is_empty() {
            continue;
        }
        let mut row = vec![InlineKeyboardButton::callback(
            format!(
                "{} {}",
                riga_text::ship_abbr(lang, ship.kind),
                riga_text::point(lang, ship.at)
            ),
            Button::Noop.to_string(),
        )];
        for m in own {
            let key = match m {
                Move::Forward(_) => "rg-btn-forward",
                Move::Left(_) => "rg-btn-left",
                Move::Right(_) => "rg-btn-right",
                Move::Lay(_) => "rg-btn-mine",
                Move::Pass => "rg-btn-pass",
            };
            row.push(button(t(lang, key), m));
        }
        rows.push(row);
    }
    Some(InlineKeyboardMarkup::new(rows))
}

/// The ship a move moves.
fn ship_of(m: Move) -> Option<u8> {
    match m {
        Move::Forward(i) | Move::Left(i) | Move::Right(i) | Move::Lay(i) => Some(i),
        Move::Pass => None,
    }
}

/// A seat's private message: the set-up keyboard while it orders its fleet, then words
/// about where the battle is. `None` when there is nothing to show.
pub fn dm_view(
    rec: &GameRecord,
    id: GameId,
    seat: u8,
    lang: Lang,
) -> Option<(String, Option<InlineKeyboardMarkup>)> {
    let r = rec.riga.as_ref()?;
    let i = usize::from(seat);
    let side = side_of(seat);
    let side_words = riga_text::side_name(lang, side);
    if rec.game.is_finished() {
        return Some((
            format!("<b>{}</b>\n{}", t(lang, "rg-title"), t(lang, "rg-dm-over")),
            None,
        ));
    }
    if r.game.is_some() {
        let key = if rec.chat < 0 {
            "rg-dm-battle-group"
        } else {
            "rg-dm-battle-here"
        };
        let text = ta(lang, key, &[("side", side_words.into())]);
        return Some((format!("<b>{}</b>\n{}", t(lang, "rg-title"), text), None));
    }
    let order = r.orders.get(i)?;
    if r.ready.get(i).copied().unwrap_or(false) {
        let text = ta(lang, "rg-dm-locked", &[("side", side_words.into())]);
        return Some((format!("<b>{}</b>\n{}", t(lang, "rg-title"), text), None));
    }
    let starts = riga::Point::starts(side);
    let line = riga_text::point(lang, starts[0]);
    let mut text = format!(
        "<b>{}</b>\n{}\n",
        t(lang, "rg-title"),
        ta(
            lang,
            "rg-dm-order",
            &[("side", side_words.into()), ("first", line.into())]
        )
    );
    for (p, kind) in starts.iter().zip(order) {
        text.push_str(&format!(
            "\n{} — {}",
            escape(&riga_text::point(lang, *p)),
            escape(&riga_text::ship_name(lang, *kind))
        ));
    }
    let picked = r.picked.get(i).copied().flatten();
    let mut rows: Vec<Vec<InlineKeyboardButton>> = Vec::new();
    for half in 0..2 {
        let row = (0..6u8)
            .map(|k| {
                let n = half * 6 + k;
                let mark = if picked == Some(n) { "• " } else { "" };
                InlineKeyboardButton::callback(
                    format!(
                        "{mark}{} {}",
                        riga_text::point(lang, starts[usize::from(n)]),
                        riga_text::ship_abbr(lang, order[usize::from(n)])
                    ),
                    Button::RigaTap(id, n).to_string(),
                )
            })
            .collect();
        rows.push(row);
    }
    rows.push(vec![
        InlineKeyboardButton::callback(
            t(lang, "rg-btn-shuffle"),
            Button::RigaShuffle(id).to_string(),
        ),
        InlineKeyboardButton::callback(t(lang, "rg-btn-lock"), Button::RigaLock(id).to_string()),
    ]);
    Some((text, Some(InlineKeyboardMarkup::new(rows))))
}

/// The set-up of a Riga game as its Start begins it: both seats get a random order, the
/// bot's seats lock theirs at once, each person gets the set-up in the private chat.
pub fn begin_setup(rec: &mut GameRecord, rng: &mut impl rand::Rng) {
    let mut play = RigaPlay::ordering(rng);
    for seat in rec.ai_seats() {
        let _ = play.lock(seat.0, now(), rng);
    }
    rec.riga = Some(play);
    rec.dms = vec![None; rec.game.seats().len()];
    for seat in rec.human_seats() {
        rec.push_effect(Effect::Dm { seat: seat.0 });
    }
}

/// The words for a refusal.
fn refusal_key(e: RigaError) -> &'static str {
    match e {
        RigaError::NotASeat => "error-not-a-player",
        RigaError::NotOrdering | RigaError::NoPoint => "error-out-of-date",
        RigaError::NotInBattle => "error-game-over",
        RigaError::NotYourTurn => "shot-not-your-turn",
        // The rules' refusals are put in words with the position (see `play_move`).
        RigaError::Rules(_) => "error-out-of-date",
    }
}

/// Why a press is not played.
enum NotPlayed {
    Again(String, bool),
    Text(String),
    Words(&'static str),
    Refused(RigaError),
}

/// The turn's time in seconds, under the game's timer.
fn turn_seconds(rec: &GameRecord) -> Option<u64> {
    rec.game.ruleset().timer.seconds()
}

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
    let side = rec.riga.as_ref()?.to_move()?;
    let seat = seat_of(side);
    rec.is_ai_seat(SeatId(seat)).then_some(seat)
}

/// When the timer should look at a Riga game: its reminder or forfeit, and while the bot is
/// to move, soon after a thinker's lease would run out.
pub fn deadline(ctx: &Ctx, rec: &GameRecord) -> Option<u64> {
    let r = rec.riga.as_ref()?;
    let own = r.deadline(turn_seconds(rec));
    match ai_to_move(rec) {
        Some(_) => {
            let soon = now() + super::play::lease(ctx).as_secs() + 1;
            Some(own.map_or(soon, |d| d.min(soon)))
        }
        None => own,
    }
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
            if let Some((_, generation)) = press {
                if generation != rec.generation {
                    return Err(NotPlayed::Words("error-out-of-date"));
                }
            }
            let Some(seat) = rec.game.seat_of(PlayerId(user)) else {
                return Err(NotPlayed::Words("error-not-a-player"));
            };
            let m = mv(rec)?;
            let group_lang = rec.lang;
            let r = rec
                .riga
                .as_mut()
                .ok_or(NotPlayed::Words("error-out-of-date"))?;
            let before = r.game.clone();
            r.play(seat.0, m, now(), |before, m, lost| {
                riga_text::move_line(group_lang, before, m, lost)
            })
            .map_err(|e| match (e, &before) {
                (RigaError::Rules(e), Some(game)) => {
                    NotPlayed::Text(riga_text::move_error(lang, game, m, e))
                }
                (e, _) => NotPlayed::Refused(e),
            })?;
            if let Some((query, _)) = press {
                rec.remember_answer(query, &t(lang, "rg-move-done"), false);
            }
            Ok(())
        })
        .await?;
    Ok(done.map(|c| c.record))
}

/// After a change: the sender wakes, and the bot moves if it is its turn.
fn follow_up(ctx: &Ctx, id: GameId, rec: &GameRecord) {
    super::outbox::kick(ctx, id);
    wake(ctx, rec, id);
}

/// A press of a Riga button.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    match button {
        Button::RigaMove(id, generation, mv) => {
            let press = Some((q.id.0.as_str(), generation));
            let done = play_move(ctx, id, q.from.id.0, lang, press, |_| Ok(mv)).await;
            match done {
                Ok(Ok(rec)) => {
                    super::crash_point("riga-move");
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
        NotPlayed::Refused(e) => answer(ctx, q, t(lang, refusal_key(e)), true).await,
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
                .riga
                .as_mut()
                .ok_or(NotPlayed::Words("error-out-of-date"))?;
            let mut rng = rng.clone();
            let key = match button {
                Button::RigaTap(_, p) => r.tap(seat.0, p).map(|()| ""),
                Button::RigaShuffle(_) => r.shuffle(seat.0, &mut rng).map(|()| ""),
                _ => r.lock(seat.0, now(), &mut rng).map(|_| "rg-locked"),
            }
            .map_err(NotPlayed::Refused)?;
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
                super::crash_point("riga-lock");
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
    if generation != rec.generation || *rec.game.phase() != Phase::Lobby {
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
            if rec.riga.is_some() {
                rec.riga = None;
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
            rec.riga = Some(RigaPlay::default());
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

/// The ruleset a Riga lobby keeps: two players, the chat's turn timer.
pub fn duel(r: &engine::Ruleset) -> engine::Ruleset {
    engine::Ruleset {
        players: engine::Players::Duel,
        timer: r.timer,
        ..engine::Ruleset::default()
    }
}

/// A move typed in reply to the battle's message.
pub async fn on_text(
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
            .riga
            .as_ref()
            .and_then(|r| r.game.as_ref())
            .ok_or(NotPlayed::Words("error-game-over"))?;
        riga::notation::parse_move(&text, game)
            .map_err(|e| NotPlayed::Text(riga_text::parse_error(lang, &e, &example)))
    })
    .await;
    let words = match done {
        Ok(Ok(rec)) => {
            follow_up(ctx, id, &rec);
            return Ok(());
        }
        Ok(Err(NotPlayed::Again(text, _))) => text,
        Ok(Err(NotPlayed::Words(key))) => t(lang, key),
        Ok(Err(NotPlayed::Text(text))) => text,
        Ok(Err(NotPlayed::Refused(e))) => t(lang, refusal_key(e)),
        Err(e) => t(lang, super::store_error_key(&e)),
    };
    // Refusals go where Sea Battle's typed shots send them: the player's private chat.
    super::play::say(ctx, &super::play::Reply::Message(msg), words, true).await
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
        .transition(id, |rec| {
            let seat = rec
                .game
                .seat_of(PlayerId(user))
                .ok_or("error-not-a-player")?;
            let r = rec.riga.as_mut().ok_or("surrender-not-now")?;
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

/// The timer of a Riga game is due: a reminder, or the side to move forfeits.
pub async fn on_due(ctx: &Ctx, id: GameId) {
    let due = |r: &GameRecord| deadline(ctx, r);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |rec| {
            let secs = turn_seconds(rec);
            let lang = rec.lang;
            let names: Vec<String> = (0..2u8).map(|s| rec.short_name(SeatId(s), 40)).collect();
            let r = rec.riga.as_mut().ok_or(())?;
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
    let ctx = ctx.clone();
    tokio::spawn(async move {
        if let Err(e) = drive(&ctx, id).await {
            log::warn!("the bot's Riga move in {id}: {e}");
        }
    });
}

/// Moves for the bot for as long as it is its turn and this replica holds the lease.
async fn drive(ctx: &Ctx, id: GameId) -> HandlerResult {
    loop {
        let (rec, _) = ctx.store.load_game(id).await?;
        let Some(seat) = ai_to_move(&rec) else {
            return Ok(());
        };
        if !ctx.store.take_ai_lease(id, super::play::lease(ctx)).await? {
            return Ok(());
        }
        let moved = think_and_move(ctx, id, &rec, seat).await;
        let _ = ctx.store.drop_ai_lease(id).await;
        if !moved? {
            return Ok(());
        }
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
    let Some(game) = rec.riga.as_ref().and_then(|r| r.game.clone()) else {
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
            let play = r.riga.as_mut().ok_or(())?;
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
    rec.riga.as_ref().is_some_and(|r| r.game.is_some())
}
