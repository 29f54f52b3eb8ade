//! The Mini App's API: who asks, the game as they may see it (once, or as a stream), and
//! their taps — a shot, an edit of their draft, a move on the Riga board.

use super::*;
use crate::game::record::Play;
use crate::store::Atomic;

/// Whoever opened the page, and the language they read it in unless the game's chat's is
/// taken: their own choice (`/lang`), else the `language_code` of their `initData`, else
/// the one Telegram last told for them (see [`crate::view::webapp::page_lang`]). A member
/// who never wrote to the bot comes from the group's link with only their `initData`.
pub(super) struct Viewer {
    pub(super) id: u64,
    pub(super) lang: Option<Lang>,
}

impl Viewer {
    /// The caller `who`, with their stored settings.
    pub(super) async fn of(ctx: &Ctx, who: &init_data::InitData) -> Viewer {
        let settings = ctx.store.user_settings(who.user.id).await.ok();
        let lang = crate::view::webapp::viewer_lang(
            settings.as_ref().and_then(|s| s.lang),
            who.user.language_code.as_deref(),
            settings.as_ref().and_then(|s| s.detected),
        );
        Viewer {
            id: who.user.id,
            lang,
        }
    }

    /// Their language in a game of `rec`'s chat.
    pub(super) fn lang_in(&self, rec: &GameRecord) -> Lang {
        self.lang.unwrap_or(rec.lang)
    }

    /// Their language where no game is at hand.
    pub(super) fn lang(&self) -> Lang {
        self.lang.unwrap_or_default()
    }
}

/// What one look at a game gave: its state for the viewer as JSON, the versions of the game
/// and of the viewer's draft it was made from, and whether the game is over.
pub(super) struct Seen {
    pub(super) json: serde_json::Value,
    pub(super) version: u64,
    pub(super) draft: Option<(SeatId, u64)>,
    pub(super) over: bool,
}

