//! The Mini App's server (issue 31, begun): `MB_WEBAPP_LISTEN` serves the page and its API,
//! everything from the binary.
//!
//! - `GET /app` — the page (`assets/webapp/index.html`, no script or style from elsewhere):
//!   the live board of the game its link names (`startapp=g<id>`), redrawn every second.
//! - `GET /app/api/state?game=<id>` — the game as the caller may see it
//!   (`view::webapp::state`): a player gets their seat's view, anyone else the public's.
//! - `GET /app/api/events?game=<id>` — the same state as server-sent events: now, then each
//!   newer version as the store has it, whichever replica made the change (the version is
//!   looked at four times a second, the record read only when it changed).
//! - `POST /app/api/shot?game=<id>&generation=<g>&target=<seat>&cell=<index>` — a tap on a
//!   cell: the very transition a cell's button goes through (`game::battle::press_cell`), with
//!   the same refusals and the same answer in words (`{"ok": …, "answer": …}`), and the
//!   group's message follows from the outbox as after a press.
//!
//! The caller is whoever Telegram's `initData` (header `Authorization: tma <initData>`, or the
//! query's `auth` for the live stream) says,
//! checked with the bot's token (`init_data.rs`): a forged, altered or expired one gets 401
//! and changes nothing.
//!
//! A user may ask [`PER_SECOND`] times a second (on each replica): more gets 429 with
//! `Retry-After: 1`, so a runaway page or a script cannot load Redis.
//!
//! Not built yet: placing by dragging, the Riga board.

use super::context::{now, Ctx};
use super::init_data;
use crate::game::battle as rules;
use crate::game::lang::Lang;
use crate::game::GameId;
use crate::store::StoreError;
use crate::view::group::cell_answer;
use crate::view::render::unescape;
use engine::{PlayerId, SeatId};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, StreamBody};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

/// The page, as built into the binary.
const PAGE: &str = include_str!("../../assets/webapp/index.html");

/// Every response's body: whole, or the live stream's events.
type Body = BoxBody<Bytes, Infallible>;

/// How often the live stream looks at the game.
const LOOK_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Requests a user may make in one second, on one replica.
pub const PER_SECOND: u32 = 10;

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
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-store".parse() {
        r.headers_mut().insert(hyper::header::CACHE_CONTROL, v);
    }
    r
}

fn text(status: StatusCode, words: &str) -> Response<Body> {
    reply(status, "text/plain; charset=utf-8", words.to_owned())
}

/// The value of `name` in a query string.
fn query<'a>(req: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    req.uri().query()?.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then_some(v)
    })
}

/// The caller, if the request carries a valid `initData`: in the header `Authorization: tma
/// <initData>`, or (for the live stream, which a browser opens without headers) encoded in
/// the query's `auth`.
fn caller(req: &Request<Incoming>, token: &str) -> Option<init_data::InitData> {
    let header = req
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("tma "))
        .map(str::to_owned);
    let data = header.or_else(|| query(req, "auth").and_then(init_data::decode))?;
    init_data::validate(&data, token, crate::telegram::sender::now_ms() / 1000).ok()
}

