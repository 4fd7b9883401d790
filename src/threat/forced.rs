//! Forced nodes: what the side to move faces (a five to make or to block, an open four to
//! answer), read from the pattern counters in O(1), and the answers to an open-four threat.

use crate::board::{cells_at_least, five_cells, window_empties, Board, MoveList};
use crate::eval::pattern::{Pattern, Pattern4};
use crate::types::{Color, Pos, DIRS};

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
        // Under renju black may not block on a forbidden cell: then the five stands.
        1 if board.is_forbidden_for(opp_fives[0], me) => return NodeKind::Lost,
        1 => return NodeKind::BlockFive(opp_fives[0]),
        _ => return NodeKind::Lost,
    }
    if open_four_threat(board, opp) {
        NodeKind::Defend
    } else {
        NodeKind::Quiet
    }
}

/// A win the side to move forces whatever the opponent does, found with at most a move per
/// four-three and no search, in plies to the five (Rapfi's quick win check). `None` while
/// the opponent has a five to make; the search asks at quiet and defence nodes, where it has
/// none. Claimed where the shapes are exact (`Rule::shapes_exact_for`: no stone of the
/// opponent's spoils a five of ours): under freestyle and exactly five, and for white under
/// renju, where black's fouls only take answers away from black.
/// `every_quick_win_holds_against_every_reply` checks every claim against every reply under
/// each rule. Under caro a block at one end can spoil the other five (it closes that five's
/// far end), and black's fives under renju must be exact and its moves legal: there the wins
/// are left to the search. (Playing each open four and trying every block found them
/// soundly, but cost more than it saved: session 55's caro SPRT, −36 ± 27.)
///
/// - an open four or double four: 3, whatever fours the opponent has (as Rapfi's check):
///   the opponent's reply cannot be a five, and ours comes first. Asking also that the
///   opponent have no four to make, as this check did until session 54, left such a win
///   to the search's ordering (`claimed_wins_do_not_wait_on_the_ordering`);
/// - with `combos`, a four-three (a four with an open three) or a double three while the
///   opponent has no four to make: 5. The opponent's one move stops only one line through
///   the new stone (two lines cross only there) and, making no four, gains no tempo;
/// - with `combos`, a four-three whose forced block makes the opponent no four, whatever
///   fours the opponent has elsewhere: 5. After the block the three becomes an open four,
///   and a four made then comes too late, as the five is already on offer.
pub fn quick_win(board: &mut Board, combos: bool) -> Option<i32> {
    let me = board.side_to_move();
    let opp = me.opp();
    if !board.rule().shapes_exact_for(me) || board.count(opp, Pattern4::AFive) > 0 {
        return None;
    }
    if board.count(me, Pattern4::BFlex4) > 0 {
        return Some(3);
    }
    if !combos {
        return None;
    }
    let opp_quiet = board.count_at_least(opp, Pattern4::EBlock4) == 0;
    let four_threes = board.count(me, Pattern4::CBlock4Flex3);
    if opp_quiet && (four_threes > 0 || board.count(me, Pattern4::FFlex3x2) > 0) {
        return Some(5);
    }
    if four_threes == 0 {
        return None;
    }
    let cells = cells_at_least(board, me, Pattern4::CBlock4Flex3);
    cells
        .iter()
        .any(|&m| {
            if board.p4(m, me) != Pattern4::CBlock4Flex3 {
                return false;
            }
            board.play(m);
            let blocks = five_cells(board, me, 2);
            let wins = blocks.len() == 1 && board.p4(blocks[0], opp) < Pattern4::EBlock4;
            board.undo().ok();
            wins
        })
        .then_some(5)
}

/// Whether `att` threatens an open four (or a double four) it may really play: under renju
/// black's double fours are forbidden, so they threaten nothing.
#[inline]
pub fn open_four_threat(board: &Board, att: Color) -> bool {
    board.count(att, Pattern4::BFlex4) > 0
        && (!board.rule().renju || att == Color::White || legal_open_four(board))
}

/// Whether black has an open four or double four cell that is not forbidden.
#[cold]
#[inline(never)]
fn legal_open_four(board: &Board) -> bool {
    cells_at_least(board, Color::Black, Pattern4::BFlex4)
        .iter()
        .any(|&f| board.p4(f, Color::Black) == Pattern4::BFlex4 && !board.is_forbidden(f))
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
    retain_legal(board, me, &mut out);
    out
}

/// Drop the cells `color` may not play (black's renju fouls) from `moves`.
#[inline]
pub fn retain_legal<A: smallvec::Array<Item = Pos>>(
    board: &Board,
    color: Color,
    moves: &mut smallvec::SmallVec<A>,
) {
    if board.rule().renju && color == Color::Black {
        drop_forbidden(board, moves);
    }
}

#[cold]
#[inline(never)]
fn drop_forbidden<A: smallvec::Array<Item = Pos>>(
    board: &Board,
    moves: &mut smallvec::SmallVec<A>,
) {
    moves.retain(|p| !board.is_forbidden(*p));
}

/// Cells that break `att`'s open-four threats (see `defences`); empty if there are none.
pub fn threat_blocks(board: &Board, att: Color) -> MoveList {
    let mut out = MoveList::new();
    let ci = att.idx();
    for f in cells_at_least(board, att, Pattern4::BFlex4) {
        if board.p4(f, att) != Pattern4::BFlex4 || board.is_forbidden_for(f, att) {
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
