//! ProbCut (Stockfish's; no Gomoku engine in SEARCH.md has it): at a deep non-PV quiet
//! node, the side to move's few attacking moves (its table move, and the cells where it
//! makes an open three or more) are searched a few plies shallower against a raised beta;
//! when one of them clears it, the full-depth search would almost surely cut off too, and
//! the node returns at once. An attacking move forces its answer, and a defence node with
//! few answers costs no depth, so the shallow look still reads the threat through. On from
//! 4 plies at 100 above beta (`SearchParams::probcut`, `probcut_depth`) since session 62's
//! SPRT at 200 ms a move: +16 ± 13 Elo over 1748 games; the depth-10 bench tree about
//! halves. Under caro and renju too since session 63's (+20 ± 16 over 1380 games, and
//! +41 ± 27 over 496 on 15×15); level under exactly five (+3 ± 17 over 1010), which keeps
//! its search, with or without caro (`INFO rule 9`, never measured: off where untested).
use super::pvs::Search;
use super::selectivity::PLY;
use crate::board::cells_at_least;
use crate::eval::order_score;
use crate::eval::pattern::Pattern4;
use crate::threat::{retain_legal, NodeKind};
use crate::tt::{BoardNode, Bound};
use crate::types::{Pos, Score, WIN_BOUND};
use smallvec::SmallVec;

/// Plies shallower than the node that the attacking moves are searched (Stockfish's 4,
/// counting the move itself).
const PROBCUT_REDUCTION: i32 = 4 * PLY;
/// Attacking moves tried at most.
const PROBCUT_MOVES: usize = 3;

