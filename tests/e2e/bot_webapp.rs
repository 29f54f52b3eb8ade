//! End to end, the Mini App's server (issue 31, begun): the real bot binary with
//! `MB_WEBAPP_LISTEN`, a real Redis and the fake Telegram; the page and the state API asked
//! over HTTP as the page asks, with `initData` signed as Telegram signs it for the bot's token.

use crate::helpers::*;
use morskoy_boy::telegram::init_data::signed;
use serde_json::Value;

/// `initData` for `user` (id, name) signed with `token`, `age` seconds old, for game `game`.
fn init_data(token: &str, id: u64, name: &str, age: u64, game: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let user = format!(r#"{{"id":{id},"first_name":"{name}","language_code":"en"}}"#);
    signed(
        &[
            ("user", &user),
            ("auth_date", &(now - age).to_string()),
            ("start_param", &format!("g{game}")),
        ],
        token,
    )
}

/// The state of `game` as the holder of `auth` gets it: the status, and the JSON if any.
async fn state(base: &str, game: &str, auth: Option<&str>) -> (u16, Option<Value>) {
    let client = reqwest::Client::new();
    let mut req = client.get(format!("{base}/app/api/state?game={game}"));
    if let Some(a) = auth {
        req = req.header("Authorization", format!("tma {a}"));
    }
    let r = req.send().await.expect("the Mini App answers");
    let status = r.status().as_u16();
    let body = r.text().await.unwrap();
    (status, serde_json::from_str(&body).ok())
}

/// The cells of every field in `s` the viewer does not see whole that show a ship or an idle
/// mine: must be none before the end.
fn secrets(s: &Value) -> Vec<String> {
    s["fields"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !f["whole"].as_bool().unwrap())
        .map(|f| f["cells"].as_str().unwrap().to_owned())
        .filter(|c| c.contains(['S', 'm']))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mini_app_serves_its_page_and_each_caller_only_what_their_seat_may_see() {
    let mut app = App::world(150, Some(100_000)).await;
    let listen = free_port();
    app.env
        .push(("MB_WEBAPP_LISTEN".into(), listen.to_string()));
    app.start_bot().await;
    let base = format!("http://{listen}");
    let a = app.player(31_001, "Anna", "en");
    let b = app.player(31_002, "Boris", "en");
    let mut d = duel(&app, -31_001, a, b).await;
    for _ in 0..6 {
        d.shoot_button(&app).await;
    }
    let token = app.tg.token().to_owned();
    let game = d.game.to_string();

    // The page: from the binary, nothing fetched from elsewhere.
    let page = reqwest::get(format!("{base}/app")).await.unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("api/state"), "{html}");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "the page loads nothing from elsewhere"
    );

    // Each player: their own field whole with its ships, the other's as the public sees it.
    for (seat, id, name) in [(0u64, 31_001, "Anna"), (1, 31_002, "Boris")] {
        let auth = init_data(&token, id, name, 5, d.game);
        let (status, s) = state(&base, &game, Some(&auth)).await;
        assert_eq!(status, 200);
        let s = s.expect("JSON");
        assert_eq!(s["me"], seat, "{s}");
        assert_eq!(s["phase"], "battle");
        let own = &s["fields"][seat as usize];
        assert!(own["whole"].as_bool().unwrap());
        assert!(own["cells"].as_str().unwrap().contains('S'), "{own}");
        assert_eq!(secrets(&s), Vec::<String>::new());
        // Someone's shots show: a miss, a hit or a sunk cell somewhere.
        let shot = s["fields"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["cells"].as_str().unwrap().contains(['o', 'x', '#']));
        assert!(shot, "{s}");
    }
    // Anyone else: the public's view, no field whole.
    let carol = init_data(&token, 31_003, "Carol", 5, d.game);
    let (status, s) = state(&base, &game, Some(&carol)).await;
    assert_eq!(status, 200);
    let s = s.unwrap();
    assert!(s["me"].is_null(), "{s}");
    assert_eq!(secrets(&s), Vec::<String>::new());
    assert!(s["fields"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| !f["whole"].as_bool().unwrap()));

    // Refused with 401, and nothing told: no initData, an altered one, another bot's, an
    // expired one.
    let anna = init_data(&token, 31_001, "Anna", 5, d.game);
    let altered = anna.replace("31001", "31002");
    assert_ne!(altered, anna);
    let other_bot = init_data("1:another-token", 31_001, "Anna", 5, d.game);
    let expired = init_data(&token, 31_001, "Anna", 25 * 3600, d.game);
    for auth in [
        None,
        Some(altered.as_str()),
        Some(&other_bot),
        Some(&expired),
    ] {
        let (status, body) = state(&base, &game, auth).await;
        assert_eq!(status, 401, "{auth:?}");
        assert!(body.is_none());
    }
    // A game that does not exist.
    assert_eq!(state(&base, "999999999", Some(&anna)).await.0, 404);

    // A tap on the page: the player to move shoots a cell no one knows yet, as a cell's button
    // would, and the group's battle message tells it.
    let players = [(31_001u64, "Anna"), (31_002, "Boris")];
    let mut shooter = None;
    for (seat, (id, name)) in players.iter().enumerate() {
        let auth = init_data(&token, *id, name, 5, d.game);
        let s = state(&base, &game, Some(&auth)).await.1.unwrap();
        if s["turn"] == seat as u64 {
            shooter = Some((seat, auth, s));
        }
    }
    let (seat, auth, s) = shooter.expect("someone's turn");
    let target = 1 - seat;
    let cells = s["fields"][target]["cells"].as_str().unwrap().to_owned();
    let cell = cells.find('.').expect("an unknown cell");
    let generation = s["generation"].as_u64().unwrap();
    let tap = |auth: Option<String>, generation: u64, cell: usize| {
        let base = base.clone();
        let game = game.clone();
        async move {
            let mut req = reqwest::Client::new().post(format!(
                "{base}/app/api/shot?game={game}&generation={generation}&target={target}&cell={cell}"
            ));
            if let Some(a) = auth {
                req = req.header("Authorization", format!("tma {a}"));
            }
            let r = req.send().await.unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.ok())
        }
    };
    // Not the shooter: refused in words, nothing changes; a forged initData: 401.
    let other = players[target];
    let other_auth = init_data(&token, other.0, other.1, 5, d.game);
    let (status, refused) = tap(Some(other_auth), generation, cell).await;
    assert_eq!(status, 200);
    let refused = refused.unwrap();
    assert_eq!(refused["ok"], false, "{refused}");
    let (status, _) = tap(Some(altered.clone()), generation, cell).await;
    assert_eq!(status, 401);
    // A board drawn for an older generation of buttons: refused as a stale button is.
    let (_, stale) = tap(Some(auth.clone()), generation + 1, cell).await;
    assert_eq!(stale.unwrap()["ok"], false);
    let after = state(&base, &game, Some(&auth)).await.1.unwrap();
    assert_eq!(
        after["fields"][target]["cells"].as_str().unwrap(),
        cells,
        "changed by a refusal"
    );
    // The shooter's tap.
    let (status, done) = tap(Some(auth.clone()), generation, cell).await;
    assert_eq!(status, 200);
    let done = done.unwrap();
    assert_eq!(done["ok"], true, "{done}");
    let words = done["answer"].as_str().unwrap().to_owned();
    assert!(
        ["miss", "hit", "sunk"].iter().any(|w| words.contains(w)),
        "{words}"
    );
    let after = state(&base, &game, Some(&auth)).await.1.unwrap();
    let mark = after["fields"][target]["cells"]
        .as_str()
        .unwrap()
        .as_bytes()[cell];
    assert!(b"ox#".contains(&mark), "{after}");
    // The group hears it: the cell's name in the battle message.
    let name = engine::format_cell(
        engine::Coord::new((cell % 10) as u8, (cell / 10) as u8),
        engine::Alphabet::Latin,
        engine::Size::new(10, 10),
    );
    let heard = app
        .tg
        .wait_for(
            d.group,
            |m| m.message_id == d.battle && m.text.contains(&format!("{name} — ")),
            wait(),
        )
        .await;
    assert!(
        heard.is_some(),
        "the group never heard the page's shot at {name}"
    );
    // The same tap again: the cell is known now.
    let (_, again) = tap(Some(auth.clone()), generation, cell).await;
    assert_eq!(again.unwrap()["ok"], false);

    // The live stream: the state now, then the next one as soon as a move lands, here a
    // button's press in the group.
    let encoded: String = auth
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let mut stream = reqwest::get(format!("{base}/app/api/events?game={game}&auth={encoded}"))
        .await
        .unwrap();
    assert_eq!(stream.status().as_u16(), 200);
    let mut events: Vec<Value> = Vec::new();
    let mut buffer = String::new();
    let mut next_event = async || -> Value {
        loop {
            if let Some(end) = buffer.find("\n\n") {
                let event: String = buffer.drain(..end + 2).collect();
                if let Some(data) = event.strip_prefix("data: ") {
                    return serde_json::from_str(data.trim()).unwrap();
                }
                continue;
            }
            let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), stream.chunk())
                .await
                .expect("an event in time")
                .unwrap()
                .expect("the stream goes on");
            buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    events.push(next_event().await);
    let first = events[0]["version"].as_u64().unwrap();
    // Whoever is to move taps an unknown cell (on the page too; the stream does not care
    // where a move comes from).
    let turn = events[0]["turn"].as_u64().unwrap() as usize;
    let (id, name) = players[turn];
    let mover = init_data(&token, id, name, 5, d.game);
    let target = 1 - turn;
    let cell = events[0]["fields"][target]["cells"]
        .as_str()
        .unwrap()
        .find('.')
        .unwrap();
    let generation = events[0]["generation"].as_u64().unwrap();
    let url = format!(
        "{base}/app/api/shot?game={game}&generation={generation}&target={target}&cell={cell}"
    );
    let done: Value = reqwest::Client::new()
        .post(url)
        .header("Authorization", format!("tma {mover}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(done["ok"], true, "{done}");
    events.push(next_event().await);
    assert!(events[1]["version"].as_u64().unwrap() > first, "{events:?}");
    let mark = events[1]["fields"][target]["cells"]
        .as_str()
        .unwrap()
        .as_bytes()[cell];
    assert!(b"ox#".contains(&mark), "{}", events[1]);
    assert_eq!(secrets(&events[1]), Vec::<String>::new());
    // Without a valid initData there is no stream.
    let refused = reqwest::get(format!("{base}/app/api/events?game={game}&auth=x"))
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 401);
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}
