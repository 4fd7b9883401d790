//! Static evaluation and everything it is built from.
//!
//! - `pattern`: line shapes and their combination classes;
//! - `tables`: the lookup tables built per rule (the rule seam) and the per-cell state;
//! - `weights`: every weight, of positions and of moves, in one file.
//!
//! The board keeps, for each colour, the sum over empty cells of what that colour would
//! gain by playing there. Their difference ranks quiet positions; the threat term adds what
//! the side to move can force next (an open three to extend, a four-three to play).

pub mod pattern;
pub mod tables;
pub(crate) mod weights;

use crate::types::{Color, Pos, Score};
use pattern::Pattern4;
use tables::CellPatterns;
use weights::*;

/// What the evaluation reads of a position: the incremental sums and class counts and the
/// per-cell shapes that the board keeps. The board implements it; the evaluation never
/// names the board, so the two modules do not depend on each other both ways.
pub trait Shapes {
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The sum of `color`'s per-cell shares over the empty cells.
    fn value(&self, color: Color) -> i32;
    /// How many empty cells give `color` the class `p4`.
    fn count(&self, color: Color, p4: Pattern4) -> usize;
    /// How many empty cells give `color` a class of at least `p4`.
    fn count_at_least(&self, color: Color, p4: Pattern4) -> usize;
    /// The shapes of the empty cell `pos`.
    fn cell(&self, pos: Pos) -> &CellPatterns;
}

/// Evaluation of the position for the side to move, in the engine's score units.
pub fn evaluate(board: &impl Shapes) -> Score {
    let me = board.side_to_move();
    let opp = me.opp();
    let base = board.value(me) - board.value(opp);
    let mut threat = 0;
    // Moving side's initiative: a four-three or three-three it can play now.
    if board.count(me, Pattern4::CBlock4Flex3) > 0 {
        threat += EVAL_FOUR_THREE;
    } else if board.count(me, Pattern4::FFlex3x2) > 0 {
        threat += EVAL_THREE_THREE;
    }
    if board.count_at_least(me, Pattern4::HFlex3) > 0 {
        threat += EVAL_OPEN_THREE;
    }
    // The opponent's pending open-four threat must be answered, which costs the tempo.
    if board.count(opp, Pattern4::BFlex4) > 0 {
        threat += EVAL_OPP_OPEN_FOUR;
    }
    (base / 2 + threat + EVAL_TEMPO).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Static ordering score of `p` for the side to move: own threat, blocked threat, and the
/// cell's evaluation shares.
#[inline]
pub fn order_score(board: &impl Shapes, p: Pos) -> i32 {
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
