//! What a game asks to be sent: its outbox, and the effects that follow from its state.
//!
//! A handler never sends to Telegram. It changes the game's record in one atomic transition,
//! and that same change puts in the record's outbox everything it must make visible: a new
//! live message, a private field to redraw, the end's announcement. The game's one sender
//! (`telegram/outbox.rs`) delivers them in order and removes each once sent, so a crash at
//! any point loses none. The group's live message itself is no effect: the sender draws it
//! from the latest record whenever it differs from what was last drawn.

use crate::game::record::{is_ai, GameRecord};
use engine::{Event, Phase, SeatId};
use serde::{Deserialize, Serialize};

/// One thing to send.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "kebab-case")]
pub enum Effect {
    /// The game's live message is sent anew (a new lobby, or the battle's own message); its
    /// id becomes the record's `message`.
    LiveMessage,
    /// An old live message loses its buttons and says the words of `key`.
    Retire {
        /// The message.
        message: i32,
        /// Its new words, a localisation key.
        key: String,
    },
    /// A seat's private message is opened (the placement editor) or brought up to date
    /// (the own field).
    Dm {
        /// The seat.
        seat: u8,
    },
    /// The mine question in the shooter's private chat is asked, updated or closed, after
    /// these events.
    Mine {
        /// The events of the move that asked or answered it.
        events: Vec<Event>,
    },
    /// The end, in storage: the players are free for another game and their statistics
    /// counted.
    Settle,
    /// The end's announcement: the winner, every fleet and salt, and the Rematch button.
    Announce,
    /// Words for a chat, already localised (HTML).
    Notice {
        /// The chat.
        chat: i64,
        /// The words.
        text: String,
    },
}

/// An effect in the outbox, numbered so that its sender removes exactly it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outgoing {
    /// Its number in this game.
    pub n: u64,
    /// What to send.
    pub effect: Effect,
}

/// The answer a button press got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answered {
    /// The callback query's id.
    pub query: String,
    /// The words.
    pub text: String,
    /// Whether they were an alert.
    #[serde(default)]
    pub alert: bool,
}

/// How many answers a record keeps: a redelivered press comes within seconds.
pub const ANSWERS_KEPT: usize = 16;

impl GameRecord {
    /// Puts an effect in the outbox. An effect that draws from the latest state (a private
    /// field, the end) is not put twice: the one waiting will draw the newest. A private
    /// field asked for again gets a new number, though: its sender may be drawing it from
    /// an older record right now, and its acknowledgement (of the old number) must not take
    /// the new request away. Drawn again, it sends nothing when nothing changed.
    pub fn push_effect(&mut self, effect: Effect) {
        let coalesces = matches!(
            effect,
            Effect::Dm { .. } | Effect::LiveMessage | Effect::Settle | Effect::Announce
        );
        if coalesces {
            if let Some(i) = self.delivery.outbox.iter().position(|o| o.effect == effect) {
                if matches!(effect, Effect::Dm { .. }) {
                    self.delivery.effects_made += 1;
                    self.delivery.outbox[i].n = self.delivery.effects_made;
                }
                return;
            }
        }
        self.delivery.effects_made += 1;
        self.delivery.outbox.push(Outgoing {
            n: self.delivery.effects_made,
            effect,
        });
    }

    /// Removes effect `n` once it is sent; `false` when it was not there.
    pub fn remove_effect(&mut self, n: u64) -> bool {
        let before = self.delivery.outbox.len();
        self.delivery.outbox.retain(|o| o.n != n);
        self.delivery.outbox.len() != before
    }

    /// The answer a press already got, if this is its update again.
    pub fn answered(&self, query: &str) -> Option<&Answered> {
        self.delivery.answers.iter().find(|a| a.query == query)
    }

    /// Keeps the answer to a press, with the change it made.
    pub fn remember_answer(&mut self, query: &str, text: &str, alert: bool) {
        self.delivery.answers.retain(|a| a.query != query);
        self.delivery.answers.push(Answered {
            query: query.to_owned(),
            text: text.to_owned(),
            alert,
        });
        if self.delivery.answers.len() > ANSWERS_KEPT {
            self.delivery.answers.remove(0);
        }
    }

    /// The seats people play (not the bot).
    pub fn human_seats(&self) -> Vec<SeatId> {
        (0..self.game.seats().len() as u8)
            .map(SeatId)
            .filter(|s| !is_ai(self.game.seats()[s.index()].player))
            .collect()
    }

