//! The bot's HTTP server: one `axum` router for all it serves — the health endpoints
//! (`/livez`, `/readyz`, `/healthz`, `/metrics`: `health.rs`), Telegram's posts to the webhook
//! (`webhook.rs`) and the Mini App (`/app`: `webapp.rs`) — each part with its limits of a
//! request's size and time as tower layers.
//!
//! Each part listens where it is configured (`MB_HEALTH_ADDR`, `MB_WEBHOOK_LISTEN`,
//! `MB_WEBAPP_LISTEN`): a port open to the world takes only its own part's routes, and parts
//! given one address share one listener. Every listener is up from the process's first
//! second, before Redis or Telegram answer: until the bot is up the webhook and the Mini App
//! answer 503 (Telegram posts again later; the page says to try again), and `/readyz` says
//! what start-up waits for. On ctrl-c or SIGTERM the listeners take no new connection; the
//! posts in hand get the webhook's grace (`webhook.rs`).

use crate::config::Config;
use axum::http::StatusCode;
use std::net::SocketAddr;

/// A part of what the server serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// `/livez`, `/readyz`, `/healthz`, `/metrics`.
    Health,
    /// Telegram's posts, to the webhook URL's path.
    Webhook,
    /// The Mini App's page and API under `/app`.
    WebApp,
}

impl Part {
    /// The variable that says where this part listens.
    fn variable(self) -> &'static str {
        match self {
            Part::Health => "MB_HEALTH_ADDR",
            Part::Webhook => "MB_WEBHOOK_LISTEN",
            Part::WebApp => "MB_WEBAPP_LISTEN",
        }
    }
}

/// The router of `parts` (the webhook's posts to `webhook_path`); anything else is 404.
pub fn router(parts: &[Part], webhook_path: &str) -> axum::Router {
    let mut router = axum::Router::new();
    for part in parts {
        router = router.merge(match part {
            Part::Health => super::health::router(),
            Part::Webhook => super::webhook::router(webhook_path),
            Part::WebApp => super::webapp::router(),
        });
    }
    router.fallback(|| async { StatusCode::NOT_FOUND })
}

/// The listeners `config` asks for: each address with the parts served there.
pub fn listeners(config: &Config) -> Vec<(SocketAddr, Vec<Part>)> {
    let wanted = [
        (config.health, Part::Health),
        (config.webhook.as_ref().map(|h| h.listen), Part::Webhook),
        (config.webapp, Part::WebApp),
    ];
    let mut listeners: Vec<(SocketAddr, Vec<Part>)> = Vec::new();
    for (addr, part) in wanted {
        let Some(addr) = addr else { continue };
        match listeners.iter_mut().find(|(a, _)| *a == addr) {
            Some((_, parts)) => parts.push(part),
            None => listeners.push((addr, vec![part])),
        }
    }
    listeners
}

/// Opens every listener `config` asks for, now, and serves each until ctrl-c or SIGTERM. An
/// address that cannot be taken stops the process (exit 2), naming its variable.
pub async fn listen(config: &Config) {
    let path = config
        .webhook
        .as_ref()
        .map_or_else(String::new, |h| h.url.path().to_owned());
    for (addr, parts) in listeners(config) {
        let listener = match tokio::net::TcpListener::bind(addr).await {
            Ok(l) => l,
            Err(e) => {
                let names: Vec<&str> = parts.iter().map(|p| p.variable()).collect();
                log::error!("cannot listen on {addr} ({}): {e}", names.join(", "));
                std::process::exit(2);
            }
        };
        for part in &parts {
            match part {
                Part::Health => log::info!(
                    "liveness at http://{addr}/livez, readiness at http://{addr}/readyz, \
                     metrics at http://{addr}/metrics"
                ),
                Part::Webhook => {
                    log::info!(
                        "the webhook listens at http://{addr}{path} (503 until start-up ends)"
                    )
                }
                Part::WebApp => log::info!("the Mini App is served at http://{addr}/app"),
            }
        }
        let app = router(&parts, &path);
        tokio::spawn(async move {
            let served = axum::serve(listener, app).with_graceful_shutdown(async {
                super::context::stop_requested().await;
            });
            if let Err(e) = served.await {
                log::error!("the HTTP server on {addr}: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parts given one address share its listener; each other address serves its own part.
    #[test]
    fn parts_on_one_address_share_a_listener() {
        let mut config =
            Config::from_vars(|k| (k == "TELOXIDE_TOKEN").then(|| "1:abc".to_owned())).unwrap();
        let a: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let b: SocketAddr = "0.0.0.0:8443".parse().unwrap();
        config.health = Some(a);
        config.webapp = Some(a);
        assert_eq!(
            listeners(&config),
            vec![(a, vec![Part::Health, Part::WebApp])]
        );
        config.webapp = Some(b);
        assert_eq!(
            listeners(&config),
            vec![(a, vec![Part::Health]), (b, vec![Part::WebApp])]
        );
        config.health = None;
        config.webapp = None;
        assert!(listeners(&config).is_empty());
    }
}
