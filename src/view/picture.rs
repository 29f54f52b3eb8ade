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

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use engine::{Alphabet, Coord, FieldView, Mark, Size};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;
use tiny_skia::{LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// The embedded font: DejaVu Sans Bold, Latin, Greek and Cyrillic only.
static FONT_DATA: &[u8] = include_bytes!("../../assets/DejaVuSans-Bold-subset.ttf");

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_DATA).expect("the embedded font parses"))
}

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

fn draw_panel(
    canvas: &mut Canvas,
    sprites: &mut Sprites,
    m: &Metrics,
    layout: &Layout,
    index: usize,
    panel: &Panel<'_>,
) {
    let view = panel.view;
    let size = view.size;
    let (card_x, card_y) = layout.card_origin(m, index);
    let (card_w, card_h) = m.panel_size(size);
    let radius = m.cell as f32 / 4.0;
    let card = rounded_rect(
        card_x as f32,
        card_y as f32,
        card_w as f32,
        card_h as f32,
        radius,
    );
    if panel.active {
        canvas.fill_path(&card, CARD_ACTIVE);
        let inset = m.frame / 2.0;
        let frame = rounded_rect(
            card_x as f32 + inset,
            card_y as f32 + inset,
            card_w as f32 - m.frame,
            card_h as f32 - m.frame,
            radius - inset,
        );
        canvas.stroke_path(&frame, FRAME_ACTIVE, m.frame);
    } else {
        canvas.fill_path(&card, CARD);
    }

    let (gx, gy) = layout.grid_origin(m, index);
    let c = m.cell;
    let grid_w = u32::from(size.width) * c;
    let grid_h = u32::from(size.height) * c;

    // The title, centred over the grid, cut to the card's width.
    let title_colour = if view.retired || !view.afloat {
        TEXT_OUT
    } else {
        TEXT
    };
    let room = (card_w - 2 * m.pad) as f32;
    let title = fit(&printable(panel.title), m.title_px, room);
    let title_w = text_width(&title, m.title_px);
    let centre = (gx + grid_w / 2) as f32;
    let left = (centre - title_w / 2.0)
        .max((card_x + m.pad) as f32)
        .min((card_x + card_w - m.pad) as f32 - title_w);
    let band_mid = (card_y + m.pad) as f32 + m.title_h as f32 / 2.0;
    canvas.text(
        &title,
        m.title_px,
        left,
        baseline(band_mid, m.title_px),
        title_colour,
    );

    // Column letters and row numbers.
    let letters_mid = (gy - m.label_h / 2) as f32;
    for x in 0..size.width {
        let letter = panel.alphabet.column_label(x, size.width).to_string();
        let w = text_width(&letter, m.label_px);
        let mid = (gx + u32::from(x) * c) as f32 + (c as f32 + 1.0) / 2.0;
        canvas.text(
            &letter,
            m.label_px,
            mid - w / 2.0,
            baseline(letters_mid, m.label_px),
            LABEL,
        );
    }
    for y in 0..size.height {
        let number = (u32::from(y) + 1).to_string();
        let w = text_width(&number, m.label_px);
        let mid = (gy + u32::from(y) * c) as f32 + (c as f32 + 1.0) / 2.0;
        let right = gx as f32 - m.cell as f32 / 5.0;
        canvas.text(
            &number,
            m.label_px,
            right - w,
            baseline(mid, m.label_px),
            LABEL,
        );
    }

    // The grid: lines first, then each cell's inside over them.
    canvas.fill_rect(gx, gy, grid_w + 1, grid_h + 1, GRID);
    for cell in size.cells() {
        let land = view.border.as_ref().is_some_and(|b| b.is_land(cell));
        let x0 = gx + u32::from(cell.x) * c;
        let y0 = gy + u32::from(cell.y) * c;
        let sprite = sprites.entry((view.mark(cell), land)).or_insert_with(|| {
            let mut sprite = Canvas::new(c + 1, c + 1);
            draw_cell(&mut sprite, m, 0, 0, view.mark(cell), land);
            sprite.pixmap
        });
        canvas.blit_inside(sprite, x0, y0);
    }

    // A sunk ship's outline: every side of a sunk cell that does not face another.
    let edge = (m.cell / 14).max(2);
    for cell in size.cells().filter(|&cell| view.mark(cell) == Mark::Sunk) {
        let x0 = gx + u32::from(cell.x) * c;
        let y0 = gy + u32::from(cell.y) * c;
        let sunk = |dx: i8, dy: i8| {
            cell.offset(dx, dy, size)
                .is_some_and(|n| view.mark(n) == Mark::Sunk)
        };
        if !sunk(-1, 0) {
            canvas.fill_rect(x0, y0, edge, c + 1, SUNK_EDGE);
        }
        if !sunk(1, 0) {
            canvas.fill_rect(x0 + c + 1 - edge, y0, edge, c + 1, SUNK_EDGE);
        }
        if !sunk(0, -1) {
            canvas.fill_rect(x0, y0, c + 1, edge, SUNK_EDGE);
        }
        if !sunk(0, 1) {
            canvas.fill_rect(x0, y0 + c + 1 - edge, c + 1, edge, SUNK_EDGE);
        }
    }

    // The last shot: a frame inside the cell.
    let width = m.frame;
    for &cell in panel.last.iter().filter(|&&cell| size.contains(cell)) {
        let x0 = (gx + u32::from(cell.x) * c) as f32;
        let y0 = (gy + u32::from(cell.y) * c) as f32;
        let inset = 1.0 + width / 2.0;
        let side = c as f32 + 1.0 - 2.0 * inset;
        let ring = rounded_rect(x0 + inset, y0 + inset, side, side, c as f32 / 6.0);
        canvas.stroke_path(&ring, LAST, width);
    }
}

