//! Principal-variation search over the shared table, in stages that each read on one
//! screen: node entry (budget, mate-distance bounds, forced outcomes), depth adjustment
//! (forced replies cost no depth), the table, the two-ply mean evaluation, reverse
//! futility, the singular test, move generation, the move loop with late-move pruning,
//! reductions and the singular extension, and the store. VCF is the quiescence.

use super::ordering::{MovePicker, Replies, Tried};
use super::params::SearchParams;
use super::selectivity::{is_counter_four, plies, reduction, without_move, PLY};
use crate::board::{five_cells, Board, MoveList};
use crate::budget::Budget;
use crate::eval::pattern::Pattern4;
use crate::eval::{evaluate, evaluate_parts};
use crate::threat::{defences, node_kind, quick_win, retain_legal, NodeKind, ThreatSearch};
use crate::tt::{BoardNode, Bound, TranspositionTable};
use crate::types::{Pos, Score, INF, NUM_CELLS, WIN, WIN_BOUND};

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Places of `Search::cutoffs_by_place`: the first, second and third move, and any later one.
pub const CUT_PLACES: usize = 4;
/// Fours a horizon VCF may chain.
const QVCF_FOURS: i32 = 12;

/// Search state for one move's thinking.
pub struct Search<'a> {
    pub(super) board: &'a mut Board,
    /// The tunable numbers this search reads (ordering weights, margins).
    pub(super) params: SearchParams,
    pub(super) tt: &'a mut TranspositionTable,
    pub(super) budget: Budget,
    pub(super) killers: [[Pos; 2]; MAX_PLY + 1],
    pub(super) history: Box<[[i32; NUM_CELLS]; 2]>,
    /// What cut off after earlier moves: counter and follow-up moves, continuation history.
    pub(super) replies: Replies,
    seldepth: i32,
    pub(super) pv: Vec<Vec<Pos>>,
    /// Root moves proven to lose to an opponent VCT; skipped while any other move remains.
    excluded: Vec<Pos>,
    pub(super) root_depth: i32,
    /// The shape material (evaluation less threat state) of each ply of the current line,
    /// for the two-ply mean.
    evals: [Score; MAX_PLY + 2],
    /// Quiet nodes' beta cutoffs by the cutting move's place in the node's order (first,
    /// second, third, later): how often the ordering put the refutation first.
    cut_by_place: [u64; CUT_PLACES],
    /// Whether the move played at each ply of the current line was a counter-four
    /// (`is_counter_four`), for `skips_counter_four`.
    pub(super) counter_four: [bool; MAX_PLY + 2],
    /// The move each ply's node leaves out while it tests whether its table move is
    /// singular (`Pos::NONE`: none).
    pub(super) excluded_at: [Pos; MAX_PLY + 2],
}

/// What a node's entry found: a score to return at once, or the node's kind to search on.
enum Entry {
    Return(Score),
    Search(NodeKind),
}

impl<'a> Search<'a> {
    /// A search over `board` (restored when it returns) and `tt` within `budget`, by
    /// `params`.
    pub fn new(
        board: &'a mut Board,
        tt: &'a mut TranspositionTable,
        budget: Budget,
        params: SearchParams,
    ) -> Self {
        Search {
            board,
            params,
            tt,
            budget,
            killers: [[Pos::NONE; 2]; MAX_PLY + 1],
            history: Box::new([[0; NUM_CELLS]; 2]),
            replies: Replies::new(&params),
            seldepth: 0,
            pv: vec![Vec::new(); MAX_PLY + 2],
            excluded: Vec::new(),
            root_depth: 1,
            evals: [0; MAX_PLY + 2],
            cut_by_place: [0; CUT_PLACES],
            counter_four: [false; MAX_PLY + 2],
            excluded_at: [Pos::NONE; MAX_PLY + 2],
        }
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> &[Pos] {
        &self.pv[0]
    }

    /// Nodes visited so far (threat searches run through this search included).
    pub fn nodes(&self) -> u64 {
        self.budget.nodes
    }

    /// Quiet nodes' beta cutoffs so far, by the place of the move that cut off: the first,
    /// second, third, or a later move of the node's order.
    pub fn cutoffs_by_place(&self) -> [u64; CUT_PLACES] {
        self.cut_by_place
    }

    /// Deepest ply visited.
    pub fn seldepth(&self) -> i32 {
        self.seldepth
    }

    /// Whether the budget ran out.
    pub fn stopped(&self) -> bool {
        self.budget.stopped()
    }

    /// Whether `m` is an empty cell of the position searched.
    pub fn is_empty(&self, m: Pos) -> bool {
        self.board.is_empty(m)
    }

    /// Keep `m` out of later root searches while another move remains.
    pub fn exclude(&mut self, m: Pos) {
        self.excluded.push(m);
    }

    /// Whether `m` was excluded.
    pub fn is_excluded(&self, m: Pos) -> bool {
        self.excluded.contains(&m)
    }

    /// Move the search's deadline (see `Budget::extend_deadline`).
    pub fn extend_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.budget.extend_deadline(deadline);
    }

