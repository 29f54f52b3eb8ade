//! Typed cells: writing a cell for people (`в6`, `К10`, `D6`) and reading what they type.
//!
//! Parsing forgives case, row-first order (`6в`) and the wrong keyboard layout, and rejects
//! anything else with a [`CellParseError`] naming what was expected.

use crate::alphabet::Alphabet;
use crate::coord::{Coord, Size};
use std::fmt;

/// Writes a cell for people: column letter, then row from 1 (`в6`, `К10`, `D6`).
///
/// A column outside `size` is written as `?`.
pub fn format_cell(c: Coord, alphabet: Alphabet, size: Size) -> String {
    let column = alphabet.column_label(c.x, size.width);
    format!("{column}{}", u32::from(c.y) + 1)
}

/// What was wrong with a typed cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellParseErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// A row number without a column letter.
    NoColumn,
    /// A column letter without a row number.
    NoRow,
    /// A letter, as typed, that names no column of this board.
    UnknownColumn(char),
    /// A row number that is 0 or below the last row (saturated at `u32::MAX`).
    RowOutOfRange(u32),
    /// Characters that are not part of a cell, or more than one cell.
    Garbage,
}

/// The cells a board accepts: columns `first_column`–`last_column`, rows 1–`rows`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The leftmost column letter, as displayed.
    pub first_column: char,
    /// The rightmost column letter, as displayed.
    pub last_column: char,
    /// The number of rows.
    pub rows: u8,
}

impl Expected {
    /// The cells of a board of `size` written in `alphabet`.
    pub fn for_board(alphabet: Alphabet, size: Size) -> Expected {
        Expected {
            first_column: alphabet.column_label(0, size.width),
            last_column: alphabet.column_label(size.width.saturating_sub(1), size.width),
            rows: size.height,
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (first, last, rows) = (self.first_column, self.last_column, self.rows);
        write!(f, "{first}1–{last}{rows}")
    }
}

/// A typed cell that could not be read, with the range the board accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellParseError {
    /// What was wrong.
    pub kind: CellParseErrorKind,
    /// What would have been accepted.
    pub expected: Expected,
}

impl fmt::Display for CellParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CellParseErrorKind::Empty => f.write_str("empty cell")?,
            CellParseErrorKind::NoColumn => f.write_str("no column letter")?,
            CellParseErrorKind::NoRow => f.write_str("no row number")?,
            CellParseErrorKind::UnknownColumn(c) => write!(f, "unknown column {c:?}")?,
            CellParseErrorKind::RowOutOfRange(r) => write!(f, "row {r} is off the board")?,
            CellParseErrorKind::Garbage => f.write_str("not a cell")?,
        }
        write!(f, " (expected {})", self.expected)
    }
}

impl std::error::Error for CellParseError {}

/// Reads a typed cell: `в6`, `В6`, `6в`, `в 6`, `в-6`, or `b6` in a Cyrillic chat.
///
/// Surrounding whitespace is ignored; one space or `-` may separate the letter and the number.
/// Latin letters that look like Cyrillic ones are read as Cyrillic in a Cyrillic alphabet and
/// the other way round in [`Alphabet::Latin`]; `ё` is read as `е` when the columns have no `ё`.
///
/// # Errors
/// A [`CellParseError`] saying what is missing or wrong, and which cells `size` accepts.
pub fn parse_cell(text: &str, alphabet: Alphabet, size: Size) -> Result<Coord, CellParseError> {
    let expected = Expected::for_board(alphabet, size);
    let fail = |kind| CellParseError { kind, expected };
    let (letter, row) = split_cell(text.trim()).map_err(fail)?;
    let x = alphabet
        .column_of(letter, size.width)
        .ok_or_else(|| fail(CellParseErrorKind::UnknownColumn(letter)))?;
    if row == 0 || row > u32::from(size.height) {
        return Err(fail(CellParseErrorKind::RowOutOfRange(row)));
    }
    // Cannot truncate: the row is at most `size.height`, a `u8`.
    Ok(Coord::new(x, (row - 1) as u8))
}

/// Splits a trimmed cell into its letter, as typed, and its row number.
fn split_cell(text: &str) -> Result<(char, u32), CellParseErrorKind> {
    use CellParseErrorKind::{Empty, Garbage, NoColumn, NoRow};
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let mut chars = text.chars();
    let first = chars.next().ok_or(Empty)?;
    let (letter, number, rest) = if first.is_alphabetic() {
        let after = skip_separator(chars.as_str());
        if after.is_empty() {
            return Err(NoRow);
        }
        let (number, rest) = after.split_at(digits(after));
        (first, number, rest)
    } else {
        let (number, after) = text.split_at(digits(text));
        let mut rest = skip_separator(after).chars();
        (rest.next().ok_or(NoColumn)?, number, rest.as_str())
    };
    if number.is_empty() || !letter.is_alphabetic() || !rest.is_empty() {
        return Err(Garbage);
    }
    // Only overflow can fail here, and such a row is off the board either way.
    Ok((letter, number.parse().unwrap_or(u32::MAX)))
}

