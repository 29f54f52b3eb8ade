//! The settings panel: `/settings` and the lobby's ⚙ button.
//!
//! In an open lobby the panel is the lobby message itself (its keyboard shows a page of the
//! panel while the creator has it open), so a change costs one paced, coalesced redraw of
//! the message everybody already sees. Outside a lobby `/settings` sends a panel message that
//! edits the chat's defaults. Every change of an option is checked with [`Ruleset::check`]
//! before it is saved; the chat's last choice becomes its default for the next game.

pub use crate::game::settings::{apply_to_lobby, changed, page_after, reseat, Refusal};
pub use crate::view::panel::{lobby_panel, open_button, panel_rows, team_lines, PanelView};

use super::{answer, answer_store_error, Ctx, HandlerResult};
use crate::game::lang::Lang;
use crate::game::record::{GameRecord, SettingsPage};
use crate::store::{GameId, StoreError};
use crate::view::buttons::{Button, Panel, SetOp};
use crate::view::i18n::{t, ta};
use crate::view::keyboard::Keyboard;
use crate::view::panel::{chosen_words, panel_lines, short};
use engine::{Phase, Players, Ruleset};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, MessageId, ParseMode, User};

/// [`Ruleset::check`] on the blocking pool: a fleet with no legal layout takes a bounded
/// search to refuse.
async fn check(r: Ruleset) -> Result<Ruleset, Refusal> {
    let checked = tokio::task::spawn_blocking(move || r.check().map(|()| r)).await;
    match checked {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(Refusal::from(&e)),
        Err(_) => Err(Refusal::new("error-busy")),
    }
}

/// A button of a settings panel.
pub async fn on_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    panel: Panel,
    op: SetOp,
) -> HandlerResult {
    match panel {
        Panel::Lobby(id, generation) => on_lobby_button(ctx, q, lang, id, generation, op).await,
        Panel::Chat => on_chat_button(ctx, q, lang, op).await,
    }
}

/// Why a lobby transition did not happen.
enum Fail {
    /// The button is of an older message, or the game left the lobby.
    Stale,
    /// The ruleset changed since it was checked: check the new one.
    Changed,
    /// Refused, with the reason.
    Refused(Refusal),
}

async fn on_lobby_button(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    generation: u32,
    op: SetOp,
) -> HandlerResult {
    for _ in 0..3 {
        let rec = match ctx.store.load_game(id).await {
            Ok((rec, _)) => rec,
            Err(StoreError::NotFound) => {
                return answer(ctx, q, t(lang, "error-game-over"), true).await
            }
            Err(e) => return answer_store_error(ctx, q, lang, &e).await,
        };
        if rec.game.is_finished() {
            return answer(ctx, q, t(lang, "error-game-over"), true).await;
        }
        // A Riga lobby (switched from Sea Battle while the panel was open) keeps its rules.
        if rec.delivery.generation != generation
            || *rec.game.phase() != Phase::Lobby
            || rec.is_riga()
        {
            return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
        }
        if q.from.id.0 != rec.creator {
            return answer(ctx, q, t(lang, "error-creator-only"), true).await;
        }
        let before = rec.game.ruleset().clone();
        let new = match changed(&before, op) {
            Ok(Some(new)) if new != before => match check(new).await {
                Ok(new) => Some(new),
                Err(r) => return answer(ctx, q, short(r.words(lang)), true).await,
            },
            Ok(_) => None,
            Err(r) => return answer(ctx, q, short(r.words(lang)), true).await,
        };
        let done = ctx
            .store
            .transition(id, |r| {
                if r.delivery.generation != generation || *r.game.phase() != Phase::Lobby {
                    return Err(Fail::Stale);
                }
                if *r.game.ruleset() != before {
                    return Err(Fail::Changed);
                }
                apply_to_lobby(r, op, new.as_ref()).map_err(Fail::Refused)
            })
            .await;
        let committed = match done {
            Ok(Ok(c)) => c,
            Ok(Err(Fail::Changed)) => continue,
            Ok(Err(Fail::Stale)) => {
                return answer(ctx, q, t(lang, "error-out-of-date"), true).await
            }
            Ok(Err(Fail::Refused(r))) => return answer(ctx, q, short(r.words(lang)), true).await,
            Err(e) => return answer_store_error(ctx, q, lang, &e).await,
        };
        let rec = committed.record;
        if let Err(e) = save_defaults(ctx, &rec, op).await {
            log::warn!("chat defaults of {}: {e}", rec.chat);
        }
        let words = match op {
            SetOp::Page(_) => String::new(),
            SetOp::Done => t(lang, "settings-closed"),
            SetOp::Swap(i) => ta(
                lang,
                "settings-swapped",
                &[("a", (i + 1).into()), ("b", (i + 2).into())],
            ),
            _ => ta(
                lang,
                "settings-saved",
                &[("value", chosen_words(lang, op, rec.game.ruleset()).into())],
            ),
        };
        answer(ctx, q, short(words), false).await?;
        super::outbox::kick(ctx, id);
        return Ok(());
    }
    answer(ctx, q, t(lang, "error-busy"), true).await
}

