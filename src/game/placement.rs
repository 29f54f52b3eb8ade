//! Placement: the editor's taps on a seat's draft (stored apart from the game, so taps of
//! two players never conflict), the bot's fleets, and Ready, which locks a fleet in the game.

use super::delivery::Effect;
use super::press::{pressed, Press};
use super::record::{Editor, GameRecord, Tool};
use super::refused::Refused;
use engine::ai::{hard_fleet, Level};
use engine::{
    perelman_fleet, random_fleet, Action, ActionError, Coord, Draft, Event, Fleet, Phase, PlayerId,
    Problem, Ruleset, RulesetError, SeatId,
};
use rand::rngs::StdRng;
use rand::Rng;

/// A placement editor command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditOp {
    /// Take back the last edit.
    Undo,
    /// Remove every ship.
    Clear,
    /// A random layout.
    Random,
    /// Perelman's layout.
    Perelman,
    /// Lock the fleet.
    Ready,
    /// Place the ship of the tapped cells.
    Confirm,
    /// Taps place mines (again: ships).
    Mines,
    /// Taps move the land-sea border (again: ships).
    Border,
    /// A random land-sea border.
    RandomBorder,
}

/// One press on the editor's keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Show block `n` of `blocks` of the field.
    Block(u8, u8),
    /// A tap on this cell with the editor's tool.
    Cell(Coord),
    /// A command (Ready is [`ready`]'s, not an edit).
    Op(EditOp),
}

/// A change of a seat's draft: a press of the chat editor's keyboard (or the same tap on the
/// Mini App's board), or a ship dragged or turned on the Mini App's board ([`move_ship`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A press, as the keyboard's.
    Edit(Edit),
    /// A ship dragged: from the dock (`from` none) or the field, to `cells` (none: the dock).
    Move {
        /// A cell of the ship moved, if it is on the field.
        from: Option<Coord>,
        /// Where it goes.
        cells: Vec<Coord>,
    },
}

/// One change of a seat's draft, from the chat or the page alike.
pub fn change(r: &Ruleset, ed: &mut Editor, c: Change, rng: &mut StdRng) -> Edited {
    match c {
        Change::Edit(e) => edit(r, ed, e, rng),
        Change::Move { from, cells } => move_ship(r, ed, from, cells),
    }
}

/// What an edit did, for the answer to the tap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edited {
    /// A ship of this kind is placed.
    Placed(engine::Kind),
    /// The first end is tapped: the second is awaited.
    Pending,
    /// A cell is picked for a ship of any shape (or picked no more).
    Picked,
    /// A ship or mine is removed.
    Removed,
    /// The view, the tool or the layout changed.
    Moved,
    /// Nothing changed.
    Nothing,
    /// Refused by the rules: the problem.
    Refused(Problem),
    /// More cells picked than the largest ship has: that many.
    TooManyCells(usize),
}

/// Whether ships are placed cell by cell and confirmed (any shape, or land-sea-air), rather
/// than by their two ends.
pub fn cell_by_cell(r: &Ruleset) -> bool {
    r.shapes() != engine::Shapes::Straight || r.has_terrain()
}

/// Where a seat may edit its draft: a seat of this game, placing, its fleet not locked.
///
/// # Errors
/// [`Refused::NotAPlayer`], [`Refused::GameOver`], [`Refused::OutOfDate`] outside the
/// placement, [`Refused::Locked`] once its fleet is locked.
pub fn editing_seat(rec: &GameRecord, player: PlayerId) -> Result<SeatId, Refused> {
    let seat = rec.game.seat_of(player).ok_or(Refused::NotAPlayer)?;
    if rec.game.phase() != &Phase::Placement {
        return Err(if rec.is_finished() {
            Refused::GameOver
        } else {
            Refused::OutOfDate
        });
    }
    if rec.game.is_ready(seat) {
        return Err(Refused::Locked);
    }
    Ok(seat)
}

