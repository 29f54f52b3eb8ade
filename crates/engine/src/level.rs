//! How well the bot plays: the [`Level`]s of the AI (`ai.rs` tells what each one does).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How well the bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Random cells, never one known to be empty.
    Easy,
    /// Hunt and target, with parity and the no-touch inferences.
    #[default]
    Normal,
    /// The posterior over whole-fleet layouts, by sampling.
    Hard,
    /// As hard, with a prior that learns how people place from the fleets revealed at the end
    /// of games.
    Learning,
}

impl Level {
    /// Every level.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Normal, Level::Hard, Level::Learning];

    /// Whether the level samples layouts (hard and learning).
    pub fn samples(self) -> bool {
        matches!(self, Level::Hard | Level::Learning)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
            Level::Learning => "learning",
        })
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| format!("no level {s:?}"))
    }
}
