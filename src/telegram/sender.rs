//! Each game's one sender: it delivers the game's outbox (`game/delivery.rs`) and keeps the live
//! message drawn from the latest record.
//!
//! Handlers never send. A transition stores the new state and its effects together and marks
//! the game in the outbox index; then [`kick`] wakes this process's sender, and the ticker's
//! [`poll`] wakes one for every marked game, on any replica, after any crash. A sender first
//! takes the game's lease (a fencing token in Redis): one sender a game at a time, and a
//! sender that lost its lease cannot store anything. It then loops: load the latest record;
//! edit the live message when what it would show differs from what it shows (never an
//! older version: it renders what it just loaded), within the chat's budget and the gap
//! between edits; else deliver the first effect and remove it; else release the lease,
//! which fails if the game changed meanwhile, and goes on.
//!
//! Every send and edit of a chat takes a token of the chat's GCRA bucket first (shared by
//! replicas, never skipped): a group gets at most [`BotConfig::group_per_minute`] a minute,
//! evenly, however fast people play.

use super::context::{crash_point, BotError, Ctx};
use super::metered::Metered;
use super::send::{group_gone, in_topic, topic_gone, user_lang_by_id};
use super::token::{with_priority, Priority};
use crate::game::delivery::{variant_of, EditOf, Effect, Outgoing};
use crate::game::record::{Board, Editor, GameRecord, Settlement};
use crate::game::sent::{self, Sent};
use crate::game::settle;
use crate::store::outbox::Release;
use crate::store::{GameId, Leaderboard, StoreError};
use crate::view::editor::editor_text;
use crate::view::group::end_texts;
use crate::view::i18n::t;
use crate::view::keyboard::Keyboard;
use crate::view::live::{live_drawing, with_board_link, Drawing};
use engine::{Phase, SeatId};
use std::hash::{Hash, Hasher};
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{ChatId, InputFile, InputMedia, InputMediaPhoto, MessageId, ParseMode};
use teloxide::{ApiError, RequestError};

/// How long a sender holds a game: renewed before every send, so a live sender stuck longer
/// than this loses it. A dead sender's lease is taken over as soon as its process's life key
/// is gone (`store/life.rs`), within two seconds. Longer than a Redis outage a replica lives
/// through (it exits after `MB_UNHEALTHY_EXIT_SECS`, 60 s by default): a lease that ran out
/// while Redis was away would go to another sender, which cannot know what this one sent
/// and could not acknowledge.
const HOLD: Duration = Duration::from_secs(60);

/// The longest a sender sleeps at once while it waits for a budget or the gap.
const MAX_NAP: Duration = Duration::from_secs(5);

/// Wakes this process's sender of game `id` (it starts one when none runs here).
pub fn kick(ctx: &Ctx, id: GameId) {
    start(ctx, id, true);
}

/// Starts a sender of game `id` when none runs here; `again`: one that runs looks again.
fn start(ctx: &Ctx, id: GameId, again: bool) {
    {
        let mut running = ctx
            .sending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(flag) = running.get_mut(&id) {
            *flag |= again;
            return;
        }
        running.insert(id, false);
    }
    let ctx = ctx.clone();
    let span = tracing::info_span!("game", game = id.0);
    let sender = async move {
        loop {
            drain(&ctx, id).await;
            let mut running = ctx
                .sending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match running.get_mut(&id) {
                Some(again) if *again => *again = false,
                _ => {
                    running.remove(&id);
                    return;
                }
            }
        }
    };
    // Every log line of the sender names its game.
    tokio::spawn(tracing::Instrument::instrument(sender, span));
}

/// Wakes a sender for every game marked in the index: the ones whose sender died, or
/// whose change was made on another replica.
pub async fn poll(ctx: &Ctx) {
    match ctx.store.outbox_games(500).await {
        Ok(ids) => {
            for id in ids {
                // A sender running here will see the game's latest record anyway.
                start(ctx, id, false);
            }
        }
        Err(e) => log::debug!("outbox: {e}"),
    }
}

/// What one step of a sender did.
enum Step {
    /// Something was sent: look again. With the record as the sender stored it after,
    /// when it did: if that leaves nothing to send, the sender can let go without loading
    /// it again (letting go fails if the game changed since).
    Sent(Option<Box<(GameRecord, u64)>>),
    /// Something waits for the budget, the gap or Telegram: look again after this.
    Wait(Duration),
    /// Nothing to send at this version of the record.
    Idle(u64),
}

/// A new sender's token, `name/boot/n`: this process's claimant (`name/boot`, see
/// `store/life.rs`) and a number of its own.
fn lease_token(ctx: &Ctx) -> String {
    format!("{}/{:016x}", ctx.replica, rand::random::<u64>())
}

/// A sender's hold on its game: the token, and when it was last renewed.
struct Lease {
    token: String,
    renewed: std::time::Instant,
    /// The drawing this sender last edited the live message to, though the record may not
    /// say so yet (its acknowledgement failed): not sent again.
    edited: u64,
    /// An effect this sender delivered whose acknowledgement failed: its number, what it
    /// left, and the version of the record it was delivered from.
    unacked: Option<(u64, Sent, u64)>,
}

impl Lease {
    /// The live message was edited to show `hash`.
    fn made_edit(&mut self, hash: u64) {
        self.edited = hash;
    }

    /// Effect `n` of the record at `version` was delivered, leaving `ack`: kept until it is
    /// acknowledged.
    fn delivered(&mut self, n: u64, ack: Sent, version: u64) {
        self.unacked = Some((n, ack, version));
    }

