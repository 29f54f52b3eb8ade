//! The placement editor as the player sees it: its text and keyboard (pure).

use super::buttons::{Button, EditOp};
use super::keyboard::{Key, Keyboard};
use super::render::{self, escape, grid_keyboard, grid_text, Viewport};
use crate::game::lang::Lang;
use crate::game::record::{Editor, GameRecord, Tool};
use crate::game::GameId;
use crate::view::i18n::{t, ta};
use engine::Coord;

pub use crate::game::placement::cell_by_cell;

/// The control buttons under the cells: the first row always, a second for the tools the
/// ruleset needs.
pub fn controls(rec: &GameRecord, id: GameId, lang: Lang, ed: &Editor) -> Vec<Vec<Key>> {
    let r = rec.game.ruleset();
    let op = |key: &str, op: EditOp| Key::callback(t(lang, key), Button::Edit(id, op).to_string());
    let mut rows = vec![vec![
        op("btn-undo", EditOp::Undo),
        op("btn-clear", EditOp::Clear),
        op("btn-random", EditOp::Random),
        op("btn-perelman", EditOp::Perelman),
        op("btn-ready", EditOp::Ready),
    ]];
    let mut tools = Vec::new();
    if cell_by_cell(r) {
        let label = ta(lang, "btn-confirm", &[("count", ed.picked.len().into())]);
        tools.push(Key::callback(
            label,
            Button::Edit(id, EditOp::Confirm).to_string(),
        ));
    }
    let active = |tool: Tool, key: &str| {
        if ed.tool == tool {
            format!("✅ {}", t(lang, key))
        } else {
            t(lang, key)
        }
    };
    if r.mines > 0 {
        tools.push(Key::callback(
            active(Tool::Mine, "btn-mines"),
            Button::Edit(id, EditOp::Mines).to_string(),
        ));
    }
    if r.has_terrain() {
        tools.push(Key::callback(
            active(Tool::Border, "btn-border"),
            Button::Edit(id, EditOp::Border).to_string(),
        ));
        tools.push(op("btn-random-border", EditOp::RandomBorder));
    }
    if !tools.is_empty() {
        rows.push(tools);
    }
    rows
}

pub fn viewport(rec: &GameRecord) -> Viewport {
    let r = rec.game.ruleset();
    let tools =
        usize::from(cell_by_cell(r)) + usize::from(r.mines > 0) + 2 * usize::from(r.has_terrain());
    Viewport::new(r.size(), 5 + tools)
}

/// The editor's text: the field, what is still to place, and every problem.
pub fn editor_text(rec: &GameRecord, lang: Lang, ed: &Editor) -> String {
    let r = rec.game.ruleset();
    let size = r.size();
    let draft = &ed.draft;
    let field = grid_text(size, rec.alphabet, |c| {
        if ed.pending == Some(c) || ed.picked.contains(&c) {
            '+'
        } else if draft.ships().iter().any(|s| s.cells.contains(&c)) {
            'O'
        } else if draft.mines().contains(&c) {
            'm'
        } else if draft.border().is_some_and(|b| b.is_land(c)) {
            ','
        } else {
            '·'
        }
    });
    let mut text = format!("<b>{}</b>\n<pre>{field}</pre>", t(lang, "editor-title"));
    let missing = still_to_place(r, lang, draft);
    let problems: Vec<String> = draft
        .problems(r)
        .iter()
        .filter(|p| !matches!(p.rule, engine::Rule::Missing { .. }))
        .take(12)
        .map(|p| {
            format!(
                "• {}",
                escape(&render::problem_words(lang, p, rec.alphabet, size))
            )
        })
        .collect();
    if !missing.is_empty() {
        text.push_str(&format!(
            "\n{} {}",
            t(lang, "editor-to-place"),
            missing.join(", ")
        ));
    }
    if !problems.is_empty() {
        text.push_str(&format!(
            "\n\n{}\n{}",
            t(lang, "editor-problems"),
            problems.join("\n")
        ));
    }
    if missing.is_empty() && problems.is_empty() {
        text.push_str(&format!("\n{}", t(lang, "editor-complete")));
    }
    let hint = hint(rec, lang, ed);
    text.push_str(&format!("\n\n{hint}"));
    if r.has_terrain() {
        text.push_str(&format!("\n{}", t(lang, "editor-legend-land")));
    }
    text
}

