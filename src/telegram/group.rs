//! The group's live message (the lobby, then the battle) and the end of a game.
//!
//! A group takes about 20 sends and edits a minute, however fast people tap. So the live
//! message is never edited straight from a handler: a handler marks it for redrawing
//! ([`redraw`]), and whoever holds the chat's lease in Redis draws the latest state, waits
//! the gap, and draws again only if something changed meanwhile. Many results in a burst
//! become one edit carrying all of them; the lease lives in Redis, so this holds across
//! replicas too.

use super::callback::{join_payload, Button};
use super::render::{self, escape, field_text, grid_keyboard, Viewport};
use super::{now, Ctx, HandlerResult};
use crate::i18n::{t, ta};
use crate::record::{GameRecord, Stats};
use crate::store::GameId;
use engine::{Coord, EndReason, Event, Mark, Phase, SeatId};
use std::hash::{Hash, Hasher};
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{ChatId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ParseMode};
use teloxide::{ApiError, RequestError};

/// Buttons besides the cells in the battle keyboard (none yet; the block switch is counted
/// by the viewport).
const BATTLE_RESERVED: usize = 0;

/// The viewport of the battle keyboard for this game.
pub fn battle_viewport(rec: &GameRecord) -> Viewport {
    Viewport::new(rec.game.ruleset().size(), BATTLE_RESERVED)
}

/// The live message's text and keyboard, for the game's phase.
pub fn live_message(
    rec: &GameRecord,
    id: GameId,
    username: &str,
) -> (String, Option<InlineKeyboardMarkup>) {
    match rec.game.phase() {
        Phase::Lobby | Phase::Placement => lobby_message(rec, id, username),
        Phase::Battle => battle_message(rec, id),
        Phase::Finished { .. } => (battle_text(rec), None),
    }
}

fn lobby_message(
    rec: &GameRecord,
    id: GameId,
    username: &str,
) -> (String, Option<InlineKeyboardMarkup>) {
    let lang = rec.lang;
    let game = &rec.game;
    let seats = game.ruleset().seats();
    let mut text = format!(
        "<b>{}</b>\n{}\n\n{}",
        t(lang, "lobby-title"),
        escape(&render::ruleset_words(lang, game.ruleset())),
        ta(
            lang,
            "lobby-players",
            &[
                ("count", game.seats().len().into()),
                ("seats", seats.into())
            ]
        ),
    );
    let placing = *game.phase() == Phase::Placement;
    text.push_str(&super::settings::team_lines(rec, |i| {
        let status = if !placing {
            String::new()
        } else if game.is_ready(SeatId(i as u8)) {
            format!(" — {}", t(lang, "lobby-ready"))
        } else {
            format!(" — {}", t(lang, "lobby-placing"))
        };
        let name = rec.names.get(i).map_or("?", String::as_str);
        format!("{}. {}{status}", i + 1, escape(name))
    }));
    text.push_str("\n\n");
    let g = rec.generation;
    let keyboard = if placing {
        text.push_str(&t(lang, "lobby-hint-placement"));
        vec![vec![InlineKeyboardButton::callback(
            t(lang, "btn-cancel"),
            Button::Cancel(id, g).to_string(),
        )]]
    } else {
        text.push_str(&t(lang, "lobby-hint-join"));
        let panel = super::settings::lobby_panel(rec, id);
        if let Some((lines, _)) = &panel {
            text.push_str(&format!("\n\n{lines}"));
        }
        let mut rows = vec![vec![
            InlineKeyboardButton::callback(t(lang, "btn-join"), Button::Join(id, g).to_string()),
            InlineKeyboardButton::callback(t(lang, "btn-start"), Button::Start(id, g).to_string()),
            InlineKeyboardButton::callback(
                t(lang, "btn-cancel"),
                Button::Cancel(id, g).to_string(),
            ),
        ]];
        if let Some((_, panel_rows)) = panel {
            rows.extend(panel_rows);
            return (text, Some(InlineKeyboardMarkup::new(rows)));
        }
        if game.seats().len() < seats {
            rows.push(vec![InlineKeyboardButton::callback(
                t(lang, "btn-play-bot"),
                Button::Bot(id, g).to_string(),
            )]);
        }
        rows.push(vec![super::settings::open_button(rec, id)]);
        if let Ok(url) = format!("https://t.me/{username}?start={}", join_payload(id)).parse() {
            rows.push(vec![InlineKeyboardButton::url(
                t(lang, "btn-open-bot"),
                url,
            )]);
        }
        rows
    };
    (text, Some(InlineKeyboardMarkup::new(keyboard)))
}

