//! The settings panel: `/settings` and the lobby's ⚙ button.
//!
//! In an open lobby the panel is the lobby message itself (its keyboard shows a page of the
//! panel while the creator has it open), so a change costs one paced, coalesced redraw of
//! the message everybody already sees. Outside a lobby `/settings` sends a panel message that
//! edits the chat's defaults. Every change of an option is checked with [`Ruleset::check`]
//! before it is saved; the chat's last choice becomes its default for the next game.

use super::callback::{Button, FieldChoice, Panel, SetOp};
use super::{answer, answer_store_error, now, Ctx, HandlerResult};
use crate::i18n::{t, ta, Arg};
use crate::lang::Lang;
use crate::record::{is_ai, GameRecord, SettingsPage};
use crate::store::{GameId, StoreError};
use engine::ai::Level;
use engine::{
    Action, Alphabet, Field, Game, Kind, Phase, Players, Ruleset, RulesetError, Shapes, Size,
    Touching, TurnTimer, MAX_SIDE, MIN_SIDE,
};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChatId, InlineKeyboardButton, InlineKeyboardMarkup, MessageId, ParseMode, User,
};

/// Why a change was refused, in words to come: a localisation key and its arguments.
#[derive(Clone, Debug)]
pub struct Refusal {
    key: &'static str,
    args: Vec<(&'static str, Arg)>,
}

impl Refusal {
    fn new(key: &'static str) -> Refusal {
        Refusal {
            key,
            args: Vec::new(),
        }
    }

    fn with(key: &'static str, args: Vec<(&'static str, Arg)>) -> Refusal {
        Refusal { key, args }
    }

    /// The refusal in words.
    pub fn words(&self, lang: Lang) -> String {
        ta(lang, self.key, &self.args)
    }
}

impl From<&RulesetError> for Refusal {
    fn from(e: &RulesetError) -> Refusal {
        match e {
            RulesetError::SideOutOfRange(_) => Refusal::with(
                "settings-error-side",
                vec![("min", MIN_SIDE.into()), ("max", MAX_SIDE.into())],
            ),
            RulesetError::NoShips => Refusal::new("settings-error-no-ships"),
            RulesetError::ShipSizeOutOfRange(n) => {
                Refusal::with("settings-error-ship-size", vec![("size", (*n).into())])
            }
            RulesetError::FleetTooLarge => Refusal::new("settings-error-fleet-too-large"),
            RulesetError::SalvoOutOfRange(_) => Refusal::new("settings-error-salvo"),
            RulesetError::MinesOutOfRange(_) => Refusal::new("settings-error-mines"),
            RulesetError::PlayersOutOfRange(_) => Refusal::new("settings-error-players"),
            RulesetError::NoLegalLayout => Refusal::new("settings-error-no-layout"),
        }
    }
}

/// The ship sizes of a ruleset's fleet, largest first (land-sea-air: its ships only).
fn ship_sizes(r: &Ruleset) -> Vec<u8> {
    r.fleet()
        .into_iter()
        .filter_map(|k| match k {
            Kind::Ship(n) => Some(n),
            _ => None,
        })
        .collect()
}

/// The ruleset after `op`, not yet checked; `None` for ops that leave the ruleset alone.
///
/// # Errors
/// A custom-field control without a custom field, a salvo step with salvo off, or a
/// touching or shape rule in land-sea-air, which has its own.
pub fn changed(r: &Ruleset, op: SetOp) -> Result<Option<Ruleset>, Refusal> {
    let mut n = r.clone();
    let step = |v: u8, up: bool| {
        if up {
            v.saturating_add(1)
        } else {
            v.saturating_sub(1)
        }
    };
    match op {
        SetOp::Touching(_) | SetOp::Shapes(_) if r.has_terrain() => {
            return Err(Refusal::new("settings-error-land-sea-air"))
        }
        SetOp::Touching(t) => n.touching = t,
        SetOp::Shapes(s) => n.shapes = s,
        SetOp::Field(c) => {
            n.field = match c {
                FieldChoice::Classic => Field::Classic,
                FieldChoice::Big => Field::Big,
                FieldChoice::LandSeaAir => Field::LandSeaAir,
                FieldChoice::Custom if matches!(r.field, Field::Custom { .. }) => r.field.clone(),
                FieldChoice::Custom => Field::Custom {
                    size: r.size(),
                    ships: ship_sizes(r),
                },
            }
        }
        SetOp::Width(_) | SetOp::Height(_) | SetOp::AddShip(_) | SetOp::RemoveShip => {
            let Field::Custom { size, ships } = &mut n.field else {
                return Err(Refusal::new("settings-error-not-custom"));
            };
            match op {
                SetOp::Width(up) => *size = Size::new(step(size.width, up), size.height),
                SetOp::Height(up) => *size = Size::new(size.width, step(size.height, up)),
                SetOp::AddShip(k) => ships.push(k),
                _ => {
                    ships.pop();
                }
            }
        }
        SetOp::Salvo(s) => n.salvo = s,
        SetOp::SalvoStep(up) => {
            let Some(v) = r.salvo else {
                return Err(Refusal::new("settings-error-salvo"));
            };
            n.salvo = Some(step(v, up));
        }
        SetOp::Mines(m) => n.mines = m,
        SetOp::Players(p) => n.players = p,
        SetOp::Timer(t) => n.timer = t,
        SetOp::Page(_) | SetOp::Alphabet(_) | SetOp::Level(_) | SetOp::Swap(_) | SetOp::Done => {
            return Ok(None)
        }
    }
    Ok(Some(n))
}

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