    /// The effect delivered was acknowledged.
    fn delivered_and_acknowledged(&mut self) {
        self.unacked = None;
    }

    /// Makes sure the lease holds for most of [`HOLD`] yet, before a send: it is renewed
    /// once a quarter of it has passed (not before every send: that would be a round trip
    /// each). [`StoreError::Fenced`] when it went to another sender.
    async fn keep(&mut self, ctx: &Ctx, id: GameId) -> Result<(), StoreError> {
        if self.renewed.elapsed() < HOLD / 4 {
            return Ok(());
        }
        if !ctx.store.renew_send_lease(id, &self.token, HOLD).await? {
            return Err(StoreError::Fenced);
        }
        self.renewed = std::time::Instant::now();
        Ok(())
    }
}

/// Sends game `id`'s outbox until nothing is left, if nobody else is.
async fn drain(ctx: &Ctx, id: GameId) {
    let token = lease_token(ctx);
    let mut lease = Lease {
        token: token.clone(),
        renewed: std::time::Instant::now(),
        edited: 0,
        unacked: None,
    };
    // The first look at the game comes with the lease.
    let mut first = match ctx.store.take_send_lease_and_load(id, &token, HOLD).await {
        Ok(Some(found)) => Some(found),
        Ok(None) => return,
        Err(StoreError::NotFound) => {
            let _ = ctx.store.forget_outbox(id).await;
            let _ = ctx.store.release_send_lease(id, &token, 0).await;
            return;
        }
        Err(e) => {
            log::debug!("sender of {id}: {e}");
            let _ = ctx.store.release_send_lease(id, &token, 0).await;
            return;
        }
    };
    let mut failures = 0u32;
    loop {
        let step = step(ctx, id, &mut lease, first.take()).await;
        let nap = match step {
            Ok(Step::Sent(after)) => {
                failures = 0;
                match after.map(|b| *b) {
                    Some((rec, version))
                        if live_due(ctx, &rec, id).is_none() && rec.delivery.outbox.is_empty() =>
                    {
                        match ctx.store.release_send_lease(id, &token, version).await {
                            Ok(Release::Done | Release::Lost) => return,
                            Ok(Release::Changed) | Err(_) => continue,
                        }
                    }
                    _ => continue,
                }
            }
            Ok(Step::Wait(d)) => d.min(MAX_NAP),
            Ok(Step::Idle(version)) => {
                match ctx.store.release_send_lease(id, &token, version).await {
                    Ok(Release::Done | Release::Lost) => return,
                    Ok(Release::Changed) => continue,
                    Err(e) => {
                        log::warn!("sender of {id}: {e}");
                        Duration::from_millis(500)
                    }
                }
            }
            Err(BotError::Store(StoreError::Fenced)) => {
                log::warn!("sender of {id}: the lease went to another sender");
                return;
            }
            Err(BotError::Store(StoreError::NotFound)) => {
                let _ = ctx.store.forget_outbox(id).await;
                let _ = ctx.store.release_send_lease(id, &token, 0).await;
                return;
            }
            Err(e) => {
                failures += 1;
                log::warn!("sender of {id}: {e}");
                if failures > 20 {
                    // Left marked in the index: the ticker tries again later.
                    return;
                }
                Duration::from_millis(200 * u64::from(failures.min(10)))
            }
        };
        tokio::time::sleep(nap).await;
        match lease.keep(ctx, id).await {
            Ok(()) => {}
            Err(StoreError::Fenced) => return,
            Err(e) => log::warn!("sender of {id}: {e}"),
        }
    }
}

/// Marks an edit of `to` showing `hash` on its way, fenced by the lease `token`, just before
/// its request: the variant to send it as. An edit of the same content whose fate nobody
/// knows (its sender died, or its answer was lost, before it was acknowledged) makes this
/// one a variant of it, so that it differs from whatever the message shows now: it is never
/// lost, and Telegram never finds it "not modified".
async fn mark_editing(
    ctx: &Ctx,
    id: GameId,
    token: &str,
    to: EditOf,
    hash: u64,
) -> Result<u8, StoreError> {
    let marked = ctx
        .store
        .transition_fenced(id, token, |r| {
            Ok::<_, ()>(sent::editing(r, to, hash, token))
        })
        .await?;
    let variant = marked.map_or(0, |c| c.value);
    if variant > 0 {
        log::info!(
            "game {id}: an edit of {to:?} whose fate is unknown is sent again as variant {variant}"
        );
    }
    Ok(variant)
}

/// Unix milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A hash of a message's text and keyboard: what is drawn, to draw nothing twice.
pub fn drawing_hash(text: &str, kb: &Option<Keyboard>) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    serde_json::to_string(kb).unwrap_or_default().hash(&mut h);
    // 0 means "nothing drawn yet".
    h.finish().max(1)
}

/// The live message as it should be now, when that differs from what it shows.
fn live_due(ctx: &Ctx, rec: &GameRecord, id: GameId) -> Option<(i32, Drawing, u64)> {
    let message = rec.delivery.message?;
    // An inline message a rematch took over is that game's to draw on.
    if rec.inline.is_some() && rec.rematch.is_some() {
        return None;
    }
    if rec
        .delivery
        .outbox
        .iter()
        .any(|o| o.effect == Effect::LiveMessage)
        || (*rec.game.phase() == Phase::Battle && !rec.delivery.begun)
    {
        return None;
    }
    let drawing = with_board_link(
        live_drawing(rec, id, &ctx.username),
        rec,
        ctx.webapp_link(id).as_deref(),
    );
    let hash = drawing.hash();
    (hash != rec.delivery.drawn).then_some((message, drawing, hash))
}

