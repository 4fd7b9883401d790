//! Replacement policies: which entry a store may overwrite.
//!
//! A store meets either its own key (an update) or, in a full table, a few candidate
//! entries that share its probe window (see the module docs of `tt`); the policy decides
//! whether the new result is worth more than what it would displace.

use super::node::{BoardNode, Bound};
use super::slot::Slot;
use crate::types::ONE_PLY;

/// How many candidates a store in a full table weighs before choosing a victim. Four is
/// about what the first probe group offers at full load with 2 tag bits (see `hasher`).
pub(crate) const WAYS: usize = 4;

/// Depth one search generation of age is worth when choosing a victim (four plies).
const AGE_WEIGHT: i32 = 4 * ONE_PLY;

/// Which entries a store may overwrite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Depth-preferred with generation aging: an entry's worth is its depth minus
    /// `AGE_WEIGHT` plies per search since it was last written or used; a store evicts the
    /// least worthy candidate unless that one is still worth more than the new result.
    #[default]
    DepthAge,
    /// Depth-preferred without aging (seed 002's "deeper priority"): deep results from
    /// earlier moves are never displaced by shallower ones.
    Depth,
    /// Always replace: the newest result wins.
    Always,
}

impl Policy {
    /// All policies, for benches and measurements.
    pub const ALL: [Policy; 3] = [Policy::DepthAge, Policy::Depth, Policy::Always];

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Policy::DepthAge => "depth-age",
            Policy::Depth => "depth",
            Policy::Always => "always",
        }
    }

    /// Whether `new` may overwrite `old`, the entry of the same key.
    #[inline]
    pub(crate) fn update(self, old: &Slot, new: &BoardNode, generation: u8) -> bool {
        match self {
            Policy::Always => true,
            Policy::Depth => new.depth >= old.depth(),
            // A slightly shallower result of the current search is still fresher than
            // the stored one; an exact score is always worth keeping.
            Policy::DepthAge => {
                new.bound == Bound::Exact
                    || new.depth + 2 * ONE_PLY >= old.depth()
                    || old.age(generation) > 0
            }
        }
    }

    /// How much a candidate is worth keeping; the victim is the least worthy.
    #[inline]
    pub(crate) fn worth(self, slot: &Slot, generation: u8) -> i32 {
        match self {
            Policy::Always => 0,
            Policy::Depth => slot.depth(),
            Policy::DepthAge => slot.depth() - AGE_WEIGHT * slot.age(generation) as i32,
        }
    }

    /// Whether `new` may evict a victim of worth `worth`.
    #[inline]
    pub(crate) fn evict(self, worth: i32, new: &BoardNode) -> bool {
        match self {
            Policy::Always => true,
            Policy::Depth | Policy::DepthAge => new.depth >= worth,
        }
    }
}
