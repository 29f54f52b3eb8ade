//! The group's live message (the lobby, then the battle) and the end of a game: what they
//! say, drawn from a record alone.
//!
//! Nothing here decides when to send: the game's one sender (`telegram/sender/`) draws the live
//! message from the latest record whenever it differs from what the group was last shown,
//! within the group's budget and the gap between edits, so many results in a burst become one
//! edit carrying all of them.
use super::buttons::{join_payload, Button};
use super::keyboard::{Key, Keyboard};
use super::render::{self, escape, field_text, grid_keyboard, Viewport};
use crate::game::battle::{is_aimed, Cell, Picked};
pub use crate::game::delivery::Shown;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::GameId;
use crate::view::i18n::{list, t, ta};
use engine::{Coord, EndReason, Event, Mark, Phase, SeatId, ShotResult};

/// Telegram's most characters in a message (UTF-16 code units, after the markup is parsed).
pub const MAX_TEXT: usize = 4096;

/// Buttons besides the cells in the battle keyboard: the row of target fields (free-for-all
/// and teams) and the salvo's Fire button; the block switch is counted by the viewport. From
/// the ruleset alone, so the blocks stay the same all game.
fn battle_reserved(r: &engine::Ruleset) -> usize {
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
fn is_variant(r: &engine::Ruleset) -> bool {
    r.salvo.is_some()
        || r.mines > 0
        || r.field != engine::Field::Classic
        || r.players != engine::Players::Duel
        || r.shapes != engine::Shapes::default()
}

/// The live message's text and keyboard, for the game's phase.
pub fn live_message(rec: &GameRecord, id: GameId, username: &str) -> (String, Option<Keyboard>) {
    let (text, keyboard, _) = live_message_shown(rec, id, username);
    (text, keyboard)
}

/// [`live_message`], with the results it shows (all of them, but for a long burst of the
/// battle).
pub fn live_message_shown(
    rec: &GameRecord,
    id: GameId,
    username: &str,
) -> (String, Option<Keyboard>, Shown) {
    let all = Shown {
        from: rec.log_total,
        to: rec.log_total,
    };
    if rec.is_riga() && *rec.game.phase() != Phase::Lobby {
        let (text, mut keyboard) = super::riga::live_message(rec, id);
        let played = rec.riga().is_some_and(|r| r.game.is_some());
        if rec.inline.is_some() && rec.is_finished() && played {
            keyboard = Some(end_keyboard(rec, id, username));
        }
        return (text, keyboard, all);
    }
    match rec.game.phase() {
        Phase::Lobby | Phase::Placement => {
            let (text, keyboard) = lobby_message(rec, id, username);
            (text, keyboard, all)
        }
        Phase::Finished { .. } if rec.inline.is_some() && rec.delivery.begun => {
            let (text, shown) = inline_end(rec);
            (text, Some(end_keyboard(rec, id, username)), shown)
        }
        Phase::Battle | Phase::Finished { .. } => {
            let (text, shown) = battle_text_shown(rec);
            (text, battle_keyboard(rec, id), shown)
        }
    }
}

/// The end of a game in an inline message, drawn on it (the chat is not the bot's to send
/// to): the fields, the last results and who won, then every fleet revealed with the line
/// its commitment checks; within Telegram's 4096 characters (without the fields when
/// they do not fit).
fn inline_end(rec: &GameRecord) -> (String, Shown) {
    let mut reveal = String::new();
    for block in super::reveal::reveal_blocks(rec) {
        if reveal.is_empty() {
            reveal.push_str(&format!("\n\n{}", t(rec.lang, "end-reveal")));
        }
        reveal.push_str(&format!("\n{block}"));
    }
    let room = MAX_TEXT.saturating_sub(visible_len(&reveal));
    let (mut text, shown) = battle_words(rec, true, room);
    let (text, shown) = if visible_len(&text) <= room {
        text.push_str(&reveal);
        (text, shown)
    } else {
        let (mut text, shown) = battle_words(rec, false, room);
        text.push_str(&reveal);
        (text, shown)
    };
    (text, shown)
}

/// The keyboard under a finished game: Rematch, and its replay by a link anyone may open.
pub fn end_keyboard(rec: &GameRecord, id: GameId, username: &str) -> Keyboard {
    let mut row = vec![Key::callback(
        t(rec.lang, "btn-rematch"),
        Button::Rematch(id).to_string(),
    )];
    if let Some(key) = super::reveal::replay_key(rec) {
        let url = format!(
            "https://t.me/{username}?start={}",
            super::buttons::replay_payload(id, &key)
        );
        row.push(Key::url(t(rec.lang, "btn-replay"), url));
    }
    Keyboard::new(vec![row])
}

fn lobby_message(rec: &GameRecord, id: GameId, username: &str) -> (String, Option<Keyboard>) {
    let lang = rec.lang;
    let game = &rec.game;
    let seats = game.ruleset().seats();
    let (title, rules) = if rec.is_riga() {
        (t(lang, "rg-lobby-title"), t(lang, "rg-lobby-rules"))
    } else {
        (
            t(lang, "lobby-title"),
            escape(&render::ruleset_words(lang, game.ruleset())),
        )
    };
    let mut text = format!(
        "<b>{title}</b>\n{rules}\n\n{}",
        ta(
            lang,
            "lobby-players",
            &[
                ("count", game.seats().len().into()),
                ("seats", seats.into())
            ]
        ),
    );
    let placing = *game.phase() == Phase::Placement;
    text.push_str(&super::panel::team_lines(rec, |i| {
        let status = if !placing {
            String::new()
        } else if game.is_ready(SeatId(i as u8)) {
            format!(" — {}", t(lang, "lobby-ready"))
        } else {
            format!(" — {}", t(lang, "lobby-placing"))
        };
        let name = rec.names.get(i).map_or("?", String::as_str);
        format!("{}. {}{status}", i + 1, escape(name))
    }));
    text.push_str("\n\n");
    let g = rec.delivery.generation;
    let keyboard = if placing {
        text.push_str(&t(lang, "lobby-hint-placement"));
        vec![vec![Key::callback(
            t(lang, "btn-cancel"),
            Button::Cancel(id, g).to_string(),
        )]]
    } else {
        text.push_str(&t(lang, "lobby-hint-join"));
        let panel = super::panel::lobby_panel(rec, id);
        if let Some((lines, _)) = &panel {
            text.push_str(&format!("\n\n{lines}"));
        }
        let mut rows = vec![vec![
            Key::callback(t(lang, "btn-join"), Button::Join(id, g).to_string()),
            Key::callback(t(lang, "btn-start"), Button::Start(id, g).to_string()),
            Key::callback(t(lang, "btn-cancel"), Button::Cancel(id, g).to_string()),
        ]];
        let url = format!("https://t.me/{username}?start={}", join_payload(id));
        if rec.inline.is_some() {
            // An inline message's lobby: its rules were chosen before the card was sent,
            // and the bot plays no seat there.
            rows.push(vec![Key::url(t(lang, "btn-open-bot"), url)]);
            return (text, Some(Keyboard::new(rows)));
        }
        if let Some((_, panel_rows)) = panel {
            rows.extend(panel_rows);
            return (text, Some(Keyboard::new(rows)));
        }
        if game.seats().len() < seats {
            rows.push(vec![Key::callback(
                t(lang, "btn-play-bot"),
                Button::Bot(id, g).to_string(),
            )]);
        }
        let game_button = if rec.is_riga() {
            "rg-btn-seabattle"
        } else {
            "rg-btn-riga"
        };
        let toggle = Key::callback(t(lang, game_button), Button::RigaToggle(id, g).to_string());
        if rec.is_riga() {
            rows.push(vec![toggle]);
        } else {
            rows.push(vec![super::panel::open_button(rec, id), toggle]);
        }
        rows.push(vec![Key::url(t(lang, "btn-open-bot"), url)]);
        rows
    };
    (text, Some(Keyboard::new(keyboard)))
}

/// An inline card as sent (`@bot` in any chat), in its sender's language: the game, its
/// rules, who invites, and the Join button whose first press opens the game on the card.
pub fn card(
    lang: Lang,
    sender: u64,
    name: &str,
    ruleset: &engine::Ruleset,
    riga: bool,
) -> (String, Keyboard) {
    let (game, rules) = if riga {
        (
            t(lang, "inline-riga-title"),
            t(lang, "inline-riga-description"),
        )
    } else {
        (
            t(lang, "inline-sea-title"),
            render::ruleset_words(lang, ruleset),
        )
    };
    let text = ta(
        lang,
        "inline-card",
        &[
            ("game", escape(&game).into()),
            ("rules", escape(&rules).into()),
            ("name", escape(name).into()),
        ],
    );
    let kb = Keyboard::new(vec![vec![Key::callback(
        t(lang, "btn-join"),
        Button::Card(sender, riga).to_string(),
    )]]);
    (text, kb)
}

/// The battle message's text: every field as the public sees it, whose turn, the latest
/// results, and the fleet commitments whole; within Telegram's 4096 characters (the largest
/// field with four players included): a burst too long to fit shows its oldest results and
/// "+N more", the rest waits for the next redraw (see [`results`]).
pub fn battle_text(rec: &GameRecord) -> String {
    battle_words(rec, true, MAX_TEXT).0
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
fn battle_words(rec: &GameRecord, fields: bool, max: usize) -> (String, Shown) {
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
    let tap = |key: &'static str| match rec.inline {
        Some(_) => render::tap_key(key),
        None => key,
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

/// Who won, or how the game ended.
fn end_words(rec: &GameRecord) -> String {
    end_words_in(rec, rec.lang)
}

/// Who won, or how the game ended, in `lang`.
pub fn end_words_in(rec: &GameRecord, lang: Lang) -> String {
    let Phase::Finished { winners, reason } = rec.game.phase() else {
        return String::new();
    };
    let names: Vec<String> = winners
        .iter()
        .map(|s| escape(rec.names.get(s.index()).map_or("?", String::as_str)))
        .collect();
    let key = match reason {
        EndReason::Cancelled => "end-cancelled",
        _ if names.is_empty() => "end-no-winner",
        _ => "end-winner",
    };
    ta(
        lang,
        key,
        &[
            ("names", list(lang, &names).into()),
            ("count", names.len().into()),
        ],
    )
}

/// The length Telegram counts: UTF-16 code units of the text without its HTML markup.
pub fn visible_len(html: &str) -> usize {
    let (mut n, mut in_tag, mut entity) = (0, false, false);
    for c in html.chars() {
        match c {
            '<' if !in_tag => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            '&' => {
                entity = true;
                n += 1;
            }
            ';' if entity => entity = false,
            _ if entity => {}
            c => n += c.len_utf16(),
        }
    }
    n
}

/// How many results the battle message shows once the group has seen them.
pub const SHOWN: usize = 4;

/// The total length of lines, each on its own line; lengths add up, as no markup spans two
/// lines.
fn lines_len(lines: &[String]) -> usize {
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
fn more_line(rec: &GameRecord, n: usize) -> String {
    format!(
        "<i>{}</i>",
        ta(rec.lang, "battle-more", &[("count", n.into())])
    )
}

/// Results as lines: one for each run of shots by the same player at the same field, one
/// for each other result.
fn run_lines(rec: &GameRecord, names: &[String], events: &[Event]) -> Vec<String> {
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
        rec.sea().map_or(0, |sb| sb.block),
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
fn arsenal_row(rec: &GameRecord, id: GameId, aim: &crate::game::record::Aim) -> Option<Vec<Key>> {
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
fn weapons_line(rec: &GameRecord, names: &[String]) -> Option<String> {
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

/// Each rated player's rating before and after the game, on the game's own board (the
/// chat's, or against the bot), once the end is settled: the highest first.
fn rating_lines(rec: &GameRecord) -> Vec<String> {
    let Some(s) = &rec.settlement else {
        return Vec::new();
    };
    let board = s.ratings.first().map(|w| w.board);
    let mut rated: Vec<_> = s
        .ratings
        .iter()
        .filter(|w| Some(w.board) == board)
        .collect();
    rated.sort_by_key(|w| std::cmp::Reverse(w.after));
    rated
        .into_iter()
        .map(|w| {
            let name = rec
                .names
                .get(usize::from(w.seat))
                .cloned()
                .unwrap_or_default();
            ta(
                rec.lang,
                "end-rating",
                &[
                    ("name", super::render::escape(&name).into()),
                    ("before", w.before.into()),
                    ("after", w.after.into()),
                    ("change", format!("{:+}", w.after - w.before).into()),
                ],
            )
        })
        .collect()
}

/// The end's announcement: who won, the ratings it moved, the whole game in results (one line for each run of
/// shots by the same player at the same field), and every fleet in words with the text and
/// salt that check its commitment. No fields: the battle message just above shows them. As
/// many messages as that takes, each within Telegram's limit and never cutting a line; the
/// last one gets the Rematch button.
pub fn end_texts(rec: &GameRecord) -> Vec<String> {
    if rec.is_riga() {
        return super::riga::end_texts(rec);
    }
    let lang = rec.lang;
    let mut blocks = vec![format!("<b>{}</b>", end_words(rec))];
    let mut log = run_lines(rec, &rec.names, &rec.log);
    if (rec.log.len() as u64) < rec.log_total {
        // A record from before the log kept the whole game: its oldest results are gone.
        log.insert(0, "…".to_owned());
    }
    let mut heading = |key: &str, lines: Vec<String>| {
        let mut lines = lines.into_iter();
        if let Some(first) = lines.next() {
            // The heading stays with its first line.
            blocks.push(format!("\n{}\n{first}", t(lang, key)));
            blocks.extend(lines);
        }
    };
    heading("end-figures", figure_lines(rec));
    heading("end-ratings", rating_lines(rec));
    heading("end-log", log);
    heading("end-reveal", super::reveal::reveal_blocks(rec));
    let mut texts: Vec<String> = Vec::new();
    for block in blocks {
        match texts.last_mut() {
            Some(last) if visible_len(last) + 1 + visible_len(&block) <= MAX_TEXT => {
                last.push('\n');
                last.push_str(&block);
            }
            _ => texts.push(block.trim_start().to_owned()),
        }
    }
    texts
}

/// Each seat's turns, cells shot and hits, one line a seat that came to battle.
fn figure_lines(rec: &GameRecord) -> Vec<String> {
    (0..rec.game.seats().len() as u8)
        .filter(|&i| rec.game.fleet(SeatId(i)).is_some())
        .map(|i| {
            let f = crate::game::rating::figures(rec, i);
            let name = escape(rec.names.get(usize::from(i)).map_or("?", String::as_str));
            ta(
                rec.lang,
                "end-figure",
                &[
                    ("name", name.into()),
                    ("turns", f.turns.into()),
                    ("cells", f.shots.into()),
                    ("hits", f.hits.into()),
                ],
            )
        })
        .collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{random_fleet, Action, Field, Game, PlayerId, Players, Ruleset};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A game of `ruleset` in battle, every seat with a random fleet and a long name.
    fn record(ruleset: Ruleset, seed: u64) -> (GameRecord, StdRng) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(ruleset.clone());
        for p in 0..ruleset.seats() as u64 {
            game.apply(Action::Join(PlayerId(p + 1)), 0, &mut rng)
                .unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        for s in 0..ruleset.seats() as u8 {
            let fleet = random_fleet(&ruleset, &mut rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
        }
        let mut rec = GameRecord::new(game, -1, 0);
        rec.delivery.begun = true;
        rec.names = (0..ruleset.seats())
            .map(|i| format!("{i}{}", "Ж".repeat(63)))
            .collect();
        (rec, rng)
    }

    /// One move of random play: a salvo or a shot at a random unknown cell of a random
    /// target, or a random cell given up after a mine.
    fn step(rec: &mut GameRecord, rng: &mut StdRng) -> Vec<Event> {
        let game = &rec.game;
        let size = game.ruleset().size();
        let action = if let Some(m) = game.mine_choice() {
            let fleet = game.fleet(m.seat).unwrap();
            let cell = fleet
                .ship_cells()
                .find(|&c| !game.is_known(m.seat, c))
                .unwrap();
            Action::GiveUp(m.seat, cell)
        } else {
            let shooter = game.turn();
            let targets = game.targets(shooter);
            let target = targets[rng.gen_range(0..targets.len())];
            let mut unknown: Vec<Coord> = size
                .cells()
                .filter(|&c| !game.is_known(target, c))
                .collect();
            match rec.salvo_size(target) {
                Some(n) => {
                    let mut cells = Vec::new();
                    for _ in 0..n {
                        cells.push(unknown.swap_remove(rng.gen_range(0..unknown.len())));
                    }
                    Action::Salvo(shooter, target, cells)
                }
                None => Action::Fire(shooter, target, unknown[rng.gen_range(0..unknown.len())]),
            }
        };
        let events = rec.game.apply(action, 0, rng).unwrap();
        rec.push_log(&events);
        events
    }

    /// The lines of a text that draw a field's rows (not its column letters).
    fn grid_lines(text: &str) -> Vec<&str> {
        let mut lines = Vec::new();
        let mut inside = false;
        for line in text.split('\n') {
            if inside {
                lines.push(line);
            }
            if line.starts_with("<pre>") {
                inside = true;
            }
            if line.ends_with("</pre>") {
                inside = false;
            }
        }
        lines
    }

    #[test]
    fn four_players_on_the_largest_field_with_long_names_fit_every_message() {
        let ruleset = Ruleset {
            field: Field::LandSeaAir,
            players: Players::FreeForAll(4),
            mines: 2,
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(ruleset, 7);
        let mut longest = 0;
        for n in 0.. {
            step(&mut rec, &mut rng);
            if rec.game.is_finished() {
                break;
            }
            if n % 25 != 0 {
                continue;
            }
            // Nothing is ever shown: the log grows to its bound.
            let text = battle_text(&rec);
            longest = longest.max(visible_len(&text));
            assert!(visible_len(&text) <= MAX_TEXT, "{}", visible_len(&text));
            for line in grid_lines(&text) {
                assert!(!line.contains(','), "the border shows: {line}");
                assert!(!line.contains(['O', 'm']), "a ship or a mine shows: {line}");
            }
            let kb = battle_keyboard(&rec, GameId(u64::MAX));
            if let Some(kb) = kb {
                let buttons: usize = kb.inline_keyboard.iter().map(Vec::len).sum();
                assert!(buttons <= render::MAX_BUTTONS);
                assert!(kb
                    .inline_keyboard
                    .iter()
                    .all(|r| r.len() <= render::MAX_ROW));
            }
        }
        assert!(
            longest > 3000,
            "the test does not reach the limit: {longest}"
        );
        for text in end_texts(&rec) {
            assert!(visible_len(&text) <= MAX_TEXT, "{}", visible_len(&text));
        }
    }

    #[test]
    fn a_game_in_an_inline_message_asks_for_taps_and_ends_there_with_the_reveal_within_the_limit() {
        for (ruleset, seed) in [
            (Ruleset::default(), 3),
            (
                Ruleset {
                    field: Field::LandSeaAir,
                    players: Players::FreeForAll(4),
                    mines: 2,
                    ..Ruleset::default()
                },
                7,
            ),
        ] {
            let (mut rec, mut rng) = record(ruleset, seed);
            rec.inline = Some("AgAAAF000001fake".into());
            for lang in Lang::ALL {
                rec.lang = lang;
                let (text, _) = live_message(&rec, GameId(9), "bot");
                let tap = |key| {
                    let words = ta(lang, key, &[("name", "x".into()), ("target", "y".into())]);
                    words.rsplit('—').next().unwrap().to_owned()
                };
                assert!(
                    text.contains(&tap("battle-turn-tap"))
                        || text.contains(&tap("battle-turn-at-tap")),
                    "{text}"
                );
                rec.inline = None;
                let (chat_text, _) = live_message(&rec, GameId(9), "bot");
                rec.inline = Some("AgAAAF000001fake".into());
                assert_ne!(text, chat_text, "the same words as in a group");
            }
            while !rec.game.is_finished() {
                step(&mut rec, &mut rng);
            }
            for lang in Lang::ALL {
                rec.lang = lang;
                let (text, kb) = live_message(&rec, GameId(9), "bot");
                assert!(visible_len(&text) <= MAX_TEXT, "{}", visible_len(&text));
                assert!(text.contains(&t(lang, "end-reveal")), "{text}");
                for block in crate::view::reveal::reveal_blocks(&rec) {
                    assert!(text.contains(&block), "{block} is not in {text}");
                }
                let kb = kb.expect("Rematch and Replay under the end");
                let data: Vec<String> = kb.inline_keyboard[0]
                    .iter()
                    .map(|k| match &k.kind {
                        crate::view::keyboard::KeyKind::Callback(d)
                        | crate::view::keyboard::KeyKind::Url(d)
                        | crate::view::keyboard::KeyKind::WebApp(d) => d.clone(),
                    })
                    .collect();
                assert_eq!(data[0], Button::Rematch(GameId(9)).to_string());
                assert!(
                    data[1].starts_with("https://t.me/bot?start=rp9-"),
                    "{data:?}"
                );
            }
        }
    }

    #[test]
    fn the_shot_that_sinks_the_last_ship_tells_the_shooter_they_won_not_to_shoot_again() {
        for seed in 0..3 {
            let (mut rec, mut rng) = record(Ruleset::default(), seed);
            let mut last = Vec::new();
            while !rec.game.is_finished() {
                let events = step(&mut rec, &mut rng);
                let before = shot_answer(Lang::En, &rec, &events);
                if !rec.game.is_finished() && before.contains("sunk") {
                    assert!(before.contains("Shoot again"), "{before}");
                }
                last = events;
            }
            for lang in Lang::ALL {
                let words = shot_answer(lang, &rec, &last);
                let again = ta(
                    lang,
                    "answer-sunk",
                    &[("cell", "".into()), ("ship", "".into())],
                );
                let again = again.rsplit('!').next().unwrap().trim();
                assert!(!words.contains(again), "{words}");
                assert!(words.ends_with('!'), "{words}");
            }
        }
    }

    #[test]
    fn each_weapon_is_told_to_the_group_in_words_with_every_players_weapons_left() {
        let ruleset = Ruleset {
            arsenal: 1,
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(ruleset, 5);
        rec.names = vec!["Anna".into(), "Boris".into()];
        let a = rec.game.turn();
        let b = rec.game.targets(a)[0];
        let plays = [
            Action::Radar(a, b, Coord::new(4, 4)),
            Action::AirStrike(b, a, Coord::new(1, 1)),
            Action::Torpedo(a, b, Coord::new(0, 5), None),
        ];
        for action in plays {
            while rec.game.turn() != action_seat(&action) {
                step(&mut rec, &mut rng);
            }
            let events = rec.game.apply(action, 0, &mut rng).unwrap();
            rec.push_log(&events);
            for lang in Lang::ALL {
                let answer = shot_answer(lang, &rec, &events);
                assert!(!answer.is_empty() && !answer.contains('&'), "{answer}");
            }
        }
        for lang in Lang::ALL {
            rec.lang = lang;
            rec.mark_shown(0);
            let text = battle_text(&rec);
            for (icon, key) in [
                ("📡", "weapon-radar"),
                ("✈", "weapon-air-strike"),
                ("🚀", "weapon-torpedo"),
            ] {
                let line = text
                    .lines()
                    .find(|l| l.starts_with(icon))
                    .unwrap_or_else(|| panic!("no {icon} line in {text}"));
                assert!(line.contains(&t(lang, key)), "{line}");
            }
            let left = ta(lang, "weapons-left", &[("list", "".into())]);
            assert!(text.contains(left.trim()), "{text}");
            assert!(text.contains("Anna 📡0 ✈1 🚀0") || text.contains("Boris 📡0 ✈1 🚀0"));
        }
    }

    fn action_seat(a: &Action) -> SeatId {
        match a {
            Action::Radar(s, ..) | Action::AirStrike(s, ..) | Action::Torpedo(s, ..) => *s,
            _ => SeatId(0),
        }
    }

    #[test]
    fn the_group_never_learns_which_cells_of_a_salvo_hit() {
        let ruleset = Ruleset {
            salvo: Some(3),
            players: Players::FreeForAll(3),
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(ruleset, 11);
        rec.names = vec!["Anna".into(), "Boris".into(), "Clara".into()];
        let mut salvoes = 0;
        while !rec.game.is_finished() {
            let events = step(&mut rec, &mut rng);
            rec.mark_shown(rec.log_total);
            if rec.game.is_finished() {
                break;
            }
            let text = battle_text(&rec);
            for line in grid_lines(&text) {
                assert!(!line.contains(['X', '#', 'O']), "{line}");
            }
            for e in &events {
                if let Event::Salvo { .. } = e {
                    salvoes += 1;
                    let line = render::log_line(
                        Lang::En,
                        e,
                        &rec.names,
                        rec.alphabet,
                        rec.game.ruleset().size(),
                        true,
                    )
                    .unwrap();
                    assert!(line.contains("a salvo of 3"), "{line}");
                    let after = line.split("a salvo of 3").nth(1).unwrap();
                    let cell = after
                        .as_bytes()
                        .windows(2)
                        .any(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_digit());
                    assert!(!cell, "{line}");
                }
            }
        }
        assert!(salvoes > 10);
    }

    #[test]
    fn the_classic_duel_has_no_target_row_legend_or_fire_button() {
        let (rec, _) = record(Ruleset::default(), 3);
        let (text, kb) = (battle_text(&rec), battle_keyboard(&rec, GameId(1)));
        assert!(!text.contains(&t(Lang::En, "battle-legend")));
        let kb = kb.unwrap();
        let data: Vec<String> = kb
            .inline_keyboard
            .iter()
            .flatten()
            .map(|b| b.data().unwrap_or_default().to_owned())
            .collect();
        assert!(data
            .iter()
            .all(|d| d.starts_with("f:") || d.starts_with("v:")));
    }

    /// Each result of the log on its own line, as the battle message writes it.
    fn single_lines(rec: &GameRecord) -> Vec<String> {
        let size = rec.game.ruleset().size();
        rec.log
            .iter()
            .filter_map(|e| {
                render::log_line(rec.lang, e, &rec.names, rec.alphabet, size, is_aimed(rec))
            })
            .collect()
    }

    /// A shot as a part of a run's line: `а1 — мимо`.
    fn shot_part(rec: &GameRecord, e: &Event) -> Option<String> {
        let Event::Shot { cell, result, .. } = e else {
            return None;
        };
        let size = rec.game.ruleset().size();
        Some(ta(
            rec.lang,
            "log-shot-part",
            &[
                ("cell", render::cell_name(*cell, rec.alphabet, size).into()),
                ("result", render::result_words(rec.lang, *result).into()),
            ],
        ))
    }

    /// A classic duel in Russian with Russian letters, short names.
    fn russian_duel(seed: u64) -> (GameRecord, StdRng) {
        let (mut rec, rng) = record(Ruleset::default(), seed);
        rec.names = vec!["Анна".into(), "Борис".into()];
        rec.lang = Lang::Ru;
        rec.alphabet = engine::Alphabet::Russian;
        (rec, rng)
    }

    #[test]
    fn once_seen_the_battle_message_shows_only_the_last_few_results() {
        let (mut rec, mut rng) = russian_duel(21);
        for n in 0..60 {
            step(&mut rec, &mut rng);
            rec.mark_shown(rec.log_total);
            if rec.game.is_finished() {
                break;
            }
            let text = battle_text(&rec);
            let all = single_lines(&rec);
            let shown: Vec<&str> = text
                .lines()
                .filter(|l| all.iter().any(|a| a == l))
                .collect();
            let latest = &all[all.len().saturating_sub(SHOWN)..];
            assert_eq!(shown, latest, "after {n} moves");
            assert_eq!(results(&rec, &rec.names, usize::MAX).0, latest);
        }
        assert_eq!(
            rec.log.len() as u64,
            rec.log_total,
            "the log keeps every result"
        );
    }

    #[test]
    fn a_burst_since_the_last_redraw_shows_every_result_of_it() {
        let (mut rec, mut rng) = russian_duel(22);
        for _ in 0..5 {
            step(&mut rec, &mut rng);
        }
        rec.mark_shown(rec.log_total);
        let before = rec.log.len();
        while rec.log.len() < before + 3 * SHOWN && !rec.game.is_finished() {
            step(&mut rec, &mut rng);
        }
        let burst = &rec.log[before..];
        assert!(burst.len() > SHOWN);
        let text = battle_text(&rec);
        let lines = results(&rec, &rec.names, usize::MAX).0;
        for e in burst {
            let part = shot_part(&rec, e).expect("a duel logs shots only");
            assert!(
                lines.iter().any(|l| l.contains(&part)),
                "{part} in {lines:?}"
            );
        }
        for line in &lines {
            assert!(text.contains(line.as_str()), "{line}");
        }
        // Nothing before the burst: those lines were seen.
        let seen = shot_part(&rec, &rec.log[before - 1]).unwrap();
        assert!(lines.iter().all(|l| !l.contains(&seen)), "{seen}");
    }

    #[test]
    fn the_end_tells_the_whole_game_and_the_fleets_in_the_chats_letters_without_fields() {
        let (mut rec, mut rng) = russian_duel(23);
        while !rec.game.is_finished() {
            step(&mut rec, &mut rng);
            rec.mark_shown(rec.log_total);
        }
        let texts = end_texts(&rec);
        let all = texts.join("\n");
        assert!(texts[0].starts_with(&format!("<b>{}</b>", end_words(&rec))));
        for text in &texts {
            assert!(visible_len(text) <= MAX_TEXT);
            assert!(!text.contains("<pre>"), "a field in the end: {text}");
        }
        assert!(all.contains(&t(Lang::Ru, "end-log")));
        // Each player's turns, cells shot and hits, as the statistics count them.
        assert!(all.contains(&t(Lang::Ru, "end-figures")), "{all}");
        for seat in 0..2u8 {
            let f = crate::game::rating::figures(&rec, seat);
            assert!(f.turns > 0 && f.shots >= f.turns.saturating_sub(1), "{f:?}");
            let line = ta(
                Lang::Ru,
                "end-figure",
                &[
                    ("name", escape(&rec.names[usize::from(seat)]).into()),
                    ("turns", f.turns.into()),
                    ("cells", f.shots.into()),
                    ("hits", f.hits.into()),
                ],
            );
            assert!(all.contains(&line), "{line}\n{all}");
        }
        // Every result, in order.
        let mut at = 0;
        for part in rec.log.iter().filter_map(|e| shot_part(&rec, e)) {
            let found = all[at..].find(&part).unwrap_or_else(|| panic!("{part}"));
            at += found + part.len();
        }
        assert!(!all.contains("mines="), "{all}");
        assert!(!all.contains(&t(Lang::Ru, "end-mines")), "{all}");
        for s in [SeatId(0), SeatId(1)] {
            let (layout, salt) = rec.game.reveal(s).unwrap();
            assert!(
                all.contains(&format!("<code>{layout}|{salt}</code>")),
                "{all}"
            );
            let fleet = rec.game.fleet(s).unwrap();
            for ship in fleet.ships() {
                let first = ship.cells.iter().min_by_key(|c| (c.y, c.x)).unwrap();
                let name = render::cell_name(*first, rec.alphabet, rec.game.ruleset().size());
                assert!(
                    name.starts_with(|c: char| ('а'..='к').contains(&c)),
                    "{name}"
                );
                let reveal = all.split(&t(Lang::Ru, "end-reveal")).nth(1).unwrap();
                let line = reveal
                    .lines()
                    .find(|l| l.starts_with(&rec.names[s.index()]))
                    .unwrap();
                assert!(line.contains(&name), "{name} in {line}");
            }
        }
    }

    #[test]
    fn a_team_s_win_names_both_winners_in_the_plural() {
        let teams = Ruleset {
            players: Players::Teams,
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(teams, 26);
        rec.names = ["Анна", "Борис", "Вера", "Глеб"].map(String::from).to_vec();
        while !rec.game.is_finished() {
            step(&mut rec, &mut rng);
        }
        let Phase::Finished { winners, .. } = rec.game.phase().clone() else {
            unreachable!()
        };
        assert_eq!(winners.len(), 2, "{winners:?}");
        let [a, b] = [0, 1].map(|i| rec.names[winners[i].index()].clone());
        for (lang, expected) in [
            (Lang::Ru, format!("Победители — {a} и {b}!")),
            (Lang::Bg, format!("Победители: {a} и {b}!")),
            (Lang::En, format!("Winners: {a} and {b}!")),
        ] {
            rec.lang = lang;
            let all = end_texts(&rec).join("\n");
            assert!(all.contains(&expected), "{lang}: {all}");
        }
        // One winner: the singular, as ever.
        let (mut duel, mut rng) = russian_duel(27);
        duel.names = vec!["Анна".into(), "Борис".into()];
        while !duel.game.is_finished() {
            step(&mut duel, &mut rng);
        }
        let Phase::Finished { winners, .. } = duel.game.phase().clone() else {
            unreachable!()
        };
        let winner = &duel.names[winners[0].index()];
        let all = end_texts(&duel).join("\n");
        assert!(all.contains(&format!("Победитель — {winner}!")), "{all}");
        duel.lang = Lang::En;
        let all = end_texts(&duel).join("\n");
        assert!(all.contains(&format!("Winner: {winner}!")), "{all}");
    }

    #[test]
    fn a_player_blown_up_on_a_mine_is_told_of_the_same_way_whoever_they_are() {
        let ruleset = Ruleset {
            mines: 2,
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(ruleset, 28);
        rec.names = vec!["Анна".into(), "Вера".into()];
        rec.lang = Lang::Ru;
        while rec.game.mine_choice().is_none() {
            assert!(!rec.game.is_finished(), "no mine was hit");
            step(&mut rec, &mut rng);
        }
        let seat = rec.game.mine_choice().unwrap().seat;
        let name = &rec.names[seat.index()];
        let text = battle_text(&rec);
        assert!(
            text.contains(&format!(
                "Мина! <b>{name}</b> выбирает клетку своего флота."
            )),
            "{text}"
        );
        assert!(!text.contains("подорвался"), "{text}");
    }

    #[test]
    fn the_reveal_names_the_mines_only_in_a_game_with_mines() {
        let ruleset = Ruleset {
            mines: 2,
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(ruleset, 24);
        rec.names = vec!["Anna".into(), "Boris".into()];
        while !rec.game.is_finished() {
            step(&mut rec, &mut rng);
        }
        let all = end_texts(&rec).join("\n");
        let mines = format!("{}: ", t(Lang::En, "end-mines"));
        assert_eq!(all.matches(&mines).count(), 2, "{all}");
        assert_eq!(all.matches(";mines=").count(), 2, "{all}");
    }

    #[test]
    fn a_long_game_ends_in_several_messages_without_cutting_a_line() {
        let (mut rec, mut rng) = record(Ruleset::default(), 25);
        while !rec.game.is_finished() {
            step(&mut rec, &mut rng);
        }
        // Long names make every line long: the whole log takes more than one message.
        let texts = end_texts(&rec);
        assert!(texts.len() > 1, "{}", texts.len());
        let lines = run_lines(&rec, &rec.names, &rec.log);
        for text in &texts {
            assert!(visible_len(text) <= MAX_TEXT);
        }
        for line in &lines {
            assert!(texts.iter().any(|t| t.contains(line.as_str())), "{line}");
        }
    }

    #[test]
    fn the_battle_message_leads_to_the_live_board_by_a_button_or_else_a_link() {
        use crate::game::record::Board;
        use crate::view::keyboard::MAX_BUTTONS;
        use crate::view::live::{live_drawing, with_board_link};
        let link = "https://t.me/bot/board?startapp=g1_00aa";
        let buttons = |d: &crate::view::live::Drawing| -> usize {
            d.keyboard
                .iter()
                .flat_map(|k| &k.inline_keyboard)
                .map(Vec::len)
                .sum()
        };
        for (board, seed) in [(Board::Text, 31), (Board::Picture, 32)] {
            let (mut rec, mut rng) = record(Ruleset::default(), seed);
            rec.board = board;
            step(&mut rec, &mut rng);
            let plain = live_drawing(&rec, GameId(1), "bot");
            let linked = with_board_link(plain.clone(), &rec, Some(link));
            let last = linked
                .keyboard
                .as_ref()
                .and_then(|k| k.inline_keyboard.last());
            if buttons(&plain) < MAX_BUTTONS {
                let key = &last.expect("a row")[0];
                assert_eq!(key.kind, crate::view::keyboard::KeyKind::Url(link.into()));
                assert_eq!(key.text, t(rec.lang, "webapp-open"));
                assert_eq!(buttons(&linked), buttons(&plain) + 1);
            } else {
                assert_eq!(buttons(&linked), MAX_BUTTONS);
                assert!(linked.text.contains(link), "{}", linked.text);
                let limit = if linked.picture.is_some() {
                    MAX_CAPTION
                } else {
                    MAX_TEXT
                };
                assert!(visible_len(&linked.text) <= limit);
            }
            // No link without a short name, nor after the battle.
            assert_eq!(with_board_link(plain.clone(), &rec, None).text, plain.text);
            while !rec.game.is_finished() {
                step(&mut rec, &mut rng);
            }
            let end = live_drawing(&rec, GameId(1), "bot");
            let linked = with_board_link(end.clone(), &rec, Some(link));
            assert_eq!(buttons(&linked), buttons(&end));
            assert!(!linked.text.contains(link));
        }
    }

    #[test]
    fn the_battle_picture_shows_the_public_view_and_its_caption_fits() {
        use crate::view::live::{battle_picture, live_drawing};
        let rulesets = [
            Ruleset {
                field: Field::LandSeaAir,
                players: Players::FreeForAll(4),
                mines: 2,
                ..Ruleset::default()
            },
            Ruleset {
                salvo: Some(3),
                players: Players::FreeForAll(3),
                ..Ruleset::default()
            },
            Ruleset::default(),
        ];
        for (n, ruleset) in rulesets.into_iter().enumerate() {
            let (mut rec, mut rng) = record(ruleset, 20 + n as u64);
            let mut ruled_out = 0;
            loop {
                let finished = rec.game.is_finished();
                let public = rec.game.public_view();
                let picture = battle_picture(&rec);
                assert_eq!(picture.fields.len(), public.fields.len());
                for (drawn, seen) in picture.fields.iter().zip(&public.fields) {
                    // Exactly what the group may see; an unknown cell only ever ruled out.
                    assert_eq!(drawn.border, seen.border);
                    assert_eq!(drawn.marks, seen.marks);
                    // A cell known empty with no sunk ship beside it: a hit's corner.
                    ruled_out += seen
                        .size
                        .cells()
                        .filter(|&c| {
                            seen.mark(c) == Mark::Halo
                                && !c.around(seen.size).any(|d| seen.mark(d) == Mark::Sunk)
                        })
                        .count();
                    if !finished {
                        assert!(drawn.border.is_none());
                        assert!(!drawn
                            .marks
                            .iter()
                            .any(|m| matches!(m, Mark::Ship | Mark::IdleMine)));
                    }
                }
                let drawing = live_drawing(&rec, GameId(1), "bot");
                assert!(drawing.picture.is_some());
                assert!(
                    visible_len(&drawing.text) <= MAX_CAPTION,
                    "{}",
                    drawing.text
                );
                if finished {
                    assert!(drawing.keyboard.is_none());
                    break;
                }
                step(&mut rec, &mut rng);
                rec.mark_shown(rec.log_total);
            }
            // The classic duel rules out the corners of its hits.
            assert_eq!(ruled_out > 0, n == 2, "ruleset {n}");
        }
    }

    /// The names a caption uses: cut to [`NAME_IN_CAPTION`].
    fn caption_names(rec: &GameRecord) -> Vec<String> {
        (0..rec.names.len())
            .map(|i| rec.short_name(SeatId(i as u8), NAME_IN_CAPTION))
            .collect()
    }

    /// Draws captions of `rec` as the sender does, each marked drawn, until the group has
    /// seen every result; checks each one and gives back the ranges they showed.
    fn draw_until_all_shown(rec: &mut GameRecord) -> Vec<Shown> {
        let mut drawn = Vec::new();
        for _ in 0..1000 {
            let (caption, shown) = battle_caption(rec);
            assert!(
                visible_len(&caption) <= MAX_CAPTION,
                "{}",
                visible_len(&caption)
            );
            if rec.game.phase() == &Phase::Battle {
                for s in 0..rec.game.seats().len() as u8 {
                    let c = rec.game.commitment(SeatId(s)).unwrap();
                    assert_eq!(c.len(), 64);
                    assert!(caption.contains(&format!("<code>{c}</code>")), "{caption}");
                }
                assert!(!caption.contains("…</code>"), "{caption}");
            }
            let waiting = rec.log_total - shown.to;
            let more = ta(
                rec.lang,
                "battle-more",
                &[("count", (waiting as usize).into())],
            );
            assert_eq!(caption.contains(&more), waiting > 0, "{caption}");
            let base = rec.log_total - rec.log.len() as u64;
            let from = usize::try_from(shown.from.max(base) - base).unwrap();
            let to = usize::try_from(shown.to - base).unwrap();
            if shown.to > rec.delivery.log_shown {
                // The new results it shows, each in its line.
                let seen = usize::try_from(rec.delivery.log_shown - base).unwrap();
                let names = caption_names(rec);
                for line in run_lines(rec, &names, &rec.log[seen..to]) {
                    assert!(caption.contains(&line), "{line} in {caption}");
                }
                assert!(from <= seen);
            }
            let done = shown.to == rec.log_total;
            rec.mark_drawn(shown);
            drawn.push(shown);
            if done {
                return drawn;
            }
        }
        panic!("the results never all show");
    }

    #[test]
    fn a_burst_too_long_for_the_caption_shows_its_oldest_results_then_the_rest_and_keeps_the_commitments_whole(
    ) {
        let ruleset = Ruleset {
            field: Field::LandSeaAir,
            players: Players::FreeForAll(4),
            mines: 2,
            ..Ruleset::default()
        };
        let (mut rec, mut rng) = record(ruleset, 31);
        // Names of 64 letters, in Russian: long lines.
        rec.lang = Lang::Ru;
        for _ in 0..120 {
            step(&mut rec, &mut rng);
        }
        assert!(!rec.game.is_finished());
        // More than a caption holds: the first one says how many wait.
        let (first, shown) = battle_caption(&rec);
        assert!(shown.to < rec.log_total, "{first}");
        let more = ta(
            Lang::Ru,
            "battle-more",
            &[("count", ((rec.log_total - shown.to) as usize).into())],
        );
        assert!(first.contains(&more), "{first}");
        let drawn = draw_until_all_shown(&mut rec);
        assert!(drawn.len() > 2, "{drawn:?}");
        // One after the other, from the first result to the last: none left out (the last
        // few, when few are new, show with those before them).
        assert_eq!(drawn[0].from, 0);
        for pair in drawn.windows(2) {
            assert!(pair[1].from <= pair[0].to, "{drawn:?}");
            assert!(pair[1].to > pair[0].to, "{drawn:?}");
        }
        assert_eq!(drawn.last().unwrap().to, rec.log_total);
    }

    #[test]
    fn every_result_of_a_fast_game_shows_in_some_caption_whatever_the_bursts() {
        for (n, ruleset) in [
            Ruleset {
                field: Field::LandSeaAir,
                players: Players::FreeForAll(4),
                mines: 2,
                ..Ruleset::default()
            },
            Ruleset {
                salvo: Some(3),
                players: Players::FreeForAll(3),
                ..Ruleset::default()
            },
            Ruleset::default(),
        ]
        .into_iter()
        .enumerate()
        {
            let (mut rec, mut rng) = record(ruleset, 40 + n as u64);
            let mut next = 0;
            while !rec.game.is_finished() {
                // A burst of 1 to 60 moves between two redraws.
                for _ in 0..rng.gen_range(1..=60) {
                    step(&mut rec, &mut rng);
                    if rec.game.is_finished() {
                        break;
                    }
                }
                // One redraw, or more till the group caught up at the end.
                let (_, shown) = battle_caption(&rec);
                let drawn = if rec.game.is_finished() {
                    draw_until_all_shown(&mut rec)
                } else {
                    rec.mark_drawn(shown);
                    vec![shown]
                };
                for d in drawn {
                    // What it shows new starts where the group stopped.
                    assert!(d.to >= next, "{d:?} after {next}");
                    assert!(d.from <= next || d.to == next, "{d:?} after {next}");
                    next = d.to;
                }
            }
            assert_eq!(next, rec.log_total, "ruleset {n}");
        }
    }

    #[test]
    fn a_drawn_caption_is_drawn_the_same_until_a_new_result_comes() {
        let (mut rec, mut rng) = russian_duel(32);
        for burst in [1, 3, 9, 2, 30] {
            for _ in 0..burst {
                step(&mut rec, &mut rng);
            }
            let (first, shown) = battle_caption(&rec);
            let (text, text_shown) = battle_text_shown(&rec);
            assert_eq!(shown, text_shown);
            rec.mark_drawn(shown);
            // Drawn again with nothing new: the same words, so the sender edits nothing.
            assert_eq!(battle_caption(&rec).0, first, "after a burst of {burst}");
            assert_eq!(battle_text(&rec), text, "after a burst of {burst}");
        }
    }

    #[test]
    fn the_visible_length_is_counted_without_markup_and_in_utf16() {
        assert_eq!(visible_len("<b>a&lt;b</b>"), 3);
        assert_eq!(visible_len("🤖 ж"), 4);
    }
}
