//! The bot's languages.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A language the bot speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Russian.
    Ru,
    /// Bulgarian.
    Bg,
    /// English, for everyone else.
    #[default]
    En,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 3] = [Lang::Ru, Lang::Bg, Lang::En];

    /// The language for Telegram's `language_code`: ru, uk, be → Russian; bg → Bulgarian;
    /// anything else → English.
    pub fn from_telegram(code: Option<&str>) -> Lang {
        let code = code.unwrap_or("").to_ascii_lowercase();
        match code.split(['-', '_']).next().unwrap_or("") {
            "ru" | "uk" | "be" => Lang::Ru,
            "bg" => Lang::Bg,
            _ => Lang::En,
        }
    }

    /// The column letters a game in this language has unless its chat chose others.
    pub fn alphabet(self) -> engine::Alphabet {
        match self {
            Lang::Ru => engine::Alphabet::Russian,
            Lang::Bg => engine::Alphabet::Bulgarian,
            Lang::En => engine::Alphabet::Latin,
        }
    }

    /// The ISO 639-1 code.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::Bg => "bg",
            Lang::En => "en",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = ();
    fn from_str(s: &str) -> Result<Lang, ()> {
        Lang::ALL.into_iter().find(|l| l.code() == s).ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn telegram_language_codes_map_to_the_three_languages() {
        assert_eq!(Lang::from_telegram(Some("ru")), Lang::Ru);
        assert_eq!(Lang::from_telegram(Some("uk")), Lang::Ru);
        assert_eq!(Lang::from_telegram(Some("be")), Lang::Ru);
        assert_eq!(Lang::from_telegram(Some("bg")), Lang::Bg);
        assert_eq!(Lang::from_telegram(Some("pt-br")), Lang::En);
        assert_eq!(Lang::from_telegram(None), Lang::En);
        assert_eq!("bg".parse(), Ok(Lang::Bg));
    }
}
