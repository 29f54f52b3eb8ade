//! The placement editor in the private chat: the field as monospace text, a keyboard of one
//! block of cells at a time, and Undo, Clear, Random, Perelman, Ready. A ship is placed by
//! tapping its two ends; tapping a ship removes it.

use super::callback::{Button, EditOp};
use super::render::{self, escape, grid_keyboard, grid_text, Viewport};
use super::{answer, answer_store_error, battle, now, Ctx, HandlerResult};
use crate::i18n::{t, ta};
use crate::lang::Lang;
use crate::record::{Editor, GameRecord};
use crate::store::{GameId, StoreError};
use engine::{
    perelman_fleet, random_fleet, Action, ActionError, Coord, Event, Phase, PlayerId, SeatId,
};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChatId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ParseMode,
};
use teloxide::{ApiError, RequestError};

/// Control buttons under the editor's cells.
const CONTROLS: usize = 5;

fn viewport(rec: &GameRecord) -> Viewport {
    Viewport::new(rec.game.ruleset().size(), CONTROLS)
}

/// The editor's text: the field, what is still to place, and every problem.
pub fn editor_text(rec: &GameRecord, lang: Lang, ed: &Editor) -> String {
    let r = rec.game.ruleset();
    let size = r.size();
    let draft = &ed.draft;
    let field = grid_text(size, rec.alphabet, |c| {
        if ed.pending == Some(c) {
            '+'
        } else if draft.ships().iter().any(|s| s.cells.contains(&c)) {
            'O'
        } else if draft.mines().contains(&c) {
            'm'
        } else if draft.border().is_some_and(|b| b.is_land(c)) {
            ','
        } else {
            '·'
        }
    });
    let mut text = format!("<b>{}</b>\n<pre>{field}</pre>", t(lang, "editor-title"));
    // What is still to place, kind by kind.
    let mut missing: Vec<String> = Vec::new();
    let mut kinds = r.fleet();
    kinds.dedup();
    for kind in kinds {
        let wanted = r.fleet().iter().filter(|&&k| k == kind).count();
        let placed = draft.ships().iter().filter(|s| s.kind == kind).count();
        if placed < wanted {
            missing.push(ta(
                lang,
                "fleet-item",
                &[
                    ("ship", render::kind_name(lang, kind).into()),
                    ("count", (wanted - placed).into()),
                ],
            ));
        }
    }
    let problems: Vec<String> = draft
        .problems(r)
        .iter()
        .filter(|p| !matches!(p.rule, engine::Rule::Missing { .. }))
        .take(12)
        .map(|p| {
            format!(
                "• {}",
                escape(&render::problem_words(lang, p, rec.alphabet, size))
            )
        })
        .collect();
    if !missing.is_empty() {
        text.push_str(&format!(
            "\n{} {}",
            t(lang, "editor-to-place"),
            missing.join(", ")
        ));
    }
    if !problems.is_empty() {
        text.push_str(&format!(
            "\n\n{}\n{}",
            t(lang, "editor-problems"),
            problems.join("\n")
        ));
    }
    if missing.is_empty() && problems.is_empty() {
        text.push_str(&format!("\n{}", t(lang, "editor-complete")));
    }
    if let Some(p) = ed.pending {
        let cell = render::cell_name(p, rec.alphabet, size);
        text.push_str(&format!(
            "\n\n{}",
            ta(lang, "editor-pending", &[("cell", cell.into())])
        ));
    } else {
        text.push_str(&format!("\n\n{}", t(lang, "editor-hint")));
    }
    text
}

/// The editor's keyboard.
pub fn editor_keyboard(
    rec: &GameRecord,
    id: GameId,
    lang: Lang,
    ed: &Editor,
) -> InlineKeyboardMarkup {
    let size = rec.game.ruleset().size();
    let op = |key: &str, op: EditOp| {
        InlineKeyboardButton::callback(t(lang, key), Button::Edit(id, op).to_string())
    };
    let controls = vec![vec![
        op("btn-undo", EditOp::Undo),
        op("btn-clear", EditOp::Clear),
        op("btn-random", EditOp::Random),
        op("btn-perelman", EditOp::Perelman),
        op("btn-ready", EditOp::Ready),
    ]];
    grid_keyboard(
        viewport(rec),
        ed.block,
        rec.alphabet,
        |c: Coord| {
            let label = if ed.pending == Some(c) {
                "+".to_owned()
            } else if ed.draft.ships().iter().any(|s| s.cells.contains(&c)) {
                "O".to_owned()
            } else {
                render::cell_name(c, rec.alphabet, size)
            };
            (label, Button::Cell(id, size.index(c) as u16))
        },
        |b| Button::Block(id, b),
        controls,
    )
}

