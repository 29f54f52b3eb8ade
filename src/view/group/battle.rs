//! The battle's message: its text (the fields, the latest results, the weapons), the
//! picture's caption, and its keyboard of cells.

use super::*;
use crate::game::record::Play;

/// Buttons besides the cells in the battle keyboard: the row of target fields (free-for-all
/// and teams) and the salvo's Fire button; the block switch is counted by the viewport. From
/// the ruleset alone, so the blocks stay the same all game.
pub(super) fn battle_reserved(r: &engine::Ruleset) -> usize {
    let targets = match r.players {
        engine::Players::Duel => 0,
        engine::Players::FreeForAll(n) => usize::from(n).saturating_sub(1),
        engine::Players::Teams => 2,
    };
    // The arsenal's row: three weapons, or a torpedo's two headings from a corner.
    let arsenal = if r.arsenal > 0 { 3 } else { 0 };
    targets + usize::from(r.salvo.is_some()) + arsenal
}

/// The viewport of the battle keyboard for this game.
pub fn battle_viewport(rec: &GameRecord) -> Viewport {
    let r = rec.game.ruleset();
    Viewport::new(r.size(), battle_reserved(r))
}

/// Whether the game is anything but the classic duel: its message then explains the marks.
pub(super) fn is_variant(r: &engine::Ruleset) -> bool {
    r.salvo.is_some()
        || r.mines > 0
        || r.field != engine::Field::Classic
        || r.players != engine::Players::Duel
        || r.shapes != engine::Shapes::default()
}

/// The battle message's text: every field as the public sees it, whose turn, the latest
/// results, and the fleet commitments whole; within Telegram's 4096 characters (the largest
/// field with four players included): a burst too long to fit shows its oldest results and
/// "+N more", the rest waits for the next redraw (see [`results`]).
pub fn battle_text(rec: &GameRecord) -> String {
    battle_words(rec, true, MAX_TEXT).0
}

/// [`battle_text`] within `max` characters (a private board adds the player's own field).
pub fn battle_text_within(rec: &GameRecord, max: usize) -> String {
    battle_words(rec, true, max).0
}

/// [`battle_text`], with the results it shows.
pub fn battle_text_shown(rec: &GameRecord) -> (String, Shown) {
    battle_words(rec, true, MAX_TEXT)
}

/// The battle picture's caption: the battle message without its fields, within Telegram's
/// 1024 characters of a caption, names cut to [`NAME_IN_CAPTION`] characters so that the
/// commitments always fit whole; with the results it shows.
pub fn battle_caption(rec: &GameRecord) -> (String, Shown) {
    battle_words(rec, false, MAX_CAPTION)
}

/// Telegram's most characters in a photo's caption.
pub const MAX_CAPTION: usize = 1024;

/// The most characters of a name in a caption: with four players, the commitments, the turn
/// and a result line of the longest names take about half of the caption.
pub const NAME_IN_CAPTION: usize = 32;

