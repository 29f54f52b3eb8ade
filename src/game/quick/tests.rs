use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// The moment the tests begin (Unix ms).
const T0: u64 = 1_700_000_000_000;

/// Someone under the standard rules who began to wait at `since`.
fn seeker(user: u64, rating: i64, since: u64) -> Seeker {
    Seeker {
        user,
        name: format!("u{user}"),
        rating,
        rules: "std".to_string(),
        since,
        blocked: Vec::new(),
        offered_bot: false,
    }
}

/// The two users of a pair, the one who waited longer first.
fn users(p: &Pair) -> (u64, u64) {
    (p.a.user, p.b.user)
}

/// The two ratings of a pair, lower first.
fn ratings(p: &Pair) -> (i64, i64) {
    (p.a.rating.min(p.b.rating), p.a.rating.max(p.b.rating))
}

/// A tiny linear congruential generator: the tests' deterministic dice.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Every ordering of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for rest in permutations(n - 1) {
        for at in 0..=rest.len() {
            let mut p = rest.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

#[test]
fn the_windows_widen_with_the_wait() {
    assert_eq!(window(0), Some(100));
    assert_eq!(window(19_999), Some(100));
    assert_eq!(window(20_000), Some(300));
    assert_eq!(window(44_999), Some(300));
    assert_eq!(window(45_000), None);
    assert_eq!(window(u64::MAX), None);
    assert_eq!(Queue::default().v, QUEUE_VERSION);
}

#[test]
fn seeking_twice_is_refused_and_changes_nothing() {
    let mut q = Queue::default();
    assert_eq!(q.seek(seeker(1, 1000, T0), T0), Ok(None));
    let before = q.clone();
    assert_eq!(
        q.seek(seeker(1, 1000, T0 + 5), T0 + 5),
        Err(QuickRefused::AlreadyWaiting)
    );
    assert_eq!(q, before);
    assert_eq!(q.waiting_for("std"), 1);
    assert_eq!(q.position(1), Some(&seeker(1, 1000, T0)));
}

#[test]
fn a_paired_user_cannot_seek_or_cancel() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    let pair = q.seek(seeker(2, 1050, T0 + 10), T0 + 10).unwrap().unwrap();
    assert_eq!(users(&pair), (1, 2));
    assert_eq!(pair.at, T0 + 10);
    assert_eq!(q.paired, vec![pair.clone()]);
    assert!(q.waiting.is_empty());
    let before = q.clone();
    for user in [1, 2] {
        assert_eq!(
            q.seek(seeker(user, 1000, T0 + 20), T0 + 20),
            Err(QuickRefused::AlreadyPaired)
        );
        assert_eq!(q.cancel(user), Err(QuickRefused::NotWaiting));
        assert_eq!(q, before);
        assert_eq!(q.pair_of(user), Some(&pair));
        assert_eq!(q.pair_of(user).unwrap().other(user).unwrap().user, 3 - user);
    }
}

#[test]
fn cancel_takes_a_waiter_out_and_refuses_anyone_else() {
    let mut q = Queue::default();
    let before = q.clone();
    assert_eq!(q.cancel(1), Err(QuickRefused::NotWaiting));
    assert_eq!(q, before);
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    q.seek(seeker(2, 1500, T0), T0).unwrap();
    let before = q.clone();
    assert_eq!(q.cancel(3), Err(QuickRefused::NotWaiting));
    assert_eq!(q, before);
    assert_eq!(q.cancel(1), Ok(seeker(1, 1000, T0)));
    assert_eq!(q.position(1), None);
    assert_eq!(q.waiting_for("std"), 1);
    let before = q.clone();
    assert_eq!(q.cancel(1), Err(QuickRefused::NotWaiting));
    assert_eq!(q, before);
    // Whoever left is never paired, however long the other waits.
    assert!(q.pair_due(T0 + 3_600_000).is_empty());
}

