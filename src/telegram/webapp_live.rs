//! The Mini App's live streams (`GET /app/api/events`) on this replica: one watcher a game,
//! shared by every stream of that game, and at most [`PER_USER`] streams a user.
//!
//! - **One watcher a game.** A watcher looks at the game's version four times a second (and,
//!   while fleets are placed, the versions of the drafts still being edited): a few bytes a
//!   look. Only when one changed does it read the record, once, and hand it to every stream
//!   of the game, which draws its own viewer's state from it. Ten pages open on one game cost
//!   what one costs. The watcher ends when its last stream does, or with the game.
//! - **At most [`PER_USER`] streams a user.** A fifth stream of the same user closes that
//!   user's oldest: a page reopened again and again (or a script) cannot hold dozens.

use super::context::Ctx;
use crate::game::record::GameRecord;
use crate::game::record::Play;
use crate::game::GameId;
use crate::store::StoreError;
use engine::{Phase, SeatId};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{watch, Notify};

/// How often a watcher looks at its game.
pub const LOOK_EVERY: Duration = Duration::from_millis(250);

/// The live streams one user may hold on one replica; a newer one closes the oldest.
pub const PER_USER: usize = 4;

/// What a watcher last saw of its game.
#[derive(Clone)]
pub enum Seen {
    /// The record at its version, and the version of each seat's draft (0: none, or not
    /// looked at: the seat is not placing).
    Game {
        /// The record.
        rec: Arc<GameRecord>,
        /// Its stored version.
        version: u64,
        /// Each seat's draft version while it places.
        drafts: Vec<u64>,
    },
    /// The game is gone (expired or never was).
    Gone,
}

/// An open stream of a user: its number, and how to close it.
type Open = (u64, Arc<Notify>);

/// This replica's live streams: the watchers by game, the streams by user.
#[derive(Default)]
pub struct Streams {
    watchers: Mutex<HashMap<GameId, watch::Sender<Option<Seen>>>>,
    users: Mutex<HashMap<u64, VecDeque<Open>>>,
    next: AtomicU64,
}

/// A stream's place among its user's: it leaves it when dropped; [`Place::closed`] fires
/// when a newer stream of the user took it.
pub struct Place {
    streams: Arc<Streams>,
    user: u64,
    n: u64,
    close: Arc<Notify>,
}

impl Place {
    /// Waits until a newer stream of the same user closes this one.
    pub async fn closed(&self) {
        self.close.notified().await;
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut users = self
            .streams
            .users
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(list) = users.get_mut(&self.user) {
            list.retain(|(n, _)| *n != self.n);
            if list.is_empty() {
                users.remove(&self.user);
            }
        }
        drop(users);
        crate::metrics::webapp_streams(-1);
    }
}

impl Streams {
    /// A new stream of `user`: its place, closing the user's oldest when they hold
    /// [`PER_USER`] already.
    pub fn open(self: &Arc<Self>, user: u64) -> Place {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let close = Arc::new(Notify::new());
        let mut users = self.users.lock().unwrap_or_else(PoisonError::into_inner);
        let list = users.entry(user).or_default();
        list.push_back((n, Arc::clone(&close)));
        while list.len() > PER_USER {
            if let Some((_, oldest)) = list.pop_front() {
                // A permit is kept if the oldest is not waiting right now.
                oldest.notify_one();
            }
        }
        drop(users);
        crate::metrics::webapp_streams(1);
        Place {
            streams: Arc::clone(self),
            user,
            n,
            close,
        }
    }

    /// The watch of game `id`: this replica's watcher's, or a new one's (started here).
    pub fn watch(self: &Arc<Self>, ctx: &Ctx, id: GameId) -> watch::Receiver<Option<Seen>> {
        let mut watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = watchers.get(&id) {
            return tx.subscribe();
        }
        let (tx, rx) = watch::channel(None);
        watchers.insert(id, tx.clone());
        drop(watchers);
        crate::metrics::webapp_watchers(1);
        tokio::spawn(watcher(ctx.clone(), Arc::clone(self), id, tx));
        rx
    }

