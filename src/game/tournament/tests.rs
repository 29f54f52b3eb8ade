use super::pairing::bracket_order;
use super::*;
use std::collections::{BTreeMap, BTreeSet};

/// Entrant `i` of a test: user id 100 + i.
fn who(i: usize) -> Entrant {
    Entrant {
        user: 100 + i as u64,
        name: format!("p{i}"),
    }
}

/// A tournament in sign-up with `n` entrants, entrant 0 its runner.
fn field(format: Format, n: usize) -> Tournament {
    let mut t = Tournament::open(7, -1001, Some(3), who(0), format, 1_000);
    for i in 1..n {
        t.join(who(i)).unwrap();
    }
    t
}

/// A tiny linear congruential generator: the tests' deterministic coin.
struct Lcg(u64);

impl Lcg {
    fn coin(&mut self) -> bool {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) & 1 == 1
    }
}

/// What the driver saw, kept apart from the tournament: every game as (round, winner,
/// loser), every bye as (round, entrant).
#[derive(Default)]
struct Played {
    games: Vec<(usize, usize, usize)>,
    byes: Vec<(usize, usize)>,
}

/// Starts the tournament and plays it to the end, `pick(a, b)` naming each match's winner.
fn drive(t: &mut Tournament, mut pick: impl FnMut(usize, usize) -> usize) -> Played {
    t.start(t.runner, false).unwrap();
    let mut played = Played::default();
    let mut seen = 0;
    let mut game = 5_000;
    loop {
        for r in seen..t.rounds.len() {
            for m in t.rounds[r].matches.iter().filter(|m| m.is_bye()) {
                assert_eq!(m.winner, Some(m.a), "a bye is won from the start");
                played.byes.push((r, m.a));
            }
        }
        seen = t.rounds.len();
        let Some((r, i)) = t.next_match() else { break };
        assert_eq!(Some(r), t.current_round());
        assert_eq!(r + 1, t.rounds.len(), "only the last round is played");
        assert_eq!(t.playing(), None);
        game += 1;
        t.assign_game(r, i, game).unwrap();
        assert_eq!(t.playing(), Some((r, i)));
        let m = t.rounds[r].matches[i].clone();
        let b = m.b.unwrap();
        let winner = pick(m.a, b);
        let loser = if winner == m.a { b } else { m.a };
        let open = t.rounds[r]
            .matches
            .iter()
            .filter(|m| m.winner.is_none())
            .count();
        let before = t.rounds.len();
        let user = t.entrants[winner].user;
        assert_eq!(t.record(game, user, false), Ok(Recorded::Recorded));
        assert_eq!(t.rounds[r].matches[i].winner, Some(winner));
        if open > 1 {
            assert_eq!(
                t.rounds.len(),
                before,
                "a round moves on only when complete"
            );
            assert_eq!(t.phase, Phase::Running);
        } else if t.phase == Phase::Running {
            assert_eq!(t.rounds.len(), before + 1);
        }
        played.games.push((r, winner, loser));
        assert!(played.games.len() < 1_000, "the tournament never ends");
    }
    played
}

/// The rounds a format plays with `n` entrants, counted here apart from the module.
fn expected_rounds(format: Format, n: usize) -> usize {
    match format {
        Format::RoundRobin if n.is_multiple_of(2) => n - 1,
        Format::RoundRobin => n,
        Format::Swiss | Format::Elimination => (0..).find(|k| 1usize << k >= n).unwrap(),
    }
}

