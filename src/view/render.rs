//! Pure rendering: boards as monospace text, keyboards within Telegram's limits, and the
//! words for ships, rules, results and problems. Nothing here talks to Telegram.

use super::buttons::Button;
use super::keyboard::{Key, Keyboard};
use crate::game::lang::Lang;
use crate::view::i18n::{t, ta, Arg};
use engine::{
    format_cell, Alphabet, Contact, Coord, Event, Field, FieldView, Force, Kind, Mark, Players,
    Problem, Rule, Ruleset, Shapes, ShotResult, Size, Subject, Touching,
};

pub use super::keyboard::{MAX_BUTTONS, MAX_ROW};

/// One single-width character a cell: these are all one column wide in every monospace font
/// (emoji are not).
pub fn symbol(mark: Mark) -> char {
    match mark {
        Mark::Unknown => '·',
        Mark::Shot => '+',
        Mark::Miss => '•',
        Mark::Halo => '-',
        Mark::Hit => 'X',
        Mark::Sunk => '#',
        Mark::Mine => '*',
        Mark::Ship => 'O',
        Mark::IdleMine => 'm',
    }
}

/// Escapes text for Telegram's HTML parse mode.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A weapon typed in reply to the battle message, in any of the bot's languages: its word
/// (`радар`, `авиаудар`, `въздушен удар`, `torpedo` …), a cell, and for a torpedo from a
/// corner an arrow (`→ ← ↑ ↓`, or `> < ^ v`). `None` when the text names no weapon;
/// `Some(Err(()))` when it does but the rest is not a cell (and an arrow).
pub type TypedWeapon = (engine::Weapon, Coord, Option<engine::Heading>);

/// Reads a typed weapon (see [`TypedWeapon`]).
pub fn typed_weapon(text: &str, alphabet: Alphabet, size: Size) -> Option<Result<TypedWeapon, ()>> {
    let lower = text.trim().to_lowercase();
    let mut words: Vec<&str> = lower.split_whitespace().collect();
    let is = |w: &str, key: &str| {
        Lang::ALL
            .iter()
            .any(|&l| t(l, key).split_whitespace().any(|k| k == w))
    };
    // "air strike", "въздушен удар": the first word only qualifies the second.
    if words.len() > 1
        && is(words[0], "weapon-typed-air")
        && is(words[1], "weapon-typed-air-strike")
    {
        words.remove(0);
    }
    let first = *words.first()?;
    let weapon = [
        (engine::Weapon::Radar, "weapon-typed-radar"),
        (engine::Weapon::AirStrike, "weapon-typed-air-strike"),
        (engine::Weapon::Torpedo, "weapon-typed-torpedo"),
    ]
    .into_iter()
    .find(|(_, key)| is(first, key))?
    .0;
    let rest = &words[1..];
    let (cell, arrow) = match rest {
        [cell] => (*cell, None),
        [cell, arrow] => (*cell, Some(*arrow)),
        _ => return Some(Err(())),
    };
    let Ok(cell) = engine::parse_cell(cell, alphabet, size) else {
        return Some(Err(()));
    };
    let heading = match arrow {
        None => None,
        Some("→" | ">" | "->") => Some(engine::Heading::East),
        Some("←" | "<" | "<-") => Some(engine::Heading::West),
        Some("↓" | "v") => Some(engine::Heading::South),
        Some("↑" | "^") => Some(engine::Heading::North),
        Some(_) => return Some(Err(())),
    };
    if heading.is_some() && weapon != engine::Weapon::Torpedo {
        return Some(Err(()));
    }
    Some(Ok((weapon, cell, heading)))
}

/// HTML made of [`escape`]d text back to plain text (a button's answer is not HTML).
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// A field as monospace lines: column letters on top, row numbers on the left. `cell` gives
/// the character of each cell.
pub fn grid_text(size: Size, alphabet: Alphabet, cell: impl Fn(Coord) -> char) -> String {
    let pad = if size.height >= 10 { 2 } else { 1 };
    let mut out = format!("{:pad$} ", "");
    for x in 0..size.width {
        out.push(' ');
        out.push(alphabet.column_label(x, size.width));
    }
    for y in 0..size.height {
        out.push('\n');
        out.push_str(&format!("{:>pad$} ", y + 1));
        for x in 0..size.width {
            out.push(' ');
            out.push(cell(Coord::new(x, y)));
        }
    }
    out
}

