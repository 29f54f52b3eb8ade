//! End to end: the settings panel. `/settings` and the lobby's ⚙ button choose every option
//! by buttons; the lobby states the rules in words; the chat keeps its last choice; bad taps
//! are refused and change nothing; lobbies of four (free-for-all and teams) fill and start.
//! The real bot binary, a real Redis and the fake Telegram, as in `tests/e2e/bot.rs`.

use crate::fake_telegram::{CallbackAnswer, SentMessage};
use crate::helpers::*;
use teloxide::types::User;

/// The message `id` of `chat` once it satisfies `f`.
async fn message_where(
    app: &App,
    chat: i64,
    id: i32,
    f: impl Fn(&SentMessage) -> bool,
    what: &str,
) -> SentMessage {
    app.tg
        .wait_for(chat, |m| m.message_id == id && f(m), wait())
        .await
        .unwrap_or_else(|| {
            let now = app
                .tg
                .messages(chat)
                .into_iter()
                .find(|m| m.message_id == id);
            panic!("{what}; the message is now {now:#?}")
        })
}

/// Waits until message `id` of `chat` contains `words`.
async fn shows(app: &App, chat: i64, id: i32, words: &str) -> SentMessage {
    message_where(app, chat, id, |m| m.text.contains(words), words).await
}

/// The data of the button labelled exactly `label` (or `✓ label`, the chosen value).
fn exact(m: &SentMessage, label: &str) -> Option<String> {
    let marked = format!("✓ {label}");
    m.buttons()
        .into_iter()
        .flatten()
        .find(|(t, _)| t == label || *t == marked)
        .map(|(_, d)| d)
}

/// The data of the first button whose label starts with `prefix`.
fn starting(m: &SentMessage, prefix: &str) -> Option<String> {
    m.buttons()
        .into_iter()
        .flatten()
        .find(|(t, _)| t.starts_with(prefix) || t.starts_with(&format!("✓ {prefix}")))
        .map(|(_, d)| d)
}

/// Waits until message `id` shows a button labelled `label` (exactly, or as a prefix when
/// `label` ends with a space), then `user` presses it.
async fn tap(app: &App, chat: i64, id: i32, user: &User, label: &str) -> CallbackAnswer {
    let find = |m: &SentMessage| {
        if label.ends_with(' ') {
            starting(m, label)
        } else {
            exact(m, label)
        }
    };
    let m = message_where(
        app,
        chat,
        id,
        |m| find(m).is_some(),
        &format!("no {label:?}"),
    )
    .await;
    let data = find(&m).unwrap();
    app.press(chat, user, id, &data).await
}

/// [`tap`], which must be accepted.
async fn choose(app: &App, chat: i64, id: i32, user: &User, label: &str) {
    let a = tap(app, chat, id, user, label).await;
    assert!(!a.show_alert, "{label:?} was refused: {a:?}");
}

