//! The board: stones, keys, history, candidate area and line patterns, all kept
//! incrementally so that `play`/`undo` cost a fixed amount of work whatever the position.

use crate::pattern::{self, CellPatterns, Pattern4};
use crate::types::{Color, Pos, Rule, Stone, DIRS, MAX_SIZE, MIN_SIZE, NUM_CELLS, STRIDE};
use crate::zobrist::{tables, MultiKey, ZobristTables};
use smallvec::SmallVec;

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
struct Played {
    pos: Pos,
    color: Color,
    /// Side to move before this stone was placed (a `BOARD` setup need not alternate).
    side_before: Color,
}

/// A cell's shapes as they were before a move touched them, for `undo` to put back.
#[derive(Clone, Copy, Debug, Default)]
struct SavedCell {
    index: u16,
    pats: CellPatterns,
}

/// Everything `play` changes besides the stone, key and history, saved so that `undo` is a
/// copy back rather than a second round of pattern lookups (which cost as much as `play`).
#[derive(Clone, Copy, Debug)]
struct UndoRecord {
    /// Bounding box before the move.
    bbox: [usize; 4],
    p4_count: [[u16; Pattern4::COUNT]; 2],
    value: [i32; 2],
    /// Where this move's entries start in `Board::saved`, and how many there are.
    saved_from: usize,
    saved_len: usize,
}

/// The board's fields that `play` updates along the lines through the new stone, borrowed
/// apart so the compiler knows they do not alias and keeps their addresses in registers.
struct Upkeep<'a> {
    cells: &'a [Stone; NUM_CELLS],
    pats: &'a mut [CellPatterns; NUM_CELLS],
    counts: &'a mut [[u16; Pattern4::COUNT]; 2],
    value: &'a mut [i32; 2],
    /// Room for the cells this move touches (at most 32), and how many are saved so far.
    saved: &'a mut [SavedCell; 32],
    n: usize,
    tables: pattern::TableRefs<'a>,
}

