//! The webhook: setWebhook / deleteWebhook / getWebhookInfo with Telegram's checks, and the
//! deliveries: while a webhook is set, every pending update is POSTed to the bot's replicas,
//! round-robin, as a load balancer in front of them would (TLS ends there, so it is plain HTTP
//! to the replicas). An update leaves the queue on a 2xx answer; any other answer, a refused
//! connection or a timeout is recorded for getWebhookInfo and the update is retried later on
//! another replica.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

use super::http::{Params, Reply};
use super::sending::Answer;
use super::state::{unix_now, Shared, State};
use super::Delivery;

const MAX_CONNECTIONS: i64 = 40;
const PORTS: [u16; 4] = [443, 80, 88, 8443];
/// The first retry of a failed delivery waits this long, each next one twice as long, …
const FIRST_RETRY: Duration = Duration::from_millis(200);
/// … up to this.
const LAST_RETRY: Duration = Duration::from_secs(2);

/// The webhook setWebhook set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Webhook {
    pub url: String,
    /// The URL's path and query, which the replicas are POSTed at.
    pub path: String,
    /// The URL's host (and port, when not the default), for the `Host` header.
    pub host: String,
    pub secret: Option<String>,
    pub max_connections: usize,
}

/// One update's deliveries so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Redelivery {
    pub in_flight: bool,
    /// After a failure: not before then.
    pub not_before: Option<Instant>,
    /// The latest wait before a retry.
    pub backoff: Duration,
    /// Where it failed last: a retry goes elsewhere.
    pub failed_on: Option<SocketAddr>,
}

fn bad_webhook(reason: &str) -> Reply {
    Reply::bad_request(format!("Bad Request: bad webhook: {reason}"))
}

/// setWebhook: an empty `url` removes the webhook; otherwise an HTTPS URL on one of Telegram's
/// ports, a secret token of 1–256 of `A-Z a-z 0-9 _ -`, `max_connections` 1–100 (40 by
/// default), `allowed_updates` as getUpdates takes it, `drop_pending_updates`.
pub(super) fn set_webhook(st: &mut State, p: &Params) -> Answer {
    let raw = p.str("url").unwrap_or_default();
    if raw.is_empty() {
        return Ok(delete_webhook(st, p));
    }
    let parsed = match url::Url::parse(&raw) {
        // Telegram reads a URL without a scheme as http://…
        Err(url::ParseError::RelativeUrlWithoutBase) => url::Url::parse(&format!("http://{raw}")),
        other => other,
    };
    let Ok(url) = parsed else {
        return Err(bad_webhook("Wrong HTTP URL"));
    };
    if url.scheme() != "https" {
        return Err(bad_webhook("An HTTPS URL must be provided for webhook"));
    }
    let Some(host) = url.host_str().filter(|h| !h.is_empty()) else {
        return Err(bad_webhook("Wrong HTTP URL"));
    };
    if !url
        .port_or_known_default()
        .is_some_and(|port| PORTS.contains(&port))
    {
        return Err(bad_webhook(
            "Webhook can be set up only on ports 80, 88, 443 or 8443",
        ));
    }
    // An empty secret is none, as Telegram reads it.
    let secret = p.str("secret_token").filter(|s| !s.is_empty());
    if let Some(secret) = &secret {
        if secret.len() > 256 {
            return Err(Reply::bad_request("Bad Request: secret token is too long"));
        }
        if !secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(Reply::bad_request(
                "Bad Request: secret token contains unallowed characters",
            ));
        }
    }
    let max_connections = p
        .i64("max_connections")
        .unwrap_or(MAX_CONNECTIONS)
        .clamp(1, 100) as usize;
    let path = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    let host = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    let webhook = Webhook {
        url: url.to_string(),
        path,
        host,
        secret,
        max_connections,
    };
    let allowed_before = st.allowed_updates.clone();
    st.set_allowed_updates(p.json("allowed_updates"));
    if p.bool("drop_pending_updates") {
        st.updates.clear();
    }
    if st.webhook.as_ref() == Some(&webhook) && st.allowed_updates == allowed_before {
        return Ok(Reply::ok_described(json!(true), "Webhook is already set"));
    }
    if st.webhook.as_ref().is_none_or(|w| w.url != webhook.url) {
        st.webhook_error = None;
    }
    st.webhook = Some(webhook);
    Ok(Reply::ok_described(json!(true), "Webhook was set"))
}