/// One edit of a seat's draft under `r` (a random layout or border from `rng`).
pub fn edit(r: &Ruleset, ed: &mut Editor, e: Edit, rng: &mut StdRng) -> Edited {
    let size = r.size();
    let drop_picks = |ed: &mut Editor| {
        ed.pending = None;
        ed.picked.clear();
    };
    match e {
        Edit::Block(b, blocks) => {
            ed.block = b % blocks.max(1);
            Edited::Moved
        }
        Edit::Cell(c) if size.contains(c) => tap(r, ed, c),
        Edit::Cell(_) | Edit::Op(EditOp::Ready) => Edited::Nothing,
        Edit::Op(EditOp::Undo) => {
            drop_picks(ed);
            match ed.draft.undo() {
                Ok(()) => Edited::Removed,
                Err(_) => Edited::Nothing,
            }
        }
        Edit::Op(EditOp::Clear) => {
            drop_picks(ed);
            ed.draft.clear();
            Edited::Removed
        }
        Edit::Op(op @ (EditOp::Random | EditOp::Perelman)) => {
            drop_picks(ed);
            let fleet = if op == EditOp::Random {
                random_fleet(r, rng)
            } else {
                perelman_fleet(r, rng)
            };
            match fleet {
                Ok(f) => {
                    ed.draft.fill(&f);
                    Edited::Moved
                }
                Err(_) => Edited::Nothing,
            }
        }
        Edit::Op(EditOp::Confirm) => confirm(r, ed),
        Edit::Op(op @ (EditOp::Mines | EditOp::Border)) => {
            let tool = if op == EditOp::Mines {
                Tool::Mine
            } else {
                Tool::Border
            };
            ed.pending = None;
            ed.tool = if ed.tool == tool { Tool::Ship } else { tool };
            Edited::Moved
        }
        Edit::Op(EditOp::RandomBorder) if r.has_terrain() => {
            let border = engine::Border::random(size.width, rng);
            match ed.draft.set_border(r, border) {
                Ok(()) => Edited::Moved,
                Err(_) => Edited::Nothing,
            }
        }
        Edit::Op(EditOp::RandomBorder) => Edited::Nothing,
    }
}

/// A tap on cell `c` with the editor's tool.
fn tap(r: &Ruleset, ed: &mut Editor, c: Coord) -> Edited {
    let on_item =
        ed.draft.ships().iter().any(|s| s.cells.contains(&c)) || ed.draft.mines().contains(&c);
    match ed.tool {
        Tool::Border => {
            let Some(border) = ed.draft.border() else {
                return Edited::Nothing;
            };
            // A tap on sea raises the land of that column by a row; on land, lowers it.
            let delta = if border.is_land(c) { 1 } else { -1 };
            match ed.draft.shift_border(c.x, delta) {
                Ok(()) => Edited::Moved,
                Err(engine::EditError::Border(Some(e))) => Edited::Refused(Problem {
                    subject: engine::Subject::Border,
                    cell: Some(c),
                    rule: engine::Rule::Border(e),
                }),
                Err(_) => Edited::Nothing,
            }
        }
        _ if on_item => {
            ed.pending = None;
            match ed.draft.remove_at(c) {
                Ok(()) => Edited::Removed,
                Err(_) => Edited::Nothing,
            }
        }
        Tool::Mine => match ed.draft.place_mine(r, c) {
            Ok(()) => Edited::Moved,
            Err(_) => Edited::Nothing,
        },
        Tool::Ship if cell_by_cell(r) => {
            if let Some(i) = ed.picked.iter().position(|&p| p == c) {
                ed.picked.remove(i);
                return Edited::Picked;
            }
            let largest = r
                .fleet()
                .iter()
                .map(|k| usize::from(k.size()))
                .max()
                .unwrap_or(1);
            if ed.picked.len() >= largest {
                return Edited::TooManyCells(largest);
            }
            ed.picked.push(c);
            Edited::Picked
        }
        Tool::Ship => {
            if let Some(a) = ed.pending.take() {
                match ed.draft.place_line(r, a, c) {
                    Ok(kind) => Edited::Placed(kind),
                    Err(_) => {
                        ed.pending = Some(c);
                        Edited::Pending
                    }
                }
            } else {
                ed.pending = Some(c);
                Edited::Pending
            }
        }
    }
}