/// Sends a seat its editor in the private chat and remembers the message.
pub async fn open_editor(ctx: &Ctx, id: GameId, seat: SeatId, user: u64) {
    let Ok((rec, _)) = ctx.store.load_game(id).await else {
        return;
    };
    let lang = user_lang_by_id(ctx, user).await;
    let ruleset = rec.game.ruleset().clone();
    let ed = match ctx.store.draft::<Editor>(id, seat).await {
        Ok(Some(ed)) => ed,
        _ => Editor::new(&ruleset),
    };
    let sent = ctx
        .bot
        .send_message(ChatId(user as i64), editor_text(&rec, lang, &ed))
        .parse_mode(ParseMode::Html)
        .reply_markup(editor_keyboard(&rec, id, lang, &ed))
        .await;
    match sent {
        Ok(m) => {
            let _ = ctx
                .store
                .transition(id, |r| {
                    if let Some(slot) = r.dms.get_mut(seat.index()) {
                        *slot = Some(m.id.0);
                    }
                    Ok::<_, ()>(())
                })
                .await;
        }
        Err(e) => log::warn!("editor of game {id} for {user}: {e}"),
    }
}

/// A user's language by id (their settings, else English).
pub async fn user_lang_by_id(ctx: &Ctx, user: u64) -> Lang {
    ctx.store
        .user_settings(user)
        .await
        .ok()
        .and_then(|s| s.lang.or(s.detected))
        .unwrap_or_default()
}

/// Edits a private message; "not modified" is fine.
pub async fn edit_dm(
    ctx: &Ctx,
    user: u64,
    message: i32,
    text: String,
    kb: Option<InlineKeyboardMarkup>,
) {
    let mut req = ctx
        .bot
        .edit_message_text(ChatId(user as i64), MessageId(message), text)
        .parse_mode(ParseMode::Html);
    if let Some(kb) = kb {
        req = req.reply_markup(kb);
    }
    match req.await {
        Ok(_) | Err(RequestError::Api(ApiError::MessageNotModified)) => {}
        Err(e) => log::warn!("private edit for {user}: {e}"),
    }
}

/// What an edit did, for the answer to the tap.
enum Edited {
    Placed(engine::Kind),
    Pending,
    Removed,
    Moved,
    Nothing,
}