/// The page the panel shows after `op`.
fn page_after(op: SetOp, before: SettingsPage) -> SettingsPage {
    match op {
        SetOp::Page(p) => p,
        SetOp::Field(_)
        | SetOp::Width(_)
        | SetOp::Height(_)
        | SetOp::AddShip(_)
        | SetOp::RemoveShip => SettingsPage::Field,
        SetOp::Salvo(_) | SetOp::SalvoStep(_) => SettingsPage::Salvo,
        SetOp::Touching(_) | SetOp::Shapes(_) | SetOp::Mines(_) | SetOp::Players(_) => {
            SettingsPage::Main
        }
        SetOp::Timer(_) => SettingsPage::Main,
        SetOp::Alphabet(_) | SetOp::Level(_) | SetOp::Swap(_) | SetOp::Done => before,
    }
}

/// The lobby's game under a new ruleset, with the seated players seated again in order.
///
/// # Errors
/// More players are seated than the new ruleset has seats.
pub fn reseat(rec: &mut GameRecord, ruleset: Ruleset) -> Result<(), Refusal> {
    let seated = rec.game.seats().len();
    if seated > ruleset.seats() {
        return Err(Refusal::with(
            "settings-error-seated",
            vec![("count", seated.into()), ("seats", ruleset.seats().into())],
        ));
    }
    let mut game = Game::new(ruleset);
    // Joining draws nothing; the source is only the engine's signature.
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
    for seat in rec.game.seats() {
        game.apply(Action::Join(seat.player), now(), &mut rng)
            .map_err(|_| Refusal::new("error-out-of-date"))?;
    }
    rec.game = game;
    Ok(())
}

// ---- words --------------------------------------------------------------------------------

fn touching_words(lang: Lang, touching: Touching) -> String {
    t(
        lang,
        match touching {
            Touching::None => "rules-touching-none",
            Touching::Corners => "rules-touching-corners",
            Touching::Any => "rules-touching-any",
        },
    )
}

fn shapes_words(lang: Lang, s: Shapes) -> String {
    t(
        lang,
        match s {
            Shapes::Straight => "settings-shapes-straight",
            Shapes::Bent => "settings-shapes-bent",
            Shapes::Free => "settings-shapes-free",
        },
    )
}

/// The field and fleet, as the lobby's words say them.
fn field_words(lang: Lang, r: &Ruleset) -> String {
    super::render::field_words(lang, r)
}

fn salvo_words(lang: Lang, salvo: Option<u8>) -> String {
    match salvo {
        None => t(lang, "settings-salvo-off"),
        Some(n) => ta(lang, "settings-salvo-shots", &[("shots", n.into())]),
    }
}

fn mines_words(lang: Lang, n: u8) -> String {
    ta(lang, "settings-mines", &[("mines", n.into())])
}

fn players_words(lang: Lang, p: Players) -> String {
    match p {
        Players::Duel => t(lang, "settings-players-duel"),
        Players::FreeForAll(n) => ta(lang, "settings-players-ffa", &[("players", n.into())]),
        Players::Teams => t(lang, "settings-players-teams"),
    }
}

