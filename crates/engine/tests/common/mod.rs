//! Helpers shared by the engine's integration tests: fleets drawn as pictures, games started
//! with a chosen first shooter, and the scenario-file runner (`scenario.rs`).
//!
//! A picture is one line a row, one character a cell, top row first:
//!
//! | char | cell |
//! |---|---|
//! | `.` | empty (sea in land-sea-air) |
//! | `_` | empty land (land-sea-air only) |
//! | `#` | a ship cell (at sea in land-sea-air); edge-connected `#`/`@` cells are one ship |
//! | `@` | a unit cell on land (land-sea-air only) |
//! | `0`–`9`, `A`–`Z` | a labelled ship cell: one label, one ship (to draw touching ships) |
//! | `m` | a mine |
//!
//! Whitespace inside a line is ignored and blank lines are skipped. In land-sea-air the border
//! is read from the picture: in each column land starts at the first `_` or `@`.

#![allow(dead_code)] // Each test binary uses its own part of the helpers.

pub mod scenario;

use rand::rngs::StdRng;
use rand::SeedableRng;
use seabattle_engine::*;

/// The rows of a picture: whitespace dropped, blank lines skipped.
fn rows(picture: &str) -> Vec<Vec<char>> {
    picture
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect()
}

fn is_ship_char(c: char) -> bool {
    matches!(c, '#' | '@')
}

fn is_label(c: char) -> bool {
    c.is_ascii_digit() || c.is_ascii_uppercase()
}

fn is_land_char(c: char) -> bool {
    matches!(c, '_' | '@')
}

/// The ships of a picture as cell lists, in reading order of their first cell.
fn ships_of(grid: &[Vec<char>], size: Size) -> Vec<Vec<Coord>> {
    let at = |c: Coord| grid[usize::from(c.y)][usize::from(c.x)];
    let mut seen = vec![false; size.area()];
    let mut ships = Vec::new();
    for start in size.cells() {
        let ch = at(start);
        if seen[size.index(start)] || !(is_ship_char(ch) || is_label(ch)) {
            continue;
        }
        let mut cells = Vec::new();
        if is_label(ch) {
            for c in size.cells().filter(|&c| at(c) == ch) {
                seen[size.index(c)] = true;
                cells.push(c);
            }
        } else {
            seen[size.index(start)] = true;
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                cells.push(c);
                for n in c.sides(size) {
                    if !seen[size.index(n)] && is_ship_char(at(n)) {
                        seen[size.index(n)] = true;
                        stack.push(n);
                    }
                }
            }
        }
        cells.sort_by_key(|c| (c.y, c.x));
        ships.push(cells);
    }
    ships
}

/// The border drawn by a land-sea-air picture: land starts at the first `_` or `@` of each
/// column, and everything below it is land too.
///
/// # Panics
/// If a column has no land, or sea below land.
fn border_of(grid: &[Vec<char>], size: Size) -> Border {
    let rows = (0..size.width)
        .map(|x| {
            let column: Vec<char> = grid.iter().map(|r| r[usize::from(x)]).collect();
            let start = column
                .iter()
                .position(|&c| is_land_char(c))
                .unwrap_or_else(|| panic!("column {} of the picture has no land", x + 1));
            let sea_below = column[start..]
                .iter()
                .any(|&c| matches!(c, '.' | '#') || is_label(c));
            assert!(!sea_below, "column {} has sea below land", x + 1);
            start as u8
        })
        .collect();
    Border::from_rows(rows, size.width).expect("the picture's border breaks a rule")
}

/// The draft a picture shows, not validated: ships get their kind from [`Draft::kind_for`],
/// in reading order, and the border (land-sea-air) is read from the picture.
///
/// # Panics
/// If the picture is not the ruleset's size or has a character it does not know.
pub fn draft_from_picture(ruleset: &Ruleset, picture: &str) -> Draft {
    let size = ruleset.size();
    let grid = rows(picture);
    assert_eq!(
        (grid.len(), grid.iter().map(Vec::len).max().unwrap_or(0)),
        (usize::from(size.height), usize::from(size.width)),
        "the picture is not {size}"
    );
    assert!(
        grid.iter().all(|r| r.len() == usize::from(size.width)),
        "the picture's rows differ in length"
    );
    for (y, row) in grid.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let known = matches!(c, '.' | '#' | 'm') || is_label(c);
            let terrain = ruleset.has_terrain() && is_land_char(c);
            assert!(known || terrain, "unknown picture char {c:?} at {x},{y}");
        }
    }
    let mut draft = Draft::new(ruleset);
    if ruleset.has_terrain() {
        draft
            .set_border(ruleset, border_of(&grid, size))
            .expect("the border is refused");
    }
    for cells in ships_of(&grid, size) {
        let kind = draft.kind_for(ruleset, &cells);
        draft
            .place(ruleset, kind, cells)
            .expect("a ship is refused");
    }
    for c in size.cells() {
        if grid[usize::from(c.y)][usize::from(c.x)] == 'm' {
            draft.place_mine(ruleset, c).expect("a mine is refused");
        }
    }
    draft
}

/// The fleet a picture shows.
///
/// # Panics
/// As [`draft_from_picture`], and with every problem if the fleet is not legal.
pub fn fleet_from_picture(ruleset: &Ruleset, picture: &str) -> Fleet {
    match draft_from_picture(ruleset, picture).validate(ruleset) {
        Ok(fleet) => fleet,
        Err(rejected) => panic!("the picture is not a legal fleet: {:#?}", rejected.problems),
    }
}

