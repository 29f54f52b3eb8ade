//! End to end, every variant of the battle: a four-player free-for-all, two against two,
//! salvoes, mines (a mine hit and the cell given up through the private keyboard), bent
//! ships, the big 15×15 field, land, sea and air with four players, and salvoes with mines
//! among two people and the bot. The real bot binary, a real Redis and the fake Telegram, as
//! in `tests/e2e/bot.rs`.
//!
//! The chat's ruleset is written to Redis before `/newgame` (the /settings screens for these
//! options are built elsewhere). The test players read the game from Redis only to choose
//! their moves quickly (ships to hit, water to miss, a mine to step on); every move is a tap
//! on the bot's own buttons or a reply, and every check is on what Telegram was sent (and,
//! for bad input, on the game being unchanged).

use crate::fake_telegram::{CallbackAnswer, SentMessage};
use crate::helpers::*;
use engine::{Coord, Field, Game, Players, Ruleset, SeatId, Shapes, TurnTimer};
use morskoy_boy::game::record::{ChatSettings, GameRecord};
use morskoy_boy::store::Atomic;
use morskoy_boy::store::{GameId, Store};
use std::time::Duration;
use teloxide::types::User;

/// One game in a group, from its battle message on.
pub(crate) struct Table {
    pub(crate) group: i64,
    pub(crate) players: Vec<User>,
    pub(crate) game: u64,
    pub(crate) generation: u32,
    pub(crate) battle: i32,
    pub(crate) store: Store,
}

/// The players of the four-player games.
const FOUR: [&str; 4] = ["Anna", "Boris", "Clara", "Dmitri"];

/// A ruleset without a turn timer.
pub(crate) fn rules(r: Ruleset) -> Ruleset {
    Ruleset {
        timer: TurnTimer::Off,
        ..r
    }
}

/// Writes the group's ruleset, opens a lobby, seats `names` in order (ids from `first_id`),
/// starts, places every fleet at random and waits for the battle message.
async fn table(app: &App, group: i64, ruleset: Ruleset, names: &[&str], first_id: i64) -> Table {
    let settings = ChatSettings {
        ruleset,
        ..ChatSettings::default()
    };
    table_with(app, group, settings, names, first_id, "en").await
}

/// As [`table`], with the chat's `settings` (its fields as text unless they say otherwise)
/// and players whose Telegram speaks `lang`.
pub(crate) async fn table_with(
    app: &App,
    group: i64,
    settings: ChatSettings,
    names: &[&str],
    first_id: i64,
    lang: &str,
) -> Table {
    let store = app.store().await;
    store
        .set_chat_settings(
            group,
            // The fields as text: these tests read what the group sees off the text boards
            // (the pictures draw the same views: `live::tests`, `bot_pictures.rs`).
            &ChatSettings {
                board: settings
                    .board
                    .or(Some(morskoy_boy::game::record::Board::Text)),
                ..settings
            },
        )
        .await
        .expect("the chat's ruleset is written");
    app.tg.group(group, "Sea dogs");
    let players: Vec<User> = names
        .iter()
        .enumerate()
        .map(|(i, n)| app.player(first_id + i as i64, n, lang))
        .collect();
    let (lobby, join) = open_lobby(app, group, &players[0]).await;
    for p in &players[1..] {
        let answer = app.press(group, p, lobby.message_id, &join).await;
        assert!(!answer.show_alert, "the join is refused: {answer:?}");
    }
    let last = format!("{}. {}", names.len(), names[names.len() - 1]);
    app.tg
        .wait_for(
            group,
            |m| m.message_id == lobby.message_id && m.text.contains(&last),
            wait(),
        )
        .await
        .expect("the lobby shows every player");
    let start = data(&lobby, "s:");
    let answer = app
        .press(group, &players[0], lobby.message_id, &start)
        .await;
    assert!(!answer.show_alert, "the start is refused: {answer:?}");
    for p in &players {
        place_and_ready(app, p).await;
    }
    let (game, generation, battle) = battle_of(app, &store, group).await;
    Table {
        group,
        players,
        game,
        generation,
        battle,
        store,
    }
}

/// Waits for the battle's own message, as the game records it: the game, the generation of
/// its buttons and the message.
pub(crate) async fn battle_of(app: &App, store: &Store, group: i64) -> (u64, u32, i32) {
    let battle = app.message_with_button(group, "f:").await;
    let first = data(&battle, "f:");
    let game: u64 = first.split(':').nth(1).unwrap().parse().unwrap();
    // The battle's own message, as the game records it.
    let begun = |r: &GameRecord| r.delivery.begun && r.delivery.message.is_some();
    let rec = record_where(store, game, begun, "no battle message").await;
    let id = rec.delivery.message.unwrap();
    let battle = app
        .tg
        .wait_for(
            group,
            |m| m.message_id == id && m.callback_data().iter().any(|d| d.starts_with("f:")),
            wait(),
        )
        .await
        .expect("the battle message has a keyboard");
    let first = data(&battle, "f:");
    let parts: Vec<&str> = first.split(':').collect();
    (game, parts[2].parse().unwrap(), battle.message_id)
}

