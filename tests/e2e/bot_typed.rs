//! End to end, moves typed in reply in a private game against the bot (`/play` in a private
//! chat), in Russian, Bulgarian and English: cells and a weapon of the arsenal typed in reply
//! to the battle message are played as the buttons would play them, the bot answers in the
//! player's language, a bad cell is refused in words and changes nothing, and a message that
//! answers no battle message is let be. The real bot binary, a real Redis and the fake
//! Telegram, as in `tests/e2e/bot.rs`.
//!
//! The test players read the game from Redis only to choose their moves (which cell is not
//! known yet) and to see that a refusal changed nothing; every move is a reply.

use crate::bot_variants::rules;
use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use engine::{format_cell, Coord, Event, Ruleset, SeatId, ShotResult};
use morskoy_boy::game::record::{Board, GameRecord};
use morskoy_boy::store::{GameId, Store};
use std::time::Duration;
use tokio::time::Instant;

/// What a private chat hears in one language, and how its player types.
struct Tongue {
    code: &'static str,
    name: &'static str,
    bot: &'static str,
    radar: &'static str,
    /// A cell off the field, typed.
    bad: &'static str,
    /// The words refusing it.
    bad_words: &'static str,
    miss: &'static str,
    hit: &'static str,
    sunk: &'static str,
    /// Whether the player types cells in capitals ("Б6"), else in small letters ("б6").
    capitals: bool,
}

const RU: Tongue = Tongue {
    code: "ru",
    name: "Аня",
    bot: "🤖 Бот (лёгкий)",
    radar: "радар",
    bad: "ю11",
    bad_words: "Это не клетка",
    miss: "мимо",
    hit: "ранил",
    sunk: "убил",
    capitals: false,
};

const BG: Tongue = Tongue {
    code: "bg",
    name: "Мария",
    bot: "🤖 Бот (лесен)",
    radar: "радар",
    bad: "Я0",
    bad_words: "Това не е клетка",
    miss: "промах",
    hit: "попадение",
    sunk: "потопен",
    capitals: true,
};

const EN: Tongue = Tongue {
    code: "en",
    name: "Alice",
    bot: "🤖 Bot (easy)",
    radar: "radar",
    bad: "z99",
    bad_words: "That is not a cell",
    miss: "miss",
    hit: "hit",
    sunk: "sunk",
    capitals: true,
};

/// The words of a shot's result in `w`'s language (a sinking names its ship after them).
fn result_word(w: &Tongue, r: ShotResult) -> &'static str {
    match r {
        ShotResult::Miss => w.miss,
        ShotResult::Hit => w.hit,
        ShotResult::Sunk(_) => w.sunk,
        ShotResult::Mine => "mine",
    }
}

async fn record(store: &Store, game: u64) -> GameRecord {
    store
        .load_game(GameId(game))
        .await
        .expect("the game is stored")
        .0
}

