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

use crate::config::Config;
use crate::elo;
use crate::record::GameRecord;
use crate::schedule::Pairing;
use serde::Deserialize;
use std::fmt::Write;

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

/// The test's state, fed with finished games in the order they were journalled.
#[derive(Clone, Debug)]
pub struct Tracker {
    spec: Spec,
    a: String,
    b: String,
    /// A's points in each game of each unfinished pair, by pair index.
    open: std::collections::BTreeMap<usize, [Option<f64>; 2]>,
    /// Finished pairs.
    pub penta: Penta,
    /// Games of A against B seen, including those finished after the decision.
    pub games: usize,
    /// The decision and the LLR when it was taken; later games do not change it.
    pub decision: Option<(Decision, f64)>,
    /// Openings the pairs take in turn.
    openings: usize,
    /// A's points (0 to 2) in each finished pair, by opening index.
    by_opening: std::collections::BTreeMap<usize, Vec<f64>>,
}

impl Tracker {
    /// A test of the config's first engine against its second.
    pub fn new(spec: Spec, config: &Config) -> Tracker {
        let name = |i: usize| {
            config
                .engines
                .get(i)
                .map_or(String::new(), |e| e.name.clone())
        };
        Tracker {
            spec,
            a: name(0),
            b: name(1),
            open: Default::default(),
            penta: [0; 5],
            games: 0,
            decision: None,
            openings: config.openings.len().max(1),
            by_opening: Default::default(),
        }
    }

    /// Counts a finished game; returns the progress line when it completed a pair (before
    /// the decision; afterwards games are only counted).
    pub fn add(&mut self, r: &GameRecord) -> Option<String> {
        let side = r.side_of(&self.a)?;
        if r.side_of(&self.b).is_none() || r.game == 0 {
            return None;
        }
        self.games += 1;
        if self.decision.is_some() {
            return None;
        }
        let pair = (r.game - 1) / 2;
        let slot = self.open.entry(pair).or_insert([None, None]);
        slot[(r.game - 1) % 2] = Some(r.outcome.points(side));
        let [Some(x), Some(y)] = *slot else {
            return None;
        };
        self.open.remove(&pair);
        Some(self.add_pair(r.opening, x + y))
    }

    /// Counts a finished pair of `points` for A on `opening`, decides if it can, and
    /// returns the progress line.
    fn add_pair(&mut self, opening: usize, points: f64) -> String {
        self.penta[(points * 2.0).round() as usize] += 1;
        self.by_opening.entry(opening).or_default().push(points);
        let llr = self.decision_llr();
        let (lower, upper) = self.spec.bounds();
        let pairs: u32 = self.penta.iter().sum();
        if llr >= upper {
            self.decision = Some((Decision::H1, llr));
        } else if llr <= lower {
            self.decision = Some((Decision::H0, llr));
        } else if 2 * pairs as usize >= self.spec.max_games {
            self.decision = Some((Decision::MaxGames, llr));
        }
        self.line()
    }

    /// The LLR over the finished pairs, as if every pair were independent.
    pub fn llr(&self) -> f64 {
        llr(&self.penta, &self.spec)
    }

    /// The measured correlation and design effect of the pairs by opening (`design_effect`):
    /// `None` while every opening has at most one pair, or all pairs share one opening.
    pub fn repeats(&self) -> Option<(f64, f64)> {
        let groups: Vec<&[f64]> = self.by_opening.values().map(Vec::as_slice).collect();
        design_effect(&groups)
    }

    /// What the test decides on: the LLR divided by the design effect when pairs repeat
    /// openings and the spec corrects for it (the evidence of N correlated pairs is that
    /// of N / design effect independent ones, and the LLR grows in proportion to it), the
    /// plain LLR otherwise. The effect is never below 1, so the correction only ever asks
    /// for more games.
    pub fn decision_llr(&self) -> f64 {
        self.llr() / self.applied_design_effect().unwrap_or(1.0)
    }

    /// The design effect the decision divides the LLR by: the measured one when pairs
    /// repeat openings and the spec corrects for it, `None` otherwise.
    fn applied_design_effect(&self) -> Option<f64> {
        self.repeats()
            .filter(|_| self.spec.correct_repeats)
            .map(|(_, deff)| deff)
    }

