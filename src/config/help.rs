//! What `--help` prints, and the variables a text names: the ones the bot knows, and the
//! unknown `MB_*` ones of the environment.

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
                        commas (default: redis://127.0.0.1:6379); memory://<name> keeps the
                        games in this process only, lost when it stops (for a try and for tests)
  MB_REDIS_WAIT_SECS    how long start-up waits for Redis before it gives up (default: 60)
  MB_REDIS_TIMEOUT_MS   how long one Redis operation may take before the bot asks players to
                        try again (default: 1500)
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

/// The names of the bot's variables in `text`: `MB_*`, `TELOXIDE_*`, `REDIS_*` and
/// `RUST_LOG`; with `quoted`, only those written as a string literal.
pub(super) fn names(text: &str, quoted: bool) -> std::collections::BTreeSet<String> {
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
