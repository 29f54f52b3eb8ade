//! The words for cells, ships, the field and the ruleset, shots' results, placement problems,
//! and turns that ask for a tap only.

use super::*;
use crate::view::i18n::{ta, Arg};
use engine::{
    format_cell, Contact, Field, Force, Kind, Players, Problem, Rule, Ruleset, Shapes, ShotResult,
    Subject, Touching,
};

/// A cell's name for people in this game.
pub fn cell_name(c: Coord, alphabet: Alphabet, size: Size) -> String {
    format_cell(c, alphabet, size)
}

/// A ship or unit's name.
pub fn kind_name(lang: Lang, kind: Kind) -> String {
    match kind {
        Kind::Ship(n @ 1..=5) => t(lang, &format!("ship-{n}")),
        Kind::Ship(n) => ta(lang, "ship-n", &[("size", n.into())]),
        Kind::Tank => t(lang, "unit-tank"),
        Kind::Battery => t(lang, "unit-battery"),
        Kind::AntiAircraft => t(lang, "unit-anti-aircraft"),
        Kind::AttackAircraft => t(lang, "unit-attack-aircraft"),
    }
}

/// The field and its fleet in words: "classic 10×10, 10 ships"; a custom fleet lists its
/// ship sizes.
pub fn field_words(lang: Lang, r: &Ruleset) -> String {
    let size = r.size();
    let ships = r.fleet().len();
    let field = match &r.field {
        Field::Classic => "rules-field-classic",
        Field::Big => "rules-field-big",
        Field::Custom { .. } => "rules-field-custom",
        Field::LandSeaAir => "rules-field-land-sea-air",
    };
    let mut words = ta(
        lang,
        field,
        &[
            ("width", size.width.into()),
            ("height", size.height.into()),
            ("ships", ships.into()),
        ],
    );
    if let Field::Custom { .. } = r.field {
        let sizes: Vec<String> = r.fleet().iter().map(|k| k.size().to_string()).collect();
        words.push_str(&format!(
            " ({})",
            ta(
                lang,
                "settings-words-fleet",
                &[("sizes", sizes.join("·").into())]
            )
        ));
    }
    words
}

/// The ruleset in words, for the lobby: the field, the touching rule, every option that is
/// not classic, and the turn timer.
pub fn ruleset_words(lang: Lang, r: &Ruleset) -> String {
    let mut parts = vec![field_words(lang, r)];
    parts.push(t(
        lang,
        match r.touching() {
            Touching::None => "rules-touching-none",
            Touching::Corners => "rules-touching-corners",
            Touching::Any => "rules-touching-any",
        },
    ));
    match r.shapes() {
        Shapes::Straight => {}
        Shapes::Bent => parts.push(t(lang, "settings-words-shapes-bent")),
        Shapes::Free => parts.push(t(lang, "settings-words-shapes-free")),
    }
    if let Some(n) = r.salvo {
        parts.push(ta(lang, "settings-words-salvo", &[("shots", n.into())]));
    }
    if r.mines > 0 {
        parts.push(ta(
            lang,
            "settings-words-mines",
            &[("mines", r.mines.into())],
        ));
    }
    match r.players {
        Players::Duel => {}
        Players::FreeForAll(n) => {
            parts.push(ta(lang, "settings-words-ffa", &[("players", n.into())]))
        }
        Players::Teams => parts.push(t(lang, "settings-words-teams")),
    }
    if r.arsenal > 0 {
        parts.push(ta(
            lang,
            "settings-words-arsenal",
            &[("count", r.arsenal.into())],
        ));
    }
    match r.timer.seconds() {
        Some(s) => parts.push(ta(
            lang,
            "rules-timer",
            &[("minutes", ((s / 60) as i64).into())],
        )),
        None => parts.push(t(lang, "rules-no-timer")),
    }
    parts.join(", ")
}

/// "мимо", "ранил", "убил (крейсер)", "мина!".
pub fn result_words(lang: Lang, r: ShotResult) -> String {
    match r {
        ShotResult::Miss => t(lang, "result-miss"),
        ShotResult::Hit => t(lang, "result-hit"),
        ShotResult::Sunk(k) => ta(lang, "result-sunk", &[("ship", kind_name(lang, k).into())]),
        ShotResult::Mine => t(lang, "result-mine"),
    }
}

/// One placement problem in words, naming the ship, the cell and the rule.
pub fn problem_words(lang: Lang, p: &Problem, alphabet: Alphabet, size: Size) -> String {
    let ship = match p.subject {
        Subject::Ship { kind, .. } | Subject::Fleet { kind } => kind_name(lang, kind),
        Subject::Mine { .. } | Subject::Mines => t(lang, "mine"),
        Subject::Border => t(lang, "border"),
    };
    let cell = p
        .cell
        .map(|c| cell_name(c, alphabet, size))
        .unwrap_or_default();
    let other = |s: Subject| match s {
        Subject::Ship { kind, .. } | Subject::Fleet { kind } => kind_name(lang, kind),
        _ => t(lang, "mine"),
    };
    let (key, extra): (&str, Vec<(&'static str, Arg)>) = match p.rule {
        Rule::OffField => ("problem-off-field", vec![]),
        Rule::WrongSize => ("problem-wrong-size", vec![]),
        Rule::NotConnected => ("problem-not-connected", vec![]),
        Rule::ShapeNotAllowed => ("problem-shape", vec![]),
        Rule::WrongTerrain(Force::Land) => ("problem-needs-land", vec![]),
        Rule::WrongTerrain(_) => ("problem-needs-sea", vec![]),
        Rule::Overlaps(o) => ("problem-overlaps", vec![("other", other(o).into())]),
        Rule::Touches(o, Contact::Corner) => {
            ("problem-touches-corner", vec![("other", other(o).into())])
        }
        Rule::Touches(o, _) => ("problem-touches-side", vec![("other", other(o).into())]),
        Rule::TooMany { expected } => ("problem-too-many", vec![("count", expected.into())]),
        Rule::Missing { count } => ("problem-missing", vec![("count", count.into())]),
        Rule::TooManyMines { expected } => {
            ("problem-too-many-mines", vec![("count", expected.into())])
        }
        Rule::MissingMines { count } => ("problem-missing-mines", vec![("count", count.into())]),
        Rule::Border(_) => ("problem-border", vec![]),
    };
    let mut args = vec![("ship", ship.into()), ("cell", cell.into())];
    args.extend(extra);
    ta(lang, key, &args)
}

/// The words of a turn that asks for a tap only (in an inline message, where the bot sees
/// no replies), for the words of `key` that offer a typed move too.
pub fn tap_key(key: &'static str) -> &'static str {
    match key {
        "battle-turn" => "battle-turn-tap",
        "battle-turn-at" => "battle-turn-at-tap",
        "salvo-turn" => "salvo-turn-tap",
        "rg-turn" => "rg-turn-tap",
        other => other,
    }
}