/// Waits until the record of `game` satisfies `f`, and returns it.
pub(crate) async fn record_where(
    store: &Store,
    game: u64,
    f: impl Fn(&GameRecord) -> bool,
    what: &str,
) -> GameRecord {
    let deadline = tokio::time::Instant::now() + wait();
    loop {
        let rec = store.load_game(GameId(game)).await.unwrap().0;
        if f(&rec) {
            return rec;
        }
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

impl Table {
    pub(crate) async fn record(&self) -> GameRecord {
        self.store
            .load_game(GameId(self.game))
            .await
            .expect("the game is in Redis")
            .0
    }

    pub(crate) fn user(&self, seat: SeatId) -> &User {
        &self.players[seat.index()]
    }

    pub(crate) fn name(&self, seat: SeatId) -> &str {
        &self.user(seat).first_name
    }

    /// `seat` taps a button of the battle message.
    pub(crate) async fn tap(&self, app: &App, seat: SeatId, data: &str) -> CallbackAnswer {
        app.press(self.group, self.user(seat), self.battle, data)
            .await
    }

    pub(crate) fn fire(&self, target: SeatId, c: Coord, size: engine::Size) -> String {
        format!(
            "f:{}:{}:{}:{}",
            self.game,
            self.generation,
            target.0,
            size.index(c)
        )
    }

    fn aim(&self, target: SeatId) -> String {
        format!("t:{}:{}:{}", self.game, self.generation, target.0)
    }

    fn salvo(&self, target: SeatId) -> String {
        format!("sv:{}:{}:{}", self.game, self.generation, target.0)
    }

    pub(crate) fn battle_message(&self, app: &App) -> SentMessage {
        app.tg
            .messages(self.group)
            .into_iter()
            .find(|m| m.message_id == self.battle)
            .expect("the battle message")
    }

    /// Waits for the end's announcement (it offers a rematch).
    pub(crate) async fn wait_for_the_end(&self, app: &App) -> SentMessage {
        app.tg
            .wait_for(
                self.group,
                |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
                wait(),
            )
            .await
            .expect("the end is announced")
    }
}

/// The next cell a test player fires at: a ship cell not yet hit while `hits` is below two
/// (so every turn hits, sinks and finally misses), else water that is not a mine.
pub(crate) fn plan(game: &Game, target: SeatId, hits: usize) -> (Coord, bool) {
    let fleet = game.fleet(target).expect("a placed fleet");
    let size = game.ruleset().size();
    let unknown = |c: &Coord| !game.is_known(target, *c);
    let ship = fleet.ship_cells().find(unknown);
    let water = size
        .cells()
        .filter(unknown)
        .find(|&c| fleet.ship_at(c).is_none() && !fleet.is_mine(c));
    match (ship, water) {
        (Some(c), Some(w)) => {
            if hits < 2 {
                (c, true)
            } else {
                (w, false)
            }
        }
        (Some(c), None) => (c, true),
        (None, Some(w)) => (w, false),
        (None, None) => panic!("nothing left to shoot at"),
    }
}

/// The cells of a salvo: ship cells not yet hit and one of water (not a mine) while there
/// is water; and how many of them are ship cells.
fn salvo_plan(game: &Game, target: SeatId, total: usize) -> (Vec<Coord>, usize) {
    let fleet = game.fleet(target).expect("a placed fleet");
    let unknown = |c: &Coord| !game.is_known(target, *c);
    let water: Vec<Coord> = game
        .ruleset()
        .size()
        .cells()
        .filter(unknown)
        .filter(|&c| fleet.ship_at(c).is_none() && !fleet.is_mine(c))
        .take(total)
        .collect();
    let ships = if water.is_empty() { total } else { total - 1 };
    let mut cells: Vec<Coord> = fleet.ship_cells().filter(unknown).take(ships).collect();
    let hits = cells.len();
    cells.extend(water.iter().take(total - hits));
    (cells, hits)
}

/// The seats the battle message offers as targets.
fn offered_targets(m: &SentMessage) -> Vec<u8> {
    m.callback_data()
        .iter()
        .filter(|d| d.starts_with("t:"))
        .filter_map(|d| d.rsplit(':').next()?.parse().ok())
        .collect()
}

/// What the test saw of target rows while playing.
#[derive(Default)]
struct Seen {
    /// A battle message with a target row after a fleet was sunk.
    row_after_elimination: bool,
}

/// The battle message never offers a sunk fleet as a target, nor the shooter's own field.
fn check_target_row(t: &Table, app: &App, seen: &mut Seen) {
    let m = t.battle_message(app);
    let offered = offered_targets(&m);
    if offered.is_empty() {
        return;
    }
    let mut sunk_any = false;
    for (i, p) in t.players.iter().enumerate() {
        let sunk = m.text.lines().any(|l| {
            l.starts_with(&format!("Field of {}", p.first_name)) && l.contains("fleet sunk")
        });
        if sunk {
            sunk_any = true;
            assert!(
                !offered.contains(&(i as u8)),
                "the sunk fleet of {} is offered as a target: {:?}",
                p.first_name,
                m.buttons()
            );
        }
    }
    if let Some(turn) = t.players.iter().position(|p| {
        m.raw_text
            .contains(&format!("Turn: <b>{}</b>", p.first_name))
    }) {
        assert!(
            !offered.contains(&(turn as u8)),
            "the shooter's own field is offered: {:?}",
            m.buttons()
        );
    }
    seen.row_after_elimination |= sunk_any;
}

/// Plays single shots by buttons until the end: each turn's shooter aims (by the target row
/// when there is more than one field), hits twice, then misses. Returns what it saw, and the
/// end's announcement once it is sent.
async fn play_shots(app: &App, t: &Table) -> (Seen, SentMessage) {
    let mut seen = Seen::default();
    let (mut hits, mut turns, mut last) = (0usize, 0usize, None);
    for step in 0.. {
        assert!(step < 4000, "the game does not end");
        let rec = t.record().await;
        if rec.game.is_finished() {
            break;
        }
        assert!(rec.game.mine_choice().is_none(), "a mine was stepped on");
        let shooter = rec.game.turn();
        if last != Some(shooter) {
            last = Some(shooter);
            hits = 0;
            turns += 1;
        }
        let targets = rec.game.targets(shooter);
        // Mostly the first field, so fleets sink one by one; every third turn the last.
        let target = if turns % 3 == 0 {
            targets[targets.len() - 1]
        } else {
            targets[0]
        };
        if rec.game.ruleset().seats() > 2 {
            let aim = rec.current_aim().expect("an aim");
            if aim.target != target {
                let answer = t.tap(app, shooter, &t.aim(target)).await;
                assert!(!answer.show_alert, "aiming is refused: {answer:?}");
                let name: String = t.name(target).to_lowercase().chars().take(20).collect();
                assert!(said(&answer).contains(&name), "{answer:?}");
            }
        }
        let (cell, ship) = plan(&rec.game, target, hits);
        let size = rec.game.ruleset().size();
        let answer = t.tap(app, shooter, &t.fire(target, cell, size)).await;
        let words = said(&answer);
        assert!(!answer.show_alert, "the shot is refused: {answer:?}");
        if ship {
            assert!(words.contains("hit") || words.contains("sunk"), "{words}");
            hits += 1;
        } else {
            assert!(words.contains("miss"), "{words}");
        }
        if words.contains("the fleet of") && !t.record().await.game.is_finished() {
            // A fleet is sunk and the game goes on: the next drawing of the battle message
            // shows it sunk and does not offer it.
            let title = format!("Field of {}", t.name(target));
            app.tg
                .wait_for(
                    t.group,
                    |m| {
                        m.message_id == t.battle
                            && m.text
                                .lines()
                                .any(|l| l.starts_with(&title) && l.contains("fleet sunk"))
                    },
                    wait(),
                )
                .await
                .expect("the battle message shows the sunk fleet");
            check_target_row(t, app, &mut seen);
            assert!(seen.row_after_elimination);
        }
        check_target_row(t, app, &mut seen);
    }
    (seen, t.wait_for_the_end(app).await)
}

/// The lines of a text that draw a field: a row number, then cells only.
pub(crate) fn grid_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| {
        let l = l.trim_start();
        let cells = l.trim_start_matches(|c: char| c.is_ascii_digit());
        cells.len() < l.len()
            && cells.starts_with(' ')
            && cells
                .chars()
                .all(|c| !c.is_alphanumeric() || "XOm".contains(c))
    })
}