fn timer_words(lang: Lang, timer: TurnTimer) -> String {
    match timer.seconds() {
        Some(s) => ta(
            lang,
            "rules-timer",
            &[("minutes", ((s / 60) as i64).into())],
        ),
        None => t(lang, "rules-no-timer"),
    }
}

fn letters(a: Alphabet) -> String {
    a.columns(10).into_iter().collect()
}

/// What an op chose, in words, for the answer to the tap.
fn chosen_words(lang: Lang, op: SetOp, r: &Ruleset) -> String {
    match op {
        SetOp::Touching(t) => touching_words(lang, t),
        SetOp::Shapes(s) => shapes_words(lang, s),
        SetOp::Field(_)
        | SetOp::Width(_)
        | SetOp::Height(_)
        | SetOp::AddShip(_)
        | SetOp::RemoveShip => field_words(lang, r),
        SetOp::Salvo(_) | SetOp::SalvoStep(_) => salvo_words(lang, r.salvo),
        SetOp::Mines(n) => mines_words(lang, n),
        SetOp::Players(p) => players_words(lang, p),
        SetOp::Timer(t) => timer_words(lang, t),
        SetOp::Alphabet(a) => letters(a),
        SetOp::Level(l) => super::ai::level_words(lang, l),
        SetOp::Page(_) | SetOp::Swap(_) | SetOp::Done => String::new(),
    }
}

/// An answer fits Telegram's 200 characters.
fn short(text: String) -> String {
    if text.chars().count() <= 200 {
        text
    } else {
        let mut s: String = text.chars().take(199).collect();
        s.push('…');
        s
    }
}

// ---- the panel ----------------------------------------------------------------------------

/// What the panel shows.
#[derive(Clone, Debug)]
pub struct PanelView<'a> {
    /// Whose settings the buttons change.
    pub panel: Panel,
    /// The page shown.
    pub page: SettingsPage,
    /// The ruleset now.
    pub ruleset: &'a Ruleset,
    /// The column letters now.
    pub alphabet: Alphabet,
    /// The bot's level now.
    pub level: Level,
    /// Players seated (a lobby), for the seat swaps.
    pub seated: usize,
    /// A private chat: a duel against the bot only, so no players option.
    pub private: bool,
}

fn button(label: String, b: Button) -> InlineKeyboardButton {
    InlineKeyboardButton::callback(label, b.to_string())
}

fn mark(label: String, on: bool) -> String {
    if on {
        format!("✓ {label}")
    } else {
        label
    }
}

