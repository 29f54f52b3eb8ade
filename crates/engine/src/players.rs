//! Who plays and how long a turn may take (docs/rules.md §3.6, §4).

use serde::{Deserialize, Serialize};

/// Who plays (docs/rules.md §3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Players {
    /// Two players.
    #[default]
    Duel,
    /// Three or four, each against all.
    FreeForAll(u8),
    /// Two against two: seats 0 and 2 against 1 and 3, in turn order A1, B1, A2, B2.
    Teams,
}

impl Players {
    /// Number of seats.
    pub fn seats(self) -> usize {
        match self {
            Players::Duel => 2,
            Players::FreeForAll(n) => usize::from(n),
            Players::Teams => 4,
        }
    }

    /// The team of a seat: seats with the same team play together.
    pub fn team(self, seat: usize) -> usize {
        match self {
            Players::Teams => seat % 2,
            _ => seat,
        }
    }
}

/// The turn timer of docs/rules.md §4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnTimer {
    /// No timer.
    Off,
    /// One minute a turn.
    OneMinute,
    /// Three minutes a turn (default).
    #[default]
    ThreeMinutes,
    /// Ten minutes a turn.
    TenMinutes,
}

impl TurnTimer {
    /// Seconds a turn may take, if limited.
    pub fn seconds(self) -> Option<u64> {
        match self {
            TurnTimer::Off => None,
            TurnTimer::OneMinute => Some(60),
            TurnTimer::ThreeMinutes => Some(180),
            TurnTimer::TenMinutes => Some(600),
        }
    }
}
