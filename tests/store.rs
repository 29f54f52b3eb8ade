//! The Redis store against real Redis servers: one server at `REDIS_URL`, the 3-master cluster
//! at `REDIS_CLUSTER_URLS` (both started by `scripts/test`), and servers a test starts itself;
//! and the same suite (`on_every_store!`) against the in-memory server (src/store/memory/).

mod common;

use common::{battle, RedisServer, Target, NOW};
use engine::{Action, Coord, Draft, Game, PlayerId, Ruleset, SeatId};
use morskoy_boy::game::lang::Lang;
use morskoy_boy::game::record::{ChatSettings, GameRecord, UserSettings};
use morskoy_boy::store::Atomic;
use morskoy_boy::store::{GameId, Store, StoreConfig, StoreError};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Applies an action inside a transition; the engine's refusal is the transition's refusal.
async fn act(store: &Store, id: GameId, action: Action) -> Result<u64, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    match store
        .transition(id, Atomic::plain(), |rec| {
            rec.game.apply(action.clone(), NOW, &mut rng)
        })
        .await
    {
        Ok(Ok(done)) => Ok(done.version),
        Ok(Err(refused)) => Err(format!("refused: {refused:?}")),
        Err(e) => Err(format!("store: {e}")),
    }
}

macro_rules! on_every_store {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_one_server() {
                super::$name(super::Target::Single).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn on_the_cluster() {
                super::$name(super::Target::Cluster).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn in_memory() {
                super::$name(super::Target::Memory).await;
            }
        }
    };
}

/// This process's `mb_takeovers_total{what="…"}`, read from its metrics' text.
fn takeovers(what: &str) -> f64 {
    let series = format!("mb_takeovers_total{{what=\"{what}\"}} ");
    morskoy_boy::metrics::render()
        .lines()
        .find_map(|l| l.strip_prefix(&series))
        .map_or(0.0, |v| v.parse().unwrap())
}

async fn the_outbox_depth_counts_its_games_and_the_oldest_mark(target: Target) {
    let store = common::store(target).await;
    assert_eq!(store.outbox_depth().await.unwrap(), (0, None));
    let mut conn = store.connection();
    let () = redis::cmd("ZADD")
        .arg(store.keys().outbox_index())
        .arg(2_000)
        .arg(8)
        .arg(1_000)
        .arg(7)
        .query_async(&mut conn)
        .await
        .map(|_: i64| ())
        .unwrap();
    assert_eq!(store.outbox_depth().await.unwrap(), (2, Some(1_000)));
}
on_every_store!(the_outbox_depth_counts_its_games_and_the_oldest_mark);

async fn every_stored_type_round_trips(target: Target) {
    let store = common::store(target).await;
    let record = GameRecord {
        names: vec!["Аня".into(), "Boris".into()],
        ai_level: engine::ai::Level::Hard,
        ..GameRecord::new(battle(1), -100_123, NOW)
    };
    let id = store.create_game(&record).await.unwrap();
    assert_eq!(store.load_game(id).await.unwrap(), (record.clone(), 1));
    // A tournament's match and a quick match keep what they are.
    for (tournament, quick) in [(Some(77), false), (None, true)] {
        let record = GameRecord {
            tournament,
            quick,
            ..record.clone()
        };
        let id = store.create_game(&record).await.unwrap();
        assert_eq!(store.load_game(id).await.unwrap(), (record, 1));
    }

    let chat = ChatSettings {
        v: 1,
        lang: Some(Lang::Bg),
        alphabet: Some(engine::Alphabet::Respublika),
        ruleset: Ruleset {
            salvo: Some(3),
            ..Ruleset::big()
        },
        ai_level: engine::ai::Level::Easy,
        board: Some(morskoy_boy::game::record::Board::Text),
        own_topics: true,
    };
    assert_eq!(
        store.chat_settings(-5).await.unwrap(),
        ChatSettings::default()
    );
    store.set_chat_settings(-5, &chat).await.unwrap();
    assert_eq!(store.chat_settings(-5).await.unwrap(), chat);

    let user = UserSettings {
        v: 1,
        lang: Some(Lang::Ru),
        started: true,
        detected: Some(Lang::Bg),
        ai_level: engine::ai::Level::Hard,
        blocked: vec![9, 12],
    };
    store.set_user_settings(7, &user).await.unwrap();
    assert_eq!(store.user_settings(7).await.unwrap(), user);

    let values = vec![("classic|games".to_owned(), 3), ("all|games".to_owned(), 5)];
    for _ in 0..2 {
        store.set_stats(7, &values).await.unwrap();
    }
    let all = store.all_stats(7).await.unwrap();
    assert_eq!(
        (all["classic|games"], all["all|games"], all.len()),
        (3, 5, 2)
    );

    store.set_chat_game(-5, None, id).await.unwrap();
    store.set_user_game(7, id).await.unwrap();
    assert_eq!(store.chat_game(-5, None).await.unwrap(), Some(id));
    assert_eq!(store.user_game(7).await.unwrap(), Some(id));
    assert!(!store
        .clear_chat_game(-5, None, GameId(id.0 + 1))
        .await
        .unwrap());
    assert!(store.clear_chat_game(-5, None, id).await.unwrap());
    assert_eq!(store.chat_game(-5, None).await.unwrap(), None);
    // A forum topic has a game of its own, apart from General's.
    store.set_chat_game(-5, Some(3), id).await.unwrap();
    assert_eq!(store.chat_game(-5, Some(3)).await.unwrap(), Some(id));
    assert_eq!(store.chat_game(-5, None).await.unwrap(), None);
    assert_eq!(store.chat_game(-5, Some(4)).await.unwrap(), None);
    assert!(store.clear_chat_game(-5, Some(3), id).await.unwrap());

    let r = Ruleset::default();
    let (kind, draft) = store
        .edit_draft(
            id,
            SeatId(1),
            || Draft::new(&r),
            |d| {
                d.place_line(&r, Coord::new(0, 0), Coord::new(0, 3))
                    .map_err(|e| format!("{e:?}"))
            },
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kind, engine::Kind::Ship(4));
    assert_eq!(store.draft(id, SeatId(1)).await.unwrap(), Some(draft));
    assert_eq!(store.draft::<Draft>(id, SeatId(0)).await.unwrap(), None);

    assert!(store.first_delivery(4242).await.unwrap());
    assert!(!store.first_delivery(4242).await.unwrap());
}
on_every_store!(every_stored_type_round_trips);