/// Makes a lobby's choice the chat's default for its next games.
async fn save_defaults(ctx: &Ctx, rec: &GameRecord, op: SetOp) -> Result<(), StoreError> {
    if matches!(op, SetOp::Page(_) | SetOp::Done | SetOp::Swap(_)) {
        return Ok(());
    }
    let mut s = ctx.store.chat_settings(rec.chat).await?;
    let before = s.clone();
    s.ruleset = rec.game.ruleset().clone();
    match op {
        SetOp::Alphabet(a) => s.alphabet = Some(a),
        SetOp::Level(l) => s.ai_level = l,
        SetOp::Board(b) => s.board = Some(b),
        _ => {}
    }
    if s == before {
        return Ok(());
    }
    ctx.store.set_chat_settings(rec.chat, &s).await
}

/// The chat panel of `chat` at `page`: its text and keyboard, in the chat's language.
async fn chat_panel(
    ctx: &Ctx,
    chat: i64,
    user: &User,
    page: SettingsPage,
) -> Result<(String, Keyboard), StoreError> {
    let s = ctx.store.chat_settings(chat).await?;
    let private = chat >= 0;
    let user_lang = super::user_lang(ctx, user).await;
    let lang = if private {
        user_lang
    } else {
        s.lang.unwrap_or(user_lang)
    };
    let level = if private {
        ctx.store.user_settings(user.id.0).await?.ai_level
    } else {
        s.ai_level
    };
    let v = PanelView {
        panel: Panel::Chat,
        page,
        ruleset: &s.ruleset,
        alphabet: s
            .alphabet
            .unwrap_or_else(|| super::chat::default_alphabet(lang)),
        level,
        board: s.board.unwrap_or(ctx.config.board),
        seated: 0,
        private,
    };
    let text = format!(
        "<b>{}</b>\n{}\n{}\n\n{}",
        t(lang, "settings-title"),
        t(lang, "settings-next-games"),
        crate::view::render::escape(&crate::view::render::ruleset_words(lang, &s.ruleset)),
        crate::view::render::escape(&panel_lines(lang, &v)),
    );
    Ok((text, Keyboard::new(panel_rows(lang, &v))))
}

