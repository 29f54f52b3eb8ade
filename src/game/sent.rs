//! What the sender's deliveries leave in the record: the live message's id and what it
//! shows, each private message's, the announcement's parts, the end's settlement, the mine
//! question. The sender delivers an effect, then acknowledges it here, in a transition
//! fenced by its lease.

use super::delivery::Shown;
use super::record::{GameRecord, Settlement};

/// A delivered effect, as the record keeps it.
#[derive(Clone, Debug)]
pub enum Sent {
    /// Nothing to keep.
    Done,
    /// The live message was sent anew: its id, the hash of what it shows and the results
    /// it shows.
    Live(i32, u64, Shown),
    /// A seat's private message: its id (when new) and the hash of what it shows.
    Dm(u8, Option<i32>, u64),
    /// A seat's own field as a picture: its id (when new) and the hash of what it shows.
    DmPicture(u8, Option<i32>, u64),
    /// One part of the announcement went; `true` when it was the last.
    Part(bool),
    /// The end's settlement, worked out: stored, and the effect stays to write it.
    Settlement(Box<Settlement>),
}

/// Keeps what the delivery of effect `n` (of the record at `version`, at `now_ms`) left, and
/// takes the effect out of the outbox once it is done.
pub fn acknowledge(r: &mut GameRecord, sent: &Sent, version: u64, n: u64, now_ms: u64) {
    match *sent {
        Sent::Done => {}
        Sent::Live(message, hash, shown) => {
            r.delivery.message = Some(message);
            drawn(r, hash, version, shown, now_ms);
        }
        Sent::Dm(seat, message, hash) => {
            let i = usize::from(seat);
            if let Some(m) = message {
                put(&mut r.delivery.dms, i, Some(m));
            }
            put(&mut r.delivery.dm_drawn, i, hash);
        }
        Sent::DmPicture(seat, message, hash) => {
            let i = usize::from(seat);
            if let Some(m) = message {
                put(&mut r.delivery.dm_pictures, i, Some(m));
            }
            put(&mut r.delivery.dm_drawn, i, hash);
        }
        Sent::Part(last) => {
            r.delivery.announced_parts = r.delivery.announced_parts.saturating_add(1);
            if !last {
                return;
            }
        }
        Sent::Settlement(ref s) => {
            if r.settlement.is_none() {
                r.settlement = Some((**s).clone());
            }
            return;
        }
    }
    r.delivery.remove(n);
}

/// The live message was redrawn from the record at `version`: the hash of what it shows now,
/// and the results it shows.
pub fn drawn(r: &mut GameRecord, hash: u64, version: u64, shown: Shown, now_ms: u64) {
    r.delivery.drawn = hash;
    r.delivery.drawn_version = r.delivery.drawn_version.max(version);
    r.delivery.drawn_at = now_ms;
    r.mark_drawn(shown);
}

/// The mine question went to the shooter's private chat as `message`.
pub fn mine_asked(r: &mut GameRecord, message: i32) {
    r.delivery.mine_dm = Some(message);
}

/// The mine question `message` was closed.
pub fn mine_closed(r: &mut GameRecord, message: i32) {
    if r.delivery.mine_dm == Some(message) {
        r.delivery.mine_dm = None;
    }
}

/// Sets `v[i]`, growing `v` as needed.
fn put<T: Clone + Default>(v: &mut Vec<T>, i: usize, value: T) {
    if v.len() <= i {
        v.resize(i + 1, T::default());
    }
    v[i] = value;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::delivery::Effect;
    use engine::{Game, Ruleset};

    #[test]
    fn an_acknowledged_private_field_is_kept_and_taken_out_of_the_outbox() {
        let mut r = GameRecord::new(Game::new(Ruleset::default()), 1, 0);
        r.push_effect(Effect::Dm { seat: 1 });
        let n = r.delivery.outbox[0].n;
        acknowledge(&mut r, &Sent::Dm(1, Some(77), 5), 3, n, 1000);
        assert_eq!(r.delivery.dms, vec![None, Some(77)]);
        assert_eq!(r.delivery.dm_drawn, vec![0, 5]);
        assert!(r.delivery.outbox.is_empty());
        // A part of the announcement that is not the last keeps the effect.
        r.push_effect(Effect::Announce);
        let n = r.delivery.outbox[0].n;
        acknowledge(&mut r, &Sent::Part(false), 3, n, 1000);
        assert_eq!(r.delivery.outbox.len(), 1);
        assert_eq!(r.delivery.announced_parts, 1);
        acknowledge(&mut r, &Sent::Part(true), 3, n, 1000);
        assert!(r.delivery.outbox.is_empty());
    }

    #[test]
    fn the_mine_question_is_closed_only_if_it_is_the_one_asked() {
        let mut r = GameRecord::new(Game::new(Ruleset::default()), 1, 0);
        mine_asked(&mut r, 10);
        mine_closed(&mut r, 9);
        assert_eq!(r.delivery.mine_dm, Some(10));
        mine_closed(&mut r, 10);
        assert_eq!(r.delivery.mine_dm, None);
    }
}
