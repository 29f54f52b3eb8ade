//! A field's card: its title, column letters and row numbers, the grid and each cell's mark,
//! a sunk ship's outline, the arsenal's traces and the last shot's frame.

use super::canvas::{rounded_rect, Canvas};
use super::text::{baseline, fit, printable, text_width};
use super::*;
use tiny_skia::{LineCap, PathBuilder};

pub(super) fn draw_panel(
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

    draw_arsenal(canvas, m, gx, gy, view);

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

/// The arsenal's traces on a field (docs/rules.md §3.8): each torpedo's track, a line from its
/// edge cell to where it stopped with a head there (or off the field); each radar's square, a
/// frame around it with its count in a badge at the square's corner.
fn draw_arsenal(canvas: &mut Canvas, m: &Metrics, gx: u32, gy: u32, view: &FieldView) {
    let c = m.cell as f32;
    let size = view.size;
    let middle = |cell: Coord| {
        (
            gx as f32 + f32::from(cell.x) * c + (c + 1.0) / 2.0,
            gy as f32 + f32::from(cell.y) * c + (c + 1.0) / 2.0,
        )
    };
    let width = (c / 9.0).max(2.0);
    for run in &view.runs {
        let cells = run.cells(size);
        let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
            continue;
        };
        let (x0, y0) = middle(first);
        let (x1, y1) = middle(last);
        let (dx, dy) = run.heading.step();
        let (dx, dy) = (f32::from(dx), f32::from(dy));
        // From the field's edge, to the middle of the cell it stopped at.
        let (sx, sy) = (x0 - dx * c / 2.0, y0 - dy * c / 2.0);
        let mut pb = PathBuilder::new();
        pb.move_to(sx, sy);
        pb.line_to(x1, y1);
        if let Some(path) = pb.finish() {
            canvas.stroke_line(&path, TORPEDO, width, LineCap::Round);
        }
        // The head: a triangle pointing the way it ran.
        let (hx, hy) = (x1 + dx * c * 0.3, y1 + dy * c * 0.3);
        let (px, py) = (-dy, dx);
        let back = c * 0.28;
        let mut pb = PathBuilder::new();
        pb.move_to(hx, hy);
        pb.line_to(
            hx - dx * back + px * back * 0.7,
            hy - dy * back + py * back * 0.7,
        );
        pb.line_to(
            hx - dx * back - px * back * 0.7,
            hy - dy * back - py * back * 0.7,
        );
        pb.close();
        if let Some(path) = pb.finish() {
            canvas.fill_path(&path, TORPEDO);
        }
    }
    for scan in &view.scans {
        let cells = square_of(scan.center, size);
        let (x0, y0, x1, y1) = cells;
        let inset = width / 2.0 + 1.0;
        let frame = rounded_rect(
            gx as f32 + f32::from(x0) * c + inset,
            gy as f32 + f32::from(y0) * c + inset,
            f32::from(x1 - x0 + 1) * c + 1.0 - 2.0 * inset,
            f32::from(y1 - y0 + 1) * c + 1.0 - 2.0 * inset,
            c / 5.0,
        );
        canvas.stroke_path(&frame, RADAR, width);
        // The count in a disc on the square's top right corner.
        let r = c * 0.32;
        let (bx, by) = (
            gx as f32 + f32::from(x1 + 1) * c - r * 0.9,
            gy as f32 + f32::from(y0) * c + r * 0.9,
        );
        canvas.disc(bx, by, r, RADAR);
        let text = scan.count.to_string();
        let px = c * 0.5;
        let w = text_width(&text, px);
        canvas.text(&text, px, bx - w / 2.0, baseline(by, px), CARD);
    }
}

/// The columns and rows a radar's square around `center` covers on a field of `size`: first
/// column, first row, last column, last row.
fn square_of(center: Coord, size: Size) -> (u8, u8, u8, u8) {
    (
        center.x.saturating_sub(1),
        center.y.saturating_sub(1),
        (center.x + 1).min(size.width - 1),
        (center.y + 1).min(size.height - 1),
    )
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
