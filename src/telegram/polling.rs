//! Long polling, done here rather than by teloxide's `Polling` and `Dispatcher`, for two
//! reasons.
//!
//! An update is confirmed to Telegram (the next getUpdates' `offset` passes it) only once it
//! is handled or answered, never when it is merely fetched: should the process die with
//! updates in hand, Telegram gives them again, to this replica started again or to another
//! (their claims are taken over, `store/life.rs`). Updates of one chat are handled one after
//! another, of different chats side by side, as teloxide's dispatcher does.
//!
//! A press on a battle or placement grid comes with
//! the whole message it was on, keyboard included (a hundred buttons); teloxide would parse
//! that keyboard and the dispatcher would clone it into every handler's arguments, though no
//! handler of those buttons reads it. Here the keyboard of such a press is cut out of the
//! update's JSON before it is parsed ([`slim`]): the bot's CPU per shot drops by about a third.

use super::context::{BotError, Ctx};
use super::dispatch::Claimed;
use crate::store::life::LIFE;
use crate::view::buttons::Button;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{Me, Update};

/// How long Telegram may hold one getUpdates (seconds), as teloxide's default polling.
const TIMEOUT: u64 = 10;

/// What went wrong with one getUpdates: logged, then polling goes on after a pause.
#[derive(Debug)]
pub enum PollError {
    /// The request did not get an answer (the URL, which holds the token, is left out).
    Network(String),
    /// Telegram answered with an error.
    Api { code: i64, description: String },
    /// Telegram asked to wait this many seconds (429).
    RetryAfter(u64),
    /// The answer was not the JSON Telegram sends.
    Json(String),
}

impl fmt::Display for PollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PollError::Network(e) => write!(f, "getUpdates: {e}"),
            PollError::Api { code, description } => write!(f, "getUpdates: {code} {description}"),
            PollError::RetryAfter(secs) => write!(f, "getUpdates: retry after {secs} s"),
            PollError::Json(e) => write!(f, "getUpdates: bad answer: {e}"),
        }
    }
}

impl PollError {
    /// Its class, as `metered.rs` names a Bot API call's result.
    fn class(&self) -> &'static str {
        match self {
            PollError::Network(_) => "network",
            PollError::Api { code: 401, .. } => "unauthorized",
            PollError::Api { code: 403, .. } => "forbidden",
            PollError::Api { code: 409, .. } => "conflict",
            PollError::Api { .. } => "bad_request",
            PollError::RetryAfter(_) => "retry_after",
            PollError::Json(_) => "invalid_answer",
        }
    }
}

/// A getUpdates answer, its updates left unparsed.
#[derive(Deserialize)]
struct Answer<'a> {
    ok: bool,
    #[serde(borrow, default)]
    result: Vec<&'a RawValue>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    error_code: i64,
    #[serde(default)]
    parameters: Option<Parameters>,
}

#[derive(Deserialize)]
struct Parameters {
    retry_after: Option<u64>,
}

/// Just the parts of an update [`slim`] looks at.
#[derive(Deserialize)]
struct Shape<'a> {
    update_id: i64,
    #[serde(borrow)]
    callback_query: Option<QueryShape<'a>>,
}

#[derive(Deserialize)]
struct QueryShape<'a> {
    #[serde(borrow)]
    data: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    message: Option<MessageShape<'a>>,
}

#[derive(Deserialize)]
struct MessageShape<'a> {
    #[serde(borrow)]
    reply_markup: Option<&'a RawValue>,
}

/// Whether the handler of a button never looks at the keyboard it was on: the grids' buttons.
/// (The settings' alphabet and level buttons do: they redraw a panel they find there.)
fn keyboard_unread(data: &str) -> bool {
    Button::parse(data).is_some_and(|b| b.of_a_grid())
}