/// deleteWebhook (and setWebhook with an empty URL): back to getUpdates.
pub(super) fn delete_webhook(st: &mut State, p: &Params) -> Reply {
    if p.bool("drop_pending_updates") {
        st.updates.clear();
    }
    st.webhook_error = None;
    match st.webhook.take() {
        Some(_) => Reply::ok_described(json!(true), "Webhook was deleted"),
        None => Reply::ok_described(json!(true), "Webhook is already deleted"),
    }
}

/// getWebhookInfo's WebhookInfo.
pub(super) fn webhook_info(st: &State) -> Value {
    let mut info = json!({
        "url": st.webhook.as_ref().map_or("", |w| w.url.as_str()),
        "has_custom_certificate": false,
        "pending_update_count": st.updates.len(),
    });
    if let Some((date, message)) = &st.webhook_error {
        info["last_error_date"] = json!(date);
        info["last_error_message"] = json!(message);
    }
    if let Some(webhook) = &st.webhook {
        info["max_connections"] = json!(webhook.max_connections);
        if let Some(list) = st.allowed_updates.as_ref().filter(|l| !l.is_empty()) {
            info["allowed_updates"] = json!(list);
        }
    }
    info
}

/// One POST to make.
struct Job {
    update_id: u32,
    body: String,
    backend: SocketAddr,
    path: String,
    host: String,
    secret: Option<String>,
    timeout: Duration,
}

/// Delivers updates while a webhook is set, for as long as the server runs: wakes on every
/// change (a new update, a webhook set, a delivery ended) and when a retry is due.
pub(super) async fn deliver(shared: Arc<Shared>) {
    loop {
        let notified = shared.changed.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        let (jobs, dropped, retry_at) = next_jobs(&mut shared.lock());
        if dropped {
            shared.changed.notify_waiters();
        }
        for job in jobs {
            let shared = shared.clone();
            tokio::spawn(async move {
                let outcome = match tokio::time::timeout(job.timeout, post(&job)).await {
                    Ok(outcome) => outcome,
                    Err(_) => Err("Read timeout expired".to_owned()),
                };
                shared.update(|st| finish(st, &job, outcome));
            });
        }
        let wake = retry_at.unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
        let _ = tokio::time::timeout_at(wake, notified).await;
    }
}

/// The deliveries to start now (marked in flight), whether updates the webhook does not take
/// were dropped, and when the next retry is due.
fn next_jobs(st: &mut State) -> (Vec<Job>, bool, Option<Instant>) {
    let Some(webhook) = st.webhook.clone() else {
        return (Vec::new(), false, None);
    };
    // Telegram keeps no updates of kinds the webhook does not take.
    let queued = std::mem::take(&mut st.updates);
    let before = queued.len();
    st.updates = queued.into_iter().filter(|u| st.allowed(u.kind)).collect();
    let dropped = st.updates.len() != before;
    if st.webhook_backends.is_empty() {
        return (Vec::new(), dropped, None);
    }
    let now = Instant::now();
    let mut room = webhook.max_connections.saturating_sub(st.webhook_in_flight);
    let mut jobs = Vec::new();
    let mut retry_at: Option<Instant> = None;
    for i in 0..st.updates.len() {
        if room == 0 {
            break;
        }
        let redelivery = &st.updates[i].redelivery;
        if redelivery.in_flight {
            continue;
        }
        if let Some(at) = redelivery.not_before.filter(|at| *at > now) {
            retry_at = Some(retry_at.map_or(at, |r| r.min(at)));
            continue;
        }
        let failed_on = redelivery.failed_on;
        let backends = &st.webhook_backends;
        let mut backend = backends[st.next_backend % backends.len()];
        st.next_backend += 1;
        if backends.len() > 1 && Some(backend) == failed_on {
            backend = backends[st.next_backend % backends.len()];
            st.next_backend += 1;
        }
        let update = &mut st.updates[i];
        update.redelivery.in_flight = true;
        jobs.push(Job {
            update_id: update.id,
            body: update.json.to_string(),
            backend,
            path: webhook.path.clone(),
            host: webhook.host.clone(),
            secret: webhook.secret.clone(),
            timeout: st.webhook_timeout,
        });
        st.webhook_in_flight += 1;
        room -= 1;
    }
    (jobs, dropped, retry_at)
}

