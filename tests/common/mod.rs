//! Shared test helpers: stores on the test Redis (one server or the cluster) with a namespace
//! of their own, and Redis servers a test starts, stops and restarts itself.

#![allow(dead_code)]

use engine::{random_fleet, Action, Game, PlayerId, Ruleset, SeatId};
use morskoy_boy::store::{Store, StoreConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A fixed "now" for games made by tests and benches.
pub const NOW: u64 = 1_764_480_000;

/// A classic duel in battle, the same for the same seed.
pub fn battle(seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let r = Ruleset::default();
    let mut game = Game::new(r.clone());
    for p in [1, 2] {
        game.apply(Action::Join(PlayerId(p)), NOW, &mut rng)
            .unwrap();
    }
    game.apply(Action::Start, NOW, &mut rng).unwrap();
    for s in 0..2 {
        let fleet = random_fleet(&r, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), NOW, &mut rng)
            .unwrap();
    }
    game
}

/// The next shot of a simple sweep: the first unknown cell of the target's field, or `None`
/// when the game is over.
pub fn next_shot(game: &Game) -> Option<Action> {
    if game.is_finished() {
        return None;
    }
    let shooter = game.turn();
    let target = *game.targets(shooter).first()?;
    let cell = game
        .ruleset()
        .size()
        .cells()
        .find(|&c| !game.is_known(target, c))?;
    Some(Action::Fire(shooter, target, cell))
}

/// Which Redis a test runs against.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The one server at `REDIS_URL`.
    Single,
    /// The cluster at `REDIS_CLUSTER_URLS` (started by `scripts/test`).
    Cluster,
    /// The in-memory server of this test process (src/store/memory/), shared by its tests as
    /// they share a real one, each in a namespace of its own.
    Memory,
}

pub fn redis_url() -> String {
    std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

pub fn target_url(target: Target) -> String {
    match target {
        Target::Single => redis_url(),
        Target::Cluster => std::env::var("REDIS_CLUSTER_URLS").expect(
            "REDIS_CLUSTER_URLS is not set: run the tests with scripts/test, which starts a \
             3-master cluster (scripts/redis-cluster up)",
        ),
        Target::Memory => "memory://tests".to_owned(),
    }
}

/// A namespace no other test uses, within the run's (`MB_TEST_RUN`, set by `scripts/test`,
/// which removes the run's keys at its end).
pub fn namespace() -> String {
    let run = std::env::var("MB_TEST_RUN").unwrap_or_else(|_| "local".into());
    format!("mbtest:{run}:{:016x}:v1", rand::random::<u64>())
}

pub fn config() -> StoreConfig {
    StoreConfig {
        namespace: namespace(),
        ..StoreConfig::default()
    }
}

/// A store on `target` with a namespace of its own.
pub async fn store(target: Target) -> Store {
    Store::connect(&target_url(target), config())
        .await
        .expect("the test Redis answers")
}

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A `redis-server` this test owns: append-only persistence in a folder of its own, killed
/// when dropped.
pub struct RedisServer {
    pub port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        let mut server = RedisServer {
            port: free_port(),
            dir: tempfile::tempdir().expect("a temporary folder"),
            child: None,
        };
        server.spawn();
        server
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn dir(&self) -> PathBuf {
        self.dir.path().to_owned()
    }

    fn spawn(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
            ])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is installed (scripts/redis-up installs it)");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if self.ping() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("redis-server on port {} did not start", self.port);
    }

    fn ping(&self) -> bool {
        redis::Client::open(self.url())
            .and_then(|c| c.get_connection_with_timeout(Duration::from_millis(200)))
            .and_then(|mut c| redis::cmd("PING").query::<String>(&mut c))
            .is_ok()
    }

    /// Stops the server; with `flush` it first writes its append-only file, as a clean
    /// shutdown does.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("redis-cli")
                .args(["-p", &self.port.to_string(), "shutdown"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port and folder: it reloads its append-only file.
    pub fn restart(&mut self) {
        self.stop();
        self.spawn();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