/// The standings as (entrant, place, points, Buchholz, wins, losses, byes), computed from
/// the driver's flat list of results alone.
fn expected_standings(format: Format, n: usize, rounds: usize, played: &Played) -> Vec<[u32; 7]> {
    let (mut wins, mut losses, mut byes) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    let mut out_in = vec![None; n];
    for &(r, w, l) in &played.games {
        wins[w] += 1;
        losses[l] += 1;
        out_in[l] = Some(r);
    }
    for &(_, b) in &played.byes {
        byes[b] += 1;
    }
    let points: Vec<u32> = (0..n).map(|i| wins[i] + byes[i]).collect();
    let mut buchholz = vec![0u32; n];
    for &(_, w, l) in &played.games {
        buchholz[w] += points[l];
        buchholz[l] += points[w];
    }
    let mut order: Vec<usize> = (0..n).collect();
    if format == Format::Elimination {
        // Still in (never lost) first, then later rounds out first; sign-up order last.
        order.sort_by(|&x, &y| match (out_in[x], out_in[y]) {
            (None, None) => x.cmp(&y),
            (None, Some(_)) => std::cmp::Ordering::Less,
            (Some(_), None) => std::cmp::Ordering::Greater,
            (Some(a), Some(b)) => b.cmp(&a).then(x.cmp(&y)),
        });
    } else {
        order.sort_by(|&x, &y| {
            (points[y], buchholz[y], wins[y])
                .cmp(&(points[x], buchholz[x], wins[x]))
                .then(x.cmp(&y))
        });
    }
    let semi = rounds.checked_sub(2);
    let mut places = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let shared = format == Format::Elimination
            && k > 0
            && semi.is_some()
            && out_in[i] == semi
            && out_in[order[k - 1]] == semi;
        let place = if shared { places[k - 1] } else { k as u32 + 1 };
        places.push(place);
    }
    order
        .iter()
        .zip(&places)
        .map(|(&i, &place)| {
            [
                i as u32,
                place,
                points[i],
                buchholz[i],
                wins[i],
                losses[i],
                byes[i],
            ]
        })
        .collect()
}

/// The module's standings in the shape of [`expected_standings`].
fn standings_rows(t: &Tournament) -> Vec<[u32; 7]> {
    t.standings()
        .iter()
        .map(|s| {
            [
                s.entrant as u32,
                s.place as u32,
                s.points,
                s.buchholz,
                s.wins,
                s.losses,
                s.byes,
            ]
        })
        .collect()
}

/// Every rule a finished tournament of `n` keeps, checked against what the driver saw.
fn check_finished(format: Format, n: usize, t: &Tournament, played: &Played) {
    let what = format!("{format:?} with {n}");
    assert_eq!(t.phase, Phase::Finished, "{what}");
    assert_eq!(t.rounds.len(), expected_rounds(format, n), "{what}");
    assert_eq!(t.rounds_total(), t.rounds.len(), "{what}");
    assert_eq!(t.current_round(), None, "{what}");
    assert_eq!(t.next_match(), None, "{what}");
    let mut pairs = BTreeMap::new();
    let mut bye_count = vec![0; n];
    for (r, round) in t.rounds.iter().enumerate() {
        assert!(round.complete(), "{what}: round {r}");
        let mut seen = BTreeSet::new();
        for m in &round.matches {
            assert!(seen.insert(m.a), "{what}: {} twice in round {r}", m.a);
            match m.b {
                Some(b) => {
                    assert!(seen.insert(b), "{what}: {b} twice in round {r}");
                    assert_ne!(m.a, b);
                    *pairs.entry((m.a.min(b), m.a.max(b))).or_insert(0) += 1;
                }
                None => bye_count[m.a] += 1,
            }
        }
        if format != Format::Elimination {
            assert_eq!(
                seen.len(),
                n,
                "{what}: everyone plays or sits out round {r}"
            );
        }
    }
    let games = played.games.len();
    match format {
        Format::RoundRobin => {
            assert_eq!(pairs.len(), n * (n - 1) / 2, "{what}: every pair");
            assert!(pairs.values().all(|&c| c == 1), "{what}: every pair once");
            let want = usize::from(!n.is_multiple_of(2));
            assert!(
                bye_count.iter().all(|&c| c == want),
                "{what}: byes {bye_count:?}"
            );
        }
        Format::Swiss => {
            assert!(pairs.values().all(|&c| c == 1), "{what}: a rematch");
            assert!(
                bye_count.iter().all(|&c| c <= 1),
                "{what}: byes {bye_count:?}"
            );
            let byes: usize = bye_count.iter().sum();
            assert_eq!(
                byes,
                if !n.is_multiple_of(2) {
                    t.rounds.len()
                } else {
                    0
                },
                "{what}"
            );
        }
        Format::Elimination => {
            assert_eq!(games, n - 1, "{what}: games");
            let losers: BTreeSet<usize> = played.games.iter().map(|g| g.2).collect();
            assert_eq!(
                losers.len(),
                n - 1,
                "{what}: everyone loses once but the winner"
            );
            let champion = (0..n).find(|i| !losers.contains(i)).unwrap();
            assert_eq!(t.podium()[0], vec![champion], "{what}");
            let last = played.games.last().unwrap();
            assert_eq!(last.0 + 1, t.rounds.len(), "{what}: the final is last");
            assert_eq!(t.podium()[1], vec![last.2], "{what}: the final's loser");
            // Nobody plays after going out.
            for &(r, w, l) in &played.games {
                for &(r2, w2, l2) in &played.games {
                    if r2 > r {
                        assert!(w2 != l && l2 != l, "{what}: {l} out in round {r}");
                    }
                }
                assert!(w != l);
            }
            if t.rounds.len() >= 2 {
                let semi = t.rounds.len() - 2;
                let mut third: Vec<usize> = played
                    .games
                    .iter()
                    .filter(|g| g.0 == semi)
                    .map(|g| g.2)
                    .collect();
                third.sort();
                assert_eq!(t.podium()[2], third, "{what}: the semi-finals' losers");
            } else {
                assert_eq!(t.podium().len(), 2, "{what}");
            }
        }
    }
    assert_eq!(
        standings_rows(t),
        expected_standings(format, n, t.rounds.len(), played),
        "{what}"
    );
}

