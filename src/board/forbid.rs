//! Black's forbidden cells under renju, read off the board through the rules core
//! (`renju`): the checker sees the board through an overlay that holds the stones it
//! places while it recurses, so the board itself is never touched.

use super::renju::{self, Cell, RenjuBoard};
use super::Board;
use crate::eval::pattern::Pattern4;
use crate::types::{Color, Pos, Stone, DIRS};
use smallvec::SmallVec;

/// The board as the renju checker reads it, plus the stones it has placed for now.
struct Overlay<'a> {
    board: &'a Board,
    /// At most one entry per cell (`set` replaces it).
    placed: SmallVec<[(usize, usize, Cell); 8]>,
}

impl Overlay<'_> {
    /// The cell as the board has it, without the checker's stones.
    fn on_board(&self, x: usize, y: usize) -> Cell {
        match self.board.at(Pos::new(x, y)) {
            Stone::Black => Cell::Black,
            Stone::White => Cell::White,
            _ => Cell::Empty,
        }
    }
}

impl RenjuBoard for Overlay<'_> {
    fn size(&self) -> usize {
        self.board.size()
    }

    fn at(&self, x: usize, y: usize) -> Cell {
        match self.placed.iter().find(|p| p.0 == x && p.1 == y) {
            Some(&(_, _, c)) => c,
            None => self.on_board(x, y),
        }
    }

    fn set(&mut self, x: usize, y: usize, cell: Cell) {
        self.placed.retain(|p| !(p.0 == x && p.1 == y));
        if cell != self.on_board(x, y) {
            self.placed.push((x, y, cell));
        }
    }
}

impl Board {
    /// Whether `color` may not play the empty cell `pos`: only black, only under renju
    /// (double three, double four, overline; a five is never forbidden).
    #[inline]
    pub fn is_forbidden_for(&self, pos: Pos, color: Color) -> bool {
        color == Color::Black && self.rule.renju && self.is_forbidden(pos)
    }

    /// Whether a black stone on the empty cell `pos` would be a renju foul. Cells whose
    /// black class holds neither two threes nor a four, and that make no overline, are
    /// legal without calling the checker; the rest are decided by it exactly.
    pub fn is_forbidden(&self, pos: Pos) -> bool {
        if !self.is_empty(pos) {
            return false;
        }
        let class = self.p4(pos, Color::Black);
        let combination = (Pattern4::FFlex3x2..Pattern4::AFive).contains(&class);
        if !combination && !self.makes_overline(pos) {
            return false;
        }
        let mut view = Overlay {
            board: self,
            placed: SmallVec::new(),
        };
        renju::forbidden(&mut view, pos.x(), pos.y()).is_some()
    }

    /// Whether a black stone on `pos` would stand in a run of six or more.
    fn makes_overline(&self, pos: Pos) -> bool {
        DIRS.iter()
            .any(|&dir| self.run_through(pos, Color::Black, dir).0 >= 6)
    }

    /// Every cell where black may not play under renju, row by row, for `YXSHOWFORBID`
    /// (none under other rules).
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if !self.rule.renju {
            return Vec::new();
        }
        let n = self.size();
        (0..n * n)
            .map(|i| Pos::new(i % n, i / n))
            .filter(|&p| self.is_forbidden(p))
            .collect()
    }
}