#[test]
fn ratings_150_apart_pair_after_20_seconds() {
    let mut q = Queue::default();
    assert_eq!(q.seek(seeker(1, 1000, T0), T0), Ok(None));
    assert_eq!(q.seek(seeker(2, 1150, T0), T0), Ok(None));
    assert!(q.pair_due(T0).is_empty());
    assert!(q.pair_due(T0 + 19_999).is_empty());
    assert_eq!(q.waiting.len(), 2);
    let made = q.pair_due(T0 + 20_000);
    assert_eq!(made.len(), 1);
    assert_eq!(users(&made[0]), (1, 2));
    assert_eq!(made[0].at, T0 + 20_000);
    assert!(q.waiting.is_empty());
    assert_eq!(q.paired, made);
}

#[test]
fn ratings_1000_apart_pair_after_45_seconds() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    q.seek(seeker(2, 2000, T0), T0).unwrap();
    assert!(q.pair_due(T0 + 20_000).is_empty());
    assert!(q.pair_due(T0 + 44_999).is_empty());
    let made = q.pair_due(T0 + 45_000);
    assert_eq!(made.iter().map(users).collect::<Vec<_>>(), vec![(1, 2)]);
}

#[test]
fn the_first_window_is_100_either_side_inclusive() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    let pair = q.seek(seeker(2, 900, T0), T0).unwrap();
    assert_eq!(pair.map(|p| users(&p)), Some((1, 2)));

    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    assert_eq!(q.seek(seeker(2, 1101, T0), T0), Ok(None));
    assert_eq!(q.waiting.len(), 2);
}

#[test]
fn the_wider_of_the_two_windows_counts() {
    // The first has waited 20 s (± 300); the newcomer's own window is ± 100.
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    let now = T0 + 20_000;
    let pair = q.seek(seeker(2, 1250, now), now).unwrap().unwrap();
    assert_eq!(users(&pair), (1, 2));
    // Not wide enough: 301 apart.
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    assert_eq!(q.seek(seeker(2, 1301, now), now), Ok(None));
}

#[test]
fn different_rules_never_pair() {
    let mut q = Queue::default();
    let mut other = seeker(2, 1000, T0);
    other.rules = "russian".to_string();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    assert_eq!(q.seek(other, T0), Ok(None));
    assert_eq!(q.waiting_for("std"), 1);
    assert_eq!(q.waiting_for("russian"), 1);
    assert_eq!(q.waiting_for("salvo"), 0);
    for later in [0, 20_000, 45_000, 3_600_000] {
        assert!(q.pair_due(T0 + later).is_empty());
    }
    assert_eq!(q.waiting.len(), 2);
    // Both are alone: both are offered the bot.
    let offered = q.offer_bot(T0 + 3_600_000);
    assert_eq!(
        offered.iter().map(|s| s.user).collect::<Vec<_>>(),
        vec![1, 2]
    );
}

#[test]
fn blocked_either_way_never_pair() {
    for blocker in [1, 2] {
        let mut q = Queue::default();
        let (mut one, mut two) = (seeker(1, 1000, T0), seeker(2, 1000, T0));
        if blocker == 1 {
            one.blocked.push(2);
        } else {
            two.blocked.push(1);
        }
        q.seek(one, T0).unwrap();
        assert_eq!(q.seek(two, T0), Ok(None));
        assert!(q.pair_due(T0 + 3_600_000).is_empty());
        // A third who fits them both takes the one who waited longer (both equally close).
        let pair = q
            .seek(seeker(3, 1000, T0 + 1), T0 + 3_600_000)
            .unwrap()
            .unwrap();
        assert_eq!(users(&pair), (1, 3));
        assert_eq!(
            q.waiting.iter().map(|s| s.user).collect::<Vec<_>>(),
            vec![2]
        );
    }
}