/// The battle message's text: every field as the public sees it, whose turn, the latest
/// results, and the fleet commitments.
pub fn battle_text(rec: &GameRecord) -> String {
    let lang = rec.lang;
    let game = &rec.game;
    let view = game.public_view();
    let name = |s: SeatId| escape(rec.names.get(s.index()).map_or("?", String::as_str));
    let mut text = format!("<b>{}</b>", t(lang, "battle-title"));
    for field in &view.fields {
        let mut title = ta(
            lang,
            "battle-field-of",
            &[("name", name(field.seat).into())],
        );
        if !field.afloat && !game.is_finished() {
            title.push_str(&format!(" — {}", t(lang, "battle-sunk")));
        }
        text.push_str(&format!(
            "\n\n{title}\n<pre>{}</pre>",
            field_text(field, rec.alphabet)
        ));
    }
    text.push('\n');
    for line in log_lines(rec) {
        text.push_str(&format!("\n{line}"));
    }
    match game.phase() {
        Phase::Battle => {
            text.push_str(&format!(
                "\n\n{}",
                ta(lang, "battle-turn", &[("name", name(game.turn()).into())])
            ));
        }
        Phase::Finished { winners, reason } => {
            let names: Vec<String> = winners.iter().map(|&s| name(s)).collect();
            let key = match reason {
                EndReason::Cancelled => "end-cancelled",
                _ if names.is_empty() => "end-no-winner",
                _ => "end-winner",
            };
            text.push_str(&format!(
                "\n\n<b>{}</b>",
                ta(lang, key, &[("names", names.join(", ").into())])
            ));
        }
        _ => {}
    }
    if matches!(game.phase(), Phase::Battle) {
        text.push_str(&format!("\n\n{}", t(lang, "battle-commitments")));
        for s in 0..game.seats().len() as u8 {
            if let Some(c) = game.commitment(SeatId(s)) {
                text.push_str(&format!("\n{}: <code>{c}</code>", name(SeatId(s))));
            }
        }
    }
    text
}

/// The results as lines: one a result, or, when more came since the last redraw than the
/// message shows, one line for each run of shots by the same player, so a burst of any size
/// fits the message and loses none.
fn log_lines(rec: &GameRecord) -> Vec<String> {
    let lang = rec.lang;
    let size = rec.game.ruleset().size();
    let one = |e: &Event| render::log_line(lang, e, &rec.names, rec.alphabet, size);
    if rec.log.len() <= crate::record::LOG_LEN {
        return rec.log.iter().filter_map(one).collect();
    }
    let mut lines: Vec<String> = Vec::new();
    let mut run: Option<(SeatId, Vec<String>)> = None;
    let flush = |run: &mut Option<(SeatId, Vec<String>)>, lines: &mut Vec<String>| {
        if let Some((seat, parts)) = run.take() {
            let name = escape(rec.names.get(seat.index()).map_or("?", String::as_str));
            lines.push(ta(
                lang,
                "log-shots",
                &[("name", name.into()), ("shots", parts.join("; ").into())],
            ));
        }
    };
    for e in &rec.log {
        if let Event::Shot {
            shooter,
            cell,
            result,
            ..
        } = e
        {
            let part = ta(
                lang,
                "log-shot-part",
                &[
                    ("cell", render::cell_name(*cell, rec.alphabet, size).into()),
                    ("result", render::result_words(lang, *result).into()),
                ],
            );
            match &mut run {
                Some((s, parts)) if s == shooter => parts.push(part),
                _ => {
                    flush(&mut run, &mut lines);
                    run = Some((*shooter, vec![part]));
                }
            }
        } else {
            flush(&mut run, &mut lines);
            lines.extend(one(e));
        }
    }
    flush(&mut run, &mut lines);
    lines
}

