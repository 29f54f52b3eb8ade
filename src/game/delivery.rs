//! What a game asks to be sent: its outbox, and the effects that follow from its state.
//!
//! A handler never sends to Telegram. It changes the game's record in one atomic transition,
//! and that same change puts in the record's outbox everything it must make visible: a new
//! live message, a private field to redraw, the end's announcement. The game's one sender
//! (`telegram/sender/`) delivers them in order and removes each once sent, so a crash at
//! any point loses none. The group's live message itself is no effect: the sender draws it
//! from the latest record whenever it differs from what was last drawn.

use engine::Event;
use serde::{Deserialize, Serialize};

/// Which message an edit on its way changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "kebab-case")]
pub enum EditOf {
    /// The game's live message.
    Live,
    /// A seat's private message (its editor or own field, text or picture).
    Dm {
        /// The seat.
        seat: u8,
    },
    /// The message an effect edits (an old live message retired).
    Effect {
        /// The effect's number.
        n: u64,
    },
}

/// An edit on its way (see [`Delivery::in_flight`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlight {
    /// The message.
    pub to: EditOf,
    /// A hash of what the edit shows (its variant aside).
    pub hash: u64,
    /// The lease token of the sender that made it.
    pub token: String,
    /// How many invisible marks its text carried: an edit sent again after one of unknown
    /// fate carries one more, so it differs from whatever the message shows.
    #[serde(default)]
    pub variant: u8,
}

/// `text` as variant `variant` of itself: as many word joiners (U+2060, invisible, not
/// whitespace) at its end. Two variants of one text always differ.
pub fn variant_of(text: &str, variant: u8) -> String {
    let mut out = String::with_capacity(text.len() + 3 * usize::from(variant));
    out.push_str(text);
    out.extend(std::iter::repeat_n('\u{2060}', usize::from(variant)));
    out
}

impl Delivery {
    /// The variant an edit of `to` showing `hash` must be sent as, and marks it on its way
    /// for the sender holding `token`: the plain text (0), unless an edit of the same
    /// content is on its way unacknowledged (its fate unknown), then one more than it.
    pub fn edit_on_its_way(&mut self, to: EditOf, hash: u64, token: &str) -> u8 {
        let variant = self
            .in_flight
            .iter()
            .find(|f| f.to == to && f.hash == hash)
            .map_or(0, |f| f.variant.saturating_add(1));
        self.in_flight.retain(|f| f.to != to);
        self.in_flight.push(InFlight {
            to,
            hash,
            token: token.to_owned(),
            variant,
        });
        variant
    }

    /// The edit of `to` was acknowledged (or needs no more care).
    pub fn edit_landed(&mut self, to: EditOf) {
        self.in_flight.retain(|f| f.to != to);
    }
}

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
    /// The game's own forum topic is named after its players (the battle begun).
    NameTopic,
    /// The game's own forum topic is closed (the game over).
    CloseTopic,
    /// Words for a seat's private chat, in its player's language: a localisation key.
    Tell {
        /// The seat.
        seat: u8,
        /// The words, a localisation key.
        key: String,
    },
    /// Words for a chat, already localised (HTML).
    Notice {
        /// The chat.
        chat: i64,
        /// The words.
        text: String,
    },
}

impl Effect {
    /// Whether it sends to or edits in the game's chat `chat`.
    pub fn in_chat(&self, chat: i64) -> bool {
        match self {
            Effect::LiveMessage
            | Effect::Retire { .. }
            | Effect::Announce
            | Effect::NameTopic
            | Effect::CloseTopic => true,
            Effect::Notice { chat: c, .. } => *c == chat,
            Effect::Dm { .. } | Effect::Tell { .. } | Effect::Mine { .. } | Effect::Settle => false,
        }
    }
}

