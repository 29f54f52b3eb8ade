//! End to end, the Mini App's server (issue 31): the real bot binary with
//! `MB_WEBAPP_LISTEN`, a real Redis and the fake Telegram; the page and the state API asked
//! over HTTP as the page asks, with `initData` signed as Telegram signs it for the bot's token.

use crate::helpers::*;
use morskoy_boy::game::lang::Lang;
use morskoy_boy::telegram::init_data::{game_token, signed};
use morskoy_boy::view::i18n::t;
use serde_json::Value;

/// A world whose bot serves the page (`MB_WEBAPP_LISTEN`), with its address and its battle
/// links set (`MB_WEBAPP_URL`, `MB_WEBAPP_NAME`): the world and the page's base address.
pub(crate) async fn app_with_page() -> (App, String) {
    app_with_page_and(&[]).await
}

/// [`app_with_page`] with `more` environment.
async fn app_with_page_and(more: &[(&str, String)]) -> (App, String) {
    let mut app = App::world(150, Some(100_000)).await;
    let listen = free_port();
    app.env.extend([
        ("MB_WEBAPP_LISTEN".into(), listen.to_string()),
        ("MB_WEBAPP_URL".into(), "https://mb.example.org/app".into()),
        ("MB_WEBAPP_NAME".into(), "board".into()),
    ]);
    app.env
        .extend(more.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
    app.start_bot().await;
    (app, format!("http://{listen}"))
}

/// A call of the page's API by the holder of `auth`: `method` on `<base>/app/api/<call>` (the
/// path and the query); its JSON answer.
pub(crate) async fn api(base: &str, method: &str, call: &str, auth: &str) -> Value {
    let url = format!("{base}/app/api/{call}");
    let client = reqwest::Client::new();
    let req = if method == "POST" {
        client.post(url)
    } else {
        client.get(url)
    };
    req.header("Authorization", format!("tma {auth}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The page a message's `web_app` button opens, if it has one.
pub(crate) fn web_app_url(m: &crate::fake_telegram::SentMessage) -> Option<String> {
    m.reply_markup.as_ref()?["inline_keyboard"]
        .as_array()?
        .iter()
        .filter_map(Value::as_array)
        .flatten()
        .find_map(|b| b["web_app"]["url"].as_str().map(str::to_owned))
}

/// Percent-encoding of everything but letters and digits.
pub(crate) fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Whether the group tells the result of the shot at `cell` (of a 10×10 field, in the
/// group's `alphabet`) within the test's wait: in the battle message, or (`over`) in any.
pub(crate) async fn group_heard(
    app: &App,
    group: i64,
    battle: i32,
    cell: usize,
    alphabet: engine::Alphabet,
    over: bool,
) -> bool {
    let name = engine::format_cell(
        engine::Coord::new((cell % 10) as u8, (cell / 10) as u8),
        alphabet,
        engine::Size::new(10, 10),
    );
    app.tg
        .wait_for(
            group,
            |m| m.text.contains(&format!("{name} — ")) && (m.message_id == battle || over),
            wait(),
        )
        .await
        .is_some()
}

/// `initData` for `user` (id, name) signed with `token`, `age` seconds old, for game `game`.
fn init_data(token: &str, id: u64, name: &str, age: u64, game: u64) -> String {
    let user = format!(r#"{{"id":{id},"first_name":"{name}","language_code":"en"}}"#);
    init_data_of(token, &user, age, game)
}

/// [`init_data`] for the `user` field `user` (JSON).
fn init_data_of(token: &str, user: &str, age: u64, game: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // As Telegram signs it today: a `signature` (Ed25519, for third parties) and the chat's
    // fields beside the user, all under the HMAC.
    signed(
        &[
            ("user", user),
            ("chat_instance", "-4213077617253961536"),
            ("chat_type", "group"),
            ("auth_date", &(now - age).to_string()),
            ("start_param", &format!("g{game}")),
            (
                "signature",
                "kdb9S3JdZ8pYBLMJWq8h3Hc_GK5LFwQyBdWbq_P5_nJdVvzUyKYtp_Nwd86pQd1N3Dpf7PWUZuvO6qXP6BD2Aw",
            ),
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

/// A 401's body: why, and what to do in `lang`'s words, and nothing of the game.
fn assert_refused_in(body: Option<Value>, lang: Lang) {
    let body = body.expect("a 401 answers in JSON");
    let mut keys: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["error", "words"], "{body}");
    assert_eq!(body["words"], t(lang, "webapp-unauthorized"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_caller_is_told_what_to_do_in_the_language_its_request_claims() {
    let (app, base) = app_with_page().await;
    let token = app.tg.token().to_owned();
    let game = game_token(1, &token);
    let ask = |auth: Option<String>, accept: Option<&'static str>| {
        let url = format!("{base}/app/api/state?game={game}");
        async move {
            let mut req = reqwest::Client::new().get(url);
            if let Some(a) = auth {
                req = req.header("Authorization", format!("tma {a}"));
            }
            if let Some(l) = accept {
                req = req.header("Accept-Language", l);
            }
            let r = req.send().await.unwrap();
            assert_eq!(r.status().as_u16(), 401);
            r.json::<Value>().await.ok()
        }
    };
    // The `language_code` an altered initData claims picks the words, over the browser's.
    let claims = |lang: &str| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let user = format!(r#"{{"id":31051,"first_name":"Анна","language_code":"{lang}"}}"#);
        signed(&[("user", &user), ("auth_date", &now.to_string())], &token)
            .replace("31051", "31052")
    };
    assert_refused_in(ask(Some(claims("ru")), Some("bg")).await, Lang::Ru);
    assert_refused_in(ask(Some(claims("bg")), None).await, Lang::Bg);
    assert_refused_in(ask(Some(claims("de")), Some("ru")).await, Lang::En);
    // No initData: the first language of Accept-Language the bot speaks; else English.
    assert_refused_in(ask(None, Some("de-DE,bg;q=0.8,ru;q=0.5")).await, Lang::Bg);
    assert_refused_in(ask(None, Some("uk-UA")).await, Lang::Ru);
    assert_refused_in(ask(None, Some("fr")).await, Lang::En);
    assert_refused_in(ask(None, None).await, Lang::En);
    // The live stream's initData comes in its query.
    let stream = format!(
        "{base}/app/api/events?game={game}&auth={}",
        encode(&claims("bg"))
    );
    let r = reqwest::get(stream).await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert_refused_in(r.json().await.ok(), Lang::Bg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mini_app_serves_its_page_and_each_caller_only_what_their_seat_may_see() {
    let (app, base) = app_with_page().await;
    let a = app.player(31_001, "Anna", "en");
    let b = app.player(31_002, "Boris", "en");
    let mut d = duel(&app, -31_001, a, b).await;
    for _ in 0..6 {
        d.shoot_button(&app).await;
    }
    let token = app.tg.token().to_owned();
    let game = game_token(d.game, &token);

    // The page: from the binary, nothing fetched from elsewhere.
    let page = reqwest::get(format!("{base}/app")).await.unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("api/${path}") && html.contains("state"),
        "{html}"
    );
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
        assert_refused_in(body, Lang::En);
    }
    // A game that does not exist; this one by its number alone, or by another's token.
    let other = game_token(999_999_999, &token);
    assert_eq!(state(&base, &other, Some(&anna)).await.0, 404);
    assert_eq!(state(&base, &d.game.to_string(), Some(&anna)).await.0, 404);
    let forged = format!("g{}_{}", d.game, &other[other.len() - 12..]);
    assert_eq!(state(&base, &forged, Some(&anna)).await.0, 404);

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
    assert!(
        group_heard(
            &app,
            d.group,
            d.battle,
            cell,
            engine::Alphabet::Latin,
            false
        )
        .await,
        "the group never heard the page's shot at {cell}"
    );
    // The same tap again: the cell is known now.
    let (_, again) = tap(Some(auth.clone()), generation, cell).await;
    assert_eq!(again.unwrap()["ok"], false);

    // The live stream: the state now, then the next one as soon as a move lands, here a
    // button's press in the group.
    // Not too fast for the page's rate limit: a new second.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let mut stream = Events::open(&base, &game, &auth).await;
    let mut events: Vec<Value> = Vec::new();
    events.push(stream.next().await);
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
    let shot = format!("shot?game={game}&generation={generation}&target={target}&cell={cell}");
    let done = api(&base, "POST", &shot, &mover).await;
    assert_eq!(done["ok"], true, "{done}");
    events.push(stream.next().await);
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

/// The page's live stream of a game: server-sent events, read one by one.
struct Events {
    stream: reqwest::Response,
    buffer: String,
}

impl Events {
    /// The stream of `game` for the holder of `auth` (in the query, as a browser opens it).
    async fn open(base: &str, game: &str, auth: &str) -> Events {
        let encoded = encode(auth);
        let stream = reqwest::get(format!("{base}/app/api/events?game={game}&auth={encoded}"))
            .await
            .unwrap();
        assert_eq!(stream.status().as_u16(), 200);
        Events {
            stream,
            buffer: String::new(),
        }
    }

    /// Whether the server ends the stream within 5 s (states it sends meanwhile are skipped).
    async fn ended(&mut self) -> bool {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            match tokio::time::timeout_at(deadline, self.stream.chunk()).await {
                Err(_) => return false,
                Ok(Ok(Some(_))) => continue,
                Ok(Ok(None) | Err(_)) => return true,
            }
        }
    }

    /// The next state it sends, within 10 s.
    async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                if let Some(data) = event.strip_prefix("data: ") {
                    return serde_json::from_str(data.trim()).unwrap();
                }
                continue;
            }
            let chunk =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.stream.chunk())
                    .await
                    .expect("an event in time")
                    .unwrap()
                    .expect("the stream goes on");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
}

/// What the page's editor call answered: `{ok, answer, state}`.
async fn page_edit(base: &str, game: &str, auth: &str, query: &str) -> Value {
    api(base, "POST", &format!("edit?game={game}&{query}"), auth).await
}

/// Message `id` of `chat` as it is now.
fn message(app: &App, chat: i64, id: i32) -> crate::fake_telegram::SentMessage {
    app.tg
        .messages(chat)
        .into_iter()
        .find(|m| m.message_id == id)
        .expect("the message")
}

/// The private editor's text between <pre> and </pre>: the field, a row a line.
fn editor_rows(m: &crate::fake_telegram::SentMessage) -> Vec<String> {
    let raw = &m.raw_text;
    let from = raw.find("<pre>").map_or(0, |i| i + 5);
    let to = raw.find("</pre>").unwrap_or(raw.len());
    raw[from..to].lines().skip(1).map(str::to_owned).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_the_private_editor_edit_one_draft_and_ready_on_the_page_starts_the_battle() {
    let (app, base) = app_with_page().await;
    let a = app.player(31_101, "Anna", "en");
    let b = app.player(31_102, "Boris", "ru");
    let group = -31_101;
    let lobby = lobby_of_two(&app, group, &a, &b).await;
    let start = data(&lobby, "s:");
    assert!(
        !app.press(group, &a, lobby.message_id, &start)
            .await
            .show_alert
    );
    let token = app.tg.token().to_owned();

    // The private editor has a button that opens the page on this very editor.
    let chat = 31_101i64;
    let editor = app.message_with_button(chat, "pe:").await;
    let opens = web_app_url(&editor).expect("a web_app button under the editor");
    let game = opens
        .strip_prefix("https://mb.example.org/app?game=")
        .expect("the page's address with the game's token")
        .to_owned();
    let id: u64 = game[1..game.find('_').unwrap()].parse().unwrap();
    assert_eq!(game, game_token(id, &token));
    let auth = init_data(&token, 31_101, "Anna", 5, id);

    // The page's editor: empty, the whole fleet in the dock, in the player's language.
    let (_, s) = state(&base, &game, Some(&auth)).await;
    let s = s.unwrap();
    assert_eq!(s["phase"], "placement");
    let draft = &s["draft"];
    assert_eq!(draft["mode"], "drag", "{s}");
    assert_eq!(draft["ships"].as_array().unwrap().len(), 0);
    let dock: Vec<(u64, u64)> = draft["dock"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k["size"].as_u64().unwrap(), k["left"].as_u64().unwrap()))
        .collect();
    assert_eq!(dock, vec![(4, 1), (3, 2), (2, 3), (1, 4)]);
    assert_eq!(s["labels"]["ready"], "Ready");

    // A battleship dragged onto а1–г1: the page's state and the private editor both show it.
    let edits = message(&app, chat, editor.message_id).edits;
    let done = page_edit(&base, &game, &auth, "op=move&cells=0,1,2,3").await;
    assert_eq!(done["ok"], true, "{done}");
    assert!(
        done["answer"].as_str().unwrap().contains("Placed"),
        "{done}"
    );
    let ships = done["state"]["draft"]["ships"].as_array().unwrap().clone();
    assert_eq!(ships.len(), 1);
    assert_eq!(ships[0]["cells"], serde_json::json!([0, 1, 2, 3]));
    let shown = app
        .tg
        .wait_for(
            chat,
            |m| m.message_id == editor.message_id && m.edits > edits,
            wait(),
        )
        .await
        .expect("the private editor redrawn after the page's edit");
    assert!(
        editor_rows(&shown)[0].contains("O O O O"),
        "{}",
        shown.raw_text
    );

    // A boat dropped at a corner of it: kept, and the conflict told in words, on its cells.
    let done = page_edit(&base, &game, &auth, "op=move&cells=14").await;
    let problems = done["state"]["draft"]["problems"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(problems.len(), 1, "{done}");
    assert!(problems[0]["cells"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!(14)));
    assert!(!problems[0]["words"].as_str().unwrap().is_empty());
    // Moved away: no problem left. Then the battleship turned upright about а1.
    let done = page_edit(&base, &game, &auth, "op=move&from=14&cells=55").await;
    assert_eq!(
        done["state"]["draft"]["problems"],
        serde_json::json!([]),
        "{done}"
    );
    let done = page_edit(&base, &game, &auth, "op=move&from=2&cells=0,10,20,30").await;
    let ships = done["state"]["draft"]["ships"].as_array().unwrap().clone();
    assert_eq!(
        ships[0]["cells"],
        serde_json::json!([0, 10, 20, 30]),
        "{done}"
    );
    // Refused, nothing changed: a bent ship in the classic game; cells off the field; another
    // player's edit of this editor is their own (Carol is not in the game).
    let before = done["state"]["draft"].clone();
    let bent = page_edit(&base, &game, &auth, "op=move&cells=77,78,88").await;
    assert_eq!(bent["ok"], false, "{bent}");
    assert_eq!(bent["state"]["draft"], before);
    let client = reqwest::Client::new();
    let off = client
        .post(format!(
            "{base}/app/api/edit?game={game}&op=move&cells=99,100"
        ))
        .header("Authorization", format!("tma {auth}"))
        .send()
        .await
        .unwrap();
    assert_eq!(off.status().as_u16(), 400);
    let carol = init_data(&token, 31_103, "Carol", 5, id);
    let stranger = page_edit(&base, &game, &carol, "op=random").await;
    assert_eq!(stranger["ok"], false, "{stranger}");
    let (_, again) = state(&base, &game, Some(&auth)).await;
    assert_eq!(again.unwrap()["draft"], before);

    // The chat's Random shows on the page's live stream.
    let mut stream = Events::open(&base, &game, &auth).await;
    let first = stream.next().await;
    assert_eq!(first["draft"], before);
    let editor = message(&app, chat, editor.message_id);
    let random = editor
        .callback_data()
        .into_iter()
        .find(|d| d.starts_with("pe:") && d.ends_with(":r"))
        .unwrap();
    app.press(chat, &a, editor.message_id, &random).await;
    let changed = stream.next().await;
    assert_eq!(
        changed["draft"]["ships"].as_array().unwrap().len(),
        10,
        "{changed}"
    );
    assert!(changed["draftVersion"].as_u64() > first["draftVersion"].as_u64());
    assert_eq!(changed["draft"]["complete"], true, "{changed}");

    // Boris readies in the chat, Anna on the page: the battle begins, and its message leads
    // to the live board.
    place_and_ready(&app, &b).await;
    let done = page_edit(&base, &game, &auth, "op=ready").await;
    assert_eq!(done["ok"], true, "{done}");
    assert!(done["state"]["draft"].is_null(), "{done}");
    let battle = app.message_with_button(group, "f:").await;
    let link = format!("/board?startapp={game}");
    let linked = battle.callback_data().iter().any(|d| d.ends_with(&link))
        || battle.raw_text.contains(&link);
    assert!(linked, "{:?} {}", battle.buttons(), battle.raw_text);
    // Ready again: locked.
    let again = page_edit(&base, &game, &auth, "op=ready").await;
    assert_eq!(again["ok"], false, "{again}");
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

/// Two replicas in webhook mode behind one Redis, each serving the page on its own port: the
/// world, and each page's base address.
pub(crate) async fn two_replicas_with_pages() -> (App, [String; 2]) {
    let mut app = App::world(150, Some(100_000)).await;
    app.webhook_listen = vec![free_port(), free_port()];
    let pages = [free_port(), free_port()];
    app.env
        .push(("MB_WEBAPP_LISTEN".into(), pages[0].to_string()));
    app.start_bot().await;
    app.env.retain(|(k, _)| k != "MB_WEBAPP_LISTEN");
    app.env
        .push(("MB_WEBAPP_LISTEN".into(), pages[1].to_string()));
    app.start_second_bot().await;
    app.tg.set_webhook_backends(app.webhook_listen.clone());
    (app, pages.map(|p| format!("http://{p}")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_one_replica_shows_a_move_made_on_the_other_within_a_second() {
    let (app, [one, two]) = two_replicas_with_pages().await;
    let a = app.player(31_201, "Anna", "en");
    let b = app.player(31_202, "Boris", "en");
    let d = duel(&app, -31_201, a, b).await;
    let token = app.tg.token().to_owned();
    let game = game_token(d.game, &token);
    let players = [(31_201u64, "Anna"), (31_202, "Boris")];
    let auths: Vec<String> = players
        .iter()
        .map(|(id, name)| init_data(&token, *id, name, 5, d.game))
        .collect();
    // Carol watches on replica two; the players shoot on replica one.
    let carol = init_data(&token, 31_203, "Carol", 5, d.game);
    let mut watch = Events::open(&two, &game, &carol).await;
    let mut seen = watch.next().await;
    let mut delays = Vec::new();
    for _ in 0..5 {
        let turn = seen["turn"].as_u64().unwrap() as usize;
        let target = 1 - turn;
        let cells = seen["fields"][target]["cells"].as_str().unwrap().to_owned();
        let cell = cells.find('.').unwrap();
        let generation = seen["generation"].as_u64().unwrap();
        let pressed = tokio::time::Instant::now();
        let shot = format!("shot?game={game}&generation={generation}&target={target}&cell={cell}");
        let done = api(&one, "POST", &shot, &auths[turn]).await;
        assert_eq!(done["ok"], true, "{done}");
        // The watcher's next state has the shot.
        loop {
            seen = watch.next().await;
            let mark = seen["fields"][target]["cells"].as_str().unwrap().as_bytes()[cell];
            if mark != b'.' {
                break;
            }
        }
        delays.push(pressed.elapsed());
        assert_eq!(secrets(&seen), Vec::<String>::new());
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    delays.sort();
    eprintln!("a move on one replica reached a page on the other after {delays:?}");
    assert!(
        delays[delays.len() / 2] < std::time::Duration::from_secs(1),
        "the median is {:?}",
        delays[delays.len() / 2]
    );
}

/// A tap on the page's Riga board: the data of one of the buttons it was given.
async fn riga_press(base: &str, game: &str, auth: &str, data: &str) -> Value {
    let call = format!("riga?game={game}&data={}", encode(data));
    api(base, "POST", &call, auth).await
}

/// Every action the page's Riga board offers, flat.
fn actions(s: &Value) -> Vec<Value> {
    s["riga"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_riga_game_is_ordered_and_played_on_the_page_and_an_order_stays_secret() {
    let (app, base) = app_with_page().await;
    let a = app.player(31_301, "Anna", "en");
    let b = app.player(31_302, "Boris", "en");
    let (id, _) = crate::bot_riga::riga_lobby(&app, -31_301, &a, &b).await;
    let token = app.tg.token().to_owned();
    let game = game_token(id, &token);
    let auths = [
        init_data(&token, 31_301, "Anna", 5, id),
        init_data(&token, 31_302, "Boris", 5, id),
    ];
    let carol = init_data(&token, 31_303, "Carol", 5, id);

    // The set-up: each sees their own twelve start points, on their own start line, and
    // nothing of the other's order; anyone else sees no order at all.
    let mut rows = Vec::new();
    for auth in &auths {
        let s = state(&base, &game, Some(auth)).await.1.unwrap();
        assert_eq!(s["phase"], "setup", "{s}");
        let order = s["riga"]["order"].as_array().unwrap().clone();
        assert_eq!(order.len(), 12, "{s}");
        let row: Vec<u64> = order.iter().map(|o| o["row"].as_u64().unwrap()).collect();
        assert!(row.iter().all(|&r| r == row[0]), "{row:?}");
        rows.push(row[0]);
        assert_eq!(s["riga"]["ships"], serde_json::json!([]));
        assert_eq!(
            actions(&s).iter().filter(|a| !a["point"].is_null()).count(),
            12
        );
    }
    assert_ne!(rows[0], rows[1]);
    let public = state(&base, &game, Some(&carol)).await.1.unwrap();
    assert_eq!(public["riga"]["order"], serde_json::json!([]), "{public}");
    assert_eq!(public["riga"]["actions"], serde_json::json!([]));

    // Two taps on the page swap two ships, as in the chat.
    let before = crate::bot_riga::riga_record(&app, id).await.orders[0].clone();
    let s = state(&base, &game, Some(&auths[0])).await.1.unwrap();
    let tap = |n: u64| {
        actions(&s).into_iter().find(|a| a["point"] == n).unwrap()["data"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        riga_press(&base, &game, &auths[0], &tap(0)).await["ok"],
        true
    );
    assert_eq!(
        riga_press(&base, &game, &auths[0], &tap(5)).await["ok"],
        true
    );
    let after = crate::bot_riga::riga_record(&app, id).await.orders[0].clone();
    assert_eq!((after[0], after[5]), (before[5], before[0]));
    // Carol's press of Anna's button: refused, nothing changes. A button of another game:
    // not taken.
    let refused = riga_press(&base, &game, &carol, &tap(1)).await;
    assert_eq!(refused["ok"], false, "{refused}");
    let other = reqwest::Client::new()
        .post(format!(
            "{base}/app/api/riga?game={game}&data=qt:{}:1",
            id + 1
        ))
        .header("Authorization", format!("tma {}", auths[0]))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status().as_u16(), 400);

    // Both lock on the page: the battle begins; only the side to move gets moves.
    for auth in &auths {
        let s = state(&base, &game, Some(auth)).await.1.unwrap();
        let lock = actions(&s)
            .into_iter()
            .find(|a| a["data"].as_str().unwrap().starts_with("qk:"))
            .expect("Ready");
        let done = riga_press(&base, &game, auth, lock["data"].as_str().unwrap()).await;
        assert_eq!(done["ok"], true, "{done}");
    }
    let mut states = Vec::new();
    for auth in &auths {
        states.push(state(&base, &game, Some(auth)).await.1.unwrap());
    }
    assert!(states.iter().all(|s| s["phase"] == "battle"), "{states:?}");
    assert_eq!(states[0]["riga"]["ships"].as_array().unwrap().len(), 24);
    let mover = states
        .iter()
        .position(|s| !actions(s).is_empty())
        .expect("the side to move has moves");
    assert!(actions(&states[1 - mover]).is_empty());
    let mv = actions(&states[mover])
        .into_iter()
        .find(|a| !a["ship"].is_null())
        .expect("a ship's move");
    let data = mv["data"].as_str().unwrap().to_owned();
    // The other player pressing it: not their turn; then the mover's press plays it.
    let wrong = riga_press(&base, &game, &auths[1 - mover], &data).await;
    assert_eq!(wrong["ok"], false, "{wrong}");
    let done = riga_press(&base, &game, &auths[mover], &data).await;
    assert_eq!(done["ok"], true, "{done}");
    let rec = crate::bot_riga::record(&app, id).await;
    assert_eq!(
        crate::bot_riga::riga_of(&rec)
            .unwrap()
            .game
            .as_ref()
            .unwrap()
            .moves(),
        1
    );
    // The same button again: drawn for a position gone.
    let again = riga_press(&base, &game, &auths[mover], &data).await;
    assert_eq!(again["ok"], false, "{again}");
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
}

/// A member of the group who never wrote to the bot opens the live board from the group's
/// link: the page speaks the language their Telegram puts in `initData`, not the chat's; with
/// none there, the chat's; a language chosen with /lang wins over both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_speaks_the_viewers_language_from_init_data_before_the_chats() {
    let (app, base) = app_with_page().await;
    let a = app.player(42_101, "Anna", "en");
    let b = app.player(42_102, "Boris", "en");
    let d = duel(&app, -42_101, a.clone(), b).await;
    let token = app.tg.token().to_owned();
    let game = game_token(d.game, &token);
    let status_for = |user: String| {
        let (base, game, token) = (base.clone(), game.clone(), token.clone());
        async move {
            let auth = init_data_of(&token, &user, 5, d.game);
            let (code, s) = state(&base, &game, Some(&auth)).await;
            assert_eq!(code, 200);
            s.unwrap()["status"].as_str().unwrap().to_owned()
        }
    };
    let carol = |lang: Option<&str>| match lang {
        Some(l) => format!(r#"{{"id":42103,"first_name":"Carol","language_code":"{l}"}}"#),
        None => r#"{"id":42103,"first_name":"Carol"}"#.to_owned(),
    };
    let ru = status_for(carol(Some("ru"))).await;
    assert!(ru.starts_with("Стреляет "), "{ru}");
    let bg = status_for(carol(Some("bg"))).await;
    assert!(bg.starts_with("Стреля "), "{bg}");
    // No language in initData: the chat's (English here).
    let none = status_for(carol(None)).await;
    assert!(none.ends_with(" is shooting."), "{none}");
    // Anna chose Bulgarian with /lang: that, though her Telegram says Russian.
    let chat = a.id.0 as i64;
    app.tg.send_command(chat, &a, "/lang");
    let choose = app.message_with_button(chat, "l:").await;
    app.press(chat, &a, choose.message_id, "l:bg").await;
    let anna = r#"{"id":42101,"first_name":"Anna","language_code":"ru"}"#.to_owned();
    let mut chosen = String::new();
    for _ in 0..50 {
        chosen = status_for(anna.clone()).await;
        if !chosen.is_ascii() && !chosen.contains("Стреляет") && !chosen.contains("Ваш ход")
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(
        chosen.starts_with("Стреля ") || chosen.starts_with("Ваш ред"),
        "{chosen}"
    );
}

/// The open streams of the bot's metrics at `addr`: (streams, watchers, Redis round trips).
async fn stream_figures(addr: std::net::SocketAddr) -> (f64, f64, f64) {
    let (code, text) = scrape(addr).await;
    assert_eq!(code, 200);
    (
        metric(&text, "mb_webapp_streams", &[]),
        metric(&text, "mb_webapp_watchers", &[]),
        metric(&text, "mb_redis_seconds_count", &[]),
    )
}

/// At most four live streams per user on a replica: a fifth closes the oldest, the others go
/// on. The streams of one game share one watcher: eight open streams cost Redis what one
/// costs, not eight times four reads a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_holds_at_most_four_streams_and_the_streams_of_a_game_share_one_watcher() {
    let health = free_port();
    let (app, base) = app_with_page_and(&[("MB_HEALTH_ADDR", health.to_string())]).await;
    let a = app.player(42_201, "Anna", "en");
    let b = app.player(42_202, "Boris", "en");
    let d = duel(&app, -42_201, a, b).await;
    let token = app.tg.token().to_owned();
    let game = game_token(d.game, &token);
    let anna = init_data(&token, 42_201, "Anna", 5, d.game);
    let carol = init_data(&token, 42_203, "Carol", 5, d.game);

    // One stream: the Redis round trips of two idle seconds.
    let mut one = Events::open(&base, &game, &anna).await;
    one.next().await;
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (streams, watchers, before) = stream_figures(health).await;
    assert_eq!((streams, watchers), (1.0, 1.0));
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let (_, _, after) = stream_figures(health).await;
    let alone = after - before;

    // Four more of Anna's: the oldest (`one`) is closed, four stay open.
    let mut annas = Vec::new();
    for _ in 0..4 {
        let mut s = Events::open(&base, &game, &anna).await;
        s.next().await;
        annas.push(s);
    }
    assert!(one.ended().await, "the oldest stream of five is closed");
    // Carol's four: nobody else's stream is closed by them.
    let mut carols = Vec::new();
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    for _ in 0..4 {
        let mut s = Events::open(&base, &game, &carol).await;
        s.next().await;
        carols.push(s);
    }
    tokio::time::sleep(std::time::Duration::from_millis(600)).await;
    let (streams, watchers, before) = stream_figures(health).await;
    assert_eq!(streams, 8.0, "four of Anna's and four of Carol's");
    assert_eq!(watchers, 1.0, "one watcher for the game's eight streams");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let (_, _, after) = stream_figures(health).await;
    let eight = after - before;
    // Seven more streams, each reading four times a second on its own, would add 56 round
    // trips in two seconds; shared, they add none (a margin for the bot's own ticks).
    assert!(
        eight - alone < 20.0,
        "eight streams cost {eight} round trips in 2 s, one cost {alone}"
    );
    // Every open stream still gets the next state: a move in the group.
    let mut d = d;
    d.shoot_button(&app).await;
    for s in annas.iter_mut().chain(carols.iter_mut()) {
        s.next().await;
    }
    drop(annas);
    drop(carols);
    // Closed by their pages: the streams and then the watcher are gone.
    let mut figures = (0.0, 0.0, 0.0);
    for _ in 0..40 {
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        figures = stream_figures(health).await;
        if figures.0 == 0.0 && figures.1 == 0.0 {
            break;
        }
    }
    assert_eq!((figures.0, figures.1), (0.0, 0.0), "closed streams let go");
}

/// The Mini App's server limits a request's size (its API reads only the query): a request
/// carrying a megabyte is refused 413 before anything reads it, and the page still answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_larger_than_the_api_takes_is_refused_413() {
    let (_app, base) = app_with_page().await;
    let client = reqwest::Client::new();
    let big = client
        .post(format!("{base}/app/api/shot?game=g1_000000"))
        .body(vec![b'x'; 1 << 20])
        .send()
        .await
        .unwrap();
    assert_eq!(big.status(), 413);
    // On a new connection: the server closes the one whose body it refused unread.
    let page = reqwest::Client::new()
        .get(format!("{base}/app"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
}
