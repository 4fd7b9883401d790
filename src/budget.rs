//! A node and time budget shared by the alpha-beta and the threat searches, so every
//! search stops on the same clock and counts nodes the same way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Nodes between clock reads: often enough for millisecond accuracy, rare enough to be free.
const CHECK_EVERY: u64 = 1024;

/// Counts nodes and says when to stop.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Nodes visited so far.
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// An outside stop request, polled with the clock.
    stop: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget of `node_limit` nodes (u64::MAX = none) ending at `deadline` (None = never).
    pub fn new(node_limit: u64, deadline: Option<Instant>) -> Budget {
        Budget {
            nodes: 0,
            node_limit,
            deadline,
            stopped: false,
            stop: None,
        }
    }

    /// The same budget, also ending when `stop` is raised.
    pub fn with_stop(mut self, stop: Option<Arc<AtomicBool>>) -> Budget {
        self.stop = stop;
        self
    }

    /// Count one node; true when the search must stop.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the budget ran out.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Move the deadline (to a later or earlier point) and resume if time was the only
    /// reason to stop.
    pub fn extend_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        if self.nodes < self.node_limit {
            self.stopped = deadline.is_some_and(|d| Instant::now() >= d);
        }
    }

    /// A sub-budget of at most `nodes` more nodes within the same deadline.
    pub fn child(&self, nodes: u64, deadline: Option<Instant>) -> Budget {
        let deadline = earliest(self.deadline, deadline);
        // The child may not outspend what is left of the parent's node cap either.
        let left = self.node_limit.saturating_sub(self.nodes);
        Budget::new(nodes.min(left), deadline).with_stop(self.stop.clone())
    }
}

/// The earlier of two optional deadlines (`None`: no deadline).
pub fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
