//! Sea Battle in the terminal: `morskoy-boy play` runs a duel against the AI with the same
//! engine and the same locales as the bot, for people without a bot token and for developers.
//!
//! ```text
//! cargo run --release -- play [--game seabattle|riga] [--lang ru|bg|en]
//!     [--level easy|normal|hard|learning] [--seed N] [--arsenal 0|1|2]
//! ```
//!
//! `--arsenal 1` (or 2) gives both sides the arsenal of docs/rules.md §3.8: the player types
//! `radar e5`, `air strike e5` or `torpedo a5` (with an arrow from a corner: `torpedo a1 →`)
//! in any of the three languages, as in reply to the bot's battle message.
//!
//! `--game riga` plays the Riga board game (docs/rules.md §5) instead: see `riga_terminal.rs`.
//!
//! The language comes from `--lang`, else from the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`:
//! `ru_RU.UTF-8` is Russian); the level defaults to normal; `--seed` (or `MB_SEED`) makes the
//! game reproducible. Input is read line by line, so a script can be piped in: an empty line
//! takes the offered layout, then one cell a line (`в6`, `b6`, `B6`); `q` or the end of the
//! input quits. Needs no Telegram, no Redis and no async runtime.

pub mod prompt;
pub mod riga;

pub use prompt::{ask, layout_key, GameChoice, Options, Outcome};

use crate::game::ai_move::decide;
use crate::game::lang::Lang;
use crate::game::rating::figures_of;
use crate::view::i18n::{t, ta, Arg};
use crate::view::render::{field_text, grid_text, result_words, symbol};
use crate::view::render::{log_line, typed_weapon};
use engine::ai::Level;
use engine::{
    format_cell, parse_cell, perelman_fleet, random_fleet, Action, ActionError, Alphabet,
    CellParseError, CellParseErrorKind, Coord, Event, FieldView, Fleet, Game, Mark, Phase,
    PlayerId, Ruleset, SeatId,
};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{self, BufRead, IsTerminal, Write};

/// The player's seat.
const HUMAN: SeatId = SeatId(0);
/// The AI's seat.
const COMPUTER: SeatId = SeatId(1);
/// Spaces between the two fields shown side by side.
const GAP: usize = 6;

/// A command line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// An option that does not exist.
    UnknownOption(String),
    /// An option's value that it does not take.
    BadValue(String, String),
    /// An option without its value.
    MissingValue(String),
}

impl ArgError {
    /// The error in words.
    pub fn words(&self, lang: Lang) -> String {
        match self {
            ArgError::UnknownOption(o) => {
                ta(lang, "term-bad-option", &[("option", o.as_str().into())])
            }
            ArgError::BadValue(o, v) => ta(
                lang,
                "term-bad-value",
                &[("option", o.as_str().into()), ("value", v.as_str().into())],
            ),
            ArgError::MissingValue(o) => {
                ta(lang, "term-missing-value", &[("option", o.as_str().into())])
            }
        }
    }
}

/// The language of a POSIX locale value: `ru_RU.UTF-8` → Russian, `bg_BG` → Bulgarian,
/// `uk_UA.UTF-8` → Russian (as the bot does for Telegram's codes), anything else → English.
pub fn lang_from_locale(value: &str) -> Lang {
    let name = value.split(['.', '@']).next().unwrap_or("");
    Lang::from_telegram(Some(name))
}

/// The language of the environment: the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`.
pub fn lang_from_env() -> Lang {
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .map_or(Lang::En, |v| lang_from_locale(&v))
}

/// The default column letters of a language, as in the bot's lobby.
pub fn alphabet_for(lang: Lang) -> Alphabet {
    match lang {
        Lang::Ru => Alphabet::Russian,
        Lang::Bg => Alphabet::Bulgarian,
        Lang::En => Alphabet::Latin,
    }
}

