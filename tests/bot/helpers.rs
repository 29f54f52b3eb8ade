//! Helpers of the end-to-end tests: a fake Telegram, a real Redis, and the real bot binary
//! between them, each test with its own namespace; players who tap and type.

#![allow(dead_code, unused_macros)]

use crate::fake_telegram::{CallbackAnswer, FakeTelegram, SentMessage};
use std::collections::HashSet;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use teloxide::types::User;

/// How long a test waits for the bot: 30 s (only a failing test waits that long), or `MB_TEST_WAIT_SECS` (the bench, whose group
/// runs out of its budget of sends and edits, waits longer).
pub fn wait() -> Duration {
    let secs = std::env::var("MB_TEST_WAIT_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30);
    Duration::from_secs(secs)
}

/// The bot binary, running; killed when dropped.
pub struct BotProcess(Child);

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One test's world.
pub struct App {
    pub tg: FakeTelegram,
    pub namespace: String,
    pub gap_ms: u64,
    /// Sends and edits a group takes a minute; `None`: the bot's default (Telegram's pace).
    pub per_minute: Option<u32>,
    /// Seeds the bot's random source, so a game replays word for word.
    pub seed: Option<u64>,
    /// How long the bot "types" before its own moves (milliseconds).
    pub ai_pause_ms: u64,
    /// More environment for the bot's next start (e.g. `MB_CRASH_AT`).
    pub env: Vec<(String, String)>,
    bot: Option<BotProcess>,
    /// A second replica, when a test starts one.
    second: Option<BotProcess>,
    /// Players whose `/start` the bot may not have handled yet (see [`App::press`]).
    unwelcomed: std::sync::Mutex<std::collections::HashSet<i64>>,
    /// Webhook mode: where each replica takes Telegram's posts (replica 0 first); empty for
    /// long polling.
    pub webhook_listen: Vec<std::net::SocketAddr>,
    /// The Redis of this test's bots, when not `REDIS_URL`'s (a server a test stops).
    pub redis_url: Option<String>,
    /// The `MB_REPLICA` of every bot process, when not "0" and "1" (processes of one name,
    /// as two on one host with the default name).
    pub replica_name: Option<String>,
    /// A program and its arguments the bot binary runs under (e.g. valgrind), when any.
    pub wrapper: Vec<String>,
    /// The bot run in this process instead ([`App::start_in_process`]).
    in_process: Option<tokio::task::JoinHandle<()>>,
}

/// The public webhook URL the replicas set in webhook mode (the fake Telegram posts its path
/// to the replicas' own addresses, as a TLS-terminating load balancer would).
pub const WEBHOOK_URL: &str = "https://bot.example.org:8443/telegram/hook";

/// A local port nobody listens on now, for a bot's listener. Taken below the ephemeral range
/// (32768 and up), where the system hands out ports to whoever binds port 0 (the fake Bot
/// API, other tests' servers, every client connection): a port picked there and let go could
/// be taken by one of them before the bot binds it ("Address already in use", its webhook
/// never listening). Each call takes the next port of this process's own run through
/// 20000–31999, started at a place of its own.
pub fn free_port() -> std::net::SocketAddr {
    use std::sync::atomic::{AtomicU32, Ordering};
    const LOW: u32 = 20_000;
    const SPAN: u32 = 12_000;
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    let _ = NEXT.compare_exchange(
        u32::MAX,
        std::process::id() % SPAN,
        Ordering::SeqCst,
        Ordering::SeqCst,
    );
    loop {
        let port = LOW + NEXT.fetch_add(1, Ordering::SeqCst) % SPAN;
        if let Ok(l) = std::net::TcpListener::bind(("127.0.0.1", port as u16)) {
            return l.local_addr().expect("its address");
        }
    }
}

/// A namespace of its own for one test's bot, within the run's (see `common::namespace`).
fn e2e_namespace() -> String {
    let run = std::env::var("MB_TEST_RUN").unwrap_or_else(|_| "local".into());
    format!("mbe2e:{run}:{:016x}:v1", rand::random::<u64>())
}

impl Drop for App {
    /// The bots stop, then every key of the test's namespace goes: a run leaves nothing in a
    /// shared Redis.
    fn drop(&mut self) {
        self.second.take();
        self.bot.take();
        if let Some(bot) = self.in_process.take() {
            bot.abort();
        }
        let url = self.redis();
        let Ok(mut con) = redis::Client::open(url).and_then(|c| c.get_connection()) else {
            return;
        };
        let keys: Vec<String> = match redis::Commands::scan_match::<_, String>(
            &mut con,
            format!("{}*", self.namespace),
        ) {
            Ok(iter) => iter.filter_map(Result::ok).collect(),
            Err(_) => return,
        };
        for chunk in keys.chunks(500) {
            let _: redis::RedisResult<()> = redis::Commands::del(&mut con, chunk);
        }
    }
}

impl App {
    /// A fake Telegram and the bot with Telegram's own pace: edits of a group `gap_ms` apart
    /// and the bot's default budget of sends and edits a minute.
    pub async fn spawn_with_gap(gap_ms: u64) -> App {
        App::spawn_with(gap_ms, None).await
    }

    /// A world not started yet: a fresh fake Telegram and namespace, the given pace, no
    /// seed, no extra environment, long polling. In a [`flow!`] the fake runs as a task of
    /// this runtime, on its clock, as the bot will ([`App::start_in_process`]).
    pub async fn world(gap_ms: u64, per_minute: Option<u32>) -> App {
        let tg = if in_flow() {
            FakeTelegram::start_here().await
        } else {
            FakeTelegram::start().await
        };
        App {
            tg,
            namespace: e2e_namespace(),
            gap_ms,
            per_minute,
            seed: None,
            ai_pause_ms: 20,
            env: Vec::new(),
            bot: None,
            second: None,
            unwelcomed: Default::default(),
            webhook_listen: Vec::new(),
            redis_url: None,
            replica_name: None,
            wrapper: Vec::new(),
            in_process: None,
        }
    }

    /// The Redis URL this test's bots use.
    pub fn redis(&self) -> String {
        self.redis_url.clone().unwrap_or_else(|| {
            std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
        })
    }

    /// A fake Telegram and the bot with the given pace.
    pub async fn spawn_with(gap_ms: u64, per_minute: Option<u32>) -> App {
        let mut app = App::world(gap_ms, per_minute).await;
        app.start_bot().await;
        app
    }

    /// The usual world in webhook mode: two replicas behind one webhook URL, the fake
    /// Telegram posting each update to one of them in turn. A claim of a replica that went
    /// silent is taken over after 3 s.
    pub async fn spawn_webhook() -> App {
        let mut app = App::world(150, Some(100_000)).await;
        app.env.push(("MB_CLAIM_STALE_SECS".into(), "3".into()));
        app.webhook_listen = vec![free_port(), free_port()];
        app.start_bot().await;
        app.start_second_bot().await;
        app.tg.set_webhook_backends(app.webhook_listen.clone());
        app
    }

    /// The usual world, the bot "typing" for `ms` before each of its moves (production: 1200).
    pub async fn spawn_at_ai_pause(ms: u64) -> App {
        let mut app = App::world(150, Some(100_000)).await;
        app.ai_pause_ms = ms;
        app.start_bot().await;
        app
    }

    /// The usual world, with the bot's random source seeded: a game replays word for word.
    pub async fn spawn_seeded(seed: u64) -> App {
        let mut app = App::world(150, Some(100_000)).await;
        app.seed = Some(seed);
        app.start_bot().await;
        app
    }

    /// The usual world: a short gap and no budget, so tests run fast.
    pub async fn spawn() -> App {
        App::spawn_with(150, Some(100_000)).await
    }

    /// The bot in this process, as a task of this runtime (so a test's paused time is the
    /// bot's time too), on the in-memory store named after the test's namespace (so
    /// [`App::store`] reads what the bot stores); waits until it polls. The bot keeps a few
    /// things for its whole process (the token's budget, its health), so a process runs one:
    /// tests/flows.rs runs each of its tests in a process of its own.
    pub async fn start_in_process(&mut self) {
        self.redis_url = Some(format!("memory://{}", self.namespace));
        let vars: std::collections::HashMap<String, String> =
            self.bot_env("0").into_iter().collect();
        let config = morskoy_boy::config::Config::from_vars(|k| vars.get(k).cloned())
            .expect("the bot's configuration");
        let mut bot = teloxide::Bot::new(&config.token);
        if let Some(url) = config.api_url.clone() {
            bot = bot.set_api_url(url);
        }
        let store = morskoy_boy::store::Store::connect(&config.redis_url, config.store.clone())
            .await
            .expect("the in-memory store");
        let before = self.tg.calls("getUpdates");
        self.in_process = Some(tokio::spawn(morskoy_boy::telegram::run(bot, store, config)));
        assert!(
            self.tg.wait_calls("getUpdates", before + 1, wait()).await,
            "the bot did not start polling"
        );
    }

    /// Starts the bot process and waits until it polls (in a [`flow!`], the bot in this
    /// process instead).
    pub async fn start_bot(&mut self) {
        if in_flow() {
            return self.start_in_process().await;
        }
        let child = self.bot_process("0").await;
        self.bot = Some(child);
    }

    /// Starts a second replica of the bot on the same Redis and the same fake Telegram (which
    /// lets both poll), and waits until it polls.
    pub async fn start_second_bot(&mut self) {
        if self.webhook_listen.is_empty() {
            self.tg.allow_concurrent_polling(true);
        }
        let child = self.bot_process("1").await;
        self.second = Some(child);
    }

    /// Kills the bot at once, as a crash would, and starts it again without `MB_CRASH_AT`.
    pub async fn restart_bot(&mut self) {
        self.kill_bot();
        self.env.retain(|(k, _)| k != "MB_CRASH_AT");
        self.start_bot().await;
    }

    /// The process id of the first bot, while it runs.
    pub fn bot_pid(&self) -> Option<u32> {
        self.bot.as_ref().map(|BotProcess(child)| child.id())
    }

    /// How the first bot process ended, once it has.
    pub fn bot_exit_status(&mut self) -> Option<std::process::ExitStatus> {
        let BotProcess(child) = self.bot.as_mut()?;
        child.try_wait().ok().flatten()
    }

    /// Whether the bot process has ended (it crashed itself at an `MB_CRASH_AT` point).
    pub fn bot_has_exited(&mut self) -> bool {
        match self.bot.as_mut() {
            Some(BotProcess(child)) => child.try_wait().ok().flatten().is_some(),
            None => true,
        }
    }

    /// The bot's environment (its variables beyond the tests' own): the fake Telegram, the
    /// Redis and namespace, the pace, the seed, and `env`.
    fn bot_env(&self, replica: &str) -> Vec<(String, String)> {
        let mut vars: Vec<(String, String)> = Vec::new();
        let mut set = |k: &str, v: String| vars.push((k.to_owned(), v));
        if let Some(seed) = self.seed {
            set("MB_SEED", seed.to_string());
        }
        for (k, v) in &self.env {
            set(k, v.clone());
        }
        set(
            "MB_REPLICA",
            self.replica_name.as_deref().unwrap_or(replica).to_owned(),
        );
        set("TELOXIDE_TOKEN", self.tg.token().to_string());
        set("TELOXIDE_API_URL", self.tg.url().to_string());
        set("REDIS_URL", self.redis());
        set("MB_NAMESPACE", self.namespace.clone());
        set("MB_GROUP_GAP_MS", self.gap_ms.to_string());
        set("MB_AI_PAUSE_MS", self.ai_pause_ms.to_string());
        set(
            "MB_GROUP_PER_MINUTE",
            self.per_minute
                .map_or_else(|| "18".to_owned(), |n| n.to_string()),
        );
        // A world without Telegram's pace per group (fast tests) has none for the token
        // either; one at Telegram's pace has the token's production budget.
        set(
            "MB_TOKEN_PER_SECOND",
            self.env
                .iter()
                .find(|(k, _)| k == "MB_TOKEN_PER_SECOND")
                .map(|(_, v)| v.clone())
                .or_else(|| self.per_minute.map(|n| n.max(25).to_string()))
                .unwrap_or_else(|| "25".to_owned()),
        );
        vars
    }

    async fn bot_process(&mut self, replica: &str) -> BotProcess {
        // `MB_BOT_BIN` runs another build of the bot (a copy kept aside while this one is rebuilt).
        let bin = std::env::var("MB_BOT_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_morskoy-boy").to_owned());
        let mut cmd = match self.wrapper.split_first() {
            Some((program, args)) => {
                let mut cmd = Command::new(program);
                cmd.args(args).arg(bin);
                cmd
            }
            None => Command::new(bin),
        };
        // The tests' and benches' own variables (MB_TEST_*, MB_BENCH_*) are not the bot's: it
        // would warn of each as unknown.
        for (name, _) in std::env::vars() {
            if name.starts_with("MB_") {
                cmd.env_remove(name);
            }
        }
        let listen = replica
            .parse::<usize>()
            .ok()
            .and_then(|i| self.webhook_listen.get(i).copied());
        if let Some(addr) = listen {
            cmd.env("MB_WEBHOOK_URL", WEBHOOK_URL)
                .env("MB_WEBHOOK_LISTEN", addr.to_string());
        }
        let child = cmd
            .envs(self.bot_env(replica))
            .env(
                "RUST_LOG",
                std::env::var("MB_TEST_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdin(Stdio::null())
            .spawn()
            .expect("the bot binary starts");
        let child = BotProcess(child);
        if let Some(addr) = listen {
            // Up once it has set the webhook and takes posts.
            let deadline = tokio::time::Instant::now() + wait();
            while tokio::net::TcpStream::connect(addr).await.is_err() {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the bot does not listen on {addr}"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            return child;
        }
        let before = self.tg.calls("getUpdates");
        assert!(
            self.tg.wait_calls("getUpdates", before + 1, wait()).await,
            "the bot did not start polling"
        );
        child
    }

    /// A store on the test's Redis namespace: what the bot sees.
    pub async fn store(&self) -> morskoy_boy::store::Store {
        let url = self.redis();
        morskoy_boy::store::Store::connect(
            &url,
            morskoy_boy::store::StoreConfig {
                namespace: self.namespace.clone(),
                ..morskoy_boy::store::StoreConfig::default()
            },
        )
        .await
        .expect("the test reaches Redis")
    }

    /// Makes `ruleset` a chat's default for its next games, as `/settings` would.
    pub async fn set_rules(&self, chat: i64, ruleset: engine::Ruleset) {
        let store = self.store().await;
        let mut settings = store.chat_settings(chat).await.unwrap();
        settings.ruleset = ruleset;
        store.set_chat_settings(chat, &settings).await.unwrap();
    }

    /// Makes a chat see the fields as `board` (a picture or text), as `/settings` would.
    pub async fn set_board(&self, chat: i64, board: morskoy_boy::game::record::Board) {
        let store = self.store().await;
        let mut settings = store.chat_settings(chat).await.unwrap();
        settings.board = Some(board);
        store.set_chat_settings(chat, &settings).await.unwrap();
    }

    /// Kills the bot process at once (no clean shutdown), as a crash would.
    pub fn kill_bot(&mut self) {
        self.bot = None;
    }

    /// A user who has started the bot, speaking `lang`.
    pub fn player(&self, id: i64, name: &str, lang: &str) -> User {
        let u = self.tg.user(id, name, lang);
        self.tg.send_command(id, &u, "/start");
        self.unwelcomed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id);
        u
    }

    /// Waits until the bot answered `user`'s `/start` (its first message in their private
    /// chat), if it was not seen yet. The bot handles chats in parallel, so without this a
    /// player's first press or command in a group could come before the bot knows they
    /// opened the private chat: Join would then answer with the link to it, and `/newgame`
    /// would open a lobby without its creator, as for a stranger.
    pub async fn welcomed(&self, user: &User) {
        let id = user.id.0 as i64;
        let pending = self
            .unwelcomed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(&id);
        if !pending {
            return;
        }
        self.tg
            .wait_for(id, |_| true, wait())
            .await
            .unwrap_or_else(|| panic!("the bot never answered /start of {}", user.first_name));
        self.unwelcomed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&id);
    }

    /// Presses a button and waits for the bot's answer.
    pub async fn press(&self, chat: i64, user: &User, message: i32, data: &str) -> CallbackAnswer {
        self.welcomed(user).await;
        let id = self.tg.press_stale(chat, user, message, data);
        self.tg
            .wait_answer(&id, wait())
            .await
            .unwrap_or_else(|| panic!("no answer to {data}"))
    }

    /// The newest message of `chat` with a button whose data starts with `prefix`.
    pub async fn message_with_button(&self, chat: i64, prefix: &str) -> SentMessage {
        let wanted = prefix.to_owned();
        self.tg
            .wait_for(
                chat,
                move |m| m.callback_data().iter().any(|d| d.starts_with(&wanted)),
                wait(),
            )
            .await
            .unwrap_or_else(|| panic!("no message in {chat} with a {prefix} button"))
    }
}

/// No answer of the Bot API was a 4xx: no edit it found unchanged, no press answered twice
/// ("query ID is invalid"), nothing sent to a chat that is not there.
pub fn assert_no_4xx(app: &App) {
    let errors: Vec<_> = app
        .tg
        .errors()
        .into_iter()
        .filter(|e| (400..500).contains(&e.status) && !e.injected)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// Waits until the bot has killed itself at its `MB_CRASH_AT` point.
pub async fn wait_for_the_crash(app: &mut App) {
    let deadline = tokio::time::Instant::now() + wait();
    while !app.bot_has_exited() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bot did not crash"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Text of an answer, lower-cased.
pub fn said(a: &CallbackAnswer) -> String {
    a.text.clone().unwrap_or_default().to_lowercase()
}

/// A duel in a group between `a` (seat 0, the creator) and `b` (seat 1), with both fleets
/// placed at random and the battle begun.
pub struct Duel {
    pub group: i64,
    pub players: [User; 2],
    pub game: u64,
    pub generation: u32,
    pub battle: i32,
    pub turn: usize,
    known: [HashSet<usize>; 2],
    /// The cells each seat hit (or sank): their neighbours may be known without a shot.
    hits: [HashSet<usize>; 2],
    pub shots: usize,
}

/// What a shot did, read from the bot's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shot {
    Miss,
    Hit,
    Sunk,
    NotYourTurn,
    Known,
    Over,
}

/// Reads an answer in any of the bot's languages.
pub fn read_answer(text: &str) -> Shot {
    let t = text.to_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| t.contains(w));
    if any(&["not your turn", "не ваш ход", "не сте на ход"]) {
        Shot::NotYourTurn
    } else if any(&["already known", "уже стреляли", "вече е стреляно"]) {
        Shot::Known
    } else if any(&["is over", "окончена", "свърши"]) {
        Shot::Over
    } else if any(&["miss", "мимо", "промах"]) {
        Shot::Miss
    } else if any(&["sunk", "убил", "потопен"]) {
        Shot::Sunk
    } else if any(&["hit", "ранил", "попадение"]) {
        Shot::Hit
    } else {
        panic!("an answer the test does not know: {text}")
    }
}

/// The data of the first button of `m` whose data starts with `prefix`.
pub fn data(m: &SentMessage, prefix: &str) -> String {
    m.callback_data()
        .into_iter()
        .find(|d| d.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} button in {:?}", m.buttons()))
}

/// `/newgame` in `group` by `creator`: the lobby message and its Join button's data.
pub async fn open_lobby(app: &App, group: i64, creator: &User) -> (SentMessage, String) {
    app.welcomed(creator).await;
    app.tg.send_command(group, creator, "/newgame");
    let lobby = app.message_with_button(group, "j:").await;
    let join = data(&lobby, "j:");
    (lobby, join)
}

/// A lobby in the group "Sea dogs" (`group`) opened by `a` and joined by `b`, once it shows
/// both players: the lobby's message as first sent.
pub async fn lobby_of_two(app: &App, group: i64, a: &User, b: &User) -> SentMessage {
    app.tg.group(group, "Sea dogs");
    let (lobby, join) = open_lobby(app, group, a).await;
    let answer = app.press(group, b, lobby.message_id, &join).await;
    assert!(!answer.show_alert, "the join is refused: {answer:?}");
    let second = format!("2. {}", b.first_name);
    app.tg
        .wait_for(
            group,
            |m| m.message_id == lobby.message_id && m.text.contains(&second),
            wait(),
        )
        .await
        .unwrap_or_else(|| {
            panic!(
                "the lobby shows two players; the group saw {:?}",
                app.tg.all_texts(group)
            )
        });
    lobby
}

/// Opens a lobby in `group` by `a`, joins `b`, starts, places both fleets and waits for the
/// battle message.
pub async fn duel(app: &App, group: i64, a: User, b: User) -> Duel {
    let lobby = lobby_of_two(app, group, &a, &b).await;
    let start = data(&lobby, "s:");
    let answer = app.press(group, &a, lobby.message_id, &start).await;
    assert!(!answer.show_alert, "the start is refused: {answer:?}");
    for p in [&a, &b] {
        place_and_ready(app, p).await;
    }
    let battle = app.message_with_button(group, "f:").await;
    Duel::from_battle(&battle, [a, b], group)
}

/// In the private chat: Random, then Ready.
pub async fn place_and_ready(app: &App, p: &User) {
    place_and_ready_in(app, p, None).await;
}

/// In the private chat, in the editor of game `game` (the newest editor when `None`):
/// Random, then Ready.
pub async fn place_and_ready_in(app: &App, p: &User, game: Option<u64>) {
    let chat = p.id.0 as i64;
    let prefix = game.map_or_else(|| "pe:".to_owned(), |g| format!("pe:{g}:"));
    let editor = app.message_with_button(chat, &prefix).await;
    let random = editor
        .callback_data()
        .into_iter()
        .find(|d| d.starts_with(&prefix) && d.ends_with(":r"))
        .unwrap();
    let edits = editor.edits;
    app.press(chat, p, editor.message_id, &random).await;
    app.tg
        .wait_for(
            chat,
            |m| m.message_id == editor.message_id && m.edits > edits,
            wait(),
        )
        .await
        .expect("a random fleet is drawn");
    let ready = editor
        .callback_data()
        .into_iter()
        .find(|d| d.ends_with(":k"))
        .unwrap();
    let answer = app.press(chat, p, editor.message_id, &ready).await;
    assert!(!answer.show_alert, "the fleet is not locked: {answer:?}");
}

impl Duel {
    /// The duel shown by a battle message: game, generation and whose turn, from its text
    /// and buttons.
    pub fn from_battle(battle: &SentMessage, players: [User; 2], group: i64) -> Duel {
        let first = battle
            .callback_data()
            .into_iter()
            .find(|d| d.starts_with("f:"))
            .expect("a battle keyboard");
        let parts: Vec<&str> = first.split(':').collect();
        // The player to move is the one name in bold.
        let bold = format!("<b>{}</b>", players[0].first_name);
        let turn = usize::from(!battle.raw_text.contains(&bold));
        Duel {
            group,
            game: parts[1].parse().unwrap(),
            generation: parts[2].parse().unwrap(),
            battle: battle.message_id,
            players,
            turn,
            known: [HashSet::new(), HashSet::new()],
            hits: [HashSet::new(), HashSet::new()],
            shots: 0,
        }
    }

    /// The button data for `seat` shooting at cell `index` of the other field.
    pub fn fire_data(&self, seat: usize, index: usize) -> String {
        format!("f:{}:{}:{}:{index}", self.game, self.generation, 1 - seat)
    }

    /// The next cell `seat` has not shot at.
    pub fn next_cell(&self, seat: usize) -> Option<usize> {
        (0..100).find(|i| !self.known[seat].contains(i))
    }

    /// The next cell `seat` has not shot at and that touches no cell it hit: a shot there is
    /// never refused as known (a cell beside a sunk ship is), on a 10×10 field.
    pub fn next_open_cell(&self, seat: usize) -> Option<usize> {
        let near_a_hit = |i: usize| {
            let (x, y) = ((i % 10) as i32, (i / 10) as i32);
            self.hits[seat].iter().any(|&h| {
                let (hx, hy) = ((h % 10) as i32, (h / 10) as i32);
                (hx - x).abs() <= 1 && (hy - y).abs() <= 1
            })
        };
        (0..100).find(|&i| !self.known[seat].contains(&i) && !near_a_hit(i))
    }

    /// One shot by whoever is to move, by button; follows the answer.
    pub async fn shoot_button(&mut self, app: &App) -> Shot {
        let seat = self.turn;
        let Some(cell) = self.next_cell(seat) else {
            return Shot::Over;
        };
        let data = self.fire_data(seat, cell);
        let answer = app
            .press(self.group, &self.players[seat], self.battle, &data)
            .await;
        let shot = read_answer(&said(&answer));
        self.follow(seat, cell, shot);
        shot
    }

    /// One shot by typing the cell in reply to the battle message; the result is read from
    /// the group's log line, a refusal from the player's private chat.
    pub async fn shoot_typed(&mut self, app: &App) -> Shot {
        let seat = self.turn;
        let Some(cell) = self.next_cell(seat) else {
            return Shot::Over;
        };
        let name = format!("{}{}", char::from(b'A' + (cell % 10) as u8), cell / 10 + 1);
        let dm = self.players[seat].id.0 as i64;
        let last = app
            .tg
            .messages(dm)
            .iter()
            .map(|m| m.message_id)
            .max()
            .unwrap_or(0);
        app.tg
            .send_reply(self.group, &self.players[seat], &name, self.battle);
        let deadline = tokio::time::Instant::now() + wait();
        let shot = loop {
            let in_group = self.result_shown(app, seat, cell);
            let refusal = app
                .tg
                .messages(dm)
                .into_iter()
                .find(|m| m.message_id > last && !m.has_keyboard() && m.photo.is_none());
            if let Some(shot) = in_group {
                break shot;
            }
            if let Some(m) = refusal {
                break read_answer(&m.text);
            }
            if self.is_over(app) {
                return Shot::Over;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the typed shot {name} got no answer; errors {:?}",
                app.tg.errors()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        self.follow(seat, cell, shot);
        shot
    }

    /// The result of `seat`'s shot at `cell` as the group's battle message tells it, once it
    /// does: its line, alone ("Bob: A1 — miss") or in a run ("Bob: …; A1 — miss").
    pub fn result_shown(&self, app: &App, seat: usize, cell: usize) -> Option<Shot> {
        let name = format!("{}{}", char::from(b'A' + (cell % 10) as u8), cell / 10 + 1);
        let shooter = &self.players[seat].first_name;
        let battle = app
            .tg
            .messages(self.group)
            .into_iter()
            .find(|m| m.message_id == self.battle)?;
        let line = battle
            .text
            .lines()
            .find(|l| shows_result(l, shooter, &name))?
            .to_owned();
        let part = [format!(": {name} — "), format!("; {name} — ")]
            .iter()
            .find_map(|p| {
                line.split_once(p.as_str())
                    .map(|(_, after)| after.to_owned())
            })
            .unwrap_or_default();
        Some(read_answer(part.split(';').next().unwrap_or_default()))
    }

    pub fn follow(&mut self, seat: usize, cell: usize, shot: Shot) {
        match shot {
            Shot::Miss => {
                self.known[seat].insert(cell);
                self.turn = 1 - seat;
                self.shots += 1;
            }
            Shot::Hit | Shot::Sunk => {
                self.known[seat].insert(cell);
                self.hits[seat].insert(cell);
                self.shots += 1;
            }
            Shot::Known => {
                self.known[seat].insert(cell);
            }
            Shot::NotYourTurn => self.turn = 1 - seat,
            Shot::Over => {}
        }
    }

    /// Whether the end has been announced.
    /// Whether the end has been announced (the announcement offers a rematch).
    pub fn is_over(&self, app: &App) -> bool {
        app.tg
            .messages_after(self.group, self.battle)
            .iter()
            .any(|m| m.callback_data().iter().any(|c| c.starts_with("r:")))
    }
}

/// No group message before the end shows a ship cell that was not hit: unhit ships are
/// drawn as `O`, which only the end may show.
pub fn assert_no_unhit_ship_shown_before_the_end(app: &App, group: i64) {
    for text in app.tg.all_texts(group) {
        if text.contains("Winner:") {
            break;
        }
        for line in text.lines().filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        }) {
            assert!(
                !line.contains('O'),
                "an unhit ship cell in the group before the end: {line}"
            );
        }
    }
}

/// Plays until the end, every third shot typed.
pub async fn play_out(app: &App, d: &mut Duel) {
    let mut n = 0;
    while !d.is_over(app) {
        n += 1;
        assert!(n < 600, "the game does not end");
        let shot = if n % 3 == 0 {
            d.shoot_typed(app).await
        } else {
            d.shoot_button(app).await
        };
        if shot == Shot::Over {
            break;
        }
    }
    app.tg
        .wait_for_text(d.group, "Winner:", wait())
        .await
        .expect("the winner is announced");
}

/// A PNG decoded to RGB pixels: width, height, pixels.
pub fn decode_png(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("the picture decodes");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// `n` untouched fields of `size`, as a picture's panels see them.
pub fn empty_views(n: usize, size: engine::Size) -> Vec<engine::FieldView> {
    (0..n)
        .map(|i| engine::FieldView {
            seat: engine::SeatId(i as u8),
            size,
            marks: vec![engine::Mark::Unknown; size.cells().count()],
            full: false,
            border: None,
            sunk: Vec::new(),
            afloat: true,
            retired: false,
            scans: Vec::new(),
            runs: Vec::new(),
            weapons: [0; 3],
        })
        .collect()
}

/// Panels of `views` titled `title`, in Latin letters, none active and no last shot.
pub fn plain_panels<'a>(
    views: &'a [engine::FieldView],
    title: &'a str,
) -> Vec<morskoy_boy::view::picture::Panel<'a>> {
    views
        .iter()
        .map(|view| morskoy_boy::view::picture::Panel {
            view,
            title,
            alphabet: engine::Alphabet::Latin,
            last: &[],
            active: false,
        })
        .collect()
}