impl Search<'_> {
    /// The score to return when ProbCut cuts the node off, `None` to search it as usual:
    /// only at a non-PV quiet node below the root that tests no move for singularity, at
    /// least `probcut_depth` plies deep, with beta away from proven results and no table
    /// entry from nearly as deep that already says the raised beta is out of reach.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn probcut(
        &mut self,
        kind: NodeKind,
        hit: Option<BoardNode>,
        tt_move: Pos,
        beta: Score,
        depth: i32,
        ply: i32,
        is_pv: bool,
        cut: bool,
    ) -> Option<Score> {
        let margin = self.params.probcut;
        let up = ply as usize;
        // On only where an SPRT accepted it: freestyle, caro and renju. Exactly five
        // measured level (session 63), and exactly five with caro (`INFO rule 9`) was
        // never measured, so both keep their search.
        if margin == 0
            || self.board.rule().exact_five
            || is_pv
            || ply == 0
            || kind != NodeKind::Quiet
            || depth < self.params.probcut_depth * PLY
            || beta.abs() + margin >= WIN_BOUND
            || self.excluded_at[up].is_some()
        {
            return None;
        }
        let raised = beta + margin;
        if hit.is_some_and(|n| {
            n.depth >= depth - 3 * PLY && n.score < raised && n.bound != Bound::Lower
        }) {
            return None;
        }
        let me = self.board.side_to_move();
        // (Under renju black's forbidden cells are dropped.)
        let mut cells = cells_at_least(self.board, me, Pattern4::HFlex3);
        retain_legal(self.board, me, &mut cells);
        let mut moves: SmallVec<[(i32, Pos); 16]> = cells
            .into_iter()
            .map(|m| (order_score(self.board, m), m))
            .collect();
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        let mut tried: SmallVec<[Pos; 4]> = SmallVec::new();
        if tt_move.is_some() && self.board.is_empty(tt_move) {
            tried.push(tt_move);
        }
        for &(_, m) in &moves {
            if tried.len() >= PROBCUT_MOVES {
                break;
            }
            if !tried.contains(&m) {
                tried.push(m);
            }
        }
        let child_depth = depth - PROBCUT_REDUCTION;
        // A quiet node's moves are never counter-fours (`skips_counter_four` reads this).
        self.counter_four[up] = false;
        for m in tried {
            self.tt.prefetch(self.board.key_after(m));
            self.board.play(m);
            let score = -self.pvs(-raised, -raised + 1, child_depth, ply + 1, false, !cut);
            self.board.undo().ok();
            if self.budget.stopped() {
                return None;
            }
            if score >= raised && score < WIN_BOUND {
                let node = BoardNode {
                    score,
                    depth: depth - 3 * PLY,
                    best_move: m,
                    bound: Bound::Lower,
                };
                self.tt.store(self.board.key(), node, ply);
                return Some(score);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::budget::Budget;
    use crate::search::params::SearchParams;
    use crate::tt::TranspositionTable;
    use crate::types::{Color, Rule};

    /// Black, to move, with an open two and a stone near it in the centre (well ahead, and
    /// not yet winning by force); white's three stones are in the corners, out of play.
    fn black_far_ahead(rule: Rule) -> Board {
        let mut board = Board::new(20, rule).expect("size");
        for (x, y) in [(9, 9), (10, 9), (12, 12)] {
            board.play_as(Pos::new(x, y), Color::Black);
        }
        for (x, y) in [(0, 0), (19, 0), (0, 19)] {
            board.play_as(Pos::new(x, y), Color::White);
        }
        assert_eq!(board.side_to_move(), Color::Black);
        board
    }

    fn with_search<T>(probcut: i32, f: impl FnOnce(&mut Search) -> T) -> T {
        with_search_under(Rule::FREESTYLE, probcut, f)
    }

    fn with_search_under<T>(rule: Rule, probcut: i32, f: impl FnOnce(&mut Search) -> T) -> T {
        let mut board = black_far_ahead(rule);
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let params = SearchParams {
            probcut,
            probcut_depth: 4,
            ..SearchParams::DEFAULT
        };
        let mut search = Search::new(&mut board, &mut tt, Budget::new(u64::MAX, None), params);
        f(&mut search)
    }

    #[test]
    fn an_attacking_move_that_clears_the_raised_beta_cuts_the_node_off() {
        let quiet = NodeKind::Quiet;
        let depth = 6 * PLY;
        with_search(100, |s| {
            let key = s.board.key();
            let score = s.probcut(quiet, None, Pos::NONE, 0, depth, 1, false, true);
            let score = score.expect("black's open three clears beta + 100");
            assert!((100..WIN_BOUND).contains(&score), "{score}");
            // The cut is remembered as a lower bound, from three plies less, with the move.
            let n = s.tt.probe(key, 1).expect("stored");
            assert_eq!(n.bound, Bound::Lower);
            assert_eq!(n.score, score);
            assert_eq!(n.depth, depth - 3 * PLY);
            assert!(s.board.p4(n.best_move, Color::Black) >= Pattern4::HFlex3);
            // The board is as it was.
            assert_eq!(s.board.key(), key);
            // Out of reach: no cut, and nothing claimed.
            assert_eq!(
                s.probcut(quiet, None, Pos::NONE, 5000, depth, 1, false, true),
                None
            );
        });
    }

    #[test]
    fn probcut_stays_out_of_pv_root_shallow_and_defence_nodes_and_when_off() {
        let depth = 6 * PLY;
        with_search(100, |s| {
            let q = NodeKind::Quiet;
            assert_eq!(
                s.probcut(q, None, Pos::NONE, 0, depth, 1, true, false),
                None
            );
            assert_eq!(
                s.probcut(q, None, Pos::NONE, 0, depth, 0, false, true),
                None
            );
            assert_eq!(
                s.probcut(q, None, Pos::NONE, 0, 3 * PLY, 1, false, true),
                None
            );
            let d = NodeKind::Defend;
            assert_eq!(
                s.probcut(d, None, Pos::NONE, 0, depth, 1, false, true),
                None
            );
            // A table entry from nearly as deep that stays below the raised beta.
            let below = BoardNode {
                score: 50,
                depth: 4 * PLY,
                best_move: Pos::NONE,
                bound: Bound::Upper,
            };
            assert_eq!(
                s.probcut(q, Some(below), Pos::NONE, 0, depth, 1, false, true),
                None
            );
        });
        with_search(0, |s| {
            let q = NodeKind::Quiet;
            assert_eq!(
                s.probcut(q, None, Pos::NONE, 0, depth, 1, false, true),
                None
            );
        });
    }

    #[test]
    fn probcut_runs_only_under_the_rules_that_accepted_it() {
        let depth = 6 * PLY;
        let probe =
            |s: &mut Search| s.probcut(NodeKind::Quiet, None, Pos::NONE, 0, depth, 1, false, true);
        for rule in [Rule::FREESTYLE, Rule::CARO, Rule::RENJU] {
            assert!(with_search_under(rule, 100, probe).is_some(), "{rule:?}");
        }
        for bits in [1, 3, 9, 11] {
            let rule = Rule::from_bits(bits);
            assert_eq!(with_search_under(rule, 100, probe), None, "rule {bits}");
        }
    }
}
