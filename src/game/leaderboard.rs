//! The leaderboards a rating is kept on.

/// A leaderboard: one chat's games between people, everyone's, or games against the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Leaderboard {
    /// The games between people in one chat.
    Chat(i64),
    /// The games between people in every chat.
    People,
    /// The games against the bot, everywhere.
    Bot,
}

impl Leaderboard {
    /// How many players its ranking keeps: the best ones (the ratings of the others stay).
    pub fn kept(self) -> usize {
        match self {
            Leaderboard::Chat(_) => 1_000,
            Leaderboard::People | Leaderboard::Bot => 10_000,
        }
    }
}
