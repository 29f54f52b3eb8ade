//! End to end: the real bot binary, a real Redis, and a fake Telegram that answers like the
//! real one (limits and errors included).

use crate::helpers::*;
use morskoy_boy::game::record::Board;
use std::time::Duration;

flow! {
    fn a_whole_classic_game_in_a_group_by_buttons_and_typed_replies() {
        let app = App::spawn().await;
        let a = app.player(1001, "Alice", "en");
        let b = app.player(1002, "Bob", "en");
        let mut d = duel(&app, -5001, a, b).await;
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
        // Both fleets revealed with the texts that check their commitments (no empty mines
        // part in a game without mines), a rematch offered.
        assert_eq!(end.text.matches("ships=").count(), 2, "{}", end.text);
        assert!(!end.text.contains("mines="), "{}", end.text);
        assert!(end.callback_data().iter().any(|c| c.starts_with("r:")));
        // Each player's own field in the private chat shows the enemy's shots.
        for p in &d.players {
            let own = app
                .tg
                .wait_for(
                    p.id.0 as i64,
                    |m| m.text.contains("Your fleet") && m.text.contains("over"),
                    wait(),
                )
                .await;
            assert!(
                own.is_some(),
                "the private field of {} is not final: {:?}",
                p.first_name,
                app.tg.all_texts(p.id.0 as i64)
            );
        }
        assert_no_unhit_ship_shown_before_the_end(&app, d.group);
        let errors = app.tg.errors();
        assert!(
            errors.is_empty(),
            "the fake answered errors in a happy game: {errors:?}"
        );
    }
}

flow! {
    fn a_third_users_taps_are_refused_and_change_nothing() {
        let app = App::spawn().await;
        let a = app.player(2001, "Alice", "en");
        let b = app.player(2002, "Bob", "en");
        let c = app.player(2003, "Carol", "en");
        let mut d = duel(&app, -5002, a, b).await;
        let data = d.fire_data(d.turn, 0);
        let answer = app.press(d.group, &c, d.battle, &data).await;
        assert!(said(&answer).contains("not playing"), "{answer:?}");
        assert!(answer.show_alert);
        // The cell is still free: the player to move shoots it.
        let shot = d.shoot_button(&app).await;
        assert!(
            matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk),
            "{shot:?}"
        );
        // The player not to move is refused too.
        let other = 1 - d.turn;
        let answer = app
            .press(
                d.group,
                &d.players[other].clone(),
                d.battle,
                &d.fire_data(other, 99),
            )
            .await;
        assert_eq!(read_answer(&said(&answer)), Shot::NotYourTurn);
    }
}

flow! {
    fn a_player_who_never_started_the_bot_joins_through_the_deep_link() {
        let app = App::spawn().await;
        let a = app.player(3001, "Alice", "en");
        let b = app.tg.user(3002, "Bob", "en");
        app.tg.group(-5003, "Harbour");
        let (lobby, join) = open_lobby(&app, -5003, &a).await;
        let answer = app.press(-5003, &b, lobby.message_id, &join).await;
        let url = answer.url.clone().expect("a deep link to the private chat");
        assert!(
            url.starts_with("https://t.me/morskoy_test_bot?start=j"),
            "{url}"
        );
        let payload = url.split("start=").nth(1).unwrap();
        app.tg.send_command(3002, &b, &format!("/start {payload}"));
        app.tg
            .wait_for_text(3002, "You are in the game", wait())
            .await
            .expect("the join completes in the private chat");
        app.tg
            .wait_for(
                -5003,
                |m| m.message_id == lobby.message_id && m.text.contains("Bob"),
                wait(),
            )
            .await
            .expect("the lobby shows Bob");
        // Carol never opened the bot either, and the lobby is full now: she is told so at
        // once, with no detour through the private chat.
        let carol = app.tg.user(3003, "Carol", "en");
        let answer = app.press(-5003, &carol, lobby.message_id, &join).await;
        assert_eq!(answer.url, None, "{answer:?}");
        assert!(answer.show_alert, "{answer:?}");
        assert_eq!(said(&answer), "all seats are taken.");
        // The bot never wrote to Bob before he opened the chat: no 403 at all.
        assert!(
            app.tg.errors().iter().all(|e| e.status != 403),
            "{:?}",
            app.tg.errors()
        );
    }
}

