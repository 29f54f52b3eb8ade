//! What the bot stores: a game with its chat context, chat and user settings, statistics.
//!
//! Every stored type derives serde and carries a schema version `v`; new fields come with
//! `#[serde(default)]` so records written by an older bot still decode.

use crate::game::delivery::{Delivery, Effect, Shown};
use crate::game::lang::Lang;
use engine::ai::Level;
use engine::{Alphabet, Coord, Draft, Event, Game, Phase, PlayerId, Ruleset, SeatId};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The schema version of the records in this file.
pub const RECORD_VERSION: u16 = 1;

/// One game and what the bot needs around it: who plays it where, the game itself
/// ([`Play`]), and what delivering it to Telegram has done so far ([`Delivery`]).
///
/// Stored as one flat JSON object (see [`Stored`]), the same the bot has always written, so
/// records of an older bot decode and an older bot decodes these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Schema version.
    pub v: u16,
    /// The engine's Sea Battle game. In a Riga game it seats the two players with the
    /// engine's lobby rules (a duel) and keeps the lobby's phase; the Riga game itself is in
    /// [`Play::Riga`].
    pub game: Game,
    /// Which game this is, and what only that game keeps.
    pub play: Play,
    /// The chat the game belongs to (a group, or a private chat for a game against the AI).
    pub chat: i64,
    /// The forum topic of the chat the game lives in (its thread id); `None` outside forums
    /// and in a forum's General topic.
    pub topic: Option<i32>,
    /// The topic was made for this game (a forum's "own topic per game"): renamed after the
    /// players when the battle begins, closed when the game ends.
    pub own_topic: bool,
    /// The inline message the game lives in (a card sent through inline mode, in a chat the
    /// bot cannot see): its `inline_message_id`. Its [`GameRecord::chat`] is then only a key
    /// of the message ([`inline_chat`]), never sent to.
    pub inline: Option<String>,
    /// When the record was created (Unix seconds).
    pub created: u64,
    /// Display names of the players, by seat.
    pub names: Vec<String>,
    /// The group's language for this game.
    pub lang: Lang,
    /// The column letters of this game.
    pub alphabet: Alphabet,
    /// Who created the game (may start and cancel it).
    pub creator: u64,
    /// The game's results, oldest first: every one (up to [`LOG_MAX`]), for the group's
    /// message (its latest, or a burst not shown yet) and the whole log at the end. Stored
    /// compactly (see `log.rs`).
    pub log: Vec<Event>,
    /// How many results were ever logged.
    pub log_total: u64,
    /// Whether the end's effects (settlement, announcement, the fields) have been queued.
    pub announced: bool,
    /// How well the bot plays its seats in this game (when it has any).
    pub ai_level: Level,
    /// The page of the settings panel the lobby message shows, while the creator has it open.
    pub panel: Option<SettingsPage>,
    /// The game a Rematch press of this one created.
    pub rematch: Option<u64>,
    /// What the end of the game writes to the ratings and statistics, worked out once (by
    /// the game's sender, from the values before the game) and written whole, so writing it
    /// again after a crash changes nothing.
    pub settlement: Option<Settlement>,
    /// How the fields are shown: as a picture or as text. Games stored before pictures were
    /// drawn as text and stay so.
    pub board: Board,
    /// The messages the game has in Telegram and what its sender has done: its own part of
    /// the record, changed by the sender's acknowledgements (`delivery.rs`).
    pub delivery: Delivery,
}

/// Which game a record plays: matched exhaustively, so a new game is an arm the compiler
/// walks every use through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Play {
    /// Sea Battle (docs/rules.md §1–§4): the engine's game in [`GameRecord::game`].
    SeaBattle(SeaBattle),
    /// The Riga board game (docs/rules.md §5): its set-up, battle and end (see `riga.rs`).
    Riga(crate::game::riga_state::RigaPlay),
}

/// What a Sea Battle game keeps besides the engine's game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeaBattle {
    /// Which block of the target field the battle keyboard shows.
    pub block: u8,
    /// The bot's own salvoes and their answers, which no view keeps (only the count of hits
    /// is told): its seats aim the next salvoes by them.
    pub ai_salvos: Vec<AiSalvo>,
    /// The shooter's aim in the battle message: the field chosen (free-for-all, teams) and
    /// the cells picked for a salvo. See [`GameRecord::current_aim`].
    pub aim: Option<Aim>,
    /// The seats whose private own field is behind the game (a field it shows was shot at
    /// since it was last queued for a redraw): redrawn when the turn passes to them, at the
    /// end, or when the player asks (see `battle.rs`), not after every shot on it.
    pub fields_behind: Vec<u8>,
}

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

