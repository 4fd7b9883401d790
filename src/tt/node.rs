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
    /// Score. In the table it is node-relative (mate distances from the stored node); the
    /// table's `probe` and `store` convert it from and to the root's point of view.
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: Depth,
    /// Best move found, `Pos::NONE` if none.
    pub best_move: Pos,
    /// Bound type.
    pub bound: Bound,
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
