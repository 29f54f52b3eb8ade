//! The Riga board game (docs/rules.md §5) in the terminal: `morskoy-boy play --game riga` plays
//! South against the bot as North, with the same options as Sea Battle (`terminal.rs`):
//! `--lang`, `--level` (learning plays as hard), `--seed` or `MB_SEED`.
//!
//! Set-up: the player's ships in a random order on their start line; Enter takes it, `r`
//! shuffles again, or the twelve ships' letters (or abbreviations) west to east set an order;
//! the first mover is drawn by lot. Then a move a line in the notation of
//! [`riga::notation`] (`д11 вперёд`, `e11 f`); `?` shows the legend, `q` or the end of the
//! input quits. A side with no move passes by itself. Words come from `locales/` as ever:
//! the game's from `riga.ftl` through [`crate::view::riga_text`], the terminal's `term-riga-` keys.

use crate::game::lang::Lang;
use crate::terminal::prompt::{ask, layout_key, Options, Outcome};
use crate::view::i18n::{t, ta};
use crate::view::riga_text::{
    board, fleet_line, legend, move_error, move_line, move_points, outcome_line, parse_error,
    ship_abbr, ship_letter,
};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use riga::ai::{choose, Level};
use riga::notation::parse_move;
use riga::{Facing, Game, Kind, Move, Point, Ship, Side, FLEET};
use std::io::{self, BufRead, Write};

/// The player's side: South, at the bottom of the board.
pub const HUMAN: Side = Side::South;
/// The bot's side.
pub const COMPUTER: Side = Side::North;

/// The Riga bot's level for the command line's (learning plays as hard).
pub fn level_for(level: engine::ai::Level) -> Level {
    match level {
        engine::ai::Level::Easy => Level::Easy,
        engine::ai::Level::Normal => Level::Normal,
        engine::ai::Level::Hard | engine::ai::Level::Learning => Level::Hard,
    }
}

/// The five types, in the order of [`FLEET`].
const KINDS: [Kind; 5] = [
    Kind::Cruiser,
    Kind::Submarine,
    Kind::Destroyer,
    Kind::Patrol,
    Kind::Minesweeper,
];

/// An order typed at set-up: the twelve ships west to east as the language's board letters or
/// abbreviations, separated by spaces or commas, or twelve letters written together
/// (`КППЭЭЭЭЭЭССТ`); any case. `None` unless it is exactly the fleet.
pub fn parse_order(lang: Lang, text: &str) -> Option<Vec<Kind>> {
    let text = text.to_lowercase();
    let mut tokens: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    if let [word] = tokens.as_slice() {
        if word.chars().count() == FLEET.len() {
            tokens = word.chars().map(String::from).collect();
        }
    }
    let order = tokens
        .iter()
        .map(|w| {
            KINDS.into_iter().find(|&k| {
                *w == ship_letter(lang, k).to_lowercase().to_string()
                    || *w == ship_abbr(lang, k).to_lowercase()
            })
        })
        .collect::<Option<Vec<Kind>>>()?;
    Game::new(&order, &order, HUMAN).ok().map(|_| order)
}

/// The player's fleet alone on the board, as set up in `order` (the enemy's is not shown
/// until both are set).
fn setup_view(order: &[Kind]) -> Game {
    let ships = Point::starts(HUMAN)
        .into_iter()
        .zip(order)
        .map(|(at, &kind)| {
            Some(Ship {
                side: HUMAN,
                kind,
                at,
                facing: Facing::North,
            })
        })
        .collect();
    Game::custom(ships, Vec::new(), [0, 0], HUMAN)
}

