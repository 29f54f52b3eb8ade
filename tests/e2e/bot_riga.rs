//! End to end, the Riga board game (docs/rules.md §5): a group game by buttons to a win, one to a
//! draw by the 60-move rule, a typed move, and a game against the bot in a private chat. The
//! real bot binary, a real Redis and the fake Telegram, as in `tests/e2e/bot.rs`; the tests read
//! the position from the store to choose their moves, and press only buttons the battle's
//! message shows.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use morskoy_boy::game::record::{GameRecord, Play};
use morskoy_boy::game::riga::{RigaEnd, RigaPlay};
use morskoy_boy::store::GameId;
use riga::{Facing, Game, Kind, Move, Outcome, Point, Side, Terrain};
use std::collections::{HashMap, VecDeque};
use teloxide::types::User;

/// A move as the bot writes it in callback data.
fn code(m: Move) -> String {
    match m {
        Move::Forward(i) => format!("f{i}"),
        Move::Left(i) => format!("l{i}"),
        Move::Right(i) => format!("r{i}"),
        Move::Lay(i) => format!("m{i}"),
        Move::Pass => "p".into(),
    }
}

pub(crate) async fn record(app: &App, game: u64) -> GameRecord {
    app.store()
        .await
        .load_game(GameId(game))
        .await
        .expect("the game is stored")
        .0
}

/// The Riga game's state of a record; `None` in a Sea Battle one.
pub(crate) fn riga_of(rec: &GameRecord) -> Option<&RigaPlay> {
    match &rec.play {
        Play::Riga(r) => Some(r),
        Play::SeaBattle(_) => None,
    }
}

/// The Riga game's state of game `game` as stored now.
pub(crate) async fn riga_record(app: &App, game: u64) -> RigaPlay {
    riga_of(&record(app, game).await)
        .cloned()
        .expect("a Riga game")
}

fn riga_game(rec: &GameRecord) -> Game {
    riga_of(rec)
        .and_then(|r| r.game.clone())
        .expect("the Riga battle is on")
}

/// `/newgame riga` in `group` by `a` (after a game the bot does not know is refused), `b`
/// joins, `a` starts; the game's id and the lobby's message.
pub(crate) async fn riga_lobby(app: &App, group: i64, a: &User, b: &User) -> (u64, SentMessage) {
    app.tg.group(group, "Riga");
    app.welcomed(a).await;
    app.welcomed(b).await;
    app.tg.send_command(group, a, "/newgame chess");
    app.tg
        .wait_for_text(group, "I do not know that game", wait())
        .await
        .expect("an unknown game is refused");
    app.tg.send_command(group, a, "/newgame riga");
    let lobby = app.message_with_button(group, "j:").await;
    assert!(lobby.text.contains("Riga board game"), "{}", lobby.text);
    let join = data(&lobby, "j:");
    let game: u64 = join.split(':').nth(1).unwrap().parse().unwrap();
    let answer = app.press(group, b, lobby.message_id, &join).await;
    assert!(!answer.show_alert, "{answer:?}");
    app.tg
        .wait_for(
            group,
            |m| m.message_id == lobby.message_id && m.text.contains("2. "),
            wait(),
        )
        .await
        .expect("the lobby shows both players");
    let start = data(&lobby, "s:");
    let answer = app.press(group, a, lobby.message_id, &start).await;
    assert!(!answer.show_alert, "{answer:?}");
    (game, lobby)
}

/// [`riga_lobby`], then each orders their fleet in the private chat (`a` swaps two ships
/// first); the game's id and the battle's message.
async fn riga_duel(app: &App, group: i64, a: &User, b: &User) -> (u64, SentMessage) {
    let (game, _) = riga_lobby(app, group, a, b).await;
    for (n, p) in [a, b].into_iter().enumerate() {
        let chat = p.id.0 as i64;
        let setup = app.message_with_button(chat, "qk:").await;
        assert_eq!(
            setup
                .callback_data()
                .iter()
                .filter(|d| d.starts_with("qt:"))
                .count(),
            12,
            "twelve start points: {:?}",
            setup.buttons()
        );
        if n == 0 {
            // Two taps swap two ships; the order the bot keeps says so.
            let before = riga_record(app, game).await.orders[0].clone();
            app.press(chat, p, setup.message_id, &format!("qt:{game}:0"))
                .await;
            app.press(chat, p, setup.message_id, &format!("qt:{game}:5"))
                .await;
            let after = riga_record(app, game).await.orders[0].clone();
            assert_eq!((after[0], after[5]), (before[5], before[0]));
            // Not a player: refused, nothing changes.
            let stranger = app.player(9999, "Mallory", "en");
            let answer = app
                .press(chat, &stranger, setup.message_id, &format!("qt:{game}:1"))
                .await;
            assert!(answer.show_alert, "{answer:?}");
            assert_eq!(riga_record(app, game).await.orders[0], after);
            // Nothing is revealed before both are locked.
            assert!(riga_record(app, game).await.game.is_none());
        }
        let answer = app
            .press(chat, p, setup.message_id, &data(&setup, "qk:"))
            .await;
        assert!(!answer.show_alert, "{answer:?}");
    }
    let battle = app.message_with_button(group, "qm:").await;
    (game, battle)
}