/// Confirm: the tapped cells become a ship, if their shape is one the fleet still has room
/// for under the rules; otherwise the cells stay picked and the answer says why.
fn confirm(r: &Ruleset, ed: &mut Editor) -> Edited {
    if ed.picked.is_empty() {
        return Edited::Nothing;
    }
    let cells = ed.picked.clone();
    let kind = ed.draft.kind_for(r, &cells);
    if ed.draft.place(r, kind, cells).is_err() {
        return Edited::Nothing;
    }
    let index = ed.draft.ships().len() - 1;
    if let Some(p) = shape_problem(r, ed, index) {
        let _ = ed.draft.undo();
        return Edited::Refused(p);
    }
    ed.picked.clear();
    Edited::Placed(kind)
}

/// What is wrong with the shape of ship `index` of the draft (its size, its cells not
/// joined, a shape the rules forbid, a unit on the wrong ground): an edit that makes such a
/// ship is taken back.
fn shape_problem(r: &Ruleset, ed: &Editor, index: usize) -> Option<Problem> {
    ed.draft.problems(r).into_iter().find(|p| {
        matches!(p.subject, engine::Subject::Ship { index: i, .. } if i == index)
            && matches!(
                p.rule,
                engine::Rule::WrongSize
                    | engine::Rule::NotConnected
                    | engine::Rule::ShapeNotAllowed
                    | engine::Rule::WrongTerrain(_)
            )
    })
}

/// A ship dragged on the Mini App's board: from the dock (`from` none) or from the field
/// (the ship on `from`) to `cells`, or back to the dock (`cells` empty). A turn is a move
/// to the turned cells. A shape the rules do not allow is refused as the editor's Confirm
/// refuses it; touching and counts are left to the problems, as after any tap.
pub fn move_ship(r: &Ruleset, ed: &mut Editor, from: Option<Coord>, cells: Vec<Coord>) -> Edited {
    ed.pending = None;
    ed.picked.clear();
    let on_ship =
        |ed: &Editor, c: Coord| ed.draft.ships().iter().position(|s| s.cells.contains(&c));
    let (index, kind) = match (from, cells.is_empty()) {
        (None, true) => return Edited::Nothing,
        (Some(c), true) => {
            return match on_ship(ed, c) {
                Some(_) if ed.draft.remove_at(c).is_ok() => Edited::Removed,
                _ => Edited::Nothing,
            }
        }
        (None, false) => {
            let kind = ed.draft.kind_for(r, &cells);
            if ed.draft.place(r, kind, cells).is_err() {
                return Edited::Nothing;
            }
            (ed.draft.ships().len() - 1, kind)
        }
        (Some(c), false) => {
            let Some(index) = on_ship(ed, c) else {
                return Edited::Nothing;
            };
            match ed.draft.move_ship(r, c, cells) {
                Ok(kind) => (index, kind),
                Err(_) => return Edited::Nothing,
            }
        }
    };
    if let Some(p) = shape_problem(r, ed, index) {
        let _ = ed.draft.undo();
        return Edited::Refused(p);
    }
    Edited::Placed(kind)
}

/// Ready: the seat's draft, checked against the rules, becomes its locked fleet; its private
/// message becomes the own field (with the battle, every field does).
///
/// # Errors
/// [`Refused::IllegalFleet`] with every problem, [`Refused::Locked`], and the checks of
/// [`editing_seat`].
pub fn ready(
    rec: &mut GameRecord,
    player: PlayerId,
    draft: &Draft,
    press: Option<&Press<'_, Vec<Event>>>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    pressed(rec, press, |rec| {
        let seat = editing_seat(rec, player)?;
        let fleet = draft
            .clone()
            .validate(rec.game.ruleset())
            .map_err(|rejected| {
                Refused::IllegalFleet(rejected.problems, rec.alphabet, rec.game.ruleset().size())
            })?;
        let events = rec.game.apply(Action::Ready(seat, fleet), now, rng)?;
        rec.push_effect(Effect::Dm { seat: seat.0 });
        Ok(events)
    })
}