/// The battle message's words, with the fields drawn as text or not, within `max` characters.
pub(super) fn battle_words(rec: &GameRecord, fields: bool, max: usize) -> (String, Shown) {
    let lang = rec.lang;
    let game = &rec.game;
    let view = game.public_view();
    // A caption cuts long names: it has a quarter of a text's room.
    let names: Vec<String> = if fields {
        rec.names.clone()
    } else {
        (0..rec.names.len())
            .map(|i| rec.short_name(SeatId(i as u8), NAME_IN_CAPTION))
            .collect()
    };
    let name = |s: SeatId| escape(names.get(s.index()).map_or("?", String::as_str));
    let teams = game.ruleset().players == engine::Players::Teams;
    // In an inline message the bot sees no replies: the turn asks for a tap only.
    let tap = |key: &'static str| match rec.inline.is_some() || rec.quick {
        true => render::tap_key(key),
        false => key,
    };
    let mut head = format!("<b>{}</b>", t(lang, "battle-title"));
    if fields && is_variant(game.ruleset()) {
        let mut legend = vec![t(lang, "battle-legend")];
        if game.ruleset().mines > 0 {
            legend.push(t(lang, "battle-legend-mine"));
        }
        if game.ruleset().salvo.is_some() {
            legend.push(t(lang, "battle-legend-salvo"));
        }
        head.push_str(&format!("\n<i>{}</i>", legend.join("  ")));
    }
    for field in view.fields.iter().filter(|_| fields) {
        let mut title = if teams {
            ta(
                lang,
                "battle-field-of-team",
                &[
                    ("name", name(field.seat).into()),
                    ("team", (field.seat.index() % 2 + 1).into()),
                ],
            )
        } else {
            ta(
                lang,
                "battle-field-of",
                &[("name", name(field.seat).into())],
            )
        };
        if !field.afloat && !game.is_finished() {
            title.push_str(&format!(" — {}", t(lang, "battle-sunk")));
        }
        head.push_str(&format!(
            "\n\n{title}\n<pre>{}</pre>",
            field_text(field, rec.alphabet)
        ));
    }
    // A blank line after the fields; a caption's title goes straight on to the results.
    if fields {
        head.push('\n');
    }
    let mut tail = String::new();
    match game.phase() {
        Phase::Battle => {
            let line = match (game.mine_choice(), rec.current_aim()) {
                (Some(m), _) => ta(lang, "mine-waiting", &[("name", name(m.seat).into())]),
                // The bot's own turn asks nobody to tap.
                (None, _) if rec.ai_to_move().is_some() => ta(
                    lang,
                    "battle-turn-bot",
                    &[("name", name(game.turn()).into())],
                ),
                (None, Some(aim)) if game.ruleset().salvo.is_some() => ta(
                    lang,
                    tap("salvo-turn"),
                    &[
                        ("name", name(aim.shooter).into()),
                        ("target", name(aim.target).into()),
                        ("count", rec.salvo_size(aim.target).unwrap_or(0).into()),
                    ],
                ),
                (None, Some(aim)) if is_aimed(rec) => ta(
                    lang,
                    tap("battle-turn-at"),
                    &[
                        ("name", name(aim.shooter).into()),
                        ("target", name(aim.target).into()),
                    ],
                ),
                _ => ta(
                    lang,
                    tap("battle-turn"),
                    &[("name", name(game.turn()).into())],
                ),
            };
            tail.push_str(&format!("\n\n{line}"));
            if let Some(weapons) = weapons_line(rec, &names) {
                tail.push_str(&format!("\n{weapons}"));
            }
        }
        Phase::Finished { .. } => {
            tail.push_str(&format!("\n\n<b>{}</b>", end_words(rec)));
        }
        _ => {}
    }
    // The commitments, whole: a player checks the end's reveal against them.
    let mut commitments = String::new();
    if matches!(game.phase(), Phase::Battle) {
        commitments.push_str(&format!("\n\n{}", t(lang, "battle-commitments")));
        for s in 0..game.seats().len() as u8 {
            if let Some(c) = game.commitment(SeatId(s)) {
                commitments.push_str(&format!("\n{}: <code>{c}</code>", name(SeatId(s))));
            }
        }
    }
    let fixed = visible_len(&head) + visible_len(&tail) + visible_len(&commitments);
    let (log, shown) = results(rec, &names, max.saturating_sub(fixed));
    let mut text = head;
    for line in &log {
        text.push_str(&format!("\n{line}"));
    }
    text.push_str(&tail);
    text.push_str(&commitments);
    (text, shown)
}

/// How many results the battle message shows once the group has seen them.
pub const SHOWN: usize = 4;

/// The total length of lines, each on its own line; lengths add up, as no markup spans two
/// lines.
pub(super) fn lines_len(lines: &[String]) -> usize {
    lines.iter().map(|l| visible_len(l) + 1).sum()
}

