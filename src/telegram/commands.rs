//! Commands: parsing, registration per language and chat type, and help.

use super::battle;
use super::context::{store_error_key, user_lang, Ctx, HandlerResult};
use super::lobby;
use super::metered::Metered;
use super::send::{reply, topic_of};
use crate::game::lang::Lang;
use crate::game::record::GameKind;
use crate::game::settings::{self as choices, Choice};
use crate::view::bot as ai;
use crate::view::buttons::Button;
use crate::view::i18n::t;
use teloxide::prelude::*;
use teloxide::types::{
    BotCommand, BotCommandScope, InlineKeyboardButton, InlineKeyboardMarkup, Me, User,
};
use teloxide::utils::command::BotCommands;

/// The commands the bot understands. Their descriptions for people come from `locales/`
/// (see [`register`]), not from here.
#[derive(BotCommands, Clone, Debug, PartialEq, Eq)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    /// Opens the private chat; carries a deep-link payload.
    Start(String),
    /// Creates a game in a group (`riga`: of the Riga game).
    Newgame(String),
    /// Gives up the current game.
    Surrender,
    /// Calls the game off before the battle.
    Cancel,
    /// How to play.
    Help,
    /// The rules (`riga`: of the Riga board game).
    Rules(String),
    /// Chooses the language.
    Lang,
    /// The chat's settings: the rules of its games, the column letters, the bot's level.
    Settings,
    /// A game against the bot, at the given level.
    Play(String),
    /// Your games, wins, accuracy and ratings.
    Stats,
    /// The chat's leaderboard.
    Top,
    /// A tournament in a group: sign-up, rounds, standings.
    Tournament,
    /// A duel with a stranger, in private chats.
    Find,
}

/// (command, description key) for groups and for private chats.
const GROUP: &[(&str, &str)] = &[
    ("newgame", "cmd-newgame"),
    ("play", "cmd-play-group"),
    ("surrender", "cmd-surrender"),
    ("cancel", "cmd-cancel"),
    ("rules", "cmd-rules"),
    ("lang", "cmd-lang"),
    ("settings", "cmd-settings"),
    ("stats", "cmd-stats"),
    ("top", "cmd-top-group"),
    ("tournament", "cmd-tournament"),
    ("help", "cmd-help"),
];
const PRIVATE: &[(&str, &str)] = &[
    ("start", "cmd-start"),
    ("play", "cmd-play"),
    ("find", "cmd-find"),
    ("surrender", "cmd-surrender"),
    ("rules", "cmd-rules"),
    ("lang", "cmd-lang"),
    ("settings", "cmd-settings"),
    ("stats", "cmd-stats"),
    ("top", "cmd-top"),
    ("help", "cmd-help"),
];

/// The command list for one chat type in one language.
pub fn command_list(lang: Lang, private: bool) -> Vec<BotCommand> {
    let list = if private { PRIVATE } else { GROUP };
    list.iter()
        .map(|(name, key)| BotCommand::new(*name, t(lang, key)))
        .collect()
}

/// Registers the commands with `setMyCommands`: per language (ru, bg, and English as the
/// default), for private chats and for groups.
pub async fn register(ctx: &Ctx) {
    for lang in Lang::ALL {
        for private in [true, false] {
            let scope = if private {
                BotCommandScope::AllPrivateChats
            } else {
                BotCommandScope::AllGroupChats
            };
            let mut req = ctx
                .bot
                .set_my_commands(command_list(lang, private))
                .scope(scope);
            if lang != Lang::En {
                req = req.language_code(lang.code());
            }
            if let Err(e) = req.metered().await {
                log::warn!("setMyCommands ({lang}) failed: {e}");
            }
        }
    }
}

