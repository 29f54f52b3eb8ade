//! Webhook mode (`MB_WEBHOOK_URL`): Telegram posts every update to one https URL, and a load
//! balancer in front of the replicas passes each post to one of them (plain HTTP on
//! `MB_WEBHOOK_LISTEN`). Long polling allows one process a token; a webhook, any number.
//!
//! A post is answered only once its update is handled, so an update a replica took and never
//! finished (it crashed) is posted again by Telegram, to whichever replica. Which replica
//! handles it is settled in Redis ([`Store::claim_update`](crate::store::Store::claim_update)):
//! one that is handled is answered at once, one that another replica is still handling is
//! answered 503 (Telegram posts it again later), and one whose replica went silent longer
//! than `MB_CLAIM_STALE_SECS` is taken over. A grid press's keyboard is cut out before the
//! update is parsed, as in long polling ([`super::polling::slim`]).
//!
//! With Redis away, a press is answered "try again" at once and its post taken, and so is a
//! command answered from the update alone (`/help`); anything else is answered 503 until it
//! has been handled ([`without_store`]).

use super::context::{BotError, Ctx};
use super::dispatch::{is_shot_press, not_now, schema, Claimed};
use super::metered::Metered;
use crate::config::Webhook;
use crate::metrics::Outcome;
use crate::store::settings::Claim;
use crate::store::StoreError;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{AllowedUpdate, Me};
use teloxide::RequestError;

/// The most a post may carry: an update is a few kilobytes.
const MAX_BODY: usize = 1 << 20;

/// How long a post waits for its update to be handled before it is answered anyway (the
/// handling goes on): Telegram gives up on an answer after about a minute.
const ANSWER_WITHIN: Duration = Duration::from_secs(45);

/// How long a stopping replica waits for the posts it is handling.
const GRACE: Duration = Duration::from_secs(5);

/// The header Telegram sends the secret token in.
const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// What every post's handling shares.
struct Shared {
    ctx: Ctx,
    me: Me,
    handler: UpdateHandler<BotError>,
    secret: String,
}

/// Tells Telegram where to post (every replica sets the same): a URL Telegram refuses stops
/// the bot (exit 2) with Telegram's words; no network is tried again with a growing pause.
pub async fn set(ctx: &Ctx, hook: &Webhook) {
    let mut pause = Duration::from_secs(1);
    loop {
        let result = ctx
            .bot
            .set_webhook(hook.url.clone())
            .secret_token(hook.secret.clone())
            .allowed_updates(vec![
                AllowedUpdate::Message,
                AllowedUpdate::CallbackQuery,
                AllowedUpdate::InlineQuery,
            ])
            .metered()
            .await;
        let error = match result {
            Ok(_) => return,
            Err(RequestError::Api(e)) => {
                log::error!("Telegram refuses MB_WEBHOOK_URL={}: {e}", hook.url);
                std::process::exit(2);
            }
            Err(RequestError::RetryAfter(s)) => {
                pause = s.duration();
                RequestError::RetryAfter(s)
            }
            Err(e) => e,
        };
        log::warn!(
            "setWebhook failed: {error}; trying again in {} s",
            pause.as_secs()
        );
        super::context::wait_to_try_again(&mut pause).await;
    }
}

/// The webhook's part of the router (`http.rs`): posts to `path` (anything else there 404),
/// answered 503 until the bot is up ([`run`]).
pub fn router(path: &str) -> axum::Router {
    let not_here = || async { StatusCode::NOT_FOUND };
    limited(
        axum::Router::new().route(path, axum::routing::post(answer).fallback(not_here)),
        ANSWER_WITHIN,
    )
}

/// What every post's handling shares, once the bot is up.
static UP: std::sync::OnceLock<Shared> = std::sync::OnceLock::new();

