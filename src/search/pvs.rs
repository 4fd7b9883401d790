//! Iterative-deepening principal-variation search over the shared table, with threat-aware
//! move generation, VCF as the quiescence search, and mate scores converted by ply in one
//! place (`to_tt` / `from_tt`).

use crate::board::{Board, MoveList};
use crate::budget::Budget;
use crate::eval::evaluate;
use crate::movegen::{defences, node_kind, order_score, NodeKind};
use crate::pattern::Pattern4;
use crate::threat::ThreatSearch;
use crate::tt::{BoardNode, Bound, TranspositionTable};
use crate::types::{Pos, Score, INF, NUM_CELLS, WIN, WIN_BOUND};
use crate::zobrist::MultiKey;
use smallvec::SmallVec;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Late-move reductions by depth and move number: ln(d)·ln(i)/1.6, rounded.
static LMR: std::sync::LazyLock<[[i32; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((d as f64).ln() * (i as f64).ln() / 1.6).round() as i32;
        }
    }
    t
});

/// Fours a horizon VCF may chain.
const QVCF_FOURS: i32 = 12;

/// Store a score relative to the node (mate distances from here), not to the root.
#[inline]
pub fn to_tt(score: Score, ply: i32) -> Score {
    if score >= WIN_BOUND {
        score + ply
    } else if score <= -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// Inverse of `to_tt`.
#[inline]
pub fn from_tt(score: Score, ply: i32) -> Score {
    if score >= WIN_BOUND {
        score - ply
    } else if score <= -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// A move's ordering score and cell in one integer: higher scores first, and among equal
/// scores the lower cell first. Comparing one `i64` is cheaper in the selection loop than
/// comparing `(score, Reverse(cell))` pairs, and orders the same.
#[inline]
fn pack_order(score: Score, m: Pos) -> i64 {
    ((score as i64) << 16) | (u16::MAX - m.0) as i64
}

/// The cell of a `pack_order` key.
#[inline]
fn unpack_order(key: i64) -> Pos {
    Pos(u16::MAX - (key & 0xFFFF) as u16)
}

/// Search state for one `think` call.
pub struct Search<'a> {
    /// The position (restored when the search returns).
    pub board: &'a mut Board,
    /// The shared table.
    pub tt: &'a mut TranspositionTable,
    /// Nodes and clock.
    pub budget: Budget,
    /// Compare check words in the table.
    pub checksum: bool,
    killers: [[Pos; 2]; MAX_PLY + 1],
    history: Box<[[i32; NUM_CELLS]; 2]>,
    /// Deepest ply visited.
    pub seldepth: i32,
    pv: Vec<Vec<Pos>>,
    /// Root moves proven to lose to an opponent VCT; skipped while any other move remains.
    pub excluded: Vec<Pos>,
    root_depth: i32,
}

impl<'a> Search<'a> {
    /// A search over `board` and `tt` within `budget`.
    pub fn new(
        board: &'a mut Board,
        tt: &'a mut TranspositionTable,
        budget: Budget,
        checksum: bool,
    ) -> Self {
        Search {
            board,
            tt,
            budget,
            checksum,
            killers: [[Pos::NONE; 2]; MAX_PLY + 1],
            history: Box::new([[0; NUM_CELLS]; 2]),
            seldepth: 0,
            pv: vec![Vec::new(); MAX_PLY + 2],
            excluded: Vec::new(),
            root_depth: 1,
        }
    }

    #[inline]
    fn key(&self) -> MultiKey {
        let mut k = self.board.key();
        if !self.checksum {
            k.check = 0;
        }
        k
    }

    /// The principal variation of the last completed root search.
    pub fn pv(&self) -> &[Pos] {
        &self.pv[0]
    }

    /// One full-width search of the root to `depth` in the window (alpha, beta).
    pub fn root(&mut self, depth: i32, alpha: Score, beta: Score) -> Score {
        self.root_depth = depth;
        self.pvs(alpha, beta, depth, 0, true)
    }

    fn pvs(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: i32,
        is_pv: bool,
    ) -> Score {
        let up = ply as usize;
        self.pv[up].clear();
        if self.budget.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            alpha = alpha.max(-WIN + ply);
            beta = beta.min(WIN - ply - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let kind = node_kind(self.board);
        match kind {
            NodeKind::Win => {
                if ply == 0 {
                    let me = self.board.side_to_move();
                    if let Some(&f) = crate::movegen::five_cells(self.board, me, 1).first() {
                        self.pv[0] = vec![f];
                    }
                }
                return WIN - ply - 1;
            }
            NodeKind::Lost if ply > 0 => return -(WIN - ply - 2),
            _ => {}
        }
        let me = self.board.side_to_move();
        let opp = me.opp();
        if ply > 0
            && self.board.rule().is_freestyle()
            && kind == NodeKind::Quiet
            && self.board.count(me, Pattern4::BFlex4) > 0
            && self.board.count_at_least(opp, Pattern4::EBlock4) == 0
        {
            return WIN - ply - 3;
        }
        if self.board.is_full() {
            return 0;
        }
        if up >= MAX_PLY {
            return evaluate(self.board);
        }
        // Answering a five threat costs no depth: the reply is forced.
        let mut depth = depth;
        if matches!(kind, NodeKind::BlockFive(_)) {
            depth += 1;
        }
        // Answering an open three is nearly forced: when there are only a few answers, it
        // costs no depth (within twice the root depth, so threat chains end), and at the
        // horizon it is never left unanswered.
        let defence_moves = if kind == NodeKind::Defend {
            Some(defences(self.board))
        } else {
            None
        };
        if let Some(d) = &defence_moves {
            if (d.len() <= 4 && ply < 2 * self.root_depth) || (depth <= 0 && ply < 48) {
                depth = depth.max(0) + 1;
            }
        }
        if depth <= 0 {
            return self.quiesce(beta, ply);
        }

        let key = self.key();
        let probe = self
            .tt
            .probe(key, depth, to_tt(alpha, ply), to_tt(beta, ply));
        let tt_move = probe.node.map(|n| n.best_move).unwrap_or(Pos::NONE);
        if let Some(score) = probe.cutoff {
            if !is_pv && ply > 0 {
                return from_tt(score, ply);
            }
        }

        let static_eval = evaluate(self.board);
        // Reverse futility: far above beta in a quiet node at low depth.
        if !is_pv
            && kind == NodeKind::Quiet
            && depth <= 3
            && beta.abs() < WIN_BOUND
            && static_eval - 120 * depth >= beta
        {
            return static_eval;
        }

        let mut scored = if kind == NodeKind::Quiet && (ply > 0 || self.excluded.is_empty()) {
            // The common case: every candidate, scored straight off the board scan.
            self.score_candidates(tt_move, up)
        } else {
            let mut moves = match kind {
                NodeKind::BlockFive(b) => MoveList::from_slice(&[b]),
                NodeKind::Lost => {
                    // At the root, still pick a move: block one of the fives.
                    MoveList::from_slice(&crate::movegen::five_cells(self.board, opp, 1))
                }
                NodeKind::Defend => defence_moves.unwrap_or_default(),
                _ => self.board.candidates(),
            };
            if ply == 0 && !self.excluded.is_empty() && moves.len() > 1 {
                let excluded = &self.excluded;
                let kept: MoveList = moves
                    .iter()
                    .copied()
                    .filter(|m| !excluded.contains(m))
                    .collect();
                if !kept.is_empty() {
                    moves = kept;
                }
            }
            self.score_moves(&moves, tt_move, up)
        };
        if scored.is_empty() {
            return static_eval;
        }

        let orig_alpha = alpha;
        let mut best = -INF;
        // The first move generated (keys are in generation order until selection starts).
        let mut best_move = unpack_order(scored[0]);
        let quiet_node = kind == NodeKind::Quiet;
        for i in 0..scored.len() {
            // Selection, not a full sort: most nodes cut off after the first few moves.
            let mut pick = i;
            let mut top = scored[i];
            for (j, &key) in scored.iter().enumerate().skip(i + 1) {
                if key > top {
                    top = key;
                    pick = j;
                }
            }
            scored.swap(i, pick);
            let m = unpack_order(scored[i]);
            let own_class = self.board.p4(m, me);
            let opp_class = self.board.p4(m, opp);
            if quiet_node && ply > 0 && i > 0 && best > -WIN_BOUND {
                // Late-move pruning: the ordering put the useful moves first.
                if i >= 3 + (depth * depth) as usize * 2 {
                    break;
                }
                // A move that builds nothing and blocks nothing is not worth a shallow look.
                if depth <= 3 && own_class == Pattern4::None && opp_class == Pattern4::None {
                    continue;
                }
            }
            self.board.play(m);
            let mut score;
            if i == 0 {
                score = -self.pvs(-beta, -alpha, depth - 1, ply + 1, is_pv);
            } else {
                let mut r = 0;
                if depth >= 2
                    && i >= 2
                    && quiet_node
                    && own_class < Pattern4::HFlex3
                    && opp_class < Pattern4::HFlex3
                {
                    r = LMR[depth.min(63) as usize][i.min(63)] - is_pv as i32;
                    r = r.clamp(0, depth - 1);
                }
                score = -self.pvs(-alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.pvs(-alpha - 1, -alpha, depth - 1, ply + 1, false);
                }
                if score > alpha && score < beta {
                    score = -self.pvs(-beta, -alpha, depth - 1, ply + 1, true);
                }
            }
            self.board.undo().ok();
            if self.budget.stopped() {
                return best.max(alpha);
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(up + 1);
                    head[up].clear();
                    head[up].push(m);
                    head[up].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet_node && own_class < Pattern4::EBlock4 {
                            let k = &mut self.killers[up];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                            let h = &mut self.history[me.idx()][m.index()];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            BoardNode {
                score: to_tt(best, ply),
                depth,
                best_move,
                bound,
            },
        );
        best
    }

    /// Horizon: stand pat on the evaluation unless a VCF wins or a five must be blocked.
    fn quiesce(&mut self, beta: Score, ply: i32) -> Score {
        let me = self.board.side_to_move();
        let stand = evaluate(self.board);
        if stand >= beta {
            return stand;
        }
        if self.board.count_at_least(me, Pattern4::EBlock4) > 0 {
            let mut ts = ThreatSearch {
                board: self.board,
                tt: self.tt,
                budget: &mut self.budget,
                checksum: self.checksum,
            };
            let found = ts.vcf(QVCF_FOURS);
            if let Some(line) = found {
                return WIN - ply - line.len() as i32;
            }
        }
        stand
    }

    /// Ordering keys of `moves` (see `pack_order`), in the same order.
    fn score_moves(&self, moves: &MoveList, tt_move: Pos, ply: usize) -> SmallVec<[i64; 64]> {
        moves
            .iter()
            .map(|&m| self.order_key(m, tt_move, ply))
            .collect()
    }

    /// `score_moves` of `Board::candidates`, without building the move list first.
    fn score_candidates(&self, tt_move: Pos, ply: usize) -> SmallVec<[i64; 64]> {
        if self.board.move_count() == 0 {
            // The empty board's candidate is the centre, which the scan does not produce.
            return self.score_moves(&self.board.candidates(), tt_move, ply);
        }
        let mut out = SmallVec::new();
        self.board
            .for_each_candidate(|m| out.push(self.order_key(m, tt_move, ply)));
        out
    }

    /// The ordering key of `m`: static score, table move, killers and history.
    #[inline]
    fn order_key(&self, m: Pos, tt_move: Pos, ply: usize) -> i64 {
        let me = self.board.side_to_move();
        let killers = &self.killers[ply];
        let mut s = order_score(self.board, m);
        if m == tt_move {
            s += 1 << 24;
        } else if m == killers[0] {
            s += 400;
        } else if m == killers[1] {
            s += 300;
        }
        s += (self.history[me.idx()][m.index()] >> 4).min(300);
        pack_order(s, m)
    }
}
