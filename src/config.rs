//! The bot's configuration: read from the environment once, at start-up, and refused with the
//! variable's name when a value is not valid (a typo must not fall back to a default
//! silently). `morskoy-boy --help` prints [`HELP`].

use crate::game::record::Board;
use crate::store::StoreConfig;
use std::fmt;
use std::time::Duration;

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

/// Telegram takes about this many messages a minute in one group.
const TELEGRAM_GROUP_PER_MINUTE: u32 = 20;

/// About how many sends and edits Telegram takes from one bot token a second, across all its
/// chats (without paid broadcasts).
const TELEGRAM_TOKEN_PER_SECOND: u32 = 30;

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

/// What `--help` prints.
pub const HELP: &str = "\
morskoy-boy: the Sea Battle (Morskoy Boy) referee for Telegram group chats.

Usage:
  morskoy-boy                 run the bot (long polling, or a webhook with MB_WEBHOOK_URL),
                              configured by the environment
  morskoy-boy play [--help]   play a duel against the bot in this terminal (no token needed)
  morskoy-boy --help          this text
  morskoy-boy --version       the version
  morskoy-boy healthcheck     ask MB_HEALTH_ADDR's /healthz (exit 0 when healthy)

Environment:
  TELOXIDE_TOKEN        the bot's token from @BotFather (this or TELOXIDE_TOKEN_FILE is
                        required)
  TELOXIDE_TOKEN_FILE   a file holding the token, e.g. a secret in /run/secrets/ (a trailing
                        newline is trimmed; setting both this and TELOXIDE_TOKEN is refused)
  TELOXIDE_API_URL      another Bot API server (default: Telegram's own)
  REDIS_URL             redis://[user:password@]host:port[/db], or cluster seeds separated by
                        commas (default: redis://127.0.0.1:6379)
  MB_REDIS_WAIT_SECS    how long start-up waits for Redis before it gives up (default: 60)
  MB_NAMESPACE          prefix of every Redis key (default: mb:v1)
  MB_FINISHED_DAYS      days a finished game is kept (default: 30)
  MB_GROUP_GAP_MS       least time between two edits of a group's battle message (default: 4500)
  MB_GROUP_PER_MINUTE   sends and edits one group takes a minute (default: 18; Telegram's
                        limit is about 20, more gets a warning at start-up)
  MB_TOKEN_PER_SECOND   sends and edits the bot token takes a second, across all chats and
                        replicas (default: 25; Telegram's limit is about 30, more gets a
                        warning at start-up)
  MB_AI_PAUSE_MS        how long the bot shows typing before its own move (default: 1200)
  MB_BOARD              how chats that have not chosen see the fields: picture or text
                        (default: picture)
  MB_HEALTH_ADDR        serve GET /livez, /readyz (/healthz) and /metrics (Prometheus)
                        here, e.g. 0.0.0.0:8080 (default: none)
  MB_WEBAPP_LISTEN      serve the Mini App's page (/app) and API here, e.g. 0.0.0.0:8081
                        (default: none; see docs/playing.md)
  MB_WEBAPP_URL         the page's public address, e.g. https://bot.example.org/app: the
                        private editor gets a button to place by dragging (default: none)
  MB_WEBAPP_NAME        the Mini App's short name at @BotFather: battle messages link to
                        t.me/<bot>/<name>?startapp=<game> (default: none)
  MB_UNHEALTHY_EXIT_SECS  exit (code 4) after this long unhealthy without a break (Redis
                        unreachable or the timer loop stuck), so a restart policy starts the
                        bot again; 0 = never (default: 60)
  MB_DELETE_WEBHOOK     1: long polling deletes a webhook it finds set and polls; unset or 0:
                        it refuses to start while one is set (exit 2) (default: 0)
  MB_WEBHOOK_URL        webhook mode: the public https URL Telegram posts updates to, e.g.
                        https://bot.example.org/telegram (default: none, long polling)
  MB_WEBHOOK_LISTEN     where this replica takes the posts, plain HTTP behind the TLS proxy
                        (default: 0.0.0.0:8443)
  MB_WEBHOOK_SECRET     the secret token Telegram sends with each post: 1-256 of A-Z a-z 0-9
                        _ - (default: derived from the token, the same on every replica)
  MB_CLAIM_STALE_SECS   after how long an update a crashed replica claimed is handled by
                        another (default: 60)
  MB_REPLICA            this replica's name (default: $HOSTNAME, else 0)
  MB_SEED               a fixed random seed (tests)
  MB_CRASH_AT           tests only: a point where the bot kills itself (a build with the
                        crash-points feature)
  RUST_LOG              log filter, e.g. debug or morskoy_boy=debug (default: info)
  MB_LOG_FORMAT         plain (default) or json: one JSON object a line, with the update,
                        chat and game each line belongs to
";

impl Config {
    /// The configuration from the process's environment.
    ///
    /// # Errors
    /// The first variable whose value is not valid.
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_vars(|k| std::env::var(k).ok())
    }

    /// The configuration from `get`, which answers a variable's value.
    ///
    /// # Errors
    /// The first variable whose value is not valid.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        // An empty value counts as unset, as shells and compose files write them.
        let var = |k: &str| {
            get(k)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let token = token(&var)?;
        let api_url = match var("TELOXIDE_API_URL") {
            Some(v) => Some(
                v.parse::<reqwest::Url>()
                    .ok()
                    .filter(|u| matches!(u.scheme(), "http" | "https"))
                    .ok_or(ConfigError {
                        var: "TELOXIDE_API_URL",
                        value: v,
                        expected: "an http(s) URL",
                    })?,
            ),
            None => None,
        };
        let redis_url = var("REDIS_URL").unwrap_or_else(|| "redis://127.0.0.1:6379".into());
        // Each seed parsed as the Redis client will, so a typo stops start-up by name rather
        // than failing on the first connection.
        let redis_ok = redis_url.split(',').all(|u| {
            let u = u.trim();
            (u.starts_with("redis://") || u.starts_with("rediss://"))
                && redis::IntoConnectionInfo::into_connection_info(u).is_ok()
        });
        if !redis_ok {
            return Err(ConfigError {
                var: "REDIS_URL",
                value: redacted(&redis_url),
                expected: "redis://[user:password@]host:port[/db] (or several, separated by \
                           commas)",
            });
        }
        let number = |k: &'static str, expected: &'static str, range: (u64, u64)| {
            var(k)
                .map(|v| {
                    v.parse::<u64>()
                        .ok()
                        .filter(|n| (range.0..=range.1).contains(n))
                        .ok_or(ConfigError {
                            var: k,
                            value: v,
                            expected,
                        })
                })
                .transpose()
        };
        let mut store = StoreConfig::default();
        if let Some(ns) = var("MB_NAMESPACE") {
            store.namespace = ns;
        }
        if let Some(days) = number("MB_FINISHED_DAYS", "a number of days, 1 to 3650", (1, 3650))? {
            store.finished_ttl = Duration::from_secs(days * 24 * 3600);
        }
        let mut bot = BotConfig {
            crash_at: var("MB_CRASH_AT"),
            webapp_url: match var("MB_WEBAPP_URL") {
                Some(v) if v.starts_with("https://") || v.starts_with("http://") => Some(v),
                Some(v) => {
                    return Err(ConfigError {
                        var: "MB_WEBAPP_URL",
                        value: v,
                        expected: "the page's address, e.g. https://bot.example.org/app",
                    })
                }
                None => None,
            },
            webapp_name: match var("MB_WEBAPP_NAME") {
                Some(v)
                    if !v.is_empty()
                        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                {
                    Some(v)
                }
                Some(v) => {
                    return Err(ConfigError {
                        var: "MB_WEBAPP_NAME",
                        value: v,
                        expected: "the Mini App's short name at @BotFather, e.g. board",
                    })
                }
                None => None,
            },
            ..BotConfig::default()
        };
        if let Some(ms) = number("MB_GROUP_GAP_MS", "milliseconds, 0 to 600000", (0, 600_000))? {
            bot.group_gap = Duration::from_millis(ms);
        }
        // Telegram takes about 20; more only makes sense against a test server.
        if let Some(n) = number(
            "MB_GROUP_PER_MINUTE",
            "a number, 1 to 1000000",
            (1, 1_000_000),
        )? {
            bot.group_per_minute = n as u32;
        }
        if let Some(n) = number("MB_TOKEN_PER_SECOND", "a number, 1 to 100000", (1, 100_000))? {
            bot.token_per_second = n as u32;
        }
        if let Some(ms) = number("MB_AI_PAUSE_MS", "milliseconds, 0 to 60000", (0, 60_000))? {
            bot.ai_pause = Duration::from_millis(ms);
        }
        if let Some(v) = var("MB_BOARD") {
            bot.board = v.parse::<Board>().map_err(|()| ConfigError {
                var: "MB_BOARD",
                value: v,
                expected: "picture or text",
            })?;
        }
        let redis_wait = number("MB_REDIS_WAIT_SECS", "seconds, 0 to 86400", (0, 86_400))?
            .map_or(Duration::from_secs(60), Duration::from_secs);
        let seed = number("MB_SEED", "a number", (0, u64::MAX))?;
        let health = match var("MB_HEALTH_ADDR") {
            Some(v) => Some(v.parse().map_err(|_| ConfigError {
                var: "MB_HEALTH_ADDR",
                value: v,
                expected: "an address and port, e.g. 0.0.0.0:8080",
            })?),
            None => None,
        };
        let webapp = match var("MB_WEBAPP_LISTEN") {
            Some(v) => Some(v.parse().map_err(|_| ConfigError {
                var: "MB_WEBAPP_LISTEN",
                value: v,
                expected: "an address and port, e.g. 0.0.0.0:8081",
            })?),
            None => None,
        };
        let webhook = match var("MB_WEBHOOK_URL") {
            Some(v) => {
                let url = v
                    .parse::<reqwest::Url>()
                    .ok()
                    .filter(|u| u.scheme() == "https" && u.host_str().is_some())
                    .ok_or(ConfigError {
                        var: "MB_WEBHOOK_URL",
                        value: v,
                        expected: "an https URL (Telegram posts only to https), e.g. \
                                   https://bot.example.org/telegram",
                    })?;
                let secret = match var("MB_WEBHOOK_SECRET") {
                    Some(s) if secret_ok(&s) => s,
                    Some(s) => {
                        return Err(ConfigError {
                            var: "MB_WEBHOOK_SECRET",
                            value: s,
                            expected: "1 to 256 of A-Z a-z 0-9 _ -",
                        })
                    }
                    None => derived_secret(&token),
                };
                let listen = match var("MB_WEBHOOK_LISTEN") {
                    Some(v) => v.parse().map_err(|_| ConfigError {
                        var: "MB_WEBHOOK_LISTEN",
                        value: v,
                        expected: "an address and port, e.g. 0.0.0.0:8443",
                    })?,
                    None => std::net::SocketAddr::from(([0, 0, 0, 0], 8443)),
                };
                Some(Webhook {
                    url,
                    secret,
                    listen,
                })
            }
            None => None,
        };
        if let Some(secs) = number("MB_CLAIM_STALE_SECS", "seconds, 1 to 86400", (1, 86_400))? {
            bot.claim_stale = Duration::from_secs(secs);
        }
        let delete_webhook = match var("MB_DELETE_WEBHOOK").as_deref() {
            None | Some("0" | "false" | "no") => false,
            Some("1" | "true" | "yes") => true,
            Some(v) => {
                return Err(ConfigError {
                    var: "MB_DELETE_WEBHOOK",
                    value: v.to_owned(),
                    expected: "1 or 0",
                })
            }
        };
        let unhealthy_exit =
            match number("MB_UNHEALTHY_EXIT_SECS", "seconds, 0 to 86400", (0, 86_400))? {
                Some(0) => None,
                Some(secs) => Some(Duration::from_secs(secs)),
                None => Some(Duration::from_secs(60)),
            };
        let replica = var("MB_REPLICA")
            .or_else(|| var("HOSTNAME"))
            .unwrap_or_else(|| "0".into());
        Ok(Config {
            token,
            api_url,
            redis_url,
            redis_wait,
            store,
            bot,
            replica,
            seed,
            health,
            webapp,
            webhook,
            delete_webhook,
            unhealthy_exit,
        })
    }

    /// What is allowed but probably a mistake: logged at start-up.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.bot.group_per_minute > TELEGRAM_GROUP_PER_MINUTE {
            warnings.push(format!(
                "MB_GROUP_PER_MINUTE={} is more than Telegram takes in a group (about \
                 {TELEGRAM_GROUP_PER_MINUTE} messages a minute): groups will get 429 Too Many \
                 Requests and wait",
                self.bot.group_per_minute
            ));
        }
        if self.bot.token_per_second > TELEGRAM_TOKEN_PER_SECOND {
            warnings.push(format!(
                "MB_TOKEN_PER_SECOND={} is more than Telegram takes from one bot token (about \
                 {TELEGRAM_TOKEN_PER_SECOND} messages a second): chats will get 429 Too Many \
                 Requests and wait",
                self.bot.token_per_second
            ));
        }
        warnings
    }
}

