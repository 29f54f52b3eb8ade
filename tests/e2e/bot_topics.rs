//! Forum topics (issue 28): a game started in a topic of a forum supergroup lives there —
//! its lobby, battle message, replies and end carry the topic's thread — and each topic has
//! a game of its own. The fake refuses sends to a closed General topic (`TOPIC_CLOSED`), as
//! Telegram does, so a send that forgot its thread shows as an error.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use std::time::Duration;

/// The bot's message in `group` with a button starting `prefix`, in topic `topic`.
async fn in_topic(app: &App, group: i64, topic: i32, prefix: &str) -> SentMessage {
    let prefix = prefix.to_owned();
    app.tg
        .wait_for(
            group,
            move |m| {
                m.thread == Some(topic) && m.callback_data().iter().any(|d| d.starts_with(&prefix))
            },
            wait(),
        )
        .await
        .unwrap_or_else(|| panic!("no message in topic {topic} of {group} with a button"))
}

/// A duel of `a` and `b` begun in topic `topic` of forum `group`: its lobby's message, and
/// the battle (both fleets placed).
async fn battle_in_topic(
    app: &App,
    group: i64,
    topic: i32,
    a: &teloxide::types::User,
    b: &teloxide::types::User,
) -> (SentMessage, Duel) {
    app.tg.send_command_in_topic(group, a, "/newgame", topic);
    let lobby = in_topic(app, group, topic, "j:").await;
    app.press(group, b, lobby.message_id, &data(&lobby, "j:"))
        .await;
    let second_seat = format!("2. {}", b.first_name);
    let lobby = app
        .tg
        .wait_for(
            group,
            |m| m.message_id == lobby.message_id && m.text.contains(&second_seat),
            wait(),
        )
        .await
        .expect("the second player is seated");
    let answer = app
        .press(group, a, lobby.message_id, &data(&lobby, "s:"))
        .await;
    assert!(!answer.show_alert, "the start is refused: {answer:?}");
    for p in [a, b] {
        place_and_ready(app, p).await;
    }
    let battle = in_topic(app, group, topic, "f:").await;
    (
        lobby,
        Duel::from_battle(&battle, [a.clone(), b.clone()], group),
    )
}

