//! The settings panel: `/settings` and the lobby's ⚙ button.
//!
//! In an open lobby the panel is the lobby message itself (its keyboard shows a page of the
//! panel while the creator has it open), so a change costs one paced, coalesced redraw of
//! the message everybody already sees. Outside a lobby `/settings` sends a panel message that
//! edits the chat's defaults. Every change of an option is checked with [`Ruleset::check`]
//! before it is saved; the chat's last choice becomes its default for the next game.

use super::context::{now, pace, store_error_key, user_lang, Ctx, HandlerResult};
use super::metered::refusal;
use super::metered::Metered;
use super::send::{active_game, answer, answer_store_error, edit_live, markup, reply, topic_of};
use super::sender;
use crate::game::lang::Lang;
use crate::game::record::Play;
use crate::game::record::{GameRecord, SettingsPage};
use crate::game::settings::{self as rules, changed, page_after, Refusal};
use crate::game::{GameId, Refused};
use crate::store::Atomic;
use crate::store::StoreError;
use crate::view::bot::name;
use crate::view::buttons::{Button, Panel, SetOp};
use crate::view::i18n::{t, ta};
use crate::view::keyboard::Keyboard;
use crate::view::panel::{chosen_words, panel_lines, short};
use crate::view::panel::{panel_rows, PanelView};
use engine::{Phase, Ruleset};
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatId, MessageId, ParseMode, User};

