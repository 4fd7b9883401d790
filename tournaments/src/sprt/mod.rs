//! Sequential probability ratio test of engine A (the first `[[engine]]`) against engine B
//! (the second), for accepting or rejecting a change by the numbers.
//!
//! Games come in pairs: one opening, A with black then B with black. A pair scores 0, ½, 1,
//! 1½ or 2 points for A, and the test counts pairs in those five buckets (the pentanomial
//! statistics), which keeps the colour advantage of an opening out of the variance.
//!
//! The test is the generalised SPRT with a normal approximation of the per-pair score. With
//! `N` pairs, `μ` the mean of A's pair score divided by 2 and `v` its variance (over pairs),
//! the log-likelihood ratio of H1 (the mean is `μ1`) against H0 (the mean is `μ0`) is
//!
//! ```text
//! LLR = N · (μ1 − μ0) · (2μ − μ0 − μ1) / (2v)
//! ```
//!
//! and the test stops when `LLR ≥ ln((1−β)/α)` (H1: A is at least `elo1` better), when
//! `LLR ≤ ln(β/(1−α))` (H0: at most `elo0`), or at `max_games`. The hypotheses' means come from
//! the Elo bounds in one of two models:
//!
//! - `logistic`: `μk = 1 / (1 + 10^(−eloK/400))`, the usual Elo curve.
//! - `normalized` (the default, as in current engine-testing frameworks): Elo scaled by the
//!   per-game standard deviation `s = √(2v)`, so that a bound means the same
//!   number of games to resolve whatever the draw rate: `μk = ½ + eloK · s · ln10 / 800`.
//!
//! The ratio is computed with two pseudo-pairs added, distributed as an even match without
//! draws would give them (½ lost 0-2, 1 split 1-1, ½ won 2-0). Without them the estimated
//! variance of a short run is far too small: three lost pairs in a row (variance about 0)
//! gave LLR −4.9 and accepted H0 after six games, where the exact binomial ratio of six
//! losses for H1 = +20 against H0 = 0 is (0.471/0.5)^6, LLR −0.36; with the prior it is
//! −0.38. After a few dozen pairs the prior no longer matters. The Elo estimates are from
//! the observed pairs alone (an empty bucket counts as 0.001 pairs there, so a run of
//! identical pairs still has a width).

#[cfg(test)]
mod tests;
mod tracker;

pub use tracker::Tracker;

use crate::elo;
use crate::schedule::Pairing;
use serde::Deserialize;

/// Pseudo-count of an empty pentanomial bucket in the estimates.
const EMPTY_BUCKET: f64 = 1e-3;

/// Pseudo-pairs added to the observed ones for the likelihood ratio: two pairs of an even
/// match without draws (see the module notes).
const PRIOR: [f64; 5] = [0.5, 0.0, 1.0, 0.0, 0.5];

/// Elo per unit of normalized score: 800 / ln 10.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// How the Elo bounds become expected scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Elo scaled by the per-game standard deviation.
    Normalized,
    /// The logistic Elo curve.
    Logistic,
}

/// `[sprt]` as written in the config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSprt {
    elo0: f64,
    elo1: f64,
    #[serde(default = "default_error")]
    alpha: f64,
    #[serde(default = "default_error")]
    beta: f64,
    #[serde(default = "default_model")]
    model: Model,
    #[serde(default = "default_max_games")]
    max_games: usize,
    #[serde(default = "default_correct_repeats")]
    correct_repeats: bool,
}

fn default_correct_repeats() -> bool {
    true
}
fn default_error() -> f64 {
    0.05
}
fn default_model() -> Model {
    Model::Normalized
}
fn default_max_games() -> usize {
    20_000
}

/// A checked `[sprt]` section.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1 (above `elo0`).
    pub elo1: f64,
    /// False positive rate: accepting H1 when H0 holds.
    pub alpha: f64,
    /// False negative rate: accepting H0 when H1 holds.
    pub beta: f64,
    /// Elo model of the bounds.
    pub model: Model,
    /// Games at which the test stops undecided (even: whole pairs).
    pub max_games: usize,
    /// When pairs repeat openings, decide on the LLR divided by the measured design effect
    /// (`Tracker::decision_llr`) rather than on the LLR itself.
    pub correct_repeats: bool,
}

impl Spec {
    /// Checks the section; `engines` is the number of `[[engine]]` entries.
    pub fn from_raw(raw: &RawSprt, engines: usize) -> Result<Spec, String> {
        if engines != 2 {
            return Err(format!(
                "[sprt] tests exactly two engines (A = the first, B = the second), not {engines}"
            ));
        }
        if !(raw.elo0.is_finite() && raw.elo1.is_finite() && raw.elo0 < raw.elo1) {
            return Err(format!(
                "[sprt] needs elo0 < elo1 (got {} and {})",
                raw.elo0, raw.elo1
            ));
        }
        for (name, v) in [("alpha", raw.alpha), ("beta", raw.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("[sprt] {name} must be in (0, 0.5), got {v}"));
            }
        }
        if raw.max_games < 2 {
            return Err("[sprt] max_games must be at least 2 (one pair)".into());
        }
        Ok(Spec {
            elo0: raw.elo0,
            elo1: raw.elo1,
            alpha: raw.alpha,
            beta: raw.beta,
            model: raw.model,
            max_games: raw.max_games + raw.max_games % 2,
            correct_repeats: raw.correct_repeats,
        })
    }

    /// `(lower, upper)`: H0 is accepted at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

