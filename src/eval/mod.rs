//! Static evaluation and everything it is built from.
//!
//! - `pattern`: line shapes and their combination classes;
//! - `tables`: the lookup tables built per rule (the rule seam) and the per-cell state;
//! - `sets`: the evaluation weight sets, generated data files (hand-set and fitted);
//! - `weights`: the weights of moves and the search's eval-based margins.
//!
//! The board keeps, for each colour, the sum over empty cells of what that colour would
//! gain by playing there. Their difference ranks quiet positions; the threat-state table
//! adds what either side can force next (an open three to extend, a four-three to play),
//! and a set may weigh each side's class counts on their own.

pub mod pattern;
pub mod sets;
pub mod tables;
pub(crate) mod weights;

use crate::types::{Color, Pos, Score};
use pattern::Pattern4;
use tables::{CellPatterns, Tables};
use weights::*;

/// What the evaluation reads of a position: the incremental sums and class counts and the
/// per-cell shapes that the board keeps. The board implements it; the evaluation never
/// names the board, so the two modules do not depend on each other both ways.
pub trait Shapes {
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// The sum of `color`'s per-cell shares over the empty cells.
    fn value(&self, color: Color) -> i32;
    /// The sums of `color`'s per-cell pattern-code terms over the empty cells: as the side
    /// to move, and as the opponent.
    fn terms(&self, color: Color) -> [i32; 2];
    /// How many empty cells give `color` the class `p4`.
    fn count(&self, color: Color, p4: Pattern4) -> usize;
    /// How many empty cells give `color` a class of at least `p4`.
    fn count_at_least(&self, color: Color, p4: Pattern4) -> usize;
    /// How many empty cells give `color` each class.
    fn counts(&self, color: Color) -> &[u16; Pattern4::COUNT];
    /// The tables (and weight set) the shares come from.
    fn tables(&self) -> &Tables;
    /// The shapes of the empty cell `pos`.
    fn cell(&self, pos: Pos) -> &CellPatterns;
}

/// Evaluation of the position for the side to move, in the engine's score units: half the
/// difference of the two colours' share sums, the threat-state value (tempo included) and,
/// if the set has them, both sides' weighted class counts and pattern-code terms.
pub fn evaluate(board: &impl Shapes) -> Score {
    evaluate_parts(board).0
}

/// `evaluate`, and the part of it that belongs to the side to move alone: the threat-state
/// value (what either side can force next, tempo included). The rest is the material of
/// both colours' shapes, which the search averages over two plies; the threat state is
/// read as it stands (Rapfi's split, SEARCH.md §3).
#[inline]
pub fn evaluate_parts(board: &impl Shapes) -> (Score, Score) {
    let me = board.side_to_move();
    let opp = me.opp();
    let (own, theirs) = (board.counts(me), board.counts(opp));
    if board.tables().is_renju() {
        return evaluate_renju(board, me, *own, *theirs);
    }
    score_counts(board, own, theirs)
}

/// `evaluate` under renju: black's three-three cells are forbidden (a double three made of
/// real threes is a foul), so they count as no threat of black's, neither for black to move
/// nor against white.
#[cold]
fn evaluate_renju(
    board: &impl Shapes,
    me: Color,
    mut own: [u16; Pattern4::COUNT],
    mut theirs: [u16; Pattern4::COUNT],
) -> (Score, Score) {
    let black = if me == Color::Black {
        &mut own
    } else {
        &mut theirs
    };
    forbid_three_threes(black);
    score_counts(board, &own, &theirs)
}

/// Black's class counts as renju's evaluation reads them: a three-three cell is forbidden,
/// so it counts as a cell of no threat.
pub fn forbid_three_threes(black: &mut [u16; Pattern4::COUNT]) {
    let three_three = Pattern4::FFlex3x2 as usize;
    black[Pattern4::None as usize] += black[three_three];
    black[three_three] = 0;
}

