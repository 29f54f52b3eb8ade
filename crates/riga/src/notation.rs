//! Typed moves, the same in Russian, Bulgarian and English: a ship's point, then what it does.
//!
//! - A point is a column letter and a row number: columns `а б в г д е ж з и к л м` (no `й`,
//!   as on Sea Battle boards) or `a`–`l`, rows 1–13 from the north coast: `е3`, `f3`.
//! - Then the move: forward — `вперёд`, `вперед`, `в`, `напред`, `н`, `forward`, `f`; left —
//!   `влево`, `наляво`, `л`, `left`, `l`; right — `вправо`, `п`, `надясно`, `д`, `right`, `r`;
//!   lay a mine (a minesweeper's step forward) — `мина`, `м`, `mine`, `m`.
//! - Or alone: `пас`, `pass` when no move is possible.
//!
//! Case and surrounding spaces do not matter: `Е3 вперёд`, `f3 F`.

use crate::board::{Point, COLS, ROWS};
use crate::game::{Game, Move};

/// Column letters in Cyrillic.
const CYRILLIC: [char; COLS as usize] =
    ['а', 'б', 'в', 'г', 'д', 'е', 'ж', 'з', 'и', 'к', 'л', 'м'];

/// Why a typed move is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a point and a move.
    Form,
    /// A column letter or row off the board.
    OffBoard,
    /// No ship of the side to move stands there.
    NoShip,
}

/// A point as typed in `cyrillic` or Latin letters: `е3`, `f3`.
pub fn format_point(p: Point, cyrillic: bool) -> String {
    let letter = if cyrillic {
        CYRILLIC[usize::from(p.col)]
    } else {
        char::from(b'a' + p.col)
    };
    format!("{letter}{}", p.row + 1)
}

/// Reads a point: a column letter and a row.
pub fn parse_point(text: &str) -> Result<Point, ParseError> {
    let text = text.trim().to_lowercase();
    let mut chars = text.chars();
    let letter = chars.next().ok_or(ParseError::Form)?;
    let col = CYRILLIC
        .iter()
        .position(|&c| c == letter)
        .or_else(|| ('a'..='l').position(|c| c == letter))
        .ok_or(if letter.is_alphabetic() {
            ParseError::OffBoard
        } else {
            ParseError::Form
        })?;
    let row: u8 = chars.as_str().parse().map_err(|_| ParseError::Form)?;
    if row == 0 || row > ROWS {
        return Err(ParseError::OffBoard);
    }
    Point::new(col as u8, row - 1).ok_or(ParseError::OffBoard)
}

/// Reads a typed move of the side to move in `game`.
pub fn parse_move(text: &str, game: &Game) -> Result<Move, ParseError> {
    let text = text.trim().to_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    if let [w] = words.as_slice() {
        if ["пас", "pass"].contains(w) {
            return Ok(Move::Pass);
        }
    }
    let [point, what] = words.as_slice() else {
        return Err(ParseError::Form);
    };
    let p = parse_point(point)?;
    let (i, ship) = game.ship_at(p).ok_or(ParseError::NoShip)?;
    if ship.side != game.turn() {
        return Err(ParseError::NoShip);
    }
    let i = i as u8;
    let is = |list: &[&str]| list.contains(what);
    if is(&["вперёд", "вперед", "в", "напред", "н", "forward", "f"]) {
        Ok(Move::Forward(i))
    } else if is(&["влево", "наляво", "л", "left", "l"]) {
        Ok(Move::Left(i))
    } else if is(&["вправо", "п", "надясно", "д", "right", "r"]) {
        Ok(Move::Right(i))
    } else if is(&["мина", "м", "mine", "m"]) {
        Ok(Move::Lay(i))
    } else {
        Err(ParseError::Form)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Side;
    use crate::game::FLEET;

    #[test]
    fn points_read_and_write_in_both_alphabets() {
        for p in Point::all() {
            for cyrillic in [true, false] {
                assert_eq!(parse_point(&format_point(p, cyrillic)), Ok(p));
            }
        }
        assert_eq!(format_point(Point::new(5, 2).unwrap(), true), "е3");
        assert_eq!(parse_point(" Е3 "), Ok(Point::new(5, 2).unwrap()));
        assert_eq!(parse_point("й3"), Err(ParseError::OffBoard));
        assert_eq!(parse_point("m3"), Err(ParseError::OffBoard));
        assert_eq!(parse_point("а14"), Err(ParseError::OffBoard));
        assert_eq!(parse_point("а0"), Err(ParseError::OffBoard));
        assert_eq!(parse_point("3а"), Err(ParseError::Form));
    }

    #[test]
    fn moves_are_read_in_every_language_for_the_side_to_move_only() {
        let g = Game::new(&FLEET, &FLEET, Side::North).unwrap();
        // North's first ship stands on а3 (column 1, row 3).
        for text in ["а3 вперёд", "А3 ВПЕРЕД", "a3 forward", "а3 напред", "a3 f"]
        {
            assert_eq!(parse_move(text, &g), Ok(Move::Forward(0)), "{text}");
        }
        assert_eq!(parse_move("б3 влево", &g), Ok(Move::Left(1)));
        assert_eq!(parse_move("в3 надясно", &g), Ok(Move::Right(2)));
        assert_eq!(parse_move("k3 r", &g), Ok(Move::Right(10)));
        assert_eq!(parse_move("м3 мина", &g), Ok(Move::Lay(11)));
        assert_eq!(parse_move("pass", &g), Ok(Move::Pass));
        assert_eq!(
            parse_move("а11 вперёд", &g),
            Err(ParseError::NoShip),
            "South's ship"
        );
        assert_eq!(
            parse_move("а5 вперёд", &g),
            Err(ParseError::NoShip),
            "open sea"
        );
        assert_eq!(parse_move("а3 назад", &g), Err(ParseError::Form));
        assert_eq!(parse_move("а3", &g), Err(ParseError::Form));
        assert_eq!(parse_move("", &g), Err(ParseError::Form));
    }
}
