//! A game record as stored: one flat JSON object, the same an older bot wrote, with a
//! default for every field added since, so records of any bot decode.

use super::*;
use crate::game::delivery::Delivery;
use crate::game::lang::Lang;
use engine::ai::Level;
use engine::{Alphabet, Event, Game};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// A game record as stored: one flat object, new fields with defaults so that records of an
/// older bot still decode. [`GameRecord`] is written through it (borrowing) and read through
/// it (owning).
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    v: u16,
    game: Cow<'a, Game>,
    chat: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    topic: Option<i32>,
    #[serde(default, skip_serializing_if = "is_false")]
    own_topic: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    inline: Option<Cow<'a, str>>,
    created: u64,
    #[serde(default)]
    names: Cow<'a, [String]>,
    #[serde(default)]
    lang: Lang,
    #[serde(default = "default_alphabet")]
    alphabet: Alphabet,
    #[serde(default)]
    creator: u64,
    #[serde(default)]
    message: Option<i32>,
    #[serde(default)]
    generation: u32,
    #[serde(default)]
    block: u8,
    #[serde(
        default,
        serialize_with = "crate::game::log::serialize",
        deserialize_with = "owned_log"
    )]
    log: Cow<'a, [Event]>,
    #[serde(default)]
    log_total: u64,
    #[serde(default)]
    log_shown: u64,
    // Before it was kept: the last few results, as then.
    #[serde(default = "shown_from_before")]
    shown_from: u64,
    #[serde(default)]
    dms: Cow<'a, [Option<i32>]>,
    #[serde(default)]
    drawn: u64,
    #[serde(default)]
    announced: bool,
    #[serde(default)]
    ai_level: Level,
    #[serde(default, skip_serializing_if = "is_empty")]
    ai_salvos: Cow<'a, [AiSalvo]>,
    #[serde(default)]
    aim: Option<Cow<'a, Aim>>,
    #[serde(default, skip_serializing_if = "is_empty")]
    fields_behind: Cow<'a, [u8]>,
    #[serde(default)]
    mine_dm: Option<i32>,
    #[serde(default = "begun_before")]
    begun: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    panel: Option<SettingsPage>,
    #[serde(default, skip_serializing_if = "is_empty")]
    outbox: Cow<'a, [crate::game::delivery::Outgoing]>,
    #[serde(default)]
    effects_made: u64,
    #[serde(default)]
    drawn_version: u64,
    #[serde(default)]
    drawn_at: u64,
    #[serde(default)]
    announced_parts: u8,
    #[serde(default, skip_serializing_if = "is_empty")]
    answers: Cow<'a, [crate::game::delivery::Answered]>,
    #[serde(default, skip_serializing_if = "is_empty")]
    dm_drawn: Cow<'a, [u64]>,
    #[serde(default, skip_serializing_if = "is_empty")]
    dm_pictures: Cow<'a, [Option<i32>]>,
    #[serde(default, skip_serializing_if = "is_empty")]
    dm_picture_drawn: Cow<'a, [u64]>,
    #[serde(default, skip_serializing_if = "is_empty")]
    dm_drawn_at: Cow<'a, [u64]>,
    /// Written before the in-flight list (read, never written: an older record's edit on
    /// its way, of the live message).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    editing: Option<Cow<'a, (u64, String)>>,
    #[serde(default, skip_serializing_if = "is_empty")]
    in_flight: Cow<'a, [crate::game::delivery::InFlight]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rematch: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tournament: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    quick: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    riga: Option<Cow<'a, crate::game::riga_state::RigaPlay>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    settlement: Option<Cow<'a, Settlement>>,
    #[serde(default = "board_before")]
    board: Board,
    #[serde(default, skip_serializing_if = "is_false")]
    chat_gone: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    topic_gone: bool,
}

/// Whether a stored flag is off (not written then).
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

/// A record from before `shown_from` was kept: none, so the last few results show.
fn shown_from_before() -> u64 {
    u64::MAX
}

/// Whether a stored list is empty (serde hands `skip_serializing_if` the field itself).
#[allow(clippy::ptr_arg)]
fn is_empty<T: Clone>(list: &Cow<'_, [T]>) -> bool {
    list.is_empty()
}

/// The stored log, decoded (see `log.rs`).
fn owned_log<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Cow<'static, [Event]>, D::Error> {
    crate::game::log::deserialize(d).map(Cow::Owned)
}

