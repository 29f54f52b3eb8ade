//! What the bot stores: a game with its chat context, chat and user settings, statistics.
//!
//! Every stored type derives serde and carries a schema version `v`; new fields come with
//! `#[serde(default)]` so records written by an older bot still decode.

use crate::game::delivery::{Delivery, Effect, Shown};
use crate::game::lang::Lang;
use engine::ai::Level;
use engine::{Alphabet, Coord, Draft, Event, Game, Phase, PlayerId, Ruleset, SeatId};
use serde::{Deserialize, Serialize};

mod settings;
mod stored;

pub use settings::{Board, Card, ChatSettings, SettingsPage, UserSettings, CARD_TTL};

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
    /// The tournament of the chat this game is a match of (its id): its end is the
    /// match's result.
    pub tournament: Option<u64>,
    /// A quick match between strangers (`/find`): no shared chat; each player's private
    /// message is their whole board (their field, the enemy's, the grid to shoot), redrawn
    /// on every move. Its [`GameRecord::chat`] is only a key (the first player's private
    /// chat), never sent to.
    pub quick: bool,
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

/// Which game a lobby opens: the kind of [`Play`] its record holds. Matched exhaustively
/// like [`Play`], never compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameKind {
    /// Sea Battle, in any of its rulesets.
    #[default]
    SeaBattle,
    /// The Riga board game.
    Riga,
}

impl GameKind {
    /// A game of this kind as its lobby starts it.
    pub fn new_play(self) -> Play {
        match self {
            GameKind::SeaBattle => Play::SeaBattle(SeaBattle::default()),
            GameKind::Riga => Play::Riga(crate::game::riga_state::RigaPlay::default()),
        }
    }
}

impl Play {
    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            Play::SeaBattle(_) => GameKind::SeaBattle,
            Play::Riga(_) => GameKind::Riga,
        }
    }
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
    /// end, or when the player asks (see `battle/effects.rs`), not after every shot on it.
    pub fields_behind: Vec<u8>,
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
            tournament: None,
            quick: false,
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

    /// The Riga game's state, in a Riga game.
    fn riga(&self) -> Option<&crate::game::riga_state::RigaPlay> {
        match &self.play {
            Play::Riga(r) => Some(r),
            Play::SeaBattle(_) => None,
        }
    }

    /// What a Sea Battle game keeps besides the engine's game.
    fn sea(&self) -> Option<&SeaBattle> {
        match &self.play {
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
        if self.inline.is_some() || self.quick {
            // An inline message cannot be sent anew: the battle is drawn on the lobby's; a
            // quick match has no shared message at all.
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
mod tests;