/// One process handles an update: the first claim wins; a live process's claim is left to it
/// (its own claim comes back as `Again`), a dead one's is taken over at once, and a claim
/// older than the staleness is taken over whoever made it; a process started again under
/// the same name is a new claimant; a handled update is claimed by nobody; and a thousand
/// updates take a few keys, not a thousand.
async fn updates_are_claimed_once_in_few_keys(target: Target) {
    use morskoy_boy::store::settings::Claim;
    let store = common::store(target).await;
    let minute = Duration::from_secs(60);
    for p in ["a/1", "b/1", "a/2"] {
        store.beat(p).await.unwrap();
    }
    assert_eq!(
        store.claim_update(77, "a/1", minute).await.unwrap(),
        Claim::Mine
    );
    assert_eq!(
        store.claim_update(77, "b/1", minute).await.unwrap(),
        Claim::Elsewhere
    );
    assert_eq!(
        store.claim_update(77, "a/1", minute).await.unwrap(),
        Claim::Again
    );
    // "a" started again is another claimant: the first run's claim is not its own.
    assert_eq!(
        store.claim_update(77, "a/2", minute).await.unwrap(),
        Claim::Elsewhere
    );
    // The first run is dead: its claim is taken over at once (counted), and then "a/2" may
    // not.
    store.end_life("a/1").await.unwrap();
    let before = takeovers("update_claim");
    assert_eq!(
        store.claim_update(77, "b/1", minute).await.unwrap(),
        Claim::Mine
    );
    assert!(takeovers("update_claim") > before);
    assert_eq!(
        store.claim_update(77, "a/2", minute).await.unwrap(),
        Claim::Elsewhere
    );
    // "b/1" lives but holds it longer than the staleness: taken over.
    let short = Duration::from_millis(300);
    tokio::time::sleep(Duration::from_millis(400)).await;
    store.beat("b/1").await.unwrap();
    assert_eq!(
        store.claim_update(77, "a/2", short).await.unwrap(),
        Claim::Mine
    );
    store.finish_update(77).await.unwrap();
    for r in ["a/1", "b/1", "a/2"] {
        assert_eq!(
            store.claim_update(77, r, short).await.unwrap(),
            Claim::Handled
        );
    }
    assert!(!store.first_delivery(77).await.unwrap());
    assert!(store.first_delivery(78).await.unwrap());
    assert_eq!(
        store.claim_update(78, "a/2", minute).await.unwrap(),
        Claim::Handled
    );
    for id in 1_000..2_000 {
        assert_eq!(
            store.claim_update(id, "a/2", minute).await.unwrap(),
            Claim::Mine
        );
        store.finish_update(id).await.unwrap();
    }
    let mut keys = Vec::new();
    let pattern = format!("{}:upd:*", store.keys().namespace());
    if let Target::Memory = target {
        let found: Vec<String> = redis::cmd("KEYS")
            .arg(&pattern)
            .query_async(&mut store.connection())
            .await
            .unwrap();
        keys.extend(found);
    }
    // A cluster's keys are each on one of its servers: KEYS asks each.
    for url in common::target_url(target)
        .split(',')
        .filter(|_| !matches!(target, Target::Memory))
    {
        let client = redis::Client::open(url.trim()).unwrap();
        let mut con = client.get_multiplexed_async_connection().await.unwrap();
        let found: Vec<String> = redis::cmd("KEYS")
            .arg(&pattern)
            .query_async(&mut con)
            .await
            .unwrap();
        keys.extend(found);
    }
    keys.sort();
    keys.dedup();
    // Ids 77 and 78 share a bucket; 1000..2000 span nine of 128.
    assert!(keys.len() <= 10, "{} keys: {keys:?}", keys.len());
    assert!(!keys.is_empty());
}
on_every_store!(updates_are_claimed_once_in_few_keys);

async fn keys_of_one_game_hash_to_one_cluster_slot(target: Target) {
    let store = common::store(target).await;
    let id = store
        .create_game(&GameRecord::new(battle(2), -1, NOW))
        .await
        .unwrap();
    let mut conn = store.connection();
    let mut slots = Vec::new();
    for key in store.keys().game_keys(id, 4) {
        assert!(key.starts_with(store.keys().namespace()));
        let slot: i64 = redis::cmd("CLUSTER")
            .arg("KEYSLOT")
            .arg(&key)
            .query_async(&mut conn)
            .await
            .unwrap();
        slots.push(slot);
    }
    slots.dedup();
    assert_eq!(slots.len(), 1, "one game's keys span slots {slots:?}");
}

#[tokio::test]
async fn keys_of_one_game_hash_to_one_cluster_slot_on_the_cluster() {
    keys_of_one_game_hash_to_one_cluster_slot(Target::Cluster).await;
}

async fn a_refused_or_empty_transition_writes_nothing(target: Target) {
    let store = common::store(target).await;
    // A battle whose beginning has had its effects (the first transition would note it).
    let mut rec = GameRecord::new(battle(3), -1, NOW);
    rec.derive_effects();
    let id = store.create_game(&rec).await.unwrap();
    let (before, v) = store.load_game(id).await.unwrap();
    let other = SeatId(1 - before.game.turn().0);
    let refused = act(
        &store,
        id,
        Action::Fire(other, before.game.turn(), Coord::new(0, 0)),
    )
    .await;
    assert!(refused.unwrap_err().contains("NotYourTurn"));
    let tick = act(&store, id, Action::Tick).await.unwrap();
    assert_eq!(tick, v, "a tick with nothing to do writes nothing");
    assert_eq!(store.load_game(id).await.unwrap(), (before, v));
    assert_eq!(
        store
            .transition(GameId(u64::MAX), Atomic::plain(), |_| Ok::<_, ()>(()))
            .await,
        Err(StoreError::NotFound)
    );
}
on_every_store!(a_refused_or_empty_transition_writes_nothing);

async fn a_payload_that_no_longer_decodes_is_reported_not_a_panic(target: Target) {
    let store = common::store(target).await;
    let id = store
        .create_game(&GameRecord::new(battle(4), -1, NOW))
        .await
        .unwrap();
    let key = store.keys().game(id);
    let mut conn = store.connection();
    let () = redis::cmd("HSET")
        .arg(&key)
        .arg("d")
        .arg("{\"v\":1,\"game\":42}")
        .query_async(&mut conn)
        .await
        .unwrap();
    assert!(matches!(
        store.load_game(id).await,
        Err(StoreError::Undecodable { .. })
    ));
    let () = redis::cmd("HSET")
        .arg(&key)
        .arg("c")
        .arg(99)
        .query_async(&mut conn)
        .await
        .unwrap();
    match store
        .transition(id, Atomic::plain(), |_| Ok::<_, ()>(()))
        .await
    {
        Err(StoreError::Undecodable { reason, .. }) => assert!(reason.contains("codec")),
        other => panic!("expected an undecodable payload, got {other:?}"),
    }
    store.delete_game(id).await.unwrap();
    assert_eq!(store.load_game(id).await, Err(StoreError::NotFound));
}
on_every_store!(a_payload_that_no_longer_decodes_is_reported_not_a_panic);

async fn games_expire_by_phase_and_statistics_are_kept(target: Target) {
    let config = StoreConfig {
        setup_ttl: Duration::from_secs(600),
        battle_ttl: Duration::from_secs(6_000),
        finished_ttl: Duration::from_secs(60_000),
        ..common::config()
    };
    let store = Store::connect(&common::target_url(target), config)
        .await
        .unwrap();
    let mut conn = store.connection();
    let lobby = Game::new(Ruleset::default());
    let id = store
        .create_game(&GameRecord::new(lobby, -1, NOW))
        .await
        .unwrap();
    let ttl = |conn: &mut morskoy_boy::store::Conn, key: String| {
        let mut conn = conn.clone();
        async move {
            redis::cmd("TTL")
                .arg(key)
                .query_async::<i64>(&mut conn)
                .await
                .unwrap()
        }
    };
    let t = ttl(&mut conn, store.keys().game(id)).await;
    assert!(
        (1..=600).contains(&t),
        "a lobby expires within the setup time, got {t}"
    );
    act(&store, id, Action::Join(PlayerId(1))).await.unwrap();
    act(&store, id, Action::Join(PlayerId(2))).await.unwrap();
    act(&store, id, Action::Start).await.unwrap();
    act(&store, id, Action::Cancel).await.unwrap();
    let t = ttl(&mut conn, store.keys().game(id)).await;
    assert!(
        (6_001..=60_000).contains(&t),
        "a finished game is kept, got {t}"
    );
    store
        .set_stats(9, &[("classic|games".to_owned(), 1)])
        .await
        .unwrap();
    assert_eq!(ttl(&mut conn, store.keys().user_stats(9)).await, -1);
}
on_every_store!(games_expire_by_phase_and_statistics_are_kept);