    /// The effects that follow from the state itself, whichever change led to it: the
    /// battle's beginning (the lobby's message retired, the battle's own message, every
    /// private field) and the end (the players freed, the announcement). Called by the store
    /// on every transition, so no path that begins or ends a game can forget them; each
    /// happens once.
    pub fn derive_effects(&mut self) {
        if let Some(riga) = self.riga() {
            // A Riga game begins when both fleets are ordered, and its Sea Battle game (the
            // lobby's) ends with it.
            let (begins, ends) = (riga.game.is_some(), riga.end.is_some());
            if begins && !self.delivery.begun {
                self.begin_battle();
            }
            if ends && !self.game.is_finished() {
                let mut unused = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
                let _ = self.game.apply(engine::Action::Cancel, 0, &mut unused);
            }
        }
        match self.game.phase() {
            Phase::Battle if !self.delivery.begun => self.begin_battle(),
            Phase::Finished { .. } if !self.announced => {
                self.announced = true;
                self.push_effect(Effect::Settle);
                let riga_played = self.riga().is_some_and(|r| r.game.is_some());
                if self.game.fleet(SeatId(0)).is_some() || riga_played {
                    self.push_effect(Effect::Announce);
                }
                // Every private field says the game is over, the winner's too.
                for s in self.human_seats() {
                    self.push_effect(Effect::Dm { seat: s.0 });
                }
            }
            _ => {}
        }
    }

    /// The battle's beginning: the lobby's message retired, the battle's own message, every
    /// private field.
    fn begin_battle(&mut self) {
        self.delivery.begun = true;
        // The old message's buttons are of the old generation.
        self.delivery.generation += 1;
        if let Some(old) = self.delivery.message.take() {
            self.push_effect(Effect::Retire {
                message: old,
                key: "lobby-battle-started".into(),
            });
        }
        self.delivery.drawn = 0;
        self.push_effect(Effect::LiveMessage);
        for s in self.human_seats() {
            self.push_effect(Effect::Dm { seat: s.0 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{random_fleet, Action, Game, PlayerId, Ruleset};
    use rand::SeedableRng;

    fn placing() -> (GameRecord, rand::rngs::StdRng) {
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut game = Game::new(Ruleset::default());
        for p in 1..=2 {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        let mut rec = GameRecord::new(game, -1, 0);
        rec.delivery.begun = false;
        rec.delivery.message = Some(5);
        (rec, rng)
    }

    #[test]
    fn the_battle_begins_with_its_effects_once() {
        let (mut rec, mut rng) = placing();
        rec.derive_effects();
        assert!(rec.delivery.outbox.is_empty(), "nothing before the battle");
        for s in 0..2 {
            let fleet = random_fleet(&Ruleset::default(), &mut rng).unwrap();
            rec.game
                .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        rec.derive_effects();
        rec.derive_effects();
        let kinds: Vec<Effect> = rec
            .delivery
            .outbox
            .iter()
            .map(|o| o.effect.clone())
            .collect();
        assert_eq!(
            kinds,
            vec![
                Effect::Retire {
                    message: 5,
                    key: "lobby-battle-started".into()
                },
                Effect::LiveMessage,
                Effect::Dm { seat: 0 },
                Effect::Dm { seat: 1 },
            ]
        );
        assert_eq!(rec.delivery.message, None);
        assert_eq!(rec.delivery.generation, 1);
    }

    #[test]
    fn the_end_is_settled_and_announced_once() {
        let (mut rec, mut rng) = placing();
        rec.delivery.begun = true;
        for s in 0..2 {
            let fleet = random_fleet(&Ruleset::default(), &mut rng).unwrap();
            rec.game
                .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        rec.game
            .apply(Action::Surrender(SeatId(0)), 0, &mut rng)
            .unwrap();
        rec.derive_effects();
        rec.derive_effects();
        let kinds: Vec<Effect> = rec
            .delivery
            .outbox
            .iter()
            .map(|o| o.effect.clone())
            .collect();
        assert_eq!(
            kinds,
            vec![
                Effect::Settle,
                Effect::Announce,
                Effect::Dm { seat: 0 },
                Effect::Dm { seat: 1 }
            ]
        );
        assert!(rec.remove_effect(1));
        assert!(!rec.remove_effect(1));
        assert_eq!(rec.delivery.outbox.len(), 3);
    }

    #[test]
    fn a_private_field_waiting_is_not_queued_twice_and_answers_are_bounded() {
        let (mut rec, _) = placing();
        rec.push_effect(Effect::Dm { seat: 1 });
        let drawing = rec.delivery.outbox[0].n;
        rec.push_effect(Effect::Dm { seat: 1 });
        rec.push_effect(Effect::Dm { seat: 0 });
        assert_eq!(rec.delivery.outbox.len(), 2);
        // The field asked for again while the first request was being drawn: the first
        // one's acknowledgement leaves the second.
        assert!(!rec.remove_effect(drawing));
        assert_eq!(rec.delivery.outbox[0].effect, Effect::Dm { seat: 1 });
        for i in 0..40 {
            rec.remember_answer(&i.to_string(), "miss", false);
        }
        assert_eq!(rec.delivery.answers.len(), ANSWERS_KEPT);
        assert!(rec.answered("39").is_some());
        assert!(rec.answered("0").is_none());
    }
}