/// How many cells of a battle picture of `fields` fields of `size` show anything but
/// untouched water, read off the pixels: each cell's middle against an empty field's.
pub fn picture_known(png_bytes: &[u8], fields: usize, size: engine::Size) -> usize {
    use morskoy_boy::view::picture::{cell_rect, render_rgb, Style};
    let empty = empty_views(fields, size);
    let panels = plain_panels(&empty, "");
    let style = Style::default();
    let (w, h, reference) = render_rgb(&panels, &style);
    let (pw, ph, pixels) = decode_png(png_bytes);
    assert_eq!((pw, ph), (w, h), "the picture's size");
    let at = |buf: &[u8], x: u32, y: u32| {
        let i = ((y * w + x) * 3) as usize;
        [buf[i], buf[i + 1], buf[i + 2]]
    };
    let mut known = 0;
    for i in 0..fields {
        for c in size.cells() {
            let (x, y, side) = cell_rect(&panels, &style, i, c);
            let (mx, my) = (x + side / 2, y + side / 2);
            if at(&pixels, mx, my) != at(&reference, mx, my) {
                known += 1;
            }
        }
    }
    known
}

/// Whether a text tells `name`'s shot at `cell`: "Bob: A1 — miss", or within a run
/// "Bob: …; A1 — miss; …".
pub fn shows_result(text: &str, name: &str, cell: &str) -> bool {
    text.lines().any(|l| {
        l.starts_with(&format!("{name}: "))
            && (l.contains(&format!(": {cell} — ")) || l.contains(&format!("; {cell} — ")))
    })
}

