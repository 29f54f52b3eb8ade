//! End to end, the fields as pictures (issue 14): the group's battle message is a PNG with the
//! turn and the latest results in its caption and the shooter's keyboard under it, redrawn by
//! editMessageMedia within the group's budget; each player's own field is a picture too; a
//! chat that chooses text in `/settings` sees text.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use engine::Size;
use morskoy_boy::game::record::Board;
use morskoy_boy::view::picture::picture_size;

/// The size the renderer gives `n` classic fields.
fn expected_size(n: usize) -> (u32, u32) {
    let views = empty_views(n, Size::new(10, 10));
    picture_size(&plain_panels(&views, "Alice"))
}

/// Every picture a message showed: decodes, has the expected size, and is at most 60 KB.
fn check_pictures(m: &SentMessage, expected: (u32, u32)) {
    assert!(!m.photos.is_empty(), "no picture in {}", m.text);
    for (i, png) in m.photos.iter().enumerate() {
        let (w, h, _) = decode_png(png);
        assert_eq!((w, h), expected, "picture {i} of message {}", m.message_id);
        assert!(png.len() <= 60 * 1024, "picture {i}: {} bytes", png.len());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_game_is_drawn_as_pictures_with_the_keyboard_under_them() {
    let app = App::spawn().await;
    let a = app.player(14_001, "Alice", "en");
    let b = app.player(14_002, "Bob", "en");
    // Bob reads text: his private chat chose it, and his own field follows his choice.
    app.set_board(14_002, Board::Text).await;
    let mut d = duel(&app, -14_001, a, b).await;
    let battle = app
        .tg
        .messages(d.group)
        .into_iter()
        .find(|m| m.message_id == d.battle)
        .unwrap();
    assert!(battle.photo.is_some(), "the battle message is a picture");
    assert!(battle.text.contains("Turn: "), "{}", battle.text);
    assert!(
        !battle.text.contains(" A B C"),
        "no text board: {}",
        battle.text
    );
    let buttons: usize = battle.buttons().iter().map(Vec::len).sum();
    assert!(buttons > 0 && buttons <= 100);
    // Each result is shown in the caption under a new picture.
    let mut shots = 0;
    while !d.is_over(&app) && shots < 12 {
        let seat = d.turn;
        let Some(cell) = d.next_cell(seat) else { break };
        let pictures = app
            .tg
            .messages(d.group)
            .into_iter()
            .find(|m| m.message_id == d.battle)
            .map_or(0, |m| m.photos.len());
        let shot = d.shoot_button(&app).await;
        if !matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk) {
            continue;
        }
        shots += 1;
        let name = format!("{}{}", char::from(b'A' + (cell % 10) as u8), cell / 10 + 1);
        let line = format!("{}: {name} — ", d.players[seat].first_name);
        let shown = app
            .tg
            .wait_for(
                d.group,
                |m| m.message_id == d.battle && m.text.contains(&line) && m.photos.len() > pictures,
                wait(),
            )
            .await
            .unwrap_or_else(|| panic!("{name} is not drawn"));
        assert!(shown.photo.is_some());
    }
    assert!(app.tg.calls("editMessageMedia") > 0, "redrawn as pictures");
    play_out(&app, &mut d).await;
    let end = app
        .tg
        .wait_for(
            d.group,
            |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced");
    let done = app
        .tg
        .wait_for(
            d.group,
            |m| m.message_id == d.battle && !m.has_keyboard(),
            wait(),
        )
        .await
        .expect("the battle message shows the end");
    // The final picture reveals the fleets; the end's words repeat no field.
    check_pictures(&done, expected_size(2));
    assert!(done.photos.len() >= 3, "{} pictures", done.photos.len());
    assert_ne!(done.photos.first(), done.photos.last());
    assert!(done.text.contains("Winner"), "{}", done.text);
    assert!(end.photo.is_none());
    assert!(!end.raw_text.contains("<pre>"), "{}", end.raw_text);
    // Every caption fit. (The group's budget with pictures, at Telegram's pace, is held by
    // `bot.rs`'s `however_fast_players_shoot_the_group_gets_at_most_twenty_messages_a_minute`,
    // which plays in pictures, the default; this app runs at the tests' faster pace.)
    for m in app.tg.messages(d.group) {
        for v in &m.versions {
            assert!(v.encode_utf16().count() <= 4096);
        }
        if m.photo.is_some() {
            assert!(m.versions.iter().all(|v| v.encode_utf16().count() <= 1024));
        }
    }
    let bob = app
        .tg
        .wait_for(
            14_002,
            |m| m.text.contains("Your fleet") && m.text.contains("over"),
            wait(),
        )
        .await
        .expect("Bob's own field");
    assert!(
        bob.photo.is_none() && bob.text.contains(" A B C D"),
        "{}",
        bob.text
    );
    // Alice's own field is a picture of one field; the placement's message points to it.
    for p in &d.players[..1] {
        let chat = p.id.0 as i64;
        let own = app
            .tg
            .wait_for(
                chat,
                |m| m.photo.is_some() && m.text.contains("over"),
                wait(),
            )
            .await
            .unwrap_or_else(|| panic!("{}: {:?}", p.first_name, app.tg.all_texts(chat)));
        assert!(own.text.contains("Your fleet"), "{}", own.text);
        check_pictures(&own, expected_size(1));
        let placement = app
            .tg
            .messages(chat)
            .into_iter()
            .find(|m| {
                m.history
                    .iter()
                    .any(|s| s.data.iter().any(|c| c.starts_with("pe:")))
            })
            .expect("the placement message");
        assert!(!placement.has_keyboard());
        assert!(
            placement.text.contains("picture below"),
            "{}",
            placement.text
        );
    }
    let errors = app.tg.errors();
    assert!(errors.is_empty(), "errors in a happy game: {errors:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_that_chooses_text_sees_the_fields_as_text() {
    let app = App::spawn().await;
    let a = app.player(14_011, "Alice", "en");
    let b = app.player(14_012, "Bob", "en");
    let group = -14_011;
    app.tg.group(group, "Readers");
    app.welcomed(&a).await;
    app.tg.send_command(group, &a, "/settings");
    let panel = app.message_with_button(group, "a:").await;
    assert!(
        panel.text.contains("Fields: 🖼 as a picture"),
        "{}",
        panel.text
    );
    let text = panel.button("as text").expect("a text button");
    let answer = app.press(group, &b, panel.message_id, &text).await;
    assert!(said(&answer).contains("as text"), "{answer:?}");
    app.tg
        .wait_for(
            group,
            |m| m.message_id == panel.message_id && m.text.contains("Fields: 🔤 as text"),
            wait(),
        )
        .await
        .expect("the panel shows the choice");
    let mut d = duel(&app, group, a, b).await;
    let battle = app
        .tg
        .messages(group)
        .into_iter()
        .find(|m| m.message_id == d.battle)
        .unwrap();
    assert!(battle.photo.is_none());
    assert!(
        battle.text.contains(" A B C D E F G H I J"),
        "{}",
        battle.text
    );
    d.shoot_button(&app).await;
    play_out(&app, &mut d).await;
    app.tg
        .wait_for(
            group,
            |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced");
    assert_eq!(
        app.tg.calls("sendPhoto") + app.tg.calls("editMessageMedia"),
        0
    );
    for p in &d.players {
        let chat = p.id.0 as i64;
        app.tg
            .wait_for(
                chat,
                |m| m.text.contains("Your fleet") && m.text.contains(" A B C"),
                wait(),
            )
            .await
            .expect("the own field is text");
    }
}
