//! The picture's unit tests: text fitting, the palette, the cards' layout.

use super::encoding::indexed;
use super::text::{fit, printable, text_width};
use super::*;

#[test]
fn long_titles_are_cut_with_an_ellipsis() {
    let room = text_width("Ярослава", 20.0) + 1.0;
    assert_eq!(fit("Ярослава", 20.0, room), "Ярослава");
    let cut = fit("Ярослава Кузнецова", 20.0, room);
    assert!(cut.ends_with('…') && cut.starts_with("Ярос"), "{cut}");
    assert!(text_width(&cut, 20.0) <= room);
    assert_eq!(fit("Ярослава", 20.0, 1.0), "");
}

#[test]
fn titles_lose_only_what_the_font_lacks() {
    assert_eq!(printable("😀 Алёша  🚢 Ёжик\u{0}"), "Алёша Ёжик");
    assert_eq!(printable("海战"), "");
}

#[test]
fn more_than_256_colours_take_the_nearest_kept_one() {
    let mut pixmap = Pixmap::new(300, 2).expect("a pixmap");
    for (i, px) in pixmap.data_mut().chunks_exact_mut(4).enumerate() {
        // Row 0: 300 colours once each; row 1: colour 0 and 1 many times.
        let v = if i < 300 { i as u32 } else { (i % 2) as u32 };
        px.copy_from_slice(&[(v % 256) as u8, (v / 256) as u8, 0, 255]);
    }
    let (palette, indices) = indexed(&pixmap);
    assert_eq!(palette.len(), 256 * 3);
    assert_eq!(indices.len(), 600);
    for (i, &n) in indices.iter().enumerate() {
        let want = pixmap.data()[i * 4..i * 4 + 3].to_vec();
        let got = &palette[usize::from(n) * 3..usize::from(n) * 3 + 3];
        let d: i32 = want
            .iter()
            .zip(got)
            .map(|(&a, &b)| (i32::from(a) - i32::from(b)).abs())
            .sum();
        assert!(d <= 1, "pixel {i}: {want:?} as {got:?}");
    }
    // The two commonest colours are kept exactly.
    assert_eq!(&palette[..6], &[0, 0, 0, 1, 0, 0]);
}

#[test]
fn four_fields_go_two_by_two_and_more_three_a_row() {
    let m = Metrics::new(30);
    let view = FieldView {
        seat: engine::SeatId(0),
        size: Size::new(6, 6),
        marks: vec![Mark::Unknown; 36],
        full: false,
        border: None,
        sunk: vec![],
        afloat: true,
        retired: false,
        scans: Vec::new(),
        runs: Vec::new(),
        weapons: [0; 3],
    };
    let panel = Panel {
        view: &view,
        title: "",
        alphabet: Alphabet::Latin,
        last: &[],
        active: false,
    };
    for (n, columns) in [(0, 0), (1, 1), (2, 2), (3, 3), (4, 2), (5, 3), (7, 3)] {
        let layout = Layout::new(&vec![panel; n], &m);
        assert_eq!(layout.columns, columns, "{n} fields");
    }
}
