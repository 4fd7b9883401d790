//! One move's thinking: the forced answers, then our VCF, our VCT, and iterative deepening.
//!
//! The order matters for strength and safety: a five is played and a five threat blocked
//! without searching; a proven VCF or VCT is played at once; otherwise the alpha-beta runs
//! until the soft time target, and the last completed iteration's move is played.

use crate::board::{Board, MoveList};
use crate::budget::Budget;
use crate::engine::SearchResult;
use crate::limits::Limits;
use crate::movegen::{defences, five_cells, node_kind, order_score, NodeKind};
use crate::search::Search;
use crate::threat::ThreatSearch;
use crate::tt::TranspositionTable;
use crate::types::{Pos, Score, INF, WIN, WIN_BOUND};
use std::time::{Duration, Instant};

/// Deepest iteration when no limit is given.
const MAX_DEPTH: i32 = 64;
/// Fours the root VCF may chain.
const ROOT_VCF_FOURS: i32 = 40;
/// Attacker moves the root VCT may chain.
const ROOT_VCT_DEPTH: i32 = 12;

fn deadline(start: Instant, d: Duration) -> Option<Instant> {
    start.checked_add(d)
}

/// `num/den` of `d`, saturating: an unlimited budget (`Duration::MAX`) stays unlimited.
fn part(d: Duration, num: u32, den: u32) -> Duration {
    d.saturating_mul(num) / den
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
    let best = moves
        .iter()
        .copied()
        .filter(|&p| board.is_empty(p))
        .max_by_key(|&p| (order_score(board, p), std::cmp::Reverse(p)));
    best.or_else(|| first_empty(board)).unwrap_or(Pos::NONE)
}

fn first_empty(board: &Board) -> Option<Pos> {
    let n = board.size();
    (0..n * n)
        .map(|i| Pos::new(i % n, i / n))
        .find(|&p| board.is_empty(p))
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
    }
}