/// Which of the game's results (numbered from the first of the game, `log_total` counting)
/// a drawing of the live message shows: `from..to`. Every result before `to` has been shown
/// once it is drawn; the next drawing starts with `to` when some were left for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Shown {
    /// The first result it shows (or would, when the oldest ones did not fit).
    pub from: u64,
    /// One past the last result it shows.
    pub to: u64,
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

/// The game's messages in Telegram and what its sender has done with them. Transitions put
/// effects in the outbox and read the message ids; the sender's acknowledgements write the
/// rest (see `delivery.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delivery {
    /// The group's live message: the lobby, then the battle.
    pub message: Option<i32>,
    /// Bumped whenever the live message is replaced: buttons carry it, so a button of an old
    /// message answers "out of date".
    pub generation: u32,
    /// How many of the logged results the group's message has shown.
    pub log_shown: u64,
    /// The first result the live message's latest drawing showed: drawn again from the
    /// same results, it shows the same lines.
    pub shown_from: u64,
    /// The private message of each seat: the placement editor, then the own field.
    pub dms: Vec<Option<i32>>,
    /// A hash of the live message as last drawn, so an unchanged state is not drawn again.
    pub drawn: u64,
    /// The private message asking the shooter to give up a cell after a mine.
    pub mine_dm: Option<i32>,
    /// Whether the battle has its own message yet. Between the last fleet's Ready and that
    /// message, the lobby's message is not redrawn as a battle (its buttons would be of the
    /// old generation). Older records were begun.
    pub begun: bool,
    /// What this game still has to send, in order (see `delivery.rs`): written in the same
    /// atomic change as the state that asks for it, removed by the game's sender once sent.
    pub outbox: Vec<Outgoing>,
    /// The number of the last effect put in the outbox.
    pub effects_made: u64,
    /// The stored version of the record the live message was last drawn from: an edit of an
    /// older version is never sent.
    pub drawn_version: u64,
    /// When the live message was last drawn (Unix milliseconds), for the gap between edits.
    pub drawn_at: u64,
    /// How many parts of the end's announcement have been sent.
    pub announced_parts: u8,
    /// Answers to the latest button presses, so a press whose update comes again (after a
    /// crash) gets the answer it earned, not a refusal of its own repeat.
    pub answers: Vec<Answered>,
    /// A hash of each seat's private message as last drawn.
    pub dm_drawn: Vec<u64>,
    /// Each seat's own field as a picture, in a game whose fields are pictures: sent when the
    /// battle begins, after the placement's message.
    pub dm_pictures: Vec<Option<i32>>,
    /// A hash of the picture alone of each seat's own field as last drawn: when only its
    /// caption changes (whose turn it is), the caption is edited and nothing is uploaded.
    pub dm_picture_drawn: Vec<u64>,
    /// When each seat's own field was last drawn as a picture (Unix milliseconds), for the
    /// gap between its redraws.
    pub dm_drawn_at: Vec<u64>,
    /// Edits on their way (of the live message, a seat's private message, an old message
    /// retired): stored just before each request, cleared when it is acknowledged. A sender
    /// that finds one unacknowledged for the very content it would send cannot know whether
    /// it landed (the process died between Telegram's answer and the acknowledgement, or
    /// before the request went): it sends it again as a variant that differs from it
    /// ([`InFlight::variant`]), so the edit is never lost and Telegram never finds it
    /// "not modified".
    pub in_flight: Vec<InFlight>,
    /// The game's chat is gone (the bot was removed from the group), or its forum topic
    /// (closed or deleted): nothing more is sent there.
    pub chat_gone: bool,
    /// What went of the place: its forum topic, not the whole chat.
    pub topic_gone: bool,
}

