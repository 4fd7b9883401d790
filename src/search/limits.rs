//! What one search may spend: a soft target (stop starting new iterations) and a hard cap
//! (stop at once), both measured from the arrival of the command that asked for a move.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits of one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the move request arrived.
    pub start: Instant,
    /// Do not start a new iteration after this much time.
    pub soft: Duration,
    /// Stop searching, whatever the depth, after this much time.
    pub hard: Duration,
    /// Deepest iteration to run (`INFO max_depth`, `bench`).
    pub max_depth: Option<i32>,
    /// Node cap (`INFO max_node`).
    pub max_nodes: Option<u64>,
    /// Raised from outside (the stdin thread, on piskvork's mid-search `INFO timeout_turn 0`)
    /// to end the search at once with the best move so far.
    pub stop: Option<Arc<AtomicBool>>,
    /// Time this move leaves unspent stays on a match clock for later moves (under a
    /// per-move limit alone it is lost), so a forced move should be answered quickly.
    pub banked: bool,
}

impl Limits {
    /// Search to `depth` with no time limit (bench, tests).
    pub fn depth(depth: i32) -> Limits {
        Limits {
            start: Instant::now(),
            soft: Duration::MAX,
            hard: Duration::MAX,
            max_depth: Some(depth),
            max_nodes: None,
            stop: None,
            banked: false,
        }
    }

    /// Search for at most `time` (soft target at the same point).
    pub fn time(time: Duration) -> Limits {
        Limits {
            start: Instant::now(),
            soft: time,
            hard: time,
            max_depth: None,
            max_nodes: None,
            stop: None,
            banked: false,
        }
    }

    /// Time spent since `start`.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// `time_left` value meaning "no match clock" (piskvork, c-gomoku-cli, Rapfi).
pub const UNLIMITED_MS: i64 = 2_147_483_647;
/// `timeout_turn` when the manager never sent one (the piskvork skeleton's default).
pub const DEFAULT_TURN_MS: i64 = 30_000;

/// The manager's clock settings, as received through `INFO`, turned into per-move `Limits`.
///
/// Budget rule (PROTOCOL.md §3.3): spend at most `min(turn, share of the match) − margin`,
/// measured from the arrival of the move command, because managers suspend the process
/// between turns and only the wall time after the command counts. The margin never relies on
/// the manager's tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// `INFO timeout_turn`, ms; 0 = answer at once; `UNLIMITED_MS` or more = no turn limit.
    pub turn_ms: i64,
    /// `INFO timeout_match`, ms; 0 = no match limit.
    pub match_ms: i64,
    /// `INFO time_left`, ms, as last sent; `None` = never sent or `UNLIMITED_MS`.
    pub left_ms: Option<i64>,
    /// `INFO max_depth`; `None` = none.
    pub max_depth: Option<i32>,
    /// `INFO max_node`; `None` = none.
    pub max_nodes: Option<u64>,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            turn_ms: DEFAULT_TURN_MS,
            match_ms: 0,
            left_ms: None,
            max_depth: None,
            max_nodes: None,
        }
    }
}

/// Safety margin for a cap of `ms`: 50 ms for process wake-up, the pipe and the search's
/// stop latency, plus 2.5 % for clocks that drift with load. At 100 ms per move that leaves
/// 48 ms to think; at 1 s, 925 ms (PROTOCOL.md §5 case 67 wants replies within T − 50).
fn margin(ms: i64) -> i64 {
    50 + ms / 40
}

impl TimeControl {
    /// Record `INFO time_left`; the unlimited sentinel (or anything above it) clears it.
    pub fn set_time_left(&mut self, ms: i64) {
        self.left_ms = if ms >= UNLIMITED_MS { None } else { Some(ms) };
    }

    /// Limits for one move requested at `arrival`, with `stones` on a board of `cells` cells
    /// and `spent` already used by this brain in the current game (used only when the
    /// manager limits the match but sends no `time_left`).
    pub fn limits(&self, arrival: Instant, stones: usize, cells: usize, spent: Duration) -> Limits {
        let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
        let mut limits = Limits {
            start: arrival,
            soft: Duration::ZERO,
            hard: Duration::ZERO,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            stop: None,
            banked: false,
        };
        let left = match self.left_ms {
            Some(left) => Some(left),
            None if self.match_ms > 0 => Some(self.match_ms - spent.as_millis() as i64),
            None => None,
        };
        if self.turn_ms <= 0 || left.is_some_and(|l| l <= 0) {
            return instant(limits);
        }
        let turn = if self.turn_ms >= UNLIMITED_MS {
            DEFAULT_TURN_MS
        } else {
            self.turn_ms
        };
        let turn_cap = (turn - margin(turn)).max(0);
        let mut hard = turn_cap;
        let mut soft = turn_cap * 3 / 5;
        if let Some(left) = left {
            limits.banked = true;
            // Keep back `RESERVE_MS` for every move this side may still have to make (the
            // board may fill): once the clock is spent down to that, every move is answered
            // at once, and those answers, which cost the manager's round trip whatever the
            // search does, are paid for. Spending a tenth of what is left a move would
            // otherwise drain the clock to nothing in a long game (session 53: 6001 ms of a
            // 6000 ms match under c-gomoku-cli).
            let own_moves_left = (cells.saturating_sub(stones) as i64 + 1) / 2;
            let usable = left - own_moves_left * RESERVE_MS;
            // Spread the rest over the moves still to come; a short game is ~30 own moves.
            let to_go = (30 - stones as i64 / 3).max(10);
            let share = usable / to_go;
            hard = hard.min((share * 3).min(usable - margin(left)));
            soft = soft.min(share);
        }
        if hard <= 0 {
            return instant(limits);
        }
        limits.hard = ms(hard);
        limits.soft = ms(soft.min(hard));
        limits
    }
}

