//! Self-test of the WebDriver client (tests/e2e/webdriver.rs): a tiny page served from this
//! test, in Debian's headless Chromium. A square follows pointer events (`touch-action: none`,
//! as the Mini App's ships do) and records where it was dropped; a button counts its clicks.
//! Dragged with a mouse and with a finger, tapped, clicked and photographed, so a failure of
//! the browser tests can be told apart from a failure of the client or the browser itself.

use crate::webdriver::{Browser, Pointer};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

/// The page: `#box` moves with the pointer that pressed it and pushes `{x, y, type, moves}`
/// (the pointer's viewport position and type, and how many moves the page saw) to
/// `window.drops` when released; `#count` counts its clicks in `window.clicks` and lists the
/// pointer presses and releases it got in `window.pressed`.
const PAGE: &str = r#"<!doctype html>
<html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>webdriver self-test</title>
<style>
  html, body { margin: 0; height: 100%; background: #e7f0f8; font: 16px sans-serif; }
  #box { position: fixed; left: 20px; top: 20px; width: 60px; height: 60px;
         background: #2481cc; border-radius: 8px; touch-action: none; user-select: none; }
  #count { position: fixed; left: 20px; top: 600px; width: 160px; height: 48px; }
</style></head>
<body>
<div id="box"></div>
<button id="count">0</button>
<script>
  window.drops = [];
  window.clicks = 0;
  const box = document.getElementById('box');
  let grab = null;
  box.addEventListener('pointerdown', e => {
    box.setPointerCapture(e.pointerId);
    const r = box.getBoundingClientRect();
    grab = { id: e.pointerId, dx: e.clientX - r.left, dy: e.clientY - r.top, moves: 0 };
  });
  box.addEventListener('pointermove', e => {
    if (!grab || e.pointerId !== grab.id) return;
    grab.moves += 1;
    box.style.left = (e.clientX - grab.dx) + 'px';
    box.style.top = (e.clientY - grab.dy) + 'px';
  });
  box.addEventListener('pointerup', e => {
    if (!grab || e.pointerId !== grab.id) return;
    window.drops.push({ x: e.clientX, y: e.clientY, type: e.pointerType, moves: grab.moves });
    grab = null;
  });
  const count = document.getElementById('count');
  window.pressed = [];
  for (const type of ['pointerdown', 'pointerup']) {
    count.addEventListener(type, e => window.pressed.push(type + ':' + e.pointerType));
  }
  count.addEventListener('click', () => {
    window.clicks += 1;
    count.textContent = window.clicks;
  });
  window.ready = true;
</script>
</body></html>
"#;

/// Serves `PAGE` at every path on 127.0.0.1 (a free port) until the test's runtime ends:
/// its address.
async fn serve_page() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            tokio::spawn(async move {
                let service = service_fn(|_req: Request<Incoming>| async {
                    let page = Response::builder()
                        .header("content-type", "text/html; charset=utf-8")
                        .body(Full::new(Bytes::from_static(PAGE.as_bytes())))
                        .unwrap();
                    Ok::<_, Infallible>(page)
                });
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    format!("http://{addr}/")
}

/// The `n`th drop (from 1), once it happened.
async fn drop_number(browser: &Browser, n: usize) -> Value {
    browser
        .wait_for(
            &format!(
                "return window.drops.length >= {n} && window.drops[{}];",
                n - 1
            ),
            WAIT,
        )
        .await
}

fn assert_near(what: &str, got: (f64, f64), want: (f64, f64)) {
    assert!(
        (got.0 - want.0).abs() <= 2.0 && (got.1 - want.1).abs() <= 2.0,
        "{what}: at {got:?}, expected about {want:?}"
    );
}

fn at(v: &Value) -> (f64, f64) {
    (v["x"].as_f64().unwrap(), v["y"].as_f64().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_is_driven_by_a_pointer_drag_and_a_tap_and_photographed() {
    let url = serve_page().await;
    let browser = Browser::start(412, 915).await;
    browser.goto(&url).await;
    browser
        .wait_for("return window.ready === true;", WAIT)
        .await;

    // A mouse drags the square down and right, in steps: the page sees it move on the way.
    let from = browser.center_of("#box").await;
    assert_near("the square before any drag", from, (50.0, 50.0));
    let target = (200.0, 300.0);
    browser.drag(from, target, Pointer::Mouse).await;
    let first = drop_number(&browser, 1).await;
    assert_eq!(first["type"], "mouse", "{first}");
    assert!(first["moves"].as_u64().unwrap() >= 2, "{first}");
    assert_near("the mouse's drop", at(&first), target);
    assert_near(
        "the square after the mouse",
        browser.center_of("#box").await,
        target,
    );

    // A finger drags it on from where it lies now.
    let from = browser.center_of("#box").await;
    let target = (120.0, 480.0);
    browser.drag(from, target, Pointer::Touch).await;
    let second = drop_number(&browser, 2).await;
    assert_eq!(second["type"], "touch", "{second}");
    assert!(second["moves"].as_u64().unwrap() >= 2, "{second}");
    assert_near("the finger's drop", at(&second), target);
    assert_near(
        "the square after the finger",
        browser.center_of("#box").await,
        target,
    );

    // A finger's tap reaches the button as pointer events, but Chromium makes no `click` of
    // a ChromeDriver touch (with or without touch emulation, `Browser::phone`): tests press
    // buttons with the mouse, and a page that must answer a test's finger listens to
    // pointerup.
    let button = browser.center_of("#count").await;
    browser.tap(button, Pointer::Touch).await;
    let pressed = browser
        .wait_for("return window.pressed.length >= 2 && window.pressed;", WAIT)
        .await;
    assert_eq!(pressed, json!(["pointerdown:touch", "pointerup:touch"]));
    // A mouse's tap and the client's click each count once.
    browser.tap(button, Pointer::Mouse).await;
    browser.wait_for("return window.clicks === 1;", WAIT).await;
    browser.click("#count").await;
    browser.wait_for("return window.clicks === 2;", WAIT).await;
    let shown = browser
        .eval(
            "return document.getElementById(arguments[0]).textContent;",
            vec!["count".into()],
        )
        .await;
    assert_eq!(shown, "2");

    let png = browser.screenshot_png().await;
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n"),
        "not a PNG: {:02x?}",
        &png[..png.len().min(16)]
    );
    assert!(png.len() > 1024, "a screenshot of {} bytes", png.len());
}
