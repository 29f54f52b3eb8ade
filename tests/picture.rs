//! The battle picture (src/picture.rs): every picture decodes to the promised size and stays
//! small, marks are told apart by their pixels, coordinates come in the chat's letters, and the
//! snapshots in tests/snapshots/pictures/ are what the renderer draws now. The same for the
//! leaderboard picture of `/top`.
//!
//! After a deliberate change of the look, rewrite the snapshots and review them:
//! `UPDATE_PICTURES=1 cargo test --test picture`.

#[path = "picture_games/mod.rs"]
mod picture_games;

use engine::{Alphabet, Coord, FieldView, Game, Mark, SeatId, Size};
use morskoy_boy::view::picture::{
    cell_rect, font_covers, leaderboard_size, picture_size, render_leaderboard_png, render_png,
    render_rgb, BoardRow, Panel, Style,
};
use picture_games::Last;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// Telegram-friendly ceiling for one picture.
const MAX_PNG: usize = 60 * 1024;

/// Decodes a PNG (an 8-bit palette one) to (width, height, RGB pixels).
fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// A field of `size` showing every mark somewhere, in a fixed pattern.
fn patterned(size: Size) -> FieldView {
    const MARKS: [Mark; 9] = [
        Mark::Unknown,
        Mark::Miss,
        Mark::Unknown,
        Mark::Halo,
        Mark::Hit,
        Mark::Unknown,
        Mark::Sunk,
        Mark::Ship,
        Mark::Mine,
    ];
    let marks = (0..size.area())
        .map(|i| MARKS[(i * 7 + i / usize::from(size.width)) % MARKS.len()])
        .collect();
    FieldView {
        seat: SeatId(0),
        size,
        marks,
        full: false,
        border: None,
        sunk: vec![],
        afloat: true,
        retired: false,
        scans: Vec::new(),
        runs: Vec::new(),
        weapons: [0; 3],
    }
}

fn panel<'a>(view: &'a FieldView, title: &'a str, alphabet: Alphabet) -> Panel<'a> {
    Panel {
        view,
        title,
        alphabet,
        last: &[],
        active: false,
    }
}

#[test]
fn every_picture_decodes_to_its_size_and_stays_small() {
    let titles = ["Алёша", "Ярослава Кузнецова", "Captain Nemo", "Калин"];
    for size in [
        Size::new(6, 6),
        Size::new(10, 10),
        Size::new(15, 15),
        Size::new(20, 15),
    ] {
        let views: Vec<FieldView> = (0..4).map(|_| patterned(size)).collect();
        for n in 1..=4 {
            let last = [Coord::new(1, 1)];
            let panels: Vec<Panel> = views[..n]
                .iter()
                .zip(titles)
                .enumerate()
                .map(|(i, (v, t))| Panel {
                    last: &last,
                    active: i == 1,
                    ..panel(v, t, Alphabet::Russian)
                })
                .collect();
            let bytes = render_png(&panels);
            let (w, h, _) = decode(&bytes);
            assert_eq!((w, h), picture_size(&panels), "{n} fields of {size}");
            assert!(
                bytes.len() <= MAX_PNG,
                "{n} fields of {size}: {} bytes",
                bytes.len()
            );
        }
    }
}

#[test]
fn pictures_grow_with_fields_and_lay_four_out_two_by_two() {
    let view = patterned(Size::new(10, 10));
    let one = picture_size(&[panel(&view, "a", Alphabet::Latin)]);
    let two = picture_size(&[panel(&view, "a", Alphabet::Latin); 2]);
    let three = picture_size(&[panel(&view, "a", Alphabet::Latin); 3]);
    let four = picture_size(&[panel(&view, "a", Alphabet::Latin); 4]);
    assert_eq!(one.1, two.1);
    assert_eq!(two.1, three.1);
    assert!(one.0 < two.0 && two.0 < three.0);
    assert_eq!(four.0, two.0, "four fields: two a row");
    assert!(four.1 > two.1 * 3 / 2, "four fields: two rows");
    let big = patterned(Size::new(20, 15));
    let wide = picture_size(&[panel(&big, "a", Alphabet::Latin)]);
    assert!(wide.0 > one.0 && wide.1 > one.1);
    // Telegram takes photos whose sides add up to at most 10 000 and differ at most 20 times.
    let largest = picture_size(&[panel(&big, "a", Alphabet::Latin); 4]);
    assert!(largest.0 + largest.1 <= 10_000);
    assert_eq!(picture_size(&[]), picture_size(&[]));
    let (w, h, _) = decode(&render_png(&[]));
    assert_eq!((w, h), picture_size(&[]));
}