/// The bot's `GET /metrics` at `addr` (its `MB_HEALTH_ADDR`): the status line's code and
/// the body.
pub async fn scrape(addr: std::net::SocketAddr) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("the health endpoint listens");
    let request = format!("GET /metrics HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("an answer");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, body.to_owned())
}

/// The sum of the samples of `name` in Prometheus text whose labels include `labels`
/// (`name{a="b",c="d"} 3`); 0 when there are none.
pub fn metric(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (n, rest) = series.split_once('{').unwrap_or((series, "}"));
            if n != name {
                return None;
            }
            let inner = rest.strip_suffix('}')?;
            let all = labels
                .iter()
                .all(|(k, v)| inner.split(',').any(|p| p == format!("{k}=\"{v}\"")));
            all.then(|| value.parse::<f64>().ok()).flatten()
        })
        .sum()
}

/// Waits for the end's announcement (the message with Rematch) after battle message
/// `battle`.
pub async fn wait_for_rematch(app: &App, group: i64, battle: i32) -> SentMessage {
    app.tg
        .wait_for(
            group,
            |m| m.message_id > battle && m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced")
}

/// Presses Rematch on the last announcement, starts, places and waits for the new battle.
pub async fn rematch(app: &App, group: i64, a: &User, b: &User) -> Duel {
    let end = app.message_with_button(group, "r:").await;
    let again = data(&end, "r:");
    app.press(group, a, end.message_id, &again).await;
    let lobby = app
        .tg
        .wait_for(
            group,
            |m| {
                m.message_id > end.message_id
                    && m.callback_data().iter().any(|d| d.starts_with("s:"))
            },
            wait(),
        )
        .await
        .expect("a new lobby");
    // The rematch seats both players again: Alice starts it.
    let start = data(&lobby, "s:");
    app.press(group, a, lobby.message_id, &start).await;
    for p in [a, b] {
        place_and_ready(app, p).await;
    }
    let battle = app
        .tg
        .wait_for(
            group,
            |m| {
                m.message_id > lobby.message_id
                    && m.callback_data().iter().any(|d| d.starts_with("f:"))
            },
            wait(),
        )
        .await
        .expect("a new battle");
    Duel::from_battle(&battle, [a.clone(), b.clone()], group)
}

/// One accepted shot of fast play: where its result should show, and when it was pressed.
#[derive(Clone, Debug)]
pub struct Pressed {
    /// The battle message.
    pub battle: i32,
    /// The shooter's first name.
    pub shooter: String,
    /// The cell, as the group reads it (`A1`).
    pub cell: String,
    /// When it was pressed.
    pub at: tokio::time::Instant,
}

/// What fast play did.
pub struct FastPlay {
    /// Every accepted shot.
    pub pressed: Vec<Pressed>,
    /// Each game's battle message, with its end's announcement.
    pub games: Vec<(i32, SentMessage)>,
    /// How long the players played.
    pub played: Duration,
}

/// A cell's name as the group reads it in English: `A1`.
pub fn cell_name(index: usize) -> String {
    format!(
        "{}{}",
        char::from(b'A' + (index % 10) as u8),
        index / 10 + 1
    )
}

/// Two players in `group` play duel after duel (Rematch between them) for `secs` seconds,
/// each pressing the next cell `think` after the answer to the last press; at least one game,
/// the last one played to its end. Waits for each game's announcement.
pub async fn fast_play(
    app: &App,
    group: i64,
    a: &User,
    b: &User,
    secs: u64,
    think: Duration,
) -> FastPlay {
    let started = tokio::time::Instant::now();
    let until = started + Duration::from_secs(secs);
    let mut pressed = Vec::new();
    let mut games = Vec::new();
    // At least one game.
    while games.is_empty() || tokio::time::Instant::now() < until {
        let mut d = if games.is_empty() {
            duel(app, group, a.clone(), b.clone()).await
        } else {
            rematch(app, group, a, b).await
        };
        let mut n = 0;
        while !d.is_over(app) {
            n += 1;
            assert!(n < 600, "the game does not end");
            let seat = d.turn;
            let Some(cell) = d.next_cell(seat) else { break };
            let at = tokio::time::Instant::now();
            let shot = d.shoot_button(app).await;
            if matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk) {
                pressed.push(Pressed {
                    battle: d.battle,
                    shooter: d.players[seat].first_name.clone(),
                    cell: cell_name(cell),
                    at,
                });
            } else if shot == Shot::Over {
                break;
            }
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
        }
        let end = wait_for_rematch(app, group, d.battle).await;
        games.push((d.battle, end));
    }
    FastPlay {
        pressed,
        games,
        played: started.elapsed(),
    }
}