#[test]
fn the_closest_rating_then_the_longest_wait_then_the_lower_id() {
    // The closest rating wins over the longest wait.
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    q.seek(seeker(2, 1150, T0 + 1), T0 + 1).unwrap();
    let pair = q.seek(seeker(3, 1100, T0 + 2), T0 + 2).unwrap().unwrap();
    assert_eq!(users(&pair), (2, 3));

    // Equally close: the longest wait.
    let mut q = Queue::default();
    q.seek(seeker(5, 1060, T0 + 1), T0 + 1).unwrap();
    q.seek(seeker(4, 940, T0), T0).unwrap();
    let pair = q.seek(seeker(6, 1000, T0 + 2), T0 + 2).unwrap().unwrap();
    assert_eq!(users(&pair), (4, 6));

    // Equally close, equally long: the lower user id.
    let mut q = Queue::default();
    q.seek(seeker(9, 1060, T0), T0).unwrap();
    q.seek(seeker(8, 940, T0), T0).unwrap();
    let pair = q.seek(seeker(6, 1000, T0), T0).unwrap().unwrap();
    assert_eq!(users(&pair), (8, 6));
}

#[test]
fn the_periodic_pass_serves_the_oldest_first() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    q.seek(seeker(2, 1250, T0 + 1_000), T0 + 1_000).unwrap();
    q.seek(seeker(3, 1500, T0 + 2_000), T0 + 2_000).unwrap();
    // All three have waited 20 s: 2 fits 1 and 3 alike; 1 waited longest and takes 2.
    let made = q.pair_due(T0 + 22_000);
    assert_eq!(made.iter().map(users).collect::<Vec<_>>(), vec![(1, 2)]);
    assert_eq!(q.waiting, vec![seeker(3, 1500, T0 + 2_000)]);
}

#[test]
fn six_strangers_pair_by_rating_whatever_their_order() {
    let ratings_of = |last: i64| [1000, 1010, 1500, 1520, 2000, last];
    for order in permutations(6) {
        // 2000 and 2100 are exactly 100 apart: they pair at once.
        let mut q = Queue::default();
        let mut made = Vec::new();
        for &i in &order {
            let s = seeker(10 + i as u64, ratings_of(2100)[i], T0);
            made.extend(q.seek(s, T0).unwrap());
        }
        made.extend(q.pair_due(T0));
        let mut got: Vec<_> = made.iter().map(ratings).collect();
        got.sort();
        assert_eq!(
            got,
            vec![(1000, 1010), (1500, 1520), (2000, 2100)],
            "{order:?}"
        );
        assert!(q.waiting.is_empty());

        // 2000 and 2101 wait until 20 s.
        let mut q = Queue::default();
        let mut made = Vec::new();
        for &i in &order {
            let s = seeker(10 + i as u64, ratings_of(2101)[i], T0);
            made.extend(q.seek(s, T0).unwrap());
        }
        made.extend(q.pair_due(T0 + 19_999));
        let mut got: Vec<_> = made.iter().map(ratings).collect();
        got.sort();
        assert_eq!(got, vec![(1000, 1010), (1500, 1520)], "{order:?}");
        assert_eq!(q.waiting.len(), 2);
        let late = q.pair_due(T0 + 20_000);
        assert_eq!(
            late.iter().map(ratings).collect::<Vec<_>>(),
            vec![(2000, 2101)]
        );
        made.extend(late);
        let mut seen: Vec<u64> = made.iter().flat_map(|p| [p.a.user, p.b.user]).collect();
        seen.sort();
        assert_eq!(
            seen,
            (10..16).collect::<Vec<_>>(),
            "each in exactly one pair"
        );
        assert_eq!(q.paired.len(), 3);
        assert!(q.waiting.is_empty());
    }
}

#[test]
fn the_bot_is_offered_once_after_a_minute_alone() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    assert!(q.offer_bot(T0 + 59_999).is_empty());
    assert!(!q.waiting[0].offered_bot);
    let offered = q.offer_bot(T0 + 60_000);
    assert_eq!(offered.len(), 1);
    assert_eq!(offered[0].user, 1);
    assert!(offered[0].offered_bot);
    assert!(q.position(1).unwrap().offered_bot);
    let before = q.clone();
    assert!(q.offer_bot(T0 + 61_000).is_empty());
    assert_eq!(q, before);
    // Still waiting: someone who fits is paired with them.
    let pair = q
        .seek(seeker(2, 1000, T0 + 70_000), T0 + 70_000)
        .unwrap()
        .unwrap();
    assert_eq!(users(&pair), (1, 2));
}

