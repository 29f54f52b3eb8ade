//! A small W3C WebDriver client for the Mini App's browser tests: Debian's Chromium, headless,
//! driven through its ChromeDriver (`/usr/bin/chromium`, `/usr/bin/chromedriver`; the test
//! command installs both when missing). Every failure of the driver panics with the command
//! and the driver's answer: these are tests.

use serde_json::{json, Value};
use std::time::Duration;
use tokio::time::Instant;

/// What moves the pointer: a mouse, or a finger.
#[derive(Clone, Copy, Debug)]
pub enum Pointer {
    Mouse,
    Touch,
}

/// A headless Chromium with one session, ended (and its driver killed) when dropped.
pub struct Browser {
    driver: std::process::Child,
    base: String,
    session: String,
    client: reqwest::Client,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Killing the driver alone would leave Chromium running (reparented to init, with its
        // renderers and its profile): the session is ended first, which makes the driver close
        // it. Drop cannot await, hence one bare HTTP/1.1 request on a blocking socket.
        if !self.session.is_empty() {
            let _ = delete_session(&self.base, &self.session);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// `DELETE /session/<id>`: the driver answers once Chromium has quit.
fn delete_session(base: &str, session: &str) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let host = base.trim_start_matches("http://");
    let mut socket = std::net::TcpStream::connect(host)?;
    socket.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        socket,
        "DELETE /session/{session} HTTP/1.1\r\nhost: {host}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
    )?;
    let mut answer = Vec::new();
    socket.read_to_end(&mut answer)?;
    Ok(())
}

impl Browser {
    /// A new browser, its window `width` × `height` CSS pixels (a phone: 412 × 915).
    pub async fn start(width: u32, height: u32) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = std::process::Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromedriver (apt-get install chromium-driver)");
        let base = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = client.get(format!("{base}/status")).send().await;
            if let Ok(r) = ready {
                let v: Value = r.json().await.unwrap_or_default();
                if v["value"]["ready"] == true {
                    break;
                }
            }
            assert!(Instant::now() < deadline, "chromedriver never got ready");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let profile = tempfile::tempdir().unwrap();
        // Without the background-networking flags, Chromium's own connections are refused by
        // this machine's closed network, many at a time.
        let args = [
            "--headless=new".to_owned(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--hide-scrollbars".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": "/usr/bin/chromium", "args": args },
        }}});
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
            client,
            _profile: profile,
        };
        let made = browser.call("POST", "/session", caps).await;
        browser.session = made["sessionId"].as_str().expect("a session id").to_owned();
        browser
    }

    /// One command of the protocol: its `value`.
    async fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let url = if path == "/session" {
            format!("{}{path}", self.base)
        } else {
            format!("{}/session/{}{path}", self.base, self.session)
        };
        let req = match method {
            "GET" => self.client.get(&url),
            "DELETE" => self.client.delete(&url),
            _ => self.client.post(&url).json(&body),
        };
        let r = req
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = r.status();
        let v: Value = r.json().await.unwrap_or_default();
        assert!(status.is_success(), "{method} {path}: {status} {v}");
        v["value"].clone()
    }

    /// The viewport of a phone `width` × `height` CSS pixels, touch and all (Chrome's
    /// device emulation: a headless window is never narrower than 500 pixels).
    pub async fn phone(&self, width: u32, height: u32) {
        let params = json!({
            "width": width, "height": height, "deviceScaleFactor": 2, "mobile": true,
        });
        self.call(
            "POST",
            "/goog/cdp/execute",
            json!({ "cmd": "Emulation.setDeviceMetricsOverride", "params": params }),
        )
        .await;
        self.call(
            "POST",
            "/goog/cdp/execute",
            json!({ "cmd": "Emulation.setTouchEmulationEnabled",
                    "params": { "enabled": true, "maxTouchPoints": 5 } }),
        )
        .await;
    }

    /// Runs `js` in every page opened from now on, before the page's own scripts (Chrome's
    /// `Page.addScriptToEvaluateOnNewDocument`): how a test stands in for what Telegram's
    /// apps put into their web views.
    pub async fn before_every_page(&self, js: &str) {
        self.call(
            "POST",
            "/goog/cdp/execute",
            json!({ "cmd": "Page.addScriptToEvaluateOnNewDocument", "params": { "source": js } }),
        )
        .await;
    }

    /// Commands from now on go to the page's `index`-th frame (an iframe).
    pub async fn enter_frame(&self, index: u32) {
        self.call("POST", "/frame", json!({ "id": index })).await;
    }

    /// Commands from now on go to the frame's parent.
    pub async fn leave_frame(&self) {
        self.call("POST", "/frame/parent", json!({})).await;
    }

    /// Opens `url`.
    pub async fn goto(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url })).await;
    }

    /// Runs `js` (a function body: `return …`) in the page with `args`: what it returns.
    pub async fn eval(&self, js: &str, args: Vec<Value>) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({ "script": js, "args": args }),
        )
        .await
    }

    /// Waits until `js` (a function body) returns something truthy: that.
    pub async fn wait_for(&self, js: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let v = self.eval(js, vec![]).await;
            let truthy =
                !matches!(&v, Value::Null | Value::Bool(false)) && v != json!(0) && v != json!("");
            if truthy {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "the page never came to `{js}`: {v}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The centre of the first element `css` matches, in viewport pixels (scrolled into view
    /// first when it is not).
    pub async fn center_of(&self, css: &str) -> (f64, f64) {
        let v = self
            .eval(
                "const e = document.querySelector(arguments[0]);
                 if (!e) return null;
                 const b = e.getBoundingClientRect();
                 if (b.top < 0 || b.bottom > innerHeight) e.scrollIntoView({block: 'center'});
                 const r = e.getBoundingClientRect();
                 return [r.left + r.width / 2, r.top + r.height / 2];",
                vec![json!(css)],
            )
            .await;
        let p = v
            .as_array()
            .unwrap_or_else(|| panic!("no element {css} on the page"));
        (p[0].as_f64().unwrap(), p[1].as_f64().unwrap())
    }

    /// A press at `from`, moves in steps, and a release at `to`.
    pub async fn drag(&self, from: (f64, f64), to: (f64, f64), pointer: Pointer) {
        let steps = 8;
        let mut actions = vec![
            json!({ "type": "pointerMove", "duration": 0, "origin": "viewport",
                    "x": from.0.round() as i64, "y": from.1.round() as i64 }),
            json!({ "type": "pointerDown", "button": 0 }),
        ];
        for k in 1..=steps {
            let f = f64::from(k) / f64::from(steps);
            actions.push(json!({
                "type": "pointerMove", "duration": 20, "origin": "viewport",
                "x": (from.0 + (to.0 - from.0) * f).round() as i64,
                "y": (from.1 + (to.1 - from.1) * f).round() as i64,
            }));
        }
        actions.push(json!({ "type": "pointerUp", "button": 0 }));
        self.pointer(actions, pointer).await;
    }

    /// A tap (press and release in place) at `at`.
    pub async fn tap(&self, at: (f64, f64), pointer: Pointer) {
        let actions = vec![
            json!({ "type": "pointerMove", "duration": 0, "origin": "viewport",
                    "x": at.0.round() as i64, "y": at.1.round() as i64 }),
            json!({ "type": "pointerDown", "button": 0 }),
            json!({ "type": "pointerUp", "button": 0 }),
        ];
        self.pointer(actions, pointer).await;
    }

    async fn pointer(&self, actions: Vec<Value>, pointer: Pointer) {
        let kind = match pointer {
            Pointer::Mouse => "mouse",
            Pointer::Touch => "touch",
        };
        let body = json!({ "actions": [{
            "type": "pointer", "id": format!("{kind}1"),
            "parameters": { "pointerType": kind }, "actions": actions,
        }]});
        self.call("POST", "/actions", body).await;
        self.call("DELETE", "/actions", Value::Null).await;
    }

    /// A click on the first element `css` matches (the browser's own click, as a tap).
    pub async fn click(&self, css: &str) {
        let at = self.center_of(css).await;
        self.tap(at, Pointer::Mouse).await;
    }

    /// The page as a PNG.
    pub async fn screenshot_png(&self) -> Vec<u8> {
        let v = self.call("GET", "/screenshot", Value::Null).await;
        base64_decode(v.as_str().expect("base64"))
    }
}

/// Standard base64 (with padding), as WebDriver sends screenshots.
fn base64_decode(s: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u32> = s.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | d << (18 - 6 * i));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}

#[test]
fn base64_decodes_as_rfc_4648_says() {
    assert_eq!(base64_decode("Zm9vYmFy"), b"foobar");
    assert_eq!(base64_decode("Zm9vYg=="), b"foob");
    assert_eq!(base64_decode("Zm9vYmE="), b"fooba");
    assert_eq!(base64_decode(""), b"");
}
