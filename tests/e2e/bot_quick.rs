//! The quick match (`/find`): strangers paired from the queue play a duel in their private
//! chats, each on their own board; the refusals; the bot offered to one left alone.

use crate::helpers::*;
use morskoy_boy::store::Leaderboard;
use std::time::Duration;

flow! {
    fn two_strangers_find_each_other_and_play_their_duel_in_private_chats() {
        let app = App::spawn().await;
        let ann = app.player(75_001, "Ann", "en");
        let ben = app.player(75_002, "Ben", "en");
        for p in [&ann, &ben] {
            app.welcomed(p).await;
        }
        // Ann looks first: she waits, told how many wait, with a button to stop.
        app.tg.send_command(75_001, &ann, "/find");
        let waiting = app.message_with_button(75_001, "fx").await;
        assert!(waiting.text.contains("Looking for an opponent"), "{}", waiting.text);
        assert!(waiting.text.contains("only one waiting"), "{}", waiting.text);
        // Twice: refused in words, still one in the queue.
        app.tg.send_command(75_001, &ann, "/find");
        app.tg
            .wait_for_text(75_001, "looking for an opponent already", wait())
            .await
            .expect("the second /find's answer");
        // Ben comes by the welcome's button: they are paired, each told whom they play and
        // the other's rating.
        let welcome = app.message_with_button(75_002, "fs").await;
        let a = app.press(75_002, &ben, welcome.message_id, "fs").await;
        assert!(!a.show_alert, "{a:?}");
        for (chat, other) in [(75_001, "Ben"), (75_002, "Ann")] {
            app.tg
                .wait_for_text(chat, &format!("Found: {other} (rating 1000)"), wait())
                .await
                .unwrap_or_else(|| panic!("{chat} is not told: {:?}", app.tg.all_texts(chat)));
        }
        let store = app.store().await;
        let (queue, _) = store.quick_queue().await.unwrap();
        assert!(queue.waiting.is_empty() && queue.paired.is_empty(), "{queue:?}");
        place_and_ready(&app, &ann).await;
        place_and_ready(&app, &ben).await;
        // The grid is on the shooter's own board, in their private chat; the other's board
        // has none.
        let with_grid = |chat: i64| {
            app.tg
                .messages(chat)
                .into_iter()
                .rev()
                .find(|m| m.callback_data().iter().any(|d| d.starts_with("f:")))
        };
        let deadline = tokio::time::Instant::now() + wait();
        let (shooter, other, board) = loop {
            if let Some(m) = with_grid(75_001) {
                break (ann.clone(), ben.clone(), m);
            }
            if let Some(m) = with_grid(75_002) {
                break (ben.clone(), ann.clone(), m);
            }
            assert!(tokio::time::Instant::now() < deadline, "no board with a grid");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert!(board.text.contains("Your fleet"), "{}", board.text);
        let fire = data(&board, "f:");
        let shooter_chat = shooter.id.0 as i64;
        let other_chat = other.id.0 as i64;
        // The other, pressing the shooter's grid data on their own board, is refused.
        let own = app.tg.last_message(other_chat).unwrap();
        let a = app.press(other_chat, &other, own.message_id, &fire).await;
        assert!(a.show_alert, "{a:?}");
        // The shooter shoots from their board: answered, and the other's board shows it.
        let before = app.tg.messages(other_chat).iter().map(|m| m.edits).sum::<usize>();
        let a = app.press(shooter_chat, &shooter, board.message_id, &fire).await;
        assert!(!a.show_alert, "{a:?}");
        let deadline = tokio::time::Instant::now() + wait();
        while app.tg.messages(other_chat).iter().map(|m| m.edits).sum::<usize>() == before {
            assert!(tokio::time::Instant::now() < deadline, "the other's board not redrawn");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // The one not to move reacts from their board (no free text passes): the other gets
        // it, once a minute.
        let reacts = |m: &crate::fake_telegram::SentMessage| {
            m.callback_data().iter().any(|d| d.starts_with("re:"))
        };
        let deadline = tokio::time::Instant::now() + wait();
        let (who, to, board) = loop {
            if let Some(m) = app.tg.last_message(other_chat).filter(reacts) {
                break (other.clone(), shooter_chat, m);
            }
            if let Some(m) = app.tg.last_message(shooter_chat).filter(reacts) {
                break (shooter.clone(), other_chat, m);
            }
            assert!(tokio::time::Instant::now() < deadline, "no reactions on a board");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let thumbs = data(&board, "re:");
        let from = who.id.0 as i64;
        let a = app.press(from, &who, board.message_id, &thumbs).await;
        assert!(!a.show_alert, "{a:?}");
        app.tg
            .wait_for_text(to, &format!("{}: 👍", who.first_name), wait())
            .await
            .expect("the reaction");
        let a = app.press(from, &who, board.message_id, &thumbs).await;
        assert!(said(&a).contains("already"), "{a:?}");
        // The other gives up: both are told the end, and the duel is rated among everyone,
        // once.
        app.tg.send_command(other_chat, &other, "/surrender");
        for chat in [shooter_chat, other_chat] {
            app.tg
                .wait_for_text(chat, &format!("Winner: {}", shooter.first_name), wait())
                .await
                .unwrap_or_else(|| panic!("no end in {chat}: {:?}", app.tg.all_texts(chat)));
        }
        tokio::time::sleep(Duration::from_secs(5)).await;
        let ratings = store
            .ratings(Leaderboard::People, &[ann.id.0, ben.id.0])
            .await
            .unwrap();
        for r in &ratings {
            assert_eq!(r.map(|r| r.games), Some(1), "{ratings:?}");
        }
        // The loser blocks the winner from the final board: they look again, and are never
        // paired, however long they wait.
        let end = app
            .tg
            .wait_for(other_chat, |m| m.callback_data().iter().any(|d| d.starts_with("bl:")), wait())
            .await
            .expect("Block on the final board");
        let a = app
            .press(other_chat, &other, end.message_id, &data(&end, "bl:"))
            .await;
        assert!(!a.show_alert, "{a:?}");
        app.tg.send_command(shooter_chat, &shooter, "/find");
        app.tg.send_command(other_chat, &other, "/find");
        tokio::time::sleep(Duration::from_secs(90)).await;
        let (queue, _) = store.quick_queue().await.unwrap();
        assert_eq!(queue.waiting.len(), 2, "{queue:?}");
        assert!(queue.paired.is_empty(), "{queue:?}");
        assert_no_4xx(&app);
    }
}

flow! {
    fn alone_in_the_queue_one_is_offered_the_bot_after_a_minute_and_may_stop_looking() {
        let app = App::spawn().await;
        let cid = app.player(75_011, "Cid", "en");
        app.welcomed(&cid).await;
        app.tg.group(-75_011, "Lounge");
        app.tg.send_command(-75_011, &cid, "/find");
        app.tg
            .wait_for_text(-75_011, "send /find there", wait())
            .await
            .expect("/find in a group is answered in words");
        app.tg.send_command(75_011, &cid, "/find");
        let waiting = app.message_with_button(75_011, "fx").await;
        tokio::time::sleep(Duration::from_secs(61)).await;
        let offer = app
            .tg
            .wait_for_text(75_011, "Nobody has come for a minute", wait())
            .await
            .expect("the bot offered");
        // At about the player's level: a newcomer's 1000 is nearest the easy bot's.
        assert!(offer.text.ends_with("/play easy"), "{}", offer.text);
        tokio::time::sleep(Duration::from_secs(60)).await;
        let offers = app
            .tg
            .all_texts(75_011)
            .iter()
            .filter(|t| t.contains("Nobody has come"))
            .count();
        assert_eq!(offers, 1, "offered once");
        let a = app.press(75_011, &cid, waiting.message_id, "fx").await;
        assert!(!a.show_alert, "{a:?}");
        app.tg
            .wait_for(
                75_011,
                |m| m.message_id == waiting.message_id && m.text.contains("stopped looking"),
                wait(),
            )
            .await
            .expect("the waiting message says so");
        let a = app.press(75_011, &cid, waiting.message_id, "fx").await;
        assert!(a.show_alert, "{a:?}");
        let (queue, _) = app.store().await.quick_queue().await.unwrap();
        assert!(queue.waiting.is_empty(), "{queue:?}");
    }
}

/// Two look for a match with the bot killing itself (`kill -9`) once their pair has its
/// game's id and before the game is made; started again, its beat opens the duel: once,
/// each told once whom they play, nobody left in the queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_while_a_pair_is_opened_the_duel_opens_once() {
    let mut app = App::spawn().await;
    let ann = app.player(75_021, "Ann", "en");
    let ben = app.player(75_022, "Ben", "en");
    for p in [&ann, &ben] {
        app.welcomed(p).await;
    }
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "quick-paired".into()));
    app.start_bot().await;
    app.tg.send_command(75_021, &ann, "/find");
    app.message_with_button(75_021, "fx").await;
    app.tg.send_command(75_022, &ben, "/find");
    wait_for_the_crash(&mut app).await;
    app.restart_bot().await;
    for (chat, other) in [(75_021, "Ben"), (75_022, "Ann")] {
        app.tg
            .wait_for_text(chat, &format!("Found: {other}"), wait())
            .await
            .unwrap_or_else(|| panic!("{chat} is not told: {:?}", app.tg.all_texts(chat)));
    }
    // Both get the fleet's editor, once; nobody is told twice.
    for p in [&ann, &ben] {
        place_and_ready(&app, p).await;
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    for chat in [75_021, 75_022] {
        let texts = app.tg.all_texts(chat);
        let found = texts.iter().filter(|t| t.contains("Found:")).count();
        assert_eq!(found, 1, "{texts:?}");
        let editors = app
            .tg
            .messages(chat)
            .iter()
            .filter(|m| m.versions.iter().any(|v| v.contains("Still to place")))
            .count();
        assert_eq!(editors, 1, "{texts:?}");
    }
    let (queue, _) = app.store().await.quick_queue().await.unwrap();
    assert!(
        queue.waiting.is_empty() && queue.paired.is_empty(),
        "{queue:?}"
    );
    assert_no_4xx(&app);
}

/// Six people look for a match at once through two replicas behind one webhook, one Redis:
/// three duels, each person in exactly one, paired by rating first (their ratings among
/// everyone set beforehand: 1000, 1010, 1500, 1520, 2000, 2090).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_look_at_once_through_two_replicas_and_make_three_duels_by_rating() {
    use morskoy_boy::game::record::RatingWrite;
    let app = App::spawn_webhook().await;
    let ratings = [2090, 1010, 1500, 2000, 1000, 1520];
    let players: Vec<_> = ratings
        .iter()
        .enumerate()
        .map(|(i, _)| app.player(75_031 + i as i64, &format!("P{i}"), "en"))
        .collect();
    let store = app.store().await;
    let writes: Vec<RatingWrite> = players
        .iter()
        .zip(ratings)
        .map(|(p, shown)| RatingWrite {
            board: Leaderboard::People,
            seat: 0,
            user: p.id.0,
            // mu − 3·sigma = (shown − 1000) / 40, with sigma 1.
            value: format!(
                "{}|1|3|{}",
                (shown - 1000) as f64 / 40.0 + 3.0,
                p.first_name
            ),
            before: 1000,
            after: shown,
        })
        .collect();
    store
        .set_ratings(Leaderboard::People, &writes)
        .await
        .unwrap();
    for p in &players {
        app.welcomed(p).await;
    }
    for p in &players {
        app.tg.send_command(p.id.0 as i64, p, "/find");
    }
    // Each is told once whom they play: the one of the nearest rating.
    let rating_of = |name: &str| ratings[name[1..].parse::<usize>().unwrap()];
    let mut pairs = Vec::new();
    for (p, mine) in players.iter().zip(ratings) {
        let chat = p.id.0 as i64;
        let found = app
            .tg
            .wait_for_text(chat, "Found: ", wait())
            .await
            .unwrap_or_else(|| panic!("{} unpaired: {:?}", p.first_name, app.tg.all_texts(chat)));
        let other = found.text["⚔\u{fe0f} Found: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .to_owned();
        let theirs = rating_of(&other);
        pairs.push((mine.min(theirs), mine.max(theirs)));
        let told = app
            .tg
            .all_texts(chat)
            .iter()
            .filter(|t| t.contains("Found: "))
            .count();
        assert_eq!(told, 1, "{}", p.first_name);
    }
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs, vec![(1000, 1010), (1500, 1520), (2000, 2090)]);
    let (queue, _) = store.quick_queue().await.unwrap();
    assert!(
        queue.waiting.is_empty() && queue.paired.is_empty(),
        "{queue:?}"
    );
}
