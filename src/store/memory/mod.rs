//! The store's in-memory Redis: the commands and Lua scripts the store sends, answered from a
//! map in this process, so the store's own code runs unchanged on it (`Conn::Memory`). The
//! scripts are the very files Redis runs (`src/store/lua/*.lua`), run by Lua 5.1 as Redis
//! runs them; only the commands are ours (`commands.rs`). `tests/store.rs` runs the whole store
//! suite on it as on one server and on the cluster.
//!
//! `REDIS_URL=memory://<name>` connects to the process's server of that name (made on first
//! use): for tests, and for trying the bot without Redis. It keeps nothing over a restart and
//! is no one else's: games live only as long as the process.

mod collections;
mod commands;
mod lua;

use redis::aio::ConnectionLike;
use redis::{Arg, Cmd, ErrorKind, Pipeline, RedisError, RedisFuture, ServerErrorKind, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

/// A handle to one in-memory server. Cheap to clone: clones share the server.
#[derive(Clone)]
pub struct Memory(Arc<Mutex<Server>>);

/// The server: its data and its scripts.
struct Server {
    db: Db,
    scripts: lua::Scripts,
}

/// The keys and their values; their expiry and TIME on the bot's clock (src/clock.rs: a test's
/// paused time is the server's).
pub(crate) struct Db {
    entries: HashMap<Vec<u8>, Entry>,
    /// Commands since expired keys were last swept.
    since_sweep: u32,
}

struct Entry {
    data: Data,
    /// Unix ms when the key goes, if it does.
    expires_ms: Option<u64>,
}

enum Data {
    Str(Vec<u8>),
    Hash(HashMap<Vec<u8>, Vec<u8>>),
    List(VecDeque<Vec<u8>>),
    Zset(HashMap<Vec<u8>, f64>),
}

/// A command's failure, as Redis words it ("WRONGTYPE …", "ERR …", "NOSCRIPT …").
pub(crate) type Reply = Result<Value, String>;

/// Every server of this process, by name.
fn servers() -> MutexGuard<'static, HashMap<String, Memory>> {
    static SERVERS: OnceLock<Mutex<HashMap<String, Memory>>> = OnceLock::new();
    SERVERS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

impl Memory {
    /// A new, empty server of its own.
    pub fn new() -> Memory {
        Memory(Arc::new(Mutex::new(Server {
            db: Db {
                entries: HashMap::new(),
                since_sweep: 0,
            },
            scripts: lua::Scripts::new(),
        })))
    }

    /// The process's server called `name` (made empty on first use).
    pub fn named(name: &str) -> Memory {
        servers().entry(name.to_owned()).or_default().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Server> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs one command, given as its words.
    pub fn run(&self, words: &[Vec<u8>]) -> Result<Value, RedisError> {
        self.lock().run(words).map_err(error)
    }
}

/// A command's words, as redis-rs packs them.
fn words(cmd: &Cmd) -> Vec<Vec<u8>> {
    cmd.args_iter()
        .filter_map(|a| match a {
            Arg::Simple(w) => Some(w.to_vec()),
            _ => None,
        })
        .collect()
}

impl Server {
    fn run(&mut self, words: &[Vec<u8>]) -> Reply {
        let Server { db, scripts } = self;
        db.tick();
        let name = words
            .first()
            .map(|w| String::from_utf8_lossy(w).to_ascii_uppercase())
            .unwrap_or_default();
        match name.as_str() {
            "EVAL" | "EVALSHA" | "SCRIPT" => scripts.command(db, &name, &words[1..]),
            _ => db.command(words),
        }
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

/// A failure's words as redis-rs makes them of a server's reply.
fn error(words: String) -> RedisError {
    let (code, detail) = words.split_once(' ').unwrap_or((&words, ""));
    if code == "NOSCRIPT" {
        return RedisError::from((
            ErrorKind::Server(ServerErrorKind::NoScript),
            "NOSCRIPT",
            detail.to_owned(),
        ));
    }
    redis::make_extension_error(code.to_owned(), Some(detail.to_owned()))
}

impl ConnectionLike for Memory {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        let reply = self.run(&words(cmd));
        Box::pin(async move { reply })
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        _offset: usize,
        _count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        // One lock for the whole pipeline: a transaction is atomic, and so is a plain pipeline
        // here (Redis promises less for one).
        let replies: Result<Vec<Value>, RedisError> = {
            let mut server = self.lock();
            pipeline
                .cmd_iter()
                .map(|cmd| server.run(&words(cmd)).map_err(error))
                .collect()
        };
        let transaction = pipeline.is_transaction();
        Box::pin(async move {
            let replies = replies?;
            // A transaction's one reply is EXEC's: the array of its commands' replies.
            Ok(if transaction {
                vec![Value::Array(replies)]
            } else {
                replies
            })
        })
    }

    fn get_db(&self) -> i64 {
        0
    }
}

impl Db {
    /// Before each command: now and then, the keys that have expired go (a key is also gone
    /// when read after its time, swept or not).
    fn tick(&mut self) {
        self.since_sweep += 1;
        if self.since_sweep >= 1024 {
            self.since_sweep = 0;
            let now = crate::clock::unix_ms();
            self.entries
                .retain(|_, e| e.expires_ms.is_none_or(|at| at > now));
        }
    }

    /// The live entry at `key` (an expired one is removed).
    fn entry(&mut self, key: &[u8]) -> Option<&mut Entry> {
        let now = crate::clock::unix_ms();
        if self
            .entries
            .get(key)
            .is_some_and(|e| e.expires_ms.is_some_and(|at| at <= now))
        {
            self.entries.remove(key);
        }
        self.entries.get_mut(key)
    }
}