async fn on_chat_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, op: SetOp) -> HandlerResult {
    let Some(msg) = q.regular_message() else {
        return answer(ctx, q, t(lang, "error-out-of-date"), true).await;
    };
    let chat = msg.chat.id.0;
    let private = msg.chat.is_private();
    let mut s = match ctx.store.chat_settings(chat).await {
        Ok(s) => s,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let mut words = String::new();
    let page = match op {
        SetOp::Swap(_) => return answer(ctx, q, t(lang, "error-out-of-date"), true).await,
        SetOp::Page(p) => p,
        SetOp::Done => {
            answer(ctx, q, t(lang, "settings-closed"), false).await?;
            let (text, _) = match chat_panel(ctx, chat, &q.from, SettingsPage::Main).await {
                Ok(p) => p,
                Err(e) => return Err(e.into()),
            };
            let text = text.split("\n\n").next().unwrap_or_default().to_owned();
            return super::chat::edit_live(ctx, msg.chat.id, msg.id, text, None).await;
        }
        SetOp::Players(p) if private && p != Players::Duel => {
            return answer(ctx, q, t(lang, "settings-error-private"), true).await
        }
        _ => {
            match changed(&s.ruleset, op) {
                Ok(Some(new)) if new != s.ruleset => match check(new).await {
                    Ok(new) => s.ruleset = new,
                    Err(r) => return answer(ctx, q, short(r.words(lang)), true).await,
                },
                Ok(_) => {}
                Err(r) => return answer(ctx, q, short(r.words(lang)), true).await,
            }
            match op {
                SetOp::Alphabet(a) => s.alphabet = Some(a),
                SetOp::Level(l) => s.ai_level = l,
                SetOp::Board(b) => s.board = Some(b),
                _ => {}
            }
            if let Err(e) = ctx.store.set_chat_settings(chat, &s).await {
                return answer_store_error(ctx, q, lang, &e).await;
            }
            words = ta(
                lang,
                "settings-saved",
                &[("value", chosen_words(lang, op, &s.ruleset).into())],
            );
            page_after(op, SettingsPage::Main)
        }
    };
    answer(ctx, q, short(words), false).await?;
    redraw_chat_panel(ctx, msg.chat.id, msg.id, &q.from, page).await
}

async fn redraw_chat_panel(
    ctx: &Ctx,
    chat: ChatId,
    message: MessageId,
    user: &User,
    page: SettingsPage,
) -> HandlerResult {
    let (text, kb) = chat_panel(ctx, chat.0, user, page).await?;
    super::chat::edit_live(ctx, chat, message, text, Some(kb)).await
}

/// After one of the `/settings` alphabet or level buttons: when the button was on a panel,
/// the panel is drawn again to show the choice.
pub async fn refresh_chat_panel(ctx: &Ctx, q: &CallbackQuery) -> HandlerResult {
    let Some(msg) = q.regular_message() else {
        return Ok(());
    };
    let on_panel = msg.reply_markup().is_some_and(|kb| {
        kb.inline_keyboard.iter().flatten().any(|b| {
            matches!(
                &b.kind,
                teloxide::types::InlineKeyboardButtonKind::CallbackData(d)
                    if matches!(Button::parse(d), Some(Button::Set(Panel::Chat, _)))
            )
        })
    });
    if !on_panel {
        return Ok(());
    }
    redraw_chat_panel(ctx, msg.chat.id, msg.id, &q.from, SettingsPage::Main).await
}

/// `/settings`: in a group with an open lobby, its creator gets the panel in the lobby
/// message; anywhere else, a panel of the chat's defaults for its next games.
pub async fn on_command(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    let chat = msg.chat.id.0;
    if !msg.chat.is_private() {
        let game = match super::chat::active_game(ctx, chat).await {
            Ok(g) => g,
            Err(e) => {
                return super::chat::reply(ctx, msg, t(lang, super::store_error_key(&e))).await
            }
        };
        // A Riga lobby has no Sea Battle rules to set: /settings there edits the chat's
        // defaults.
        let lobby = game.filter(|(_, r)| *r.game.phase() == Phase::Lobby && !r.is_riga());
        if let Some((id, rec)) = lobby {
            if user.id.0 != rec.creator {
                return super::chat::reply(ctx, msg, t(lang, "settings-lobby-creator-only")).await;
            }
            let done = ctx
                .store
                .transition(id, |r| {
                    if *r.game.phase() != Phase::Lobby {
                        return Err(());
                    }
                    r.panel = Some(SettingsPage::Main);
                    Ok(())
                })
                .await;
            if let Ok(Ok(_)) = done {
                super::outbox::kick(ctx, id);
                return super::chat::reply(ctx, msg, t(lang, "settings-in-lobby")).await;
            }
        }
    }
    let (text, kb) = match chat_panel(ctx, chat, user, SettingsPage::Main).await {
        Ok(p) => p,
        Err(e) => return super::chat::reply(ctx, msg, t(lang, super::store_error_key(&e))).await,
    };
    if !super::pace(ctx, msg.chat.id).await {
        // The chat's budget never runs over: without a slot, the panel is not sent.
        log::warn!("settings panel for {}: no budget", msg.chat.id);
        return Ok(());
    }
    ctx.bot
        .send_message(msg.chat.id, text)
        .parse_mode(ParseMode::Html)
        .reply_markup(super::chat::markup(kb))
        .await?;
    Ok(())
}
