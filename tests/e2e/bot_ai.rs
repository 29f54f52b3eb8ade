//! End to end with the bot as a player: a private `/play` duel, the bot seated from a group's
//! lobby, and a restart while the bot is thinking. The real bot binary, a real Redis and the
//! fake Telegram, as in `tests/e2e/bot.rs`.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use engine::Coord;
use std::time::Duration;
use teloxide::types::User;

/// The game and generation of a battle message's Fire buttons.
fn fire_target(battle: &SentMessage) -> (String, String) {
    let first = data(battle, "f:");
    let parts: Vec<&str> = first.split(':').collect();
    (parts[1].to_owned(), parts[2].to_owned())
}

/// Whether the end has been announced in `chat` (the announcement offers a rematch).
fn announced(app: &App, chat: i64) -> bool {
    app.tg
        .messages(chat)
        .iter()
        .any(|m| m.callback_data().iter().any(|c| c.starts_with("r:")))
}

/// The player in seat 0 shoots at the bot's field cell by cell, waiting while the bot moves,
/// until the end. Returns how often the player had to wait for the bot.
async fn play_against_the_bot(app: &App, chat: i64, player: &User, battle: &SentMessage) -> usize {
    let (game, generation) = fire_target(battle);
    let (mut next, mut waits, mut taps) = (0usize, 0usize, 0usize);
    while !announced(app, chat) && next < 100 {
        taps += 1;
        assert!(taps < 5000, "the game does not end");
        let data = format!("f:{game}:{generation}:1:{next}");
        let answer = app.press(chat, player, battle.message_id, &data).await;
        match read_answer(&said(&answer)) {
            Shot::Miss | Shot::Hit | Shot::Sunk | Shot::Known => next += 1,
            Shot::NotYourTurn => {
                waits += 1;
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
            Shot::Over => break,
        }
    }
    app.tg
        .wait_for(
            chat,
            |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced");
    waits
}

flow! {
    fn a_private_game_against_the_easy_bot_is_played_to_the_end() {
        let app = App::spawn().await;
        let alice = app.player(8001, "Alice", "en");
        let chat = 8001;
        app.tg.send_command(chat, &alice, "/play genius");
        app.tg
            .wait_for_text(chat, "I don't know the level", wait())
            .await
            .expect("an unknown level is refused");
        app.tg.send_command(chat, &alice, "/play easy");
        app.tg
            .wait_for_text(chat, "A game against the bot (easy)", wait())
            .await
            .expect("the game against the bot begins");
        place_and_ready(&app, &alice).await;
        let battle = app.message_with_button(chat, "f:").await;
        let waits = play_against_the_bot(&app, chat, &alice, &battle).await;
        assert!(waits > 0, "the bot never had a turn");
        let texts = app.tg.all_texts(chat).join("\n");
        assert!(texts.contains("Winner:"), "no winner in {texts}");
        assert!(
            texts.contains("🤖 Bot (easy): "),
            "the bot's shots are not in the log"
        );
        assert!(
            app.tg.calls("sendChatAction") > 0,
            "the bot never showed that it was thinking"
        );
        assert!(
            app.tg.errors().is_empty(),
            "Telegram refused: {:?}",
            app.tg.errors()
        );
        // A second /play while a game runs elsewhere is refused; after the end it starts again.
        app.tg.send_command(chat, &alice, "/play");
        app.tg
            .wait_for(
                chat,
                |m| {
                    m.text.contains("A game against the bot (easy)") && m.message_id > battle.message_id
                },
                wait(),
            )
            .await
            .expect("a finished game lets a new one begin, at the last level");
    }
}

flow! {
    fn the_bot_seated_from_a_group_lobby_plays_a_whole_game() {
        let app = App::spawn().await;
        let group = -8002;
        app.tg.group(group, "Sea dogs");
        let alice = app.player(8003, "Alice", "en");
        let bob = app.player(8004, "Bob", "en");
        let (lobby, _) = open_lobby(&app, group, &alice).await;
        let seat_bot = data(&lobby, "b:");
        let refused = app.press(group, &bob, lobby.message_id, &seat_bot).await;
        assert!(refused.show_alert, "only the creator seats the bot");
        let seated = app.press(group, &alice, lobby.message_id, &seat_bot).await;
        assert!(!seated.show_alert, "the bot is not seated: {seated:?}");
        app.tg
            .wait_for(
                group,
                |m| m.message_id == lobby.message_id && m.text.contains("2. 🤖 Bot (normal)"),
                wait(),
            )
            .await
            .expect("the lobby shows the bot in the second seat");
        let again = app.press(group, &alice, lobby.message_id, &seat_bot).await;
        assert!(again.show_alert, "a full lobby takes no second bot");
        let start = data(&lobby, "s:");
        let started = app.press(group, &alice, lobby.message_id, &start).await;
        assert!(!started.show_alert, "the start is refused: {started:?}");
        place_and_ready(&app, &alice).await;
        let battle = app.message_with_button(group, "f:").await;
        let waits = play_against_the_bot(&app, group, &alice, &battle).await;
        assert!(waits > 0, "the bot never had a turn");
        let texts = app.tg.all_texts(group).join("\n");
        assert!(texts.contains("Winner:"));
        assert!(
            texts.contains("🤖 Bot (normal): "),
            "the group never heard the bot's shots"
        );
        assert_no_unhit_ship_shown_before_the_end(&app, group);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_while_the_bot_thinks_resumes_its_turn() {
    let mut app = App::spawn().await;
    app.kill_bot();
    // The bot thinks for 4 s: long enough to be killed in the middle.
    app.ai_pause_ms = 4000;
    app.start_bot().await;
    let alice = app.player(8005, "Alice", "en");
    let chat = 8005;
    app.tg.send_command(chat, &alice, "/play easy");
    place_and_ready(&app, &alice).await;
    let battle = app.message_with_button(chat, "f:").await;
    let (game, generation) = fire_target(&battle);
    // Alice shoots until she misses: then it is the bot's turn, and it starts thinking.
    let mut next = 0;
    loop {
        assert!(next < 100, "Alice never missed");
        let data = format!("f:{game}:{generation}:1:{next}");
        let answer = app.press(chat, &alice, battle.message_id, &data).await;
        match read_answer(&said(&answer)) {
            Shot::Miss => break,
            Shot::NotYourTurn => tokio::time::sleep(Duration::from_millis(100)).await,
            _ => next += 1,
        }
    }
    next += 1;
    app.kill_bot();
    app.ai_pause_ms = 20;
    app.start_bot().await;
    // The new process finds the bot's turn and plays it: Alice's next shot is taken.
    let deadline = tokio::time::Instant::now() + wait();
    loop {
        let data = format!("f:{game}:{generation}:1:{next}");
        let answer = app.press(chat, &alice, battle.message_id, &data).await;
        match read_answer(&said(&answer)) {
            Shot::NotYourTurn => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the bot's turn was not resumed after the restart"
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Shot::Over => panic!("the game ended instead"),
            _ => break,
        }
    }
    let texts = app.tg.all_texts(chat).join("\n");
    assert!(
        texts.contains("🤖 Bot (easy): "),
        "the bot's shot is not in the log"
    );
}

flow! {
    fn bots_fill_the_empty_seats_of_a_free_for_all_and_play_it_out() {
        let app = App::spawn().await;
        let group = -8010;
        app.tg.group(group, "Sea dogs");
        app.set_rules(
            group,
            engine::Ruleset {
                players: engine::Players::FreeForAll(3),
                timer: engine::TurnTimer::Off,
                ..engine::Ruleset::default()
            },
        )
        .await;
        let alice = app.player(8011, "Alice", "en");
        let (lobby, _) = open_lobby(&app, group, &alice).await;
        let seat_bot = data(&lobby, "b:");
        for _ in 0..2 {
            let seated = app.press(group, &alice, lobby.message_id, &seat_bot).await;
            assert!(!seated.show_alert, "{seated:?}");
        }
        app.tg
            .wait_for(
                group,
                |m| {
                    m.message_id == lobby.message_id
                        && m.text.contains("2. 🤖 Bot (normal)")
                        && m.text.contains("3. 🤖 Bot 2 (normal)")
                },
                wait(),
            )
            .await
            .expect("the lobby shows both bots, told apart");
        let start = data(&lobby, "s:");
        assert!(
            !app.press(group, &alice, lobby.message_id, &start)
                .await
                .show_alert
        );
        place_and_ready(&app, &alice).await;
        app.message_with_button(group, "f:").await;
        // Alice leaves the sea to the bots: they play each against the other to the end.
        app.tg.send_command(group, &alice, "/surrender");
        let end = app
            .tg
            .wait_for(group, |m| m.text.contains("Winner: 🤖 Bot"), wait() * 3)
            .await
            .expect("one of the bots wins");
        let texts = app.tg.all_texts(group).join("\n");
        for bot in ["🤖 Bot (normal)", "🤖 Bot 2 (normal)"] {
            assert!(
                texts.contains(&format!("{bot} → ")),
                "{bot} never shot: {}",
                end.text
            );
        }
        assert_no_unhit_ship_shown_before_the_end(&app, group);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_right_after_the_last_fleet_is_locked_still_begins_the_battle() {
    let mut app = App::spawn().await;
    let alice = app.player(8021, "Alice", "en");
    let chat = 8021;
    app.tg.send_command(chat, &alice, "/play easy");
    let editor = app.message_with_button(chat, "pe:").await;
    let game = data(&editor, "pe:").split(':').nth(1).unwrap().to_owned();
    app.press(chat, &alice, editor.message_id, &format!("pe:{game}:r"))
        .await;
    // The bot dies as soon as it has answered Ready: before, or while, the battle begins.
    let ready = app
        .press(chat, &alice, editor.message_id, &format!("pe:{game}:k"))
        .await;
    assert!(!ready.show_alert, "{ready:?}");
    app.kill_bot();
    app.start_bot().await;
    let battle = app.message_with_button(chat, "f:").await;
    let waits = play_against_the_bot(&app, chat, &alice, &battle).await;
    assert!(waits > 0, "the bot never had a turn");
}

flow! {
    fn the_learning_bot_plays_and_learns_the_fleet_revealed_at_the_end() {
        let app = App::spawn().await;
        let bob = app.player(8002, "Bob", "ru");
        let chat = 8002;
        app.tg.send_command(chat, &bob, "/play обучаемый");
        app.tg
            .wait_for_text(chat, "(обучаемый)", wait())
            .await
            .expect("the game against the learning bot begins");
        place_and_ready(&app, &bob).await;
        let battle = app.message_with_button(chat, "f:").await;
        let waits = play_against_the_bot(&app, chat, &bob, &battle).await;
        assert!(waits > 0, "the bot never had a turn");
        assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
        // Bob's fleet, and only his (not the bot's), is what the bot learns from: once, in this
        // chat's list and in everyone's.
        let store = app.store().await;
        let ruleset = engine::Ruleset::default().to_string();
        let mut learned = None;
        for _ in 0..100 {
            let (mine, all) = store.layouts(chat, &ruleset).await.unwrap();
            if !mine.is_empty() {
                learned = Some((mine, all));
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (mine, all) = learned.expect("the revealed fleet is counted");
        assert_eq!(mine.len(), 1, "{mine:?}");
        assert_eq!(all, mine);
        let mut habits = engine::Habits::new();
        assert!(habits.observe_code(&mine[0], 100, 1.0));
        assert_eq!(mine[0].split(' ').count(), 10, "a whole classic fleet");
    }
}

/// The shots at the player's own field their private chat `chat` shows now, and its words:
/// from the newest message titled "Your fleet".
pub(crate) fn own_field_shown(app: &App, chat: i64) -> Option<(usize, String)> {
    let own = app
        .tg
        .messages(chat)
        .into_iter()
        .rev()
        .find(|m| m.text.starts_with("Your fleet"))?;
    let shots = own
        .text
        .chars()
        .filter(|c| matches!(c, '•' | 'X' | '#'))
        .count();
    Some((shots, own.text.clone()))
}

/// How many cells of seat 0's field have been shot and how many of them struck a ship or a
/// mine, as the stored game says, and whether it is seat 0's turn (`None` while the game is
/// over).
pub(crate) async fn shot_at_the_player(
    store: &morskoy_boy::store::Store,
    game: u64,
) -> Option<(usize, usize, bool)> {
    let (rec, _) = store
        .load_game(morskoy_boy::store::GameId(game))
        .await
        .expect("the game is stored");
    if rec.game.is_finished() {
        return None;
    }
    let view = rec.game.view_for(engine::SeatId(0));
    let field = view.field(engine::SeatId(0));
    let count = |marks: &[engine::Mark]| {
        field
            .size
            .cells()
            .filter(|&c| marks.contains(&field.mark(c)))
            .count()
    };
    use engine::Mark::{Hit, Mine, Miss, Sunk};
    let shot = count(&[Miss, Hit, Sunk]);
    let struck = count(&[Hit, Sunk, Mine]);
    Some((shot, struck, rec.game.turn() == engine::SeatId(0)))
}

/// At the production pause (1.2 s), the player shoots at the bot's field cell by cell; after
/// each of the bot's turns (at least `turns` of them, and one that struck the fleet), once the
/// stored game says it is the player's turn again: after a turn that struck a ship or a
/// mine, the player's own field in the private chat must show every cell the bot shot, and
/// say where the player shoots (`shoot_where`), within a few seconds; after a turn of misses
/// alone it is left as it was (issue 43: those misses are on the battle message, and wait
/// for the field's next redraw).
async fn own_field_follows_the_bots_turns(
    app: &App,
    chat: i64,
    player: &User,
    battle: &SentMessage,
    shoot_where: &str,
    turns: usize,
) {
    let (game, generation) = fire_target(battle);
    let store = app.store().await;
    let id: u64 = game.parse().unwrap();
    let (mut next, mut seen) = (0usize, 0usize);
    // What the field showed when it was last brought up to date, and the turns that struck:
    // from the player's first turn (the bot may have begun, and struck).
    let (shot_first, mut struck_before) = loop {
        match shot_at_the_player(&store, id).await {
            Some((shot, struck, true)) => break (shot, struck),
            Some(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            None => return,
        }
    };
    // The own field is first sent when the battle begins, drawn from the record its sender
    // loads then: after none, some or all of the bot's first turn. From then on it changes
    // only as the rules say.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut shown_before = loop {
        let first = own_field_shown(app, player.id.0 as i64).map(|(n, _)| n);
        if let Some(n) = first.filter(|&n| n == shot_first || struck_before == 0) {
            assert!(
                n <= shot_first,
                "the own field shows {n} of {shot_first} shots"
            );
            break n;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the own field does not show the bot's first turn: {first:?} of {shot_first}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let mut struck_turns = 0usize;
    while seen < turns || struck_turns == 0 {
        assert!(next < 100, "the bot's field ran out of cells");
        let data = format!("f:{game}:{generation}:1:{next}");
        let answer = app.press(chat, player, battle.message_id, &data).await;
        match read_answer(&said(&answer)) {
            Shot::Hit | Shot::Sunk | Shot::Known => next += 1,
            Shot::NotYourTurn => tokio::time::sleep(Duration::from_millis(50)).await,
            Shot::Over => return,
            Shot::Miss => {
                next += 1;
                // The bot's turn: until the stored game gives the turn back.
                let deadline = tokio::time::Instant::now() + wait() * 2;
                let (shot, struck) = loop {
                    match shot_at_the_player(&store, id).await {
                        None => return,
                        Some((shot, struck, true)) => break (shot, struck),
                        Some(_) => {
                            assert!(
                                tokio::time::Instant::now() < deadline,
                                "the bot never gave the turn back"
                            );
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                };
                seen += 1;
                if struck == struck_before {
                    // Misses alone: the field is not redrawn (given the time it would take).
                    tokio::time::sleep(Duration::from_millis(1500)).await;
                    let shown = own_field_shown(app, player.id.0 as i64).map(|(n, _)| n);
                    assert_eq!(
                        shown,
                        Some(shown_before),
                        "after the bot's turn {seen} of misses alone the own field was redrawn"
                    );
                    continue;
                }
                struck_turns += 1;
                let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
                loop {
                    let shown = own_field_shown(app, player.id.0 as i64);
                    if shown
                        .as_ref()
                        .is_some_and(|(n, text)| *n == shot && text.contains(shoot_where))
                    {
                        break;
                    }
                    assert!(
                        tokio::time::Instant::now() < deadline,
                        "after the bot's turn {seen} the own field shows {shown:?}, \
                         not {shot} shots and \"{shoot_where}\""
                    );
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                (shown_before, struck_before) = (shot, struck);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_real_pause_the_own_field_shows_every_shot_of_the_bot_in_a_private_game() {
    let app = App::spawn_at_ai_pause(1200).await;
    let alice = app.player(8031, "Alice", "en");
    let chat = 8031;
    app.set_board(chat, morskoy_boy::game::record::Board::Text)
        .await;
    app.tg.send_command(chat, &alice, "/play easy");
    place_and_ready(&app, &alice).await;
    let battle = app.message_with_button(chat, "f:").await;
    own_field_follows_the_bots_turns(
        &app,
        chat,
        &alice,
        &battle,
        "You shoot in the message with the fields.",
        4,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_real_pause_the_own_field_shows_every_shot_of_the_bot_in_a_group_game() {
    let app = App::spawn_at_ai_pause(1200).await;
    let group = -8032;
    app.tg.group(group, "Sea dogs");
    let alice = app.player(8033, "Alice", "en");
    app.set_board(8033, morskoy_boy::game::record::Board::Text)
        .await;
    let (lobby, _) = open_lobby(&app, group, &alice).await;
    let seated = app
        .press(group, &alice, lobby.message_id, &data(&lobby, "b:"))
        .await;
    assert!(!seated.show_alert, "{seated:?}");
    let started = app
        .press(group, &alice, lobby.message_id, &data(&lobby, "s:"))
        .await;
    assert!(!started.show_alert, "{started:?}");
    place_and_ready(&app, &alice).await;
    let battle = app.message_with_button(group, "f:").await;
    own_field_follows_the_bots_turns(&app, group, &alice, &battle, "You shoot in the group.", 4)
        .await;
}

/// The bot's first shot at seat 0's field, as the stored game's log has it, once it has
/// shot; the player in seat 0 shoots at the bot's field whenever it is their turn.
async fn bots_first_shot(app: &App, chat: i64, player: &User, battle: &SentMessage) -> Coord {
    let (game, generation) = fire_target(battle);
    let id: u64 = game.parse().unwrap();
    let store = app.store().await;
    let mut next = 0usize;
    let deadline = tokio::time::Instant::now() + wait() * 4;
    loop {
        assert!(tokio::time::Instant::now() < deadline, "the bot never shot");
        let (rec, _) = store
            .load_game(morskoy_boy::store::GameId(id))
            .await
            .expect("the game is stored");
        let first = rec.log.iter().find_map(|e| match e {
            engine::Event::Shot {
                shooter,
                target: engine::SeatId(0),
                cell,
                ..
            } if *shooter != engine::SeatId(0) => Some(*cell),
            _ => None,
        });
        if let Some(cell) = first {
            return cell;
        }
        if rec.game.turn() == engine::SeatId(0) {
            let data = format!("f:{game}:{generation}:1:{next}");
            let answer = app.press(chat, player, battle.message_id, &data).await;
            if matches!(
                read_answer(&said(&answer)),
                Shot::Miss | Shot::Hit | Shot::Sunk | Shot::Known
            ) {
                next += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

flow! {
    fn the_learning_bot_shoots_by_the_habits_of_the_person_it_plays() {
        let app = App::spawn().await;
        let ruleset = engine::Ruleset::default();
        let store = app.store().await;
        // Anna has placed in the left half five times before; somebody else in her chat placed in
        // the right half sixty times: the chat's layouts lean right, Anna's own left.
        let left = "0,10,20,30 2,12,22 4,14,24 50,60 42,52 44,54 80 72 74 92";
        let right = "9,19,29,39 7,17,27 5,15,25 59,69 47,57 45,55 89 77 75 99";
        let key = ruleset.to_string();
        for (anna, chat) in [(8010u64, 8010i64), (8012, 8012)] {
            seen_placing(&store, chat, &key, 9_400_000 + anna * 100, (anna, left), 5).await;
            seen_placing(
                &store,
                chat,
                &key,
                9_500_000 + anna * 100,
                (8011, right),
                60,
            )
            .await;
        }
        let cells: Vec<engine::Coord> = left
            .split([' ', ','])
            .map(|i| ruleset.size().coord(i.parse().expect("a cell")))
            .collect();
        // Twice, in English and in Russian: the bot's first shot at Anna's field is on one of
        // her usual cells, whatever her fleet is this time.
        for (id, name, lang, level, begun) in [
            (8010, "Anna", "en", "learning", "(learning)"),
            (8012, "Аня", "ru", "обучаемый", "(обучаемый)"),
        ] {
            let anna = app.player(id, name, lang);
            app.tg.send_command(id, &anna, &format!("/play {level}"));
            app.tg
                .wait_for_text(id, begun, wait())
                .await
                .expect("the game against the learning bot begins");
            place_and_ready(&app, &anna).await;
            let battle = app.message_with_button(id, "f:").await;
            let first = bots_first_shot(&app, id, &anna, &battle).await;
            assert!(
                cells.contains(&first),
                "{name}: the bot's first shot at {first:?}, not on her usual cells"
            );
        }
        assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
    }
}
