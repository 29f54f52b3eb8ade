//! The battle log: what each event says, who used a weapon, a torpedo's arrow, a salvo's tail.

use super::*;
use crate::view::i18n::ta;
use engine::{Event, Kind};

/// What one event says in the battle log; `None` for events the log does not show. With
/// `aimed` (games of more than two fields) a shot names the field it went to.
pub fn log_line(
    lang: Lang,
    e: &Event,
    names: &[String],
    alphabet: Alphabet,
    size: Size,
    aimed: bool,
) -> Option<String> {
    let name = |s: engine::SeatId| escape(names.get(s.index()).map_or("?", String::as_str));
    let cell = |c: Coord| cell_name(c, alphabet, size);
    Some(match e {
        Event::Shot {
            shooter,
            target,
            cell: c,
            result,
        } => ta(
            lang,
            if aimed {
                "battle-log-shot-at"
            } else {
                "log-shot"
            },
            &[
                ("name", name(*shooter).into()),
                ("target", name(*target).into()),
                ("cell", cell(*c).into()),
                ("result", result_words(lang, *result).into()),
            ],
        ),
        Event::Salvo {
            shooter,
            target,
            shots,
            hits,
            mines,
            sunk,
        } => ta(
            lang,
            "salvo-log",
            &[
                ("name", name(*shooter).into()),
                ("target", name(*target).into()),
                ("shots", (*shots).into()),
                ("hits", (*hits).into()),
                ("rest", salvo_rest(lang, *mines, sunk).into()),
            ],
        ),
        Event::MineChoice {
            seat, remaining, ..
        } => ta(
            lang,
            "mine-log-choice",
            &[
                ("name", name(*seat).into()),
                ("count", (*remaining).into()),
                ("seconds", (engine::MINE_CHOICE_SECONDS as i64).into()),
            ],
        ),
        Event::GaveUp {
            seat,
            cell: c,
            result,
            timed_out,
        } => ta(
            lang,
            if *timed_out {
                "mine-log-random"
            } else {
                "log-gave-up"
            },
            &[
                ("name", name(*seat).into()),
                ("cell", cell(*c).into()),
                ("result", result_words(lang, *result).into()),
            ],
        ),
        Event::Radar {
            shooter,
            target,
            center,
            count,
        } => ta(
            lang,
            "weapon-log-radar",
            &[
                (
                    "who",
                    who(lang, name(*shooter), name(*target), aimed).into(),
                ),
                ("cell", cell(*center).into()),
                ("count", (*count).into()),
            ],
        ),
        Event::AirStrike {
            shooter,
            target,
            center,
            cells,
        } => {
            let parts: Vec<String> = cells
                .iter()
                .map(|&(c, r)| {
                    ta(
                        lang,
                        "log-shot-part",
                        &[
                            ("cell", cell(c).into()),
                            ("result", result_words(lang, r).into()),
                        ],
                    )
                })
                .collect();
            ta(
                lang,
                "weapon-log-air-strike",
                &[
                    (
                        "who",
                        who(lang, name(*shooter), name(*target), aimed).into(),
                    ),
                    ("cell", cell(*center).into()),
                    ("cells", parts.join("; ").into()),
                ],
            )
        }
        Event::Torpedo {
            shooter,
            target,
            from,
            heading,
            hit,
            ..
        } => {
            let end = match hit {
                Some((c, r)) => ta(
                    lang,
                    "log-shot-part",
                    &[
                        ("cell", cell(*c).into()),
                        ("result", result_words(lang, *r).into()),
                    ],
                ),
                None => t(lang, "weapon-torpedo-out"),
            };
            ta(
                lang,
                "weapon-log-torpedo",
                &[
                    (
                        "who",
                        who(lang, name(*shooter), name(*target), aimed).into(),
                    ),
                    ("cell", cell(*from).into()),
                    ("arrow", arrow(*heading).into()),
                    ("end", end.into()),
                ],
            )
        }
        Event::Surrendered(s) => ta(lang, "log-surrendered", &[("name", name(*s).into())]),
        Event::Forfeit(s) => ta(lang, "log-forfeit", &[("name", name(*s).into())]),
        Event::Eliminated(s) => ta(lang, "log-eliminated", &[("name", name(*s).into())]),
        Event::Reminder(s) => ta(lang, "log-reminder", &[("name", name(*s).into())]),
        _ => return None,
    })
}

/// Who used a weapon: the name, and in games of more fields the field it went to.
fn who(lang: Lang, name: String, target: String, aimed: bool) -> String {
    if aimed {
        ta(
            lang,
            "weapon-who-at",
            &[("name", name.into()), ("target", target.into())],
        )
    } else {
        name
    }
}

/// A torpedo's heading as an arrow.
pub fn arrow(h: engine::Heading) -> &'static str {
    match h {
        engine::Heading::East => "→",
        engine::Heading::West => "←",
        engine::Heading::South => "↓",
        engine::Heading::North => "↑",
    }
}

/// The tail of a salvo's report: the kinds sunk and the mines hit, never a cell.
pub fn salvo_rest(lang: Lang, mines: u8, sunk: &[Kind]) -> String {
    let mut rest = String::new();
    if !sunk.is_empty() {
        let ships: Vec<String> = sunk.iter().map(|&k| kind_name(lang, k)).collect();
        rest.push_str(&ta(
            lang,
            "salvo-log-sunk",
            &[("ships", ships.join(", ").into())],
        ));
    }
    if mines > 0 {
        rest.push_str(&ta(lang, "salvo-log-mines", &[("mines", mines.into())]));
    }
    rest
}