fn draw_cell(canvas: &mut Canvas, m: &Metrics, x0: u32, y0: u32, mark: Mark, land: bool) {
    let c = m.cell;
    let f = c as f32;
    let base = if land { LAND } else { WATER };
    let fill = match mark {
        Mark::Unknown | Mark::Miss | Mark::Shot | Mark::IdleMine => base,
        Mark::Halo if land => HALO_LAND,
        Mark::Halo => HALO_WATER,
        Mark::Hit | Mark::Ship => SHIP,
        Mark::Sunk => SUNK,
        Mark::Mine => MINE_BLAST,
    };
    canvas.fill_rect(x0 + 1, y0 + 1, c - 1, c - 1, fill);
    // The inside is pixels x0+1 ..= x0+c-1; its middle is at x0 + (c+1)/2.
    let (cx, cy) = (x0 as f32 + (f + 1.0) / 2.0, y0 as f32 + (f + 1.0) / 2.0);
    match mark {
        Mark::Unknown | Mark::Ship => {}
        Mark::Miss => canvas.disc(cx, cy, f * 0.12, MISS),
        Mark::Shot => canvas.disc(cx, cy, f * 0.2, SHOT),
        Mark::Halo => {
            // Two thin "/" lines that miss the middle, so a halo never reads as a miss.
            let (a, b, s) = ((x0 + 1) as f32, (y0 + 1) as f32, f - 1.0);
            let mut pb = PathBuilder::new();
            for t in [s * 0.5, s * 1.5] {
                let (from, to) = if t <= s {
                    ((a, b + t), (a + t, b))
                } else {
                    ((a + t - s, b + s), (a + s, b + t - s))
                };
                pb.move_to(from.0, from.1);
                pb.line_to(to.0, to.1);
            }
            if let Some(path) = pb.finish() {
                canvas.stroke_line(&path, HATCH, (f / 20.0).max(1.0), LineCap::Butt);
            }
        }
        Mark::Hit => cross(canvas, cx, cy, f, HIT_CROSS),
        Mark::Sunk => cross(canvas, cx, cy, f, SUNK_CROSS),
        Mark::Mine | Mark::IdleMine => mine(canvas, cx, cy, f),
    }
}

fn cross(canvas: &mut Canvas, cx: f32, cy: f32, f: f32, colour: Rgb) {
    let arm = f * 0.24;
    let mut pb = PathBuilder::new();
    pb.move_to(cx - arm, cy - arm);
    pb.line_to(cx + arm, cy + arm);
    pb.move_to(cx + arm, cy - arm);
    pb.line_to(cx - arm, cy + arm);
    if let Some(path) = pb.finish() {
        canvas.stroke_line(&path, colour, f * 0.13, LineCap::Round);
    }
}