/// A field as a viewer sees it; land shows as `,` where the viewer sees the border. A cell
/// known empty ([`engine::Game::known_empty`]: a sunk ship's halo, a hit's corners where
/// ships never touch) is `-`, as the engine marks it: what a press there is refused for.
pub fn field_text(field: &FieldView, alphabet: Alphabet) -> String {
    grid_text(field.size, alphabet, |c| {
        let mark = field.mark(c);
        let land = field.border.as_ref().is_some_and(|b| b.is_land(c));
        if land && mark == Mark::Unknown {
            ','
        } else {
            symbol(mark)
        }
    })
}

/// How a field is cut into blocks for the keyboard: any cell is at most two taps away
/// (a block, then the cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// The field.
    pub size: Size,
    /// Columns of a block.
    pub width: u8,
    /// Rows of a block.
    pub height: u8,
}

impl Viewport {
    /// The block layout for `size` with `reserved` other buttons in the keyboard: the fewest
    /// blocks, and among those the block width nearest to 5, easiest to tap on a phone.
    pub fn new(size: Size, reserved: usize) -> Viewport {
        let mut best: Option<(usize, u8, Viewport)> = None;
        for w in 1..=(MAX_ROW as u8).min(size.width) {
            for h in 1..=size.height {
                let v = Viewport {
                    size,
                    width: w,
                    height: h,
                };
                let blocks = v.blocks();
                let switch = if blocks > 1 { blocks } else { 0 };
                let total = usize::from(w) * usize::from(h) + switch + reserved;
                if total > MAX_BUTTONS {
                    continue;
                }
                let key = (blocks, w.abs_diff(5));
                if best.as_ref().is_none_or(|b| key < (b.0, b.1)) {
                    best = Some((blocks, w.abs_diff(5), v));
                }
            }
        }
        best.map(|b| b.2).unwrap_or(Viewport {
            size,
            width: 1,
            height: 1,
        })
    }

    fn across(self) -> usize {
        usize::from(self.size.width).div_ceil(usize::from(self.width))
    }

    fn down(self) -> usize {
        usize::from(self.size.height).div_ceil(usize::from(self.height))
    }

    /// Number of blocks.
    pub fn blocks(self) -> usize {
        self.across() * self.down()
    }

    /// The cells of block `b`, row by row.
    pub fn cells(self, b: u8) -> Vec<Vec<Coord>> {
        let b = usize::from(b) % self.blocks();
        let (bx, by) = ((b % self.across()) as u8, (b / self.across()) as u8);
        let (x0, y0) = (bx * self.width, by * self.height);
        let x1 = (x0 + self.width).min(self.size.width);
        let y1 = (y0 + self.height).min(self.size.height);
        (y0..y1)
            .map(|y| (x0..x1).map(|x| Coord::new(x, y)).collect())
            .collect()
    }

    /// The block holding `c`.
    pub fn block_of(self, c: Coord) -> u8 {
        let bx = usize::from(c.x / self.width);
        let by = usize::from(c.y / self.height);
        (by * self.across() + bx) as u8
    }

    /// A short label for block `b`: its columns, and its rows when blocks are stacked.
    pub fn label(self, b: u8, alphabet: Alphabet) -> String {
        let rows = self.cells(b);
        let (first, last) = (
            rows[0][0],
            *rows.last().and_then(|r| r.last()).unwrap_or(&rows[0][0]),
        );
        let col = |x| alphabet.column_label(x, self.size.width);
        let mut s = format!("{}–{}", col(first.x), col(last.x));
        if self.down() > 1 {
            s.push_str(&format!(" {}–{}", first.y + 1, last.y + 1));
        }
        s
    }
}

