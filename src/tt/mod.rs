//! Transposition table: a fixed-size `hashbrown` map from a position's `MultiKey` to the
//! search result stored for it.
//!
//! # Design
//!
//! The map is a `hashbrown::HashTable<Slot>` driven with explicit hashes rather than a
//! `HashMap<MultiKey, BoardNode>`, for three reasons:
//!
//! * **Collisions are countable.** `MultiKey`'s `Hash` feeds only the hash word, its `Eq`
//!   compares both words. A probe here calls `find` with an equality closure that first
//!   compares the hash word and then the check word; every candidate whose hash word
//!   matches while the check word differs is a collision caught, and is counted. A plain
//!   `HashMap` hides its `eq` calls.
//! * **The table never grows.** It is allocated once, as up to three hashbrown tables
//!   (shards) whose allocations together fit the byte budget. Stores insert only while
//!   hashbrown still has room without reserving (`len() < capacity()`). Once full, a store overwrites an entry in
//!   place; nothing is ever removed, so there are no tombstones and hashbrown never
//!   rehashes, grows or reallocates.
//! * **In-place replacement is sound.** `iter_hash_mut(h)` yields exactly the slots a
//!   later `find(h, ..)` tests, in the same order, so a new key may take any of them. The
//!   hash given to hashbrown keeps only a few bits of hashbrown's 7-bit tag
//!   ([`DEFAULT_TAG_BITS`], see `hasher`), so a full table offers a few such slots per
//!   key: a small set-associative neighbourhood in which the `Policy` picks the victim.
//!
//! # Memory
//!
//! An entry (`Slot`) is 24 bytes: both key words (needed in full, since entries move
//! along hashbrown's probe sequence and equality compares both words) plus the node
//! packed into 8 bytes (i16 score, i16 depth, u16 move, bound and 6-bit generation in one
//! byte, one byte spare). hashbrown adds one control byte per bucket (and 16 trailing
//! ones) and fills at most 7/8 of its buckets, so a usable entry costs 25 × 8/7 ≈ 28.6
//! bytes. hashbrown's power-of-two bucket counts would leave up to half a budget unused,
//! so the budget is split into up to three shards (see `shards`), which use more than 7/8
//! of any budget of a MiB or more ([`TranspositionTable::allocated_bytes`] says how much).
//! On Linux the shards' pages are mapped by a helper thread as they are allocated, not by
//! the first searches' stores (`pages`). Before a move is played, the search asks for the
//! child's lines to be loaded ([`TranspositionTable::prefetch`]), so that most probes find
//! them in the cache.

mod hasher;
mod node;
mod pages;
mod policy;
mod shards;
mod slot;
mod stats;

pub use hasher::{KeyHasher, DEFAULT_TAG_BITS};
pub use node::{BoardNode, Bound};
pub use policy::Policy;
pub use stats::TtStats;

use crate::board::MultiKey;
use crate::types::{Depth, Pos, Score, ONE_PLY, WIN, WIN_BOUND};
use hasher::Mixer;
use policy::WAYS;
use shards::Shards;
use slot::{Slot, GENERATIONS};

/// The transposition table.
pub struct TranspositionTable {
    shards: Shards,
    /// Usable entries (7/8 of the buckets); 0 means no table.
    capacity: usize,
    budget: usize,
    mixer: Mixer,
    policy: Policy,
    generation: u8,
    stats: TtStats,
    /// Compare the check word too (off = hash word only, the `--no-checksum` ablation).
    checksum: bool,
}

/// Depth at which threat proofs are stored: deeper than any search asks for, so a proof
/// is never searched again (in the table's units, see `recall_proof`).
const PROVEN: Depth = 120 * ONE_PLY;

/// Store a root-relative score as node-relative (mate distances from the node).
#[inline]
fn to_node(score: Score, ply: i32) -> Score {
    if score >= WIN_BOUND {
        score + ply
    } else if score <= -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// Inverse of `to_node`: a stored score seen from `ply` plies below the root.
#[inline]
fn to_root(score: Score, ply: i32) -> Score {
    if score >= WIN_BOUND {
        score - ply
    } else if score <= -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// What the threat memo knows of a position (see [`TranspositionTable::recall_proof`]).
pub type Proof = Option<(Pos, i32)>;

impl Clone for TranspositionTable {
    fn clone(&self) -> Self {
        TranspositionTable {
            shards: self.shards.clone(),
            capacity: self.capacity,
            budget: self.budget,
            mixer: self.mixer.clone(),
            policy: self.policy,
            generation: self.generation,
            stats: self.stats,
            checksum: self.checksum,
        }
    }

    /// Reuses this table's allocation when the sizes match (one `memcpy`), which is how the
    /// benches put a filled table back without refilling it.
    fn clone_from(&mut self, source: &Self) {
        self.shards.clone_from(&source.shards);
        self.capacity = source.capacity;
        self.budget = source.budget;
        self.mixer = source.mixer.clone();
        self.policy = source.policy;
        self.generation = source.generation;
        self.stats = source.stats;
        self.checksum = source.checksum;
    }
}

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable::with_bytes(0)
    }
}