/// Per cell: (its commonest colour, its middle pixel's colour).
fn looks(panels: &[Panel<'_>], cells: &[Coord]) -> Vec<([u8; 3], [u8; 3])> {
    let style = Style::default();
    let (width, _, pixels) = render_rgb(panels, &style);
    let at = |x: u32, y: u32| {
        let i = ((y * width + x) * 3) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    cells
        .iter()
        .map(|&c| {
            let (x0, y0, side) = cell_rect(panels, &style, 0, c);
            let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
            for y in y0..y0 + side {
                for x in x0..x0 + side {
                    *counts.entry(at(x, y)).or_default() += 1;
                }
            }
            let commonest = counts
                .into_iter()
                .max_by_key(|&(colour, n)| (n, colour))
                .map(|(colour, _)| colour)
                .unwrap_or_default();
            (commonest, at(x0 + side / 2, y0 + side / 2))
        })
        .collect()
}

#[test]
fn every_mark_looks_different() {
    let all = [
        Mark::Unknown,
        Mark::Shot,
        Mark::Miss,
        Mark::Halo,
        Mark::Hit,
        Mark::Sunk,
        Mark::Mine,
        Mark::Ship,
        Mark::IdleMine,
    ];
    // Each mark alone, with water around it, so no neighbour (a sunk ship's outline) reaches in.
    let size = Size::new(20, 3);
    let mut marks = vec![Mark::Unknown; size.area()];
    let cells: Vec<Coord> = (0..all.len() as u8).map(|i| Coord::new(i * 2, 1)).collect();
    for (&c, &m) in cells.iter().zip(&all) {
        marks[size.index(c)] = m;
    }
    let view = FieldView {
        marks,
        ..patterned(size)
    };
    let seen = looks(&[panel(&view, "x", Alphabet::Latin)], &cells);
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(seen[i], seen[j], "{:?} and {:?} look alike", all[i], all[j]);
        }
    }
    // Also by the middle pixel alone for the marks of a single shot.
    let middles: HashSet<[u8; 3]> = [0, 2, 3, 4, 5].iter().map(|&i| seen[i].1).collect();
    assert_eq!(middles.len(), 5, "unknown, miss, halo, hit, sunk: {seen:?}");

    // The last shot's frame shows, and leaves the miss's dot alone.
    let last = [cells[2]];
    let framed = [Panel {
        last: &last,
        ..panel(&view, "x", Alphabet::Latin)
    }];
    let style = Style::default();
    let before = render_rgb(&[panel(&view, "x", Alphabet::Latin)], &style).2;
    let after = render_rgb(&framed, &style).2;
    let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert!(changed > 100, "the frame changes {changed} bytes");
    assert_eq!(looks(&framed, &cells[2..3])[0].1, seen[2].1);
}

#[test]
fn land_is_drawn_apart_from_water() {
    let (game, _) = picture_games::land_sea_air(3, 0);
    let view = game.view_for(SeatId(0)).field(SeatId(0)).clone();
    let border = view.border.clone().expect("the owner sees the border");
    let size = view.size;
    let water = size
        .cells()
        .find(|&c| !border.is_land(c) && view.mark(c) == Mark::Unknown)
        .expect("open water");
    let land = size
        .cells()
        .find(|&c| border.is_land(c) && view.mark(c) == Mark::Unknown)
        .expect("open land");
    let seen = looks(&[panel(&view, "x", Alphabet::Russian)], &[water, land]);
    assert_ne!(seen[0], seen[1]);
}

#[test]
fn coordinates_come_in_the_chats_letters() {
    let view = patterned(Size::new(10, 10));
    let style = Style::default();
    let render = |alphabet| render_rgb(&[panel(&view, "x", alphabet)], &style).2;
    let latin = render(Alphabet::Latin);
    let russian = render(Alphabet::Russian);
    let russian_yo = render(Alphabet::RussianYo);
    let bulgarian = render(Alphabet::Bulgarian);
    assert!(latin != russian);
    assert!(russian != russian_yo, "ё is drawn");
    assert!(russian != bulgarian, "capitals are drawn");
    // The only difference is the letters above the grid.
    let panels = [panel(&view, "x", Alphabet::Latin)];
    let (_, grid_top, _) = cell_rect(&panels, &style, 0, Coord::new(0, 0));
    let (width, _, _) = render_rgb(&panels, &style);
    let last_diff = latin
        .iter()
        .zip(&russian)
        .rposition(|(a, b)| a != b)
        .expect("they differ");
    let row = last_diff as u32 / 3 / width;
    assert!(row < grid_top, "a difference in row {row}, in the grid");
    // Every letter of every alphabet, and the usual title letters, are in the embedded font.
    for alphabet in Alphabet::ALL {
        for width in [6, 10, 20, 26] {
            for letter in alphabet.columns(width) {
                assert!(font_covers(letter), "{alphabet} {letter}");
            }
        }
    }
    for ch in "АаЁёЙйЩщЪъЫыЬьЭэЮюЯя ЄєІіЇїҐґЎў Ñ ß Ł ő ç 0123456789 …-_.".chars()
    {
        assert!(font_covers(ch), "{ch}");
    }
}

