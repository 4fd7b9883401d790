//! Evaluation weight sets: the numbers `evaluate` and the table build read, kept as data.
//!
//! Each set is a generated data file in this folder (`hand.rs`: the hand-set weights the
//! engine has always played with; `fitted.rs`: the weights `wuzi-tune` fitted on Wuzi's own
//! self-play games). `wuzi-tune` writes them and reads them back (`wuzi::tune::file`), so
//! neither is edited by hand. The process plays with one set, chosen by [`select`] before
//! the first board is built (`pbrain-wuzi --eval fitted`); the default is the hand set.
//!
//! A set holds:
//! - `line`: a cell's share per line pattern (`Pattern`), summed over its four lines;
//! - `combo`: a cell's extra share per combination class (`Pattern4`);
//! - `own`/`opp`: per class, a weight on how many empty cells give the side to move
//!   (`own`) or the opponent (`opp`) that class, so both sides' threat potential counts
//!   with its own sign and size;
//! - `threat`: the threat-state table, one value per [`threat_mask`] (SEARCH.md §8.9),
//!   the side to move's tempo included;
//! - `code`: a cell's extra share per pattern code (`pattern::code_index`: the multiset of
//!   its four line patterns), for the codes whose value is not zero. It adds what the sum
//!   of four line shares and one class share cannot say: how the lines of a cell go
//!   together;
//! - `code_own`/`code_opp`: per pattern code, a weight on how many empty cells give the
//!   side to move (`own`) or the opponent (`opp`) that code: the class count weights at
//!   the codes' finer grain.

mod fitted;
mod hand;
pub mod policy;

use super::pattern::{Pattern4, CODES};
use std::borrow::Cow;
use std::sync::atomic::{AtomicU8, Ordering};

/// Bits of the threat state (see [`threat_mask`]).
pub const THREAT_BITS: usize = 11;
/// Entries of the threat-state table.
pub const THREAT_STATES: usize = 1 << THREAT_BITS;
/// What each bit of [`threat_mask`] says, lowest first.
pub const THREAT_BIT_NAMES: [&str; THREAT_BITS] = [
    "own 4-3",
    "own 3-3",
    "own open-three point or better",
    "own open four",
    "own four point",
    "opp open four",
    "opp 4-3",
    "opp 3-3",
    "opp open-three point or better",
    "opp four point",
    "opp five point",
];

/// One complete set of evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalSet {
    /// Share of a cell per line pattern, indexed by `Pattern`; never negative.
    pub line: [i16; 13],
    /// Extra share of a cell per class, indexed by `Pattern4`; never negative.
    pub combo: [i16; Pattern4::COUNT],
    /// Weight per empty cell giving the side to move each class.
    pub own: [i16; Pattern4::COUNT],
    /// Weight per empty cell giving the opponent each class.
    pub opp: [i16; Pattern4::COUNT],
    /// Threat-state table, indexed by [`threat_mask`].
    pub threat: [i16; THREAT_STATES],
    /// Extra share of a cell per pattern code: `(code, value)` pairs, codes increasing,
    /// values not zero (a code not listed adds nothing).
    pub code: Cow<'static, [(u16, i16)]>,
    /// Weight per empty cell giving the side to move each pattern code, listed as `code`.
    pub code_own: Cow<'static, [(u16, i16)]>,
    /// Weight per empty cell giving the opponent each pattern code, listed as `code`.
    pub code_opp: Cow<'static, [(u16, i16)]>,
}

impl EvalSet {
    /// Whether the per-class count terms are all zero (then `evaluate` skips them).
    pub fn has_class_terms(&self) -> bool {
        self.own.iter().chain(self.opp.iter()).any(|&w| w != 0)
    }

    /// Whether the set has pattern-code terms per side (`evaluate` skips them otherwise).
    pub fn has_code_terms(&self) -> bool {
        !self.code_own.is_empty() || !self.code_opp.is_empty()
    }

    /// The three pattern-code lists, in field (and file) order: `code`, `code_own`,
    /// `code_opp`.
    pub fn code_lists(&self) -> [&[(u16, i16)]; 3] {
        [&self.code, &self.code_own, &self.code_opp]
    }

    /// The value `list` gives pattern code `code` (0 if it does not list it).
    pub fn listed(list: &[(u16, i16)], code: usize) -> i16 {
        list.binary_search_by_key(&code, |&(c, _)| c as usize)
            .map_or(0, |i| list[i].1)
    }

    /// The values of a `(code, value)` list, indexed by code.
    pub fn code_values_of(list: &[(u16, i16)]) -> Vec<i16> {
        let mut v = vec![0; CODES];
        for &(c, x) in list {
            v[c as usize] = x;
        }
        v
    }