/// Fires `moves` shots as both seats at once; returns the accepted ones by version.
async fn hammer(store: &Store, id: GameId, moves: usize, salt: u64) -> Vec<(u64, Action)> {
    let (start, _) = store.load_game(id).await.unwrap();
    let size = start.game.ruleset().size();
    let mut tasks = Vec::new();
    for i in 0..moves {
        let store = store.clone();
        // Half the shots as each seat, at cells spread over the field.
        let seat = SeatId((i % 2) as u8);
        let cell = size.coord((i * 37 + salt as usize * 11) % size.area());
        let action = Action::Fire(seat, SeatId(1 - seat.0), cell);
        tasks.push(tokio::spawn(async move {
            // A player taps until it is their turn; any other refusal is final.
            for _ in 0..400 {
                match act(&store, id, action.clone()).await {
                    Ok(v) => return Some((v, action)),
                    Err(e) if e.contains("NotYourTurn") => {
                        tokio::time::sleep(Duration::from_millis(3)).await;
                    }
                    Err(_) => return None,
                }
            }
            None
        }));
    }
    let mut accepted = Vec::new();
    for t in tasks {
        if let Some(a) = t.await.unwrap() {
            accepted.push(a);
        }
    }
    accepted
}

/// The second OS process of the concurrency test: a no-op unless its parent set `MB_HAMMER`.
#[tokio::test]
async fn hammer_child() {
    let Ok(spec) = std::env::var("MB_HAMMER") else {
        return;
    };
    let parts: Vec<&str> = spec.split('|').collect();
    let config = StoreConfig {
        namespace: parts[1].to_owned(),
        ..StoreConfig::default()
    };
    let store = Store::connect(parts[0], config).await.unwrap();
    let id = GameId(parts[2].parse().unwrap());
    for (v, action) in hammer(&store, id, 30, 7).await {
        println!("ACCEPTED {v} {}", serde_json::to_string(&action).unwrap());
    }
}

async fn concurrent_moves_apply_exactly_once(target: Target) {
    let store = common::store(target).await;
    let start = GameRecord::new(battle(5), -1, NOW);
    let id = store.create_game(&start).await.unwrap();
    let mut accepted: BTreeMap<u64, Action> = BTreeMap::new();
    if let Target::Memory = target {
        // The in-memory server is this process's: the second hammer is a second store on it,
        // its 30 shots at once with the first one's 50.
        let config = StoreConfig {
            namespace: store.keys().namespace().to_owned(),
            ..StoreConfig::default()
        };
        let other = Store::connect(&common::target_url(target), config)
            .await
            .unwrap();
        let (first, second) = tokio::join!(hammer(&store, id, 50, 3), hammer(&other, id, 30, 7));
        for (v, a) in first.into_iter().chain(second) {
            assert!(accepted.insert(v, a).is_none(), "version {v} given twice");
        }
        return exactly_once(&store, id, &start, accepted).await;
    }
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["hammer_child", "--exact", "--nocapture", "--test-threads=1"])
        .env(
            "MB_HAMMER",
            format!(
                "{}|{}|{}",
                common::target_url(target),
                store.keys().namespace(),
                id.0
            ),
        )
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    for (v, a) in hammer(&store, id, 50, 3).await {
        assert!(accepted.insert(v, a).is_none(), "version {v} given twice");
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut from_child = 0;
    // libtest may print "test hammer_child ... " on the same line as the first result.
    for line in text
        .lines()
        .filter_map(|l| Some(&l[l.find("ACCEPTED ")? + 9..]))
    {
        let (v, json) = line.split_once(' ').unwrap();
        let v: u64 = v.parse().unwrap();
        assert!(accepted
            .insert(v, serde_json::from_str(json).unwrap())
            .is_none());
        from_child += 1;
    }
    eprintln!("{from_child} moves accepted from the second process");
    exactly_once(&store, id, &start, accepted).await;
}

/// None lost, none doubled: the versions are exactly 2..=version, one move each, and replaying
/// them in order on the starting game gives the stored game.
async fn exactly_once(
    store: &Store,
    id: GameId,
    start: &GameRecord,
    accepted: BTreeMap<u64, Action>,
) {
    let (stored, version) = store.load_game(id).await.unwrap();
    let versions: Vec<u64> = accepted.keys().copied().collect();
    assert_eq!(versions, (2..=version).collect::<Vec<_>>());
    assert!(accepted.len() > 1, "some moves were accepted");
    let mut replay = start.game.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for a in accepted.values() {
        replay.apply(a.clone(), NOW, &mut rng).unwrap();
    }
    assert_eq!(replay, stored.game);
    eprintln!("accepted {} moves", accepted.len());
}
on_every_store!(concurrent_moves_apply_exactly_once);

