//! What the search stores and what a probe hands back.

use crate::types::{Depth, Pos, Score};

/// How a stored score relates to the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (it fell inside the window).
    Exact,
    /// The true value is at least the score (the node failed high).
    Lower,
    /// The true value is at most the score (the node failed low).
    Upper,
}

impl Bound {
    /// Two-bit code for the packed slot.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        match self {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        }
    }

    /// Inverse of [`Bound::code`]; the unused code 3 never gets stored.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Bound {
        match code & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// The stored node for this exact key, if any: its move orders the search even when
    /// its depth or bound is not good enough for a cutoff.
    pub node: Option<BoardNode>,
    /// A score the caller may return at once.
    pub cutoff: Option<Score>,
}

impl BoardNode {
    /// The score this node lets a search of `depth` with window `(alpha, beta)` return
    /// without searching: only a deep enough entry whose bound proves the window's outcome.
    #[inline]
    pub fn cutoff(&self, depth: Depth, alpha: Score, beta: Score) -> Option<Score> {
        if self.depth < depth {
            return None;
        }
        let usable = match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        };
        usable.then_some(self.score)
    }
}