/// Pairs by A's points: `[0, ½, 1, 1½, 2]`.
pub type Penta = [u32; 5];

/// A's mean score per game and the variance of its pair score / 2, over pairs with the
/// empty-bucket pseudo-count; `None` without pairs.
pub fn moments(penta: &Penta) -> Option<(f64, f64, f64)> {
    if penta.iter().all(|&n| n == 0) {
        return None;
    }
    Some(weighted_moments(
        penta.map(|n| f64::from(n).max(EMPTY_BUCKET)),
    ))
}

/// Pair count, mean score per game and variance of the pair score / 2 of (possibly
/// fractional) bucket counts, not all zero.
fn weighted_moments(counts: [f64; 5]) -> (f64, f64, f64) {
    let n: f64 = counts.iter().sum();
    let score = |i: usize| i as f64 / 4.0;
    let mean = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * score(i))
        .sum::<f64>()
        / n;
    let var = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * (score(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    (n, mean, var)
}

/// The log-likelihood ratio of H1 against H0 for these pairs (0 without pairs).
pub fn llr(penta: &Penta, spec: &Spec) -> f64 {
    if penta.iter().all(|&n| n == 0) {
        return 0.0;
    }
    let (n, mean, var) = weighted_moments(std::array::from_fn(|i| f64::from(penta[i]) + PRIOR[i]));
    let (mu0, mu1) = match spec.model {
        Model::Logistic => (logistic(spec.elo0), logistic(spec.elo1)),
        Model::Normalized => {
            let s = (2.0 * var).sqrt();
            (
                0.5 + spec.elo0 / NELO_SCALE * s,
                0.5 + spec.elo1 / NELO_SCALE * s,
            )
        }
    };
    n * (mu1 - mu0) * (2.0 * mean - mu0 - mu1) / (2.0 * var)
}

fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A's Elo (logistic) and normalized Elo with 95 % half-widths, from the pairs:
/// `(elo, ±, nelo, ±)`.
pub fn estimate(penta: &Penta) -> Option<(f64, f64, f64, f64)> {
    let (n, mean, var) = moments(penta)?;
    let se = (var / n).sqrt();
    let lo = elo::from_fraction(mean - 1.96 * se);
    let hi = elo::from_fraction(mean + 1.96 * se);
    let nelo = (mean - 0.5) / (2.0 * var).sqrt() * NELO_SCALE;
    let nelo_margin = 1.96 * NELO_SCALE / (2.0 * n).sqrt();
    Some((elo::from_fraction(mean), (hi - lo) / 2.0, nelo, nelo_margin))
}

/// How the test ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: A is not `elo1` better (at most `elo0`).
    H0,
    /// H1 accepted: A is at least `elo0` better.
    H1,
    /// `max_games` reached without a decision.
    MaxGames,
}

/// How much the scores of pairs played on the same opening correlate, from A's pair points
/// grouped by opening: the one-way ANOVA intraclass correlation ρ (clamped to 0..1) and the
/// design effect 1 + (m̃ − 1)·ρ, where m̃ = Σ mᵢ² / N is the size-weighted mean number of
/// pairs an opening. The variance of the mean pair score is the design effect times what N
/// independent pairs give, so the LLR, which assumes independence, is that many times too
/// large. `None` without at least two openings and more pairs than openings.
pub fn design_effect(groups: &[&[f64]]) -> Option<(f64, f64)> {
    let groups: Vec<&[f64]> = groups.iter().copied().filter(|g| !g.is_empty()).collect();
    let k = groups.len();
    let n: usize = groups.iter().map(|g| g.len()).sum();
    if k < 2 || n <= k {
        return None;
    }
    let (kf, nf) = (k as f64, n as f64);
    let mean_of = |g: &[f64]| g.iter().sum::<f64>() / g.len() as f64;
    let grand = groups.iter().flat_map(|g| g.iter()).sum::<f64>() / nf;
    let sizes_sq: f64 = groups.iter().map(|g| (g.len() as f64).powi(2)).sum();
    let between: f64 = groups
        .iter()
        .map(|g| g.len() as f64 * (mean_of(g) - grand).powi(2))
        .sum::<f64>()
        / (kf - 1.0);
    let within: f64 = groups
        .iter()
        .map(|g| {
            let m = mean_of(g);
            g.iter().map(|x| (x - m).powi(2)).sum::<f64>()
        })
        .sum::<f64>()
        / (nf - kf);
    // The ANOVA estimator's group size for unequal groups.
    let m0 = (nf - sizes_sq / nf) / (kf - 1.0);
    let denominator = between + (m0 - 1.0) * within;
    let rho = if denominator > 0.0 {
        ((between - within) / denominator).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Some((rho, 1.0 + (sizes_sq / nf - 1.0) * rho))
}

/// The schedule: pair k plays opening k mod (number of openings), A with black in game 2k+1
/// and B with black in game 2k+2, until `max_games`.
pub fn schedule(openings: usize, max_games: usize) -> Vec<Pairing> {
    let openings = openings.max(1);
    (0..max_games)
        .map(|g| Pairing {
            game: g + 1,
            black: g % 2,
            white: 1 - g % 2,
            opening: (g / 2) % openings,
        })
        .collect()
}
