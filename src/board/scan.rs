//! Where moves are looked for: the candidate area around the stones, the empty cells along
//! a cell's lines, and the cells of a given class (fives first of all).

use super::{Board, MoveList};
use crate::eval::pattern::Pattern4;
use crate::types::{Color, Pos, Stone, DIRS};
use smallvec::SmallVec;

impl Board {
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
}

/// Cells where `color` reaches at least `min`, scanning only until the counters are met.
pub fn cells_at_least(board: &Board, color: Color, min: Pattern4) -> MoveList {
    let mut out = MoveList::new();
    board.cells_at_least(color, min, board.count_at_least(color, min), &mut out);
    out
}

/// Five cells: callers ask for one or two, so the list is small enough to return in
/// registers (a `MoveList` here cost a 136-byte copy per call, twice per node).
pub type FiveCells = SmallVec<[Pos; 2]>;

/// Cells where a `color` stone really completes a winning line (pattern five cells,
/// confirmed by a line scan under rules other than freestyle), at most `limit` of them.
///
/// Most calls find the counter at zero; that test is inlined into the caller, and only a
/// real search pays for a call.
#[inline]
pub fn five_cells(board: &Board, color: Color, limit: usize) -> FiveCells {
    if board.count(color, Pattern4::AFive) == 0 {
        return FiveCells::new();
    }
    find_five_cells(board, color, limit)
}

/// `five_cells` once the counter says there is at least one.
#[inline(never)]
fn find_five_cells(board: &Board, color: Color, limit: usize) -> FiveCells {
    let mut out = FiveCells::new();
    // Fives come from the last few moves' lines almost always; look there first.
    for back in 0..4 {
        if let Some(m) = board.recent_move(back) {
            scan_lines(board, m, |p| {
                if out.len() < limit
                    && !out.contains(&p)
                    && board.p4(p, color) == Pattern4::AFive
                    && real_five(board, p, color)
                {
                    out.push(p);
                }
            });
        }
        if out.len() >= limit || out.len() >= board.count(color, Pattern4::AFive) {
            return out;
        }
    }
    board.for_each_candidate(|p| {
        if out.len() < limit
            && !out.contains(&p)
            && board.p4(p, color) == Pattern4::AFive
            && real_five(board, p, color)
        {
            out.push(p);
        }
    });
    out
}

#[inline]
fn real_five(board: &Board, p: Pos, color: Color) -> bool {
    board.rule().is_freestyle() || board.is_five(p, color)
}

/// Visit the empty cells up to four steps from `center` along its four lines, direction by
/// direction and from four steps behind to four steps ahead.
///
/// The empty cells are read off `center`'s line windows (`Board::windows`), so only the
/// empty ones are visited.
#[inline]
pub fn scan_lines(board: &Board, center: Pos, mut f: impl FnMut(Pos)) {
    scan_lines_by_dir(board, center, |_, p| f(p));
}

/// As `scan_lines`, also passing the index (into `DIRS`) of the line each cell is on.
#[inline]
pub fn scan_lines_by_dir(board: &Board, center: Pos, mut f: impl FnMut(usize, Pos)) {
    let windows = board.windows(center);
    for (d, (&dir, &w)) in DIRS.iter().zip(windows.iter()).enumerate() {
        window_empties(center, dir, w, |p| f(d, p));
    }
}

/// Visit the empty cells of `window`, `center`'s window along `dir`, from four steps
/// behind to four steps ahead.
#[inline]
pub(crate) fn window_empties(center: Pos, dir: isize, window: u16, mut f: impl FnMut(Pos)) {
    // Slot s holds the cell at offset s - 4 (s < 4) or s - 3 (s >= 4); code 0 is empty.
    let mut empty = !(window | (window >> 1)) & 0x5555;
    while empty != 0 {
        let slot = empty.trailing_zeros() as isize / 2;
        let k = if slot < 4 { slot - 4 } else { slot - 3 };
        f(center.offset(k * dir));
        empty &= empty - 1;
    }
}