/// A keyboard: the cells of one block (label and button for each), the block switch when
/// there is more than one block, then `extra` rows.
pub fn grid_keyboard(
    view: Viewport,
    block: u8,
    alphabet: Alphabet,
    cell: impl Fn(Coord) -> (String, Button),
    switch: impl Fn(u8) -> Button,
    extra: Vec<Vec<Key>>,
) -> Keyboard {
    let mut rows: Vec<Vec<Key>> = view
        .cells(block)
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|c| {
                    let (label, button) = cell(c);
                    Key::callback(label, button.to_string())
                })
                .collect()
        })
        .collect();
    if view.blocks() > 1 {
        let current = usize::from(block) % view.blocks();
        let switch: Vec<Key> = (0..view.blocks() as u8)
            .map(|b| {
                let mut label = view.label(b, alphabet);
                if usize::from(b) == current {
                    label = format!("[{label}]");
                }
                Key::callback(label, switch(b).to_string())
            })
            .collect();
        rows.extend(switch.chunks(MAX_ROW).map(<[_]>::to_vec));
    }
    rows.extend(extra);
    Keyboard::new(rows)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weapon_is_typed_in_any_language_with_its_cell_and_a_torpedo_with_its_way() {
        use engine::{Heading, Weapon};
        let size = Size::new(10, 10);
        let ru = Alphabet::Russian;
        let cases = [
            (
                "радар д5",
                ru,
                Some(Ok((Weapon::Radar, Coord::new(4, 4), None))),
            ),
            (
                "Авиаудар б2",
                ru,
                Some(Ok((Weapon::AirStrike, Coord::new(1, 1), None))),
            ),
            (
                "въздушен удар б2",
                ru,
                Some(Ok((Weapon::AirStrike, Coord::new(1, 1), None))),
            ),
            (
                "торпеда а1 ↓",
                ru,
                Some(Ok((
                    Weapon::Torpedo,
                    Coord::new(0, 0),
                    Some(Heading::South),
                ))),
            ),
            (
                "Torpedo J10 <",
                Alphabet::Latin,
                Some(Ok((Weapon::Torpedo, Coord::new(9, 9), Some(Heading::West)))),
            ),
            (
                "air strike B2",
                Alphabet::Latin,
                Some(Ok((Weapon::AirStrike, Coord::new(1, 1), None))),
            ),
            ("radar", Alphabet::Latin, Some(Err(()))),
            ("radar e5 →", Alphabet::Latin, Some(Err(()))),
            ("торпедо а5 x", ru, Some(Err(()))),
            ("в6", ru, None),
            ("b6 c7", Alphabet::Latin, None),
        ];
        for (text, alphabet, want) in cases {
            assert_eq!(typed_weapon(text, alphabet, size), want, "{text}");
        }
    }

    #[test]
    fn the_viewport_keeps_every_keyboard_within_telegrams_limits() {
        for w in 5..=26 {
            for h in 5..=26 {
                for reserved in [0, 5, 8] {
                    let v = Viewport::new(Size::new(w, h), reserved);
                    let cells = usize::from(v.width) * usize::from(v.height);
                    let switch = if v.blocks() > 1 { v.blocks() } else { 0 };
                    assert!(v.width as usize <= MAX_ROW);
                    assert!(cells + switch + reserved <= MAX_BUTTONS, "{w}×{h}: {v:?}");
                    // Every cell is in exactly one block.
                    let mut seen = 0;
                    for b in 0..v.blocks() as u8 {
                        for row in v.cells(b) {
                            for c in row {
                                assert_eq!(v.block_of(c), b);
                                seen += 1;
                            }
                        }
                    }
                    assert_eq!(seen, usize::from(w) * usize::from(h));
                }
            }
        }
    }

    #[test]
    fn the_classic_field_is_cut_in_two_halves_of_five_columns() {
        let v = Viewport::new(Size::new(10, 10), 6);
        assert_eq!((v.width, v.height, v.blocks()), (5, 10, 2));
    }

    #[test]
    fn a_field_is_drawn_with_single_width_symbols_in_aligned_columns() {
        let text = grid_text(Size::new(10, 10), Alphabet::Russian, |_| {
            symbol(Mark::Unknown)
        });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        let widths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}");
        assert!(lines[0].contains("а б в г д е ж з и к"));
    }

    fn salvo(lang: Lang, hits: u8, mines: u8, sunk: Vec<Kind>) -> String {
        let e = Event::Salvo {
            shooter: engine::SeatId(0),
            target: engine::SeatId(1),
            shots: 5,
            hits,
            mines,
            sunk,
        };
        let names = ["Аня".to_owned(), "Боря".to_owned()];
        log_line(lang, &e, &names, Alphabet::Russian, Size::new(10, 10), true).unwrap()
    }

    #[test]
    fn a_salvo_is_told_in_counts_and_kinds_with_each_languages_plurals() {
        assert_eq!(
            salvo(Lang::Ru, 0, 0, vec![]),
            "Аня → Боря: залп из 5 — ни одного попадания"
        );
        assert_eq!(
            salvo(Lang::Ru, 1, 0, vec![]),
            "Аня → Боря: залп из 5 — 1 попадание"
        );
        assert_eq!(
            salvo(Lang::Ru, 3, 2, vec![Kind::Ship(2)]),
            "Аня → Боря: залп из 5 — 3 попадания, убиты: эсминец, 2 мины"
        );
        assert!(salvo(Lang::Ru, 5, 0, vec![]).ends_with("5 попаданий"));
        assert!(salvo(Lang::Bg, 1, 1, vec![]).ends_with("1 попадение, мина"));
        assert!(salvo(Lang::Bg, 2, 0, vec![]).ends_with("2 попадения"));
        assert_eq!(
            salvo(Lang::En, 2, 0, vec![Kind::Tank, Kind::Ship(1)]),
            "Аня → Боря: a salvo of 5 — 2 hits, sunk: tank, torpedo boat"
        );
    }

    /// The Russian words of `text` that can only be a man's past tense: a verb ending in
    /// -л or -лся (a woman's ends in -ла, -лась).
    fn masculine_past(text: &str) -> Vec<String> {
        // Nouns with the same ending that these lines may hold.
        const NOUNS: [&str; 2] = ["выстрел", "залп"];
        text.split(|c: char| !c.is_alphabetic())
            .map(str::to_lowercase)
            .filter(|w| w.chars().count() > 3 && (w.ends_with('л') || w.ends_with("лся")))
            .filter(|w| !NOUNS.contains(&w.as_str()))
            .collect()
    }

    #[test]
    fn lines_about_a_player_read_right_whoever_the_player_is() {
        let names = ["Аня".to_owned(), "Боря".to_owned()];
        let seat = engine::SeatId(0);
        let events = [
            Event::MineChoice {
                seat,
                remaining: 1,
                deadline: 0,
            },
            Event::GaveUp {
                seat,
                cell: Coord::new(2, 5),
                result: ShotResult::Miss,
                timed_out: true,
            },
            Event::GaveUp {
                seat,
                cell: Coord::new(2, 5),
                result: ShotResult::Miss,
                timed_out: false,
            },
            Event::Forfeit(seat),
            Event::Surrendered(seat),
            Event::Eliminated(seat),
            Event::Reminder(seat),
        ];
        let line = |lang, e: &Event| {
            log_line(lang, e, &names, Alphabet::Russian, Size::new(10, 10), false).unwrap()
        };
        for e in &events {
            let ru = line(Lang::Ru, e);
            assert!(ru.contains("Аня"), "{ru}");
            assert_eq!(masculine_past(&ru), Vec::<String>::new(), "{ru}");
        }
        assert_eq!(
            line(Lang::Ru, &events[0]),
            "Мина! Аня отдаёт 1 клетку своего флота (на выбор 60 с)."
        );
        assert_eq!(
            line(Lang::Ru, &events[1]),
            "Аня не успевает выбрать: взята клетка в6 — мимо"
        );
        assert_eq!(
            line(Lang::Ru, &events[3]),
            "Аня не успевает сходить и проигрывает."
        );
        // Bulgarian's past (aorist) is the same for everyone: «Аня попадна на мина».
        assert_eq!(
            line(Lang::Bg, &events[1]),
            "Аня не избра навреме: взета е в6 — промах"
        );
    }

    #[test]
    fn every_battle_salvo_and_mine_key_the_battle_uses_is_in_every_locale() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut used = std::collections::BTreeSet::new();
        // Every source file of the bot: the views and the adapter alike.
        let mut files = Vec::new();
        let mut dirs = vec![root.join("src")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        for file in files {
            let text = std::fs::read_to_string(file).unwrap();
            for part in text.split('"').skip(1).step_by(2) {
                let key = ["battle-", "salvo-", "mine-"]
                    .iter()
                    .any(|p| part.starts_with(p))
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if key {
                    used.insert(part.to_owned());
                }
            }
        }
        assert!(used.len() > 30, "{used:?}");
        for lang in Lang::ALL {
            let dir = root.join("locales").join(lang.code());
            let mut keys = std::collections::BTreeSet::new();
            for entry in std::fs::read_dir(dir).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                keys.extend(
                    text.lines()
                        .filter_map(|l| l.split_once(" ="))
                        .map(|(k, _)| k.to_owned()),
                );
            }
            for key in &used {
                assert!(keys.contains(key), "{lang} lacks {key}");
            }
        }
    }
}
