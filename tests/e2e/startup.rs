//! Start-up as an operator meets it (issue 15): `--help` and `--version`, a bad variable
//! refused by name, a token Telegram refuses, no network (tried again, visibly), and a Redis
//! that never answers (waited for visibly, given up after `MB_REDIS_WAIT_SECS`, and ctrl-c
//! works meanwhile), and the health endpoint as Redis goes away and comes back; a replica
//! unhealthy too long exits; polling refuses to cut off a webhook; SIGTERM stops cleanly; JSON
//! logs without the log bridge's fields. The real binary, a real Redis, the fake Bot API.

use crate::common::redis_url;
use crate::fake_telegram::FakeTelegram;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_morskoy-boy"));
    for (k, _) in std::env::vars() {
        if k.starts_with("MB_") || k.starts_with("TELOXIDE_") || k == "RUST_LOG" {
            cmd.env_remove(k);
        }
    }
    cmd.stdin(Stdio::null());
    cmd
}

/// A local port nothing listens on.
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A running bot whose log (stderr) is collected as it comes.
struct Running {
    child: Child,
    log: Arc<Mutex<String>>,
    /// The thread copying stderr into `log`: it ends when the process's stderr closes.
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    fn start(mut cmd: Command) -> Running {
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let log = Arc::new(Mutex::new(String::new()));
        let err = child.stderr.take().unwrap();
        let sink = log.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let mut l = sink.lock().unwrap();
                l.push_str(&line);
                l.push('\n');
            }
        });
        Running {
            child,
            log,
            reader: Some(reader),
        }
    }

    /// Waits until the log holds `text`.
    fn wait_log(&self, text: &str, within: Duration) {
        let deadline = Instant::now() + within;
        while !self.log.lock().unwrap().contains(text) {
            assert!(
                Instant::now() < deadline,
                "no {text:?} in the log:\n{}",
                self.log.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the exit: its code, with the whole log read (an exited process's last
    /// lines may still be in the pipe when `try_wait` sees it gone).
    fn wait_exit(&mut self, within: Duration) -> Option<i32> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                if let Some(reader) = self.reader.take() {
                    reader.join().unwrap();
                }
                return status.code();
            }
            assert!(
                Instant::now() < deadline,
                "still running; log:\n{}",
                self.log.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Ctrl-c, as a terminal sends it.
    fn interrupt(&self) {
        signal(self.child.id(), "-INT");
    }

    /// SIGTERM, as `docker stop`, systemd or Kubernetes send it.
    fn terminate(&self) {
        signal(self.child.id(), "-TERM");
    }
}

/// Sends `signal` (`-INT`, `-TERM`) to the process `pid`.
fn signal(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn help_and_version_answer_without_a_token_and_an_unknown_argument_is_refused() {
    let out = bin().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for var in [
        "TELOXIDE_TOKEN",
        "TELOXIDE_API_URL",
        "REDIS_URL",
        "MB_REDIS_WAIT_SECS",
        "MB_GROUP_PER_MINUTE",
        "MB_BOARD",
        "RUST_LOG",
    ] {
        assert!(help.contains(var), "--help does not name {var}");
    }
    let out = bin().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        format!("morskoy-boy {}", env!("CARGO_PKG_VERSION"))
    );
    let out = bin().arg("--frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--frobnicate"));
}

#[test]
fn a_missing_token_or_a_bad_value_is_refused_by_its_name() {
    let out = bin().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    // Said once (not in the log and again on stderr).
    assert_eq!(err.matches("TELOXIDE_TOKEN is not set").count(), 1, "{err}");
    let out = bin()
        .env("TELOXIDE_TOKEN", "1:x")
        .env("MB_GROUP_PER_MINUTE", "abc")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.matches("MB_GROUP_PER_MINUTE=\"abc\" is not valid")
            .count(),
        1,
        "{err}"
    );
}

/// A misspelt `MB_*` variable is named at start (it would be ignored without a word), and a
/// known one is not; the bot starts all the same.
#[test]
fn an_unknown_mb_variable_is_warned_of_at_start() {
    let dead = format!("redis://127.0.0.1:{}", closed_port());
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", "1:x")
        .env("REDIS_URL", &dead)
        .env("MB_REDIS_WAIT_SECS", "1")
        .env("MB_TOKEN_PER_SECND", "5");
    let mut bot = Running::start(cmd);
    bot.wait_log(
        "MB_TOKEN_PER_SECND is not a variable the bot reads",
        Duration::from_secs(10),
    );
    assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(3));
    let log = bot.log.lock().unwrap().clone();
    assert!(!log.contains("MB_REDIS_WAIT_SECS is not"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_telegram_refuses_stops_the_bot_with_its_own_words() {
    let fake = FakeTelegram::start().await;
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", "999:WRONG")
        .env("TELOXIDE_API_URL", fake.url())
        .env("REDIS_URL", redis_url())
        .env("MB_NAMESPACE", "mb:test:startup-token");
    let mut bot = Running::start(cmd);
    assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(2));
    let log = bot.log.lock().unwrap().clone();
    assert_eq!(
        log.matches("refuses TELOXIDE_TOKEN (401").count(),
        1,
        "{log}"
    );
    assert!(!log.contains("cannot reach"), "{log}");
}

/// The bot on the test's Redis (in `namespace`) with Telegram's address where nothing listens.
fn telegram_unreachable(namespace: &str) -> Command {
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", "1:x")
        .env(
            "TELOXIDE_API_URL",
            format!("http://127.0.0.1:{}/", closed_port()),
        )
        .env("REDIS_URL", redis_url())
        .env("MB_NAMESPACE", namespace);
    cmd
}

#[test]
fn without_a_network_the_bot_says_so_tries_again_and_stops_on_ctrl_c() {
    let mut bot = Running::start(telegram_unreachable("mb:test:startup-net"));
    bot.wait_log("cannot reach Telegram", Duration::from_secs(20));
    bot.wait_log("trying again in 2 s", Duration::from_secs(10));
    assert!(bot.child.try_wait().unwrap().is_none(), "it gave up");
    bot.interrupt();
    assert_eq!(bot.wait_exit(Duration::from_secs(5)), Some(130));
}

#[test]
fn a_redis_that_never_answers_is_waited_for_visibly_then_given_up() {
    let dead = format!("redis://127.0.0.1:{}", closed_port());
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", "1:x")
        .env("REDIS_URL", &dead)
        .env("MB_REDIS_WAIT_SECS", "3");
    let mut bot = Running::start(cmd);
    // Seen without RUST_LOG: start-up logs at info by default.
    bot.wait_log(
        &format!("waiting for Redis at {dead}"),
        Duration::from_secs(10),
    );
    assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(3));
    assert_eq!(
        bot.log.lock().unwrap().matches("gave up after 3 s").count(),
        1
    );
    // Ctrl-c works during the wait.
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", "1:x").env("REDIS_URL", &dead);
    let mut bot = Running::start(cmd);
    bot.wait_log("waiting for Redis", Duration::from_secs(10));
    bot.interrupt();
    assert_eq!(bot.wait_exit(Duration::from_secs(5)), Some(130));
}

/// A GET (or with `head`, a HEAD) of `path` at `addr`: the status and the body.
async fn http(addr: &str, path: &str, head: bool) -> (u16, String) {
    let client = reqwest::Client::new();
    let url = format!("http://{addr}{path}");
    let req = if head {
        client.head(&url)
    } else {
        client.get(&url)
    };
    let r = req.send().await.expect("the endpoint answers");
    let status = r.status().as_u16();
    (status, r.text().await.unwrap_or_default())
}

/// Liveness and readiness answer from the process's first second, whatever start-up waits
/// for: while Redis does not answer, and while Telegram cannot be reached, `/livez` says the
/// process lives and `/readyz` (and the health check) says what start-up waits for; HEAD and a
/// query string are taken; the metrics are served all along. The webhook and the Mini App
/// listen from the start too, and answer 503 (Telegram posts again later) until the bot is up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn livez_answers_at_once_and_readyz_says_what_start_up_waits_for() {
    // Redis away.
    let dead = format!("redis://127.0.0.1:{}", closed_port());
    let addr = format!("127.0.0.1:{}", closed_port());
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", "1:x")
        .env("REDIS_URL", &dead)
        .env("MB_REDIS_WAIT_SECS", "60")
        .env("MB_HEALTH_ADDR", &addr);
    let bot = Running::start(cmd);
    bot.wait_log("waiting for Redis", Duration::from_secs(10));
    assert_eq!(http(&addr, "/livez", false).await, (200, "ok\n".into()));
    assert_eq!(http(&addr, "/livez", true).await.0, 200);
    let (status, said) = http(&addr, "/readyz", false).await;
    assert_eq!(status, 503, "{said}");
    assert!(said.contains("waiting for Redis at"), "{said}");
    let (status, said) = http(&addr, "/metrics?from=prometheus", false).await;
    assert_eq!(status, 200);
    assert!(said.contains("mb_updates_total"), "{said}");
    assert_eq!(http(&addr, "/nothing", false).await.0, 404);
    let (code, said) = healthcheck(&addr);
    assert_eq!(code, Some(1), "{said}");
    drop(bot);
    // Telegram unreachable.
    let addr = format!("127.0.0.1:{}", closed_port());
    // The webhook on a port of its own, the Mini App beside the health endpoints: all up
    // from the start, the webhook and the Mini App answering 503 until the bot is up.
    let hook = format!("127.0.0.1:{}", closed_port());
    let mut cmd = telegram_unreachable("mb:test:startup-livez");
    cmd.env("MB_HEALTH_ADDR", &addr)
        .env("MB_WEBAPP_LISTEN", &addr)
        .env("MB_WEBHOOK_URL", "https://bot.example.org/tg")
        .env("MB_WEBHOOK_LISTEN", &hook);
    let bot = Running::start(cmd);
    bot.wait_log("cannot reach Telegram", Duration::from_secs(20));
    assert_eq!(http(&addr, "/livez", false).await.0, 200);
    let (status, said) = http(&addr, "/readyz", false).await;
    assert_eq!(status, 503, "{said}");
    assert!(said.contains("cannot reach Telegram"), "{said}");
    let (status, said) = http(&addr, "/app", false).await;
    assert_eq!(status, 503, "{said}");
    let client = reqwest::Client::new();
    let post = client
        .post(format!("http://{hook}/tg"))
        .body(r#"{"update_id":1}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), 503);
    // A port open to the world takes only its own part's routes.
    assert_eq!(http(&hook, "/metrics", false).await.0, 404);
    assert_eq!(http(&addr, "/tg", false).await.0, 404);
    drop(bot);
}

/// `morskoy-boy healthcheck` against `addr`: its exit code and what it printed.
fn healthcheck(addr: &str) -> (Option<i32>, String) {
    let out = bin().args(["healthcheck", addr]).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Asks until the health check gives `code`.
fn wait_health(addr: &str, code: i32) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (got, said) = healthcheck(addr);
        if got == Some(code) {
            return said;
        }
        assert!(Instant::now() < deadline, "health stays {got:?}: {said}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_health_endpoint_follows_redis_going_away_and_coming_back() {
    let fake = FakeTelegram::start().await;
    let mut redis = crate::common::RedisServer::start();
    let addr = format!("127.0.0.1:{}", closed_port());
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", fake.token())
        .env("TELOXIDE_API_URL", fake.url())
        .env("REDIS_URL", redis.url())
        .env("MB_HEALTH_ADDR", &addr);
    let bot = Running::start(cmd);
    bot.wait_log("readiness at", Duration::from_secs(20));
    assert_eq!(wait_health(&addr, 0).trim(), "ok");
    redis.stop();
    let said = wait_health(&addr, 1);
    assert!(said.starts_with("redis:"), "{said}");
    redis.restart();
    assert_eq!(wait_health(&addr, 0).trim(), "ok");
    // Nothing listening is unhealthy too.
    let (code, _) = healthcheck(&format!("127.0.0.1:{}", closed_port()));
    assert_eq!(code, Some(1));
    drop(bot);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_name_the_update_chat_and_game_of_each_line() {
    let fake = FakeTelegram::start().await;
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", fake.token())
        .env("TELOXIDE_API_URL", fake.url())
        .env("REDIS_URL", redis_url())
        .env(
            "MB_NAMESPACE",
            format!("mb:test:json:{:x}", rand::random::<u64>()),
        )
        .env("MB_LOG_FORMAT", "json")
        .env("RUST_LOG", "warn,morskoy_boy=debug");
    let bot = Running::start(cmd);
    let anna = fake.user(15_001, "Anna", "en");
    fake.start_bot(15_001);
    fake.send_command(15_001, &anna, "/start");
    bot.wait_log("\"handled\"", Duration::from_secs(20));
    // Every line is one JSON object; the handled update's line carries its span's fields.
    let log = bot.log.lock().unwrap().clone();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let handled = lines
        .iter()
        .find(|v| v["fields"]["message"] == "handled")
        .unwrap();
    assert_eq!(handled["span"]["name"], "update", "{handled}");
    assert_eq!(handled["span"]["chat"], 15_001, "{handled}");
    assert!(handled["span"]["update_id"].is_u64(), "{handled}");
    assert!(lines
        .iter()
        .all(|v| v["timestamp"].is_string() && v["level"].is_string()));
    // No field of the log bridge (`log.file` holds a path of the build machine), the line's
    // own target instead of "log", and the spans' fields once.
    for v in &lines {
        let fields = v["fields"].as_object().unwrap();
        assert!(fields.keys().all(|k| !k.starts_with("log.")), "{v}");
        assert!(v.get("spans").is_none(), "{v}");
        assert_ne!(v["target"], "log", "{v}");
    }
    assert!(!log.contains(".rs\""), "a source file in the log:\n{log}");
    assert!(handled["target"]
        .as_str()
        .is_some_and(|t| t.starts_with("morskoy_boy")));
    // A game's sender: its lines name the game.
    fake.send_command(15_001, &anna, "/play easy");
    bot.wait_log("delivered", Duration::from_secs(20));
    let log = bot.log.lock().unwrap().clone();
    let sent = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| {
            v["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("delivered"))
        })
        .unwrap();
    assert_eq!(sent["span"]["name"], "game", "{sent}");
    assert!(sent["span"]["game"].is_u64(), "{sent}");
    // A bad format is refused by name.
    let out = bin().env("MB_LOG_FORMAT", "xml").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MB_LOG_FORMAT=\"xml\""));
}

/// A bot in webhook mode (`MB_WEBHOOK_URL`), taking posts on a local port.
fn webhook_bot(fake: &FakeTelegram, url: &str, listen: u16) -> Running {
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", fake.token())
        .env("TELOXIDE_API_URL", fake.url())
        .env("REDIS_URL", redis_url())
        .env(
            "MB_NAMESPACE",
            format!("mb:test:hook:{:x}", rand::random::<u64>()),
        )
        .env("MB_WEBHOOK_URL", url)
        .env("MB_WEBHOOK_LISTEN", format!("127.0.0.1:{listen}"))
        .env("MB_WEBHOOK_SECRET", "s3cret_token-1");
    Running::start(cmd)
}

/// A private `/start` from user `id`, as Telegram posts it.
fn start_update(update_id: u32, id: i64) -> serde_json::Value {
    serde_json::json!({
        "update_id": update_id,
        "message": {
            "message_id": 1,
            "date": 1_700_000_000,
            "chat": {"id": id, "type": "private", "first_name": "Hanna"},
            "from": {"id": id, "is_bot": false, "first_name": "Hanna", "language_code": "en"},
            "text": "/start",
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_is_set_with_its_secret_and_takes_only_posts_that_carry_it() {
    let fake = FakeTelegram::start().await;
    let port = closed_port();
    let url = "https://bot.example.org:8443/tg/hook";
    let mut bot = webhook_bot(&fake, url, port);
    let hook = format!("http://127.0.0.1:{port}/tg/hook");
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    // The listener answers from the first second (a GET, 405, before the bot is up): the
    // bot is up once its webhook is set.
    while client.get(&hook).send().await.is_err() || fake.webhook().is_none() {
        assert!(Instant::now() < deadline, "{}", bot.log.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Every replica sets the same webhook, with the secret, and polls no more.
    assert_eq!(
        fake.webhook(),
        Some((url.to_owned(), Some("s3cret_token-1".to_owned())))
    );
    assert_eq!(fake.calls("getUpdates"), 0);
    fake.user(15_101, "Hanna", "en");
    fake.start_bot(15_101);
    let post = |path: &str, secret: Option<&str>, id: u32| {
        let mut r = client
            .post(format!("http://127.0.0.1:{port}{path}"))
            .json(&start_update(id, 15_101));
        if let Some(s) = secret {
            r = r.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        r.send()
    };
    // Without the secret, with a wrong one, or elsewhere: refused, and nothing is handled.
    assert_eq!(post("/tg/hook", None, 1).await.unwrap().status(), 401);
    assert_eq!(
        post("/tg/hook", Some("guess"), 2).await.unwrap().status(),
        401
    );
    assert_eq!(
        post("/other", Some("s3cret_token-1"), 3)
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(client.get(&hook).send().await.unwrap().status(), 404);
    // A post larger than an update can be (a megabyte): refused 413 by the server's limit.
    let huge = client
        .post(&hook)
        .header("X-Telegram-Bot-Api-Secret-Token", "s3cret_token-1")
        .header("content-type", "application/json")
        .body(vec![b' '; 2 << 20])
        .send()
        .await
        .unwrap();
    assert_eq!(huge.status(), 413);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        fake.messages(15_101).is_empty(),
        "{:?}",
        fake.messages(15_101)
    );
    // With it: handled, and the welcome comes.
    let ok = post("/tg/hook", Some("s3cret_token-1"), 4).await.unwrap();
    assert_eq!(ok.status(), 200);
    fake.wait_for(15_101, |_| true, Duration::from_secs(10))
        .await
        .expect("the welcome");
    // The same update again (Telegram repeats a post it got no answer to): taken, not handled
    // twice.
    let again = post("/tg/hook", Some("s3cret_token-1"), 4).await.unwrap();
    assert_eq!(again.status(), 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.messages(15_101).len(), 1, "one welcome");
    // SIGTERM (`docker stop`) stops it cleanly, within 8 s: the server closes and the
    // process ends well.
    bot.terminate();
    assert_eq!(bot.wait_exit(Duration::from_secs(8)), Some(0));
    assert!(client.get(&hook).send().await.is_err(), "still listening");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_url_telegram_refuses_stops_the_bot_with_telegrams_words() {
    let fake = FakeTelegram::start().await;
    let mut bot = webhook_bot(&fake, "https://bot.example.org:9000/hook", closed_port());
    assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(2));
    let log = bot.log.lock().unwrap().clone();
    assert!(log.contains("Telegram refuses MB_WEBHOOK_URL"), "{log}");
    assert!(log.contains("ports 80, 88, 443 or 8443"), "{log}");
    // An http URL never reaches Telegram: refused by name.
    let out = bin()
        .env("TELOXIDE_TOKEN", "1:x")
        .env("MB_WEBHOOK_URL", "http://bot.example.org/hook")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MB_WEBHOOK_URL=\"http://"));
}

/// A long-polling bot on `fake`, in a namespace of its own.
fn polling_bot(fake: &FakeTelegram) -> Command {
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", fake.token())
        .env("TELOXIDE_API_URL", fake.url())
        .env("REDIS_URL", redis_url())
        .env(
            "MB_NAMESPACE",
            format!("mb:test:poll:{:x}", rand::random::<u64>()),
        );
    cmd
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn polling_refuses_to_cut_off_a_webhook_unless_told_to_delete_it() {
    let fake = FakeTelegram::start().await;
    let elsewhere = "https://other.example.org/telegram";
    teloxide::prelude::Requester::set_webhook(&fake.bot(), url::Url::parse(elsewhere).unwrap())
        .await
        .unwrap();
    // A webhook deployment takes the updates: this bot stops, saying where and what to do,
    // and the webhook stays.
    let mut bot = Running::start(polling_bot(&fake));
    assert_eq!(bot.wait_exit(Duration::from_secs(20)), Some(2));
    let log = bot.log.lock().unwrap().clone();
    assert!(log.contains(elsewhere), "{log}");
    assert!(log.contains("MB_DELETE_WEBHOOK=1"), "{log}");
    assert_eq!(
        fake.webhook().map(|(url, _)| url),
        Some(elsewhere.to_owned())
    );
    assert_eq!(fake.calls("getUpdates"), 0);
    assert_eq!(fake.calls("deleteWebhook"), 0);
    // Told to: it deletes the webhook, says so, and polls.
    let mut cmd = polling_bot(&fake);
    cmd.env("MB_DELETE_WEBHOOK", "1");
    let bot = Running::start(cmd);
    assert!(
        fake.wait_calls("getUpdates", 1, Duration::from_secs(20))
            .await,
        "{}",
        bot.log.lock().unwrap()
    );
    assert_eq!(fake.webhook(), None);
    bot.wait_log(
        &format!("deleting the webhook to {elsewhere}"),
        Duration::from_secs(5),
    );
    let anna = fake.user(15_201, "Anna", "en");
    fake.start_bot(15_201);
    fake.send_command(15_201, &anna, "/start");
    fake.wait_for(15_201, |_| true, Duration::from_secs(20))
        .await
        .expect("the welcome");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_press_in_hand_and_exits_well_and_the_game_goes_on() {
    use crate::helpers::{duel, read_answer, said, wait, App};
    let mut app = App::spawn().await;
    let group = -15_301;
    let a = app.player(15_301, "Alice", "en");
    let b = app.player(15_302, "Bob", "en");
    let mut d = duel(&app, group, a, b).await;
    d.shoot_button(&app).await;
    // A shot, and SIGTERM as soon as the bot has taken it from Telegram.
    let seat = d.turn;
    let cell = d.next_cell(seat).unwrap();
    let press = app
        .tg
        .press_stale(group, &d.players[seat], d.battle, &d.fire_data(seat, cell));
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.tg.pending_updates() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    signal(app.bot_pid().unwrap(), "-TERM");
    // Within 8 s (Docker kills it after 10).
    let deadline = Instant::now() + Duration::from_secs(8);
    let status = loop {
        if let Some(status) = app.bot_exit_status() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "SIGTERM did not stop the bot within 8 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(status.code(), Some(0), "{status}");
    // Started again, the shot is answered (once) and the game goes on.
    app.start_bot().await;
    let answer = app
        .tg
        .wait_answer(&press, wait())
        .await
        .expect("the shot sent before SIGTERM is answered");
    let shot = read_answer(&said(&answer));
    d.follow(seat, cell, shot);
    for _ in 0..3 {
        let shot = d.shoot_button(&app).await;
        assert!(
            // `Known` is a fair answer: a cell beside a sunk ship is known without a shot.
            !matches!(shot, crate::helpers::Shot::NotYourTurn),
            "{shot:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_unhealthy_for_mb_unhealthy_exit_secs_exits_so_it_is_restarted() {
    let fake = FakeTelegram::start().await;
    let mut redis = crate::common::RedisServer::start();
    let mut cmd = bin();
    cmd.env("TELOXIDE_TOKEN", fake.token())
        .env("TELOXIDE_API_URL", fake.url())
        .env("REDIS_URL", redis.url())
        .env("MB_UNHEALTHY_EXIT_SECS", "2");
    let mut bot = Running::start(cmd);
    bot.wait_log("is up", Duration::from_secs(20));
    // Healthy: it runs on past the limit.
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        bot.child.try_wait().unwrap().is_none(),
        "{}",
        bot.log.lock().unwrap()
    );
    redis.stop();
    assert_eq!(bot.wait_exit(Duration::from_secs(30)), Some(4));
    let log = bot.log.lock().unwrap().clone();
    assert!(log.contains("unhealthy for"), "{log}");
    assert!(log.contains("redis"), "{log}");
    assert!(log.contains("MB_UNHEALTHY_EXIT_SECS"), "{log}");
}