/// The bot's fleet for a level: random for easy; random or Perelman's for normal; for hard,
/// and learning, the layout the engine chooses to be dear for a strong shooter.
///
/// # Errors
/// The rules have no legal layout within the generators' tries.
pub fn bot_fleet(
    ruleset: &Ruleset,
    level: Level,
    rng: &mut impl Rng,
) -> Result<Fleet, RulesetError> {
    match level {
        Level::Easy => random_fleet(ruleset, rng),
        Level::Normal if rng.gen_bool(0.5) => random_fleet(ruleset, rng),
        Level::Normal => perelman_fleet(ruleset, rng),
        Level::Hard | Level::Learning => hard_fleet(ruleset, rng),
    }
}

/// Locks a fleet for every seat of the bot that has none yet (in the Start transition).
///
/// # Errors
/// [`Refused::IllegalFleet`] when the rules give the bot no layout.
pub fn place_bot_fleets(
    rec: &mut GameRecord,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    let mut events = Vec::new();
    for seat in rec.ai_seats() {
        if rec.game.is_ready(seat) {
            continue;
        }
        let fleet = bot_fleet(rec.game.ruleset(), rec.ai_level, rng)
            .map_err(|_| ActionError::IllegalFleet(Vec::new()))?;
        events.extend(rec.game.apply(Action::Ready(seat, fleet), now, rng)?);
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Kind, Rule, Shapes};

    fn row(x: u8, y: u8, len: u8) -> Vec<Coord> {
        (x..x + len).map(|x| Coord::new(x, y)).collect()
    }

    #[test]
    fn a_ship_dragged_from_the_dock_turned_moved_and_put_back() {
        let r = Ruleset::default();
        let mut ed = Editor::new(&r);
        ed.pending = Some(Coord::new(9, 9));
        assert_eq!(
            move_ship(&r, &mut ed, None, row(0, 0, 4)),
            Edited::Placed(Kind::Ship(4))
        );
        assert_eq!(ed.pending, None, "a drag ends a half-placed ship");
        // A conflict is kept, and told by the problems: a boat touching the battleship.
        assert_eq!(
            move_ship(&r, &mut ed, None, row(4, 1, 1)),
            Edited::Placed(Kind::Ship(1))
        );
        assert!(ed
            .draft
            .problems(&r)
            .iter()
            .any(|p| matches!(p.rule, Rule::Touches(..))));
        // Moved away, the conflict is gone.
        assert_eq!(
            move_ship(&r, &mut ed, Some(Coord::new(4, 1)), row(6, 5, 1)),
            Edited::Placed(Kind::Ship(1))
        );
        assert!(!ed
            .draft
            .problems(&r)
            .iter()
            .any(|p| matches!(p.rule, Rule::Touches(..) | Rule::Overlaps(..))));
        // Turned about its first cell: the same ship, upright.
        let upright: Vec<Coord> = (0..4).map(|y| Coord::new(0, y)).collect();
        assert_eq!(
            move_ship(&r, &mut ed, Some(Coord::new(0, 0)), upright.clone()),
            Edited::Placed(Kind::Ship(4))
        );
        assert_eq!(ed.draft.ships()[0].cells, upright);
        assert_eq!(ed.draft.ships().len(), 2);
        // A bent shape is refused in the classic game, and changes nothing.
        let before = ed.clone();
        let bent = vec![Coord::new(5, 8), Coord::new(6, 8), Coord::new(6, 9)];
        assert!(matches!(
            move_ship(&r, &mut ed, None, bent.clone()),
            Edited::Refused(_)
        ));
        assert_eq!(ed, before);
        // Back to the dock; a drag from an empty cell does nothing.
        assert_eq!(
            move_ship(&r, &mut ed, Some(Coord::new(0, 2)), vec![]),
            Edited::Removed
        );
        assert_eq!(ed.draft.ships().len(), 1);
        assert_eq!(
            move_ship(&r, &mut ed, Some(Coord::new(9, 9)), vec![]),
            Edited::Nothing
        );
        // Where bent ships are allowed, the same drag places one.
        let r = Ruleset {
            shapes: Shapes::Bent,
            ..Ruleset::default()
        };
        let mut ed = Editor::new(&r);
        assert_eq!(
            move_ship(&r, &mut ed, None, bent),
            Edited::Placed(Kind::Ship(3))
        );
    }
}
