//! Refusals in words: why a press, a command or a typed move changed nothing.

use super::i18n::{t, ta};
use super::render::problem_words;
use crate::game::lang::Lang;
use crate::game::settings::Refusal;
use crate::game::Refused;
use engine::{ActionError, RulesetError, MAX_SIDE, MIN_SIDE};

/// The words for a refusal.
pub fn words(lang: Lang, r: &Refused) -> String {
    let key = match r {
        Refused::Again(a) => return a.text.clone(),
        Refused::GameOver => "error-game-over",
        Refused::OutOfDate | Refused::Stale => "error-out-of-date",
        Refused::NotAPlayer => "error-not-a-player",
        Refused::CreatorOnly => "error-creator-only",
        Refused::UnknownButton => "error-unknown-button",
        Refused::WrongMessage => "error-wrong-message",
        Refused::Rules(e) => return rules(lang, e),
        Refused::BusyElsewhere => "join-busy-elsewhere",
        Refused::Full => "join-full",
        Refused::AlreadySeated => "join-already",
        Refused::NotFull(seats) => {
            return ta(lang, "start-not-full", &[("seats", (*seats).into())])
        }
        Refused::InBattle => "cancel-in-battle",
        Refused::TwoPlayersOnly => "rg-two-players",
        Refused::Locked => "editor-locked",
        Refused::IllegalFleet(problems, alphabet, size) => {
            let first: Vec<String> = problems
                .iter()
                .take(3)
                .map(|p| problem_words(lang, p, *alphabet, *size))
                .collect();
            return first.join("\n");
        }
        Refused::SalvoFull(total) => {
            return ta(lang, "salvo-too-many", &[("total", (*total).into())])
        }
        Refused::SalvoTooFew(count) => {
            return ta(lang, "salvo-too-few", &[("count", (*count).into())])
        }
        Refused::NotYourMine => "mine-not-yours",
        Refused::NotYourTurn => "shot-not-your-turn",
        Refused::RigaRules(b) => {
            let (before, mv, e) = &**b;
            return super::riga_text::move_error(lang, before, *mv, *e);
        }
        Refused::RigaNotation(e) => {
            return super::riga_text::parse_error(lang, e, &t(lang, "rg-typed-example"))
        }
        Refused::NothingToSurrender => "surrender-not-now",
        Refused::Settings(s) => return settings(lang, s),
    };
    t(lang, key)
}

/// The words for a move the engine refused.
pub fn rules(lang: Lang, e: &ActionError) -> String {
    let key = match e {
        ActionError::NotYourTurn => "shot-not-your-turn",
        ActionError::AlreadyKnown(_) => "shot-already-known",
        ActionError::GameOver => "error-game-over",
        ActionError::NotInGame => "error-not-a-player",
        ActionError::OffField(_) => "shot-off-field",
        ActionError::BadTarget => "shot-bad-target",
        ActionError::MineChoicePending => "mine-pending",
        ActionError::WrongShotKind => "battle-wrong-shot",
        ActionError::NoMineChoice => "mine-no-choice",
        ActionError::NotYourCell(_) => "mine-not-your-cell",
        ActionError::SalvoSize { expected } => {
            return ta(lang, "salvo-bad-cells", &[("count", (*expected).into())]);
        }
        ActionError::NoArsenal => "weapon-no-arsenal",
        ActionError::UsedUp(w) => {
            return ta(
                lang,
                "weapon-used-up",
                &[("weapon", weapon_name(lang, *w).into())],
            );
        }
        ActionError::NoNewCell(_) => "weapon-no-new-cell",
        ActionError::NotFromEdge(_) => "torpedo-not-from-edge",
        ActionError::NeedsHeading(_) => "torpedo-needs-heading",
        ActionError::WrongHeading(..) => "torpedo-wrong-heading",
        _ => "error-out-of-date",
    };
    t(lang, key)
}

/// A weapon of the arsenal's name (docs/rules.md §1).
pub fn weapon_name(lang: Lang, w: engine::Weapon) -> String {
    t(
        lang,
        match w {
            engine::Weapon::Radar => "weapon-radar",
            engine::Weapon::AirStrike => "weapon-air-strike",
            engine::Weapon::Torpedo => "weapon-torpedo",
        },
    )
}

/// The words for a refused setting.
pub fn settings(lang: Lang, r: &Refusal) -> String {
    let key = match r {
        Refusal::Rules(e) => match e {
            RulesetError::SideOutOfRange(_) => {
                return ta(
                    lang,
                    "settings-error-side",
                    &[("min", MIN_SIDE.into()), ("max", MAX_SIDE.into())],
                )
            }
            RulesetError::NoShips => "settings-error-no-ships",
            RulesetError::ShipSizeOutOfRange(n) => {
                return ta(lang, "settings-error-ship-size", &[("size", (*n).into())])
            }
            RulesetError::FleetTooLarge => "settings-error-fleet-too-large",
            RulesetError::SalvoOutOfRange(_) => "settings-error-salvo",
            RulesetError::MinesOutOfRange(_) => "settings-error-mines",
            RulesetError::PlayersOutOfRange(_) => "settings-error-players",
            RulesetError::NoLegalLayout => "settings-error-no-layout",
            RulesetError::ArsenalOutOfRange(_) => "settings-error-arsenal",
            RulesetError::ArsenalWithSalvo => "settings-error-arsenal-salvo",
            RulesetError::ArsenalWithTerrain => "settings-error-arsenal-terrain",
        },
        Refusal::LandSeaAir => "settings-error-land-sea-air",
        Refusal::NotCustom => "settings-error-not-custom",
        Refusal::SalvoOff => "settings-error-salvo",
        Refusal::Seated { count, seats } => {
            return ta(
                lang,
                "settings-error-seated",
                &[("count", (*count).into()), ("seats", (*seats).into())],
            )
        }
        Refusal::OutOfDate => "error-out-of-date",
        Refusal::RulesChanged => "error-busy",
        Refusal::Private => "settings-error-private",
    };
    t(lang, key)
}
