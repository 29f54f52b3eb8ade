//! The rendering's unit tests: typed weapons, the viewport, the grid, the battle log's
//! lines, the locales' battle keys.

use super::*;
use engine::{Event, Kind, ShotResult};

#[test]
fn a_weapon_is_typed_in_any_language_with_its_cell_and_a_torpedo_with_its_way() {
    use engine::{Heading, Weapon};
    let size = Size::new(10, 10);
    let ru = Alphabet::Russian;
    let cases = [
        (
            "радар д5",
            ru,
            Some(Ok((Weapon::Radar, Coord::new(4, 4), None))),
        ),
        (
            "Авиаудар б2",
            ru,
            Some(Ok((Weapon::AirStrike, Coord::new(1, 1), None))),
        ),
        (
            "въздушен удар б2",
            ru,
            Some(Ok((Weapon::AirStrike, Coord::new(1, 1), None))),
        ),
        (
            "торпеда а1 ↓",
            ru,
            Some(Ok((
                Weapon::Torpedo,
                Coord::new(0, 0),
                Some(Heading::South),
            ))),
        ),
        (
            "Torpedo J10 <",
            Alphabet::Latin,
            Some(Ok((Weapon::Torpedo, Coord::new(9, 9), Some(Heading::West)))),
        ),
        (
            "air strike B2",
            Alphabet::Latin,
            Some(Ok((Weapon::AirStrike, Coord::new(1, 1), None))),
        ),
        ("radar", Alphabet::Latin, Some(Err(()))),
        ("radar e5 →", Alphabet::Latin, Some(Err(()))),
        ("торпедо а5 x", ru, Some(Err(()))),
        ("в6", ru, None),
        ("b6 c7", Alphabet::Latin, None),
    ];
    for (text, alphabet, want) in cases {
        assert_eq!(typed_weapon(text, alphabet, size), want, "{text}");
    }
}

#[test]
fn the_viewport_keeps_every_keyboard_within_telegrams_limits() {
    for w in 5..=26 {
        for h in 5..=26 {
            for reserved in [0, 5, 8] {
                let v = Viewport::new(Size::new(w, h), reserved);
                let cells = usize::from(v.width) * usize::from(v.height);
                let switch = if v.blocks() > 1 { v.blocks() } else { 0 };
                assert!(v.width as usize <= MAX_ROW);
                assert!(cells + switch + reserved <= MAX_BUTTONS, "{w}×{h}: {v:?}");
                // Every cell is in exactly one block.
                let mut seen = 0;
                for b in 0..v.blocks() as u8 {
                    for row in v.cells(b) {
                        for c in row {
                            assert_eq!(v.block_of(c), b);
                            seen += 1;
                        }
                    }
                }
                assert_eq!(seen, usize::from(w) * usize::from(h));
            }
        }
    }
}

#[test]
fn the_classic_field_is_cut_in_two_halves_of_five_columns() {
    let v = Viewport::new(Size::new(10, 10), 6);
    assert_eq!((v.width, v.height, v.blocks()), (5, 10, 2));
}

#[test]
fn a_field_is_drawn_with_single_width_symbols_in_aligned_columns() {
    let text = grid_text(Size::new(10, 10), Alphabet::Russian, |_| {
        symbol(Mark::Unknown)
    });
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11);
    let widths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
    assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}");
    assert!(lines[0].contains("а б в г д е ж з и к"));
}

fn salvo(lang: Lang, hits: u8, mines: u8, sunk: Vec<Kind>) -> String {
    let e = Event::Salvo {
        shooter: engine::SeatId(0),
        target: engine::SeatId(1),
        shots: 5,
        hits,
        mines,
        sunk,
    };
    let names = ["Аня".to_owned(), "Боря".to_owned()];
    log_line(lang, &e, &names, Alphabet::Russian, Size::new(10, 10), true).unwrap()
}