impl Upkeep<'_> {
    /// Touch the cells up to four steps either side of `base` along direction `D`. A line
    /// stops at the first wall: the square board is convex and the padding is wider than
    /// four cells, so every cell beyond a wall is a wall too. The steps are written out so
    /// that every offset is a constant.
    #[inline(always)]
    fn line<const D: usize>(&mut self, base: usize, code: u16) {
        let dir = DIRS[D] as usize;
        // The cell k steps ahead sees `base` k steps behind it (slot 4 - k); the cell k
        // steps behind sees it k steps ahead (slot 3 + k).
        let _ = self.touch::<D>(base + dir, code << 6)
            && self.touch::<D>(base + 2 * dir, code << 4)
            && self.touch::<D>(base + 3 * dir, code << 2)
            && self.touch::<D>(base + 4 * dir, code);
        let _ = self.touch::<D>(base - dir, code << 8)
            && self.touch::<D>(base - 2 * dir, code << 10)
            && self.touch::<D>(base - 3 * dir, code << 12)
            && self.touch::<D>(base - 4 * dir, code << 14);
    }

    /// Save the empty cell `index`, XOR `bits` into its window along `D`, and refresh its
    /// shapes. Skips an occupied cell (see `Board::pats`); returns false, touching nothing,
    /// at a wall.
    #[inline(always)]
    fn touch<const D: usize>(&mut self, index: usize, bits: u16) -> bool {
        let stone = self.cells[index];
        if stone != Stone::Empty {
            return stone != Stone::Wall;
        }
        let cell = &mut self.pats[index];
        self.saved[self.n] = SavedCell {
            index: index as u16,
            pats: *cell,
        };
        self.n += 1;
        let window = cell.windows[D] ^ bits;
        let counts = &mut *self.counts;
        let value = &mut *self.value;
        self.tables.update(cell, D, window, |c, old, new, dv| {
            counts[c][old as usize] -= 1;
            counts[c][new as usize] += 1;
            value[c] += dv;
        });
        true
    }
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
    /// for 32 per cell of the board, allocated once so a move writes without checking room.
    saved: Box<[SavedCell]>,
    /// Entries of `saved` in use.
    saved_top: usize,
    /// The pattern tables, held directly so the hot path skips the lazy-init check.
    tables: &'static pattern::Tables,
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
        let mut board = Board {
            size,
            rule,
            cells,
            near: Box::new([0u8; NUM_CELLS]),
            pats: Box::new([CellPatterns::default(); NUM_CELLS]),
            p4_count: [[0; Pattern4::COUNT]; 2],
            value: [0; 2],
            key: MultiKey::default(),
            side: Color::Black,
            history: Vec::with_capacity(size * size),
            stones: [0; 2],
            min_x: usize::MAX,
            max_x: 0,
            min_y: usize::MAX,
            max_y: 0,
            undo_stack: Vec::with_capacity(size * size),
            saved: vec![SavedCell::default(); (size * size + 1) * 32].into_boxed_slice(),
            saved_top: 0,
            tables: pattern::tables(),
            zobrist: tables(),
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
            self.pats[i] = CellPatterns::from_windows(windows);
        }
        self.p4_count = [[0; Pattern4::COUNT]; 2];
        self.value = [0; 2];
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
        }
    }

    #[inline]
    fn count_out(&mut self, cp: &CellPatterns) {
        for c in 0..2 {
            self.p4_count[c][cp.p4[c] as usize] -= 1;
            self.value[c] -= cp.value[c] as i32;
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

    /// Place the side to move's stone on `pos` (which must be empty) and pass the turn.
    #[inline]
    pub fn play(&mut self, pos: Pos) {
        self.play_as(pos, self.side);
    }

    /// Place a `color` stone on `pos` (which must be empty); the other colour moves next.
    pub fn play_as(&mut self, pos: Pos, color: Color) {
        debug_assert!(self.is_empty(pos), "play on non-empty {pos:?}");
        let side_before = self.side;
        self.history.push(Played {
            pos,
            color,
            side_before,
        });
        self.undo_stack.push(UndoRecord {
            bbox: [self.min_x, self.max_x, self.min_y, self.max_y],
            p4_count: self.p4_count,
            value: self.value,
            saved_from: self.saved_top,
            saved_len: 0,
        });
        let (x, y) = (pos.x(), pos.y());
        self.min_x = self.min_x.min(x);
        self.max_x = self.max_x.max(x);
        self.min_y = self.min_y.min(y);
        self.max_y = self.max_y.max(y);

        let z = self.zobrist;
        self.key.toggle(z.stone(pos, color));
        self.set_side_to_move(color.opp());
        self.stones[color.idx()] += 1;

        let cp = self.pats[pos.index()];
        self.count_out(&cp);
        self.cells[pos.index()] = color.stone();
        self.update_lines(pos, color.stone() as u16);
        self.bump_near(pos, true);
        #[cfg(debug_assertions)]
        self.validate();
    }

    /// Take back the last move.
    pub fn undo(&mut self) -> Result<(), BoardError> {
        let last = self.history.pop().ok_or(BoardError::NothingToUndo)?;
        let pos = last.pos;
        let rec = self
            .undo_stack
            .pop()
            .expect("one undo record per history entry");
        [self.min_x, self.max_x, self.min_y, self.max_y] = rec.bbox;
        let z = self.zobrist;
        self.key.toggle(z.stone(pos, last.color));
        self.set_side_to_move(last.side_before);
        self.stones[last.color.idx()] -= 1;

        // The played cell's own shapes were never changed while it was occupied (the moves
        // after it have all been undone), so only the touched neighbours need restoring.
        for s in &self.saved[rec.saved_from..rec.saved_from + rec.saved_len] {
            self.pats[s.index as usize] = s.pats;
        }
        self.saved_top = rec.saved_from;
        self.p4_count = rec.p4_count;
        self.value = rec.value;
        self.cells[pos.index()] = Stone::Empty;
        self.bump_near(pos, false);
        #[cfg(debug_assertions)]
        self.validate();
        Ok(())
    }

    /// Add one to (`add`) or take one from the stone counts of the 5x5 square around `pos`.
    ///
    /// Each row of five counts is updated as one 8-byte word (the top three bytes get 0).
    /// No byte carries into the next: a count never exceeds 25, and a count taken from
    /// includes the stone being removed. The square's centre is counted too: that is `pos`
    /// itself, occupied while its stone counts, and an occupied cell is never a candidate,
    /// so every empty cell still counts exactly the stones around it.
    #[inline]
    fn bump_near(&mut self, pos: Pos, add: bool) {
        const ROW: u64 = 0x01_01_01_01_01;
        for dy in 0..5 {
            let start = pos.index() + dy * STRIDE - 2 * STRIDE - 2;
            let word: &mut [u8; 8] = (&mut self.near[start..start + 8])
                .try_into()
                .expect("8 bytes");
            let v = u64::from_le_bytes(*word);
            *word = if add { v + ROW } else { v - ROW }.to_le_bytes();
        }
    }

    /// XOR `code` into the windows of the cells up to four steps from `pos` on each line and
    /// refresh the shapes of the empty ones, saving each touched cell first for `undo`.
    #[inline]
    fn update_lines(&mut self, pos: Pos, code: u16) {
        // Every cell within four steps of a board cell lies inside the padded grid; saying
        // so once lets the compiler drop the per-cell bounds checks below.
        let reach = 4 * (STRIDE + 1);
        assert!(pos.index() >= reach && pos.index() + reach < NUM_CELLS);
        let top = self.saved_top;
        let mut up = Upkeep {
            cells: &self.cells,
            pats: &mut self.pats,
            counts: &mut self.p4_count,
            value: &mut self.value,
            saved: (&mut self.saved[top..top + 32])
                .try_into()
                .expect("32 entries"),
            n: 0,
            tables: self.tables.refs(),
        };
        let base = pos.index();
        up.line::<0>(base, code);
        up.line::<1>(base, code);
        up.line::<2>(base, code);
        up.line::<3>(base, code);
        let n = up.n;
        self.saved_top = top + n;
        if let Some(rec) = self.undo_stack.last_mut() {
            rec.saved_len = n;
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

    /// Whether the empty cell `pos` is within the 5x5 square of a stone.
    #[inline]
    pub fn is_candidate(&self, pos: Pos) -> bool {
        self.near[pos.index()] > 0 && self.cells[pos.index()] == Stone::Empty
    }

    /// Every empty cell within distance 2 of a stone; the centre on an empty board.
    pub fn candidates(&self) -> MoveList {
        let mut out = MoveList::new();
        if self.history.is_empty() {
            out.push(Pos::new(self.size / 2, self.size / 2));
            return out;
        }
        self.for_each_candidate(|p| out.push(p));
        out
    }

    /// Visit every candidate cell (see `candidates`) without allocating.
    #[inline]
    pub fn for_each_candidate(&self, mut f: impl FnMut(Pos)) {
        if self.history.is_empty() {
            return;
        }
        let [x0, x1, y0, y1] = self.candidate_box();
        for y in y0..=y1 {
            let row = Pos::new(0, y).index();
            for x in x0..=x1 {
                let i = row + x;
                if self.near[i] > 0 && self.cells[i] == Stone::Empty {
                    f(Pos(i as u16));
                }
            }
        }
    }

    /// `[x0, x1, y0, y1]`, inclusive: the stones' bounding box grown by the candidates'
    /// reach of two cells and cut to the board. Only meaningful with a stone on the board.
    #[inline]
    fn candidate_box(&self) -> [usize; 4] {
        [
            self.min_x.saturating_sub(2),
            (self.max_x + 2).min(self.size - 1),
            self.min_y.saturating_sub(2),
            (self.max_y + 2).min(self.size - 1),
        ]
    }

    /// The first `wanted` candidate cells (in `for_each_candidate` order) where `color`
    /// reaches at least `min`, pushed onto `out`. The class is tested first, since it rules
    /// out most cells, and the scan stops as soon as `wanted` cells are found.
    pub fn cells_at_least(&self, color: Color, min: Pattern4, wanted: usize, out: &mut MoveList) {
        if self.history.is_empty() || wanted == 0 {
            return;
        }
        let c = color.idx();
        let [x0, x1, y0, y1] = self.candidate_box();
        let mut found = 0;
        for y in y0..=y1 {
            // One row's cells as a slice: the loop then needs no per-cell bounds check.
            let start = Pos::new(x0, y).index();
            let end = start + (x1 - x0) + 1;
            for (k, cell) in self.pats[start..end].iter().enumerate() {
                let i = start + k;
                if cell.p4[c] >= min && self.near[i] > 0 && self.cells[i] == Stone::Empty {
                    out.push(Pos(i as u16));
                    found += 1;
                    if found == wanted {
                        return;
                    }
                }
            }
        }
    }

    /// Length of the run of `color` stones through `pos` along `dir`, counting `pos` itself
    /// as `color`, and the stones just beyond each end.
    fn run_through(&self, pos: Pos, color: Color, dir: isize) -> (usize, Stone, Stone) {
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
        let opp = color.opp().stone();
        DIRS.iter().any(|&dir| {
            let (n, a, b) = self.run_through(pos, color, dir);
            if n < 5 || (n > 5 && self.rule.exact_five) {
                return false;
            }
            !(self.rule.caro && n == 5 && a == opp && b == opp)
        })
    }

    /// Whether the last move made a winning line.
    pub fn last_move_won(&self) -> bool {
        self.history
            .last()
            .is_some_and(|h| self.is_five(h.pos, h.color))
    }

    /// Key recomputed from scratch; equals `key()` whenever the incremental updates are right.
    pub fn compute_key(&self) -> MultiKey {
        let z = tables();
        let mut k = MultiKey::default();
        for (i, &s) in self.cells.iter().enumerate() {
            if let Some(c) = s.color() {
                k.toggle(z.stone(Pos(i as u16), c));
            }
        }
        if self.side == Color::White {
            k.toggle(z.side());
        }
        k
    }

    /// Recompute keys, windows, shapes and counts from scratch and compare with the
    /// incremental state. Runs after every `play`/`undo` in debug builds.
    pub fn validate(&self) {
        assert_eq!(self.key, self.compute_key(), "incremental key diverged");
        // Recomputed cell by cell rather than on a clone, which would copy the undo stacks.
        let mut p4_count = [[0u16; Pattern4::COUNT]; 2];
        let mut value = [0i32; 2];
        for i in 0..NUM_CELLS {
            if self.cells[i] == Stone::Wall {
                continue;
            }
            let fresh = CellPatterns::from_windows(DIRS.map(|dir| self.window_at(i, dir)));
            assert_eq!(
                self.windows(Pos(i as u16)),
                fresh.windows,
                "window diverged at {:?}",
                Pos(i as u16)
            );
            if self.cells[i] == Stone::Empty {
                assert_eq!(
                    self.pats[i],
                    fresh,
                    "shapes diverged at {:?}",
                    Pos(i as u16)
                );
                for c in 0..2 {
                    p4_count[c][fresh.p4[c] as usize] += 1;
                    value[c] += fresh.value[c] as i32;
                }
            }
        }
        assert_eq!(self.p4_count, p4_count, "pattern counts diverged");
        assert_eq!(self.value, value, "evaluation sums diverged");
    }

    /// ASCII diagram (`X` black, `O` white, `.` empty), rows top to bottom.
    pub fn to_diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.size {
            for x in 0..self.size {
                s.push(match self.at(Pos::new(x, y)) {
                    Stone::Black => 'X',
                    Stone::White => 'O',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    /// Build a board from an ASCII diagram (`X`/`x` black, `O`/`o` white, anything else
    /// empty; whitespace between cells ignored). The side to move is the one with fewer
    /// stones, black on equal counts, unless `side` is given.
    pub fn from_diagram(
        diagram: &str,
        rule: Rule,
        side: Option<Color>,
    ) -> Result<Board, BoardError> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        let mut board = Board::new(size, rule)?;
        for (y, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate().take(size) {
                let color = match ch {
                    'X' | 'x' => Color::Black,
                    'O' | 'o' => Color::White,
                    _ => continue,
                };
                board.play_as(Pos::new(x, y), color);
            }
        }
        let side = side.unwrap_or(
            if board.stones_of(Color::Black) > board.stones_of(Color::White) {
                Color::White
            } else {
                Color::Black
            },
        );
        board.set_side_to_move(side);
        Ok(board)
    }
}

#[cfg(test)]
mod tests {}
