//! Up to three hashbrown tables that share one byte budget.
//!
//! hashbrown tables come in power-of-two bucket counts, so one table can use as little as
//! half of a budget (350 MiB would get a 200 MiB table). Filling the rest with the next
//! smaller powers of two uses at least 7/8 of it. Each key belongs to one shard, chosen
//! with probability proportional to the shard's size from hash bits that hashbrown does not
//! use for placement (bits 24..56, below the tag and above any index of up to 2^24
//! buckets), so every shard fills at the same rate.

use super::hasher::Mixer;
use super::pages::PageAlloc;
use super::slot::Slot;
use hashbrown::HashTable;

/// One shard: a hashbrown table whose pages are mapped as it is allocated (`pages`).
type Table = HashTable<Slot, PageAlloc>;

/// Most shards: 1 + 1/2 + 1/4 of a budget's top power of two.
const MAX_SHARDS: usize = 3;

/// Fewest buckets worth allocating for the first shard; smaller budgets mean no table.
pub(crate) const MIN_BUCKETS: usize = 16;

/// Bytes hashbrown allocates for `buckets` buckets of `Slot`: the entries (rounded up to
/// the control bytes' 16-byte alignment), one control byte per bucket, and one trailing
/// group of 16 control bytes. `None` if that overflows (a budget from `INFO max_memory`
/// can be anything).
pub(crate) fn allocation_for(buckets: usize) -> Option<usize> {
    control_offset(buckets)?
        .checked_add(buckets)?
        .checked_add(16)
}

/// Where the control bytes of a `buckets`-bucket table start in its allocation: after the
/// entries, rounded up to the control bytes' 16-byte alignment (hashbrown 0.15's layout).
fn control_offset(buckets: usize) -> Option<usize> {
    buckets
        .checked_mul(std::mem::size_of::<Slot>())?
        .checked_next_multiple_of(16)
}

/// The largest power-of-two bucket count whose allocation fits `bytes`, or 0.
pub(crate) fn buckets_for(bytes: usize) -> usize {
    let fits = |b: usize| allocation_for(b).is_some_and(|a| a <= bytes);
    if !fits(MIN_BUCKETS) {
        return 0;
    }
    let mut buckets = MIN_BUCKETS;
    while let Some(next) = buckets.checked_mul(2) {
        if !fits(next) {
            break;
        }
        buckets = next;
    }
    buckets
}

/// The shards and where each one's share of the 32-bit selector range ends.
#[derive(Default)]
pub(crate) struct Shards {
    tables: Vec<Table>,
    /// Cumulative bucket counts: shard `i` takes selectors below `ends[i]`.
    ends: [u64; MAX_SHARDS],
    /// Total buckets.
    total: u64,
    /// Each shard's control bytes' address (see `prefetch`).
    control: [usize; MAX_SHARDS],
}

impl Clone for Shards {
    fn clone(&self) -> Self {
        let mut shards = Shards {
            tables: self.tables.clone(),
            ends: self.ends,
            total: self.total,
            control: [0; MAX_SHARDS],
        };
        shards.locate();
        shards
    }

    /// Copies into the existing allocations when the shapes match (a derived `Clone` would
    /// allocate afresh).
    fn clone_from(&mut self, source: &Self) {
        self.tables.clone_from(&source.tables);
        self.ends = source.ends;
        self.total = source.total;
        self.locate();
    }
}

impl Shards {
    /// Shards whose allocations together fit `bytes`. If the system refuses a reservation,
    /// that shard is halved rather than the process aborted.
    pub fn allocate(bytes: usize, mixer: &Mixer) -> Shards {
        let mut shards = Shards::default();
        let mut left = bytes;
        let mut first = 0;
        while shards.tables.len() < MAX_SHARDS {
            let mut buckets = buckets_for(left);
            // A shard below 1/8 of the first is not worth a branch on every probe.
            if buckets < MIN_BUCKETS || buckets * 8 < first {
                break;
            }
            let mut table = Table::new_in(PageAlloc::default());
            while buckets >= MIN_BUCKETS
                && table
                    .try_reserve(buckets / 8 * 7, |s: &Slot| mixer.hash(s.hash))
                    .is_err()
            {
                buckets /= 2;
            }
            if buckets < MIN_BUCKETS || buckets * 8 < first {
                break;
            }
            first = first.max(buckets);
            left = left.saturating_sub(table.allocation_size());
            shards.total += buckets as u64;
            shards.ends[shards.tables.len()] = shards.total;
            shards.tables.push(table);
        }
        shards.locate();
        shards
    }

