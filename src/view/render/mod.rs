//! Pure rendering: boards as monospace text, keyboards within Telegram's limits, and the
//! words for ships, rules, results and problems. Nothing here talks to Telegram.
//!
//! In parts: the keyboard's blocks of a field ([`viewport`]); the words for ships, rules,
//! results and problems ([`words`]); the battle log's lines ([`battle_log`]). This file draws
//! boards as text, escapes HTML and reads a typed weapon.

use crate::game::lang::Lang;
use crate::view::i18n::t;
use engine::{Alphabet, Coord, FieldView, Mark, Size};

mod battle_log;
#[cfg(test)]
mod tests;
mod viewport;
mod words;

pub use super::keyboard::{MAX_BUTTONS, MAX_ROW};
pub use battle_log::*;
pub use viewport::*;
pub use words::*;

/// One single-width character a cell: these are all one column wide in every monospace font
/// (emoji are not).
pub fn symbol(mark: Mark) -> char {
    match mark {
        Mark::Unknown => '·',
        Mark::Shot => '+',
        Mark::Miss => '•',
        Mark::Halo => '-',
        Mark::Hit => 'X',
        Mark::Sunk => '#',
        Mark::Mine => '*',
        Mark::Ship => 'O',
        Mark::IdleMine => 'm',
    }
}

/// Escapes text for Telegram's HTML parse mode.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A weapon typed in reply to the battle message, in any of the bot's languages: its word
/// (`радар`, `авиаудар`, `въздушен удар`, `torpedo` …), a cell, and for a torpedo from a
/// corner an arrow (`→ ← ↑ ↓`, or `> < ^ v`). `None` when the text names no weapon;
/// `Some(Err(()))` when it does but the rest is not a cell (and an arrow).
pub type TypedWeapon = (engine::Weapon, Coord, Option<engine::Heading>);

/// Reads a typed weapon (see [`TypedWeapon`]).
pub fn typed_weapon(text: &str, alphabet: Alphabet, size: Size) -> Option<Result<TypedWeapon, ()>> {
    let lower = text.trim().to_lowercase();
    let mut words: Vec<&str> = lower.split_whitespace().collect();
    let is = |w: &str, key: &str| {
        Lang::ALL
            .iter()
            .any(|&l| t(l, key).split_whitespace().any(|k| k == w))
    };
    // "air strike", "въздушен удар": the first word only qualifies the second.
    if words.len() > 1
        && is(words[0], "weapon-typed-air")
        && is(words[1], "weapon-typed-air-strike")
    {
        words.remove(0);
    }
    let first = *words.first()?;
    let weapon = [
        (engine::Weapon::Radar, "weapon-typed-radar"),
        (engine::Weapon::AirStrike, "weapon-typed-air-strike"),
        (engine::Weapon::Torpedo, "weapon-typed-torpedo"),
    ]
    .into_iter()
    .find(|(_, key)| is(first, key))?
    .0;
    let rest = &words[1..];
    let (cell, arrow) = match rest {
        [cell] => (*cell, None),
        [cell, arrow] => (*cell, Some(*arrow)),
        _ => return Some(Err(())),
    };
    let Ok(cell) = engine::parse_cell(cell, alphabet, size) else {
        return Some(Err(()));
    };
    let heading = match arrow {
        None => None,
        Some("→" | ">" | "->") => Some(engine::Heading::East),
        Some("←" | "<" | "<-") => Some(engine::Heading::West),
        Some("↓" | "v") => Some(engine::Heading::South),
        Some("↑" | "^") => Some(engine::Heading::North),
        Some(_) => return Some(Err(())),
    };
    if heading.is_some() && weapon != engine::Weapon::Torpedo {
        return Some(Err(()));
    }
    Some(Ok((weapon, cell, heading)))
}

/// HTML made of [`escape`]d text back to plain text (a button's answer is not HTML).
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// A field as monospace lines: column letters on top, row numbers on the left. `cell` gives
/// the character of each cell.
pub fn grid_text(size: Size, alphabet: Alphabet, cell: impl Fn(Coord) -> char) -> String {
    let pad = if size.height >= 10 { 2 } else { 1 };
    let mut out = format!("{:pad$} ", "");
    for x in 0..size.width {
        out.push(' ');
        out.push(alphabet.column_label(x, size.width));
    }
    for y in 0..size.height {
        out.push('\n');
        out.push_str(&format!("{:>pad$} ", y + 1));
        for x in 0..size.width {
            out.push(' ');
            out.push(cell(Coord::new(x, y)));
        }
    }
    out
}

/// A field as a viewer sees it; land shows as `,` where the viewer sees the border. A cell
/// known empty ([`engine::Game::known_empty`]: a sunk ship's halo, a hit's corners where
/// ships never touch) is `-`, as the engine marks it: what a press there is refused for.
pub fn field_text(field: &FieldView, alphabet: Alphabet) -> String {
    grid_text(field.size, alphabet, |c| {
        let mark = field.mark(c);
        let land = field.border.as_ref().is_some_and(|b| b.is_land(c));
        if land && mark == Mark::Unknown {
            ','
        } else {
            symbol(mark)
        }
    })
}
