//! Move generation: which cells are worth trying at a node, threat first.
//!
//! The pattern counters tell in O(1) what kind of node this is; only then is the board
//! scanned, and the scan stops as soon as the counters say every wanted cell was found.

use crate::board::{Board, MoveList};
use crate::pattern::{Pattern, Pattern4};
use crate::types::{Color, Pos, DIRS};
use smallvec::SmallVec;

/// What the side to move faces, from the counters alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The side to move can make five.
    Win,
    /// The opponent can make five in two different cells: lost.
    Lost,
    /// The opponent can make five in one cell: that cell is the only move.
    BlockFive(Pos),
    /// The opponent threatens an open four or double four: defend or counter with fours.
    Defend,
    /// Nothing forced.
    Quiet,
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
fn window_empties(center: Pos, dir: isize, window: u16, mut f: impl FnMut(Pos)) {
    // Slot s holds the cell at offset s - 4 (s < 4) or s - 3 (s >= 4); code 0 is empty.
    let mut empty = !(window | (window >> 1)) & 0x5555;
    while empty != 0 {
        let slot = empty.trailing_zeros() as isize / 2;
        let k = if slot < 4 { slot - 4 } else { slot - 3 };
        f(center.offset(k * dir));
        empty &= empty - 1;
    }
}

/// Classify the node for the side to move.
pub fn node_kind(board: &Board) -> NodeKind {
    let me = board.side_to_move();
    let opp = me.opp();
    if !five_cells(board, me, 1).is_empty() {
        return NodeKind::Win;
    }
    let opp_fives = five_cells(board, opp, 2);
    match opp_fives.len() {
        0 => {}
        1 => return NodeKind::BlockFive(opp_fives[0]),
        _ => return NodeKind::Lost,
    }
    if board.count(opp, Pattern4::BFlex4) > 0 {
        NodeKind::Defend
    } else {
        NodeKind::Quiet
    }
}

/// Answers to an opponent's open-four threat: on each line where a cell would give the
/// opponent an open four (or a double four), every cell where the opponent would make a four
/// on that line (the blocks of a three are exactly those), plus every own four anywhere.
pub fn defences(board: &Board) -> MoveList {
    let me = board.side_to_move();
    let att = me.opp();
    let mut out = threat_blocks(board, att);
    for p in cells_at_least(board, me, Pattern4::EBlock4) {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Cells that break `att`'s open-four threats (see `defences`); empty if there are none.
pub fn threat_blocks(board: &Board, att: Color) -> MoveList {
    let mut out = MoveList::new();
    let ci = att.idx();
    for f in cells_at_least(board, att, Pattern4::BFlex4) {
        if board.p4(f, att) != Pattern4::BFlex4 {
            continue;
        }
        if !out.contains(&f) {
            out.push(f);
        }
        // `f` is empty, so its windows are current.
        let cell = board.cell(f);
        for (d, &dir) in DIRS.iter().enumerate() {
            if cell.line(d, ci) < Pattern::B4 {
                continue;
            }
            window_empties(f, dir, cell.windows[d], |p| {
                if board.cell(p).line(d, ci) >= Pattern::B4 && !out.contains(&p) {
                    out.push(p);
                }
            });
        }
    }
    out
}

/// Ordering weight of a class for the side that would play it.
const ATTACK: [i32; Pattern4::COUNT] = [0, 6, 5, 14, 14, 24, 30, 120, 20, 40, 300, 800, 5000];
/// Ordering weight of a class for the opponent (what playing there takes away).
const BLOCK: [i32; Pattern4::COUNT] = [0, 4, 3, 10, 10, 18, 22, 90, 14, 30, 200, 600, 3000];

/// Static ordering score of `p` for the side to move: own threat, blocked threat, and the
/// cell's evaluation shares.
#[inline]
pub fn order_score(board: &Board, p: Pos) -> i32 {
    let me = board.side_to_move();
    let cell = board.cell(p);
    let own = cell.p4[me.idx()] as usize;
    let opp = cell.p4[me.opp().idx()] as usize;
    ATTACK[own]
        + BLOCK[opp]
        // Shares are never negative, so the shift is the division by four without the
        // sign fix-up a signed `/ 4` compiles to.
        + ((2 * cell.value[me.idx()] as i32 + cell.value[me.opp().idx()] as i32) >> 2)
}