    /// One full-width search of the root to `depth` plies in the window (alpha, beta).
    pub fn root(&mut self, depth: i32, alpha: Score, beta: Score) -> Score {
        self.root_depth = depth;
        self.pvs(alpha, beta, depth * PLY, 0, true, false)
    }

    /// The alpha-beta at one node. `cut`: an expected cut node (a null-window child of a
    /// PV or all node, as the PVS order predicts), where late quiet moves other than the
    /// killers may be reduced more (`lmr_cut`).
    pub(super) fn pvs(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: i32,
        is_pv: bool,
        cut: bool,
    ) -> Score {
        let up = ply as usize;
        self.pv[up].clear();
        let (alpha, beta) = match self.bounds(alpha, beta, ply) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let kind = match self.entry(ply) {
            Entry::Return(score) => return score,
            Entry::Search(kind) => kind,
        };
        let defence_moves = (kind == NodeKind::Defend).then(|| defences(self.board));
        let depth = self.adjusted_depth(kind, depth, ply, defence_moves.as_ref());
        if depth <= 0 {
            return self.quiesce(beta, ply);
        }

        let excluded = self.excluded_at[up];
        let key = if excluded.is_some() {
            without_move(self.board.key(), excluded)
        } else {
            self.board.key()
        };
        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(Pos::NONE, |n| n.best_move);
        if let Some(score) = hit.and_then(|n| n.cutoff(depth, alpha, beta)) {
            self.tt.count_cutoff();
            if !is_pv && ply > 0 {
                return score;
            }
        }

        let static_eval = self.eval_at(ply);
        // Reverse futility: far above beta in a quiet node at low depth.
        let futile = !is_pv && kind == NodeKind::Quiet && !excluded.is_some();
        if let Some(score) = self.reverse_futility(futile, static_eval, hit, depth, beta) {
            return score;
        }

        if let Some(score) = self.probcut(kind, hit, tt_move, beta, depth, ply, is_pv, cut) {
            return score;
        }

        let mut extend = Pos::NONE;
        if let Some(n) = hit.filter(|n| self.singular_candidate(kind, n, depth, ply)) {
            match self.singular(&n, beta, depth, ply, cut) {
                Ok(m) => extend = m,
                Err(score) => return score,
            }
        }

        let picker = self.generate(kind, defence_moves, tt_move, ply);
        if picker.is_empty() {
            return static_eval;
        }
        let window = (alpha, beta);
        let found = self.move_loop(picker, kind, window, depth, ply, is_pv, cut, extend);
        let (best, best_move) = match found {
            Ok(found) => found,
            // Out of budget: the score is a bound of unknown quality, not worth storing.
            Err(partial) => return partial,
        };
        if best == -INF {
            // Only the excluded move was left: the other moves hold nothing.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let node = BoardNode {
            score: best,
            depth,
            best_move,
            bound,
        };
        self.tt.store(key, node, ply);
        best
    }

