//! How selective the alpha-beta is: which forced replies cost no depth, by how much a move
//! is searched shallower first (late-move reductions by node kind and threat class, adjusted
//! by the search numbers' distance, history and cut-node terms, off by default), which
//! counter-fours of a defence node are not worth searching (distractions near the horizon,
//! and a chain's counter-fours away from its previous one), and which table move is
//! singular enough to be searched a ply deeper (the test, its candidates and its table
//! key); and when a node stands far enough above beta to stop (reverse futility, on the
//! evaluation a table bound may sharpen). The node and the move loop in `pvs` apply them;
//! the late-move pruning count and the "builds and blocks nothing" skip stay in the loop,
//! beside the state they read.

use super::pvs::Search;
use crate::board::{Board, MoveList, MultiKey};
use crate::eval::pattern::Pattern4;
use crate::eval::weights::{FUTILITY_DEPTH, LMR_DIVISOR};
use crate::threat::NodeKind;
use crate::tt::{BoardNode, Bound};
use crate::types::{Pos, Score, ONE_PLY, WIN_BOUND};

/// One ply of remaining depth (`types::ONE_PLY`): inside the search depth counts quarter
/// plies, so an extension or a reduction can be a fraction of a ply.
pub(super) const PLY: i32 = ONE_PLY;
/// Late-move reductions by depth and move number: ln(d)·ln(i)/LMR_DIVISOR plies, rounded,
/// in units of `PLY`.
static LMR: std::sync::LazyLock<[[i32; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((d as f64).ln() * (i as f64).ln() / LMR_DIVISOR).round() as i32 * PLY;
        }
    }
    t
});

/// `depth` (in `PLY` units) in whole plies, rounded down.
#[inline]
pub(super) fn plies(depth: i32) -> i32 {
    depth.div_euclid(PLY)
}

/// Reduction of a defence node's answers after the first (see `reduction`).
const DEFENCE_REDUCTION: i32 = PLY;
/// A defence node's counter-four farther than this from both last moves is a distraction.
const DISTRACT_DISTANCE: usize = 4;
/// Distractions are skipped up to this depth once a non-losing answer is known (SPRT at
/// 200 ms: +23 ± 18 Elo over 1022 games).
const DISTRACT_DEPTH: i32 = 4 * PLY;

/// How much shallower the `i`-th move of a node is searched first (in `PLY` units, less
/// than `depth`), by the node's kind and the move's own and blocked threat classes.
///
/// - Quiet nodes: the LMR table from the third move on, one ply less for a move that makes
///   or blocks a three (SPRT at 200 ms, +28 ± 21 Elo over 948 games; the depth-8 bench
///   tree −41 %), one less at PV nodes; fours are never reduced. Once a move has `raised`
///   alpha (at a PV node), a reduced move between 3 and 11 plies deep loses one ply more
///   (Rapfi's, SEARCH.md §4 item 11; SPRT at 200 ms, +29 ± 22 Elo over 836 games).
/// - Defence nodes (an open three or double-four threat to answer): every answer after the
///   first, by `DEFENCE_REDUCTION` (SPRT at 200 ms, +26 ± 20 Elo over 898 games; the
///   depth-8 bench tree −30 %; session 58 at 500 ms: none −53 ± 35, two plies +0 ± 26),
///   except at PV nodes (SPRT at 200 ms, +26 ± 20 Elo over 1128 games). At most the
///   node's depth less a ply, as every reduction.
/// - Forced replies (a five to block): never.
#[inline]
pub(super) fn reduction(
    kind: NodeKind,
    i: usize,
    own_class: Pattern4,
    opp_class: Pattern4,
    depth: i32,
    is_pv: bool,
    raised: bool,
) -> i32 {
    if depth < 2 * PLY {
        return 0;
    }
    let r = match kind {
        NodeKind::Quiet if i >= 2 => {
            if own_class >= Pattern4::EBlock4 || opp_class >= Pattern4::EBlock4 {
                return 0;
            }
            let less = is_pv as i32
                + (own_class >= Pattern4::HFlex3 || opp_class >= Pattern4::HFlex3) as i32;
            LMR[plies(depth).min(63) as usize][i.min(63)] - less * PLY
        }
        NodeKind::Defend if i >= 1 && !is_pv => DEFENCE_REDUCTION,
        _ => 0,
    };
    let r = r.clamp(0, depth - PLY);
    if raised && r > 0 && depth > 2 * PLY && depth < 12 * PLY {
        (r + PLY).min(depth - PLY)
    } else {
        r
    }
}

