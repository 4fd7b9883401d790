//! `probe` and `store` in ns/op on a 64 MiB table at 1 %, 50 % and 100 % fill, for each
//! hasher and replacement policy.
//!
//! * `probe`: a stream of independent probes, half of stored keys and half of absent ones,
//!   in random order over the whole table, so nearly every probe misses the CPU caches.
//!   The CPU overlaps consecutive probes, so this is throughput.
//! * `probe_chain`: the same stream, but which key comes next depends on the previous
//!   probe's result, so probes cannot overlap: this is the latency of one cold probe.
//! * `store`: half updates of stored keys, half new keys. Below 100 % fill the new keys
//!   raise the fill; once it has risen by 1 % of the capacity the table is put back
//!   (untimed), so the figure holds for the nominal fill plus at most 1 %.

use criterion::measurement::WallTime;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion};
use std::time::{Duration, Instant};
use wuzi::tt::{BoardNode, Bound, KeyHasher, Policy, TranspositionTable};
use wuzi::{MultiKey, Pos};

const BYTES: usize = 64 << 20;
const STREAM: usize = 1 << 20;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn keys(seed: u64, n: usize) -> Vec<MultiKey> {
    let mut s = seed;
    (0..n)
        .map(|_| MultiKey {
            hash: splitmix(&mut s),
            check: splitmix(&mut s),
        })
        .collect()
}

/// A node derived from `r`: depth 0..12, score within ±200, all three bounds.
fn node(r: u64) -> BoardNode {
    BoardNode {
        score: (r % 401) as i32 - 200,
        depth: ((r >> 16) % 12) as i32,
        best_move: Pos::new(((r >> 24) % 20) as usize, ((r >> 32) % 20) as usize),
        bound: match (r >> 40) % 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

/// The machine's own memory figures for a 64 MiB buffer, to read the table's against: a
/// dependent pointer chase (latency of one random load) and independent random loads
/// (throughput when the CPU can overlap them).
fn memory(c: &mut Criterion) {
    let n = BYTES / 8;
    // One random cycle through all words (Sattolo), so the chase visits every line.
    let mut next: Vec<u64> = (0..n as u64).collect();
    let mut s = 5u64;
    for i in (1..n).rev() {
        let j = (splitmix(&mut s) % i as u64) as usize;
        next.swap(i, j);
    }
    let mut g = c.benchmark_group("memory_64MiB");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    let mut at = 0usize;
    g.bench_function("dependent_load", |b| {
        b.iter(|| {
            at = next[at] as usize;
            at
        })
    });
    let mut s = 9u64;
    g.bench_function("independent_load", |b| {
        b.iter(|| next[(splitmix(&mut s) % n as u64) as usize])
    });
    g.finish();
}

/// What the search does with a probe: the node, and whether it decides a depth-4 search
/// of the window (-100, 100).
#[inline]
fn probe_and_cut(table: &mut TranspositionTable, k: MultiKey) -> Option<i32> {
    table.probe(k, 0).and_then(|n| n.cutoff(4, -100, 100))
}

/// The hashers' own cost, without the memory system in the way: probes of a 256 KiB table
/// (cache resident) at 50 % fill, and the bare hash function.
fn hashers(c: &mut Criterion) {
    let mut g = c.benchmark_group("hasher");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    for hasher in KeyHasher::ALL {
        let mut table = TranspositionTable::with_config(256 << 10, Policy::default(), hasher);
        let n = table.capacity() / 2;
        let stored = keys(1, n);
        for (i, &k) in stored.iter().enumerate() {
            table.store(k, node(k.check ^ i as u64), 0);
        }
        let absent = keys(2, 4096);
        let probes: Vec<MultiKey> = (0..4096)
            .map(|i| if i % 2 == 0 { stored[i % n] } else { absent[i] })
            .collect();
        let mut i = 0;
        g.bench_function(format!("probe_256KiB_50%/{}", hasher.name()), |b| {
            b.iter(|| {
                let k = probes[i & 4095];
                i += 1;
                probe_and_cut(&mut table, k)
            })
        });
    }
    let ahash = ahash::RandomState::with_seeds(1, 2, 3, 4);
    let mut x = 0x1234_5678_9ABC_DEF0u64;
    g.bench_function("hash_only/ahash", |b| {
        b.iter(|| {
            x = ahash.hash_one(black_box(x));
            x
        })
    });
    g.finish();
}

/// Probe and store figures at 50 % and 100 % fill for each tag width (default policy and
/// hasher): the trade-off between stray entry reads and replacement candidates.
fn tags(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt_64MiB_tags");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    for tag_bits in [2, 3, 4, 7] {
        let empty = TranspositionTable::with_tag_bits(
            BYTES,
            Policy::default(),
            KeyHasher::default(),
            tag_bits,
        );
        let cap = empty.capacity();
        let stored_all = keys(1, cap + cap / 4);
        let absent = keys(2, STREAM);
        for fill in [50usize, 100] {
            let mut table = empty.clone();
            let stored = fill_to(&mut table, &stored_all, cap * fill / 100);
            let probes = probe_stream(stored, &absent);
            bench_probes(
                &mut g,
                format!("probe/tag{tag_bits}/{fill}%"),
                &mut table,
                &probes,
            );
        }
    }
    g.finish();
}

/// The probe stream of the 64 MiB groups: `STREAM` keys in random order, alternately a
/// stored one and an absent one.
fn probe_stream(stored: &[MultiKey], absent: &[MultiKey]) -> Vec<MultiKey> {
    let mut s = 7u64;
    (0..STREAM)
        .map(|i| {
            let r = splitmix(&mut s) as usize;
            if i % 2 == 0 {
                stored[r % stored.len()]
            } else {
                absent[r % STREAM]
            }
        })
        .collect()
}

/// Time independent probes of `probes`, in order, as benchmark `name` (throughput: the CPU
/// overlaps consecutive probes).
fn bench_probes(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: String,
    table: &mut TranspositionTable,
    probes: &[MultiKey],
) {
    let mut i = 0;
    g.bench_function(name, |b| {
        b.iter(|| {
            let k = probes[i & (STREAM - 1)];
            i += 1;
            probe_and_cut(table, k)
        })
    });
}

/// Store keys from `all` until `table` holds `target` entries; the keys used. With more
/// than one shard the last entries of a full table take a few extra keys, since shards
/// fill at random rates.
fn fill_to<'a>(
    table: &mut TranspositionTable,
    all: &'a [MultiKey],
    target: usize,
) -> &'a [MultiKey] {
    let mut used = 0;
    while table.len() < target && used < all.len() {
        let k = all[used];
        table.store(k, node(k.check ^ used as u64), 0);
        used += 1;
    }
    assert_eq!(table.len(), target);
    &all[..used]
}