    /// Count the node and narrow the window to the mate distances still possible; `Err`
    /// is a score to return at once.
    #[inline]
    fn bounds(&mut self, alpha: Score, beta: Score, ply: i32) -> Result<(Score, Score), Score> {
        if self.budget.tick() {
            return Err(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if ply == 0 {
            return Ok((alpha, beta));
        }
        let alpha = alpha.max(-WIN + ply);
        let beta = beta.min(WIN - ply - 1);
        if alpha >= beta {
            Err(alpha)
        } else {
            Ok((alpha, beta))
        }
    }

    /// The node's kind, or its score when that is decided without a search: a five to
    /// make, two fives to face, a quick win at a quiet or defence node (an open four to
    /// make, or a four-three or double three the opponent cannot stop), a full board, or
    /// the deepest ply.
    fn entry(&mut self, ply: i32) -> Entry {
        let kind = node_kind(self.board);
        match kind {
            NodeKind::Win => {
                if ply == 0 {
                    let me = self.board.side_to_move();
                    if let Some(&f) = five_cells(self.board, me, 1).first() {
                        self.pv[0] = vec![f];
                    }
                }
                return Entry::Return(WIN - ply - 1);
            }
            NodeKind::Lost if ply > 0 => return Entry::Return(-(WIN - ply - 2)),
            _ => {}
        }
        if ply > 0 && matches!(kind, NodeKind::Quiet | NodeKind::Defend) {
            if let Some(plies) = quick_win(self.board, self.params.quick_wins > 0) {
                return Entry::Return(WIN - ply - plies);
            }
        }
        if self.board.is_full() {
            return Entry::Return(0);
        }
        if ply as usize >= MAX_PLY {
            return Entry::Return(evaluate(self.board));
        }
        Entry::Search(kind)
    }

    /// The moves of a node of `kind`, in a picker.
    fn generate(
        &self,
        kind: NodeKind,
        defence_moves: Option<MoveList>,
        tt_move: Pos,
        ply: i32,
    ) -> MovePicker {
        let up = ply as usize;
        if kind == NodeKind::Quiet && (ply > 0 || self.excluded.is_empty()) {
            // The common case: every candidate, scored straight off the board scan.
            return self.pick_candidates(tt_move, up);
        }
        let mut moves = match kind {
            NodeKind::BlockFive(b) => MoveList::from_slice(&[b]),
            NodeKind::Lost => {
                // At the root, still pick a move: block one of the fives.
                let opp = self.board.side_to_move().opp();
                MoveList::from_slice(&five_cells(self.board, opp, 1))
            }
            NodeKind::Defend => defence_moves.unwrap_or_default(),
            _ => self.board.candidates(),
        };
        retain_legal(self.board, self.board.side_to_move(), &mut moves);
        if ply == 0 && !self.excluded.is_empty() && moves.len() > 1 {
            let kept: MoveList = moves
                .iter()
                .copied()
                .filter(|m| !self.excluded.contains(m))
                .collect();
            if !kept.is_empty() {
                moves = kept;
            }
        }
        self.pick_from(&moves, tt_move, up)
    }

    /// Search the moves best first; returns the best score and move. Stops at a beta
    /// cutoff (rewarding a quiet cutoff move); `Err` with the best so far when the budget
    /// runs out.
    #[allow(clippy::too_many_arguments)]
    fn move_loop(
        &mut self,
        mut picker: MovePicker,
        kind: NodeKind,
        (mut alpha, beta): (Score, Score),
        depth: i32,
        ply: i32,
        is_pv: bool,
        cut: bool,
        extend: Pos,
    ) -> Result<(Score, Pos), Score> {
        let up = ply as usize;
        let me = self.board.side_to_move();
        let opp = me.opp();
        let quiet_node = kind == NodeKind::Quiet;
        let mut best = -INF;
        let mut best_move = picker.first_generated();
        // Whether a move of this quiet node has raised alpha (see `reduction`).
        let mut raised = false;
        // The quiet moves searched so far, for the history's malus.
        let mut tried = Tried::new();
        let malus_on = quiet_node && self.params.history_malus > 0;
        let excluded = self.excluded_at[up];
        while let Some((i, m)) = picker.next() {
            if m == excluded {
                continue;
            }
            let own_class = self.board.p4(m, me);
            let opp_class = self.board.p4(m, opp);
            if quiet_node && ply > 0 && i > 0 && best > -WIN_BOUND {
                // Late-move pruning: the ordering put the useful moves first. (3 + d² moves,
                // at most 24, by default; 3 + 2d² before an SPRT at 200 ms, +38 ± 27 Elo.)
                let d = plies(depth);
                let mut keep = self.params.lmp_base + self.params.lmp_quad * d * d / 8;
                if self.params.lmp_cap > 0 {
                    keep = keep.min(self.params.lmp_cap);
                }
                if i >= keep as usize {
                    break;
                }
                // A move that builds nothing and blocks nothing is not worth a shallow look.
                if depth <= 3 * PLY && own_class == Pattern4::None && opp_class == Pattern4::None {
                    continue;
                }
            }
            let counter_four = is_counter_four(kind, own_class, opp_class);
            if counter_four && !is_pv && best > -WIN_BOUND && self.skips_counter_four(m, depth, up)
            {
                continue;
            }
            self.counter_four[up] = counter_four;
            let mut r = reduction(kind, i, own_class, opp_class, depth, is_pv, raised);
            if r > 0 && quiet_node {
                r = self.adjust_reduction(m, r, depth, up, cut);
            }
            self.tt.prefetch(self.board.key_after(m));
            self.board.play(m);
            let d = if m == extend { depth + PLY } else { depth };
            let score = self.search_move(i, r, (alpha, beta), d, ply, is_pv, cut);
            self.board.undo().ok();
            if self.budget.stopped() {
                return Err(best.max(alpha));
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    raised = quiet_node;
                    let (head, tail) = self.pv.split_at_mut(up + 1);
                    head[up].clear();
                    head[up].push(m);
                    head[up].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet_node {
                            self.cut_by_place[i.min(CUT_PLACES - 1)] += 1;
                            if own_class < Pattern4::EBlock4 {
                                self.reward(m, up, plies(depth), &tried);
                            }
                        }
                        break;
                    }
                }
            }
            // Searched and did not cut off: the malus's share if a later move does (kept
            // only when the malus is on, so the default loop does no extra work).
            if malus_on && own_class < Pattern4::EBlock4 && tried.len() < tried.inline_size() {
                tried.push(m);
            }
        }
        Ok((best, best_move))
    }

