//! The canvas: a pixmap with the few drawing operations the pictures need, and rounded
//! rectangles.

use super::text::font;
use super::*;
use ab_glyph::{point, Font, PxScale, ScaleFont};
use tiny_skia::{LineCap, Paint, Path, PathBuilder, Rect, Stroke, Transform};

/// A pixmap with the few drawing operations the picture needs; every pixel stays opaque.
pub(super) struct Canvas {
    pub(super) pixmap: Pixmap,
}

impl Canvas {
    pub(super) fn new(width: u32, height: u32) -> Canvas {
        let mut pixmap = Pixmap::new(width.max(1), height.max(1)).expect("a picture of sane size");
        pixmap.fill(colour(BACKGROUND));
        Canvas { pixmap }
    }

    pub(super) fn fill_rect(&mut self, x: u32, y: u32, w: u32, h: u32, c: Rgb) {
        if let Some(rect) = Rect::from_xywh(x as f32, y as f32, w as f32, h as f32) {
            let mut paint = paint(c);
            paint.anti_alias = false;
            self.pixmap
                .fill_rect(rect, &paint, Transform::identity(), None);
        }
    }

    /// Copies the inside of a cell sprite (all but its one-pixel rim) to the cell at `x`, `y`.
    pub(super) fn blit_inside(&mut self, sprite: &Pixmap, x: u32, y: u32) {
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

    pub(super) fn fill_path(&mut self, path: &Path, c: Rgb) {
        self.pixmap.fill_path(
            path,
            &paint(c),
            tiny_skia::FillRule::Winding,
            Transform::identity(),
            None,
        );
    }

    pub(super) fn stroke_path(&mut self, path: &Path, c: Rgb, width: f32) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        self.pixmap
            .stroke_path(path, &paint(c), &stroke, Transform::identity(), None);
    }

    pub(super) fn stroke_line(&mut self, path: &Path, c: Rgb, width: f32, cap: LineCap) {
        let stroke = Stroke {
            width,
            line_cap: cap,
            ..Stroke::default()
        };
        self.pixmap
            .stroke_path(path, &paint(c), &stroke, Transform::identity(), None);
    }

    pub(super) fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            self.fill_path(&path, c);
        }
    }

    /// Draws `text` with its first letter's origin at `x` on the baseline `y`.
    pub(super) fn text(&mut self, text: &str, px: f32, x: f32, y: f32, c: Rgb) {
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

pub(super) fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Path {
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
