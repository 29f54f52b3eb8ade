//! Column letters (docs/rules.md §2, "Coordinates"): each chat picks an [`Alphabet`]; rows are
//! numbered from 1. Writing and reading typed cells lives in `notation.rs`.

use serde::{Deserialize, Serialize};
use std::{fmt, str::FromStr};

/// The column letters a chat uses.
///
/// Decided: [`RussianYo`](Alphabet::RussianYo) and the word alphabets
/// ([`Respublika`](Alphabet::Respublika), [`Snegurochka`](Alphabet::Snegurochka)) exist only
/// for boards exactly 10 columns wide; on any other width they use the
/// [`Russian`](Alphabet::Russian) letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alphabet {
    /// а б в г д е ж з и к (ё and й skipped); the default for Russian chats.
    Russian,
    /// а б в г д е ё ж з и.
    RussianYo,
    /// р е с п у б л и к а.
    Respublika,
    /// с н е г у р о ч к а.
    Snegurochka,
    /// А Б В Г Д Е Ж З И К; the default for Bulgarian chats.
    Bulgarian,
    /// A B C D E F G H I J; the default for everyone else.
    Latin,
}

// Decided: past 20 columns щ ъ ы ь are skipped, being easy to confuse and never starting a word.
const RUSSIAN: &str = "абвгдежзиклмнопрстуфхцчшэю";
const RUSSIAN_YO: &str = "абвгдеёжзи";
const RESPUBLIKA: &str = "республика";
const SNEGUROCHKA: &str = "снегурочка";
const BULGARIAN: &str = "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЮ";
const LATIN: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Latin letters and, at the same places, the Cyrillic letters they look like.
const LATIN_LOOKS: &str = "abcehkmoptxy";
const CYRILLIC_LOOKS: &str = "авсенкмортху";

impl Alphabet {
    /// Every alphabet, in the order a settings menu lists them.
    pub const ALL: [Alphabet; 6] = [
        Alphabet::Russian,
        Alphabet::RussianYo,
        Alphabet::Respublika,
        Alphabet::Snegurochka,
        Alphabet::Bulgarian,
        Alphabet::Latin,
    ];

    /// The stable id used in storage, settings and [`Display`](fmt::Display): `"russian-yo"`.
    pub const fn id(self) -> &'static str {
        match self {
            Alphabet::Russian => "russian",
            Alphabet::RussianYo => "russian-yo",
            Alphabet::Respublika => "respublika",
            Alphabet::Snegurochka => "snegurochka",
            Alphabet::Bulgarian => "bulgarian",
            Alphabet::Latin => "latin",
        }
    }

    /// Whether the letters are Cyrillic (every alphabet but [`Latin`](Alphabet::Latin)).
    pub const fn is_cyrillic(self) -> bool {
        !matches!(self, Alphabet::Latin)
    }

    /// The column letters of a board `width` columns wide, left to right, as displayed.
    ///
    /// Widths above [`MAX_SIDE`](crate::coord::MAX_SIDE) get the 26 letters there are.
    pub fn columns(self, width: u8) -> Vec<char> {
        self.letters(width).collect()
    }

    /// The letter of column `x` on a board `width` columns wide; `'?'` if there is none.
    pub fn column_label(self, x: u8, width: u8) -> char {
        self.letters(width).nth(usize::from(x)).unwrap_or('?')
    }

    fn letters(self, width: u8) -> impl Iterator<Item = char> + Clone {
        let letters = match self {
            Alphabet::RussianYo if width == 10 => RUSSIAN_YO,
            Alphabet::Respublika if width == 10 => RESPUBLIKA,
            Alphabet::Snegurochka if width == 10 => SNEGUROCHKA,
            Alphabet::Bulgarian => BULGARIAN,
            Alphabet::Latin => LATIN,
            _ => RUSSIAN,
        };
        letters.chars().take(usize::from(width))
    }

    /// The column a typed letter names, forgiving case and the wrong keyboard layout.
    pub(crate) fn column_of(self, typed: char, width: u8) -> Option<u8> {
        let mut columns = self.letters(width);
        let mut letter = lowercase(typed);
        let mut pairs = LATIN_LOOKS.chars().zip(CYRILLIC_LOOKS.chars());
        if self.is_cyrillic() {
            if let Some((_, cyrillic)) = pairs.find(|&(l, _)| l == letter) {
                letter = cyrillic;
            }
            if letter == 'ё' && !columns.clone().any(|c| c == 'ё') {
                letter = 'е';
            }
        } else if let Some((latin, _)) = pairs.find(|&(_, c)| c == letter) {
            letter = latin;
        }
        let x = columns.position(|c| lowercase(c) == letter)?;
        u8::try_from(x).ok()
    }
}

pub(crate) fn lowercase(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

impl fmt::Display for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The text given to [`Alphabet::from_str`] is not an alphabet id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlphabet(pub String);

impl fmt::Display for UnknownAlphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown alphabet {:?}", self.0)
    }
}

impl std::error::Error for UnknownAlphabet {}

impl FromStr for Alphabet {
    type Err = UnknownAlphabet;

    /// Reads a stable id written by [`Alphabet::id`]; anything else is [`UnknownAlphabet`].
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Alphabet::ALL
            .into_iter()
            .find(|a| a.id() == text)
            .ok_or_else(|| UnknownAlphabet(text.to_owned()))
    }
}
