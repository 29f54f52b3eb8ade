//! A group's tournament (`/tournament`): the sign-up and its refusals, and whole tournaments
//! played match by match on the group's board, their standings and podium checked against
//! results the test keeps itself.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use morskoy_boy::game::tournament::{Phase, Tournament};
use morskoy_boy::store::Leaderboard;
use std::collections::HashMap;
use std::time::Duration;
use teloxide::types::User;

/// The chat's tournament as stored.
async fn stored(app: &App, group: i64) -> Option<Tournament> {
    app.store()
        .await
        .tournament(group)
        .await
        .expect("the store answers")
        .map(|(t, _)| t)
}

/// The button of the tournament's message ending in `op` (`j`, `l`, `s`, `x`, `fs` …).
fn button(m: &SentMessage, op: &str) -> String {
    m.callback_data()
        .into_iter()
        .find(|d| d.starts_with("tn:") && d.ends_with(&format!(":{op}")))
        .unwrap_or_else(|| panic!("no tournament button {op} in {:?}", m.buttons()))
}

/// In `p`'s private chat, the editor of game `game`: Random, then Ready.
async fn place(app: &App, p: &User, game: u64) {
    place_and_ready_in(app, p, Some(game)).await;
}

/// `/tournament` in `group` by the first of `players`, the others joined: its message.
async fn signed_up(app: &App, group: i64, players: &[User]) -> SentMessage {
    app.tg.send_command(group, &players[0], "/tournament");
    let msg = app.message_with_button(group, "tn:").await;
    for p in &players[1..] {
        let a = app
            .press(group, p, msg.message_id, &button(&msg, "j"))
            .await;
        assert!(!a.show_alert, "{a:?}");
    }
    msg
}

/// The match being played once one is (round, index, its game, its two players), or
/// `None` once the tournament is over.
async fn match_on(
    app: &App,
    group: i64,
    players: &[User],
) -> Option<(usize, usize, u64, User, User)> {
    let t = until(app, group, "a match on, or the end", |t| {
        t.phase == Phase::Finished || t.playing().is_some()
    })
    .await;
    let (r, i) = t.playing()?;
    let m = &t.rounds[r].matches[i];
    let user = |e: usize| {
        let id = t.entrants[e].user;
        players.iter().find(|p| p.id.0 == id).unwrap().clone()
    };
    Some((r, i, m.game.unwrap(), user(m.a), user(m.b.unwrap())))
}