flow! {
    fn a_new_lobby_is_posted_with_its_first_seats_already_taken() {
        let app = App::spawn().await;
        let alice = app.player(3101, "Alice", "en");
        let bob = app.player(3102, "Bob", "en");
        let dan = app.tg.user(3103, "Dan", "en");
        for (group, title) in [(-5101, "Harbour"), (-5102, "Dock"), (-5103, "Pier")] {
            app.tg.group(group, title);
        }
        // A creator the bot may write to sits down at once; /play seats the bot too; one who
        // never opened the bot joins by the button like anyone.
        let (alice_lobby, _) = open_lobby(&app, -5101, &alice).await;
        app.welcomed(&bob).await;
        app.tg.send_command(-5102, &bob, "/play easy");
        let bob_lobby = app.message_with_button(-5102, "j:").await;
        app.tg.send_command(-5103, &dan, "/newgame");
        let dan_lobby = app.message_with_button(-5103, "j:").await;
        for (lobby, shown) in [
            (&alice_lobby, ["Players: 1 of 2", "1. Alice"].as_slice()),
            (&bob_lobby, &["Players: 2 of 2", "1. Bob", "2. 🤖"]),
            (&dan_lobby, &["Players: 0 of 2"]),
        ] {
            let first = &lobby.versions[0];
            for words in shown {
                assert!(first.contains(words), "{words:?} not in {first}");
            }
        }
        // Nothing was left to put right: no lobby was edited.
        tokio::time::sleep(Duration::from_millis(500)).await;
        for group in [-5101, -5102, -5103] {
            let texts = app.tg.all_texts(group);
            assert_eq!(texts.len(), 1, "{texts:?}");
        }
    }
}

flow! {
    fn a_double_tap_fires_once() {
        let app = App::spawn().await;
        let a = app.player(4001, "Alice", "en");
        let b = app.player(4002, "Bob", "en");
        let d = duel(&app, -5004, a, b).await;
        let seat = d.turn;
        let data = d.fire_data(seat, 55);
        let first = app
            .tg
            .press_stale(d.group, &d.players[seat], d.battle, &data);
        let second = app
            .tg
            .press_stale(d.group, &d.players[seat], d.battle, &data);
        let one = app.tg.wait_answer(&first, wait()).await.unwrap();
        let two = app.tg.wait_answer(&second, wait()).await.unwrap();
        let shots: Vec<Shot> = [one, two].iter().map(|a| read_answer(&said(a))).collect();
        let fired = shots
            .iter()
            .filter(|s| matches!(s, Shot::Miss | Shot::Hit | Shot::Sunk))
            .count();
        assert_eq!(fired, 1, "{shots:?}");
        let line = format!("{}: F6 — ", d.players[seat].first_name);
        let shown = app
            .tg
            .wait_for(
                d.group,
                |m| m.message_id == d.battle && m.text.contains(&line),
                wait(),
            )
            .await
            .unwrap();
        assert_eq!(shown.text.matches(&line).count(), 1, "{}", shown.text);
    }
}

