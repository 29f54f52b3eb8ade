//! The bot's configuration: read from the environment once, at start-up, and refused with the
//! variable's name when a value is not valid (a typo must not fall back to a default
//! silently). `morskoy-boy --help` prints [`HELP`].
//!
//! In parts: reading the environment into a [`Config`] and its warnings (`env.rs`); what
//! `--help` prints and the variables it names (`help.rs`). This file holds the values, their
//! defaults and the errors.

use crate::game::record::Board;
use crate::store::StoreConfig;
use std::fmt;
use std::time::Duration;

mod env;
mod help;
#[cfg(test)]
mod tests;

pub use help::{unknown_variables, HELP};

/// Everything the bot binary is told by its environment.
#[derive(Clone, Debug)]
pub struct Config {
    /// `TELOXIDE_TOKEN`, or the content of the file `TELOXIDE_TOKEN_FILE` names (a secret
    /// mounted into a container): the bot's token.
    pub token: String,
    /// `TELOXIDE_API_URL`: another Bot API server (the tests' fake).
    pub api_url: Option<reqwest::Url>,
    /// `REDIS_URL`: one URL, or a cluster's seed nodes separated by commas.
    pub redis_url: String,
    /// `MB_REDIS_WAIT_SECS`: how long start-up waits for Redis before it gives up.
    pub redis_wait: Duration,
    /// `MB_NAMESPACE`, `MB_FINISHED_DAYS`.
    pub store: StoreConfig,
    /// `MB_GROUP_GAP_MS`, `MB_GROUP_PER_MINUTE`, `MB_AI_PAUSE_MS`, `MB_BOARD`,
    /// `MB_CLAIM_STALE_SECS`, `MB_CRASH_AT`.
    pub bot: BotConfig,
    /// `MB_REPLICA`, else `HOSTNAME`, else `0`.
    pub replica: String,
    /// `MB_SEED`: a fixed seed for every random choice (tests).
    pub seed: Option<u64>,
    /// `MB_HEALTH_ADDR`: where `GET /livez`, `/readyz`, `/healthz` and `/metrics` are served
    /// (none when unset).
    pub health: Option<std::net::SocketAddr>,
    /// `MB_WEBHOOK_URL` and its companions: webhook mode instead of long polling.
    pub webhook: Option<Webhook>,
    /// `MB_WEBAPP_LISTEN`: where the Mini App's page and API are served (none when unset).
    pub webapp: Option<std::net::SocketAddr>,
    /// `MB_DELETE_WEBHOOK`: long polling deletes a webhook it finds set rather than refusing
    /// to start (a webhook set means another deployment may be taking the updates).
    pub delete_webhook: bool,
    /// `MB_UNHEALTHY_EXIT_SECS`: after how long unhealthy without a break (what `/healthz`
    /// judges) the process exits, so its restart policy starts it again; `None`: never.
    pub unhealthy_exit: Option<Duration>,
}

/// Tunables of the adapter.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// The least time between two edits of one group's live message: a group takes about
    /// 20 sends and edits a minute.
    pub group_gap: Duration,
    /// How often due turn timers are checked.
    pub tick: Duration,
    /// Sends and edits one group takes a minute: Telegram's limit is about 20.
    pub group_per_minute: u32,
    /// `MB_TOKEN_PER_SECOND`: sends and edits the bot token takes a second, across all chats
    /// and replicas (Telegram's limit is about 30; 25 leaves headroom).
    pub token_per_second: u32,
    /// How long the bot "types" before its own move, so people can follow it.
    pub ai_pause: Duration,
    /// How chats that have not chosen see the fields (`MB_BOARD`: `picture` or `text`).
    pub board: Board,
    /// After how long an update another replica claimed and never finished (it crashed) is
    /// handled here (`MB_CLAIM_STALE_SECS`).
    pub claim_stale: Duration,
    /// `MB_CRASH_AT`: the point where the process kills itself, for the tests of crashes
    /// (honoured only in a build with the `crash-points` feature).
    pub crash_at: Option<String>,
    /// `MB_WEBAPP_URL`: the Mini App page's public https address; the private chat's editor
    /// gets a button that opens it.
    pub webapp_url: Option<String>,
    /// `MB_WEBAPP_NAME`: the Mini App's short name at @BotFather; the group's battle message
    /// gets a `t.me/<bot>/<name>?startapp=` link to its live board.
    pub webapp_name: Option<String>,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            group_gap: Duration::from_millis(4500),
            tick: Duration::from_secs(1),
            group_per_minute: 18,
            token_per_second: 25,
            ai_pause: Duration::from_millis(1200),
            board: Board::Picture,
            claim_stale: Duration::from_secs(60),
            crash_at: None,
            webapp_url: None,
            webapp_name: None,
        }
    }
}

