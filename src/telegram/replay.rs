//! Replays of finished games, in private chats: `/start rp<id>` (the end's "🎞 Replay" link,
//! which anyone may open) sends the replay's message, and its ⏮ ◀ ▶ ⏭ buttons step it
//! ([`crate::view::replay`]).

use super::context::{store_error_key, Ctx, HandlerResult};
use super::metered::Metered;
use super::send::{answer, edit_live, markup, reply};
use crate::game::id::GameId;
use crate::game::lang::Lang;
use crate::store::StoreError;
use crate::view::i18n::{t, ta};
use crate::view::replay::{replay_key, replay_view};
use teloxide::payloads::SendMessageSetters;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, MaybeInaccessibleMessage, ParseMode};

/// Why a replay cannot be shown, in words: a game that does not exist (or expired), one not
/// over yet, one with nothing to replay.
enum NoReplay {
    Words(String),
}

/// The replay of game `id` at `step` in `lang`, or the words of why there is none. With
/// `key` (a link's), a game whose replay key is another is as one that does not exist.
async fn view(
    ctx: &Ctx,
    id: GameId,
    key: Option<&str>,
    step: usize,
    lang: Lang,
) -> Result<(String, crate::view::keyboard::Keyboard), NoReplay> {
    let expired = || {
        let days = ctx.store.finished_days();
        NoReplay::Words(ta(
            lang,
            "replay-expired",
            &[("days", (days as i64).into())],
        ))
    };
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => return Err(expired()),
        Err(e) => return Err(NoReplay::Words(t(lang, store_error_key(&e)))),
    };
    if key.is_some_and(|k| replay_key(&rec).as_deref() != Some(k)) && rec.is_finished() {
        return Err(expired());
    }
    if !rec.is_finished() {
        return Err(NoReplay::Words(t(lang, "replay-not-finished")));
    }
    replay_view(&rec, id, step, lang).ok_or_else(|| NoReplay::Words(t(lang, "replay-none")))
}

/// `/start rp<id>-<key>` in a private chat: the replay's message, at its beginning.
pub async fn on_start(
    ctx: &Ctx,
    msg: &Message,
    lang: Lang,
    id: GameId,
    key: &str,
) -> HandlerResult {
    match view(ctx, id, Some(key), 0, lang).await {
        Ok((text, kb)) => {
            ctx.bot
                .send_message(msg.chat.id, text)
                .parse_mode(ParseMode::Html)
                .reply_markup(markup(kb))
                .metered()
                .await?;
            Ok(())
        }
        Err(NoReplay::Words(words)) => reply(ctx, msg, words).await,
    }
}

/// A step button of a replay's message: the message shows that step.
pub async fn on_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    step: u16,
) -> HandlerResult {
    let Some(MaybeInaccessibleMessage::Regular(m)) = &q.message else {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    };
    match view(ctx, id, None, usize::from(step), lang).await {
        Ok((text, kb)) => {
            // The press is answered whatever becomes of the edit (a spinner never stays).
            let drawn = edit_live(ctx, m.chat.id, m.id, text, Some(kb)).await;
            answer(ctx, q, String::new(), false).await?;
            drawn
        }
        Err(NoReplay::Words(words)) => answer(ctx, q, words, true).await,
    }
}
