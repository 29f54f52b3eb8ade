//! End to end, the arsenal (docs/rules.md §3.8): whole group duels with the radar, the air
//! strike and the torpedo, each player firing each weapon once, some by buttons and some
//! typed in reply, at the production pace (the real 3.5 s gap between edits and the group's
//! budget of sends and edits), in Russian, Bulgarian and English; and a game against the bot
//! with the arsenal in a group, at the bot's real pause before each move. The real bot
//! binary, a real Redis and the fake Telegram, as in `tests/e2e/bot.rs`.
//!
//! The test players read the game from Redis only to choose their moves (which cell hides a
//! ship); every move is a tap on the bot's buttons or a reply, and every check is on what
//! Telegram was sent.

use crate::bot_variants::{grid_lines, plan, rules, table_with, Table};
use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use engine::{format_cell, Alphabet, Coord, Event, Game, Heading, Ruleset, SeatId, ShotResult};
use morskoy_boy::game::lang::Lang;
use morskoy_boy::game::record::ChatSettings;
use std::time::Duration;
use tokio::time::Instant;

/// What a group hears in one language.
struct Words {
    lang: Lang,
    code: &'static str,
    alphabet: Alphabet,
    radar: &'static str,
    air: &'static str,
    torpedo: &'static str,
    /// A word of the radar's count ("3 ship cells").
    ship_cells: &'static str,
    miss: &'static str,
    hit: &'static str,
    sunk: &'static str,
    /// A torpedo that found nothing.
    out: &'static str,
    winner: &'static str,
}

const RU: Words = Words {
    lang: Lang::Ru,
    code: "ru",
    alphabet: Alphabet::Russian,
    radar: "радар",
    air: "авиаудар",
    torpedo: "торпеда",
    ship_cells: "корабл",
    miss: "мимо",
    hit: "ранил",
    sunk: "убил",
    out: "мимо, ушла за поле",
    winner: "Победитель",
};

const BG: Words = Words {
    lang: Lang::Bg,
    code: "bg",
    alphabet: Alphabet::Bulgarian,
    radar: "радар",
    air: "въздушен удар",
    torpedo: "торпедо",
    ship_cells: "кораби",
    miss: "промах",
    hit: "попадение",
    sunk: "потопен",
    out: "промах, излезе от полето",
    winner: "Победител",
};

const EN: Words = Words {
    lang: Lang::En,
    code: "en",
    alphabet: Alphabet::Latin,
    radar: "radar",
    air: "air strike",
    torpedo: "torpedo",
    ship_cells: "ship cell",
    miss: "miss",
    hit: "hit",
    sunk: "sunk",
    out: "miss, out of the field",
    winner: "Winner",
};

/// The classic ruleset with one of each weapon, and no turn timer.
fn arsenal() -> Ruleset {
    rules(Ruleset {
        arsenal: 1,
        ..Ruleset::default()
    })
}

/// How a test player fires a weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    Buttons,
    Typed,
}

/// The weapon a seat fires at the start of its `turn`-th turn (from 1), and how: the first
/// seat taps its radar, types its air strike and taps a torpedo from a corner; the second
/// types its radar, taps its air strike and types a torpedo from an edge.
fn weapon_for(seat: usize, turn: usize) -> Option<(engine::Weapon, By)> {
    use engine::Weapon::{AirStrike, Radar, Torpedo};
    let plan = [
        [
            (Radar, By::Buttons),
            (AirStrike, By::Typed),
            (Torpedo, By::Buttons),
        ],
        [
            (Radar, By::Typed),
            (AirStrike, By::Buttons),
            (Torpedo, By::Typed),
        ],
    ];
    plan.get(seat)?.get(turn.checked_sub(1)?).copied()
}

/// The unknown cells of `target`'s field, as `game` knows them.
fn unknown(game: &Game, target: SeatId) -> impl Iterator<Item = Coord> + '_ {
    game.ruleset()
        .size()
        .cells()
        .filter(move |&c| !game.is_known(target, c))
}