flow! {
    fn a_game_started_in_a_forum_topic_lives_there_and_another_topic_plays_its_own() {
        let app = App::spawn().await;
        let group = -1_002_800_001;
        app.tg.forum(group, "Sea dogs forum");
        let first = app.tg.create_topic(group);
        let second = app.tg.create_topic(group);
        // Every send that forgot its topic would be refused.
        app.tg.close_general(group, true);
        let a = app.player(28_001, "Alice", "en");
        let b = app.player(28_002, "Bob", "en");
        let c = app.player(28_003, "Clara", "en");
        for p in [&a, &b, &c] {
            app.welcomed(p).await;
        }

        let (lobby, mut d) = battle_in_topic(&app, group, first, &a, &b).await;

        // The topic has its game: a second /newgame there is refused, in that topic.
        app.tg.send_command_in_topic(group, &c, "/newgame", first);
        let refused = app
            .tg
            .wait_for(
                group,
                |m| m.text.contains("already going on in this topic"),
                wait(),
            )
            .await
            .expect("a second game in the topic is refused");
        assert_eq!(refused.thread, Some(first), "{}", refused.text);
        // Another topic of the same chat takes a game of its own meanwhile.
        app.tg.send_command_in_topic(group, &c, "/newgame", second);
        let other = in_topic(&app, group, second, "j:").await;
        assert_ne!(other.message_id, lobby.message_id);

        // The first topic's game is played to its end, there.
        let mut n = 0;
        while !d.is_over(&app) {
            n += 1;
            assert!(n < 600, "the game does not end");
            if d.shoot_button(&app).await == Shot::Over {
                break;
            }
        }
        let end = app
            .tg
            .wait_for(
                group,
                |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
                Duration::from_secs(120),
            )
            .await
            .expect("the end is announced");
        assert_eq!(
            end.thread,
            Some(first),
            "the end in the topic: {}",
            end.text
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
        for m in app.tg.messages(group) {
            assert!(
                m.thread == Some(first) || m.thread == Some(second),
                "a message outside the games' topics: {:?}",
                m.text
            );
        }
        assert!(app.tg.errors().is_empty(), "{:#?}", app.tg.errors());
    }
}

flow! {
    /// The topic of a game is closed by an admin mid-battle: the game is called off (nobody
    /// rated, the players free), each player is told in their private chat in their own language,
    /// nothing is left to send and nothing more goes to the topic; another topic of the group
    /// takes a game meanwhile, and the topic, reopened, takes a new one.
    fn a_topic_closed_mid_battle_calls_its_game_off_and_tells_the_players() {
        use morskoy_boy::store::Leaderboard;
        let app = App::spawn().await;
        let group = -1_002_800_002;
        app.tg.forum(group, "Closing forum");
        let first = app.tg.create_topic(group);
        let second = app.tg.create_topic(group);
        app.tg.close_general(group, true);
        let a = app.player(28_011, "Alisa", "ru");
        let b = app.player(28_012, "Boris", "bg");
        let admin = app.player(28_013, "Admin", "en");
        for p in [&a, &b] {
            app.welcomed(p).await;
        }
        let (_, mut d) = battle_in_topic(&app, group, first, &a, &b).await;
        for _ in 0..3 {
            d.shoot_button(&app).await;
        }
        let store = app.store().await;
        let in_first = |app: &App| {
            app.tg
                .messages(group)
                .into_iter()
                .filter(|m| m.thread == Some(first))
                .map(|m| (m.message_id, m.text.clone(), m.edits))
                .collect::<Vec<_>>()
        };

        app.tg.close_topic(group, first, true, &admin);
        // Each player is told, in their language.
        for (p, words) in [
            (&a, "тему в группе закрыли"),
            (&b, "темата ѝ в групата беше затворена"),
        ] {
            app.tg
                .wait_for(p.id.0 as i64, |m| m.text.contains(words), wait())
                .await
                .unwrap_or_else(|| {
                    panic!(
                        "{} is not told: {:?}",
                        p.first_name,
                        app.tg.messages(p.id.0 as i64)
                    )
                });
        }
        called_off(&app, d.game).await;
        let closed_at = in_first(&app);
        // A press on the old battle message changes nothing and sends nothing there.
        let answer = app
            .press(
                group,
                &d.players[d.turn],
                d.battle,
                &d.fire_data(d.turn, 99),
            )
            .await;
        assert_eq!(read_answer(&said(&answer)), Shot::Over, "{answer:?}");
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(in_first(&app), closed_at, "the closed topic got more");
        let ids = [a.id.0, b.id.0];
        for board in [Leaderboard::Chat(group), Leaderboard::People] {
            let ratings = store.ratings(board, &ids).await.unwrap();
            assert!(ratings.iter().all(Option::is_none), "{ratings:?}");
        }
        for u in ids {
            assert_eq!(store.user_game(u).await.unwrap(), None);
        }
        assert_eq!(store.chat_game(group, Some(first)).await.unwrap(), None);

        // The same players start a game in the other topic.
        let (_, other) = battle_in_topic(&app, group, second, &b, &a).await;
        assert_ne!(other.game, d.game);
        // The first topic, reopened, takes a new game.
        app.tg.close_topic(group, first, false, &admin);
        app.tg
            .send_command_in_topic(group, &admin, "/newgame", first);
        let _ = in_topic(&app, group, first, "j:").await;
        assert!(app.tg.errors().is_empty(), "{:#?}", app.tg.errors());
    }
}

/// A topic deleted mid-battle (Telegram says nothing, and its messages go with it), in a game
/// against the bot at its real pause: the bot's next move finds no message to draw on, and
/// the game is called off as for a closed topic, the player told; the sender does not try
/// again and again, and another topic plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_topic_deleted_mid_battle_calls_its_game_off_at_the_next_move() {
    let app = App::spawn_at_ai_pause(1200).await;
    let group = -1_002_800_003;
    app.tg.forum(group, "Deleting forum");
    let first = app.tg.create_topic(group);
    let second = app.tg.create_topic(group);
    app.tg.close_general(group, true);
    let alice = app.player(28_021, "Alice", "en");
    app.welcomed(&alice).await;
    app.tg
        .send_command_in_topic(group, &alice, "/newgame", first);
    let lobby = in_topic(&app, group, first, "b:").await;
    let seated = app
        .press(group, &alice, lobby.message_id, &data(&lobby, "b:"))
        .await;
    assert!(!seated.show_alert, "{seated:?}");
    let started = app
        .press(group, &alice, lobby.message_id, &data(&lobby, "s:"))
        .await;
    assert!(!started.show_alert, "{started:?}");
    place_and_ready(&app, &alice).await;
    let battle = in_topic(&app, group, first, "f:").await;
    let d = Duel::from_battle(&battle, [alice.clone(), alice.clone()], group);
    // Alice shoots until she misses: the bot's turn comes, at its pause.
    let mut next = 0;
    loop {
        let answer = app
            .press(group, &alice, battle.message_id, &d.fire_data(0, next))
            .await;
        match read_answer(&said(&answer)) {
            Shot::Miss => break,
            Shot::Hit | Shot::Sunk | Shot::Known => next += 1,
            Shot::NotYourTurn => tokio::time::sleep(Duration::from_millis(50)).await,
            Shot::Over => panic!("the game ended before a miss"),
        }
    }
    app.tg.delete_topic(group, first);
    app.tg
        .wait_for(
            alice.id.0 as i64,
            |m| {
                m.text
                    .contains("its topic in the group was closed or deleted")
            },
            wait(),
        )
        .await
        .unwrap_or_else(|| panic!("Alice is not told: {:?}", app.tg.errors()));
    called_off(&app, d.game).await;
    let store = app.store().await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let refusals = app.tg.errors().len();
    assert!(
        refusals <= 2,
        "the sender kept trying: {:#?}",
        app.tg.errors()
    );
    assert_eq!(store.user_game(alice.id.0).await.unwrap(), None);
    app.tg
        .send_command_in_topic(group, &alice, "/newgame", second);
    let _ = in_topic(&app, group, second, "j:").await;
}