#[test]
fn titles_of_any_length_and_script_fit() {
    let view = patterned(Size::new(6, 6));
    let style = Style::default();
    let base = render_rgb(&[panel(&view, "", Alphabet::Russian)], &style);
    // What the font lacks is left out: no boxes.
    let blank = render_rgb(
        &[panel(&view, "😀🚢 海战 ⚓\u{0}", Alphabet::Russian)],
        &style,
    );
    assert!(blank == base);
    for title in [
        "Ярослава Кузнецова-Преображенская из Санкт-Петербурга",
        "😀 Алёша 🚢",
        "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
        "\u{202e}right-to-left\u{0}",
    ] {
        let panels = [panel(&view, title, Alphabet::Russian)];
        let (w, h, pixels) = render_rgb(&panels, &style);
        assert_eq!((w, h), (base.0, base.1), "{title}");
        assert!(pixels != base.2, "{title} is drawn");
        let (dw, dh, _) = decode(&render_png(&panels));
        assert_eq!((dw, dh), picture_size(&panels));
    }
}

#[test]
fn the_active_field_is_framed() {
    let view = patterned(Size::new(10, 10));
    let style = Style::default();
    let idle = render_rgb(&[panel(&view, "x", Alphabet::Latin)], &style).2;
    let active = render_rgb(
        &[Panel {
            active: true,
            ..panel(&view, "x", Alphabet::Latin)
        }],
        &style,
    )
    .2;
    let changed = idle.iter().zip(&active).filter(|(a, b)| a != b).count();
    assert!(changed > 1000, "{changed} bytes changed");
}

/// The panels of the group's battle message: every field as the public sees it, the field
/// under fire framed, the last shot marked.
fn public_panels<'a>(
    game: &Game,
    views: &'a [FieldView],
    names: &'a [&'a str],
    last: &'a Last,
    alphabet: Alphabet,
) -> Vec<Panel<'a>> {
    let turn = game.turn();
    let under_fire = game.targets(turn);
    views
        .iter()
        .zip(names)
        .map(|(v, name)| Panel {
            view: v,
            title: name,
            alphabet,
            last: match last {
                Some((seat, cell)) if *seat == v.seat => std::slice::from_ref(cell),
                _ => &[],
            },
            active: under_fire.len() == 1 && under_fire[0] == v.seat,
        })
        .collect()
}

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/pictures")
}

/// Compares a picture with its snapshot by pixels (or writes it with `UPDATE_PICTURES=1`).
fn snapshot(name: &str, panels: &[Panel<'_>]) {
    snapshot_png(name, &render_png(panels));
}

/// Compares PNG bytes with the snapshot `name` by pixels (or writes them with
/// `UPDATE_PICTURES=1`).
fn snapshot_png(name: &str, bytes: &[u8]) {
    assert!(bytes.len() <= MAX_PNG, "{name}: {} bytes", bytes.len());
    let path = snapshot_dir().join(format!("{name}.png"));
    if std::env::var_os("UPDATE_PICTURES").is_some() {
        std::fs::create_dir_all(snapshot_dir()).expect("the snapshot folder");
        std::fs::write(&path, bytes).expect("the snapshot writes");
        return;
    }
    let stored = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; make it with UPDATE_PICTURES=1", path.display()));
    assert!(
        stored.len() <= MAX_PNG,
        "{name}: stored {} bytes",
        stored.len()
    );
    assert!(
        decode(&stored) == decode(bytes),
        "{name}.png is not what the renderer draws now: look at the change, then rewrite the \
         snapshots with UPDATE_PICTURES=1 cargo test --test picture"
    );
}

#[test]
fn snapshots() {
    // A classic duel mid-game in Russian letters.
    let (game, last) = picture_games::classic(7, 70);
    let views = game.public_view().fields;
    let names = ["Алёша", "Ярослава"];
    snapshot(
        "classic_ru",
        &public_panels(&game, &views, &names, &last, Alphabet::Russian),
    );

    // Four players, each against all, in Latin letters.
    let (game, last) = picture_games::free_for_all(11, 120);
    let views = game.public_view().fields;
    let names = ["Captain Nemo", "Ahab", "Jack Sparrow", "Horatio Hornblower"];
    snapshot(
        "free_for_all_en",
        &public_panels(&game, &views, &names, &last, Alphabet::Latin),
    );

    // The largest picture: four land-sea-air fields, in Bulgarian capitals.
    let (game, last) = picture_games::free_for_all_land_sea_air(5, 260);
    let views = game.public_view().fields;
    let names = ["Калин", "Десислава", "Тодор", "Радост"];
    snapshot(
        "free_for_all_land_sea_air_bg",
        &public_panels(&game, &views, &names, &last, Alphabet::Bulgarian),
    );

    // A land-sea-air player's own field: units, land, the enemy's hits.
    let (game, last) = picture_games::land_sea_air(3, 90);
    let own = game.view_for(SeatId(0)).field(SeatId(0)).clone();
    let last: Vec<Coord> = last
        .filter(|(seat, _)| *seat == SeatId(0))
        .map(|(_, c)| c)
        .into_iter()
        .collect();
    snapshot(
        "land_sea_air_own_ru",
        &[Panel {
            view: &own,
            title: "Алёша",
            alphabet: Alphabet::Russian,
            last: &last,
            active: true,
        }],
    );
}

/// Ten players of a leaderboard, in English words.
const PLAYERS: [(&str, i64, &str); 10] = [
    ("Captain Nemo", 1138, "12 games"),
    ("Алёша", 1094, "7 games"),
    ("Horatio Hornblower", 1051, "21 games"),
    ("Ярослава Кузнецова", 1012, "1 game"),
    ("Jack Sparrow", 1003, "3 games"),
    ("Ahab", 987, "5 games"),
    ("Калин", 960, "2 games"),
    ("Десислава", 944, "1 game"),
    ("Тодор", 921, "4 games"),
    ("Radost", 874, "9 games"),
];

fn board_rows(n: usize) -> Vec<BoardRow<'static>> {
    PLAYERS[..n]
        .iter()
        .enumerate()
        .map(|(i, &(name, rating, games))| BoardRow {
            place: i as u32 + 1,
            name,
            rating,
            games,
        })
        .collect()
}

