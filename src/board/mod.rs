//! The board: stones, keys, history, candidate area and line patterns, all kept
//! incrementally so that `play`/`undo` cost a fixed amount of work whatever the position.
//!
//! - `mod.rs`: the state and its read-only accessors;
//! - [`upkeep`](self): `play`/`undo` and their undo records;
//! - `scan`: candidate cells, the empty cells along a cell's lines, five cells;
//! - `win`: the exact per-rule win check;
//! - `check`: recomputation from scratch (`validate`) and ASCII diagrams;
//! - `renju`, `forbid`: black's forbidden cells under renju (the exact rules core, and the
//!   board read through it with a cheap pattern filter first);
//! - `zobrist`: the two independent key tables behind [`MultiKey`].

mod check;
mod forbid;
pub mod renju;
mod scan;
mod upkeep;
mod win;
pub mod zobrist;

pub(crate) use scan::{cells_at_least, five_cells, scan_lines, scan_lines_by_dir, window_empties};
pub use zobrist::MultiKey;

use crate::eval::pattern::Pattern4;
use crate::eval::tables::CellPatterns;
use crate::eval::tables::{self, Tables};
use crate::types::{Color, Pos, Rule, Stone, DIRS, MAX_SIZE, MIN_SIZE, NUM_CELLS};
use smallvec::SmallVec;
use upkeep::{SavedCell, UndoRecord, TOUCHED};
use zobrist::ZobristTables;

/// A list of moves that stays on the stack for typical move counts.
pub type MoveList = SmallVec<[Pos; 64]>;

/// Why a board operation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The size is outside `MIN_SIZE..=MAX_SIZE`.
    BadSize(usize),
    /// The cell is outside the board.
    OffBoard,
    /// The cell holds a stone already.
    Occupied,
    /// There is no move to undo.
    NothingToUndo,
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::BadSize(n) => {
                write!(f, "board size {n} is outside {MIN_SIZE}..={MAX_SIZE}")
            }
            BoardError::OffBoard => write!(f, "cell is outside the board"),
            BoardError::Occupied => write!(f, "cell is occupied"),
            BoardError::NothingToUndo => write!(f, "no move to take back"),
        }
    }
}

impl std::error::Error for BoardError {}

/// One entry of the move history.
#[derive(Clone, Copy, Debug)]
pub(super) struct Played {
    pub(super) pos: Pos,
    pub(super) color: Color,
    /// Side to move before this stone was placed (a `BOARD` setup need not alternate).
    pub(super) side_before: Color,
}

/// A square Gomoku board of side 5..=32.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    cells: Box<[Stone; NUM_CELLS]>,
    /// Number of stones in the 5x5 square around each cell (see `bump_near`).
    near: Box<[u8; NUM_CELLS]>,
    /// Line windows and derived shapes of every cell. Only empty cells are kept current:
    /// an occupied cell's entry stays as it was when its stone was placed. Every move after
    /// that stone is taken back before it is, so when the cell is empty again its entry
    /// is current again, and `play`/`undo` never spend work on occupied cells. (The last
    /// move's windows are current too, since nothing was played after it; see `windows`.)
    pats: Box<[CellPatterns; NUM_CELLS]>,
    /// How many empty cells have each combination class, per colour.
    p4_count: [[u16; Pattern4::COUNT]; 2],
    /// Sum of the per-cell evaluation shares, per colour.
    value: [i32; 2],
    /// Sums of the per-cell pattern-code terms, per colour: as the side to move, and as
    /// the opponent (`Tables::terms`).
    terms: [[i32; 2]; 2],
    key: MultiKey,
    side: Color,
    history: Vec<Played>,
    stones: [usize; 2],
    /// Bounding box of the stones (inclusive), for candidate scans.
    min_x: usize,
    max_x: usize,
    min_y: usize,
    max_y: usize,
    /// One record per move on the board, so undo restores boxes, counts and sums exactly.
    undo_stack: Vec<UndoRecord>,
    /// The touched cells' shapes before each move, in move order (see `UndoRecord`): room
    /// for `TOUCHED` per cell of the board, allocated once so a move writes without checking
    /// room.
    saved: Box<[SavedCell]>,
    /// Entries of `saved` in use.
    saved_top: usize,
    /// The pattern tables, held directly so the hot path skips the lazy-init check.
    tables: &'static Tables,
    /// Whether the tables read the fifth cell each side (exactly-five, caro): then `play`
    /// keeps those cells' shapes current too.
    wide: bool,
    /// The key tables, held for the same reason.
    zobrist: &'static ZobristTables,
}

