//! The win check, exact for every rule: the run of stones through a cell and its ends.

use super::Board;
use crate::types::{Color, Pos, Stone, DIRS};

impl Board {
    /// Length of the run of `color` stones through `pos` along `dir`, counting `pos` itself
    /// as `color`, and the stones just beyond each end.
    pub(super) fn run_through(&self, pos: Pos, color: Color, dir: isize) -> (usize, Stone, Stone) {
        let stone = color.stone();
        let mut n = 1;
        let mut j = pos.index() as isize + dir;
        while self.cells[j as usize] == stone {
            n += 1;
            j += dir;
        }
        let end_a = self.cells[j as usize];
        let mut j = pos.index() as isize - dir;
        while self.cells[j as usize] == stone {
            n += 1;
            j -= dir;
        }
        let end_b = self.cells[j as usize];
        (n, end_a, end_b)
    }

    /// Whether a `color` stone on `pos` (placed or imagined) completes a winning line under the
    /// board's rule. Exact for every rule, unlike the pattern classes (see `pattern`).
    pub fn is_five(&self, pos: Pos, color: Color) -> bool {
        DIRS.iter().any(|&dir| {
            let (n, a, b) = self.run_through(pos, color, dir);
            self.rule.five_wins(color, n, a, b)
        })
    }

    /// Whether the last move made a winning line.
    pub fn last_move_won(&self) -> bool {
        self.history
            .last()
            .is_some_and(|h| self.is_five(h.pos, h.color))
    }
}