#[test]
fn a_salvo_is_told_in_counts_and_kinds_with_each_languages_plurals() {
    assert_eq!(
        salvo(Lang::Ru, 0, 0, vec![]),
        "Аня → Боря: залп из 5 — ни одного попадания"
    );
    assert_eq!(
        salvo(Lang::Ru, 1, 0, vec![]),
        "Аня → Боря: залп из 5 — 1 попадание"
    );
    assert_eq!(
        salvo(Lang::Ru, 3, 2, vec![Kind::Ship(2)]),
        "Аня → Боря: залп из 5 — 3 попадания, убиты: эсминец, 2 мины"
    );
    assert!(salvo(Lang::Ru, 5, 0, vec![]).ends_with("5 попаданий"));
    assert!(salvo(Lang::Bg, 1, 1, vec![]).ends_with("1 попадение, мина"));
    assert!(salvo(Lang::Bg, 2, 0, vec![]).ends_with("2 попадения"));
    assert_eq!(
        salvo(Lang::En, 2, 0, vec![Kind::Tank, Kind::Ship(1)]),
        "Аня → Боря: a salvo of 5 — 2 hits, sunk: tank, torpedo boat"
    );
}

/// The Russian words of `text` that can only be a man's past tense: a verb ending in
/// -л or -лся (a woman's ends in -ла, -лась).
fn masculine_past(text: &str) -> Vec<String> {
    // Nouns with the same ending that these lines may hold.
    const NOUNS: [&str; 2] = ["выстрел", "залп"];
    text.split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() > 3 && (w.ends_with('л') || w.ends_with("лся")))
        .filter(|w| !NOUNS.contains(&w.as_str()))
        .collect()
}

#[test]
fn lines_about_a_player_read_right_whoever_the_player_is() {
    let names = ["Аня".to_owned(), "Боря".to_owned()];
    let seat = engine::SeatId(0);
    let events = [
        Event::MineChoice {
            seat,
            remaining: 1,
            deadline: 0,
        },
        Event::GaveUp {
            seat,
            cell: Coord::new(2, 5),
            result: ShotResult::Miss,
            timed_out: true,
        },
        Event::GaveUp {
            seat,
            cell: Coord::new(2, 5),
            result: ShotResult::Miss,
            timed_out: false,
        },
        Event::Forfeit(seat),
        Event::Surrendered(seat),
        Event::Eliminated(seat),
        Event::Reminder(seat),
    ];
    let line = |lang, e: &Event| {
        log_line(lang, e, &names, Alphabet::Russian, Size::new(10, 10), false).unwrap()
    };
    for e in &events {
        let ru = line(Lang::Ru, e);
        assert!(ru.contains("Аня"), "{ru}");
        assert_eq!(masculine_past(&ru), Vec::<String>::new(), "{ru}");
    }
    assert_eq!(
        line(Lang::Ru, &events[0]),
        "Мина! Аня отдаёт 1 клетку своего флота (на выбор 60 с)."
    );
    assert_eq!(
        line(Lang::Ru, &events[1]),
        "Аня не успевает выбрать: взята клетка в6 — мимо"
    );
    assert_eq!(
        line(Lang::Ru, &events[3]),
        "Аня не успевает сходить и проигрывает."
    );
    // Bulgarian's past (aorist) is the same for everyone: «Аня попадна на мина».
    assert_eq!(
        line(Lang::Bg, &events[1]),
        "Аня не избра навреме: взета е в6 — промах"
    );
}

#[test]
fn every_battle_salvo_and_mine_key_the_battle_uses_is_in_every_locale() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut used = std::collections::BTreeSet::new();
    // Every source file of the bot: the views and the adapter alike.
    let mut files = Vec::new();
    let mut dirs = vec![root.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for part in text.split('"').skip(1).step_by(2) {
            let key = ["battle-", "salvo-", "mine-"]
                .iter()
                .any(|p| part.starts_with(p))
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if key {
                used.insert(part.to_owned());
            }
        }
    }
    assert!(used.len() > 30, "{used:?}");
    for lang in Lang::ALL {
        let dir = root.join("locales").join(lang.code());
        let mut keys = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            keys.extend(
                text.lines()
                    .filter_map(|l| l.split_once(" ="))
                    .map(|(k, _)| k.to_owned()),
            );
        }
        for key in &used {
            assert!(keys.contains(key), "{lang} lacks {key}");
        }
    }
}