impl Board {
    /// An empty board of side `size` under `rule`, black to move.
    pub fn new(size: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::BadSize(size));
        }
        let mut cells = Box::new([Stone::Wall; NUM_CELLS]);
        for y in 0..size {
            for x in 0..size {
                cells[Pos::new(x, y).index()] = Stone::Empty;
            }
        }
        let per_move = if tables::tables(rule).is_wide() {
            TOUCHED
        } else {
            32
        };
        let mut board = Board {
            size,
            rule,
            cells,
            near: Box::new([0u8; NUM_CELLS]),
            pats: Box::new([CellPatterns::default(); NUM_CELLS]),
            p4_count: [[0; Pattern4::COUNT]; 2],
            value: [0; 2],
            terms: [[0; 2]; 2],
            key: MultiKey::default(),
            side: Color::Black,
            history: Vec::with_capacity(size * size),
            stones: [0; 2],
            min_x: usize::MAX,
            max_x: 0,
            min_y: usize::MAX,
            max_y: 0,
            undo_stack: Vec::with_capacity(size * size),
            // A move saves at most 32 cells (40 under wide tables), and `play` hands the
            // upkeep a window of TOUCHED entries from the top.
            saved: vec![SavedCell::default(); (size * size + 1) * per_move + TOUCHED]
                .into_boxed_slice(),
            saved_top: 0,
            tables: tables::tables(rule),
            wide: tables::tables(rule).is_wide(),
            zobrist: zobrist::tables(),
        };
        board.init_patterns();
        Ok(board)
    }

    /// Build every cell's line windows from scratch (walls included) and the counts.
    fn init_patterns(&mut self) {
        for i in 0..NUM_CELLS {
            let mut windows = [0u16; 4];
            for (d, &dir) in DIRS.iter().enumerate() {
                windows[d] = self.window_at(i, dir);
            }
            let outer = DIRS.map(|dir| self.outer_at(i, dir));
            self.pats[i] = CellPatterns::from_windows(windows, outer, self.tables);
        }
        self.p4_count = [[0; Pattern4::COUNT]; 2];
        self.value = [0; 2];
        self.terms = [[0; 2]; 2];
        for y in 0..self.size {
            for x in 0..self.size {
                let p = Pos::new(x, y);
                if self.cells[p.index()] == Stone::Empty {
                    let cp = self.pats[p.index()];
                    self.count_in(&cp);
                }
            }
        }
    }

    /// The 16-bit window of the eight cells around `index` along `dir`, read from `cells`.
    /// The codes of the cells five steps behind (bits 0-1) and ahead (bits 2-3) of `index`
    /// along `dir`, which wide tables read (see `eval::tables`).
    fn outer_at(&self, index: usize, dir: isize) -> u8 {
        let code = |k: isize| {
            let j = index as isize + k * dir;
            if (0..NUM_CELLS as isize).contains(&j) {
                self.cells[j as usize] as u8
            } else {
                Stone::Wall as u8
            }
        };
        code(-5) | code(5) << 2
    }

    fn window_at(&self, index: usize, dir: isize) -> u16 {
        let mut w = 0u16;
        for (slot, k) in [-4isize, -3, -2, -1, 1, 2, 3, 4].into_iter().enumerate() {
            let j = index as isize + k * dir;
            let stone = if (0..NUM_CELLS as isize).contains(&j) {
                self.cells[j as usize]
            } else {
                Stone::Wall
            };
            w |= (stone as u16) << (2 * slot);
        }
        w
    }

    #[inline]
    fn count_in(&mut self, cp: &CellPatterns) {
        for c in 0..2 {
            self.p4_count[c][cp.p4[c] as usize] += 1;
            self.value[c] += cp.value[c] as i32;
            let t = self.tables.terms(cp, c);
            self.terms[c][0] += t[0];
            self.terms[c][1] += t[1];
        }
    }

    #[inline]
    fn count_out(&mut self, cp: &CellPatterns) {
        for c in 0..2 {
            self.p4_count[c][cp.p4[c] as usize] -= 1;
            self.value[c] -= cp.value[c] as i32;
            let t = self.tables.terms(cp, c);
            self.terms[c][0] -= t[0];
            self.terms[c][1] -= t[1];
        }
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether `(x, y)` is on the board.
    #[inline]
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.size && (y as usize) < self.size
    }

    /// The stone on `pos` (`Wall` outside the board).
    #[inline]
    pub fn at(&self, pos: Pos) -> Stone {
        self.cells[pos.index()]
    }

    /// Whether `pos` is an empty cell of the board.
    #[inline]
    pub fn is_empty(&self, pos: Pos) -> bool {
        self.cells[pos.index()] == Stone::Empty
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Set the side to move without placing a stone (for `BOARD` set-ups), keeping the key true.
    pub fn set_side_to_move(&mut self, side: Color) {
        if side != self.side {
            self.key.toggle(self.zobrist.side());
            self.side = side;
        }
    }

    /// The key the position will have once the side to move plays `pos` (to prefetch the
    /// table's entry for it).
    #[inline]
    pub fn key_after(&self, pos: Pos) -> MultiKey {
        self.key
            .with(self.zobrist.stone(pos, self.side))
            .with(self.zobrist.side())
    }

    /// The position's key, kept incrementally.
    #[inline]
    pub fn key(&self) -> MultiKey {
        self.key
    }

    /// Number of stones on the board.
    #[inline]
    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    /// Number of stones of `color`.
    #[inline]
    pub fn stones_of(&self, color: Color) -> usize {
        self.stones[color.idx()]
    }

    /// Whether no empty cell is left.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.history.len() >= self.size * self.size
    }

    /// The moves so far, oldest first.
    pub fn history(
        &self,
    ) -> impl DoubleEndedIterator<Item = (Pos, Color)> + ExactSizeIterator + '_ {
        self.history.iter().map(|h| (h.pos, h.color))
    }

    /// The last move, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|h| h.pos)
    }

    /// The move `n` plies ago (0 = the last move).
    #[inline]
    pub fn recent_move(&self, n: usize) -> Option<Pos> {
        let len = self.history.len();
        if n < len {
            Some(self.history[len - 1 - n].pos)
        } else {
            None
        }
    }

    /// The cell for `(x, y)` if it is on the board.
    pub fn pos(&self, x: i64, y: i64) -> Result<Pos, BoardError> {
        if self.contains(x, y) {
            Ok(Pos::new(x as usize, y as usize))
        } else {
            Err(BoardError::OffBoard)
        }
    }

    /// Check that `pos` is an empty cell of this board.
    pub fn check_move(&self, pos: Pos) -> Result<(), BoardError> {
        match self.cells.get(pos.index()) {
            Some(Stone::Empty) => Ok(()),
            Some(Stone::Black | Stone::White) => Err(BoardError::Occupied),
            _ => Err(BoardError::OffBoard),
        }
    }

    /// The line windows of `pos` (see `CellPatterns::windows`), current for any board cell:
    /// kept for empty cells and the last move, read off the stones for older moves.
    #[inline]
    pub fn windows(&self, pos: Pos) -> [u16; 4] {
        if self.cells[pos.index()] == Stone::Empty || self.last_move() == Some(pos) {
            self.pats[pos.index()].windows
        } else {
            DIRS.map(|dir| self.window_at(pos.index(), dir))
        }
    }

    /// The combination class `color` would reach by playing the empty cell `pos`.
    #[inline]
    pub fn p4(&self, pos: Pos, color: Color) -> Pattern4 {
        self.pats[pos.index()].p4[color.idx()]
    }

    /// The shapes of the empty cell `pos` (line windows, per-direction patterns, classes,
    /// values); for an occupied cell, its shapes when the stone was placed.
    #[inline]
    pub fn cell(&self, pos: Pos) -> &CellPatterns {
        &self.pats[pos.index()]
    }

    /// How many empty cells give `color` the class `p4`.
    #[inline]
    pub fn count(&self, color: Color, p4: Pattern4) -> usize {
        self.p4_count[color.idx()][p4 as usize] as usize
    }

    /// How many empty cells give `color` a class of at least `p4`.
    pub fn count_at_least(&self, color: Color, p4: Pattern4) -> usize {
        self.p4_count[color.idx()][p4 as usize..]
            .iter()
            .map(|&n| n as usize)
            .sum()
    }

    /// The incremental evaluation sum of `color` (see `eval`).
    #[inline]
    pub fn value(&self, color: Color) -> i32 {
        self.value[color.idx()]
    }
}

impl crate::eval::Shapes for Board {
    #[inline]
    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn value(&self, color: Color) -> i32 {
        self.value[color.idx()]
    }

    #[inline]
    fn terms(&self, color: Color) -> [i32; 2] {
        self.terms[color.idx()]
    }

    #[inline]
    fn count(&self, color: Color, p4: Pattern4) -> usize {
        Board::count(self, color, p4)
    }

    #[inline]
    fn count_at_least(&self, color: Color, p4: Pattern4) -> usize {
        Board::count_at_least(self, color, p4)
    }

    #[inline]
    fn counts(&self, color: Color) -> &[u16; Pattern4::COUNT] {
        &self.p4_count[color.idx()]
    }

    #[inline]
    fn tables(&self) -> &Tables {
        self.tables
    }

    #[inline]
    fn cell(&self, pos: Pos) -> &CellPatterns {
        &self.pats[pos.index()]
    }
}