/// Waits until `f` holds of the stored tournament (the bot works on paused time: the
/// waiting costs nothing).
async fn until(app: &App, group: i64, what: &str, f: impl Fn(&Tournament) -> bool) -> Tournament {
    for _ in 0..3000 {
        if let Some(t) = stored(app, group).await {
            if f(&t) {
                return t;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "the tournament never came to: {what}: {:?}",
        stored(app, group).await
    );
}

/// The tournament's own message (`message`) once it says the tournament is over.
async fn the_end(app: &App, group: i64, message: i32) -> SentMessage {
    app.tg
        .wait_for(
            group,
            |m| m.message_id == message && m.text.contains("The tournament is over"),
            wait(),
        )
        .await
        .expect("the end in the tournament's message")
}

/// Standings as the test works them out from the results alone: (user, points, Buchholz,
/// wins), best first (points, Buchholz, wins, sign-up order).
fn standings_apart(
    signed: &[u64],
    results: &[(u64, u64)],
    byes: &[u64],
) -> Vec<(u64, u32, u32, u32)> {
    let mut points: HashMap<u64, u32> = signed.iter().map(|&u| (u, 0)).collect();
    let mut wins: HashMap<u64, u32> = points.clone();
    for &(w, _) in results {
        *points.get_mut(&w).unwrap() += 1;
        *wins.get_mut(&w).unwrap() += 1;
    }
    for b in byes {
        *points.get_mut(b).unwrap() += 1;
    }
    let buchholz = |u: u64| -> u32 {
        results
            .iter()
            .filter_map(|&(w, l)| match () {
                _ if w == u => Some(l),
                _ if l == u => Some(w),
                _ => None,
            })
            .map(|o| points[&o])
            .sum()
    };
    let mut rows: Vec<(usize, (u64, u32, u32, u32))> = signed
        .iter()
        .enumerate()
        .map(|(i, &u)| (i, (u, points[&u], buchholz(u), wins[&u])))
        .collect();
    rows.sort_by(|(i, a), (j, b)| (b.1, b.2, b.3).cmp(&(a.1, a.2, a.3)).then(i.cmp(j)));
    rows.into_iter().map(|(_, r)| r).collect()
}

/// A Swiss tournament of five in `group` (players from `first_id`), to the podium: the first
/// match lost by the turn timer, the others by giving up; the pairings without rematches and
/// a bye each, the standings and podium in the group's message as worked out apart, every
/// game rated once.
async fn a_swiss_of_five(app: App, group: i64, first_id: i64) {
    app.tg.group(group, "Regatta");
    let names = ["Ann", "Ben", "Cid", "Dan", "Eve"];
    let players: Vec<User> = names
        .iter()
        .enumerate()
        .map(|(i, n)| app.player(first_id + i as i64, n, "en"))
        .collect();
    for p in &players {
        app.welcomed(p).await;
    }
    let msg = signed_up(&app, group, &players).await;
    assert!(msg.text.contains("Swiss"), "{}", msg.text);
    let join = button(&msg, "j");
    // Join twice: refused, nothing changes.
    let a = app.press(group, &players[1], msg.message_id, &join).await;
    assert!(a.show_alert && said(&a).contains("already"), "{a:?}");
    assert_eq!(stored(&app, group).await.unwrap().entrants.len(), 5);
    // Only the runner (or an admin) starts it.
    let start = button(&msg, "s");
    let a = app.press(group, &players[2], msg.message_id, &start).await;
    assert!(a.show_alert && said(&a).contains("only"), "{a:?}");
    assert_eq!(stored(&app, group).await.unwrap().phase, Phase::SignUp);
    let a = app.press(group, &players[0], msg.message_id, &start).await;
    assert!(!a.show_alert, "{a:?}");

    let by_id: HashMap<u64, User> = players.iter().map(|p| (p.id.0, p.clone())).collect();
    let signed: Vec<u64> = players.iter().map(|p| p.id.0).collect();
    let mut results: Vec<(u64, u64)> = Vec::new();
    let mut played: HashMap<u64, u32> = HashMap::new();
    let mut forfeited = false;
    loop {
        let Some((r, i, game, ua, ub)) = match_on(&app, group, &players).await else {
            break;
        };
        place(&app, &ua, game).await;
        place(&app, &ub, game).await;
        let battle = app.message_with_button(group, &format!("f:{game}:")).await;
        let d = Duel::from_battle(&battle, [ua.clone(), ub.clone()], group);
        // An entrant who is not in this match presses its board: refused, nothing shot.
        if let Some(other) = players.iter().find(|p| p.id != ua.id && p.id != ub.id) {
            let a = app
                .press(group, other, d.battle, &d.fire_data(d.turn, 0))
                .await;
            assert!(a.show_alert && said(&a).contains("not playing"), "{a:?}");
        }
        let (winner, loser) = if !forfeited {
            // The first match: the player to move stops moving; the turn timer gives the
            // match to the other.
            forfeited = true;
            let idle = d.players[d.turn].clone();
            let other = d.players[1 - d.turn].clone();
            tokio::time::sleep(Duration::from_secs(200)).await;
            (other, idle)
        } else {
            // Then the one with the larger id (of sum and round, for variety) gives up.
            let loser = if (ua.id.0 + ub.id.0 + r as u64).is_multiple_of(2) {
                ua
            } else {
                ub
            };
            let winner = if loser.id == d.players[0].id {
                d.players[1].clone()
            } else {
                d.players[0].clone()
            };
            app.tg.send_command(group, &loser, "/surrender");
            (winner, loser)
        };
        let t = until(&app, group, "the match's result", |t| {
            t.rounds[r].matches[i].winner.is_some()
        })
        .await;
        let recorded = t.rounds[r].matches[i].winner.unwrap();
        assert_eq!(t.entrants[recorded].user, winner.id.0, "match {game}");
        results.push((winner.id.0, loser.id.0));
        *played.entry(winner.id.0).or_default() += 1;
        *played.entry(loser.id.0).or_default() += 1;
    }
    let t = stored(&app, group).await.unwrap();
    // Swiss for five: three rounds, two matches and a bye each, no rematch.
    assert_eq!(t.rounds.len(), 3);
    assert_eq!(results.len(), 6);
    let mut pairs: Vec<(u64, u64)> = results.iter().map(|&(w, l)| (w.min(l), w.max(l))).collect();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "a rematch: {results:?}");
    let byes: Vec<u64> = t
        .rounds
        .iter()
        .flat_map(|r| r.matches.iter())
        .filter(|m| m.b.is_none())
        .map(|m| t.entrants[m.a].user)
        .collect();
    assert_eq!(byes.len(), 3);
    let mut distinct = byes.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "a second bye: {byes:?}");
    // The standings and the podium in the group's message, as worked out apart.
    let apart = standings_apart(&signed, &results, &byes);
    let end = the_end(&app, group, msg.message_id).await;
    let name = |u: u64| by_id[&u].first_name.clone();
    for (place, (u, points, buchholz, _)) in apart.iter().enumerate() {
        let points = match points {
            1 => "one point".to_owned(),
            n => format!("{n} points"),
        };
        let line = format!(
            "{}. {} — {points}, Buchholz {buchholz}",
            place + 1,
            name(*u)
        );
        assert!(end.text.contains(&line), "no {line:?} in:\n{}", end.text);
    }
    for (medal, row) in ["🥇", "🥈", "🥉"].iter().zip(&apart) {
        let line = format!("{medal} {}", name(row.0));
        assert!(end.text.contains(&line), "no {line:?} in:\n{}", end.text);
    }
    assert!(end.reply_markup.is_none(), "buttons left on the end");
    // The standings as a picture after each round, once each, the podium under the last.
    let is_picture = |m: &SentMessage| m.photo.as_deref().is_some_and(|p| p.contains("standings"));
    let first = format!("🥇 {}", name(apart[0].0));
    app.tg
        .wait_for(group, |m| is_picture(m) && m.text.contains(&first), wait())
        .await
        .expect("the final standings as a picture");
    tokio::time::sleep(Duration::from_secs(10)).await;
    let pictures: Vec<SentMessage> = app
        .tg
        .messages(group)
        .into_iter()
        .filter(|m| is_picture(m))
        .collect();
    let captions: Vec<&str> = pictures.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(captions.len(), 3, "{captions:?}");
    assert!(
        captions[0].starts_with("Round 1 of 3 is over"),
        "{captions:?}"
    );
    assert!(
        captions[1].starts_with("Round 2 of 3 is over"),
        "{captions:?}"
    );
    assert!(captions[2].contains(&first), "{captions:?}");
    for p in &pictures {
        assert!(p.photos[0].starts_with(b"\x89PNG"), "not a PNG");
    }
    // Every game rated once: each player's rated games in the group are their matches.
    let store = app.store().await;
    let ratings = store
        .ratings(Leaderboard::Chat(group), &signed)
        .await
        .unwrap();
    for (u, r) in signed.iter().zip(ratings) {
        let games = r.map_or(0, |r| r.games);
        assert_eq!(games, played.get(u).copied().unwrap_or(0), "{}", name(*u));
    }
    assert_no_4xx(&app);
}