/// The evaluation from the side to move's and the opponent's class counts.
#[inline(always)]
fn score_counts(
    board: &impl Shapes,
    own: &[u16; Pattern4::COUNT],
    theirs: &[u16; Pattern4::COUNT],
) -> (Score, Score) {
    let me = board.side_to_move();
    let opp = me.opp();
    let tables = board.tables();
    let set = tables.set();
    let base = board.value(me) - board.value(opp);
    let threat = set.threat[sets::threat_mask(own, theirs)] as Score;
    let mut score = base / 2 + threat;
    if tables.class_terms() {
        for k in 0..Pattern4::COUNT {
            score +=
                set.own[k] as Score * own[k] as Score + set.opp[k] as Score * theirs[k] as Score;
        }
    }
    if tables.code_terms() {
        // Under renju a black three-three cell keeps its code terms (only its class count
        // moves, above): the terms are fitted on freestyle games.
        score += board.terms(me)[0] + board.terms(opp)[1];
    }
    (score.clamp(-EVAL_LIMIT, EVAL_LIMIT), threat)
}

/// How the search weighs a position's evaluation parts, in percent: its shape material
/// (`shapes`), its threat state (`threat`), and the parent's shape material in the two-ply
/// mean (`parent`). The search reads them from its `SearchParams`; the tuner's mirror of
/// the search's evaluation (`tune::features::search_eval_with`) uses `PLAIN`, so the two
/// agree by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalMix {
    /// Percent of the shape material (the evaluation less its threat state).
    pub shapes: i32,
    /// Percent of the threat-state value.
    pub threat: i32,
    /// Percent weight of the parent's shape material in the two-ply mean (50: the plain
    /// mean; 0: the node's own material alone).
    pub parent: i32,
}

impl EvalMix {
    /// The plain two-ply mean of the shape material plus the threat state as it stands.
    pub const PLAIN: EvalMix = EvalMix {
        shapes: 100,
        threat: 100,
        parent: 50,
    };

    /// The search's score of a node with shape material `shapes` and threat state
    /// `threat`, whose parent's shape material (from the parent's side to move's view) is
    /// `parent` (`None` at the root). `PLAIN` gives `(shapes - parent) / 2 + threat` to the
    /// unit, and `shapes + threat` without a parent.
    #[inline]
    pub fn score(&self, shapes: Score, parent: Option<Score>, threat: Score) -> Score {
        let material = match parent {
            Some(up) => (shapes * (100 - self.parent) - up * self.parent) / 100,
            None => shapes,
        };
        material * self.shapes / 100 + threat * self.threat / 100
    }
}

/// Static ordering score of `p` for the side to move: own threat, blocked threat, and the
/// cell's evaluation shares, by the engine's weights.
#[inline]
pub fn order_score(board: &impl Shapes, p: Pos) -> i32 {
    OrderWeights::DEFAULT.score(board, p)
}

/// The weights of the static move ordering: what a move's threat class is worth to the
/// side that plays it and to the opponent it blocks, and how much of the cell's
/// evaluation shares count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderWeights {
    /// Weight of a class for the side that would play it.
    pub attack: [i32; Pattern4::COUNT],
    /// Weight of a class for the opponent (what playing there takes away).
    pub block: [i32; Pattern4::COUNT],
    /// Weight of the cell's own evaluation share, in sixteenths.
    pub value_own: i32,
    /// Weight of the opponent's evaluation share there, in sixteenths.
    pub value_opp: i32,
    /// Weight of the pattern-code policy terms (`eval::sets::policy`), in percent (0: off).
    pub policy: i32,
}

impl OrderWeights {
    /// The engine's ordering (`eval/weights.rs`; shares as own half, opponent's quarter).
    pub const DEFAULT: OrderWeights = OrderWeights {
        attack: ATTACK,
        block: BLOCK,
        value_own: 8,
        value_opp: 4,
        policy: 0,
    };

    /// Ordering score of `p` for the side to move.
    #[inline]
    pub fn score(&self, board: &impl Shapes, p: Pos) -> i32 {
        let me = board.side_to_move();
        let cell = board.cell(p);
        let own = cell.p4[me.idx()] as usize;
        let opp = cell.p4[me.opp().idx()] as usize;
        let shares = self.value_own * cell.value[me.idx()] as i32
            + self.value_opp * cell.value[me.opp().idx()] as i32;
        // Shares and weights are never negative, so the shift is the division by sixteen
        // without the sign fix-up a signed `/ 16` compiles to.
        let base = self.attack[own] + self.block[opp] + (shares >> 4);
        if self.policy == 0 {
            return base;
        }
        base + self.policy * board.tables().policy(cell, me.idx()) / 100
    }
}