/// One update's JSON with the keyboard of a grid press taken out (`"reply_markup":null`),
/// and its id. Anything else comes back as it was.
pub fn slim(json: &str) -> Result<(i64, std::borrow::Cow<'_, str>), serde_json::Error> {
    let shape: Shape<'_> = serde_json::from_str(json)?;
    let markup = shape.callback_query.and_then(|q| {
        let markup = q.message?.reply_markup?;
        keyboard_unread(q.data.as_deref()?).then_some(markup)
    });
    let Some(markup) = markup else {
        return Ok((shape.update_id, json.into()));
    };
    // The raw value borrows from `json`: where it starts tells where to cut.
    let start = markup.get().as_ptr() as usize - json.as_ptr() as usize;
    let end = start + markup.get().len();
    let mut out = String::with_capacity(json.len() - (end - start) + 4);
    out.push_str(&json[..start]);
    out.push_str("null");
    out.push_str(&json[end..]);
    Ok((shape.update_id, out.into()))
}

/// getUpdates itself.
struct Fetcher {
    client: reqwest::Client,
    url: reqwest::Url,
    offset: i64,
}

impl Fetcher {
    /// The next getUpdates starts at `offset`: every update before it is confirmed taken.
    fn confirm(&mut self, offset: i64) {
        self.offset = offset;
    }

    /// One getUpdates from `self.offset` (held up to `timeout` seconds): the updates it
    /// brought, each with its id (`None` for one that cannot be read: logged, and passed).
    async fn fetch(
        &mut self,
        timeout: u64,
        limit: u8,
    ) -> Result<Vec<(i64, Option<Update>)>, PollError> {
        let body = serde_json::json!({
            "offset": self.offset,
            "timeout": timeout,
            "limit": limit,
            "allowed_updates": ["message", "callback_query", "inline_query"],
        });
        let response = self
            .client
            .post(self.url.clone())
            .json(&body)
            .timeout(Duration::from_secs(timeout + 10))
            .send()
            .await
            .map_err(|e| PollError::Network(e.without_url().to_string()))?;
        let bytes = response
            .bytes()
            .await
            .map_err(|e| PollError::Network(e.without_url().to_string()))?;
        let text = std::str::from_utf8(&bytes).map_err(|e| PollError::Json(e.to_string()))?;
        let answer: Answer<'_> =
            serde_json::from_str(text).map_err(|e| PollError::Json(e.to_string()))?;
        if !answer.ok {
            if let Some(secs) = answer.parameters.and_then(|p| p.retry_after) {
                return Err(PollError::RetryAfter(secs));
            }
            return Err(PollError::Api {
                code: answer.error_code,
                description: answer.description,
            });
        }
        let mut got = Vec::with_capacity(answer.result.len());
        for raw in answer.result {
            let (id, json) = match slim(raw.get()) {
                Ok(slimmed) => slimmed,
                Err(e) => {
                    log::error!("an update without an id: {e}");
                    continue;
                }
            };
            match serde_json::from_str::<Update>(&json) {
                Ok(update) => got.push((id, Some(update))),
                Err(e) => {
                    log::error!("update {id} cannot be read: {e}");
                    got.push((id, None));
                }
            }
        }
        Ok(got)
    }
}

/// The updates in hand: fetched and not yet handled, and the chats being handled.
#[derive(Default)]
struct InHand {
    ids: BTreeSet<i64>,
    chats: HashMap<i64, Arc<tokio::sync::Mutex<()>>>,
}

