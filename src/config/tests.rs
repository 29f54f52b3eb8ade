//! The configuration's unit tests: defaults, every variable read and refused by name, the
//! token's file, warnings, and `--help`, the docs and the code naming the same variables.

use super::help::names;
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
        ("MB_REDIS_TIMEOUT_MS", "4000"),
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
    assert_eq!(c.store.op_timeout, Duration::from_millis(4000));
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
        ("REDIS_URL", "memory://"),
        ("REDIS_URL", "memory://a,redis://b:7001"),
        ("MB_REDIS_WAIT_SECS", "soon"),
        ("MB_REDIS_TIMEOUT_MS", "50"),
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
    // What the code reads: the names it asks for, in every file here but these tests.
    let source = [
        include_str!("mod.rs"),
        include_str!("env.rs"),
        include_str!("help.rs"),
    ]
    .concat();
    let code = names(&source, true);
    // The configuration's table (docs/configuration.md): the first cell of each row.
    let readme = include_str!("../../docs/configuration.md");
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
    assert_eq!(help, code, "--help (left) against config/ (right)");
    assert_eq!(
        readme, code,
        "docs/configuration.md's table (left) against config/ (right)"
    );
}

#[test]
fn the_in_memory_store_is_named_alone() {
    let c = parse(&[("TELOXIDE_TOKEN", "1:abc"), ("REDIS_URL", "memory://try")]).unwrap();
    assert_eq!(c.redis_url, "memory://try");
}