/// Milliseconds of a match clock kept back for each move the side may still have to make
/// (see `TimeControl::limits`). A move answered at once costs 0–8 ms of c-gomoku-cli's
/// clock on Linux.
const RESERVE_MS: i64 = 10;

/// Hard cap of an "answer at once" move: enough for one ply to finish, far inside any
/// manager's tolerance.
const INSTANT_MS: u64 = 20;

/// "Answer at once": one ply (a static choice plus win and block checks).
fn instant(mut limits: Limits) -> Limits {
    limits.max_depth = Some(1);
    limits.soft = Duration::ZERO;
    limits.hard = Duration::from_millis(INSTANT_MS);
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20×20 board.
    const CELLS: usize = 400;

    fn tc(turn: i64, matc: i64, left: Option<i64>) -> TimeControl {
        TimeControl {
            turn_ms: turn,
            match_ms: matc,
            left_ms: left,
            ..TimeControl::default()
        }
    }

    fn budget(t: TimeControl, stones: usize) -> (u128, u128, Option<i32>) {
        let l = t.limits(Instant::now(), stones, CELLS, Duration::ZERO);
        (l.soft.as_millis(), l.hard.as_millis(), l.max_depth)
    }

    #[test]
    fn zero_turn_time_means_one_ply_now() {
        assert_eq!(budget(tc(0, 0, None), 0), (0, 20, Some(1)));
    }

    #[test]
    fn negative_or_zero_time_left_means_one_ply_now() {
        assert_eq!(budget(tc(5000, 100_000, Some(-500)), 10), (0, 20, Some(1)));
        assert_eq!(budget(tc(5000, 100_000, Some(0)), 10), (0, 20, Some(1)));
        // So little left that the margin eats it all.
        assert_eq!(budget(tc(5000, 100_000, Some(40)), 10), (0, 20, Some(1)));
    }

    #[test]
    fn turn_limit_keeps_a_margin() {
        assert_eq!(budget(tc(1000, 0, None), 0), (555, 925, None));
        assert_eq!(budget(tc(100, 0, None), 0), (28, 48, None));
        assert_eq!(budget(tc(30_000, 0, None), 0), (17_520, 29_200, None));
    }

    #[test]
    fn unlimited_sentinel_is_not_a_budget() {
        let mut t = tc(1000, 0, None);
        t.set_time_left(UNLIMITED_MS);
        assert_eq!(t.left_ms, None);
        assert_eq!(budget(t, 0), (555, 925, None));
        // No turn limit either: fall back to the default turn, never a 2e9 ms search.
        let (_, hard, _) = budget(tc(UNLIMITED_MS, 0, None), 0);
        assert_eq!(hard, 29_200);
    }

    #[test]
    fn match_clock_is_shared_over_the_moves_to_come() {
        // 180 s left at the start: 2 s kept for the 200 moves the board has room for, then
        // 30 moves to go, so a 5.9 s target and a 17.8 s cap.
        assert_eq!(
            budget(tc(30_000, 180_000, Some(180_000)), 0),
            (5_933, 17_799, None)
        );
        // Little time left: the cap stays under what is left, margin included.
        let (_, hard, _) = budget(tc(30_000, 180_000, Some(300)), 40);
        assert!(hard <= 220, "{hard}");
    }

    #[test]
    fn only_a_match_clock_banks_unspent_time() {
        let banked = |t: TimeControl| t.limits(Instant::now(), 10, CELLS, Duration::ZERO).banked;
        assert!(!banked(tc(1000, 0, None)));
        assert!(banked(tc(30_000, 180_000, Some(120_000))));
        assert!(banked(tc(30_000, 180_000, None)));
    }

    #[test]
    fn match_without_time_left_counts_own_spending() {
        let t = tc(30_000, 20_000, None);
        let l = t.limits(Instant::now(), 0, CELLS, Duration::from_millis(19_950));
        assert_eq!(l.max_depth, Some(1));
        let l = t.limits(Instant::now(), 0, CELLS, Duration::from_millis(5_000));
        assert_eq!(l.hard.as_millis(), 1_299);
    }

    #[test]
    fn a_match_is_never_overdrawn() {
        // PROTOCOL.md §5 case 68 (30 s a turn, 20 s a match), played out to a full board:
        // every searched move spends its whole cap and 8 ms more, the most c-gomoku-cli
        // measured for a move answered at once, and every move answered at once those 8 ms
        // (its hard cap, INSTANT_MS, is a bound, not what it takes). The clock never goes
        // below zero, and it is spent: the end of the game has less than a second left.
        for cells in [225, CELLS] {
            let t0 = tc(30_000, 20_000, Some(20_000));
            let mut left: i64 = 20_000;
            for mv in 0..cells / 2 {
                let mut t = t0;
                t.set_time_left(left);
                let l = t.limits(Instant::now(), 2 * mv, cells, Duration::ZERO);
                let searched = l.max_depth.is_none();
                let used = 8 + if searched {
                    l.hard.as_millis() as i64
                } else {
                    0
                };
                left -= used;
                assert!(
                    left >= 0,
                    "{cells} cells, move {mv}: {used} spent, {left} left"
                );
            }
            assert!(left < 1_000, "{cells} cells: {left} left");
        }
    }

    #[test]
    fn depth_and_node_caps_pass_through() {
        let t = TimeControl {
            max_depth: Some(4),
            max_nodes: Some(1000),
            ..TimeControl::default()
        };
        let l = t.limits(Instant::now(), 0, CELLS, Duration::ZERO);
        assert_eq!((l.max_depth, l.max_nodes), (Some(4), Some(1000)));
    }
}
