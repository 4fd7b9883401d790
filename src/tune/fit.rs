//! Logistic regression: `target ≈ sigmoid(eval / scale)`, cross-entropy loss, minibatch
//! Adam, an L2 pull toward the starting set (the hand set), and the shares kept where the
//! engine can hold them after every step. Plain arithmetic, no dependency.
//!
//! The engine holds integers, and some inputs are large counts (a side's cells of class
//! "nothing" number in the hundreds): rounding such a weight by 0.4 moves an evaluation by
//! a hundred units. So the fit ends in finishing stages: the weights on large counts are
//! rounded and frozen, and the rest go on learning around them: first the weights on raw
//! counts (classes and pattern codes per side: the largest inputs), then the line and
//! class shares, then the pattern-code shares, leaving the threat table, whose inputs are
//! single bits.

use super::dataset::sigmoid;
use super::model::{eval, project, Row, BITS, CODE, CODE_OWN, DENSE, LINE, OWN, PARAMS, TABLE};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// How to fit.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Passes in each of the three finishing stages (see the module notes; 0: none, the
    /// weights are only rounded when the set is written).
    pub finish: usize,
    /// Adam step size, in score units.
    pub lr: f64,
    /// Positions per step.
    pub batch: usize,
    /// L2 pull toward the start, per squared score unit, on the dense parameters.
    pub l2: f64,
    /// The same on the threat table's own part (sparser data, stronger pull).
    pub l2_table: f64,
    /// The same on the pattern-code shares.
    pub l2_code: f64,
    /// Shuffle seed.
    pub seed: u64,
}

impl Default for Fit {
    fn default() -> Self {
        Fit {
            epochs: 40,
            finish: 8,
            lr: 0.5,
            batch: 512,
            l2: 1e-7,
            l2_table: 1e-5,
            l2_code: 1e-6,
            seed: 1,
        }
    }
}