/// The panel's rows for a page: every row within Telegram's 8 buttons, all within 100.
pub fn panel_rows(lang: Lang, v: &PanelView) -> Vec<Vec<InlineKeyboardButton>> {
    let r = v.ruleset;
    let set = |op: SetOp| Button::Set(v.panel, op);
    let choice = |label: String, on: bool, op: SetOp| vec![button(mark(label, on), set(op))];
    let back = vec![button(
        t(lang, "settings-back"),
        set(SetOp::Page(SettingsPage::Main)),
    )];
    let mut rows = Vec::new();
    match v.page {
        SettingsPage::Main => {
            let option = |key: &str, value: String, page: SettingsPage| {
                let label = ta(
                    lang,
                    "settings-option",
                    &[("option", t(lang, key).into()), ("value", value.into())],
                );
                vec![button(label, set(SetOp::Page(page)))]
            };
            rows.push(option(
                "settings-opt-field",
                field_words(lang, r),
                SettingsPage::Field,
            ));
            rows.push(option(
                "settings-opt-touching",
                touching_words(lang, r.touching()),
                SettingsPage::Touching,
            ));
            rows.push(option(
                "settings-opt-shapes",
                shapes_words(lang, r.shapes()),
                SettingsPage::Shapes,
            ));
            rows.push(option(
                "settings-opt-salvo",
                salvo_words(lang, r.salvo),
                SettingsPage::Salvo,
            ));
            rows.push(option(
                "settings-opt-mines",
                mines_words(lang, r.mines),
                SettingsPage::Mines,
            ));
            if !v.private {
                rows.push(option(
                    "settings-opt-players",
                    players_words(lang, r.players),
                    SettingsPage::Players,
                ));
            }
            rows.push(option(
                "settings-opt-timer",
                timer_words(lang, r.timer),
                SettingsPage::Timer,
            ));
            let alphabets: Vec<InlineKeyboardButton> = Alphabet::ALL
                .iter()
                .map(|&a| {
                    let b = match v.panel {
                        Panel::Chat => Button::Alphabet(a),
                        Panel::Lobby(..) => set(SetOp::Alphabet(a)),
                    };
                    button(mark(letters(a), a == v.alphabet), b)
                })
                .collect();
            rows.extend(alphabets.chunks(2).map(<[_]>::to_vec));
            rows.push(
                Level::ALL
                    .iter()
                    .map(|&l| {
                        let b = match v.panel {
                            Panel::Chat => Button::AiLevel(l),
                            Panel::Lobby(..) => set(SetOp::Level(l)),
                        };
                        button(mark(super::ai::level_words(lang, l), l == v.level), b)
                    })
                    .collect(),
            );
            if matches!(v.panel, Panel::Lobby(..)) && v.seated >= 2 {
                rows.push(
                    (0..v.seated - 1)
                        .map(|i| {
                            let label = ta(
                                lang,
                                "settings-swap",
                                &[("a", (i + 1).into()), ("b", (i + 2).into())],
                            );
                            button(label, set(SetOp::Swap(i as u8)))
                        })
                        .collect(),
                );
            }
            rows.push(vec![button(t(lang, "settings-done"), set(SetOp::Done))]);
            return rows;
        }
        SettingsPage::Touching => {
            for tc in [Touching::None, Touching::Corners, Touching::Any] {
                rows.push(choice(
                    touching_words(lang, tc),
                    r.touching() == tc,
                    SetOp::Touching(tc),
                ));
            }
        }
        SettingsPage::Shapes => {
            for s in [Shapes::Straight, Shapes::Bent, Shapes::Free] {
                rows.push(choice(
                    shapes_words(lang, s),
                    r.shapes() == s,
                    SetOp::Shapes(s),
                ));
            }
        }
        SettingsPage::Field => {
            let custom = matches!(r.field, Field::Custom { .. });
            let preset = |key: &str, on: bool, c: FieldChoice| {
                button(mark(t(lang, key), on), set(SetOp::Field(c)))
            };
            rows.push(vec![
                preset(
                    "settings-field-classic",
                    r.field == Field::Classic,
                    FieldChoice::Classic,
                ),
                preset(
                    "settings-field-big",
                    r.field == Field::Big,
                    FieldChoice::Big,
                ),
            ]);
            rows.push(vec![
                preset(
                    "settings-field-land-sea-air",
                    r.field == Field::LandSeaAir,
                    FieldChoice::LandSeaAir,
                ),
                preset("settings-field-custom", custom, FieldChoice::Custom),
            ]);
            if custom {
                let size = r.size();
                let noop = |label: String| button(label, Button::Noop);
                rows.push(vec![
                    button(t(lang, "settings-width-minus"), set(SetOp::Width(false))),
                    noop(ta(lang, "settings-width", &[("width", size.width.into())])),
                    button(t(lang, "settings-width-plus"), set(SetOp::Width(true))),
                ]);
                rows.push(vec![
                    button(t(lang, "settings-height-minus"), set(SetOp::Height(false))),
                    noop(ta(
                        lang,
                        "settings-height",
                        &[("height", size.height.into())],
                    )),
                    button(t(lang, "settings-height-plus"), set(SetOp::Height(true))),
                ]);
                rows.push(
                    (1..=5u8)
                        .map(|n| {
                            let label = ta(lang, "settings-add-ship", &[("size", n.into())]);
                            button(label, set(SetOp::AddShip(n)))
                        })
                        .collect(),
                );
                rows.push(vec![button(
                    t(lang, "settings-remove-ship"),
                    set(SetOp::RemoveShip),
                )]);
            }
        }
        SettingsPage::Salvo => {
            rows.push(choice(
                t(lang, "settings-salvo-off"),
                r.salvo.is_none(),
                SetOp::Salvo(None),
            ));
            match r.salvo {
                None => rows.push(choice(
                    salvo_words(lang, Some(3)),
                    false,
                    SetOp::Salvo(Some(3)),
                )),
                Some(n) => rows.push(vec![
                    button(t(lang, "settings-minus"), set(SetOp::SalvoStep(false))),
                    button(mark(salvo_words(lang, Some(n)), true), Button::Noop),
                    button(t(lang, "settings-plus"), set(SetOp::SalvoStep(true))),
                ]),
            }
        }
        SettingsPage::Mines => {
            for n in 0..=2 {
                rows.push(choice(mines_words(lang, n), r.mines == n, SetOp::Mines(n)));
            }
        }
        SettingsPage::Players => {
            for p in [
                Players::Duel,
                Players::FreeForAll(3),
                Players::FreeForAll(4),
                Players::Teams,
            ] {
                rows.push(choice(
                    players_words(lang, p),
                    r.players == p,
                    SetOp::Players(p),
                ));
            }
        }
        SettingsPage::Timer => {
            for tm in [
                TurnTimer::Off,
                TurnTimer::OneMinute,
                TurnTimer::ThreeMinutes,
                TurnTimer::TenMinutes,
            ] {
                rows.push(choice(
                    timer_words(lang, tm),
                    r.timer == tm,
                    SetOp::Timer(tm),
                ));
            }
        }
    }
    rows.push(back);
    rows
}