    /// Buckets of shard `i`.
    fn buckets(&self, i: usize) -> u64 {
        self.ends[i] - if i == 0 { 0 } else { self.ends[i - 1] }
    }

    /// Record where each shard's control bytes are: its allocator's block plus the
    /// entries' size. After anything that may allocate.
    fn locate(&mut self) {
        for i in 0..self.tables.len() {
            let block = self.tables[i].allocator().last_block();
            let offset = control_offset(self.buckets(i) as usize).unwrap_or(0);
            self.control[i] = block.wrapping_add(offset);
        }
    }

    /// Which shard holds keys of hashbrown hash `h`.
    #[inline]
    fn index(&self, h: u64) -> usize {
        let mut i = 0;
        if self.tables.len() > 1 {
            let x = (((h >> 24) & 0xFFFF_FFFF) * self.total) >> 32;
            while x >= self.ends[i] {
                i += 1;
            }
        }
        i
    }

    /// The shard that holds keys of hashbrown hash `h`.
    #[inline]
    pub fn pick(&mut self, h: u64) -> &mut Table {
        let i = self.index(h);
        &mut self.tables[i]
    }

    /// Ask the processor to start loading the cache lines a probe of hash `h` reads
    /// first: the control group at the key's home bucket and that bucket's entry.
    ///
    /// hashbrown keeps a key's first candidates in the 16 buckets from `h mod buckets`;
    /// its control bytes sit at that offset from the control array, and bucket `i`'s entry
    /// `i + 1` entries below the array (hashbrown 0.15's layout). The addresses are
    /// computed here because hashbrown gives out no pointer; if its layout ever changes,
    /// the hint fetches the wrong lines, which costs speed and never correctness (a
    /// prefetch reads nothing into the program and never faults).
    #[inline]
    pub fn prefetch(&self, h: u64) {
        if let Some((control, entry)) = self.home_lines(h) {
            prefetch_line(control);
            prefetch_line(entry);
        }
    }

    /// The addresses of hash `h`'s home control bytes and home entry (see `prefetch`);
    /// `None` without a table.
    #[inline]
    fn home_lines(&self, h: u64) -> Option<(usize, usize)> {
        if self.tables.is_empty() {
            return None;
        }
        let i = self.index(h);
        let home = (h & (self.buckets(i) - 1)) as usize;
        let control = self.control[i];
        let entry = control.wrapping_sub((home + 1) * std::mem::size_of::<Slot>());
        Some((control.wrapping_add(home), entry))
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.tables.iter().map(Table::len).sum()
    }

    /// Entries the shards hold without reserving (hashbrown's own count).
    pub fn capacity(&self) -> usize {
        self.tables.iter().map(Table::capacity).sum()
    }

    /// Bytes of all allocations.
    pub fn allocation_size(&self) -> usize {
        self.tables.iter().map(Table::allocation_size).sum()
    }

    /// Number of shards.
    pub fn count(&self) -> usize {
        self.tables.len()
    }

    /// Forget every entry, keeping the allocations.
    pub fn clear(&mut self) {
        self.tables.iter_mut().for_each(Table::clear);
    }
}

