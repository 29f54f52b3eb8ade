//! The offline try-out, `morskoy-boy play`: the real binary plays a whole scripted game on
//! piped stdin, with no token and no Redis; the Riga game (`--game riga`) also in-process.

use engine::ai::Level;
use morskoy_boy::game::lang::Lang;
use morskoy_boy::terminal::riga as riga_terminal;
use morskoy_boy::terminal::{GameChoice, Options, Outcome};
use morskoy_boy::view::i18n::{t, ta};
use morskoy_boy::view::riga_text::{legend, point, side_name};
use riga::{Point, Side};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `morskoy-boy play <args>` with `script` on stdin and without a token or Redis.
fn play(args: &[&str], script: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morskoy-boy"))
        .arg("play")
        .args(args)
        .env_remove("TELOXIDE_TOKEN")
        .env_remove("MB_SEED")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8")
        .env("REDIS_URL", "redis://127.0.0.1:1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    let script = script.to_owned();
    // The game may end before it has read every line: a closed pipe is no failure here.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(script.as_bytes());
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().unwrap();
    out
}

/// A script: the lines `typed`, then every cell of the classic field, row by row, in the
/// given column letters.
fn script(typed: &[&str], columns: &[&str]) -> String {
    let cells = (1..=10).flat_map(|row| columns.iter().map(move |c| format!("{c}{row}")));
    let lines: Vec<String> = typed.iter().map(|&l| l.to_owned()).chain(cells).collect();
    lines.join("\n") + "\n"
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_scripted_game_in_english_reaches_its_end_and_refuses_bad_input() {
    // Enter takes the layout; a malformed line, a repeated cell and a cell off the field are
    // refused; then every cell (lower and upper case) until someone wins.
    let script = script(
        &["", "hello", "a1", "A1", "k5", "b11"],
        &["a", "B", "c", "D", "e", "F", "g", "H", "i", "J"],
    );
    let out = play(&["--lang", "en", "--level", "easy", "--seed", "7"], &script);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "exit {:?}\n{stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("Your fleet"), "{stdout}");
    assert!(
        stdout.contains("“hello” is not a cell"),
        "no refusal of the malformed line:\n{stdout}"
    );
    assert!(
        stdout.contains("A1 is already shot at"),
        "no refusal of the repeated cell:\n{stdout}"
    );
    assert!(stdout.contains("There is no column “k”"), "{stdout}");
    assert!(stdout.contains("There is no row 11"), "{stdout}");
    assert!(stdout.contains("You: A1 — "), "{stdout}");
    assert!(
        stdout.contains("Computer: "),
        "the AI never shot:\n{stdout}"
    );
    assert!(
        stdout.contains("You won!") || stdout.contains("The computer won."),
        "no winner:\n{stdout}"
    );
    assert!(stdout.contains("You fired "), "no shot counts:\n{stdout}");
    assert!(!stdout.contains("Game abandoned"), "{stdout}");

    // The same seed and script play the same game.
    let again = play(&["--lang", "en", "--level", "easy", "--seed", "7"], &script);
    assert_eq!(text(&again.stdout), stdout);
}

#[test]
fn a_scripted_game_in_russian_speaks_russian() {
    let script = script(
        &["", "ы", "в6", "В6"],
        &["а", "б", "в", "г", "д", "е", "ж", "з", "и", "к"],
    );
    let out = play(&["--lang", "ru", "--level", "easy", "--seed", "7"], &script);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for words in [
        "Ваш флот",
        "Воды компьютера",
        "а б в г д е ж з и к",
        "«ы» — не клетка",
        "По клетке в6 уже стреляли",
        "Вы: в6 — ",
        "Компьютер: ",
        "Вы сделали ",
        // The seed is the game's number, in words a Russian player uses.
        "Номер партии: 7 (сыграть эту партию ещё раз: --seed 7)",
    ] {
        assert!(stdout.contains(words), "no {words:?}:\n{stdout}");
    }
    assert!(!stdout.contains("Зерно"), "{stdout}");
    assert!(stdout.contains("мимо") || stdout.contains("ранил") || stdout.contains("убил"));
    assert!(stdout.contains("Вы победили!") || stdout.contains("Победил компьютер."));
}

#[test]
fn quitting_and_the_end_of_input_stop_cleanly() {
    for script in ["r\np\nq\n", "\nq\n", "", "\n"] {
        let out = play(&["--lang", "bg", "--seed", "1"], script);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{script:?}: {}", text(&out.stderr));
        assert!(
            stdout.contains("Играта е прекъсната"),
            "{script:?}:\n{stdout}"
        );
        assert!(
            stdout.contains("Номер на играта: 1 (") && !stdout.contains("Зърно"),
            "{script:?}:\n{stdout}"
        );
    }
}

#[test]
fn a_bad_command_line_is_refused_in_words() {
    let out = play(&["--lang", "en", "--level", "impossible"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--level does not take “impossible”"));
    let help = play(&["--help", "--lang", "ru"], "");
    assert!(help.status.success());
    assert!(text(&help.stdout).contains("Морской бой против компьютера"));
}

#[test]
fn shot_counts_take_russian_and_bulgarian_plural_forms() {
    let shots = |lang, n: i64| {
        ta(
            lang,
            "term-shots",
            &[("you", n.into()), ("ai", 1i64.into())],
        )
    };
    for (n, word) in [
        (1, "выстрел,"),
        (2, "выстрела,"),
        (5, "выстрелов,"),
        (11, "выстрелов,"),
        (21, "выстрел,"),
        (34, "выстрела,"),
    ] {
        let text = shots(Lang::Ru, n);
        assert!(text.contains(&format!(" {n} {word}")), "{n}: {text}");
        assert!(text.ends_with("компьютер — 1 выстрел."), "{text}");
    }
    for (n, word) in [(1, "изстрел,"), (2, "изстрела,"), (21, "изстрела,")] {
        let text = shots(Lang::Bg, n);
        assert!(text.contains(&format!(" {n} {word}")), "{n}: {text}");
    }
    let afloat = |n: i64| ta(Lang::Ru, "term-afloat", &[("ships", n.into())]);
    assert_eq!(afloat(1), "на плаву 1 корабль");
    assert_eq!(afloat(3), "на плаву 3 корабля");
    assert_eq!(afloat(7), "на плаву 7 кораблей");
    assert_eq!(
        ta(Lang::En, "term-afloat", &[("ships", 1i64.into())]),
        "1 ship afloat"
    );
}

#[test]
fn locale_names_and_the_russian_keyboard_layout_are_understood() {
    // LANG picks the language when no --lang is given.
    let out = Command::new(env!("CARGO_BIN_EXE_morskoy-boy"))
        .args(["play", "--help"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "bg_BG.UTF-8")
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains("Морска битка срещу компютъра"));
    // «к» and «й» are r and q on the Russian layout.
    let out = play(&["--lang", "ru", "--seed", "2"], "к\nй\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert_eq!(stdout.matches("Ваш флот").count(), 2, "{stdout}");
    assert!(stdout.contains("Игра прервана"), "{stdout}");
}

/// Plays the Riga game in-process with `script` (echoed, as when piped) and returns the
/// outcome and the transcript.
fn riga(lang: Lang, seed: u64, script: &str) -> (Outcome, String) {
    let opts = Options {
        arsenal: 0,
        game: GameChoice::Riga,
        lang,
        level: Level::Easy,
        seed: Some(seed),
        help: false,
    };
    let mut out = Vec::new();
    let outcome = riga_terminal::run(&opts, &mut script.as_bytes(), &mut out, true).unwrap();
    (outcome, text(&out))
}

#[test]
fn riga_scripted_games_in_every_language_move_ships_show_the_bot_s_moves_and_quit() {
    for (lang, first, second) in [
        (Lang::Ru, "д11 вперёд", "д10 в"),
        (Lang::Bg, "д11 напред", "д10 н"),
        (Lang::En, "e11 forward", "e10 f"),
    ] {
        for seed in [1, 2] {
            let script = format!("\n{first}\n{second}\nq\n");
            let (outcome, out) = riga(lang, seed, &script);
            assert_eq!(outcome, Outcome::Quit, "{lang}:\n{out}");
            let south = side_name(lang, Side::South);
            let north = side_name(lang, Side::North);
            // Both typed moves were played: the ship went from row 11 to row 9.
            let column = point(lang, Point { col: 4, row: 0 }).replace('1', "");
            for (from, to) in [(11, 10), (10, 9)] {
                let step = format!(" {column}{from} → {column}{to}");
                assert!(
                    out.lines()
                        .any(|l| l.starts_with(&format!("{south}: ")) && l.ends_with(&step)),
                    "{lang}: no {step}:\n{out}"
                );
            }
            // The bot answered each (and may have opened): its move lines, not the fleets'.
            let fleets: Vec<String> = (0..=12i64)
                .flat_map(|ships| (0..=2i64).map(move |mines| (ships, mines)))
                .map(|(ships, mines)| {
                    ta(
                        lang,
                        "riga-fleet",
                        &[
                            ("side", north.as_str().into()),
                            ("ships", ships.into()),
                            ("mines", mines.into()),
                        ],
                    )
                })
                .collect();
            let bot = out
                .lines()
                .filter(|l| l.starts_with(&format!("{north}: ")))
                .filter(|l| !fleets.iter().any(|f| f == l))
                .count();
            assert!(
                (2..=3).contains(&bot),
                "{lang}: the bot's moves are not shown:\n{out}"
            );
            assert!(out.contains(&t(lang, "term-riga-quit")), "{lang}:\n{out}");
            // The board, with the legend and the fleets.
            assert!(out.contains(&legend(lang)), "{lang}");
            assert!(out.contains(&format!("{south}: 12 ")), "{lang}:\n{out}");
        }
    }
}

#[test]
fn riga_illegal_moves_are_refused_in_words_and_change_nothing() {
    let order = "К П П Э Э Э Э Э Э С С Т";
    let refused = ["а11 мина", "пас", "а5 вперёд", "hello", "м11 вправо вправо"];
    let mut with_refusals = format!("{order}\n\n");
    for line in refused {
        with_refusals.push_str(line);
        with_refusals.push('\n');
    }
    with_refusals.push_str("а11 вперёд\nq\n");
    let plain = format!("{order}\n\nа11 вперёд\nq\n");
    for seed in 0..4 {
        let (_, out) = riga(Lang::Ru, seed, &with_refusals);
        for reason in [
            "Мины ставит только тральщик.",
            "Пропустить ход можно, только когда ходить нечем.",
            "Там нет вашего корабля.",
            "Не понял ход: нужны точка и действие, например д11 вперёд.",
        ] {
            assert!(out.contains(reason), "no {reason:?}:\n{out}");
        }
        assert!(out.contains("Юг: крейсер а11 → а10"), "{out}");
        // Without the refused lines and their answers, the same game as without them.
        let (_, expected) = riga(Lang::Ru, seed, &plain);
        let kept: Vec<&str> = out
            .lines()
            .filter(|l| !refused.iter().any(|r| l.ends_with(&format!(": {r}"))))
            .filter(|l| !l.starts_with("Мины ") && !l.starts_with("Пропустить ход"))
            .filter(|l| !l.starts_with("Там нет ") && !l.starts_with("Не понял ход"))
            .collect();
        assert_eq!(kept, expected.lines().collect::<Vec<_>>(), "seed {seed}");
    }
}

#[test]
fn riga_set_up_takes_a_typed_order_reshuffles_and_quits() {
    let (outcome, out) = riga(Lang::En, 4, "r\nD D D D D D S S C P P M\nx\nq\n");
    assert_eq!(outcome, Outcome::Quit);
    assert!(
        out.contains("Your ships, west to east: D D D D D D S S C P P M"),
        "{out}"
    );
    assert!(out.contains("D↑D↑D↑D↑D↑D↑S↑S↑C↑P↑P↑M↑"), "{out}");
    assert!(out.contains("Not understood: press Enter"), "{out}");
    assert_eq!(out.matches("Your ships, west to east").count(), 3, "{out}");
    // The order is written in the board's letters, in Russian and Bulgarian too.
    for (lang, prefix, board) in [
        (
            Lang::Ru,
            "Ваши корабли с запада на восток: ",
            "КППЭЭЭЭЭЭССТ",
        ),
        (
            Lang::Bg,
            "Вашите кораби от запад на изток: ",
            "КППРРРРРРТТМ",
        ),
    ] {
        let (_, out) = riga(lang, 4, "q\n");
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no order shown:\n{out}"));
        let mut shown: Vec<&str> = line.split(' ').collect();
        assert_eq!(shown.len(), 12, "{line}");
        shown.sort_unstable();
        let mut letters: Vec<String> = board.chars().map(String::from).collect();
        letters.sort_unstable();
        assert_eq!(shown, letters, "{line}");
    }
    for script in ["", "\n", "q\n"] {
        let (outcome, out) = riga(Lang::Bg, 1, script);
        assert_eq!(outcome, Outcome::Quit);
        assert!(out.contains("Играта е прекъсната"), "{out}");
    }
}

#[test]
fn riga_is_played_by_the_binary_and_the_help_tells_of_it() {
    let out = play(
        &[
            "--game", "riga", "--lang", "en", "--level", "easy", "--seed", "7",
        ],
        "\ne11 forward\nq\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("The Riga Sea Battle board game"),
        "{stdout}"
    );
    assert!(stdout.contains(" e11 → e10"), "{stdout}");
    assert!(stdout.contains("North: "), "{stdout}");
    assert!(
        stdout.contains("Game abandoned. Come back any time: morskoy-boy play --game riga"),
        "{stdout}"
    );
    let again = play(
        &[
            "--game", "riga", "--lang", "en", "--level", "easy", "--seed", "7",
        ],
        "\ne11 forward\nq\n",
    );
    assert_eq!(text(&again.stdout), stdout, "the seed replays the game");
    for lang in ["ru", "bg", "en"] {
        let help = play(&["--help", "--lang", lang], "");
        assert!(
            text(&help.stdout).contains("--game seabattle|riga"),
            "{lang}"
        );
    }
    let bad = play(&["--game", "chess", "--lang", "en"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("--game does not take “chess”"));
}

/// `--arsenal 1` in each language: every weapon typed in that language's words and played
/// (its line told), a weapon used up, a torpedo from a corner without a way and a weapon
/// without a cell refused in words; the end says the turns and cells of both sides.
#[test]
fn a_game_with_the_arsenal_types_each_weapon_and_ends_with_turns_and_cells() {
    use morskoy_boy::view::refusal::weapon_name;
    for (lang, code, columns, [radar, air, torpedo]) in [
        (
            Lang::En,
            "en",
            ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
            ["radar e5", "air strike b2", "torpedo"],
        ),
        (
            Lang::Ru,
            "ru",
            ["а", "б", "в", "г", "д", "е", "ж", "з", "и", "к"],
            ["радар д5", "авиаудар б2", "торпеда"],
        ),
        (
            Lang::Bg,
            "bg",
            ["а", "б", "в", "г", "д", "е", "ж", "з", "и", "к"],
            ["радар д5", "въздушен удар б2", "торпедо"],
        ),
    ] {
        let corner = format!("{torpedo} {}1", columns[0]);
        let typed = [
            "",
            radar,
            radar,
            &format!("{torpedo} zz"),
            &corner,
            &format!("{corner} →"),
            air,
        ];
        let script = script(&typed, &columns);
        let out = play(
            &[
                "--lang",
                code,
                "--level",
                "hard",
                "--seed",
                "5",
                "--arsenal",
                "1",
            ],
            &script,
        );
        let stdout = text(&out.stdout);
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{lang:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        let you = t(lang, "term-name-you");
        let ai = t(lang, "term-name-ai");
        for mark in ["📡", "✈", "🚀"] {
            assert!(
                stdout.contains(&format!("{mark} {you} — ")),
                "{lang:?}: no {mark} line of the player's:\n{stdout}"
            );
            // The hard computer fires its own arsenal, each weapon told the same way.
            assert!(
                stdout.contains(&format!("{mark} {ai} — ")),
                "{lang:?}: the computer never fired its {mark}:\n{stdout}"
            );
        }
        let used_up = ta(
            lang,
            "weapon-used-up",
            &[("weapon", weapon_name(lang, engine::Weapon::Radar).into())],
        );
        for words in [
            used_up,
            t(lang, "torpedo-needs-heading"),
            t(lang, "weapon-typed-bad"),
        ] {
            assert!(stdout.contains(&words), "{lang:?}: no {words:?}:\n{stdout}");
        }
        // Each weapon once: the air strike is told once, the radar's second try refused.
        assert_eq!(stdout.matches(&format!("📡 {you} — ")).count(), 1);
        let turns = ta(
            lang,
            "term-turns",
            &[("you", 0i64.into()), ("ai", 0i64.into())],
        );
        let turns_word = turns.split(':').next().unwrap();
        assert!(
            stdout.contains(&format!("{turns_word}:")),
            "{lang:?}: no turns at the end:\n{stdout}"
        );
    }
}