/// Whether a group text is the end's: one winner or a team's.
fn announces_the_end(text: &str) -> bool {
    text.contains("Winner: ") || text.contains("Winners: ")
}

/// Every group text before the end's: no field shows any of `hidden` (an unhit ship `O`,
/// an idle mine `m`, land `,`, and in salvo games the hits `X` and `#`).
fn assert_group_hides(app: &App, group: i64, hidden: &[char]) {
    let texts = app.tg.all_texts(group);
    let mut battle = 0;
    for text in &texts {
        if announces_the_end(text) {
            break;
        }
        if text.contains("Field of") {
            battle += 1;
        }
        for line in grid_lines(text) {
            assert!(
                !line.contains(hidden),
                "the group saw one of {hidden:?} before the end: {line}"
            );
        }
    }
    assert!(battle > 0, "the group never saw the battle");
    assert!(
        texts.iter().any(|t| announces_the_end(t)),
        "no winner was announced"
    );
}

fn assert_no_telegram_errors(app: &App) {
    assert!(
        app.tg.errors().is_empty(),
        "Telegram refused: {:?}",
        app.tg.errors()
    );
}

/// After the end of a game of single shots: the group saw no unhit ship, idle mine or land
/// before it, and Telegram refused nothing.
fn assert_fair_end(app: &App, group: i64) {
    assert_group_hides(app, group, &['O', 'm', ',']);
    assert_no_telegram_errors(app);
}