/// A drawing's picture as an upload with its caption, rendered on the blocking pool.
async fn photo_media(drawing: &Drawing) -> Option<(InputFile, String)> {
    let picture = drawing.picture.clone()?;
    let png = tokio::task::spawn_blocking(move || picture.png())
        .await
        .ok()?;
    Some((
        InputFile::memory(png).file_name("battle.png"),
        drawing.text.clone(),
    ))
}

/// Edits an inline message to show `drawing` (as `variant` of its text): its text (a game in
/// an inline message is drawn as text: an edit of an inline message cannot upload a picture).
async fn edit_inline(
    ctx: &Ctx,
    inline: &str,
    drawing: Drawing,
    variant: u8,
) -> Result<(), RequestError> {
    let mut req = ctx
        .bot
        .edit_message_text_inline(inline, variant_of(&drawing.text, variant))
        .parse_mode(ParseMode::Html);
    if let Some(kb) = drawing.keyboard {
        req = req.reply_markup(super::send::markup(kb));
    }
    match req.metered().await {
        Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Edits a message to show `drawing`: its picture and caption (`media`, drawn beforehand by
/// [`photo_media`]: a new upload, which Telegram never finds "not modified"), or else its
/// text as `variant` of it.
async fn edit_live(
    ctx: &Ctx,
    chat: ChatId,
    message: MessageId,
    drawing: Drawing,
    media: Option<(InputFile, String)>,
    variant: u8,
) -> Result<(), RequestError> {
    let done = if let Some((file, caption)) = media {
        let media = InputMedia::Photo(
            InputMediaPhoto::new(file)
                .caption(caption)
                .parse_mode(ParseMode::Html),
        );
        let mut req = ctx.bot.edit_message_media(chat, message, media);
        if let Some(kb) = drawing.keyboard {
            req = req.reply_markup(super::send::markup(kb));
        }
        req.metered().await.map(|_| ())
    } else {
        let mut req = ctx
            .bot
            .edit_message_text(chat, message, variant_of(&drawing.text, variant))
            .parse_mode(ParseMode::Html);
        if let Some(kb) = drawing.keyboard {
            req = req.reply_markup(super::send::markup(kb));
        }
        req.metered().await.map(|_| ())
    };
    match done {
        Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(()),
        other => other,
    }
}

/// Sends `drawing` as a new live message (in forum topic `topic`, if any): its id.
async fn send_live(
    ctx: &Ctx,
    chat: ChatId,
    topic: Option<i32>,
    drawing: Drawing,
) -> Result<i32, RequestError> {
    if let Some((file, caption)) = photo_media(&drawing).await {
        let mut req = ctx
            .bot
            .send_photo(chat, file)
            .caption(caption)
            .parse_mode(ParseMode::Html);
        if let Some(kb) = drawing.keyboard {
            req = req.reply_markup(super::send::markup(kb));
        }
        req = in_topic(req, topic);
        return req.metered().await.map(|m| m.id.0);
    }
    let mut req = ctx
        .bot
        .send_message(chat, drawing.text)
        .parse_mode(ParseMode::Html);
    if let Some(kb) = drawing.keyboard {
        req = req.reply_markup(super::send::markup(kb));
    }
    req = in_topic(req, topic);
    req.metered().await.map(|m| m.id.0)
}

/// The priority of the live message's calls: the battle's board goes first; a lobby waits
/// with the rest.
fn board_priority(rec: &GameRecord) -> Priority {
    if let Some(riga) = rec.riga() {
        // A Riga game keeps the engine's lobby phase: its own game tells the battle.
        return if riga.game.is_some() {
            Priority::Board
        } else {
            Priority::Other
        };
    }
    match rec.game.phase() {
        Phase::Battle | Phase::Finished { .. } => Priority::Board,
        Phase::Lobby | Phase::Placement => Priority::Other,
    }
}

/// Who goes first with an effect's calls when the token's budget is short (`token.rs`).
fn priority(rec: &GameRecord, effect: &Effect) -> Priority {
    match effect {
        Effect::LiveMessage => board_priority(rec),
        Effect::Retire { .. }
        | Effect::Announce
        | Effect::Settle
        | Effect::NameTopic
        | Effect::CloseTopic => Priority::End,
        Effect::Dm { .. } | Effect::Tell { .. } | Effect::Mine { .. } => Priority::OwnField,
        Effect::Notice { .. } => Priority::Other,
    }
}

/// How long a player's own field waits for the token when its group's board is not due: then
/// the sender looks again whether it is.
const OWN_FIELD_PATIENCE: Duration = Duration::from_secs(1);

/// One send or edit of `chat`'s budget ([`super::context::chat_slot`]): `None` when it may
/// go, else how long to wait.
async fn budget(ctx: &Ctx, chat: i64) -> Result<Option<Duration>, BotError> {
    let wait = super::context::chat_slot(ctx, chat).await?;
    Ok((wait > 0).then(|| Duration::from_millis(wait)))
}

/// What to do about a failed request: wait and try again, or give the effect up.
fn retry_after(e: &RequestError) -> Option<Duration> {
    match e {
        RequestError::RetryAfter(s) => Some(s.duration() + Duration::from_millis(100)),
        RequestError::Network(_) | RequestError::Io(_) => Some(Duration::from_secs(1)),
        _ => None,
    }
}

/// One step of a sender: from the game as `first` shows it (read with the lease, just
/// now) or as loaded now.
async fn step(
    ctx: &Ctx,
    id: GameId,
    lease: &mut Lease,
    first: Option<(GameRecord, u64)>,
) -> Result<Step, BotError> {
    let (rec, version) = match first {
        Some(found) => found,
        None => ctx.store.load_game(id).await?,
    };
    // An effect delivered whose acknowledgement failed (Redis went away) is acknowledged
    // before anything else goes, not sent again. While it waits, a private field's effect
    // asked for again gets a new number: what the delivery left (the picture's message) is
    // kept all the same, or the next drawing would send the player a second field. Other
    // acknowledgements count (an announcement's parts), so they are made only while their
    // effect waits (one stored already, its reply lost, is not made twice).
    if let Some((n, ack, at)) = lease.unacked.clone() {
        let waits = rec.delivery.outbox.iter().any(|o| o.n == n);
        if waits || matches!(ack, Sent::Dm(..) | Sent::DmPicture(..)) {
            lease.keep(ctx, id).await?;
            return acknowledged(ctx, id, lease, n, &ack, at).await;
        }
        lease.delivered_and_acknowledged();
    }
    let mut wait: Option<Duration> = None;
    if let Some((message, drawing, hash)) = live_due(ctx, &rec, id) {
        let since = now_ms().saturating_sub(rec.delivery.drawn_at);
        // The more boards share the token, the longer each waits (the same for all).
        super::token::board_wants(rec.chat);
        let gap = super::token::board_gap(ctx.config.gap(rec.chat)).as_millis() as u64;
        if since < gap {
            wait = Some(Duration::from_millis(gap - since));
        } else if let Some(w) = budget(ctx, rec.chat).await? {
            wait = Some(w);
        } else {
            lease.keep(ctx, id).await?;
            let mut gone = None;
            let shown = drawing.shown;
            if lease.edited == hash {
                // Edited already; only the acknowledgement failed (Redis went away).
            } else {
                // The picture is drawn before the edit is marked on its way, so that a crash
                // leaves an edit's fate unknown only while its request is out.
                let media = match &rec.inline {
                    Some(_) => None,
                    None => photo_media(&drawing).await,
                };
                let variant = mark_editing(ctx, id, &lease.token, EditOf::Live, hash).await?;
                let edit = async {
                    match &rec.inline {
                        Some(inline) => edit_inline(ctx, inline, drawing, variant).await,
                        None => {
                            let (chat, message) = (ChatId(rec.chat), MessageId(message));
                            edit_live(ctx, chat, message, drawing, media, variant).await
                        }
                    }
                };
                let edited = with_priority(board_priority(&rec), edit).await;
                match edited {
                    Ok(()) => {
                        lease.made_edit(hash);
                        crash_point(ctx, "edited");
                    }
                    Err(e) => {
                        if let Some(w) = retry_after(&e) {
                            log::warn!("live message of {id}: {e}");
                            return Ok(Step::Wait(w));
                        }
                        // A deleted topic takes its messages with it: the live message of a
                        // game in a topic not found is the topic gone.
                        let not_found =
                            matches!(e, RequestError::Api(ApiError::MessageToEditNotFound));
                        gone = place_gone(&rec, &e).or_else(|| {
                            (rec.topic.is_some() && not_found).then_some(Sent::TopicGone)
                        });
                        if gone.is_some() {
                            log::warn!("live message of {id}: {e}; its place is gone: called off");
                        } else {
                            // The message is gone (deleted): nothing to draw on.
                            log::warn!("live message of {id}: {e}; not drawn again");
                        }
                    }
                }
            }
            let stored = ctx
                .store
                .transition_fenced(id, &lease.token, |r| {
                    match &gone {
                        Some(gone) => sent::acknowledge(r, gone, version, 0, now_ms()),
                        None => sent::drawn(r, hash, version, shown, now_ms()),
                    }
                    Ok::<_, ()>(())
                })
                .await?
                .ok();
            return Ok(Step::Sent(stored.map(|c| Box::new((c.record, c.version)))));
        }
    }
    // A redraw of the live message is due but waits: the end's announcement waits behind it,
    // so the group reads the final board before "Winner" (and every result before the end).
    let redraw_waits = wait.is_some();
    let board_waits = wait;
    let Some(first) = next_effect(ctx, &rec, &mut wait, redraw_waits).await? else {
        return Ok(match wait {
            Some(w) => Step::Wait(w),
            None => Step::Idle(version),
        });
    };
    lease.keep(ctx, id).await?;
    let n = first.n;
    let delivery = with_priority(
        priority(&rec, &first.effect),
        deliver(ctx, id, &rec, &first, &lease.token),
    );
    let delivered = if matches!(first.effect, Effect::Dm { .. }) {
        // The group's board never waits behind an own field that waits for the token: the
        // field waits only until the board is due (a second when none is), then steps aside.
        let patience = board_waits.unwrap_or(OWN_FIELD_PATIENCE);
        super::token::with_patience(patience, delivery).await
    } else {
        delivery.await
    };
    let ack = match delivered {
        Ok(ack) => {
            log::debug!("effect {n} delivered: {:?}", first.effect);
            crash_point(ctx, "delivered");
            ack
        }
        Err(w) => return Ok(Step::Wait(w)),
    };
    lease.delivered(n, ack.clone(), version);
    acknowledged(ctx, id, lease, n, &ack, version).await
}

/// Stores what the delivery of effect `n` (of the record at `version`) left, fenced by the
/// lease; the lease forgets it once stored (until then it is kept, not sent again).
async fn acknowledged(
    ctx: &Ctx,
    id: GameId,
    lease: &mut Lease,
    n: u64,
    ack: &Sent,
    version: u64,
) -> Result<Step, BotError> {
    let stored = ctx
        .store
        .transition_fenced(id, &lease.token, |r| {
            sent::acknowledge(r, ack, version, n, now_ms());
            Ok::<_, ()>(())
        })
        .await?
        .ok();
    lease.delivered_and_acknowledged();
    Ok(Step::Sent(stored.map(|c| Box::new((c.record, c.version)))))
}

/// The first effect that can go now, its chat's budget taken; `wait` learns how long the
/// ones held back wait. Effects go in order, except that a private field does not wait
/// behind a group's budget: the players see their own fields at once, whatever the group's
/// pace (a private field draws from the latest record, so its order does not matter). While
/// `redraw_waits` (the live message is to be redrawn), the end's announcement is held back,
/// and everything after it.
async fn next_effect(
    ctx: &Ctx,
    rec: &GameRecord,
    wait: &mut Option<Duration>,
    redraw_waits: bool,
) -> Result<Option<Outgoing>, BotError> {
    let mut held: Vec<i64> = Vec::new();
    for o in &rec.delivery.outbox {
        let overtakes = matches!(o.effect, Effect::Dm { .. });
        if !held.is_empty() && !overtakes {
            continue;
        }
        if redraw_waits && o.effect == Effect::Announce {
            held.push(rec.chat);
            continue;
        }
        if let Some(w) = own_field_waits(ctx, rec, &o.effect) {
            *wait = Some(wait.map_or(w, |l| l.min(w)));
            continue;
        }
        let chat = target_chat(rec, &o.effect);
        if let Some(chat) = chat {
            if held.contains(&chat) {
                continue;
            }
            if let Some(w) = budget(ctx, chat).await? {
                *wait = Some(wait.map_or(w, |l| l.min(w)));
                held.push(chat);
                continue;
            }
        }
        return Ok(Some(o.clone()));
    }
    Ok(None)
}

/// How long a player's own field, drawn as a picture during the battle, waits for the gap
/// since its last redraw ([`crate::config::BotConfig::own_field_gap`]); `None` when it can
/// go (or the effect is no own field's).
fn own_field_waits(ctx: &Ctx, rec: &GameRecord, effect: &Effect) -> Option<Duration> {
    let Effect::Dm { seat } = effect else {
        return None;
    };
    if *rec.game.phase() != Phase::Battle {
        return None;
    }
    let at = rec.delivery.dm_drawn_at.get(usize::from(*seat)).copied()?;
    let gap = ctx.config.own_field_gap().as_millis() as u64;
    let since = now_ms().saturating_sub(at);
    (since < gap).then(|| Duration::from_millis(gap - since))
}

/// Whether a refusal of a send to (or an edit in) the game's place says that place is gone
/// for good: the group (the bot removed, the group deleted), or the game's forum topic
/// (closed or deleted). What the acknowledgement is then.
fn place_gone(rec: &GameRecord, e: &RequestError) -> Option<Sent> {
    if rec.chat < 0 && group_gone(e) {
        Some(Sent::ChatGone)
    } else if rec.topic.is_some() && topic_gone(e) {
        Some(Sent::TopicGone)
    } else {
        None
    }
}

/// A game's own topic's name: its players, within Telegram's 128 characters.
pub fn topic_name(names: &[String]) -> String {
    let name = format!("⚓ {}", names.join(" — "));
    name.chars().take(128).collect()
}

/// The chat an effect sends to or edits in (its budget), or none.
fn target_chat(rec: &GameRecord, effect: &Effect) -> Option<i64> {
    match effect {
        // A game in an inline message announces its end in the players' private chats.
        Effect::Announce if rec.inline.is_some() => None,
        Effect::LiveMessage
        | Effect::Retire { .. }
        | Effect::Announce
        | Effect::NameTopic
        | Effect::CloseTopic => Some(rec.chat),
        Effect::Notice { chat, .. } => Some(*chat),
        Effect::Dm { seat } | Effect::Tell { seat, .. } => rec
            .game
            .seats()
            .get(usize::from(*seat))
            .map(|s| s.player.0 as i64),
        Effect::Mine { .. } | Effect::Settle => None,
    }
}

/// Sends one effect. `Err` with a wait when Telegram asks to wait (the effect stays);
/// an effect Telegram refuses for good is given up (logged) and acknowledged.
async fn deliver(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    o: &Outgoing,
    token: &str,
) -> Result<Sent, Duration> {
    let chat = ChatId(rec.chat);
    let to_group = o.effect.in_chat(rec.chat);
    let given_up = |e: RequestError| -> Result<Sent, Duration> {
        if super::token::is_not_now(&e) {
            // Not made (the token was not free in time): it goes on the next step.
            return Err(Duration::ZERO);
        }
        if let Some(gone) = place_gone(rec, &e).filter(|_| to_group) {
            // Nothing more goes there, and the game is called off.
            log::warn!("effect {} of {id}: {e}; its place is gone: called off", o.n);
            return Ok(gone);
        }
        match retry_after(&e) {
            Some(w) => {
                log::warn!("effect {} of {id}: {e}", o.n);
                Err(w)
            }
            None => {
                log::warn!("effect {} of {id}: {e}; given up", o.n);
                Ok(Sent::Done)
            }
        }
    };
    if rec.inline.is_some() {
        match &o.effect {
            // An inline message is only edited (the live message is drawn on it), and the
            // bot cannot write to the chat it is in.
            Effect::LiveMessage | Effect::Retire { .. } => return Ok(Sent::Done),
            Effect::Notice { chat: c, .. } if *c == rec.chat => return Ok(Sent::Done),
            Effect::Announce => return log_to_players(ctx, id, rec).await,
            _ => {}
        }
    }
    match &o.effect {
        Effect::LiveMessage => {
            let drawing = with_board_link(
                live_drawing(rec, id, &ctx.username),
                rec,
                ctx.webapp_link(id).as_deref(),
            );
            let hash = drawing.hash();
            let shown = drawing.shown;
            match send_live(ctx, chat, rec.topic, drawing).await {
                Ok(m) => {
                    // The battle's message (a lobby's comes before the battle begun).
                    if rec.delivery.begun {
                        crate::metrics::game_started();
                    }
                    Ok(Sent::Live(m, hash, shown))
                }
                Err(e) => given_up(e),
            }
        }
        Effect::Retire { message, key } => {
            let words = t(rec.lang, key);
            let to = EditOf::Effect { n: o.n };
            let variant = match mark_editing(ctx, id, token, to, drawing_hash(&words, &None)).await
            {
                Ok(v) => v,
                Err(e) => {
                    log::warn!("effect {} of {id}: {e}", o.n);
                    return Err(Duration::from_secs(1));
                }
            };
            let req =
                ctx.bot
                    .edit_message_text(chat, MessageId(*message), variant_of(&words, variant));
            match req.metered().await {
                Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => Ok(Sent::Done),
                Err(e) => given_up(e),
            }
        }
        Effect::Notice { chat, text } => {
            let mut req = ctx
                .bot
                .send_message(ChatId(*chat), text.clone())
                .parse_mode(ParseMode::Html);
            req = in_topic(req, rec.topic.filter(|_| *chat == rec.chat));
            match req.metered().await {
                Ok(_) => Ok(Sent::Done),
                Err(e) => given_up(e),
            }
        }
        Effect::Dm { seat } => dm(ctx, id, rec, *seat, token).await.or_else(given_up),
        Effect::NameTopic | Effect::CloseTopic => {
            let Some(thread) = rec.topic else {
                return Ok(Sent::Done);
            };
            let thread = teloxide::types::ThreadId(MessageId(thread));
            let done = if o.effect == Effect::NameTopic {
                ctx.bot
                    .edit_forum_topic(chat, thread)
                    .name(topic_name(&rec.names))
                    .metered()
                    .await
            } else {
                ctx.bot.close_forum_topic(chat, thread).metered().await
            };
            match done {
                Ok(_) => Ok(Sent::Done),
                // Closed already (by an admin, or by this very effect before a crash).
                Err(RequestError::Api(ApiError::Unknown(d)))
                    if d.contains("TOPIC_NOT_MODIFIED") =>
                {
                    Ok(Sent::Done)
                }
                Err(e) => given_up(e),
            }
        }
        Effect::Tell { seat, key } => {
            let Some(player) = rec.game.seats().get(usize::from(*seat)) else {
                return Ok(Sent::Done);
            };
            let user = player.player.0;
            let lang = user_lang_by_id(ctx, user).await;
            let req = ctx
                .bot
                .send_message(ChatId(user as i64), t(lang, key))
                .parse_mode(ParseMode::Html);
            match req.metered().await {
                Ok(_) => Ok(Sent::Done),
                Err(e) => given_up(e),
            }
        }
        Effect::Mine { events } => {
            super::mine_dm::follow(ctx, id, rec, events).await;
            Ok(Sent::Done)
        }
        // First the settlement is worked out and stored (the effect stays), then written.
        Effect::Settle if rec.settlement.is_none() => match settlement(ctx, rec).await {
            Ok(s) => Ok(Sent::Settlement(Box::new(s))),
            Err(e) => {
                log::warn!("game {id}: the end is not settled yet: {e}");
                Err(Duration::from_secs(1))
            }
        },
        Effect::Settle => {
            crash_point(ctx, "rating");
            match settle(ctx, id, rec).await {
                Ok(()) => {
                    if rec.delivery.begun {
                        crate::metrics::game_finished();
                    }
                    Ok(Sent::Done)
                }
                Err(e) => {
                    log::warn!("game {id}: the end is not written yet: {e}");
                    Err(Duration::from_secs(1))
                }
            }
        }
        Effect::Announce => {
            let texts = end_texts(rec);
            let part = usize::from(rec.delivery.announced_parts);
            let Some(text) = texts.get(part) else {
                return Ok(Sent::Part(true));
            };
            let last = part + 1 == texts.len();
            let mut req = ctx
                .bot
                .send_message(chat, text.clone())
                .parse_mode(ParseMode::Html);
            req = in_topic(req, rec.topic);
            if last {
                // Rematch, and the game's replay by a link anyone in the group may open.
                let kb = crate::view::group::end_keyboard(rec, id, &ctx.username);
                req = req.reply_markup(super::send::markup(kb));
            }
            match req.metered().await {
                Ok(_) => Ok(Sent::Part(last)),
                Err(e) => given_up(e).map(|s| match s {
                    Sent::ChatGone | Sent::TopicGone => s,
                    _ => Sent::Part(last),
                }),
            }
        }
    }
}

/// The end's announcement of a game in an inline message (which shows the winner and the
/// reveal itself): the whole log, in each player's private chat, a part at a time (the
/// parts of every player, in turn, counted by the record's `announced_parts`).
async fn log_to_players(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Result<Sent, Duration> {
    let texts = end_texts(rec);
    let seats = rec.human_seats();
    let total = texts.len() * seats.len();
    let part = usize::from(rec.delivery.announced_parts);
    if part >= total {
        return Ok(Sent::Part(true));
    }
    let last = part + 1 == total;
    let seat = seats[part / texts.len()];
    let user = rec.game.seats()[seat.index()].player.0;
    let req = ctx
        .bot
        .send_message(ChatId(user as i64), texts[part % texts.len()].clone())
        .parse_mode(ParseMode::Html);
    match req.metered().await {
        Ok(_) => Ok(Sent::Part(last)),
        Err(e) => match retry_after(&e) {
            Some(w) => {
                log::warn!("the log of {id} for {user}: {e}");
                Err(w)
            }
            None => {
                log::warn!("the log of {id} for {user}: {e}; given up");
                Ok(Sent::Part(last))
            }
        },
    }
}

/// A seat's private message: the editor while it places, then its own field. Its edits are
/// marked on their way under the lease `token` ([`mark_editing`]).
async fn dm(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    seat: u8,
    token: &str,
) -> Result<Sent, RequestError> {
    let edit = Marker { ctx, id, token };
    let s = SeatId(seat);
    let Some(player) = rec.game.seats().get(usize::from(seat)) else {
        return Ok(Sent::Done);
    };
    let user = player.player.0;
    let lang = user_lang_by_id(ctx, user).await;
    let message = rec.delivery.dms.get(usize::from(seat)).copied().flatten();
    if rec.is_riga() {
        // A Riga game's set-up keyboard, then words about the battle: drawn from the record
        // on every change (the private chat takes about one a second).
        let Some((text, kb)) = crate::view::riga::dm_view(rec, id, seat, lang) else {
            return Ok(Sent::Done);
        };
        if message.is_none() && rec.game.is_finished() {
            return Ok(Sent::Done);
        }
        return send_or_edit(&edit, seat, user, message, rec, text, kb).await;
    }
    let placing = *rec.game.phase() == Phase::Placement && !rec.game.is_ready(s);
    // From the battle on, the private chat's own choice of board, else the game's (read only
    // then: the placement's messages are text whatever the choice).
    if rec.delivery.begun && matches!(rec.game.phase(), Phase::Battle | Phase::Finished { .. }) {
        let board = match ctx.store.chat_settings(user as i64).await {
            Ok(settings) => settings.board.unwrap_or(rec.board),
            Err(_) => rec.board,
        };
        if board == Board::Picture {
            return dm_picture(&edit, rec, seat, user, lang, message).await;
        }
    }
    let (text, kb) = match (placing, message) {
        (true, Some(_)) => return Ok(Sent::Done), // the editor draws itself on every tap
        (true, None) => {
            let ed = match ctx.store.draft::<Editor>(id, s).await {
                Ok(Some(ed)) => ed,
                _ => Editor::new(rec.game.ruleset()),
            };
            (
                editor_text(rec, lang, &ed),
                Some(super::send::editor_markup(ctx, rec, id, lang, &ed)),
            )
        }
        (false, None) => return Ok(Sent::Done),
        (false, Some(_)) if *rec.game.phase() == Phase::Lobby => return Ok(Sent::Done),
        (false, Some(_)) => (
            crate::view::own_field::own_field_text(rec, lang, s),
            crate::view::own_field::own_field_keyboard(rec, id, lang),
        ),
    };
    send_or_edit(&edit, seat, user, message, rec, text, kb).await
}

/// What a private message's edit is marked on its way with: the game and the lease.
struct Marker<'a> {
    ctx: &'a Ctx,
    id: GameId,
    token: &'a str,
}

impl Marker<'_> {
    /// [`mark_editing`] of seat `seat`'s private message showing `hash`; a store away is a
    /// failure of the edit, tried again later.
    async fn mark(&self, seat: u8, hash: u64) -> Result<u8, RequestError> {
        mark_editing(self.ctx, self.id, self.token, EditOf::Dm { seat }, hash)
            .await
            .map_err(|e| RequestError::Io(std::io::Error::other(e.to_string()).into()))
    }
}

/// A seat's own field as a picture, in a game whose fields are pictures: sent when the battle
/// begins (the placement's message, a text, then points to it), edited after.
async fn dm_picture(
    edit: &Marker<'_>,
    rec: &GameRecord,
    seat: u8,
    user: u64,
    lang: crate::game::lang::Lang,
    placement: Option<i32>,
) -> Result<Sent, RequestError> {
    let i = usize::from(seat);
    let (picture, caption) = crate::view::own_field::own_field_picture(rec, lang, SeatId(seat));
    let drawing = Drawing {
        text: caption,
        // Its 🔄 button in the battle; none at the end (an edit without it takes it off).
        keyboard: crate::view::own_field::own_field_keyboard(rec, edit.id, lang),
        picture: Some(picture),
        shown: Default::default(),
    };
    let ctx = edit.ctx;
    let hash = drawing.hash();
    let pic = drawing.picture_hash();
    let chat = ChatId(user as i64);
    match rec.delivery.dm_pictures.get(i).copied().flatten() {
        Some(_) if rec.delivery.dm_drawn.get(i) == Some(&hash) => Ok(Sent::Done),
        // Only the words under it changed (the game's end on a field the last turn did not
        // shoot at): the caption is edited, with the keyboard it keeps or loses, and the
        // picture is neither drawn nor uploaded again.
        Some(m) if rec.delivery.dm_picture_drawn.get(i) == Some(&pic) => {
            let variant = edit.mark(seat, hash).await?;
            let mut req = ctx
                .bot
                .edit_message_caption(chat, MessageId(m))
                .caption(variant_of(&drawing.text, variant))
                .parse_mode(ParseMode::Html);
            if let Some(kb) = drawing.keyboard {
                req = req.reply_markup(super::send::markup(kb));
            }
            let done = req.metered().await;
            match done {
                Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {}
                Err(e) => return Err(e),
            }
            Ok(Sent::DmPicture(seat, None, hash, pic))
        }
        Some(m) => {
            let media = photo_media(&drawing).await;
            let variant = edit.mark(seat, hash).await?;
            edit_live(ctx, chat, MessageId(m), drawing, media, variant).await?;
            Ok(Sent::DmPicture(seat, None, hash, pic))
        }
        // A player who never had the placement's message (never started the bot) gets none.
        None if placement.is_none() => Ok(Sent::Done),
        None => {
            let sent = send_live(ctx, chat, None, drawing).await?;
            // (A crash before this send is acknowledged sends it again; a send is never
            // "not modified". The placement's message below is edited once, after it.)
            if let Some(old) = placement {
                // The placement's message points to the picture instead of showing the fleet
                // as it was before the battle (a failure leaves it as it was).
                let req =
                    ctx.bot
                        .edit_message_text(chat, MessageId(old), t(lang, "own-field-below"));
                if let Err(e) = req.metered().await {
                    log::debug!("placement message of seat {seat}: {e}");
                }
            }
            Ok(Sent::DmPicture(seat, Some(sent), hash, pic))
        }
    }
}

/// Sends a seat's private message, or edits it when it is already there and changed.
async fn send_or_edit(
    edit: &Marker<'_>,
    seat: u8,
    user: u64,
    message: Option<i32>,
    rec: &GameRecord,
    text: String,
    kb: Option<Keyboard>,
) -> Result<Sent, RequestError> {
    let ctx = edit.ctx;
    let hash = drawing_hash(&text, &kb);
    let chat = ChatId(user as i64);
    match message {
        Some(_) if rec.delivery.dm_drawn.get(usize::from(seat)) == Some(&hash) => Ok(Sent::Done),
        Some(m) => {
            let variant = edit.mark(seat, hash).await?;
            let mut req = ctx
                .bot
                .edit_message_text(chat, MessageId(m), variant_of(&text, variant))
                .parse_mode(ParseMode::Html);
            if let Some(kb) = kb {
                req = req.reply_markup(super::send::markup(kb));
            }
            match req.metered().await {
                Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {
                    Ok(Sent::Dm(seat, None, hash))
                }
                Err(e) => Err(e),
            }
        }
        None => {
            let mut req = ctx.bot.send_message(chat, text).parse_mode(ParseMode::Html);
            if let Some(kb) = kb {
                req = req.reply_markup(super::send::markup(kb));
            }
            let sent = req.metered().await?;
            Ok(Sent::Dm(seat, Some(sent.id.0), hash))
        }
    }
}

/// The end's settlement ([`settle::work_out`]), from the ratings and statistics it reads
/// first ([`settle::wanted`]).
async fn settlement(ctx: &Ctx, rec: &GameRecord) -> Result<Settlement, StoreError> {
    let wanted = settle::wanted(rec);
    let mut before = settle::Before::default();
    for (board, users) in &wanted.ratings {
        let found = ctx.store.ratings(*board, users).await?;
        for (&u, r) in users.iter().zip(found) {
            if let Some(r) = r {
                before.ratings.insert((*board, u), r);
            }
        }
    }
    for &u in &wanted.stats {
        before.stats.insert(u, ctx.store.all_stats(u).await?);
    }
    Ok(settle::work_out(rec, &before))
}

/// The end, in storage: the ratings and statistics of the settlement written (whole, so
/// again after a crash changes nothing), then the chat and the players are free for another
/// game and the timer is off.
async fn settle(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Result<(), StoreError> {
    if let Some(s) = &rec.settlement {
        let mut boards: Vec<Leaderboard> = s.ratings.iter().map(|w| w.board).collect();
        boards.dedup();
        for board in boards {
            ctx.store.set_ratings(board, &s.ratings).await?;
        }
        let mut users: Vec<u64> = s.stats.iter().map(|(u, _, _)| *u).collect();
        users.dedup();
        for u in users {
            let values: Vec<(String, u64)> = s
                .stats
                .iter()
                .filter(|(w, _, _)| *w == u)
                .map(|(_, k, v)| (k.clone(), *v))
                .collect();
            ctx.store.set_stats(u, &values).await?;
        }
    }
    if !rec.is_riga() {
        let r = rec.game.ruleset();
        if let Ok(json) = serde_json::to_string(r) {
            ctx.store.note_ruleset(&r.to_string(), &json).await?;
        }
    }
    crash_point(ctx, "rated");
    let _ = ctx.store.clear_chat_game(rec.chat, rec.topic, id).await;
    let _ = ctx.store.schedule(id, None).await;
    for seat in rec.game.seats() {
        if !crate::game::record::is_ai(seat.player) {
            let _ = ctx.store.clear_user_game(seat.player.0, id).await;
        }
    }
    // What the learning level learns from.
    let codes = settle::revealed_layouts(rec);
    let ruleset = rec.game.ruleset().to_string();
    if let Err(e) = ctx
        .store
        .observe_layouts(id, rec.chat, &ruleset, &codes)
        .await
    {
        log::warn!("game {id}: its layouts were not counted: {e}");
    }
    log::info!("game {id} finished");
    Ok(())
}
