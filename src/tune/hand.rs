//! Where the hand set came from: the hand-set numbers of `eval/weights.rs` before the
//! weights became data, turned into a set (`wuzi-tune hand` writes `eval/sets/hand.rs`
//! from it). The fit starts from this set and is pulled toward it.

use crate::eval::pattern::Pattern4;
use crate::eval::sets::{EvalSet, THREAT_STATES};

/// Per line pattern (dead, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, F5).
const LINE_VALUE: [i16; 13] = [0, 1, 2, 3, 8, 10, 12, 9, 24, 28, 26, 90, 200];
/// Per combination class.
const COMBO_BONUS: [i16; Pattern4::COUNT] = [0, 0, 0, 6, 6, 0, 10, 60, 0, 20, 120, 160, 300];
/// The side to move can play a four-three now.
const FOUR_THREE: i16 = 300;
/// The side to move can play a three-three now (and no four-three).
const THREE_THREE: i16 = 200;
/// The side to move can make an open three.
const OPEN_THREE: i16 = 40;
/// The opponent threatens an open four, which costs the tempo to answer.
const OPP_OPEN_FOUR: i16 = -60;
/// The side to move's tempo.
const TEMPO: i16 = 20;

/// The hand-set weights as a set: the old `evaluate`'s branches become the threat table.
pub fn hand_set() -> EvalSet {
    let mut threat = [0i16; THREAT_STATES];
    for (mask, t) in threat.iter_mut().enumerate() {
        let bit = |b: usize| mask >> b & 1 != 0;
        *t = TEMPO;
        if bit(0) {
            *t += FOUR_THREE;
        } else if bit(1) {
            *t += THREE_THREE;
        }
        if bit(2) {
            *t += OPEN_THREE;
        }
        if bit(5) {
            *t += OPP_OPEN_FOUR;
        }
    }
    EvalSet {
        line: LINE_VALUE,
        combo: COMBO_BONUS,
        own: [0; Pattern4::COUNT],
        opp: [0; Pattern4::COUNT],
        threat,
        code: std::borrow::Cow::Borrowed(&[]),
        code_own: std::borrow::Cow::Borrowed(&[]),
        code_opp: std::borrow::Cow::Borrowed(&[]),
    }
}