/// Lines under the panel: the column letters, the bot's level, and a hint for the page.
fn panel_lines(lang: Lang, v: &PanelView) -> String {
    let mut text = format!(
        "{}\n{}",
        ta(
            lang,
            "settings-columns",
            &[("letters", letters(v.alphabet).into())]
        ),
        ta(
            lang,
            "settings-bot-level",
            &[("level", super::ai::level_words(lang, v.level).into())]
        ),
    );
    let hint = match v.page {
        SettingsPage::Main => Some("settings-hint-main"),
        SettingsPage::Field if matches!(v.ruleset.field, Field::Custom { .. }) => {
            Some("settings-hint-custom")
        }
        _ => None,
    };
    if let Some(key) = hint {
        text.push_str(&format!("\n\n{}", t(lang, key)));
    }
    text
}

/// The lobby message's settings part while the creator has the panel open: the lines for
/// its text and the rows for its keyboard.
pub fn lobby_panel(
    rec: &GameRecord,
    id: GameId,
) -> Option<(String, Vec<Vec<InlineKeyboardButton>>)> {
    let page = rec.panel?;
    if *rec.game.phase() != Phase::Lobby {
        return None;
    }
    let v = PanelView {
        panel: Panel::Lobby(id, rec.generation),
        page,
        ruleset: rec.game.ruleset(),
        alphabet: rec.alphabet,
        level: rec.ai_level,
        seated: rec.game.seats().len(),
        private: false,
    };
    let text = format!(
        "{}\n{}",
        t(rec.lang, "settings-lobby-open"),
        super::render::escape(&panel_lines(rec.lang, &v))
    );
    Some((text, panel_rows(rec.lang, &v)))
}

/// The lobby's ⚙ button, which opens the panel.
pub fn open_button(rec: &GameRecord, id: GameId) -> InlineKeyboardButton {
    button(
        t(rec.lang, "settings-open"),
        Button::Set(
            Panel::Lobby(id, rec.generation),
            SetOp::Page(SettingsPage::Main),
        ),
    )
}

/// The seated players' lines of the lobby, by team in a game of teams.
pub fn team_lines(rec: &GameRecord, line: impl Fn(usize) -> String) -> String {
    let mut text = String::new();
    if rec.game.ruleset().players != Players::Teams {
        for i in 0..rec.names.len() {
            text.push_str(&format!("\n{}", line(i)));
        }
        return text;
    }
    for (team, key) in [(0, "settings-team-a"), (1, "settings-team-b")] {
        text.push_str(&format!("\n{}", t(rec.lang, key)));
        for i in (team..rec.names.len()).step_by(2) {
            text.push_str(&format!("\n{}", line(i)));
        }
    }
    text
}

// ---- handlers -----------------------------------------------------------------------------

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
        if rec.generation != generation || *rec.game.phase() != Phase::Lobby {
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
                if r.generation != generation || *r.game.phase() != Phase::Lobby {
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
        super::group::redraw(ctx, id, rec.chat).await;
        return Ok(());
    }
    answer(ctx, q, t(lang, "error-busy"), true).await
}