impl TranspositionTable {
    /// A table that never uses more than `bytes` (0 = no table: probes miss, stores are
    /// dropped), with the measured defaults: `Policy::DepthAge`, `KeyHasher::PassThrough`.
    pub fn with_bytes(bytes: usize) -> TranspositionTable {
        TranspositionTable::with_config(bytes, Policy::default(), KeyHasher::default())
    }

    /// A table with an explicit replacement policy and hasher (for benches and
    /// measurements). Allocation is one `malloc` per shard plus writing the control bytes
    /// (1/25 of the table); the entry pages are only touched when stores reach them.
    pub fn with_config(bytes: usize, policy: Policy, hasher: KeyHasher) -> TranspositionTable {
        TranspositionTable::with_tag_bits(bytes, policy, hasher, DEFAULT_TAG_BITS)
    }

    /// As `with_config`, keeping `tag_bits` (1..=7) of hashbrown's tag: fewer bits give a
    /// full table more replacement candidates per key, more bits make probes read fewer
    /// stray entries. For measuring that trade-off.
    pub fn with_tag_bits(
        bytes: usize,
        policy: Policy,
        hasher: KeyHasher,
        tag_bits: u32,
    ) -> TranspositionTable {
        let mixer = Mixer::new(hasher, tag_bits);
        let shards = Shards::allocate(bytes, &mixer);
        TranspositionTable {
            capacity: shards.capacity(),
            shards,
            budget: bytes,
            mixer,
            policy,
            generation: 0,
            stats: TtStats::default(),
            checksum: true,
        }
    }

    /// Whether probes compare the check word as well as the hash word (the default). Off,
    /// the table knows positions by their hash word alone: an ablation that shows what the
    /// second word catches. Set it before the first store.
    pub fn set_checksum(&mut self, on: bool) {
        self.checksum = on;
    }

    /// Whether probes compare the check word.
    pub fn checksum(&self) -> bool {
        self.checksum
    }

    /// The key as this table tells positions apart.
    #[inline]
    fn identity(&self, mut key: MultiKey) -> MultiKey {
        if !self.checksum {
            key.check = 0;
        }
        key
    }

    /// The node stored for `key`, looked up `ply` plies below the root, with its score
    /// seen from the root (mate distances converted here and nowhere else). Whether the
    /// node ends the search is the caller's decision ([`BoardNode::cutoff`]); a caller
    /// that takes a cutoff says so with [`TranspositionTable::count_cutoff`]. A disabled
    /// table (no capacity) answers `None` and counts nothing.
    #[inline]
    pub fn probe(&mut self, key: MultiKey, ply: i32) -> Option<BoardNode> {
        let node = self.find(key)?;
        Some(BoardNode {
            score: to_root(node.score, ply),
            ..node
        })
    }

    /// Count a probe whose node decided the window (the `cutoffs` counter).
    #[inline]
    pub fn count_cutoff(&mut self) {
        self.stats.cutoffs += 1;
    }

    /// Start loading the memory a probe or store of `key` will read (call it a little
    /// before either, e.g. before playing the move that leads to `key`).
    #[inline]
    pub fn prefetch(&self, key: MultiKey) {
        self.shards.prefetch(self.mixer.hash(key.hash));
    }

    /// The stored node for `key` as stored (node-relative), counting the probe.
    #[inline]
    fn find(&mut self, key: MultiKey) -> Option<BoardNode> {
        if self.capacity == 0 {
            return None;
        }
        self.stats.probes += 1;
        let key = self.identity(key);
        let h = self.mixer.hash(key.hash);
        let mut collisions = 0;
        let found = self.shards.pick(h).find_mut(h, |s| {
            if s.hash != key.hash {
                return false;
            }
            if s.check == key.check {
                return true;
            }
            collisions += 1;
            false
        });
        self.stats.collisions += collisions;
        let slot = found?;
        if slot.generation() != self.generation {
            slot.touch(self.generation);
        }
        self.stats.hits += 1;
        Some(slot.node())
    }

    /// What the threat memo knows of `key` for a threat search `depth` deep: `None` if
    /// nothing usable, `Some(Some((move, plies)))` for a proven win `plies` to the five,
    /// `Some(None)` for a failure at least that deep.
    ///
    /// A threat search's depth (fours or attacker moves) is kept in `ONE_PLY` units, as the
    /// alpha-beta's plies are, so the replacement policy's slack and age weigh both alike.
    pub fn recall_proof(&mut self, key: MultiKey, depth: Depth) -> Option<Proof> {
        let node = self.find(key)?;
        // A proof (exact, at PROVEN) or a failure (upper bound 0) as deep as asked.
        let score = node.cutoff(depth * ONE_PLY, 0, 1)?;
        self.count_cutoff();
        Some((score >= WIN_BOUND).then(|| (node.best_move, WIN - score)))
    }

