//! The scenario files of `tests/scenarios/`: a position, moves and what must follow.
//!
//! One command a line (`#` starts a comment); points in chart numbering, column then row:
//! - `ship <north|south> <cruiser|submarine|destroyer|patrol|minesweeper> <col>,<row> <facing>`
//!   — the ships are numbered 0, 1, … in the order given;
//! - `mine <col>,<row>`, `laid <north> <south>` (mines laid so far), `turn <side>`;
//! - `play <side> <forward|left|right|lay|pass> [ship] => ok [lost i j …]` or `=> <Error>`;
//! - `expect at <ship> <col>,<row> <facing>`, `expect lost <ship>`, `expect mines [points…]`,
//!   `expect outcome <north|south|draw|none>`.

use riga::*;

fn side(w: &str) -> Side {
    match w {
        "north" => Side::North,
        "south" => Side::South,
        _ => panic!("no side {w:?}"),
    }
}

fn kind(w: &str) -> Kind {
    match w {
        "cruiser" => Kind::Cruiser,
        "submarine" => Kind::Submarine,
        "destroyer" => Kind::Destroyer,
        "patrol" => Kind::Patrol,
        "minesweeper" => Kind::Minesweeper,
        _ => panic!("no kind {w:?}"),
    }
}

fn facing(w: &str) -> Facing {
    match w {
        "north" => Facing::North,
        "east" => Facing::East,
        "south" => Facing::South,
        "west" => Facing::West,
        _ => panic!("no facing {w:?}"),
    }
}

fn point(w: &str) -> Point {
    let (c, r) = w.split_once(',').expect("col,row");
    let (c, r): (u8, u8) = (c.parse().unwrap(), r.parse().unwrap());
    Point::new(c - 1, r - 1).unwrap_or_else(|| panic!("{w} is off the board"))
}

fn run(name: &str, text: &str) {
    let (mut ships, mut mines, mut laid, mut turn) = (Vec::new(), Vec::new(), [0, 0], Side::North);
    let mut game: Option<Game> = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{name}:{}: {line}", n + 1);
        let w: Vec<&str> = line.split_whitespace().collect();
        let g = || Game::custom(ships.clone(), mines.clone(), laid, turn);
        match w[0] {
            "ship" => ships.push(Some(Ship {
                side: side(w[1]),
                kind: kind(w[2]),
                at: point(w[3]),
                facing: facing(w[4]),
            })),
            "mine" => mines.push(point(w[1])),
            "laid" => laid = [w[1].parse().unwrap(), w[2].parse().unwrap()],
            "turn" => turn = side(w[1]),
            "play" => {
                let game = game.get_or_insert_with(g);
                let arrow = w
                    .iter()
                    .position(|&x| x == "=>")
                    .expect("=> in a play line");
                let i = || w[3].parse::<u8>().unwrap();
                let mv = match w[2] {
                    "forward" => Move::Forward(i()),
                    "left" => Move::Left(i()),
                    "right" => Move::Right(i()),
                    "lay" => Move::Lay(i()),
                    "pass" => Move::Pass,
                    other => panic!("{at}: no move {other:?}"),
                };
                let before = game.clone();
                let got = game.play(side(w[1]), mv);
                let want = &w[arrow + 1..];
                match (got, want) {
                    (Ok(lost), ["ok", rest @ ..]) => {
                        let want: Vec<usize> = match rest {
                            [] => Vec::new(),
                            ["lost", ids @ ..] => ids.iter().map(|x| x.parse().unwrap()).collect(),
                            _ => panic!("{at}: after ok, only `lost …`"),
                        };
                        assert_eq!(lost, want, "{at}: ships lost");
                    }
                    (Err(e), [name]) => {
                        assert_eq!(format!("{e:?}"), *name, "{at}");
                        assert_eq!(*game, before, "{at}: a refused move changed the game");
                    }
                    (got, want) => panic!("{at}: got {got:?}, expected {want:?}"),
                }
            }
            "expect" => {
                let game = game.get_or_insert_with(g);
                match w[1] {
                    "at" => {
                        let s = game.ships()[w[2].parse::<usize>().unwrap()]
                            .unwrap_or_else(|| panic!("{at}: the ship is lost"));
                        assert_eq!((s.at, s.facing), (point(w[3]), facing(w[4])), "{at}");
                    }
                    "lost" => assert!(
                        game.ships()[w[2].parse::<usize>().unwrap()].is_none(),
                        "{at}"
                    ),
                    "mines" => {
                        let want: Vec<Point> = w[2..].iter().map(|x| point(x)).collect();
                        assert_eq!(game.mines(), want.as_slice(), "{at}");
                    }
                    "outcome" => {
                        let want = match w[2] {
                            "none" => None,
                            "draw" => Some(Outcome::Draw),
                            s => Some(Outcome::Win(side(s))),
                        };
                        assert_eq!(game.outcome(), want, "{at}");
                    }
                    other => panic!("{at}: no expectation {other:?}"),
                }
            }
            other => panic!("{at}: no command {other:?}"),
        }
    }
}

#[test]
fn every_scenario_file_holds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "scenario files in {}", dir.display());
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        run(&name, &std::fs::read_to_string(&f).unwrap());
    }
}
