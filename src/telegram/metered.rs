//! What the adapter counts for `GET /metrics` (the metrics themselves are in
//! `src/metrics.rs`): each update's kind and how its handling ended, and every Bot API call
//! with its result.
//!
//! An update's outcome is gathered while it is handled: [`dispatch`] runs the handler tree
//! with a task-local note ([`crate::metrics::mark`]) that a refusal's words ([`refusal`],
//! which the handlers import in place of the view's), a storage failure's words
//! (`context::store_error_key`), a duplicate and a "try again" mark; the worst mark, or the
//! handler's error, is counted once at the end.
//!
//! A Bot API call is counted where it is awaited: `.metered().await` in place of `.await`
//! ([`Metered`]), by the payload's method name (`sendMessage`) and its result
//! (`tests/layers.rs` checks that no call in `src/telegram/` goes uncounted). Polling's own
//! getUpdates is counted in `polling.rs`.

use super::context::BotError;
use crate::metrics::{self, Outcome};
use crate::view::buttons::Button;
use std::future::Future;
use std::ops::ControlFlow;
use teloxide::dispatching::UpdateHandler;
use teloxide::requests::{Payload, Request};
use teloxide::types::{Update, UpdateKind};
use teloxide::{ApiError, RequestError};

/// An update's kind, for its label: `command`, `text`, a button's kind (`fire`, `join`, …),
/// `button_unknown`, or `other`.
pub fn kind(update: &Update) -> &'static str {
    match &update.kind {
        UpdateKind::Message(m) if m.text().is_some_and(|t| t.starts_with('/')) => "command",
        UpdateKind::Message(_) => "text",
        UpdateKind::CallbackQuery(q) => q
            .data
            .as_deref()
            .and_then(Button::parse)
            .map_or("button_unknown", |b| button_kind(&b)),
        UpdateKind::InlineQuery(_) => "inline_query",
        _ => "other",
    }
}

fn button_kind(button: &Button) -> &'static str {
    match button {
        Button::Join(..) => "join",
        Button::Start(..) => "start",
        Button::Cancel(..) => "cancel",
        Button::Bot(..) => "bot_seat",
        Button::Fire(..) => "fire",
        Button::View(..) => "view",
        Button::Target(..) => "target",
        Button::Salvo(..) => "salvo",
        Button::Arm(..) => "arm",
        Button::Heading(..) => "heading",
        Button::GiveUp(..) => "give_up",
        Button::Rematch(..) => "rematch",
        Button::OwnField(..) => "own_field",
        Button::Cell(..) => "placement_cell",
        Button::Block(..) => "placement_block",
        Button::Edit(..) => "placement_edit",
        Button::Lang(..) => "lang",
        Button::Alphabet(..) => "alphabet",
        Button::AiLevel(..) => "ai_level",
        Button::Set(..) => "settings",
        Button::RigaTap(..)
        | Button::RigaShuffle(..)
        | Button::RigaLock(..)
        | Button::RigaMove(..)
        | Button::RigaToggle(..) => "riga",
        Button::Replay(..) => "replay",
        Button::Card(..) => "inline_card",
        Button::Tour(..) => "tournament",
        Button::Find(..) => "find",
        Button::React(..) => "reaction",
        Button::BlockPlayer(..) => "block_player",
        Button::Noop => "noop",
    }
}

/// Runs `handler` on the update in `deps` (of kind `kind`, from [`kind`]) and counts how it
/// ended. The flow comes back as the handler left it.
pub async fn dispatch(
    handler: &UpdateHandler<BotError>,
    deps: teloxide::dptree::di::DependencyMap,
    kind: &'static str,
) -> ControlFlow<Result<(), BotError>, teloxide::dptree::di::DependencyMap> {
    let started = std::time::Instant::now();
    let (flow, marked) = metrics::marking(handler.dispatch(deps)).await;
    metrics::update_took(kind, started.elapsed().as_secs_f64());
    let outcome = match &flow {
        ControlFlow::Break(Err(BotError::Store(crate::store::StoreError::Unavailable(_))))
        | ControlFlow::Break(Err(BotError::Elsewhere)) => Outcome::TryAgain.max(marked),
        ControlFlow::Break(Err(_)) => Outcome::Failed,
        ControlFlow::Break(Ok(())) | ControlFlow::Continue(_) => marked,
    };
    metrics::update(kind, outcome);
    flow
}

/// The view's refusal words, each use marking the update being handled as refused: the
/// handlers import this in place of `crate::view::refusal`.
pub mod refusal {
    use crate::game::lang::Lang;
    use crate::metrics::Outcome;

    /// [`crate::view::refusal::words`], marked.
    pub fn words(lang: Lang, r: &crate::game::Refused) -> String {
        crate::metrics::mark(Outcome::Refused);
        crate::view::refusal::words(lang, r)
    }

    /// [`crate::view::refusal::settings`], marked.
    pub fn settings(lang: Lang, r: &crate::game::settings::Refusal) -> String {
        crate::metrics::mark(Outcome::Refused);
        crate::view::refusal::settings(lang, r)
    }
}