/// How a chat sees the fields: a picture (the default), or monospace text for screen readers
/// and slow networks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Board {
    /// A PNG with the buttons under it.
    #[default]
    Picture,
    /// Monospace text.
    Text,
}

impl Board {
    /// Both, in the order the settings show them.
    pub const ALL: [Board; 2] = [Board::Picture, Board::Text];
}

impl std::str::FromStr for Board {
    type Err = ();
    fn from_str(s: &str) -> Result<Board, ()> {
        match s {
            "picture" | "p" => Ok(Board::Picture),
            "text" | "t" => Ok(Board::Text),
            _ => Err(()),
        }
    }
}

fn board_before() -> Board {
    Board::Text
}

fn begun_before() -> bool {
    true
}

/// Where the shooter aims: a field, and in salvo games the cells picked so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aim {
    /// Who aims.
    pub shooter: SeatId,
    /// At whose field.
    pub target: SeatId,
    /// The cells picked for the next salvo, in the order tapped.
    #[serde(default)]
    pub picked: Vec<Coord>,
    /// The weapon of the arsenal the next cell fires (docs/rules.md §3.8), once armed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armed: Option<engine::Weapon>,
    /// A corner tapped with the torpedo armed: its heading is asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corner: Option<Coord>,
}

/// A page of the settings panel (`/settings`, the lobby's ⚙ button).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettingsPage {
    /// Every option with its value, the column letters, the bot's level, seats, Done.
    Main,
    /// Which ships may touch.
    Touching,
    /// Ship shapes.
    Shapes,
    /// The field and fleet, and the custom field's controls.
    Field,
    /// Salvo off or its size.
    Salvo,
    /// Mines per player.
    Mines,
    /// The arsenal (docs/rules.md §3.8).
    Arsenal,
    /// Who plays.
    Players,
    /// The turn timer.
    Timer,
}

/// One salvo of the bot's and what it was told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiSalvo {
    /// The bot's seat that fired.
    pub seat: u8,
    /// Whose field.
    pub target: u8,
    /// The cells fired at.
    pub cells: Vec<Coord>,
    /// How many hit a ship.
    pub hits: u8,
    /// How many hit a mine.
    pub mines: u8,
}

/// The first player id of the bot's own seats: Telegram's user ids stay far below it.
pub const AI_PLAYER_BASE: u64 = u64::MAX - 0xFF;

/// The player id of the bot's `n`-th seat in a game.
pub fn ai_player(n: u8) -> PlayerId {
    PlayerId(AI_PLAYER_BASE + u64::from(n))
}

/// Whether a player is the bot itself.
pub fn is_ai(player: PlayerId) -> bool {
    player.0 >= AI_PLAYER_BASE
}

/// The most results a record keeps, only to bound it: far more than the longest game has.
pub const LOG_MAX: usize = 4000;

fn default_alphabet() -> Alphabet {
    Alphabet::Latin
}

/// The key of an inline message's game where a chat's id goes (its pointer, its budget of
/// edits, its chat-wide settings): a negative number, so it is paced like a group, far below
/// any real chat's id (Telegram's lowest are about -10^13), drawn from the message's id.
pub fn inline_chat(inline_message_id: &str) -> i64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(inline_message_id.as_bytes());
    let mut low = [0u8; 8];
    low.copy_from_slice(&digest[..8]);
    // Between -2^62 and -2^63 + 1.
    -((1i64 << 62) | (i64::from_le_bytes(low) & ((1i64 << 62) - 1)))
}

/// The live message's id an inline game keeps: the inline message has none of its own, and
/// the record's `message` says only that it is there to be drawn on.
pub const INLINE_MESSAGE: i32 = 0;