#[test]
fn every_leaderboard_decodes_to_its_size_and_stays_small() {
    let mut heights = Vec::new();
    for n in 0..=10 {
        let rows = board_rows(n);
        let bytes = render_leaderboard_png("The best players of this chat", &rows);
        let (w, h, _) = decode(&bytes);
        assert_eq!((w, h), leaderboard_size(n), "{n} rows");
        assert!(bytes.len() <= MAX_PNG, "{n} rows: {} bytes", bytes.len());
        heights.push(h);
    }
    assert!(heights.windows(2).all(|p| p[0] < p[1]), "{heights:?}");
    assert!(leaderboard_size(0).0 == leaderboard_size(10).0);
    // Telegram takes photos whose sides differ at most 20 times.
    let (w, h) = leaderboard_size(10);
    assert!(w.max(h) <= 20 * w.min(h));
}

#[test]
fn leaderboard_names_of_any_length_and_script_fit() {
    let base = render_leaderboard_png("🏆 Top", &board_rows(3));
    let (bw, bh, base_pixels) = decode(&base);
    for name in [
        "Ярослава Кузнецова-Преображенская из Санкт-Петербурга",
        "😀 Алёша 🚢",
        "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
        "😀🚢 海战 ⚓\u{0}",
        "\u{202e}right-to-left\u{0}",
    ] {
        let mut rows = board_rows(3);
        rows[1].name = name;
        rows[2].games = "1234567 партий из 1234567";
        let bytes = render_leaderboard_png(name, &rows);
        let (w, h, pixels) = decode(&bytes);
        assert_eq!((w, h), (bw, bh), "{name}");
        assert!(pixels != base_pixels, "{name} is drawn");
        assert!(bytes.len() <= MAX_PNG, "{name}: {} bytes", bytes.len());
    }
    // What the font lacks is left out: an emoji-only name draws as no name at all.
    let mut rows = board_rows(3);
    rows[1].name = "😀🚢 海战 ⚓";
    let emoji = decode(&render_leaderboard_png("🏆 Top", &rows)).2;
    rows[1].name = "";
    let empty = decode(&render_leaderboard_png("🏆 Top", &rows)).2;
    assert!(emoji == empty);
}

#[test]
fn leaderboards_with_other_ratings_look_different() {
    let rows = board_rows(5);
    let mut other = rows.clone();
    other[4].rating += 1;
    let a = decode(&render_leaderboard_png("Top", &rows)).2;
    let b = decode(&render_leaderboard_png("Top", &other)).2;
    let changed = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert!(changed > 10, "{changed} bytes changed");
    // The same board draws the same.
    assert!(a == decode(&render_leaderboard_png("Top", &rows)).2);
}

#[test]
fn leaderboard_snapshot() {
    snapshot_png(
        "leaderboard_en",
        &render_leaderboard_png("🏆 The best players of this chat", &board_rows(10)),
    );
}