impl Serialize for GameRecord {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = &self.delivery;
        let empty = SeaBattle::default();
        let (sea, riga) = match &self.play {
            Play::SeaBattle(sb) => (sb, None),
            Play::Riga(r) => (&empty, Some(Cow::Borrowed(r))),
        };
        Stored {
            v: self.v,
            game: Cow::Borrowed(&self.game),
            chat: self.chat,
            topic: self.topic,
            own_topic: self.own_topic,
            inline: self.inline.as_deref().map(Cow::Borrowed),
            created: self.created,
            names: Cow::Borrowed(&self.names),
            lang: self.lang,
            alphabet: self.alphabet,
            creator: self.creator,
            message: d.message,
            generation: d.generation,
            block: sea.block,
            log: Cow::Borrowed(&self.log),
            log_total: self.log_total,
            log_shown: d.log_shown,
            shown_from: d.shown_from,
            dms: Cow::Borrowed(&d.dms),
            drawn: d.drawn,
            announced: self.announced,
            ai_level: self.ai_level,
            ai_salvos: Cow::Borrowed(&sea.ai_salvos),
            aim: sea.aim.as_ref().map(Cow::Borrowed),
            fields_behind: Cow::Borrowed(&sea.fields_behind),
            mine_dm: d.mine_dm,
            begun: d.begun,
            panel: self.panel,
            outbox: Cow::Borrowed(&d.outbox),
            effects_made: d.effects_made,
            drawn_version: d.drawn_version,
            drawn_at: d.drawn_at,
            announced_parts: d.announced_parts,
            answers: Cow::Borrowed(&d.answers),
            dm_drawn: Cow::Borrowed(&d.dm_drawn),
            dm_pictures: Cow::Borrowed(&d.dm_pictures),
            dm_picture_drawn: Cow::Borrowed(&d.dm_picture_drawn),
            dm_drawn_at: Cow::Borrowed(&d.dm_drawn_at),
            editing: None,
            in_flight: Cow::Borrowed(&d.in_flight),
            rematch: self.rematch,
            tournament: self.tournament,
            quick: self.quick,
            riga,
            settlement: self.settlement.as_ref().map(Cow::Borrowed),
            board: self.board,
            chat_gone: d.chat_gone,
            topic_gone: d.topic_gone,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for GameRecord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameRecord, D::Error> {
        let w = Stored::deserialize(d)?;
        let play = match w.riga {
            Some(riga) => Play::Riga(riga.into_owned()),
            None => Play::SeaBattle(SeaBattle {
                block: w.block,
                ai_salvos: w.ai_salvos.into_owned(),
                aim: w.aim.map(Cow::into_owned),
                fields_behind: w.fields_behind.into_owned(),
            }),
        };
        Ok(GameRecord {
            v: w.v,
            game: w.game.into_owned(),
            play,
            chat: w.chat,
            topic: w.topic,
            own_topic: w.own_topic,
            inline: w.inline.map(Cow::into_owned),
            created: w.created,
            names: w.names.into_owned(),
            lang: w.lang,
            alphabet: w.alphabet,
            creator: w.creator,
            log: w.log.into_owned(),
            log_total: w.log_total,
            announced: w.announced,
            ai_level: w.ai_level,
            panel: w.panel,
            rematch: w.rematch,
            tournament: w.tournament,
            quick: w.quick,
            settlement: w.settlement.map(Cow::into_owned),
            board: w.board,
            delivery: Delivery {
                message: w.message,
                generation: w.generation,
                log_shown: w.log_shown,
                shown_from: w.shown_from,
                dms: w.dms.into_owned(),
                drawn: w.drawn,
                mine_dm: w.mine_dm,
                begun: w.begun,
                outbox: w.outbox.into_owned(),
                effects_made: w.effects_made,
                drawn_version: w.drawn_version,
                drawn_at: w.drawn_at,
                announced_parts: w.announced_parts,
                answers: w.answers.into_owned(),
                dm_drawn: w.dm_drawn.into_owned(),
                dm_pictures: w.dm_pictures.into_owned(),
                dm_picture_drawn: w.dm_picture_drawn.into_owned(),
                dm_drawn_at: w.dm_drawn_at.into_owned(),
                in_flight: {
                    let mut list = w.in_flight.into_owned();
                    if let Some(old) = w.editing {
                        let (hash, token) = old.into_owned();
                        list.push(crate::game::delivery::InFlight {
                            to: crate::game::delivery::EditOf::Live,
                            hash,
                            token,
                            variant: 0,
                        });
                    }
                    list
                },
                chat_gone: w.chat_gone,
                topic_gone: w.topic_gone,
            },
        })
    }
}

fn board_before() -> Board {
    Board::Text
}

fn begun_before() -> bool {
    true
}

fn default_alphabet() -> Alphabet {
    Alphabet::Latin
}
