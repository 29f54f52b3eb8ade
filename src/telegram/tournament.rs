//! A group's tournament (`/tournament`): its message and buttons, each change one transition
//! of `game/tournament/` in one compare-and-set; each match opened as a duel on the group's
//! board (a game record like any other, so the timer, the sender and restarts need nothing
//! new); a match's end, when its game is settled, recorded and the next match opened.
//!
//! Each step is safe to run again (after a crash, or by a second replica): a match's game
//! id is stored in the tournament before the game is created under it, a result is recorded
//! once per game, and the settlement that calls [`match_over`] runs until it succeeds.

use super::context::{crash_point, display_name, now, store_error_key, Ctx, HandlerResult};
use super::metered::Metered;
use super::send::topic_of;
use super::send::{active_game, answer, answer_store_error, edit_live, in_topic, markup, reply};
use super::send::{answer_with_start_link, send_reply, Drawn};
use crate::game::lang::Lang;
use crate::game::lobby::{self, Setup};
use crate::game::record::{Board, GameKind, GameRecord};
use crate::game::timer;
use crate::game::tournament::{Entrant, Format, Phase, Tournament, TournamentRefused};
use crate::store::{GameId, StoreError};
use crate::view::buttons::TourOp;
use crate::view::i18n::{t, ta};
use crate::view::picture::{render_leaderboard_png, BoardRow};
use crate::view::render::escape;
use crate::view::tournament::{message_hash, podium_lines, refusal_words};
use crate::view::tournament::{standings_picture, tournament_message};
use engine::{EndReason, Phase as GamePhase};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatMemberKind, MessageId, ParseMode, User};

/// The language a chat's tournament speaks: the chat's, else `fallback`.
async fn chat_lang(ctx: &Ctx, chat: i64, fallback: Lang) -> Lang {
    ctx.store
        .chat_settings(chat)
        .await
        .ok()
        .and_then(|s| s.lang)
        .unwrap_or(fallback)
}

/// Whether `user` may write with an admin's rights in `chat` (its creator or an admin).
async fn is_admin(ctx: &Ctx, chat: i64, user: u64) -> bool {
    match ctx
        .bot
        .get_chat_member(ChatId(chat), UserId(user))
        .metered()
        .await
    {
        Ok(m) => matches!(
            m.kind,
            ChatMemberKind::Owner(_) | ChatMemberKind::Administrator(_)
        ),
        Err(e) => {
            log::debug!("getChatMember {chat} {user}: {e}");
            false
        }
    }
}

/// Whether `user` opened the private chat, where the bot asks for their fleets.
async fn started(ctx: &Ctx, user: u64) -> bool {
    ctx.store.user_settings(user).await.is_ok_and(|s| s.started)
}

