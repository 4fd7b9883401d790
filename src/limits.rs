//! What one search may spend: a soft target (stop starting new iterations) and a hard cap
//! (stop at once), both measured from the arrival of the command that asked for a move.

use std::time::{Duration, Instant};

/// Limits of one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the move request arrived.
    pub start: Instant,
    /// Do not start a new iteration after this much time.
    pub soft: Duration,
    /// Stop searching, whatever the depth, after this much time.
    pub hard: Duration,
    /// Deepest iteration to run (`INFO max_depth`, `bench`).
    pub max_depth: Option<i32>,
    /// Node cap (`INFO max_node`).
    pub max_nodes: Option<u64>,
}

impl Limits {
    /// Search to `depth` with no time limit (bench, tests).
    pub fn depth(depth: i32) -> Limits {
        Limits {
            start: Instant::now(),
            soft: Duration::MAX,
            hard: Duration::MAX,
            max_depth: Some(depth),
            max_nodes: None,
        }
    }

    /// Search for at most `time` (soft target at the same point).
    pub fn time(time: Duration) -> Limits {
        Limits {
            start: Instant::now(),
            soft: time,
            hard: time,
            max_depth: None,
            max_nodes: None,
        }
    }

    /// Time spent since `start`.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
