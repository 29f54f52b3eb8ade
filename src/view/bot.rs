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

/// What the learning level has learned of a player's placements (`engine::Tendencies`), in
/// words for `/stats`: the same figures its model samples by, each beside what random
/// layouts give.
pub fn habits_lines(lang: Lang, learned: &engine::Tendencies) -> Vec<String> {
    let t = learned;
    let pct = |x: f64| ((x * 100.0).round() as i64).into();
    let half = match t.half {
        engine::Half::Left => "stats-habits-half-left",
        engine::Half::Right => "stats-habits-half-right",
        engine::Half::Top => "stats-habits-half-top",
        engine::Half::Bottom => "stats-habits-half-bottom",
    };
    vec![
        ta(
            lang,
            "stats-habits",
            &[("games", (t.games.round() as i64).into())],
        ),
        ta(
            lang,
            "stats-habits-border",
            &[
                ("share", pct(t.big_on_border)),
                ("usual", pct(t.big_on_border_usual)),
            ],
        ),
        ta(
            lang,
            "stats-habits-singles",
            &[
                ("share", pct(t.singles_inside)),
                ("usual", pct(t.singles_inside_usual)),
            ],
        ),
        ta(lang, half, &[("share", pct(t.half_share))]),
        ta(
            lang,
            "stats-habits-upright",
            &[("share", pct(t.upright)), ("usual", pct(t.upright_usual))],
        ),
        ta(lang, "stats-habits-compact", &[("share", pct(t.compact))]),
        ta(lang, "stats-habits-trust", &[("weight", pct(t.weight))]),
    ]
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