#[test]
fn every_format_and_size_plays_to_the_end() {
    for format in Format::ALL {
        for n in 2..=format.max_players() {
            let mut t = field(format, n);
            let played = drive(&mut t, |a, b| a.min(b));
            check_finished(format, n, &t, &played);
            let mut t = field(format, n);
            let played = drive(&mut t, |a, b| a.max(b));
            check_finished(format, n, &t, &played);
            for seed in 0..12 {
                let mut rng = Lcg(seed * 7919 + n as u64);
                let mut t = field(format, n);
                let played = drive(&mut t, |a, b| if rng.coin() { a } else { b });
                check_finished(format, n, &t, &played);
            }
        }
    }
}

#[test]
fn swiss_always_pairs_without_rematches() {
    // Many more random results for the Swiss pairing's search (and the bye's choice).
    for n in 2..=32 {
        for seed in 0..60 {
            let mut rng = Lcg(seed ^ ((n as u64) << 20));
            let mut t = field(Format::Swiss, n);
            let played = drive(&mut t, |a, b| if rng.coin() { a } else { b });
            check_finished(Format::Swiss, n, &t, &played);
        }
    }
}

/// A Swiss of five played by a script of (winner, loser) results.
fn scripted_swiss_of_five(results: &[(usize, usize)]) -> (Tournament, Played) {
    let mut t = field(Format::Swiss, 5);
    let played = drive(&mut t, |a, b| {
        let &(w, _) = results
            .iter()
            .find(|&&(w, l)| (w, l) == (a, b) || (w, l) == (b, a))
            .expect("a pairing of the script");
        w
    });
    assert_eq!(t.phase, Phase::Finished);
    (t, played)
}

#[test]
fn a_hand_made_swiss_of_five() {
    // A..E are 0..4. Three rounds; the byes go to E, then D, then B.
    let (t, played) = scripted_swiss_of_five(&[(2, 0), (1, 3), (2, 1), (0, 4), (2, 4), (3, 0)]);
    let pairs: Vec<Vec<(usize, Option<usize>)>> = t
        .rounds
        .iter()
        .map(|r| r.matches.iter().map(|m| (m.a, m.b)).collect())
        .collect();
    let want = vec![
        vec![(0, Some(2)), (1, Some(3)), (4, None)],
        // B, C, E have a point: the bye goes to D, the lowest without one.
        vec![(1, Some(2)), (4, Some(0)), (3, None)],
        // C–A met in round 1, and A–E in round 2: the search goes back to C–E, A–D.
        vec![(2, Some(4)), (0, Some(3)), (1, None)],
    ];
    assert_eq!(pairs, want);
    assert_eq!(t.phase, Phase::Finished);
    let rows = vec![
        [2, 1, 3, 4, 3, 0, 0],
        [1, 2, 2, 5, 1, 1, 1],
        [3, 3, 2, 3, 1, 1, 1],
        [0, 4, 1, 6, 1, 2, 0],
        [4, 5, 1, 4, 0, 2, 1],
    ];
    assert_eq!(standings_rows(&t), rows);
    assert_eq!(expected_standings(Format::Swiss, 5, 3, &played), rows);
    assert_eq!(t.podium(), vec![vec![2], vec![1], vec![3]]);

    // Four on two points: Buchholz puts D (5) above B (4), sign-up order the tied C, E.
    let (t, played) = scripted_swiss_of_five(&[(0, 2), (3, 1), (3, 0), (1, 4), (2, 3), (4, 0)]);
    let byes: Vec<usize> = t
        .rounds
        .iter()
        .filter_map(|r| r.matches.last())
        .map(|m| m.a)
        .collect();
    assert_eq!(byes, vec![4, 2, 1]);
    let rows = vec![
        [3, 1, 2, 5, 2, 1, 0],
        [1, 2, 2, 4, 1, 1, 1],
        [2, 3, 2, 3, 1, 1, 1],
        [4, 4, 2, 3, 1, 1, 1],
        [0, 5, 1, 6, 1, 2, 0],
    ];
    assert_eq!(standings_rows(&t), rows);
    assert_eq!(expected_standings(Format::Swiss, 5, 3, &played), rows);
}

