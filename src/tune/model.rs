//! The fitted model: the engine's evaluation written as a linear function of the features
//! (`eval_with` is exactly this, in integers), with the threat-state table given an
//! additive part (one weight per threat bit, plus a constant) so that states seen rarely
//! or never take sensible values.
//!
//! Parameters, in order: `line` (13), `combo` (13), `own` (13), `opp` (13), threat bits
//! (11), a constant, the threat table's own part (2048), then the pattern-code shares,
//! own terms and opponent terms (1820 each, sparse in every position).

use super::features::{Features, CLASSES, PATTERNS};
use crate::eval::pattern::{code_index, combine, Pattern, CODES};
use crate::eval::sets::{EvalSet, THREAT_BITS, THREAT_STATES};
use std::sync::OnceLock;

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
/// The pattern-code shares.
pub const CODE: usize = TABLE + THREAT_STATES;
/// The side to move's pattern-code terms.
pub const CODE_OWN: usize = CODE + CODES;
/// The opponent's pattern-code terms.
pub const CODE_OPP: usize = CODE_OWN + CODES;
/// Number of parameters.
pub const PARAMS: usize = CODE_OPP + CODES;

/// Largest share of a line pattern, and of a class, so a cell's share fits an `i16`.
const MAX_LINE: f64 = 1500.0;
const MAX_COMBO: f64 = 5000.0;
/// Largest magnitude of a class count weight and of a threat-table value.
const MAX_CLASS: f64 = 3000.0;
const MAX_THREAT: f64 = 5000.0;
/// Largest magnitude of a pattern code's share.
const MAX_CODE: f64 = 5000.0;

/// Each pattern code's four line patterns and class.
fn code_shapes() -> &'static [([usize; 4], usize)] {
    static SHAPES: OnceLock<Vec<([usize; 4], usize)>> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let mut shapes = vec![([0; 4], 0); CODES];
        for a in 0..PATTERNS {
            for b in a..PATTERNS {
                for c in b..PATTERNS {
                    for d in c..PATTERNS {
                        let pats = [a, b, c, d].map(|p| Pattern::from_u8(p as u8));
                        shapes[code_index(&pats)] = ([a, b, c, d], combine(&pats) as usize);
                    }
                }
            }
        }
        shapes
    })
}

/// The share of code `c` without its code part, under the line and class shares `share`
/// (`share(LINE + p)`, `share(COMBO + k)`).
fn base_share(c: usize, share: impl Fn(usize) -> f64) -> f64 {
    let (pats, p4) = code_shapes()[c];
    pats.iter().map(|&p| share(LINE + p)).sum::<f64>() + share(COMBO + p4)
}

/// A position as the fit reads it: the dense inputs and the threat state.
#[derive(Clone, Debug)]
pub struct Row {
    /// Dense inputs (the table's entry is implied by `mask`).
    pub x: [f32; DENSE],
    /// The threat state.
    pub mask: usize,
    /// Sparse inputs of the three pattern-code groups: `(parameter - CODE, input)`.
    pub codes: Vec<(u16, f32)>,
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
            x[OWN + k] = f.counted[0][k] as f32;
            x[OPP + k] = f.counted[1][k] as f32;
        }
        for b in 0..THREAT_BITS {
            x[BITS + b] = (f.mask >> b & 1) as f32;
        }
        x[BIAS] = 1.0;
        // Half the difference of the two sides' cells per code, as for the line shares.
        let mut codes: Vec<(u16, f32)> = f.code[0]
            .iter()
            .map(|&(c, n)| (c, 0.5 * n as f32))
            .collect();
        for &(c, n) in &f.code[1] {
            match codes.binary_search_by_key(&c, |&(k, _)| k) {
                Ok(i) => codes[i].1 -= 0.5 * n as f32,
                Err(i) => codes.insert(i, (c, -0.5 * n as f32)),
            }
        }
        codes.retain(|&(_, v)| v != 0.0);
        for (side, group) in [(0, CODE_OWN), (1, CODE_OPP)] {
            codes.extend(
                f.code[side]
                    .iter()
                    .map(|&(c, n)| ((group - CODE + c as usize) as u16, n as f32)),
            );
        }
        Row {
            x,
            mask: f.mask,
            codes,
        }
    }

    /// The inputs of the search's two-ply evaluation of `f` with parent `parent`
    /// (`features::search_eval_with`): half the difference of the two plies' shape inputs
    /// (lines, classes, codes), and this ply's threat state. Without a parent, `Row::of`.
    pub fn of_two_ply(f: &Features, parent: Option<&Features>) -> Row {
        let mut row = Row::of(f);
        let Some(parent) = parent else {
            return row;
        };
        let up = Row::of(parent);
        for j in LINE..BITS {
            row.x[j] = 0.5 * (row.x[j] - up.x[j]);
        }
        // Inputs of one parameter may appear twice: `eval` and the gradient add them.
        for c in &mut row.codes {
            c.1 *= 0.5;
        }
        row.codes
            .extend(up.codes.iter().map(|&(c, v)| (c, -0.5 * v)));
        row
    }
}

