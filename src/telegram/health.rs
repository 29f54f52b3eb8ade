//! The health endpoints (`MB_HEALTH_ADDR`), served by the bot's HTTP server (`http.rs`)
//! from the process's first second, before Redis or Telegram answer: `GET /livez` answers `200 ok` while the
//! process runs (liveness); `GET /readyz` (and `/healthz`, its older name) answers `200 ok`
//! once the bot is up and while Redis answers and the timer loop (which also wakes the senders
//! of every game with something to send) keeps turning, else `503` with what is wrong or what
//! start-up waits for (Redis, Telegram). `morskoy-boy healthcheck` asks `/healthz`, for
//! container health checks in images without curl. The same judgement, made every second,
//! ends the process once it has been bad for `MB_UNHEALTHY_EXIT_SECS` ([`exit_when_unhealthy`]).
//! `GET /metrics` answers this process's counters as Prometheus text (`src/metrics.rs`).
//! `HEAD` answers as `GET` without the body; a query string is let be.

use super::context::Ctx;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// When the timer loop last turned (Unix milliseconds); 0 before its first turn.
static LAST_TICK: AtomicU64 = AtomicU64::new(0);

/// Notes a turn of the timer loop.
pub fn ticked() {
    LAST_TICK.store(super::sender::now_ms(), Ordering::Relaxed);
}

/// The bot once it is up: until then the readiness says what start-up waits for.
static UP: OnceLock<Ctx> = OnceLock::new();

/// What start-up waits for now, until the bot is up.
static STARTING: Mutex<String> = Mutex::new(String::new());

/// Start-up waits for `what` now (said by `/readyz` until the bot is up).
pub fn starting(what: impl Into<String>) {
    let mut now = STARTING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *now = what.into();
}

/// The bot is up: from now on the readiness is its health ([`check`]).
pub fn up(ctx: &Ctx) {
    let _ = UP.set(ctx.clone());
}

/// Whether the bot is ready to take updates; else why not.
async fn readiness() -> Result<(), String> {
    match UP.get() {
        Some(ctx) => check(ctx).await,
        None => {
            let what = STARTING
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            Err(format!("starting: {what}"))
        }
    }
}

/// What is wrong, if anything.
async fn check(ctx: &Ctx) -> Result<(), String> {
    match tokio::time::timeout(Duration::from_secs(2), ctx.store.ping()).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(format!("redis: {e}")),
        Err(_) => return Err("redis: no answer in 2 s".into()),
    }
    let last = LAST_TICK.load(Ordering::Relaxed);
    let late = ctx.config.tick * 10 + Duration::from_secs(5);
    let age = super::sender::now_ms().saturating_sub(last);
    if last != 0 && age > late.as_millis() as u64 {
        return Err(format!("the timer and sender loop is stuck ({age} ms)"));
    }
    Ok(())
}

/// Watches the health as `/healthz` judges it, every second: once it has been bad for `limit`
/// without a break, the process exits (code 4) with an error saying why, so that its restart
/// policy starts it again. (Docker and Compose restart a container whose process ended, not
/// one whose health check fails.)
pub async fn exit_when_unhealthy(ctx: Ctx, limit: Duration) {
    let mut since: Option<tokio::time::Instant> = None;
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        match check(&ctx).await {
            Ok(()) => {
                if since.take().is_some() {
                    log::info!("healthy again");
                }
            }
            Err(e) => {
                let first = *since.get_or_insert_with(|| {
                    log::warn!(
                        "unhealthy: {e}; the bot exits if this lasts {} s \
                         (MB_UNHEALTHY_EXIT_SECS)",
                        limit.as_secs()
                    );
                    tokio::time::Instant::now()
                });
                if first.elapsed() >= limit {
                    log::error!(
                        "unhealthy for {} s without a break ({e}): exiting (code 4) so that \
                         the restart policy starts the bot again (MB_UNHEALTHY_EXIT_SECS)",
                        first.elapsed().as_secs()
                    );
                    std::process::exit(4);
                }
            }
        }
    }
}

/// The endpoints' part of the router (`http.rs`): `/livez`, `/readyz`, `/healthz`,
/// `/metrics`.
pub fn router() -> axum::Router {
    use axum::routing::get;
    axum::Router::new()
        .route("/livez", get(|| async { "ok\n" }))
        .route("/readyz", get(ready))
        .route("/healthz", get(ready))
        .route("/metrics", get(metrics))
}

/// `/readyz`: 200 when ready, else 503 and why.
async fn ready() -> axum::response::Response {
    match readiness().await {
        Ok(()) => "ok\n".into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, format!("{e}\n")).into_response(),
    }
}

/// `/metrics`: the process's metrics as Prometheus text.
async fn metrics() -> axum::response::Response {
    (
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        crate::metrics::render(),
    )
        .into_response()
}

/// `morskoy-boy healthcheck`: asks the endpoint at `addr`; the process's exit code (0 when
/// healthy), with the answer on stdout.
pub fn probe(addr: &str) -> i32 {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(addr) else {
        println!("nothing listens at {addr}");
        return 1;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let request = format!("GET /healthz HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return 1;
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default().trim();
    println!("{body}");
    i32::from(!answer.starts_with("HTTP/1.1 200 "))
}