    /// `sprt  A vs B  games 24  penta [1 2 5 3 1]  Elo +12 ± 40  nElo +15 ± 49  LLR 0.52
    /// (-2.94, 2.94) [0, 5]`, and the decision once there is one.
    pub fn line(&self) -> String {
        let (lower, upper) = self.spec.bounds();
        let pairs: u32 = self.penta.iter().sum();
        let mut s = format!(
            "sprt {} vs {}  games {}  penta {:?}",
            self.a,
            self.b,
            2 * pairs,
            self.penta
        );
        if let Some((e, em, ne, nem)) = estimate(&self.penta) {
            let _ = write!(
                s,
                "  Elo {}  nElo {:+.1} ± {:.1}",
                elo::format(Some(elo::Estimate {
                    elo: e,
                    margin: em,
                    lower: e - em,
                    upper: e + em,
                })),
                // Rounded first, so a rounding error around 0 prints as +0.0, not -0.0.
                (ne * 10.0).round() / 10.0 + 0.0,
                nem
            );
        }
        let raw = self.llr();
        let deff = self.applied_design_effect();
        let llr = self
            .decision
            .map_or_else(|| raw / deff.unwrap_or(1.0), |(_, at_decision)| at_decision);
        let _ = write!(s, "  LLR {llr:.2}");
        if let Some(deff) = deff {
            let _ = write!(s, " (raw {raw:.2} / design effect {deff:.2})");
        }
        let _ = write!(
            s,
            " ({lower:.2}, {upper:.2}) [{}, {}] {:?}",
            self.spec.elo0, self.spec.elo1, self.spec.model
        );
        match self.decision {
            Some((Decision::H1, _)) => s.push_str("  H1 accepted"),
            Some((Decision::H0, _)) => s.push_str("  H0 accepted"),
            Some((Decision::MaxGames, _)) => s.push_str("  max_games reached, no decision"),
            None => {}
        }
        s
    }

    /// When the pairs repeat the openings, what that does to the test (a paragraph, then
    /// the measured correlation and design effect when there are enough pairs): the summary
    /// and the HTML report print it. Empty when every pair had an opening of its own.
    pub fn repeat_note(&self) -> Vec<String> {
        let pairs: u32 = self.penta.iter().sum();
        if pairs as usize <= self.openings {
            return Vec::new();
        }
        let mut note = vec![format!(
            "The {pairs} pairs repeat the {} opening{}. The pairs of one opening are not \
             independent (the same engines tend to repeat the same game), so the LLR and the \
             margins overstate the evidence; a larger openings file (`wuzi-tune openings`) \
             keeps every pair on an opening of its own.",
            self.openings,
            if self.openings == 1 { "" } else { "s" }
        )];
        match self.repeats() {
            Some((rho, deff)) => {
                note.push(format!(
                    "Here the pair scores correlate within an opening by ρ = {rho:.2} (one-way \
                     intraclass correlation, 0 when negative), a design effect of {deff:.2}: \
                     the evidence is about that of {:.0} independent pairs, LLR ≈ {:.2} rather \
                     than {:.2}, and the ± margins {:.2} times as wide.",
                    f64::from(pairs) / deff,
                    self.llr() / deff,
                    self.llr(),
                    deff.sqrt()
                ));
                note.push(if self.spec.correct_repeats {
                    "The test decides on the corrected LLR (`correct_repeats`, on by default)."
                        .to_string()
                } else {
                    "The test decides on the uncorrected LLR (`correct_repeats = false`)."
                        .to_string()
                });
            }
            None if self.by_opening.len() < 2 => note.push(
                "With a single opening the correlation cannot be measured, and the test \
                 decides on the uncorrected LLR."
                    .to_string(),
            ),
            None => {}
        }
        note
    }

