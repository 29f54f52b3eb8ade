//! The battle picture (issue 14): one to four fields drawn side by side into a PNG for the
//! group's battle message; and the leaderboard of `/top` (issue 16) as a card of rows. Pure:
//! views in, bytes out; nothing here talks to Telegram.
//!
//! The picture has no words of its own: the titles are given by the caller, the coordinates
//! come from the chat's alphabet. The letters are drawn with DejaVu Sans Bold, cut to Latin,
//! Greek and Cyrillic (`assets/DejaVuSans-Bold-subset.ttf`, licence in `assets/DejaVu-LICENSE`)
//! and built into the binary.
//!
//! Marks, so that each reads at a glance on a phone:
//! - water: pale blue; land (land-sea-air, where the viewer sees the border): sand;
//! - miss: a small dark dot; halo (ruled out around a sunk ship): greyed and hatched, no dot;
//! - shot in a salvo, answer untold: a violet disc;
//! - own ship: blue; hit: a red cross on blue; sunk: dark navy with a red cross, the ship
//!   outlined in red;
//! - mine: a spiked mine, on orange when it was shot;
//! - the last shot: an orange frame inside the cell;
//! - the field being shot at now: an amber frame around its card on a warm background.
//!
//! In parts, by what they draw: a field's card, its grid and marks ([`field`]); the
//! leaderboard ([`leaderboard`]); the canvas with its few drawing operations ([`canvas`]); the
//! font and text measures ([`text`]); the PNG ([`encoding`]). This file holds the options,
//! the palette and the measures, and lays the cards out.

use engine::{Alphabet, Coord, FieldView, Mark, Size};
use std::collections::HashMap;
use tiny_skia::Pixmap;

mod canvas;
mod encoding;
mod field;
mod leaderboard;
#[cfg(test)]
mod tests;
mod text;

use canvas::Canvas;
use encoding::{encode, rgb};
use field::draw_panel;
pub use leaderboard::{leaderboard_size, render_leaderboard_png, BoardRow};
pub use text::font_covers;

/// How hard the PNG is squeezed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Packing {
    /// Deflate level 1: some 20 % quicker, 25 % larger (four 20×15 fields pass 60 KB).
    Fast,
    /// Deflate level 2: small; higher levels buy little and cost much.
    #[default]
    Small,
}

/// Options of one picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// A cell's side in pixels; every other measure follows from it. 28–32 reads well on a
    /// phone; clamped to 12–96.
    pub cell: u32,
    /// How hard the PNG is compressed.
    pub packing: Packing,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            cell: 30,
            packing: Packing::default(),
        }
    }
}

/// One field as the public or its owner sees it, titled (the player's name, may be Cyrillic),
/// with the column letters of `alphabet` and row numbers; `last` marks the last shot's
/// cell(s).
#[derive(Clone, Copy, Debug)]
pub struct Panel<'a> {
    /// The field.
    pub view: &'a FieldView,
    /// Drawn above the field, cut with "…" when too wide; characters the font lacks (emoji,
    /// CJK) are left out.
    pub title: &'a str,
    /// The column letters.
    pub alphabet: Alphabet,
    /// The last shot's cells on this field (one, or a salvo's); others are ignored.
    pub last: &'a [Coord],
    /// The field being shot at now: a highlighted frame.
    pub active: bool,
}