/// The latest results as lines for the battle message (or a picture's caption), within
/// `room` characters, and which results they are.
///
/// When at most [`SHOWN`] came since the last redraw: the last [`SHOWN`], one a result.
/// When more came (a burst): every one of those, one line for each run of shots by the same
/// player at the same field, oldest first; if they do not all fit, as many as fit and
/// "+N more", and the rest wait for the next redraw, so none is ever left out. Once all are
/// shown, the same lines stay (the drawing does not change just because it was drawn).
pub(crate) fn results(rec: &GameRecord, names: &[String], room: usize) -> (Vec<String>, Shown) {
    let total = rec.log_total;
    let base = total - rec.log.len() as u64;
    let seen = rec.delivery.log_shown.clamp(base, total);
    let index = |n: u64| usize::try_from(n - base).unwrap_or(usize::MAX);
    if total - seen > SHOWN as u64 {
        let events = &rec.log[index(seen)..];
        let all = run_lines(rec, names, events);
        if lines_len(&all) <= room {
            return (
                all,
                Shown {
                    from: seen,
                    to: total,
                },
            );
        }
        // The most results from the oldest on that fit with the line saying how many wait.
        let fits = |k: usize| {
            let mut lines = run_lines(rec, names, &events[..k]);
            lines.push(more_line(rec, events.len() - k));
            (lines_len(&lines) <= room).then_some(lines)
        };
        let (mut lo, mut hi) = (0, events.len() - 1);
        let mut best = fits(0);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            match fits(mid) {
                Some(lines) => {
                    lo = mid;
                    best = Some(lines);
                }
                None => hi = mid - 1,
            }
        }
        return match best {
            Some(lines) if lo > 0 => (
                lines,
                Shown {
                    from: seen,
                    to: seen + lo as u64,
                },
            ),
            // Not one result fits (cannot happen with names cut short): the oldest is left
            // to the end's announcement, so the message still moves on.
            _ => (
                vec![more_line(rec, events.len())],
                Shown {
                    from: seen,
                    to: seen + 1,
                },
            ),
        };
    }
    // Everything shown: what the last drawing showed (from the first result it showed, or
    // the last few); else the last few.
    let last_few = total.saturating_sub(SHOWN as u64).max(base);
    let from = if seen == total {
        rec.delivery.shown_from.clamp(base, last_few)
    } else {
        last_few
    };
    let events = &rec.log[index(from)..];
    let mut lines = if events.len() > SHOWN {
        run_lines(rec, names, events)
    } else {
        let size = rec.game.ruleset().size();
        let aimed = is_aimed(rec);
        events
            .iter()
            .filter_map(|e| render::log_line(rec.lang, e, names, rec.alphabet, size, aimed))
            .collect()
    };
    // Lines the group has seen give way, the oldest first.
    while lines_len(&lines) > room && !lines.is_empty() {
        lines.remove(0);
    }
    (lines, Shown { from, to: total })
}

/// "+N more": results that wait for the next redraw.
pub(super) fn more_line(rec: &GameRecord, n: usize) -> String {
    format!(
        "<i>{}</i>",
        ta(rec.lang, "battle-more", &[("count", n.into())])
    )
}

/// Results as lines: one for each run of shots by the same player at the same field, one
/// for each other result.
pub(super) fn run_lines(rec: &GameRecord, names: &[String], events: &[Event]) -> Vec<String> {
    let lang = rec.lang;
    let size = rec.game.ruleset().size();
    let aimed = is_aimed(rec);
    let one = |e: &Event| render::log_line(lang, e, names, rec.alphabet, size, aimed);
    type Run = Option<((SeatId, SeatId), Vec<String>)>;
    let mut lines: Vec<String> = Vec::new();
    let mut run: Run = None;
    let name = |s: SeatId| escape(names.get(s.index()).map_or("?", String::as_str));
    let flush = |run: &mut Run, lines: &mut Vec<String>| {
        if let Some(((seat, target), parts)) = run.take() {
            lines.push(ta(
                lang,
                if aimed {
                    "battle-log-shots-at"
                } else {
                    "log-shots"
                },
                &[
                    ("name", name(seat).into()),
                    ("target", name(target).into()),
                    ("shots", parts.join("; ").into()),
                ],
            ));
        }
    };
    for e in events {
        if let Event::Shot {
            shooter,
            target,
            cell,
            result,
        } = e
        {
            let part = ta(
                lang,
                "log-shot-part",
                &[
                    ("cell", render::cell_name(*cell, rec.alphabet, size).into()),
                    ("result", render::result_words(lang, *result).into()),
                ],
            );
            match &mut run {
                Some((k, parts)) if *k == (*shooter, *target) => parts.push(part),
                _ => {
                    flush(&mut run, &mut lines);
                    run = Some(((*shooter, *target), vec![part]));
                }
            }
        } else {
            flush(&mut run, &mut lines);
            lines.extend(one(e));
        }
    }
    flush(&mut run, &mut lines);
    lines
}