/// Game `id` as `who` may see it: a seat still placing gets its editor too; `Ok(None)` for
/// no such game.
pub(super) async fn seen(ctx: &Ctx, id: GameId, who: &Viewer) -> Result<Option<Seen>, StoreError> {
    match ctx.store.load_game(id).await {
        Ok((rec, version)) => {
            let lang = who.lang_in(&rec);
            seen_in(ctx, id, &rec, version, who.id, lang)
                .await
                .map(Some)
        }
        Err(StoreError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// [`seen`] of a record at hand (as loaded, or as a transition saved it): only a placing
/// seat's draft is read.
pub(super) async fn seen_in(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    version: u64,
    user: u64,
    lang: Lang,
) -> Result<Seen, StoreError> {
    let seat = rec.game.seat_of(PlayerId(user));
    let over = rec.game.is_finished();
    match &rec.play {
        Play::SeaBattle(_) => {}
        Play::Riga(r) => {
            let json = crate::view::webapp::riga_state(rec, r, id, seat, version, lang);
            return Ok(Seen {
                json,
                version,
                draft: None,
                over,
            });
        }
    }
    let placing = seat.filter(|&s| *rec.game.phase() == Phase::Placement && !rec.game.is_ready(s));
    let editor = match placing {
        Some(s) => ctx.store.draft_versioned::<Editor>(id, s).await?,
        None => None,
    };
    let json = crate::view::webapp::state(
        rec,
        seat,
        version,
        lang,
        editor.as_ref().map(|(e, v)| (e, *v)),
    );
    Ok(Seen {
        json,
        version,
        draft: placing.map(|s| (s, editor.map_or(0, |(_, v)| v))),
        over,
    })
}

/// The state of game `id` for `who`, as JSON.
pub(super) async fn state(ctx: &Ctx, id: GameId, who: &Viewer) -> Response<Body> {
    match seen(ctx, id, who).await {
        Ok(Some(seen)) => json_reply(seen.json),
        Ok(None) => text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            log::warn!("webapp state of {id}: {e}");
            text(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
    }
}

/// The live stream of game `id` for `who` (server-sent events): its state now, then each
/// newer one as this replica's watcher of the game sees it (`webapp_live.rs`: one watcher
/// a game, whatever the number of streams), whichever replica changed it (or the chat's
/// editor the draft); it ends after the end, or when a fifth stream of the same user
/// opens ([`live::PER_USER`]).
pub(super) async fn events(
    ctx: &Ctx,
    streams: &Arc<Streams>,
    id: GameId,
    who: Viewer,
) -> Response<Body> {
    let first = match seen(ctx, id, &who).await {
        Ok(Some(first)) => first,
        Ok(None) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            log::warn!("webapp events of {id}: {e}");
            return text(StatusCode::SERVICE_UNAVAILABLE, "try again");
        }
    };
    let place = streams.open(who.id);
    let mut watch = streams.watch(ctx, id);
    // What the watcher saw before this stream subscribed is looked at too.
    watch.mark_changed();
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let event = |json: &str| Bytes::from(format!("data: {json}\n\n"));
        let mut last = first;
        if tx.send(event(&last.json.to_string())).await.is_err() {
            return;
        }
        while !last.over {
            let next = tokio::select! {
                () = place.closed() => return,
                () = tx.closed() => return,
                next = tokio::time::timeout(QUIET, watch.changed()) => next,
            };
            match next {
                // A comment now and then keeps proxies from closing a quiet stream.
                Err(_) => {
                    if tx.send(Bytes::from(": quiet\n\n")).await.is_err() {
                        return;
                    }
                    continue;
                }
                Ok(Err(_)) => return,
                Ok(Ok(())) => {}
            }
            let seen_now = watch.borrow_and_update().clone();
            let (rec, version, drafts) = match seen_now {
                None => continue,
                Some(live::Seen::Gone) => return,
                Some(live::Seen::Game {
                    rec,
                    version,
                    drafts,
                }) => (rec, version, drafts),
            };
            let draft_moved = last
                .draft
                .is_some_and(|(s, v)| drafts.get(s.index()).is_some_and(|&d| d != v));
            if version <= last.version && !draft_moved {
                continue;
            }
            let lang = who.lang_in(&rec);
            match seen_in(&ctx, id, &rec, version, who.id, lang).await {
                Ok(now) => {
                    last = now;
                    if tx.send(event(&last.json.to_string())).await.is_err() {
                        return;
                    }
                }
                Err(e) => log::debug!("webapp events of {id}: {e}"),
            }
        }
    });
    let stream = futures::stream::unfold(rx, |mut rx| async move {
        let chunk = rx.recv().await?;
        Some((Ok::<_, Infallible>(hyper::body::Frame::data(chunk)), rx))
    });
    let mut r = Response::new(StreamBody::new(stream).boxed());
    if let Ok(v) = "text/event-stream".parse() {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-store".parse() {
        r.headers_mut().insert(header::CACHE_CONTROL, v);
    }
    r
}

/// What the page asks of the editor: `op` and its cells, as the query has them.
pub(super) fn page_change(req: &Request, size: engine::Size) -> Option<Change> {
    let cell = |v: &str| {
        v.parse::<usize>()
            .ok()
            .filter(|&i| i < size.area())
            .map(|i| size.coord(i))
    };
    let op = match query(req, "op")?.as_str() {
        "cell" => return Some(Change::Edit(Edit::Cell(cell(&query(req, "cell")?)?))),
        "move" => {
            let from = match query(req, "from") {
                Some(v) => Some(cell(&v)?),
                None => None,
            };
            let cells = match query(req, "cells").as_deref() {
                Some("") | None => Vec::new(),
                Some(list) => list.split(',').map(cell).collect::<Option<Vec<_>>>()?,
            };
            return Some(Change::Move { from, cells });
        }
        "undo" => EditOp::Undo,
        "clear" => EditOp::Clear,
        "random" => EditOp::Random,
        "perelman" => EditOp::Perelman,
        "confirm" => EditOp::Confirm,
        "mines" => EditOp::Mines,
        "border" => EditOp::Border,
        "randomBorder" => EditOp::RandomBorder,
        "ready" => EditOp::Ready,
        _ => return None,
    };
    Some(Change::Edit(Edit::Op(op)))
}

/// An edit of the caller's draft from the page: the chat editor's very change
/// ([`placement::change_draft`], and Ready its [`placement::lock_fleet`]), with the same
/// refusals and words; the chat's editor message is redrawn to match. The answer carries
/// the state after it, so the page need not wait for the stream.
pub(super) async fn edit(ctx: &Ctx, req: &Request, id: GameId, who: &Viewer) -> Response<Body> {
    let player = PlayerId(who.id);
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => match rec.play {
            Play::SeaBattle(_) => rec,
            // A Riga game's fleets are ordered by taps (`riga_tap`), never edited.
            Play::Riga(_) => return text(StatusCode::NOT_FOUND, "no such game"),
        },
        Err(StoreError::NotFound) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            log::warn!("webapp edit in {id}: {e}");
            return text(StatusCode::SERVICE_UNAVAILABLE, "try again");
        }
    };
    let lang = who.lang_in(&rec);
    let Some(change) = page_change(req, rec.game.ruleset().size()) else {
        return text(StatusCode::BAD_REQUEST, "op (and its cells) wanted");
    };
    let refused = |r: &crate::game::Refused| refused_reply(lang, r);
    let seat = match crate::game::placement::editing_seat(&rec, player) {
        Ok(seat) => seat,
        Err(r) => return refused(&r),
    };
    let unavailable = |e: StoreError| try_again("edit", id, &e);
    let (ok, words) = if change == Change::Edit(Edit::Op(EditOp::Ready)) {
        match placement::lock_fleet(ctx, id, seat, player, &rec, None).await {
            Ok(Ok(done)) => {
                crate::telegram::battle::follow_up(ctx, id, &done.record);
                let words = t(lang, "editor-ready-done");
                let saved = Some((&done.record, done.version));
                return answered(ctx, id, who, true, &words, saved).await;
            }
            Ok(Err(r)) => return refused(&r),
            Err(e) => return unavailable(e),
        }
    } else {
        let (what, ed, changed) =
            match placement::change_draft(ctx, &rec, id, seat, lang, change).await {
                Ok(done) => done,
                Err(e) => return unavailable(e),
            };
        let size = rec.game.ruleset().size();
        let (mut words, alert) = edited_words(lang, rec.alphabet, size, &what);
        if !changed && words.is_empty() {
            words = t(lang, "editor-nothing");
        }
        let message = rec.delivery.dms.get(seat.index()).copied().flatten();
        if let (true, Some(m)) = (changed, message) {
            let (text, kb) = (
                editor_text(&rec, lang, &ed),
                crate::telegram::send::editor_markup(ctx, &rec, id, lang, &ed),
            );
            edit_dm(ctx, who.id, m, text, Some(kb));
        }
        (!alert, words)
    };
    // The draft's new version is in the store only: the state is read again.
    answered(ctx, id, who, ok, &words, None).await
}