#[test]
fn nobody_who_has_a_fit_is_offered_the_bot() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    q.seek(seeker(2, 2000, T0), T0).unwrap();
    // Not paired yet (no pass ran), but they fit by now: no bot.
    assert!(q.offer_bot(T0 + 60_000).is_empty());
    assert_eq!(q.pair_due(T0 + 60_000).len(), 1);
}

#[test]
fn a_pair_is_taken_once() {
    let mut q = Queue::default();
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    let pair = q.seek(seeker(2, 1000, T0), T0).unwrap().unwrap();
    assert_eq!(q.take_pair(2), Some(pair));
    let before = q.clone();
    assert_eq!(q.take_pair(2), None);
    assert_eq!(q.take_pair(1), None);
    assert_eq!(q, before);
    assert_eq!(q.pair_of(1), None);
    // Taken, both may look for a stranger again.
    assert_eq!(q.seek(seeker(1, 1000, T0 + 5), T0 + 5), Ok(None));
}

#[test]
fn the_next_look_follows_the_windows_and_the_bot() {
    let mut q = Queue::default();
    assert_eq!(q.next_look(T0), None);
    q.seek(seeker(1, 1000, T0), T0).unwrap();
    assert_eq!(q.next_look(T0), Some(T0 + 20_000));
    assert_eq!(q.next_look(T0 + 20_000), Some(T0 + 45_000));
    assert_eq!(q.next_look(T0 + 45_000), Some(T0 + LONELY_MS));
    let mut other = seeker(2, 1000, T0 + 50_000);
    other.rules = "russian".to_string();
    assert_eq!(q.seek(other, T0 + 50_000), Ok(None));
    assert_eq!(q.next_look(T0 + 50_000), Some(T0 + LONELY_MS));
    assert_eq!(q.offer_bot(T0 + LONELY_MS).len(), 1);
    assert_eq!(q.next_look(T0 + LONELY_MS), Some(T0 + 70_000));
}

#[test]
fn refusals_have_their_keys() {
    assert_eq!(
        QuickRefused::AlreadyWaiting.key(),
        "quick-refused-already-waiting"
    );
    assert_eq!(
        QuickRefused::AlreadyPaired.key(),
        "quick-refused-already-paired"
    );
    assert_eq!(QuickRefused::NotWaiting.key(), "quick-refused-not-waiting");
}

#[test]
fn a_queue_survives_serde() {
    let mut q = Queue::default();
    let mut blocker = seeker(1, 1000, T0);
    blocker.blocked = vec![2, 7];
    q.seek(blocker, T0).unwrap();
    q.seek(seeker(2, 1000, T0), T0).unwrap();
    q.seek(seeker(3, 1900, T0), T0).unwrap();
    let mut lone = seeker(4, 1300, T0);
    lone.rules = "russian".to_string();
    q.seek(lone, T0).unwrap();
    assert_eq!(q.offer_bot(T0 + LONELY_MS).len(), 1);
    let now = T0 + LONELY_MS + 1;
    let pair = q.seek(seeker(5, 1950, now), now).unwrap().unwrap();
    assert_eq!(users(&pair), (3, 5));
    assert_eq!(q.paired.len(), 1);
    assert!(q.waiting.iter().any(|s| s.offered_bot));
    let json = serde_json::to_string(&q).unwrap();
    let back: Queue = serde_json::from_str(&json).unwrap();
    assert_eq!(back, q);

    // A queue written before `blocked` and `offered_bot` reads with their defaults.
    let old = r#"{"v":1,"waiting":[{"user":1,"name":"u1","rating":1000,"rules":"std","since":5}]}"#;
    let back: Queue = serde_json::from_str(old).unwrap();
    assert_eq!(back.waiting, vec![seeker(1, 1000, 5)]);
    assert!(back.paired.is_empty());
}

