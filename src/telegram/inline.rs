//! Inline mode: `@bot` typed in any chat offers cards (Sea Battle with the sender's rules, the
//! Riga game); a card sent is the game's lobby as an inline message. Its first press opens
//! the game on it (one game a message, however many press at once), and every later press
//! and the whole battle are the same transitions as in a group, the message edited through
//! its `inline_message_id` by the game's sender.

use super::context::{display_name, now, user_lang, Ctx, HandlerResult};
use super::metered::Metered;
use super::send::{answer, answer_store_error, markup};
use super::{lobby, sender};
use crate::game::lang::Lang;
use crate::game::lobby::{Seated, Setup};
use crate::game::record::GameKind;
use crate::game::record::{inline_chat, Board, Card, GameRecord};
use crate::store::{GameId, StoreError};
use crate::view::buttons::Button;
use crate::view::i18n::t;
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, InlineQuery, InlineQueryResult, InlineQueryResultArticle, InputMessageContent,
    InputMessageContentText, ParseMode,
};

/// An inline query: the two cards, in the sender's language, with what they offer kept for
/// their first press (the name, the language, the sender's own rules).
pub async fn on_query(ctx: &Ctx, q: &InlineQuery) -> HandlerResult {
    let lang = user_lang(ctx, &q.from).await;
    let uid = q.from.id.0;
    // The sender's own choices, from their private chat with the bot.
    let own = ctx.store.chat_settings(uid as i64).await?;
    let ruleset = own.ruleset;
    let alphabet = own.alphabet.unwrap_or_else(|| lang.alphabet());
    let card = Card {
        v: 1,
        name: display_name(&q.from),
        lang,
        alphabet,
        ruleset,
    };
    // Without it the card's first press cannot open the game: no cards then.
    ctx.store.set_card(uid, &card).await?;
    let results: Vec<InlineQueryResult> = [GameKind::SeaBattle, GameKind::Riga]
        .into_iter()
        .map(|kind| article(lang, uid, &card, kind))
        .collect();
    ctx.bot
        .answer_inline_query(q.id.clone(), results)
        .is_personal(true)
        .cache_time(0)
        .metered()
        .await?;
    Ok(())
}

/// One card as an inline result.
fn article(lang: Lang, uid: u64, card: &Card, kind: GameKind) -> InlineQueryResult {
    let (text, kb) = crate::view::group::card(lang, uid, &card.name, &card.ruleset, kind);
    let (id, title, description) = match kind {
        GameKind::Riga => (
            "riga",
            t(lang, "inline-riga-title"),
            t(lang, "inline-riga-description"),
        ),
        GameKind::SeaBattle => (
            "sea",
            t(lang, "inline-sea-title"),
            crate::view::render::ruleset_words(lang, &card.ruleset),
        ),
    };
    let content =
        InputMessageContent::Text(InputMessageContentText::new(text).parse_mode(ParseMode::Html));
    InlineQueryResult::Article(
        InlineQueryResultArticle::new(id, title, content)
            .description(description)
            .reply_markup(markup(kb)),
    )
}

/// A press of a card's Join (`sender` sent it): the game of this inline message, opened
/// now by the first press (its lobby stored under the id the message's pointer claims, so
/// two first presses open one game), and the presser takes a seat as by a lobby's Join.
pub async fn on_card(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    inline: &str,
    sender: u64,
    kind: GameKind,
) -> HandlerResult {
    let (id, loaded) = match game_of(ctx, inline, sender, kind).await {
        Ok(Some(found)) => found,
        Ok(None) => return answer(ctx, q, t(lang, "inline-card-gone"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    // The game as `game_of` read it; read only when it was opened just now.
    let rec = match loaded {
        Some(rec) => Ok(rec),
        None => ctx.store.load_game(id).await.map(|(rec, _)| rec),
    };
    let generation = match rec {
        // The sender, seated as the game opened by their own press.
        Ok(rec) if rec.game.seat_of(engine::PlayerId(q.from.id.0)).is_some() => {
            return answer(ctx, q, t(lang, "join-done"), false).await;
        }
        Ok(rec) => rec.delivery.generation,
        Err(StoreError::NotFound) => return answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    lobby::on_button(ctx, q, lang, Button::Join(id, generation)).await
}

/// The game inline message `inline` holds, with its record as read, or opened now if it
/// has none (from `sender`'s card; then no record); `None` when the card's offer is gone.
async fn game_of(
    ctx: &Ctx,
    inline: &str,
    sender: u64,
    kind: GameKind,
) -> Result<Option<(GameId, Option<GameRecord>)>, StoreError> {
    let chat = inline_chat(inline);
    let id = match ctx.store.chat_game(chat, None).await? {
        Some(id) => id,
        None => {
            let reserved = ctx.store.reserve_game_id().await?;
            ctx.store.claim_chat_game(chat, reserved).await?
        }
    };
    match ctx.store.load_game(id).await {
        Ok((rec, _)) => return Ok(Some((id, Some(rec)))),
        Err(StoreError::NotFound) => {}
        Err(e) => return Err(e),
    }
    let Some(card) = ctx.store.card(sender).await? else {
        return Ok(None);
    };
    let setup = Setup {
        chat,
        topic: None,
        own_topic: false,
        inline: Some(inline.to_owned()),
        creator: sender,
        lang: card.lang,
        alphabet: card.alphabet,
        board: Board::Text,
        ai_level: engine::ai::Level::default(),
        ruleset: card.ruleset.clone(),
        kind,
    };
    // The sender sits down at once when the bot may write to them and they play no other
    // game; else they join by the button like anyone.
    let seated = lobby::seated_at_once(ctx, sender).await;
    let rec: GameRecord = crate::game::lobby::open(
        &setup,
        &Seated {
            creator: seated.then_some(card.name.as_str()),
            bot: None,
        },
        now(),
    );
    if ctx.store.create_game_at(id, &rec).await? && seated {
        ctx.store.set_user_game(sender, id).await?;
    }
    sender::kick(ctx, id);
    Ok(Some((id, None)))
}

/// Whether a press on inline message `inline` may go to its handler: a button a game's
/// inline message carries (its lobby's, its battle's, its end's), of the game that lives in
/// that message. `Err` with the words of the refusal otherwise.
pub async fn fits(ctx: &Ctx, inline: &str, button: &Button) -> Result<(), &'static str> {
    let id = match *button {
        Button::Join(g, _)
        | Button::Start(g, _)
        | Button::Cancel(g, _)
        | Button::View(g, ..)
        | Button::Target(g, ..)
        | Button::Salvo(g, ..)
        | Button::Arm(g, ..)
        | Button::Heading(g, ..)
        | Button::Fire(g, ..)
        | Button::RigaMove(g, ..)
        | Button::Rematch(g) => g,
        Button::Noop => return Ok(()),
        _ => return Err("error-wrong-message"),
    };
    match ctx.store.load_game(id).await {
        Ok((rec, _)) if rec.inline.as_deref() == Some(inline) => Ok(()),
        Ok(_) => Err("error-wrong-message"),
        Err(StoreError::NotFound) => Err("error-game-over"),
        Err(e) => Err(crate::telegram::context::store_error_key(&e)),
    }
}
