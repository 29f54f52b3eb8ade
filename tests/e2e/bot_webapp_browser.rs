//! The Mini App in a real browser (issue 31): Debian's Chromium, headless, at a phone's width,
//! on the page the bot serves, as Telegram opens it (`initData` and the theme in the
//! address's fragment). A classic fleet placed by dragging, then a whole game played from the
//! page by one player and from the chat by the other; bent ships and land-sea-air placed on
//! the page. A refused `initData` told in words (issue 42); Telegram's Mini App protocol by
//! each of its transports, with the cells' colours and the viewport's height as drawn. Every
//! answer and event the page received is scanned for another seat's secrets.
//! Screenshots go to `MB_SCREENSHOTS_DIR` (default `target/screenshots`); README's are made so.

use crate::bot_webapp::{api, app_with_page, encode, group_heard, web_app_url};
use crate::helpers::*;
use crate::webdriver::{Browser, Pointer};
use morskoy_boy::game::lang::Lang;
use morskoy_boy::telegram::init_data::{game_token, signed};
use morskoy_boy::view::i18n::t;
use serde_json::{json, Value};

/// Telegram's light and dark themes, as it hands them to a Mini App.
const LIGHT: &str = r##"{"bg_color":"#ffffff","text_color":"#000000","hint_color":"#999999","link_color":"#2481cc","button_color":"#2481cc","button_text_color":"#ffffff","secondary_bg_color":"#e7f0f8"}"##;
const DARK: &str = r##"{"bg_color":"#17212b","text_color":"#f5f5f5","hint_color":"#708499","link_color":"#6ab3f3","button_color":"#5288c1","button_text_color":"#ffffff","secondary_bg_color":"#232e3c"}"##;

/// `initData` for user `id` as Telegram signs it for the bot's `token`.
fn init_data(token: &str, id: u64, name: &str, lang: &str) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let user = format!(r#"{{"id":{id},"first_name":"{name}","language_code":"{lang}"}}"#);
    // As Telegram signs it today: a `signature` (Ed25519, for third parties) under the HMAC.
    signed(
        &[
            ("user", &user),
            ("chat_instance", "-4213077617253961536"),
            ("chat_type", "private"),
            ("auth_date", &now.to_string()),
            (
                "signature",
                "kdb9S3JdZ8pYBLMJWq8h3Hc_GK5LFwQyBdWbq_P5_nJdVvzUyKYtp_Nwd86pQd1N3Dpf7PWUZuvO6qXP6BD2Aw",
            ),
        ],
        token,
    )
}

/// The page's address as Telegram opens it from the private editor's button.
fn page_url(base: &str, game: &str, auth: &str, theme: &str) -> String {
    format!(
        "{base}/app?game={game}&record#tgWebAppData={}&tgWebAppThemeParams={}",
        encode(auth),
        encode(theme)
    )
}

/// Where screenshots go.
fn screenshots() -> std::path::PathBuf {
    let dir = std::env::var("MB_SCREENSHOTS_DIR").map_or_else(
        |_| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots"),
        std::path::PathBuf::from,
    );
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A screenshot of the page, saved as `name`.png.
async fn photograph(browser: &Browser, name: &str) {
    let png = browser.screenshot_png().await;
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 2000);
    std::fs::write(screenshots().join(format!("{name}.png")), png).unwrap();
}

/// Every state the page received, scanned: before the end, no field it does not see whole
/// shows a ship or an idle mine or a land border, and no draft but the viewer's own.
async fn scan_received(browser: &Browser) -> usize {
    let all = browser.eval("return received;", vec![]).await;
    let all = all.as_array().unwrap();
    let mut states = 0;
    for text in all {
        let v: Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
        let s = if v.get("state").is_some() {
            &v["state"]
        } else {
            &v
        };
        if s.is_null() || s["phase"] == "over" || s["fields"].is_null() {
            continue;
        }
        states += 1;
        for f in s["fields"].as_array().unwrap() {
            if f["whole"] == true {
                continue;
            }
            let cells = f["cells"].as_str().unwrap();
            assert!(!cells.contains(['S', 'm']), "a secret sent: {cells}");
            assert!(f["land"].is_null(), "a land border sent: {f}");
        }
    }
    states
}

/// The page's state as drawn now (`current`).
async fn drawn(browser: &Browser) -> Value {
    browser.eval("return current;", vec![]).await
}