/// The names of the bot's variables in `text`: `MB_*`, `TELOXIDE_*`, `REDIS_*` and
/// `RUST_LOG`; with `quoted`, only those written as a string literal.
fn names(text: &str, quoted: bool) -> std::collections::BTreeSet<String> {
    let word = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_';
    let mut found = std::collections::BTreeSet::new();
    for (i, _) in text.match_indices(['M', 'T', 'R']) {
        let rest = &text[i..];
        if !["MB_", "TELOXIDE_", "REDIS_", "RUST_LOG"]
            .iter()
            .any(|p| rest.starts_with(p))
            || text[..i].ends_with(|c: char| word(c) || c.is_ascii_lowercase())
        {
            continue;
        }
        let len = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        // A prefix (`"MB_"`) is no variable.
        if rest[..len].ends_with('_') {
            continue;
        }
        let name = &rest[..len];
        if quoted && !(text[..i].ends_with('"') && rest[len..].starts_with('"')) {
            continue;
        }
        if name.len() > 3 {
            found.insert(name.to_owned());
        }
    }
    found
}

/// The `MB_*` variables among `set` (the environment's names) that the bot does not know (a
/// misspelt name would otherwise be ignored without a word): each to be warned of at start.
/// The bot knows the ones [`HELP`] lists (a test keeps it the same as what this file reads).
pub fn unknown_variables(set: impl IntoIterator<Item = String>) -> Vec<String> {
    let known = names(HELP, false);
    let mut unknown: Vec<String> = set
        .into_iter()
        .filter(|name| name.starts_with("MB_") && !known.contains(name))
        .collect();
    unknown.sort();
    unknown
}