/// The editor's buttons.
pub async fn on_button(ctx: &Ctx, q: &CallbackQuery, lang: Lang, button: Button) -> HandlerResult {
    let uid = q.from.id.0;
    let id = match button {
        Button::Cell(g, _) | Button::Block(g, _) | Button::Edit(g, _) => g,
        _ => return Ok(()),
    };
    let rec = match ctx.store.load_game(id).await {
        Ok((rec, _)) => rec,
        Err(StoreError::NotFound) => return answer(ctx, q, t(lang, "error-game-over"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let Some(seat) = rec.game.seat_of(PlayerId(uid)) else {
        return answer(ctx, q, t(lang, "error-not-a-player"), true).await;
    };
    if rec.game.phase() != &Phase::Placement {
        let key = if rec.game.is_finished() {
            "error-game-over"
        } else {
            "error-out-of-date"
        };
        return answer(ctx, q, t(lang, key), true).await;
    }
    if rec.game.is_ready(seat) {
        return answer(ctx, q, t(lang, "editor-locked"), true).await;
    }
    if button == Button::Edit(id, EditOp::Ready) {
        return ready(ctx, q, lang, id, seat).await;
    }
    let ruleset = rec.game.ruleset().clone();
    let size = ruleset.size();
    let vp = viewport(&rec);
    let rng = ctx.fork();
    let done = ctx
        .store
        .edit_draft(
            id,
            seat,
            || Editor::new(&ruleset),
            |ed: &mut Editor| {
                let r = &ruleset;
                Ok::<_, ()>(match button {
                    Button::Block(_, b) => {
                        ed.block = b % vp.blocks() as u8;
                        Edited::Moved
                    }
                    Button::Cell(_, i) if usize::from(i) < size.area() => {
                        let c = size.coord(usize::from(i));
                        if ed.draft.ships().iter().any(|s| s.cells.contains(&c))
                            || ed.draft.mines().contains(&c)
                        {
                            ed.pending = None;
                            let _ = ed.draft.remove_at(c);
                            Edited::Removed
                        } else if let Some(a) = ed.pending.take() {
                            match ed.draft.place_line(r, a, c) {
                                Ok(kind) => Edited::Placed(kind),
                                Err(_) => {
                                    ed.pending = Some(c);
                                    Edited::Pending
                                }
                            }
                        } else {
                            ed.pending = Some(c);
                            Edited::Pending
                        }
                    }
                    Button::Edit(_, EditOp::Undo) => {
                        ed.pending = None;
                        match ed.draft.undo() {
                            Ok(()) => Edited::Removed,
                            Err(_) => Edited::Nothing,
                        }
                    }
                    Button::Edit(_, EditOp::Clear) => {
                        ed.pending = None;
                        ed.draft.clear();
                        Edited::Removed
                    }
                    Button::Edit(_, op @ (EditOp::Random | EditOp::Perelman)) => {
                        ed.pending = None;
                        let mut rng = rng.clone();
                        let fleet = if op == EditOp::Random {
                            random_fleet(r, &mut rng)
                        } else {
                            perelman_fleet(r, &mut rng)
                        };
                        match fleet {
                            Ok(f) => {
                                ed.draft.fill(&f);
                                Edited::Moved
                            }
                            Err(_) => Edited::Nothing,
                        }
                    }
                    _ => Edited::Nothing,
                })
            },
        )
        .await;
    let (what, ed) = match done {
        Ok(Ok(v)) => v,
        Ok(Err(())) => return Ok(()),
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let note = match what {
        Edited::Placed(kind) => ta(
            lang,
            "editor-placed",
            &[("ship", render::kind_name(lang, kind).into())],
        ),
        Edited::Pending => t(lang, "editor-second-end"),
        Edited::Removed | Edited::Moved => String::new(),
        Edited::Nothing => t(lang, "editor-nothing"),
    };
    answer(ctx, q, note, false).await?;
    if let Some(m) = q.regular_message() {
        edit_dm(
            ctx,
            uid,
            m.id.0,
            editor_text(&rec, lang, &ed),
            Some(editor_keyboard(&rec, id, lang, &ed)),
        )
        .await;
    }
    Ok(())
}

async fn ready(
    ctx: &Ctx,
    q: &CallbackQuery,
    lang: Lang,
    id: GameId,
    seat: SeatId,
) -> HandlerResult {
    let uid = q.from.id.0;
    let ed = match ctx.store.draft::<Editor>(id, seat).await {
        Ok(ed) => ed,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let (rec, _) = match ctx.store.load_game(id).await {
        Ok(r) => r,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    let ruleset = rec.game.ruleset().clone();
    let ed = ed.unwrap_or_else(|| Editor::new(&ruleset));
    let fleet = match ed.draft.clone().validate(&ruleset) {
        Ok(f) => f,
        Err(rejected) => {
            let size = ruleset.size();
            let first: Vec<String> = rejected
                .problems
                .iter()
                .take(3)
                .map(|p| render::problem_words(lang, p, rec.alphabet, size))
                .collect();
            return answer(ctx, q, first.join("\n"), true).await;
        }
    };
    let rng = ctx.fork();
    let done = ctx
        .store
        .transition(id, |r| {
            r.game
                .apply(Action::Ready(seat, fleet.clone()), now(), &mut rng.clone())
        })
        .await;
    let committed = match done {
        Ok(Ok(c)) => c,
        Ok(Err(ActionError::AlreadyReady)) => {
            return answer(ctx, q, t(lang, "editor-locked"), true).await
        }
        Ok(Err(_)) => return answer(ctx, q, t(lang, "error-out-of-date"), true).await,
        Err(e) => return answer_store_error(ctx, q, lang, &e).await,
    };
    answer(ctx, q, t(lang, "editor-ready-done"), false).await?;
    let began = committed
        .value
        .iter()
        .any(|e| matches!(e, Event::BattleBegan { .. }));
    // When this was the last fleet, the battle's start redraws every private field.
    if let (Some(m), false) = (q.regular_message(), began) {
        let text = battle::own_field_text(&committed.record, lang, seat);
        edit_dm(ctx, uid, m.id.0, text, None).await;
    }
    if began {
        battle::begin(ctx, id).await?;
    } else {
        super::group::redraw(ctx, id, committed.record.chat).await;
    }
    Ok(())
}
