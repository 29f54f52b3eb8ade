//! Engine benchmarks: layouts, a shot, serialisation. `cargo bench -p seabattle-engine`.
//! Also prints the serialised size of a classic game in progress.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use seabattle_engine::*;

/// A classic duel half played: each side has taken `shots` random shots.
fn game_in_progress(ruleset: &Ruleset, shots: usize, seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(ruleset.clone());
    for p in [111_111_111, 222_222_222] {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    for s in 0..2 {
        let fleet = random_fleet(ruleset, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    let size = ruleset.size();
    let mut cells: Vec<Coord> = size.cells().collect();
    rand::seq::SliceRandom::shuffle(cells.as_mut_slice(), &mut rng);
    let mut fired = 0;
    let mut now = 1_764_470_000;
    while fired < shots * 2 && !game.is_finished() {
        let shooter = game.turn();
        let target = game.targets(shooter)[0];
        if let Some(&c) = cells.iter().find(|&&c| !game.is_known(target, c)) {
            now += 5;
            game.apply(Action::Fire(shooter, target, c), now, &mut rng)
                .unwrap();
            fired += 1;
        }
    }
    game
}

fn layouts(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let free = Ruleset {
        shapes: Shapes::Free,
        ..Ruleset::default()
    };
    let cases = [
        ("classic", Ruleset::default()),
        ("big", Ruleset::big()),
        ("land-sea-air", Ruleset::land_sea_air()),
        ("free shapes", free),
    ];
    for (name, r) in cases {
        c.bench_function(&format!("random layout: {name}"), |b| {
            b.iter(|| random_fleet(black_box(&r), &mut rng).unwrap())
        });
    }
    let classic = Ruleset::default();
    c.bench_function("perelman layout: classic", |b| {
        b.iter(|| perelman_fleet(black_box(&classic), &mut rng).unwrap())
    });
}

fn play(c: &mut Criterion) {
    let r = Ruleset::default();
    let game = game_in_progress(&r, 20, 7);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let shooter = game.turn();
    let target = game.targets(shooter)[0];
    let cell = r
        .size()
        .cells()
        .find(|&c| !game.is_known(target, c))
        .unwrap();
    c.bench_function("resolve a shot: classic", |b| {
        b.iter_batched_ref(
            || game.clone(),
            |g| g.apply(Action::Fire(shooter, target, cell), 1_764_480_000, &mut rng),
            criterion::BatchSize::SmallInput,
        )
    });
    c.bench_function("serialise a game: classic, JSON", |b| {
        b.iter(|| serde_json::to_vec(black_box(&game)).unwrap())
    });
    let json = serde_json::to_vec(&game).unwrap();
    c.bench_function("deserialise a game: classic, JSON", |b| {
        b.iter(|| serde_json::from_slice::<Game>(black_box(&json)).unwrap())
    });
    let mid = serde_json::to_vec(&game_in_progress(&r, 30, 3))
        .unwrap()
        .len();
    println!(
        "serialised size of a classic game in progress (JSON): {} bytes after 40 shots, {} bytes after 60 shots",
        json.len(),
        mid
    );
}

criterion_group!(benches, layouts, play);
criterion_main!(benches);
