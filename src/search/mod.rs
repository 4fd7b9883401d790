//! One move's thinking, and the result it hands back.
//!
//! - `mod.rs` (this file): the per-move driver: the forced answers, then our VCF and
//!   iterative deepening, and [`SearchResult`];
//! - `iterate`: iterative deepening with aspiration windows, and the safety net that
//!   re-checks the chosen move against an opponent VCT;
//! - `pvs`: the principal-variation search in stages;
//! - `selectivity`: the forced replies that cost no depth, the reductions by node kind and
//!   threat class, the defence-node answers skipped near the horizon, and the singular
//!   extension's test;
//! - `probcut`: ProbCut: a deep non-PV quiet node is cut off when one of its attacking
//!   moves clears a raised beta at a few plies less;
//! - `ordering`: move keys and the best-first picker;
//! - `params`: the tunable numbers ([`SearchParams`]) each search copies;
//! - `limits`: what a move may spend (soft and hard time, depth, nodes, outside stop),
//!   turned into the shared node-and-clock [`Budget`].
//!
//! The order matters for strength and safety: a five is played and a five threat blocked
//! without searching; a proven VCF is played at once; otherwise the alpha-beta runs
//! until the soft time target, and the last completed iteration's move is played.

mod iterate;
pub mod limits;
mod ordering;
mod params;
mod probcut;
mod pvs;
mod selectivity;

pub use iterate::SAFETY_VCT_DEPTH;
pub use params::{ParamsError, SearchParams, SWITCHES, TUNED_CLASSES};
pub use pvs::{Search, CUT_PLACES, MAX_PLY};

use crate::board::{five_cells, Board, MoveList};
use crate::budget::{earliest, Budget};
use crate::eval::order_score;
use crate::threat::{defences, node_kind, NodeKind, ThreatSearch};
use crate::tt::TranspositionTable;
use crate::types::{Pos, WIN};
use iterate::{deepen, safety_net, Pace};
use limits::Limits;
use std::time::{Duration, Instant};

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play.
    pub best: Pos,
    /// Its score for the side to move.
    pub score: crate::types::Score,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Deepest ply reached, extensions included.
    pub seldepth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Pos>,
    /// Quiet nodes' beta cutoffs by the cutting move's place in the order (first, second,
    /// third, later): the move ordering's hit rate.
    pub cutoffs: [u64; CUT_PLACES],
}

impl SearchResult {
    /// A result that plays `best` with nothing searched yet (the move always ready).
    pub fn ready(best: Pos) -> SearchResult {
        SearchResult {
            best,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            cutoffs: [0; CUT_PLACES],
        }
    }
}

/// Deepest iteration when no limit is given.
pub(super) const MAX_DEPTH: i32 = 64;
/// Fours the root VCF may chain.
const ROOT_VCF_FOURS: i32 = 40;
/// Nodes the root VCF may spend (a quarter of a node cap, when there is one).
const ROOT_VCF_NODES: u64 = 2_000_000;

pub(super) fn deadline(start: Instant, d: Duration) -> Option<Instant> {
    start.checked_add(d)
}

/// `num/den` of `d`, saturating: an unlimited budget (`Duration::MAX`) stays unlimited.
pub(super) fn part(d: Duration, num: u32, den: u32) -> Duration {
    d.saturating_mul(num) / den
}

/// The part of the hard cap `hard` the alpha-beta may spend (`search_share` permille); the
/// safety net has the rest.
pub(super) fn alpha_beta_part(hard: Duration, params: &SearchParams) -> Duration {
    part(hard, params.search_share.clamp(0, 1000) as u32, 1000)
}

/// The statically best cell: a move is always ready, even with no time at all.
fn fallback(board: &Board, kind: NodeKind) -> Pos {
    let moves = match kind {
        NodeKind::Win => MoveList::from_slice(&five_cells(board, board.side_to_move(), 1)),
        NodeKind::BlockFive(b) => smallvec::smallvec![b],
        NodeKind::Lost => MoveList::from_slice(&five_cells(board, board.side_to_move().opp(), 1)),
        NodeKind::Defend => defences(board),
        NodeKind::Quiet => board.candidates(),
    };
    let me = board.side_to_move();
    let playable = |p: Pos| board.is_empty(p) && !board.is_forbidden_for(p, me);
    let best = moves
        .iter()
        .copied()
        .filter(|&p| playable(p))
        .max_by_key(|&p| (order_score(board, p), std::cmp::Reverse(p)));
    best.or_else(|| best_candidate(board))
        .or_else(|| first_playable(board))
        .unwrap_or(Pos::NONE)
}

/// The statically best candidate the side to move may play, if any.
pub fn best_candidate(board: &Board) -> Option<Pos> {
    let me = board.side_to_move();
    board
        .candidates()
        .into_iter()
        .filter(|&p| board.is_empty(p) && !board.is_forbidden_for(p, me))
        .max_by_key(|&p| (order_score(board, p), std::cmp::Reverse(p)))
}

/// The first cell the side to move may play, row by row.
pub fn first_playable(board: &Board) -> Option<Pos> {
    let n = board.size();
    let me = board.side_to_move();
    (0..n * n)
        .map(|i| Pos::new(i % n, i / n))
        .find(|&p| board.is_empty(p) && !board.is_forbidden_for(p, me))
}

