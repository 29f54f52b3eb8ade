//! What a chat and a user keep: their settings, the board they see, the settings panel's
//! pages, and the offer of a user's inline cards.

use crate::game::lang::Lang;
use engine::ai::Level;
use engine::{Alphabet, Ruleset};
use serde::{Deserialize, Serialize};

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
    /// Users this one blocked after a quick match: never paired with them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked: Vec<u64>,
}