/// When the group's battle message first showed the result of `p` (its caption, or its
/// text: the result lines as players read them), or `None`.
pub fn result_seen(messages: &[SentMessage], p: &Pressed) -> Option<tokio::time::Instant> {
    messages
        .iter()
        .find(|m| m.message_id == p.battle)
        .and_then(|m| {
            m.history
                .iter()
                .find(|s| shows_result(&s.text, &p.shooter, &p.cell))
        })
        .map(|s| s.at)
}

/// The value at fraction `p` of `sorted` (nearest rank).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// Waits until game `game` is called off (finished, cancelled, nobody won) with nothing left
/// to send, and returns its record.
pub async fn called_off(app: &App, game: u64) -> morskoy_boy::game::record::GameRecord {
    let store = app.store().await;
    let deadline = tokio::time::Instant::now() + wait();
    let rec = loop {
        let (rec, _) = store
            .load_game(morskoy_boy::store::GameId(game))
            .await
            .unwrap();
        if rec.is_finished() && rec.delivery.outbox.is_empty() {
            break rec;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the game goes on: {:?}, {:?}",
            rec.game.phase(),
            rec.delivery.outbox
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        matches!(
            rec.game.phase(),
            engine::Phase::Finished { winners, reason: engine::EndReason::Cancelled }
                if winners.is_empty()
        ),
        "{:?}",
        rec.game.phase()
    );
    rec
}

/// The fleets' lines (`layout|salt`) among `texts` that hash to a commitment shown in
/// `shown` (64 hex digits anywhere in those texts): how many there are. A line that checks
/// no commitment shown fails the test.
pub fn verified_fleets<'a>(
    shown: impl IntoIterator<Item = &'a String>,
    texts: impl IntoIterator<Item = &'a String>,
) -> usize {
    let commitments: Vec<String> = shown
        .into_iter()
        .flat_map(|v| v.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter(|t| t.len() == 64 && t.chars().all(|c| c.is_ascii_hexdigit()))
        .collect();
    let mut verified = 0;
    for line in texts.into_iter().flat_map(|t| t.lines()) {
        let check = line.rsplit_once('|').filter(|(_, salt)| {
            !salt.is_empty() && salt.chars().all(|c| c.is_ascii_alphanumeric())
        });
        if let Some((layout, salt)) = check {
            let commitment = engine::commit::commitment_of_text(layout.trim(), salt.trim());
            assert!(
                commitments.contains(&commitment),
                "{line} checks no commitment shown"
            );
            verified += 1;
        }
    }
    verified
}

/// Counts `code` as the layout `user` revealed in `times` finished games of `ruleset` in
/// `chat` (game ids from `first_game` on), as the end of a game does.
pub async fn seen_placing(
    store: &morskoy_boy::store::Store,
    chat: i64,
    ruleset: &str,
    first_game: u64,
    (user, code): (u64, &str),
    times: u64,
) {
    for g in 0..times {
        store
            .observe_layouts(
                morskoy_boy::store::GameId(first_game + g),
                chat,
                ruleset,
                &[(user, code.to_owned())],
            )
            .await
            .expect("the layout is counted");
    }
}

/// Waits until game `game` has nothing left to send: a kill after this is not one between
/// "sent" and "stored" (that window is the crash tests' own, at their crash points).
pub async fn settled(app: &App, game: u64) {
    let store = app.store().await;
    let deadline = tokio::time::Instant::now() + wait();
    loop {
        let (rec, _) = store
            .load_game(morskoy_boy::store::GameId(game))
            .await
            .unwrap();
        if rec.delivery.outbox.is_empty() {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "game {game} still has {:?} to send",
            rec.delivery.outbox
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether this process runs one test of [`flow!`] on paused time ([`in_own_process`]):
/// there, [`App::world`] and [`App::start_bot`] run the fake Telegram and the bot in this
/// process, on its runtime.
pub fn in_flow() -> bool {
    std::env::var_os("MB_FLOW").is_some()
}

/// Runs `flow` on a current-thread runtime with paused time, in a child process of this
/// test binary (the test `name` again, with `MB_FLOW` naming it): the bot, the fake Telegram
/// and the in-memory store on one clock that moves only while all of them wait, so a
/// 3-minute turn timer or Telegram's production pace cost milliseconds of the machine's
/// time. A process of its own, as the bot keeps a few things for its whole process (the
/// token's budget, its health). The child's output is shown when it fails.
pub fn in_own_process<F: std::future::Future<Output = ()>>(name: &str, flow: impl FnOnce() -> F) {
    if std::env::var("MB_FLOW").as_deref() == Ok(name) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime")
            // On the heap: a long flow's future is large in a debug build, and the test's
            // thread has a thread's default stack.
            .block_on(Box::pin(flow()));
        return;
    }
    let started = std::time::Instant::now();
    // The child's output goes to a file (a pipe could fill and stall it); a child that
    // hangs (on paused time a lock held forever stops its clock too) is killed after
    // `MB_FLOW_LIMIT_SECS` (300) of the machine's time.
    // A flow's time is its own (paused), so it runs at a lower CPU priority (`nice`): the
    // tests beside it on the machine's clock (latencies, the real pause) keep the CPU they
    // measure with, however busy the flows are.
    let log = tempfile::NamedTempFile::new().expect("a file for the flow's output");
    let exe = std::env::current_exe().expect("this test binary");
    let spawn = |mut cmd: Command| {
        cmd.args([name, "--exact", "--nocapture", "--test-threads=1"])
            .env("MB_FLOW", name)
            .stdin(Stdio::null())
            .stdout(log.reopen().expect("the flow's output file"))
            .stderr(log.reopen().expect("the flow's output file"))
            .spawn()
    };
    let mut niced = Command::new("nice");
    niced.args(["-n", "10"]).arg(&exe);
    let mut child = spawn(niced)
        .or_else(|_| spawn(Command::new(&exe)))
        .expect("this test binary runs again");
    let limit = std::env::var("MB_FLOW_LIMIT_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(300), Duration::from_secs);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the flow's process") {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let said = std::fs::read_to_string(log.path()).unwrap_or_default();
    let Some(status) = status else {
        panic!("{name} did not end within {limit:?} in its process:\n{said}");
    };
    assert!(status.success(), "{name} failed in its process:\n{said}");
    assert!(
        said.contains("1 passed"),
        "{name} did not run in its process:\n{said}"
    );
    eprintln!(
        "{name}: {:.1} s of the machine's time",
        started.elapsed().as_secs_f64()
    );
}

/// A bot flow on paused time: `flow! { fn name() { body } }` is a `#[test]` whose body runs
/// by [`in_own_process`], as the body of a `#[tokio::test]` would on the real clock.
macro_rules! flow {
    ($(#[doc = $doc:expr])* fn $name:ident() $body:block) => {
        $(#[doc = $doc])*
        #[test]
        fn $name() {
            let module = module_path!().split_once("::").map_or("", |(_, m)| m);
            $crate::helpers::in_own_process(
                &format!("{module}::{}", stringify!($name)),
                || async move $body,
            );
        }
    };
}
