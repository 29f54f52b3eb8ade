//! The settings' transitions: what one tap of the panel changes (the ruleset after an op,
//! the page after it, the lobby's players seated again under new rules, a chat's defaults),
//! and the choices of `/lang` and the like.

pub use super::refused::Refusal;
use super::refused::Refused;
use crate::game::lang::Lang;
use crate::game::record::Play;
use crate::game::record::{is_ai, Board, ChatSettings, GameRecord, SettingsPage, UserSettings};
use engine::ai::Level;
use engine::{
    Action, Field, Game, Kind, Phase, PlayerId, Players, Ruleset, Shapes, Size, Touching, TurnTimer,
};

/// What one button of the settings panel does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetOp {
    /// Show a page.
    Page(SettingsPage),
    /// Which ships may touch.
    Touching(Touching),
    /// Ship shapes.
    Shapes(Shapes),
    /// A field preset, or a custom field starting from the current size and fleet.
    Field(FieldChoice),
    /// The custom field one column narrower (`false`) or wider (`true`).
    Width(bool),
    /// The custom field one row lower (`false`) or higher (`true`).
    Height(bool),
    /// A ship of this size added to the custom fleet.
    AddShip(u8),
    /// The custom fleet's last ship removed.
    RemoveShip,
    /// Salvo off (`None`) or of this many shots.
    Salvo(Option<u8>),
    /// The salvo one shot smaller (`false`) or larger (`true`).
    SalvoStep(bool),
    /// Mines per player.
    Mines(u8),
    /// The arsenal: how many of each weapon (0: none; docs/rules.md §3.8).
    Arsenal(u8),
    /// Who plays.
    Players(Players),
    /// The turn timer.
    Timer(TurnTimer),
    /// The column letters.
    Alphabet(engine::Alphabet),
    /// How well the bot plays.
    Level(engine::ai::Level),
    /// How the chat sees the fields.
    Board(Board),
    /// The seated players at this seat and the next change places (lobby).
    Swap(u8),
    /// A forum: each new game in a topic of its own (on), or where it is started (off).
    OwnTopics(bool),
    /// Close the panel.
    Done,
}

/// A field as the panel offers it: the presets, or custom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldChoice {
    /// 10×10.
    Classic,
    /// 15×15.
    Big,
    /// 20×15 with land, sea and air.
    LandSeaAir,
    /// Any size and fleet.
    Custom,
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
            return Err(Refusal::LandSeaAir)
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
                return Err(Refusal::NotCustom);
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
                return Err(Refusal::SalvoOff);
            };
            n.salvo = Some(step(v, up));
        }
        SetOp::Mines(m) => n.mines = m,
        SetOp::Arsenal(a) => n.arsenal = a,
        SetOp::Players(p) => n.players = p,
        SetOp::Timer(t) => n.timer = t,
        SetOp::Page(_)
        | SetOp::Alphabet(_)
        | SetOp::Level(_)
        | SetOp::Board(_)
        | SetOp::Swap(_)
        | SetOp::OwnTopics(_)
        | SetOp::Done => return Ok(None),
    }
    Ok(Some(n))
}

/// The page the panel shows after `op`.
pub fn page_after(op: SetOp, before: SettingsPage) -> SettingsPage {
    match op {
        SetOp::Page(p) => p,
        SetOp::Field(_)
        | SetOp::Width(_)
        | SetOp::Height(_)
        | SetOp::AddShip(_)
        | SetOp::RemoveShip => SettingsPage::Field,
        SetOp::Salvo(_) | SetOp::SalvoStep(_) => SettingsPage::Salvo,
        SetOp::Touching(_)
        | SetOp::Shapes(_)
        | SetOp::Mines(_)
        | SetOp::Arsenal(_)
        | SetOp::Players(_)
        | SetOp::Timer(_) => SettingsPage::Main,
        SetOp::Alphabet(_)
        | SetOp::Level(_)
        | SetOp::Board(_)
        | SetOp::Swap(_)
        | SetOp::OwnTopics(_)
        | SetOp::Done => before,
    }
}

/// The lobby's game under a new ruleset, with the seated players seated again in order.
///
/// # Errors
/// More players are seated than the new ruleset has seats.
pub fn reseat(rec: &mut GameRecord, ruleset: Ruleset, now: u64) -> Result<(), Refusal> {
    let seated = rec.game.seats().len();
    if seated > ruleset.seats() {
        return Err(Refusal::Seated {
            count: seated,
            seats: ruleset.seats(),
        });
    }
    let mut game = Game::new(ruleset);
    // Joining draws nothing; the source is only the engine's signature.
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
    for seat in rec.game.seats() {
        game.apply(Action::Join(seat.player), now, &mut rng)
            .map_err(|_| Refusal::OutOfDate)?;
    }
    rec.game = game;
    Ok(())
}

