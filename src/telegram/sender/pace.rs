//! Who goes first and when: the chat's budget, the priority of an effect's calls on the bot
//! token's budget (`token.rs`), the own field's gap, Telegram's own waits, and what a refusal
//! means.

use crate::game::delivery::Effect;
use crate::game::record::GameRecord;
use crate::game::record::Play;
use crate::game::sent::Sent;
use crate::telegram::context::{BotError, Ctx};
use crate::telegram::send::{group_gone, topic_gone};
use crate::telegram::token::Priority;
use engine::Phase;
use std::time::Duration;
use teloxide::RequestError;

/// The priority of the live message's calls: the battle's board goes first; a lobby waits
/// with the rest.
pub(super) fn board_priority(rec: &GameRecord) -> Priority {
    match &rec.play {
        // A Riga game keeps the engine's lobby phase: its own game tells the battle.
        Play::Riga(riga) if riga.game.is_some() => Priority::Board,
        Play::Riga(_) => Priority::Other,
        Play::SeaBattle(_) => match rec.game.phase() {
            Phase::Battle | Phase::Finished { .. } => Priority::Board,
            Phase::Lobby | Phase::Placement => Priority::Other,
        },
    }
}

/// Who goes first with an effect's calls when the token's budget is short (`token.rs`).
pub(super) fn priority(rec: &GameRecord, effect: &Effect) -> Priority {
    match effect {
        Effect::LiveMessage => board_priority(rec),
        Effect::Retire { .. }
        | Effect::Announce
        | Effect::Settle
        | Effect::NameTopic
        | Effect::CloseTopic => Priority::End,
        Effect::Dm { .. } | Effect::Tell { .. } | Effect::Mine { .. } => Priority::OwnField,
        Effect::Notice { .. } => Priority::Other,
    }
}

/// How long a player's own field waits for the token when its group's board is not due: then
/// the sender looks again whether it is.
pub(super) const OWN_FIELD_PATIENCE: Duration = Duration::from_secs(1);

/// One send or edit of `chat`'s budget ([`crate::telegram::context::chat_slot`]): `None` when it may
/// go, else how long to wait.
pub(super) async fn budget(ctx: &Ctx, chat: i64) -> Result<Option<Duration>, BotError> {
    let wait = crate::telegram::context::chat_slot(ctx, chat).await?;
    Ok((wait > 0).then(|| Duration::from_millis(wait)))
}

/// What to do about a failed request: wait and try again, or give the effect up.
pub(super) fn retry_after(e: &RequestError) -> Option<Duration> {
    match e {
        RequestError::RetryAfter(s) => Some(s.duration() + Duration::from_millis(100)),
        RequestError::Network(_) | RequestError::Io(_) => Some(Duration::from_secs(1)),
        _ => None,
    }
}

/// How long a player's own field, drawn as a picture during the battle, waits for the gap
/// since its last redraw ([`crate::config::BotConfig::own_field_gap`]); `None` when it can
/// go (or the effect is no own field's).
pub(super) fn own_field_waits(ctx: &Ctx, rec: &GameRecord, effect: &Effect) -> Option<Duration> {
    let Effect::Dm { seat } = effect else {
        return None;
    };
    if *rec.game.phase() != Phase::Battle {
        return None;
    }
    let at = rec.delivery.dm_drawn_at.get(usize::from(*seat)).copied()?;
    let gap = ctx.config.own_field_gap().as_millis() as u64;
    let since = now_ms().saturating_sub(at);
    (since < gap).then(|| Duration::from_millis(gap - since))
}

/// Unix milliseconds.
pub fn now_ms() -> u64 {
    crate::clock::unix_ms()
}

/// Whether a refusal of a send to (or an edit in) the game's place says that place is gone
/// for good: the group (the bot removed, the group deleted), or the game's forum topic
/// (closed or deleted). What the acknowledgement is then.
pub(super) fn place_gone(rec: &GameRecord, e: &RequestError) -> Option<Sent> {
    if rec.chat < 0 && group_gone(e) {
        Some(Sent::ChatGone)
    } else if rec.topic.is_some() && topic_gone(e) {
        Some(Sent::TopicGone)
    } else {
        None
    }
}