/// The ships' letters of `order`, separated by spaces: «К П П Э …».
fn letters(lang: Lang, order: &[Kind]) -> String {
    order
        .iter()
        .map(|&k| ship_letter(lang, k).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board with the last move marked and both fleets' counts below.
fn position(lang: Lang, game: &Game, last: Option<(Point, Point)>) -> String {
    format!(
        "{}\n{}\n{}",
        board(lang, game, last),
        fleet_line(lang, game, COMPUTER),
        fleet_line(lang, game, HUMAN)
    )
}

/// Plays one Riga game against the bot: reads the player's answers from `input` line by line
/// and writes everything to `out`; `echo` repeats each line read after its prompt (for piped
/// input). `opts.game` is not looked at.
///
/// # Errors
/// Only the I/O errors of `input` and `out`.
pub fn run(
    opts: &Options,
    input: &mut impl BufRead,
    out: &mut impl Write,
    echo: bool,
) -> io::Result<Outcome> {
    let lang = opts.lang;
    let seed = opts.seed.unwrap_or_else(rand::random);
    let mut rng = StdRng::seed_from_u64(seed);
    let level = t(lang, &format!("term-level-{}", opts.level));
    writeln!(
        out,
        "{}",
        ta(lang, "term-riga-title", &[("level", level.into())])
    )?;
    writeln!(
        out,
        "{}",
        ta(lang, "term-seed", &[("seed", seed.to_string().into())])
    )?;
    writeln!(out, "{}", t(lang, "term-riga-sides"))?;
    writeln!(out, "{}", legend(lang))?;
    let quit = |out: &mut dyn Write| -> io::Result<Outcome> {
        writeln!(out, "{}", t(lang, "term-riga-quit"))?;
        Ok(Outcome::Quit)
    };

    // Set-up: a random order, another, or one typed, until the player takes one.
    let example = letters(lang, &FLEET);
    let mut order = FLEET.to_vec();
    order.shuffle(&mut rng);
    let mut show = true;
    loop {
        if show {
            // The board's letters, the ones the order is typed in.
            writeln!(out, "\n{}", board(lang, &setup_view(&order), None))?;
            writeln!(
                out,
                "{}",
                ta(
                    lang,
                    "term-riga-order",
                    &[("order", letters(lang, &order).into())]
                )
            )?;
        }
        let prompt = ta(
            lang,
            "term-riga-setup-prompt",
            &[("example", example.as_str().into())],
        );
        let Some(line) = ask(&prompt, input, out, echo)? else {
            return quit(out);
        };
        show = true;
        match layout_key(&line) {
            "" => break,
            "r" => order.shuffle(&mut rng),
            "q" => return quit(out),
            typed => match parse_order(lang, typed) {
                Some(typed) => order = typed,
                None => {
                    writeln!(
                        out,
                        "{}",
                        ta(
                            lang,
                            "term-riga-setup-unknown",
                            &[("example", example.as_str().into())]
                        )
                    )?;
                    show = false;
                }
            },
        }
    }
    let mut theirs = FLEET.to_vec();
    theirs.shuffle(&mut rng);
    let first = if rng.gen_bool(0.5) { HUMAN } else { COMPUTER };
    let mut game = Game::new(&theirs, &order, first).expect("both orders are the fleet");
    let lot = if first == HUMAN {
        "term-riga-first-you"
    } else {
        "term-riga-first-ai"
    };
    writeln!(out, "\n{}", t(lang, lot))?;

    // The battle.
    let level = level_for(opts.level);
    let move_example = t(lang, "term-riga-example");
    let prompt = ta(
        lang,
        "term-riga-prompt",
        &[("example", move_example.as_str().into())],
    );
    let mut last = None;
    let mut show = true;
    loop {
        if let Some(end) = outcome_line(lang, &game) {
            writeln!(out, "\n{}", position(lang, &game, last))?;
            writeln!(out, "{end}")?;
            return Ok(match game.outcome() {
                Some(riga::Outcome::Win(side)) if side == HUMAN => {
                    writeln!(out, "{}", t(lang, "term-won"))?;
                    Outcome::Won
                }
                Some(riga::Outcome::Win(_)) => {
                    writeln!(out, "{}", t(lang, "term-lost"))?;
                    Outcome::Lost
                }
                _ => Outcome::Draw,
            });
        }
        let side = game.turn();
        let forced = game.legal_moves() == vec![Move::Pass];
        if side == COMPUTER || forced {
            let mv = if forced {
                Move::Pass
            } else {
                choose(&game, level, &mut |n| rng.gen_range(0..n)).expect("a game in play")
            };
            let before = game.clone();
            let lost = game.play(side, mv).expect("the bot plays legal moves");
            writeln!(out, "{}", move_line(lang, &before, mv, &lost))?;
            last = move_points(&before, mv);
            show = true;
            continue;
        }
        if show {
            writeln!(out, "\n{}", position(lang, &game, last))?;
            show = false;
        }
        let Some(line) = ask(&prompt, input, out, echo)? else {
            return quit(out);
        };
        match layout_key(&line) {
            "" => continue,
            "q" => return quit(out),
            "?" => {
                writeln!(out, "{}", legend(lang))?;
                continue;
            }
            _ => {}
        }
        let mv = match parse_move(&line, &game) {
            Ok(mv) => mv,
            Err(e) => {
                writeln!(out, "{}", parse_error(lang, &e, &move_example))?;
                continue;
            }
        };
        let before = game.clone();
        match game.play(HUMAN, mv) {
            Ok(lost) => {
                writeln!(out, "{}", move_line(lang, &before, mv, &lost))?;
                last = move_points(&before, mv);
                show = true;
            }
            Err(e) => writeln!(out, "{}", move_error(lang, &game, mv, e))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terminal::prompt::GameChoice;

    fn opts(lang: Lang, seed: u64) -> Options {
        Options {
            arsenal: 0,
            game: GameChoice::Riga,
            lang,
            level: engine::ai::Level::Easy,
            seed: Some(seed),
            help: false,
        }
    }

    #[test]
    fn orders_are_typed_as_letters_or_abbreviations() {
        let fleet = Some(FLEET.to_vec());
        assert_eq!(parse_order(Lang::Ru, "К П П Э Э Э Э Э Э С С Т"), fleet);
        assert_eq!(parse_order(Lang::Ru, "кппээээээсст"), fleet);
        assert_eq!(
            parse_order(Lang::Ru, "К, Пл, Пл, ЭМ, ЭМ, ЭМ, ЭМ, ЭМ, ЭМ, СКР, СКР, Т"),
            fleet
        );
        assert_eq!(parse_order(Lang::Bg, "К П П Р Р Р Р Р Р Т Т М"), fleet);
        assert_eq!(parse_order(Lang::En, "c s s d d d d d d p p m"), fleet);
        assert_eq!(
            parse_order(Lang::En, "CR SS SS DD DD DD DD DD DD PS PS MS"),
            fleet
        );
        let mut reversed = FLEET.to_vec();
        reversed.reverse();
        assert_eq!(parse_order(Lang::En, "MPPDDDDDDSSC"), Some(reversed));
        // Two cruisers, eleven ships, a letter of another language.
        assert_eq!(parse_order(Lang::En, "C C S D D D D D D P P M"), None);
        assert_eq!(parse_order(Lang::En, "C S S D D D D D D P P"), None);
        assert_eq!(parse_order(Lang::Ru, "c s s d d d d d d p p m"), None);
    }

    #[test]
    fn a_whole_game_between_easy_and_a_script_of_turns_ends() {
        // The player only ever turns its first ship: the bot takes the fleet or 60 quiet
        // moves end it; either way the game reaches its end before the script does.
        for lang in Lang::ALL {
            let mut script = String::from("\n");
            for _ in 0..400 {
                let at = crate::view::riga_text::point(lang, Point { col: 0, row: 10 });
                script.push_str(&format!("{at} l\n"));
            }
            let mut out = Vec::new();
            let outcome = run(&opts(lang, 3), &mut script.as_bytes(), &mut out, false).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_ne!(outcome, Outcome::Quit, "{lang}:\n{text}");
            let end = t(lang, "term-riga-quit");
            assert!(!text.contains(&end), "{lang}:\n{text}");
        }
    }
}
