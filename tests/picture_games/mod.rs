//! Games for the picture tests and bench: real engine games played by a simple seeded hunter,
//! so the fields show misses, hits, sunk ships, halos and a last shot.

#![allow(dead_code)]

use engine::{random_fleet, Action, Coord, Field, Game, Mark, PlayerId, Players, Ruleset, SeatId};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A fixed "now" for the games.
pub const NOW: u64 = 1_764_480_000;

/// The last shot: at whose field, which cell.
pub type Last = Option<(SeatId, Coord)>;

/// A game of `ruleset` in battle after `shots` shots; the last shot.
pub fn played(ruleset: Ruleset, seed: u64, shots: usize) -> (Game, Last) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(ruleset.clone());
    for p in 0..ruleset.seats() as u64 {
        game.apply(Action::Join(PlayerId(p + 1)), NOW, &mut rng)
            .expect("a player joins");
    }
    game.apply(Action::Start, NOW, &mut rng)
        .expect("the game starts");
    for s in 0..ruleset.seats() as u8 {
        let fleet = random_fleet(&ruleset, &mut rng).expect("a random fleet");
        game.apply(Action::Ready(SeatId(s), fleet), NOW, &mut rng)
            .expect("a fleet is ready");
    }
    let mut last = None;
    for _ in 0..shots {
        let Some((shooter, target, cell)) = hunt(&game, &mut rng) else {
            break;
        };
        game.apply(Action::Fire(shooter, target, cell), NOW, &mut rng)
            .expect("a legal shot");
        last = Some((target, cell));
    }
    (game, last)
}

/// The classic duel.
pub fn classic(seed: u64, shots: usize) -> (Game, Last) {
    played(Ruleset::default(), seed, shots)
}

/// Four players, each against all, on the classic field.
pub fn free_for_all(seed: u64, shots: usize) -> (Game, Last) {
    let ruleset = Ruleset {
        players: Players::FreeForAll(4),
        ..Ruleset::default()
    };
    played(ruleset, seed, shots)
}

/// Four players, each against all, on 20×15 land-sea-air fields.
pub fn free_for_all_land_sea_air(seed: u64, shots: usize) -> (Game, Last) {
    let ruleset = Ruleset {
        players: Players::FreeForAll(4),
        field: Field::LandSeaAir,
        ..Ruleset::default()
    };
    played(ruleset, seed, shots)
}

/// The duel on land-sea-air's 20×15 field.
pub fn land_sea_air(seed: u64, shots: usize) -> (Game, Last) {
    played(Ruleset::land_sea_air(), seed, shots)
}

/// The next shot: the turn's shooter finishes a hit ship when there is one, else shoots at
/// random.
fn hunt(game: &Game, rng: &mut impl Rng) -> Option<(SeatId, SeatId, Coord)> {
    if game.is_finished() {
        return None;
    }
    let shooter = game.turn();
    let view = game.public_view();
    let size = game.ruleset().size();
    let mut targets = game.targets(shooter);
    targets.shuffle(rng);
    let open = |t: SeatId, c: Coord| view.field(t).mark(c) == Mark::Unknown;
    for &t in &targets {
        let field = view.field(t);
        let near: Vec<Coord> = size
            .cells()
            .filter(|&c| field.mark(c) == Mark::Hit)
            .flat_map(|c| c.sides(size).collect::<Vec<_>>())
            .filter(|&c| open(t, c))
            .collect();
        if let Some(&c) = near.choose(rng) {
            return Some((shooter, t, c));
        }
    }
    let t = *targets.first()?;
    let cells: Vec<Coord> = size.cells().filter(|&c| open(t, c)).collect();
    cells.choose(rng).map(|&c| (shooter, t, c))
}
