//! The Mini App's server (issue 31): `MB_WEBAPP_LISTEN` serves the page and its API,
//! everything from the binary. Every call names its game by the token of its links
//! (`init_data::game_token`: the id and a MAC of it), not by its number.
//!
//! - `GET /app` — the page (`assets/webapp/index.html`, no script or style from elsewhere):
//!   the placement by dragging, the live board, the Riga board.
//! - `GET /app/api/state?game=<token>` — the game as the caller may see it
//!   (`view::webapp::state`, `riga_state`): a player gets their seat's view (and, placing,
//!   their own editor), anyone else the public's.
//! - `GET /app/api/events?game=<token>` — the same state as server-sent events: now, then
//!   each newer version as the store has it, whichever replica made the change. The streams
//!   of one game share one watcher on a replica, and a user holds at most four
//!   (`webapp_live.rs`).
//! - `POST /app/api/shot?game=<token>&generation=<g>&target=<seat>&cell=<index>` — a tap on
//!   a cell: the very transition a cell's button goes through (`game::battle::press_cell`),
//!   with the same refusals and the same answer in words (`{"ok": …, "answer": …}`), and the
//!   group's message follows from the outbox as after a press.
//! - `POST /app/api/edit?game=<token>&op=…` — an edit of the caller's draft: a cell, a ship
//!   moved (`op=move&from=<cell>&cells=<a,b,…>`), Undo, Clear, Random, Perelman, the tools,
//!   Ready: the private editor's own transitions (`placement::change_draft`, `lock_fleet`).
//! - `POST /app/api/riga?game=<token>&data=<a button's data>` — a tap on the Riga board: the
//!   transition of that chat button (`riga::riga_move`, `riga_setup`).
//!
//! Words are in the viewer's language: their `/lang`, else their `initData`'s
//! `language_code`, else the game's chat's.
//!
//! The caller is whoever Telegram's `initData` (header `Authorization: tma <initData>`, or the
//! query's `auth` for the live stream) says, checked with the bot's token (`init_data.rs`): a
//! forged, altered or expired one gets 401 and changes nothing.
//!
//! A user may ask [`PER_SECOND`] times a second (on each replica): more gets 429 with
//! `Retry-After: 1`, so a runaway page or a script cannot load Redis.

use super::context::{now, Ctx};
use super::init_data;
use super::placement;
use super::send::edit_dm;
use super::webapp_live::{self as live, Streams};
use crate::game::battle as rules;
use crate::game::lang::Lang;
use crate::game::placement::{Change, Edit, EditOp};
use crate::game::record::Editor;
use crate::game::record::GameRecord;
use crate::game::GameId;
use crate::store::StoreError;
use crate::view::editor::{edited_words, editor_text};
use crate::view::group::cell_answer;
use crate::view::i18n::t;
use crate::view::render::unescape;
use axum::body::Bytes;
use axum::http::{header, Method, Response, StatusCode};
use engine::{Phase, PlayerId, SeatId};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use std::convert::Infallible;
use std::sync::Arc;

/// The page, as built into the binary.
const PAGE: &str = include_str!("../../assets/webapp/index.html");

/// Every response's body: whole, or the live stream's events.
type Body = BoxBody<Bytes, Infallible>;

/// A request to the page or its API, its body left (the API reads only the query: a request
/// without its body is `Sync`, so it is held across awaits).
type Request = axum::http::Request<()>;

/// How long a request may take before it is answered 408 (the live stream's answer comes at
/// once; its events then flow for as long as it stays open).
const REQUEST_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// The most a request may carry (the API's requests carry nothing but their query).
const MAX_BODY: usize = 16 * 1024;

/// After how long a quiet live stream gets a comment, so proxies keep it open.
const QUIET: std::time::Duration = std::time::Duration::from_secs(15);

/// Requests a user may make in one second, on one replica.
pub const PER_SECOND: u32 = 20;

/// Each user's requests in the current second: (the second, how many).
static ASKED: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<u64, (u64, u32)>>> =
    std::sync::LazyLock::new(Default::default);

