//! Tuning the search's numbers (`SearchParams`) by SPSA on game results: each step
//! perturbs every tuned number at once by ±its step size, plays one opening with each
//! colour between the two perturbed searches (`selfplay::play_match_game`, at a fixed node
//! count), and moves the numbers toward the side that scored more. The answer is the mean
//! of the second half of the steps' values, which averages the noise of single games out.
//!
//! Every step follows from the seed and its index (its perturbation and its opening), and
//! steps run in batches of four per thread from the same values, so a run is the same on
//! any machine for the same thread count.

use super::selfplay::{play_match_game, SelfPlay};
use crate::search::SearchParams;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Steps per thread in a batch (all played from the same numbers).
const BATCH_PER_THREAD: usize = 4;

/// What to tune, and how.
#[derive(Clone, Debug)]
pub struct Spsa {
    /// Game pairs (steps) to play.
    pub pairs: usize,
    /// The games: node count, seed, sizes, rule, openings, threads (`games` is unused).
    pub play: SelfPlay,
    /// Step of a number per point of result, as a share of its perturbation size.
    pub rate: f64,
    /// Where the numbers start.
    pub start: SearchParams,
    /// The numbers tuned (names of `SearchParams::names`); the rest stay at `start`.
    pub names: Vec<String>,
}

/// One tuned number as SPSA sees it.
#[derive(Clone, Debug)]
pub struct Knob {
    /// Its name in `SearchParams`.
    pub name: String,
    /// Its current value (real-valued; the searches get it rounded).
    pub value: f64,
    /// The perturbation size: each step plays value ± this.
    pub c: f64,
    /// Its range.
    pub range: (i32, i32),
}

/// The perturbation size of a number that starts at `v`: a fifth of it, at least 1 (a
/// smaller step would often round to no change at all).
fn perturbation(name: &str, v: i32) -> f64 {
    match name {
        "lmp_base" => 1.0,
        _ => (v.abs() as f64 * 0.2).max(1.0),
    }
}

impl Knob {
    /// The knob of `name`, starting at its value in `start`; `None` for an unknown name.
    pub fn new(name: &str, start: &SearchParams) -> Option<Knob> {
        let v = start.get(name)?;
        Some(Knob {
            name: name.to_string(),
            value: v as f64,
            c: perturbation(name, v),
            range: SearchParams::range(name),
        })
    }

    /// `value + sign · c`, rounded into the range.
    fn at(&self, sign: f64) -> i32 {
        self.rounded(self.value + sign * self.c)
    }

    /// `x` rounded into the knob's range: what a search gets of a real-valued number.
    fn rounded(&self, x: f64) -> i32 {
        let (lo, hi) = self.range;
        (x.round() as i64).clamp(lo as i64, hi as i64) as i32
    }
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct SpsaOutcome {
    /// `start` with the tuned numbers at the mean of the second half of the steps.
    pub params: SearchParams,
    /// Points scored by the "plus" side over all games.
    pub plus_points: f64,
    /// Games played (two per pair).
    pub games: usize,
}

/// `base` with the named numbers set.
fn with_values<'a>(
    base: &SearchParams,
    values: impl IntoIterator<Item = (&'a str, i32)>,
) -> SearchParams {
    let mut p = *base;
    for (name, v) in values {
        if let Some(slot) = p.slot(name) {
            *slot = v;
        }
    }
    p
}

/// The signs of step `index`'s perturbation, one per knob.
fn signs(seed: u64, index: usize, n: usize) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(
        seed ^ 0x5350_5341 ^ (index as u64).wrapping_mul(0x2545_F491_4F6C_DD1D),
    );
    (0..n)
        .map(|_| if rng.random_bool(0.5) { 1.0 } else { -1.0 })
        .collect()
}

/// The pair of games on opening `index` of `play`: `a` as black, then as white. Each
/// result is `a`'s: 1 a win, 0 a draw, -1 a loss.
fn play_pair(play: &SelfPlay, index: usize, a: SearchParams, b: SearchParams) -> [i8; 2] {
    let g1 = play_match_game(play, index, a, b);
    let g2 = play_match_game(play, index, b, a);
    [g1.result, -g2.result]
}

/// Play step `index`: the plus side with each colour on the step's opening. Returns the
/// plus side's points over the two games (0 to 2).
fn step(cfg: &Spsa, knobs: &[Knob], index: usize) -> f64 {
    let delta = signs(cfg.play.seed, index, knobs.len());
    let at = |sign: f64| {
        let values = knobs
            .iter()
            .zip(&delta)
            .map(|(k, d)| (k.name.as_str(), k.at(sign * d)));
        with_values(&cfg.start, values)
    };
    let pair = play_pair(&cfg.play, index, at(1.0), at(-1.0));
    pair.iter().map(|&r| (r as f64 + 1.0) / 2.0).sum()
}