/// One tap of a lobby's settings panel (the lobby message, while its creator has the panel
/// open), the new ruleset already checked (`checked`, from `before`): the lobby's game under
/// the new rules, its letters, board or bot level, seats swapped, the page shown after.
/// `name` names a seat of the bot at a new level.
///
/// # Errors
/// [`Refusal::OutOfDate`] for an older panel or a game past its lobby (or a Riga lobby,
/// which keeps its rules), [`Refusal::RulesChanged`] when the rules are not `before` any
/// more, [`Refusal::Seated`] when the players do not fit; [`Refused::CreatorOnly`]
/// and [`Refused::GameOver`] as for every lobby button.
#[allow(clippy::too_many_arguments)]
pub fn change_lobby(
    r: &mut GameRecord,
    by: u64,
    generation: u32,
    before: &Ruleset,
    op: SetOp,
    checked: Option<&Ruleset>,
    name: &dyn Fn(Lang, Level, PlayerId) -> String,
    now: u64,
) -> Result<(), Refused> {
    if r.is_finished() {
        return Err(Refused::GameOver);
    }
    if r.delivery.generation != generation || !sea_battle_lobby(r) {
        return Err(Refusal::OutOfDate.into());
    }
    if by != r.creator {
        return Err(Refused::CreatorOnly);
    }
    if r.game.ruleset() != before {
        return Err(Refusal::RulesChanged.into());
    }
    let page = r.panel.unwrap_or(SettingsPage::Main);
    match op {
        // A chat's option, not a game's: only on `/settings` outside a lobby.
        SetOp::OwnTopics(_) => return Err(Refusal::OutOfDate.into()),
        SetOp::Done => {
            r.panel = None;
            return Ok(());
        }
        SetOp::Alphabet(a) => r.alphabet = a,
        SetOp::Board(b) => r.board = b,
        SetOp::Level(l) => {
            r.ai_level = l;
            let lang = r.lang;
            for (seat, n) in r.game.seats().iter().zip(r.names.iter_mut()) {
                if is_ai(seat.player) {
                    *n = name(lang, l, seat.player);
                }
            }
        }
        SetOp::Swap(i) => {
            let (a, b) = (engine::SeatId(i), engine::SeatId(i.saturating_add(1)));
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
            r.game
                .apply(Action::Swap(a, b), now, &mut rng)
                .map_err(|_| Refusal::OutOfDate)?;
            r.names.swap(a.index(), b.index());
        }
        _ => {
            if let Some(new) = checked {
                reseat(r, new.clone(), now)?;
            }
        }
    }
    r.panel = Some(page_after(op, page));
    Ok(())
}

/// Whether `r` is a Sea Battle game in its lobby: the one game whose rules the panel sets
/// (a Riga lobby keeps only the chat's turn timer).
fn sea_battle_lobby(r: &GameRecord) -> bool {
    match r.play {
        Play::SeaBattle(_) => *r.game.phase() == Phase::Lobby,
        Play::Riga(_) => false,
    }
}

/// `/settings` in a group with an open Sea Battle lobby: the lobby message shows the panel.
///
/// # Errors
/// [`Refused::CreatorOnly`], [`Refusal::OutOfDate`] past the lobby.
pub fn open_panel(r: &mut GameRecord, by: u64) -> Result<(), Refused> {
    if !sea_battle_lobby(r) {
        return Err(Refusal::OutOfDate.into());
    }
    if by != r.creator {
        return Err(Refused::CreatorOnly);
    }
    r.panel = Some(SettingsPage::Main);
    Ok(())
}

/// A lobby's choice becomes the chat's default for its next games: its rules, and the
/// letters, board or level the op chose.
pub fn lobby_defaults(s: &mut ChatSettings, rec: &GameRecord, op: SetOp) {
    if matches!(op, SetOp::Page(_) | SetOp::Done | SetOp::Swap(_)) {
        return;
    }
    s.ruleset = rec.game.ruleset().clone();
    choose_op(s, op);
}

/// The letters, board or level an op chose, in a chat's settings.
fn choose_op(s: &mut ChatSettings, op: SetOp) {
    match op {
        SetOp::Alphabet(a) => s.alphabet = Some(a),
        SetOp::Level(l) => s.ai_level = l,
        SetOp::Board(b) => s.board = Some(b),
        SetOp::OwnTopics(on) => s.own_topics = on,
        _ => {}
    }
}