flow! {
    fn a_swiss_tournament_of_five_is_played_to_the_podium_with_a_forfeit_and_every_game_rated_once() {
        a_swiss_of_five(App::spawn().await, -7101, 71_011).await;
    }
}

flow! {
    /// The same at production settings: the fields as pictures, Telegram's pace for a group
    /// (a 4.5 s gap, 18 sends and edits a minute, the tournament's message among them).
    fn a_swiss_tournament_of_five_at_telegrams_pace_in_pictures() {
        let mut app = App::world(4500, None).await;
        app.start_bot().await;
        a_swiss_of_five(app, -7103, 71_041).await;
    }
}

flow! {
    fn a_tournament_refuses_bad_input_in_words_and_changes_nothing() {
        let app = App::spawn().await;
        let group = -7102;
        app.tg.group(group, "Cove");
        let ann = app.player(71_021, "Ann", "en");
        let ben = app.player(71_022, "Ben", "en");
        app.welcomed(&ann).await;
        app.welcomed(&ben).await;
        // In a private chat: words, no tournament.
        app.tg.send_command(71_021, &ann, "/tournament");
        app.tg
            .wait_for_text(71_021, "played in groups", wait())
            .await
            .expect("the private chat's answer");
        app.tg.send_command(group, &ann, "/tournament");
        let msg = app.message_with_button(group, "tn:").await;
        let before = until(&app, group, "its message noted", |t| t.message.is_some()).await;
        // A second /tournament while one is open.
        app.tg.send_command(group, &ben, "/tournament");
        app.tg
            .wait_for_text(group, "has a tournament on", wait())
            .await
            .expect("the second /tournament's answer");
        // Start with one player; Leave by one who is not in; Cancel by one who does not run it.
        let a = app.press(group, &ann, msg.message_id, &button(&msg, "s")).await;
        assert!(a.show_alert && said(&a).contains("two players"), "{a:?}");
        let a = app.press(group, &ben, msg.message_id, &button(&msg, "l")).await;
        assert!(a.show_alert && said(&a).contains("not signed up"), "{a:?}");
        let a = app.press(group, &ben, msg.message_id, &button(&msg, "x")).await;
        assert!(a.show_alert && said(&a).contains("only"), "{a:?}");
        // Someone who never opened the bot is sent there to Join.
        let stranger = app.tg.user(71_023, "Cid", "en");
        let a = app.press(group, &stranger, msg.message_id, &button(&msg, "j")).await;
        assert!(a.url.as_deref().is_some_and(|u| u.contains("start=")), "{a:?}");
        assert_eq!(stored(&app, group).await.unwrap(), before);
        // Round robin takes eight at most: the format is set, Leave and Join work.
        let a = app.press(group, &ann, msg.message_id, &button(&msg, "fr")).await;
        assert!(!a.show_alert, "{a:?}");
        // Chosen again: answered, and the message is not edited for nothing.
        let a = app.press(group, &ann, msg.message_id, &button(&msg, "fr")).await;
        assert!(!a.show_alert, "{a:?}");
        let a = app.press(group, &ben, msg.message_id, &button(&msg, "j")).await;
        assert!(!a.show_alert, "{a:?}");
        let shown = app
            .tg
            .wait_for_text(group, "Signed up: 2 of 8", wait())
            .await
            .expect("the sign-up redrawn");
        assert!(shown.text.contains("round robin"), "{}", shown.text);
        // The runner calls it off: the message says so and keeps no buttons.
        let a = app.press(group, &ann, msg.message_id, &button(&msg, "x")).await;
        assert!(!a.show_alert, "{a:?}");
        let off = app
            .tg
            .wait_for_text(group, "called off", wait())
            .await
            .expect("the tournament called off");
        assert!(off.reply_markup.is_none());
        // Its old buttons are out of date now.
        let a = app.press(group, &ben, msg.message_id, &button(&msg, "j")).await;
        assert!(a.show_alert, "{a:?}");
        assert_no_4xx(&app);
    }
}

