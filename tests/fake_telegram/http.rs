//! The HTTP side: a hyper HTTP/1.1 server on its own thread and runtime (so it keeps answering
//! while a test blocks), routing `/bot<token>/<method>`, and reading parameters from JSON,
//! multipart forms, URL-encoded forms and the query string, as the Bot API accepts them.

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::oneshot;

use super::state::Shared;
use super::TOKEN;
use super::{methods, webhook};

/// A method's parameters, however they came.
#[derive(Debug, Default)]
pub(super) struct Params {
    pub map: Map<String, Value>,
    /// Uploaded files: form field name → (file name, content).
    pub files: HashMap<String, (String, Vec<u8>)>,
}

impl Params {
    /// A parameter as text (numbers and booleans as they print).
    pub fn str(&self, key: &str) -> Option<String> {
        match self.map.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    pub fn i64(&self, key: &str) -> Option<i64> {
        match self.map.get(key)? {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    pub fn bool(&self, key: &str) -> bool {
        match self.map.get(key) {
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => s == "true" || s == "1",
            Some(Value::Number(n)) => n.as_i64() == Some(1),
            _ => false,
        }
    }

    /// A JSON-valued parameter; in forms it comes as a JSON string.
    pub fn json(&self, key: &str) -> Option<Value> {
        match self.map.get(key)? {
            Value::Null => None,
            Value::String(s) => Some(serde_json::from_str(s).unwrap_or_else(|_| json!(s))),
            other => Some(other.clone()),
        }
    }
}

/// An answer: HTTP status and the JSON body.
pub(super) struct Reply {
    pub status: u16,
    pub body: Value,
    /// A 429 that a test injected.
    pub injected: bool,
}

impl Reply {
    pub fn ok(result: Value) -> Self {
        Reply {
            status: 200,
            body: json!({"ok": true, "result": result}),
            injected: false,
        }
    }

    /// A success with a `description` too (setWebhook's "Webhook was set").
    pub fn ok_described(result: Value, description: &str) -> Self {
        let mut reply = Reply::ok(result);
        reply.body["description"] = json!(description);
        reply
    }

    pub fn error(status: u16, description: impl Into<String>) -> Self {
        Reply {
            status,
            body: json!({"ok": false, "error_code": status, "description": description.into()}),
            injected: false,
        }
    }

    pub fn bad_request(description: impl Into<String>) -> Self {
        Reply::error(400, description)
    }

    pub fn retry_after(secs: u32) -> Self {
        Reply {
            status: 429,
            body: json!({
                "ok": false,
                "error_code": 429,
                "description": format!("Too Many Requests: retry after {secs}"),
                "parameters": {"retry_after": secs},
            }),
            injected: false,
        }
    }

    pub fn description(&self) -> String {
        self.body["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }
}

/// Serves until `stop` fires (or its sender is dropped), delivering updates to the webhook
/// meanwhile when one is set.
pub(super) async fn serve(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    mut stop: oneshot::Receiver<()>,
) {
    let listener = tokio::net::TcpListener::from_std(listener).expect("a tokio listener");
    // Ends with the runtime, when serving ends.
    tokio::spawn(webhook::deliver(shared.clone()));
    loop {
        tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let shared = shared.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |req| {
                        let shared = shared.clone();
                        async move { Ok::<_, Infallible>(handle(shared, req).await) }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        }
    }
}

async fn handle(shared: Arc<Shared>, req: Request<Incoming>) -> Response<Full<Bytes>> {
    let reply = route(&shared, req).await;
    Response::builder()
        .status(StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(reply.body.to_string())))
        .expect("a valid response")
}

async fn route(shared: &Shared, req: Request<Incoming>) -> Reply {
    let path = percent_decode(req.uri().path());
    let mut segments = path.trim_start_matches('/').splitn(2, '/');
    let (Some(bot), Some(method)) = (segments.next(), segments.next()) else {
        return Reply::error(404, "Not Found");
    };
    let Some(token) = bot.strip_prefix("bot") else {
        return Reply::error(404, "Not Found");
    };
    if method.is_empty() || method.contains('/') {
        return Reply::error(404, "Not Found");
    }
    if token != TOKEN {
        return Reply::error(401, "Unauthorized");
    }
    let method = method.to_owned();
    let mut params = Params::default();
    if let Some(query) = req.uri().query() {
        for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
            params
                .map
                .insert(k.into_owned(), Value::String(v.into_owned()));
        }
    }
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = match req.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return Reply::bad_request("Bad Request: can't read the request body"),
    };
    let mime = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match mime.as_str() {
        _ if body.is_empty() => {}
        "application/json" => match serde_json::from_slice::<Value>(&body) {
            Ok(Value::Object(map)) => params.map.extend(map),
            _ => return Reply::bad_request("Bad Request: can't parse JSON object"),
        },
        "multipart/form-data" => {
            let Some(boundary) = boundary(&content_type) else {
                return Reply::bad_request("Bad Request: can't parse multipart/form-data");
            };
            if parse_multipart(&body, &boundary, &mut params).is_none() {
                return Reply::bad_request("Bad Request: can't parse multipart/form-data");
            }
        }
        _ => {
            for (k, v) in url::form_urlencoded::parse(&body) {
                params
                    .map
                    .insert(k.into_owned(), Value::String(v.into_owned()));
            }
        }
    }
    methods::call(shared, &method, params).await
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(hi), Some(lo)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn boundary(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (k.trim().eq_ignore_ascii_case("boundary")).then(|| v.trim().trim_matches('"').to_owned())
    })
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Reads a multipart/form-data body: text fields as strings, files as (file name, content).
fn parse_multipart(body: &[u8], boundary: &str, params: &mut Params) -> Option<()> {
    let delimiter = format!("--{boundary}").into_bytes();
    let mut pos = find(body, &delimiter, 0)? + delimiter.len();
    loop {
        if body[pos..].starts_with(b"--") {
            return Some(());
        }
        if body[pos..].starts_with(b"\r\n") {
            pos += 2;
        }
        let next = find(body, &delimiter, pos)?;
        let part = &body[pos..next.checked_sub(2)?.max(pos)];
        let header_end = find(part, b"\r\n\r\n", 0)?;
        let headers = String::from_utf8_lossy(&part[..header_end]);
        let content = &part[header_end + 4..];
        let disposition = headers
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-disposition:"))?;
        let attr = |name: &str| {
            disposition.split(';').find_map(|p| {
                let (k, v) = p.trim().split_once('=')?;
                (k == name).then(|| v.trim_matches('"').to_owned())
            })
        };
        let name = attr("name")?;
        match attr("filename") {
            Some(file_name) => {
                params.files.insert(name, (file_name, content.to_vec()));
            }
            None => {
                params
                    .map
                    .insert(name, Value::String(String::from_utf8_lossy(content).into()));
            }
        }
        pos = next + delimiter.len();
    }
}
