//! The health endpoint (`MB_HEALTH_ADDR`): `GET /healthz` answers `200 ok` while Redis answers
//! and the timer loop (which also wakes the senders of every game with something to send)
//! keeps turning, else `503` with what is wrong. `morskoy-boy healthcheck` asks it, for
//! container health checks in images without curl. The same judgement, made every second,
//! ends the process once it has been bad for `MB_UNHEALTHY_EXIT_SECS` ([`exit_when_unhealthy`]).
//! `GET /metrics` answers this process's counters as Prometheus text (`src/metrics.rs`).

use super::context::Ctx;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// When the timer loop last turned (Unix milliseconds); 0 before its first turn.
static LAST_TICK: AtomicU64 = AtomicU64::new(0);

/// Notes a turn of the timer loop.
pub fn ticked() {
    LAST_TICK.store(super::sender::now_ms(), Ordering::Relaxed);
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
    let mut since: Option<std::time::Instant> = None;
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
                    std::time::Instant::now()
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

/// Serves the endpoint on `addr` until the process ends.
pub async fn serve(ctx: Ctx, addr: SocketAddr) {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            log::error!("the health endpoint cannot listen on {addr} (MB_HEALTH_ADDR): {e}");
            std::process::exit(2);
        }
    };
    log::info!("health at http://{addr}/healthz, metrics at http://{addr}/metrics");
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue;
        };
        let ctx = ctx.clone();
        tokio::spawn(async move {
            let mut buf = [0u8; 1024];
            let n = match tokio::time::timeout(Duration::from_secs(2), stream.read(&mut buf)).await
            {
                Ok(Ok(n)) => n,
                _ => return,
            };
            let request = String::from_utf8_lossy(&buf[..n]);
            let mut kind = "text/plain";
            let (status, body) = if request.starts_with("GET /healthz ") {
                match check(&ctx).await {
                    Ok(()) => ("200 OK", "ok\n".to_owned()),
                    Err(e) => ("503 Service Unavailable", format!("{e}\n")),
                }
            } else if request.starts_with("GET /metrics ") {
                kind = crate::metrics::CONTENT_TYPE;
                ("200 OK", crate::metrics::render())
            } else {
                ("404 Not Found", "GET /healthz or GET /metrics\n".to_owned())
            };
            let reply = format!(
                "HTTP/1.1 {status}\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
        });
    }
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
