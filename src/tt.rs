//! Transposition table (stub API; the real table replaces this file).

use crate::types::{Depth, Pos, Score};
use crate::zobrist::MultiKey;
use std::fmt;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true value is at least the score (fail high).
    Lower,
    /// The true value is at most the score (fail low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardNode {
    /// Score, already converted to node-relative mate distance by the caller.
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: Depth,
    /// Best move found, `Pos::NONE` if none.
    pub best_move: Pos,
    /// Bound type.
    pub bound: Bound,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, Default)]
pub struct Probe {
    /// The stored node for this exact key, if any (for its move and bound).
    pub node: Option<BoardNode>,
    /// A score the caller may return at once.
    pub cutoff: Option<Score>,
}

/// Counters, cumulative until `reset`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtStats {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Probes that returned a cutoff score.
    pub cutoffs: u64,
    /// Stores made.
    pub stores: u64,
    /// Stores that evicted another key.
    pub replacements: u64,
    /// Stores refused by the replacement policy.
    pub rejected: u64,
    /// Probes whose hash word matched a stored key while the check word differed.
    pub collisions: u64,
}

impl TtStats {
    /// Hits per probe, in percent.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            100.0 * self.hits as f64 / self.probes as f64
        }
    }

    /// Zero every counter.
    pub fn reset(&mut self) {
        *self = TtStats::default();
    }
}

impl fmt::Display for TtStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "probes={} hits={} cutoffs={} stores={} replaced={} collisions={} hit_rate={:.1}%",
            self.probes,
            self.hits,
            self.cutoffs,
            self.stores,
            self.replacements,
            self.collisions,
            self.hit_rate()
        )
    }
}

/// The table (stub: stores nothing).
#[derive(Default)]
pub struct TranspositionTable {
    stats: TtStats,
}

impl TranspositionTable {
    /// A table that never uses more than `bytes` (0 = no table).
    pub fn with_bytes(_bytes: usize) -> TranspositionTable {
        TranspositionTable::default()
    }

    /// Look `key` up.
    pub fn probe(&mut self, _key: MultiKey, _depth: Depth, _alpha: Score, _beta: Score) -> Probe {
        self.stats.probes += 1;
        Probe::default()
    }

    /// Store a result.
    pub fn store(&mut self, _key: MultiKey, _node: BoardNode) {
        self.stats.stores += 1;
    }

    /// Age entries: a new move's search begins.
    pub fn new_search(&mut self) {}

    /// Forget everything (statistics stay).
    pub fn clear(&mut self) {}

    /// The counters.
    pub fn stats(&self) -> &TtStats {
        &self.stats
    }

    /// Zero the counters.
    pub fn reset_stats(&mut self) {
        self.stats.reset();
    }
}