/// Waits until the battle's message offers `wanted` and presses it as `who`.
async fn press_shown(app: &App, group: i64, who: &User, battle: i32, wanted: &str) {
    let shown = app
        .tg
        .wait_for(
            group,
            |m| m.message_id == battle && m.callback_data().iter().any(|d| d == wanted),
            wait(),
        )
        .await;
    assert!(
        shown.is_some(),
        "the battle's message never offered {wanted}"
    );
    let answer = app.press(group, who, battle, wanted).await;
    assert!(!answer.show_alert, "{wanted} was refused: {answer:?}");
}

/// A turn in place for the side to move: a move that never loses or takes a ship.
fn idle_move(g: &Game) -> Move {
    let side = g.turn();
    let i = g
        .ships()
        .iter()
        .position(|s| s.is_some_and(|s| s.side == side))
        .expect("a ship afloat");
    Move::Left(i as u8)
}

/// South's cruiser hunts: a capture that loses nothing when there is one, else the first
/// step of the shortest way (turns and steps, around land, own ships and the enemy's red
/// points) to a point from which the next step sinks a North ship.
fn hunter_move(g: &Game) -> Move {
    let side = g.turn();
    for m in g.legal_moves() {
        let mut next = g.clone();
        let Ok(lost) = next.play(side, m) else {
            continue;
        };
        let takes = lost.iter().any(|&i| g.ships()[i].unwrap().side != side);
        let loses = lost.iter().any(|&i| g.ships()[i].unwrap().side == side);
        if takes && !loses {
            return m;
        }
    }
    let (ci, cruiser) = g
        .ships()
        .iter()
        .enumerate()
        .find_map(|(i, s)| {
            s.filter(|s| s.side == side && s.kind == Kind::Cruiser)
                .map(|s| (i, s))
        })
        .expect("the cruiser is afloat");
    let start = (cruiser.at, cruiser.facing);
    let mut first: HashMap<(Point, Facing), Move> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    first.insert(start, Move::Pass);
    while let Some((p, f)) = queue.pop_front() {
        let here = first[&(p, f)];
        let via = |m: Move| if (p, f) == start { m } else { here };
        let mut next: Vec<((Point, Facing), Move)> = Vec::new();
        if let Some(q) = f.step(p) {
            let open = q.terrain() != Terrain::Red(side.other());
            match g.ship_at(q) {
                Some((_, t)) if t.side != side && open => return via(Move::Forward(ci as u8)),
                None if q.is_sea() && open => next.push(((q, f), via(Move::Forward(ci as u8)))),
                _ => {}
            }
        }
        next.push(((p, f.left()), via(Move::Left(ci as u8))));
        next.push(((p, f.right()), via(Move::Right(ci as u8))));
        for (state, m) in next {
            if let std::collections::hash_map::Entry::Vacant(e) = first.entry(state) {
                e.insert(m);
                queue.push_back(state);
            }
        }
    }
    idle_move(g)
}

