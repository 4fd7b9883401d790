//! The fitted model: the engine's evaluation written as a linear function of the features
//! (`eval_with` is exactly this, in integers), with the threat-state table given an
//! additive part (one weight per threat bit, plus a constant) so that states seen rarely
//! or never take sensible values.
//!
//! Parameters, in order: `line` (13), `combo` (13), `own` (13), `opp` (13), threat bits
//! (11), a constant, then the threat table's own part (2048).

use super::features::{Features, CLASSES, PATTERNS};
use crate::eval::sets::{EvalSet, THREAT_BITS, THREAT_STATES};

/// Offsets of the parameter groups.
pub const LINE: usize = 0;
/// Combination class shares.
pub const COMBO: usize = LINE + PATTERNS;
/// Own class counts.
pub const OWN: usize = COMBO + CLASSES;
/// Opponent class counts.
pub const OPP: usize = OWN + CLASSES;
/// Threat bits.
pub const BITS: usize = OPP + CLASSES;
/// The constant.
pub const BIAS: usize = BITS + THREAT_BITS;
/// Number of dense inputs (everything but the table).
pub const DENSE: usize = BIAS + 1;
/// The threat table's own part.
pub const TABLE: usize = DENSE;
/// Number of parameters.
pub const PARAMS: usize = TABLE + THREAT_STATES;

/// Largest share of a line pattern, and of a class, so a cell's share fits an `i16`.
const MAX_LINE: f64 = 1500.0;
const MAX_COMBO: f64 = 5000.0;
/// Largest magnitude of a class count weight and of a threat-table value.
const MAX_CLASS: f64 = 3000.0;
const MAX_THREAT: f64 = 5000.0;

/// A position as the fit reads it: the dense inputs and the threat state.
#[derive(Clone, Debug)]
pub struct Row {
    /// Dense inputs (the table's entry is implied by `mask`).
    pub x: [f32; DENSE],
    /// The threat state.
    pub mask: usize,
}

impl Row {
    /// The inputs of `f`.
    pub fn of(f: &Features) -> Row {
        let mut x = [0f32; DENSE];
        for p in 0..PATTERNS {
            x[LINE + p] = 0.5 * (f.line[0][p] - f.line[1][p]) as f32;
        }
        for k in 0..CLASSES {
            x[COMBO + k] = 0.5 * (f.class[0][k] - f.class[1][k]) as f32;
            x[OWN + k] = f.class[0][k] as f32;
            x[OPP + k] = f.class[1][k] as f32;
        }
        for b in 0..THREAT_BITS {
            x[BITS + b] = (f.mask >> b & 1) as f32;
        }
        x[BIAS] = 1.0;
        Row { x, mask: f.mask }
    }
}

/// The model's evaluation of `row` under `theta`.
#[inline]
pub fn eval(theta: &[f64], row: &Row) -> f64 {
    let dense: f64 = row.x.iter().zip(theta).map(|(&x, &t)| x as f64 * t).sum();
    dense + theta[TABLE + row.mask]
}

/// Parameters that say exactly `set` (the additive threat part zero).
pub fn from_set(set: &EvalSet) -> Vec<f64> {
    let mut theta = vec![0.0; PARAMS];
    for p in 0..PATTERNS {
        theta[LINE + p] = set.line[p] as f64;
    }
    for k in 0..CLASSES {
        theta[COMBO + k] = set.combo[k] as f64;
        theta[OWN + k] = set.own[k] as f64;
        theta[OPP + k] = set.opp[k] as f64;
    }
    for m in 0..THREAT_STATES {
        theta[TABLE + m] = set.threat[m] as f64;
    }
    theta
}

/// Keep parameters where the engine can hold them: shares never negative and within an
/// `i16` cell sum.
pub fn project(theta: &mut [f64]) {
    for t in &mut theta[LINE..LINE + PATTERNS] {
        *t = t.clamp(0.0, MAX_LINE);
    }
    for t in &mut theta[COMBO..COMBO + CLASSES] {
        *t = t.clamp(0.0, MAX_COMBO);
    }
    for t in &mut theta[OWN..BITS] {
        *t = t.clamp(-MAX_CLASS, MAX_CLASS);
    }
}

/// The engine's integer set for `theta` (the threat table folds in the bits and constant).
pub fn to_set(theta: &[f64]) -> EvalSet {
    let q = |v: f64, max: f64| v.round().clamp(-max, max) as i16;
    let mut set = EvalSet {
        line: std::array::from_fn(|p| q(theta[LINE + p], MAX_LINE).max(0)),
        combo: std::array::from_fn(|k| q(theta[COMBO + k], MAX_COMBO).max(0)),
        own: std::array::from_fn(|k| q(theta[OWN + k], MAX_CLASS)),
        opp: std::array::from_fn(|k| q(theta[OPP + k], MAX_CLASS)),
        threat: [0; THREAT_STATES],
    };
    for (m, t) in set.threat.iter_mut().enumerate() {
        let bits: f64 = (0..THREAT_BITS)
            .filter(|b| m >> b & 1 != 0)
            .map(|b| theta[BITS + b])
            .sum();
        *t = q(theta[TABLE + m] + theta[BIAS] + bits, MAX_THREAT);
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::sets::SetName;

    #[test]
    fn a_set_survives_the_round_trip_through_parameters() {
        let set = SetName::Hand.weights();
        assert_eq!(&to_set(&from_set(set)), set);
    }
}