/// Handles a command.
pub async fn on_command(ctx: Ctx, msg: Message, cmd: Command) -> HandlerResult {
    let Some(user) = msg.from.clone() else {
        return Ok(());
    };
    let lang = chat_lang(&ctx, &msg, &user).await;
    if msg.chat.is_private() {
        lobby::note_started(&ctx, &user).await;
    }
    match cmd {
        Command::Start(payload) => lobby::on_start(&ctx, &msg, &user, lang, &payload).await,
        Command::Newgame(arg) => lobby::on_newgame(&ctx, &msg, &user, lang, None, &arg).await,
        Command::Play(level) => lobby::on_play(&ctx, &msg, &user, lang, &level).await,
        Command::Surrender => on_surrender(&ctx, &msg, &user, lang).await,
        Command::Cancel => lobby::on_cancel_command(&ctx, &msg, &user, lang).await,
        Command::Help => reply(&ctx, &msg, t(lang, "help")).await,
        Command::Stats => super::stats::on_stats(&ctx, &msg, &user, lang).await,
        Command::Top => super::stats::on_top(&ctx, &msg, lang).await,
        Command::Tournament => super::tournament::on_command(&ctx, &msg, &user, lang).await,
        Command::Find => super::quick::on_find(&ctx, &msg, &user, lang).await,
        Command::Rules(arg) => on_rules(&ctx, &msg, lang, &arg).await,
        Command::Settings => super::settings::on_command(&ctx, &msg, &user, lang).await,
        Command::Lang => {
            let kb = InlineKeyboardMarkup::new(vec![Lang::ALL
                .iter()
                .map(|&l| {
                    InlineKeyboardButton::callback(t(l, "lang-name"), Button::Lang(l).to_string())
                })
                .collect::<Vec<_>>()]);
            super::context::pace(&ctx, msg.chat.id).await?;
            let mut req = ctx
                .bot
                .send_message(msg.chat.id, t(lang, "lang-choose"))
                .reply_markup(kb);
            req = super::send::in_topic(req, topic_of(&msg));
            req.metered().await?;
            Ok(())
        }
    }
}

/// The language of a chat: the user's in private, the group's (else the user's) in a group.
pub async fn chat_lang(ctx: &Ctx, msg: &Message, user: &teloxide::types::User) -> Lang {
    if !msg.chat.is_private() {
        if let Ok(Some(lang)) = ctx.store.chat_settings(msg.chat.id.0).await.map(|s| s.lang) {
            return lang;
        }
    }
    user_lang(ctx, user).await
}

/// The answer of a command that needs no stored state, from its message alone, for when Redis
/// is away: `/help`; `/start` with nothing after it; `/rules` (the classic rules: a chat's own
/// rules are in its settings). `None` for any other message.
pub fn answer_without_store(msg: &Message, me: &Me, lang: Lang) -> Option<String> {
    match Command::parse(msg.text()?, me.username()).ok()? {
        Command::Help => Some(t(lang, "help")),
        Command::Start(payload) if payload.trim().is_empty() => Some(t(
            lang,
            if msg.chat.is_private() {
                "welcome"
            } else {
                "help"
            },
        )),
        Command::Rules(arg) => Some(rules_words(lang, &arg, &engine::Ruleset::default())),
        _ => None,
    }
}

/// `/rules`: the rules of the chat's next game, in the chat's language.
async fn on_rules(ctx: &Ctx, msg: &Message, lang: Lang, arg: &str) -> HandlerResult {
    let ruleset = ctx
        .store
        .chat_settings(msg.chat.id.0)
        .await
        .map(|s| s.ruleset)
        .unwrap_or_default();
    reply(ctx, msg, rules_words(lang, arg, &ruleset)).await
}