impl Delivery {
    /// Puts an effect in the outbox. An effect that draws from the latest state (a private
    /// field, the end) is not put twice: the one waiting will draw the newest. A private
    /// field asked for again gets a new number, though: its sender may be drawing it from
    /// an older record right now, and its acknowledgement (of the old number) must not take
    /// the new request away. Drawn again, it sends nothing when nothing changed.
    pub fn push(&mut self, effect: Effect) {
        let coalesces = matches!(
            effect,
            Effect::Dm { .. } | Effect::LiveMessage | Effect::Settle | Effect::Announce
        );
        if coalesces {
            if let Some(i) = self.outbox.iter().position(|o| o.effect == effect) {
                if matches!(effect, Effect::Dm { .. }) {
                    self.effects_made += 1;
                    self.outbox[i].n = self.effects_made;
                }
                return;
            }
        }
        self.effects_made += 1;
        self.outbox.push(Outgoing {
            n: self.effects_made,
            effect,
        });
    }

    /// Removes effect `n` once it is sent; `false` when it was not there.
    pub fn remove(&mut self, n: u64) -> bool {
        let before = self.outbox.len();
        self.outbox.retain(|o| o.n != n);
        self.outbox.len() != before
    }

    /// The answer a press already got, if this is its update again.
    pub fn answered(&self, query: &str) -> Option<&Answered> {
        self.answers.iter().find(|a| a.query == query)
    }

    /// Keeps the answer to a press, with the change it made.
    pub fn remember_answer(&mut self, query: &str, text: &str, alert: bool) {
        self.answers.retain(|a| a.query != query);
        self.answers.push(Answered {
            query: query.to_owned(),
            text: text.to_owned(),
            alert,
        });
        if self.answers.len() > ANSWERS_KEPT {
            self.answers.remove(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::GameRecord;
    use engine::{random_fleet, Action, Game, PlayerId, Ruleset, SeatId};
    use rand::SeedableRng;

    /// An edit whose fate is unknown (marked on its way, never acknowledged) is sent again as
    /// a variant that differs from it, and from the one before it: never "not modified",
    /// never lost. An acknowledged edit leaves no mark.
    #[test]
    fn an_edit_of_unknown_fate_is_sent_again_as_another_variant() {
        let mut d = Delivery::default();
        assert_eq!(d.edit_on_its_way(EditOf::Live, 7, "a/1"), 0);
        // The sender died before the acknowledgement: the next one sends variant 1, then 2.
        assert_eq!(d.edit_on_its_way(EditOf::Live, 7, "b/1"), 1);
        assert_eq!(d.edit_on_its_way(EditOf::Live, 7, "c/1"), 2);
        let texts: Vec<String> = (0..3).map(|v| variant_of("<b>A1</b> — miss", v)).collect();
        assert_eq!(texts[0], "<b>A1</b> — miss");
        assert!(texts[1] != texts[0] && texts[2] != texts[1] && texts[2] != texts[0]);
        assert_eq!(texts[2].trim_end(), texts[2], "the marks are no whitespace");
        // Another content, or another message, starts again from the plain text.
        assert_eq!(d.edit_on_its_way(EditOf::Live, 8, "c/1"), 0);
        assert_eq!(d.edit_on_its_way(EditOf::Dm { seat: 1 }, 8, "c/1"), 0);
        assert_eq!(d.in_flight.len(), 2);
        d.edit_landed(EditOf::Live);
        assert_eq!(d.edit_on_its_way(EditOf::Live, 8, "c/1"), 0);
        d.edit_landed(EditOf::Live);
        d.edit_landed(EditOf::Dm { seat: 1 });
        assert!(d.in_flight.is_empty());
    }

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
        assert!(rec.delivery.remove(1));
        assert!(!rec.delivery.remove(1));
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
        assert!(!rec.delivery.remove(drawing));
        assert_eq!(rec.delivery.outbox[0].effect, Effect::Dm { seat: 1 });
        for i in 0..40 {
            rec.delivery.remember_answer(&i.to_string(), "miss", false);
        }
        assert_eq!(rec.delivery.answers.len(), ANSWERS_KEPT);
        assert!(rec.delivery.answered("39").is_some());
        assert!(rec.delivery.answered("0").is_none());
    }
}
