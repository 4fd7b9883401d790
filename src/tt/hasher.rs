//! The hash hashbrown sees: the key's hash word, mixed (or not), with a narrowed tag.
//!
//! hashbrown places an entry by the low bits of its hash and filters candidates by a
//! 7-bit tag taken from the top bits. This table narrows that tag to a few bits (by
//! default `DEFAULT_TAG_BITS`), so that a fixed share of the full slots in a key's probe
//! window share its tag. Those
//! slots are exactly what `HashTable::iter_hash_mut` yields for the key, and any of them
//! can take the key in place (a later `find` visits the same slots in the same order): this
//! is what lets a full table replace entries without removing anything, so it never
//! leaves tombstones and never rehashes or grows. The price is a few more `eq` calls per
//! probe, on entries in the same few cache lines.

/// Tag bits kept by default (see the README's performance section for the measurement):
/// with `t` bits a full 16-slot group offers about 14 / 2^t same-tag replacement
/// candidates, and a probe reads about as many stray entries at that load.
pub const DEFAULT_TAG_BITS: u32 = 2;

/// Bits below hashbrown's 7-bit tag.
const LOW: u64 = (1 << 57) - 1;

/// Which function turns the hash word into hashbrown's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KeyHasher {
    /// The hash word as is: it is already uniformly random (Zobrist), so nothing is gained
    /// by mixing it again.
    #[default]
    PassThrough,
    /// `ahash` with fixed seeds, the general-purpose alternative it was measured against.
    AHash,
}

impl KeyHasher {
    /// Both choices, for benches and measurements.
    pub const ALL: [KeyHasher; 2] = [KeyHasher::PassThrough, KeyHasher::AHash];

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            KeyHasher::PassThrough => "pass-through",
            KeyHasher::AHash => "ahash",
        }
    }
}

/// A `KeyHasher` with its state.
#[derive(Clone)]
pub(crate) struct Mixer {
    kind: KeyHasher,
    ahash: ahash::RandomState,
    /// The tag bits kept, in place (bits 57..57 + t).
    tag_mask: u64,
}

impl Mixer {
    /// Fixed seeds keep ahash runs reproducible (the bench's node counts stay put).
    /// `tag_bits` is clamped to hashbrown's 7 tag bits.
    pub fn new(kind: KeyHasher, tag_bits: u32) -> Mixer {
        Mixer {
            kind,
            tag_mask: ((1u64 << tag_bits.min(7)) - 1) << 57,
            ahash: ahash::RandomState::with_seeds(
                0x5755_5A49_0000_0001,
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
            ),
        }
    }

    /// Which function this is.
    pub fn kind(&self) -> KeyHasher {
        self.kind
    }

    /// How many tag bits are kept.
    pub fn tag_bits(&self) -> u32 {
        (self.tag_mask >> 57).count_ones()
    }

    /// hashbrown's hash for a key whose hash word is `word`.
    #[inline]
    pub fn hash(&self, word: u64) -> u64 {
        let h = match self.kind {
            KeyHasher::PassThrough => word,
            KeyHasher::AHash => self.ahash.hash_one(word),
        };
        h & (LOW | self.tag_mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_is_narrowed_and_low_bits_kept() {
        let m = Mixer::new(KeyHasher::PassThrough, 2);
        let w = 0xFFFF_0000_1234_5678;
        let h = m.hash(w);
        assert_eq!(h, 0x07FF_0000_1234_5678);
        assert_eq!(m.tag_bits(), 2);
        assert_eq!(Mixer::new(KeyHasher::PassThrough, 7).hash(w), w);
        assert_eq!(Mixer::new(KeyHasher::PassThrough, 9).tag_bits(), 7);
        let a = Mixer::new(KeyHasher::AHash, 3);
        assert_eq!(a.hash(w), Mixer::new(KeyHasher::AHash, 3).hash(w));
        // Narrowing keeps the low bits and the lowest tag bits of the full hash.
        assert_eq!(
            a.hash(w),
            Mixer::new(KeyHasher::AHash, 7).hash(w) & 0x0FFF_FFFF_FFFF_FFFF
        );
        assert_ne!(a.hash(w), Mixer::new(KeyHasher::PassThrough, 3).hash(w));
        assert!(a.hash(w) >> 57 < 1 << 3);
    }
}