/// Posts being handled now.
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// Takes Telegram's posts (the server listens from the process's start: `http.rs`) until
/// ctrl-c or SIGTERM, then waits a little for the posts being handled.
pub async fn run(ctx: Ctx, me: Me, hook: Webhook) {
    let shared = Shared {
        ctx,
        me,
        handler: schema(),
        secret: hook.secret,
    };
    if UP.set(shared).is_err() {
        log::error!("the webhook was started twice");
        return;
    }
    log::info!(
        "taking Telegram's posts to {} at http://{}{}",
        hook.url,
        hook.listen,
        hook.url.path()
    );
    // The server takes no new post once a stop is asked for; the posts being handled get
    // GRACE to finish.
    super::context::stop_requested().await;
    let deadline = tokio::time::Instant::now() + GRACE;
    while BUSY.load(Ordering::SeqCst) > 0 {
        if tokio::time::Instant::now() >= deadline {
            log::warn!(
                "{} posts still in hand after {} s: Telegram posts them again",
                BUSY.load(Ordering::SeqCst),
                GRACE.as_secs()
            );
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The webhook's limits as tower layers: a post of at most [`MAX_BODY`] (413 beyond), answered
/// within `within` (503 beyond, and Telegram posts it again: never a 2xx for an update whose
/// handling has not ended).
fn limited<S: Clone + Send + Sync + 'static>(
    router: axum::Router<S>,
    within: Duration,
) -> axum::Router<S> {
    router
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            within,
        ))
}

fn status(code: StatusCode) -> Response {
    code.into_response()
}

/// One post: checked, claimed, handled, then answered (503 before the bot is up).
async fn answer(headers: HeaderMap, body: Bytes) -> Response {
    let Some(shared) = UP.get() else {
        return status(StatusCode::SERVICE_UNAVAILABLE);
    };
    let secret = headers.get(SECRET_HEADER).map_or(&[][..], |v| v.as_bytes());
    if !super::init_data::same_secret(shared.secret.as_bytes(), secret) {
        log::warn!("a post to the webhook without its secret token: refused");
        return status(StatusCode::UNAUTHORIZED);
    }
    // An update that cannot be read would come again and again: it is logged and taken.
    let Some(update) = read(&body) else {
        return status(StatusCode::OK);
    };
    let id = update.id.0;
    let ctx = &shared.ctx;
    // A shot press's claim rides in its transition (see `battle::on_cell`); while Redis is
    // known to be away it is not tried.
    let claimed = !is_shot_press(&update);
    let kind = super::metered::kind(&update);
    let skipped = |outcome| crate::metrics::update(kind, outcome);
    if claimed {
        match ctx.claim(id).await {
            Ok(Claim::Mine) => {}
            Ok(Claim::Handled) => {
                skipped(Outcome::Duplicate);
                return status(StatusCode::OK);
            }
            // Telegram posts it again later: taken over if that process died.
            Ok(Claim::Elsewhere | Claim::Again) => {
                skipped(Outcome::Duplicate);
                return status(StatusCode::SERVICE_UNAVAILABLE);
            }
            // Redis is away: answered from the update alone when it can be, else Telegram
            // posts it again later, when Redis may be back.
            Err(e) => return without_store(shared, &update, &e).await,
        }
    } else if ctx.store.unreachable() {
        let e = StoreError::Unavailable("Redis is unreachable".into());
        return without_store(shared, &update, &e).await;
    }
    BUSY.fetch_add(1, Ordering::SeqCst);
    let task = tokio::spawn(dispatch(shared, update, kind, Claimed(claimed)));
    // Past ANSWER_WITHIN the router's time limit answers 503 and lets go of this wait, not
    // of the handling (its task goes on): a post of it again is answered 503 until it is
    // done, then 200.
    match task.await {
        Ok(true) => status(StatusCode::OK),
        // Not handled for want of Redis: Telegram posts it again.
        Ok(false) => status(StatusCode::SERVICE_UNAVAILABLE),
        Err(e) => {
            log::error!("update {id}: {e}");
            status(StatusCode::SERVICE_UNAVAILABLE)
        }
    }
}