fn battle_message(rec: &GameRecord, id: GameId) -> (String, Option<InlineKeyboardMarkup>) {
    let game = &rec.game;
    let shooter = game.turn();
    let Some(&target) = game.targets(shooter).first() else {
        return (battle_text(rec), None);
    };
    let view = game.public_view();
    let field = view.field(target);
    let size = field.size;
    let vp = battle_viewport(rec);
    let g = rec.generation;
    let keyboard = grid_keyboard(
        vp,
        rec.block,
        rec.alphabet,
        |c: Coord| {
            let mark = field.mark(c);
            let label = if mark == Mark::Unknown {
                render::cell_name(c, rec.alphabet, size)
            } else {
                render::symbol(mark).to_string()
            };
            (label, Button::Fire(id, g, target.0, size.index(c) as u16))
        },
        |b| Button::View(id, g, b),
        Vec::new(),
    );
    (battle_text(rec), Some(keyboard))
}

/// Sends or edits with Telegram's limits in mind: a 429 is waited out (up to five times),
/// and "message is not modified" counts as done.
pub async fn edit_live(
    ctx: &Ctx,
    chat: ChatId,
    message: MessageId,
    text: String,
    kb: Option<InlineKeyboardMarkup>,
) -> HandlerResult {
    for _ in 0..5 {
        super::pace(ctx, chat).await;
        let mut req = ctx
            .bot
            .edit_message_text(chat, message, text.clone())
            .parse_mode(ParseMode::Html);
        if let Some(kb) = kb.clone() {
            req = req.reply_markup(kb);
        }
        match req.await {
            Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => return Ok(()),
            Err(RequestError::RetryAfter(secs)) => tokio::time::sleep(secs.duration()).await,
            Err(e) => return Err(e.into()),
        }
    }
    Err(RequestError::RetryAfter(teloxide::types::Seconds::from_seconds(1)).into())
}

/// Draws the live message of `rec` unless it already shows exactly this.
async fn draw(ctx: &Ctx, id: GameId, chat: i64, hold: Duration, rec: &GameRecord) {
    let Some(m) = rec.message else { return };
    let (text, kb) = live_message(rec, id, &ctx.username);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    serde_json::to_string(&kb).unwrap_or_default().hash(&mut h);
    let hash = h.finish();
    if hash == rec.drawn {
        return;
    }
    match edit_live(ctx, ChatId(chat), MessageId(m), text, kb).await {
        Ok(()) => {
            let total = rec.log_total;
            let _ = ctx
                .store
                .transition(id, |r| {
                    r.mark_shown(total);
                    r.drawn = hash;
                    Ok::<_, ()>(())
                })
                .await;
        }
        Err(e) => {
            log::warn!("redraw of {id}: {e}");
            // Flood control or the network: try again after the gap. Anything else (the
            // message was deleted) is given up.
            if matches!(
                e,
                super::BotError::Telegram(RequestError::RetryAfter(_) | RequestError::Network(_))
            ) {
                let _ = ctx.store.want_redraw(chat, id, hold, now()).await;
            }
        }
    }
}

/// How long a drawer holds the right to redraw a chat: long enough for one draw with a retry
/// or two; short enough that a crashed holder delays the next draw by seconds only.
pub fn redraw_hold(ctx: &Ctx, chat: i64) -> Duration {
    ctx.config.gap(chat) * 2 + Duration::from_secs(2)
}