/// Whether `user` may ask now (and counts it).
fn within_rate(user: u64, now_ms: u64) -> bool {
    let second = now_ms / 1000;
    let Ok(mut asked) = ASKED.lock() else {
        return true;
    };
    if asked.len() > 10_000 {
        asked.retain(|_, (s, _)| *s == second);
    }
    let count = match asked.get(&user) {
        Some(&(s, n)) if s == second => n + 1,
        _ => 1,
    };
    asked.insert(user, (second, count));
    count <= PER_SECOND
}

/// A response with `body` of `kind`.
fn reply(status: StatusCode, kind: &str, body: impl Into<Bytes>) -> Response<Body> {
    let mut r = Response::new(Full::new(body.into()).boxed());
    *r.status_mut() = status;
    if let Ok(v) = kind.parse() {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-store".parse() {
        r.headers_mut().insert(header::CACHE_CONTROL, v);
    }
    r
}

fn text(status: StatusCode, words: &str) -> Response<Body> {
    reply(status, "text/plain; charset=utf-8", words.to_owned())
}

/// The value of `name` in the request's query string, decoded (`form_urlencoded`).
fn query(req: &Request, name: &str) -> Option<String> {
    form_urlencoded::parse(req.uri().query()?.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// The caller, if the request carries a valid `initData`: in the header `Authorization: tma
/// <initData>`, or (for the live stream, which a browser opens without headers) encoded in
/// the query's `auth`.
fn caller(req: &Request, token: &str) -> Option<init_data::InitData> {
    let header = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("tma "))
        .map(str::to_owned);
    let data = header.or_else(|| query(req, "auth"))?;
    init_data::validate(&data, token, crate::telegram::sender::now_ms() / 1000).ok()
}

/// Whoever opened the page, and the language they read it in unless the game's chat's is
/// taken: their own choice (`/lang`), else the `language_code` of their `initData`, else
/// the one Telegram last told for them (see [`crate::view::webapp::page_lang`]). A member
/// who never wrote to the bot comes from the group's link with only their `initData`.
struct Viewer {
    id: u64,
    lang: Option<Lang>,
}

impl Viewer {
    /// The caller `who`, with their stored settings.
    async fn of(ctx: &Ctx, who: &init_data::InitData) -> Viewer {
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
    fn lang_in(&self, rec: &GameRecord) -> Lang {
        self.lang.unwrap_or(rec.lang)
    }

    /// Their language where no game is at hand.
    fn lang(&self) -> Lang {
        self.lang.unwrap_or_default()
    }
}

/// What one look at a game gave: its state for the viewer as JSON, the versions of the game
/// and of the viewer's draft it was made from, and whether the game is over.
struct Seen {
    json: serde_json::Value,
    version: u64,
    draft: Option<(SeatId, u64)>,
    over: bool,
}

/// Game `id` as `who` may see it: a seat still placing gets its editor too; `Ok(None)` for
/// no such game.
async fn seen(ctx: &Ctx, id: GameId, who: &Viewer) -> Result<Option<Seen>, StoreError> {
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
async fn seen_in(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    version: u64,
    user: u64,
    lang: Lang,
) -> Result<Seen, StoreError> {
    let seat = rec.game.seat_of(PlayerId(user));
    let over = rec.game.is_finished();
    if rec.is_riga() {
        let json = crate::view::webapp::riga_state(rec, id, seat, version, lang);
        return Ok(Seen {
            json,
            version,
            draft: None,
            over,
        });
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
async fn state(ctx: &Ctx, id: GameId, who: &Viewer) -> Response<Body> {
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
async fn events(ctx: &Ctx, streams: &Arc<Streams>, id: GameId, who: Viewer) -> Response<Body> {
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
fn page_change(req: &Request, size: engine::Size) -> Option<Change> {
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
async fn edit(ctx: &Ctx, req: &Request, id: GameId, who: &Viewer) -> Response<Body> {
    let player = PlayerId(who.id);
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) if !rec.is_riga() => rec,
        Ok(_) | Err(StoreError::NotFound) => return text(StatusCode::NOT_FOUND, "no such game"),
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
                super::battle::follow_up(ctx, id, &done.record);
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
                super::send::editor_markup(ctx, &rec, id, lang, &ed),
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
async fn riga_press(ctx: &Ctx, req: &Request, id: GameId, who: &Viewer) -> Response<Body> {
    use super::riga::{riga_move, riga_setup, setup_words};
    use crate::game::riga::SetupTap;
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
    super::battle::follow_up(ctx, id, &record);
    answered(ctx, id, who, true, &words, Some((&record, version))).await
}

fn json_reply(v: serde_json::Value) -> Response<Body> {
    reply(StatusCode::OK, "application/json", v.to_string())
}

/// A refusal, in the user's words (200: the page shows it, as a button's alert).
fn refused_reply(lang: Lang, r: &crate::game::Refused) -> Response<Body> {
    let words = crate::view::refusal::words(lang, r);
    json_reply(serde_json::json!({ "ok": false, "answer": unescape(&words) }))
}

/// The store is away: 503, and the page asks again (nothing was changed, or all of it).
fn try_again(what: &str, id: GameId, e: &StoreError) -> Response<Body> {
    log::warn!("webapp {what} in {id}: {e}");
    text(StatusCode::SERVICE_UNAVAILABLE, "try again")
}

/// The answer to a change made on the page: its words, and the state after it (of the
/// record the change saved, when given), so the page need not wait for the stream.
async fn answered(
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
async fn shot(ctx: &Ctx, req: &Request, id: GameId, who: &Viewer) -> Response<Body> {
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
    let due = super::battle::due(ctx);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |r| {
            let mut rng = rng.clone();
            rules::press_cell(r, player, generation, target, cell, None, now(), &mut rng)
        })
        .await;
    let words = match done {
        Ok(Ok(done)) => {
            // Counted, and the crash tests' point, as a button's shot.
            if let rules::Cell::Shot(_) = done.value {
                super::battle::shot_taken(ctx, &done.record);
            }
            let words = cell_answer(who.lang_in(&done.record), &done.record, &done.value);
            super::battle::follow_up(ctx, id, &done.record);
            words
        }
        Ok(Err(r)) => return refused_reply(who.lang(), &r),
        Err(StoreError::NotFound) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => return try_again("shot", id, &e),
    };
    json_reply(serde_json::json!({ "ok": true, "answer": unescape(&words) }))
}

/// 401 for a caller without a valid `initData`, as JSON: what is wrong for operators
/// (`error`), and for the person what to do (`words`, which the page shows), in the language
/// the request claims ([`claimed_lang`]).
fn unauthorized(req: &Request) -> Response<Body> {
    let words = t(claimed_lang(req), "webapp-unauthorized");
    let body = serde_json::json!({
        "error": "initData missing, forged or expired",
        "words": unescape(&words),
    });
    reply(
        StatusCode::UNAUTHORIZED,
        "application/json",
        body.to_string(),
    )
}

/// The language of a refused request: the `language_code` of the `user` its `initData`
/// claims (unchecked, as the `initData` was refused, but it only picks the words), else the
/// first language of `Accept-Language` the bot speaks, else English.
fn claimed_lang(req: &Request) -> Lang {
    let data = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("tma "))
        .map(str::to_owned)
        .or_else(|| query(req, "auth"));
    let claimed = data
        .as_deref()
        .and_then(|d| {
            form_urlencoded::parse(d.as_bytes())
                .find(|(k, _)| k == "user")
                .map(|(_, v)| v.into_owned())
        })
        .and_then(|u| serde_json::from_str::<serde_json::Value>(&u).ok())
        .and_then(|u| u["language_code"].as_str().map(str::to_owned));
    if let Some(code) = claimed {
        return Lang::from_telegram(Some(&code));
    }
    let accepted = req
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    accepted
        .split(',')
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .find(|l| {
            matches!(
                l.split(['-', '_']).next(),
                Some("ru" | "uk" | "be" | "bg" | "en")
            )
        })
        .map_or(Lang::En, |l| Lang::from_telegram(Some(l)))
}

async fn answer(
    ctx: Ctx,
    token: Arc<String>,
    streams: Arc<Streams>,
    req: Request,
) -> Response<Body> {
    let path = req.uri().path();
    if path == "/app" || path == "/app/" {
        return reply(StatusCode::OK, "text/html; charset=utf-8", PAGE);
    }
    if !path.starts_with("/app/api/") {
        return text(StatusCode::NOT_FOUND, "not here");
    }
    let Some(who) = caller(&req, &token) else {
        return unauthorized(&req);
    };
    if !within_rate(who.user.id, crate::telegram::sender::now_ms()) {
        let mut r = text(StatusCode::TOO_MANY_REQUESTS, "slow down");
        if let Ok(v) = "1".parse() {
            r.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return r;
    }
    // Every call names its game by the token of its links: a number alone is not enough.
    let Some(id) = query(&req, "game")
        .and_then(|g| init_data::game_of_token(&g, &token))
        .map(GameId)
    else {
        return text(StatusCode::NOT_FOUND, "no such game");
    };
    let who = Viewer::of(&ctx, &who).await;
    match (req.method(), path) {
        (&Method::GET, "/app/api/state") => state(&ctx, id, &who).await,
        (&Method::GET, "/app/api/events") => events(&ctx, &streams, id, who).await,
        (&Method::POST, "/app/api/shot") => shot(&ctx, &req, id, &who).await,
        (&Method::POST, "/app/api/edit") => edit(&ctx, &req, id, &who).await,
        (&Method::POST, "/app/api/riga") => riga_press(&ctx, &req, id, &who).await,
        _ => text(StatusCode::NOT_FOUND, "not here"),
    }
}

/// What every request's handling shares.
struct Shared {
    ctx: Ctx,
    token: Arc<String>,
    streams: Arc<Streams>,
}

/// One request to the page or its API: 503 until the bot is up ([`up`]).
async fn handle(req: axum::extract::Request) -> Response<Body> {
    let Some(s) = UP.get() else {
        return text(
            StatusCode::SERVICE_UNAVAILABLE,
            "starting: try again in a moment",
        );
    };
    let (parts, _) = req.into_parts();
    answer(
        s.ctx.clone(),
        Arc::clone(&s.token),
        Arc::clone(&s.streams),
        Request::from_parts(parts, ()),
    )
    .await
}

/// What the page's requests share, once the bot is up.
static UP: std::sync::OnceLock<Shared> = std::sync::OnceLock::new();

/// The Mini App's part of the router (`http.rs`): the page and its API under `/app`, a
/// request's body at most [`MAX_BODY`] (413 beyond), answered within [`REQUEST_TIME`] (408
/// beyond).
pub fn router() -> axum::Router {
    axum::Router::new()
        .route("/app", axum::routing::any(handle))
        .route("/app/", axum::routing::any(handle))
        .route("/app/{*rest}", axum::routing::any(handle))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_BODY))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIME,
        ))
}

/// The bot is up: the page and its API are served from now on; `token` checks `initData`.
pub fn up(ctx: &Ctx, token: String) {
    let shared = Shared {
        ctx: ctx.clone(),
        token: Arc::new(token),
        streams: Arc::new(Streams::default()),
    };
    if UP.set(shared).is_err() {
        log::error!("the Mini App was started twice");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_may_ask_twenty_times_a_second_and_others_are_not_slowed() {
        let second = 1_700_000_000_000u64;
        let asked: Vec<bool> = (0..22).map(|i| within_rate(7, second + i * 10)).collect();
        assert_eq!(asked.iter().filter(|&&ok| ok).count(), PER_SECOND as usize);
        assert!(!asked[21]);
        assert!(within_rate(8, second + 500), "another user");
        assert!(within_rate(7, second + 1000), "the next second");
    }
}