/// A tap on the Riga board: the data of one of the chat's buttons the page was given (a
/// set-up tap, Random, Ready, or a move), through that very button's transition, with the
/// same refusals and words. Any other button, or one of another game, is refused.
pub(super) async fn riga_press(
    ctx: &Ctx,
    req: &Request,
    id: GameId,
    who: &Viewer,
) -> Response<Body> {
    use crate::game::riga::SetupTap;
    use crate::telegram::riga::{riga_move, riga_setup, setup_words};
    use crate::view::buttons::Button;
    let player = PlayerId(who.id);
    let lang = who.lang();
    let data = query(req, "data").unwrap_or_default();
    let refused = |r: &crate::game::Refused| refused_reply(lang, r);
    let unavailable = |e: StoreError| try_again("riga press", id, &e);
    let done = match Button::parse(&data) {
        Some(Button::RigaMove(g, drawn_at, mv)) if g == id => {
            riga_move(ctx, id, player, drawn_at, mv, None)
                .await
                .map(|d| {
                    d.map(|c| {
                        let words = t(who.lang_in(&c.record), "rg-move-done");
                        (c.record, c.version, words)
                    })
                })
        }
        Some(b @ (Button::RigaTap(g, _) | Button::RigaShuffle(g) | Button::RigaLock(g)))
            if g == id =>
        {
            let tap = match b {
                Button::RigaTap(_, p) => SetupTap::Point(p),
                Button::RigaShuffle(_) => SetupTap::Shuffle,
                _ => SetupTap::Lock,
            };
            riga_setup(ctx, id, player, tap, None).await.map(|d| {
                d.map(|c| {
                    let words = setup_words(who.lang_in(&c.record), c.value);
                    (c.record, c.version, words)
                })
            })
        }
        _ => return text(StatusCode::BAD_REQUEST, "a button of this game wanted"),
    };
    let (record, version, words) = match done {
        Ok(Ok(done)) => done,
        Ok(Err(r)) => return refused(&r),
        Err(StoreError::NotFound) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => return unavailable(e),
    };
    crate::telegram::battle::follow_up(ctx, id, &record);
    answered(ctx, id, who, true, &words, Some((&record, version))).await
}