/// A cell typed in the default Russian alphabet on the ruleset's field: `cell(&r, "в6")`.
///
/// # Panics
/// If it is not a cell of that field.
pub fn cell(ruleset: &Ruleset, typed: &str) -> Coord {
    parse_cell(typed, Alphabet::Russian, ruleset.size())
        .unwrap_or_else(|e| panic!("{typed:?} is not a cell: {e:?}"))
}

/// Several cells typed in the Russian alphabet, separated by spaces.
pub fn cells(ruleset: &Ruleset, typed: &str) -> Vec<Coord> {
    typed.split_whitespace().map(|t| cell(ruleset, t)).collect()
}

/// A game of as many players as `fleets`, joined as players 1, 2, …, started and readied
/// seat by seat at time 0: the battle has begun and `game.turn()` is the lot's first shooter.
///
/// # Panics
/// If any step is refused.
pub fn game_with(ruleset: &Ruleset, fleets: Vec<Fleet>, rng: &mut StdRng) -> Game {
    let mut game = Game::new(ruleset.clone());
    for i in 0..fleets.len() {
        game.apply(Action::Join(PlayerId(i as u64 + 1)), 0, rng)
            .expect("join");
    }
    game.apply(Action::Start, 0, rng).expect("start");
    for (i, fleet) in fleets.into_iter().enumerate() {
        game.apply(Action::Ready(SeatId(i as u8), fleet), 0, rng)
            .expect("ready");
    }
    assert_eq!(game.phase(), &Phase::Battle);
    game
}

/// A duel between two fleets; see [`game_with`].
pub fn duel(ruleset: &Ruleset, fleet0: Fleet, fleet1: Fleet, rng: &mut StdRng) -> Game {
    game_with(ruleset, vec![fleet0, fleet1], rng)
}

/// A game where `first` shoots first: seeds are tried in turn until the lot falls on it.
/// Returns the game and the random source, ready for the next action.
pub fn game_where_first(ruleset: &Ruleset, fleets: Vec<Fleet>, first: SeatId) -> (Game, StdRng) {
    for seed in 0..1000 {
        let mut rng = StdRng::seed_from_u64(seed);
        let game = game_with(ruleset, fleets.clone(), &mut rng);
        if game.turn() == first {
            return (game, rng);
        }
    }
    panic!("the lot never fell on {first:?}")
}

/// A duel where `first` shoots first.
pub fn duel_where_first(
    ruleset: &Ruleset,
    fleet0: Fleet,
    fleet1: Fleet,
    first: SeatId,
) -> (Game, StdRng) {
    game_where_first(ruleset, vec![fleet0, fleet1], first)
}

/// Fires one shot and returns its answer, or the refusal.
pub fn fire(
    game: &mut Game,
    rng: &mut StdRng,
    now: u64,
    shooter: SeatId,
    target: SeatId,
    at: Coord,
) -> Result<Vec<Event>, ActionError> {
    game.apply(Action::Fire(shooter, target, at), now, rng)
}

/// The answer of the single shot among `events`.
///
/// # Panics
/// If there is none.
pub fn shot_result(events: &[Event]) -> ShotResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::Shot { result, .. } => Some(*result),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no shot among {events:?}"))
}

/// The `Finished` event among `events`, if any.
pub fn finished(events: &[Event]) -> Option<(Vec<SeatId>, EndReason)> {
    events.iter().find_map(|e| match e {
        Event::Finished { winners, reason } => Some((winners.clone(), *reason)),
        _ => None,
    })
}

/// A classic fleet touching the field's edges: the battleship on а1–г1, boats on е1, з1, к1
/// and к10, cruisers on а3–в3 and д3–ж3, destroyers on а5–б5, г5–д5 and ж5–з5.
pub const CLASSIC_FLEET: &str = "
    ####.#.#.#
    ..........
    ###.###...
    ..........
    ##.##.##..
    ..........
    ..........
    ..........
    ..........
    .........#
";

/// Seat 0, the first to shoot.
pub const A: SeatId = SeatId(0);
/// Seat 1.
pub const B: SeatId = SeatId(1);

/// A classic duel of two [`CLASSIC_FLEET`]s where seat 0 ([`A`]) shoots first.
pub fn classic_duel() -> (Game, StdRng) {
    let r = Ruleset::default();
    let fleet = fleet_from_picture(&r, CLASSIC_FLEET);
    duel_where_first(&r, fleet.clone(), fleet, A)
}

/// The cells of `seat`'s field that `viewer` sees with `mark`.
pub fn marked(game: &Game, viewer: Option<SeatId>, seat: SeatId, mark: Mark) -> Vec<Coord> {
    let view = match viewer {
        Some(v) => game.view_for(v),
        None => game.public_view(),
    };
    let field = view.field(seat);
    field
        .size
        .cells()
        .filter(|&c| field.mark(c) == mark)
        .collect()
}

/// Cells in reading order (row by row), as [`marked`] lists them.
pub fn sorted(mut cells: Vec<Coord>) -> Vec<Coord> {
    cells.sort_by_key(|c| (c.y, c.x));
    cells
}

/// `picture` with its row `row` (counted from 1, as people count) redrawn as `text`.
pub fn with_row(picture: &str, row: usize, text: &str) -> String {
    let mut rows: Vec<String> = picture
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    rows[row - 1] = text.to_owned();
    rows.join("\n")
}
