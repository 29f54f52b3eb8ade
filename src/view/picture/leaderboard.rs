//! The leaderboard of `/top` (issue 16) as a card of rows: the place with its medal, the
//! name, the rating and the games.

use super::canvas::{rounded_rect, Canvas};
use super::text::{baseline, fit, printable, text_width};
use super::*;

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
