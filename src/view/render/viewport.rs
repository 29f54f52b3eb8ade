//! The keyboard of a field: the field cut into blocks that fit Telegram's limits, any cell
//! two taps away, and the keyboard of one block with the block switch.

use super::*;
use crate::view::buttons::Button;
use crate::view::keyboard::{Key, Keyboard};

/// How a field is cut into blocks for the keyboard: any cell is at most two taps away
/// (a block, then the cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// The field.
    pub size: Size,
    /// Columns of a block.
    pub width: u8,
    /// Rows of a block.
    pub height: u8,
}

impl Viewport {
    /// The block layout for `size` with `reserved` other buttons in the keyboard: the fewest
    /// blocks, and among those the block width nearest to 5, easiest to tap on a phone.
    pub fn new(size: Size, reserved: usize) -> Viewport {
        let mut best: Option<(usize, u8, Viewport)> = None;
        for w in 1..=(MAX_ROW as u8).min(size.width) {
            for h in 1..=size.height {
                let v = Viewport {
                    size,
                    width: w,
                    height: h,
                };
                let blocks = v.blocks();
                let switch = if blocks > 1 { blocks } else { 0 };
                let total = usize::from(w) * usize::from(h) + switch + reserved;
                if total > MAX_BUTTONS {
                    continue;
                }
                let key = (blocks, w.abs_diff(5));
                if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
                    best = Some((blocks, w.abs_diff(5), v));
                }
            }
        }
        best.map(|b| b.2).unwrap_or(Viewport {
            size,
            width: 1,
            height: 1,
        })
    }

    fn across(self) -> usize {
        usize::from(self.size.width).div_ceil(usize::from(self.width))
    }

    fn down(self) -> usize {
        usize::from(self.size.height).div_ceil(usize::from(self.height))
    }

    /// Number of blocks.
    pub fn blocks(self) -> usize {
        self.across() * self.down()
    }

    /// The cells of block `b`, row by row.
    pub fn cells(self, b: u8) -> Vec<Vec<Coord>> {
        let b = usize::from(b) % self.blocks();
        let (bx, by) = ((b % self.across()) as u8, (b / self.across()) as u8);
        let (x0, y0) = (bx * self.width, by * self.height);
        let x1 = (x0 + self.width).min(self.size.width);
        let y1 = (y0 + self.height).min(self.size.height);
        (y0..y1)
            .map(|y| (x0..x1).map(|x| Coord::new(x, y)).collect())
            .collect()
    }

    /// The block holding `c`.
    pub fn block_of(self, c: Coord) -> u8 {
        let bx = usize::from(c.x / self.width);
        let by = usize::from(c.y / self.height);
        (by * self.across() + bx) as u8
    }

    /// A short label for block `b`: its columns, and its rows when blocks are stacked.
    pub fn label(self, b: u8, alphabet: Alphabet) -> String {
        let rows = self.cells(b);
        let (first, last) = (
            rows[0][0],
            *rows.last().and_then(|r| r.last()).unwrap_or(&rows[0][0]),
        );
        let col = |x| alphabet.column_label(x, self.size.width);
        let mut s = format!("{}–{}", col(first.x), col(last.x));
        if self.down() > 1 {
            s.push_str(&format!(" {}–{}", first.y + 1, last.y + 1));
        }
        s
    }
}

/// A keyboard: the cells of one block (label and button for each), the block switch when
/// there is more than one block, then `extra` rows.
pub fn grid_keyboard(
    view: Viewport,
    block: u8,
    alphabet: Alphabet,
    cell: impl Fn(Coord) -> (String, Button),
    switch: impl Fn(u8) -> Button,
    extra: Vec<Vec<Key>>,
) -> Keyboard {
    let mut rows: Vec<Vec<Key>> = view
        .cells(block)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|c| {
                    let (label, button) = cell(c);
                    Key::callback(label, button.to_string())
                })
                .collect()
        })
        .collect();
    if view.blocks() > 1 {
        let current = usize::from(block) % view.blocks();
        let switch: Vec<Key> = (0..view.blocks() as u8)
            .map(|b| {
                let mut label = view.label(b, alphabet);
                if usize::from(b) == current {
                    label = format!("[{label}]");
                }
                Key::callback(label, switch(b).to_string())
            })
            .collect();
        rows.extend(switch.chunks(MAX_ROW).map(<[_]>::to_vec));
    }
    rows.extend(extra);
    Keyboard::new(rows)
}
