//! `play` and `undo`: the stone, the key, the history, and the line windows and shapes of
//! the cells up to four steps away along each line (five under a wide rule's tables),
//! saved first so `undo` is a copy back.

use super::{Board, Played};
use crate::board::BoardError;
use crate::eval::pattern::Pattern4;
use crate::eval::tables::CellPatterns;
use crate::eval::tables::TableRefs;
use crate::types::{Color, Pos, Stone, DIRS, NUM_CELLS, STRIDE};

/// A cell's shapes as they were before a move touched them, for `undo` to put back.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SavedCell {
    pub(super) index: u16,
    pub(super) pats: CellPatterns,
}

/// Everything `play` changes besides the stone, key and history, saved so that `undo` is a
/// copy back rather than a second round of pattern lookups (which cost as much as `play`).
#[derive(Clone, Copy, Debug)]
pub(super) struct UndoRecord {
    /// Bounding box before the move.
    pub(super) bbox: [usize; 4],
    pub(super) p4_count: [[u16; Pattern4::COUNT]; 2],
    pub(super) value: [i32; 2],
    pub(super) terms: [[i32; 2]; 2],
    /// Where this move's entries start in `Board::saved`, and how many there are.
    pub(super) saved_from: usize,
    pub(super) saved_len: usize,
}

/// Most cells one move touches: ten per direction under wide tables, eight otherwise.
pub(super) const TOUCHED: usize = 40;

/// The board's fields that `play` updates along the lines through the new stone, borrowed
/// apart so the compiler knows they do not alias and keeps their addresses in registers.
struct Upkeep<'a> {
    cells: &'a [Stone; NUM_CELLS],
    pats: &'a mut [CellPatterns; NUM_CELLS],
    counts: &'a mut [[u16; Pattern4::COUNT]; 2],
    value: &'a mut [i32; 2],
    terms: &'a mut [[i32; 2]; 2],
    /// Room for the cells this move touches, and how many are saved so far.
    saved: &'a mut [SavedCell; TOUCHED],
    n: usize,
    tables: TableRefs<'a>,
}

impl Upkeep<'_> {
    /// Touch the cells up to four steps either side of `base` along direction `D` (five
    /// under wide tables, `WIDE`). A line stops at the first wall: the square board is
    /// convex and the padding is wider than five cells, so every cell beyond a wall is a
    /// wall too. The steps are written out so that every offset is a constant.
    #[inline(always)]
    fn line<const D: usize, const WIDE: bool>(&mut self, base: usize, code: u16) {
        let dir = DIRS[D] as usize;
        // The cell k steps ahead sees `base` k steps behind it (slot 4 - k); the cell k
        // steps behind sees it k steps ahead (slot 3 + k); the cells five steps away see
        // it through their outer cells, which are read off the stones.
        let _ = self.touch::<D, WIDE>(base + dir, code << 6)
            && self.touch::<D, WIDE>(base + 2 * dir, code << 4)
            && self.touch::<D, WIDE>(base + 3 * dir, code << 2)
            && self.touch::<D, WIDE>(base + 4 * dir, code)
            && WIDE
            && self.touch::<D, WIDE>(base + 5 * dir, 0);
        let _ = self.touch::<D, WIDE>(base - dir, code << 8)
            && self.touch::<D, WIDE>(base - 2 * dir, code << 10)
            && self.touch::<D, WIDE>(base - 3 * dir, code << 12)
            && self.touch::<D, WIDE>(base - 4 * dir, code << 14)
            && WIDE
            && self.touch::<D, WIDE>(base - 5 * dir, 0);
    }

    /// Save the empty cell `index`, XOR `bits` into its window along `D`, and refresh its
    /// shapes (under wide tables reading its outer cells off the stones: the new stone is
    /// already on the board). Skips an occupied cell (see `Board::pats`); returns false,
    /// touching nothing, at a wall.
    #[inline(always)]
    fn touch<const D: usize, const WIDE: bool>(&mut self, index: usize, bits: u16) -> bool {
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
        let terms = &mut *self.terms;
        let changed = |c: usize, old: Pattern4, new: Pattern4, dv: i32, dt: [i32; 2]| {
            counts[c][old as usize] -= 1;
            counts[c][new as usize] += 1;
            value[c] += dv;
            terms[c][0] += dt[0];
            terms[c][1] += dt[1];
        };
        if WIDE {
            let dir = DIRS[D] as usize;
            let outer =
                self.cells[index - 5 * dir] as u32 | (self.cells[index + 5 * dir] as u32) << 2;
            self.tables.update_wide(cell, D, window, outer, changed);
        } else {
            self.tables.update(cell, D, window, changed);
        }
        true
    }
}

impl Board {
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
            terms: self.terms,
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
        self.terms = rec.terms;
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
    /// refresh the shapes of the empty ones, saving each touched cell first for `undo`
    /// (five steps under wide tables, out of line so freestyle's `play` stays as lean).
    #[inline]
    fn update_lines(&mut self, pos: Pos, code: u16) {
        if self.wide {
            self.update_lines_wide(pos, code);
        } else {
            self.update_lines_in::<false>(pos, code);
        }
    }

    #[inline(never)]
    fn update_lines_wide(&mut self, pos: Pos, code: u16) {
        self.update_lines_in::<true>(pos, code);
    }

    #[inline(always)]
    fn update_lines_in<const WIDE: bool>(&mut self, pos: Pos, code: u16) {
        // Every cell within four (five) steps of a board cell lies inside the padded grid;
        // saying so once lets the compiler drop the per-cell bounds checks below.
        let reach = if WIDE { 5 } else { 4 } * (STRIDE + 1);
        assert!(pos.index() >= reach && pos.index() + reach < NUM_CELLS);
        let top = self.saved_top;
        let mut up = Upkeep {
            cells: &self.cells,
            pats: &mut self.pats,
            counts: &mut self.p4_count,
            value: &mut self.value,
            terms: &mut self.terms,
            saved: (&mut self.saved[top..top + TOUCHED])
                .try_into()
                .expect("TOUCHED entries"),
            n: 0,
            tables: self.tables.refs(),
        };
        let base = pos.index();
        up.line::<0, WIDE>(base, code);
        up.line::<1, WIDE>(base, code);
        up.line::<2, WIDE>(base, code);
        up.line::<3, WIDE>(base, code);
        let n = up.n;
        self.saved_top = top + n;
        if let Some(rec) = self.undo_stack.last_mut() {
            rec.saved_len = n;
        }
    }
}
