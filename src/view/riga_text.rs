//! The Riga board game (docs/rules.md §5) in words and pictures, for the Telegram adapter and the
//! terminal: ship and side names, points in the language's letters, the board as monospace
//! text, a move in one line, the end in words and why a move is refused. Pure: no I/O.
//!
//! Every word comes from `locales/*/riga.ftl`; the board's glyphs for sea, land and the like
//! are the constants below (ASCII and `·`), ships are the language's letters with an arrow.

use crate::game::lang::Lang;
use crate::view::i18n::{t, ta, Arg};
use riga::game::{MoveError, QUIET_MOVES};
use riga::notation::{format_point, ParseError};
use riga::{Facing, Game, Kind, Move, Outcome, Point, Side, Terrain, COLS, ROWS};

/// Open sea.
const SEA: char = '·';
/// Land (no point).
const LAND: char = '#';
/// A coastal battery (land).
const BATTERY: char = '@';
/// A point under a battery's fire.
const RED: char = '!';
/// A lighthouse (a sea point).
const LIGHTHOUSE: char = '^';
/// A start point.
const START: char = 'o';
/// A mine.
const MINE: char = '*';
/// The batteries of the chart (land drawn as `B` in docs/rules.md §5): column and row from 0.
const BATTERIES: [(u8, u8); 2] = [(3, 0), (8, 12)];

