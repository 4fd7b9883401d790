//! Iterative deepening with aspiration windows, and the safety net: before a move is
//! played, check that it does not leave the opponent a VCT, and search again without it
//! if it does.

use super::limits::Limits;
use super::{alpha_beta_part, deadline, part, Search, SearchParams, SearchResult};
use crate::budget::earliest;
use crate::threat::ThreatSearch;
use crate::types::{Pos, Score, INF, WIN_BOUND};
use std::time::{Duration, Instant};

/// Iterations from which the root's changes and falls count (shallower ones are noise).
const PACE_FROM_DEPTH: i32 = 5;
/// Iterations the best move must hold before a banked clock's target shrinks.
const STEADY_ITERATIONS: u32 = 3;

/// When iterative deepening stops starting iterations: a soft target, stretched while the
/// root is unsettled (its best move changed, its score fell) and, where time left unspent
/// stays on a match clock, shrunk once the best move has held (SEARCH.md §7: Rapfi's and
/// Stockfish's stability and falling-eval factors, in a simpler form). Never past `latest`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pace {
    start: Instant,
    soft: Duration,
    latest: Duration,
    banked: bool,
    /// Percent of the soft target the pace starts from (`pace_per_move` under a per-move
    /// limit alone, 100 on a match clock).
    base: i32,
    unsettled: i32,
    falling: i32,
    steady: i32,
}

impl Pace {
    /// A fixed deadline (`None`: none), whatever the root does.
    pub(super) fn fixed(start: Instant, last_start: Option<Instant>) -> Pace {
        let soft = last_start.map_or(Duration::MAX, |t| t.saturating_duration_since(start));
        Pace {
            start,
            soft,
            latest: soft,
            banked: false,
            base: 100,
            unsettled: 0,
            falling: 0,
            steady: 100,
        }
    }

    /// The soft target `soft` of `limits`, paced by `params`' numbers (under a per-move
    /// limit alone first scaled by `pace_per_move`); it may stretch up to `pace_latest`
    /// percent of the hard cap.
    pub(super) fn new(limits: &Limits, soft: Duration, params: &SearchParams) -> Pace {
        let latest = part(limits.hard, params.pace_latest as u32, 100).max(soft);
        Pace {
            start: limits.start,
            soft,
            latest,
            banked: limits.banked,
            base: if limits.banked {
                100
            } else {
                params.pace_per_move
            },
            unsettled: params.pace_unsettled,
            falling: params.pace_falling,
            steady: params.pace_steady,
        }
    }

    /// The target, in percent of the soft one, after an iteration: `changes` is the decayed
    /// count of best-move changes in hundredths, `fell` how far the score fell since the
    /// iteration before, `held` for how many iterations the best move has held.
    fn percent(&self, changes: i32, fell: Score, held: u32) -> i64 {
        let mut pct = self.base as i64 + (self.unsettled as i64 * changes as i64) / 100;
        pct += self.falling as i64 * fell.clamp(0, 300) as i64 / 100;
        if self.banked && held >= STEADY_ITERATIONS {
            pct = pct * self.steady as i64 / 100;
        }
        pct
    }

    /// Whether no further iteration starts now, `elapsed` since the move was asked.
    fn stop(&self, elapsed: Duration, changes: i32, fell: Score, held: u32) -> bool {
        if self.soft == Duration::MAX {
            return false;
        }
        let pct = self.percent(changes, fell, held).max(1) as u128;
        let target = self.soft.as_micros().saturating_mul(pct) / 100;
        let target = target.min(self.latest.as_micros());
        elapsed.as_micros() > target
    }
}

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
    let half_reserve = limits
        .hard
        .saturating_sub(alpha_beta_part(limits.hard, &search.params))
        / 2;
    for _ in 0..SAFETY_TRIES {
        let m = result.best;
        if !m.is_some() || !search.is_empty(m) {
            return;
        }
        // The check needs half the net's share of the cap at least (the alpha-beta leaves
        // it the rest of `search_share`: 4 % by default).
        let remaining = limits.hard.saturating_sub(start.elapsed());
        if remaining < half_reserve {
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
        let research_end = deadline(start, limits.hard.saturating_sub(half_reserve));
        search.extend_deadline(research_end);
        let now = Instant::now();
        let last_start =
            research_end.map(|end| now + part(end.saturating_duration_since(now), 2, 5));
        *result = SearchResult {
            best: Pos::NONE,
            ..before.clone()
        };
        deepen(search, max_depth, &Pace::fixed(start, last_start), result);
        if !result.best.is_some() || search.is_excluded(result.best) {
            // No other move survived the re-search in time: play the original choice.
            *result = before;
            return;
        }
    }
}

