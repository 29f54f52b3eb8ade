//! docs/rules.md §3.2: ship shapes `straight` (classic, in `classic.rs`), `bent` and `free`.

use crate::common::*;
use seabattle_engine::*;

type Shape = Vec<(u8, u8)>;
/// A rotation or reflection of the plane.
type Transform = fn(i8, i8) -> (i8, i8);

const L_TROMINO: [(u8, u8); 3] = [(0, 0), (0, 1), (1, 1)];
const L_TETROMINO: [(u8, u8); 4] = [(0, 0), (0, 1), (0, 2), (1, 2)];
const SQUARE: [(u8, u8); 4] = [(0, 0), (1, 0), (0, 1), (1, 1)];
const ZIGZAG: [(u8, u8); 4] = [(1, 0), (2, 0), (0, 1), (1, 1)];
const T_TETROMINO: [(u8, u8); 4] = [(0, 0), (1, 0), (2, 0), (1, 1)];

/// The eight rotations and reflections of a shape, moved to the origin.
fn orientations(shape: &[(u8, u8)]) -> Vec<Shape> {
    let maps: [Transform; 8] = [
        |x, y| (x, y),
        |x, y| (-y, x),
        |x, y| (-x, -y),
        |x, y| (y, -x),
        |x, y| (-x, y),
        |x, y| (y, x),
        |x, y| (x, -y),
        |x, y| (-y, -x),
    ];
    maps.iter()
        .map(|m| {
            let moved: Vec<(i8, i8)> = shape.iter().map(|&(x, y)| m(x as i8, y as i8)).collect();
            let min_x = moved.iter().map(|c| c.0).min().unwrap();
            let min_y = moved.iter().map(|c| c.1).min().unwrap();
            moved
                .iter()
                .map(|&(x, y)| ((x - min_x) as u8, (y - min_y) as u8))
                .collect()
        })
        .collect()
}

/// `width` × `height` rows of `shape` drawn with `ch` on `.`.
fn draw(shape: &[(u8, u8)], ch: char, width: u8, height: u8) -> Vec<String> {
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| if shape.contains(&(x, y)) { ch } else { '.' })
                .collect()
        })
        .collect()
}

/// A classic fleet whose 3-cell ship is `three` (in the 2×2 box а3–б4) and whose 4-cell ship
/// is `four` (in the 3×3 box а8–в10); `four` is drawn with `ch`.
fn fleet_with(three: &[(u8, u8)], four: &[(u8, u8)], ch: char) -> String {
    let t = draw(three, '#', 2, 2);
    let f = draw(four, ch, 3, 3);
    format!(
        "#.#.#.#...\n..........\n{}.###.##.\n{}........\n..........\n\
         ##.##.....\n..........\n{}.......\n{}.......\n{}.......",
        t[0], t[1], f[0], f[1], f[2]
    )
}

fn shapes(s: Shapes) -> Ruleset {
    Ruleset {
        shapes: s,
        ..Ruleset::default()
    }
}

/// The rules the draft of `picture` breaks, with the kind of ship breaking them.
fn broken(r: &Ruleset, picture: &str) -> Vec<(Rule, Option<Kind>)> {
    draft_from_picture(r, picture)
        .problems(r)
        .iter()
        .map(|p| {
            let kind = match p.subject {
                Subject::Ship { kind, .. } => Some(kind),
                _ => None,
            };
            (p.rule, kind)
        })
        .collect()
}

#[test]
fn bent_ships_allow_l_square_and_zigzag_but_not_t() {
    let bent = shapes(Shapes::Bent);
    let straight = Ruleset::default();
    let bad = |k| vec![(Rule::ShapeNotAllowed, Some(Kind::Ship(k)))];
    for three in orientations(&L_TROMINO) {
        for shape in [&L_TETROMINO[..], &SQUARE, &ZIGZAG] {
            for four in orientations(shape) {
                let picture = fleet_with(&three, &four, '#');
                assert_eq!(broken(&bent, &picture), [], "{picture}");
                let mut classic = bad(3);
                classic.extend(bad(4));
                assert_eq!(broken(&straight, &picture), classic, "{picture}");
            }
        }
        for four in orientations(&T_TETROMINO) {
            let picture = fleet_with(&three, &four, '#');
            assert_eq!(broken(&bent, &picture), bad(4), "{picture}");
        }
    }
}

#[test]
fn free_ships_allow_any_connected_shape_but_not_a_disconnected_one() {
    let free = shapes(Shapes::Free);
    for three in orientations(&L_TROMINO) {
        for shape in [&L_TETROMINO[..], &SQUARE, &ZIGZAG, &T_TETROMINO] {
            for four in orientations(shape) {
                let picture = fleet_with(&three, &four, '#');
                assert_eq!(broken(&free, &picture), [], "{picture}");
            }
        }
    }
    // Four cells labelled as one ship but split in two pieces.
    let split = fleet_with(&L_TROMINO, &[(0, 0), (1, 0), (0, 2), (1, 2)], '1');
    assert_eq!(
        broken(&free, &split),
        [(Rule::NotConnected, Some(Kind::Ship(4)))]
    );
    // A five-cell carrier of the big game may be a cross.
    let big = Ruleset {
        shapes: Shapes::Free,
        ..Ruleset::big()
    };
    let cross = "
        .#...####.####.
        ###............
        .#..###.###.###
        ...............
        ##.##.##.##....
        ...............
        #.#.#.#.#......
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
        ...............
    ";
    assert_eq!(broken(&big, cross), []);
    assert_eq!(
        broken(&Ruleset::big(), cross),
        [(Rule::ShapeNotAllowed, Some(Kind::Ship(5)))]
    );
}