/// Every keyboard the bot sent or drew in `chat` is within Telegram's limits, and Telegram
/// refused nothing.
fn assert_within_limits(app: &App, chat: i64) {
    for m in app.tg.messages(chat) {
        let rows = m.buttons();
        assert!(rows.iter().all(|r| r.len() <= 8), "{rows:?}");
        assert!(rows.iter().map(Vec::len).sum::<usize>() <= 100, "{rows:?}");
        for (_, data) in rows.iter().flatten() {
            assert!(data.len() <= 64 || data.starts_with("https://"), "{data}");
        }
    }
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

fn lobby_text(app: &App, group: i64, id: i32) -> String {
    app.tg
        .messages(group)
        .into_iter()
        .find(|m| m.message_id == id)
        .map(|m| m.text)
        .unwrap_or_default()
}

flow! {
    fn every_option_chosen_by_buttons_changes_the_lobby_words_and_becomes_the_chats_default() {
        let app = App::spawn().await;
        let group = -7001;
        app.tg.group(group, "Flotilla");
        let alice = app.player(7101, "Alice", "en");
        let (lobby, _) = open_lobby(&app, group, &alice).await;
        let id = lobby.message_id;
        assert!(lobby
            .text
            .contains("classic 10×10, 10 ships, ships never touch, 3 minutes a turn"));
        choose(&app, group, id, &alice, "⚙ Settings").await;
        let steps: [(&str, &str, &str); 5] = [
            (
                "Touching: ",
                "ships may touch at corners",
                "ships may touch at corners",
            ),
            (
                "Shapes: ",
                "bent ships too (L, square, zigzag)",
                "ships may bend (L, square, zigzag)",
            ),
            ("Mines: ", "1 mine", "1 mine each"),
            (
                "Players: ",
                "free-for-all, 3 players",
                "free-for-all of 3 players",
            ),
            ("Timer: ", "10 minutes a turn", "10 minutes a turn"),
        ];
        for (option, value, words) in steps {
            choose(&app, group, id, &alice, option).await;
            choose(&app, group, id, &alice, value).await;
            shows(&app, group, id, words).await;
        }
        // Salvo: on, then one more shot.
        choose(&app, group, id, &alice, "Salvo: ").await;
        choose(&app, group, id, &alice, "salvo of 3 shots").await;
        shows(&app, group, id, "salvoes of 3 shots").await;
        choose(&app, group, id, &alice, "+").await;
        shows(&app, group, id, "salvoes of 4 shots").await;
        choose(&app, group, id, &alice, "‹ Back").await;
        choose(&app, group, id, &alice, "Field: ").await;
        choose(&app, group, id, &alice, "big 15×15").await;
        shows(&app, group, id, "big 15×15, 15 ships").await;
        // Land, sea and air, then a custom field from it with one more ship.
        choose(&app, group, id, &alice, "land, sea and air 20×15").await;
        message_where(
            &app,
            group,
            id,
            |m| {
                m.text
                    .contains("land, sea and air 20×15, 14 units, ships never touch")
            },
            "land, sea and air",
        )
        .await;
        choose(&app, group, id, &alice, "custom").await;
        choose(&app, group, id, &alice, "+1").await;
        let custom = "custom 20×15, 8 ships (fleet 5·4·3·3·2·2·2·1), ships may touch at corners, \
                      ships may bend (L, square, zigzag), salvoes of 4 shots, 1 mine each, \
                      free-for-all of 3 players, 10 minutes a turn";
        shows(&app, group, id, custom).await;
        choose(&app, group, id, &alice, "‹ Back").await;
        // The column letters and the bot's level.
        choose(&app, group, id, &alice, "республика").await;
        choose(&app, group, id, &alice, "hard").await;
        message_where(
            &app,
            group,
            id,
            |m| m.text.contains("Columns: республика") && m.text.contains("The bot plays: hard"),
            "columns and level",
        )
        .await;
        choose(&app, group, id, &alice, "✅ Done").await;
        let closed = message_where(
            &app,
            group,
            id,
            |m| exact(m, "⚙ Settings").is_some(),
            "the panel closes",
        )
        .await;
        assert!(!closed.text.contains("Columns:"), "{}", closed.text);
        assert_within_limits(&app, group);
        // The chat's next game starts from the last choice.
        app.tg.send_command(group, &alice, "/cancel");
        app.tg
            .wait_for_text(group, "The game is cancelled.", wait())
            .await
            .expect("the lobby is cancelled");
        app.tg.send_command(group, &alice, "/newgame");
        let next = app
            .tg
            .wait_for(
                group,
                |m| m.message_id > id && m.callback_data().iter().any(|d| d.starts_with("j:")),
                wait(),
            )
            .await
            .expect("a new lobby");
        assert!(next.text.contains(custom), "{}", next.text);
        message_where(
            &app,
            group,
            next.message_id,
            |m| m.text.contains("Players: 1 of 3"),
            "the creator is seated in the next lobby",
        )
        .await;
        choose(&app, group, next.message_id, &alice, "⚙ Settings").await;
        message_where(
            &app,
            group,
            next.message_id,
            |m| m.text.contains("Columns: республика") && m.text.contains("The bot plays: hard"),
            "the next lobby keeps the columns and the level",
        )
        .await;
        app.tg.send_command(group, &alice, "/rules");
        app.tg
            .wait_for_text(group, "free-for-all of 3 players", wait())
            .await
            .expect("/rules states the chat's rules");
    }
}

flow! {
    fn a_non_creators_taps_and_settings_are_refused_and_change_nothing() {
        let app = App::spawn().await;
        let group = -7002;
        app.tg.group(group, "Flotilla");
        let alice = app.player(7201, "Alice", "en");
        let bob = app.player(7202, "Bob", "en");
        let (lobby, _) = open_lobby(&app, group, &alice).await;
        let id = lobby.message_id;
        let refused = tap(&app, group, id, &bob, "⚙ Settings").await;
        assert!(
            refused.show_alert && said(&refused).contains("only the game's creator"),
            "{refused:?}"
        );
        // A forged tap on an option of the panel is refused too.
        let open = exact(&lobby, "⚙ Settings").unwrap();
        let forged = open.replace(":pm", ":g4");
        let refused = app.press(group, &bob, id, &forged).await;
        assert!(refused.show_alert, "{refused:?}");
        app.tg.send_command(group, &bob, "/settings");
        app.tg
            .wait_for_text(group, "only its creator can change its rules", wait())
            .await
            .expect("/settings of a non-creator is refused");
        // The creator's /settings opens the panel in the lobby.
        app.tg.send_command(group, &alice, "/settings");
        message_where(
            &app,
            group,
            id,
            |m| starting(m, "Players: ").is_some(),
            "the panel opens",
        )
        .await;
        let refused = tap(&app, group, id, &bob, "Players: ").await;
        assert!(refused.show_alert, "{refused:?}");
        let text = lobby_text(&app, group, id);
        assert!(text.contains("Players: 1 of 2"), "{text}");
        assert!(!text.contains("free-for-all"), "{text}");
        assert_within_limits(&app, group);
    }
}

flow! {
    fn a_custom_field_with_no_legal_layout_is_refused_with_the_reason() {
        let app = App::spawn().await;
        let group = -7003;
        app.tg.group(group, "Flotilla");
        let alice = app.player(7301, "Alice", "en");
        let (lobby, _) = open_lobby(&app, group, &alice).await;
        let id = lobby.message_id;
        choose(&app, group, id, &alice, "⚙ Settings").await;
        choose(&app, group, id, &alice, "Field: ").await;
        choose(&app, group, id, &alice, "custom").await;
        let field = message_where(
            &app,
            group,
            id,
            |m| exact(m, "⌫ Remove the last ship").is_some(),
            "the custom field's controls",
        )
        .await;
        let remove = exact(&field, "⌫ Remove the last ship").unwrap();
        let narrower = exact(&field, "width −").unwrap();
        let lower = exact(&field, "height −").unwrap();
        let five = exact(&field, "+5").unwrap();
        for _ in 0..9 {
            let a = app.press(group, &alice, id, &remove).await;
            assert!(!a.show_alert, "{a:?}");
        }
        // The last ship stays: a fleet needs one.
        let a = app.press(group, &alice, id, &remove).await;
        assert!(
            a.show_alert && said(&a).contains("at least one ship"),
            "{a:?}"
        );
        for press in [&narrower, &lower] {
            for _ in 0..5 {
                let a = app.press(group, &alice, id, press).await;
                assert!(!a.show_alert, "{a:?}");
            }
            let a = app.press(group, &alice, id, press).await;
            assert!(a.show_alert && said(&a).contains("from 5 to 26"), "{a:?}");
        }
        for _ in 0..2 {
            let a = app.press(group, &alice, id, &five).await;
            assert!(!a.show_alert, "{a:?}");
        }
        let words = "custom 5×5, 3 ships (fleet 5·5·4)";
        shows(&app, group, id, words).await;
        // A third 5-ship has nowhere to go without touching.
        let a = app.press(group, &alice, id, &five).await;
        assert!(
            a.show_alert && said(&a).contains("no legal layout exists"),
            "{a:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        let text = lobby_text(&app, group, id);
        assert!(text.contains(words), "{text}");
        // Letting ships touch makes room for it.
        choose(&app, group, id, &alice, "‹ Back").await;
        choose(&app, group, id, &alice, "Touching: ").await;
        choose(&app, group, id, &alice, "ships may touch").await;
        choose(&app, group, id, &alice, "Field: ").await;
        let a = tap(&app, group, id, &alice, "+5").await;
        assert!(!a.show_alert, "{a:?}");
        let words = "custom 5×5, 4 ships (fleet 5·5·5·4), ships may touch";
        shows(&app, group, id, words).await;
        assert_within_limits(&app, group);
    }
}

/// Alice, Bob, Carol and Dave (ids from `first_id`); Alice opens a lobby in `group` and
/// chooses `players` on the Players page of its settings. The players and the lobby's id.
async fn lobby_for_four(app: &App, group: i64, first_id: i64, players: &str) -> (Vec<User>, i32) {
    app.tg.group(group, "Flotilla");
    let users: Vec<User> = ["Alice", "Bob", "Carol", "Dave"]
        .iter()
        .enumerate()
        .map(|(i, n)| app.player(first_id + i as i64, n, "en"))
        .collect();
    let (lobby, _) = open_lobby(app, group, &users[0]).await;
    let id = lobby.message_id;
    for label in ["⚙ Settings", "Players: ", players] {
        choose(app, group, id, &users[0], label).await;
    }
    (users, id)
}

/// Four players: Alice (the creator) and three more, who join by the lobby's Join button.
async fn fill_four(app: &App, group: i64, id: i32, others: &[User]) {
    let lobby = message_where(app, group, id, |m| data_of(m, "j:").is_some(), "join").await;
    let join = data_of(&lobby, "j:").unwrap();
    for p in others {
        let a = app.press(group, p, id, &join).await;
        assert!(!a.show_alert, "{} could not join: {a:?}", p.first_name);
    }
    message_where(
        app,
        group,
        id,
        |m| m.text.contains("Players: 4 of 4"),
        "four seated",
    )
    .await;
}

fn data_of(m: &SentMessage, prefix: &str) -> Option<String> {
    m.callback_data()
        .into_iter()
        .find(|d| d.starts_with(prefix))
}

/// Start: placement begins, and every player gets the editor in the private chat.
async fn start_and_see_placement(app: &App, group: i64, id: i32, players: &[User]) {
    let lobby = message_where(app, group, id, |m| data_of(m, "s:").is_some(), "start").await;
    let start = data_of(&lobby, "s:").unwrap();
    let a = app.press(group, &players[0], id, &start).await;
    assert!(!a.show_alert, "the start is refused: {a:?}");
    message_where(
        app,
        group,
        id,
        |m| m.text.contains("placing the fleet"),
        "placement",
    )
    .await;
    for p in players {
        app.message_with_button(p.id.0 as i64, "pe:").await;
    }
}

flow! {
    fn a_four_player_free_for_all_lobby_fills_and_starts() {
        let app = App::spawn().await;
        let group = -7004;
        let (players, id) = lobby_for_four(&app, group, 7401, "free-for-all, 4 players").await;
        let panel = message_where(
            &app,
            group,
            id,
            |m| m.text.contains("Players: 1 of 4") && m.text.contains("free-for-all of 4 players"),
            "four seats",
        )
        .await;
        let stale = starting(&panel, "Timer: ").unwrap();
        fill_four(&app, group, id, &players[1..]).await;
        start_and_see_placement(&app, group, id, &players).await;
        // A panel button from before the start changes nothing now.
        let a = app.press(group, &players[0], id, &stale).await;
        assert!(a.show_alert && said(&a).contains("out of date"), "{a:?}");
        assert_within_limits(&app, group);
    }
}

flow! {
    fn a_two_against_two_lobby_shows_the_teams_swaps_seats_and_starts() {
        let app = App::spawn().await;
        let group = -7005;
        let (players, id) = lobby_for_four(&app, group, 7501, "teams, 2 against 2").await;
        choose(&app, group, id, &players[0], "✅ Done").await;
        fill_four(&app, group, id, &players[1..]).await;
        let teams = "Team A:\n1. Alice\n3. Carol\nTeam B:\n2. Bob\n4. Dave";
        shows(&app, group, id, teams).await;
        // Bob and Carol change places: Alice plays with Bob.
        choose(&app, group, id, &players[0], "⚙ Settings").await;
        let refused = tap(&app, group, id, &players[1], "⇄ 2 and 3").await;
        assert!(refused.show_alert, "only the creator swaps: {refused:?}");
        choose(&app, group, id, &players[0], "⇄ 2 and 3").await;
        let swapped = "Team A:\n1. Alice\n3. Bob\nTeam B:\n2. Carol\n4. Dave";
        shows(&app, group, id, swapped).await;
        // Four seated do not fit a duel.
        choose(&app, group, id, &players[0], "Players: ").await;
        let refused = tap(&app, group, id, &players[0], "duel").await;
        assert!(
            refused.show_alert
                && said(&refused).contains("4 players are seated, but this game has 2 seats"),
            "{refused:?}"
        );
        choose(&app, group, id, &players[0], "‹ Back").await;
        choose(&app, group, id, &players[0], "✅ Done").await;
        let seated = [&players[0], &players[2], &players[1], &players[3]].map(|p| p.clone());
        start_and_see_placement(&app, group, id, &seated).await;
        let text = lobby_text(&app, group, id);
        assert!(
            text.contains("Team A:\n1. Alice — placing the fleet"),
            "{text}"
        );
        assert!(text.contains("two teams of two"), "{text}");
        assert_within_limits(&app, group);
    }
}

flow! {
    fn settings_outside_a_lobby_edit_the_chats_defaults_in_every_language() {
        let app = App::spawn().await;
        let group = -7006;
        app.tg.group(group, "Эскадра");
        let ivan = app.player(7601, "Иван", "ru");
        app.tg.send_command(group, &ivan, "/settings");
        let panel = app.message_with_button(group, "o:").await;
        let id = panel.message_id;
        assert!(
            panel.text.contains("Настройки этого чата"),
            "{}",
            panel.text
        );
        // Every page opens, and Back returns.
        for option in [
            "Поле: ",
            "Касания: ",
            "Формы: ",
            "Залп: ",
            "Мины: ",
            "Игроки: ",
            "Таймер: ",
        ] {
            choose(&app, group, id, &ivan, option).await;
            choose(&app, group, id, &ivan, "‹ Назад").await;
        }
        choose(&app, group, id, &ivan, "Поле: ").await;
        choose(&app, group, id, &ivan, "большое 15×15").await;
        choose(&app, group, id, &ivan, "‹ Назад").await;
        choose(&app, group, id, &ivan, "Мины: ").await;
        choose(&app, group, id, &ivan, "2 мины").await;
        message_where(
            &app,
            group,
            id,
            |m| m.text.contains("большое поле 15×15, 15 кораблей") && m.text.contains("по 2 мины"),
            "the panel states the chat's rules",
        )
        .await;
        // The old column buttons still work on the panel, and mark the choice.
        choose(&app, group, id, &ivan, "снегурочка").await;
        message_where(
            &app,
            group,
            id,
            |m| {
                m.buttons()
                    .iter()
                    .flatten()
                    .any(|(t, _)| t == "✓ снегурочка")
            },
            "the chosen columns are marked",
        )
        .await;
        choose(&app, group, id, &ivan, "✅ Готово").await;
        message_where(&app, group, id, |m| !m.has_keyboard(), "the panel closes").await;
        let (lobby, _) = open_lobby(&app, group, &ivan).await;
        assert!(
            lobby
                .text
                .contains("большое поле 15×15, 15 кораблей, корабли не касаются, по 2 мины у каждого"),
            "{}",
            lobby.text
        );
        assert_within_limits(&app, group);
        // In a private chat the bot plays a duel: no players option.
        app.tg.send_command(7601, &ivan, "/settings");
        let private = app.message_with_button(7601, "o:").await;
        assert!(
            starting(&private, "Игроки: ").is_none(),
            "{:?}",
            private.buttons()
        );
        assert!(starting(&private, "Поле: ").is_some());
        assert_within_limits(&app, 7601);
    }
}

/// The errors "message is not modified" the fake answered so far.
fn not_modified(app: &App) -> Vec<String> {
    app.tg
        .errors()
        .into_iter()
        .filter(|e| e.description.contains("not modified"))
        .map(|e| format!("{} {}", e.method, e.description))
        .collect()
}

/// `user` presses `data` on message `id` of `chat` twice in a row, each press answered.
async fn twice(app: &App, chat: i64, id: i32, user: &User, data: &str) {
    for _ in 0..2 {
        app.press(chat, user, id, data).await;
    }
}

/// `user` presses `data` twice at once: both updates carry the message as it was before
/// either.
async fn at_once(app: &App, chat: i64, id: i32, user: &User, data: &str) {
    let both = [
        app.tg.press_stale(chat, user, id, data),
        app.tg.press_stale(chat, user, id, data),
    ];
    for q in both {
        app.tg.wait_answer(&q, wait()).await.expect("an answer");
    }
}

/// Every button of every page of the settings panel `id` of `chat` (whose buttons' data
/// start with `prefix`: `o:` for a chat's panel, `o:GAME:GENERATION:` for a lobby's) tapped
/// twice in a row, an opener and Back twice at once, then Done twice: the count of taps.
async fn tap_every_button_twice(app: &App, chat: i64, id: i32, user: &User, prefix: &str) -> usize {
    let (opener, back, done) = (
        format!("{prefix}p"),
        format!("{prefix}pm"),
        format!("{prefix}k"),
    );
    let panel = message_where(
        app,
        chat,
        id,
        |m| {
            let openers = m
                .callback_data()
                .into_iter()
                .filter(|d| d.starts_with(&opener));
            openers.count() >= 5
        },
        "a panel",
    )
    .await;
    let openers: Vec<String> = panel
        .callback_data()
        .into_iter()
        .filter(|d| d.starts_with(&opener))
        .collect();
    assert!(openers.len() >= 5, "{:?}", panel.buttons());
    let mut taps = 0;
    // The panel's buttons (a chat panel's column letters and bot levels are buttons of
    // their own); not a lobby's Start or Cancel.
    let of_panel = |d: &String| {
        (d.starts_with(prefix) || d.starts_with("a:") || d.starts_with("al:")) && *d != done
    };
    // The main page's own buttons (the column letters, the bot's level, the board).
    for data in panel.callback_data() {
        if !data.starts_with(&opener) && of_panel(&data) {
            twice(app, chat, id, user, &data).await;
            taps += 2;
        }
    }
    for opener in &openers {
        twice(app, chat, id, user, opener).await;
        let page = message_where(
            app,
            chat,
            id,
            |m| m.callback_data().contains(&back),
            &format!("{opener} opens its page"),
        )
        .await;
        for data in page.callback_data() {
            if of_panel(&data) {
                twice(app, chat, id, user, &data).await;
                taps += 2;
            }
        }
        twice(app, chat, id, user, &back).await;
        taps += 4;
    }
    at_once(app, chat, id, user, &openers[0]).await;
    at_once(app, chat, id, user, &back).await;
    twice(app, chat, id, user, &done).await;
    taps + 6
}

/// `/settings` in `chat` by `user`, every button of it tapped twice (see
/// [`tap_every_button_twice`]): the count of taps.
async fn chat_panel_tapped_twice(app: &App, chat: i64, user: &User) -> usize {
    app.tg.send_command(chat, user, "/settings");
    let id = app.message_with_button(chat, "o:").await.message_id;
    let taps = tap_every_button_twice(app, chat, id, user, "o:").await;
    message_where(
        app,
        chat,
        id,
        |m| !m.has_keyboard(),
        "Done closes the panel",
    )
    .await;
    taps
}

flow! {
    fn every_settings_button_tapped_twice_and_a_whole_game_after_edit_nothing_twice() {
        let app = App::spawn().await;
        let group = -7011;
        app.tg.group(group, "Sea dogs");
        let ann = app.player(7701, "Ann", "en");
        let ben = app.player(7702, "Ben", "en");
        let mut taps = chat_panel_tapped_twice(&app, 7701, &ann).await
            + chat_panel_tapped_twice(&app, group, &ann).await;
        // The lobby's panel, in its message.
        let (lobby, _) = open_lobby(&app, group, &ann).await;
        let settings = lobby
            .callback_data()
            .into_iter()
            .find(|d| d.starts_with("o:") && d.ends_with(":pm"))
            .expect("a settings button");
        let prefix = settings.trim_end_matches("pm").to_owned();
        // ⚙ twice opens the panel once.
        twice(&app, group, lobby.message_id, &ann, &settings).await;
        taps += 2 + tap_every_button_twice(&app, group, lobby.message_id, &ann, &prefix).await;
        message_where(
            &app,
            group,
            lobby.message_id,
            |m| m.callback_data().iter().any(|d| d.starts_with("j:")),
            "Done shows the lobby's buttons again",
        )
        .await;
        let cancel = data(&app.message_with_button(group, "x:").await, "x:");
        app.press(group, &ann, lobby.message_id, &cancel).await;
        assert!(taps >= 150, "{taps} taps");
        // The edits follow the answers: give the last ones a moment.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let twice_drawn = not_modified(&app);
        assert!(
            twice_drawn.is_empty(),
            "{} of {taps} taps edited a panel to what it showed: {twice_drawn:?}",
            twice_drawn.len()
        );
        // Then a whole game under the rules chosen last... the defaults again, for a short one.
        app.set_rules(group, engine::Ruleset::default()).await;
        let mut d = duel(&app, group, ann, ben).await;
        play_out(&app, &mut d).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let twice_drawn = not_modified(&app);
        assert!(twice_drawn.is_empty(), "{twice_drawn:?}");
    }
}

flow! {
    fn a_settings_payload_on_a_game_message_is_refused_and_changes_nothing() {
        let app = App::spawn().await;
        let group = -7012;
        let ann = app.player(7711, "Ann", "en");
        let ben = app.player(7712, "Ben", "en");
        let eve = app.player(7713, "Eve", "en");
        let d = duel(&app, group, ann.clone(), ben.clone()).await;
        // Everything the battle's beginning sends is sent first (the own fields' first edits).
        let store = app.store().await;
        let game = morskoy_boy::store::GameId(d.game);
        for _ in 0..100 {
            let (rec, _) = store.load_game(game).await.unwrap();
            if rec.delivery.outbox.is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let message = |chat: i64, id: i32| {
            app.tg
                .messages(chat)
                .into_iter()
                .find(|m| m.message_id == id)
                .unwrap()
        };
        let battle = message(group, d.battle);
        // A player's own field in the private chat (a picture, or the text "Your fleet").
        let own_field = |chat: i64| {
            app.tg.wait_for(
                chat,
                |m| m.photo.is_some() || m.text.contains("Your fleet"),
                wait(),
            )
        };
        let own = own_field(7711).await.expect("Ann's own field");
        let forged = [
            "o:pm".to_owned(),
            "o:pt".to_owned(),
            "o:k".to_owned(),
            "o:t0".to_owned(),
            format!("o:{}:0:pm", d.game),
            format!("j:{}:{}", d.game, d.generation),
            format!("r:{}", d.game),
            "l:en".to_owned(),
            "a:latin".to_owned(),
        ];
        for data in &forged {
            // A stranger and a player, on the battle message.
            for user in [&eve, &ann] {
                let a = app.press(group, user, d.battle, data).await;
                assert!(a.show_alert, "{data} by {} was taken", user.first_name);
                assert_eq!(
                    said(&a),
                    "this button does not belong to this message.",
                    "{data}"
                );
            }
            // Ann, on her own field.
            let a = app.press(7711, &ann, own.message_id, data).await;
            assert!(a.show_alert, "{data} on the own field was taken");
        }
        // A grid's press off its grid: a shot on the own field, the editor's Clear on a panel.
        let shot = d.fire_data(d.turn, 0);
        let shooter = &d.players[d.turn];
        let shooter_chat = shooter.id.0 as i64;
        let shooter_own = own_field(shooter_chat)
            .await
            .expect("the shooter's own field");
        let a = app
            .press(shooter_chat, shooter, shooter_own.message_id, &shot)
            .await;
        assert_eq!(said(&a), "this button does not belong to this message.");
        app.tg.send_command(group, &eve, "/settings");
        let panel = app.message_with_button(group, "o:").await;
        let a = app.press(group, shooter, panel.message_id, &shot).await;
        assert_eq!(said(&a), "this button does not belong to this message.");
        let a = app
            .press(group, &eve, panel.message_id, &format!("pe:{}:c", d.game))
            .await;
        assert_eq!(said(&a), "this button does not belong to this message.");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        // Nothing changed: the battle message, the own field and the panel are as they were,
        // and the shot was not taken.
        let after = message(group, d.battle);
        assert_eq!(after.edits, battle.edits, "the battle message was edited");
        assert_eq!(after.text, battle.text);
        assert!(after.callback_data().iter().any(|c| c.starts_with("f:")));
        assert_eq!(message(7711, own.message_id).edits, own.edits);
        assert_eq!(
            message(shooter_chat, shooter_own.message_id).edits,
            shooter_own.edits
        );
        assert_eq!(message(group, panel.message_id).edits, panel.edits);
        // The battle goes on, the shot still free.
        let a = app.press(group, shooter, d.battle, &shot).await;
        assert!(!a.show_alert, "{a:?}");
    }
}

flow! {
    /// `/rules arsenal` tells the arsenal (docs/rules.md §3.8) in the sender's language, by any
    /// language's word for it; a chat whose games have the arsenal hears it with its rules.
    fn rules_tell_the_arsenal_in_each_language() {
        let app = App::spawn().await;
        for (n, (lang, ask, heading, words)) in [
            ("ru", "/rules арсенал", "Арсенал", "Радар: квадрат 3×3"),
            ("bg", "/rules arsenal", "Арсенал", "Радар: квадрат 3×3"),
            ("en", "/rules оръжия", "The arsenal", "Radar: a 3×3 square"),
        ]
        .into_iter()
        .enumerate()
        {
            let user = app.player(7_301 + n as i64, "Rita", lang);
            app.welcomed(&user).await;
            let chat = user.id.0 as i64;
            app.tg.send_command(chat, &user, ask);
            let told = app
                .tg
                .wait_for_text(chat, words, wait())
                .await
                .unwrap_or_else(|| panic!("{ask} in {lang}: {:?}", app.tg.all_texts(chat)));
            assert!(told.text.starts_with(heading), "{}", told.text);
        }
        let group = -7_301;
        app.tg.group(group, "Armed");
        app.set_rules(
            group,
            engine::Ruleset {
                arsenal: 2,
                ..engine::Ruleset::default()
            },
        )
        .await;
        let alice = app.player(7_311, "Alice", "en");
        app.welcomed(&alice).await;
        app.tg.send_command(group, &alice, "/rules");
        let told = app
            .tg
            .wait_for_text(group, "radar, air strike and torpedo, 2 of each", wait())
            .await
            .expect("/rules states the arsenal of the chat's games");
        assert!(
            told.text.contains("Air strike: shoots every new cell"),
            "{}",
            told.text
        );
    }
}

flow! {
    /// The panel turns the arsenal on (docs/rules.md §3.8), and refuses salvoes and land, sea and
    /// air beside it with the reason, changing nothing.
    fn the_panel_turns_the_arsenal_on_and_refuses_salvoes_and_land_sea_air_beside_it() {
        let app = App::spawn().await;
        let group = -7_321;
        app.tg.group(group, "Armoury");
        let alice = app.player(7_321, "Alice", "en");
        let (lobby, _) = open_lobby(&app, group, &alice).await;
        let id = lobby.message_id;
        choose(&app, group, id, &alice, "⚙ Settings").await;
        choose(&app, group, id, &alice, "Arsenal: ").await;
        choose(
            &app,
            group,
            id,
            &alice,
            "radar, air strike, torpedo: 2 of each",
        )
        .await;
        let words = "the arsenal: radar, air strike and torpedo, 2 of each";
        shows(&app, group, id, words).await;
        let before = app
            .store()
            .await
            .chat_settings(group)
            .await
            .unwrap()
            .ruleset;
        assert_eq!(before.arsenal, 2);
        choose(&app, group, id, &alice, "Salvo: ").await;
        let refused = tap(&app, group, id, &alice, "salvo of 3 shots").await;
        assert!(
            refused.show_alert && said(&refused).contains("not played with salvoes"),
            "{refused:?}"
        );
        choose(&app, group, id, &alice, "‹ Back").await;
        choose(&app, group, id, &alice, "Field: ").await;
        let refused = tap(&app, group, id, &alice, "land, sea and air 20×15").await;
        assert!(
            refused.show_alert && said(&refused).contains("secret border"),
            "{refused:?}"
        );
        let after = app
            .store()
            .await
            .chat_settings(group)
            .await
            .unwrap()
            .ruleset;
        assert_eq!(after, before, "a refused choice changes nothing");
        shows(&app, group, id, words).await;
        assert_within_limits(&app, group);
    }
}
