//! The placement editor's draft: a layout edited a step at a time, validated into a
//! [`Fleet`] only when the player is ready.

use crate::coord::Coord;
use crate::fleet::{Fleet, Ship};
use crate::kind::Kind;
use crate::ruleset::Ruleset;
use crate::terrain::{Border, BorderError};
use crate::validate::{self, Problem};
use crate::SCHEMA_VERSION;
use serde::{Deserialize, Serialize};

/// How many steps undo remembers.
pub const UNDO_DEPTH: usize = 32;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Layout {
    #[serde(rename = "s", default)]
    ships: Vec<Ship>,
    #[serde(rename = "m", default, skip_serializing_if = "Vec::is_empty")]
    mines: Vec<Coord>,
    #[serde(rename = "b", default, skip_serializing_if = "Option::is_none")]
    border: Option<Border>,
}

/// A layout under construction. Edits that are out of the field are refused at once; every
/// other problem (touching, shape, terrain, counts) is reported by [`Draft::problems`] and
/// [`Draft::validate`], so a player sees all of them together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// Schema version of the stored draft.
    pub v: u16,
    #[serde(flatten)]
    now: Layout,
    #[serde(rename = "u", default, skip_serializing_if = "Vec::is_empty")]
    undo: Vec<Layout>,
}

/// Why an edit was refused; the draft is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditError {
    /// A cell lies outside the field.
    OffField(Coord),
    /// No cells were given, or the same cell twice.
    BadCells,
    /// Nothing stands on that cell.
    NothingThere(Coord),
    /// The ruleset has no border, or the border move breaks a rule.
    Border(Option<BorderError>),
    /// Nothing to undo.
    NothingToUndo,
}

/// The validation's refusal: every problem, and the draft handed back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// Every problem found.
    pub problems: Vec<Problem>,
    /// The draft, unchanged.
    pub draft: Box<Draft>,
}

impl Draft {
    /// An empty draft for `ruleset`; land-sea-air starts with a flat border at row 8.
    pub fn new(ruleset: &Ruleset) -> Draft {
        let border = ruleset
            .has_terrain()
            .then(|| Border::flat(ruleset.size().width, 7));
        Draft {
            v: SCHEMA_VERSION,
            now: Layout {
                border,
                ..Layout::default()
            },
            undo: Vec::new(),
        }
    }

    /// A draft holding a whole fleet (from a generator), undoable as one step.
    pub fn fill(&mut self, fleet: &Fleet) {
        self.push();
        self.now = Layout {
            ships: fleet.ships().to_vec(),
            mines: fleet.mines().to_vec(),
            border: fleet.border().cloned(),
        };
    }

    /// The ships placed so far.
    pub fn ships(&self) -> &[Ship] {
        &self.now.ships
    }

    /// The mines placed so far.
    pub fn mines(&self) -> &[Coord] {
        &self.now.mines
    }

    /// The border, in land-sea-air.
    pub fn border(&self) -> Option<&Border> {
        self.now.border.as_ref()
    }