/// The bot's token: `TELOXIDE_TOKEN`, or the content of the file `TELOXIDE_TOKEN_FILE` names,
/// trimmed. Both set is refused, as one of them would be ignored without a word.
fn token(var: &impl Fn(&str) -> Option<String>) -> Result<String, ConfigError> {
    match (var("TELOXIDE_TOKEN"), var("TELOXIDE_TOKEN_FILE")) {
        (Some(token), None) => Ok(token),
        (None, None) => Err(ConfigError {
            var: "TELOXIDE_TOKEN",
            value: String::new(),
            expected: "talk to @BotFather in Telegram, create a bot with /newbot, and run \
                       again with TELOXIDE_TOKEN=<the token> (or TELOXIDE_TOKEN_FILE=<a file \
                       holding it>)",
        }),
        (Some(_), Some(path)) => Err(ConfigError {
            var: "TELOXIDE_TOKEN_FILE",
            value: path,
            expected: "either TELOXIDE_TOKEN or TELOXIDE_TOKEN_FILE, not both",
        }),
        (None, Some(path)) => match std::fs::read_to_string(&path) {
            Ok(text) if !text.trim().is_empty() => Ok(text.trim().to_owned()),
            Ok(_) => Err(ConfigError {
                var: "TELOXIDE_TOKEN_FILE",
                value: path,
                expected: "a file holding the bot's token (this one is empty)",
            }),
            Err(_) => Err(ConfigError {
                var: "TELOXIDE_TOKEN_FILE",
                value: path,
                expected: "a file this process can read, holding the bot's token",
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Config::from_vars(|k| map.get(k).cloned())
    }

    #[test]
    fn a_webhook_listens_on_8443_with_a_secret_every_replica_derives_alike() {
        let vars = [
            ("TELOXIDE_TOKEN", "1:abc"),
            ("MB_WEBHOOK_URL", "https://bot.example.org/tg"),
        ];
        let hook = parse(&vars).unwrap().webhook.unwrap();
        assert_eq!(
            hook.listen,
            std::net::SocketAddr::from(([0, 0, 0, 0], 8443))
        );
        assert_eq!(hook.secret, derived_secret("1:abc"));
        assert!(secret_ok(&hook.secret) && !hook.secret.contains("abc"));
        assert_ne!(derived_secret("1:abd"), hook.secret);
    }

    #[test]
    fn the_log_format_is_plain_or_json() {
        let get = |v: &'static str| move |_: &str| Some(v.to_owned());
        assert_eq!(log_format(|_| None), Ok(LogFormat::Plain));
        assert_eq!(log_format(get("plain")), Ok(LogFormat::Plain));
        assert_eq!(log_format(get("json")), Ok(LogFormat::Json));
        assert_eq!(log_format(get("xml")).unwrap_err().var, "MB_LOG_FORMAT");
    }

    #[test]
    fn the_defaults_need_only_a_token() {
        let c = parse(&[("TELOXIDE_TOKEN", " 1:abc ")]).unwrap();
        assert_eq!(c.token, "1:abc");
        assert_eq!(c.redis_url, "redis://127.0.0.1:6379");
        assert_eq!(c.bot.group_per_minute, 18);
        assert_eq!(c.bot.board, Board::Picture);
        assert_eq!(c.redis_wait, Duration::from_secs(60));
        assert_eq!(c.replica, "0");
        assert!(c.api_url.is_none() && c.seed.is_none() && c.webhook.is_none());
        assert_eq!(c.bot.claim_stale, Duration::from_secs(60));
        assert!(!c.delete_webhook);
        assert_eq!(c.unhealthy_exit, Some(Duration::from_secs(60)));
        assert!(c.warnings().is_empty());
        let e = parse(&[("TELOXIDE_TOKEN", "  ")]).unwrap_err();
        assert_eq!(e.var, "TELOXIDE_TOKEN");
        assert!(
            e.to_string().starts_with("TELOXIDE_TOKEN is not set"),
            "{e}"
        );
    }

    #[test]
    fn every_value_is_read_and_a_bad_one_is_refused_by_name() {
        let good = [
            ("TELOXIDE_TOKEN", "1:abc"),
            ("TELOXIDE_API_URL", "http://127.0.0.1:8081"),
            ("REDIS_URL", "redis://a:7000,redis://b:7001"),
            ("MB_REDIS_WAIT_SECS", "5"),
            ("MB_NAMESPACE", "mb:test"),
            ("MB_FINISHED_DAYS", "2"),
            ("MB_GROUP_GAP_MS", "300"),
            ("MB_GROUP_PER_MINUTE", "20"),
            ("MB_AI_PAUSE_MS", "0"),
            ("MB_BOARD", "text"),
            ("HOSTNAME", "box"),
            ("MB_SEED", "7"),
            ("MB_HEALTH_ADDR", "127.0.0.1:8080"),
            ("MB_WEBHOOK_URL", "https://bot.example.org:8443/tg"),
            ("MB_WEBHOOK_LISTEN", "127.0.0.1:9000"),
            ("MB_WEBHOOK_SECRET", "s3cret_-x"),
            ("MB_CLAIM_STALE_SECS", "3"),
            ("MB_DELETE_WEBHOOK", "1"),
            ("MB_UNHEALTHY_EXIT_SECS", "5"),
        ];
        let c = parse(&good).unwrap();
        assert_eq!(c.api_url.unwrap().as_str(), "http://127.0.0.1:8081/");
        assert_eq!(c.redis_wait, Duration::from_secs(5));
        assert_eq!(c.store.namespace, "mb:test");
        assert_eq!(c.store.finished_ttl, Duration::from_secs(2 * 86_400));
        assert_eq!(c.bot.group_gap, Duration::from_millis(300));
        assert_eq!(c.bot.group_per_minute, 20);
        assert_eq!(c.bot.ai_pause, Duration::ZERO);
        assert_eq!(c.bot.board, Board::Text);
        assert_eq!(c.replica, "box");
        assert_eq!(c.seed, Some(7));
        assert_eq!(c.health.unwrap().port(), 8080);
        let hook = c.webhook.unwrap();
        assert_eq!(hook.url.as_str(), "https://bot.example.org:8443/tg");
        assert_eq!(
            (hook.listen.port(), hook.secret.as_str()),
            (9000, "s3cret_-x")
        );
        assert_eq!(c.bot.claim_stale, Duration::from_secs(3));
        assert!(c.delete_webhook);
        assert_eq!(c.unhealthy_exit, Some(Duration::from_secs(5)));
        for (var, bad) in [
            ("TELOXIDE_API_URL", "localhost:8081"),
            ("REDIS_URL", "127.0.0.1:6379"),
            ("REDIS_URL", "redis://host:notaport"),
            ("REDIS_URL", "redis://a:7000,redis://b:x"),
            ("REDIS_URL", "redis://a:7000,"),
            ("MB_REDIS_WAIT_SECS", "soon"),
            ("MB_FINISHED_DAYS", "0"),
            ("MB_GROUP_GAP_MS", "-1"),
            ("MB_GROUP_PER_MINUTE", "abc"),
            ("MB_GROUP_PER_MINUTE", "0"),
            ("MB_AI_PAUSE_MS", "1.5"),
            ("MB_BOARD", "png"),
            ("MB_SEED", "x"),
            ("MB_HEALTH_ADDR", "8080"),
            ("MB_WEBHOOK_URL", "http://bot.example.org/tg"),
            ("MB_WEBHOOK_LISTEN", "localhost"),
            ("MB_WEBHOOK_SECRET", "no spaces"),
            ("MB_CLAIM_STALE_SECS", "0"),
            ("MB_DELETE_WEBHOOK", "please"),
            ("MB_UNHEALTHY_EXIT_SECS", "-1"),
        ] {
            let mut vars = good.to_vec();
            vars.retain(|(k, _)| *k != var);
            vars.push((var, bad));
            let e = parse(&vars).unwrap_err();
            assert_eq!((e.var, e.value.as_str()), (var, bad));
            assert!(e
                .to_string()
                .starts_with(&format!("{var}=\"{bad}\" is not valid")));
        }
    }

    #[test]
    fn the_token_can_come_from_a_file_and_a_missing_or_empty_one_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "123:secret\n").unwrap();
        let path = file.to_str().unwrap();
        let c = parse(&[("TELOXIDE_TOKEN_FILE", path)]).unwrap();
        assert_eq!(c.token, "123:secret");
        // The webhook's secret is derived from the token, not from the file's name.
        let hook = parse(&[
            ("TELOXIDE_TOKEN_FILE", path),
            ("MB_WEBHOOK_URL", "https://bot.example.org/tg"),
        ])
        .unwrap();
        assert_eq!(hook.webhook.unwrap().secret, derived_secret("123:secret"));
        // Both set: refused, whichever would win.
        let e = parse(&[("TELOXIDE_TOKEN", "1:abc"), ("TELOXIDE_TOKEN_FILE", path)]).unwrap_err();
        assert_eq!((e.var, e.value.as_str()), ("TELOXIDE_TOKEN_FILE", path));
        assert!(e.to_string().contains("not both"), "{e}");
        std::fs::write(&file, "\n").unwrap();
        let e = parse(&[("TELOXIDE_TOKEN_FILE", path)]).unwrap_err();
        assert_eq!(e.var, "TELOXIDE_TOKEN_FILE");
        assert!(e.to_string().contains("empty"), "{e}");
        let missing = dir.path().join("nothing-here");
        let missing = missing.to_str().unwrap();
        let e = parse(&[("TELOXIDE_TOKEN_FILE", missing)]).unwrap_err();
        assert_eq!((e.var, e.value.as_str()), ("TELOXIDE_TOKEN_FILE", missing));
        assert!(
            e.to_string()
                .starts_with(&format!("TELOXIDE_TOKEN_FILE=\"{missing}\" is not valid")),
            "{e}"
        );
    }

    #[test]
    fn a_redis_password_is_never_shown() {
        assert_eq!(
            redacted("redis://u:p%40ss@h:1/2,redis://:pw@k:3,redis://h:4,redis://user@h:5"),
            "redis://u:***@h:1/2,redis://:***@k:3,redis://h:4,redis://user@h:5"
        );
        let e = parse(&[
            ("TELOXIDE_TOKEN", "1:abc"),
            ("REDIS_URL", "redis://:hunter2@host:notaport"),
        ])
        .unwrap_err();
        assert_eq!(e.var, "REDIS_URL");
        assert!(!e.to_string().contains("hunter2"), "{e}");
    }

    #[test]
    fn a_group_pace_above_telegrams_gets_a_warning() {
        let pace = |n: &str| parse(&[("TELOXIDE_TOKEN", "1:abc"), ("MB_GROUP_PER_MINUTE", n)]);
        assert!(pace("20").unwrap().warnings().is_empty());
        let warnings = pace("21").unwrap().warnings();
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with("MB_GROUP_PER_MINUTE=21"),
            "{warnings:?}"
        );
    }

    #[test]
    fn the_health_exit_is_off_at_zero() {
        let c = parse(&[("TELOXIDE_TOKEN", "1:abc"), ("MB_UNHEALTHY_EXIT_SECS", "0")]).unwrap();
        assert_eq!(c.unhealthy_exit, None);
    }

    #[test]
    fn an_unknown_mb_variable_is_named_and_the_known_ones_and_others_are_not() {
        let set = [
            "MB_GROUP_GAP_MS",
            "MB_TOKEN_PER_SECND",
            "MB_WEBHOOK_URL",
            "MB_",
            "PATH",
            "TELOXIDE_TOKEN",
            "MB_REDIS_WAIT",
        ]
        .map(String::from);
        assert_eq!(
            unknown_variables(set),
            ["MB_", "MB_REDIS_WAIT", "MB_TOKEN_PER_SECND"].map(String::from)
        );
    }

    #[test]
    fn help_readme_and_the_code_list_the_same_variables() {
        // What the code reads: the names it asks for, outside these tests.
        let source = include_str!("config.rs");
        let code = names(&source[..source.find("#[cfg(test)]").unwrap()], true);
        // The configuration's table (docs/configuration.md): the first cell of each row.
        let readme = include_str!("../docs/configuration.md");
        let table = &readme[readme.find("# Configuration").unwrap()..];
        let table = &table[..table[3..].find("\n## ").unwrap()];
        let rows: String = table
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .map(|l| l.split('|').next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(" ");
        let readme = names(&rows, false);
        let help = names(HELP, false);
        assert!(
            code.contains("TELOXIDE_TOKEN") && code.contains("RUST_LOG"),
            "{code:?}"
        );
        assert_eq!(help, code, "--help (left) against config.rs (right)");
        assert_eq!(
            readme, code,
            "docs/configuration.md's table (left) against config.rs (right)"
        );
    }
}
