//! What one tap of the panel changes: the ruleset after an op, the page after it, and the
//! lobby's players seated again under a new ruleset. Pure: no Telegram, no store.

use crate::game::lang::Lang;
use crate::game::record::{is_ai, GameRecord, SettingsPage};
use crate::view::buttons::{FieldChoice, SetOp};
use crate::view::i18n::{ta, Arg};
use engine::{Action, Field, Game, Kind, Ruleset, RulesetError, Size, MAX_SIDE, MIN_SIDE};

/// Why a change was refused, in words to come: a localisation key and its arguments.
#[derive(Clone, Debug)]
pub struct Refusal {
    key: &'static str,
    args: Vec<(&'static str, Arg)>,
}

impl Refusal {
    pub(crate) fn new(key: &'static str) -> Refusal {
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
        SetOp::Page(_)
        | SetOp::Alphabet(_)
        | SetOp::Level(_)
        | SetOp::Board(_)
        | SetOp::Swap(_)
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
        | SetOp::Players(_)
        | SetOp::Timer(_) => SettingsPage::Main,
        SetOp::Alphabet(_) | SetOp::Level(_) | SetOp::Board(_) | SetOp::Swap(_) | SetOp::Done => {
            before
        }
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
        game.apply(Action::Join(seat.player), crate::telegram::now(), &mut rng)
            .map_err(|_| Refusal::new("error-out-of-date"))?;
    }
    rec.game = game;
    Ok(())
}

/// One op on a lobby's record, the new ruleset already checked.
///
/// # Errors
/// The players do not fit the new ruleset, or the seats to swap are not taken.
pub fn apply_to_lobby(
    r: &mut GameRecord,
    op: SetOp,
    checked: Option<&Ruleset>,
) -> Result<(), Refusal> {
    let page = r.panel.unwrap_or(SettingsPage::Main);
    match op {
        SetOp::Done => {
            r.panel = None;
            return Ok(());
        }
        SetOp::Alphabet(a) => r.alphabet = a,
        SetOp::Board(b) => r.board = b,
        SetOp::Level(l) => {
            r.ai_level = l;
            let lang = r.lang;
            for (seat, name) in r.game.seats().iter().zip(r.names.iter_mut()) {
                if is_ai(seat.player) {
                    *name = crate::view::bot::name(lang, l, seat.player);
                }
            }
        }
        SetOp::Swap(i) => {
            let (a, b) = (engine::SeatId(i), engine::SeatId(i.saturating_add(1)));
            let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
            r.game
                .apply(Action::Swap(a, b), crate::telegram::now(), &mut rng)
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
    use engine::{Players, Touching};

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
        for p in [7, 8, crate::game::record::ai_player(0).0] {
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
        assert_eq!(seated, vec![7, 8, crate::game::record::ai_player(0).0]);
        let refused = reseat(&mut rec, Ruleset::default()).unwrap_err();
        assert_eq!(
            refused.words(Lang::En),
            "3 players are seated, but this game has 2 seats."
        );
        assert_eq!(rec.game.ruleset(), &teams);
    }
}