flow! {
    fn a_group_riga_game_is_won_by_buttons_and_a_typed_move() {
        let app = App::spawn().await;
        let group = -7101;
        let a = app.player(7101, "Ann", "en");
        let b = app.player(7102, "Ben", "en");
        let (game, battle) = riga_duel(&app, group, &a, &b).await;
        let players = [a.clone(), b.clone()];
        let mut typed = false;
        let mut moves = 0;
        loop {
            let rec = record(&app, game).await;
            let r = riga_of(&rec).unwrap();
            if r.end.is_some() {
                break;
            }
            moves += 1;
            assert!(moves < 400, "the game does not end");
            let g = riga_game(&rec);
            let side = g.turn();
            let who = &players[usize::from(side == Side::South)];
            let m = if side == Side::South {
                hunter_move(&g)
            } else {
                idle_move(&g)
            };
            if side == Side::South && !typed && matches!(m, Move::Forward(_)) {
                // Once, a move typed in reply to the battle's message: a refusal first (a
                // point with no own ship), which changes nothing, then the move.
                typed = true;
                let ship = g.ships()[match m {
                    Move::Forward(i) => usize::from(i),
                    _ => unreachable!(),
                }]
                .unwrap();
                let before = g.moves();
                // The player not to move types a move of their own ship: not their turn, which
                // is what they are told (not that they have no ship there).
                let waiting = &players[usize::from(side != Side::South)];
                let own = g
                    .ships()
                    .iter()
                    .flatten()
                    .find(|s| s.side != side)
                    .expect("North has ships");
                let own = riga::notation::format_point(own.at, false);
                app.tg
                    .send_reply(group, waiting, &format!("{own} forward"), battle.message_id);
                let refusal = app
                    .tg
                    .wait_for(7101, |m| m.text.contains("not your turn"), wait())
                    .await
                    .expect("the refusal goes to the writer's private chat");
                assert!(
                    !refusal.text.contains("no ship"),
                    "{:?}",
                    app.tg.all_texts(7101)
                );
                assert_eq!(riga_game(&record(&app, game).await).moves(), before);
                app.tg
                    .send_reply(group, who, "a7 forward", battle.message_id);
                app.tg
                    .wait_for_text(7102, "You have no ship there", wait())
                    .await
                    .expect("the refusal goes to the writer's private chat");
                assert_eq!(riga_game(&record(&app, game).await).moves(), before);
                let point = riga::notation::format_point(ship.at, false);
                let typed =
                    app.tg
                        .send_reply(group, who, &format!("{point} forward"), battle.message_id);
                let mut played = false;
                for _ in 0..200 {
                    if riga_game(&record(&app, game).await).moves() > before {
                        played = true;
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(25)).await;
                }
                assert!(played, "the typed move was not played");
                // Acknowledged at once on the player's message; the refused one was not.
                let deadline = tokio::time::Instant::now() + wait();
                while !app
                    .tg
                    .reactions(group)
                    .contains(&(typed.id.0, "👍".to_owned()))
                {
                    assert!(
                        tokio::time::Instant::now() < deadline,
                        "no 👍 on the typed move"
                    );
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                assert_eq!(
                    app.tg.reactions(group).len(),
                    1,
                    "{:?}",
                    app.tg.reactions(group)
                );
                continue;
            }
            let wanted = format!("qm:{game}:{}:{}", riga_game(&rec).moves(), code(m));
            // The other player's press of the same button is refused and changes nothing.
            if moves == 3 {
                let other = &players[usize::from(side != Side::South)];
                let answer = app.press(group, other, battle.message_id, &wanted).await;
                assert!(answer.show_alert, "{answer:?}");
                assert_eq!(riga_game(&record(&app, game).await), g);
            }
            press_shown(&app, group, who, battle.message_id, &wanted).await;
            if moves == 5 {
                // A second tap of the same button (a slow client) plays nothing more.
                let answer = app.press(group, who, battle.message_id, &wanted).await;
                assert!(answer.show_alert, "{answer:?}");
                assert_eq!(riga_game(&record(&app, game).await).moves(), g.moves() + 1);
            }
        }
        let rec = record(&app, game).await;
        assert_eq!(
            riga_of(&rec).unwrap().end,
            Some(RigaEnd::Played(Outcome::Win(Side::South)))
        );
        assert!(typed, "no move was typed");
        // The end: the battle's message without buttons says who won, the announcement offers
        // a rematch, and the chat is free for a new game.
        let last = app
            .tg
            .wait_for(
                group,
                |m| m.message_id == battle.message_id && !m.has_keyboard() && m.text.contains("wins"),
                wait(),
            )
            .await
            .expect("the final board says who won");
        assert!(last.text.contains("Ben"), "{}", last.text);
        // Every capture was told in the group with both ships' names.
        let told = last
            .versions
            .iter()
            .filter(|v| v.contains("South: cruiser") && v.contains(", sank "))
            .count();
        assert!(
            told >= 12,
            "{told} versions tell a capture: {:?}",
            last.versions
        );
        let end = app.message_with_button(group, "r:").await;
        // The end's replay link opens the game move by move in a private chat: every move the
        // game was won by, the last one the one the group read last, and who won.
        let link = end.button("Replay").expect("a replay link on the end");
        let payload = link.split("?start=").nth(1).unwrap().to_owned();
        let chat = a.id.0 as i64;
        app.tg.send_command(chat, &a, &format!("/start {payload}"));
        let replay = app
            .tg
            .wait_for(
                chat,
                |m| m.text.contains(&format!("Step 0 of {moves}")),
                wait(),
            )
            .await
            .unwrap_or_else(|| {
                panic!(
                    "no replay of {moves} moves: {:?}",
                    app.tg.last_message(chat)
                )
            });
        let to_end = replay.button("⏭").unwrap();
        app.press(chat, &a, replay.message_id, &to_end).await;
        let final_step = app
            .tg
            .wait_for(
                chat,
                |m| m.text.contains(&format!("Step {moves} of {moves}")),
                wait(),
            )
            .await
            .expect("the replay's last step");
        let last_move = last
            .text
            .lines()
            .rev()
            .find(|l| l.starts_with("South: "))
            .unwrap();
        assert!(
            final_step.text.contains(last_move),
            "{last_move:?} in {}",
            final_step.text
        );
        assert!(final_step.text.contains("wins"), "{}", final_step.text);
        // Every version of the battle's message has no fewer sunk ships than the one before.
        let afloat = |text: &str| -> Vec<u32> {
            text.lines()
                .filter_map(|l| l.split(" · ").nth(1))
                .filter_map(|w| w.split_whitespace().next()?.parse().ok())
                .collect()
        };
        let history: Vec<Vec<u32>> = last.versions.iter().map(|v| afloat(v)).collect();
        for pair in history.windows(2) {
            assert!(
                pair[1].iter().zip(&pair[0]).all(|(n, o)| n <= o),
                "the battle's message went back: {pair:?}"
            );
        }
        assert_eq!(history.last().unwrap().first(), Some(&0), "{history:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_moves_with_no_loss_are_a_draw() {
    let app = App::spawn().await;
    let group = -7201;
    let a = app.player(7201, "Ann", "en");
    let b = app.player(7202, "Ben", "en");
    let (game, battle) = riga_duel(&app, group, &a, &b).await;
    let players = [a, b];
    for n in 0..riga::game::QUIET_MOVES {
        let rec = record(&app, game).await;
        assert_eq!(riga_of(&rec).unwrap().end, None, "ended after {n} moves");
        let g = riga_game(&rec);
        assert_eq!(g.quiet(), n);
        let who = &players[usize::from(g.turn() == Side::South)];
        let wanted = format!(
            "qm:{game}:{}:{}",
            riga_game(&rec).moves(),
            code(idle_move(&g))
        );
        press_shown(&app, group, who, battle.message_id, &wanted).await;
    }
    let rec = record(&app, game).await;
    assert_eq!(
        riga_of(&rec).unwrap().end,
        Some(RigaEnd::Played(Outcome::Draw))
    );
    let last = app
        .tg
        .wait_for(
            group,
            |m| m.message_id == battle.message_id && !m.has_keyboard(),
            wait(),
        )
        .await
        .expect("the final board has no buttons");
    app.message_with_button(group, "r:").await;
    // The count of quiet moves the message shows never goes back.
    let quiet = |text: &str| -> Option<u32> {
        let at = text.find("no loss: ")?;
        text[at + 9..].split_whitespace().next()?.parse().ok()
    };
    let seen: Vec<u32> = last.versions.iter().filter_map(|v| quiet(v)).collect();
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    // A press after the end changes nothing.
    let stale = format!(
        "qm:{game}:{}:{}",
        riga_game(&rec).moves(),
        code(Move::Left(0))
    );
    let answer = app
        .press(group, &players[0], battle.message_id, &stale)
        .await;
    assert!(answer.show_alert, "{answer:?}");
    // The chat is free: a new game opens.
    app.tg.send_command(group, &players[0], "/newgame riga");
    app.tg
        .wait_for(
            group,
            |m| {
                m.message_id > battle.message_id
                    && m.callback_data().iter().any(|d| d.starts_with("j:"))
            },
            wait(),
        )
        .await
        .expect("a new lobby opens");
}

flow! {
    fn a_riga_game_against_the_bot_in_a_private_chat() {
        let app = App::spawn().await;
        let alice = app.player(7301, "Alice", "en");
        let chat = 7301;
        app.welcomed(&alice).await;
        app.tg.send_command(chat, &alice, "/play riga easy");
        let intro = app
            .tg
            .wait_for_text(chat, "A Riga game against the bot (easy)", wait())
            .await
            .expect("the game begins");
        let setup = app.message_with_button(chat, "qk:").await;
        // The intro points to the set-up below it: it comes first.
        assert!(
            intro.message_id < setup.message_id,
            "the intro ({}) came after the set-up ({}): {:?}",
            intro.message_id,
            setup.message_id,
            app.tg.all_texts(chat)
        );
        let game: u64 = data(&setup, "qk:")
            .split(':')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        app.press(chat, &alice, setup.message_id, &data(&setup, "qk:"))
            .await;
        let battle = app.message_with_button(chat, "qm:").await;
        // Alice (North) makes three moves; the bot answers each.
        for n in 0..3 {
            let rec = record(&app, game).await;
            let g = riga_game(&rec);
            assert_eq!(g.turn(), Side::North, "the bot has not moved");
            let wanted = format!(
                "qm:{game}:{}:{}",
                riga_game(&rec).moves(),
                code(idle_move(&g))
            );
            press_shown(&app, chat, &alice, battle.message_id, &wanted).await;
            let mut answered = false;
            for _ in 0..400 {
                let g = riga_game(&record(&app, game).await);
                if g.turn() == Side::North
                    && g.moves() > riga_of(&rec).unwrap().game.as_ref().unwrap().moves() + 1
                {
                    answered = true;
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(25)).await;
            }
            assert!(answered, "the bot did not answer move {n}");
        }
        app.tg.send_command(chat, &alice, "/surrender");
        app.message_with_button(chat, "r:").await;
        let rec = record(&app, game).await;
        assert_eq!(
            riga_of(&rec).unwrap().end,
            Some(RigaEnd::Surrendered(Side::North))
        );
        let texts = app.tg.all_texts(chat).join("\n");
        assert!(texts.contains("Alice surrenders"), "{texts}");
    }
}

/// Messages of `chat` that ever had a move button.
fn battles(app: &App, chat: i64) -> usize {
    app.tg
        .messages(chat)
        .iter()
        .filter(|m| m.history.iter().any(|s| s.text.contains("to move")))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_after_the_last_lock_or_a_move_was_stored_nothing_is_lost_or_sent_twice() {
    let mut app = App::spawn().await;
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "riga_lock".into()));
    app.start_bot().await;
    let group = -7401;
    let a = app.player(7401, "Ann", "en");
    let b = app.player(7402, "Ben", "en");
    let (game, _) = riga_lobby(&app, group, &a, &b).await;
    // Ann locks (the bot crashes after storing it), then Ben, after a restart (it crashes
    // again): the battle appears once, and the game goes on.
    for p in [&a, &b] {
        let chat = p.id.0 as i64;
        let setup = app.message_with_button(chat, "qk:").await;
        app.tg
            .press_stale(chat, p, setup.message_id, &data(&setup, "qk:"));
        wait_for_the_crash(&mut app).await;
        app.kill_bot();
        app.start_bot().await;
        settled(&app, game).await;
    }
    let battle = app.message_with_button(group, "qm:").await;
    settled(&app, game).await;
    assert_eq!(battles(&app, group), 1, "{:?}", app.tg.all_texts(group));
    // A move stored, then a crash before anything is sent: the move reaches the group.
    app.kill_bot();
    app.env.push(("MB_CRASH_AT".into(), "riga_move".into()));
    app.start_bot().await;
    let rec = record(&app, game).await;
    let g = riga_game(&rec);
    let who = if g.turn() == Side::North { &a } else { &b };
    let wanted = format!(
        "qm:{game}:{}:{}",
        riga_game(&rec).moves(),
        code(idle_move(&g))
    );
    app.tg.press_stale(group, who, battle.message_id, &wanted);
    wait_for_the_crash(&mut app).await;
    app.restart_bot().await;
    let rec = record(&app, game).await;
    assert_eq!(
        riga_game(&rec).moves(),
        g.moves() + 1,
        "the move was stored"
    );
    let line = riga_of(&rec).unwrap().lines.last().unwrap().clone();
    app.tg
        .wait_for(
            group,
            |m| m.message_id == battle.message_id && m.text.contains(&line),
            wait(),
        )
        .await
        .unwrap_or_else(|| {
            let ids: Vec<(i32, bool)> = app
                .tg
                .messages(group)
                .iter()
                .map(|m| (m.message_id, m.text.contains(&line)))
                .collect();
            panic!(
                "the stored move «{line}» does not reach the group ({}): {ids:?}",
                battle.message_id
            )
        });
    // Pressed again, the same button is refused and changes nothing.
    let answer = app.press(group, who, battle.message_id, &wanted).await;
    assert!(answer.show_alert, "{answer:?}");
    assert_eq!(riga_game(&record(&app, game).await).moves(), g.moves() + 1);
    assert_eq!(battles(&app, group), 1);
    assert_no_4xx(&app);
}

flow! {
    fn the_lobby_switches_between_sea_battle_and_the_riga_game_by_its_creator_only() {
        let app = App::spawn().await;
        let group = -7501;
        let a = app.player(7501, "Ann", "en");
        let b = app.player(7502, "Ben", "en");
        app.tg.group(group, "Riga");
        let (lobby, _) = open_lobby(&app, group, &a).await;
        assert!(!lobby.text.contains("Riga board game"), "{}", lobby.text);
        let toggle = data(&lobby, "qg:");
        // Not the creator: refused, nothing changes.
        let answer = app.press(group, &b, lobby.message_id, &toggle).await;
        assert!(answer.show_alert, "{answer:?}");
        let game: u64 = toggle.split(':').nth(1).unwrap().parse().unwrap();
        assert!(riga_of(&record(&app, game).await).is_none());
        let answer = app.press(group, &a, lobby.message_id, &toggle).await;
        assert!(!answer.show_alert, "{answer:?}");
        app.tg
            .wait_for(
                group,
                |m| m.message_id == lobby.message_id && m.text.contains("Riga board game"),
                wait(),
            )
            .await
            .expect("the lobby becomes a Riga lobby");
        assert!(riga_of(&record(&app, game).await).is_some());
        // A Riga lobby has no Sea Battle rules: /settings shows the chat's defaults instead.
        app.tg.send_command(group, &a, "/settings");
        app.tg
            .wait_for(
                group,
                |m| {
                    m.message_id > lobby.message_id
                        && m.callback_data()
                            .iter()
                            .any(|d| d.matches(':').count() == 1 && d.starts_with("o:"))
                },
                wait(),
            )
            .await
            .expect("the chat's settings panel");
        assert_eq!(record(&app, game).await.panel, None);
        // And back.
        let answer = app.press(group, &a, lobby.message_id, &toggle).await;
        assert!(!answer.show_alert, "{answer:?}");
        app.tg
            .wait_for(
                group,
                |m| m.message_id == lobby.message_id && !m.text.contains("Riga board game"),
                wait(),
            )
            .await
            .expect("the lobby is Sea Battle's again");
        assert!(riga_of(&record(&app, game).await).is_none());
    }
}

flow! {
    fn a_player_who_lets_the_turn_timer_run_out_is_reminded_then_loses() {
        let app = App::spawn().await;
        let group = -7601;
        let a = app.player(7601, "Ann", "en");
        let b = app.player(7602, "Ben", "en");
        app.set_rules(
            group,
            engine::Ruleset {
                timer: engine::TurnTimer::OneMinute,
                ..engine::Ruleset::default()
            },
        )
        .await;
        let (game, battle) = riga_duel(&app, group, &a, &b).await;
        let rec = record(&app, game).await;
        let late = riga_game(&rec).turn();
        let name = if late == Side::North { "Ann" } else { "Ben" };
        // Nobody moves: a reminder at half time, then the side to move loses.
        let ended = app
            .tg
            .wait_for(
                group,
                |m| m.message_id == battle.message_id && m.text.contains("ran out of time"),
                std::time::Duration::from_secs(90),
            )
            .await
            .expect("the turn timer ends the game");
        assert!(
            ended.text.contains(&format!("{name} ran out of time")),
            "{}",
            ended.text
        );
        assert!(
            ended
                .versions
                .iter()
                .any(|v| v.contains(&format!("{name}, your move:"))),
            "no reminder: {:?}",
            ended.versions
        );
        assert_eq!(
            riga_record(&app, game).await.end,
            Some(RigaEnd::TimedOut(late))
        );
        app.message_with_button(group, "r:").await;
    }
}