flow! {
    fn four_players_each_against_all_choose_their_targets_and_play_to_the_end() {
        let app = App::spawn().await;
        let group = -9101;
        let ruleset = rules(Ruleset {
            players: Players::FreeForAll(4),
            ..Ruleset::default()
        });
        let t = table(&app, group, ruleset, &FOUR, 9101).await;
        let m = t.battle_message(&app);
        assert_eq!(
            offered_targets(&m).len(),
            3,
            "three fields to aim at: {:?}",
            m.buttons()
        );
        // Bad input changes nothing: a stranger, a stale button, a button of no bot, a field
        // that is the shooter's own.
        let rec = t.record().await;
        let shooter = rec.game.turn();
        let size = rec.game.ruleset().size();
        let stranger = app.player(9199, "Eve", "en");
        let target = rec.game.targets(shooter)[0];
        let fire = t.fire(target, Coord::new(0, 0), size);
        let a = app.press(group, &stranger, t.battle, &fire).await;
        assert!(a.show_alert && said(&a).contains("not playing"), "{a:?}");
        let stale = format!("f:{}:{}:{}:0", t.game, t.generation + 7, target.0);
        let a = t.tap(&app, shooter, &stale).await;
        assert!(a.show_alert && said(&a).contains("out of date"), "{a:?}");
        let a = t.tap(&app, shooter, "zz:1").await;
        assert!(said(&a).contains("not from this bot"), "{a:?}");
        let a = t.tap(&app, shooter, &t.aim(shooter)).await;
        assert!(a.show_alert && said(&a).contains("cannot be shot"), "{a:?}");
        let other = SeatId((shooter.0 + 1) % 4);
        let a = t.tap(&app, other, &t.aim(target)).await;
        assert!(a.show_alert && said(&a).contains("not your turn"), "{a:?}");
        assert_eq!(
            t.record().await.game,
            rec.game,
            "bad input changed the game"
        );
        // Right after the shooter chose another field, a cell of the keyboard drawn before goes
        // to the field chosen, and the answer names it.
        let targets = rec.game.targets(shooter);
        let (before, chosen) = (targets[0], targets[1]);
        let a = t.tap(&app, shooter, &t.aim(chosen)).await;
        assert!(!a.show_alert, "{a:?}");
        let (cell, _) = plan(&rec.game, chosen, 2);
        let a = t.tap(&app, shooter, &t.fire(before, cell, size)).await;
        let field = format!("{} — ", t.name(chosen).to_lowercase());
        assert!(said(&a).starts_with(&field), "{a:?}");
        assert!(t.record().await.game.is_known(chosen, cell));

        let (seen, _) = play_shots(&app, &t).await;
        assert!(
            seen.row_after_elimination,
            "the target row was never seen after a fleet was sunk"
        );
        let texts = app.tg.all_texts(group).join("\n");
        assert!(
            texts.contains(" → "),
            "the log does not name the fields shot at"
        );
        assert_fair_end(&app, group);
    }
}

flow! {
    fn two_against_two_see_their_teammates_fields_and_play_to_the_end() {
        let app = App::spawn().await;
        let group = -9201;
        let ruleset = rules(Ruleset {
            players: Players::Teams,
            ..Ruleset::default()
        });
        let t = table(&app, group, ruleset, &FOUR, 9201).await;
        // Seats 0 and 2 play together, 1 and 3: each sees the teammate's field in private.
        for (seat, mate) in [(0usize, 2usize), (1, 3), (2, 0), (3, 1)] {
            let chat = t.players[seat].id.0 as i64;
            let words = format!("Field of your teammate {}", t.players[mate].first_name);
            app.tg
                .wait_for_text(chat, &words, wait())
                .await
                .unwrap_or_else(|| panic!("{} does not see the teammate's field", seat));
        }
        let m = t.battle_message(&app);
        assert!(m.text.contains("(team 1)") && m.text.contains("(team 2)"));
        let rec = t.record().await;
        let shooter = rec.game.turn();
        let mate = SeatId((shooter.0 + 2) % 4);
        let a = t.tap(&app, shooter, &t.aim(mate)).await;
        assert!(a.show_alert, "a teammate's field is a target: {a:?}");
        assert_eq!(offered_targets(&m).len(), 2, "{:?}", m.buttons());

        let (_, end) = play_shots(&app, &t).await;
        let rec = t.record().await;
        let engine::Phase::Finished { winners, .. } = rec.game.phase() else {
            panic!("not finished")
        };
        assert_eq!(winners.len(), 2, "a team wins");
        let names: Vec<&str> = winners.iter().map(|&s| t.name(s)).collect();
        let team = format!("Winners: {} and {}!", names[0], names[1]);
        assert!(
            end.text.contains(&team),
            "{} does not name the team in the plural",
            end.text
        );
        assert_fair_end(&app, group);
    }
}

/// The text after "a salvo of" names no cell.
fn assert_salvo_lines_name_no_cell(app: &App, group: i64) {
    let mut salvoes = 0;
    for text in app.tg.all_texts(group) {
        if announces_the_end(&text) {
            break;
        }
        for line in text.lines().filter(|l| l.contains("a salvo of")) {
            salvoes += 1;
            let tail = line.split("a salvo of").nth(1).unwrap_or_default();
            let cell = tail.as_bytes().windows(2).any(|w| {
                w[0].is_ascii_alphabetic() && w[0].is_ascii_uppercase() && w[1].is_ascii_digit()
            });
            assert!(!cell, "a salvo's line names a cell: {line}");
        }
    }
    assert!(salvoes > 0, "the group never heard a salvo");
}

/// After the end of a salvo game: the group saw no unhit ship, idle mine, land or hit
/// before it, no salvo's line named a cell, and Telegram refused nothing.
fn assert_fair_salvo_end(app: &App, group: i64) {
    assert_group_hides(app, group, &['O', 'm', ',', 'X', '#']);
    assert_salvo_lines_name_no_cell(app, group);
    assert_no_telegram_errors(app);
}

