//! Iterative deepening with aspiration windows, and the safety net: before a move is
//! played, check that it does not leave the opponent a VCT, and search again without it
//! if it does.

use super::limits::Limits;
use super::{deadline, part, Search, SearchResult};
use crate::budget::earliest;
use crate::threat::ThreatSearch;
use crate::types::{Pos, Score, INF, WIN_BOUND};
use std::time::Instant;

/// Root moves re-checked against an opponent VCT at most this many times per move.
const SAFETY_TRIES: usize = 6;
/// Attacker moves of the opponent's VCT the safety net looks for (`benches/vct.rs` measures
/// the VCT at this depth).
pub const SAFETY_VCT_DEPTH: i32 = 12;

/// The alpha-beta sees a few plies; an opponent's VCT can be much longer. Before playing,
/// check that the chosen move does not leave the opponent a VCT; if it does, exclude it
/// and search again with the time left (AIWine's `delVctLose`/`checkOppVct` idea, applied
/// to the move about to be played).
pub(super) fn safety_net(
    search: &mut Search,
    limits: &Limits,
    max_depth: i32,
    result: &mut SearchResult,
) {
    if result.score <= -WIN_BOUND || result.score >= WIN_BOUND {
        return;
    }
    let start = limits.start;
    let hard = deadline(start, limits.hard);
    for _ in 0..SAFETY_TRIES {
        let m = result.best;
        if !m.is_some() || !search.is_empty(m) {
            return;
        }
        // The check needs a twentieth of the cap at least (the alpha-beta leaves a tenth).
        let remaining = limits.hard.saturating_sub(start.elapsed());
        if remaining < limits.hard / 20 {
            return;
        }
        let check_end = earliest(Instant::now().checked_add(remaining / 3), hard);
        if !search.loses_to_vct(m, SAFETY_VCT_DEPTH, 2_000_000, check_end) {
            return;
        }
        search.exclude(m);
        let before = result.clone();
        // The re-search may use what is left of the hard cap, less a share for its own
        // check, and paces itself on that window: were it held to the first search's soft
        // target, already passed, it would stop after one ply and play an unsearched move.
        let research_end = deadline(start, part(limits.hard, 19, 20));
        search.extend_deadline(research_end);
        let now = Instant::now();
        let last_start =
            research_end.map(|end| now + part(end.saturating_duration_since(now), 2, 5));
        *result = SearchResult {
            best: Pos::NONE,
            ..before.clone()
        };
        deepen(search, max_depth, last_start, result);
        if !result.best.is_some() || search.is_excluded(result.best) {
            // No other move survived the re-search in time: play the original choice.
            *result = before;
            return;
        }
    }
}

/// Iterative deepening with aspiration windows; fills `result` from each completed
/// iteration, so a stop mid-iteration leaves the last completed one's move. No iteration
/// starts after `last_start` (`None`: no limit but the budget's).
pub(super) fn deepen(
    search: &mut Search,
    max_depth: i32,
    last_start: Option<Instant>,
    result: &mut SearchResult,
) {
    let mut prev: Score = 0;
    for depth in 1..=max_depth {
        let mut delta = search.params.aspiration;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < WIN_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        let score = loop {
            let s = search.root(depth, alpha, beta);
            if search.stopped() {
                break s;
            }
            if s <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                delta *= 3;
            } else if s >= beta && beta < INF {
                beta = (beta + delta).min(INF);
                delta *= 3;
            } else {
                break s;
            }
        };
        if search.stopped() {
            // The root keeps in its PV only moves whose search finished; such a move beat
            // the window of an iteration deeper than the last complete one, so prefer it.
            let pv = search.pv().to_vec();
            if let Some(&m) = pv.first() {
                if search.is_empty(m) && score > -WIN_BOUND && depth > 1 {
                    result.best = m;
                    result.pv = pv;
                    result.score = score;
                }
            }
            break;
        }
        let pv = search.pv().to_vec();
        if let Some(&m) = pv.first() {
            if search.is_empty(m) {
                result.best = m;
                result.pv = pv;
            }
        }
        result.score = score;
        result.depth = depth;
        prev = score;
        // A proven result will not change with depth.
        if score.abs() >= WIN_BOUND && depth >= 4 {
            break;
        }
        if last_start.is_some_and(|t| Instant::now() > t) {
            break;
        }
    }
    result.nodes = search.nodes();
    result.cutoffs = search.cutoffs_by_place();
    result.seldepth = result.seldepth.max(search.seldepth());
}

impl Search<'_> {
    /// Whether, after the side to move plays `m`, the opponent has a VCT of at most
    /// `depth` attacker moves, found within `nodes` more nodes before `end`.
    pub fn loses_to_vct(&mut self, m: Pos, depth: i32, nodes: u64, end: Option<Instant>) -> bool {
        self.board.play(m);
        let mut budget = self.budget.child(nodes, end);
        let loses = ThreatSearch::new(self.board, self.tt, &mut budget)
            .vct(depth)
            .is_some();
        self.board.undo().ok();
        self.budget.nodes += budget.nodes;
        loses
    }
}