/// Where a weapon aims: a radar at the middle of the unknown water, an air strike at an
/// unhit ship cell (so it hits), a torpedo from an edge cell whose run crosses an unknown
/// cell — from a corner for `By::Buttons` (so the way is asked), else from the left edge.
fn aim_of(game: &Game, target: SeatId, weapon: engine::Weapon, by: By) -> (Coord, Option<Heading>) {
    let size = game.ruleset().size();
    let open_run = |from: Coord, h: Heading| {
        engine::run_cells(from, h, size)
            .iter()
            .any(|&c| !game.is_known(target, c))
    };
    match weapon {
        engine::Weapon::Radar => {
            let c = unknown(game, target)
                .min_by_key(|c| (i32::from(c.x) - 4).abs() + (i32::from(c.y) - 4).abs())
                .expect("an unknown cell");
            (c, None)
        }
        engine::Weapon::AirStrike => {
            let fleet = game.fleet(target).expect("a fleet");
            let c = fleet
                .ship_cells()
                .find(|&c| !game.is_known(target, c))
                .expect("a ship afloat");
            (c, None)
        }
        engine::Weapon::Torpedo if by == By::Buttons => {
            let last = Coord::new(size.width - 1, size.height - 1);
            [
                (last, Heading::West),
                (last, Heading::North),
                (Coord::new(0, 0), Heading::East),
                (Coord::new(0, 0), Heading::South),
            ]
            .into_iter()
            .find(|&(c, h)| open_run(c, h))
            .map(|(c, h)| (c, Some(h)))
            .expect("a corner with a way to run")
        }
        engine::Weapon::Torpedo => {
            let from = (1..size.height - 1)
                .map(|y| Coord::new(0, y))
                .find(|&c| open_run(c, Heading::East))
                .expect("an edge cell with a way to run");
            (from, None)
        }
    }
}

/// The words of a shot's result, as the group hears them (a sinking names its ship after).
fn result_word(w: &Words, r: ShotResult) -> &'static str {
    match r {
        ShotResult::Miss => w.miss,
        ShotResult::Hit => w.hit,
        ShotResult::Sunk(_) => w.sunk,
        ShotResult::Mine => "mine",
    }
}

/// The parts a weapon's line in the group must hold, from the event the game recorded.
fn expected_parts(w: &Words, game: &Game, name: &str, e: &Event) -> Vec<String> {
    let size = game.ruleset().size();
    let cell = |c: Coord| format_cell(c, w.alphabet, size);
    match e {
        Event::Radar { center, count, .. } => vec![
            format!("📡 {name} — {} {}: {count} ", w.radar, cell(*center)),
            w.ship_cells.to_owned(),
        ],
        Event::AirStrike { center, cells, .. } => {
            let mut parts = vec![format!("✈ {name} — {} {}:", w.air, cell(*center))];
            parts.extend(
                cells
                    .iter()
                    .map(|&(c, r)| format!("{} — {}", cell(c), result_word(w, r))),
            );
            parts
        }
        Event::Torpedo {
            from, heading, hit, ..
        } => {
            let arrow = match heading {
                Heading::East => "→",
                Heading::West => "←",
                Heading::South => "↓",
                Heading::North => "↑",
            };
            let end = match hit {
                Some((c, r)) => format!("{} — {}", cell(*c), result_word(w, *r)),
                None => w.out.to_owned(),
            };
            vec![format!(
                "🚀 {name} — {} {} {arrow} {end}",
                w.torpedo,
                cell(*from)
            )]
        }
        _ => panic!("not a weapon: {e:?}"),
    }
}

/// The last weapon event of `seat` in the game's log.
fn last_weapon(rec: &morskoy_boy::game::record::GameRecord, seat: SeatId) -> Event {
    rec.log
        .iter()
        .rev()
        .find(|e| match e {
            Event::Radar { shooter, .. }
            | Event::AirStrike { shooter, .. }
            | Event::Torpedo { shooter, .. } => *shooter == seat,
            _ => false,
        })
        .cloned()
        .expect("the weapon is in the log")
}