/// `/tournament` in a group: a new tournament's sign-up, its opener signed up first.
pub async fn on_command(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    if msg.chat.is_private() {
        return reply(ctx, msg, t(lang, "tour-in-private")).await;
    }
    if !started(ctx, user.id.0).await {
        return reply(ctx, msg, t(lang, "tour-open-bot-first")).await;
    }
    let chat = msg.chat.id.0;
    let id = match ctx.store.reserve_game_id().await {
        Ok(id) => id.0,
        Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
    };
    let runner = Entrant {
        user: user.id.0,
        name: display_name(user),
    };
    let fresh = Tournament::open(id, chat, topic_of(msg), runner, Format::default(), now());
    let done = ctx
        .store
        .update_tournament(
            chat,
            || Some(fresh.clone()),
            |t| if t.open_anew(&fresh) { Ok(()) } else { Err(()) },
        )
        .await;
    match done {
        Ok(Ok(_)) => {}
        Ok(Err(())) => return reply(ctx, msg, t(lang, "tour-already")).await,
        Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
    show(ctx, chat, lang, true).await
}

/// A tournament's button, pressed in its group.
pub async fn on_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: u64,
    op: TourOp,
) -> HandlerResult {
    let Some(chat) = q.message.as_ref().map(|m| m.chat().id.0) else {
        return answer(ctx, q, t(lang, "tour-out-of-date"), true).await;
    };
    let uid = q.from.id.0;
    let tour = match ctx.store.tournament(chat).await {
        Ok(Some((tour, _))) if tour.id == id => tour,
        Ok(_) => return answer(ctx, q, t(lang, "tour-out-of-date"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    if op == TourOp::Join && !started(ctx, uid).await {
        // Telegram opens the private chat from this link; Join again once there.
        if answer_with_start_link(ctx, q, "tournament").await? {
            return Ok(());
        }
        return answer(ctx, q, t(lang, "tour-open-bot"), true).await;
    }
    let runs = matches!(op, TourOp::Start | TourOp::Cancel | TourOp::Format(_));
    let may_run = runs && (uid == tour.runner || is_admin(ctx, chat, uid).await);
    if op == TourOp::Start && may_run {
        match active_game(ctx, chat, tour.topic).await {
            Ok(Some(_)) => return answer(ctx, q, t(lang, "tour-game-running"), true).await,
            Ok(None) => {}
            Err(e) => return answer_store_error(ctx, q, lang, &e).await,
        }
    }
    let name = display_name(&q.from);
    let done = ctx
        .store
        .update_tournament(
            chat,
            || None,
            |t| {
                if t.id != id {
                    return Err(TournamentRefused::NotOpen);
                }
                match op {
                    TourOp::Join => t.join(Entrant {
                        user: uid,
                        name: name.clone(),
                    }),
                    TourOp::Leave => t.leave(uid),
                    TourOp::Format(f) => t.set_format(uid, may_run, f),
                    TourOp::Start => t.start(uid, may_run),
                    TourOp::Cancel => t.cancel(uid, may_run),
                }
            },
        )
        .await;
    // Changed: its message is redrawn (a format chosen again changes nothing to redraw).
    let changed = matches!(&done, Ok(Ok((_, now))) if *now != tour);
    // A Start that came again (its first run stored the start, then the process died):
    // answered as the first would have been.
    let again = op == TourOp::Start && tour.phase == Phase::Running && may_run;
    let words = match done {
        Ok(Err(TournamentRefused::NotOpen)) if again => t(lang, "tour-started"),
        Ok(Ok(_)) => t(
            lang,
            match op {
                TourOp::Join => "tour-joined",
                TourOp::Leave => "tour-left",
                TourOp::Format(_) => "tour-format-set",
                TourOp::Start => "tour-started",
                TourOp::Cancel => "tour-cancelled-answer",
            },
        ),
        Ok(Err(r)) => refusal_words(lang, r),
        Err(StoreError::NotFound) => {
            return answer(ctx, q, t(lang, "tour-out-of-date"), true).await
        }
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let refused = matches!(done, Ok(Err(_))) && !again;
    answer(ctx, q, words, refused).await?;
    if changed {
        show(ctx, chat, lang, false).await?;
    }
    // Whatever the press did: a match the tournament waits for is opened (after a crash
    // between a Start and its first match, the Start's update comes again, refused).
    open_next_match(ctx, chat).await?;
    Ok(())
}

/// The tournament's message brought up to date: edited, or (by `/tournament`, `first`) sent.
/// A drawing is noted in the tournament before it goes, so of two replicas that both see a
/// change one edits (and an unchanged message is never edited); a change made before the
/// first message is stored waits for the next.
async fn show(ctx: &Ctx, chat: i64, fallback: Lang, first: bool) -> HandlerResult {
    let lang = chat_lang(ctx, chat, fallback).await;
    // Drawn from the tournament as stored when the drawing is noted.
    let due = ctx
        .store
        .update_tournament(
            chat,
            || None,
            |t| {
                let (text, kb) = tournament_message(t, lang);
                let drawable = first || t.message.is_some();
                match drawable && t.to_draw(message_hash(&text, &kb)) {
                    true => Ok((t.message, text, kb)),
                    false => Err(()),
                }
            },
        )
        .await;
    let ((message, text, kb), tour) = match due {
        Ok(Ok(due)) => due,
        Ok(Err(())) | Err(StoreError::NotFound) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if let Some(message) = message {
        return edit_live(ctx, ChatId(chat), MessageId(message), text, kb).await;
    }
    super::context::pace(ctx, ChatId(chat)).await?;
    let mut req = ctx
        .bot
        .send_message(ChatId(chat), text)
        .parse_mode(ParseMode::Html);
    if let Some(kb) = kb {
        req = req.reply_markup(markup(kb));
    }
    let sent = in_topic(req, tour.topic).metered().await?;
    ctx.store
        .update_tournament(
            chat,
            || None,
            |t| {
                t.shown_in(tour.id, sent.id.0);
                Ok::<(), ()>(())
            },
        )
        .await?
        .ok();
    Ok(())
}

/// Opens the tournament's next match, when it is running and no match is being played:
/// its game id stored in the tournament first, then the game created under it (each
/// skipped when done before), the players seated and asked for their fleets.
pub async fn open_next_match(ctx: &Ctx, chat: i64) -> Result<(), StoreError> {
    let Some((tour, _)) = ctx.store.tournament(chat).await? else {
        return Ok(());
    };
    if tour.phase != Phase::Running {
        return Ok(());
    }
    let (round, index, game) = match (tour.playing(), tour.next_match()) {
        (Some((r, i)), _) => match tour.rounds[r].matches[i].game {
            Some(g) => (r, i, g),
            None => return Ok(()),
        },
        (None, Some((r, i))) => {
            let reserved = ctx.store.reserve_game_id().await?.0;
            let assigned = ctx
                .store
                .update_tournament(
                    chat,
                    || None,
                    |t| {
                        if t.id != tour.id {
                            return Err(TournamentRefused::NotRunning);
                        }
                        match t.playing() {
                            Some((r2, i2)) => t.rounds[r2].matches[i2]
                                .game
                                .map(|g| (r2, i2, g))
                                .ok_or(TournamentRefused::NotRunning),
                            None => t.assign_game(r, i, reserved).map(|()| (r, i, reserved)),
                        }
                    },
                )
                .await?;
            crash_point(ctx, "match-assigned");
            match assigned {
                Ok((found, _)) => found,
                Err(_) => return Ok(()),
            }
        }
        (None, None) => return Ok(()),
    };
    let id = GameId(game);
    match ctx.store.load_game(id).await {
        Ok(_) => return Ok(()),
        Err(StoreError::NotFound) => {}
        Err(e) => return Err(e),
    }
    let Some((tour, _)) = ctx.store.tournament(chat).await? else {
        return Ok(());
    };
    let m = &tour.rounds[round].matches[index];
    let (Some(a), Some(b)) = (
        tour.entrants.get(m.a),
        m.b.and_then(|b| tour.entrants.get(b)),
    ) else {
        return Ok(());
    };
    let settings = ctx.store.chat_settings(chat).await?;
    let lang = settings.lang.unwrap_or(Lang::En);
    // In a forum that gives each game a topic of its own, so does each match.
    let own = match settings.own_topics {
        true => match_topic(ctx, chat, lang, round, (&a.name, &b.name)).await,
        false => None,
    };
    let (rules, kind) = (settings.ruleset.clone(), GameKind::SeaBattle);
    let place = (chat, a.user, lang);
    let setup = Setup {
        topic: own.or(tour.topic),
        own_topic: own.is_some(),
        ..Setup::from_settings(&settings, place, ctx.config.board, rules, kind)
    };
    let words = ta(
        lang,
        "tour-match",
        &[
            ("round", (round + 1).into()),
            ("a", escape(&a.name).into()),
            ("b", escape(&b.name).into()),
        ],
    );
    let players = [(a.user, a.name.as_str()), (b.user, b.name.as_str())];
    let opened = lobby::tournament_match(&setup, players, (tour.id, words), now(), &mut ctx.fork());
    let rec = match opened {
        Ok(rec) => rec,
        Err(r) => {
            log::warn!(
                "tournament {} in {chat}: match {game} not opened: {r:?}",
                tour.id
            );
            return Ok(());
        }
    };
    // Created, the game is marked in the outbox: this process's beat wakes its sender
    // within half a second (a kick from here would make the sender call itself).
    if ctx.store.create_game_at(id, &rec).await? {
        // Its placement has a limit: the timer looks at it then, touched or not.
        let due = timer::deadline(&rec, now(), ctx.config.ai_pause);
        ctx.store.schedule(id, due).await?;
        ctx.store.set_chat_game(chat, rec.topic, id).await?;
        for user in [a.user, b.user] {
            ctx.store.set_user_game(user, id).await?;
        }
    }
    if let Err(e) = show(ctx, chat, lang, false).await {
        log::warn!("tournament {} in {chat}: its message: {e}", tour.id);
    }
    Ok(())
}

/// The standings as a picture after each round, in a chat whose fields are pictures: the
/// round's end under it, and at the end the podium. Each at most once: noted in the
/// tournament before it goes (a crash between leaves it out; the tournament's message
/// shows the standings anyway).
async fn post_standings(ctx: &Ctx, chat: i64, fallback: Lang) -> HandlerResult {
    let settings = ctx.store.chat_settings(chat).await?;
    if settings.board.unwrap_or(ctx.config.board) != Board::Picture {
        return Ok(());
    }
    let noted = ctx
        .store
        .update_tournament(chat, || None, |t| t.picture_due().ok_or(()))
        .await?;
    let Ok((round, tour)) = noted else {
        return Ok(());
    };
    let lang = settings.lang.unwrap_or(fallback);
    let caption = match tour.phase {
        Phase::Finished => podium_lines(&tour, lang),
        _ => ta(
            lang,
            "tour-round-over",
            &[
                ("round", round.into()),
                ("rounds", tour.rounds_total().into()),
            ],
        ),
    };
    let (title, rows) = standings_picture(&tour, lang);
    let render = move || {
        let rows: Vec<BoardRow<'_>> = rows
            .iter()
            .map(|r| BoardRow {
                place: r.place,
                name: &r.name,
                rating: r.points,
                games: &r.detail,
            })
            .collect();
        render_leaderboard_png(&title, &rows)
    };
    super::context::pace(ctx, ChatId(chat)).await?;
    let picture: Drawn = ("standings.png", Box::new(render));
    send_reply(ctx, ChatId(chat), tour.topic, caption, Some(picture)).await?;
    Ok(())
}

/// A new forum topic of `chat` for a match of `round` between `names`: its thread id;
/// `None` when Telegram refuses (the bot may no more manage topics).
async fn match_topic(
    ctx: &Ctx,
    chat: i64,
    lang: Lang,
    round: usize,
    (a, b): (&str, &str),
) -> Option<i32> {
    let name = ta(
        lang,
        "tour-topic-name",
        &[
            ("round", (round + 1).into()),
            ("a", a.into()),
            ("b", b.into()),
        ],
    );
    let name: String = name.chars().take(128).collect();
    match ctx
        .bot
        .create_forum_topic(ChatId(chat), name)
        .metered()
        .await
    {
        Ok(topic) => Some(topic.thread_id.0 .0),
        Err(e) => {
            log::warn!("a topic of its own for a tournament's match in {chat}: {e}");
            None
        }
    }
}

/// A finished game that is a tournament's match: its result recorded (once), the
/// tournament's message redrawn and the next match opened. A match called off before its
/// battle (by the timer, when the fleets were not placed in time, or by its creator) goes
/// to the one player who placed a fleet; else to the one who did not call it off.
pub async fn match_over(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Result<(), StoreError> {
    let Some(tid) = rec.tournament else {
        return Ok(());
    };
    let GamePhase::Finished { winners, reason } = rec.game.phase() else {
        return Ok(());
    };
    let player = |seat: usize| rec.game.seats().get(seat).map(|s| s.player.0);
    let (winner, forfeit) = match winners.first() {
        Some(seat) => (player(seat.index()), *reason == EndReason::Retired),
        None => {
            let seats = rec.game.seats();
            let ready: Vec<u64> = (0..seats.len())
                .filter(|&i| rec.game.is_ready(engine::SeatId(i as u8)))
                .filter_map(player)
                .collect();
            let winner = match ready[..] {
                [one] => Some(one),
                _ => seats.iter().map(|s| s.player.0).find(|&p| p != rec.creator),
            };
            (winner, true)
        }
    };
    let Some(winner) = winner else {
        return Ok(());
    };
    let done = ctx
        .store
        .update_tournament(
            rec.chat,
            || None,
            |t| {
                if t.id != tid {
                    return Err(TournamentRefused::UnknownGame);
                }
                t.record(id.0, winner, forfeit)
            },
        )
        .await;
    match done {
        Ok(Ok(_)) => {}
        // The tournament was called off, or replaced: the game was only a game.
        Ok(Err(r)) => {
            log::info!("game {id}: not a result of tournament {tid}: {r:?}");
            return Ok(());
        }
        Err(StoreError::NotFound) => return Ok(()),
        Err(e) => return Err(e),
    }
    crash_point(ctx, "tournament-recorded");
    if let Err(e) = show(ctx, rec.chat, rec.lang, false).await {
        log::warn!("tournament {tid} in {}: its message: {e}", rec.chat);
    }
    if let Err(e) = post_standings(ctx, rec.chat, rec.lang).await {
        log::warn!(
            "tournament {tid} in {}: its standings' picture: {e}",
            rec.chat
        );
    }
    open_next_match(ctx, rec.chat).await
}