    /// Remember a threat search of `key` to `depth`: a win by `result`'s move in its number
    /// of plies (kept for good), or a failure (`None`, reusable only as deep).
    pub fn store_proof(&mut self, key: MultiKey, depth: Depth, result: Proof) {
        let node = match result {
            Some((best_move, dist)) => BoardNode {
                score: WIN - dist,
                depth: PROVEN,
                best_move,
                bound: Bound::Exact,
            },
            None => BoardNode {
                score: 0,
                depth: depth * ONE_PLY,
                best_move: Pos::NONE,
                bound: Bound::Upper,
            },
        };
        self.put(key, node);
    }

    /// Store the search result `node` (score seen from the root) for `key`, reached `ply`
    /// plies below the root, as the replacement policy allows. A new result without a
    /// move keeps the move stored before for the same key.
    pub fn store(&mut self, key: MultiKey, node: BoardNode, ply: i32) {
        self.put(
            key,
            BoardNode {
                score: to_node(node.score, ply),
                ..node
            },
        );
    }

    /// Store `node` as it is (node-relative) for `key`.
    fn put(&mut self, key: MultiKey, node: BoardNode) {
        if self.capacity == 0 {
            return;
        }
        self.stats.stores += 1;
        let key = self.identity(key);
        let h = self.mixer.hash(key.hash);
        let generation = self.generation;
        let policy = self.policy;
        // Room without reserving: inserting can then never rehash or reallocate.
        let table = self.shards.pick(h);
        let room = table.len() < table.capacity();
        let mut fresh = Slot::new(key, &node, generation);
        let mut victim: Option<&mut Slot> = None;
        let mut victim_worth = i32::MAX;
        let mut weighed = 0;
        for slot in table.iter_hash_mut(h) {
            if slot.is(key) {
                if policy.update(slot, &node, generation) {
                    if !node.best_move.is_some() {
                        fresh = Slot::new(
                            key,
                            &BoardNode {
                                best_move: slot.best_move(),
                                ..node
                            },
                            generation,
                        );
                    }
                    *slot = fresh;
                } else {
                    self.stats.rejected += 1;
                }
                return;
            }
            if !room && weighed < WAYS {
                weighed += 1;
                let worth = policy.worth(slot, generation);
                if worth < victim_worth {
                    victim_worth = worth;
                    victim = Some(slot);
                }
            }
        }
        if room {
            let mixer = &self.mixer;
            table.insert_unique(h, fresh, |s| mixer.hash(s.hash));
            return;
        }
        match victim {
            Some(v) if policy.evict(victim_worth, &node) => {
                *v = fresh;
                self.stats.replacements += 1;
            }
            _ => self.stats.rejected += 1,
        }
    }

    /// Age entries: a new move's search begins. Entries neither written nor used since
    /// count as one search older for `Policy::DepthAge`.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    /// Forget every entry, keeping the allocation (statistics stay).
    pub fn clear(&mut self) {
        self.shards.clear();
    }

    /// The counters.
    pub fn stats(&self) -> &TtStats {
        &self.stats
    }

    /// Zero the counters.
    pub fn reset_stats(&mut self) {
        self.stats.reset();
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// Whether no entry is stored.
    pub fn is_empty(&self) -> bool {
        self.shards.len() == 0
    }

    /// Most entries the table will ever hold (0 = no table).
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes of the one allocation (entries plus hashbrown's control bytes); never changes
    /// after construction and never exceeds the budget.
    pub fn allocated_bytes(&self) -> usize {
        self.shards.allocation_size()
    }

    /// The byte budget the table was built for.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Allocated bytes per usable entry (what one stored position really costs).
    pub fn bytes_per_entry(&self) -> f64 {
        if self.capacity == 0 {
            0.0
        } else {
            self.allocated_bytes() as f64 / self.capacity as f64
        }
    }

    /// How many hashbrown tables share the budget (see `shards`).
    pub fn shards(&self) -> usize {
        self.shards.count()
    }

    /// The replacement policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The hasher.
    pub fn hasher(&self) -> KeyHasher {
        self.mixer.kind()
    }

    /// Tag bits kept (see `with_tag_bits`).
    pub fn tag_bits(&self) -> u32 {
        self.mixer.tag_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_kept_and_mostly_used() {
        for bytes in [0, 1000, 4096, 1 << 20, 3 << 20, 5 << 20] {
            let t = TranspositionTable::with_bytes(bytes);
            assert!(t.allocated_bytes() <= bytes, "{bytes}");
            if bytes >= 1 << 20 {
                assert!(t.allocated_bytes() * 8 > bytes * 7, "{bytes}");
            }
            assert_eq!(t.capacity(), t.shards.capacity());
            assert_eq!(t.capacity() == 0, bytes < 416);
        }
    }
}