impl BotConfig {
    /// The least time between two redraws of a player's own field as a picture: two seconds
    /// (or the group's gap, when shorter). Its chat takes about one message a second; a field
    /// under fire is drawn half as often as that allows, which leaves the chat room for the
    /// editor, answers and refusals, and halves the pictures drawn and uploaded in fast play.
    pub fn own_field_gap(&self) -> Duration {
        self.group_gap.min(Duration::from_secs(2))
    }

    /// The least time between two redraws of a chat's live message: a group's gap, and at
    /// most a second in a private chat (Telegram takes about one message a second there).
    pub fn gap(&self, chat: i64) -> Duration {
        if chat >= 0 {
            self.group_gap.min(Duration::from_secs(1))
        } else {
            self.group_gap
        }
    }
}

impl BotConfig {
    /// A chat's budget of sends and edits as a GCRA bucket: one every interval, and a burst
    /// of one more. A group's interval is a minute over [`BotConfig::group_per_minute`]
    /// (so at most that many plus one in any minute, evenly); a private chat's is a second
    /// (Telegram takes about one message a second there), or the group's when shorter.
    pub fn budget(&self, chat: i64) -> (Duration, Duration) {
        let group = Duration::from_millis(60_000 / u64::from(self.group_per_minute.max(1)));
        let interval = if chat < 0 {
            group
        } else {
            group.min(Duration::from_secs(1))
        };
        (interval, interval)
    }
}

/// Webhook mode: Telegram posts every update to `url`, which a load balancer (or Telegram
/// itself) sends on to `listen` of one of the replicas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Webhook {
    /// `MB_WEBHOOK_URL`: the public https URL given to setWebhook.
    pub url: reqwest::Url,
    /// `MB_WEBHOOK_SECRET`: the token Telegram sends in every post's
    /// `X-Telegram-Bot-Api-Secret-Token`; by default derived from the bot's token, so every
    /// replica sets the same.
    pub secret: String,
    /// `MB_WEBHOOK_LISTEN`: where this replica takes the posts (plain HTTP).
    pub listen: std::net::SocketAddr,
}

/// The webhook secret every replica derives from the bot's token when `MB_WEBHOOK_SECRET` is
/// unset: the same for all of them, and it tells nothing about the token.
pub fn derived_secret(token: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("morskoy-boy webhook {token}").as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether Telegram takes `secret` as a webhook's secret token.
fn secret_ok(secret: &str) -> bool {
    (1..=256).contains(&secret.len())
        && secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// How log lines are written (`MB_LOG_FORMAT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One readable line an event, its span's fields (update, chat, game) before it.
    #[default]
    Plain,
    /// One JSON object a line, with the span's fields, for log collectors.
    Json,
}

/// `MB_LOG_FORMAT` from `get`: read before anything else, as the logs come first.
///
/// # Errors
/// A value other than `plain` or `json`.
pub fn log_format(get: impl Fn(&str) -> Option<String>) -> Result<LogFormat, ConfigError> {
    match get("MB_LOG_FORMAT").map(|v| v.trim().to_owned()) {
        None => Ok(LogFormat::Plain),
        Some(v) if v.is_empty() || v == "plain" => Ok(LogFormat::Plain),
        Some(v) if v == "json" => Ok(LogFormat::Json),
        Some(v) => Err(ConfigError {
            var: "MB_LOG_FORMAT",
            value: v,
            expected: "plain or json",
        }),
    }
}

/// `RUST_LOG` from `get`: the log filter, `info` when unset.
pub fn log_filter(get: impl Fn(&str) -> Option<String>) -> String {
    get("RUST_LOG")
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "info".into())
}

/// A Redis URL (or a cluster's seeds) as it may be shown in logs and errors: any password
/// replaced by `***`.
pub fn redacted(url: &str) -> String {
    url.split(',')
        .map(|u| {
            let (Some(start), Some(at)) = (u.find("://"), u.rfind('@')) else {
                return u.to_owned();
            };
            match u[start + 3..at.max(start + 3)].find(':') {
                Some(colon) => format!("{}:***{}", &u[..start + 3 + colon], &u[at..]),
                None => u.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A variable whose value cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The variable.
    pub var: &'static str,
    /// Its value as given.
    pub value: String,
    /// What it should be.
    pub expected: &'static str,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{} is not set: {}", self.var, self.expected)
        } else {
            write!(
                f,
                "{}={:?} is not valid: expected {}",
                self.var, self.value, self.expected
            )
        }
    }
}

impl std::error::Error for ConfigError {}