    /// The `(code, value)` list of `values` (indexed by code): the non-zero ones, in order.
    pub fn code_list(values: &[i16]) -> Cow<'static, [(u16, i16)]> {
        Cow::Owned(
            values
                .iter()
                .enumerate()
                .filter(|&(_, &x)| x != 0)
                .map(|(c, &x)| (c as u16, x))
                .collect(),
        )
    }
}

/// The threat state of a position from the per-class counts of the side to move (`own`)
/// and of the opponent (`opp`), as `THREAT_BITS` bits (names in [`THREAT_BIT_NAMES`]).
#[inline]
pub fn threat_mask(own: &[u16; Pattern4::COUNT], opp: &[u16; Pattern4::COUNT]) -> usize {
    use Pattern4::*;
    let has = |c: &[u16; Pattern4::COUNT], p: Pattern4| (c[p as usize] != 0) as usize;
    let three = |c: &[u16; Pattern4::COUNT]| c[HFlex3 as usize..].iter().any(|&n| n != 0) as usize;
    let four = |c: &[u16; Pattern4::COUNT]| has(c, EBlock4) | has(c, DBlock4Plus);
    has(own, CBlock4Flex3)
        | has(own, FFlex3x2) << 1
        | three(own) << 2
        | has(own, BFlex4) << 3
        | four(own) << 4
        | has(opp, BFlex4) << 5
        | has(opp, CBlock4Flex3) << 6
        | has(opp, FFlex3x2) << 7
        | three(opp) << 8
        | four(opp) << 9
        | has(opp, AFive) << 10
}

/// The weight sets compiled into the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetName {
    /// The hand-set weights (the default).
    Hand = 0,
    /// The weights fitted by `wuzi-tune`.
    Fitted = 1,
}

impl SetName {
    /// Number of sets.
    pub const COUNT: usize = 2;
    /// Every set, in `SetName as u8` order.
    pub const ALL: [SetName; SetName::COUNT] = [SetName::Hand, SetName::Fitted];

    /// The set's name on the command line (`--eval`, `--from`) and in weight-file headers.
    pub fn name(self) -> &'static str {
        match self {
            SetName::Hand => "hand",
            SetName::Fitted => "fitted",
        }
    }

    /// The set's weights.
    pub fn weights(self) -> &'static EvalSet {
        match self {
            SetName::Hand => &hand::SET,
            SetName::Fitted => &fitted::SET,
        }
    }
}

impl std::str::FromStr for SetName {
    type Err = String;
    fn from_str(s: &str) -> Result<SetName, String> {
        SetName::ALL
            .into_iter()
            .find(|set| set.name() == s)
            .ok_or_else(|| format!("unknown evaluation set {s:?} (hand or fitted)"))
    }
}

static ACTIVE: AtomicU8 = AtomicU8::new(SetName::Hand as u8);

/// Play with `set` from now on: boards built after this call read its weights (boards
/// already built keep theirs).
pub fn select(set: SetName) {
    ACTIVE.store(set as u8, Ordering::Relaxed);
}

/// The set new boards read.
pub fn active() -> SetName {
    // `select` stores a `SetName as u8`, which indexes `ALL`.
    let stored = ACTIVE.load(Ordering::Relaxed) as usize;
    SetName::ALL.get(stored).copied().unwrap_or(SetName::Hand)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threat_bits_read_the_class_counts() {
        let mut own = [0u16; Pattern4::COUNT];
        let mut opp = [0u16; Pattern4::COUNT];
        assert_eq!(threat_mask(&own, &opp), 0);
        own[Pattern4::CBlock4Flex3 as usize] = 1;
        // A 4-3 point is also an open-three point or better (bit 2), not a four point.
        assert_eq!(threat_mask(&own, &opp), 1 | 1 << 2);
        own[Pattern4::DBlock4Plus as usize] = 2;
        opp[Pattern4::FFlex3x2 as usize] = 1;
        opp[Pattern4::AFive as usize] = 1;
        assert_eq!(
            threat_mask(&own, &opp),
            1 | 1 << 2 | 1 << 4 | 1 << 7 | 1 << 8 | 1 << 10
        );
        opp = [0; Pattern4::COUNT];
        opp[Pattern4::LFlex2 as usize] = 9;
        opp[Pattern4::BFlex4 as usize] = 1;
        assert_eq!(threat_mask(&opp, &own) >> 3 & 1, 1, "own open four");
        assert_eq!(threat_mask(&own, &opp) >> 5 & 1, 1, "opp open four");
    }

    #[test]
    fn set_names_parse_and_the_hand_set_is_the_default() {
        assert_eq!("fitted".parse::<SetName>(), Ok(SetName::Fitted));
        assert_eq!("hand".parse::<SetName>(), Ok(SetName::Hand));
        assert!("other".parse::<SetName>().is_err());
        for set in SetName::ALL {
            assert_eq!(set.name().parse::<SetName>(), Ok(set));
        }
        assert!(!SetName::Hand.weights().has_class_terms());
    }
}