flow! {
    fn a_salvo_game_picks_cells_fires_them_together_and_tells_only_counts() {
        let app = App::spawn().await;
        let group = -9301;
        let ruleset = rules(Ruleset {
            salvo: Some(3),
            ..Ruleset::default()
        });
        let t = table(&app, group, ruleset, &["Anna", "Boris"], 9301).await;
        let mut first = true;
        for step in 0.. {
            assert!(step < 200, "the game does not end");
            let rec = t.record().await;
            if rec.game.is_finished() {
                break;
            }
            let shooter = rec.game.turn();
            let target = rec.game.targets(shooter)[0];
            let total = rec.salvo_size(target).unwrap();
            let size = rec.game.ruleset().size();
            let (cells, ships) = salvo_plan(&rec.game, target, total);
            if first {
                let a = t.tap(&app, shooter, &t.salvo(target)).await;
                assert!(a.show_alert && said(&a).contains("3 more cells"), "{a:?}");
            }
            if step == 1 {
                // A salvo typed in reply to the battle message: its cells in a row.
                let typed: Vec<String> = cells
                    .iter()
                    .map(|c| format!("{}{}", char::from(b'A' + c.x), c.y + 1))
                    .collect();
                app.tg
                    .send_reply(group, t.user(shooter), &typed.join(" "), t.battle);
                let fired = |r: &GameRecord| r.game.is_finished() || r.game.turn() != shooter;
                record_where(&t.store, t.game, fired, "the typed salvo was not fired").await;
                let line = format!("{} → {}: a salvo of 3", t.name(shooter), t.name(target));
                app.tg
                    .wait_for_text(group, &line, wait())
                    .await
                    .expect("the typed salvo is in the log");
                continue;
            }
            for (i, &c) in cells.iter().enumerate() {
                let a = t.tap(&app, shooter, &t.fire(target, c, size)).await;
                assert!(!a.show_alert && said(&a).contains("picked"), "{a:?}");
                assert!(said(&a).contains(&format!("({}/{total})", i + 1)), "{a:?}");
            }
            if first {
                first = false;
                // Dropped and picked again; a fourth cell is one too many.
                let c = cells[0];
                let a = t.tap(&app, shooter, &t.fire(target, c, size)).await;
                assert!(said(&a).contains("dropped"), "{a:?}");
                let a = t.tap(&app, shooter, &t.fire(target, c, size)).await;
                assert!(said(&a).contains("picked"), "{a:?}");
                let extra = size
                    .cells()
                    .find(|x| !cells.contains(x) && !rec.game.is_known(target, *x))
                    .unwrap();
                let a = t.tap(&app, shooter, &t.fire(target, extra, size)).await;
                assert!(
                    a.show_alert && said(&a).contains("picked 3 already"),
                    "{a:?}"
                );
                // The other player cannot fire this salvo.
                let a = t.tap(&app, target, &t.salvo(target)).await;
                assert!(a.show_alert, "{a:?}");
                // The group sees the picks and the count on the Fire button.
                app.tg
                    .wait_for(
                        group,
                        |m| {
                            m.message_id == t.battle
                                && m.buttons().iter().flatten().any(|(l, _)| l == "Fire (3/3)")
                                && m.buttons()
                                    .iter()
                                    .flatten()
                                    .any(|(l, _)| l.starts_with('✓'))
                        },
                        wait(),
                    )
                    .await
                    .expect("the group's keyboard shows the picks");
            }
            let a = t.tap(&app, shooter, &t.salvo(target)).await;
            assert!(!a.show_alert, "the salvo is refused: {a:?}");
            let words = said(&a);
            let expected = match ships {
                0 => "no hits".to_owned(),
                1 => "one hit".to_owned(),
                n => format!("{n} hits"),
            };
            assert!(words.contains(&expected), "{ships} ships, but: {words}");
            assert!(words.contains("turn passes"), "{words}");
            let after = t.record().await;
            assert!(
                after.game.is_finished() || after.game.turn() != shooter,
                "the turn did not pass after a salvo"
            );
        }
        t.wait_for_the_end(&app).await;
        assert_fair_salvo_end(&app, group);
    }
}

