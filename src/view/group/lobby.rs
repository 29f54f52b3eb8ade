//! The lobby's message, and the card of an inline invitation.

use super::*;
use crate::game::record::GameKind;
use crate::game::record::Play;

pub(super) fn lobby_message(
    rec: &GameRecord,
    id: GameId,
    username: &str,
) -> (String, Option<Keyboard>) {
    let lang = rec.lang;
    let game = &rec.game;
    let seats = game.ruleset().seats();
    let (title, rules) = match rec.play {
        Play::Riga(_) => (t(lang, "rg-lobby-title"), t(lang, "rg-lobby-rules")),
        Play::SeaBattle(_) => (
            t(lang, "lobby-title"),
            escape(&render::ruleset_words(lang, game.ruleset())),
        ),
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
    text.push_str(&crate::view::panel::team_lines(rec, |i| {
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
        let panel = crate::view::panel::lobby_panel(rec, id);
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
        // The other game, and the rules panel of the game that has one.
        let toggle = |key: &str| Key::callback(t(lang, key), Button::RigaToggle(id, g).to_string());
        rows.push(match rec.play {
            Play::Riga(_) => vec![toggle("rg-btn-seabattle")],
            Play::SeaBattle(_) => vec![
                crate::view::panel::open_button(rec, id),
                toggle("rg-btn-riga"),
            ],
        });
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
    kind: GameKind,
) -> (String, Keyboard) {
    let (game, rules) = match kind {
        GameKind::Riga => (
            t(lang, "inline-riga-title"),
            t(lang, "inline-riga-description"),
        ),
        GameKind::SeaBattle => (
            t(lang, "inline-sea-title"),
            render::ruleset_words(lang, ruleset),
        ),
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
        Button::Card(sender, kind).to_string(),
    )]]);
    (text, kb)
}