fn tt(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt_64MiB");
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    for hasher in KeyHasher::ALL {
        for policy in Policy::ALL {
            let empty = TranspositionTable::with_config(BYTES, policy, hasher);
            let cap = empty.capacity();
            let stored_all = keys(1, cap + cap / 4);
            let absent = keys(2, STREAM);
            let fresh = keys(3, STREAM);
            for fill in [1usize, 50, 100] {
                let mut table = empty.clone();
                let stored = fill_to(&mut table, &stored_all, cap * fill / 100);
                let n = stored.len();
                let snapshot = table.clone();
                let probes = probe_stream(stored, &absent);
                let name = format!("{}/{}/{}%", hasher.name(), policy.name(), fill);

                bench_probes(&mut g, format!("probe/{name}"), &mut table, &probes);

                let mut i = 0;
                g.bench_function(format!("probe_chain/{name}"), |b| {
                    b.iter(|| {
                        let k = probes[i & (STREAM - 1)];
                        let p = table.probe(k, 0);
                        let cut = p.and_then(|n| n.cutoff(4, -100, 100));
                        // The next index depends on this probe's result.
                        i += 1 + p.is_some() as usize;
                        black_box(cut);
                        black_box(p)
                    })
                });

                let mut s = 11u64;
                let writes: Vec<(MultiKey, BoardNode)> = (0..STREAM)
                    .map(|i| {
                        let r = splitmix(&mut s);
                        let k = if i % 2 == 0 {
                            stored[r as usize % n]
                        } else {
                            fresh[i]
                        };
                        (k, node(r))
                    })
                    .collect();
                let limit = (n + cap / 100).min(cap);
                let mut i = 0;
                g.bench_function(format!("store/{name}"), |b| {
                    b.iter_custom(|iters| {
                        let mut spent = Duration::ZERO;
                        let mut left = iters;
                        while left > 0 {
                            let chunk = left.min(4096);
                            let t = Instant::now();
                            for _ in 0..chunk {
                                let (k, v) = writes[i & (STREAM - 1)];
                                i += 1;
                                table.store(k, v, 0);
                            }
                            spent += t.elapsed();
                            left -= chunk;
                            if table.len() > limit {
                                // Back to the nominal fill; new keys must be new again.
                                table.clone_from(&snapshot);
                                i = 0;
                            }
                        }
                        spent
                    })
                });
                println!(
                    "{name}: capacity {cap}, {:.2} bytes/entry, {} bytes allocated, {}",
                    table.bytes_per_entry(),
                    table.allocated_bytes(),
                    table.stats().report()
                );
            }
        }
    }
    g.finish();
}

criterion_group!(benches, memory, hashers, tt, tags);
criterion_main!(benches);