/// What `/rules` with `arg` says in a chat whose games are played by `ruleset`.
fn rules_words(lang: Lang, arg: &str, ruleset: &engine::Ruleset) -> String {
    match super::lobby::game_asked(arg).0 {
        GameKind::Riga => return t(lang, "rg-rules"),
        GameKind::SeaBattle => {}
    }
    if wants_arsenal(arg) {
        return t(lang, "rules-arsenal");
    }
    let mut text = t(lang, "rules-classic");
    if *ruleset != engine::Ruleset::default() {
        text = format!(
            "{}\n\n{}",
            t(lang, "rules-this-chat"),
            crate::view::render::escape(&crate::view::render::ruleset_words(lang, ruleset))
        );
    }
    if ruleset.arsenal > 0 {
        text.push_str(&format!("\n\n{}", t(lang, "rules-arsenal")));
    }
    text.push_str(&format!("\n\n{}", t(lang, "rg-rules-hint")));
    text
}

/// Whether `/rules` asks for the arsenal (docs/rules.md §3.8), in any of the bot's languages.
fn wants_arsenal(arg: &str) -> bool {
    let arg = arg.trim().to_lowercase();
    !arg.is_empty()
        && Lang::ALL.iter().any(|&l| {
            t(l, "rules-arsenal-words")
                .split_whitespace()
                .any(|w| w.to_lowercase() == arg)
        })
}

/// `/surrender`: the sender gives up their game (in the group, or in the private chat),
/// whichever game it is.
async fn on_surrender(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    let id = if msg.chat.is_private() {
        ctx.store.user_game(user.id.0).await
    } else {
        ctx.store.chat_game(msg.chat.id.0, topic_of(msg)).await
    };
    let id = match id {
        Ok(Some(id)) => id,
        Ok(None) => return reply(ctx, msg, t(lang, "error-no-game")).await,
        Err(e) => return reply(ctx, msg, t(lang, store_error_key(&e))).await,
    };
    match ctx.store.load_game(id).await {
        Ok((rec, _)) => match rec.play.kind() {
            GameKind::Riga => super::riga::on_surrender(ctx, msg, id, user.id.0, lang).await,
            GameKind::SeaBattle => battle::on_surrender(ctx, msg, user, lang, id).await,
        },
        Err(crate::store::StoreError::NotFound) => reply(ctx, msg, t(lang, "error-no-game")).await,
        Err(e) => reply(ctx, msg, t(lang, store_error_key(&e))).await,
    }
}

/// The `/settings` alphabet buttons: the chat's column letters from its next game on.
pub async fn on_alphabet_button(
    ctx: &Ctx,
    q: &teloxide::types::CallbackQuery,
    lang: Lang,
    alphabet: engine::Alphabet,
) -> HandlerResult {
    let chat = q
        .regular_message()
        .map_or(q.from.id.0 as i64, |m| m.chat.id.0);
    let saved = match ctx.store.chat_settings(chat).await {
        Ok(mut s) => {
            choices::choose(&mut s, Choice::Alphabet(alphabet));
            ctx.store.set_chat_settings(chat, &s).await
        }
        Err(e) => Err(e),
    };
    match saved {
        Ok(()) => {
            let letters: String = alphabet.columns(10).into_iter().collect();
            let text = crate::view::i18n::ta(
                lang,
                "settings-alphabet-done",
                &[("letters", letters.into())],
            );
            super::send::answer(ctx, q, text, false).await?;
            super::settings::refresh_chat_panel(ctx, q).await
        }
        Err(e) => super::send::answer_store_error(ctx, q, lang, &e).await,
    }
}

/// The `/settings` level buttons: how well the bot plays in the group's next games, or in
/// the user's next `/play` in private.
pub async fn on_ai_level_button(
    ctx: &Ctx,
    q: &teloxide::types::CallbackQuery,
    lang: Lang,
    level: engine::ai::Level,
) -> HandlerResult {
    let chat = q
        .regular_message()
        .map_or(q.from.id.0 as i64, |m| m.chat.id.0);
    let saved = if chat < 0 {
        match ctx.store.chat_settings(chat).await {
            Ok(mut s) => {
                choices::choose(&mut s, Choice::Level(level));
                ctx.store.set_chat_settings(chat, &s).await
            }
            Err(e) => Err(e),
        }
    } else {
        match ctx.store.user_settings(q.from.id.0).await {
            Ok(mut s) => {
                choices::choose_for_user(&mut s, Choice::Level(level));
                ctx.store.set_user_settings(q.from.id.0, &s).await
            }
            Err(e) => Err(e),
        }
    };
    match saved {
        Ok(()) => {
            let text = crate::view::i18n::ta(
                lang,
                "settings-ai-level-done",
                &[("level", ai::level_words(lang, level).into())],
            );
            super::send::answer(ctx, q, text, false).await?;
            super::settings::refresh_chat_panel(ctx, q).await
        }
        Err(e) => super::send::answer_store_error(ctx, q, lang, &e).await,
    }
}