/// Retries an operation for up to `limit` while Redis comes back.
async fn eventually<T>(limit: Duration, mut op: impl AsyncFnMut() -> Result<T, String>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        match op().await {
            Ok(v) => return v,
            Err(e) if Instant::now() > deadline => panic!("still failing: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// The backup and the restore of docs/operations.md, step by step, with real processes: a
/// snapshot taken from the running Redis (`redis-cli --rdb`), then, after more play, the
/// restore (Redis stopped, the snapshot as `dump.rdb`, the append-only folder moved away,
/// Redis started with `--appendonly no`, `CONFIG SET appendonly yes` and its rewrite awaited,
/// Redis restarted as usual): the game is as the snapshot held it, at its version, and a game
/// begun after the snapshot is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_restored_as_the_operations_page_says_brings_back_the_games_it_held() {
    use std::process::{Command, Stdio};
    let redis_cli = |args: &[&str]| {
        let out = Command::new("redis-cli")
            .args(args)
            .stderr(Stdio::null())
            .output()
            .expect("redis-cli is installed with redis-server");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let mut server = RedisServer::start();
    let port = server.port.to_string();
    let store = Store::connect(&server.url(), common::config())
        .await
        .unwrap();
    let id = store
        .create_game(&GameRecord::new(battle(8), -1, NOW))
        .await
        .unwrap();
    for _ in 0..5 {
        let (rec, _) = store.load_game(id).await.unwrap();
        act(&store, id, common::next_shot(&rec.game).unwrap())
            .await
            .unwrap();
    }
    let (held, held_version) = store.load_game(id).await.unwrap();
    // Backup, the server running.
    let aside = tempfile::tempdir().unwrap();
    let backup = aside.path().join("backup.rdb");
    let (ok, said) = redis_cli(&["-u", &server.url(), "--rdb", backup.to_str().unwrap()]);
    assert!(ok && backup.exists(), "{said}");
    // Play goes on after it, and another game begins.
    for _ in 0..3 {
        let (rec, _) = store.load_game(id).await.unwrap();
        act(&store, id, common::next_shot(&rec.game).unwrap())
            .await
            .unwrap();
    }
    let later = store
        .create_game(&GameRecord::new(battle(9), -1, NOW))
        .await
        .unwrap();
    // Restore.
    server.stop();
    let dir = server.dir();
    std::fs::copy(&backup, dir.join("dump.rdb")).unwrap();
    std::fs::rename(
        dir.join("appendonlydir"),
        aside.path().join("appendonlydir"),
    )
    .unwrap();
    let mut plain = Command::new("redis-server")
        .args([
            "--port",
            &port,
            "--bind",
            "127.0.0.1",
            "--appendonly",
            "no",
            "--save",
            "",
        ])
        .arg("--dir")
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while redis_cli(&["-p", &port, "ping"]).1.trim() != "PONG" {
        assert!(
            Instant::now() < deadline,
            "redis-server --appendonly no did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (ok, said) = redis_cli(&["-p", &port, "config", "set", "appendonly", "yes"]);
    assert!(ok && said.trim() == "OK", "{said}");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, info) = redis_cli(&["-p", &port, "info", "persistence"]);
        let field = |name: &str| {
            info.lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
                .map(str::to_owned)
        };
        if field("aof_enabled:").as_deref() == Some("1")
            && field("aof_rewrite_in_progress:").as_deref() == Some("0")
            && field("aof_rewrite_scheduled:").as_deref() == Some("0")
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the rewrite never ended:\n{info}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    redis_cli(&["-p", &port, "shutdown"]);
    let _ = plain.wait();
    // Restarted as usual (the append-only file on): it loads the file just written.
    server.restart();
    let (restored, version) = eventually(Duration::from_secs(5), async || {
        store.load_game(id).await.map_err(|e| e.to_string())
    })
    .await;
    assert_eq!((&restored, version), (&held, held_version));
    assert!(
        matches!(store.load_game(later).await, Err(StoreError::NotFound)),
        "a game begun after the snapshot came back"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_survives_dropped_connections_and_a_redis_restart() {
    let mut server = RedisServer::start();
    let store = Store::connect(&server.url(), common::config())
        .await
        .unwrap();
    let id = store
        .create_game(&GameRecord::new(battle(6), -1, NOW))
        .await
        .unwrap();
    for _ in 0..10 {
        let (rec, _) = store.load_game(id).await.unwrap();
        act(&store, id, common::next_shot(&rec.game).unwrap())
            .await
            .unwrap();
    }
    // Every client connection dropped, as in a network blip.
    let admin = redis::Client::open(server.url()).unwrap();
    let mut admin = admin.get_multiplexed_async_connection().await.unwrap();
    let _: redis::Value = redis::cmd("CLIENT")
        .arg(&["KILL", "TYPE", "normal", "SKIPME", "yes"])
        .query_async(&mut admin)
        .await
        .unwrap();
    let (mid, v_mid) = eventually(Duration::from_secs(5), async || {
        store.load_game(id).await.map_err(|e| e.to_string())
    })
    .await;
    // The server itself restarted: it reloads its append-only file.
    server.restart();
    let (after, v_after) = eventually(Duration::from_secs(5), async || {
        store.load_game(id).await.map_err(|e| e.to_string())
    })
    .await;
    assert_eq!(
        (&after, v_after),
        (&mid, v_mid),
        "the game is as it was before the restart"
    );
    let mut game = after.game;
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    while !game.is_finished() {
        let shot = common::next_shot(&game).unwrap();
        let v = act(&store, id, shot.clone()).await.unwrap();
        game.apply(shot, NOW, &mut rng).unwrap();
        assert!(v > v_after);
    }
    assert_eq!(store.load_game(id).await.unwrap().0.game, game);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_redis_down_operations_fail_fast_and_recover_when_it_returns() {
    let mut server = RedisServer::start();
    let store = Store::connect(&server.url(), common::config())
        .await
        .unwrap();
    let id = store
        .create_game(&GameRecord::new(battle(7), -1, NOW))
        .await
        .unwrap();
    let (before, _) = store.load_game(id).await.unwrap();
    server.stop();
    for _ in 0..3 {
        let started = Instant::now();
        let result = store.load_game(id).await;
        let took = started.elapsed();
        assert!(
            matches!(result, Err(StoreError::Unavailable(_))),
            "{result:?}"
        );
        assert!(took < Duration::from_secs(2), "failing took {took:?}");
        let started = Instant::now();
        let result = act(&store, id, common::next_shot(&before.game).unwrap()).await;
        assert!(result
            .unwrap_err()
            .starts_with("store: Redis is unavailable"));
        assert!(started.elapsed() < Duration::from_secs(2));
    }
    server.restart();
    let (after, _) = eventually(Duration::from_secs(10), async || {
        store.load_game(id).await.map_err(|e| e.to_string())
    })
    .await;
    assert_eq!(after, before);
    act(&store, id, common::next_shot(&after.game).unwrap())
        .await
        .unwrap();
}

async fn a_send_lease_fences_old_senders_and_a_dead_senders_lease_is_taken_at_once(target: Target) {
    use morskoy_boy::store::outbox::Release;
    let store = common::store(target).await;
    let id = store
        .create_game(&GameRecord::new(battle(5), -7, NOW))
        .await
        .unwrap();
    let hold = Duration::from_secs(20);
    for p in ["a/1", "b/1", "a/2"] {
        store.beat(p).await.unwrap();
    }
    // Replica a, first run, holds the lease; replica b cannot take it.
    assert!(store.take_send_lease(id, "a/1/x", hold).await.unwrap());
    assert!(!store.take_send_lease(id, "b/1/y", hold).await.unwrap());
    // a's sender writes under its fence; b's write is refused and changes nothing.
    let (before, v) = store.load_game(id).await.unwrap();
    assert_eq!(
        store
            .transition(id, Atomic::by_sender("b/1/y"), |r| {
                r.delivery.drawn = 7;
                Ok::<_, ()>(())
            })
            .await,
        Err(StoreError::Fenced)
    );
    assert_eq!(store.load_game(id).await.unwrap(), (before, v));
    // a starts again (a new boot) while its first run lives: that is another process, and
    // the lease is not its own. Once the first run is dead, the lease is taken at once,
    // long before it expires, and the dead run's token is fenced out.
    assert!(!store.take_send_lease(id, "a/2/z", hold).await.unwrap());
    store.end_life("a/1").await.unwrap();
    let before = takeovers("send_lease");
    assert!(store.take_send_lease(id, "a/2/z", hold).await.unwrap());
    assert!(takeovers("send_lease") > before);
    assert!(!store.renew_send_lease(id, "a/1/x", hold).await.unwrap());
    assert_eq!(
        store
            .transition(id, Atomic::by_sender("a/1/x"), |r| {
                r.delivery.drawn = 8;
                Ok::<_, ()>(())
            })
            .await,
        Err(StoreError::Fenced)
    );
    let done = store
        .transition(id, Atomic::by_sender("a/2/z"), |r| {
            r.delivery.drawn = 9;
            Ok::<_, ()>(())
        })
        .await
        .unwrap()
        .unwrap();
    // Released at an older version: the game changed, send again; at the newest: done.
    assert_eq!(
        store.release_send_lease(id, "a/2/z", v).await.unwrap(),
        Release::Changed
    );
    assert_eq!(
        store
            .release_send_lease(id, "a/2/z", done.version)
            .await
            .unwrap(),
        Release::Done
    );
    // The next sender's lease comes with the game as it is now.
    let (seen, version) = store
        .take_send_lease_and_load(id, "b/1/y", hold)
        .await
        .unwrap()
        .expect("the lease is free");
    assert_eq!((seen.delivery.drawn, version), (9, done.version));
    assert_eq!(
        store.take_send_lease_and_load(id, "c/1/w", hold).await,
        Ok(None)
    );
}
on_every_store!(a_send_lease_fences_old_senders_and_a_dead_senders_lease_is_taken_at_once);

/// A sender's delivery may wait its turn for the bot token's budget longer than the lease's
/// hold (hundreds of games set up at once): the lease is renewed while it waits, so no other
/// sender takes the game and sends what this one is sending; and when the lease went to
/// another sender all the same (its process taken for dead), the delivery is dropped.
async fn a_send_lease_holds_while_a_delivery_waits_longer_than_the_hold(target: Target) {
    let store = common::store(target).await;
    let id = store
        .create_game(&GameRecord::new(battle(5), -7, NOW))
        .await
        .unwrap();
    let hold = Duration::from_millis(400);
    let alive = |store: Store| async move {
        for _ in 0..20 {
            for p in ["a/1", "b/1"] {
                store.beat(p).await.unwrap();
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let beating = tokio::spawn(alive(store.clone()));
    // Held and merely waited on, the lease runs out under its live sender: another takes it.
    assert!(store.take_send_lease(id, "a/1/x", hold).await.unwrap());
    tokio::time::sleep(hold * 3).await;
    assert!(store.take_send_lease(id, "b/1/y", hold).await.unwrap());
    assert!(!store.renew_send_lease(id, "a/1/x", hold).await.unwrap());
    let (_, v) = store.load_game(id).await.unwrap();
    assert_eq!(
        store.release_send_lease(id, "b/1/y", v).await.unwrap(),
        morskoy_boy::store::outbox::Release::Done
    );
    // Held while the delivery waits four holds: nobody else takes it meanwhile.
    assert!(store.take_send_lease(id, "a/1/x", hold).await.unwrap());
    let other = store.clone();
    let work = async {
        for _ in 0..8 {
            tokio::time::sleep(hold / 2).await;
            assert!(
                !other.take_send_lease(id, "b/1/y", hold).await.unwrap(),
                "the lease went to another sender while its holder's delivery waited"
            );
        }
        "delivered"
    };
    let (out, renewed) = store
        .holding_send_lease(id, "a/1/x", hold, work)
        .await
        .unwrap();
    assert_eq!(out, "delivered");
    assert!(renewed.is_some());
    assert!(store.renew_send_lease(id, "a/1/x", hold).await.unwrap());
    // Its process taken for dead, the lease is taken over: the delivery stops where it is.
    let finished = std::sync::atomic::AtomicBool::new(false);
    let work = async {
        tokio::time::sleep(hold * 4).await;
        finished.store(true, std::sync::atomic::Ordering::SeqCst);
    };
    let taker = async {
        beating.abort();
        store.end_life("a/1").await.unwrap();
        store.beat("b/1").await.unwrap();
        assert!(store.take_send_lease(id, "b/1/y", hold).await.unwrap());
    };
    let (held, ()) = tokio::join!(store.holding_send_lease(id, "a/1/x", hold, work), taker);
    assert_eq!(held.map(|_| ()), Err(StoreError::Fenced));
    assert!(!finished.load(std::sync::atomic::Ordering::SeqCst));
}
on_every_store!(a_send_lease_holds_while_a_delivery_waits_longer_than_the_hold);

async fn a_chats_budget_lets_a_burst_of_two_then_one_an_interval(target: Target) {
    let store = common::store(target).await;
    let chat = -(rand::random::<u32>() as i64) - 1;
    let interval = Duration::from_secs(10);
    // Looking takes nothing: a free slot stays free however often a caller looks.
    for _ in 0..3 {
        let peek = store
            .take_budget(chat, (interval, interval), false)
            .await
            .unwrap();
        assert_eq!(peek, 0);
    }
    assert_eq!(
        store
            .take_budget(chat, (interval, interval), true)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store
            .take_budget(chat, (interval, interval), true)
            .await
            .unwrap(),
        0
    );
    // The third must wait about an interval, and asking (or looking) does not spend anything.
    for _ in 0..3 {
        let wait = store
            .take_budget(chat, (interval, interval), true)
            .await
            .unwrap();
        assert!((9_000..=10_000).contains(&wait), "{wait}");
        let peek = store
            .take_budget(chat, (interval, interval), false)
            .await
            .unwrap();
        assert!((9_000..=10_000).contains(&peek), "{peek}");
    }
    // Another chat has its own budget.
    assert_eq!(
        store
            .take_budget(chat - 1, (interval, interval), true)
            .await
            .unwrap(),
        0
    );
}
on_every_store!(a_chats_budget_lets_a_burst_of_two_then_one_an_interval);

/// Two stores on one Redis (two replicas), a new game, and the second one knowing it as
/// created.
async fn two_replicas_on_one_game(target: Target) -> (Store, Store, GameId) {
    let config = common::config();
    let url = common::target_url(target);
    let a = Store::connect(&url, config.clone()).await.unwrap();
    let b = Store::connect(&url, config).await.unwrap();
    let id = a
        .create_game(&GameRecord::new(battle(6), -1, NOW))
        .await
        .unwrap();
    b.load_game(id).await.unwrap();
    (a, b, id)
}

/// Two replicas: each knows the record it last read or wrote, and starts a transition from
/// it. One that knows an old version neither loses the other's change nor refuses (or
/// answers "nothing to do") on the strength of what it knew.
async fn a_replica_that_knows_an_old_version_loses_nothing_and_refuses_nothing_wrongly(
    target: Target,
) {
    let (a, b, id) = two_replicas_on_one_game(target).await;
    let bump = |s: &Store| {
        let s = s.clone();
        async move {
            s.transition(id, Atomic::plain(), |r| {
                r.delivery.announced_parts += 1;
                Ok::<_, ()>(r.delivery.announced_parts)
            })
            .await
            .unwrap()
            .unwrap()
        }
    };
    assert_eq!(bump(&a).await.value, 1);
    // b knows block 0: its change is made on block 1, not on what it knew.
    assert_eq!(bump(&b).await.value, 2);
    assert_eq!(bump(&a).await.value, 3);
    // b knows block 2 now: a refusal made on that would be wrong.
    let seen = b
        .transition(id, Atomic::plain(), |r| {
            if r.delivery.announced_parts == 3 {
                Ok(r.delivery.announced_parts)
            } else {
                Err(r.delivery.announced_parts)
            }
        })
        .await
        .unwrap();
    assert_eq!(seen.map(|c| c.value), Ok(3));
    assert_eq!(bump(&a).await.value, 4);
    let unchanged = b
        .transition(id, Atomic::plain(), |r| {
            Ok::<_, ()>(r.delivery.announced_parts)
        })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        unchanged.value, 4,
        "a no-change answer comes from a fresh read"
    );
    let (rec, _) = a.load_game(id).await.unwrap();
    assert_eq!(rec.delivery.announced_parts, 4);
}
on_every_store!(a_replica_that_knows_an_old_version_loses_nothing_and_refuses_nothing_wrongly);

/// A refusal the caller calls settled (no later version could lift it: a cell already shot,
/// a press already answered) is concluded from the record the replica knows, with no read;
/// any other refusal is checked against the record as it is. Neither writes anything.
async fn a_settled_refusal_comes_from_the_known_record_and_another_from_a_fresh_one(
    target: Target,
) {
    let (a, b, id) = two_replicas_on_one_game(target).await;
    a.transition(id, Atomic::plain(), |r| {
        r.delivery.announced_parts = 1;
        Ok::<_, ()>(())
    })
    .await
    .unwrap()
    .unwrap();
    // b knows block 0. Refusing with the block it sees:
    let refuse = |r: &mut GameRecord| Err::<(), u8>(r.delivery.announced_parts);
    let settled = b
        .transition(id, Atomic::due(None).settled(&|_: &u8| true), refuse)
        .await
        .unwrap();
    assert_eq!(
        settled.err(),
        Some(0),
        "a settled refusal comes from the known record"
    );
    let checked = b
        .transition(id, Atomic::due(None).settled(&|_: &u8| false), refuse)
        .await
        .unwrap();
    assert_eq!(checked.err(), Some(1), "another refusal is checked afresh");
    let (rec, version) = a.load_game(id).await.unwrap();
    assert_eq!(
        (rec.delivery.announced_parts, version),
        (1, 2),
        "a refusal writes nothing"
    );
}
on_every_store!(a_settled_refusal_comes_from_the_known_record_and_another_from_a_fresh_one);

/// A move and its deadline are stored together: the game is due exactly when its change says.
async fn a_transition_sets_the_games_deadline_with_the_change(target: Target) {
    let store = common::store(target).await;
    let id = store
        .create_game(&GameRecord::new(battle(7), -1, NOW))
        .await
        .unwrap();
    let at = |s: u64| move |_: &GameRecord| Some(s);
    let due = at(NOW + 100);
    store
        .transition(id, Atomic::due(Some(&due)), |r| {
            r.delivery.announced_parts = 1;
            Ok::<_, ()>(())
        })
        .await
        .unwrap()
        .unwrap();
    assert!(!store.due(NOW + 99).await.unwrap().contains(&id));
    assert!(store.due(NOW + 100).await.unwrap().contains(&id));
    // A refused change sets no deadline.
    let later = at(NOW + 5);
    let refused = store
        .transition(id, Atomic::due(Some(&later)), |_| Err::<(), _>("no"))
        .await
        .unwrap();
    assert!(refused.is_err());
    assert!(!store.due(NOW + 50).await.unwrap().contains(&id));
    let none = |_: &GameRecord| None;
    store
        .transition(id, Atomic::due(Some(&none)), |r| {
            r.delivery.announced_parts = 2;
            Ok::<_, ()>(())
        })
        .await
        .unwrap()
        .unwrap();
    assert!(!store.due(u64::MAX / 2).await.unwrap().contains(&id));
}
on_every_store!(a_transition_sets_the_games_deadline_with_the_change);

async fn revealed_layouts_are_counted_once_per_game_and_capped(target: Target) {
    use morskoy_boy::store::habits::{ALL_LAYOUTS, CHAT_LAYOUTS, PLAYER_LAYOUTS};
    let store = common::store(target).await;
    let (chat, other) = (-700_001, -700_002);
    let (anna, boris) = (700_001u64, 700_002u64);
    let code = |i: usize| format!("{},{} {}", i % 90, i % 90 + 1, i % 90 + 5);
    let placed = [(anna, code(0)), (boris, code(1))];
    store
        .observe_layouts(GameId(1), chat, "classic", &placed)
        .await
        .unwrap();
    // Settled again after a crash: nothing more is counted.
    store
        .observe_layouts(GameId(1), chat, "classic", &placed)
        .await
        .unwrap();
    let (mine, all) = store.layouts(chat, "classic").await.unwrap();
    assert_eq!(mine, vec![code(1), code(0)], "newest first, once");
    assert_eq!(all.len(), 2);
    assert_eq!(store.layouts(other, "classic").await.unwrap().0.len(), 0);
    assert_eq!(
        store.layouts(chat, "big").await.unwrap().0.len(),
        0,
        "per ruleset"
    );
    // Each person's own layouts, apart from the other's.
    assert_eq!(
        store.player_layouts(anna, "classic").await.unwrap(),
        vec![code(0)]
    );
    assert_eq!(
        store.player_layouts(boris, "classic").await.unwrap(),
        vec![code(1)]
    );
    assert!(store.player_layouts(anna, "big").await.unwrap().is_empty());
    // All of it asked at once: the chat's, every chat's, and each person's, in order.
    let (mine, all, own) = store
        .layouts_with_people(chat, "classic", &[boris, 700_003, anna])
        .await
        .unwrap();
    assert_eq!((mine.len(), all.len()), (2, 2));
    assert_eq!(own, vec![vec![code(1)], vec![], vec![code(0)]]);
    for g in 2..(ALL_LAYOUTS as u64 + 3) {
        let c = if g % 2 == 0 { chat } else { other };
        store
            .observe_layouts(GameId(g), c, "classic", &[(anna, code(g as usize))])
            .await
            .unwrap();
    }
    let (mine, all) = store.layouts(chat, "classic").await.unwrap();
    assert_eq!(
        mine.len(),
        CHAT_LAYOUTS as usize,
        "a chat keeps its newest layouts"
    );
    assert_eq!(
        all.len(),
        ALL_LAYOUTS as usize,
        "all chats together are capped too"
    );
    assert_eq!(all[0], code(ALL_LAYOUTS as usize + 2));
    // A person's too, over every chat they played in.
    let hers = store.player_layouts(anna, "classic").await.unwrap();
    assert_eq!(hers.len(), PLAYER_LAYOUTS as usize);
    assert_eq!(hers[0], code(ALL_LAYOUTS as usize + 2));
    assert_eq!(
        store.player_layouts(boris, "classic").await.unwrap().len(),
        1
    );
}
on_every_store!(revealed_layouts_are_counted_once_per_game_and_capped);

/// Ratings are written whole (twice is once), each board apart (a chat's, everyone's), and
/// a board's ranking keeps only its best, while every rating stays readable.
async fn ratings_are_written_whole_and_rankings_stay_bounded(target: Target) {
    use morskoy_boy::game::rating::rating_value;
    use morskoy_boy::game::rating::Rating;
    use morskoy_boy::game::record::RatingWrite;
    use morskoy_boy::store::Leaderboard;
    let store = common::store(target).await;
    let write = |board: Leaderboard, user: u64, mu: f64| {
        let r = Rating {
            mu,
            sigma: 5.0,
            games: 1,
        };
        RatingWrite {
            board,
            seat: 0,
            user,
            value: rating_value(&r, &format!("P{user}")),
            before: 1000,
            after: r.shown(),
        }
    };
    let chat = Leaderboard::Chat(-71);
    let writes = [write(chat, 1, 30.0), write(chat, 2, 20.0)];
    for _ in 0..2 {
        store.set_ratings(chat, &writes).await.unwrap();
    }
    let top = store.top(chat, 10).await.unwrap();
    let got: Vec<(u64, &str, u32)> = top
        .iter()
        .map(|r| (r.user, r.name.as_str(), r.rating.games))
        .collect();
    assert_eq!(got, vec![(1, "P1", 1), (2, "P2", 1)]);
    assert_eq!(store.place(chat, 2).await.unwrap(), Some((2, 2)));
    let read = store.ratings(chat, &[2, 3]).await.unwrap();
    assert!((read[0].as_ref().unwrap().mu - 20.0).abs() < 1e-6 && read[1].is_none());
    // Other boards are untouched.
    for other in [
        Leaderboard::Chat(-72),
        Leaderboard::People,
        Leaderboard::Bot,
    ] {
        assert!(store.top(other, 10).await.unwrap().is_empty(), "{other:?}");
    }
    // A chat's ranking keeps its best 1 000; the others keep their ratings.
    let big = Leaderboard::Chat(-73);
    let many: Vec<RatingWrite> = (0..1_005u64)
        .map(|u| write(big, 100 + u, 10.0 + u as f64 / 100.0))
        .collect();
    store.set_ratings(big, &many).await.unwrap();
    assert_eq!(big.kept(), 1_000);
    assert_eq!(store.place(big, 1_104).await.unwrap(), Some((1, 1_000)));
    assert_eq!(store.place(big, 100).await.unwrap(), None);
    assert!(store.ratings(big, &[100]).await.unwrap()[0].is_some());
    assert_eq!(store.top(big, 10).await.unwrap().len(), 10);
}
on_every_store!(ratings_are_written_whole_and_rankings_stay_bounded);

/// The bot token's budget (issue 43) is one for all replicas: a call taken on one counts on
/// the other. Priorities are strict: while a higher one waits for a turn a lower one waits
/// behind it, and with none waiting any goes; a 429's pause stops every priority on every
/// replica. A refused call is not counted.
async fn the_tokens_budget_is_one_for_all_replicas_with_priorities_and_pauses(target: Target) {
    let config = common::config();
    let url = common::target_url(target);
    let a = Store::connect(&url, config.clone()).await.unwrap();
    let b = Store::connect(&url, config).await.unwrap();
    let i = Duration::from_secs(10);
    let (high, low) = (0u8, 3u8);
    // A fresh bucket: the low priority goes at once (on either replica: nobody waits); the
    // next call of it waits for the turn.
    assert_eq!(a.take_token(i, low).await.unwrap(), 0);
    let wait = b.take_token(i, low).await.unwrap();
    assert!((9_000..=10_000).contains(&wait), "{wait}");
    // The high one waits for the turn too, and from then on, while it waits, the low one
    // waits behind it, on either replica: until the high one has had its turn.
    let wait = a.take_token(i, high).await.unwrap();
    assert!((9_000..=10_000).contains(&wait), "{wait}");
    for s in [&a, &b] {
        let wait = s.take_token(i, low).await.unwrap();
        assert!(wait >= 10_000, "{wait}");
    }
    // A call taken and not made (its private chat was not free) is given back: the turn is
    // free at once, and the high priority takes it; the low one still waits.
    b.give_back_token(i).await.unwrap();
    assert!(a.take_token(i, low).await.unwrap() > 0);
    assert_eq!(b.take_token(i, high).await.unwrap(), 0);
    let wait = a.take_token(i, high).await.unwrap();
    assert!((9_000..=10_000).contains(&wait), "{wait}");

    // A 429 on one replica: every call of every priority on every replica waits for it.
    let c = Store::connect(&url, common::config()).await.unwrap();
    c.give_back_token(i).await.unwrap();
    assert_eq!(c.take_token(i, high).await.unwrap(), 0);
    // The turn free again: only the pause holds a call now.
    c.give_back_token(i).await.unwrap();
    c.pause_token(Duration::from_secs(7)).await.unwrap();
    let wait = c.take_token(i, high).await.unwrap();
    assert!((6_000..=7_000).contains(&wait), "{wait}");
    // A shorter pause asked later does not shorten it.
    c.pause_token(Duration::from_secs(1)).await.unwrap();
    let wait = c.take_token(i, high).await.unwrap();
    assert!((5_500..=7_000).contains(&wait), "{wait}");
}
on_every_store!(the_tokens_budget_is_one_for_all_replicas_with_priorities_and_pauses);

/// The live boards queue for the token (issue 43): each takes the next free turn, first come
/// first served across replicas, the turns evenly apart, so none is overtaken and none polls;
/// once the queue has run dry a board goes at once.
async fn the_live_boards_take_turns_first_come_first_served_across_replicas(target: Target) {
    let config = common::config();
    let url = common::target_url(target);
    let a = Store::connect(&url, config.clone()).await.unwrap();
    let b = Store::connect(&url, config).await.unwrap();
    let spacing = Duration::from_millis(500);
    // Nobody queued: now.
    assert_eq!(a.take_board_turn(spacing).await.unwrap(), 0);
    // Six more, from both replicas in turn: each a spacing after the one before.
    let mut turns = Vec::new();
    for i in 0..6 {
        let s = if i % 2 == 0 { &b } else { &a };
        let asked = std::time::Instant::now();
        let wait = s.take_board_turn(spacing).await.unwrap();
        turns.push(asked + Duration::from_millis(wait));
    }
    for (i, w) in turns.windows(2).enumerate() {
        let apart = w[1].saturating_duration_since(w[0]).as_millis();
        assert!(
            (400..=600).contains(&apart),
            "turns {i} and {}: {apart} ms apart",
            i + 1
        );
    }
    let first = turns[0].saturating_duration_since(std::time::Instant::now());
    assert!(first <= Duration::from_millis(500), "{first:?}");
    // Asked again much later, after the queue ran dry: now, not behind the old turns.
    tokio::time::sleep(Duration::from_millis(3_600)).await;
    assert_eq!(b.take_board_turn(spacing).await.unwrap(), 0);
    let next = a.take_board_turn(spacing).await.unwrap();
    assert!((400..=500).contains(&next), "{next}");
}
on_every_store!(the_live_boards_take_turns_first_come_first_served_across_replicas);

/// How the bot's calls spend the token's budget (issue 43), with a real Redis: one test, as
/// the budget a process spends from is installed once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tokens_calls_go_by_priority_and_at_a_private_chats_pace() {
    use morskoy_boy::telegram::token;
    let store = common::store(Target::Single).await;
    // Five calls a second: an interval of 200 ms.
    let private = Duration::from_millis(500);
    token::install(store.clone(), 5, (private, private));
    each_priority_goes_before_the_lower_ones_when_the_budget_is_spent(&store).await;
    calls_to_a_private_chat_that_waited_for_the_token_go_at_the_chats_pace(&store, private).await;
}

/// While the budget is spent by others (a hog of the higher of two priorities, taking every
/// turn it can), a call of the higher priority still goes (it waits for a turn as the hog
/// does), and one of the lower waits until the budget comes back: the live board before the
/// end, the end before an own field, an own field before the rest (lobbies, editors, stats).
async fn each_priority_goes_before_the_lower_ones_when_the_budget_is_spent(store: &Store) {
    use morskoy_boy::telegram::token::{self, Priority};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let interval = Duration::from_millis(200);
    for pair in Priority::ALL.windows(2) {
        let (higher, lower) = (pair[0], pair[1]);
        let hogging = Arc::new(AtomicBool::new(true));
        let hog = {
            let (store, hogging) = (store.clone(), hogging.clone());
            let rank = higher.rank();
            tokio::spawn(async move {
                while hogging.load(Ordering::Relaxed) {
                    match store.take_token(interval, rank).await.unwrap() {
                        0 => {}
                        // Back a little late, as one of many waiting callers may be: the
                        // higher priority's call takes some turns, the hog the others.
                        ms => tokio::time::sleep(Duration::from_millis(ms) + interval / 2).await,
                    }
                }
            })
        };
        tokio::time::sleep(Duration::from_millis(500)).await;
        let call = |p: Priority| {
            tokio::spawn(token::with_priority(p, async {
                token::spend("SendMessage", None).await.unwrap();
                Instant::now()
            }))
        };
        let started = Instant::now();
        let (high, low) = (call(higher), call(lower));
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        assert!(high.is_finished(), "{higher:?} waits behind the hog");
        assert!(
            !low.is_finished(),
            "{lower:?} went while the budget was spent"
        );
        hogging.store(false, Ordering::Relaxed);
        hog.await.unwrap();
        let went = low.await.unwrap();
        assert!(went.duration_since(started) >= Duration::from_millis(1_500));
        high.await.unwrap();
    }
}

/// A call to a private chat takes the chat's slot when it goes, after the token's, not before
/// a wait for the token (issue 43): six edits of one private chat that waited out a 429's
/// pause go at the chat's pace when it ends (a burst of two, then one an interval), not all
/// at once, which Telegram would refuse beyond the chat's burst; a call to another chat does
/// not wait behind them.
async fn calls_to_a_private_chat_that_waited_for_the_token_go_at_the_chats_pace(
    store: &Store,
    interval: Duration,
) {
    use morskoy_boy::telegram::token;
    let chat = i64::from(rand::random::<u32>()) + 1;
    store.pause_token(Duration::from_secs(1)).await.unwrap();
    let started = Instant::now();
    let calls: Vec<_> = (0..6)
        .map(|_| {
            tokio::spawn(async move {
                token::spend("EditMessageText", Some(chat)).await.unwrap();
                Instant::now()
            })
        })
        .collect();
    let mut went = Vec::new();
    for c in calls {
        went.push(c.await.unwrap());
    }
    went.sort();
    assert!(
        went[0].duration_since(started) >= Duration::from_millis(900),
        "before the pause ended: {:?}",
        went[0].duration_since(started)
    );
    let after: Vec<Duration> = went.iter().map(|t| t.duration_since(went[0])).collect();
    for (k, at) in after.iter().enumerate().skip(2) {
        let least = interval.mul_f64((k - 1) as f64 * 0.9);
        assert!(*at >= least, "call {k} at {at:?} (of {after:?})");
    }
    // Another chat's call does not wait behind the busy one's.
    let other = Instant::now();
    token::spend("EditMessageText", Some(chat + 1))
        .await
        .unwrap();
    assert!(
        other.elapsed() < Duration::from_secs(1),
        "{:?}",
        other.elapsed()
    );
}

/// A quick match's seeker: `user` at `rating`, under the classic rules, waiting from `since`.
fn seeker(user: u64, rating: i64, since: u64) -> morskoy_boy::game::quick::Seeker {
    morskoy_boy::game::quick::Seeker {
        user,
        name: format!("p{user}"),
        rating,
        rules: "classic".into(),
        since,
        blocked: Vec::new(),
        offered_bot: false,
    }
}

/// Six people look for a quick match at once through two replicas (three each, all at
/// once): three duels, each person in exactly one, paired by rating first; a pair is taken
/// (its game opened) by one replica only; one who cancels while a partner arrives is either
/// cancelled or paired, never both.
async fn six_seekers_on_two_replicas_make_three_duels_each_person_in_one(target: Target) {
    use morskoy_boy::game::quick::QuickRefused;
    let config = common::config();
    let url = common::target_url(target);
    let a = Store::connect(&url, config.clone()).await.unwrap();
    let b = Store::connect(&url, config).await.unwrap();
    let now = 1_000_000;
    let ratings = [2100, 1010, 1500, 2000, 1000, 1520];
    let mut tasks = Vec::new();
    for (i, rating) in ratings.into_iter().enumerate() {
        let store = if i % 2 == 0 { a.clone() } else { b.clone() };
        let user = i as u64 + 1;
        tasks.push(tokio::spawn(async move {
            store
                .update_quick(|q| q.seek(seeker(user, rating, now), now))
                .await
                .unwrap()
                .unwrap()
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    // 2000 and 2100 are 100 apart at once; all pairs stand after 20 s at the latest.
    b.update_quick(|q| Ok::<_, ()>(q.pair_due(now + 20_000)))
        .await
        .unwrap()
        .unwrap();
    let (queue, _) = a.quick_queue().await.unwrap();
    assert!(queue.waiting.is_empty(), "{queue:?}");
    let mut pairs: Vec<(i64, i64)> = queue
        .paired
        .iter()
        .map(|p| (p.a.rating.min(p.b.rating), p.a.rating.max(p.b.rating)))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(1000, 1010), (1500, 1520), (2000, 2100)]);
    // Each pair is taken once, whichever replica asks.
    for user in 1..=6u64 {
        let (x, y) = tokio::join!(
            a.update_quick(|q| Ok::<_, ()>(q.take_pair(user))),
            b.update_quick(|q| Ok::<_, ()>(q.take_pair(user)))
        );
        let taken = [x.unwrap().unwrap().0, y.unwrap().unwrap().0];
        let once = taken.iter().filter(|t| t.is_some()).count();
        let partner_took = queue
            .paired
            .iter()
            .any(|p| (p.a.user == user || p.b.user == user) && p.a.user.min(p.b.user) < user);
        assert_eq!(once, usize::from(!partner_took), "user {user}: {taken:?}");
    }
    assert!(a.quick_queue().await.unwrap().0.paired.is_empty());
    // A cancel racing with a partner's arrival: one of the two, never both.
    a.update_quick(|q| q.seek(seeker(7, 1000, now), now))
        .await
        .unwrap()
        .unwrap();
    let (cancel, seek) = tokio::join!(
        a.update_quick(|q| q.cancel(7)),
        b.update_quick(|q| q.seek(seeker(8, 1005, now + 1), now + 1))
    );
    let (queue, _) = a.quick_queue().await.unwrap();
    match cancel.unwrap() {
        Ok(_) => {
            assert!(
                seek.unwrap().unwrap().0.is_none(),
                "paired with one who left"
            );
            assert!(
                queue.paired.is_empty() && queue.waiting.len() == 1,
                "{queue:?}"
            );
        }
        Err(refused) => {
            assert_eq!(refused, QuickRefused::NotWaiting);
            assert!(seek.unwrap().unwrap().0.is_some());
            assert_eq!(queue.paired.len(), 1, "{queue:?}");
        }
    }
}
on_every_store!(six_seekers_on_two_replicas_make_three_duels_each_person_in_one);