/// One op on a lobby's record, the new ruleset already checked.
fn apply_to_lobby(r: &mut GameRecord, op: SetOp, checked: Option<&Ruleset>) -> Result<(), Refusal> {
    let page = r.panel.unwrap_or(SettingsPage::Main);
    match op {
        SetOp::Done => {
            r.panel = None;
            return Ok(());
        }
        SetOp::Alphabet(a) => r.alphabet = a,
        SetOp::Level(l) => {
            r.ai_level = l;
            let lang = r.lang;
            for (seat, name) in r.game.seats().iter().zip(r.names.iter_mut()) {
                if is_ai(seat.player) {
                    *name = super::ai::name(lang, l);
                }
            }
        }
        SetOp::Swap(i) => {
            let (a, b) = (engine::SeatId(i), engine::SeatId(i.saturating_add(1)));
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
            r.game
                .apply(Action::Swap(a, b), now(), &mut rng)
                .map_err(|_| Refusal::new("error-out-of-date"))?;
            r.names.swap(a.index(), b.index());
        }
        _ => {
            if let Some(new) = checked {
                reseat(r, new.clone())?;
            }
        }
    }
    r.panel = Some(page_after(op, page));
    Ok(())
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
) -> Result<(String, InlineKeyboardMarkup), StoreError> {
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
            .unwrap_or_else(|| super::lobby::default_alphabet(lang)),
        level,
        seated: 0,
        private,
    };
    let text = format!(
        "<b>{}</b>\n{}\n{}\n\n{}",
        t(lang, "settings-title"),
        t(lang, "settings-next-games"),
        super::render::escape(&super::render::ruleset_words(lang, &s.ruleset)),
        super::render::escape(&panel_lines(lang, &v)),
    );
    Ok((text, InlineKeyboardMarkup::new(panel_rows(lang, &v))))
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
            return super::group::edit_live(ctx, msg.chat.id, msg.id, text, None).await;
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
    super::group::edit_live(ctx, chat, message, text, Some(kb)).await
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
        let game = match super::lobby::active_game(ctx, chat).await {
            Ok(g) => g,
            Err(e) => {
                return super::commands::reply(ctx, msg, t(lang, super::store_error_key(&e))).await
            }
        };
        if let Some((id, rec)) = game.filter(|(_, r)| *r.game.phase() == Phase::Lobby) {
            if user.id.0 != rec.creator {
                return super::commands::reply(ctx, msg, t(lang, "settings-lobby-creator-only"))
                    .await;
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
                super::group::redraw(ctx, id, chat).await;
                return super::commands::reply(ctx, msg, t(lang, "settings-in-lobby")).await;
            }
        }
    }
    let (text, kb) = match chat_panel(ctx, chat, user, SettingsPage::Main).await {
        Ok(p) => p,
        Err(e) => {
            return super::commands::reply(ctx, msg, t(lang, super::store_error_key(&e))).await
        }
    };
    super::pace(ctx, msg.chat.id).await;
    ctx.bot
        .send_message(msg.chat.id, text)
        .parse_mode(ParseMode::Html)
        .reply_markup(kb)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telegram::render::{MAX_BUTTONS, MAX_ROW};

    fn custom(w: u8, h: u8, ships: &[u8]) -> Ruleset {
        Ruleset {
            field: Field::Custom {
                size: Size::new(w, h),
                ships: ships.to_vec(),
            },
            ..Ruleset::default()
        }
    }

    #[test]
    fn every_page_of_every_panel_keeps_within_telegrams_limits() {
        let rulesets = [
            Ruleset::default(),
            Ruleset::land_sea_air(),
            Ruleset {
                salvo: Some(10),
                mines: 2,
                players: Players::Teams,
                ..custom(26, 26, &[5; 30])
            },
        ];
        for lang in Lang::ALL {
            for r in &rulesets {
                for page in SettingsPage::ALL {
                    for panel in [Panel::Chat, Panel::Lobby(GameId(u64::MAX), u32::MAX)] {
                        let v = PanelView {
                            panel,
                            page,
                            ruleset: r,
                            alphabet: Alphabet::Respublika,
                            level: Level::Hard,
                            seated: 4,
                            private: false,
                        };
                        let rows = panel_rows(lang, &v);
                        // The lobby's Join, Start, Cancel row comes on top.
                        let total: usize = rows.iter().map(Vec::len).sum::<usize>() + 3;
                        assert!(total <= MAX_BUTTONS, "{page:?}: {total} buttons");
                        for row in &rows {
                            assert!(!row.is_empty() && row.len() <= MAX_ROW, "{page:?}");
                            for b in row {
                                assert!(!b.text.trim().is_empty(), "{page:?}: an empty label");
                                if let teloxide::types::InlineKeyboardButtonKind::CallbackData(d) =
                                    &b.kind
                                {
                                    assert!(d.len() <= super::super::callback::MAX_LEN);
                                    assert!(Button::parse(d).is_some(), "{d}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_custom_field_starts_from_the_current_size_and_fleet_and_edits_by_steps() {
        let r = changed(&Ruleset::default(), SetOp::Field(FieldChoice::Custom))
            .unwrap()
            .unwrap();
        assert_eq!(
            r.field,
            custom(10, 10, &[4, 3, 3, 2, 2, 2, 1, 1, 1, 1]).field
        );
        let r = changed(&r, SetOp::Width(false)).unwrap().unwrap();
        let r = changed(&r, SetOp::Height(true)).unwrap().unwrap();
        let r = changed(&r, SetOp::RemoveShip).unwrap().unwrap();
        let r = changed(&r, SetOp::AddShip(5)).unwrap().unwrap();
        assert_eq!(
            r.field,
            custom(9, 11, &[4, 3, 3, 2, 2, 2, 1, 1, 1, 5]).field
        );
        assert_eq!(r.check(), Ok(()));
        assert!(changed(&Ruleset::default(), SetOp::Width(true)).is_err());
    }

    #[test]
    fn out_of_range_values_are_refused_by_the_check_with_a_reason() {
        let narrow = changed(&custom(5, 5, &[2]), SetOp::Width(false))
            .unwrap()
            .unwrap();
        let e = narrow.check().unwrap_err();
        assert!(Refusal::from(&e).words(Lang::En).contains("from 5 to 26"));
        let salvo = Ruleset {
            salvo: Some(10),
            ..Ruleset::default()
        };
        let more = changed(&salvo, SetOp::SalvoStep(true)).unwrap().unwrap();
        assert_eq!(more.check(), Err(RulesetError::SalvoOutOfRange(11)));
        let full = changed(&custom(5, 5, &[5, 5, 5]), SetOp::AddShip(5))
            .unwrap()
            .unwrap();
        let e = full.check().unwrap_err();
        assert_eq!(e, RulesetError::NoLegalLayout);
        assert!(Refusal::from(&e)
            .words(Lang::Ru)
            .contains("Допустимой расстановки нет"));
        assert!(changed(&Ruleset::land_sea_air(), SetOp::Touching(Touching::Any)).is_err());
    }

    #[test]
    fn a_new_ruleset_reseats_the_players_in_order_or_is_refused_when_they_do_not_fit() {
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
        let four = Ruleset {
            players: Players::FreeForAll(4),
            ..Ruleset::default()
        };
        let mut rec = GameRecord::new(Game::new(four), -1, 0);
        for p in [7, 8, crate::record::ai_player(0).0] {
            rec.game
                .apply(Action::Join(engine::PlayerId(p)), 0, &mut rng)
                .unwrap();
        }
        let teams = Ruleset {
            players: Players::Teams,
            ..Ruleset::big()
        };
        reseat(&mut rec, teams.clone()).unwrap();
        assert_eq!(rec.game.ruleset(), &teams);
        let seated: Vec<u64> = rec.game.seats().iter().map(|s| s.player.0).collect();
        assert_eq!(seated, vec![7, 8, crate::record::ai_player(0).0]);
        let refused = reseat(&mut rec, Ruleset::default()).unwrap_err();
        assert_eq!(
            refused.words(Lang::En),
            "3 players are seated, but this game has 2 seats."
        );
        assert_eq!(rec.game.ruleset(), &teams);
    }

    #[test]
    fn the_lobby_words_name_every_option_that_is_not_classic() {
        let r = Ruleset {
            touching: Touching::Corners,
            shapes: Shapes::Bent,
            salvo: Some(3),
            mines: 1,
            players: Players::FreeForAll(4),
            ..custom(8, 8, &[4, 3, 1])
        };
        assert_eq!(
            super::super::render::ruleset_words(Lang::En, &r),
            "custom 8×8, 3 ships (fleet 4·3·1), ships may touch at corners, ships may bend \
             (L, square, zigzag), salvoes of 3 shots, 1 mine each, free-for-all of 4 players, \
             3 minutes a turn"
        );
        let teams = Ruleset {
            players: Players::Teams,
            mines: 2,
            ..Ruleset::default()
        };
        assert_eq!(
            super::super::render::ruleset_words(Lang::Ru, &teams),
            "классика 10×10, 10 кораблей, корабли не касаются, по 2 мины у каждого, \
             две команды по два игрока, 3 минуты на ход"
        );
    }
}