pub(super) fn json_reply(v: serde_json::Value) -> Response<Body> {
    reply(StatusCode::OK, "application/json", v.to_string())
}

/// A refusal, in the user's words (200: the page shows it, as a button's alert).
pub(super) fn refused_reply(lang: Lang, r: &crate::game::Refused) -> Response<Body> {
    let words = crate::view::refusal::words(lang, r);
    json_reply(serde_json::json!({ "ok": false, "answer": unescape(&words) }))
}

/// The store is away: 503, and the page asks again (nothing was changed, or all of it).
pub(super) fn try_again(what: &str, id: GameId, e: &StoreError) -> Response<Body> {
    log::warn!("webapp {what} in {id}: {e}");
    text(StatusCode::SERVICE_UNAVAILABLE, "try again")
}

/// The answer to a change made on the page: its words, and the state after it (of the
/// record the change saved, when given), so the page need not wait for the stream.
pub(super) async fn answered(
    ctx: &Ctx,
    id: GameId,
    who: &Viewer,
    ok: bool,
    words: &str,
    saved: Option<(&GameRecord, u64)>,
) -> Response<Body> {
    let now = match saved {
        Some((rec, version)) => seen_in(ctx, id, rec, version, who.id, who.lang_in(rec))
            .await
            .map(Some),
        None => seen(ctx, id, who).await,
    };
    let now = match now {
        Ok(Some(now)) => now.json,
        Ok(None) => serde_json::Value::Null,
        Err(e) => return try_again("answer", id, &e),
    };
    json_reply(serde_json::json!({ "ok": ok, "answer": unescape(words), "state": now }))
}

/// A tap on a cell from the page: `press_cell`, as a cell's button.
pub(super) async fn shot(ctx: &Ctx, req: &Request, id: GameId, who: &Viewer) -> Response<Body> {
    let number = |name: &str| query(req, name).and_then(|v| v.parse::<u64>().ok());
    let (Some(generation), Some(target), Some(cell)) = (
        number("generation").and_then(|g| u32::try_from(g).ok()),
        number("target").and_then(|t| u8::try_from(t).ok()),
        number("cell").and_then(|c| u16::try_from(c).ok()),
    ) else {
        return text(
            StatusCode::BAD_REQUEST,
            "generation, target and cell wanted",
        );
    };
    let player = PlayerId(who.id);
    let rng = ctx.fork();
    let due = crate::telegram::battle::due(ctx);
    let done = ctx
        .store
        .transition(id, Atomic::due(Some(&due)), |r| {
            let mut rng = rng.clone();
            rules::press_cell(r, player, generation, target, cell, None, now(), &mut rng)
        })
        .await;
    let words = match done {
        Ok(Ok(done)) => {
            // Counted, and the crash tests' point, as a button's shot.
            if let rules::Cell::Shot(_) = done.value {
                crate::telegram::battle::shot_taken(ctx, &done.record);
            }
            let words = cell_answer(who.lang_in(&done.record), &done.record, &done.value);
            crate::telegram::battle::follow_up(ctx, id, &done.record);
            words
        }
        Ok(Err(r)) => return refused_reply(who.lang(), &r),
        Err(StoreError::NotFound) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => return try_again("shot", id, &e),
    };
    json_reply(serde_json::json!({ "ok": true, "answer": unescape(&words) }))
}