/// Reads the arguments after `play`. `lang` is the environment's language, used unless
/// `--lang` is given; `env_seed` is `MB_SEED`, used unless `--seed` is given.
///
/// # Errors
/// An unknown option, a value an option does not take, or an option without its value.
pub fn parse_args(
    args: &[String],
    lang: Lang,
    env_seed: Option<&str>,
) -> Result<Options, ArgError> {
    let seed = |name: &str, v: &str| {
        v.trim()
            .parse::<u64>()
            .map_err(|_| ArgError::BadValue(name.to_owned(), v.to_owned()))
    };
    let mut opts = Options {
        game: GameChoice::SeaBattle,
        lang,
        level: Level::Normal,
        seed: match env_seed.filter(|s| !s.trim().is_empty()) {
            Some(v) => Some(seed("MB_SEED", v)?),
            None => None,
        },
        arsenal: 0,
        help: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "-h" || arg == "--help" {
            opts.help = true;
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        if !["--game", "--lang", "--level", "--seed", "--arsenal"].contains(&name) {
            return Err(ArgError::UnknownOption(arg.clone()));
        }
        let value = match inline.or_else(|| args.next().cloned()) {
            Some(v) => v,
            None => return Err(ArgError::MissingValue(name.to_owned())),
        };
        let bad = || ArgError::BadValue(name.to_owned(), value.clone());
        match name {
            "--game" => {
                opts.game = value
                    .trim()
                    .to_ascii_lowercase()
                    .parse()
                    .map_err(|()| bad())?
            }
            "--lang" => {
                opts.lang = value
                    .trim()
                    .to_ascii_lowercase()
                    .parse()
                    .map_err(|()| bad())?
            }
            "--level" => {
                opts.level = value
                    .trim()
                    .to_ascii_lowercase()
                    .parse()
                    .map_err(|_| bad())?
            }
            "--arsenal" => {
                opts.arsenal = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&n| n <= 2)
                    .ok_or_else(bad)?
            }
            _ => opts.seed = Some(seed(name, &value)?),
        }
    }
    Ok(opts)
}