impl GameRecord {
    /// A new record around a game in its lobby.
    pub fn new(game: Game, chat: i64, created: u64) -> GameRecord {
        GameRecord {
            v: RECORD_VERSION,
            game,
            play: Play::SeaBattle(SeaBattle::default()),
            chat,
            topic: None,
            own_topic: false,
            inline: None,
            created,
            names: Vec::new(),
            lang: Lang::En,
            alphabet: Alphabet::Latin,
            creator: 0,
            log: Vec::new(),
            log_total: 0,
            announced: false,
            ai_level: Level::default(),
            panel: None,
            rematch: None,
            settlement: None,
            board: Board::Picture,
            delivery: Delivery::default(),
        }
    }

    /// Whether the game is over (or was called off). A Riga game's seating game is
    /// cancelled when the Riga game ends (see [`GameRecord::derive_effects`]).
    pub fn is_finished(&self) -> bool {
        self.game.is_finished()
    }

    /// Whether the battle is on: past the placement (or the Riga set-up), not over.
    pub fn in_battle(&self) -> bool {
        match &self.play {
            Play::SeaBattle(_) => *self.game.phase() == engine::Phase::Battle,
            Play::Riga(r) => r.in_battle(),
        }
    }

    /// Whether this is a Riga game.
    pub fn is_riga(&self) -> bool {
        matches!(self.play, Play::Riga(_))
    }

    /// The Riga game's state, in a Riga game.
    pub fn riga(&self) -> Option<&crate::game::riga_state::RigaPlay> {
        match &self.play {
            Play::Riga(r) => Some(r),
            Play::SeaBattle(_) => None,
        }
    }

    /// The Riga game's state to change, in a Riga game.
    pub fn riga_mut(&mut self) -> Option<&mut crate::game::riga_state::RigaPlay> {
        match &mut self.play {
            Play::Riga(r) => Some(r),
            Play::SeaBattle(_) => None,
        }
    }

    /// What a Sea Battle game keeps besides the engine's game.
    pub fn sea(&self) -> Option<&SeaBattle> {
        match &self.play {
            Play::SeaBattle(s) => Some(s),
            Play::Riga(_) => None,
        }
    }

    /// The same, to change.
    pub fn sea_mut(&mut self) -> Option<&mut SeaBattle> {
        match &mut self.play {
            Play::SeaBattle(s) => Some(s),
            Play::Riga(_) => None,
        }
    }

    /// The aim of the seat to move: the stored one while it still holds (the same shooter,
    /// a field that may still be shot at, picked cells still unknown), else the first field
    /// the shooter may shoot at, nothing picked. `None` when nobody can shoot.
    pub fn current_aim(&self) -> Option<Aim> {
        if *self.game.phase() != engine::Phase::Battle {
            return None;
        }
        let shooter = self.game.turn();
        let targets = self.game.targets(shooter);
        let stored = self
            .sea()
            .and_then(|sb| sb.aim.as_ref())
            .filter(|a| a.shooter == shooter && targets.contains(&a.target));
        match stored {
            Some(a) => {
                let mut a = a.clone();
                a.picked.retain(|&c| !self.game.is_known(a.target, c));
                Some(a)
            }
            None => targets.first().map(|&target| Aim {
                shooter,
                target,
                picked: Vec::new(),
                armed: None,
                corner: None,
            }),
        }
    }

    /// A seat's name cut to `max` characters (with "…"), for buttons and button answers:
    /// Telegram takes 200 characters in an answer, and a name may have 128.
    pub fn short_name(&self, seat: SeatId, max: usize) -> String {
        let name = self.names.get(seat.index()).map_or("?", String::as_str);
        if name.chars().count() <= max {
            return name.to_owned();
        }
        let mut cut: String = name.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }

    /// How many cells the current salvo takes: the ruleset's count, or fewer when fewer
    /// unknown cells are left on the target's field. `None` outside salvo games.
    pub fn salvo_size(&self, target: SeatId) -> Option<usize> {
        let n = usize::from(self.game.ruleset().salvo?);
        let size = self.game.ruleset().size();
        let unknown = size
            .cells()
            .filter(|&c| !self.game.is_known(target, c))
            .count();
        Some(n.min(unknown))
    }

    /// Whether the bot plays this seat.
    pub fn is_ai_seat(&self, seat: SeatId) -> bool {
        self.game
            .seats()
            .get(seat.index())
            .is_some_and(|s| is_ai(s.player))
    }

    /// The seats the bot plays.
    pub fn ai_seats(&self) -> Vec<SeatId> {
        (0..self.game.seats().len() as u8)
            .map(SeatId)
            .filter(|&s| self.is_ai_seat(s))
            .collect()
    }