/// Iterative deepening with aspiration windows; fills `result` from each completed
/// iteration, so a stop mid-iteration leaves the last completed one's move. `pace` says
/// when no further iteration starts.
pub(super) fn deepen(search: &mut Search, max_depth: i32, pace: &Pace, result: &mut SearchResult) {
    let mut prev: Score = 0;
    // The root's state for the pace: best-move changes (hundredths, halved each
    // iteration), the last iteration's fall and how long the best move has held.
    let (mut changes, mut held, mut last_best) = (0, 0, Pos::NONE);
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
        let fell = if depth > PACE_FROM_DEPTH {
            prev - score
        } else {
            0
        };
        result.score = score;
        result.depth = depth;
        prev = score;
        // A proven result will not change with depth.
        if score.abs() >= WIN_BOUND && depth >= 4 {
            break;
        }
        if depth >= PACE_FROM_DEPTH {
            changes /= 2;
            if result.best != last_best && depth > PACE_FROM_DEPTH {
                changes += 100;
                held = 0;
            } else {
                held += 1;
            }
        }
        last_best = result.best;
        if pace.stop(pace.start.elapsed(), changes, fell, held) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(soft_ms: u64, hard_ms: u64, banked: bool) -> Limits {
        Limits {
            soft: Duration::from_millis(soft_ms),
            hard: Duration::from_millis(hard_ms),
            banked,
            ..Limits::time(Duration::from_millis(hard_ms))
        }
    }

    fn paced(unsettled: i32, falling: i32, steady: i32) -> SearchParams {
        SearchParams {
            pace_unsettled: unsettled,
            pace_falling: falling,
            pace_steady: steady,
            // The tests below read the target against these two.
            pace_latest: 75,
            pace_per_move: 100,
            ..SearchParams::DEFAULT
        }
    }

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn the_default_numbers_keep_the_plain_soft_target() {
        let l = limits(300, 450, true);
        let pace = Pace::new(&l, l.soft, &SearchParams::DEFAULT);
        for (changes, fell, held) in [(0, 0, 0), (300, 250, 0), (0, 0, 9)] {
            assert!(!pace.stop(ms(299), changes, fell, held));
            assert!(pace.stop(ms(301), changes, fell, held));
        }
    }

    #[test]
    fn by_default_a_per_move_limit_starts_iterations_until_nine_tenths_of_the_cap() {
        // The soft target is 3/5 of the cap (`search::limits`); 150 % of it is 9/10.
        let l = limits(240, 400, false);
        let pace = Pace::new(&l, l.soft, &SearchParams::DEFAULT);
        assert!(!pace.stop(ms(359), 0, 0, 0));
        assert!(pace.stop(ms(361), 0, 0, 0));
        // However unsettled the root, never past the latest start.
        assert!(pace.stop(ms(361), 300, 300, 0));
    }

    #[test]
    fn an_unsettled_root_stretches_the_target_up_to_the_latest_start() {
        let l = limits(200, 400, false);
        let pace = Pace::new(&l, l.soft, &paced(100, 50, 100));
        // One change: 200 % of the target, but never past 75 % of the hard cap.
        assert!(!pace.stop(ms(250), 100, 0, 0));
        assert!(!pace.stop(ms(299), 100, 0, 0));
        assert!(pace.stop(ms(301), 100, 0, 0));
        // A fall of 100 points: 150 %.
        assert!(!pace.stop(ms(290), 0, 100, 0));
        assert!(pace.stop(ms(301), 0, 100, 0));
        // A rise is no fall; a settled root keeps the target.
        assert!(pace.stop(ms(201), 0, -200, 5));
    }

    #[test]
    fn a_steady_root_shrinks_the_target_only_on_a_banked_clock() {
        let params = paced(0, 0, 60);
        let banked = limits(200, 600, true);
        let pace = Pace::new(&banked, banked.soft, &params);
        assert!(!pace.stop(ms(150), 0, 0, STEADY_ITERATIONS - 1));
        assert!(pace.stop(ms(121), 0, 0, STEADY_ITERATIONS));
        let per_move = limits(200, 600, false);
        let pace = Pace::new(&per_move, per_move.soft, &params);
        assert!(!pace.stop(ms(150), 0, 0, STEADY_ITERATIONS));
    }

    #[test]
    fn the_per_move_share_scales_the_target_only_without_a_match_clock() {
        let params = SearchParams {
            pace_per_move: 150,
            pace_latest: 90,
            ..SearchParams::DEFAULT
        };
        // Per move: 150 % of 200 ms, within 90 % of the 400 ms cap.
        let per_move = limits(200, 400, false);
        let pace = Pace::new(&per_move, per_move.soft, &params);
        assert!(!pace.stop(ms(299), 0, 0, 0));
        assert!(pace.stop(ms(301), 0, 0, 0));
        // Never past the latest start, however unsettled.
        let wide = Pace::new(&limits(300, 400, false), ms(300), &params);
        assert!(!wide.stop(ms(359), 0, 0, 0));
        assert!(wide.stop(ms(361), 300, 0, 0));
        // A match clock keeps its own target.
        let banked = limits(200, 400, true);
        let pace = Pace::new(&banked, banked.soft, &params);
        assert!(pace.stop(ms(201), 0, 0, 0));
    }

    #[test]
    fn a_fixed_pace_stops_at_its_deadline_or_never() {
        let start = Instant::now();
        let pace = Pace::fixed(start, Some(start + ms(100)));
        assert!(!pace.stop(ms(99), 500, 300, 0));
        assert!(pace.stop(ms(101), 0, 0, 9));
        assert!(!Pace::fixed(start, None).stop(Duration::from_secs(1 << 30), 0, 0, 9));
    }
}