/// Think about the side to move's move in `board` (restored on return).
pub fn think(
    board: &mut Board,
    tt: &mut TranspositionTable,
    limits: &Limits,
    checksum: bool,
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

    // Our own threat wins first: cheap to try, decisive when found.
    let threat_end = deadline(start, limits.soft / 4).min(hard).or(hard);
    // The alpha-beta gets 80 % of the hard cap; the rest is kept for the safety net.
    let search_end = deadline(start, part(limits.hard, 4, 5));
    let mut budget = Budget::new(node_limit, search_end).with_stop(limits.stop.clone());
    if matches!(kind, NodeKind::Quiet | NodeKind::Defend) {
        let vct_end = deadline(start, limits.soft / 6).min(hard).or(hard);
        let tries = [
            (Threat::Vcf, 2_000_000, threat_end),
            (Threat::Vct, 3_000_000, vct_end),
        ];
        for (threat, nodes, end) in tries {
            let mut sub = budget.child(nodes, end);
            let mut ts = ThreatSearch {
                board,
                tt,
                budget: &mut sub,
                checksum,
            };
            let line = match threat {
                Threat::Vcf => ts.vcf(ROOT_VCF_FOURS),
                Threat::Vct => ts.vct(ROOT_VCT_DEPTH),
            };
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
    }

    let mut search = Search::new(board, tt, budget, checksum);
    // A new iteration costs about three times the last one: none starts past half the soft
    // target, so the move comes near that target and the rest of the cap is a reserve.
    let last_start = deadline(start, limits.soft / 2);
    deepen(&mut search, max_depth, last_start, &mut result);
    safety_net(&mut search, limits, max_depth, &mut result);
    finish(result)
}

/// The root's own threat searches, cheapest first.
#[derive(Clone, Copy)]
enum Threat {
    Vcf,
    Vct,
}

/// Root moves re-checked against an opponent VCT at most this many times per move.
const SAFETY_TRIES: usize = 6;

/// The alpha-beta sees a few plies; an opponent's VCT can be much longer. Before playing,
/// check that the chosen move does not leave the opponent a VCT; if it does, exclude it
/// and search again with the time left (AIWine's `delVctLose`/`checkOppVct` idea, applied
/// to the move about to be played).
fn safety_net(search: &mut Search, limits: &Limits, max_depth: i32, result: &mut SearchResult) {
    if result.score <= -WIN_BOUND || result.score >= WIN_BOUND {
        return;
    }
    let start = limits.start;
    let hard = deadline(start, limits.hard);
    for _ in 0..SAFETY_TRIES {
        let m = result.best;
        if !m.is_some() || !search.board.is_empty(m) {
            return;
        }
        let remaining = limits.hard.saturating_sub(start.elapsed());
        if remaining < limits.hard / 10 {
            return;
        }
        let check_end = Instant::now().checked_add(remaining / 3).min(hard).or(hard);
        search.board.play(m);
        let mut budget = search.budget.child(2_000_000, check_end);
        let loses = ThreatSearch {
            board: search.board,
            tt: search.tt,
            budget: &mut budget,
            checksum: search.checksum,
        }
        .vct(ROOT_VCT_DEPTH)
        .is_some();
        search.board.undo().ok();
        search.budget.nodes += budget.nodes;
        if !loses {
            return;
        }
        search.excluded.push(m);
        let before = result.clone();
        // The re-search may use what is left of the hard cap, less a share for its own
        // check, and paces itself on that window: were it held to the first search's soft
        // target, already passed, it would stop after one ply and play an unsearched move.
        let research_end = deadline(start, part(limits.hard, 17, 20));
        search.budget.extend_deadline(research_end);
        let now = Instant::now();
        let last_start =
            research_end.map(|end| now + part(end.saturating_duration_since(now), 2, 5));
        *result = SearchResult {
            best: Pos::NONE,
            ..before.clone()
        };
        deepen(search, max_depth, last_start, result);
        if !result.best.is_some() || search.excluded.contains(&result.best) {
            // No other move survived the re-search in time: play the original choice.
            *result = before;
            return;
        }
    }
}

/// Iterative deepening with aspiration windows; fills `result` from each completed
/// iteration, so a stop mid-iteration leaves the last completed one's move. No iteration
/// starts after `last_start` (`None`: no limit but the budget's).
pub fn deepen(
    search: &mut Search,
    max_depth: i32,
    last_start: Option<Instant>,
    result: &mut SearchResult,
) {
    let mut prev: Score = 0;
    for depth in 1..=max_depth {
        let mut delta = 60;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < WIN_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        let score = loop {
            let s = search.root(depth, alpha, beta);
            if search.budget.stopped() {
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
        if search.budget.stopped() {
            // The root keeps in its PV only moves whose search finished; such a move beat
            // the window of an iteration deeper than the last complete one, so prefer it.
            let pv = search.pv().to_vec();
            if let Some(&m) = pv.first() {
                if search.board.is_empty(m) && score > -WIN_BOUND && depth > 1 {
                    result.best = m;
                    result.pv = pv;
                    result.score = score;
                }
            }
            break;
        }
        let pv = search.pv().to_vec();
        if let Some(&m) = pv.first() {
            if search.board.is_empty(m) {
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
    result.nodes = search.budget.nodes;
    result.seldepth = result.seldepth.max(search.seldepth);
}

/// Fixed-depth alpha-beta only (no root threat search): what `bench` measures.
pub fn search_fixed(
    board: &mut Board,
    tt: &mut TranspositionTable,
    depth: i32,
    checksum: bool,
) -> SearchResult {
    let limits = Limits::depth(depth);
    let mut result = SearchResult::ready(fallback(board, node_kind(board)));
    let mut search = Search::new(board, tt, Budget::new(u64::MAX, None), checksum);
    deepen(&mut search, depth, None, &mut result);
    result.elapsed = limits.start.elapsed();
    result
}