    /// Whether the battle waits for one of the bot's seats: to shoot, or to give up a cell
    /// after a mine.
    pub fn ai_to_move(&self) -> Option<SeatId> {
        if *self.game.phase() != engine::Phase::Battle {
            return None;
        }
        let seat = self.game.mine_choice().map_or(self.game.turn(), |m| m.seat);
        self.is_ai_seat(seat).then_some(seat)
    }

    /// Adds results to the log (those the log shows).
    pub fn push_log(&mut self, events: &[Event]) {
        for e in events {
            if matches!(
                e,
                Event::Shot { .. }
                    | Event::Salvo { .. }
                    | Event::Radar { .. }
                    | Event::AirStrike { .. }
                    | Event::Torpedo { .. }
                    | Event::GaveUp { .. }
                    | Event::MineChoice { .. }
                    | Event::Surrendered(_)
                    | Event::Forfeit(_)
                    | Event::Eliminated(_)
                    | Event::Reminder(_)
            ) {
                self.log.push(e.clone());
                self.log_total += 1;
            }
        }
        self.trim_log();
    }

    /// Drops the oldest results beyond [`LOG_MAX`], to bound the record.
    fn trim_log(&mut self) {
        let over = self.log.len().saturating_sub(LOG_MAX);
        self.log.drain(..over);
    }

    /// Notes that the group has been shown the first `total` results (and the live message
    /// shows the last few of them).
    pub fn mark_shown(&mut self, total: u64) {
        self.mark_drawn(Shown {
            from: u64::MAX,
            to: total,
        });
    }

    /// Notes that the live message was drawn showing the results `shown`: the group has
    /// seen every one before `shown.to`.
    pub fn mark_drawn(&mut self, shown: Shown) {
        let to = shown.to.min(self.log_total);
        if to >= self.delivery.log_shown {
            self.delivery.log_shown = to;
            self.delivery.shown_from = shown.from;
        }
        self.trim_log();
    }
}

/// A seat's placement editor: the draft and what the keyboard is in the middle of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Editor {
    /// Schema version.
    pub v: u16,
    /// The layout being edited.
    pub draft: Draft,
    /// The first end of a ship, tapped and waiting for the second.
    #[serde(default)]
    pub pending: Option<Coord>,
    /// Which block of the field the keyboard shows.
    #[serde(default)]
    pub block: u8,
    /// What a tap on a cell does.
    #[serde(default)]
    pub tool: Tool,
    /// Cells tapped for a ship of any shape, waiting for Confirm.
    #[serde(default)]
    pub picked: Vec<Coord>,
}

/// What a tap on a cell of the placement editor does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    /// Places ships: by two ends (straight ships), or cell by cell and Confirm (any shape).
    #[default]
    Ship,
    /// Places a mine.
    Mine,
    /// Moves the land-sea border of the tapped column by a row.
    Border,
}

impl Editor {
    /// A fresh editor for `ruleset`.
    pub fn new(ruleset: &Ruleset) -> Editor {
        Editor {
            v: RECORD_VERSION,
            draft: Draft::new(ruleset),
            pending: None,
            block: 0,
            tool: Tool::Ship,
            picked: Vec::new(),
        }
    }
}

/// A chat's settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatSettings {
    /// Schema version.
    #[serde(default)]
    pub v: u16,
    /// The chat's language, once chosen.
    #[serde(default)]
    pub lang: Option<Lang>,
    /// The column alphabet, when not the language's default.
    #[serde(default)]
    pub alphabet: Option<Alphabet>,
    /// The ruleset of the chat's next game (its turn timer included).
    #[serde(default)]
    pub ruleset: Ruleset,
    /// How well the bot plays when seated in this chat's games.
    #[serde(default)]
    pub ai_level: Level,
    /// How the chat sees the fields, once chosen (else the bot's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Board>,
    /// A forum: each new game gets a topic of its own, named after its players and closed
    /// when it ends (when the bot may manage topics).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub own_topics: bool,
}

/// What a user's inline cards offer (`@bot` typed in a chat): kept when the cards are
/// offered, read when one is first pressed, so the game it opens has the rules, the
/// language and the name its card showed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// Schema version.
    #[serde(default)]
    pub v: u16,
    /// The sender's name.
    pub name: String,
    /// The sender's language: the card's words, and the game's.
    pub lang: Lang,
    /// The column letters.
    pub alphabet: Alphabet,
    /// Sea Battle's rules (the sender's own, from their private chat with the bot).
    pub ruleset: Ruleset,
}