/// Game `id` as `user` may see it, as JSON, with its version and whether it is over;
/// `Ok(None)` for no such Sea Battle game.
async fn seen(ctx: &Ctx, id: GameId, user: u64) -> Result<Option<(String, u64, bool)>, StoreError> {
    match ctx.store.load_game(id).await {
        Ok((rec, version)) if !rec.is_riga() => {
            let seat = rec
                .game
                .seats()
                .iter()
                .position(|s| s.player == PlayerId(user))
                .map(|i| SeatId(i as u8));
            let json = crate::view::webapp::state(&rec, seat, version);
            Ok(Some((json.to_string(), version, rec.game.is_finished())))
        }
        Ok(_) | Err(StoreError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The state of game `game` for `user`, as JSON.
async fn state(ctx: &Ctx, game: &str, user: u64) -> Response<Body> {
    let Some(id) = game.parse::<u64>().ok().map(GameId) else {
        return text(StatusCode::NOT_FOUND, "no such game");
    };
    match seen(ctx, id, user).await {
        Ok(Some((json, _, _))) => reply(StatusCode::OK, "application/json", json),
        Ok(None) => text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            log::warn!("webapp state of {id}: {e}");
            text(StatusCode::SERVICE_UNAVAILABLE, "try again")
        }
    }
}

/// The live stream of game `game` for `user` (server-sent events): its state now, then each
/// newer one as the store has it, whichever replica changed it; it ends after the end.
async fn events(ctx: &Ctx, game: &str, user: u64) -> Response<Body> {
    let Some(id) = game.parse::<u64>().ok().map(GameId) else {
        return text(StatusCode::NOT_FOUND, "no such game");
    };
    let first = match seen(ctx, id, user).await {
        Ok(Some(first)) => first,
        Ok(None) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            log::warn!("webapp events of {id}: {e}");
            return text(StatusCode::SERVICE_UNAVAILABLE, "try again");
        }
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let ctx = ctx.clone();
    tokio::spawn(async move {
        let event = |json: &str| Bytes::from(format!("data: {json}\n\n"));
        let (json, mut version, mut over) = first;
        if tx.send(event(&json)).await.is_err() {
            return;
        }
        let mut quiet = 0u32;
        while !over {
            tokio::time::sleep(LOOK_EVERY).await;
            // The version alone first: the whole record only once it has changed.
            let looked = match ctx.store.game_version(id).await {
                Ok(Some(v)) if v > version => seen(&ctx, id, user).await,
                Ok(Some(_)) => Ok(Some((String::new(), version, over))),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            };
            match looked {
                Ok(Some((json, v, end))) if v > version => {
                    (version, over) = (v, end);
                    if tx.send(event(&json)).await.is_err() {
                        return;
                    }
                    quiet = 0;
                }
                Ok(Some(_)) | Err(_) => {
                    quiet += 1;
                    // A comment now and then keeps proxies from closing a quiet stream.
                    if quiet.is_multiple_of(60)
                        && tx.send(Bytes::from(": quiet\n\n")).await.is_err()
                    {
                        return;
                    }
                }
                Ok(None) => return,
            }
        }
    });
    let stream = futures::stream::unfold(rx, |mut rx| async move {
        let chunk = rx.recv().await?;
        Some((Ok::<_, Infallible>(hyper::body::Frame::data(chunk)), rx))
    });
    let mut r = Response::new(StreamBody::new(stream).boxed());
    if let Ok(v) = "text/event-stream".parse() {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    if let Ok(v) = "no-store".parse() {
        r.headers_mut().insert(hyper::header::CACHE_CONTROL, v);
    }
    r
}

/// A tap on a cell from the page: `press_cell`, as a cell's button.
async fn shot(ctx: &Ctx, req: &Request<Incoming>, who: &init_data::InitData) -> Response<Body> {
    let number = |name: &str| query(req, name).and_then(|v| v.parse::<u64>().ok());
    let (Some(game), Some(generation), Some(target), Some(cell)) = (
        number("game"),
        number("generation").and_then(|g| u32::try_from(g).ok()),
        number("target").and_then(|t| u8::try_from(t).ok()),
        number("cell").and_then(|c| u16::try_from(c).ok()),
    ) else {
        return text(
            StatusCode::BAD_REQUEST,
            "game, generation, target and cell wanted",
        );
    };
    let id = GameId(game);
    let lang = Lang::from_telegram(who.user.language_code.as_deref());
    let player = PlayerId(who.user.id);
    let rng = ctx.fork();
    let due = super::battle::due(ctx);
    let done = ctx
        .store
        .transition_due(id, Some(&due), |r| {
            let mut rng = rng.clone();
            rules::press_cell(r, player, generation, target, cell, None, now(), &mut rng)
        })
        .await;
    let (ok, words) = match done {
        Ok(Ok(done)) => {
            let words = cell_answer(lang, &done.record, &done.value);
            super::battle::follow_up(ctx, id, &done.record);
            (true, words)
        }
        Ok(Err(refused)) => (false, crate::view::refusal::words(lang, &refused)),
        Err(StoreError::NotFound) => return text(StatusCode::NOT_FOUND, "no such game"),
        Err(e) => {
            log::warn!("webapp shot in {id}: {e}");
            return text(StatusCode::SERVICE_UNAVAILABLE, "try again");
        }
    };
    let json = serde_json::json!({ "ok": ok, "answer": unescape(&words) });
    reply(StatusCode::OK, "application/json", json.to_string())
}

async fn answer(ctx: Ctx, token: Arc<String>, req: Request<Incoming>) -> Response<Body> {
    let path = req.uri().path();
    if path == "/app" || path == "/app/" {
        return reply(StatusCode::OK, "text/html; charset=utf-8", PAGE);
    }
    if !path.starts_with("/app/api/") {
        return text(StatusCode::NOT_FOUND, "not here");
    }
    let Some(who) = caller(&req, &token) else {
        return text(
            StatusCode::UNAUTHORIZED,
            "initData missing, forged or expired",
        );
    };
    if !within_rate(who.user.id, crate::telegram::sender::now_ms()) {
        let mut r = text(StatusCode::TOO_MANY_REQUESTS, "slow down");
        if let Ok(v) = "1".parse() {
            r.headers_mut().insert(hyper::header::RETRY_AFTER, v);
        }
        return r;
    }
    match (req.method(), path) {
        (&Method::GET, "/app/api/state") => {
            let Some(game) = query(&req, "game") else {
                return text(StatusCode::BAD_REQUEST, "game=<id> wanted");
            };
            state(&ctx, game, who.user.id).await
        }
        (&Method::GET, "/app/api/events") => {
            let Some(game) = query(&req, "game") else {
                return text(StatusCode::BAD_REQUEST, "game=<id> wanted");
            };
            events(&ctx, game, who.user.id).await
        }
        (&Method::POST, "/app/api/shot") => shot(&ctx, &req, &who).await,
        _ => text(StatusCode::NOT_FOUND, "not here"),
    }
}

/// Serves the page and its API on `addr` until the process ends; `token` checks `initData`.
pub async fn serve(ctx: Ctx, token: String, addr: SocketAddr) {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            log::error!("the Mini App cannot listen on {addr} (MB_WEBAPP_LISTEN): {e}");
            std::process::exit(2);
        }
    };
    log::info!("the Mini App is served at http://{addr}/app");
    let token = Arc::new(token);
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let (ctx, token) = (ctx.clone(), Arc::clone(&token));
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let (ctx, token) = (ctx.clone(), Arc::clone(&token));
                async move { Ok::<_, Infallible>(answer(ctx, token, req).await) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await
            {
                log::debug!("Mini App connection: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_may_ask_ten_times_a_second_and_others_are_not_slowed() {
        let second = 1_700_000_000_000u64;
        let asked: Vec<bool> = (0..12).map(|i| within_rate(7, second + i * 10)).collect();
        assert_eq!(asked.iter().filter(|&&ok| ok).count(), PER_SECOND as usize);
        assert!(!asked[11]);
        assert!(within_rate(8, second + 500), "another user");
        assert!(within_rate(7, second + 1000), "the next second");
    }
}
