//! The packed table entry: both key words plus the node squeezed into eight bytes.
//!
//! Both words are kept in full because `MultiKey`'s equality compares both: the table
//! cannot rebuild any part of them from where an entry sits, since hashbrown moves
//! entries along its probe sequence. The node fields fit the search's ranges (scores stay
//! within ±`INF` = 32 000, depths within an i16), so the whole entry is 24 bytes.

use super::node::{BoardNode, Bound};
use crate::board::MultiKey;
use crate::types::{Pos, Score};

/// Generations are six bits wide (they share a byte with the bound).
pub(crate) const GENERATIONS: u8 = 64;

/// One table entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    /// The position's hash word.
    pub hash: u64,
    /// The position's check word.
    pub check: u64,
    score: i16,
    best_move: u16,
    depth: i16,
    /// Bound in bits 0..2, generation in bits 2..8.
    meta: u8,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 24);

impl Slot {
    /// Pack `node` for `key`, written during search generation `generation`.
    #[inline]
    pub fn new(key: MultiKey, node: &BoardNode, generation: u8) -> Slot {
        Slot {
            hash: key.hash,
            check: key.check,
            score: node.score.clamp(i16::MIN as Score, i16::MAX as Score) as i16,
            best_move: node.best_move.0,
            depth: node.depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            meta: node.bound.code() | (generation % GENERATIONS) << 2,
        }
    }

    /// Whether this entry belongs to `key` (both words, as `MultiKey`'s `Eq`).
    #[inline]
    pub fn is(&self, key: MultiKey) -> bool {
        self.hash == key.hash && self.check == key.check
    }

    /// The stored node.
    #[inline]
    pub fn node(&self) -> BoardNode {
        BoardNode {
            score: self.score as Score,
            depth: self.depth as i32,
            best_move: Pos(self.best_move),
            bound: Bound::from_code(self.meta),
        }
    }

    /// Stored depth.
    #[inline]
    pub fn depth(&self) -> i32 {
        self.depth as i32
    }

    /// The search generation that last wrote or used this entry.
    #[inline]
    pub fn generation(&self) -> u8 {
        self.meta >> 2
    }

    /// How many searches ago this entry was last written or used (modulo 64).
    #[inline]
    pub fn age(&self, generation: u8) -> u8 {
        generation.wrapping_sub(self.generation()) % GENERATIONS
    }

    /// Mark the entry as used by the search of `generation`, so aging spares it.
    #[inline]
    pub fn touch(&mut self, generation: u8) {
        self.meta = (self.meta & 3) | (generation % GENERATIONS) << 2;
    }

    /// The stored move, for keeping it when a new store brings none.
    #[inline]
    pub fn best_move(&self) -> Pos {
        Pos(self.best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        let key = MultiKey { hash: 1, check: 2 };
        let node = BoardNode {
            score: -29_990,
            depth: 17,
            best_move: Pos::new(19, 19),
            bound: Bound::Upper,
        };
        let s = Slot::new(key, &node, 70);
        assert_eq!(s.node(), node);
        assert!(s.is(key));
        assert!(!s.is(MultiKey { hash: 1, check: 3 }));
        assert_eq!(s.generation(), 6);
        assert_eq!(s.age(8), 2);
        assert_eq!(s.age(5), 63);
        let mut t = s;
        t.touch(9);
        assert_eq!(t.generation(), 9);
        assert_eq!(t.node().bound, Bound::Upper);
    }

    #[test]
    fn clamps_out_of_range_fields() {
        let node = BoardNode {
            score: 99_999,
            depth: 99_999,
            best_move: Pos::NONE,
            bound: Bound::Lower,
        };
        let s = Slot::new(MultiKey::default(), &node, 0);
        assert_eq!(s.node().score, i16::MAX as i32);
        assert_eq!(s.depth(), i16::MAX as i32);
    }
}
