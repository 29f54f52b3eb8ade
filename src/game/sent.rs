//! What the sender's deliveries leave in the record: the live message's id and what it
//! shows, each private message's, the announcement's parts, the end's settlement, the mine
//! question. The sender delivers an effect, then acknowledges it here, in a transition
//! fenced by its lease.

use super::delivery::{EditOf, Effect, Shown};
use super::record::{GameRecord, Settlement};
use crate::game::record::Play;

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
    /// A seat's own field as a picture: its id (when new), the hash of what it shows, and of
    /// its picture alone.
    DmPicture(u8, Option<i32>, u64, u64),
    /// One part of the announcement went; `true` when it was the last.
    Part(bool),
    /// The end's settlement, worked out: stored, and the effect stays to write it.
    Settlement(Box<Settlement>),
    /// Telegram says the bot can no more write in the game's group (it was removed, or the
    /// group is gone): see [`chat_gone`].
    ChatGone,
    /// Telegram says the game's forum topic is closed or gone: see [`topic_gone`].
    TopicGone,
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
            r.delivery.edit_landed(EditOf::Dm { seat });
            let i = usize::from(seat);
            if let Some(m) = message {
                put(&mut r.delivery.dms, i, Some(m));
            }
            put(&mut r.delivery.dm_drawn, i, hash);
        }
        Sent::DmPicture(seat, message, hash, picture) => {
            r.delivery.edit_landed(EditOf::Dm { seat });
            let i = usize::from(seat);
            if let Some(m) = message {
                put(&mut r.delivery.dm_pictures, i, Some(m));
            }
            put(&mut r.delivery.dm_drawn, i, hash);
            put(&mut r.delivery.dm_picture_drawn, i, picture);
            put(&mut r.delivery.dm_drawn_at, i, now_ms);
        }
        Sent::Part(last) => {
            r.delivery.announced_parts = r.delivery.announced_parts.saturating_add(1);
            if !last {
                return;
            }
        }
        Sent::ChatGone => chat_gone(r),
        Sent::TopicGone => topic_gone(r),
        Sent::Settlement(ref s) => {
            if r.settlement.is_none() {
                r.settlement = Some((**s).clone());
            }
            return;
        }
    }
    r.delivery.edit_landed(EditOf::Effect { n });
    r.delivery.remove(n);
}

/// The game's chat is gone (the bot was removed from the group, or the group deleted): the
/// game ends, called off in whatever phase (no rating moves, no statistics count), nothing
/// waiting for that chat is sent, nor anything after, and the end's settlement frees the
/// players for other games as at any end. Their private chats are told as at any end, and,
/// when the game was still on, told why.
pub fn chat_gone(r: &mut GameRecord) {
    place_gone(r, "called-off-chat");
}

/// The game's forum topic was closed or deleted: the game ends as when its chat is gone
/// ([`chat_gone`]); the chat's other topics play on.
pub fn topic_gone(r: &mut GameRecord) {
    r.delivery.topic_gone = true;
    place_gone(r, "called-off-topic");
}

fn place_gone(r: &mut GameRecord, why: &str) {
    let was_on = match &mut r.play {
        Play::SeaBattle(_) => !r.game.is_finished(),
        Play::Riga(riga) => {
            let on = riga.end.is_none();
            if on {
                riga.end = Some(crate::game::riga_state::RigaEnd::Cancelled);
            }
            on || !r.game.is_finished()
        }
    };
    r.delivery.chat_gone = true;
    r.delivery.message = None;
    if !r.game.is_finished() {
        // Calling off draws nothing; the source is only the engine's signature.
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
        let _ = r.game.apply(engine::Action::Abandon, 0, &mut rng);
    }
    let chat = r.chat;
    r.delivery.outbox.retain(|o| !o.effect.in_chat(chat));
    r.derive_effects();
    if was_on {
        for s in r.human_seats() {
            r.push_effect(Effect::Tell {
                seat: s.0,
                key: why.to_owned(),
            });
        }
    }
}

/// The live message was redrawn from the record at `version`: the hash of what it shows now,
/// and the results it shows.
pub fn drawn(r: &mut GameRecord, hash: u64, version: u64, shown: Shown, now_ms: u64) {
    r.delivery.edit_landed(EditOf::Live);
    r.delivery.drawn = hash;
    r.delivery.drawn_version = r.delivery.drawn_version.max(version);
    r.delivery.drawn_at = now_ms;
    r.mark_drawn(shown);
}

/// The sender holding `token` is about to edit `to` to show `hash`: the variant to send it
/// as (see [`crate::game::delivery::Delivery::edit_on_its_way`]).
pub fn editing(r: &mut GameRecord, to: EditOf, hash: u64, token: &str) -> u8 {
    r.delivery.edit_on_its_way(to, hash, token)
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
    fn a_battle_whose_group_is_gone_is_called_off_and_sends_nothing_there_again() {
        use engine::{random_fleet, Action, EndReason, Phase, PlayerId, SeatId};
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let mut game = Game::new(Ruleset::default());
        for p in [7, 8] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        let mut r = GameRecord::new(game, -100, 0);
        for s in 0..2 {
            let fleet = random_fleet(&Ruleset::default(), &mut rng).unwrap();
            r.game
                .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        r.derive_effects();
        r.delivery.outbox.clear();
        r.delivery.message = Some(5);
        r.push_effect(Effect::Notice {
            chat: -100,
            text: "x".into(),
        });
        r.push_effect(Effect::Dm { seat: 0 });
        acknowledge(&mut r, &Sent::ChatGone, 1, 1, 0);
        assert!(matches!(
            r.game.phase(),
            Phase::Finished { winners, reason: EndReason::Cancelled } if winners.is_empty()
        ));
        assert_eq!(r.delivery.message, None);
        let kinds: Vec<Effect> = r.delivery.outbox.iter().map(|o| o.effect.clone()).collect();
        // Settled (the players freed), the private fields drawn and told why; no
        // announcement, no notice.
        let told = |seat| Effect::Tell {
            seat,
            key: "called-off-chat".into(),
        };
        assert_eq!(
            kinds,
            vec![
                Effect::Dm { seat: 0 },
                Effect::Settle,
                Effect::Dm { seat: 1 },
                told(0),
                told(1)
            ]
        );
        assert!(crate::game::rating::outcome(&r).is_none());
        r.push_effect(Effect::LiveMessage);
        assert!(!r
            .delivery
            .outbox
            .iter()
            .any(|o| o.effect == Effect::LiveMessage));
        // A record with the flag reads back with it.
        let json = serde_json::to_string(&r).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert!(back.delivery.chat_gone);
        // Gone again (a late refusal), nobody is told twice.
        chat_gone(&mut r);
        let tells = r
            .delivery
            .outbox
            .iter()
            .filter(|o| matches!(o.effect, Effect::Tell { .. }))
            .count();
        assert_eq!(tells, 2);
    }

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