/// Renders 1–4 fields side by side (2×2 for four) into a PNG; the bytes. More than four are
/// laid out three to a row; none gives a small empty picture.
pub fn render_png(panels: &[Panel<'_>]) -> Vec<u8> {
    render_png_with(panels, &Style::default())
}

/// The pixel size [`render_png`] will produce for these panels (for tests and for Telegram's
/// limits).
pub fn picture_size(panels: &[Panel<'_>]) -> (u32, u32) {
    picture_size_with(panels, &Style::default())
}

/// [`render_png`] with a style.
pub fn render_png_with(panels: &[Panel<'_>], style: &Style) -> Vec<u8> {
    let (pixmap, _) = draw(panels, style);
    encode(&pixmap, style.packing)
}

/// [`picture_size`] with a style.
pub fn picture_size_with(panels: &[Panel<'_>], style: &Style) -> (u32, u32) {
    let layout = Layout::new(panels, &Metrics::new(style.cell));
    (layout.width, layout.height)
}

/// The picture as RGB pixels, row-major, without encoding: for benches and tests.
pub fn render_rgb(panels: &[Panel<'_>], style: &Style) -> (u32, u32, Vec<u8>) {
    let (pixmap, _) = draw(panels, style);
    (pixmap.width(), pixmap.height(), rgb(&pixmap))
}

/// The pixel rectangle `(x, y, side, side)` of a cell of the `index`-th panel, grid lines
/// excluded: for tests that look at what a cell shows.
pub fn cell_rect(panels: &[Panel<'_>], style: &Style, index: usize, c: Coord) -> (u32, u32, u32) {
    let m = Metrics::new(style.cell);
    let layout = Layout::new(panels, &m);
    let (gx, gy) = layout.grid_origin(&m, index);
    (
        gx + u32::from(c.x) * m.cell + 1,
        gy + u32::from(c.y) * m.cell + 1,
        m.cell - 1,
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rgb(u8, u8, u8);

const BACKGROUND: Rgb = Rgb(0xE6, 0xEB, 0xF0);
const CARD: Rgb = Rgb(0xFF, 0xFF, 0xFF);
const CARD_ACTIVE: Rgb = Rgb(0xFF, 0xF3, 0xD2);
const FRAME_ACTIVE: Rgb = Rgb(0xE8, 0x9A, 0x00);
const TEXT: Rgb = Rgb(0x1B, 0x26, 0x33);
const TEXT_OUT: Rgb = Rgb(0x8A, 0x96, 0xA3);
const LABEL: Rgb = Rgb(0x45, 0x5A, 0x70);
const GRID: Rgb = Rgb(0x9C, 0xB6, 0xCF);
const WATER: Rgb = Rgb(0xDF, 0xEE, 0xFC);
const LAND: Rgb = Rgb(0xEC, 0xDF, 0xB4);
const HALO_WATER: Rgb = Rgb(0xC5, 0xD1, 0xDC);
const HALO_LAND: Rgb = Rgb(0xD2, 0xC9, 0xA8);
const HATCH: Rgb = Rgb(0x9F, 0xAE, 0xBC);
const MISS: Rgb = Rgb(0x2C, 0x45, 0x62);
const SHOT: Rgb = Rgb(0x8E, 0x6B, 0xD1);
const SHIP: Rgb = Rgb(0x3F, 0x7C, 0xCB);
const HIT_CROSS: Rgb = Rgb(0xE5, 0x1E, 0x1E);
const SUNK: Rgb = Rgb(0x1E, 0x2E, 0x44);
const SUNK_CROSS: Rgb = Rgb(0xFF, 0x4D, 0x40);
const SUNK_EDGE: Rgb = Rgb(0xD8, 0x1B, 0x1B);
const MINE: Rgb = Rgb(0x15, 0x18, 0x1C);
const MINE_SHINE: Rgb = Rgb(0xD0, 0xD6, 0xDC);
const MINE_BLAST: Rgb = Rgb(0xFA, 0xB9, 0x8A);
const LAST: Rgb = Rgb(0xFF, 0x7A, 0x00);
const STRIPE: Rgb = Rgb(0xF1, 0xF5, 0xF9);
const GOLD: Rgb = Rgb(0xF5, 0xC5, 0x42);
const SILVER: Rgb = Rgb(0xC9, 0xD1, 0xD9);
const BRONZE: Rgb = Rgb(0xE2, 0xA0, 0x6A);
const RADAR: Rgb = Rgb(0x0E, 0x9F, 0x8E);
const TORPEDO: Rgb = Rgb(0xC2, 0x3B, 0xB0);

/// Measures in pixels, all from the cell's side.
struct Metrics {
    cell: u32,
    /// Inside a card, around its content.
    pad: u32,
    /// Between cards and around them.
    gap: u32,
    title_h: u32,
    label_h: u32,
    number_w: u32,
    title_px: f32,
    label_px: f32,
    frame: f32,
}

impl Metrics {
    fn new(cell: u32) -> Metrics {
        let cell = cell.clamp(12, 96);
        let f = cell as f32;
        Metrics {
            cell,
            pad: cell * 2 / 5,
            gap: cell / 3,
            title_h: cell + cell / 6,
            label_h: cell * 4 / 5,
            number_w: cell + cell / 6,
            title_px: f * 0.72,
            label_px: f * 0.58,
            frame: (f / 10.0).max(2.0),
        }
    }

    fn panel_size(&self, size: Size) -> (u32, u32) {
        (
            2 * self.pad + self.number_w + u32::from(size.width) * self.cell + 1,
            2 * self.pad + self.title_h + self.label_h + u32::from(size.height) * self.cell + 1,
        )
    }
}

/// Where the cards go: a grid of equal slots, as wide and tall as the largest card.
struct Layout {
    width: u32,
    height: u32,
    columns: u32,
    slot_w: u32,
    slot_h: u32,
}

impl Layout {
    fn new(panels: &[Panel<'_>], m: &Metrics) -> Layout {
        let n = panels.len() as u32;
        let columns = match n {
            4 => 2,
            n => n.min(3),
        };
        let rows = n.div_ceil(columns.max(1));
        let (slot_w, slot_h) = panels
            .iter()
            .map(|p| m.panel_size(p.view.size))
            .fold((0, 0), |(w, h), (pw, ph)| (w.max(pw), h.max(ph)));
        Layout {
            width: m.gap + columns * (slot_w + m.gap),
            height: m.gap + rows * (slot_h + m.gap),
            columns,
            slot_w,
            slot_h,
        }
    }

    fn card_origin(&self, m: &Metrics, index: usize) -> (u32, u32) {
        let i = index as u32;
        let (col, row) = (i % self.columns.max(1), i / self.columns.max(1));
        (
            m.gap + col * (self.slot_w + m.gap),
            m.gap + row * (self.slot_h + m.gap),
        )
    }

    fn grid_origin(&self, m: &Metrics, index: usize) -> (u32, u32) {
        let (x, y) = self.card_origin(m, index);
        (x + m.pad + m.number_w, y + m.pad + m.title_h + m.label_h)
    }
}

fn draw(panels: &[Panel<'_>], style: &Style) -> (Pixmap, Layout) {
    let m = Metrics::new(style.cell);
    let layout = Layout::new(panels, &m);
    let mut canvas = Canvas::new(layout.width, layout.height);
    let mut sprites = Sprites::new();
    for (i, panel) in panels.iter().enumerate() {
        draw_panel(&mut canvas, &mut sprites, &m, &layout, i, panel);
    }
    (canvas.pixmap, layout)
}

/// Cells drawn once a picture, by mark and terrain, then copied: most cells are alike.
type Sprites = HashMap<(Mark, bool), Pixmap>;