flow! {
    /// A knockout of four in a forum whose games get topics of their own: each match in a
    /// topic the bot opens and closes; a player who never places their fleet loses the match
    /// when the turn timer runs out, and the tournament goes on; the podium by the rules.
    fn a_knockout_of_four_in_a_forum_plays_each_match_in_its_own_topic_and_an_absent_player_loses_by_the_clock() {
        let app = App::spawn().await;
        let group = -1_002_710_301;
        app.tg.forum(group, "Knockout forum");
        app.tg
            .set_member_status(group, crate::fake_telegram::BOT_ID, "administrator");
        let store = app.store().await;
        let mut settings = store.chat_settings(group).await.unwrap();
        settings.own_topics = true;
        store.set_chat_settings(group, &settings).await.unwrap();
        let players: Vec<User> = ["Ann", "Ben", "Cid", "Dan"]
            .iter()
            .enumerate()
            .map(|(i, n)| app.player(71_031 + i as i64, n, "en"))
            .collect();
        for p in &players {
            app.welcomed(p).await;
        }
        let msg = signed_up(&app, group, &players).await;
        let a = app.press(group, &players[0], msg.message_id, &button(&msg, "fe")).await;
        assert!(!a.show_alert, "{a:?}");
        let a = app.press(group, &players[0], msg.message_id, &button(&msg, "s")).await;
        assert!(!a.show_alert, "{a:?}");

        let mut topics = Vec::new();
        let mut absent_done = false;
        let mut final_pair = None;
        let mut semi_losers = Vec::new();
        loop {
            let Some((r, i, game, ua, ub)) = match_on(&app, group, &players).await else {
                break;
            };
            // Its own topic, named for the match.
            let (rec, _) = store
                .load_game(morskoy_boy::store::GameId(game))
                .await
                .unwrap();
            assert!(rec.own_topic, "match {game} is not in a topic of its own");
            let topic = rec.topic.expect("a topic");
            assert!(!topics.contains(&topic), "two matches in topic {topic}");
            topics.push(topic);
            let (winner, loser) = if !absent_done {
                // Only the first player places; the other never does.
                absent_done = true;
                place(&app, &ua, game).await;
                tokio::time::sleep(Duration::from_secs(200)).await;
                (ua, ub)
            } else {
                place(&app, &ua, game).await;
                place(&app, &ub, game).await;
                let battle = app.message_with_button(group, &format!("f:{game}:")).await;
                assert_eq!(battle.thread, Some(topic), "the battle is not in its topic");
                // The later sign-up gives up, in the private chat.
                let (w, l) = if ua.id.0 < ub.id.0 { (ua, ub) } else { (ub, ua) };
                app.tg.send_command(l.id.0 as i64, &l, "/surrender");
                (w, l)
            };
            let t = until(&app, group, "the match's result", |t| {
                t.rounds[r].matches[i].winner.is_some()
            })
            .await;
            let m = &t.rounds[r].matches[i];
            assert_eq!(t.entrants[m.winner.unwrap()].user, winner.id.0, "match {game}");
            if r == 0 {
                semi_losers.push(loser.first_name.clone());
            } else {
                final_pair = Some((winner.first_name.clone(), loser.first_name.clone()));
            }
        }
        let t = stored(&app, group).await.unwrap();
        assert_eq!(t.rounds.len(), 2);
        assert_eq!(topics.len(), 3, "three matches");
        // Every match's topic is closed once its game is over.
        for topic in &topics {
            let deadline = tokio::time::Instant::now() + wait();
            while app.tg.topic(group, *topic).is_some_and(|(_, closed)| !closed) {
                assert!(tokio::time::Instant::now() < deadline, "topic {topic} left open");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        let (champion, runner_up) = final_pair.expect("a final");
        let end = the_end(&app, group, msg.message_id).await;
        assert!(end.text.contains(&format!("🥇 {champion}")), "{}", end.text);
        assert!(end.text.contains(&format!("🥈 {runner_up}")), "{}", end.text);
        semi_losers.sort_by_key(|n| names_order(n));
        let third = format!("🥉 {} and {}", semi_losers[0], semi_losers[1]);
        assert!(end.text.contains(&third), "no {third:?} in:\n{}", end.text);
        assert_eq!(end.thread, None, "the tournament's message stays in General");
    }
}

/// The sign-up order of the knockout's players, by name.
fn names_order(name: &str) -> usize {
    ["Ann", "Ben", "Cid", "Dan"]
        .iter()
        .position(|n| *n == name)
        .unwrap()
}

/// A Swiss tournament of three in `group` on `app`'s bots, with the bot killing itself
/// (`kill -9`) at `point` when given, started again: each match opened once, each result
/// recorded once, each game rated once, one message for the tournament.
async fn a_swiss_of_three(mut app: App, group: i64, first_id: i64, point: Option<&str>) {
    app.tg.group(group, "Crash cove");
    let players: Vec<User> = ["Ann", "Ben", "Cid"]
        .iter()
        .enumerate()
        .map(|(i, n)| app.player(first_id + i as i64, n, "en"))
        .collect();
    for p in &players {
        app.welcomed(p).await;
    }
    if let Some(point) = point {
        app.kill_bot();
        app.env.push(("MB_CRASH_AT".into(), point.into()));
        app.start_bot().await;
    }
    let msg = signed_up(&app, group, &players).await;
    let start = app
        .tg
        .press_stale(group, &players[0], msg.message_id, &button(&msg, "s"));
    let mut crashed = point.is_none();
    if point == Some("match-assigned") {
        wait_for_the_crash(&mut app).await;
        app.restart_bot().await;
        crashed = true;
    }
    let a = app
        .tg
        .wait_answer(&start, wait())
        .await
        .expect("the Start is answered");
    assert!(!a.show_alert, "{a:?}");
    let mut games = Vec::new();
    loop {
        let Some((r, i, game, ua, ub)) = match_on(&app, group, &players).await else {
            break;
        };
        games.push(game);
        place(&app, &ua, game).await;
        place(&app, &ub, game).await;
        app.message_with_button(group, &format!("f:{game}:")).await;
        app.tg.send_command(group, &ub, "/surrender");
        if !crashed {
            wait_for_the_crash(&mut app).await;
            app.restart_bot().await;
            crashed = true;
        }
        until(&app, group, "the match's result", |t| {
            t.rounds[r].matches[i].winner.is_some()
        })
        .await;
    }
    assert!(crashed, "the bot never reached {point:?}");
    let t = stored(&app, group).await.unwrap();
    assert_eq!(games.len(), 2, "{t:?}");
    // One announcement per match, one tournament message, ratings moved once per match.
    the_end(&app, group, msg.message_id).await;
    let texts: Vec<SentMessage> = app.tg.messages(group);
    let announced = texts
        .iter()
        .filter(|m| m.text.contains("Place your fleets"))
        .count();
    assert_eq!(announced, 2, "{:?}", app.tg.all_texts(group));
    let tournaments = texts
        .iter()
        .filter(|m| m.text.starts_with("🏆 Tournament"))
        .count();
    assert_eq!(tournaments, 1, "{:?}", app.tg.all_texts(group));
    let ids: Vec<u64> = players.iter().map(|p| p.id.0).collect();
    let ratings = app
        .store()
        .await
        .ratings(Leaderboard::Chat(group), &ids)
        .await
        .unwrap();
    let rated: u32 = ratings.iter().map(|r| r.map_or(0, |r| r.games)).sum();
    assert_eq!(rated, 4, "two games of two players: {ratings:?}");
    assert_no_4xx(&app);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_between_a_start_and_its_first_match_the_match_opens_once() {
    let app = App::spawn().await;
    a_swiss_of_three(app, -7201, 72_011, Some("match-assigned")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_at_a_rounds_end_the_next_round_opens_once_and_each_game_is_rated_once() {
    let app = App::spawn().await;
    a_swiss_of_three(app, -7202, 72_021, Some("tournament-recorded")).await;
}

/// Two replicas behind one webhook (each update to one of them in turn), one Redis: the
/// presses, the settlements that record results and open matches land on either, each
/// match is opened once all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_run_one_tournament_each_match_opened_once() {
    let app = App::spawn_webhook().await;
    a_swiss_of_three(app, -7203, 72_031, None).await;
}