    /// The score of the `i`-th move, just played: the first with the full window, the
    /// others with a null window (`r` less deep first), re-searched when they beat it.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_move(
        &mut self,
        i: usize,
        r: i32,
        (alpha, beta): (Score, Score),
        depth: i32,
        ply: i32,
        is_pv: bool,
        cut: bool,
    ) -> Score {
        if i == 0 {
            // The first move's child: a PV node of a PV node, otherwise the other kind.
            return -self.pvs(-beta, -alpha, depth - PLY, ply + 1, is_pv, !is_pv && !cut);
        }
        let mut score = -self.pvs(-alpha - 1, -alpha, depth - PLY - r, ply + 1, false, true);
        if score > alpha && r > 0 {
            score = -self.pvs(-alpha - 1, -alpha, depth - PLY, ply + 1, false, !cut);
        }
        if score > alpha && score < beta {
            score = -self.pvs(-beta, -alpha, depth - PLY, ply + 1, true, false);
        }
        score
    }

    /// Horizon: stand pat on the evaluation unless a VCF wins. The VCF is the local one
    /// (`ThreatSearch::vcf_local`, each four near the last): the full one, mostly failing,
    /// had taken about half of all nodes (SPRT at 200 ms a move: +80 ± 41 Elo, 212 games).
    fn quiesce(&mut self, beta: Score, ply: i32) -> Score {
        let me = self.board.side_to_move();
        let stand = self.eval_at(ply);
        if stand >= beta {
            return stand;
        }
        if self.board.count_at_least(me, Pattern4::EBlock4) > 0 {
            let found =
                ThreatSearch::new(self.board, self.tt, &mut self.budget).vcf_local(QVCF_FOURS);
            if let Some(line) = found {
                return WIN - ply - line.len() as i32;
            }
        }
        stand
    }

    /// The static evaluation at `ply`: the mean of this ply's shape material and the
    /// parent's (from this side's view), which takes out the swing between the side that
    /// just moved and the side to move, plus this ply's threat state as it stands (Rapfi's
    /// split, SEARCH.md §3: what the side to move can force next is not a swing to average
    /// away). The shape material is kept for the children. Every node at `ply` > 0 has a
    /// parent that evaluated before its move loop. `SearchParams::eval` weighs the parts
    /// (`EvalMix::PLAIN`, the default, gives exactly the sum above).
    #[inline]
    fn eval_at(&mut self, ply: i32) -> Score {
        let (raw, threat) = evaluate_parts(self.board);
        let up = ply as usize;
        let shapes = raw - threat;
        self.evals[up] = shapes;
        let parent = up.checked_sub(1).map(|u| self.evals[u]);
        self.params.eval.score(shapes, parent, threat)
    }
}