    /// The summary section.
    pub fn markdown(&self) -> String {
        let mut s = String::from("\n## SPRT\n\n");
        let _ = writeln!(
            s,
            "A = `{}`, B = `{}`; H0: Elo ≤ {}, H1: Elo ≥ {} ({:?} model), α = {}, β = {}, \
             at most {} games; pentanomial counts are pairs by A's points 0, ½, 1, 1½, 2.\n",
            self.a,
            self.b,
            self.spec.elo0,
            self.spec.elo1,
            self.spec.model,
            self.spec.alpha,
            self.spec.beta,
            self.spec.max_games
        );
        let _ = writeln!(s, "`{}`", self.line());
        for paragraph in self.repeat_note() {
            let _ = writeln!(s, "\n{paragraph}");
        }
        if self.decision.is_none() {
            let _ = writeln!(s, "\nNo decision yet: `--resume` continues the test.");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(elo0: f64, elo1: f64, model: Model) -> Spec {
        Spec {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
            max_games: 1000,
            correct_repeats: true,
        }
    }

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn design_effect_of_repeated_openings() {
        // Each opening always gives the same pair score: fully correlated, and two pairs an
        // opening carry the evidence of one.
        let same: [&[f64]; 4] = [&[2.0, 2.0], &[0.0, 0.0], &[2.0, 2.0], &[0.0, 0.0]];
        let (rho, deff) = design_effect(&same).expect("enough pairs");
        assert!(
            close(rho, 1.0, 1e-12) && close(deff, 2.0, 1e-12),
            "{rho} {deff}"
        );
        // The openings' means are equal: no correlation, no correction.
        let spread: [&[f64]; 4] = [&[0.0, 2.0], &[2.0, 0.0], &[1.0, 1.0], &[0.0, 2.0]];
        let (rho, deff) = design_effect(&spread).expect("enough pairs");
        assert!(
            close(rho, 0.0, 1e-12) && close(deff, 1.0, 1e-12),
            "{rho} {deff}"
        );
        // By hand: groups {2, 2, 1}, {0, 1}, {1, 1, 1, 0}: grand mean 1, between-groups mean
        // square (3·(2/3)² + 2·(1/2)² + 4·(1/4)²)/2 = 1.0417, within (2/3 + 1/2 + 3/4)/6 =
        // 0.3194, m0 = (9 − 29/9)/2 = 2.8889, ρ = 0.7222/1.6451 = 0.4390; m̃ = 29/9, so the
        // design effect is 1 + (29/9 − 1)·ρ = 1.9756.
        let mixed: [&[f64]; 3] = [&[2.0, 2.0, 1.0], &[0.0, 1.0], &[1.0, 1.0, 1.0, 0.0]];
        let (rho, deff) = design_effect(&mixed).expect("enough pairs");
        assert!(
            close(rho, 0.4390, 1e-4) && close(deff, 1.9756, 1e-4),
            "{rho} {deff}"
        );
        // One opening, or one pair an opening: nothing to estimate.
        assert_eq!(design_effect(&[&[1.0, 2.0, 0.0]]), None);
        assert_eq!(design_effect(&[&[1.0], &[2.0]]), None);
    }

    /// A tracker over `openings` openings fed `pairs` (opening, A's points) in order.
    fn tracker(spec: Spec, openings: usize, pairs: &[(usize, f64)]) -> Tracker {
        let mut t = Tracker {
            spec,
            a: "A".into(),
            b: "B".into(),
            open: Default::default(),
            penta: [0; 5],
            games: 0,
            decision: None,
            openings,
            by_opening: Default::default(),
        };
        for &(opening, points) in pairs {
            if t.decision.is_none() {
                t.add_pair(opening, points);
            }
        }
        t
    }

    #[test]
    fn repeated_openings_ask_for_more_evidence() {
        // Ten openings, each replayed pair after pair to the same result: seven always won
        // 2-0 by A, three always split. Uncorrected, a few dozen pairs decide H1; but every
        // opening's pairs are the same game, so the evidence is that of ten pairs.
        let stream: Vec<(usize, f64)> = (0..400)
            .map(|k| (k % 10, if k % 10 < 7 { 2.0 } else { 1.0 }))
            .collect();
        let normalized = Spec {
            max_games: 800,
            ..spec(0.0, 20.0, Model::Normalized)
        };
        let raw = tracker(
            Spec {
                correct_repeats: false,
                ..normalized
            },
            10,
            &stream,
        );
        let (decision, at) = raw.decision.unwrap_or_else(|| panic!("{}", raw.line()));
        assert_eq!(decision, Decision::H1, "{}", raw.line());
        assert!(
            (at - raw.llr()).abs() < 1e-12 && at >= 2.944,
            "{}",
            raw.line()
        );
        let raw_pairs: u32 = raw.penta.iter().sum();
        assert!(raw.line().contains("H1 accepted") && !raw.line().contains("design effect"));

        // Corrected: ρ = 1, so the design effect is the pairs per opening, and LLR / (pairs
        // / 10) stays near ten pairs' worth (about 1.2 here) however many pairs are played:
        // the test runs to max_games without a decision.
        let corrected = tracker(normalized, 10, &stream);
        let (rho, deff) = corrected.repeats().unwrap_or_else(|| panic!("no repeats"));
        assert!((rho - 1.0).abs() < 1e-9, "{rho}");
        assert!((deff - 40.0).abs() < 1e-9, "{deff}");
        assert_eq!(corrected.decision.map(|d| d.0), Some(Decision::MaxGames));
        assert!((corrected.decision_llr() - corrected.llr() / 40.0).abs() < 1e-12);
        assert!(corrected.llr() > 2.944 * 10.0, "{}", corrected.llr());
        assert!(
            corrected.line().contains("design effect 40.00"),
            "{}",
            corrected.line()
        );
        assert!(raw_pairs < 400);
        let note = corrected.repeat_note().join("\n");
        assert!(note.contains("decides on the corrected LLR"), "{note}");

        // Pairs that do not repeat their opening are left as they are: one opening each.
        let fresh: Vec<(usize, f64)> = stream
            .iter()
            .enumerate()
            .map(|(k, &(_, p))| (k, p))
            .collect();
        let independent = tracker(normalized, 400, &fresh);
        assert_eq!(independent.repeats(), None);
        assert_eq!(independent.decision, raw.decision);
    }

    #[test]
    fn bounds_are_the_wald_thresholds() {
        let (lo, hi) = spec(0.0, 5.0, Model::Normalized).bounds();
        // ln(0.05/0.95) and ln(0.95/0.05).
        assert!(close(lo, -2.944_438_979, 1e-9), "{lo}");
        assert!(close(hi, 2.944_438_979, 1e-9), "{hi}");
        let asym = Spec {
            alpha: 0.1,
            beta: 0.2,
            ..spec(0.0, 5.0, Model::Logistic)
        };
        let (lo, hi) = asym.bounds();
        assert!(close(lo, (0.2f64 / 0.9).ln(), 1e-12));
        assert!(close(hi, 8f64.ln(), 1e-12));
    }

    #[test]
    fn moments_of_a_hand_counted_sample() {
        // 100 pairs: 5 lost 0-2, 10 at ½, 30 at 1, 35 at 1½, 20 won 2-0.
        // mean = (10·.25 + 30·.5 + 35·.75 + 20·1) / 100 = 0.6375
        // var = (5·0.6375² + 10·0.3875² + 30·0.1375² + 35·0.1125² + 20·0.3625²) / 100
        //     = (2.0320313 + 1.5015625 + 0.5671875 + 0.4429688 + 2.628125) / 100 = 0.07171875
        let (n, mean, var) = moments(&[5, 10, 30, 35, 20]).unwrap_or_default();
        assert!(close(n, 100.0, 1e-12));
        assert!(close(mean, 0.6375, 1e-12), "{mean}");
        assert!(close(var, 0.071_718_75, 1e-12), "{var}");
        assert_eq!(moments(&[0; 5]), None);
    }

    #[test]
    fn llr_against_hand_computed_values() {
        let penta = [5, 10, 30, 35, 20];
        // With the prior: 5.5/10/31/35/20.5, 102 pairs, mean = 64.75/102 = 0.6348039...,
        // var = 0.0731269... (as in `moments_of_a_hand_counted_sample`).
        // Logistic [0, 5]: μ0 = 0.5, μ1 = 1/(1+10^(-5/400)) = 0.507195...
        // LLR = 102·(μ1−μ0)·(2·0.6348039 − μ0 − μ1)/(2·0.0731269) = 1.31678...
        let l = llr(&penta, &spec(0.0, 5.0, Model::Logistic));
        assert!(close(l, 1.316_781, 1e-5), "{l}");
        // Normalized [0, 5]: s = √(2·0.0731269) = 0.382431..., μ1 = 0.5 + 5·s·ln10/800
        // = 0.505503...; LLR = 1.01372...
        let l = llr(&penta, &spec(0.0, 5.0, Model::Normalized));
        assert!(close(l, 1.013_719, 1e-5), "{l}");
        // A symmetric sample (mean ½) favours H0 = 0 over H1 = 5.
        // 10.5/20/41/20/10.5: var = 0.0759804; normalized μ1 − μ0 = 5·√(2·var)·ln10/800;
        // LLR = −102·(μ1 − μ0)²/(2·var) = −0.02112...
        let l = llr(&[10, 20, 40, 20, 10], &spec(0.0, 5.0, Model::Normalized));
        assert!(close(l, -0.021_125, 1e-5), "{l}");
        assert_eq!(llr(&[0; 5], &spec(0.0, 5.0, Model::Normalized)), 0.0);
    }

    #[test]
    fn identical_pairs_give_a_sane_ratio() {
        let normalized = spec(0.0, 20.0, Model::Normalized);
        // Three lost pairs: the exact binomial ratio of six losses for H1 = +20 against
        // H0 = 0 is 6·ln(0.4712/0.5) = −0.355; the prior gives −0.385 (without it the
        // sample variance is about 0 and the ratio was −4.9, an H0 after six games).
        let three_lost = llr(&[3, 0, 0, 0, 0], &normalized);
        assert!(close(three_lost, -0.384_753, 1e-5), "{three_lost}");
        // A long run of identical pairs still decides, and every ratio is finite.
        let all_won = llr(&[0, 0, 0, 0, 20], &normalized);
        assert!(all_won.is_finite() && all_won > 2.95, "{all_won}");
        let all_lost = llr(&[10, 0, 0, 0, 0], &spec(0.0, 5.0, Model::Logistic));
        assert!(all_lost.is_finite() && all_lost < -0.5, "{all_lost}");
        let all_lost = llr(&[40, 0, 0, 0, 0], &normalized);
        assert!(all_lost.is_finite() && all_lost < -2.95, "{all_lost}");
    }

    #[test]
    fn estimate_matches_the_logistic_curve() {
        // Mean 0.6375 → Elo = −400·log10(1/0.6375 − 1) = 98.069...;
        // nElo = 0.1375/√0.1434375·347.44 = 126.1...
        let (e, em, ne, nem) = estimate(&[5, 10, 30, 35, 20]).unwrap_or_default();
        assert!(close(e, 98.069, 1e-2), "{e}");
        assert!(close(ne, 0.1375 / 0.143_437_5f64.sqrt() * NELO_SCALE, 1e-9));
        assert!(em > 0.0 && em < 50.0, "{em}");
        // ±1.96·347.44/√200 = 48.15...
        assert!(close(nem, 48.152, 1e-2), "{nem}");
    }

    #[test]
    fn schedule_pairs_share_an_opening_and_swap_colours() {
        let s = schedule(3, 8);
        assert_eq!(s.len(), 8);
        for (k, pair) in s.chunks(2).enumerate() {
            assert_eq!(pair[0].opening, k % 3);
            assert_eq!(pair[1].opening, k % 3);
            assert_eq!((pair[0].black, pair[0].white), (0, 1));
            assert_eq!((pair[1].black, pair[1].white), (1, 0));
            assert_eq!(pair[0].game, 2 * k + 1);
        }
    }

    #[test]
    fn bad_sections_are_refused() {
        let raw = |elo0: f64, elo1: f64, alpha: f64| RawSprt {
            elo0,
            elo1,
            alpha,
            beta: 0.05,
            model: Model::Normalized,
            max_games: 100,
            correct_repeats: true,
        };
        assert!(Spec::from_raw(&raw(0.0, 5.0, 0.05), 2).is_ok());
        assert!(Spec::from_raw(&raw(0.0, 5.0, 0.05), 3).is_err());
        assert!(Spec::from_raw(&raw(5.0, 5.0, 0.05), 2).is_err());
        assert!(Spec::from_raw(&raw(0.0, 5.0, 0.0), 2).is_err());
        assert!(Spec::from_raw(&raw(0.0, f64::NAN, 0.05), 2).is_err());
        let odd = RawSprt {
            max_games: 7,
            ..raw(0.0, 5.0, 0.05)
        };
        assert_eq!(Spec::from_raw(&odd, 2).map(|s| s.max_games), Ok(8));
    }
}