/// `morskoy-boy play …`: reads the arguments after `play` and the environment, plays one game
/// on stdin and stdout, and returns the process's exit code (0, or 2 for a bad command line).
pub fn main(args: impl IntoIterator<Item = String>) -> i32 {
    let args: Vec<String> = args.into_iter().collect();
    let env_lang = lang_from_env();
    let env_seed = std::env::var("MB_SEED").ok();
    let opts = match parse_args(&args, env_lang, env_seed.as_deref()) {
        Ok(opts) => opts,
        Err(e) => {
            // In the language asked for, if that much of the command line was right.
            let lang = args
                .iter()
                .zip(args.iter().skip(1))
                .find(|(flag, _)| *flag == "--lang")
                .map(|(_, v)| v.as_str())
                .or_else(|| args.iter().find_map(|a| a.strip_prefix("--lang=")))
                .and_then(|v| v.parse().ok())
                .unwrap_or(env_lang);
            eprintln!("{}", e.words(lang));
            return 2;
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if opts.help {
        return match writeln!(out, "{}", t(opts.lang, "term-usage")) {
            Ok(()) => 0,
            Err(_) => 1,
        };
    }
    let stdin = io::stdin();
    // Piped input is not shown by a terminal: echo it, so the transcript reads as a dialogue.
    let echo = !stdin.is_terminal();
    let played = match opts.game {
        GameChoice::SeaBattle => run(&opts, &mut stdin.lock(), &mut out, echo),
        GameChoice::Riga => crate::terminal::riga::run(&opts, &mut stdin.lock(), &mut out, echo),
    };
    match played {
        Ok(_) => 0,
        // Output closed early (`| head`): nothing more to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}

/// The two columns of text next to each other, the left padded to its widest line.
fn side_by_side(left: &[String], right: &[String]) -> String {
    let width = left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let rows = left.len().max(right.len());
    let mut out = Vec::with_capacity(rows);
    for i in 0..rows {
        let l = left.get(i).map_or("", String::as_str);
        let r = right.get(i).map_or("", String::as_str);
        let pad = width - l.chars().count() + GAP;
        out.push(format!("{l}{:pad$}{r}", "").trim_end().to_owned());
    }
    out.join("\n")
}

/// A field with its title above and the ships afloat below.
fn titled(
    lang: Lang,
    title: &str,
    field: &FieldView,
    ruleset: &Ruleset,
    alphabet: Alphabet,
) -> Vec<String> {
    let afloat = ruleset.fleet().len().saturating_sub(field.sunk.len());
    let mut lines = vec![title.to_owned()];
    lines.extend(field_text(field, alphabet).lines().map(str::to_owned));
    lines.push(ta(lang, "term-afloat", &[("ships", afloat.into())]));
    lines
}

/// Both fields as the player sees them, side by side, and the legend.
fn boards(lang: Lang, game: &Game, alphabet: Alphabet) -> String {
    let view = game.view_for(HUMAN);
    let side = |key, seat| {
        titled(
            lang,
            &t(lang, key),
            view.field(seat),
            game.ruleset(),
            alphabet,
        )
    };
    let own = side("term-own-field", HUMAN);
    let enemy = side("term-enemy-field", COMPUTER);
    format!("{}\n{}", side_by_side(&own, &enemy), t(lang, "term-legend"))
}

/// A fleet not yet in the game, as its owner sees it.
fn fleet_text(lang: Lang, fleet: &Fleet, ruleset: &Ruleset, alphabet: Alphabet) -> String {
    let grid = grid_text(ruleset.size(), alphabet, |c| {
        symbol(if fleet.ship_at(c).is_some() {
            Mark::Ship
        } else {
            Mark::Unknown
        })
    });
    format!("{}\n{grid}", t(lang, "term-own-field"))
}

/// Why a typed cell was refused, in words.
fn cell_error(lang: Lang, input: &str, e: &CellParseError) -> String {
    let x = e.expected;
    match e.kind {
        CellParseErrorKind::UnknownColumn(c) => ta(
            lang,
            "term-unknown-column",
            &[
                ("column", c.to_string().into()),
                ("first", x.first_column.to_string().into()),
                ("last", x.last_column.to_string().into()),
            ],
        ),
        CellParseErrorKind::RowOutOfRange(row) => ta(
            lang,
            "term-row-off-field",
            &[("row", i64::from(row).into()), ("rows", x.rows.into())],
        ),
        _ => ta(
            lang,
            "term-bad-cell",
            &[
                ("input", input.into()),
                ("first", format!("{}1", x.first_column).into()),
                ("last", format!("{}{}", x.last_column, x.rows).into()),
            ],
        ),
    }
}

/// The shots among `events`, one line each: `You: в6 — мимо`.
fn shot_lines(lang: Lang, events: &[Event], alphabet: Alphabet, ruleset: &Ruleset) -> String {
    let size = ruleset.size();
    events
        .iter()
        .filter_map(|e| match e {
            Event::Shot {
                shooter,
                cell,
                result,
                ..
            } => Some(ta(
                lang,
                if *shooter == HUMAN {
                    "term-you-shot"
                } else {
                    "term-ai-shot"
                },
                &[
                    ("cell", format_cell(*cell, alphabet, size).into()),
                    ("result", result_words(lang, *result).into()),
                ],
            )),
            Event::Radar { .. } | Event::AirStrike { .. } | Event::Torpedo { .. } => {
                let names = [t(lang, "term-name-you"), t(lang, "term-name-ai")];
                log_line(lang, e, &names, alphabet, size, false)
            }
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays one game: reads the player's answers from `input` line by line and writes
/// everything to `out`; `echo` repeats each line read after its prompt (for piped input).
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
    let alphabet = alphabet_for(lang);
    let ruleset = Ruleset {
        arsenal: opts.arsenal,
        ..Ruleset::default()
    };
    let size = ruleset.size();
    let seed = opts.seed.unwrap_or_else(rand::random);
    let mut rng = StdRng::seed_from_u64(seed);
    let level = t(lang, &format!("term-level-{}", opts.level));
    writeln!(
        out,
        "{}",
        ta(lang, "term-title", &[("level", level.into())])
    )?;
    writeln!(
        out,
        "{}",
        ta(lang, "term-seed", &[("seed", seed.to_string().into())])
    )?;
    let quit = |out: &mut dyn Write| -> io::Result<Outcome> {
        writeln!(out, "{}", t(lang, "term-quit"))?;
        Ok(Outcome::Quit)
    };

    let mut game = Game::new(ruleset.clone());
    for action in [
        Action::Join(PlayerId(1)),
        Action::Join(PlayerId(2)),
        Action::Start,
    ] {
        game.apply(action, 0, &mut rng)
            .expect("a new duel takes two players and starts");
    }

    // Placement: a random layout, another, or Perelman's, until the player takes one.
    let mut fleet = random_fleet(&ruleset, &mut rng).expect("the classic fleet fits");
    let mut show = true;
    loop {
        if show {
            writeln!(out, "\n{}", fleet_text(lang, &fleet, &ruleset, alphabet))?;
        }
        let Some(line) = ask(&t(lang, "term-layout-prompt"), input, out, echo)? else {
            return quit(out);
        };
        show = true;
        match layout_key(&line) {
            "" => break,
            "r" => fleet = random_fleet(&ruleset, &mut rng).expect("the classic fleet fits"),
            "p" => fleet = perelman_fleet(&ruleset, &mut rng).expect("the classic fleet fits"),
            "q" => return quit(out),
            _ => {
                writeln!(out, "{}", t(lang, "term-layout-unknown"))?;
                show = false;
            }
        }
    }
    let theirs = random_fleet(&ruleset, &mut rng).expect("the classic fleet fits");
    game.apply(Action::Ready(HUMAN, fleet), 0, &mut rng)
        .expect("a generated fleet is legal");
    game.apply(Action::Ready(COMPUTER, theirs), 0, &mut rng)
        .expect("a generated fleet is legal");
    let first = if game.turn() == HUMAN {
        "term-first-you"
    } else {
        "term-first-ai"
    };
    writeln!(out, "\n{}", t(lang, first))?;

    // The battle.
    let example = format_cell(Coord::new(1, 5), alphabet, size);
    let prompt = |game: &Game| {
        if ruleset.arsenal == 0 {
            return ta(lang, "term-prompt", &[("example", example.as_str().into())]);
        }
        let [r, a, t] = game.weapons_left(HUMAN);
        ta(
            lang,
            "term-prompt-arsenal",
            &[
                ("example", example.as_str().into()),
                ("radar", r.into()),
                ("air", a.into()),
                ("torpedo", t.into()),
            ],
        )
    };
    // Every result, in order: what the figures at the end are counted from.
    let mut log: Vec<Event> = Vec::new();
    let mut show = true;
    while !game.is_finished() {
        if game.turn() == COMPUTER {
            let view = game.view_for(COMPUTER);
            let mine = game.mine_choice().is_some();
            let budget = engine::ai::Budget::default();
            let action =
                decide(&view, COMPUTER, opts.level, mine, &[], &mut rng, budget).expect("a move");
            let events = game
                .apply(action, 0, &mut rng)
                .expect("the AI makes only moves it may");
            writeln!(out, "{}", shot_lines(lang, &events, alphabet, &ruleset))?;
            log.extend(events);
            show = true;
            continue;
        }
        if show {
            writeln!(out, "\n{}", boards(lang, &game, alphabet))?;
            show = false;
        }
        let Some(line) = ask(&prompt(&game), input, out, echo)? else {
            return quit(out);
        };
        if line.is_empty() {
            continue;
        }
        if layout_key(&line) == "q" {
            return quit(out);
        }
        let action = match typed_weapon(&line, alphabet, size) {
            Some(Ok((weapon, cell, heading))) => match weapon {
                engine::Weapon::Radar => Action::Radar(HUMAN, COMPUTER, cell),
                engine::Weapon::AirStrike => Action::AirStrike(HUMAN, COMPUTER, cell),
                engine::Weapon::Torpedo => Action::Torpedo(HUMAN, COMPUTER, cell, heading),
            },
            Some(Err(())) => {
                writeln!(out, "{}", t(lang, "weapon-typed-bad"))?;
                continue;
            }
            None => match parse_cell(&line, alphabet, size) {
                Ok(cell) => Action::Fire(HUMAN, COMPUTER, cell),
                Err(e) => {
                    writeln!(out, "{}", cell_error(lang, &line, &e))?;
                    continue;
                }
            },
        };
        let already = |c: Coord| {
            ta(
                lang,
                "term-already-shot",
                &[("cell", format_cell(c, alphabet, size).into())],
            )
        };
        if let Action::Fire(_, _, cell) = action {
            if game.is_known(COMPUTER, cell) {
                writeln!(out, "{}", already(cell))?;
                continue;
            }
        }
        match game.apply(action, 0, &mut rng) {
            Ok(events) => {
                writeln!(out, "{}", shot_lines(lang, &events, alphabet, &ruleset))?;
                log.extend(events);
                show = true;
            }
            Err(ActionError::AlreadyKnown(c)) => writeln!(out, "{}", already(c))?,
            Err(e) => writeln!(
                out,
                "{}",
                ta(
                    lang,
                    "term-refused",
                    &[("reason", Arg::Text(crate::view::refusal::rules(lang, &e)))]
                )
            )?,
        }
    }

    // The end: both fields uncovered, the winner and the shots.
    let won = matches!(game.phase(), Phase::Finished { winners, .. } if winners.contains(&HUMAN));
    writeln!(out, "\n{}", boards(lang, &game, alphabet))?;
    writeln!(
        out,
        "{}",
        t(lang, if won { "term-won" } else { "term-lost" })
    )?;
    let (yours, its) = (figures_of(&log, HUMAN), figures_of(&log, COMPUTER));
    writeln!(
        out,
        "{}",
        ta(
            lang,
            "term-shots",
            &[("you", yours.shots.into()), ("ai", its.shots.into())]
        )
    )?;
    writeln!(
        out,
        "{}",
        ta(
            lang,
            "term-turns",
            &[("you", yours.turns.into()), ("ai", its.turns.into())]
        )
    )?;
    Ok(if won { Outcome::Won } else { Outcome::Lost })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn locale_values_choose_the_language() {
        assert_eq!(lang_from_locale("ru_RU.UTF-8"), Lang::Ru);
        assert_eq!(lang_from_locale("uk_UA.UTF-8"), Lang::Ru);
        assert_eq!(lang_from_locale("bg_BG"), Lang::Bg);
        assert_eq!(lang_from_locale("bg_BG.UTF-8@latin"), Lang::Bg);
        assert_eq!(lang_from_locale("en_GB.UTF-8"), Lang::En);
        assert_eq!(lang_from_locale("C.UTF-8"), Lang::En);
        assert_eq!(lang_from_locale(""), Lang::En);
    }

    #[test]
    fn options_come_from_flags_then_the_environment() {
        let o = parse_args(&[], Lang::Bg, None).unwrap();
        assert_eq!(
            (o.lang, o.level, o.seed, o.help),
            (Lang::Bg, Level::Normal, None, false)
        );
        let o = parse_args(
            &args("--lang ru --level=hard --seed 7"),
            Lang::En,
            Some("3"),
        )
        .unwrap();
        assert_eq!((o.lang, o.level, o.seed), (Lang::Ru, Level::Hard, Some(7)));
        assert_eq!(parse_args(&[], Lang::En, Some("3")).unwrap().seed, Some(3));
        assert!(parse_args(&args("--help"), Lang::En, None).unwrap().help);
        assert_eq!(
            parse_args(&args("--lang de"), Lang::En, None),
            Err(ArgError::BadValue("--lang".into(), "de".into()))
        );
        assert_eq!(
            parse_args(&args("--seed"), Lang::En, None),
            Err(ArgError::MissingValue("--seed".into()))
        );
        assert_eq!(
            parse_args(&args("--colour"), Lang::En, None),
            Err(ArgError::UnknownOption("--colour".into()))
        );
        assert!(parse_args(&[], Lang::En, Some("x")).is_err());
        assert_eq!(
            parse_args(&args("--game riga"), Lang::En, None)
                .unwrap()
                .game,
            GameChoice::Riga
        );
        assert_eq!(
            parse_args(&args("--game=SeaBattle"), Lang::En, None)
                .unwrap()
                .game,
            GameChoice::SeaBattle
        );
        assert_eq!(
            parse_args(&args("--game chess"), Lang::En, None),
            Err(ArgError::BadValue("--game".into(), "chess".into()))
        );
    }

    #[test]
    fn one_letter_answers_forgive_case_and_the_russian_layout() {
        for (typed, key) in [("r", "r"), ("R", "r"), ("к", "r"), ("К", "r")] {
            assert_eq!(layout_key(typed), key);
        }
        assert_eq!(layout_key("з"), "p");
        assert_eq!(layout_key("й"), "q");
        assert_eq!(layout_key("Q"), "q");
        assert_eq!(layout_key("в6"), "в6");
    }

    #[test]
    fn fields_side_by_side_keep_their_columns() {
        let left = vec!["Ваш флот".to_owned(), "ab".to_owned()];
        let right = vec!["x".to_owned(), "y".to_owned(), "z".to_owned()];
        let text = side_by_side(&left, &right);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("Ваш флот{:GAP$}x", ""));
        assert_eq!(lines[1], format!("ab{:w$}y", "", w = GAP + 6));
        assert_eq!(lines[2], format!("{:w$}z", "", w = GAP + 8));
    }

    #[test]
    fn a_scripted_game_in_every_language_ends_or_quits_cleanly() {
        for lang in Lang::ALL {
            let alphabet = alphabet_for(lang);
            let size = Ruleset::default().size();
            let mut script = String::from("\n");
            for c in size.cells() {
                script.push_str(&format_cell(c, alphabet, size));
                script.push('\n');
            }
            let opts = Options {
                arsenal: 0,
                game: GameChoice::SeaBattle,
                lang,
                level: Level::Easy,
                seed: Some(1),
                help: false,
            };
            let mut out = Vec::new();
            let outcome = run(&opts, &mut script.as_bytes(), &mut out, true).unwrap();
            assert_ne!(outcome, Outcome::Quit, "{lang}");
            let quit = run(&opts, &mut "r\np\nq\n".as_bytes(), &mut Vec::new(), false).unwrap();
            assert_eq!(quit, Outcome::Quit);
        }
    }
}