/// The type's part of a key: `riga-ship-` + this, and so on.
fn kind_key(kind: Kind, keys: [&'static str; 5]) -> &'static str {
    match kind {
        Kind::Cruiser => keys[0],
        Kind::Submarine => keys[1],
        Kind::Destroyer => keys[2],
        Kind::Patrol => keys[3],
        Kind::Minesweeper => keys[4],
    }
}

/// The type as a Fluent selector value (`$kind` in the move lines).
fn kind_code(kind: Kind) -> &'static str {
    kind_key(
        kind,
        ["cruiser", "submarine", "destroyer", "patrol", "minesweeper"],
    )
}

/// The ship's name: ru «крейсер», bg «крайцер», en "cruiser".
pub fn ship_name(lang: Lang, kind: Kind) -> String {
    let key = kind_key(
        kind,
        [
            "riga-ship-cruiser",
            "riga-ship-submarine",
            "riga-ship-destroyer",
            "riga-ship-patrol",
            "riga-ship-minesweeper",
        ],
    );
    t(lang, key)
}

/// The ship's name as the object of «потопил …» (Russian declines «подводную лодку»).
fn ship_object(lang: Lang, kind: Kind) -> String {
    let key = kind_key(
        kind,
        [
            "riga-ship-acc-cruiser",
            "riga-ship-acc-submarine",
            "riga-ship-acc-destroyer",
            "riga-ship-acc-patrol",
            "riga-ship-acc-minesweeper",
        ],
    );
    t(lang, key)
}

/// The ship's abbreviation of §5: ru К, Пл, ЭМ, СКР, Т; bg К, ПЛ, Р, ПК, МЧ; en CR, SS, DD,
/// PS, MS. Only read (a typed order may use it); what is shown names a ship short by its
/// board letter, [`ship_letter`], the one moves and orders are typed with.
pub fn ship_abbr(lang: Lang, kind: Kind) -> String {
    let key = kind_key(
        kind,
        [
            "riga-abbr-cruiser",
            "riga-abbr-submarine",
            "riga-abbr-destroyer",
            "riga-abbr-patrol",
            "riga-abbr-minesweeper",
        ],
    );
    t(lang, key)
}

/// The ship's letter on the board, in capitals: ru К П Э С Т, bg К П Р Т М, en C S D P M
/// (South's ships show it in capitals, North's in small letters).
pub fn ship_letter(lang: Lang, kind: Kind) -> char {
    let key = kind_key(
        kind,
        [
            "riga-glyph-cruiser",
            "riga-glyph-submarine",
            "riga-glyph-destroyer",
            "riga-glyph-patrol",
            "riga-glyph-minesweeper",
        ],
    );
    t(lang, key).chars().next().unwrap_or('?')
}

/// Whether the language writes points in Cyrillic letters.
fn cyrillic(lang: Lang) -> bool {
    matches!(lang, Lang::Ru | Lang::Bg)
}

/// A point in the language's letters: Cyrillic а–м (no й) for ru and bg, Latin a–l for en:
/// «е3», "f3".
pub fn point(lang: Lang, p: Point) -> String {
    format_point(p, cyrillic(lang))
}

/// The letter of column `col` (from 0) in the language's alphabet.
fn column_letter(lang: Lang, col: u8) -> char {
    point(lang, Point { col, row: 0 })
        .chars()
        .next()
        .unwrap_or('?')
}

/// The side's name: «Север», «Юг»; "North", "South".
pub fn side_name(lang: Lang, side: Side) -> String {
    t(
        lang,
        match side {
            Side::North => "riga-side-north",
            Side::South => "riga-side-south",
        },
    )
}

/// The arrow of a facing.
pub fn arrow(facing: Facing) -> char {
    match facing {
        Facing::North => '↑',
        Facing::East => '→',
        Facing::South => '↓',
        Facing::West => '←',
    }
}

/// The two characters of a point: a ship's letter and arrow, or the chart's glyph and a space.
fn cell(lang: Lang, game: &Game, p: Point) -> [char; 2] {
    if let Some((_, s)) = game.ship_at(p) {
        let letter = ship_letter(lang, s.kind);
        let letter = match s.side {
            Side::South => letter,
            Side::North => letter.to_lowercase().next().unwrap_or(letter),
        };
        return [letter, arrow(s.facing)];
    }
    if game.mines().contains(&p) {
        return [MINE, ' '];
    }
    let glyph = match p.terrain() {
        Terrain::Land if BATTERIES.contains(&(p.col, p.row)) => BATTERY,
        Terrain::Land => LAND,
        Terrain::Sea => SEA,
        Terrain::Start(_) => START,
        Terrain::Red(_) => RED,
        Terrain::Lighthouse => LIGHTHOUSE,
    };
    [glyph, ' ']
}

/// The board as monospace lines, North at the top: column letters in the language's alphabet
/// above, row numbers on the left, two characters a point (a ship's letter and the arrow of
/// its bow, or the chart's glyph). `last` marks the points of the last move (from, to) as a
/// cross-hair: `>` and `<` around their rows and their columns' letters in capitals. Every
/// line is at most 29 characters, every glyph single-width; no legend (see [`legend`]).
pub fn board(lang: Lang, game: &Game, last: Option<(Point, Point)>) -> String {
    let marked_row = |row: u8| last.is_some_and(|(a, b)| a.row == row || b.row == row);
    let marked_col = |col: u8| last.is_some_and(|(a, b)| a.col == col || b.col == col);
    let mut header = String::from("    ");
    for col in 0..COLS {
        let letter = column_letter(lang, col);
        if marked_col(col) {
            header.extend(letter.to_uppercase());
        } else {
            header.push(letter);
        }
        header.push(' ');
    }
    let mut lines = vec![header.trim_end().to_owned()];
    for row in 0..ROWS {
        let marked = marked_row(row);
        let mut line = format!("{}{:>2} ", if marked { '>' } else { ' ' }, row + 1);
        for col in 0..COLS {
            line.extend(cell(lang, game, Point { col, row }));
        }
        let mut line = line.trim_end().to_owned();
        if marked {
            line.push_str(" <");
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// A legend of the board's glyphs, three lines.
pub fn legend(lang: Lang) -> String {
    t(lang, "riga-legend")
}

/// A side's ships afloat and mines left: «Юг: 11 кораблей на плаву, 2 мины в запасе».
pub fn fleet_line(lang: Lang, game: &Game, side: Side) -> String {
    ta(
        lang,
        "riga-fleet",
        &[
            ("side", side_name(lang, side).into()),
            ("ships", game.afloat(side).into()),
            ("mines", game.mines_left(side).into()),
        ],
    )
}

pub use crate::game::riga::move_points;

/// One line describing a move just played: `before` is the position before it (the mover is
/// `before.turn()`), `lost` what [`Game::play`] returned. Each loss is named with its cause:
/// an enemy ship sunk by the attacker, the mover blown up on a mine or destroyed by a
/// battery. «Юг: крейсер е9 → е8, потопил эсминец».
pub fn move_line(lang: Lang, before: &Game, mv: Move, lost: &[usize]) -> String {
    let mover = before.turn();
    let side = side_name(lang, mover);
    let ship = |i: u8| before.ships().get(usize::from(i)).copied().flatten();
    let (i, s) = match mv {
        Move::Forward(i) | Move::Lay(i) | Move::Left(i) | Move::Right(i) => match ship(i) {
            Some(s) => (i, s),
            None => return ta(lang, "riga-move-pass", &[("side", side.into())]),
        },
        Move::Pass => return ta(lang, "riga-move-pass", &[("side", side.into())]),
    };
    let name = ship_name(lang, s.kind);
    let at = point(lang, s.at);
    let to = s.facing.step(s.at);
    let mut parts = vec![match (mv, to) {
        (Move::Left(_), _) | (Move::Right(_), _) => ta(
            lang,
            if matches!(mv, Move::Left(_)) {
                "riga-move-left"
            } else {
                "riga-move-right"
            },
            &[
                ("side", side.into()),
                ("ship", name.into()),
                ("at", at.into()),
            ],
        ),
        (_, to) => ta(
            lang,
            if matches!(mv, Move::Lay(_)) {
                "riga-move-lay"
            } else {
                "riga-move-step"
            },
            &[
                ("side", side.into()),
                ("ship", name.into()),
                ("from", at.into()),
                ("to", to.map(|p| point(lang, p)).unwrap_or_default().into()),
            ],
        ),
    }];
    let kind = || Arg::from(kind_code(s.kind));
    // The enemy sunk first, then the mover's own end.
    let mut losses: Vec<(bool, usize)> = lost.iter().map(|&j| (j == usize::from(i), j)).collect();
    losses.sort();
    for (own, j) in losses {
        let Some(lost_ship) = before.ships().get(j).copied().flatten() else {
            continue;
        };
        let clause = if lost_ship.side != mover {
            ta(
                lang,
                "riga-loss-sunk",
                &[
                    ("kind", kind()),
                    ("target", ship_object(lang, lost_ship.kind).into()),
                ],
            )
        } else {
            let on_mine = own
                && s.kind != Kind::Minesweeper
                && to.is_some_and(|p| before.mines().contains(&p));
            ta(
                lang,
                if on_mine {
                    "riga-loss-mine"
                } else {
                    "riga-loss-battery"
                },
                &[("kind", kind())],
            )
        };
        parts.push(clause);
    }
    parts.join(", ")
}

/// The end in words, once the game is over: the winner and that the loser has no ships left,
/// or a draw by quiet moves or as neither side can move.
pub fn outcome_line(lang: Lang, game: &Game) -> Option<String> {
    Some(match game.outcome()? {
        Outcome::Win(Side::North) => t(lang, "riga-end-win-north"),
        Outcome::Win(Side::South) => t(lang, "riga-end-win-south"),
        Outcome::Draw if game.quiet() >= QUIET_MOVES => ta(
            lang,
            "riga-end-draw-quiet",
            &[("moves", i64::from(game.quiet()).into())],
        ),
        Outcome::Draw => t(lang, "riga-end-draw-stuck"),
    })
}

/// Why a typed move was not understood; `example` is a move to show, e.g. «д11 вперёд».
pub fn parse_error(lang: Lang, err: &ParseError, example: &str) -> String {
    match err {
        ParseError::Form => ta(lang, "riga-error-form", &[("example", example.into())]),
        ParseError::OffBoard => ta(
            lang,
            "riga-error-off-board",
            &[
                ("first", column_letter(lang, 0).to_string().into()),
                ("last", column_letter(lang, COLS - 1).to_string().into()),
            ],
        ),
        ParseError::NoShip => t(lang, "riga-error-no-ship"),
    }
}

/// Why `game` refused `mv` with `err`, in words; a refused capture says what the capture
/// table of §5 forbids for the attacker.
pub fn move_error(lang: Lang, game: &Game, mv: Move, err: MoveError) -> String {
    let key = match err {
        MoveError::Over => "riga-error-over",
        MoveError::NotYourTurn => "riga-error-not-your-turn",
        MoveError::NoSuchShip => "riga-error-no-ship",
        MoveError::Blocked => "riga-error-blocked",
        MoveError::OwnShip => "riga-error-own-ship",
        MoveError::CannotSink => cannot_sink_key(game, mv),
        MoveError::NotAMinesweeper => "riga-error-not-minesweeper",
        MoveError::NoMinesLeft => "riga-error-no-mines",
        MoveError::AlreadyMined => "riga-error-mined",
        MoveError::MustMove => "riga-error-must-move",
        MoveError::BadSetup => "riga-error-setup",
    };
    t(lang, key)
}

/// Which rule of the capture table forbids `mv`.
fn cannot_sink_key(game: &Game, mv: Move) -> &'static str {
    let generic = "riga-error-cannot-sink";
    let Some((from, to)) = move_points(game, mv) else {
        return generic;
    };
    let (Some((_, attacker)), Some((_, target))) = (game.ship_at(from), game.ship_at(to)) else {
        return generic;
    };
    match attacker.kind {
        Kind::Destroyer => "riga-error-destroyer-stern",
        Kind::Patrol if target.kind == Kind::Cruiser => "riga-error-patrol-cruiser",
        Kind::Patrol => "riga-error-patrol-bow",
        Kind::Minesweeper => "riga-error-minesweeper-prey",
        Kind::Cruiser | Kind::Submarine => generic,
    }
}

/// The reminder that the side to move (`name`) has `seconds` left.
pub fn reminder(lang: Lang, name: &str, seconds: u64) -> String {
    ta(
        lang,
        "rg-reminder",
        &[("name", name.into()), ("seconds", (seconds as i64).into())],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use riga::{Ship, FLEET};

    fn ship(side: Side, kind: Kind, col: u8, row: u8, facing: Facing) -> Option<Ship> {
        Some(Ship {
            side,
            kind,
            at: Point { col, row },
            facing,
        })
    }

    /// A game some moves in: ships advanced and turned, a mine laid.
    fn mid_game() -> Game {
        let mut g = Game::new(&FLEET, &FLEET, Side::South).unwrap();
        let moves = [
            Move::Forward(16),
            Move::Forward(0),
            Move::Lay(23),
            Move::Right(5),
            Move::Forward(16),
            Move::Forward(0),
            Move::Left(20),
            Move::Forward(11),
        ];
        for mv in moves {
            let side = g.turn();
            g.play(side, mv).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
        }
        g
    }

    #[test]
    fn every_line_of_the_board_fits_a_phone() {
        let start = Game::new(&FLEET, &FLEET, Side::North).unwrap();
        let mid = mid_game();
        let last = Some((Point { col: 11, row: 2 }, Point { col: 11, row: 3 }));
        for lang in Lang::ALL {
            for (g, last) in [(&start, None), (&mid, last), (&mid, None)] {
                let text = board(lang, g, last);
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(lines.len(), 14, "{lang}:\n{text}");
                for line in &lines {
                    assert!(line.chars().count() <= 30, "{lang}: {line:?}");
                    assert!(
                        !line.contains('<') || line.ends_with(" <"),
                        "{lang}: {line:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_board_shows_ships_terrain_mines_and_the_last_move() {
        let g = mid_game();
        let text = board(
            Lang::Ru,
            &g,
            Some((Point { col: 11, row: 2 }, Point { col: 11, row: 3 })),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    а б в г д е ж з и к л М");
        // Row 1: land, North's battery, sea.
        assert_eq!(lines[1], "  1 # # # @ # # · · · · · ·");
        // Row 3: North's cruiser went two points south, the sixth ship turned right (west).
        assert!(lines[3].starts_with(">"), "{text}");
        assert!(lines[3].ends_with(" <"), "{text}");
        assert!(lines[3].contains("o п↓"), "{text}");
        assert!(lines[3].contains("э←"), "{text}");
        assert!(lines[5].contains("к↓"), "{text}");
        // South's minesweeper laid a mine on м11 and stands on м10; the ship on д11 turned.
        assert!(
            lines[11].ends_with("* <") || lines[11].ends_with('*'),
            "{text}"
        );
        assert!(lines[10].ends_with("Т↑"), "{text}");
        assert!(lines[11].contains("Э←"), "{text}");
        // The lighthouse of row 8 and the red points of row 12.
        assert!(lines[8].contains('^'), "{text}");
        assert!(lines[12].ends_with("! ! ! ! !"), "{text}");
        let en = board(Lang::En, &g, None);
        assert!(en.starts_with("    a b c d e f g h i j k l"), "{en}");
        assert!(
            en.contains("C↑") && en.contains("c↓") && en.contains("M↑"),
            "{en}"
        );
        assert!(!en.contains('>') && !en.contains('<'));
        // Every glyph the board uses is in the legend.
        for lang in Lang::ALL {
            let legend = legend(lang);
            assert!(legend.lines().count() <= 3);
            for glyph in [SEA, LAND, BATTERY, RED, LIGHTHOUSE, START, MINE, '>', '<'] {
                assert!(legend.contains(glyph), "{lang}: {glyph}");
            }
            for kind in FLEET {
                assert!(legend.contains(ship_letter(lang, kind)), "{lang}: {kind:?}");
            }
        }
    }

    #[test]
    fn ship_letters_are_distinct_and_names_are_localised() {
        for lang in Lang::ALL {
            let mut letters: Vec<char> = FLEET.iter().map(|&k| ship_letter(lang, k)).collect();
            letters.sort_unstable();
            letters.dedup();
            assert_eq!(letters.len(), 5, "{lang}");
            for c in letters {
                assert!(![SEA, LAND, BATTERY, RED, LIGHTHOUSE, START, MINE].contains(&c));
                assert!(c.is_uppercase() && c.to_lowercase().next() != Some(c));
            }
        }
        assert_eq!(ship_name(Lang::Ru, Kind::Patrol), "сторожевой корабль");
        assert_eq!(ship_name(Lang::Bg, Kind::Minesweeper), "миночистач");
        assert_eq!(ship_name(Lang::En, Kind::Submarine), "submarine");
        assert_eq!(ship_abbr(Lang::Ru, Kind::Patrol), "СКР");
        assert_eq!(ship_abbr(Lang::Ru, Kind::Submarine), "Пл");
        assert_eq!(side_name(Lang::Ru, Side::South), "Юг");
        assert_eq!(side_name(Lang::En, Side::North), "North");
    }

    #[test]
    fn points_are_written_in_the_language_s_letters() {
        let p = Point { col: 5, row: 2 };
        assert_eq!(point(Lang::Ru, p), "е3");
        assert_eq!(point(Lang::Bg, p), "е3");
        assert_eq!(point(Lang::En, p), "f3");
        let last = Point { col: 11, row: 12 };
        assert_eq!(point(Lang::Ru, last), "м13");
        assert_eq!(point(Lang::En, last), "l13");
        assert_eq!(point(Lang::Ru, Point { col: 9, row: 0 }), "к1");
    }

    #[test]
    fn move_lines_name_the_ships_and_every_loss_with_its_cause() {
        // South's cruiser on е9 facing a North destroyer on е8; a North destroyer before a
        // mine; a North minesweeper before South's red point.
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Destroyer, 5, 7, Facing::East),
                ship(Side::North, Kind::Destroyer, 1, 4, Facing::South),
                ship(Side::North, Kind::Minesweeper, 9, 10, Facing::South),
                ship(Side::South, Kind::Cruiser, 5, 8, Facing::North),
                ship(Side::South, Kind::Submarine, 0, 8, Facing::North),
                ship(Side::South, Kind::Patrol, 4, 8, Facing::North),
            ],
            vec![Point { col: 1, row: 5 }],
            [0, 1],
            Side::South,
        );
        let played = |g: &Game, mv: Move| {
            let mut next = g.clone();
            let lost = next.play(next.turn(), mv).unwrap();
            (next, lost)
        };
        let (after, lost) = played(&g, Move::Forward(3));
        assert_eq!(lost, vec![0]);
        let line = |lang| move_line(lang, &g, Move::Forward(3), &lost);
        assert_eq!(line(Lang::Ru), "Юг: крейсер е9 → е8, потопил эсминец");
        assert_eq!(line(Lang::Bg), "Юг: крайцер е9 → е8, потопи разрушител");
        assert_eq!(line(Lang::En), "South: cruiser f9 → f8, sank a destroyer");

        let (after2, lost) = played(&after, Move::Forward(1));
        assert_eq!(lost, vec![1]);
        let line = |lang| move_line(lang, &after, Move::Forward(1), &lost);
        assert_eq!(line(Lang::Ru), "Север: эсминец б5 → б6, подорвался на мине");
        assert_eq!(
            line(Lang::Bg),
            "Север: разрушител б5 → б6, се взриви на мина"
        );
        assert_eq!(
            line(Lang::En),
            "North: destroyer b5 → b6, blew up on a mine"
        );

        let (after3, lost) = played(&after2, Move::Forward(4));
        assert!(lost.is_empty());
        let (_, lost) = played(&after3, Move::Forward(2));
        assert_eq!(lost, vec![2]);
        let line = |lang| move_line(lang, &after3, Move::Forward(2), &lost);
        assert_eq!(
            line(Lang::Ru),
            "Север: тральщик к11 → к12, погиб под огнём батареи"
        );
        assert_eq!(
            line(Lang::Bg),
            "Север: миночистач к11 → к12, загина под огъня на брегова батарея"
        );
        assert_eq!(
            line(Lang::En),
            "North: minesweeper j11 → j12, was destroyed by a coastal battery"
        );

        // A submarine's verbs are feminine in Russian; sinking a submarine declines it.
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Submarine, 4, 1, Facing::South),
                ship(Side::South, Kind::Submarine, 4, 2, Facing::North),
                ship(Side::South, Kind::Submarine, 0, 1, Facing::East),
            ],
            Vec::new(),
            [0, 0],
            Side::South,
        );
        let (_, lost) = played(&g, Move::Forward(1));
        assert_eq!(lost, vec![0, 1]);
        assert_eq!(
            move_line(Lang::Ru, &g, Move::Forward(1), &lost),
            "Юг: подводная лодка д3 → д2, потопила подводную лодку, погибла под огнём батареи"
        );
        assert_eq!(
            move_line(Lang::En, &g, Move::Forward(1), &lost),
            "South: submarine e3 → e2, sank a submarine, was destroyed by a coastal battery"
        );
        assert_eq!(
            move_line(Lang::Ru, &g, Move::Left(2), &[]),
            "Юг: подводная лодка а2 — поворот налево"
        );
        assert_eq!(
            move_line(Lang::En, &g, Move::Right(2), &[]),
            "South: submarine a2 turns right"
        );
        assert_eq!(
            move_line(Lang::Ru, &g, Move::Pass, &[]),
            "Юг пропускает ход (ходов нет)"
        );
    }

    #[test]
    fn a_laid_mine_is_told() {
        let g = Game::new(&FLEET, &FLEET, Side::South).unwrap();
        let mut next = g.clone();
        let lost = next.play(Side::South, Move::Lay(23)).unwrap();
        assert_eq!(
            move_line(Lang::Ru, &g, Move::Lay(23), &lost),
            "Юг: тральщик м11 → м10, поставил мину на м11"
        );
        assert_eq!(
            move_points(&g, Move::Lay(23)),
            Some((Point { col: 11, row: 10 }, Point { col: 11, row: 9 }))
        );
        assert_eq!(
            move_points(&g, Move::Left(23)),
            Some((Point { col: 11, row: 10 }, Point { col: 11, row: 10 }))
        );
        assert_eq!(move_points(&g, Move::Pass), None);
    }

    #[test]
    fn the_end_is_told_in_words() {
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Destroyer, 5, 7, Facing::East),
                ship(Side::South, Kind::Cruiser, 5, 8, Facing::North),
            ],
            Vec::new(),
            [0, 0],
            Side::South,
        );
        assert_eq!(outcome_line(Lang::Ru, &g), None);
        let mut won = g.clone();
        won.play(Side::South, Move::Forward(1)).unwrap();
        assert_eq!(
            outcome_line(Lang::Ru, &won).as_deref(),
            Some("Победил Юг: у Севера не осталось кораблей")
        );
        assert_eq!(
            outcome_line(Lang::En, &won).as_deref(),
            Some("South wins: North has no ships left")
        );
        // Two ships that only turn: 60 quiet moves end it.
        let mut quiet = Game::custom(
            vec![
                ship(Side::North, Kind::Destroyer, 0, 3, Facing::South),
                ship(Side::South, Kind::Destroyer, 11, 9, Facing::North),
            ],
            Vec::new(),
            [0, 0],
            Side::North,
        );
        while quiet.outcome().is_none() {
            let i = if quiet.turn() == Side::North { 0 } else { 1 };
            quiet.play(quiet.turn(), Move::Left(i)).unwrap();
        }
        assert_eq!(
            outcome_line(Lang::Ru, &quiet).as_deref(),
            Some("Ничья: 60 ходов подряд без потерь")
        );
        assert_eq!(
            outcome_line(Lang::Bg, &quiet).as_deref(),
            Some("Равенство: 60 хода поред без загуби")
        );
        assert_eq!(
            outcome_line(Lang::En, &quiet).as_deref(),
            Some("A draw: 60 moves in a row without a loss")
        );
    }

    #[test]
    fn fleet_lines_take_plural_forms() {
        let g = Game::new(&FLEET, &FLEET, Side::North).unwrap();
        assert_eq!(
            fleet_line(Lang::Ru, &g, Side::South),
            "Юг: 12 кораблей на плаву, 2 мины в запасе"
        );
        assert_eq!(
            fleet_line(Lang::Bg, &g, Side::North),
            "Север: 12 кораба на вода, 2 мини в запас"
        );
        assert_eq!(
            fleet_line(Lang::En, &g, Side::North),
            "North: 12 ships afloat, 2 mines left"
        );
        let one = Game::custom(
            vec![ship(Side::South, Kind::Cruiser, 5, 8, Facing::North)],
            Vec::new(),
            [0, 1],
            Side::South,
        );
        assert_eq!(
            fleet_line(Lang::Ru, &one, Side::South),
            "Юг: 1 корабль на плаву, 1 мина в запасе"
        );
    }

    #[test]
    fn refusals_say_why() {
        // A South destroyer behind a North ship showing its stern; a patrol ship before a
        // cruiser.
        let g = Game::custom(
            vec![
                ship(Side::North, Kind::Destroyer, 5, 7, Facing::North),
                ship(Side::North, Kind::Cruiser, 0, 7, Facing::East),
                ship(Side::South, Kind::Destroyer, 5, 8, Facing::North),
                ship(Side::South, Kind::Patrol, 0, 8, Facing::North),
            ],
            Vec::new(),
            [0, 0],
            Side::South,
        );
        let refusal = |lang, mv| {
            let err = g.check(mv).unwrap_err();
            move_error(lang, &g, mv, err)
        };
        assert_eq!(
            refusal(Lang::Ru, Move::Forward(2)),
            "Эсминец не топит корабль, повёрнутый к нему кормой."
        );
        assert_eq!(
            refusal(Lang::En, Move::Forward(3)),
            "A patrol ship does not sink a cruiser."
        );
        assert_eq!(
            refusal(Lang::Ru, Move::Lay(2)),
            "Мины ставит только тральщик."
        );
        assert_eq!(
            refusal(Lang::Bg, Move::Pass),
            "Ход може да се пропусне само когато няма друг."
        );
        assert_eq!(
            parse_error(Lang::Ru, &ParseError::OffBoard, "д11 вперёд"),
            "Такой точки нет на доске: столбцы а–м, строки 1–13."
        );
        assert_eq!(
            parse_error(Lang::En, &ParseError::Form, "e11 forward"),
            "Not understood: type a point and what to do, e.g. e11 forward."
        );
    }
}