#[test]
fn the_bracket_seeds_by_sign_up_order() {
    assert_eq!(bracket_order(2), vec![0, 1]);
    assert_eq!(bracket_order(4), vec![0, 3, 1, 2]);
    assert_eq!(bracket_order(8), vec![0, 7, 3, 4, 1, 6, 2, 5]);
    let mut t = field(Format::Elimination, 5);
    t.start(t.runner, false).unwrap();
    let first: Vec<(usize, Option<usize>)> =
        t.rounds[0].matches.iter().map(|m| (m.a, m.b)).collect();
    assert_eq!(first, vec![(0, None), (3, Some(4)), (1, None), (2, None)]);
    let played = drive(&mut field(Format::Elimination, 5), |a, b| a.min(b));
    assert_eq!(
        played.games,
        vec![(0, 3, 4), (1, 0, 3), (1, 1, 2), (2, 0, 1)]
    );
    // The top two seeds meet only in the final when the higher seed always wins.
    for n in 2..=32 {
        let mut t = field(Format::Elimination, n);
        let played = drive(&mut t, |a, b| a.min(b));
        let &(_, w, l) = played.games.last().unwrap();
        assert_eq!((w, l), (0, 1), "{n}");
        let byes: BTreeSet<usize> = t.rounds[0]
            .matches
            .iter()
            .filter(|m| m.is_bye())
            .map(|m| m.a)
            .collect();
        let top: BTreeSet<usize> = (0..n.next_power_of_two() - n).collect();
        assert_eq!(byes, top, "{n}: the top seeds have the byes");
    }
}

#[test]
fn elimination_places_share_third_only() {
    let mut t = field(Format::Elimination, 8);
    drive(&mut t, |a, b| a.min(b));
    let places: Vec<(usize, usize)> = t.standings().iter().map(|s| (s.entrant, s.place)).collect();
    assert_eq!(
        places,
        vec![
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 3),
            (4, 5),
            (5, 6),
            (6, 7),
            (7, 8)
        ]
    );
    assert_eq!(t.podium(), vec![vec![0], vec![1], vec![2, 3]]);
}

#[test]
fn sign_up_refusals_change_nothing() {
    let mut t = field(Format::Swiss, 1);
    let before = t.clone();
    assert_eq!(t.start(100, false), Err(TournamentRefused::TooFew));
    assert_eq!(t, before);
    t.join(who(1)).unwrap();
    let before = t.clone();
    assert_eq!(t.join(who(1)), Err(TournamentRefused::AlreadyIn));
    assert_eq!(t.join(who(0)), Err(TournamentRefused::AlreadyIn));
    assert_eq!(t.leave(999), Err(TournamentRefused::NotIn));
    assert_eq!(t.start(101, false), Err(TournamentRefused::NotRunner));
    assert_eq!(t.cancel(101, false), Err(TournamentRefused::NotRunner));
    assert_eq!(
        t.set_format(101, false, Format::RoundRobin),
        Err(TournamentRefused::NotRunner)
    );
    assert_eq!(t, before);

    // Full at the format's most, and too many for a smaller format.
    let mut t = field(Format::RoundRobin, 8);
    let before = t.clone();
    assert_eq!(t.join(who(8)), Err(TournamentRefused::Full));
    assert_eq!(t, before);
    t.set_format(100, false, Format::Swiss).unwrap();
    t.join(who(8)).unwrap();
    let before = t.clone();
    assert_eq!(
        t.set_format(100, false, Format::RoundRobin),
        Err(TournamentRefused::TooManyForFormat)
    );
    assert_eq!(t, before);
    // An admin may run it; the format changes during sign-up only.
    assert_eq!(t.set_format(105, true, Format::Elimination), Ok(()));
    assert_eq!(t.format, Format::Elimination);
    let mut full = field(Format::Swiss, 32);
    assert_eq!(full.join(who(32)), Err(TournamentRefused::Full));
}

