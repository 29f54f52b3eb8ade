//! The senders' Lua scripts (`lua/*.lua`), loaded once: the send lease and a chat's budget.

use redis::Script;

/// Takes a game's send lease when free, or from the holder named, whose process is dead
/// (KEYS: the lease, the game; ARGV: token, hold in ms, that holder or ''). Tokens read
/// `name/boot/n`. `{1, v, c, d}` with the game as it is (the sender's first look, in the same
/// round trip) when taken, else `{0, holder}`.
const TAKE: &str = include_str!("lua/take.lua");
/// Extends the lease while it is the caller's (KEYS: the lease; ARGV: token, hold in ms).
const RENEW: &str = include_str!("lua/renew.lua");
/// The sender is done: unless the game changed since the version it last saw, the game
/// leaves the index and the lease is freed (KEYS: the game, the lease, the index; ARGV:
/// version, token, member). 1 when done, 0 when the game changed (send again), -1 when the
/// lease is not the caller's any more.
const RELEASE: &str = include_str!("lua/release.lua");
/// Drops a lease that is the caller's (KEYS: the lease; ARGV: token).
const DROP: &str = include_str!("lua/drop.lua");
/// A GCRA bucket on the server's clock (KEYS: the bucket, and the token's pause when given;
/// ARGV: the emission interval and the burst tolerance, in ms). 0 when a send may go now (and
/// it is counted), else the milliseconds to wait. Never counts a send it refuses.
const GCRA: &str = include_str!("lua/gcra.lua");
/// The bot token's budget: a GCRA bucket without burst, the pause of a 429, and strict
/// priorities (KEYS: the bucket, the pause, the waiting ranks; ARGV: the interval in ms, the
/// caller's rank). 0 when a call may go now, else the milliseconds to wait.
const TOKEN: &str = include_str!("lua/token.lua");
/// Pauses the token's calls for ARGV[1] ms (KEYS: the pause), keeping a longer one.
const PAUSE: &str = include_str!("lua/pause.lua");
/// Takes the live boards' next turn of the token, first come first served (KEYS: the next free
/// turn; ARGV: the turns' spacing in µs), on the server's clock: the ms until it.
const BOARD_TURN: &str = include_str!("lua/board-turn.lua");

/// The scripts of the senders, loaded once per store.
#[derive(Clone)]
pub struct Scripts {
    pub(super) take: Script,
    pub(super) renew: Script,
    pub(super) release: Script,
    pub(super) drop: Script,
    pub(super) gcra: Script,
    pub(super) token: Script,
    pub(super) pause: Script,
    pub(super) board_turn: Script,
}

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            take: Script::new(TAKE),
            renew: Script::new(RENEW),
            release: Script::new(RELEASE),
            drop: Script::new(DROP),
            gcra: Script::new(GCRA),
            token: Script::new(TOKEN),
            pause: Script::new(PAUSE),
            board_turn: Script::new(BOARD_TURN),
        }
    }
}