/// Start loading the cache line at `addr` (a hint; nothing is read into the program).
/// The one `unsafe` here is the intrinsic's: prefetching a child's lines made the search
/// 16 % faster in games (README, Performance, "Prefetching a child's table entry").
#[inline(always)]
fn prefetch_line(addr: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults, whatever the address, and
    // reads nothing into the program.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(addr as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = addr;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::KeyHasher;

    #[test]
    fn sizing_fits_budget() {
        let min = allocation_for(16).unwrap_or(0);
        assert_eq!(min, 16 * 25 + 16);
        assert_eq!(buckets_for(0), 0);
        assert_eq!(buckets_for(min - 1), 0);
        assert_eq!(buckets_for(min), 16);
        assert_eq!(buckets_for(64 << 20), 1 << 21);
        // Absurd budgets size without overflow: the largest fitting power of two.
        let huge = buckets_for(usize::MAX);
        assert!(huge.is_power_of_two());
        assert!(allocation_for(huge * 2).is_none());
    }

    #[test]
    fn shards_fill_the_budget() {
        let mixer = Mixer::new(KeyHasher::PassThrough, 2);
        let s = Shards::allocate(350 << 20, &mixer);
        // 200 + 100 MiB; the third would need 50 MiB + 48 bytes, so it is 25 MiB.
        assert_eq!(s.count(), 3);
        assert_eq!(s.total, (1 << 23) + (1 << 22) + (1 << 20));
        assert!(s.allocation_size() <= 350 << 20);
        assert!(s.allocation_size() * 8 > (350 << 20) * 7);
        let one = Shards::allocate(1000, &mixer);
        assert_eq!((one.count(), one.capacity()), (1, 28));
        assert_eq!(Shards::allocate(0, &mixer).count(), 0);
    }

    #[test]
    fn keys_spread_in_proportion() {
        let mixer = Mixer::new(KeyHasher::PassThrough, 2);
        // 1 MiB: 2^15 + 2^13 buckets.
        let mut s = Shards::allocate(1 << 20, &mixer);
        assert_eq!(s.count(), 2);
        let mut hits = [0usize; 2];
        let mut x = 1u64;
        for _ in 0..100_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let h = mixer.hash(x);
            let t: *const Table = s.pick(h);
            hits[usize::from(!std::ptr::eq(t, &s.tables[0]))] += 1;
        }
        // Expected 80 % / 20 %.
        assert!((79_000..81_000).contains(&hits[0]), "{hits:?}");
    }

    /// Where `home_lines` says a key's home entry is, and where hashbrown put it: in a
    /// table at low load nearly every key lands in its home bucket, and every key in the
    /// 16 buckets from it. So the prefetch reads the lines hashbrown's probes read, in the
    /// shards of a fresh table and of its clone (whose allocations differ).
    #[test]
    fn home_lines_follow_hashbrowns_layout() {
        use crate::board::MultiKey;
        use crate::tt::{BoardNode, Bound};
        use crate::types::Pos;
        let node = BoardNode {
            score: 0,
            depth: 0,
            best_move: Pos::NONE,
            bound: Bound::Exact,
        };
        let mixer = Mixer::new(KeyHasher::PassThrough, 2);
        // 4 MiB: 2^17 + 2^15 buckets.
        let mut s = Shards::allocate(4 << 20, &mixer);
        assert_eq!(s.count(), 2);
        let mut keys = Vec::new();
        let mut x = 7u64;
        for _ in 0..3000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let key = MultiKey { hash: x, check: !x };
            let h = mixer.hash(key.hash);
            let slot = Slot::new(key, &node, 0);
            s.pick(h)
                .insert_unique(h, slot, |e: &Slot| mixer.hash(e.hash));
            keys.push((key, h));
        }
        let width = 16 * std::mem::size_of::<Slot>();
        for shards in [&mut s.clone(), &mut s] {
            let mut at_home = 0;
            for &(key, h) in &keys {
                let (_, entry) = shards.home_lines(h).expect("a table");
                let found = shards.pick(h).find(h, |e| e.is(key)).expect("stored");
                let addr = found as *const Slot as usize;
                assert!(
                    addr <= entry && entry - addr < width,
                    "{addr:x} vs {entry:x}"
                );
                at_home += usize::from(addr == entry);
            }
            assert!(at_home * 10 > keys.len() * 9, "{at_home} of {}", keys.len());
        }
    }
}