/// The battle message's keyboard: the cells of the field being shot at (none once the
/// battle is over).
pub fn battle_keyboard(rec: &GameRecord, id: GameId) -> Option<Keyboard> {
    let game = &rec.game;
    let lang = rec.lang;
    if *game.phase() != Phase::Battle {
        return None;
    }
    let block = match &rec.play {
        Play::SeaBattle(sb) => sb.block,
        Play::Riga(_) => return None,
    };
    let aim = rec.current_aim()?;
    let target = aim.target;
    let view = game.public_view();
    let field = view.field(target);
    let size = field.size;
    let vp = battle_viewport(rec);
    let g = rec.delivery.generation;
    let mut extra = Vec::new();
    if let Some(total) = rec.salvo_size(target) {
        extra.push(vec![Key::callback(
            ta(
                lang,
                "salvo-fire",
                &[("picked", aim.picked.len().into()), ("total", total.into())],
            ),
            Button::Salvo(id, g, target.0).to_string(),
        )]);
    }
    if let Some(row) = arsenal_row(rec, id, &aim) {
        extra.push(row);
    }
    let mut keyboard = grid_keyboard(
        vp,
        block,
        rec.alphabet,
        |c: Coord| {
            let mark = field.mark(c);
            let label = if aim.picked.contains(&c) {
                format!("✓{}", render::cell_name(c, rec.alphabet, size))
            } else if mark == Mark::Unknown {
                render::cell_name(c, rec.alphabet, size)
            } else {
                render::symbol(mark).to_string()
            };
            (label, Button::Fire(id, g, target.0, size.index(c) as u16))
        },
        |b| Button::View(id, g, b),
        extra,
    );
    if is_aimed(rec) {
        let row = game
            .targets(aim.shooter)
            .into_iter()
            .map(|s| {
                let name = rec.short_name(s, 24);
                let label = if s == target {
                    format!("▶ {name}")
                } else {
                    name
                };
                Key::callback(label, Button::Target(id, g, s.0).to_string())
            })
            .collect();
        keyboard.inline_keyboard.insert(0, row);
    }
    Some(keyboard)
}

/// The battle keyboard's row of the arsenal (docs/rules.md §3.8): the shooter's weapons left,
/// the one armed marked; or, a corner tapped with the torpedo, the ways it may run.
pub(super) fn arsenal_row(
    rec: &GameRecord,
    id: GameId,
    aim: &crate::game::record::Aim,
) -> Option<Vec<Key>> {
    let game = &rec.game;
    if game.ruleset().arsenal == 0 || game.mine_choice().is_some() || rec.ai_to_move().is_some() {
        return None;
    }
    let (lang, g) = (rec.lang, rec.delivery.generation);
    let size = game.ruleset().size();
    if let (Some(engine::Weapon::Torpedo), Some(corner)) = (aim.armed, aim.corner) {
        let name = render::cell_name(corner, rec.alphabet, size);
        let row = engine::headings_from(corner, size)
            .into_iter()
            .map(|h| {
                Key::callback(
                    format!("🚀 {name} {}", render::arrow(h)),
                    Button::Heading(id, g, h).to_string(),
                )
            })
            .collect();
        return Some(row);
    }
    let left = game.weapons_left(aim.shooter);
    let row: Vec<Key> = engine::Weapon::ALL
        .into_iter()
        .filter(|w| left[w.index()] > 0)
        .map(|w| {
            let key = match w {
                engine::Weapon::Radar => "btn-radar",
                engine::Weapon::AirStrike => "btn-air-strike",
                engine::Weapon::Torpedo => "btn-torpedo",
            };
            let mut label = ta(lang, key, &[("left", left[w.index()].into())]);
            if aim.armed == Some(w) {
                label = format!("▶ {label}");
            }
            Key::callback(label, Button::Arm(id, g, w).to_string())
        })
        .collect();
    (!row.is_empty()).then_some(row)
}

/// Every player's weapons left, for the battle message: `Anna 📡1 ✈0 🚀1; Boris …`.
pub(super) fn weapons_line(rec: &GameRecord, names: &[String]) -> Option<String> {
    if rec.game.ruleset().arsenal == 0 {
        return None;
    }
    let list: Vec<String> = (0..rec.game.seats().len() as u8)
        .map(SeatId)
        .map(|s| {
            let [r, a, t] = rec.game.weapons_left(s);
            let name = escape(names.get(s.index()).map_or("?", String::as_str));
            format!("{name} 📡{r} ✈{a} 🚀{t}")
        })
        .collect();
    Some(ta(
        rec.lang,
        "weapons-left",
        &[("list", list.join("; ").into())],
    ))
}