    /// Whether the watcher `tx` of game `id` may end: nobody watches. Then it is forgotten,
    /// under the same lock a new stream subscribes under, so none subscribes to an ended one.
    fn may_end(&self, id: GameId, tx: &watch::Sender<Option<Seen>>) -> bool {
        let mut watchers = self.watchers.lock().unwrap_or_else(PoisonError::into_inner);
        if tx.receiver_count() > 0 {
            return false;
        }
        if watchers.get(&id).is_some_and(|t| t.same_channel(tx)) {
            watchers.remove(&id);
        }
        true
    }

    /// How many watchers run (for the tests' look at the sharing).
    pub fn watchers(&self) -> usize {
        self.watchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// The seats whose drafts are watched: those still placing.
fn placing(rec: &GameRecord) -> Vec<SeatId> {
    match rec.play {
        Play::SeaBattle(_) if *rec.game.phase() == Phase::Placement => {}
        Play::SeaBattle(_) | Play::Riga(_) => return Vec::new(),
    }
    (0..rec.game.seats().len())
        .map(|i| SeatId(i as u8))
        .filter(|&s| !rec.game.is_ready(s))
        .collect()
}

/// The versions of the drafts of `rec`'s placing seats, by seat.
async fn drafts(ctx: &Ctx, id: GameId, rec: &GameRecord) -> Result<Vec<u64>, StoreError> {
    let mut out = vec![0; rec.game.seats().len()];
    for seat in placing(rec) {
        out[seat.index()] = ctx.store.draft_version(id, seat).await?.unwrap_or(0);
    }
    Ok(out)
}

/// Game `id` as it is now.
async fn look(ctx: &Ctx, id: GameId) -> Result<Seen, StoreError> {
    match ctx.store.load_game(id).await {
        Ok((rec, version)) => {
            let drafts = drafts(ctx, id, &rec).await?;
            Ok(Seen::Game {
                rec: Arc::new(rec),
                version,
                drafts,
            })
        }
        Err(StoreError::NotFound) => Ok(Seen::Gone),
        Err(e) => Err(e),
    }
}

/// Game `id`'s one watcher on this replica: it hands each new version of the game (or of a
/// placing seat's draft) to every stream of it, reading the record once per change.
async fn watcher(ctx: Ctx, streams: Arc<Streams>, id: GameId, tx: watch::Sender<Option<Seen>>) {
    let mut last: Option<Seen> = None;
    loop {
        if streams.may_end(id, &tx) {
            break;
        }
        let changed = match &last {
            None => Ok(true),
            Some(Seen::Gone) => break,
            Some(Seen::Game {
                rec,
                version,
                drafts: seen,
            }) => newer(&ctx, id, rec, *version, seen).await,
        };
        match changed {
            Ok(true) => match look(&ctx, id).await {
                Ok(now) => {
                    let over = match &now {
                        Seen::Game { rec, .. } => rec.game.is_finished(),
                        Seen::Gone => true,
                    };
                    last = Some(now.clone());
                    tx.send_replace(Some(now));
                    if over {
                        break;
                    }
                }
                Err(e) => log::debug!("webapp watcher of {id}: {e}"),
            },
            Ok(false) => {}
            Err(e) => log::debug!("webapp watcher of {id}: {e}"),
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
    // The streams see the end (or the game gone) and close; then the watcher is forgotten.
    let mut watchers = streams
        .watchers
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if watchers.get(&id).is_some_and(|t| t.same_channel(&tx)) {
        watchers.remove(&id);
    }
    drop(watchers);
    crate::metrics::webapp_watchers(-1);
}

/// Whether game `id` (or a placing seat's draft) has a newer version than seen: the
/// versions alone are read, a few bytes each.
async fn newer(
    ctx: &Ctx,
    id: GameId,
    rec: &GameRecord,
    version: u64,
    seen: &[u64],
) -> Result<bool, StoreError> {
    match ctx.store.game_version(id).await? {
        None => return Ok(true),
        Some(v) if v != version => return Ok(true),
        Some(_) => {}
    }
    Ok(drafts(ctx, id, rec).await?.as_slice() != seen)
}