fn mine(canvas: &mut Canvas, cx: f32, cy: f32, f: f32) {
    let r = f * 0.2;
    let spike = r * 1.55;
    let diagonal = spike * 0.8;
    let mut pb = PathBuilder::new();
    for (dx, dy) in [
        (spike, 0.0),
        (0.0, spike),
        (diagonal, diagonal),
        (diagonal, -diagonal),
    ] {
        pb.move_to(cx - dx, cy - dy);
        pb.line_to(cx + dx, cy + dy);
    }
    if let Some(path) = pb.finish() {
        canvas.stroke_line(&path, MINE, (f / 14.0).max(1.5), LineCap::Round);
    }
    canvas.disc(cx, cy, r, MINE);
    canvas.disc(cx - r * 0.4, cy - r * 0.4, r * 0.28, MINE_SHINE);
}

fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Path {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.quad_to(x + w, y, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.quad_to(x + w, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.quad_to(x, y + h, x, y + h - r);
    pb.line_to(x, y + r);
    pb.quad_to(x, y, x + r, y);
    pb.close();
    pb.finish().unwrap_or_else(|| {
        PathBuilder::from_rect(Rect::from_xywh(x, y, 1.0, 1.0).expect("a unit square"))
    })
}

/// One player on the leaderboard picture (`/top`, issue 16).
#[derive(Clone, Copy, Debug)]
pub struct BoardRow<'a> {
    /// The place, from 1; the first three get a gold, silver or bronze medal.
    pub place: u32,
    /// The player's name: cut with "…" to its column, characters the font lacks left out.
    pub name: &'a str,
    /// The rating shown.
    pub rating: i64,
    /// The games played, already in words ("3 games"): drawn lighter, on the right.
    pub games: &'a str,
}

/// The leaderboard picture's measures in pixels: a card like a field's, its width fixed,
/// one band for the title and one per row.
mod board {
    pub const WIDTH: u32 = 640;
    /// Around the card.
    pub const GAP: u32 = 10;
    /// Inside the card, around its content.
    pub const PAD: u32 = 14;
    pub const TITLE_H: u32 = 48;
    pub const ROW_H: u32 = 40;
    pub const TITLE_PX: f32 = 24.0;
    pub const PLACE_PX: f32 = 17.0;
    pub const NAME_PX: f32 = 19.0;
    pub const RATING_PX: f32 = 20.0;
    pub const GAMES_PX: f32 = 15.0;
    /// The place's column, its medal centred in it.
    pub const PLACE_W: u32 = 40;
    pub const MEDAL_R: f32 = 14.0;
    /// The rating's and the games' columns, each text right-aligned in its own.
    pub const RATING_W: u32 = 80;
    pub const GAMES_W: u32 = 116;
    /// Between columns.
    pub const SPACE: u32 = 12;
}

/// The pixel size of [`render_leaderboard_png`] with `rows` rows: always 640 wide.
pub fn leaderboard_size(rows: usize) -> (u32, u32) {
    let rows = u32::try_from(rows).unwrap_or(u32::MAX);
    let head = 2 * board::GAP + 2 * board::PAD + board::TITLE_H;
    (
        board::WIDTH,
        rows.saturating_mul(board::ROW_H).saturating_add(head),
    )
}

/// The leaderboard as a PNG: `title` on top (plain text; characters the font lacks are left
/// out), then one row per player: the place (a medal for the first three), the name, the
/// rating, the games. Some 26 KB for ten rows.
pub fn render_leaderboard_png(title: &str, rows: &[BoardRow<'_>]) -> Vec<u8> {
    encode(&draw_leaderboard(title, rows), Packing::Small)
}

fn draw_leaderboard(title: &str, rows: &[BoardRow<'_>]) -> Pixmap {
    use board::*;
    let (width, height) = leaderboard_size(rows.len());
    let mut canvas = Canvas::new(width, height);
    let card = rounded_rect(
        GAP as f32,
        GAP as f32,
        (width - 2 * GAP) as f32,
        (height - 2 * GAP) as f32,
        7.5,
    );
    canvas.fill_path(&card, CARD);
    let (left, right) = (GAP + PAD, width - GAP - PAD);

    // The title, centred, and a rule under it.
    let title = fit(&printable(title), TITLE_PX, (right - left) as f32);
    let title_w = text_width(&title, TITLE_PX);
    let mid = (GAP + PAD) as f32 + TITLE_H as f32 / 2.0 - 3.0;
    let x = (left + right) as f32 / 2.0 - title_w / 2.0;
    canvas.text(&title, TITLE_PX, x, baseline(mid, TITLE_PX), TEXT);
    let rows_top = GAP + PAD + TITLE_H;
    canvas.fill_rect(left, rows_top - 2, right - left, 2, GRID);

    let games_right = right as f32;
    let rating_right = (right - GAMES_W - SPACE) as f32;
    let name_left = left + PLACE_W + SPACE;
    let name_room = (right - GAMES_W - SPACE - RATING_W - SPACE - name_left) as f32;
    for (i, row) in rows.iter().enumerate() {
        let top = rows_top + i as u32 * ROW_H;
        let mid = top as f32 + ROW_H as f32 / 2.0;
        if i % 2 == 1 {
            let stripe = rounded_rect(
                (left - PAD / 2) as f32,
                top as f32 + 1.0,
                (right - left + PAD) as f32,
                ROW_H as f32 - 2.0,
                6.0,
            );
            canvas.fill_path(&stripe, STRIPE);
        }

        // The place, on its medal for the first three.
        let medal = match row.place {
            1 => Some(GOLD),
            2 => Some(SILVER),
            3 => Some(BRONZE),
            _ => None,
        };
        let centre = (left + PLACE_W / 2) as f32;
        if let Some(m) = medal {
            canvas.disc(centre, mid, MEDAL_R, m);
        }
        let place = fit(&row.place.to_string(), PLACE_PX, PLACE_W as f32);
        let w = text_width(&place, PLACE_PX);
        let colour = if medal.is_some() { TEXT } else { LABEL };
        canvas.text(
            &place,
            PLACE_PX,
            centre - w / 2.0,
            baseline(mid, PLACE_PX),
            colour,
        );

        // The name, then the rating and the games right-aligned in their columns.
        let name = fit(&printable(row.name), NAME_PX, name_room);
        canvas.text(
            &name,
            NAME_PX,
            name_left as f32,
            baseline(mid, NAME_PX),
            TEXT,
        );
        let rating = fit(&row.rating.to_string(), RATING_PX, RATING_W as f32);
        let w = text_width(&rating, RATING_PX);
        canvas.text(
            &rating,
            RATING_PX,
            rating_right - w,
            baseline(mid, RATING_PX),
            TEXT,
        );
        let games = fit(&printable(row.games), GAMES_PX, GAMES_W as f32);
        let w = text_width(&games, GAMES_PX);
        canvas.text(
            &games,
            GAMES_PX,
            games_right - w,
            baseline(mid, GAMES_PX),
            TEXT_OUT,
        );
    }
    canvas.pixmap
}

/// The baseline that centres digits and capitals (the font's cap height) on `mid`.
fn baseline(mid: f32, px: f32) -> f32 {
    let font = font();
    // DejaVu's capitals and digits stand 0.729 em tall; `px` is the ascent-to-descent height.
    let cap = 0.729 * font.units_per_em().unwrap_or(2048.0) * px / font.height_unscaled();
    mid + cap / 2.0
}

fn text_width(text: &str, px: f32) -> f32 {
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
fn printable(title: &str) -> String {
    let kept: String = title
        .chars()
        .map(|c| if font_covers(c) { c } else { ' ' })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text, or as much of it as fits in `room` pixels followed by "…".
fn fit(text: &str, px: f32, room: f32) -> String {
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

/// A pixmap with the few drawing operations the picture needs; every pixel stays opaque.
struct Canvas {
    pixmap: Pixmap,
}

impl Canvas {
    fn new(width: u32, height: u32) -> Canvas {
        let mut pixmap = Pixmap::new(width.max(1), height.max(1)).expect("a picture of sane size");
        pixmap.fill(colour(BACKGROUND));
        Canvas { pixmap }
    }

    fn fill_rect(&mut self, x: u32, y: u32, w: u32, h: u32, c: Rgb) {
        if let Some(rect) = Rect::from_xywh(x as f32, y as f32, w as f32, h as f32) {
            let mut paint = paint(c);
            paint.anti_alias = false;
            self.pixmap
                .fill_rect(rect, &paint, Transform::identity(), None);
        }
    }

    /// Copies the inside of a cell sprite (all but its one-pixel rim) to the cell at `x`, `y`.
    fn blit_inside(&mut self, sprite: &Pixmap, x: u32, y: u32) {
        let side = sprite.width() as usize;
        let width = self.pixmap.width() as usize;
        let (x, y) = (x as usize, y as usize);
        let from = sprite.data();
        let to = self.pixmap.data_mut();
        for row in 1..side - 1 {
            let src = (row * side + 1) * 4;
            let dst = ((y + row) * width + x + 1) * 4;
            let len = (side - 2) * 4;
            if let (Some(s), Some(d)) = (from.get(src..src + len), to.get_mut(dst..dst + len)) {
                d.copy_from_slice(s);
            }
        }
    }

    fn fill_path(&mut self, path: &Path, c: Rgb) {
        self.pixmap.fill_path(
            path,
            &paint(c),
            tiny_skia::FillRule::Winding,
            Transform::identity(),
            None,
        );
    }

    fn stroke_path(&mut self, path: &Path, c: Rgb, width: f32) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        self.pixmap
            .stroke_path(path, &paint(c), &stroke, Transform::identity(), None);
    }

    fn stroke_line(&mut self, path: &Path, c: Rgb, width: f32, cap: LineCap) {
        let stroke = Stroke {
            width,
            line_cap: cap,
            ..Stroke::default()
        };
        self.pixmap
            .stroke_path(path, &paint(c), &stroke, Transform::identity(), None);
    }

    fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            self.fill_path(&path, c);
        }
    }

    /// Draws `text` with its first letter's origin at `x` on the baseline `y`.
    fn text(&mut self, text: &str, px: f32, x: f32, y: f32, c: Rgb) {
        let font = font();
        let scale = PxScale::from(px);
        let scaled = font.as_scaled(scale);
        let width = self.pixmap.width() as i32;
        let height = self.pixmap.height() as i32;
        let data = self.pixmap.data_mut();
        let mut caret = x;
        let mut previous = None;
        for ch in text.chars() {
            let id = scaled.glyph_id(ch);
            if let Some(p) = previous {
                caret += scaled.kern(p, id);
            }
            let glyph = id.with_scale_and_position(scale, point(caret, y));
            caret += scaled.h_advance(id);
            previous = Some(id);
            let Some(outline) = font.outline_glyph(glyph) else {
                continue;
            };
            let bounds = outline.px_bounds();
            let (left, top) = (bounds.min.x as i32, bounds.min.y as i32);
            outline.draw(|gx, gy, coverage| {
                let (px, py) = (left + gx as i32, top + gy as i32);
                if px < 0 || py < 0 || px >= width || py >= height {
                    return;
                }
                let a = coverage.clamp(0.0, 1.0);
                let i = (py as usize * width as usize + px as usize) * 4;
                for (k, v) in [c.0, c.1, c.2].into_iter().enumerate() {
                    let d = f32::from(data[i + k]);
                    data[i + k] = (d + (f32::from(v) - d) * a).round() as u8;
                }
            });
        }
    }
}

fn colour(c: Rgb) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c.0, c.1, c.2, 255)
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(c.0, c.1, c.2, 255);
    paint.anti_alias = true;
    paint
}

/// The pixmap's pixels without alpha: every pixel is opaque, so premultiplied is plain.
fn rgb(pixmap: &Pixmap) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixmap.data().len() / 4 * 3);
    for px in pixmap.data().chunks_exact(4) {
        out.extend_from_slice(&px[..3]);
    }
    out
}

