//! Every number that weighs a position or a move, in one place: the per-line and
//! per-class shares the board sums incrementally, the threat terms of `evaluate`, the move
//! ordering weights, and the eval-based margins of the search. A tuned evaluation replaces
//! this file (or feeds it from a data file) without touching the code that reads it.

use super::pattern::Pattern4;
use crate::types::Score;

/// Evaluation weight of one line pattern (a cell's share sums its four lines), indexed by
/// `Pattern` (dead, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F5).
pub(crate) const LINE_VALUE: [i16; 13] = [0, 1, 2, 3, 8, 10, 12, 9, 24, 28, 26, 90, 200];

/// Extra weight for combination classes, which threaten more than their lines add up to.
pub(crate) const COMBO_BONUS: [i16; Pattern4::COUNT] =
    [0, 0, 0, 6, 6, 0, 10, 60, 0, 20, 120, 160, 300];

/// Ordering weight of a class for the side that would play it.
pub(crate) const ATTACK: [i32; Pattern4::COUNT] =
    [0, 6, 5, 14, 14, 24, 30, 120, 20, 40, 300, 800, 5000];
/// Ordering weight of a class for the opponent (what playing there takes away).
pub(crate) const BLOCK: [i32; Pattern4::COUNT] =
    [0, 4, 3, 10, 10, 18, 22, 90, 14, 30, 200, 600, 3000];

/// `evaluate`: the side to move can play a four-three now.
pub(crate) const EVAL_FOUR_THREE: Score = 300;
/// `evaluate`: the side to move can play a three-three now.
pub(crate) const EVAL_THREE_THREE: Score = 200;
/// `evaluate`: the side to move can make an open three.
pub(crate) const EVAL_OPEN_THREE: Score = 40;
/// `evaluate`: the opponent threatens an open four, which costs the tempo to answer.
pub(crate) const EVAL_OPP_OPEN_FOUR: Score = -60;
/// `evaluate`: the side to move's tempo.
pub(crate) const EVAL_TEMPO: Score = 20;
/// `evaluate`: static scores stay within ±this, far from proven wins.
pub(crate) const EVAL_LIMIT: Score = 10_000;

/// Reverse futility: a quiet node at depth `d` this far above beta (per ply) stands pat.
pub(crate) const FUTILITY_PER_PLY: Score = 120;
/// Aspiration window half-width of the first try at each iteration (tripled on a fail).
pub(crate) const ASPIRATION: Score = 60;
/// Late-move reductions: `ln(depth) · ln(move number) / LMR_DIVISOR`, rounded.
pub(crate) const LMR_DIVISOR: f64 = 1.6;
