//! Memory of ratings and statistics at scale (issue 16): a million rated games (by default;
//! `-- --games N`) among 100 000 players in 20 000 chats are written through the bot's own
//! store calls (each game: the chat's board, everyone's board, both players' statistics), then
//! Redis's `used_memory` growth is printed, with the ranking sizes that keep it bounded. Run
//! `scripts/redis-up && cargo bench --bench ratings`.

use futures::StreamExt;
use morskoy_boy::game::rating::rating_value;
use morskoy_boy::game::rating::{rate, Outcome, Rating};
use morskoy_boy::game::record::RatingWrite;
use morskoy_boy::store::{Leaderboard, Store, StoreConfig};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use tokio::time::Instant;

const PLAYERS: u64 = 100_000;
const CHATS: i64 = 20_000;

/// Redis's `used_memory`.
async fn used_memory(store: &Store) -> i64 {
    let mut conn = store.connection();
    let info: String = redis::cmd("INFO")
        .arg("memory")
        .query_async(&mut conn)
        .await
        .unwrap();
    info.lines()
        .find_map(|l| l.strip_prefix("used_memory:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

/// What one game writes.
struct Written {
    chat: i64,
    ratings: Vec<RatingWrite>,
    stats: Vec<(u64, Vec<(String, u64)>)>,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list" || a == "--test") {
        return;
    }
    let games: usize = args
        .windows(2)
        .find(|w| w[0] == "--games")
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(1_000_000);
    let url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let namespace = format!("mbbench:{:08x}:v1", rand::random::<u32>());
    let config = StoreConfig {
        namespace: namespace.clone(),
        ..StoreConfig::default()
    };
    let store = match Store::connect(&url, config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("no Redis at {url} ({e}): start one with scripts/redis-up");
            std::process::exit(1);
        }
    };
    println!("ratings benchmark against {url}: {games} games, {PLAYERS} players, {CHATS} chats");
    // The games, rated as the bot rates them, each from the ratings before it.
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    let mut boards: HashMap<(Leaderboard, u64), Rating> = HashMap::new();
    let mut totals: HashMap<(u64, &'static str), u64> = HashMap::new();
    let duel = Outcome {
        sides: vec![vec![0], vec![1]],
        ranks: vec![1, 2],
    };
    let mut work = Vec::with_capacity(games);
    for _ in 0..games {
        let chat = -rng.gen_range(1..=CHATS);
        // A chat's players are a few hundred of everyone, so chats' boards overlap.
        let base = (chat.unsigned_abs() * 37) % PLAYERS;
        let winner = (base + rng.gen_range(0..300)) % PLAYERS;
        let mut loser = (base + rng.gen_range(0..300)) % PLAYERS;
        if loser == winner {
            loser = (loser + 1) % PLAYERS;
        }
        let mut ratings = Vec::new();
        for board in [Leaderboard::Chat(chat), Leaderboard::People] {
            let before =
                [winner, loser].map(|u| boards.get(&(board, u)).copied().unwrap_or_default());
            let after = rate(&duel, &before);
            for (i, u) in [winner, loser].into_iter().enumerate() {
                boards.insert((board, u), after[i]);
                ratings.push(RatingWrite {
                    board,
                    seat: i as u8,
                    user: u,
                    value: rating_value(&after[i], &format!("Player {u}")),
                    before: before[i].shown(),
                    after: after[i].shown(),
                });
            }
        }
        let mut stats = Vec::new();
        for (u, won) in [(winner, 1), (loser, 0)] {
            let mut fields = Vec::new();
            for (field, add) in [("games", 1), ("wins", won), ("shots", 60), ("hits", 20)] {
                let total = totals.entry((u, field)).or_default();
                *total += add;
                for scope in ["classic 10×10, touching none, straight ships", "all"] {
                    fields.push((format!("{scope}|{field}"), *total));
                }
            }
            stats.push((u, fields));
        }
        work.push(Written {
            chat,
            ratings,
            stats,
        });
    }
    let before = used_memory(&store).await;
    let started = Instant::now();
    futures::stream::iter(work)
        .for_each_concurrent(64, |w| {
            let store = store.clone();
            async move {
                for board in [Leaderboard::Chat(w.chat), Leaderboard::People] {
                    store.set_ratings(board, &w.ratings).await.unwrap();
                }
                for (u, fields) in &w.stats {
                    store.set_stats(*u, fields).await.unwrap();
                }
            }
        })
        .await;
    let took = started.elapsed().as_secs_f64();
    let after = used_memory(&store).await;
    let grown = after - before;
    let rated_chats = boards
        .keys()
        .filter(|(b, _)| matches!(b, Leaderboard::Chat(_)))
        .count();
    let rated_people = boards
        .keys()
        .filter(|(b, _)| *b == Leaderboard::People)
        .count();
    println!(
        "written in {took:.1} s ({:.0} games a second)",
        games as f64 / took
    );
    println!(
        "memory: {:.1} MB for {games} games ({:.0} bytes a game; {rated_people} players rated \
         overall, {rated_chats} player-in-chat ratings; the overall ranking keeps the best {}, a \
         chat's the best {})",
        grown as f64 / 1e6,
        grown as f64 / games as f64,
        Leaderboard::People.kept(),
        Leaderboard::Chat(0).kept(),
    );
    // Clean up.
    let mut conn = store.connection();
    let keys: Vec<String> = {
        let mut iter: redis::AsyncIter<String> =
            redis::AsyncCommands::scan_match(&mut conn, format!("{namespace}*"))
                .await
                .unwrap();
        let mut keys = Vec::new();
        while let Some(k) = iter.next_item().await {
            keys.push(k.unwrap());
        }
        keys
    };
    for chunk in keys.chunks(1000) {
        let _: () = redis::cmd("DEL")
            .arg(chunk)
            .query_async(&mut conn)
            .await
            .unwrap();
    }
}