/// Whether a move of a node of `kind`, of these own and blocked classes, is a counter-four:
/// in a defence node, a four that blocks nothing (`blocked`: the opponent's class there,
/// below a four). It does not answer the threat; it only makes the opponent block first.
#[inline]
pub(super) fn is_counter_four(kind: NodeKind, own: Pattern4, blocked: Pattern4) -> bool {
    kind == NodeKind::Defend && own >= Pattern4::EBlock4 && blocked < Pattern4::EBlock4
}

/// Whether `m` stands more than `distance` cells from both of the last two moves.
#[inline]
fn far_from_last_two(board: &Board, m: Pos, distance: usize) -> bool {
    [board.recent_move(0), board.recent_move(1)]
        .iter()
        .all(|r| r.is_none_or(|r| r.distance(m) > distance))
}

/// Mixed into the key of a node searched without one move, so that its table entry never
/// poses as the full node's (Rapfi's excluded move XOR-ed into the key).
#[inline]
pub(super) fn without_move(key: MultiKey, m: Pos) -> MultiKey {
    let cell = m.0 as u64 + 1;
    key.with(MultiKey {
        hash: 0x53E5_7C1D_4A9B_0F27 ^ cell.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        check: 0x2C6B_81D3_F05A_9E41 ^ cell.wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
    })
}