/// The pixels as palette indices: flat colours and the few shades that anti-aliasing makes
/// fit in 256, a third of the bytes of RGB to compress. Should a picture ever hold more
/// colours, the rarest (edge pixels) take the nearest of the 256 commonest.
fn indexed(pixmap: &Pixmap) -> (Vec<u8>, Vec<u8>) {
    let pixels = || {
        pixmap
            .data()
            .chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
    };
    let rgb = |c: u32| {
        let [r, g, b, _] = c.to_le_bytes();
        [r, g, b]
    };
    // The usual case, in one pass: each new colour gets the next number; runs of one colour
    // (most of a picture) cost one look-up.
    let mut numbers: HashMap<u32, u8, PixelHash> = HashMap::default();
    let mut palette: Vec<u8> = Vec::with_capacity(256 * 3);
    let mut out: Vec<u8> = vec![0; pixmap.data().len() / 4];
    let mut run = (u32::MAX, 0u8);
    let mut overflow = false;
    for (slot, p) in out.iter_mut().zip(pixels()) {
        if p != run.0 {
            let n = match numbers.get(&p) {
                Some(&n) => n,
                None if numbers.len() < 256 => {
                    let n = numbers.len() as u8;
                    numbers.insert(p, n);
                    palette.extend_from_slice(&rgb(p));
                    n
                }
                None => {
                    overflow = true;
                    break;
                }
            };
            run = (p, n);
        }
        *slot = run.1;
    }
    if !overflow {
        return (palette, out);
    }
    // Count every colour.
    let mut counts: HashMap<u32, u32, PixelHash> = HashMap::default();
    let mut run = (u32::MAX, 0u32);
    for p in pixels() {
        if p == run.0 {
            run.1 += 1;
        } else {
            if run.1 > 0 {
                *counts.entry(run.0).or_default() += run.1;
            }
            run = (p, 1);
        }
    }
    *counts.entry(run.0).or_default() += run.1;
    let mut colours: Vec<(u32, u32)> = counts.into_iter().collect();
    // Too many: keep the 256 commonest, give each other colour the nearest kept one.
    colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let (kept, rest) = colours.split_at(256);
    let mut index: HashMap<u32, u8, PixelHash> = HashMap::default();
    for (i, &(c, _)) in kept.iter().enumerate() {
        index.insert(c, i as u8);
    }
    for &(c, _) in rest {
        let [r, g, b] = rgb(c);
        let distance = |k: u32| {
            let [kr, kg, kb] = rgb(k);
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(r, kr) + d(g, kg) + d(b, kb)
        };
        let nearest = (0..256).min_by_key(|&i| distance(kept[i].0)).unwrap_or(0);
        index.insert(c, nearest as u8);
    }
    let palette = kept.iter().flat_map(|&(c, _)| rgb(c)).collect();
    let mut out = vec![0; pixmap.data().len() / 4];
    let mut run = (u32::MAX, 0u8);
    for (slot, p) in out.iter_mut().zip(pixels()) {
        if p != run.0 {
            run = (p, index.get(&p).copied().unwrap_or(0));
        }
        *slot = run.1;
    }
    (palette, out)
}

