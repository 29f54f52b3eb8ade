//! What both games in the terminal share: the options, how a game ended, and the prompt
//! loop's one question at a time.

use crate::game::lang::Lang;
use engine::ai::Level;
use std::io::{self, BufRead, Write};

/// Which game `morskoy-boy play` plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameChoice {
    /// Sea Battle, the bot's game.
    #[default]
    SeaBattle,
    /// The Riga board game (docs/rules.md §5), in `riga_terminal.rs`.
    Riga,
}

impl std::str::FromStr for GameChoice {
    type Err = ();
    fn from_str(s: &str) -> Result<GameChoice, ()> {
        match s {
            "seabattle" | "sea-battle" => Ok(GameChoice::SeaBattle),
            "riga" => Ok(GameChoice::Riga),
            _ => Err(()),
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Which game to play.
    pub game: GameChoice,
    /// The language of every message, and the column letters (Russian, Bulgarian or Latin).
    pub lang: Lang,
    /// How well the AI plays.
    pub level: Level,
    /// The seed of the game's random source; `None` draws one (and prints it).
    pub seed: Option<u64>,
    /// How many of each weapon of the arsenal each side has (docs/rules.md §3.8): 0, 1 or 2.
    pub arsenal: u8,
    /// Print the usage and stop.
    pub help: bool,
}

/// How a game in the terminal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player sank the AI's fleet.
    Won,
    /// The AI sank the player's fleet.
    Lost,
    /// Neither won (the Riga game's draws).
    Draw,
    /// The player quit (`q` or the end of the input).
    Quit,
}

/// A one-letter answer in lower case, forgiving the Russian keyboard layout: the keys of
/// `r`, `p` and `q` type `\u{43a}`, `\u{437}` and `\u{439}` there.
pub fn layout_key(line: &str) -> &str {
    match line {
        "r" | "R" | "\u{43a}" | "\u{41a}" => "r",
        "p" | "P" | "\u{437}" | "\u{417}" => "p",
        "q" | "Q" | "\u{439}" | "\u{419}" => "q",
        other => other,
    }
}

/// One line of input without its line end and surrounding spaces; `None` at the end.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    if input.read_until(b'\n', &mut buf)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(&buf).trim().to_owned()))
}

/// Shows `prompt`, then reads a line (echoing it when `echo`).
pub fn ask(
    prompt: &str,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<Option<String>> {
    write!(out, "{prompt} ")?;
    out.flush()?;
    let line = read_line(input)?;
    match &line {
        Some(l) if echo => writeln!(out, "{l}")?,
        Some(_) => {}
        None => writeln!(out)?,
    }
    Ok(line)
}