/// The `/lang` buttons: a user's language in private, the group's in a group.
pub async fn on_lang_button(
    ctx: &Ctx,
    q: &teloxide::types::CallbackQuery,
    chosen: Lang,
) -> HandlerResult {
    let in_group = q.regular_message().is_some_and(|m| !m.chat.is_private());
    let saved = if in_group {
        let chat = q.regular_message().map_or(0, |m| m.chat.id.0);
        match ctx.store.chat_settings(chat).await {
            Ok(mut s) => {
                choices::choose(&mut s, Choice::Lang(chosen));
                ctx.store.set_chat_settings(chat, &s).await
            }
            Err(e) => Err(e),
        }
    } else {
        match ctx.store.user_settings(q.from.id.0).await {
            Ok(mut s) => {
                choices::choose_for_user(&mut s, Choice::Lang(chosen));
                super::context::forget_lang(ctx, q.from.id.0);
                ctx.store.set_user_settings(q.from.id.0, &s).await
            }
            Err(e) => Err(e),
        }
    };
    match saved {
        Ok(()) => {
            super::send::answer(ctx, q, t(chosen, "lang-done"), false).await?;
            // The menu says what was chosen and keeps no buttons (within the chat's budget).
            if let Some(m) = q.regular_message() {
                // Once: a second tap (or two at once) would edit it to the same words.
                let done = t(chosen, "lang-done");
                let hash = super::sender::drawing_hash(&done, &None);
                let again = !ctx
                    .store
                    .panel_drawn(m.chat.id.0, m.id.0, hash)
                    .await
                    .unwrap_or(true);
                if !again
                    && super::context::try_pace(ctx, m.chat.id)
                        .await
                        .unwrap_or(false)
                {
                    let edit = ctx
                        .bot
                        .edit_message_text(m.chat.id, m.id, t(chosen, "lang-done"))
                        .metered()
                        .await;
                    if let Err(e) = edit {
                        log::debug!("the /lang menu in {}: {e}", m.chat.id);
                    }
                }
            }
            Ok(())
        }
        Err(e) => super::send::answer_store_error(ctx, q, chosen, &e).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_command_has_a_description_in_every_language() {
        for lang in Lang::ALL {
            for private in [true, false] {
                for c in command_list(lang, private) {
                    assert!(!c.description.trim().is_empty(), "{lang} /{}", c.command);
                    assert!(c.description.chars().count() <= 256);
                }
            }
        }
    }

    #[test]
    fn commands_parse_with_and_without_the_bot_name() {
        let parse = |text| Command::parse(text, "morskoy_bot").ok();
        assert_eq!(parse("/newgame"), Some(Command::Newgame(String::new())));
        assert_eq!(
            parse("/newgame@morskoy_bot"),
            Some(Command::Newgame(String::new()))
        );
        assert_eq!(
            parse("/newgame riga"),
            Some(Command::Newgame("riga".into()))
        );
        assert_eq!(parse("/start j42"), Some(Command::Start("j42".into())));
        assert_eq!(parse("/play hard"), Some(Command::Play("hard".into())));
        assert_eq!(parse("/play"), Some(Command::Play(String::new())));
        assert_eq!(parse("/nonsense"), None);
    }
}