/// The model's evaluation of `row` under `theta`.
#[inline]
pub fn eval(theta: &[f64], row: &Row) -> f64 {
    let dense: f64 = row.x.iter().zip(theta).map(|(&x, &t)| x as f64 * t).sum();
    let codes: f64 = row
        .codes
        .iter()
        .map(|&(c, v)| v as f64 * theta[CODE + c as usize])
        .sum();
    dense + theta[TABLE + row.mask] + codes
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
    for (group, list) in [CODE, CODE_OWN, CODE_OPP].into_iter().zip(set.code_lists()) {
        for &(c, v) in list {
            theta[group + c as usize] = v as f64;
        }
    }
    theta
}

/// Keep parameters where the engine can hold them: shares never negative and within an
/// `i16` cell sum (a code's share may be negative, but not below what the cell's lines and
/// class give it).
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
    for c in 0..CODES {
        let floor = -base_share(c, |j| theta[j]);
        theta[CODE + c] = theta[CODE + c].clamp(floor.max(-MAX_CODE), MAX_CODE);
    }
    for t in &mut theta[CODE_OWN..PARAMS] {
        *t = t.clamp(-MAX_CLASS, MAX_CLASS);
    }
}

/// The engine's integer set for `theta` (the threat table folds in the bits and constant).
pub fn to_set(theta: &[f64]) -> EvalSet {
    let q = |v: f64, max: f64| v.round().clamp(-max, max) as i16;
    let terms =
        |group: usize| -> Vec<i16> { (0..CODES).map(|c| q(theta[group + c], MAX_CLASS)).collect() };
    let mut set = EvalSet {
        line: std::array::from_fn(|p| q(theta[LINE + p], MAX_LINE).max(0)),
        combo: std::array::from_fn(|k| q(theta[COMBO + k], MAX_COMBO).max(0)),
        own: std::array::from_fn(|k| q(theta[OWN + k], MAX_CLASS)),
        opp: std::array::from_fn(|k| q(theta[OPP + k], MAX_CLASS)),
        threat: [0; THREAT_STATES],
        code: Default::default(),
        code_own: EvalSet::code_list(&terms(CODE_OWN)),
        code_opp: EvalSet::code_list(&terms(CODE_OPP)),
    };
    // Rounded after the line and class shares, so a cell's whole share stays >= 0.
    let codes: Vec<i16> = (0..CODES)
        .map(|c| {
            let floor = -base_share(c, |j| {
                if j < COMBO {
                    set.line[j - LINE] as f64
                } else {
                    set.combo[j - COMBO] as f64
                }
            });
            q(theta[CODE + c], MAX_CODE).max(floor as i16)
        })
        .collect();
    set.code = EvalSet::code_list(&codes);
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
    use crate::board::Board;
    use crate::eval::sets::SetName;
    use crate::tune::features::search_eval_with;
    use crate::types::{Pos, Rule};

    #[test]
    fn the_two_ply_row_is_the_search_evaluation() {
        let set = SetName::Hand.weights();
        let theta = from_set(set);
        let mut b = Board::new(15, Rule::FREESTYLE).expect("a 15x15 board");
        let mut parent: Option<Features> = None;
        for (x, y) in [
            (7, 7),
            (8, 8),
            (6, 7),
            (9, 9),
            (5, 7),
            (8, 6),
            (4, 9),
            (10, 10),
        ] {
            let f = Features::of(&b);
            let row = Row::of_two_ply(&f, parent.as_ref());
            let engine = search_eval_with(&f, parent.as_ref(), set) as f64;
            // The engine halves in integers (twice: the share sums, then the two plies).
            assert!(
                (eval(&theta, &row) - engine).abs() <= 1.0,
                "{} vs {engine}",
                eval(&theta, &row)
            );
            if parent.is_some() {
                assert_ne!(row.x[LINE..BITS], Row::of(&f).x[LINE..BITS]);
            }
            parent = Some(f);
            b.play(Pos::new(x, y));
        }
    }

    #[test]
    fn a_set_survives_the_round_trip_through_parameters() {
        let set = SetName::Hand.weights();
        assert_eq!(&to_set(&from_set(set)), set);
        let mut codes = vec![0i16; CODES];
        codes[5] = 12;
        codes[700] = -3;
        let with_codes = EvalSet {
            code: EvalSet::code_list(&codes),
            code_own: EvalSet::code_list(&codes[3..]),
            ..set.clone()
        };
        assert_eq!(to_set(&from_set(&with_codes)), with_codes);
    }

    #[test]
    fn a_code_share_never_takes_a_cell_below_zero() {
        let mut theta = from_set(SetName::Hand.weights());
        let open_four = code_index(&[Pattern::F4, Pattern::Dead, Pattern::Dead, Pattern::Dead]);
        theta[CODE + open_four] = -10_000.0;
        project(&mut theta);
        let set = to_set(&theta);
        let hand = SetName::Hand.weights();
        let floor = hand.line[Pattern::F4 as usize] + 3 * hand.line[Pattern::Dead as usize];
        let class = combine(&[Pattern::F4, Pattern::Dead, Pattern::Dead, Pattern::Dead]);
        assert_eq!(
            EvalSet::listed(&set.code, open_four),
            -(floor + hand.combo[class as usize])
        );
    }
}
