//! Reading the configuration from the environment, once, each bad value refused by its
//! variable's name; the token from its variable or its file; what is allowed but probably a
//! mistake.

use super::*;

/// Telegram takes about this many messages a minute in one group.
const TELEGRAM_GROUP_PER_MINUTE: u32 = 20;

/// About how many sends and edits Telegram takes from one bot token a second, across all its
/// chats (without paid broadcasts).
const TELEGRAM_TOKEN_PER_SECOND: u32 = 30;

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
        // `memory://<name>`: the process's own in-memory store (src/store/memory/), alone.
        let redis_ok = redis_url.strip_prefix("memory://").map_or_else(
            || {
                redis_url.split(',').all(|u| {
                    let u = u.trim();
                    (u.starts_with("redis://") || u.starts_with("rediss://"))
                        && redis::IntoConnectionInfo::into_connection_info(u).is_ok()
                })
            },
            |name| !name.is_empty() && !name.contains(','),
        );
        if !redis_ok {
            return Err(ConfigError {
                var: "REDIS_URL",
                value: redacted(&redis_url),
                expected: "redis://[user:password@]host:port[/db] (or several, separated by \
                           commas), or memory://<name>",
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
        let timeout = number(
            "MB_REDIS_TIMEOUT_MS",
            "milliseconds, 100 to 60000",
            (100, 60_000),
        )?;
        if let Some(ms) = timeout {
            store.op_timeout = Duration::from_millis(ms);
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