/// Drags from the dock's piece of `size` cells onto `cell` (its first cell there).
async fn drag_piece(browser: &Browser, size: usize, cell: usize, ships: usize, pointer: Pointer) {
    let from = browser
        .center_of(&format!(".piece[data-size='{size}'] span"))
        .await;
    let to = browser
        .center_of(&format!("#board [data-cell='{cell}']"))
        .await;
    browser.drag(from, to, pointer).await;
    browser
        .wait_for(
            &format!("return current.draft && current.draft.ships.length === {ships} && !busy;"),
            wait(),
        )
        .await;
}

/// Each unit of `fleet` placed cell by cell (a tap a cell) and ✔ Ship, on the page.
async fn place_by_taps(browser: &Browser, fleet: &[&[usize]]) {
    for (n, cells) in fleet.iter().enumerate() {
        for c in cells.iter() {
            let picked = browser
                .eval("return current.draft.picked.length;", vec![])
                .await;
            browser.click(&format!("#board [data-cell='{c}']")).await;
            browser
                .wait_for(
                    &format!(
                        "return current.draft.picked.length === {} && !busy;",
                        picked.as_u64().unwrap() + 1
                    ),
                    wait(),
                )
                .await;
        }
        browser.click("button[data-op='confirm']").await;
        browser
            .wait_for(
                &format!("return current.draft.ships.length === {} && !busy;", n + 1),
                wait(),
            )
            .await;
    }
}

/// Ready on the page, the other player's random fleet in the chat: the battle is on the page,
/// and nothing the page was sent told a secret.
async fn ready_on_the_page(browser: &Browser, app: &App, other: &teloxide::types::User) {
    browser.click("button[data-op='ready']").await;
    browser
        .wait_for("return current && current.draft === null;", wait())
        .await;
    place_and_ready(app, other).await;
    browser
        .wait_for("return current && current.phase === 'battle';", wait())
        .await;
    scan_received(browser).await;
}

