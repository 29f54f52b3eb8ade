//! The panel's words and keyboards, and the lobby's teams: pure functions of the settings
//! and a language.

use super::keyboard::Key;
use super::{bot as ai, render};
use crate::game::lang::Lang;
use crate::game::record::Board;
use crate::game::record::{GameRecord, SettingsPage};
use crate::game::GameId;
use crate::view::buttons::{Button, FieldChoice, Panel, SetOp};
use crate::view::i18n::{t, ta};
use engine::ai::Level;
use engine::{Alphabet, Field, Phase, Players, Ruleset, Shapes, Touching, TurnTimer};

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
    render::field_words(lang, r)
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

fn arsenal_words(lang: Lang, n: u8) -> String {
    ta(lang, "settings-arsenal", &[("count", n.into())])
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

/// How the fields are shown, in words.
pub fn board_words(lang: Lang, b: Board) -> String {
    t(
        lang,
        match b {
            Board::Picture => "settings-board-picture",
            Board::Text => "settings-board-text",
        },
    )
}

pub fn letters(a: Alphabet) -> String {
    a.columns(10).into_iter().collect()
}

/// What an op chose, in words, for the answer to the tap.
pub fn chosen_words(lang: Lang, op: SetOp, r: &Ruleset) -> String {
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
        SetOp::Arsenal(n) => arsenal_words(lang, n),
        SetOp::Players(p) => players_words(lang, p),
        SetOp::Timer(t) => timer_words(lang, t),
        SetOp::Alphabet(a) => letters(a),
        SetOp::Level(l) => ai::level_words(lang, l),
        SetOp::Board(b) => board_words(lang, b),
        SetOp::OwnTopics(on) => t(
            lang,
            if on {
                "settings-own-topics-on"
            } else {
                "settings-own-topics-off"
            },
        ),
        SetOp::Page(_) | SetOp::Swap(_) | SetOp::Done => String::new(),
    }
}

/// An answer fits Telegram's 200 characters.
pub fn short(text: String) -> String {
    if text.chars().count() <= 200 {
        text
    } else {
        let mut s: String = text.chars().take(199).collect();
        s.push('…');
        s
    }
}

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
    /// How the fields are shown.
    pub board: Board,
    /// Players seated (a lobby), for the seat swaps.
    pub seated: usize,
    /// A private chat: a duel against the bot only, so no players option.
    pub private: bool,
    /// A forum where the bot may manage topics: whether each new game gets a topic of its
    /// own (`None` elsewhere: no such option).
    pub own_topics: Option<bool>,
}

fn button(label: String, b: Button) -> Key {
    Key::callback(label, b.to_string())
}

fn mark(label: String, on: bool) -> String {
    if on {
        format!("✓ {label}")
    } else {
        label
    }
}

/// The panel's rows for a page: every row within Telegram's 8 buttons, all within 100.
pub fn panel_rows(lang: Lang, v: &PanelView) -> Vec<Vec<Key>> {
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
            let salvo = match r.salvo {
                None => t(lang, "settings-salvo-value-off"),
                Some(n) => ta(lang, "settings-salvo-value", &[("shots", n.into())]),
            };
            rows.push(option("settings-opt-salvo", salvo, SettingsPage::Salvo));
            rows.push(option(
                "settings-opt-mines",
                mines_words(lang, r.mines),
                SettingsPage::Mines,
            ));
            rows.push(option(
                "settings-opt-arsenal",
                arsenal_words(lang, r.arsenal),
                SettingsPage::Arsenal,
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
            let alphabets: Vec<Key> = Alphabet::ALL
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
                        button(mark(ai::level_words(lang, l), l == v.level), b)
                    })
                    .collect(),
            );
            rows.push(
                Board::ALL
                    .iter()
                    .map(|&b| {
                        button(
                            mark(board_words(lang, b), b == v.board),
                            set(SetOp::Board(b)),
                        )
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
            if let (Panel::Chat, Some(on)) = (v.panel, v.own_topics) {
                rows.push(vec![button(
                    mark(t(lang, "settings-own-topics"), on),
                    set(SetOp::OwnTopics(!on)),
                )]);
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
        SettingsPage::Arsenal => {
            for n in 0..=2 {
                rows.push(choice(
                    arsenal_words(lang, n),
                    r.arsenal == n,
                    SetOp::Arsenal(n),
                ));
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
pub fn panel_lines(lang: Lang, v: &PanelView) -> String {
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
            &[("level", ai::level_words(lang, v.level).into())]
        ),
    );
    text.push_str(&format!(
        "\n{}",
        ta(
            lang,
            "settings-board",
            &[("board", board_words(lang, v.board).into())]
        )
    ));
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
pub fn lobby_panel(rec: &GameRecord, id: GameId) -> Option<(String, Vec<Vec<Key>>)> {
    let page = rec.panel?;
    if *rec.game.phase() != Phase::Lobby {
        return None;
    }
    let v = PanelView {
        panel: Panel::Lobby(id, rec.delivery.generation),
        page,
        ruleset: rec.game.ruleset(),
        alphabet: rec.alphabet,
        level: rec.ai_level,
        board: rec.board,
        seated: rec.game.seats().len(),
        private: false,
        own_topics: None,
    };
    let text = format!(
        "{}\n{}",
        t(rec.lang, "settings-lobby-open"),
        render::escape(&panel_lines(rec.lang, &v))
    );
    Some((text, panel_rows(rec.lang, &v)))
}

/// The lobby's ⚙ button, which opens the panel.
pub fn open_button(rec: &GameRecord, id: GameId) -> Key {
    button(
        t(rec.lang, "settings-open"),
        Button::Set(
            Panel::Lobby(id, rec.delivery.generation),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::settings::custom;
    use crate::view::render::{MAX_BUTTONS, MAX_ROW};

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
                            board: Board::Text,
                            seated: 4,
                            private: false,
                            own_topics: None,
                        };
                        let rows = panel_rows(lang, &v);
                        // The lobby's Join, Start, Cancel row comes on top.
                        let total: usize = rows.iter().map(Vec::len).sum::<usize>() + 3;
                        assert!(total <= MAX_BUTTONS, "{page:?}: {total} buttons");
                        for row in &rows {
                            assert!(!row.is_empty() && row.len() <= MAX_ROW, "{page:?}");
                            for b in row {
                                assert!(!b.text.trim().is_empty(), "{page:?}: an empty label");
                                if let crate::view::keyboard::KeyKind::Callback(d) = &b.kind {
                                    assert!(d.len() <= crate::view::buttons::MAX_LEN);
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
            render::ruleset_words(Lang::En, &r),
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
            render::ruleset_words(Lang::Ru, &teams),
            "классика 10×10, 10 кораблей, корабли не касаются, по 2 мины у каждого, \
             две команды по два игрока, 3 минуты на ход"
        );
    }
}