#[test]
fn the_runner_may_leave_and_still_run_it() {
    let mut t = field(Format::RoundRobin, 3);
    t.leave(100).unwrap();
    assert_eq!(t.seat_of(100), None);
    assert_eq!(t.seat_of(101), Some(0));
    assert!(t.may_run(100, false));
    assert!(!t.may_run(101, false));
    assert!(t.may_run(101, true));
    t.start(100, false).unwrap();
    assert_eq!(t.phase, Phase::Running);
    assert_eq!(t.rounds.len(), 1);
    let before = t.clone();
    assert_eq!(t.join(who(9)), Err(TournamentRefused::NotOpen));
    assert_eq!(t.leave(101), Err(TournamentRefused::NotOpen));
    assert_eq!(t.start(100, false), Err(TournamentRefused::NotOpen));
    assert_eq!(
        t.set_format(100, false, Format::Swiss),
        Err(TournamentRefused::NotOpen)
    );
    assert_eq!(t, before);
}

#[test]
fn games_and_results_are_checked() {
    let mut t = field(Format::Swiss, 5);
    assert_eq!(t.assign_game(0, 0, 1), Err(TournamentRefused::NotRunning));
    t.start(100, false).unwrap();
    assert_eq!(t.next_match(), Some((0, 0)));
    // Not the current round, no such match, a bye.
    assert_eq!(t.assign_game(1, 0, 1), Err(TournamentRefused::UnknownGame));
    assert_eq!(t.assign_game(0, 9, 1), Err(TournamentRefused::UnknownGame));
    assert_eq!(t.assign_game(0, 2, 1), Err(TournamentRefused::UnknownGame));
    t.assign_game(0, 0, 1).unwrap();
    assert_eq!(t.next_match(), Some((0, 1)));
    assert_eq!(
        t.assign_game(0, 1, 1),
        Err(TournamentRefused::UnknownGame),
        "taken"
    );
    let before = t.clone();
    assert_eq!(t.record(2, 100, false), Err(TournamentRefused::UnknownGame));
    // Entrant 1 plays in the other match; 999 signed up not at all.
    assert_eq!(t.record(1, 101, false), Err(TournamentRefused::NotInMatch));
    assert_eq!(t.record(1, 999, false), Err(TournamentRefused::NotInMatch));
    assert_eq!(t, before);
    // A new game for a match whose game came to nothing.
    t.assign_game(0, 0, 7).unwrap();
    assert_eq!(t.record(1, 100, false), Err(TournamentRefused::UnknownGame));
    assert_eq!(t.record(7, 102, true), Ok(Recorded::Recorded));
    assert_eq!(t.rounds[0].matches[0].winner, Some(2));
    assert!(t.rounds[0].matches[0].forfeit);
    let before = t.clone();
    assert_eq!(t.record(7, 100, false), Ok(Recorded::AlreadyRecorded));
    assert_eq!(t, before);
    assert_eq!(
        t.assign_game(0, 0, 8),
        Err(TournamentRefused::UnknownGame),
        "decided"
    );
    assert_eq!(t.playing(), None);

    // Called off: a result that comes after changes nothing.
    t.assign_game(0, 1, 9).unwrap();
    assert_eq!(t.playing(), Some((0, 1)));
    t.cancel(101, true).unwrap();
    assert_eq!(t.phase, Phase::Cancelled);
    let before = t.clone();
    assert_eq!(t.cancel(100, false), Err(TournamentRefused::NotOpen));
    assert_eq!(t.record(9, 101, false), Err(TournamentRefused::NotRunning));
    assert_eq!(t.next_match(), None);
    assert_eq!(t, before);
}