/// A game of `a` and `b` in `group`, started: the token the private editor's button opens
/// the page with, the game's id, and `a`'s editor message.
async fn started(
    app: &App,
    group: i64,
    a: &teloxide::types::User,
    b: &teloxide::types::User,
) -> (String, u64, crate::fake_telegram::SentMessage) {
    let lobby = lobby_of_two(app, group, a, b).await;
    let start = data(&lobby, "s:");
    assert!(
        !app.press(group, a, lobby.message_id, &start)
            .await
            .show_alert
    );
    let editor = app.message_with_button(a.id.0 as i64, "pe:").await;
    let opens = web_app_url(&editor).expect("the editor's button to the page");
    let game = opens.rsplit("game=").next().unwrap().to_owned();
    let id: u64 = game[1..game.find('_').unwrap()].parse().unwrap();
    assert_eq!(game, game_token(id, app.tg.token()));
    (game, id, editor)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_classic_fleet_placed_by_dragging_and_a_game_played_from_the_page_to_the_end() {
    let (app, base) = app_with_page().await;
    let a = app.player(31_401, "Анна", "ru");
    let b = app.player(31_402, "Boris", "en");
    let group = -31_401;
    let token = app.tg.token().to_owned();
    let (game, id, editor) = started(&app, group, &a, &b).await;
    let auth = init_data(&token, 31_401, "Анна", "ru");

    let browser = Browser::start(412, 915).await;
    browser.phone(360, 780).await;
    browser.goto(&page_url(&base, &game, &auth, LIGHT)).await;
    browser
        .wait_for(
            "return document.querySelectorAll('.piece').length === 4;",
            wait(),
        )
        .await;
    // Usable at 360 pixels: nothing wider than the screen.
    let width = browser
        .eval(
            "return [innerWidth, document.documentElement.scrollWidth];",
            vec![],
        )
        .await;
    assert_eq!(width[0], 360, "{width}");
    assert!(
        width[1].as_u64() <= Some(360),
        "wider than the phone: {width}"
    );
    let first_render = browser.eval("return window.firstDraw;", vec![]).await;
    eprintln!("first render of the placement: {first_render} ms after navigation");
    photograph(&browser, "placement-empty-ru-light").await;

    // The battleship dragged onto а1–г1 with the mouse, then turned by a tap: а1–а4.
    drag_piece(&browser, 4, 0, 1, Pointer::Mouse).await;
    assert_eq!(
        drawn(&browser).await["draft"]["ships"][0]["cells"],
        json!([0, 1, 2, 3])
    );
    let edits = app
        .tg
        .messages(31_401)
        .into_iter()
        .find(|m| m.message_id == editor.message_id)
        .unwrap()
        .edits;
    let on_it = browser.center_of("#board [data-cell='2']").await;
    browser.tap(on_it, Pointer::Touch).await;
    browser
        .wait_for(
            "return current.draft.ships[0].cells.join() === '0,10,20,30' && !busy;",
            wait(),
        )
        .await;
    // The private editor follows the page.
    app.tg
        .wait_for(
            31_401,
            |m| m.message_id == editor.message_id && m.edits > edits,
            wait(),
        )
        .await
        .expect("the private editor redrawn");

    // A boat dropped at a corner of the battleship, by touch: kept, the conflict shown on
    // its cells and in words; then dragged away, and the problem is gone.
    drag_piece(&browser, 1, 41, 2, Pointer::Touch).await;
    browser
        .wait_for(
            "return document.querySelectorAll('.problem-words').length === 1 && \
             document.querySelector(\"#board [data-cell='41']\").classList.contains('problem');",
            wait(),
        )
        .await;
    photograph(&browser, "placement-conflict-ru-light").await;
    let from = browser.center_of("#board [data-cell='41']").await;
    let to = browser.center_of("#board [data-cell='42']").await;
    browser.drag(from, to, Pointer::Touch).await;
    browser
        .wait_for(
            "return current.draft.ships.some(s => s.cells.join() === '42') && \
             document.querySelectorAll('.problem-words').length === 0 && !busy;",
            wait(),
        )
        .await;
    // The rest of the fleet, by mouse and by touch.
    let rest = [
        (3, 2, Pointer::Mouse),
        (3, 6, Pointer::Touch),
        (2, 22, Pointer::Mouse),
        (2, 25, Pointer::Touch),
        (2, 28, Pointer::Mouse),
        (1, 44, Pointer::Touch),
        (1, 46, Pointer::Mouse),
        (1, 48, Pointer::Touch),
    ];
    for (n, (size, cell, pointer)) in rest.into_iter().enumerate() {
        drag_piece(&browser, size, cell, 3 + n, pointer).await;
    }
    let d = drawn(&browser).await;
    assert_eq!(d["draft"]["complete"], true, "{d}");
    assert_eq!(d["draft"]["dock"], json!([]));
    photograph(&browser, "placement-ru-light").await;
    browser.goto(&page_url(&base, &game, &auth, DARK)).await;
    browser
        .wait_for(
            "return current && current.draft && current.draft.complete;",
            wait(),
        )
        .await;
    photograph(&browser, "placement-ru-dark").await;
    browser.goto(&page_url(&base, &game, &auth, LIGHT)).await;
    browser
        .wait_for(
            "return current && current.draft && current.draft.complete;",
            wait(),
        )
        .await;

    // Ready on the page; Boris places in the chat; the battle begins.
    browser.click("button[data-op='ready']").await;
    browser
        .wait_for("return current && current.draft === null;", wait())
        .await;
    place_and_ready(&app, &b).await;
    let battle = app.message_with_button(group, "f:").await;
    let link = format!("/board?startapp={game}");
    assert!(
        battle.callback_data().iter().any(|d| d.ends_with(&link))
            || battle.raw_text.contains(&link),
        "the battle message leads to the live board"
    );
    browser
        .wait_for("return current && current.phase === 'battle';", wait())
        .await;

    // The game to its end: Anna on the page, Boris in the chat. After every shot the page and
    // the group's message tell the same result.
    let boris = init_data(&token, 31_402, "Boris", "en");
    let mut shots = 0;
    let mut photographed = false;
    // The group's letters for the columns (its language's).
    let alphabet = crate::bot_riga::record(&app, id).await.alphabet;
    loop {
        let s = drawn(&browser).await;
        if s["phase"] == "over" {
            break;
        }
        let turn = s["turn"].as_u64().unwrap() as usize;
        let target = 1 - turn;
        let before = s["version"].as_u64().unwrap();
        let cell = if turn == 0 {
            let cell = s["fields"][target]["cells"]
                .as_str()
                .unwrap()
                .find('.')
                .unwrap();
            let at = browser
                .center_of(&format!(
                    ".field[data-seat='{target}'] [data-cell='{cell}']"
                ))
                .await;
            browser.tap(at, Pointer::Mouse).await;
            cell
        } else {
            let b_state = api(&base, "GET", &format!("state?game={game}"), &boris).await;
            // From the far end: Anna's fleet stands near the top, so the page gets to shoot.
            let cell = b_state["fields"][target]["cells"]
                .as_str()
                .unwrap()
                .rfind('.')
                .unwrap();
            let generation = b_state["generation"].as_u64().unwrap();
            let fire = format!("f:{id}:{generation}:{target}:{cell}");
            let answer = app.press(group, &b, battle.message_id, &fire).await;
            assert!(!answer.show_alert, "{answer:?}");
            cell
        };
        shots += 1;
        // The page shows the result…
        let shown = browser
            .wait_for(
                &format!(
                    "return current.version > {before} && \
                     'ox#'.includes(current.fields[{target}].cells[{cell}]) && current;"
                ),
                wait(),
            )
            .await;
        let mark = shown["fields"][target]["cells"]
            .as_str()
            .unwrap()
            .as_bytes()[cell];
        assert!(b"ox#".contains(&mark), "{shown}");
        // …and so does the group: the cell's result line in the battle message.
        let over = shown["phase"] == "over";
        assert!(
            group_heard(&app, group, battle.message_id, cell, alphabet, over).await,
            "the group never heard the shot at {cell}"
        );
        if shots == 12 && !photographed {
            photographed = true;
            photograph(&browser, "battle-ru-light").await;
            browser.goto(&page_url(&base, &game, &auth, DARK)).await;
            browser
                .wait_for("return current && current.phase !== undefined;", wait())
                .await;
            photograph(&browser, "battle-ru-dark").await;
            browser.goto(&page_url(&base, &game, &auth, LIGHT)).await;
            browser
                .wait_for("return current && current.phase !== undefined;", wait())
                .await;
        }
        assert!(shots < 250, "the game does not end");
    }
    // Every state the page was ever sent, scanned (the last page load's).
    let d = drawn(&browser).await;
    let scanned = scan_received(&browser).await;
    eprintln!(
        "{shots} shots; {scanned} states the page received scanned; {}",
        d["log"]
    );
    assert!(scanned > shots, "{scanned} states for {shots} shots");
    let d = drawn(&browser).await;
    assert!(d["fields"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["whole"] == true));
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bent_ships_and_land_sea_air_are_placed_on_the_page() {
    let (app, base) = app_with_page().await;
    let token = app.tg.token().to_owned();
    let browser = Browser::start(412, 915).await;
    browser.phone(360, 780).await;

    // Bent ships, cell by cell and Confirm: a square of four, an L of three and the rest.
    let a = app.player(31_501, "Анна", "ru");
    let b = app.player(31_502, "Boris", "en");
    let group = -31_501;
    app.set_rules(
        group,
        engine::Ruleset {
            shapes: engine::Shapes::Bent,
            ..engine::Ruleset::default()
        },
    )
    .await;
    let (game, _, _) = started(&app, group, &a, &b).await;
    let auth = init_data(&token, 31_501, "Анна", "ru");
    browser.goto(&page_url(&base, &game, &auth, LIGHT)).await;
    browser
        .wait_for(
            "return current && current.draft && current.draft.mode === 'cells';",
            wait(),
        )
        .await;
    let fleet: [&[usize]; 10] = [
        &[0, 1, 10, 11],
        &[3, 4, 14],
        &[6, 7, 8],
        &[30, 31],
        &[33, 34],
        &[36, 37],
        &[50],
        &[52],
        &[54],
        &[56],
    ];
    place_by_taps(&browser, &fleet).await;
    let d = drawn(&browser).await;
    assert_eq!(d["draft"]["complete"], true, "{d}");
    assert_eq!(
        d["draft"]["ships"][1]["cells"],
        json!([3, 4, 14]),
        "the L stands"
    );
    photograph(&browser, "placement-bent-ru-light").await;
    ready_on_the_page(&browser, &app, &b).await;

    // Land-sea-air, unit by unit on the page: ships at sea, the battery, tanks and the
    // anti-aircraft gun on land (rows 8 to 15 of the first border), aircraft anywhere; a unit
    // taken off by a tap and put back by Undo; then Ready.
    let a = app.player(31_503, "Анна", "ru");
    let b = app.player(31_504, "Boris", "en");
    let group = -31_503;
    app.set_rules(group, engine::Ruleset::land_sea_air()).await;
    let (game, _, _) = started(&app, group, &a, &b).await;
    let auth = init_data(&token, 31_503, "Анна", "ru");
    browser.goto(&page_url(&base, &game, &auth, LIGHT)).await;
    let land = browser
        .wait_for(
            "return current && current.draft && current.draft.land;",
            wait(),
        )
        .await;
    let at = |x: usize, y: usize| y * 20 + x;
    let flat: String = (0..15 * 20)
        .map(|i| if i / 20 >= 7 { 'L' } else { 'W' })
        .collect();
    assert_eq!(land, json!(flat), "the first border is flat at row 8");
    let row = |x: usize, y: usize, n: usize| (x..x + n).map(|x| at(x, y)).collect::<Vec<_>>();
    let units: Vec<Vec<usize>> = vec![
        row(0, 0, 5),
        row(6, 0, 4),
        row(11, 0, 3),
        row(15, 0, 3),
        row(0, 2, 2),
        row(3, 2, 2),
        row(6, 2, 2),
        vec![at(9, 2), at(10, 2), at(11, 2), at(10, 3)],
        vec![at(13, 2), at(14, 2), at(15, 2), at(14, 3)],
        vec![at(0, 8), at(1, 8), at(0, 9), at(1, 9)],
        row(3, 8, 2),
        row(6, 8, 2),
        row(9, 8, 2),
        vec![at(12, 8)],
    ];
    let fleet: Vec<&[usize]> = units.iter().map(Vec::as_slice).collect();
    place_by_taps(&browser, &fleet).await;
    let d = drawn(&browser).await;
    assert_eq!(d["draft"]["complete"], true, "{d}");
    let drawn_land = browser
        .eval(
            "return document.querySelectorAll('#board .L').length;",
            vec![],
        )
        .await;
    assert_eq!(drawn_land, json!(8 * 20), "the land is drawn");
    browser
        .click(&format!("#board [data-cell='{}']", at(0, 8)))
        .await;
    browser
        .wait_for("return current.draft.ships.length === 13 && !busy;", wait())
        .await;
    browser.click("button[data-op='undo']").await;
    browser
        .wait_for(
            "return current.draft.ships.length === 14 && current.draft.complete && !busy;",
            wait(),
        )
        .await;
    photograph(&browser, "placement-land-sea-air-ru-light").await;
    ready_on_the_page(&browser, &app, &b).await;
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_board_on_one_replica_shows_a_press_in_the_chat_within_a_second() {
    let (app, [_, two]) = crate::bot_webapp::two_replicas_with_pages().await;
    let a = app.player(31_601, "Anna", "en");
    let b = app.player(31_602, "Boris", "en");
    let mut d = duel(&app, -31_601, a, b).await;
    let token = app.tg.token().to_owned();
    let game = game_token(d.game, &token);
    // Carol watches the live board on replica two; the players press in the group, and
    // Telegram posts their presses to either replica.
    let carol = init_data(&token, 31_603, "Carol", "en");
    let browser = Browser::start(412, 915).await;
    browser.phone(360, 780).await;
    browser.goto(&page_url(&two, &game, &carol, LIGHT)).await;
    browser
        .wait_for("return current && current.phase === 'battle';", wait())
        .await;
    let marks = |s: &Value| -> String {
        s["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["cells"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut delays = Vec::new();
    for _ in 0..6 {
        let before = marks(&drawn(&browser).await);
        // A cell the group already knows (beside a sunk ship) is refused and changes
        // nothing: the next one, then.
        let (pressed, shot) = loop {
            let pressed = tokio::time::Instant::now();
            let shot = d.shoot_button(&app).await;
            if shot != Shot::Known {
                break (pressed, shot);
            }
        };
        assert!(
            matches!(shot, Shot::Miss | Shot::Hit | Shot::Sunk),
            "{shot:?}"
        );
        // The drawn board's marks change, the new ones animated: the result is on the page.
        let deadline = pressed + wait();
        while marks(&drawn(&browser).await) == before {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the page never showed the shot"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        delays.push(pressed.elapsed());
        let animated = browser
            .eval(
                "return document.querySelectorAll('.grid .flash').length;",
                vec![],
            )
            .await;
        assert!(animated.as_u64() > Some(0), "the result is not animated");
    }
    delays.sort();
    eprintln!("a press in the chat reached the page on the other replica after {delays:?}");
    let median = delays[delays.len() / 2];
    assert!(
        median < std::time::Duration::from_secs(1),
        "the median is {median:?}"
    );
    scan_received(&browser).await;
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_riga_game_is_ordered_and_a_move_played_by_tapping_on_the_page() {
    let (app, base) = app_with_page().await;
    let a = app.player(31_701, "Anna", "en");
    let b = app.player(31_702, "Boris", "en");
    let (id, _) = crate::bot_riga::riga_lobby(&app, -31_701, &a, &b).await;
    let token = app.tg.token().to_owned();
    let game = game_token(id, &token);
    let auth = init_data(&token, 31_701, "Anna", "en");
    let boris = init_data(&token, 31_702, "Boris", "en");
    let browser = Browser::start(412, 915).await;
    browser.phone(360, 780).await;
    browser.goto(&page_url(&base, &game, &auth, LIGHT)).await;
    browser
        .wait_for(
            "return current && current.riga && current.riga.order.length === 12;",
            wait(),
        )
        .await;
    // Two taps on the board's start points swap their ships.
    let before = drawn(&browser).await["riga"]["order"].clone();
    let point = |n: usize| {
        format!(
            "#board [data-point='{},{}']",
            before[n]["col"], before[n]["row"]
        )
    };
    browser.click(&point(0)).await;
    browser
        .wait_for("return current.riga.picked === 0 && !busy;", wait())
        .await;
    browser.click(&point(5)).await;
    browser
        .wait_for("return current.riga.picked === null && !busy;", wait())
        .await;
    let after = drawn(&browser).await["riga"]["order"].clone();
    assert_eq!(
        (&after[0]["letter"], &after[5]["letter"]),
        (&before[5]["letter"], &before[0]["letter"])
    );
    photograph(&browser, "riga-setup-en-light").await;
    // Ready on the page; Boris readies through the page's API.
    let lock = browser
        .eval(
            "return current.riga.actions.flat().find(a => a.data.startsWith('qk:')).data;",
            vec![],
        )
        .await;
    browser
        .click(&format!("button[data-data='{}']", lock.as_str().unwrap()))
        .await;
    let s = api(&base, "GET", &format!("state?game={game}"), &boris).await;
    let theirs = s["riga"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().clone())
        .find(|a| a["data"].as_str().unwrap().starts_with("qk:"))
        .unwrap();
    let call = format!(
        "riga?game={game}&data={}",
        encode(theirs["data"].as_str().unwrap())
    );
    assert_eq!(api(&base, "POST", &call, &boris).await["ok"], true);
    browser
        .wait_for("return current && current.phase === 'battle';", wait())
        .await;
    // Whoever moves first: Boris through the API, then Anna on the page by a tap on one of
    // her ships and one of its moves.
    let s = api(&base, "GET", &format!("state?game={game}"), &boris).await;
    if let Some(mv) = s["riga"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().clone())
        .find(|a| !a["ship"].is_null())
    {
        let call = format!(
            "riga?game={game}&data={}",
            encode(mv["data"].as_str().unwrap())
        );
        assert_eq!(api(&base, "POST", &call, &boris).await["ok"], true);
    }
    let ship = browser
        .wait_for(
            "return current.riga.actions.length > 0 && \
             current.riga.ships.find(s => s.own && current.riga.actions.flat().some(a => a.ship === s.i));",
            wait(),
        )
        .await;
    let moves_before = crate::bot_riga::riga_record(&app, id)
        .await
        .game
        .as_ref()
        .unwrap()
        .moves();
    browser
        .click(&format!(
            "#board [data-point='{},{}']",
            ship["col"], ship["row"]
        ))
        .await;
    browser
        .wait_for(
            "return document.querySelectorAll('.buttons button').length > 0;",
            wait(),
        )
        .await;
    photograph(&browser, "riga-battle-en-light").await;
    browser.click(".buttons button").await;
    browser
        .wait_for("return current.riga.actions.length === 0 && !busy;", wait())
        .await;
    let rec = crate::bot_riga::record(&app, id).await;
    assert_eq!(
        crate::bot_riga::riga_of(&rec)
            .unwrap()
            .game
            .as_ref()
            .unwrap()
            .moves(),
        moves_before + 1
    );
    scan_received(&browser).await;
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_init_data_is_refused_says_so_in_words_and_to_open_it_again_from_the_chat() {
    let (app, base) = app_with_page().await;
    let token = app.tg.token().to_owned();
    let game = game_token(1, &token);
    let browser = Browser::start(412, 915).await;
    browser.phone(360, 780).await;
    // A forged initData (another user's id under Anna's hash) that claims Russian.
    let forged = init_data(&token, 31_801, "Анна", "ru").replace("31801", "31802");
    browser.goto(&page_url(&base, &game, &forged, DARK)).await;
    let shown = browser
        .wait_for(
            "const r = document.getElementById('refused'); \
             return r && r.offsetHeight > 0 && r.textContent;",
            wait(),
        )
        .await;
    assert_eq!(shown, json!(t(Lang::Ru, "webapp-unauthorized")));
    assert!(shown.as_str().unwrap().contains("из чата"), "{shown}");
    photograph(&browser, "refused-ru-dark").await;
    // No initData at all (the address opened outside Telegram): the browser's language,
    // English here.
    browser.goto(&format!("{base}/app?game={game}")).await;
    let shown = browser
        .wait_for(
            "const r = document.getElementById('refused'); \
             return r && r.offsetHeight > 0 && r.textContent;",
            wait(),
        )
        .await;
    assert_eq!(shown, json!(t(Lang::En, "webapp-unauthorized")));
}

/// `#rrggbb` as the browser computes a colour.
fn rgb(hex: &str) -> String {
    let n = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    format!("rgb({}, {}, {})", n(1), n(3), n(5))
}

/// The page's colours now: the body's background, the colour scheme the page chose, and the
/// backgrounds of a water cell and of a ship's cell of the viewer's own field.
const COLOURS: &str = "
    const f = current && current.fields && current.fields.find((f) => f.whole);
    if (!f) return null;
    const cell = (c) => getComputedStyle(document.querySelector(
        `.field[data-seat='${f.seat}'] [data-cell='${f.cells.indexOf(c)}']`)).backgroundColor;
    return [getComputedStyle(document.body).backgroundColor,
            document.documentElement.dataset.scheme || '', cell('.'), cell('S')];";

/// The page's viewport heights (`--tg-viewport-height`, `--tg-viewport-stable-height`) and
/// the body's least height.
const VIEWPORT: &str = "
    const root = getComputedStyle(document.documentElement);
    return [root.getPropertyValue('--tg-viewport-height').trim(),
            root.getPropertyValue('--tg-viewport-stable-height').trim(),
            getComputedStyle(document.body).minHeight];";

/// The backgrounds of a miss, a hit, a sunk ship's cell, a halo's and water, as the page
/// draws them: on an enemy field the page is made to draw with those five in its first cells
/// (a state of its own, newer than any the server sent).
const STATES_DRAWN: &str = "
    if (!window.sample) {
      window.sample = JSON.parse(JSON.stringify(current));
      const f = sample.fields.find((f) => !f.whole);
      f.cells = 'ox#-.' + f.cells.slice(5);
      sample.version += 1000;
      show(sample);
    }
    const f = sample.fields.find((f) => !f.whole);
    return [0, 1, 2, 3, 4].map((i) => getComputedStyle(document.querySelector(
        `.field[data-seat='${f.seat}'] [data-cell='${i}']`)).backgroundColor);";

/// Light Telegram's colours as the page shows them, then dark's.
fn light() -> Value {
    json!([rgb("#ffffff"), "light", rgb("#dcecfb"), rgb("#3a6fd0")])
}
fn dark() -> Value {
    json!([rgb("#17212b"), "dark", rgb("#0d1b2a"), rgb("#3a88f2")])
}

/// A game of two on, and the page's address for its first player (`id`), in `theme`.
async fn a_battle(app: &App, id: u64, theme: &str, base: &str) -> String {
    let a = app.player(id as i64, "Anna", "en");
    let b = app.player(id as i64 + 1, "Boris", "en");
    let d = duel(app, -(id as i64), a, b).await;
    let token = app.tg.token().to_owned();
    let auth = init_data(&token, id, "Anna", "en");
    page_url(base, &game_token(d.game, &token), &auth, theme)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_telegram_webs_iframe_the_page_posts_ready_and_expand_and_takes_its_parents_theme() {
    let (app, base) = app_with_page().await;
    let url = a_battle(&app, 31_901, LIGHT, &base).await;
    let browser = Browser::start(412, 915).await;
    // Telegram Web's part: the page in an iframe, every message it posts up kept (the parent
    // is any other address of the server).
    browser.goto(&format!("{base}/telegram-web")).await;
    browser
        .eval(
            "window.got = [];
             addEventListener('message', (e) => got.push(e.data));
             const f = document.createElement('iframe');
             f.style.cssText = 'width: 360px; height: 700px; border: 0';
             f.src = arguments[0];
             document.body.append(f);
             return true;",
            vec![json!(url)],
        )
        .await;
    let got = browser
        .wait_for("return got.length >= 2 && got;", wait())
        .await;
    says_ready_and_expand(&got);
    browser.enter_frame(0).await;
    assert_eq!(browser.wait_for(COLOURS, wait()).await, light());
    // A message that is not the parent's (here the page's own) changes nothing.
    browser
        .eval(
            "postMessage(JSON.stringify({ eventType: 'theme_changed',
                 eventData: { theme_params: { bg_color: '#ff0000' } } }), '*');
             return true;",
            vec![],
        )
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(browser.eval(COLOURS, vec![]).await, light());
    browser.leave_frame().await;
    // Telegram Web tells the frame of a dark theme and of its height.
    browser
        .eval(
            "const to = document.querySelector('iframe').contentWindow;
             const post = (eventType, eventData) =>
                 to.postMessage(JSON.stringify({ eventType, eventData }), '*');
             post('theme_changed', { theme_params: JSON.parse(arguments[0]) });
             post('viewport_changed', { height: 640, is_expanded: true, is_state_stable: true });
             return true;",
            vec![json!(DARK)],
        )
        .await;
    browser.enter_frame(0).await;
    browser
        .wait_for(
            "return document.documentElement.dataset.scheme === 'dark';",
            wait(),
        )
        .await;
    assert_eq!(browser.eval(COLOURS, vec![]).await, dark());
    assert_eq!(
        browser.eval(VIEWPORT, vec![]).await,
        json!(["640px", "640px", "640px"])
    );
    photograph(&browser, "battle-en-dark-in-iframe").await;
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_the_page_posts_through_the_webview_proxy_and_takes_events_by_receive_event() {
    let (app, base) = app_with_page().await;
    let url = a_battle(&app, 31_911, LIGHT, &base).await;
    let browser = Browser::start(412, 915).await;
    browser.phone(360, 780).await;
    // What Telegram's Android and iOS apps put into the web view before the page runs (and
    // Telegram Desktop's external.notify, for an address that asks for it); a Telegram
    // object of someone else's stays.
    browser
        .before_every_page(
            "window.posted = [];
             window.Telegram = { theirs: true };
             if (new URLSearchParams(location.search).has('desktop'))
               window.external.notify = (m) => posted.push(m);
             else
               window.TelegramWebviewProxy = { postEvent: (t, d) => posted.push([t, d]) };",
        )
        .await;
    browser.goto(&url).await;
    assert_eq!(browser.wait_for(COLOURS, wait()).await, light());
    let posted = browser.eval("return posted;", vec![]).await;
    assert_eq!(
        posted.as_array().unwrap()[0..2],
        [
            json!(["web_app_ready", "\"\""]),
            json!(["web_app_expand", "\"\""])
        ],
        "{posted}"
    );
    let kept = browser
        .eval(
            "return Telegram.theirs === true && typeof Telegram.WebView.receiveEvent;",
            vec![],
        )
        .await;
    assert_eq!(kept, json!("function"));

    // Telegram calls receiveEvent: a dark theme, then the sheet dragged up and let go.
    browser
        .eval(
            "Telegram.WebView.receiveEvent('theme_changed', { theme_params: JSON.parse(arguments[0]) });
             Telegram.WebView.receiveEvent('viewport_changed',
                 { height: 500, is_expanded: false, is_state_stable: false });
             return true;",
            vec![json!(DARK)],
        )
        .await;
    assert_eq!(browser.eval(COLOURS, vec![]).await, dark());
    let dark_states = ["#c3d3e3", "#ffc94a", "#cc3b33", "#717171", "#0d1b2a"].map(rgb);
    assert_eq!(browser.eval(STATES_DRAWN, vec![]).await, json!(dark_states));
    // After the new cells' flash.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    photograph(&browser, "cells-en-dark").await;
    let moving = browser.eval(VIEWPORT, vec![]).await;
    assert_eq!(
        moving.as_array().unwrap()[0..2],
        [json!("500px"), json!("")],
        "{moving}"
    );
    browser
        .eval(
            "Telegram.WebView.receiveEvent('viewport_changed',
                 { height: 760, is_expanded: true, is_state_stable: true });
             Telegram.WebView.receiveEvent('theme_changed', { theme_params: JSON.parse(arguments[0]) });
             return true;",
            vec![json!(LIGHT)],
        )
        .await;
    assert_eq!(
        browser.eval(VIEWPORT, vec![]).await,
        json!(["760px", "760px", "760px"])
    );
    assert_eq!(browser.eval(COLOURS, vec![]).await, light());
    let light_states = ["#0b8f76", "#e23c1c", "#1e2e44", "#80807c", "#dcecfb"].map(rgb);
    assert_eq!(
        browser.eval(STATES_DRAWN, vec![]).await,
        json!(light_states)
    );
    // After the new cells' flash.
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    photograph(&browser, "cells-en-light").await;

    // Telegram Desktop: the same two events through external.notify.
    browser
        .goto(&url.replacen("&record", "&record&desktop", 1))
        .await;
    let posted = browser
        .wait_for("return posted.length >= 2 && posted;", wait())
        .await;
    says_ready_and_expand(&posted);
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

/// The events a page posted (each a JSON string `{eventType, eventData}`) begin with
/// `web_app_ready` and `web_app_expand`.
fn says_ready_and_expand(posted: &Value) {
    let events: Vec<Value> = posted
        .as_array()
        .unwrap()
        .iter()
        .map(|m| serde_json::from_str(m.as_str().expect("a JSON string")).unwrap())
        .collect();
    assert_eq!(
        events[..2],
        [
            json!({ "eventType": "web_app_ready", "eventData": "" }),
            json!({ "eventType": "web_app_expand", "eventData": "" }),
        ],
        "{events:?}"
    );
}