/// Polls `ctx.bot`'s getUpdates and handles each update with `handler`, until `stop`
/// resolves; then waits up to `grace` for the updates in hand and confirms the handled ones.
pub async fn run(
    ctx: Ctx,
    me: Me,
    handler: UpdateHandler<BotError>,
    stop: impl std::future::Future<Output = ()>,
    grace: Duration,
) {
    let bot = &ctx.bot;
    let mut url = bot.api_url();
    if let Ok(mut segments) = url.path_segments_mut() {
        segments.push(&format!("bot{}", bot.token()));
        segments.push("getUpdates");
    }
    let mut fetcher = Fetcher {
        client: bot.client().clone(),
        url,
        offset: 0,
    };
    let handler = Arc::new(handler);
    let in_hand: Arc<Mutex<InHand>> = Arc::default();
    let finished = Arc::new(tokio::sync::Notify::new());
    // Every update below this id was taken (handled, in hand, or unreadable).
    let mut taken: i64 = 0;
    let mut errors = 0u32;
    tokio::pin!(stop);
    loop {
        let first_in_hand = lock(&in_hand).ids.first().copied();
        fetcher.confirm(first_in_hand.unwrap_or(taken));
        // With updates in hand Telegram answers at once (it gives them again): no holding.
        let timeout = if first_in_hand.is_some() { 0 } else { TIMEOUT };
        let fetched = tokio::select! {
            () = &mut stop => break,
            r = fetcher.fetch(timeout, 100) => r,
        };
        crate::metrics::telegram_call(
            "getUpdates",
            fetched.as_ref().map_or_else(PollError::class, |_| "ok"),
        );
        let updates = match fetched {
            Ok(updates) => {
                errors = 0;
                updates
            }
            Err(e) => {
                log::warn!("{e}");
                // After the pause Telegram asked for, else one that grows with each error in
                // a row, as teloxide's polling.
                let pause = match e {
                    PollError::RetryAfter(secs) => Duration::from_secs(secs),
                    _ => {
                        errors = errors.saturating_add(1);
                        Duration::from_secs(1 << (errors - 1).min(6))
                    }
                };
                tokio::select! {
                    () = &mut stop => break,
                    () = tokio::time::sleep(pause) => {}
                }
                continue;
            }
        };
        let mut fresh = 0;
        for (id, update) in updates {
            if id < taken {
                continue;
            }
            taken = id + 1;
            fresh += 1;
            let Some(update) = update else { continue };
            let chat = update.chat().map_or(0, |c| c.id.0);
            let kind = super::metered::kind(&update);
            let turn = {
                let mut hand = lock(&in_hand);
                hand.ids.insert(id);
                Arc::clone(hand.chats.entry(chat).or_default())
            };
            let (ctx, me, handler) = (ctx.clone(), me.clone(), Arc::clone(&handler));
            let (in_hand, finished) = (Arc::clone(&in_hand), Arc::clone(&finished));
            tokio::spawn(async move {
                {
                    let _turn = turn.lock().await;
                    // A press another live process holds is tried again until it is done
                    // or that process is found dead (its claim is then this one's).
                    let deadline = tokio::time::Instant::now() + ctx.config.claim_stale + LIFE * 2;
                    loop {
                        let deps = dptree::deps![
                            ctx.clone(),
                            me.clone(),
                            ctx.bot.clone(),
                            Claimed(false),
                            update.clone()
                        ];
                        match super::metered::dispatch(&handler, deps, kind).await {
                            ControlFlow::Break(Err(BotError::Elsewhere))
                                if tokio::time::Instant::now() < deadline =>
                            {
                                tokio::time::sleep(LIFE / 8).await;
                            }
                            ControlFlow::Break(Ok(()) | Err(BotError::Elsewhere))
                            | ControlFlow::Continue(_) => break,
                            // Redis went away while it was handled: answered from itself,
                            // or "try again", then taken.
                            ControlFlow::Break(Err(BotError::Store(
                                e @ crate::store::StoreError::Unavailable(_),
                            ))) => {
                                super::dispatch::not_now(&ctx, &me, &update, &e, true).await;
                                break;
                            }
                            ControlFlow::Break(Err(e)) => {
                                log::error!("polling: {e}");
                                break;
                            }
                        }
                    }
                }
                let mut hand = lock(&in_hand);
                hand.ids.remove(&id);
                if hand
                    .chats
                    .get(&chat)
                    .is_some_and(|t| Arc::strong_count(t) == 1)
                {
                    hand.chats.remove(&chat);
                }
                drop(hand);
                finished.notify_waiters();
            });
        }
        if fresh == 0 && first_in_hand.is_some() {
            // Only updates in hand came: look again once one is done, or a little later.
            tokio::select! {
                () = &mut stop => break,
                () = finished.notified() => {}
                () = tokio::time::sleep(Duration::from_millis(100)) => {}
            }
        }
    }
    let deadline = tokio::time::Instant::now() + grace;
    while !lock(&in_hand).ids.is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Tell Telegram the updates handled are taken, so they do not come again; the ones
    // still in hand will.
    fetcher.confirm(lock(&in_hand).ids.first().copied().unwrap_or(taken));
    let confirmed = fetcher.fetch(0, 1).await;
    crate::metrics::telegram_call(
        "getUpdates",
        confirmed.as_ref().map_or_else(PollError::class, |_| "ok"),
    );
    if let Err(e) = confirmed {
        log::warn!("{e}");
    }
}

