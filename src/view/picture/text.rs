//! The embedded font and text: measuring, fitting to a width, what the font can draw.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use std::sync::OnceLock;

/// The embedded font: DejaVu Sans Bold, Latin, Greek and Cyrillic only.
static FONT_DATA: &[u8] = include_bytes!("../../../assets/DejaVuSans-Bold-subset.ttf");

pub(super) fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_DATA).expect("the embedded font parses"))
}

/// The baseline that centres digits and capitals (the font's cap height) on `mid`.
pub(super) fn baseline(mid: f32, px: f32) -> f32 {
    let font = font();
    // DejaVu's capitals and digits stand 0.729 em tall; `px` is the ascent-to-descent height.
    let cap = 0.729 * font.units_per_em().unwrap_or(2048.0) * px / font.height_unscaled();
    mid + cap / 2.0
}

pub(super) fn text_width(text: &str, px: f32) -> f32 {
    let scaled = font().as_scaled(PxScale::from(px));
    let mut width = 0.0;
    let mut previous = None;
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(p) = previous {
            width += scaled.kern(p, id);
        }
        width += scaled.h_advance(id);
        previous = Some(id);
    }
    width
}

/// The title without what the font cannot draw (emoji, CJK, control characters), spaces
/// collapsed: no empty boxes.
pub(super) fn printable(title: &str) -> String {
    let kept: String = title
        .chars()
        .map(|c| if font_covers(c) { c } else { ' ' })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text, or as much of it as fits in `room` pixels followed by "…".
pub(super) fn fit(text: &str, px: f32, room: f32) -> String {
    if text_width(text, px) <= room {
        return text.to_owned();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cut: String = chars.iter().collect::<String>().trim_end().to_owned() + "…";
        if text_width(&cut, px) <= room {
            return cut;
        }
    }
    String::new()
}

/// Whether the embedded font draws `c` (other characters come out as an empty box).
pub fn font_covers(c: char) -> bool {
    font().glyph_id(c).0 != 0
}