/// A hash for 24-bit colours: one multiplication, high bits folded down.
#[derive(Clone, Copy, Default)]
struct PixelHasher(u64);

impl Hasher for PixelHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type PixelHash = BuildHasherDefault<PixelHasher>;

fn encode(pixmap: &Pixmap, packing: Packing) -> Vec<u8> {
    let (palette, indices) = indexed(pixmap);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    // Up turns the rows inside a band of cells, the same as the row above, into zeros.
    encoder.set_filter(png::Filter::Up);
    // Measured on a classic duel (benches/picture.rs): level 1 is 20 % quicker and 25 % larger
    // than 2; level 3 is 10 % smaller and 10 % slower; fdeflate's ultra-fast mode, over twice
    // the size.
    encoder.set_deflate_compression(png::DeflateCompression::Level(match packing {
        Packing::Fast => 1,
        Packing::Small => 2,
    }));
    let mut writer = encoder
        .write_header()
        .expect("a PNG header writes to memory");
    writer
        .write_image_data(&indices)
        .expect("PNG data writes to memory");
    writer.finish().expect("a PNG ends in memory");
    out
}

/// Whether the embedded font draws `c` (other characters come out as an empty box).
pub fn font_covers(c: char) -> bool {
    font().glyph_id(c).0 != 0
}

#[cfg(test)]
mod tests {
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
}
