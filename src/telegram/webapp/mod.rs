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

mod api;
use api::*;

/// The page, as built into the binary.
const PAGE: &str = include_str!("../../../assets/webapp/index.html");

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