fn lock(in_hand: &Mutex<InHand>) -> std::sync::MutexGuard<'_, InHand> {
    in_hand
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: crate::store::GameId = crate::store::GameId(1);

    fn press(data: &str) -> String {
        let keyboard: Vec<Vec<serde_json::Value>> = (0..10)
            .map(|r| {
                (0..10)
                    .map(|c| serde_json::json!({"text": "·", "callback_data": format!("f:1:{r}{c}")}))
                    .collect()
            })
            .collect();
        serde_json::json!({
            "update_id": 7,
            "callback_query": {
                "id": "42",
                "from": {"id": 5, "is_bot": false, "first_name": "Аня \"reply_markup\""},
                "chat_instance": "1",
                "data": data,
                "message": {
                    "message_id": 9,
                    "date": 1,
                    "chat": {"id": -100, "type": "group", "title": "{\"reply_markup\": 1}"},
                    "text": "the board",
                    "reply_markup": {"inline_keyboard": keyboard},
                },
            },
        })
        .to_string()
    }

    fn keyboard_of(json: &str) -> Option<usize> {
        let update: Update = serde_json::from_str(json).unwrap();
        let teloxide::types::UpdateKind::CallbackQuery(q) = update.kind else {
            panic!("a press");
        };
        let m = q.regular_message()?;
        m.reply_markup()
            .map(|k| k.inline_keyboard.iter().flatten().count())
    }

    #[test]
    fn a_grid_press_loses_its_keyboard_and_nothing_else() {
        let data = Button::Fire(GAME, 0, 0, 12).to_string();
        let json = press(&data);
        assert_eq!(keyboard_of(&json), Some(100));
        let (id, slimmed) = slim(&json).unwrap();
        assert_eq!(id, 7);
        assert!(slimmed.len() < json.len() / 3, "{slimmed}");
        assert_eq!(keyboard_of(&slimmed), None);
        let mut expected: serde_json::Value = serde_json::from_str(&json).unwrap();
        expected["callback_query"]["message"]["reply_markup"] = serde_json::Value::Null;
        let got: serde_json::Value = serde_json::from_str(&slimmed).unwrap();
        assert_eq!(got, expected);
    }

    #[test]
    fn other_presses_and_messages_keep_everything() {
        let data = Button::Alphabet(engine::Alphabet::Russian).to_string();
        let json = press(&data);
        let (_, same) = slim(&json).unwrap();
        assert_eq!(same, json);
        assert_eq!(keyboard_of(&same), Some(100));
        let unknown = press("zz:forged");
        assert_eq!(slim(&unknown).unwrap().1, unknown);
        let message = r#"{"update_id":8,"message":{"message_id":1,"date":1,"chat":{"id":5,"type":"private","first_name":"A"},"text":"/start","reply_markup":{"inline_keyboard":[]}}}"#;
        assert_eq!(slim(message).unwrap(), (8, message.into()));
        assert!(slim(r#"{"callback_query":{}}"#).is_err());
    }
}