/// Asks for the chat's live message to be redrawn, and draws it if nobody else is: the
/// latest state, then again after the gap for as long as changes keep coming.
pub async fn redraw(ctx: &Ctx, id: GameId, chat: i64) {
    let hold = redraw_hold(ctx, chat);
    match ctx.store.want_redraw(chat, id, hold, now()).await {
        Ok(true) => log::debug!("redraw of {id}: drawing"),
        Ok(false) => {
            log::debug!("redraw of {id}: someone else draws");
            return;
        }
        Err(e) => {
            log::warn!("redraw of {id}: {e}");
            return;
        }
    }
    let ctx = ctx.clone();
    tokio::spawn(async move {
        loop {
            if let Err(e) = ctx.store.begin_redraw(chat, hold).await {
                log::warn!("redraw of {id}: {e}");
                return;
            }
            match ctx.store.load_game(id).await {
                Ok((rec, _)) => draw(&ctx, id, chat, hold, &rec).await,
                Err(e) => log::warn!("redraw of {id}: {e}"),
            }
            tokio::time::sleep(ctx.config.gap(chat)).await;
            log::debug!("redraw of {id}: done, checking for more");
            match ctx.store.end_redraw(chat, id).await {
                Ok(false) => continue,
                Ok(true) => return,
                Err(e) => {
                    log::warn!("redraw of {id}: {e}");
                    return;
                }
            }
        }
    });
}

/// [`finish`] in the background: its announcement may wait for the group's budget, and a
/// handler must not hold up the chat's next update meanwhile.
pub fn finish_soon(ctx: &Ctx, id: GameId) {
    let ctx = ctx.clone();
    tokio::spawn(async move {
        if let Err(e) = finish(&ctx, id).await {
            log::warn!("end of game {id}: {e}");
        }
    });
}

/// Ends a game once: announces the winner, reveals every field and the commitments' salts,
/// offers a rematch, frees the players and counts the statistics. Safe to call from every
/// replica and every handler: only the first call does it.
pub async fn finish(ctx: &Ctx, id: GameId) -> HandlerResult {
    let claimed = ctx
        .store
        .transition(id, |rec| {
            if !rec.game.is_finished() || rec.announced {
                return Err(());
            }
            rec.announced = true;
            Ok(())
        })
        .await?;
    let Ok(done) = claimed else {
        return Ok(());
    };
    let rec = done.record;
    let chat = rec.chat;
    let _ = ctx.store.clear_chat_game(chat, id).await;
    let _ = ctx.store.schedule(id, None).await;
    let winners = match rec.game.phase() {
        Phase::Finished { winners, .. } => winners.clone(),
        _ => Vec::new(),
    };
    for (i, seat) in rec.game.seats().iter().enumerate() {
        if crate::record::is_ai(seat.player) {
            continue;
        }
        let user = seat.player.0;
        let _ = ctx.store.clear_user_game(user, id).await;
        if rec.game.fleet(SeatId(i as u8)).is_some() {
            let won = winners.contains(&SeatId(i as u8));
            let stats = Stats {
                games: 1,
                wins: u64::from(won),
                ..Stats::default()
            };
            let _ = ctx
                .store
                .add_stats(user, &rec.game.ruleset().to_string(), stats)
                .await;
        }
    }
    if rec.game.fleet(SeatId(0)).is_some() {
        let lang = rec.lang;
        let mut text = battle_text(&rec);
        text.push_str(&format!("\n\n{}", t(lang, "end-reveal")));
        for s in 0..rec.game.seats().len() as u8 {
            if let Some((layout, salt)) = rec.game.reveal(SeatId(s)) {
                let name = escape(rec.names.get(usize::from(s)).map_or("?", String::as_str));
                text.push_str(&format!(
                    "\n{name}: <code>{layout}</code>\n{}: <code>{salt}</code>",
                    t(lang, "end-salt")
                ));
            }
        }
        let kb = InlineKeyboardMarkup::new(vec![vec![InlineKeyboardButton::callback(
            t(lang, "btn-rematch"),
            Button::Rematch(id).to_string(),
        )]]);
        super::pace(ctx, ChatId(chat)).await;
        ctx.bot
            .send_message(ChatId(chat), text)
            .parse_mode(ParseMode::Html)
            .reply_markup(kb)
            .await?;
    }
    redraw(ctx, id, chat).await;
    log::info!("game {id} finished at {}", now());
    Ok(())
}
