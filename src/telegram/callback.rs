//! Callback data: what a button means, typed, in at most 64 bytes.
//!
//! Buttons stay in chats for months, so every kind carries the game id, and group buttons
//! the generation of the message they belong to; an old button decodes and is then refused
//! politely ("this game is over", "out of date"), never misread.

use crate::store::GameId;
use std::fmt;

/// The most bytes Telegram takes in callback data.
pub const MAX_LEN: usize = 64;

/// A button's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// Lobby: take a seat.
    Join(GameId, u32),
    /// Lobby: start placement (creator).
    Start(GameId, u32),
    /// Lobby: call the game off (creator).
    Cancel(GameId, u32),
    /// Lobby: seat the bot (creator).
    Bot(GameId, u32),
    /// Battle: shoot at `target`'s cell with this row-major index.
    Fire(GameId, u32, u8, u16),
    /// Battle: show another block of the target field.
    View(GameId, u32, u8),
    /// Finished game: a new game with the same players.
    Rematch(GameId),
    /// Placement editor: tap a cell.
    Cell(GameId, u16),
    /// Placement editor: show another block.
    Block(GameId, u8),
    /// Placement editor: undo, clear, random, Perelman, ready.
    Edit(GameId, EditOp),
    /// `/lang`: speak this language (to the user in private, to the group in a group).
    Lang(crate::lang::Lang),
    /// `/settings`: the chat's column letters.
    Alphabet(engine::Alphabet),
    /// `/settings`: how well the bot plays in the chat.
    AiLevel(engine::ai::Level),
    /// Does nothing (labels, spacers).
    Noop,
}

/// A placement editor command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditOp {
    /// Take back the last edit.
    Undo,
    /// Remove every ship.
    Clear,
    /// A random layout.
    Random,
    /// Perelman's layout.
    Perelman,
    /// Lock the fleet.
    Ready,
    /// Place the ship of the tapped cells.
    Confirm,
    /// Taps place mines (again: ships).
    Mines,
    /// Taps move the land-sea border (again: ships).
    Border,
    /// A random land-sea border.
    RandomBorder,
}

impl EditOp {
    fn code(self) -> char {
        match self {
            EditOp::Undo => 'u',
            EditOp::Clear => 'c',
            EditOp::Random => 'r',
            EditOp::Perelman => 'p',
            EditOp::Ready => 'k',
            EditOp::Confirm => 'f',
            EditOp::Mines => 'm',
            EditOp::Border => 'b',
            EditOp::RandomBorder => 'g',
        }
    }

    fn from_code(c: &str) -> Option<EditOp> {
        Some(match c {
            "u" => EditOp::Undo,
            "c" => EditOp::Clear,
            "r" => EditOp::Random,
            "p" => EditOp::Perelman,
            "k" => EditOp::Ready,
            "f" => EditOp::Confirm,
            "m" => EditOp::Mines,
            "b" => EditOp::Border,
            "g" => EditOp::RandomBorder,
            _ => return None,
        })
    }
}

impl fmt::Display for Button {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Button::Join(g, n) => write!(f, "j:{g}:{n}"),
            Button::Start(g, n) => write!(f, "s:{g}:{n}"),
            Button::Cancel(g, n) => write!(f, "x:{g}:{n}"),
            Button::Bot(g, n) => write!(f, "b:{g}:{n}"),
            Button::Fire(g, n, t, c) => write!(f, "f:{g}:{n}:{t}:{c}"),
            Button::View(g, n, b) => write!(f, "v:{g}:{n}:{b}"),
            Button::Rematch(g) => write!(f, "r:{g}"),
            Button::Cell(g, c) => write!(f, "pt:{g}:{c}"),
            Button::Block(g, b) => write!(f, "pv:{g}:{b}"),
            Button::Edit(g, op) => write!(f, "pe:{g}:{}", op.code()),
            Button::Lang(l) => write!(f, "l:{l}"),
            Button::Alphabet(a) => write!(f, "a:{a}"),
            Button::AiLevel(l) => write!(f, "al:{l}"),
            Button::Noop => f.write_str("-"),
        }
    }
}