/// Cross-entropy of predicting `p` for target `y` (clamped away from 0 and 1).
#[inline]
pub fn cross_entropy(y: f64, p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Mean loss of evaluations `evals` against `targets` at `scale`.
pub fn mean_loss(evals: impl Iterator<Item = f64>, targets: &[f64], scale: f64) -> f64 {
    let total: f64 = evals
        .zip(targets)
        .map(|(e, &y)| cross_entropy(y, sigmoid(e / scale)))
        .sum();
    total / targets.len().max(1) as f64
}

/// Mean loss of the model `theta` on `rows`.
pub fn model_loss(theta: &[f64], rows: &[Row], targets: &[f64], scale: f64) -> f64 {
    mean_loss(rows.iter().map(|r| eval(theta, r)), targets, scale)
}

/// The scale at which the evaluations `evals` best predict `targets` (golden-section
/// search of the loss over 10..5000, in score units).
pub fn best_scale(evals: &[f64], targets: &[f64]) -> f64 {
    let loss = |s: f64| mean_loss(evals.iter().copied(), targets, s);
    let (mut a, mut b) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// Fit from `start` on `rows`/`targets` at `scale`; returns the parameters and the
/// training loss before the first epoch and after each.
pub fn fit(
    cfg: &Fit,
    start: &[f64],
    rows: &[Row],
    targets: &[f64],
    scale: f64,
) -> (Vec<f64>, Vec<f64>) {
    let mut theta = start.to_vec();
    let mut losses = vec![model_loss(&theta, rows, targets, scale)];
    if rows.is_empty() {
        return (theta, losses);
    }
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut m = vec![0.0; PARAMS];
    let mut v = vec![0.0; PARAMS];
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut grad = vec![0.0; PARAMS];
    let mut frozen = vec![false; PARAMS];
    // The stages: (passes, parameters rounded and frozen before it).
    let stages = [
        (cfg.epochs, [0..0, 0..0]),
        (cfg.finish, [OWN..BITS, CODE_OWN..PARAMS]),
        (cfg.finish, [LINE..OWN, 0..0]),
        (cfg.finish, [CODE..CODE_OWN, 0..0]),
    ];
    for (passes, freeze) in stages {
        if passes == 0 {
            continue;
        }
        for j in freeze.into_iter().flatten() {
            theta[j] = theta[j].round();
            frozen[j] = true;
        }
        for _ in 0..passes {
            order.shuffle(&mut rng);
            for chunk in order.chunks(cfg.batch.max(1)) {
                grad.iter_mut().for_each(|g| *g = 0.0);
                for &i in chunk {
                    let row = &rows[i];
                    let d = (sigmoid(eval(&theta, row) / scale) - targets[i]) / scale;
                    for (g, &x) in grad[..DENSE].iter_mut().zip(&row.x) {
                        *g += d * x as f64;
                    }
                    grad[TABLE + row.mask] += d;
                    for &(c, v) in &row.codes {
                        grad[CODE + c as usize] += d * v as f64;
                    }
                }
                let n = chunk.len() as f64;
                step += 1;
                let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
                for j in (0..PARAMS).filter(|&j| !frozen[j]) {
                    let l2 = if j >= CODE {
                        cfg.l2_code
                    } else if j >= TABLE {
                        cfg.l2_table
                    } else {
                        cfg.l2
                    };
                    let g = grad[j] / n + 2.0 * l2 * (theta[j] - start[j]);
                    m[j] = b1 * m[j] + (1.0 - b1) * g;
                    v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                    theta[j] -= cfg.lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                }
                project(&mut theta);
            }
            losses.push(model_loss(&theta, rows, targets, scale));
        }
    }
    (theta, losses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::model::{BIAS, COMBO};
    use rand::Rng;

    /// Positions from a known model; the fit, started from zero, finds it again.
    #[test]
    fn the_fit_recovers_known_weights_from_synthetic_data() {
        let mut truth = vec![0.0; PARAMS];
        truth[LINE + 4] = 30.0;
        truth[COMBO + 7] = 80.0;
        truth[OWN + 5] = 25.0;
        truth[BIAS] = 15.0;
        truth[TABLE + 3] = 60.0;
        truth[CODE + 9] = 40.0;
        let mut rng = StdRng::seed_from_u64(7);
        let rows: Vec<Row> = (0..4000)
            .map(|_| {
                let mut x = [0f32; DENSE];
                x[LINE + 4] = rng.random_range(-4..=4) as f32;
                x[COMBO + 7] = rng.random_range(-2..=2) as f32 * 0.5;
                x[OWN + 5] = rng.random_range(0..=3) as f32;
                x[BIAS] = 1.0;
                Row {
                    x,
                    mask: if rng.random_bool(0.3) { 3 } else { 0 },
                    codes: vec![(9, rng.random_range(-3..=3) as f32 * 0.5)],
                }
            })
            .collect();
        let scale = 100.0;
        let targets: Vec<f64> = rows
            .iter()
            .map(|r| sigmoid(eval(&truth, r) / scale))
            .collect();
        let cfg = Fit {
            epochs: 40,
            finish: 0,
            lr: 2.0,
            batch: 64,
            l2: 0.0,
            l2_table: 0.0,
            l2_code: 0.0,
            seed: 3,
        };
        let (theta, losses) = fit(&cfg, &vec![0.0; PARAMS], &rows, &targets, scale);
        assert!(losses.last() < losses.first());
        for j in [LINE + 4, COMBO + 7, OWN + 5, CODE + 9] {
            assert!(
                (theta[j] - truth[j]).abs() < 3.0,
                "parameter {j}: {}",
                theta[j]
            );
        }
        // The constant and the table entry of state 0 are one quantity; state 3's
        // difference from state 0 is what the data determine.
        let gap = theta[TABLE + 3] - theta[TABLE];
        assert!((gap - 60.0).abs() < 6.0, "table gap {gap}");
        assert!(
            (best_scale(
                &rows.iter().map(|r| eval(&truth, r)).collect::<Vec<_>>(),
                &targets
            ) - scale)
                .abs()
                < 1.0
        );
    }

    /// A weight on a count of hundreds, fitted to 0.4: plain rounding throws the
    /// evaluations off by about a hundred units; the finishing stages round it first and
    /// let the other weights make up for it, so the rounded model stays as good.
    #[test]
    fn finishing_rounds_the_count_weights_and_keeps_the_loss() {
        let mut rng = StdRng::seed_from_u64(11);
        let rows: Vec<Row> = (0..3000)
            .map(|_| {
                let mut x = [0f32; DENSE];
                let cells = rng.random_range(200..400) as f32;
                x[OWN] = cells;
                // A line input that follows the count: it can stand in for it.
                x[LINE + 2] = (cells / 10.0).round();
                x[BIAS] = 1.0;
                Row {
                    x,
                    mask: 0,
                    codes: vec![],
                }
            })
            .collect();
        let scale = 100.0;
        let truth = |r: &Row| 0.4 * r.x[OWN] as f64 - 120.0;
        let targets: Vec<f64> = rows.iter().map(|r| sigmoid(truth(r) / scale)).collect();
        let cfg = Fit {
            epochs: 30,
            finish: 0,
            lr: 0.5,
            batch: 64,
            l2: 0.0,
            l2_table: 0.0,
            l2_code: 0.0,
            seed: 5,
        };
        let rounded_loss = |theta: &[f64]| {
            let mut t = theta.to_vec();
            t.iter_mut().for_each(|v| *v = v.round());
            model_loss(&t, &rows, &targets, scale)
        };
        let (plain, _) = fit(&cfg, &vec![0.0; PARAMS], &rows, &targets, scale);
        let finished_cfg = Fit { finish: 10, ..cfg };
        let (finished, _) = fit(&finished_cfg, &vec![0.0; PARAMS], &rows, &targets, scale);
        for j in (LINE..BITS).chain(CODE..PARAMS) {
            assert_eq!(
                finished[j],
                finished[j].round(),
                "parameter {j} is not whole"
            );
        }
        let best = model_loss(&plain, &rows, &targets, scale);
        let (naive, kept) = (rounded_loss(&plain), rounded_loss(&finished));
        assert!(
            kept < naive && kept - best < 0.1 * (naive - best),
            "float {best:.5}, rounded {naive:.5}, finished {kept:.5}"
        );
    }
}