/// The one-ply baseline: make five, block five, else the best cell by the static ordering
/// (own threat, blocked threat, shape values), with no search at all.
pub fn greedy(board: &Board, limits: &Limits) -> SearchResult {
    let best = fallback(board, node_kind(board));
    SearchResult {
        best,
        score: 0,
        depth: 1,
        seldepth: 1,
        nodes: 1,
        elapsed: limits.start.elapsed(),
        pv: vec![best],
        cutoffs: [0; CUT_PLACES],
    }
}

/// Think about the side to move's move in `board` (restored on return), searching by
/// `params`.
pub fn think(
    board: &mut Board,
    tt: &mut TranspositionTable,
    limits: &Limits,
    params: &SearchParams,
) -> SearchResult {
    let start = limits.start;
    let hard = deadline(start, limits.hard);
    let node_limit = limits.max_nodes.unwrap_or(u64::MAX);
    let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let kind = node_kind(board);
    let mut result = SearchResult::ready(fallback(board, kind));
    let finish = |mut r: SearchResult| {
        r.elapsed = start.elapsed();
        if r.pv.first() != Some(&r.best) {
            r.pv = vec![r.best];
        }
        r
    };
    if board.move_count() == 0 || !result.best.is_some() {
        return finish(result);
    }
    match kind {
        NodeKind::Win => {
            result.score = WIN - 1;
            return finish(result);
        }
        NodeKind::BlockFive(_) | NodeKind::Lost if max_depth <= 1 => return finish(result),
        _ => {}
    }

    // Our own VCF first: cheap to try, decisive when found.
    let threat_end = earliest(deadline(start, limits.soft / 4), hard);
    // The alpha-beta gets `search_share` of the hard cap (96 % by default; 90 % from
    // session 28 to 69, 80 % before); the rest is kept for the safety net, whose check
    // mostly takes a few milliseconds.
    let mut search_end = deadline(start, alpha_beta_part(limits.hard, params));
    // A forced block cannot change the move; under a match clock it starts no iteration
    // after an eighth of the target and stops at a quarter (enough to warm the table for
    // the next move), and the rest stays banked.
    let forced = matches!(kind, NodeKind::BlockFive(_) | NodeKind::Lost);
    let mut soft = limits.soft;
    if forced && limits.banked {
        soft = limits.soft / 8;
        search_end = earliest(search_end, deadline(start, soft * 2));
    }
    let mut budget = Budget::new(node_limit, search_end).with_stop(limits.stop.clone());
    if matches!(kind, NodeKind::Quiet | NodeKind::Defend) {
        // Under a node cap the try gets the same share of it as of the clock, so the
        // alpha-beta is never starved into its depth-0 fallback. (A root VCT went before
        // the alpha-beta until an SPRT gave its time to the alpha-beta; the safety net
        // still searches the opponent's VCT after the chosen move.)
        let nodes = match limits.max_nodes {
            Some(cap) => ROOT_VCF_NODES.min(cap / 4),
            None => ROOT_VCF_NODES,
        };
        let mut sub = budget.child(nodes, threat_end);
        let line = ThreatSearch::new(board, tt, &mut sub).vcf(ROOT_VCF_FOURS);
        budget.nodes += sub.nodes;
        if let Some(line) = line {
            result.best = line[0];
            result.score = WIN - line.len() as i32;
            // The proof's length in plies is the depth this result is good for (the
            // `MESSAGE depth …` line would otherwise say 0).
            result.depth = line.len() as i32;
            result.seldepth = result.depth;
            result.pv = line;
            result.nodes = budget.nodes;
            return finish(result);
        }
    }

    let mut search = Search::new(board, tt, budget, *params);
    // No iteration starts past the soft target (3/5 of the turn cap, less under a tight
    // match clock; `pace_per_move` scales it under a per-move limit alone, to 9/10 of the
    // cap by default). One that overruns is cut at the alpha-beta's end (`search_share` of
    // the cap), and its move is still played when the root's first move finished
    // (`deepen`). Starting none after half the target left most of the turn unused (163
    // ms of 500 on average); the whole target won an SPRT at 200 ms a move (476 games,
    // +47 ± 31 Elo). The `pace_*` search numbers may stretch it while the root is
    // unsettled and shrink it on a banked clock once the best move holds (`iterate::Pace`;
    // off by default: their SPRTs were level, see the README).
    let pace = if forced {
        Pace::fixed(start, deadline(start, soft))
    } else {
        Pace::new(limits, soft, params)
    };
    deepen(&mut search, max_depth, &pace, &mut result);
    if !forced {
        // (A forced move has no other to fall back on: the check would only spend time.)
        safety_net(&mut search, limits, max_depth, &mut result);
    }
    // Every node of the move: the root VCF's, the alpha-beta's and the safety net's.
    result.nodes = search.nodes();
    result.cutoffs = search.cutoffs_by_place();
    finish(result)
}

/// Fixed-depth alpha-beta only (no root threat search), by `params`: what `bench`
/// measures.
pub fn search_fixed(
    board: &mut Board,
    tt: &mut TranspositionTable,
    depth: i32,
    params: &SearchParams,
) -> SearchResult {
    let limits = Limits::depth(depth);
    let mut result = SearchResult::ready(fallback(board, node_kind(board)));
    let mut search = Search::new(board, tt, Budget::new(u64::MAX, None), *params);
    deepen(
        &mut search,
        depth,
        &Pace::fixed(limits.start, None),
        &mut result,
    );
    result.elapsed = limits.start.elapsed();
    result
}