#[test]
fn refusals_have_their_keys() {
    use TournamentRefused::*;
    let all = [
        (NotOpen, "not-open"),
        (AlreadyIn, "already-in"),
        (NotIn, "not-in"),
        (Full, "full"),
        (TooFew, "too-few"),
        (TooManyForFormat, "too-many-for-format"),
        (NotRunner, "not-runner"),
        (NotRunning, "not-running"),
        (UnknownGame, "unknown-game"),
        (NotInMatch, "not-in-match"),
    ];
    for (refused, tail) in all {
        assert_eq!(refused.key(), format!("tournament-refused-{tail}"));
    }
}

#[test]
fn a_running_tournament_survives_serde() {
    let mut t = field(Format::Elimination, 6);
    t.message = Some(42);
    t.start(100, false).unwrap();
    let (r, i) = t.next_match().unwrap();
    t.assign_game(r, i, 77).unwrap();
    let m = &t.rounds[r].matches[i];
    let user = t.entrants[m.b.unwrap()].user;
    t.record(77, user, true).unwrap();
    let (r, i) = t.next_match().unwrap();
    t.assign_game(r, i, 78).unwrap();
    assert_eq!(t.v, TOURNAMENT_VERSION);
    let json = serde_json::to_string(&t).unwrap();
    assert!(json.contains(r#""format":"elimination""#), "{json}");
    assert!(json.contains(r#""phase":"running""#), "{json}");
    let back: Tournament = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
    assert_eq!(
        serde_json::to_string(&Format::RoundRobin).unwrap(),
        r#""round_robin""#
    );
    assert_eq!(
        serde_json::to_string(&Phase::SignUp).unwrap(),
        r#""sign_up""#
    );
    assert_eq!(Format::default(), Format::Swiss);
}

#[test]
fn a_new_tournament_takes_the_place_of_one_over_only() {
    let mut stored = field(Format::Swiss, 3);
    let mut fresh = Tournament::open(99, stored.chat, None, who(7), Format::RoundRobin, 5);
    // Signing up or running: it stays.
    let before = stored.clone();
    assert!(!stored.open_anew(&fresh));
    assert_eq!(stored, before);
    stored.start(stored.runner, false).unwrap();
    let before = stored.clone();
    assert!(!stored.open_anew(&fresh));
    assert_eq!(stored, before);
    // Over: the new one is stored; the same command again changes nothing more.
    stored.cancel(stored.runner, false).unwrap();
    assert!(stored.open_anew(&fresh));
    assert_eq!(stored, fresh);
    assert!(stored.open_anew(&fresh));
    assert_eq!(stored, fresh);
    // Its message is noted once, and never for another tournament's id.
    stored.shown_in(98, 5);
    assert_eq!(stored.message, None);
    stored.shown_in(99, 6);
    stored.shown_in(99, 7);
    assert_eq!(stored.message, Some(6));
    fresh.message = Some(6);
    assert_eq!(stored, fresh);
}

#[test]
fn each_rounds_standings_are_due_for_a_picture_once() {
    let mut t = field(Format::Swiss, 4);
    assert_eq!(t.picture_due(), None, "in sign-up");
    t.start(t.runner, false).unwrap();
    assert_eq!(t.picture_due(), None, "the first round is on");
    let mut game = 1;
    let mut due = Vec::new();
    while let Some((r, i)) = t.next_match() {
        t.assign_game(r, i, game).unwrap();
        let winner = t.entrants[t.rounds[r].matches[i].a].user;
        t.record(game, winner, false).unwrap();
        game += 1;
        due.extend(t.picture_due());
        assert_eq!(t.picture_due(), None, "twice");
    }
    assert_eq!(t.phase, Phase::Finished);
    assert_eq!(due, vec![1, 2], "{:?}", t.rounds.len());
}

#[test]
fn a_drawing_is_due_once_and_again_only_when_it_changes() {
    let mut t = field(Format::Swiss, 2);
    assert!(t.to_draw(7));
    assert!(!t.to_draw(7), "the same drawing twice");
    assert!(t.to_draw(8));
    assert!(t.to_draw(7), "back to an earlier drawing: drawn again");
    assert_eq!(t.drawn, 7);
}