/// Waits until it is the player's turn (seat 0) in the stored game.
async fn players_turn(store: &Store, game: u64) -> GameRecord {
    let deadline = Instant::now() + wait();
    loop {
        let rec = record(store, game).await;
        assert!(!rec.game.is_finished(), "the game ended");
        if rec.game.turn() == SeatId(0) {
            return rec;
        }
        assert!(
            Instant::now() < deadline,
            "the bot never gave the turn back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until some version of the battle message has a line of `name`'s that holds `part`
/// ("Б6 — мимо", alone or within a run of shots).
async fn battle_shows(app: &App, chat: i64, battle: i32, name: &str, part: &str, what: &str) {
    let found = app
        .tg
        .wait_for(
            chat,
            |m: &SentMessage| {
                m.message_id == battle
                    && m.versions
                        .iter()
                        .any(|v| v.lines().any(|l| l.contains(name) && l.contains(part)))
            },
            wait(),
        )
        .await;
    assert!(
        found.is_some(),
        "{what}: the battle message never showed {name}'s {part:?}; it shows {:?}",
        app.tg
            .messages(chat)
            .iter()
            .find(|m| m.message_id == battle)
            .map(|m| m.text.clone())
    );
}

/// The bot's first move at the player's field after the `after`-th event of the log, once it
/// is stored: its shot's cell and answer, or `None` when it fired one of its weapons instead
/// (the easy bot fires one it has left on 8 % of its moves; a weapon ends its turn).
async fn bots_shot_after(store: &Store, game: u64, after: usize) -> Option<(Coord, ShotResult)> {
    let deadline = Instant::now() + wait();
    loop {
        let rec = record(store, game).await;
        let moved = rec.log.iter().skip(after).find_map(|e| match e {
            Event::Shot {
                shooter: SeatId(1),
                cell,
                result,
                ..
            } => Some(Some((*cell, *result))),
            Event::Radar {
                shooter: SeatId(1), ..
            }
            | Event::AirStrike {
                shooter: SeatId(1), ..
            }
            | Event::Torpedo {
                shooter: SeatId(1), ..
            } => Some(None),
            _ => None,
        });
        if let Some(moved) = moved {
            return moved;
        }
        assert!(Instant::now() < deadline, "the bot never moved");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A private game against the easy bot with the arsenal, every move of the player typed in
/// reply to the battle message in `w`'s language.
async fn typed_private_game(app: &App, id: i64, w: &Tongue) {
    let user = app.player(id, w.name, w.code);
    app.set_rules(
        id,
        rules(Ruleset {
            arsenal: 1,
            ..Ruleset::default()
        }),
    )
    .await;
    app.set_board(id, Board::Text).await;
    app.welcomed(&user).await;
    app.tg.send_command(id, &user, "/play easy");
    place_and_ready(app, &user).await;
    let battle = app.message_with_button(id, "f:").await;
    let game: u64 = data(&battle, "f:")
        .split(':')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let store = app.store().await;
    let rec = players_turn(&store, game).await;
    let (alphabet, size) = (rec.alphabet, rec.game.ruleset().size());
    // As the bot names a cell, and as the player types it.
    let cell_name = |c: Coord| format_cell(c, alphabet, size);
    let typed = |c: Coord| {
        let name = format_cell(c, alphabet, size);
        if w.capitals {
            name.to_uppercase()
        } else {
            name.to_lowercase()
        }
    };

    // Words that answer no battle message are let be: a cell not in reply, and a reply to
    // the player's own message. A cell off the field in reply is refused in words.
    let own = app.tg.send_text(id, &user, &typed(Coord::new(4, 4)));
    app.tg.send_reply(id, &user, "ok", own.id.0);
    let bad = app.tg.send_reply(id, &user, w.bad, battle.message_id);
    let refusal = app
        .tg
        .wait_for(id, |m| m.message_id > bad.id.0, wait())
        .await
        .expect("a bad cell typed in reply is refused");
    assert!(
        refusal.text.contains(w.bad_words),
        "{}: the refusal says {:?}",
        w.code,
        refusal.text
    );
    let after = record(&store, game).await;
    assert_eq!(
        after.game, rec.game,
        "{}: a refused cell changed the game",
        w.code
    );
    assert_eq!(after.log, rec.log, "{}", w.code);
    let since = app.tg.messages_after(id, battle.message_id);
    assert_eq!(
        since.iter().filter(|m| m.message_id > own.id.0).count(),
        1,
        "{}: answered more than the bad cell: {:?}",
        w.code,
        since.iter().map(|m| &m.text).collect::<Vec<_>>()
    );

    // The radar typed in reply: played, the turn passes, and the bot moves (its shot in words of
    // the player's language, a weapon it may fire instead).
    let center = Coord::new(4, 4);
    let seen = rec.log.len();
    let radar = app.tg.send_reply(
        id,
        &user,
        &format!("{} {}", w.radar, typed(center)),
        battle.message_id,
    );
    let radar_line = format!("📡 {} — {} {}:", w.name, w.radar, cell_name(center));
    battle_shows(app, id, battle.message_id, w.name, &radar_line, w.code).await;
    assert_eq!(
        record(&store, game).await.game.weapons_left(SeatId(0)),
        [0, 1, 1],
        "{}: the radar is spent",
        w.code
    );
    assert!(
        app.tg
            .reactions(id)
            .iter()
            .any(|(m, e)| *m == radar.id.0 && e == "👍"),
        "{}: the typed radar got no 👍",
        w.code
    );
    if let Some((cell, result)) = bots_shot_after(&store, game, seen).await {
        let part = format!("{} — {}", cell_name(cell), result_word(w, result));
        battle_shows(app, id, battle.message_id, w.bot, &part, w.code).await;
    }

    // Cells typed in reply until one misses; then the bot shoots again.
    let mut shots = 0;
    loop {
        shots += 1;
        assert!(shots < 100, "{}: never a miss", w.code);
        let rec = players_turn(&store, game).await;
        let c = size
            .cells()
            .find(|&c| !rec.game.is_known(SeatId(1), c))
            .expect("a cell not known");
        let seen = rec.log.len();
        app.tg.send_reply(id, &user, &typed(c), battle.message_id);
        let deadline = Instant::now() + wait();
        let result = loop {
            let now = record(&store, game).await;
            let result = now.log.iter().skip(seen).find_map(|e| match e {
                Event::Shot {
                    shooter: SeatId(0),
                    cell,
                    result,
                    ..
                } if *cell == c => Some(*result),
                _ => None,
            });
            if let Some(r) = result {
                break r;
            }
            assert!(
                Instant::now() < deadline,
                "{}: the typed cell {} was not played",
                w.code,
                typed(c)
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let part = format!("{} — {}", cell_name(c), result_word(w, result));
        battle_shows(app, id, battle.message_id, w.name, &part, w.code).await;
        if result == ShotResult::Miss {
            if let Some((cell, result)) = bots_shot_after(&store, game, seen).await {
                let part = format!("{} — {}", cell_name(cell), result_word(w, result));
                battle_shows(app, id, battle.message_id, w.bot, &part, w.code).await;
            }
            break;
        }
    }
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

flow! {
    fn cells_and_a_radar_typed_in_reply_are_played_in_a_private_game_in_three_languages() {
        let app = App::spawn().await;
        tokio::join!(
            typed_private_game(&app, 8101, &RU),
            typed_private_game(&app, 8102, &BG),
            typed_private_game(&app, 8103, &EN),
        );
    }
}
