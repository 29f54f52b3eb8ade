//! How long the hard level may think: the [`Budget`] of one decision.

use crate::habits::Habits;
use std::sync::Arc;
use std::time::Instant;

/// Layouts sampled for one decision by default.
pub const SAMPLES: usize = 400;

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
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            samples: SAMPLES,
            deadline: None,
            habits: None,
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
}
