//! How long the hard level may think: the [`Budget`] of one decision.

use crate::event::SeatId;
use crate::habits::Habits;
use std::sync::Arc;
use std::time::Instant;

/// Layouts sampled for one decision by default.
pub const SAMPLES: usize = 400;

/// Layouts sampled for one decision however late it is: a deadline that passed before the
/// sampling began (a busy machine, a slow first fit of a player's habits) still leaves a
/// choice drawn from every source, not from the first few layouts of one.
pub const MIN_SAMPLES: usize = 96;

/// How long the hard level may think about one decision: at most `samples` layouts, and (if
/// set) no more once `deadline` has passed. A deadline makes the choice depend on the machine's
/// speed; without one the choice depends only on the view and the random source. The learning
/// level also takes what it has learned here.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Layouts to sample at most.
    pub samples: usize,
    /// When to stop sampling, if ever.
    pub deadline: Option<Instant>,
    /// How people placed, for [`Level::Learning`] (ignored by the other levels).
    ///
    /// [`Level::Learning`]: crate::level::Level::Learning
    pub habits: Option<Arc<Habits>>,
    /// How each player placed, by the seat ([`SeatId`]) of the field shot at: used for that
    /// field instead of `habits` when present, so that in a group each one's habits are
    /// theirs.
    pub seat_habits: Vec<Option<Arc<Habits>>>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            samples: SAMPLES,
            deadline: None,
            habits: None,
            seat_habits: Vec::new(),
        }
    }
}

impl Budget {
    /// The default number of layouts, and no more after `deadline`.
    pub fn until(deadline: Instant) -> Budget {
        Budget {
            deadline: Some(deadline),
            ..Budget::default()
        }
    }

    /// The same budget, with `habits` for the learning level.
    pub fn learning(self, habits: Arc<Habits>) -> Budget {
        Budget {
            habits: Some(habits),
            ..self
        }
    }

    /// The same budget, with each seat's `habits` (indexed by [`SeatId`]) for the learning
    /// level; a seat without them falls back to the budget's common `habits`.
    pub fn learning_by_seat(self, habits: Vec<Option<Arc<Habits>>>) -> Budget {
        Budget {
            seat_habits: habits,
            ..self
        }
    }

    /// The habits the learning level uses for the field of `seat`: the seat's own, else the
    /// common ones.
    pub fn habits_for(&self, seat: SeatId) -> Option<&Habits> {
        self.seat_habits
            .get(usize::from(seat.0))
            .and_then(Option::as_deref)
            .or(self.habits.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seats_own_habits_come_first_then_the_common_ones() {
        let (common, own) = (Arc::new(Habits::new()), Arc::new(Habits::new()));
        let b = Budget::default()
            .learning(common.clone())
            .learning_by_seat(vec![None, Some(own.clone())]);
        assert!(std::ptr::eq(b.habits_for(SeatId(1)).unwrap(), &*own));
        assert!(std::ptr::eq(b.habits_for(SeatId(0)).unwrap(), &*common));
        assert!(std::ptr::eq(b.habits_for(SeatId(5)).unwrap(), &*common));
        assert!(Budget::default().habits_for(SeatId(0)).is_none());
    }
}