/// `f` of each of `indices` on `threads` threads, handed out one at a time (so a thread
/// that drew short games takes the next instead of waiting), in the order of `indices`.
pub(crate) fn in_parallel<T: Send>(
    indices: &[usize],
    threads: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<(usize, T)> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.clamp(1, 64))
            .map(|_| {
                let (f, next) = (&f, &next);
                s.spawn(move || {
                    let mut mine = Vec::new();
                    while let Some(&i) = indices.get(next.fetch_add(1, Ordering::Relaxed)) {
                        mine.push((i, f(i)));
                    }
                    mine
                })
            })
            .collect();
        // A worker that panicked loses its results; the rest are kept.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    results.sort_by_key(|&(i, _)| i);
    results
}

/// What a match between two searches' numbers came to, for the first side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchOutcome {
    /// Wins, losses and draws over all games.
    pub wld: [usize; 3],
    /// Pairs by the first side's points in them, in half points: 0 (lost both) to 4 (won
    /// both). A pair each colour won (2) says only that the opening favoured a colour.
    pub penta: [usize; 5],
}

impl MatchOutcome {
    /// The first side's points (win 1, draw ½).
    pub fn points(&self) -> f64 {
        self.wld[0] as f64 + self.wld[2] as f64 / 2.0
    }
}

/// A match between two searches' numbers: `a` against `b` on `pairs` openings of `play`,
/// each with both colours.
pub fn match_points(
    play: &SelfPlay,
    pairs: usize,
    a: SearchParams,
    b: SearchParams,
) -> MatchOutcome {
    let indices: Vec<usize> = (0..pairs).collect();
    let results = in_parallel(&indices, play.threads, |i| play_pair(play, i, a, b));
    let mut out = MatchOutcome::default();
    for (_, pair) in &results {
        for r in pair {
            out.wld[match r {
                1 => 0,
                -1 => 1,
                _ => 2,
            }] += 1;
        }
        // Half points of `a` in the pair: a result of 1, 0 or -1 is 2, 1 or 0 of them.
        let half: i8 = pair.iter().map(|r| r + 1).sum();
        out.penta[half as usize] += 1;
    }
    out
}

/// Run the tuning; `progress` hears after each batch of steps (steps done, the knobs).
pub fn run(cfg: &Spsa, progress: &(dyn Fn(usize, &[Knob]) + Sync)) -> Result<SpsaOutcome, String> {
    let mut knobs = Vec::new();
    for name in &cfg.names {
        knobs.push(Knob::new(name, &cfg.start).ok_or_else(|| format!("unknown number `{name}`"))?);
    }
    let threads = cfg.play.threads.clamp(1, 64);
    let mut sums = vec![0.0; knobs.len()];
    let mut averaged = 0usize;
    let mut plus_points = 0.0;
    let mut done = 0;
    while done < cfg.pairs {
        let batch: Vec<usize> =
            (done..(done + BATCH_PER_THREAD * threads).min(cfg.pairs)).collect();
        let results = in_parallel(&batch, threads, |i| step(cfg, &knobs, i));
        for (i, points) in results {
            plus_points += points;
            // The plus side's score over the pair, centred: -2 (lost both) to +2.
            let r = 2.0 * points - 2.0;
            let delta = signs(cfg.play.seed, i, knobs.len());
            for (k, d) in knobs.iter_mut().zip(delta) {
                let (lo, hi) = k.range;
                k.value = (k.value + cfg.rate * k.c * r * d).clamp(lo as f64, hi as f64);
            }
        }
        done += batch.len();
        if 2 * done > cfg.pairs {
            for (s, k) in sums.iter_mut().zip(&knobs) {
                *s += k.value;
            }
            averaged += 1;
        }
        progress(done, &knobs);
    }
    let n = averaged.max(1) as f64;
    let params = with_values(
        &cfg.start,
        knobs
            .iter()
            .zip(&sums)
            .map(|(k, s)| (k.name.as_str(), k.rounded(s / n))),
    );
    Ok(SpsaOutcome {
        params,
        plus_points,
        games: 2 * cfg.pairs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perturbations_are_symmetric_and_stay_in_range() {
        let p = SearchParams::DEFAULT;
        let k = Knob::new("lmp_base", &p).expect("a knob");
        assert_eq!((k.at(1.0), k.at(-1.0)), (4, 2));
        let k = Knob::new("killer.0", &p).expect("a knob");
        assert_eq!((k.at(1.0), k.at(-1.0)), (480, 320));
        let mut k = Knob::new("attack.1", &p).expect("a knob");
        k.value = 0.2;
        assert_eq!(k.at(-1.0), 0, "clamped at the range's floor");
        assert!(Knob::new("no.such", &p).is_none());
    }

    #[test]
    fn signs_follow_from_seed_and_index() {
        assert_eq!(signs(7, 3, 20), signs(7, 3, 20));
        assert_ne!(signs(7, 3, 20), signs(7, 4, 20));
        assert!(signs(1, 0, 50).iter().all(|s| s.abs() == 1.0));
    }
}