/// A Bot API request counted when its answer comes: `.metered().await` in place of `.await`.
pub trait Metered: Request<Err = RequestError> + Sized {
    /// Sends the request and counts the call with its result.
    fn metered(
        self,
    ) -> impl Future<Output = Result<teloxide::requests::Output<Self>, RequestError>> + Send
    where
        Self: Send + Sync,
        Self::Payload: serde::Serialize,
        teloxide::requests::Output<Self>: Send,
    {
        let name = <Self::Payload as Payload>::NAME;
        let chat = super::token::limited(name)
            .then(|| chat_of(self.payload_ref()))
            .flatten();
        async move {
            let mut tries = 0;
            loop {
                // Every send and edit takes from the token's budget first, and the private
                // chat's it goes to (`token.rs`); a pause a 429 asked for is in it.
                if super::token::spend(name, chat).await.is_err() {
                    // Not made: the caller's patience ran out (counted as no call).
                    return Err(super::token::not_now());
                }
                let started = std::time::Instant::now();
                let result = self.send_ref().await;
                call(name, &result, started.elapsed());
                if let Err(RequestError::RetryAfter(s)) = &result {
                    // Every replica pauses, and this call goes again after the pause (twice
                    // at most; then its caller hears of it).
                    super::token::paused(s.duration()).await;
                    tries += 1;
                    if tries <= 2 {
                        continue;
                    }
                }
                return result;
            }
        }
    }
}

impl<R: Request<Err = RequestError>> Metered for R {}

/// The chat a payload goes to (its `chat_id`), when it names one by number.
fn chat_of<P: serde::Serialize>(payload: &P) -> Option<i64> {
    serde_json::to_value(payload)
        .ok()?
        .get("chat_id")
        .and_then(serde_json::Value::as_i64)
}

/// Counts one call of `name` (a payload's name, `SendMessage`; counted as the Bot API's
/// method, `sendMessage`) with its result, and how long it took to answer (`took`).
pub fn call<T>(name: &str, result: &Result<T, RequestError>, took: std::time::Duration) {
    let method = method_of(name);
    metrics::telegram_call(&method, result_of(result));
    metrics::telegram_call_took(&method, took.as_secs_f64());
}

/// The Bot API's method of a payload's name: `sendMessage` of `SendMessage`.
fn method_of(name: &str) -> String {
    let mut method = String::with_capacity(name.len());
    let mut chars = name.chars();
    if let Some(first) = chars.next() {
        method.push(first.to_ascii_lowercase());
        method.extend(chars);
    }
    method
}

/// A call's result, for its label.
pub fn result_of<T>(result: &Result<T, RequestError>) -> &'static str {
    let e = match result {
        Ok(_) => return "ok",
        Err(e) => e,
    };
    match e {
        RequestError::Api(api) => match api {
            ApiError::MessageNotModified | ApiError::ChatDescriptionIsNotModified => "not_modified",
            ApiError::BotBlocked
            | ApiError::BotKicked
            | ApiError::BotKickedFromSupergroup
            | ApiError::BotKickedFromChannel
            | ApiError::UserDeactivated
            | ApiError::CantInitiateConversation
            | ApiError::CantTalkWithBots => "forbidden",
            ApiError::InvalidQueryId => "query_invalid",
            ApiError::MessageToEditNotFound
            | ApiError::MessageToDeleteNotFound
            | ApiError::MessageToReplyNotFound
            | ApiError::MessageIdInvalid
            | ApiError::MessageCantBeEdited
            | ApiError::MessageCantBeDeleted
            | ApiError::ChatNotFound
            | ApiError::UserNotFound => "not_found",
            ApiError::InvalidToken => "unauthorized",
            ApiError::TerminatedByOtherGetUpdates => "conflict",
            ApiError::Unknown(words) if words.starts_with("Forbidden") => "forbidden",
            _ => "bad_request",
        },
        RequestError::RetryAfter(_) => "retry_after",
        RequestError::MigrateToChatId(_) => "migrated",
        RequestError::Network(_) => "network",
        RequestError::InvalidJson { .. } => "invalid_answer",
        RequestError::Io(_) => "io",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sends_chat_is_read_from_its_payload() {
        use teloxide::payloads::{EditMessageTextInline, SendMessage};
        use teloxide::types::{ChatId, Recipient};
        assert_eq!(chat_of(&SendMessage::new(ChatId(42), "hi")), Some(42));
        assert_eq!(chat_of(&SendMessage::new(ChatId(-1007), "hi")), Some(-1007));
        let channel = Recipient::ChannelUsername("@sea".into());
        assert_eq!(chat_of(&SendMessage::new(channel, "hi")), None);
        assert_eq!(chat_of(&EditMessageTextInline::new("abc", "hi")), None);
    }

    #[test]
    fn a_calls_result_is_named_by_its_class() {
        let api = |e| Err::<(), _>(RequestError::Api(e));
        assert_eq!(result_of(&Ok::<_, RequestError>(())), "ok");
        assert_eq!(
            result_of(&api(ApiError::MessageNotModified)),
            "not_modified"
        );
        assert_eq!(result_of(&api(ApiError::BotBlocked)), "forbidden");
        assert_eq!(
            result_of(&api(ApiError::Unknown("Forbidden: bot was kicked".into()))),
            "forbidden"
        );
        assert_eq!(result_of(&api(ApiError::InvalidQueryId)), "query_invalid");
        assert_eq!(
            result_of(&api(ApiError::MessageToEditNotFound)),
            "not_found"
        );
        assert_eq!(
            result_of(&api(ApiError::Unknown("Bad Request: x".into()))),
            "bad_request"
        );
        let wait = teloxide::types::Seconds::from_seconds(3);
        assert_eq!(
            result_of(&Err::<(), _>(RequestError::RetryAfter(wait))),
            "retry_after"
        );
    }
}