flow! {
    fn a_mine_is_hit_and_the_shooter_gives_up_a_cell_by_the_private_keyboard() {
        let app = App::spawn().await;
        let group = -9401;
        let ruleset = rules(Ruleset {
            mines: 2,
            ..Ruleset::default()
        });
        let t = table(&app, group, ruleset, &["Anna", "Boris"], 9401).await;
        let rec = t.record().await;
        let shooter = rec.game.turn();
        let target = rec.game.targets(shooter)[0];
        let size = rec.game.ruleset().size();
        let mine = rec.game.fleet(target).unwrap().mines()[0];
        let dm = t.user(shooter).id.0 as i64;
        let a = t.tap(&app, shooter, &t.fire(target, mine, size)).await;
        assert!(said(&a).contains("mine"), "{a:?}");
        let rec = t.record().await;
        let choice = rec.game.mine_choice().expect("the engine waits for a cell");
        assert_eq!(choice.seat, shooter);
        // The timer will take a random cell at the deadline: it is scheduled.
        let due = t.store.due(choice.deadline).await.unwrap();
        assert!(
            due.contains(&GameId(t.game)),
            "the mine's deadline is not scheduled"
        );
        // Nobody shoots meanwhile.
        let fire = t.fire(shooter, Coord::new(0, 0), size);
        let a = t.tap(&app, target, &fire).await;
        assert!(
            a.show_alert && said(&a).contains("given up after a mine"),
            "{a:?}"
        );
        // The question in the shooter's private chat.
        let question = app.message_with_button(dm, "g:").await;
        assert!(question.text.contains("A mine!"), "{}", question.text);
        let own = rec.game.fleet(shooter).unwrap();
        let offered: Vec<String> = question
            .callback_data()
            .into_iter()
            .filter(|d| d.starts_with("g:"))
            .collect();
        assert_eq!(
            offered.len(),
            own.ship_cells().count(),
            "every ship cell is offered"
        );
        // The other player cannot answer it, nor can water be given up.
        let a = app
            .press(dm, t.user(target), question.message_id, &offered[0])
            .await;
        assert!(a.show_alert && said(&a).contains("not you"), "{a:?}");
        let water = size
            .cells()
            .find(|&c| own.ship_at(c).is_none() && !own.is_mine(c))
            .unwrap();
        let forged = format!("g:{}:{}:{}", t.game, choice.deadline, size.index(water));
        let a = app
            .press(dm, t.user(shooter), question.message_id, &forged)
            .await;
        assert!(
            a.show_alert && said(&a).contains("not an unhit cell"),
            "{a:?}"
        );
        assert_eq!(
            t.record().await.game,
            rec.game,
            "bad input changed the game"
        );
        let a = app
            .press(dm, t.user(shooter), question.message_id, &offered[0])
            .await;
        assert!(!a.show_alert && said(&a).contains("you gave up"), "{a:?}");
        let rec = t.record().await;
        assert!(rec.game.mine_choice().is_none());
        assert_eq!(rec.game.turn(), target, "the turn passes after the mine");
        app.tg
            .wait_for(
                dm,
                |m| m.message_id == question.message_id && !m.has_keyboard(),
                wait(),
            )
            .await
            .expect("the question is closed");
        let shooter_name = t.name(shooter).to_owned();
        app.tg
            .wait_for(
                group,
                |m| {
                    m.message_id == t.battle
                        && m.text
                            .contains(&format!("{shooter_name} hit a mine and gives up one cell"))
                        && m.text.contains(&format!("{shooter_name} gives up "))
                },
                wait(),
            )
            .await
            .expect("the group is told about the mine in words");
        // A second tap on the same question is out of date.
        let a = app
            .press(dm, t.user(shooter), question.message_id, &offered[1])
            .await;
        assert!(a.show_alert, "{a:?}");

        // The other player steps on a mine too and lets the time run out: at the deadline the
        // timer takes a random cell. The deadline is moved to now rather than waited for.
        let other_mine = rec.game.fleet(shooter).unwrap().mines()[0];
        let a = t
            .tap(&app, target, &t.fire(shooter, other_mine, size))
            .await;
        assert!(said(&a).contains("mine"), "{a:?}");
        let target_dm = t.user(target).id.0 as i64;
        let question = app.message_with_button(target_dm, "g:").await;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        t.store
            .transition(GameId(t.game), Atomic::plain(), |r| {
                let mut game = serde_json::to_value(&r.game).unwrap();
                if game["mc"].is_null() {
                    // A record this store knew from before the mine: it is read again.
                    return Err(());
                }
                game["mc"]["deadline"] = serde_json::json!(now - 1);
                r.game = serde_json::from_value(game).unwrap();
                Ok::<_, ()>(())
            })
            .await
            .unwrap()
            .unwrap();
        t.store
            .schedule(GameId(t.game), Some(now - 1))
            .await
            .unwrap();
        app.tg
            .wait_for(
                target_dm,
                |m| {
                    m.message_id == question.message_id
                        && !m.has_keyboard()
                        && m.text.contains("Time ran out")
                },
                wait(),
            )
            .await
            .expect("the question says the time ran out");
        let target_name = t.name(target).to_owned();
        app.tg
            .wait_for_text(
                group,
                &format!("{target_name} did not choose in time"),
                wait(),
            )
            .await
            .expect("the group hears of the random cell");
        assert!(t.record().await.game.mine_choice().is_none());

        play_shots(&app, &t).await;
        assert_fair_end(&app, group);
    }
}

flow! {
    fn a_game_with_bent_ships_is_played_to_the_end() {
        let app = App::spawn().await;
        let group = -9501;
        let ruleset = rules(Ruleset {
            shapes: Shapes::Bent,
            ..Ruleset::default()
        });
        let t = table(&app, group, ruleset, &["Anna", "Boris"], 9501).await;
        play_shots(&app, &t).await;
        assert_fair_end(&app, group);
    }
}

flow! {
    fn a_game_on_the_big_field_is_played_to_the_end_by_blocks() {
        let app = App::spawn().await;
        let group = -9601;
        let ruleset = rules(Ruleset::big());
        let t = table(&app, group, ruleset, &["Anna", "Boris"], 9601).await;
        let m = t.battle_message(&app);
        let blocks: Vec<String> = m
            .callback_data()
            .into_iter()
            .filter(|d| d.starts_with("v:"))
            .collect();
        assert!(
            blocks.len() > 1,
            "15×15 is split in blocks: {:?}",
            m.buttons()
        );
        let shooter = t.record().await.game.turn();
        let a = t.tap(&app, shooter, &blocks[1]).await;
        assert!(!a.show_alert, "{a:?}");
        let second = blocks[1].clone();
        app.tg
            .wait_for(
                group,
                |m| {
                    m.message_id == t.battle
                        && m.buttons()
                            .iter()
                            .flatten()
                            .any(|(l, d)| d == &second && l.starts_with('['))
                },
                wait(),
            )
            .await
            .expect("the second block is shown");
        play_shots(&app, &t).await;
        assert_fair_end(&app, group);
    }
}