flow! {
    fn a_stale_button_from_a_finished_game_changes_nothing() {
        let app = App::spawn().await;
        let a = app.player(5001, "Alice", "en");
        let b = app.player(5002, "Bob", "en");
        let mut d = duel(&app, -5005, a, b).await;
        d.shoot_button(&app).await;
        app.tg
            .send_command(d.group, &d.players[0].clone(), "/surrender");
        app.tg
            .wait_for_text(d.group, "Winner: Bob", wait())
            .await
            .expect("Bob wins");
        let battle = d.battle;
        app.tg
            .wait_for(
                d.group,
                |m| m.message_id == battle && !m.has_keyboard(),
                wait(),
            )
            .await
            .expect("the battle message loses its keyboard at the end");
        app.tg
            .wait_for(
                d.group,
                |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
                wait(),
            )
            .await
            .expect("the end is announced with a rematch button");
        tokio::time::sleep(Duration::from_millis(500)).await;
        let before = app.tg.all_texts(d.group).len();
        let answer = app
            .press(
                d.group,
                &d.players[1].clone(),
                d.battle,
                &d.fire_data(1, 77),
            )
            .await;
        assert!(said(&answer).contains("over"), "{answer:?}");
        let answer = app
            .press(d.group, &d.players[1].clone(), d.battle, "f:999999:0:0:1")
            .await;
        assert!(said(&answer).contains("over"), "{answer:?}");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            app.tg.all_texts(d.group).len(),
            before,
            "a stale tap changed a message"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_restarted_mid_battle_continues_the_game() {
    let mut app = App::spawn().await;
    let a = app.player(6001, "Alice", "en");
    let b = app.player(6002, "Bob", "en");
    let mut d = duel(&app, -5006, a, b).await;
    for _ in 0..15 {
        d.shoot_button(&app).await;
    }
    app.kill_bot();
    app.start_bot().await;
    // By buttons: each answer comes straight from the new process, whatever the old one
    // left half-drawn in the group.
    let mut n = 0;
    while !d.is_over(&app) {
        n += 1;
        assert!(n < 600, "the game does not end after the restart");
        if d.shoot_button(&app).await == Shot::Over {
            break;
        }
    }
    let end = app
        .tg
        .wait_for(
            d.group,
            |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced after the restart");
    assert!(end.message_id > d.battle);
    assert_no_unhit_ship_shown_before_the_end(&app, d.group);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_injected_429_loses_no_result() {
    let app = App::spawn().await;
    let a = app.player(7001, "Alice", "en");
    let b = app.player(7002, "Bob", "en");
    let mut d = duel(&app, -5007, a, b).await;
    app.tg.inject_429(d.group, 2, 1);
    let mut lines = Vec::new();
    for _ in 0..6 {
        let seat = d.turn;
        let cell = d.next_cell(seat).unwrap();
        let shot = d.shoot_button(&app).await;
        if matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk) {
            let name = format!("{}{}", char::from(b'A' + (cell % 10) as u8), cell / 10 + 1);
            lines.push((d.players[seat].first_name.clone(), name));
        }
    }
    let battle = d.battle;
    for (name, cell) in lines {
        let shown = app
            .tg
            .wait_for(
                d.group,
                |m| {
                    m.message_id == battle
                        && m.versions.iter().any(|v| shows_result(v, &name, &cell))
                },
                wait(),
            )
            .await;
        assert!(
            shown.is_some(),
            "the result {name}: {cell} never reached the group"
        );
    }
    assert!(app
        .tg
        .errors()
        .iter()
        .any(|e| e.status == 429 && e.injected));
}

flow! {
    fn commands_are_registered_for_ru_bg_and_the_default_with_descriptions() {
        let app = App::spawn().await;
        assert!(app.tg.wait_calls("setMyCommands", 6, wait()).await);
        let lists = app.tg.commands();
        for lang in ["ru", "bg", ""] {
            let mine: Vec<_> = lists.iter().filter(|l| l.1 == lang).collect();
            assert_eq!(mine.len(), 2, "{lang}: private and group lists");
            for l in mine {
                assert!(
                    l.2.iter().all(|(_, d)| !d.trim().is_empty()),
                    "{lang}: {l:?}"
                );
            }
        }
    }
}

flow! {
    fn however_fast_players_shoot_the_group_gets_at_most_twenty_messages_a_minute() {
        // Telegram's pace: the production gap between edits and budget of messages.
        let app = App::spawn_with_gap(3500).await;
        let a = app.player(8001, "Alice", "en");
        let b = app.player(8002, "Bob", "en");
        let mut d = duel(&app, -5008, a, b).await;
        let mut lines = Vec::new();
        while !d.is_over(&app) {
            let seat = d.turn;
            let Some(cell) = d.next_cell(seat) else { break };
            let shot = d.shoot_button(&app).await;
            if matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk) {
                let name = format!("{}{}", char::from(b'A' + (cell % 10) as u8), cell / 10 + 1);
                lines.push((d.players[seat].first_name.clone(), name));
            }
            if shot == Shot::Over {
                break;
            }
        }
        app.tg
            .wait_for(
                d.group,
                |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
                Duration::from_secs(90),
            )
            .await
            .expect("the end is announced");
        let battle = d.battle;
        app.tg
            .wait_for(
                d.group,
                |m| m.message_id == battle && !m.has_keyboard(),
                Duration::from_secs(90),
            )
            .await
            .expect("the battle message shows the end");
        // Every result reached the group: the latest in the battle message, coalesced into few
        // edits, and all of them in the end's log.
        let versions: Vec<String> = app
            .tg
            .messages(d.group)
            .into_iter()
            .filter(|m| m.message_id >= d.battle)
            .flat_map(|m| m.versions)
            .collect();
        for (name, cell) in &lines {
            let shown = versions.iter().any(|v| shows_result(v, name, cell));
            assert!(shown, "{name}: {cell} never reached the group");
        }
        let most = app.tg.max_per_minute(d.group);
        assert!(most <= 20, "{most} sends and edits in one minute");
        assert!(
            lines.len() > 2 * most,
            "{} shots, {most} messages: nothing was coalesced",
            lines.len()
        );
    }
}

flow! {
    fn the_placement_editor_places_by_two_ends_names_every_problem_and_undoes() {
        let app = App::spawn().await;
        let a = app.player(9001, "Alice", "en");
        let b = app.player(9002, "Bob", "en");
        app.tg.group(-5009, "Dock");
        let (lobby, join) = open_lobby(&app, -5009, &a).await;
        app.press(-5009, &b, lobby.message_id, &join).await;
        let start = lobby
            .callback_data()
            .into_iter()
            .find(|d| d.starts_with("s:"))
            .unwrap();
        app.tg
            .wait_for(
                -5009,
                |m| m.message_id == lobby.message_id && m.text.contains("2 of 2"),
                wait(),
            )
            .await
            .unwrap();
        app.press(-5009, &a, lobby.message_id, &start).await;
        let chat = 9001;
        let editor = app.message_with_button(chat, "pe:").await;
        let game = editor
            .callback_data()
            .into_iter()
            .find(|d| d.starts_with("pt:"))
            .unwrap();
        let game: u64 = game.split(':').nth(1).unwrap().parse().unwrap();
        // Any cell within two taps: the keyboard shows one half, a switch shows the other.
        assert!(editor.callback_data().contains(&format!("pt:{game}:0")));
        assert!(!editor.callback_data().contains(&format!("pt:{game}:9")));
        let switch = format!("pv:{game}:1");
        assert!(editor.callback_data().contains(&switch));
        for row in editor.buttons() {
            assert!(row.len() <= 8, "a row of {} buttons", row.len());
        }
        let tap = |idx: usize| format!("pt:{game}:{idx}");
        let id = editor.message_id;
        // A battleship from A1 to A4: two taps on its ends.
        let first = app.press(chat, &a, id, &tap(0)).await;
        assert!(said(&first).contains("other end"), "{first:?}");
        let placed = app.press(chat, &a, id, &tap(30)).await;
        assert!(said(&placed).contains("battleship"), "{placed:?}");
        // A torpedo boat at B5 touches it at a corner: the problem names ship, cell and rule.
        app.press(chat, &a, id, &tap(41)).await;
        let boat = app.press(chat, &a, id, &tap(41)).await;
        assert!(said(&boat).contains("torpedo boat"), "{boat:?}");
        app.tg
            .wait_for(
                chat,
                |m| {
                    m.message_id == id
                        && m.text
                            .contains("torpedo boat at B5: touches the battleship at a corner")
                },
                wait(),
            )
            .await
            .expect("the problem is named");
        // Ready is refused with the problem; nothing is locked.
        let ready = app.press(chat, &a, id, &format!("pe:{game}:k")).await;
        assert!(
            ready.show_alert && said(&ready).contains("touches"),
            "{ready:?}"
        );
        // Undo takes the boat back.
        app.press(chat, &a, id, &format!("pe:{game}:u")).await;
        app.tg
            .wait_for(
                chat,
                |m| m.message_id == id && !m.text.contains("touches"),
                wait(),
            )
            .await
            .expect("undo removes the problem");
        // The other half of the field.
        app.press(chat, &a, id, &switch).await;
        app.tg
            .wait_for(
                chat,
                |m| m.message_id == id && m.callback_data().contains(&format!("pt:{game}:9")),
                wait(),
            )
            .await
            .expect("the switch shows columns F–J");
        // Perelman's layout completes the fleet; Ready locks it.
        app.press(chat, &a, id, &format!("pe:{game}:p")).await;
        app.tg
            .wait_for(
                chat,
                |m| m.message_id == id && m.text.contains("complete"),
                wait(),
            )
            .await
            .expect("Perelman's layout is complete");
        let ready = app.press(chat, &a, id, &format!("pe:{game}:k")).await;
        assert!(said(&ready).contains("locked"), "{ready:?}");
        // The group sees that Alice is ready, never where.
        let shown = app
            .tg
            .wait_for(
                -5009,
                |m| m.message_id == lobby.message_id && m.text.contains("Alice — ready"),
                wait(),
            )
            .await
            .expect("the lobby shows who is ready");
        assert!(!shown.text.contains('O'), "{}", shown.text);
    }
}

flow! {
    /// The private `/help` tells the arsenal (docs/rules.md §3.8) in each language: its three
    /// weapons, where it is turned on, and how a weapon is tapped or typed; `/tournament`, `/find`.
    fn the_private_help_tells_the_arsenal_and_how_to_turn_it_on_in_three_languages() {
        let app = App::spawn().await;
        for (id, name, code, words) in [
            (
                9111,
                "Иван",
                "ru",
                [
                    "Арсенал",
                    "радар",
                    "авиаудар",
                    "торпеда",
                    "/settings",
                    "радар д5",
                    "/tournament",
                    "/find",
                ],
            ),
            (
                9112,
                "Мария",
                "bg",
                [
                    "Арсенал",
                    "радар",
                    "въздушен удар",
                    "торпедо",
                    "/settings",
                    "радар д5",
                    "/tournament",
                    "/find",
                ],
            ),
            (
                9113,
                "Alice",
                "en",
                [
                    "arsenal",
                    "radar",
                    "air strike",
                    "torpedo",
                    "/settings",
                    "radar e5",
                    "/tournament",
                    "/find",
                ],
            ),
        ] {
            let user = app.player(id, name, code);
            app.welcomed(&user).await;
            let last = app.tg.last_message(id).map_or(0, |m| m.message_id);
            app.tg.send_command(id, &user, "/help");
            let help = app
                .tg
                .wait_for(id, |m| m.message_id > last, wait())
                .await
                .unwrap_or_else(|| panic!("{code}: no help"));
            for w in words {
                assert!(
                    help.text.contains(w),
                    "{code}: the help lacks {w:?}: {}",
                    help.text
                );
            }
        }
    }
}

flow! {
    fn each_chat_speaks_its_language_and_lang_changes_it() {
        let app = App::spawn().await;
        let ivan = app.player(9101, "Иван", "ru");
        let maria = app.player(9102, "Мария", "bg");
        // Private chats follow Telegram's language code.
        app.tg.send_command(9101, &ivan, "/help");
        app.tg
            .wait_for_text(9101, "Морской бой", wait())
            .await
            .expect("Russian help");
        app.tg.send_command(9102, &maria, "/help");
        app.tg
            .wait_for_text(9102, "Морска битка", wait())
            .await
            .expect("Bulgarian help");
        // /lang switches a user to another language.
        app.tg.send_command(9101, &ivan, "/lang");
        let choose = app.message_with_button(9101, "l:").await;
        let answer = app.press(9101, &ivan, choose.message_id, "l:bg").await;
        assert!(said(&answer).contains("български"), "{answer:?}");
        // The menu keeps no buttons once a language is chosen.
        app.tg
            .wait_for(
                9101,
                |m| m.message_id == choose.message_id && !m.has_keyboard(),
                wait(),
            )
            .await
            .expect("the /lang menu loses its buttons");
        let before = app.tg.messages(9101).len();
        app.tg.send_command(9101, &ivan, "/help");
        let help = app
            .tg
            .wait_for(9101, |m| m.text.contains("Морска битка"), wait())
            .await
            .expect("Bulgarian after /lang");
        assert!(app.tg.messages(9101).len() > before && help.text.contains("Играя"));
        // A group speaks the language of whoever created its first game.
        app.tg.group(-5010, "Флот");
        app.tg.send_command(-5010, &maria, "/newgame");
        let lobby = app.message_with_button(-5010, "j:").await;
        assert!(
            lobby.text.contains("Морска битка: нова игра"),
            "{}",
            lobby.text
        );
        assert!(lobby.button("Играя").is_some());
    }
}

/// Every message of a chat as it stands at the end, with its buttons' labels.
/// A PNG's width and height, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

fn chat_transcript(app: &App, chat: i64, title: &str) -> String {
    let mut out = format!("== {title} ==\n");
    for m in app.tg.messages(chat) {
        let deleted = if m.deleted { " (deleted)" } else { "" };
        out.push_str(&format!("--- message {}{deleted}\n", m.message_id));
        if let Some(png) = m.photos.last() {
            let (w, h) = png_size(png);
            out.push_str(&format!("[picture {w}×{h}]\n"));
        }
        out.push_str(&format!("{}\n", m.text));
        let labels: Vec<String> = m
            .buttons()
            .into_iter()
            .flatten()
            .map(|(label, _)| label)
            .collect();
        if !labels.is_empty() {
            out.push_str(&format!("[{}]\n", labels.join(" | ")));
        }
    }
    out
}

/// A whole classic game, seeded, played by buttons: the group's and both private chats'
/// final transcripts.
async fn seeded_game_transcript(lang: &str, names: [&str; 2], board: Board) -> String {
    let app = App::spawn_seeded(20_261_130).await;
    app.set_board(-5020, board).await;
    let a = app.player(9201, names[0], lang);
    let b = app.player(9202, names[1], lang);
    let mut d = duel(&app, -5020, a.clone(), b.clone()).await;
    let battle = d.battle;
    while !d.is_over(&app) {
        let seat = d.turn;
        let Some(cell) = d.next_cell(seat) else { break };
        let shot = d.shoot_button(&app).await;
        if shot == Shot::Over {
            break;
        }
        // Each result is drawn before the next shot, so the transcript does not depend on
        // how the bot happened to coalesce the redraws.
        if matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk) {
            let alphabet = match lang {
                "ru" => engine::Alphabet::Russian,
                "bg" => engine::Alphabet::Bulgarian,
                _ => engine::Alphabet::Latin,
            };
            let size = engine::Size::new(10, 10);
            let name = engine::format_cell(size.coord(cell), alphabet, size);
            let line = format!("{}: ", d.players[seat].first_name);
            app.tg
                .wait_for(
                    d.group,
                    |m| {
                        m.message_id == battle
                            && m.text
                                .lines()
                                .any(|l| l.starts_with(&line) && l.contains(&format!(" {name} — ")))
                    },
                    wait(),
                )
                .await
                .expect("the result is drawn");
        }
    }
    let battle = d.battle;
    app.tg
        .wait_for(
            d.group,
            |m| m.message_id == battle && !m.has_keyboard(),
            wait(),
        )
        .await
        .expect("the battle message shows the end");
    // The announcement comes after the final board.
    app.tg
        .wait_for(
            d.group,
            |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced");
    for p in [&a, &b] {
        let chat = p.id.0 as i64;
        let deadline = tokio::time::Instant::now() + wait();
        // The private field is the last message, final: no keyboard, a picture when the
        // fields are pictures.
        while !app.tg.messages(chat).last().is_some_and(|m| {
            !m.deleted && !m.has_keyboard() && (board == Board::Text || m.photo.is_some())
        }) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the private field is not final"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    [
        chat_transcript(&app, d.group, "group"),
        chat_transcript(&app, 9201, names[0]),
        chat_transcript(&app, 9202, names[1]),
    ]
    .join("\n")
}

flow! {
    fn a_classic_game_reads_the_same_in_english_every_time() {
        let text = seeded_game_transcript("en", ["Alice", "Bob"], Board::Picture).await;
        insta::assert_snapshot!("transcript_en", text);
    }
}

flow! {
    fn a_classic_game_reads_the_same_in_russian_every_time() {
        let text = seeded_game_transcript("ru", ["Аня", "Борис"], Board::Text).await;
        insta::assert_snapshot!("transcript_ru", text);
    }
}

flow! {
    fn a_classic_game_reads_the_same_in_bulgarian_every_time() {
        let text = seeded_game_transcript("bg", ["Мария", "Георги"], Board::Picture).await;
        insta::assert_snapshot!("transcript_bg", text);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_chooses_its_column_letters_with_settings() {
    let app = App::spawn().await;
    let ivan = app.player(9301, "Иван", "ru");
    let olga = app.player(9302, "Ольга", "ru");
    app.tg.group(-5030, "Эскадра");
    app.tg.send_command(-5030, &ivan, "/settings");
    let settings = app.message_with_button(-5030, "a:").await;
    assert!(
        settings.button("республика").is_some(),
        "{:?}",
        settings.buttons()
    );
    assert!(settings.button("снегурочка").is_some());
    assert!(settings.button("абвгдеёжзи").is_some());
    let answer = app
        .press(-5030, &olga, settings.message_id, "a:respublika")
        .await;
    assert!(said(&answer).contains("республика"), "{answer:?}");
    let d = duel(&app, -5030, ivan, olga).await;
    let battle = app
        .tg
        .messages(d.group)
        .into_iter()
        .find(|m| m.message_id == d.battle)
        .unwrap();
    // The fields are a picture: the cells' buttons carry the letters.
    let labels: Vec<String> = battle
        .buttons()
        .into_iter()
        .flatten()
        .map(|b| b.0)
        .collect();
    assert!(
        ["р1", "е1", "с1"]
            .iter()
            .all(|l| labels.iter().any(|b| b == l)),
        "{labels:?}"
    );
    // A typed cell reads in the chat's letters: "п5" is the fourth column.
    let seat = d.turn;
    let typed = app.tg.send_reply(d.group, &d.players[seat], "п5", d.battle);
    let line = format!("{}: п5 — ", d.players[seat].first_name);
    app.tg
        .wait_for(
            d.group,
            |m| m.message_id == d.battle && m.text.contains(&line),
            wait(),
        )
        .await
        .expect("the typed shot in the chat's letters lands");
    // The typed shot was acknowledged on the player's message itself.
    let deadline = tokio::time::Instant::now() + wait();
    while !app
        .tg
        .reactions(d.group)
        .contains(&(typed.id.0, "👍".to_owned()))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no 👍 on the typed shot"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

flow! {
    fn a_player_in_a_game_elsewhere_is_told_so() {
        let app = App::spawn().await;
        let a = app.player(9401, "Alice", "en");
        let b = app.player(9402, "Bob", "en");
        let _d = duel(&app, -5040, a.clone(), b).await;
        let c = app.player(9403, "Carol", "en");
        app.tg.group(-5041, "Another");
        let (lobby, join) = open_lobby(&app, -5041, &c).await;
        let answer = app.press(-5041, &a, lobby.message_id, &join).await;
        assert!(
            answer.show_alert && said(&answer).contains("another chat"),
            "{answer:?}"
        );
    }
}

/// The bot binary on the in-memory store (`REDIS_URL=memory://…`, one process alone): a duel
/// begins and a shot is answered and shown, as on Redis (whole games on it run as flow!).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_plays_on_the_in_memory_store() {
    let mut app = App::world(150, Some(100_000)).await;
    app.redis_url = Some("memory://e2e".into());
    app.start_bot().await;
    let a = app.player(1011, "Alice", "en");
    let b = app.player(1012, "Bob", "en");
    let mut d = duel(&app, -5011, a, b).await;
    let seat = d.turn;
    let cell = d.next_cell(seat).expect("a cell to shoot");
    let shot = d.shoot_button(&app).await;
    assert_ne!(shot, Shot::Over);
    let (shooter, name) = (d.players[seat].first_name.clone(), cell_name(cell));
    app.tg
        .wait_for(
            d.group,
            |m| {
                m.message_id == d.battle && m.text.lines().any(|l| shows_result(l, &shooter, &name))
            },
            wait(),
        )
        .await
        .expect("the shot is shown in the group");
    assert_no_4xx(&app);
}