    /// Steps undo can take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    fn push(&mut self) {
        if self.undo.len() == UNDO_DEPTH {
            self.undo.remove(0);
        }
        self.undo.push(self.now.clone());
    }

    fn check_cells(ruleset: &Ruleset, cells: &[Coord]) -> Result<(), EditError> {
        let size = ruleset.size();
        if let Some(&c) = cells.iter().find(|&&c| !size.contains(c)) {
            return Err(EditError::OffField(c));
        }
        let mut sorted = cells.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if cells.is_empty() || sorted.len() != cells.len() {
            return Err(EditError::BadCells);
        }
        Ok(())
    }

    /// Places a ship of `kind` on `cells`.
    ///
    /// # Errors
    /// [`EditError::OffField`] or [`EditError::BadCells`]; the draft is unchanged.
    pub fn place(
        &mut self,
        ruleset: &Ruleset,
        kind: Kind,
        cells: Vec<Coord>,
    ) -> Result<(), EditError> {
        Self::check_cells(ruleset, &cells)?;
        self.push();
        self.now.ships.push(Ship { kind, cells });
        Ok(())
    }

    /// Places a straight ship between two end cells (tapped in either order), choosing its kind
    /// with [`Draft::kind_for`]. Returns the kind placed.
    ///
    /// # Errors
    /// [`EditError::BadCells`] when the ends are not on one row or column; see [`Draft::place`].
    pub fn place_line(&mut self, ruleset: &Ruleset, a: Coord, b: Coord) -> Result<Kind, EditError> {
        if a.x != b.x && a.y != b.y {
            return Err(EditError::BadCells);
        }
        let cells: Vec<Coord> = if a.x == b.x {
            (a.y.min(b.y)..=a.y.max(b.y))
                .map(|y| Coord::new(a.x, y))
                .collect()
        } else {
            (a.x.min(b.x)..=a.x.max(b.x))
                .map(|x| Coord::new(x, a.y))
                .collect()
        };
        let kind = self.kind_for(ruleset, &cells);
        self.place(ruleset, kind, cells)?;
        Ok(kind)
    }

    /// The kind a ship on `cells` is most likely meant to be: the first kind of the fleet with
    /// that many cells, an allowed shape, fitting terrain and a ship still missing; failing
    /// that, a plain ship of that size (validation then names the problem).
    pub fn kind_for(&self, ruleset: &Ruleset, cells: &[Coord]) -> Kind {
        let fleet = ruleset.fleet();
        let placed = |k: Kind| self.now.ships.iter().filter(|s| s.kind == k).count();
        let wanted = |k: Kind| fleet.iter().filter(|&&f| f == k).count();
        let mut candidates = fleet
            .iter()
            .copied()
            .filter(|k| usize::from(k.size()) == cells.len());
        let fits = |k: &Kind| {
            validate::shape_allowed(ruleset, *k, cells)
                && cells
                    .iter()
                    .all(|&c| crate::terrain::allows(self.border(), k.force(), c))
        };
        let all: Vec<Kind> = candidates.by_ref().collect();
        all.iter()
            .copied()
            .find(|k| fits(k) && placed(*k) < wanted(*k))
            .or_else(|| all.iter().copied().find(fits))
            .unwrap_or(Kind::Ship(cells.len().min(26) as u8))
    }

    /// Removes the ship or mine standing on `c`.
    ///
    /// # Errors
    /// [`EditError::NothingThere`]; the draft is unchanged.
    pub fn remove_at(&mut self, c: Coord) -> Result<(), EditError> {
        if let Some(i) = self.now.ships.iter().position(|s| s.cells.contains(&c)) {
            self.push();
            self.now.ships.remove(i);
        } else if let Some(i) = self.now.mines.iter().position(|&m| m == c) {
            self.push();
            self.now.mines.remove(i);
        } else {
            return Err(EditError::NothingThere(c));
        }
        Ok(())
    }

    /// Moves the ship standing on `from` to `cells` (turned, or dragged elsewhere), as one
    /// step: it keeps its kind when the kind fits the new cells, else it takes
    /// [`Draft::kind_for`]'s. Returns the kind it has now.
    ///
    /// # Errors
    /// [`EditError::NothingThere`] when no ship stands on `from`, and those of
    /// [`Draft::place`]; the draft is unchanged.
    pub fn move_ship(
        &mut self,
        ruleset: &Ruleset,
        from: Coord,
        cells: Vec<Coord>,
    ) -> Result<Kind, EditError> {
        Self::check_cells(ruleset, &cells)?;
        let i = self
            .now
            .ships
            .iter()
            .position(|s| s.cells.contains(&from))
            .ok_or(EditError::NothingThere(from))?;
        self.push();
        let old = self.now.ships.remove(i);
        let fits = validate::shape_allowed(ruleset, old.kind, &cells)
            && cells
                .iter()
                .all(|&c| crate::terrain::allows(self.border(), old.kind.force(), c));
        let kind = if fits {
            old.kind
        } else {
            self.kind_for(ruleset, &cells)
        };
        self.now.ships.insert(i, Ship { kind, cells });
        Ok(kind)
    }

    /// Places a mine on `c`.
    ///
    /// # Errors
    /// [`EditError::OffField`]; the draft is unchanged.
    pub fn place_mine(&mut self, ruleset: &Ruleset, c: Coord) -> Result<(), EditError> {
        Self::check_cells(ruleset, &[c])?;
        self.push();
        self.now.mines.push(c);
        Ok(())
    }

    /// Replaces the border.
    ///
    /// # Errors
    /// [`EditError::Border`] when the ruleset has no border or this one breaks a rule.
    pub fn set_border(&mut self, ruleset: &Ruleset, border: Border) -> Result<(), EditError> {
        if self.now.border.is_none() {
            return Err(EditError::Border(None));
        }
        border
            .check(ruleset.size().width)
            .map_err(|e| EditError::Border(Some(e)))?;
        self.push();
        self.now.border = Some(border);
        Ok(())
    }

    /// Moves the border of one column up (`-1`) or down (`+1`).
    ///
    /// # Errors
    /// [`EditError::Border`]; the draft is unchanged.
    pub fn shift_border(&mut self, column: u8, delta: i8) -> Result<(), EditError> {
        let border = self.now.border.as_ref().ok_or(EditError::Border(None))?;
        let moved = border
            .shifted(column, delta)
            .map_err(|e| EditError::Border(Some(e)))?;
        self.push();
        self.now.border = Some(moved);
        Ok(())
    }

    /// Takes back the last edit.
    ///
    /// # Errors
    /// [`EditError::NothingToUndo`].
    pub fn undo(&mut self) -> Result<(), EditError> {
        self.now = self.undo.pop().ok_or(EditError::NothingToUndo)?;
        Ok(())
    }

    /// Removes every ship and mine (the border stays); undoable.
    pub fn clear(&mut self) {
        self.push();
        self.now.ships.clear();
        self.now.mines.clear();
    }

    /// Every problem of the draft under `ruleset`; empty when it is a legal fleet.
    pub fn problems(&self, ruleset: &Ruleset) -> Vec<Problem> {
        validate::problems(
            ruleset,
            &self.now.ships,
            &self.now.mines,
            self.now.border.as_ref(),
        )
    }

    /// Turns the draft into a fleet.
    ///
    /// # Errors
    /// [`Rejected`] with every problem and the draft handed back unchanged.
    pub fn validate(self, ruleset: &Ruleset) -> Result<Fleet, Rejected> {
        let problems = self.problems(ruleset);
        if !problems.is_empty() {
            return Err(Rejected {
                problems,
                draft: Box::new(self),
            });
        }
        Ok(Fleet::new_unchecked(
            self.now.ships,
            self.now.mines,
            self.now.border,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_ship_keeps_its_kind_and_one_undo_puts_it_back() {
        let r = Ruleset::default();
        let mut d = Draft::new(&r);
        let at = |x, y| Coord::new(x, y);
        let kind = d.place_line(&r, at(0, 0), at(3, 0)).unwrap();
        let before = d.clone();
        // Turned about its first cell.
        let turned: Vec<Coord> = (0..4).map(|y| at(0, y)).collect();
        assert_eq!(d.move_ship(&r, at(2, 0), turned.clone()), Ok(kind));
        assert_eq!(d.ships().len(), 1);
        assert_eq!(d.ships()[0].cells, turned);
        d.undo().unwrap();
        assert_eq!(d, before, "a move is one step");
        // Refused as a whole: nothing there, off the field, a cell twice.
        assert_eq!(
            d.move_ship(&r, at(5, 5), vec![at(5, 5)]),
            Err(EditError::NothingThere(at(5, 5)))
        );
        assert_eq!(
            d.move_ship(&r, at(0, 0), vec![at(9, 0), at(10, 0)]),
            Err(EditError::OffField(at(10, 0)))
        );
        assert_eq!(
            d.move_ship(&r, at(0, 0), vec![at(1, 1), at(1, 1)]),
            Err(EditError::BadCells)
        );
        assert_eq!(d, before);
        // Moved onto cells of another size: the kind of that size.
        let kind3 = d
            .move_ship(&r, at(0, 0), vec![at(4, 4), at(5, 4), at(6, 4)])
            .unwrap();
        assert_eq!(kind3.size(), 3);
    }
}
