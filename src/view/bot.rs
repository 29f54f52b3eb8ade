//! The bot as a player, in words: its seats' names and its levels (pure). Its turns are
//! played in `telegram/bot_turns.rs`; `/play` and the lobby's "play the bot" are in
//! `telegram/lobby.rs`.

use crate::game::lang::Lang;
use crate::view::i18n::{t, ta};
use engine::ai::Level;
use engine::PlayerId;

/// The name of the bot's seat `player` in a game, in the game's language: "🤖 Bot (easy)",
/// and with a number from the second seat on ("🤖 Bot 2 (easy)").
pub fn name(lang: Lang, level: Level, player: PlayerId) -> String {
    let level = level_words(lang, level);
    match player.0.saturating_sub(crate::game::record::AI_PLAYER_BASE) {
        0 => ta(lang, "ai-name", &[("level", level.into())]),
        n => ta(
            lang,
            "ai-name-nth",
            &[("level", level.into()), ("n", ((n + 1) as i64).into())],
        ),
    }
}

/// A level in words.
pub fn level_words(lang: Lang, level: Level) -> String {
    let key = match level {
        Level::Easy => "ai-level-easy",
        Level::Normal => "ai-level-normal",
        Level::Hard => "ai-level-hard",
        Level::Learning => "ai-level-learning",
    };
    t(lang, key)
}

/// Reads a level as typed after `/play`: its English name or its name in any language.
pub fn parse_level(text: &str) -> Option<Level> {
    let text = text.trim().to_lowercase();
    Level::ALL.into_iter().find(|&l| {
        l.to_string() == text
            || Lang::ALL
                .iter()
                .any(|&lang| level_words(lang, l).to_lowercase() == text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::ai_player;

    #[test]
    fn levels_are_read_in_every_language_and_bots_are_told_apart() {
        assert_eq!(parse_level("hard"), Some(Level::Hard));
        assert_eq!(parse_level(" Сильный "), Some(Level::Hard));
        assert_eq!(parse_level("лесен"), Some(Level::Easy));
        assert_eq!(parse_level("Обучаемый"), Some(Level::Learning));
        assert_eq!(parse_level("learning"), Some(Level::Learning));
        assert_eq!(parse_level("genius"), None);
        assert_ne!(
            name(Lang::En, Level::Easy, ai_player(0)),
            name(Lang::En, Level::Easy, ai_player(1))
        );
    }
}
