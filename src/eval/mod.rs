//! Static evaluation: the incremental per-cell shares plus a small threat term.
//!
//! The board keeps, for each colour, the sum over empty cells of what that colour would
//! gain by playing there. Their difference ranks quiet positions; the threat term adds what
//! the side to move can force next (an open three to extend, a four-three to play).

use crate::board::Board;
use crate::pattern::Pattern4;
use crate::types::Score;

/// Evaluation of the position for the side to move, in the engine's score units.
pub fn evaluate(board: &Board) -> Score {
    let me = board.side_to_move();
    let opp = me.opp();
    let base = board.value(me) - board.value(opp);
    let mut threat = 0;
    // Moving side's initiative: a four-three or three-three it can play now.
    if board.count(me, Pattern4::CBlock4Flex3) > 0 {
        threat += 300;
    } else if board.count(me, Pattern4::FFlex3x2) > 0 {
        threat += 200;
    }
    if board.count_at_least(me, Pattern4::HFlex3) > 0 {
        threat += 40;
    }
    // The opponent's pending open-four threat must be answered, which costs the tempo.
    if board.count(opp, Pattern4::BFlex4) > 0 {
        threat -= 60;
    }
    (base / 2 + threat + 20).clamp(-10_000, 10_000)
}
