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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_started_in_a_forum_topic_lives_there_and_another_topic_plays_its_own() {
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

    app.tg.send_command_in_topic(group, &a, "/newgame", first);
    let lobby = in_topic(&app, group, first, "j:").await;
    app.press(group, &b, lobby.message_id, &data(&lobby, "j:"))
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
        .expect("Bob is seated");
    let answer = app
        .press(group, &a, lobby.message_id, &data(&lobby, "s:"))
        .await;
    assert!(!answer.show_alert, "the start is refused: {answer:?}");
    for p in [&a, &b] {
        place_and_ready(&app, p).await;
    }
    let battle = in_topic(&app, group, first, "f:").await;
    let mut d = Duel::from_battle(&battle, [a.clone(), b.clone()], group);

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