/// How long a card's offer is kept: a card is pressed within days of being sent, or sent
/// again.
pub const CARD_TTL: std::time::Duration = std::time::Duration::from_secs(14 * 24 * 3600);

/// A user's settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserSettings {
    /// Schema version.
    #[serde(default)]
    pub v: u16,
    /// The user's language, once chosen with /lang.
    #[serde(default)]
    pub lang: Option<Lang>,
    /// Whether the user has started the bot, so it may write to them.
    #[serde(default)]
    pub started: bool,
    /// The language Telegram last reported for the user.
    #[serde(default)]
    pub detected: Option<Lang>,
    /// The level of the user's last game against the bot.
    #[serde(default)]
    pub ai_level: Level,
}

/// What a finished game writes to the ratings and statistics (see `GameRecord::settlement`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    /// New ratings: on which board, whose, the stored value and the shown rating.
    pub ratings: Vec<RatingWrite>,
    /// Statistics to set: whose, the field (`SCOPE|NAME`) and its new value.
    pub stats: Vec<(u64, String, u64)>,
}

/// One player's new rating on one board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingWrite {
    /// The board.
    pub board: crate::game::leaderboard::Leaderboard,
    /// The seat.
    pub seat: u8,
    /// The user.
    pub user: u64,
    /// The value stored (`mu|sigma|games|name`).
    pub value: String,
    /// The shown rating before the game.
    pub before: i64,
    /// The shown rating after it.
    pub after: i64,
}