/// A post whose update cannot be handled now, Redis away: 200 when the update was answered
/// from itself (a press "try again" at once, as Telegram takes its answer only within about
/// 15 s; `/help` and the like: [`not_now`]), else 503, and Telegram posts it again. Never a
/// 2xx for an update not handled.
async fn without_store(shared: &Shared, update: &Update, e: &StoreError) -> Response {
    crate::metrics::update(super::metered::kind(update), Outcome::TryAgain);
    if not_now(&shared.ctx, &shared.me, update, e, false).await {
        status(StatusCode::OK)
    } else {
        log::debug!("update {}: {e}; answered 503", update.id.0);
        status(StatusCode::SERVICE_UNAVAILABLE)
    }
}

/// The update in a post, with a grid press's keyboard left out.
fn read(body: &[u8]) -> Option<Update> {
    let text = std::str::from_utf8(body)
        .map_err(|e| log::error!("a post that is not UTF-8: {e}"))
        .ok()?;
    let (id, json) = super::polling::slim(text)
        .map_err(|e| log::error!("a post without an update: {e}"))
        .ok()?;
    serde_json::from_str(&json)
        .map_err(|e| log::error!("update {id} cannot be read: {e}"))
        .ok()
}

/// Runs the handler tree on one update, as the dispatcher of long polling does: `false`
/// when it failed for want of Redis (it is to come again).
async fn dispatch(
    shared: &'static Shared,
    update: Update,
    kind: &'static str,
    claimed: Claimed,
) -> bool {
    let id = update.id.0;
    let deps = dptree::deps![
        shared.ctx.clone(),
        shared.me.clone(),
        shared.ctx.bot.clone(),
        claimed,
        update
    ];
    let handled = match super::metered::dispatch(&shared.handler, deps, kind).await {
        ControlFlow::Break(Ok(())) | ControlFlow::Continue(_) => true,
        ControlFlow::Break(Err(BotError::Store(StoreError::Unavailable(e)))) => {
            log::warn!("webhook: Redis is unavailable: {e}; the update is to come again");
            false
        }
        ControlFlow::Break(Err(BotError::Elsewhere)) => false,
        ControlFlow::Break(Err(e)) => {
            log::error!("webhook: {e}");
            true
        }
    };
    shared.ctx.hold_update(id, false);
    BUSY.fetch_sub(1, Ordering::SeqCst);
    handled
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// The status line of a post of `body` to `path` at `addr`.
    async fn post(addr: std::net::SocketAddr, path: &str, body: &[u8]) -> String {
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let head = format!(
            "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        // A body refused unread may close the connection before it is all written.
        let _ = stream.write_all(body).await;
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer).await;
        let answer = String::from_utf8_lossy(&answer);
        answer.lines().next().unwrap_or_default().to_owned()
    }

    /// A post whose handling outlasts the time limit is answered 503 (Telegram posts it again),
    /// not 200 and not left hanging; one handled in time 200; one over the size limit 413.
    #[tokio::test]
    async fn a_post_not_handled_in_time_is_answered_503_and_one_too_big_413() {
        let slow = axum::Router::new()
            .route(
                "/slow",
                axum::routing::post(|| async {
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    StatusCode::OK
                }),
            )
            .route(
                "/fast",
                axum::routing::post(|body: Bytes| async move {
                    assert!(!body.is_empty());
                    StatusCode::OK
                }),
            );
        let app = limited(slow, Duration::from_millis(300));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        let began = std::time::Instant::now();
        assert_eq!(
            post(addr, "/slow", b"{}").await,
            "HTTP/1.1 503 Service Unavailable"
        );
        assert!(began.elapsed() < Duration::from_secs(30));
        assert_eq!(post(addr, "/fast", b"{}").await, "HTTP/1.1 200 OK");
        let big = vec![b' '; MAX_BODY + 1];
        assert_eq!(
            post(addr, "/fast", &big).await,
            "HTTP/1.1 413 Payload Too Large"
        );
    }
}
