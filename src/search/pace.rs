//! When iterative deepening stops starting iterations: the move's time is spent where it
//! changes the answer. A target is stretched while the best move keeps changing or the
//! score falls, and shortened once the best move has held for several iterations; an
//! iteration that is predicted not to get halfway before the search's end is not started
//! (the next one costs about as much more as the last did over the one before it). A
//! half-finished iteration still pays: the root keeps every move whose search finished,
//! and the first of them is the previous best move searched one ply deeper.

use crate::types::{Pos, Score};
use std::time::{Duration, Instant};

/// Target multipliers, in percent: the best move changed in the iteration just finished,
/// changed in the one before, held for `SETTLED` iterations or more; a score drop of more
/// than `DROP` stretches the target by `DROP_STRETCH`; the result is capped at `MAX`.
const CHANGED_NOW: u32 = 180;
const CHANGED_BEFORE: u32 = 130;
const SETTLED_ITERATIONS: u32 = 3;
const SETTLED: u32 = 60;
const DROP: Score = 40;
const DROP_STRETCH: u32 = 140;
const MAX: u32 = 200;
/// Growth of an iteration's time over the previous one's, when predicting the next: the
/// measured ratio, clamped to this range (percent); 300 % before two iterations are known.
const GROWTH: (u32, u32, u32) = (150, 500, 300);

/// How the iterations are paced.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// Only the depth and the budget end them (bench, fixed depth).
    Unlimited,
    /// None starts after this instant.
    Until(Instant),
    /// The main search: aim at `target` after `start`, as stretched or shortened by the
    /// best move's stability, and never start one that cannot get halfway by `end`.
    Adaptive {
        start: Instant,
        target: Duration,
        end: Option<Instant>,
    },
}

/// The pacing state of one iterative deepening.
#[derive(Clone, Debug)]
pub(super) struct Pace {
    mode: Mode,
    iteration_start: Instant,
    last: Option<Duration>,
    before: Option<Duration>,
    best: Pos,
    score: Option<Score>,
    /// Whether the best move changed in the last iteration, and in the one before.
    changed: [bool; 2],
    /// Iterations the best move has held.
    held: u32,
}

impl Pace {
    fn new(mode: Mode) -> Pace {
        Pace {
            mode,
            iteration_start: Instant::now(),
            last: None,
            before: None,
            best: Pos::NONE,
            score: None,
            changed: [false; 2],
            held: 0,
        }
    }

    /// No limit but the depth and the budget.
    pub(super) fn unlimited() -> Pace {
        Pace::new(Mode::Unlimited)
    }

    /// No iteration starts after `last_start` (`None`: unlimited).
    pub(super) fn until(last_start: Option<Instant>) -> Pace {
        Pace::new(last_start.map_or(Mode::Unlimited, Mode::Until))
    }

    /// Aim at `target` after `start`; never start an iteration that cannot get halfway by
    /// `end`.
    pub(super) fn adaptive(start: Instant, target: Duration, end: Option<Instant>) -> Pace {
        Pace::new(Mode::Adaptive { start, target, end })
    }

    /// An iteration starts now.
    pub(super) fn begin(&mut self) {
        self.iteration_start = Instant::now();
    }

    /// An iteration just completed with `best` and `score`: whether to start another.
    pub(super) fn next(&mut self, best: Pos, score: Score) -> bool {
        let now = Instant::now();
        self.before = self.last;
        self.last = Some(now.saturating_duration_since(self.iteration_start));
        let changed = best != self.best && self.best.is_some();
        self.changed = [changed, self.changed[0]];
        self.held = if best == self.best { self.held + 1 } else { 0 };
        self.best = best;
        let drop = self.score.map_or(0, |s| s - score);
        self.score = Some(score);
        match self.mode {
            Mode::Unlimited => true,
            Mode::Until(t) => now <= t,
            Mode::Adaptive { start, target, end } => {
                let stretch = stretch(self.changed, self.held, drop);
                let elapsed = now.saturating_duration_since(start);
                if elapsed >= target.saturating_mul(stretch) / 100 {
                    return false;
                }
                let next = predict(self.last, self.before);
                end.is_none_or(|end| now + next / 2 <= end)
            }
        }
    }
}

/// The target's multiplier in percent.
fn stretch(changed: [bool; 2], held: u32, drop: Score) -> u32 {
    let mut pct = if changed[0] {
        CHANGED_NOW
    } else if changed[1] {
        CHANGED_BEFORE
    } else if held >= SETTLED_ITERATIONS {
        SETTLED
    } else {
        100
    };
    if drop > DROP {
        pct = pct * DROP_STRETCH / 100;
    }
    pct.min(MAX)
}

/// The predicted time of the next iteration from the last two.
fn predict(last: Option<Duration>, before: Option<Duration>) -> Duration {
    let (lo, hi, default) = GROWTH;
    let Some(last) = last else {
        return Duration::ZERO;
    };
    let growth = match before {
        Some(b) if !b.is_zero() => {
            ((last.as_nanos() * 100 / b.as_nanos()).min(u32::MAX as u128) as u32).clamp(lo, hi)
        }
        _ => default,
    };
    last.saturating_mul(growth) / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unstable_best_move_stretches_the_target_and_a_settled_one_shortens_it() {
        assert_eq!(stretch([false, false], 1, 0), 100);
        assert_eq!(stretch([true, false], 0, 0), CHANGED_NOW);
        assert_eq!(stretch([false, true], 1, 0), CHANGED_BEFORE);
        assert_eq!(stretch([false, false], 5, 0), SETTLED);
        assert_eq!(stretch([false, false], 5, 100), SETTLED * DROP_STRETCH / 100);
        assert_eq!(stretch([true, true], 0, 100), MAX);
    }

    #[test]
    fn the_next_iteration_is_predicted_from_the_last_two() {
        let ms = Duration::from_millis;
        assert_eq!(predict(None, None), Duration::ZERO);
        assert_eq!(predict(Some(ms(10)), None), ms(30));
        assert_eq!(predict(Some(ms(40)), Some(ms(10))), ms(160));
        // The ratio is clamped: 100x growth counts as 5x, 1x as 1.5x.
        assert_eq!(predict(Some(ms(100)), Some(ms(1))), ms(500));
        assert_eq!(predict(Some(ms(10)), Some(ms(10))), ms(15));
    }

    #[test]
    fn an_iteration_that_cannot_get_halfway_is_not_started() {
        let start = Instant::now();
        let mut pace = Pace::adaptive(start, Duration::from_secs(60), Some(start));
        pace.begin();
        // The end is already here: whatever the target, no new iteration.
        assert!(!pace.next(Pos::new(3, 3), 0));
        let mut unlimited = Pace::unlimited();
        unlimited.begin();
        assert!(unlimited.next(Pos::new(3, 3), 0));
    }
}