impl GameRecord {
    /// Puts an effect in the outbox (see [`Delivery::push`]); none for a chat that is gone.
    pub fn push_effect(&mut self, effect: Effect) {
        if self.delivery.chat_gone && effect.in_chat(self.chat) {
            return;
        }
        self.delivery.push(effect);
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
                if self.own_topic {
                    self.push_effect(Effect::CloseTopic);
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
        if self.inline.is_some() {
            // An inline message cannot be sent anew: the battle is drawn on the lobby's.
            self.delivery.drawn = 0;
            for s in self.human_seats() {
                self.push_effect(Effect::Dm { seat: s.0 });
            }
            return;
        }
        if let Some(old) = self.delivery.message.take() {
            self.push_effect(Effect::Retire {
                message: old,
                key: "lobby-battle-started".into(),
            });
        }
        self.delivery.drawn = 0;
        self.push_effect(Effect::LiveMessage);
        if self.own_topic {
            self.push_effect(Effect::NameTopic);
        }
        for s in self.human_seats() {
            self.push_effect(Effect::Dm { seat: s.0 });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{random_fleet, Action, Players};
    use rand::SeedableRng;

    #[test]
    fn a_games_place_in_a_forum_is_stored_and_read_back() {
        let mut rec = GameRecord::new(Game::new(Ruleset::default()), -100, 0);
        let plain = serde_json::to_value(&rec).unwrap();
        // Outside a forum nothing of it is written.
        assert!(plain.get("topic").is_none() && plain.get("own_topic").is_none());
        rec.topic = Some(42);
        rec.own_topic = true;
        rec.delivery.topic_gone = true;
        let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        assert_eq!(
            (back.topic, back.own_topic, back.delivery.topic_gone),
            (Some(42), true, true)
        );
    }

    #[test]
    fn a_game_stored_before_pictures_stays_text_and_a_new_one_is_a_picture() {
        let rec = GameRecord::new(Game::new(Ruleset::default()), -1, 0);
        assert_eq!(rec.board, Board::Picture);
        let mut json: serde_json::Value = serde_json::to_value(&rec).unwrap();
        let back: GameRecord = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back.board, Board::Picture);
        json.as_object_mut().unwrap().remove("board");
        let old: GameRecord = serde_json::from_value(json).unwrap();
        assert_eq!(old.board, Board::Text);
        // A chat that never chose has no board of its own: the bot's default applies.
        let s: ChatSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(s.board, None);
    }

    fn free_for_all() -> GameRecord {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let r = Ruleset {
            players: Players::FreeForAll(3),
            ..Ruleset::default()
        };
        let mut game = Game::new(r.clone());
        for p in 1..=3 {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..3 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        GameRecord::new(game, -1, 0)
    }

    #[test]
    fn a_record_written_before_the_variants_decodes_as_begun_with_no_aim() {
        let mut json = serde_json::to_value(free_for_all()).unwrap();
        for key in ["aim", "mine_dm", "begun"] {
            json.as_object_mut().unwrap().remove(key);
        }
        let rec: GameRecord = serde_json::from_value(json).unwrap();
        assert!(rec.delivery.begun);
        assert_eq!(
            (rec.sea().unwrap().aim.clone(), rec.delivery.mine_dm),
            (None, None)
        );
    }

    #[test]
    fn a_record_is_stored_flat_as_an_older_bot_wrote_it_and_reads_back_the_same() {
        let mut rec = free_for_all();
        rec.delivery.message = Some(3);
        rec.delivery.generation = 2;
        rec.sea_mut().unwrap().block = 1;
        let json = serde_json::to_value(&rec).unwrap();
        for key in [
            "game",
            "message",
            "generation",
            "block",
            "aim",
            "begun",
            "board",
        ] {
            assert!(json.get(key).is_some(), "{key} in {json}");
        }
        for key in ["play", "delivery", "riga"] {
            assert!(json.get(key).is_none(), "{key} in {json}");
        }
        assert_eq!(serde_json::from_value::<GameRecord>(json).unwrap(), rec);
        // A Riga game keeps its state under "riga", as before.
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        rec.play = Play::Riga(crate::game::riga_state::RigaPlay::ordering(&mut rng));
        let json = serde_json::to_value(&rec).unwrap();
        assert!(json["riga"]["orders"].is_array(), "{json}");
        assert_eq!(serde_json::from_value::<GameRecord>(json).unwrap(), rec);
    }

    #[test]
    fn the_aim_holds_only_for_its_shooter_and_a_field_that_may_be_shot() {
        let mut rec = free_for_all();
        let shooter = rec.game.turn();
        let targets = rec.game.targets(shooter);
        let first = rec.current_aim().unwrap();
        assert_eq!((first.shooter, first.target), (shooter, targets[0]));
        let aim = Aim {
            shooter,
            target: targets[1],
            picked: vec![Coord::new(1, 1)],
            armed: None,
            corner: None,
        };
        rec.sea_mut().unwrap().aim = Some(aim.clone());
        assert_eq!(rec.current_aim(), Some(aim.clone()));
        // Another seat's aim, or the shooter's own field, falls back to the first target.
        rec.sea_mut().unwrap().aim = Some(Aim {
            shooter: targets[0],
            ..aim.clone()
        });
        assert_eq!(rec.current_aim().unwrap().target, targets[0]);
        rec.sea_mut().unwrap().aim = Some(Aim {
            target: shooter,
            ..aim
        });
        let fallback = rec.current_aim().unwrap();
        assert_eq!((fallback.target, fallback.picked.len()), (targets[0], 0));
    }

    /// A random duel on the classic field played to its end, every result logged.
    fn finished_duel(seed: u64) -> GameRecord {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let r = Ruleset::default();
        let mut game = Game::new(r.clone());
        for p in 1..=2 {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..2 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        let mut rec = GameRecord::new(game, -1, 0);
        rec.names = vec!["Anna".into(), "Boris".into()];
        while !rec.game.is_finished() {
            let shooter = rec.game.turn();
            let target = rec.game.targets(shooter)[0];
            let unknown: Vec<Coord> = r
                .size()
                .cells()
                .filter(|&c| !rec.game.is_known(target, c))
                .collect();
            let cell = unknown[rand::Rng::gen_range(&mut rng, 0..unknown.len())];
            let events = rec
                .game
                .apply(Action::Fire(shooter, target, cell), 0, &mut rng)
                .unwrap();
            rec.push_log(&events);
        }
        rec
    }

    #[test]
    fn a_game_in_an_inline_message_is_drawn_on_it_throughout_and_rated_on_everyones_board() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let r = Ruleset::default();
        let mut game = Game::new(r.clone());
        for p in 1..=2 {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        let inline = "AgAAAF000001fake";
        let mut rec = GameRecord::new(game, inline_chat(inline), 0);
        rec.inline = Some(inline.into());
        rec.delivery.message = Some(INLINE_MESSAGE);
        rec.delivery.drawn = 7;
        for s in 0..2 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            rec.game
                .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        rec.derive_effects();
        // No message retired, none sent: the battle is drawn on the same one.
        let kinds: Vec<Effect> = rec
            .delivery
            .outbox
            .iter()
            .map(|o| o.effect.clone())
            .collect();
        assert_eq!(kinds, vec![Effect::Dm { seat: 0 }, Effect::Dm { seat: 1 }]);
        assert_eq!(rec.delivery.message, Some(INLINE_MESSAGE));
        assert_eq!((rec.delivery.generation, rec.delivery.drawn), (1, 0));
        let json = serde_json::to_string(&rec).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.inline.as_deref(), Some(inline));
        // A record of a chat's game is written without the field, as before.
        let chat_game = GameRecord::new(Game::new(r.clone()), -5, 0);
        assert!(!serde_json::to_string(&chat_game)
            .unwrap()
            .contains("inline"));
        rec.game
            .apply(Action::Surrender(SeatId(1)), 0, &mut rng)
            .unwrap();
        let boards: Vec<_> = crate::game::settle::wanted(&rec)
            .ratings
            .into_iter()
            .map(|(b, _)| b)
            .collect();
        assert_eq!(
            boards,
            vec![
                crate::game::leaderboard::Leaderboard::People,
                crate::game::leaderboard::Leaderboard::Bot
            ]
        );
    }

    #[test]
    fn an_inline_messages_key_is_stable_its_own_and_far_below_every_chat() {
        let a = inline_chat("AgAAAF000001fake");
        assert_eq!(a, inline_chat("AgAAAF000001fake"));
        assert_ne!(a, inline_chat("AgAAAF000002fake"));
        for id in ["", "x", "AgAAAF000001fake", &"z".repeat(300)] {
            let k = inline_chat(id);
            assert!(k <= -(1i64 << 62), "{id}: {k}");
        }
    }

    #[test]
    fn a_record_keeps_every_result_of_a_whole_game_in_a_few_kilobytes() {
        for seed in 0..5 {
            let rec = finished_duel(seed);
            let shots = rec
                .log
                .iter()
                .filter(|e| matches!(e, Event::Shot { .. }))
                .count();
            assert!(shots > 40, "{shots}");
            assert_eq!(rec.log.len() as u64, rec.log_total);
            let json = serde_json::to_string(&rec).unwrap();
            assert!(json.len() < 8 * 1024, "{} bytes", json.len());
            assert_eq!(serde_json::from_str::<GameRecord>(&json).unwrap(), rec);
        }
    }

    #[test]
    fn a_record_whose_log_holds_whole_events_still_decodes() {
        let rec = finished_duel(9);
        let mut json = serde_json::to_value(&rec).unwrap();
        json["log"] = serde_json::to_value(&rec.log).unwrap();
        assert!(json["log"][0].get("Shot").is_some(), "{}", json["log"][0]);
        assert_eq!(serde_json::from_value::<GameRecord>(json).unwrap(), rec);
    }

    #[test]
    fn shown_results_stay_in_the_log_and_only_its_bound_drops_the_oldest() {
        let mut rec = finished_duel(3);
        let total = rec.log.len();
        rec.mark_shown(rec.log_total);
        assert_eq!(rec.log.len(), total);
        let first = rec.log[0].clone();
        let events = vec![first; LOG_MAX];
        rec.push_log(&events);
        assert_eq!(rec.log.len(), LOG_MAX);
        assert_eq!(rec.log_total as usize, total + LOG_MAX);
    }

    #[test]
    fn the_settings_page_of_a_lobby_round_trips_and_a_record_without_one_still_decodes() {
        let mut rec = GameRecord::new(Game::new(Ruleset::default()), -1, 0);
        let without = serde_json::to_string(&rec).unwrap();
        assert!(!without.contains("panel"), "{without}");
        assert_eq!(
            serde_json::from_str::<GameRecord>(&without).unwrap().panel,
            None
        );
        rec.panel = Some(SettingsPage::Players);
        let with = serde_json::to_string(&rec).unwrap();
        assert!(with.contains(r#""panel":"players""#), "{with}");
        assert_eq!(serde_json::from_str::<GameRecord>(&with).unwrap(), rec);
    }
}
