//! What the bot stores: a game with its chat context, chat and user settings, statistics.
//!
//! Every stored type derives serde and carries a schema version `v`; new fields come with
//! `#[serde(default)]` so records written by an older bot still decode.

use crate::lang::Lang;
use engine::{Alphabet, Game, Ruleset};
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
}

/// A user's statistics for one ruleset (or all of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games played to the end.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Shots fired.
    pub shots: u64,
    /// Shots that hit.
    pub hits: u64,
}
