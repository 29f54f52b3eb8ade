//! Store benchmark against a real Redis: transitions per second and the memory one classic
//! game in progress takes. Run `scripts/redis-up && cargo bench --bench store`.

#[path = "../tests/common/mod.rs"]
mod common;

use common::{battle, next_shot, NOW};
use morskoy_boy::game::record::GameRecord;
use morskoy_boy::store::Atomic;
use morskoy_boy::store::{GameId, Store, StoreConfig};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tokio::time::Instant;

/// Plays one shot on the game: a real engine transition, loaded, applied and saved.
async fn shoot(store: &Store, id: GameId) -> bool {
    let done = store
        .transition(id, Atomic::plain(), |rec| {
            let action = next_shot(&rec.game).ok_or(())?;
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            rec.game.apply(action, NOW, &mut rng).map_err(|_| ())
        })
        .await;
    matches!(done, Ok(Ok(_)))
}

async fn run(store: &Store, games: usize, tasks_per_game: usize) -> (usize, f64) {
    let mut ids = Vec::new();
    for g in 0..games {
        ids.push(
            store
                .create_game(&GameRecord::new(battle(g as u64), -1, NOW))
                .await
                .unwrap(),
        );
    }
    let started = Instant::now();
    let mut handles = Vec::new();
    for &id in &ids {
        for _ in 0..tasks_per_game {
            let store = store.clone();
            handles.push(tokio::spawn(async move {
                let mut n = 0;
                while n < 60 && shoot(&store, id).await {
                    n += 1;
                }
                n
            }));
        }
    }
    let mut total = 0;
    for h in handles {
        total += h.await.unwrap();
    }
    for id in ids {
        store.delete_game(id).await.unwrap();
    }
    (total, total as f64 / started.elapsed().as_secs_f64())
}

#[tokio::main]
async fn main() {
    if std::env::args().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let config = StoreConfig {
        namespace: format!("mbbench:{:08x}:v1", rand::random::<u32>()),
        ..StoreConfig::default()
    };
    let store = match Store::connect(&url, config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("no Redis at {url} ({e}): start one with scripts/redis-up");
            std::process::exit(1);
        }
    };
    println!("store benchmark against {url}");
    for (games, tasks, what) in [
        (1, 1, "one game, one client (sequential)"),
        (16, 1, "16 games, one client each"),
        (1, 8, "one game, 8 clients racing"),
    ] {
        let (n, rate) = run(&store, games, tasks).await;
        println!("transitions: {what}: {n} in total, {rate:.0} per second");
    }

    let mut game = battle(99);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..40 {
        let shot = next_shot(&game).unwrap();
        game.apply(shot, NOW, &mut rng).unwrap();
    }
    let mut record = GameRecord::new(game, -100_200_300_400, NOW);
    record.names = vec!["Анна".into(), "Борис".into()];
    let id = store.create_game(&record).await.unwrap();
    let mut conn = store.connection();
    let bytes: u64 = redis::cmd("MEMORY")
        .arg("USAGE")
        .arg(store.keys().game(id))
        .query_async(&mut conn)
        .await
        .unwrap();
    let json = serde_json::to_vec(&record).unwrap().len();
    println!("MEMORY USAGE of a classic game in progress (40 shots): {bytes} bytes (payload {json} bytes)");
    store.delete_game(id).await.unwrap();
}