impl Button {
    /// Reads callback data; `None` for anything this bot never wrote.
    pub fn parse(data: &str) -> Option<Button> {
        if data.len() > MAX_LEN {
            return None;
        }
        let parts: Vec<&str> = data.split(':').collect();
        let num = |i: usize| parts.get(i)?.parse::<u64>().ok();
        let game = || num(1).map(GameId);
        let small = |i: usize| num(i).and_then(|n| u32::try_from(n).ok());
        let tiny = |i: usize| num(i).and_then(|n| u8::try_from(n).ok());
        let cell = |i: usize| num(i).and_then(|n| u16::try_from(n).ok());
        let b = match (parts.first().copied()?, parts.len()) {
            ("j", 3) => Button::Join(game()?, small(2)?),
            ("s", 3) => Button::Start(game()?, small(2)?),
            ("x", 3) => Button::Cancel(game()?, small(2)?),
            ("b", 3) => Button::Bot(game()?, small(2)?),
            ("f", 5) => Button::Fire(game()?, small(2)?, tiny(3)?, cell(4)?),
            ("v", 4) => Button::View(game()?, small(2)?, tiny(3)?),
            ("r", 2) => Button::Rematch(game()?),
            ("pt", 3) => Button::Cell(game()?, cell(2)?),
            ("pv", 3) => Button::Block(game()?, tiny(2)?),
            ("pe", 3) => Button::Edit(game()?, EditOp::from_code(parts[2])?),
            ("l", 2) => Button::Lang(parts[1].parse().ok()?),
            ("a", 2) => Button::Alphabet(parts[1].parse().ok()?),
            ("al", 2) => Button::AiLevel(parts[1].parse().ok()?),
            ("-", 1) => Button::Noop,
            _ => return None,
        };
        Some(b)
    }
}

/// The deep-link payload that completes a join in the private chat: `j<game id>`.
pub fn join_payload(game: GameId) -> String {
    format!("j{game}")
}

/// Reads a deep-link payload.
pub fn parse_join_payload(payload: &str) -> Option<GameId> {
    payload.strip_prefix('j')?.parse().ok().map(GameId)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_round_trips_and_the_longest_fits_in_64_bytes() {
        let g = GameId(u64::MAX);
        let all = [
            Button::Join(g, u32::MAX),
            Button::Start(g, u32::MAX),
            Button::Cancel(g, u32::MAX),
            Button::Bot(g, u32::MAX),
            Button::Fire(g, u32::MAX, u8::MAX, u16::MAX),
            Button::View(g, u32::MAX, u8::MAX),
            Button::Rematch(g),
            Button::Cell(g, u16::MAX),
            Button::Block(g, u8::MAX),
            Button::Edit(g, EditOp::Perelman),
            Button::Edit(g, EditOp::Confirm),
            Button::Edit(g, EditOp::Mines),
            Button::Edit(g, EditOp::Border),
            Button::Edit(g, EditOp::RandomBorder),
            Button::Lang(crate::lang::Lang::Bg),
            Button::Alphabet(engine::Alphabet::RussianYo),
            Button::AiLevel(engine::ai::Level::Normal),
            Button::Noop,
        ];
        for b in all {
            let data = b.to_string();
            assert!(
                !data.is_empty() && data.len() <= MAX_LEN,
                "{data} is {} bytes",
                data.len()
            );
            assert_eq!(Button::parse(&data), Some(b));
        }
    }

    #[test]
    fn forged_or_foreign_data_is_not_misread() {
        for data in [
            "",
            "f:1:2:3",
            "f:x:1:1:1",
            "pe:1:z",
            "q:1",
            "j:1:2:3",
            "al:genius",
            "b:1",
            &"j:1:".repeat(30),
        ] {
            assert_eq!(Button::parse(data), None, "{data}");
        }
    }

    #[test]
    fn the_join_payload_round_trips() {
        assert_eq!(
            parse_join_payload(&join_payload(GameId(77))),
            Some(GameId(77))
        );
        assert_eq!(parse_join_payload("x77"), None);
    }
}