fn skip_separator(text: &str) -> &str {
    text.strip_prefix([' ', '-']).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::CellParseErrorKind::*;
    use super::*;
    use crate::alphabet::Alphabet::*;
    use crate::alphabet::{lowercase, UnknownAlphabet};
    use crate::coord::{MAX_SIDE, MIN_SIDE};
    use std::collections::HashSet;

    const CLASSIC: Size = Size::new(10, 10);

    fn letters(a: Alphabet, width: u8) -> String {
        a.columns(width).into_iter().collect()
    }

    /// The cell `text` names on a board `side` × `side`, written back in its usual form.
    fn read(side: u8, text: &str, a: Alphabet) -> String {
        let size = Size::new(side, side);
        match parse_cell(text, a, size) {
            Ok(c) => format_cell(c, a, size),
            Err(e) => e.to_string(),
        }
    }

    fn fails(text: &str, a: Alphabet) -> Option<CellParseErrorKind> {
        parse_cell(text, a, CLASSIC).err().map(|e| e.kind)
    }

    #[test]
    fn every_alphabet_has_ten_distinct_letters_on_a_classic_board() {
        let expected = ["абвгдежзик", "абвгдеёжзи", "республика", "снегурочка"];
        let expected = expected.into_iter().chain(["АБВГДЕЖЗИК", "ABCDEFGHIJ"]);
        for (a, word) in Alphabet::ALL.into_iter().zip(expected) {
            assert_eq!(letters(a, 10), word);
        }
    }

    #[test]
    fn letters_within_one_alphabet_and_width_are_distinct() {
        for a in Alphabet::ALL {
            for width in MIN_SIDE..=MAX_SIDE {
                let set: HashSet<char> = a.columns(width).into_iter().map(lowercase).collect();
                assert_eq!(set.len(), usize::from(width), "{a} at width {width}");
            }
        }
    }

    #[test]
    fn the_default_russian_alphabet_skips_yo_and_short_i() {
        let columns = letters(Russian, MAX_SIDE);
        assert!(!columns.contains('ё') && !columns.contains('й'));
        assert_eq!(Russian.column_label(9, 10), 'к');
    }

    #[test]
    fn wide_boards_continue_the_alphabet_to_twenty_and_twenty_six_columns() {
        assert_eq!(letters(Russian, 20), "абвгдежзиклмнопрстуф");
        assert_eq!(letters(Russian, 26), "абвгдежзиклмнопрстуфхцчшэю");
        assert_eq!(letters(Bulgarian, 20), "АБВГДЕЖЗИКЛМНОПРСТУФ");
        assert!(letters(Bulgarian, 26).ends_with("ФХЦЧШЩЮ"));
        assert_eq!(letters(Latin, 26), "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        assert_eq!(letters(Latin, 5), "ABCDE");
    }

    #[test]
    fn word_alphabets_fall_back_to_russian_on_other_widths() {
        for a in [RussianYo, Respublika, Snegurochka] {
            for width in (MIN_SIDE..=MAX_SIDE).filter(|&w| w != 10) {
                assert_eq!(a.columns(width), Russian.columns(width));
            }
        }
        assert_eq!(read(12, "м1", Respublika), "м1");
    }

    #[test]
    fn a_cell_is_written_as_column_letter_then_row_from_one() {
        assert_eq!(format_cell(Coord::new(2, 5), Russian, CLASSIC), "в6");
        assert_eq!(format_cell(Coord::new(9, 9), Bulgarian, CLASSIC), "К10");
        assert_eq!(format_cell(Coord::new(3, 5), Latin, CLASSIC), "D6");
    }

    #[test]
    fn a_typed_cell_reads_column_then_row_in_any_case() {
        assert_eq!(parse_cell("В6", Russian, CLASSIC), Ok(Coord::new(2, 5)));
        assert_eq!(read(10, "в6", Russian), "в6");
        assert_eq!(read(10, "  к10 ", Bulgarian), "К10");
        assert_eq!(read(10, "d6", Latin), "D6");
        assert_eq!(read(10, "в 6", Russian), "в6");
        assert_eq!(read(10, "в-6", Russian), "в6");
    }

    #[test]
    fn a_typed_cell_reads_row_then_column() {
        assert_eq!(parse_cell("6в", Russian, CLASSIC), Ok(Coord::new(2, 5)));
        assert_eq!(read(10, "10К", Russian), "к10");
        assert_eq!(read(10, "10 j", Latin), "J10");
        assert_eq!(read(10, "1-ч", Snegurochka), "ч1");
    }

    #[test]
    fn latin_look_alikes_typed_in_a_cyrillic_chat_are_read_as_cyrillic() {
        assert_eq!(read(10, "a1", Russian), "а1");
        assert_eq!(read(10, "B3", Russian), "в3");
        assert_eq!(read(10, "e5", Bulgarian), "Е5");
        assert_eq!(read(10, "K10", Russian), "к10");
        assert_eq!(read(10, "H1", Snegurochka), "н1");
        assert_eq!(read(10, "6 O", Snegurochka), "о6");
        assert_eq!(read(10, "p1", Respublika), "р1");
        assert_eq!(read(10, "Y2", Respublika), "у2");
        assert_eq!(read(10, "c2", Respublika), "с2");
        for (typed, meant) in [("m1", "м1"), ("T1", "т1"), ("x1", "х1"), ("b1", "в1")] {
            assert_eq!(read(26, typed, Russian), meant);
        }
    }

    #[test]
    fn yo_is_read_as_ye_unless_the_alphabet_has_yo() {
        assert_eq!(read(10, "ё2", Russian), "е2");
        assert_eq!(read(10, "Ё2", Respublika), "е2");
        assert_eq!(parse_cell("ё2", RussianYo, CLASSIC), Ok(Coord::new(6, 1)));
        assert_eq!(parse_cell("е2", RussianYo, CLASSIC), Ok(Coord::new(5, 1)));
    }

    #[test]
    fn cyrillic_look_alikes_typed_in_a_latin_chat_are_read_as_latin() {
        assert_eq!(read(10, "в6", Latin), "B6");
        assert_eq!(read(10, "С1", Latin), "C1");
        assert_eq!(read(10, "н2", Latin), "H2");
        assert_eq!(fails("б2", Latin), Some(UnknownColumn('б')));
    }

    #[test]
    fn a_cell_off_the_board_is_an_error_naming_the_expected_range() {
        let err = parse_cell("л1", Russian, CLASSIC).err();
        let expected = err.map(|e| (e.kind, e.expected.first_column, e.expected.last_column));
        assert_eq!(expected, Some((UnknownColumn('л'), 'а', 'к')));
        assert_eq!(
            read(10, "л1", Russian),
            "unknown column 'л' (expected а1–к10)"
        );
        assert_eq!(fails("к11", Russian), Some(RowOutOfRange(11)));
        assert_eq!(fails("к0", Russian), Some(RowOutOfRange(0)));
        let huge = fails("к99999999999", Russian);
        assert_eq!(huge, Some(RowOutOfRange(u32::MAX)));
        let narrow = read(8, "z1", Latin);
        assert_eq!(narrow, "unknown column 'z' (expected A1–H8)");
    }

    #[test]
    fn anything_else_is_an_error_saying_what_is_missing() {
        let cases = [("", Empty), ("   ", Empty), ("в", NoRow), ("в-", NoRow)];
        let garbage = ["вв6", "в6в", "в--6", "в  6", "6!", "!в6", "в6 в7", "6 6в"];
        let cases = cases.into_iter().chain([("6", NoColumn), ("6 ", NoColumn)]);
        for (text, kind) in cases.chain(garbage.map(|t| (t, Garbage))) {
            assert_eq!(fails(text, Russian), Some(kind), "{text:?}");
        }
        assert_eq!(read(10, "в", Latin), "no row number (expected A1–J10)");
    }

    #[test]
    fn every_formatted_cell_parses_back_in_any_case() {
        for a in Alphabet::ALL {
            for width in MIN_SIDE..=MAX_SIDE {
                let size = Size::new(width, MAX_SIDE);
                for c in size.cells() {
                    let text = format_cell(c, a, size);
                    for typed in [text.to_lowercase(), text.to_uppercase(), text.clone()] {
                        assert_eq!(parse_cell(&typed, a, size), Ok(c), "{a} {typed}");
                    }
                }
            }
        }
    }

    #[test]
    fn alphabet_ids_are_stable_in_display_parse_and_serde() {
        for a in Alphabet::ALL {
            assert_eq!(a.to_string().parse(), Ok(a));
            let json = serde_json::to_string(&a).map_err(|e| e.to_string());
            assert_eq!(json, Ok(format!("\"{a}\"")));
        }
        assert_eq!(RussianYo.to_string(), "russian-yo");
        assert!(Bulgarian.is_cyrillic() && !Latin.is_cyrillic());
        let unknown = UnknownAlphabet("ru".to_owned());
        assert_eq!("ru".parse::<Alphabet>(), Err(unknown));
    }
}