/// One tap of a chat's settings panel (`/settings` outside a lobby), the new ruleset
/// already checked: the chat's defaults for its next games.
///
/// # Errors
/// [`Refusal::OutOfDate`] for a seat swap (only a lobby has seats), [`Refusal::Private`] for
/// more than two players in a private chat.
pub fn change_chat(
    s: &mut ChatSettings,
    op: SetOp,
    checked: Option<Ruleset>,
    private: bool,
) -> Result<(), Refusal> {
    match op {
        SetOp::Swap(_) => return Err(Refusal::OutOfDate),
        SetOp::OwnTopics(_) if private => return Err(Refusal::OutOfDate),
        SetOp::Players(p) if private && p != engine::Players::Duel => return Err(Refusal::Private),
        _ => {}
    }
    if let Some(r) = checked {
        s.ruleset = r;
    }
    choose_op(s, op);
    Ok(())
}

/// A choice of `/lang`, `/settings`' letters or the bot's level, outside the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The language.
    Lang(Lang),
    /// The column letters.
    Alphabet(engine::Alphabet),
    /// How well the bot plays.
    Level(Level),
}

/// A choice in a chat's settings.
pub fn choose(s: &mut ChatSettings, c: Choice) {
    match c {
        Choice::Lang(l) => s.lang = Some(l),
        Choice::Alphabet(a) => s.alphabet = Some(a),
        Choice::Level(l) => s.ai_level = l,
    }
}

/// A choice in a user's settings (the language, the level of their next `/play`).
pub fn choose_for_user(s: &mut UserSettings, c: Choice) {
    match c {
        Choice::Lang(l) => s.lang = Some(l),
        Choice::Level(l) => s.ai_level = l,
        Choice::Alphabet(_) => {}
    }
}

/// A user opened the private chat (the bot may write to them), with the language Telegram
/// reports for them; `false` when the settings knew it already.
pub fn started(s: &mut UserSettings, detected: Lang) -> bool {
    if s.started && s.detected == Some(detected) {
        return false;
    }
    s.started = true;
    s.detected = Some(detected);
    true
}

/// The user blocks `other` (after a quick match): never paired with them again; `false`
/// when they had blocked them already.
pub fn block(s: &mut UserSettings, other: u64) -> bool {
    if s.blocked.contains(&other) {
        return false;
    }
    s.blocked.push(other);
    true
}

/// The first game of a group fixes the group's language, until `/lang` changes it; `false`
/// when it was fixed already.
pub fn first_game(s: &mut ChatSettings, chat: i64, lang: Lang) -> bool {
    if s.lang.is_some() || chat >= 0 {
        return false;
    }
    s.lang = Some(lang);
    true
}

/// For the tests of the panel: a custom field of `w`×`h` with `ships`, else the default rules.
#[cfg(test)]
pub(crate) fn custom(w: u8, h: u8, ships: &[u8]) -> Ruleset {
    Ruleset {
        field: engine::Field::Custom {
            size: engine::Size::new(w, h),
            ships: ships.to_vec(),
        },
        ..Ruleset::default()
    }
}

#[cfg(test)]
mod tests {
    use super::custom;
    use super::*;
    use engine::{Players, RulesetError, Touching};

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
        assert!(
            crate::view::refusal::settings(Lang::En, &Refusal::Rules(e)).contains("from 5 to 26")
        );
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
        assert!(crate::view::refusal::settings(Lang::Ru, &Refusal::Rules(e))
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
        for p in [7, 8, crate::game::record::ai_player(0).0] {
            rec.game
                .apply(Action::Join(engine::PlayerId(p)), 0, &mut rng)
                .unwrap();
        }
        let teams = Ruleset {
            players: Players::Teams,
            ..Ruleset::big()
        };
        reseat(&mut rec, teams.clone(), 0).unwrap();
        assert_eq!(rec.game.ruleset(), &teams);
        let seated: Vec<u64> = rec.game.seats().iter().map(|s| s.player.0).collect();
        assert_eq!(seated, vec![7, 8, crate::game::record::ai_player(0).0]);
        let refused = reseat(&mut rec, Ruleset::default(), 0).unwrap_err();
        assert_eq!(
            crate::view::refusal::settings(Lang::En, &refused),
            "3 players are seated, but this game has 2 seats."
        );
        assert_eq!(rec.game.ruleset(), &teams);
    }
}
