//! What the bot stores: a game with its chat context, chat and user settings, statistics.
//!
//! Every stored type derives serde and carries a schema version `v`; new fields come with
//! `#[serde(default)]` so records written by an older bot still decode.

use crate::game::lang::Lang;
use engine::ai::Level;
use engine::{Alphabet, Coord, Draft, Event, Game, PlayerId, Ruleset, SeatId};
use serde::{Deserialize, Serialize};

/// The schema version of the records in this file.
pub const RECORD_VERSION: u16 = 1;

/// One game and what the bot needs around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Schema version.
    pub v: u16,
    /// The engine's game.
    pub game: Game,
    /// The chat the game belongs to (a group, or a private chat for a game against the AI).
    pub chat: i64,
    /// When the record was created (Unix seconds).
    pub created: u64,
    /// Display names of the players, by seat.
    #[serde(default)]
    pub names: Vec<String>,
    /// The group's language for this game.
    #[serde(default)]
    pub lang: Lang,
    /// The column letters of this game.
    #[serde(default = "default_alphabet")]
    pub alphabet: Alphabet,
    /// Who created the game (may start and cancel it).
    #[serde(default)]
    pub creator: u64,
    /// The group's live message: the lobby, then the battle.
    #[serde(default)]
    pub message: Option<i32>,
    /// Bumped whenever the live message is replaced: buttons carry it, so a button of an old
    /// message answers "out of date".
    #[serde(default)]
    pub generation: u32,
    /// Which block of the target field the battle keyboard shows.
    #[serde(default)]
    pub block: u8,
    /// The game's results, oldest first: every one (up to [`LOG_MAX`]), for the group's
    /// message (its latest, or a burst not shown yet) and the whole log at the end. Stored
    /// compactly (see `game_log.rs`).
    #[serde(default, with = "crate::game::log")]
    pub log: Vec<Event>,
    /// How many results were ever logged.
    #[serde(default)]
    pub log_total: u64,
    /// How many of them the group's message has shown.
    #[serde(default)]
    pub log_shown: u64,
    /// The private message of each seat: the placement editor, then the own field.
    #[serde(default)]
    pub dms: Vec<Option<i32>>,
    /// A hash of the live message as last drawn, so an unchanged state is not drawn again.
    #[serde(default)]
    pub drawn: u64,
    /// Whether the end has been announced in the group.
    #[serde(default)]
    pub announced: bool,
    /// How well the bot plays its seats in this game (when it has any).
    #[serde(default)]
    pub ai_level: Level,
    /// The bot's own salvoes and their answers, which no view keeps (only the count of hits
    /// is told): its seats aim the next salvoes by them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_salvos: Vec<AiSalvo>,
    /// The shooter's aim in the battle message: the field chosen (free-for-all, teams) and
    /// the cells picked for a salvo. See [`GameRecord::current_aim`].
    #[serde(default)]
    pub aim: Option<Aim>,
    /// The private message asking the shooter to give up a cell after a mine.
    #[serde(default)]
    pub mine_dm: Option<i32>,
    /// Whether the battle has its own message yet. Between the last fleet's Ready and that
    /// message, the lobby's message is not redrawn as a battle (its buttons would be of the
    /// old generation). Older records were begun.
    #[serde(default = "begun_before")]
    pub begun: bool,
    /// The page of the settings panel the lobby message shows, while the creator has it open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub panel: Option<SettingsPage>,
    /// What this game still has to send, in order (see `effects.rs`): written in the same
    /// atomic change as the state that asks for it, removed by the game's sender once sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outbox: Vec<crate::game::delivery::Outgoing>,
    /// The number of the last effect put in the outbox.
    #[serde(default)]
    pub effects_made: u64,
    /// The stored version of the record the live message was last drawn from: an edit of an
    /// older version is never sent.
    #[serde(default)]
    pub drawn_version: u64,
    /// When the live message was last drawn (Unix milliseconds), for the gap between edits.
    #[serde(default)]
    pub drawn_at: u64,
    /// How many parts of the end's announcement have been sent.
    #[serde(default)]
    pub announced_parts: u8,
    /// Answers to the latest button presses, so a press whose update comes again (after a
    /// crash) gets the answer it earned, not a refusal of its own repeat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<crate::game::delivery::Answered>,
    /// A hash of each seat's private message as last drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dm_drawn: Vec<u64>,
    /// Each seat's own field as a picture, in a game whose fields are pictures: sent when the
    /// battle begins, after the placement's message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dm_pictures: Vec<Option<i32>>,
    /// The game a Rematch press of this one created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<u64>,
    /// A game of the Riga board game instead of Sea Battle (see `riga_play.rs`): its set-up,
    /// battle and end; `Some` from the lobby on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub riga: Option<crate::game::riga::RigaPlay>,
    /// What the end of the game writes to the ratings and statistics, worked out once (by
    /// the game's sender, from the values before the game) and written whole, so writing it
    /// again after a crash changes nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settlement: Option<Settlement>,
    /// How the fields are shown: as a picture or as text. Games stored before pictures were
    /// drawn as text and stay so.
    #[serde(default = "board_before")]
    pub board: Board,
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

impl GameRecord {
    /// A new record around a game in its lobby.
    pub fn new(game: Game, chat: i64, created: u64) -> GameRecord {
        GameRecord {
            v: RECORD_VERSION,
            game,
            chat,
            created,
            names: Vec::new(),
            lang: Lang::En,
            alphabet: Alphabet::Latin,
            creator: 0,
            message: None,
            generation: 0,
            block: 0,
            log: Vec::new(),
            log_total: 0,
            log_shown: 0,
            dms: Vec::new(),
            drawn: 0,
            announced: false,
            ai_level: Level::default(),
            ai_salvos: Vec::new(),
            aim: None,
            mine_dm: None,
            begun: false,
            panel: None,
            outbox: Vec::new(),
            effects_made: 0,
            drawn_version: 0,
            drawn_at: 0,
            announced_parts: 0,
            answers: Vec::new(),
            dm_drawn: Vec::new(),
            dm_pictures: Vec::new(),
            rematch: None,
            riga: None,
            settlement: None,
            board: Board::Picture,
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
            .aim
            .as_ref()
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

    /// Notes that the group has been shown the first `total` results.
    pub fn mark_shown(&mut self, total: u64) {
        self.log_shown = self.log_shown.max(total.min(self.log_total));
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
}

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
    pub board: crate::store::Leaderboard,
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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{random_fleet, Action, Players};
    use rand::SeedableRng;

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
        assert!(rec.begun);
        assert_eq!((rec.aim, rec.mine_dm), (None, None));
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
        };
        rec.aim = Some(aim.clone());
        assert_eq!(rec.current_aim(), Some(aim.clone()));
        // Another seat's aim, or the shooter's own field, falls back to the first target.
        rec.aim = Some(Aim {
            shooter: targets[0],
            ..aim.clone()
        });
        assert_eq!(rec.current_aim().unwrap().target, targets[0]);
        rec.aim = Some(Aim {
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