impl Search<'_> {
    /// Reverse futility at a node that may take it (`futile`: a non-PV quiet node not testing
    /// a move for singularity): the score to return when the evaluation (`sharpened`) stands
    /// a margin per ply above beta, at most `FUTILITY_DEPTH` from the horizon and with no
    /// proven result in the window.
    #[inline]
    pub(super) fn reverse_futility(
        &self,
        futile: bool,
        static_eval: Score,
        hit: Option<BoardNode>,
        depth: i32,
        beta: Score,
    ) -> Option<Score> {
        if !futile || depth > FUTILITY_DEPTH || beta.abs() >= WIN_BOUND {
            return None;
        }
        let eval = self.sharpened(static_eval, hit);
        (eval - self.params.futility_per_ply * depth / PLY >= beta).then_some(eval)
    }

    /// The evaluation reverse futility reads: `eval`, or with `futility_tt` on, sharpened
    /// by the node's table entry (a lower bound above it, or an upper bound below it,
    /// replaces it; mate scores excepted: PentaZen's and Stockfish's rule).
    #[inline]
    pub(super) fn sharpened(&self, eval: Score, hit: Option<BoardNode>) -> Score {
        match hit {
            Some(n) if self.params.futility_tt > 0 && n.score.abs() < WIN_BOUND => match n.bound {
                Bound::Lower if n.score > eval => n.score,
                Bound::Upper if n.score < eval => n.score,
                _ => eval,
            },
            _ => eval,
        }
    }

    /// Whether the table's entry `n` of this node is worth a singular test: a quiet node
    /// below the root, deep enough, not itself a test, whose entry has a move and a lower or
    /// exact bound from nearly as deep, away from mate scores; and not so deep in the line
    /// that extensions could run away.
    pub(super) fn singular_candidate(
        &self,
        kind: NodeKind,
        n: &BoardNode,
        depth: i32,
        ply: i32,
    ) -> bool {
        let se = self.params.se_depth;
        se > 0
            && ply > 0
            && kind == NodeKind::Quiet
            && depth >= se * PLY
            && ply < 2 * self.root_depth
            && !self.excluded_at[ply as usize].is_some()
            && n.best_move.is_some()
            && n.bound != Bound::Upper
            && n.depth >= depth - 3 * PLY
            && n.score.abs() < WIN_BOUND
    }

    /// Whether the counter-four `m` of a defence node `up` plies from the root, at `depth`,
    /// is skipped; the caller asks only at a non-PV node once an answer holds.
    ///
    /// - A distraction: at depth ≤ `DISTRACT_DEPTH`, more than `DISTRACT_DISTANCE` cells
    ///   from both last moves, so it only delays the threat the node answers (Rapfi's
    ///   "distract" moves; SPRT at 200 ms, +23 ± 18 Elo over 1022 games).
    /// - A chain's jump: our previous move was a counter-four as well (the opponent's last
    ///   move blocked it), and `m` is outside its neighbourhood
    ///   (`Pos::near_square2_line4`). The first counter-four is free and the later ones are
    ///   local, as in the horizon's VCF:
    ///   since forced replies cost no depth, a chain of counter-fours from all over the
    ///   board cost nothing but nodes (SPRT at 200 ms, +28 ± 21 Elo over 864 games; the
    ///   depth-8 bench tree −20 %).
    #[inline]
    pub(super) fn skips_counter_four(&self, m: Pos, depth: i32, up: usize) -> bool {
        if depth <= DISTRACT_DEPTH && far_from_last_two(self.board, m, DISTRACT_DISTANCE) {
            return true;
        }
        up >= 2
            && self.counter_four[up - 2]
            && self
                .board
                .recent_move(1)
                .is_some_and(|previous| !previous.near_square2_line4(m))
    }

    /// The singular test of the table entry `n` at a node of window (·, `beta`): the other
    /// moves are searched at half depth (at least a ply), with the table move left out
    /// (`excluded_at`), against the table score less `se_margin` a ply. `Ok` with the table
    /// move when none reaches that bound (it is the only good move: extend it),
    /// `Ok(Pos::NONE)` when some do, and `Err` with a score to return at once: several moves
    /// cut (the lowered bound already beats beta), or the budget ran out (Rapfi's,
    /// SEARCH.md §4 item 9).
    pub(super) fn singular(
        &mut self,
        n: &BoardNode,
        beta: Score,
        depth: i32,
        ply: i32,
        cut: bool,
    ) -> Result<Pos, Score> {
        let up = ply as usize;
        let s_beta = n.score - self.params.se_margin * depth / PLY;
        self.excluded_at[up] = n.best_move;
        // At least a ply: at depth 0 the quiescence would run, which knows no excluded move.
        let test_depth = ((depth - PLY) / 2).max(PLY);
        let s = self.pvs(s_beta - 1, s_beta, test_depth, ply, false, cut);
        self.excluded_at[up] = Pos::NONE;
        self.pv[up].clear();
        if self.budget.stopped() {
            Err(s)
        } else if s < s_beta {
            Ok(n.best_move)
        } else if s_beta >= beta {
            Err(s_beta)
        } else {
            Ok(Pos::NONE)
        }
    }

    /// Forced replies cost no depth: blocking a five always; answering an open three when
    /// there are only a few answers (within twice the root depth, so threat chains end),
    /// and at the horizon an open three is never left unanswered.
    pub(super) fn adjusted_depth(
        &self,
        kind: NodeKind,
        depth: i32,
        ply: i32,
        defence_moves: Option<&MoveList>,
    ) -> i32 {
        let mut depth = depth;
        if matches!(kind, NodeKind::BlockFive(_)) {
            depth += PLY;
        }
        if let Some(d) = defence_moves {
            if (d.len() <= 4 && ply < 2 * self.root_depth) || (depth <= 0 && ply < 48) {
                depth = depth.max(0) + PLY;
            }
        }
        depth
    }

    /// The reduction `r` (> 0) of the quiet move `m` at `depth`, `up` plies from the root,
    /// adjusted by the search numbers that are off by default: `lmr_far` more for a move
    /// far from both last moves, `lmr_cut` more for a move other than the killers at an
    /// expected cut node (`cut`), and `lmr_history` less in proportion to its history.
    #[inline]
    pub(super) fn adjust_reduction(
        &self,
        m: Pos,
        mut r: i32,
        depth: i32,
        up: usize,
        cut: bool,
    ) -> i32 {
        let p = &self.params;
        if p.lmr_far > 0 && far_from_last_two(self.board, m, p.lmr_far_distance as usize) {
            r = (r + p.lmr_far).min(depth - PLY);
        }
        if cut && p.lmr_cut > 0 && !self.killers[up].contains(&m) {
            r = (r + p.lmr_cut).min(depth - PLY);
        }
        if p.lmr_history > 0 {
            // (A negative history, under the malus, reduces more, but never past the
            // node's last ply, as the other adjustments.)
            let by_history = p.lmr_history * self.history_bonus(m) / p.history_cap.max(1);
            r = (r - by_history).clamp(0, depth - PLY);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::search::params::SearchParams;
    use crate::tt::TranspositionTable;
    use crate::types::Rule;

    /// Our previous move at (10,10), the opponent's block at (15,15), then `f` on a search
    /// two plies below the root whose grandparent's move was a counter-four or not.
    fn two_plies_after(previous_was_counter_four: bool, f: impl FnOnce(&mut Search)) {
        let mut board = Board::new(20, Rule::FREESTYLE).expect("size");
        board.play(Pos::new(10, 10));
        board.play(Pos::new(15, 15));
        let mut tt = TranspositionTable::with_bytes(0);
        let mut search = Search::new(
            &mut board,
            &mut tt,
            Budget::new(1, None),
            SearchParams::DEFAULT,
        );
        search.counter_four[0] = previous_was_counter_four;
        f(&mut search);
    }

    #[test]
    fn a_counter_four_chain_stays_near_its_previous_four() {
        let deep = DISTRACT_DEPTH + 4 * PLY;
        two_plies_after(true, |s| {
            // Within two cells, or four along a line, of (10,10): searched.
            for (x, y) in [(12, 12), (8, 11), (14, 10), (10, 6), (6, 14)] {
                assert!(!s.skips_counter_four(Pos::new(x, y), deep, 2), "({x},{y})");
            }
            // Off its lines and three or more cells away, or five along a line: skipped,
            // even beside the opponent's last move.
            for (x, y) in [(13, 11), (7, 12), (15, 10), (14, 15), (16, 16)] {
                assert!(s.skips_counter_four(Pos::new(x, y), deep, 2), "({x},{y})");
            }
            // The flag read is the grandparent's: at the first two plies there is none.
            assert!(!s.skips_counter_four(Pos::new(16, 16), deep, 1));
        });
    }

    #[test]
    fn the_first_counter_four_is_free_above_the_distraction_depth() {
        two_plies_after(false, |s| {
            let far = Pos::new(2, 2);
            assert!(!s.skips_counter_four(far, DISTRACT_DEPTH + PLY, 2));
            // Near the horizon a counter-four far from both last moves is a distraction,
            // one near either of them is not.
            assert!(s.skips_counter_four(far, DISTRACT_DEPTH, 2));
            assert!(!s.skips_counter_four(Pos::new(13, 15), DISTRACT_DEPTH, 2));
            assert!(!s.skips_counter_four(Pos::new(6, 6), DISTRACT_DEPTH, 2));
        });
    }

    #[test]
    fn a_defence_node_reduces_its_later_answers_off_the_pv_within_its_depth() {
        let defend = NodeKind::Defend;
        let (none, block) = (Pattern4::None, Pattern4::HFlex3);
        let deep = 8 * PLY;
        // The first answer, and every answer at a PV node, at full depth.
        assert_eq!(reduction(defend, 0, none, block, deep, false, false), 0);
        assert_eq!(reduction(defend, 3, none, block, deep, true, false), 0);
        // The later ones by `DEFENCE_REDUCTION`, whatever they make or block.
        for i in [1, 2, 7] {
            for own in [Pattern4::None, Pattern4::EBlock4] {
                assert_eq!(
                    reduction(defend, i, own, block, deep, false, false),
                    DEFENCE_REDUCTION
                );
            }
        }
        // Never below a ply left, and nothing under two plies.
        assert_eq!(
            reduction(defend, 1, none, block, 2 * PLY, false, false),
            PLY
        );
        assert_eq!(
            reduction(defend, 1, none, block, 2 * PLY - 1, false, false),
            0
        );
        // A five block is never reduced.
        let five = NodeKind::BlockFive(Pos::new(3, 3));
        assert_eq!(reduction(five, 1, none, block, deep, false, false), 0);
    }

    #[test]
    fn a_node_without_a_move_has_a_key_of_its_own() {
        let mut board = Board::new(20, Rule::FREESTYLE).expect("size");
        board.play(Pos::new(10, 10));
        let key = board.key();
        let cells = [
            Pos::new(0, 0),
            Pos::new(9, 9),
            Pos::new(11, 10),
            Pos::new(19, 19),
        ];
        let keys: Vec<MultiKey> = cells.iter().map(|&m| without_move(key, m)).collect();
        for (i, k) in keys.iter().enumerate() {
            assert_ne!(*k, key, "{:?} left out poses as the full node", cells[i]);
            assert_eq!(*k, without_move(key, cells[i]), "not repeatable");
            // Both words change, so neither the slot nor the check can match the full node.
            assert_ne!(k.hash, key.hash);
            assert_ne!(k.check, key.check);
            for other in &keys[i + 1..] {
                assert_ne!(k, other, "two excluded moves share a key");
            }
        }
        // Not the same as the position after the move either.
        assert_ne!(without_move(key, cells[1]), board.key_after(cells[1]));
    }

    #[test]
    fn a_table_bound_sharpens_the_futility_evaluation_only_when_it_is_tighter() {
        two_plies_after(false, |search| {
            let entry = |score, bound| {
                Some(BoardNode {
                    score,
                    depth: PLY,
                    best_move: Pos::NONE,
                    bound,
                })
            };
            // Off: the static evaluation alone.
            search.params.futility_tt = 0;
            assert_eq!(search.sharpened(40, entry(90, Bound::Lower)), 40);
            search.params.futility_tt = 1;
            assert_eq!(search.sharpened(40, None), 40);
            // A lower bound above it and an upper bound below it replace it.
            assert_eq!(search.sharpened(40, entry(90, Bound::Lower)), 90);
            assert_eq!(search.sharpened(40, entry(-10, Bound::Upper)), -10);
            // Bounds on the other side, exact scores and proven results do not.
            assert_eq!(search.sharpened(40, entry(-10, Bound::Lower)), 40);
            assert_eq!(search.sharpened(40, entry(90, Bound::Upper)), 40);
            assert_eq!(search.sharpened(40, entry(90, Bound::Exact)), 40);
            assert_eq!(search.sharpened(40, entry(WIN_BOUND, Bound::Lower)), 40);
            assert_eq!(search.sharpened(40, entry(-WIN_BOUND, Bound::Upper)), 40);
        });
    }

    #[test]
    fn only_a_deep_quiet_node_with_a_good_table_move_is_tested_for_singularity() {
        two_plies_after(false, |search| {
            search.params.se_depth = 6;
            search.root_depth = 10;
            let entry = BoardNode {
                score: 50,
                depth: 7 * PLY,
                best_move: Pos::new(12, 12),
                bound: Bound::Lower,
            };
            let quiet = NodeKind::Quiet;
            let depth = 8 * PLY;
            assert!(search.singular_candidate(quiet, &entry, depth, 3));
            // Not at the root, nor too shallow, nor so deep in the line that it could run away.
            assert!(!search.singular_candidate(quiet, &entry, depth, 0));
            assert!(!search.singular_candidate(quiet, &entry, 5 * PLY, 3));
            assert!(!search.singular_candidate(quiet, &entry, depth, 20));
            // Only quiet nodes: defence nodes have their own rules.
            assert!(!search.singular_candidate(NodeKind::Defend, &entry, depth, 3));
            // The entry must hold a move, a bound that is not only an upper one, from nearly as
            // deep, and a score that is not a proven result.
            let changed = |f: fn(&mut BoardNode)| {
                let mut e = entry;
                f(&mut e);
                e
            };
            for e in [
                changed(|e| e.best_move = Pos::NONE),
                changed(|e| e.bound = Bound::Upper),
                changed(|e| e.depth = 4 * PLY),
                changed(|e| e.score = WIN_BOUND),
                changed(|e| e.score = -WIN_BOUND),
            ] {
                assert!(!search.singular_candidate(quiet, &e, depth, 3), "{e:?}");
            }
            assert!(search.singular_candidate(
                quiet,
                &changed(|e| e.bound = Bound::Exact),
                depth,
                3
            ));
            // A node already testing a move does not test again.
            search.excluded_at[3] = Pos::new(12, 13);
            assert!(!search.singular_candidate(quiet, &entry, depth, 3));
            // Off when the number is 0.
            search.excluded_at[3] = Pos::NONE;
            search.params.se_depth = 0;
            assert!(!search.singular_candidate(quiet, &entry, depth, 3));
        });
    }
}