flow! {
    fn land_sea_and_air_with_four_players_keeps_the_border_secret_within_telegrams_limits() {
        let app = App::spawn().await;
        let group = -9701;
        let ruleset = rules(Ruleset {
            field: Field::LandSeaAir,
            players: Players::FreeForAll(4),
            ..Ruleset::default()
        });
        let names = [
            // A name as long as Telegram's: answers to buttons take 200 characters at most.
            "Anastasia Konstantinovna Rimskaya-Korsakova of Tver and Novgorod",
            "Bartholomew",
            "Clementine",
            "Dmitri",
        ];
        let t = table(&app, group, ruleset, &names, 9701).await;
        play_shots(&app, &t).await;
        for text in app.tg.all_texts(group) {
            assert!(text.encode_utf16().count() <= 4096, "{} long", text.len());
        }
        let texts = app.tg.all_texts(group).join("\n");
        assert!(texts.contains("sunk (tank)"), "a sink names the unit");
        assert_fair_end(&app, group);
        // Each player's own field shows their border.
        let dm = t.players[0].id.0 as i64;
        assert!(
            app.tg
                .all_texts(dm)
                .iter()
                .any(|t| grid_lines(t).any(|l| l.contains(','))),
            "the own field does not show the land"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_the_bot_play_salvoes_with_mines_each_against_all() {
    let app = App::spawn().await;
    let group = -9801;
    let ruleset = rules(Ruleset {
        players: Players::FreeForAll(3),
        salvo: Some(2),
        mines: 1,
        ..Ruleset::default()
    });
    let store = app.store().await;
    store
        .set_chat_settings(
            group,
            &ChatSettings {
                ruleset,
                ai_level: engine::ai::Level::Easy,
                board: Some(morskoy_boy::game::record::Board::Text),
                ..ChatSettings::default()
            },
        )
        .await
        .unwrap();
    app.tg.group(group, "Sea dogs");
    let anna = app.player(9801, "Anna", "en");
    let boris = app.player(9802, "Boris", "en");
    let (lobby, join) = open_lobby(&app, group, &anna).await;
    let a = app.press(group, &boris, lobby.message_id, &join).await;
    assert!(!a.show_alert, "{a:?}");
    let a = app
        .press(group, &anna, lobby.message_id, &data(&lobby, "b:"))
        .await;
    assert!(!a.show_alert, "the bot is not seated: {a:?}");
    app.tg
        .wait_for(
            group,
            |m| m.message_id == lobby.message_id && m.text.contains("3. 🤖"),
            wait(),
        )
        .await
        .expect("the lobby shows the bot");
    let a = app
        .press(group, &anna, lobby.message_id, &data(&lobby, "s:"))
        .await;
    assert!(!a.show_alert, "{a:?}");
    for p in [&anna, &boris] {
        place_and_ready(&app, p).await;
    }
    let (game, generation, battle) = battle_of(&app, &store, group).await;
    let t = Table {
        group,
        players: vec![anna.clone(), boris.clone(), anna.clone()],
        game,
        generation,
        battle,
        store,
    };
    let (mut stepped_on_mine, mut gave_up) = (false, 0);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(240);
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the game does not end"
        );
        let rec = t.record().await;
        if rec.game.is_finished() {
            break;
        }
        if let Some(m) = rec.game.mine_choice() {
            if rec.is_ai_seat(m.seat) {
                tokio::time::sleep(Duration::from_millis(30)).await;
                continue;
            }
            // A person answers the question in the private chat.
            let dm = t.user(m.seat).id.0 as i64;
            let wanted = format!("g:{}:{}:", t.game, m.deadline);
            let question = app.message_with_button(dm, &wanted).await;
            let a = app
                .press(
                    dm,
                    t.user(m.seat),
                    question.message_id,
                    &data(&question, &wanted),
                )
                .await;
            assert!(!a.show_alert, "{a:?}");
            gave_up += 1;
            continue;
        }
        let shooter = rec.game.turn();
        if rec.is_ai_seat(shooter) {
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        }
        let targets = rec.game.targets(shooter);
        let target = targets[0];
        if rec.current_aim().unwrap().target != target {
            let a = t.tap(&app, shooter, &t.aim(target)).await;
            assert!(!a.show_alert, "{a:?}");
        }
        let total = rec.salvo_size(target).unwrap();
        let (mut cells, _) = salvo_plan(&rec.game, target, total);
        let fleet = rec.game.fleet(target).unwrap();
        if !stepped_on_mine && !rec.is_ai_seat(target) {
            // One salvo steps on a person's mine on purpose.
            if let Some(&mine) = fleet
                .mines()
                .iter()
                .find(|&&c| !rec.game.is_known(target, c))
            {
                cells[0] = mine;
                stepped_on_mine = true;
            }
        }
        let size = rec.game.ruleset().size();
        for c in &cells {
            let a = t.tap(&app, shooter, &t.fire(target, *c, size)).await;
            assert!(!a.show_alert, "{a:?}");
        }
        let a = t.tap(&app, shooter, &t.salvo(target)).await;
        assert!(!a.show_alert, "{a:?}");
        assert!(said(&a).starts_with("salvo:"), "{a:?}");
    }
    t.wait_for_the_end(&app).await;
    assert!(
        stepped_on_mine && gave_up > 0,
        "no person gave up a cell after a mine"
    );
    let texts = app.tg.all_texts(group).join("\n");
    assert!(
        texts.contains("🤖 Bot (easy) → "),
        "the bot's salvoes are not in the log"
    );
    assert_fair_salvo_end(&app, group);
}

flow! {
    /// The arsenal (docs/rules.md §3.8) by the battle message's buttons: each weapon armed, its
    /// cell tapped (the torpedo from a corner asks its way), the group told in words, every
    /// player's weapons left in the message; a weapon out of turn or used up is refused.
    fn each_weapon_of_the_arsenal_is_armed_and_fired_by_buttons_and_told_to_the_group() {
        let app = App::spawn().await;
        let group = -9_501;
        let ruleset = rules(Ruleset {
            arsenal: 1,
            ..Ruleset::default()
        });
        let t = table(&app, group, ruleset, &["Anna", "Boris"], 9_501).await;
        let rec = t.record().await;
        let (a, b) = (rec.game.turn(), rec.game.targets(rec.game.turn())[0]);
        let size = rec.game.ruleset().size();
        let arm = |w: &str| format!("wa:{}:{}:{w}", t.game, t.generation);
        let battle = t.battle_message(&app);
        assert!(
            battle.callback_data().contains(&arm("r")),
            "{:?}",
            battle.buttons()
        );
        assert!(
            battle
                .text
                .contains(&format!("Arsenal: {} 📡1 ✈1 🚀1", t.name(SeatId(0)))),
            "{}",
            battle.text
        );
        // Not the turn of the other player: refused.
        let refused = t.tap(&app, b, &arm("r")).await;
        assert!(
            refused.show_alert && said(&refused).contains("not your turn"),
            "{refused:?}"
        );

        // A radar over the middle of the field.
        let armed = t.tap(&app, a, &arm("r")).await;
        assert!(said(&armed).contains("radar armed"), "{armed:?}");
        let center = Coord::new(4, 4);
        let answer = t.tap(&app, a, &t.fire(b, center, size)).await;
        assert!(
            !answer.show_alert && said(&answer).contains("radar e5"),
            "{answer:?}"
        );
        let line = format!("📡 {} — radar E5:", t.name(a));
        app.tg
            .wait_for(
                group,
                |m| m.message_id == t.battle && m.text.contains(&line),
                wait(),
            )
            .await
            .unwrap_or_else(|| panic!("the group hears the radar: {}", t.battle_message(&app).text));
        let rec = t.record().await;
        assert_eq!(rec.game.weapons_left(a), [0, 1, 1]);
        assert_eq!(rec.game.turn(), b, "a weapon is the whole turn");

        // Boris's air strike on the corner square.
        t.tap(&app, b, &arm("a")).await;
        let answer = t.tap(&app, b, &t.fire(a, Coord::new(1, 1), size)).await;
        assert!(said(&answer).contains("air strike b2"), "{answer:?}");
        let line = format!("✈ {} — air strike B2:", t.name(b));
        app.tg
            .wait_for(
                group,
                |m| m.message_id == t.battle && m.text.contains(&line),
                wait(),
            )
            .await
            .expect("the group hears the air strike, cell by cell");
        // Used up: its button is gone, and a forged press is refused.
        let again = t.tap(&app, a, &arm("a")).await;
        assert!(!again.show_alert, "Anna still has hers: {again:?}");
        t.tap(&app, a, &arm("a")).await;

        // Anna's torpedo from the corner J10: which way is asked, then it runs.
        t.tap(&app, a, &arm("t")).await;
        let corner = Coord::new(9, 9);
        let asked = t.tap(&app, a, &t.fire(b, corner, size)).await;
        assert!(said(&asked).contains("choose which way"), "{asked:?}");
        let west = format!("wh:{}:{}:w", t.game, t.generation);
        app.tg
            .wait_for(
                group,
                |m| m.message_id == t.battle && m.callback_data().contains(&west),
                wait(),
            )
            .await
            .expect("the ways from the corner under the field");
        let answer = t.tap(&app, a, &west).await;
        assert!(said(&answer).contains("torpedo j10 ←"), "{answer:?}");
        app.tg
            .wait_for(
                group,
                |m| {
                    m.message_id == t.battle
                        && m.text
                            .contains(&format!("🚀 {} — torpedo J10 ←", t.name(a)))
                },
                wait(),
            )
            .await
            .expect("the group hears the torpedo's run");
        let rec = t.record().await;
        assert_eq!(rec.game.weapons_left(a), [0, 1, 0]);
        assert_eq!(rec.game.weapons_left(b), [1, 0, 1]);
        let used = t.tap(&app, a, &arm("t")).await;
        assert!(used.show_alert, "{used:?}");
        // Boris types his radar in reply to the battle message.
        app.tg.send_reply(group, t.user(b), "radar h8", t.battle);
        let line = format!("📡 {} — radar H8:", t.name(b));
        app.tg
            .wait_for(
                group,
                |m| m.message_id == t.battle && m.text.contains(&line),
                wait(),
            )
            .await
            .expect("the typed radar is told to the group");
        assert_eq!(t.record().await.game.weapons_left(b), [0, 0, 1]);
        assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
    }
}