/// Checks what holds of every queue, and that `made` were fit to pair when made.
fn check(q: &Queue, made: &[Pair]) {
    let mut users = BTreeSet::new();
    for s in &q.waiting {
        assert!(users.insert(s.user), "{} twice", s.user);
    }
    for p in &q.paired {
        assert!(users.insert(p.a.user), "{} twice", p.a.user);
        assert!(users.insert(p.b.user), "{} twice", p.b.user);
    }
    for p in q.paired.iter().chain(made) {
        assert_ne!(p.a.user, p.b.user);
        assert_eq!(p.a.rules, p.b.rules);
        assert!(!p.a.blocked.contains(&p.b.user));
        assert!(!p.b.blocked.contains(&p.a.user));
        assert!(p.a.since <= p.b.since, "a waited longer");
        assert!(p.a.fits(&p.b, p.at), "{p:?}");
    }
}

#[test]
fn random_traffic_keeps_the_queue_sound() {
    for seed in 0..5u64 {
        let mut rng = Lcg(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) + 1);
        let mut q = Queue::default();
        let mut now = T0;
        let (mut accepted, mut cancelled, mut taken) = (0usize, 0usize, 0usize);
        let mut offered: BTreeMap<u64, u64> = BTreeMap::new();
        for step in 0..2000 {
            let user = 1 + rng.below(14);
            match rng.below(10) {
                0..=3 => {
                    let mut s = seeker(user, 800 + rng.below(1500) as i64, now);
                    s.rules = ["std", "russian"][rng.below(2) as usize].to_string();
                    for _ in 0..rng.below(3) {
                        s.blocked.push(1 + rng.below(14));
                    }
                    let before = q.clone();
                    match q.seek(s.clone(), now) {
                        Ok(made) => {
                            assert!(before.position(user).is_none());
                            assert!(before.pair_of(user).is_none());
                            accepted += 1;
                            match made {
                                Some(p) => {
                                    assert!(p.has(user));
                                    assert_eq!(q.pair_of(user), Some(&p));
                                    check(&q, &[p]);
                                }
                                None => assert_eq!(q.position(user), Some(&s)),
                            }
                        }
                        Err(e) => {
                            assert_eq!(q, before, "step {step}");
                            let expected = if before.position(user).is_some() {
                                QuickRefused::AlreadyWaiting
                            } else {
                                assert!(before.pair_of(user).is_some());
                                QuickRefused::AlreadyPaired
                            };
                            assert_eq!(e, expected);
                        }
                    }
                }
                4 | 5 => {
                    let before = q.clone();
                    match q.cancel(user) {
                        Ok(s) => {
                            assert_eq!(before.position(user), Some(&s));
                            cancelled += 1;
                        }
                        Err(e) => {
                            assert_eq!(e, QuickRefused::NotWaiting);
                            assert_eq!(q, before);
                        }
                    }
                }
                6 | 7 => {
                    now += rng.below(25_000);
                    let made = q.pair_due(now);
                    check(&q, &made);
                    // The pass leaves nobody who fits anyone.
                    for (i, x) in q.waiting.iter().enumerate() {
                        for y in &q.waiting[i + 1..] {
                            assert!(!x.fits(y, now), "{x:?} and {y:?} left waiting");
                        }
                    }
                    for s in q.offer_bot(now) {
                        assert!(s.waited(now) >= LONELY_MS);
                        assert_eq!(q.position(s.user), Some(&s));
                        let again = offered.insert(s.user, s.since);
                        assert_ne!(again, Some(s.since), "offered twice");
                    }
                }
                _ => {
                    let before = q.pair_of(user).cloned();
                    let got = q.take_pair(user);
                    assert_eq!(got, before);
                    if got.is_some() {
                        taken += 1;
                        assert_eq!(q.take_pair(user), None);
                    }
                }
            }
            check(&q, &[]);
            assert_eq!(
                accepted,
                q.waiting.len() + 2 * q.paired.len() + cancelled + 2 * taken,
                "every seeker is waiting, paired, cancelled or taken (step {step})"
            );
        }
        assert!(
            taken > 10 && cancelled > 10,
            "the traffic exercised the queue"
        );
    }
}

#[test]
fn the_bot_offered_is_the_level_nearest_the_rating() {
    use engine::ai::Level;
    assert_eq!(bot_level_near(1000), Level::Easy);
    assert_eq!(bot_level_near(1870), Level::Normal);
    assert_eq!(bot_level_near(2500), Level::Hard);
}
