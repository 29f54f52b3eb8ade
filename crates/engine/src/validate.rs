//! Placement validation: every problem of a layout, each naming the ship, the cell and the rule.

use crate::coord::Coord;
use crate::fleet::{self, Contact, Ship};
use crate::kind::{Force, Kind};
use crate::ruleset::Ruleset;
use crate::shape;
use crate::terrain::{self, Border, BorderError};

/// What a problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The ship at this index of the draft.
    Ship {
        /// Index in the draft.
        index: usize,
        /// Its kind.
        kind: Kind,
    },
    /// The mine at this index of the draft.
    Mine {
        /// Index in the draft.
        index: usize,
    },
    /// Ships of this kind as a whole (for a missing ship).
    Fleet {
        /// The kind.
        kind: Kind,
    },
    /// The mines as a whole (for a missing mine).
    Mines,
    /// The land-sea border.
    Border,
}

/// The rule a problem breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The cell is off the field.
    OffField,
    /// The ship has a different number of cells than its kind.
    WrongSize,
    /// The ship's cells are not edge-connected.
    NotConnected,
    /// The ship's shape is not allowed (e.g. bent in a straight game).
    ShapeNotAllowed,
    /// The unit stands on terrain its force may not (a tank at sea).
    WrongTerrain(Force),
    /// Two items share the cell.
    Overlaps(Subject),
    /// Two items touch in a way the touching rule forbids.
    Touches(Subject, Contact),
    /// More ships of this kind than the fleet has.
    TooMany {
        /// How many the fleet has.
        expected: usize,
    },
    /// Ships of this kind are missing.
    Missing {
        /// How many are missing.
        count: usize,
    },
    /// More mines than the ruleset allows.
    TooManyMines {
        /// How many are allowed.
        expected: u8,
    },
    /// Mines are missing.
    MissingMines {
        /// How many are missing.
        count: u8,
    },
    /// The border breaks a rule.
    Border(BorderError),
}

/// One problem of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The ship, mine, kind or border it is about.
    pub subject: Subject,
    /// The cell where it is, when it has one.
    pub cell: Option<Coord>,
    /// The rule it breaks.
    pub rule: Rule,
}

/// Whether `cells` are an allowed shape for `kind` under `ruleset`.
pub fn shape_allowed(ruleset: &Ruleset, kind: Kind, cells: &[Coord]) -> bool {
    if cells.len() != usize::from(kind.size()) || !shape::is_connected(cells) {
        return false;
    }
    match kind.templates(ruleset.shapes()) {
        None => true,
        Some(allowed) => allowed.contains(&shape::canonical(cells)),
    }
}

/// Every problem of a layout under `ruleset`.
pub fn problems(
    ruleset: &Ruleset,
    ships: &[Ship],
    mines: &[Coord],
    border: Option<&Border>,
) -> Vec<Problem> {
    let size = ruleset.size();
    let mut out = Vec::new();
    let mut push = |subject, cell, rule| {
        out.push(Problem {
            subject,
            cell,
            rule,
        })
    };

    if ruleset.has_terrain() {
        match border.map(|b| b.check(size.width)) {
            Some(Ok(())) => {}
            Some(Err(e)) => push(Subject::Border, None, Rule::Border(e)),
            None => push(Subject::Border, None, Rule::Border(BorderError::WrongWidth)),
        }
    }

    // Ships and mines as one list of items, so contacts are checked once per pair.
    let mut items: Vec<(Subject, &[Coord], Force)> = ships
        .iter()
        .enumerate()
        .map(|(index, s)| {
            let subject = Subject::Ship {
                index,
                kind: s.kind,
            };
            (subject, s.cells.as_slice(), s.kind.force())
        })
        .collect();
    items.extend(
        mines
            .iter()
            .enumerate()
            .map(|(index, m)| (Subject::Mine { index }, std::slice::from_ref(m), Force::Sea)),
    );

    for (i, &(subject, cells, force)) in items.iter().enumerate() {
        if let Some(&c) = cells.iter().find(|&&c| !size.contains(c)) {
            push(subject, Some(c), Rule::OffField);
            continue;
        }
        if let Subject::Ship { kind, .. } = subject {
            let first = cells.first().copied();
            if cells.len() != usize::from(kind.size()) {
                push(subject, first, Rule::WrongSize);
            } else if !shape::is_connected(cells) {
                push(subject, first, Rule::NotConnected);
            } else if !shape_allowed(ruleset, kind, cells) {
                push(subject, first, Rule::ShapeNotAllowed);
            }
        }
        if ruleset.has_terrain() {
            if let Some(&c) = cells.iter().find(|&&c| !terrain::allows(border, force, c)) {
                push(subject, Some(c), Rule::WrongTerrain(force));
            }
        }
        for &(other, other_cells, _) in &items[..i] {
            match fleet::contact(other_cells, cells) {
                Some((Contact::Overlap, c)) => push(subject, Some(c), Rule::Overlaps(other)),
                Some((contact, c)) if fleet::forbidden(ruleset.touching(), contact) => {
                    push(subject, Some(c), Rule::Touches(other, contact));
                }
                _ => {}
            }
        }
    }

    let wanted = ruleset.fleet();
    let mut kinds = wanted.clone();
    kinds.dedup();
    for kind in kinds {
        let expected = wanted.iter().filter(|&&k| k == kind).count();
        let placed: Vec<usize> = (0..ships.len())
            .filter(|&i| ships[i].kind == kind)
            .collect();
        if placed.len() < expected {
            let count = expected - placed.len();
            push(Subject::Fleet { kind }, None, Rule::Missing { count });
        }
        for &index in placed.iter().skip(expected) {
            let subject = Subject::Ship { index, kind };
            push(
                subject,
                ships[index].cells.first().copied(),
                Rule::TooMany { expected },
            );
        }
    }
    for (index, s) in ships.iter().enumerate() {
        if !wanted.contains(&s.kind) {
            let subject = Subject::Ship {
                index,
                kind: s.kind,
            };
            push(
                subject,
                s.cells.first().copied(),
                Rule::TooMany { expected: 0 },
            );
        }
    }

    let placed = mines.len();
    if placed > usize::from(ruleset.mines) {
        for (index, &m) in mines.iter().enumerate().skip(usize::from(ruleset.mines)) {
            let rule = Rule::TooManyMines {
                expected: ruleset.mines,
            };
            push(Subject::Mine { index }, Some(m), rule);
        }
    } else if placed < usize::from(ruleset.mines) {
        let count = ruleset.mines - placed as u8;
        push(Subject::Mines, None, Rule::MissingMines { count });
    }
    out
}