/// What a tap does now, in words: the tool's, the first end's, or the shapes the rules allow.
pub fn hint(rec: &GameRecord, lang: Lang, ed: &Editor) -> String {
    let r = rec.game.ruleset();
    let size = r.size();
    match (ed.tool, ed.pending) {
        (Tool::Mine, _) => t(lang, "editor-hint-mine"),
        (Tool::Border, _) => t(lang, "editor-hint-border"),
        (Tool::Ship, Some(p)) => {
            let cell = render::cell_name(p, rec.alphabet, size);
            ta(lang, "editor-pending", &[("cell", cell.into())])
        }
        (Tool::Ship, None) if cell_by_cell(r) => {
            let shapes = match r.shapes() {
                engine::Shapes::Straight => "editor-shapes-straight",
                engine::Shapes::Bent => "editor-shapes-bent",
                engine::Shapes::Free => "editor-shapes-free",
            };
            format!("{}\n{}", t(lang, "editor-hint-cells"), t(lang, shapes))
        }
        (Tool::Ship, None) => t(lang, "editor-hint"),
    }
}

/// What is still to place, kind by kind, and the mines, in words.
pub fn still_to_place(r: &engine::Ruleset, lang: Lang, draft: &engine::Draft) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    let mut kinds = r.fleet();
    kinds.dedup();
    for kind in kinds {
        let wanted = r.fleet().iter().filter(|&&k| k == kind).count();
        let placed = draft.ships().iter().filter(|s| s.kind == kind).count();
        if placed < wanted {
            missing.push(ta(
                lang,
                "fleet-item",
                &[
                    ("ship", render::kind_name(lang, kind).into()),
                    ("count", (wanted - placed).into()),
                ],
            ));
        }
    }
    if usize::from(r.mines) > draft.mines().len() {
        missing.push(ta(
            lang,
            "fleet-mines",
            &[("count", (usize::from(r.mines) - draft.mines().len()).into())],
        ));
    }
    missing
}

/// The editor's keyboard.
pub fn editor_keyboard(rec: &GameRecord, id: GameId, lang: Lang, ed: &Editor) -> Keyboard {
    let size = rec.game.ruleset().size();
    let controls = controls(rec, id, lang, ed);
    grid_keyboard(
        viewport(rec),
        ed.block,
        rec.alphabet,
        |c: Coord| {
            let label = if ed.pending == Some(c) || ed.picked.contains(&c) {
                "+".to_owned()
            } else if ed.draft.ships().iter().any(|s| s.cells.contains(&c)) {
                "O".to_owned()
            } else if ed.draft.mines().contains(&c) {
                "m".to_owned()
            } else {
                render::cell_name(c, rec.alphabet, size)
            };
            (label, Button::Cell(id, size.index(c) as u16))
        },
        |b| Button::Block(id, b),
        controls,
    )
}

/// The answer to a tap of the editor: what it did, and whether it is an alert (a refusal).
pub fn edited_words(
    lang: Lang,
    alphabet: engine::Alphabet,
    size: engine::Size,
    what: &crate::game::placement::Edited,
) -> (String, bool) {
    use crate::game::placement::Edited;
    match what {
        Edited::Placed(kind) => (
            ta(
                lang,
                "editor-placed",
                &[("ship", super::render::kind_name(lang, *kind).into())],
            ),
            false,
        ),
        Edited::Pending => (t(lang, "editor-second-end"), false),
        Edited::Removed | Edited::Moved | Edited::Picked => (String::new(), false),
        Edited::Nothing => (t(lang, "editor-nothing"), false),
        Edited::Refused(p) => (super::render::problem_words(lang, p, alphabet, size), true),
        Edited::TooManyCells(n) => (
            ta(lang, "editor-too-many-cells", &[("count", (*n).into())]),
            true,
        ),
    }
}