/// [`Ruleset::check`] on the blocking pool: a fleet with no legal layout takes a bounded
/// search to refuse.
async fn check(r: Ruleset) -> Result<Ruleset, Refusal> {
    let checked = tokio::task::spawn_blocking(move || r.check().map(|()| r)).await;
    match checked {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(e)) => Err(Refusal::Rules(e)),
        Err(_) => Err(Refusal::RulesChanged),
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
        let before = rec.game.ruleset().clone();
        let by = q.from.id.0;
        // The checks of the button first, on the record as loaded: a refused press needs no
        // search for a layout.
        let mut probe = rec.clone();
        if let Err(r) = rules::change_lobby(
            &mut probe,
            by,
            generation,
            &before,
            SetOp::Page(SettingsPage::Main),
            None,
            &name,
            now(),
        ) {
            return answer(ctx, q, short(refusal::words(lang, &r)), true).await;
        }
        let new = match changed(&before, op) {
            Ok(Some(new)) if new != before => match check(new).await {
                Ok(new) => Some(new),
                Err(r) => return answer(ctx, q, short(refusal::settings(lang, &r)), true).await,
            },
            Ok(_) => None,
            Err(r) => return answer(ctx, q, short(refusal::settings(lang, &r)), true).await,
        };
        let done = ctx
            .store
            .transition(id, Atomic::plain(), |r| {
                rules::change_lobby(r, by, generation, &before, op, new.as_ref(), &name, now())
            })
            .await;
        let committed = match done {
            Ok(Ok(c)) => c,
            Ok(Err(Refused::Settings(Refusal::RulesChanged))) => continue,
            Ok(Err(r)) => return answer(ctx, q, short(refusal::words(lang, &r)), true).await,
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
        sender::kick(ctx, id);
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
    rules::lobby_defaults(&mut s, rec, op);
    if s == before {
        return Ok(());
    }
    ctx.store.set_chat_settings(rec.chat, &s).await
}

/// Whether `chat` is a forum in which the bot, an administrator, may manage topics (create,
/// rename and close them): asked of Telegram, as an admin may change the bot's rights any
/// time.
pub async fn topics_manageable(ctx: &Ctx, chat: i64) -> bool {
    use teloxide::types::ChatMemberKind;
    if chat >= 0 {
        return false;
    }
    let forum = match ctx.bot.get_chat(ChatId(chat)).metered().await {
        // Deep in the chat's kinds; its JSON says it plainly.
        Ok(c) => serde_json::to_value(&c)
            .ok()
            .and_then(|v| v.get("is_forum").and_then(serde_json::Value::as_bool))
            .unwrap_or(false),
        Err(e) => {
            log::debug!("getChat {chat}: {e}");
            return false;
        }
    };
    if !forum {
        return false;
    }
    match ctx
        .bot
        .get_chat_member(ChatId(chat), UserId(ctx.bot_id))
        .metered()
        .await
    {
        Ok(m) => matches!(m.kind, ChatMemberKind::Administrator(a) if a.can_manage_topics),
        Err(e) => {
            log::debug!("getChatMember {chat}: {e}");
            false
        }
    }
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
    let user_lang = user_lang(ctx, user).await;
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
        alphabet: s.alphabet.unwrap_or_else(|| lang.alphabet()),
        level,
        board: s.board.unwrap_or(ctx.config.board),
        seated: 0,
        private,
        own_topics: topics_manageable(ctx, chat).await.then_some(s.own_topics),
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
        SetOp::Page(p) => p,
        SetOp::Done => {
            answer(ctx, q, t(lang, "settings-closed"), false).await?;
            let (text, _) = match chat_panel(ctx, chat, &q.from, SettingsPage::Main).await {
                Ok(p) => p,
                Err(e) => return Err(e.into()),
            };
            let text = text.split("\n\n").next().unwrap_or_default().to_owned();
            return draw_panel(ctx, msg.chat.id, msg.id, text, None).await;
        }
        _ => {
            // The panel's own refusals first (a seat swap, players in a private chat).
            if let Err(r) = rules::change_chat(&mut s.clone(), op, None, private) {
                return answer(ctx, q, short(refusal::settings(lang, &r)), true).await;
            }
            let checked = match changed(&s.ruleset, op) {
                Ok(Some(new)) if new != s.ruleset => match check(new).await {
                    Ok(new) => Some(new),
                    Err(r) => {
                        return answer(ctx, q, short(refusal::settings(lang, &r)), true).await
                    }
                },
                Ok(_) => None,
                Err(r) => return answer(ctx, q, short(refusal::settings(lang, &r)), true).await,
            };
            if let Err(r) = rules::change_chat(&mut s, op, checked, private) {
                return answer(ctx, q, short(refusal::settings(lang, &r)), true).await;
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
    draw_panel(ctx, chat, message, text, Some(kb)).await
}

/// Edits a panel message to show `text` and `kb`, unless it shows them already: a tap that
/// changes nothing (an option already ticked, the page already open, Done again, a double
/// tap) edits nothing, where Telegram would refuse the edit as "message is not modified".
/// What each panel shows is kept in Redis, so two taps at once, whose updates both carry
/// the message as it was before either, edit it once.
async fn draw_panel(
    ctx: &Ctx,
    chat: ChatId,
    message: MessageId,
    text: String,
    kb: Option<Keyboard>,
) -> HandlerResult {
    let hash = sender::drawing_hash(&text, &kb);
    match ctx.store.panel_drawn(chat.0, message.0, hash).await {
        Ok(false) => return Ok(()),
        Ok(true) => {}
        // Unknown: drawn again ("not modified" is taken as done).
        Err(e) => log::debug!("settings panel {} in {chat}: {e}", message.0),
    }
    let done = edit_live(ctx, chat, message, text, kb).await;
    if done.is_err() {
        // Not shown after all: the next tap draws it.
        let _ = ctx.store.panel_unknown(chat.0, message.0).await;
    }
    done
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
        let game = match active_game(ctx, chat, topic_of(msg)).await {
            Ok(g) => g,
            Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
        };
        // A Riga lobby has no Sea Battle rules to set: /settings there edits the chat's
        // defaults.
        let lobby = game.filter(|(_, r)| match r.play {
            Play::SeaBattle(_) => *r.game.phase() == Phase::Lobby,
            Play::Riga(_) => false,
        });
        if let Some((id, rec)) = lobby {
            if user.id.0 != rec.creator {
                return reply(ctx, msg, t(lang, "settings-lobby-creator-only")).await;
            }
            let done = ctx
                .store
                .transition(id, Atomic::plain(), |r| rules::open_panel(r, user.id.0))
                .await;
            if let Ok(Ok(_)) = done {
                sender::kick(ctx, id);
                return reply(ctx, msg, t(lang, "settings-in-lobby")).await;
            }
        }
    }
    let (text, kb) = match chat_panel(ctx, chat, user, SettingsPage::Main).await {
        Ok(p) => p,
        Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
    };
    // The chat's budget never runs over: without a slot, the panel is not sent.
    pace(ctx, msg.chat.id).await?;
    let hash = sender::drawing_hash(&text, &Some(kb.clone()));
    let mut req = ctx
        .bot
        .send_message(msg.chat.id, text)
        .parse_mode(ParseMode::Html)
        .reply_markup(markup(kb));
    req = super::send::in_topic(req, topic_of(msg));
    let sent = req.metered().await?;
    // What it shows, so that a first tap that changes nothing edits nothing.
    if let Err(e) = ctx.store.panel_drawn(chat, sent.id.0, hash).await {
        log::debug!("settings panel {} in {chat}: {e}", sent.id.0);
    }
    Ok(())
}