/// `seat` fires `weapon` at `target` as `by` says, and the test waits until the group's
/// battle message tells it in `w`'s words: the count, every cell of the strike, the run.
async fn fire_weapon(
    app: &App,
    t: &Table,
    w: &Words,
    seat: SeatId,
    target: SeatId,
    weapon: engine::Weapon,
    by: By,
) {
    let rec = t.record().await;
    let before = rec.game.weapons_left(seat);
    let size = rec.game.ruleset().size();
    let (cell, heading) = aim_of(&rec.game, target, weapon, by);
    let code = match weapon {
        engine::Weapon::Radar => "r",
        engine::Weapon::AirStrike => "a",
        engine::Weapon::Torpedo => "t",
    };
    match by {
        By::Buttons => {
            let armed = t
                .tap(app, seat, &format!("wa:{}:{}:{code}", t.game, t.generation))
                .await;
            assert!(!armed.show_alert, "{}: arming refused: {armed:?}", w.code);
            let answer = t.tap(app, seat, &t.fire(target, cell, size)).await;
            assert!(!answer.show_alert, "{}: {answer:?}", w.code);
            if let Some(h) = heading {
                // From a corner the way is asked, with a button for each.
                let way = match h {
                    Heading::East => "e",
                    Heading::West => "w",
                    Heading::South => "s",
                    Heading::North => "n",
                };
                let data = format!("wh:{}:{}:{way}", t.game, t.generation);
                let asked = app
                    .tg
                    .wait_for(
                        t.group,
                        |m| m.message_id == t.battle && m.callback_data().contains(&data),
                        wait(),
                    )
                    .await;
                assert!(asked.is_some(), "{}: no way asked from the corner", w.code);
                let answer = t.tap(app, seat, &data).await;
                assert!(!answer.show_alert, "{}: {answer:?}", w.code);
            }
        }
        By::Typed => {
            let word = match weapon {
                engine::Weapon::Radar => w.radar,
                engine::Weapon::AirStrike => w.air,
                engine::Weapon::Torpedo => w.torpedo,
            };
            let text = format!(
                "{word} {}",
                format_cell(cell, w.alphabet, size).to_lowercase()
            );
            app.tg.send_reply(t.group, t.user(seat), &text, t.battle);
        }
    }
    // Played once: the weapon is spent and the turn passed.
    let deadline = Instant::now() + wait();
    let rec = loop {
        let rec = t.record().await;
        if rec.game.weapons_left(seat)[weapon.index()] < before[weapon.index()] {
            break rec;
        }
        assert!(
            Instant::now() < deadline,
            "{}: {weapon:?} was not played",
            w.code
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mut left = before;
    left[weapon.index()] -= 1;
    assert_eq!(rec.game.weapons_left(seat), left, "{}", w.code);
    let e = last_weapon(&rec, seat);
    let parts = expected_parts(w, &rec.game, t.name(seat), &e);
    let told = app
        .tg
        .wait_for(
            t.group,
            |m| m.message_id == t.battle && parts.iter().all(|p| m.text.contains(p.as_str())),
            wait(),
        )
        .await;
    assert!(
        told.is_some(),
        "{}: the group never heard {parts:?}:\n{}",
        w.code,
        t.battle_message(app).text
    );
}

/// The shot marks in a text's fields (misses, hits, sunk cells): never fewer later.
fn shot_marks(text: &str) -> usize {
    grid_lines(text)
        .map(|l| l.chars().filter(|c| matches!(c, '•' | 'X' | '#')).count())
        .sum()
}

/// A whole duel with the arsenal in `w`'s language at the production pace, to the end; the
/// checks are the issue's: every weapon once and the group's words for it, no unhit ship
/// shown before the end, the commitments verify, the battle message never goes back, at most
/// 20 sends and edits a minute.
async fn arsenal_duel(app: &App, w: &Words, group: i64, first_id: i64, budget: bool) {
    let settings = ChatSettings {
        ruleset: arsenal(),
        lang: Some(w.lang),
        ..ChatSettings::default()
    };
    let t = table_with(app, group, settings, &["Anna", "Boris"], first_id, w.code).await;
    let first = t.record().await.game.turn();
    let mut turns = [0usize; 2];
    let (mut hits, mut last) = (0usize, None);
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        assert!(
            Instant::now() < deadline,
            "{}: the game does not end",
            w.code
        );
        let rec = t.record().await;
        if rec.game.is_finished() {
            break;
        }
        let shooter = rec.game.turn();
        let target = rec.game.targets(shooter)[0];
        if last != Some(shooter) {
            last = Some(shooter);
            hits = 0;
            let order = usize::from(shooter != first);
            turns[order] += 1;
            if let Some((weapon, by)) = weapon_for(order, turns[order]) {
                fire_weapon(app, &t, w, shooter, target, weapon, by).await;
                last = None;
                continue;
            }
        }
        let (cell, ship) = plan(&rec.game, target, hits);
        let size = rec.game.ruleset().size();
        let answer = t.tap(app, shooter, &t.fire(target, cell, size)).await;
        assert!(
            !answer.show_alert,
            "{}: the shot is refused: {answer:?}",
            w.code
        );
        let words = said(&answer);
        let expected = if ship {
            hits += 1;
            [w.hit, w.sunk]
        } else {
            [w.miss, w.miss]
        };
        assert!(
            expected.iter().any(|e| words.contains(e)),
            "{}: {words}",
            w.code
        );
    }
    let rec = t.record().await;
    for seat in [SeatId(0), SeatId(1)] {
        assert_eq!(
            rec.game.weapons_left(seat),
            [0, 0, 0],
            "{}: each weapon once",
            w.code
        );
    }
    let end = app
        .tg
        .wait_for(
            group,
            |m| m.text.contains(w.winner) && m.callback_data().iter().any(|c| c.starts_with("r:")),
            Duration::from_secs(120),
        )
        .await
        .unwrap_or_else(|| panic!("{}: the end is announced", w.code));
    // The battle message shows the end too, its keyboard gone.
    app.tg
        .wait_for(
            group,
            |m| m.message_id == t.battle && !m.has_keyboard(),
            Duration::from_secs(120),
        )
        .await
        .unwrap_or_else(|| panic!("{}: the battle message shows the end", w.code));
    check_group(app, w, &t, &end, budget);
}

/// What the group saw of a finished game: no unhit ship before the end, the battle message
/// never an older state, every fleet's line checking a commitment shown, the budget kept.
fn check_group(app: &App, w: &Words, t: &Table, end: &SentMessage, budget: bool) {
    let messages = app.tg.messages(t.group);
    let battle = messages
        .iter()
        .find(|m| m.message_id == t.battle)
        .expect("the battle message");
    let mut marks = 0;
    for v in &battle.versions {
        let now = shot_marks(v);
        assert!(
            now >= marks,
            "{}: an older state after a newer one:\n{v}",
            w.code
        );
        marks = now;
    }
    // Nothing before the end shows an unhit ship (`O`): only fields drawn after the winner
    // is known may.
    for m in messages.iter().filter(|m| m.message_id <= end.message_id) {
        for v in m.versions.iter().filter(|v| !v.contains(w.winner)) {
            for line in grid_lines(v) {
                assert!(
                    !line.contains('O'),
                    "{}: an unhit ship cell before the end: {line}",
                    w.code
                );
            }
        }
    }
    // Every fleet's `layout|salt` hashes to a commitment the battle showed.
    let texts: Vec<String> = messages
        .iter()
        .filter(|m| m.message_id >= end.message_id)
        .map(|m| m.text.clone())
        .collect();
    let verified = verified_fleets(&battle.versions, &texts);
    assert_eq!(verified, 2, "{}: {texts:?}", w.code);
    if budget {
        let most = app.tg.max_per_minute(t.group);
        assert!(most <= 20, "{}: {most} sends and edits in a minute", w.code);
    }
}

flow! {
    /// Three duels with the arsenal at once, one a language, at the production pace.
    fn whole_duels_with_the_arsenal_by_buttons_and_typed_replies_in_three_languages() {
        let app = App::spawn_with(3_500, None).await;
        tokio::join!(
            arsenal_duel(&app, &RU, -29_001, 29_001, true),
            arsenal_duel(&app, &BG, -29_011, 29_011, true),
            arsenal_duel(&app, &EN, -29_021, 29_021, true),
        );
        assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
    }
}

/// The same duel with two bot replicas behind one webhook, Telegram posting each update to
/// either: armed weapons, corners and typed weapons live in the stored game, not in a
/// process, so a press handled by one replica after the arming by the other fires it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_with_the_arsenal_across_two_replicas_behind_one_webhook() {
    let app = App::spawn_webhook().await;
    arsenal_duel(&app, &EN, -29_031, 29_031, false).await;
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

/// A game against the hard bot with the arsenal in a group, at production settings (the
/// bot's 1.2 s pause, the 3.5 s gap, the group's budget): the player fires each weapon once
/// (by buttons and typed); the bot fires its own, each told to the group in words; after every turn of the bot that struck a ship or a mine the player's own
/// field in the private chat shows every cell the bot shot (after a turn of misses alone it
/// waits, issue 43); the end is fair as in the duels.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_hard_bot_with_the_arsenal_in_a_group_at_the_real_pause() {
    use crate::bot_ai::{own_field_shown, shot_at_the_player};
    use crate::bot_variants::battle_of;
    // Production settings: the bot's pause before each move, the 3.5 s gap between edits of
    // a message and the group's budget of sends and edits.
    let mut app = App::world(3_500, None).await;
    app.ai_pause_ms = 1200;
    app.start_bot().await;
    let group = -29_101;
    let store = app.store().await;
    store
        .set_chat_settings(
            group,
            &ChatSettings {
                ruleset: arsenal(),
                ai_level: engine::ai::Level::Hard,
                board: Some(morskoy_boy::game::record::Board::Text),
                ..ChatSettings::default()
            },
        )
        .await
        .unwrap();
    app.tg.group(group, "Sea dogs");
    let anna = app.player(29_101, "Anna", "en");
    let dm = anna.id.0 as i64;
    app.set_board(dm, morskoy_boy::game::record::Board::Text)
        .await;
    let (lobby, _) = open_lobby(&app, group, &anna).await;
    let seated = app
        .press(group, &anna, lobby.message_id, &data(&lobby, "b:"))
        .await;
    assert!(!seated.show_alert, "{seated:?}");
    app.tg
        .wait_for(
            group,
            |m| m.message_id == lobby.message_id && m.text.contains("2. 🤖"),
            wait(),
        )
        .await
        .expect("the lobby shows the bot");
    let started = app
        .press(group, &anna, lobby.message_id, &data(&lobby, "s:"))
        .await;
    assert!(!started.show_alert, "{started:?}");
    place_and_ready(&app, &anna).await;
    let (game, generation, battle) = battle_of(&app, &store, group).await;
    let t = Table {
        group,
        players: vec![anna.clone(), anna.clone()],
        game,
        generation,
        battle,
        store,
    };
    let (anna_seat, bot) = (SeatId(0), SeatId(1));
    let (mut turns, mut hits, mut last) = (0usize, 0usize, None);
    // What the own field showed when last brought up to date, and the bot's strikes then.
    let (mut shown_before, mut struck_before) = (0usize, 0usize);
    let deadline = Instant::now() + Duration::from_secs(400);
    loop {
        assert!(Instant::now() < deadline, "the game does not end");
        let rec = t.record().await;
        if rec.game.is_finished() {
            break;
        }
        if rec.game.turn() == bot {
            last = None;
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        if last != Some(anna_seat) {
            last = Some(anna_seat);
            hits = 0;
            turns += 1;
            // Back from the bot's turn: after one that struck, the own field shows every cell
            // it shot; after misses alone, what it showed before.
            let Some((shot, struck, _)) = shot_at_the_player(&t.store, t.game).await else {
                break;
            };
            let expected = if struck > struck_before {
                shot
            } else if turns == 1 {
                // The own field is first sent when the battle begins, drawn from the record
                // its sender loads then: after none, some or all of the bot's first turn.
                let by = Instant::now() + Duration::from_secs(10);
                loop {
                    if let Some((n, _)) = own_field_shown(&app, dm) {
                        assert!(n <= shot, "the own field shows {n} of {shot} shots");
                        break n;
                    }
                    assert!(Instant::now() < by, "no own field");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            } else {
                shown_before
            };
            (shown_before, struck_before) = (expected, struck);
            let shown_by = Instant::now() + Duration::from_secs(10);
            loop {
                let shown = own_field_shown(&app, dm);
                if shown.as_ref().is_some_and(|(n, _)| *n == expected) {
                    break;
                }
                assert!(
                    Instant::now() < shown_by,
                    "the own field shows {shown:?}, not {expected} of the {shot} cells the bot shot"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            if let Some((weapon, by)) = weapon_for(0, turns) {
                fire_weapon(&app, &t, &EN, anna_seat, bot, weapon, by).await;
                last = None;
                continue;
            }
        }
        let (cell, ship) = plan(&rec.game, bot, hits);
        let size = rec.game.ruleset().size();
        let answer = t.tap(&app, anna_seat, &t.fire(bot, cell, size)).await;
        assert!(!answer.show_alert, "the shot is refused: {answer:?}");
        if ship {
            hits += 1;
        }
    }
    let end = app
        .tg
        .wait_for(
            group,
            |m| m.text.contains("Winner") && m.callback_data().iter().any(|c| c.starts_with("r:")),
            wait(),
        )
        .await
        .expect("the end is announced");
    let rec = t.record().await;
    assert_eq!(rec.game.weapons_left(anna_seat), [0, 0, 0]);
    // The bot fired its arsenal, and the group heard each in words.
    let bot_name = rec.names[1].clone();
    let fired: Vec<&Event> = rec
        .log
        .iter()
        .filter(|e| match e {
            Event::Radar { shooter, .. }
            | Event::AirStrike { shooter, .. }
            | Event::Torpedo { shooter, .. } => *shooter == bot,
            _ => false,
        })
        .collect();
    assert!(!fired.is_empty(), "the bot never used its arsenal");
    let heard: Vec<String> = app
        .tg
        .messages(group)
        .into_iter()
        .flat_map(|m| m.versions)
        .collect();
    for e in &fired {
        let parts = expected_parts(&EN, &rec.game, &bot_name, e);
        assert!(
            heard
                .iter()
                .any(|v| parts.iter().all(|p| v.contains(p.as_str()))),
            "the group never heard the bot's {parts:?}"
        );
    }
    check_group(&app, &EN, &t, &end, true);
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

/// How many pixels of a PNG are within a few steps of the colour `rgb`.
fn pixels_near(png: &[u8], rgb: [u8; 3]) -> usize {
    let (_, _, pixels) = decode_png(png);
    pixels
        .chunks_exact(3)
        .filter(|p| {
            p.iter()
                .zip(rgb)
                .all(|(&a, b)| (i16::from(a) - i16::from(b)).abs() <= 6)
        })
        .count()
}

/// The battle message, once its latest picture satisfies `drawn`.
async fn picture(app: &App, t: &Table, drawn: impl Fn(&[u8]) -> bool) -> Option<SentMessage> {
    app.tg
        .wait_for(
            t.group,
            |m| m.message_id == t.battle && m.photos.last().is_some_and(|p| drawn(p)),
            wait(),
        )
        .await
}

flow! {
    /// In a chat that sees pictures, the battle picture draws a radar's square (with its count)
    /// once the radar is used, and a torpedo's track once one runs: the colours of both appear in
    /// the picture sent after each, and not before.
    fn the_battle_picture_draws_the_radars_square_and_the_torpedos_track() {
        const RADAR: [u8; 3] = [0x0E, 0x9F, 0x8E];
        const TORPEDO: [u8; 3] = [0xC2, 0x3B, 0xB0];
        let app = App::spawn().await;
        let group = -29_201;
        let settings = ChatSettings {
            ruleset: arsenal(),
            board: Some(morskoy_boy::game::record::Board::Picture),
            ..ChatSettings::default()
        };
        let t = table_with(&app, group, settings, &["Anna", "Boris"], 29_201, "en").await;
        let latest = |app: &App| {
            t.battle_message(app)
                .photos
                .last()
                .cloned()
                .expect("the battle message is a picture")
        };
        let before = latest(&app);
        assert_eq!(pixels_near(&before, RADAR), 0);
        assert_eq!(pixels_near(&before, TORPEDO), 0);
        let rec = t.record().await;
        let (a, b) = (rec.game.turn(), rec.game.targets(rec.game.turn())[0]);
        fire_weapon(&app, &t, &EN, a, b, engine::Weapon::Radar, By::Buttons).await;
        let drawn = picture(&app, &t, |p| pixels_near(p, RADAR) > 100).await;
        assert!(drawn.is_some(), "no radar square in the picture");
        assert_eq!(pixels_near(&latest(&app), TORPEDO), 0);
        fire_weapon(&app, &t, &EN, b, a, engine::Weapon::Torpedo, By::Typed).await;
        let drawn = app
            .tg
            .wait_for(
                group,
                |m| {
                    m.message_id == t.battle
                        && m.photos.last().is_some_and(|p| {
                            pixels_near(p, TORPEDO) > 50 && pixels_near(p, RADAR) > 100
                        })
                },
                wait(),
            )
            .await;
        assert!(drawn.is_some(), "no torpedo track beside the radar square");
        assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
    }
}
