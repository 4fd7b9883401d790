//! Zobrist keys: two independent random tables whose XOR sums identify a position.
//!
//! The `hash` word places a position in the transposition table; the `check` word is
//! compared on every probe, so two positions whose hash words collide are told apart
//! instead of one borrowing the other's score (seed 003's composite key, seed 000's checksum).
//!
//! Both tables come from one fixed seed, [`ZOBRIST_SEED`], through `rand`'s `StdRng`. Changing
//! the seed (or the `rand` version, whose `StdRng` stream is not promised stable) changes every
//! key, the frozen keys in `tests/fixtures/reference_keys.txt`, and the bench's node counts.

use crate::types::{Color, Pos, NUM_CELLS};
use rand::{rngs::StdRng, RngCore, SeedableRng};
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// The one seed both tables are drawn from ("WUZI" in ASCII, then a version digit).
pub const ZOBRIST_SEED: u64 = 0x5755_5A49_0000_0001;

/// A position's identity: `hash` chooses the table slot, `check` confirms the match.
///
/// `Hash` feeds only the hash word; `Eq` compares both words. Two keys with the same hash
/// word and different check words therefore land in the same place yet are distinct keys.
#[derive(Clone, Copy, Debug, Default)]
pub struct MultiKey {
    /// Slot word.
    pub hash: u64,
    /// Checksum word, independent of `hash`.
    pub check: u64,
}

impl PartialEq for MultiKey {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.check == other.check
    }
}

impl Eq for MultiKey {}

impl Hash for MultiKey {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl MultiKey {
    /// XOR another key into this one (both words).
    #[inline]
    pub fn toggle(&mut self, other: MultiKey) {
        self.hash ^= other.hash;
        self.check ^= other.check;
    }

    /// This key XOR `other`, as a new key.
    #[inline]
    pub fn with(self, other: MultiKey) -> MultiKey {
        MultiKey {
            hash: self.hash ^ other.hash,
            check: self.check ^ other.check,
        }
    }
}

/// The random tables: one key pair per cell and colour, plus the side-to-move pair.
pub struct ZobristTables {
    stones: Box<[[MultiKey; 2]]>,
    side: MultiKey,
}

impl ZobristTables {
    fn generate(seed: u64) -> ZobristTables {
        let mut rng = StdRng::seed_from_u64(seed);
        // The hash table is drawn first, then the checksum table, so the two words of a
        // key come from far-apart parts of the stream and are independent.
        let mut hash = vec![[0u64; 2]; NUM_CELLS];
        for cell in hash.iter_mut() {
            cell[0] = rng.next_u64();
            cell[1] = rng.next_u64();
        }
        let side_hash = rng.next_u64();
        let mut check = vec![[0u64; 2]; NUM_CELLS];
        for cell in check.iter_mut() {
            cell[0] = rng.next_u64();
            cell[1] = rng.next_u64();
        }
        let side_check = rng.next_u64();
        let stones = hash
            .iter()
            .zip(&check)
            .map(|(h, c)| {
                [
                    MultiKey {
                        hash: h[0],
                        check: c[0],
                    },
                    MultiKey {
                        hash: h[1],
                        check: c[1],
                    },
                ]
            })
            .collect();
        ZobristTables {
            stones,
            side: MultiKey {
                hash: side_hash,
                check: side_check,
            },
        }
    }

    /// The key pair of `color`'s stone on `pos`.
    #[inline]
    pub fn stone(&self, pos: Pos, color: Color) -> MultiKey {
        self.stones[pos.index()][color.idx()]
    }

    /// XORed in while white is to move.
    #[inline]
    pub fn side(&self) -> MultiKey {
        self.side
    }
}

/// The process-wide tables, generated on first use from [`ZOBRIST_SEED`].
pub fn tables() -> &'static ZobristTables {
    static TABLES: OnceLock<ZobristTables> = OnceLock::new();
    TABLES.get_or_init(|| ZobristTables::generate(ZOBRIST_SEED))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    #[test]
    fn hash_feeds_only_the_hash_word() {
        let a = MultiKey { hash: 7, check: 1 };
        let b = MultiKey { hash: 7, check: 2 };
        let h = |k: &MultiKey| {
            let mut s = DefaultHasher::new();
            k.hash(&mut s);
            s.finish()
        };
        assert_eq!(h(&a), h(&b));
        assert_ne!(a, b);
        assert_eq!(a, MultiKey { hash: 7, check: 1 });
    }

    #[test]
    fn tables_are_deterministic_and_distinct() {
        let t1 = ZobristTables::generate(ZOBRIST_SEED);
        let t2 = tables();
        let p = Pos::new(3, 4);
        assert_eq!(t1.stone(p, Color::Black), t2.stone(p, Color::Black));
        assert_ne!(t2.stone(p, Color::Black), t2.stone(p, Color::White));
        assert_ne!(
            t2.stone(p, Color::Black).hash,
            t2.stone(p, Color::Black).check
        );
    }
}