/// Records a delivery's end: a 2xx takes the update off the queue, anything else schedules a
/// retry elsewhere and becomes getWebhookInfo's last error.
fn finish(st: &mut State, job: &Job, outcome: Result<u16, String>) {
    st.webhook_in_flight = st.webhook_in_flight.saturating_sub(1);
    let delivery = Delivery {
        update_id: job.update_id,
        backend: job.backend,
        outcome,
    };
    if delivery.delivered() {
        st.updates.retain(|u| u.id != job.update_id);
    } else {
        let message = match &delivery.outcome {
            Ok(status) => {
                let reason = hyper::StatusCode::from_u16(*status)
                    .ok()
                    .and_then(|s| s.canonical_reason())
                    .unwrap_or_default();
                format!("Wrong response from the webhook: {status} {reason}")
                    .trim_end()
                    .to_owned()
            }
            Err(error) => error.clone(),
        };
        if st.webhook.is_some() {
            st.webhook_error = Some((unix_now(), message));
        }
        if let Some(update) = st.updates.iter_mut().find(|u| u.id == job.update_id) {
            let r = &mut update.redelivery;
            r.in_flight = false;
            r.backoff = if r.backoff.is_zero() {
                FIRST_RETRY
            } else {
                (r.backoff * 2).min(LAST_RETRY)
            };
            r.not_before = Some(Instant::now() + r.backoff);
            r.failed_on = Some(job.backend);
        }
    }
    st.deliveries.push(delivery);
}

/// One HTTP/1.1 POST of the update to a replica, on a connection of its own: the status, or
/// the error as Telegram words it.
async fn post(job: &Job) -> Result<u16, String> {
    let stream = tokio::net::TcpStream::connect(job.backend)
        .await
        .map_err(|e| io_error(&e))?;
    let _ = stream.set_nodelay(true);
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| http_error(&e))?;
    let mut request = Request::post(job.path.as_str())
        .header("host", job.host.as_str())
        .header("content-type", "application/json");
    if let Some(secret) = &job.secret {
        request = request.header("x-telegram-bot-api-secret-token", secret.as_str());
    }
    let request = request
        .body(Full::new(Bytes::from(job.body.clone())))
        .map_err(|e| e.to_string())?;
    let exchange = async {
        let response = sender.send_request(request).await?;
        let status = response.status().as_u16();
        response.into_body().collect().await?;
        Ok::<_, hyper::Error>(status)
    };
    tokio::pin!(connection);
    tokio::select! {
        status = exchange => status.map_err(|e| http_error(&e)),
        // The connection ends first only by failing; a clean end leaves the exchange to finish.
        Err(e) = &mut connection => Err(http_error(&e)),
    }
}

fn io_error(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::ConnectionRefused => "Connection refused".to_owned(),
        ErrorKind::ConnectionReset | ErrorKind::BrokenPipe => "Connection reset by peer".to_owned(),
        ErrorKind::TimedOut => "Connection timed out".to_owned(),
        _ => e.to_string(),
    }
}

fn http_error(e: &hyper::Error) -> String {
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            return io_error(io);
        }
        source = s.source();
    }
    if e.is_incomplete_message() {
        "Connection closed before the response".to_owned()
    } else {
        e.to_string()
    }
}
