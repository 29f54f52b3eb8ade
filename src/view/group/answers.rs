//! The answers to a press (a shot, a cell, a target field), shown to the one who pressed.

use super::*;

/// The most characters of a name in an answer to a button (Telegram takes 200 in all).
pub const NAME_IN_ANSWER: usize = 32;

/// The words for the shooter's answer; in games of more than two fields, a fleet it sank
/// is named too, so the shooter turns to another field.
pub fn shot_answer(lang: Lang, rec: &GameRecord, events: &[Event]) -> String {
    let size = rec.game.ruleset().size();
    let mut out = String::new();
    for e in events {
        match e {
            Event::Shot {
                shooter,
                target,
                cell,
                result,
            } => {
                // The shot that sank the last fleet shoots no more.
                let won = events.iter().any(
                    |e| matches!(e, Event::Finished { winners, .. } if winners.contains(shooter)),
                );
                let key = match result {
                    ShotResult::Miss => "answer-miss",
                    ShotResult::Hit => "answer-hit",
                    ShotResult::Sunk(_) if won => "answer-sunk-won",
                    ShotResult::Sunk(_) => "answer-sunk",
                    ShotResult::Mine => "answer-mine",
                };
                let ship = match result {
                    ShotResult::Sunk(k) => render::kind_name(lang, *k),
                    _ => String::new(),
                };
                let cell = render::cell_name(*cell, rec.alphabet, size);
                out = ta(lang, key, &[("cell", cell.into()), ("ship", ship.into())]);
                if is_aimed(rec) {
                    let name = rec.short_name(*target, NAME_IN_ANSWER);
                    out = ta(
                        lang,
                        "battle-answer-at",
                        &[("target", name.into()), ("answer", out.into())],
                    );
                }
            }
            Event::Salvo {
                hits, mines, sunk, ..
            } => {
                out = ta(
                    lang,
                    if *mines > 0 {
                        "salvo-answer-mine"
                    } else {
                        "salvo-answer"
                    },
                    &[
                        ("hits", (*hits).into()),
                        ("mines", (*mines).into()),
                        ("rest", render::salvo_rest(lang, *mines, sunk).into()),
                    ],
                );
            }
            Event::Radar { .. } | Event::AirStrike { .. } | Event::Torpedo { .. } => {
                let names: Vec<String> = (0..rec.names.len())
                    .map(|i| rec.short_name(SeatId(i as u8), NAME_IN_ANSWER))
                    .collect();
                if let Some(line) =
                    render::log_line(lang, e, &names, rec.alphabet, size, is_aimed(rec))
                {
                    out = render::unescape(&line);
                }
            }
            Event::Eliminated(s) if is_aimed(rec) && !out.is_empty() => {
                let name = rec.short_name(*s, NAME_IN_ANSWER);
                out.push(' ');
                out.push_str(&ta(lang, "battle-eliminated", &[("name", name.into())]));
            }
            _ => {}
        }
    }
    out
}

/// The words for a cell button's answer: the shot's, or the salvo's cells picked so far.
pub fn cell_answer(lang: Lang, rec: &GameRecord, done: &Cell) -> String {
    let (alphabet, size) = (rec.alphabet, rec.game.ruleset().size());
    let name = |c: Coord| render::cell_name(c, alphabet, size);
    match done {
        Cell::Shot(events) => shot_answer(lang, rec, events),
        Cell::Corner(c) => ta(lang, "torpedo-choose-heading", &[("cell", name(*c).into())]),
        Cell::Picked(Picked::Added(cells, total)) => {
            let names: Vec<String> = cells.iter().map(|&c| name(c)).collect();
            ta(
                lang,
                "salvo-picked",
                &[
                    ("cells", names.join(" ").into()),
                    ("picked", cells.len().into()),
                    ("total", (*total).into()),
                ],
            )
        }
        Cell::Picked(Picked::Dropped(c, picked, total)) => ta(
            lang,
            "salvo-unpicked",
            &[
                ("cell", name(*c).into()),
                ("picked", (*picked).into()),
                ("total", (*total).into()),
            ],
        ),
    }
}

/// The words for a field's button: the field aimed at.
pub fn target_answer(lang: Lang, rec: &GameRecord, target: SeatId) -> String {
    let name = rec.short_name(target, NAME_IN_ANSWER);
    ta(lang, "battle-target-chosen", &[("name", name.into())])
}