flow! {
    /// Two games at once in two topics of one forum, at Telegram's pace for a group (the bot's
    /// default budget of 20 sends and edits a minute, shared by the chat's topics), fast play
    /// to both ends: each game's every message is in its own topic, the two together never
    /// take more than 20 a minute, and Telegram never had to say 429.
    fn two_games_in_two_topics_share_the_groups_budget_and_keep_to_their_topics() {
        let app = App::spawn_with(300, None).await;
        let group = -1_002_800_004;
        app.tg.forum(group, "Busy forum");
        let first = app.tg.create_topic(group);
        let second = app.tg.create_topic(group);
        app.tg.close_general(group, true);
        let players: Vec<_> = [
            ("Alice", 28_031),
            ("Bob", 28_032),
            ("Carol", 28_033),
            ("Dave", 28_034),
        ]
        .into_iter()
        .map(|(name, id)| app.player(id, name, "en"))
        .collect();
        for p in &players {
            app.welcomed(p).await;
        }
        let (_, mut one) = battle_in_topic(&app, group, first, &players[0], &players[1]).await;
        let (_, mut two) = battle_in_topic(&app, group, second, &players[2], &players[3]).await;
        let mut over = [false, false];
        let mut n = 0;
        while !over.iter().all(|&o| o) {
            n += 1;
            assert!(n < 1200, "the games do not end");
            for (i, d) in [&mut one, &mut two].into_iter().enumerate() {
                if !over[i] && d.shoot_button(&app).await == Shot::Over {
                    over[i] = true;
                }
            }
        }
        for (d, topic) in [(&one, first), (&two, second)] {
            let end = app
                .tg
                .wait_for(
                    group,
                    |m| {
                        m.callback_data()
                            .iter()
                            .any(|c| c == &format!("r:{}", d.game))
                    },
                    Duration::from_secs(180),
                )
                .await
                .expect("the end is announced");
            assert_eq!(end.thread, Some(topic), "{}", end.text);
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        // Each game's messages in its topic: a message naming a game's buttons is in its topic,
        // and none is outside the two.
        for m in app.tg.messages(group) {
            let of = |d: &Duel| {
                m.callback_data()
                    .iter()
                    .any(|c| c.split(':').nth(1) == Some(&d.game.to_string()))
            };
            if of(&one) {
                assert_eq!(m.thread, Some(first), "{}", m.text);
            }
            if of(&two) {
                assert_eq!(m.thread, Some(second), "{}", m.text);
            }
            assert!(
                m.thread == Some(first) || m.thread == Some(second),
                "{}",
                m.text
            );
        }
        let most = app.tg.max_per_minute(group);
        assert!(most <= 20, "{most} sends and edits in a minute");
        assert!(
            !app.tg.errors().iter().any(|e| e.status == 429),
            "{:#?}",
            app.tg.errors()
        );
    }
}

flow! {
    /// `/settings` in a forum where the bot may manage topics offers "a topic of its own for
    /// each game" (and does not where it may not); on, `/newgame` in General opens a topic for
    /// the game, named after its creator, then after its players when the battle begins; the
    /// whole game is played there, the topic is closed at the end, and a rematch opens it again.
    fn a_forum_can_give_each_game_a_topic_of_its_own_closed_at_its_end() {
        let app = App::spawn().await;
        let group = -1_002_800_005;
        app.tg.forum(group, "Own topics");
        let a = app.player(28_041, "Alice", "en");
        let b = app.player(28_042, "Bob", "en");
        for p in [&a, &b] {
            app.welcomed(p).await;
        }
        let option = "A topic of its own";
        // Not an administrator: no such option.
        app.tg.send_command(group, &a, "/settings");
        let panel = app.message_with_button(group, "o:").await;
        assert!(panel.button(option).is_none(), "{:?}", panel.buttons());
        app.tg
            .set_member_status(group, crate::fake_telegram::BOT_ID, "administrator");
        app.tg.send_command(group, &a, "/settings");
        let panel = app
            .tg
            .wait_for(
                group,
                |m| m.message_id != panel.message_id && m.button(option).is_some(),
                wait(),
            )
            .await
            .expect("the option, the bot an administrator of a forum");
        let on = panel.button(option).unwrap();
        app.press(group, &a, panel.message_id, &on).await;
        app.tg
            .wait_for(
                group,
                |m| {
                    m.message_id == panel.message_id
                        && m.buttons()
                            .iter()
                            .flatten()
                            .any(|(t, _)| t.starts_with("✓") && t.contains(option))
                },
                wait(),
            )
            .await
            .expect("the option ticked");

        let before = app.tg.topics(group);
        app.tg.send_command(group, &a, "/newgame");
        let word = app
            .tg
            .wait_for(group, |m| m.text.contains("in a topic of its own"), wait())
            .await
            .expect("a word where the game was asked for");
        assert_eq!(word.thread, None, "the word goes where /newgame was sent");
        let topic = app
            .tg
            .topics(group)
            .into_iter()
            .find(|t| !before.contains(t))
            .expect("a new topic");
        assert_eq!(
            app.tg.topic(group, topic),
            Some((Some("⚓ Sea Battle: Alice".to_owned()), false))
        );
        let lobby = in_topic(&app, group, topic, "j:").await;
        app.press(group, &b, lobby.message_id, &data(&lobby, "j:"))
            .await;
        let seated = format!("2. {}", b.first_name);
        app.tg
            .wait_for(
                group,
                |m| m.message_id == lobby.message_id && m.text.contains(&seated),
                wait(),
            )
            .await
            .expect("Bob is seated");
        app.press(group, &a, lobby.message_id, &data(&lobby, "s:"))
            .await;
        for p in [&a, &b] {
            place_and_ready(&app, p).await;
        }
        let battle = in_topic(&app, group, topic, "f:").await;
        let mut d = Duel::from_battle(&battle, [a.clone(), b.clone()], group);
        let renamed = |app: &App| app.tg.topic(group, topic).and_then(|t| t.0);
        let deadline = tokio::time::Instant::now() + wait();
        while renamed(&app).as_deref() != Some("⚓ Alice — Bob") {
            assert!(
                tokio::time::Instant::now() < deadline,
                "not renamed after the players: {:?}",
                renamed(&app)
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        play_out(&app, &mut d).await;
        let end = app
            .tg
            .wait_for(
                group,
                |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
                wait(),
            )
            .await
            .expect("the end");
        assert_eq!(end.thread, Some(topic));
        let deadline = tokio::time::Instant::now() + wait();
        while app.tg.topic(group, topic).map(|t| t.1) != Some(true) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the topic is not closed at the end"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Every message of the game is in its topic.
        for m in app.tg.messages(group) {
            if m.callback_data()
                .iter()
                .any(|c| c.split(':').nth(1) == Some(&d.game.to_string()))
            {
                assert_eq!(m.thread, Some(topic), "{}", m.text);
            }
        }
        // A rematch opens the topic again, and plays there.
        let rematch = data(&end, "r:");
        let answer = app.press(group, &a, end.message_id, &rematch).await;
        assert!(!answer.show_alert, "{answer:?}");
        let again = app
            .tg
            .wait_for(
                group,
                |m| {
                    m.message_id > end.message_id
                        && m.callback_data()
                            .iter()
                            .any(|c| c.starts_with("j:") || c.starts_with("s:"))
                },
                wait(),
            )
            .await
            .expect("the rematch's lobby");
        assert_eq!(again.thread, Some(topic));
        assert_eq!(app.tg.topic(group, topic).map(|t| t.1), Some(false));
        assert!(app.tg.errors().is_empty(), "{:#?}", app.tg.errors());
    }
}
