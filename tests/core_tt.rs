//! Transposition-table behaviour: key identity, bound semantics, replacement, capacity.

use wuzi::tt::{BoardNode, Bound, KeyHasher, Policy, TranspositionTable};
use wuzi::types::ONE_PLY;
use wuzi::{MultiKey, Pos};

/// What a search sees of one probe: the stored node, and the score it lets a search of
/// `depth` with window `(alpha, beta)` return at once (counted as a cutoff, as the search
/// counts the ones it takes). Probed at the root, so scores are as stored.
#[derive(Debug, Default, PartialEq)]
struct Probe {
    node: Option<BoardNode>,
    cutoff: Option<i32>,
}

fn probe(tt: &mut TranspositionTable, key: MultiKey, depth: i32, alpha: i32, beta: i32) -> Probe {
    let node = tt.probe(key, 0);
    let cutoff = node.and_then(|n| n.cutoff(depth, alpha, beta));
    if cutoff.is_some() {
        tt.count_cutoff();
    }
    Probe { node, cutoff }
}

fn node(score: i32, depth: i32, mv: Pos, bound: Bound) -> BoardNode {
    BoardNode {
        score,
        depth,
        best_move: mv,
        bound,
    }
}

/// A hash word whose hashbrown tag bits (57..59 under pass-through) are `tag`.
fn word(low: u64, tag: u64) -> u64 {
    (tag << 57) | low
}

#[test]
fn equal_hash_words_with_different_checks_are_distinct() {
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    let a = MultiKey {
        hash: 0x1234_5678_9abc_def0,
        check: 1,
    };
    let b = MultiKey {
        hash: a.hash,
        check: 2,
    };
    let na = node(111, 4, Pos::new(3, 3), Bound::Exact);
    let nb = node(-222, 6, Pos::new(7, 7), Bound::Lower);

    tt.store(a, na, 0);
    // b shares a's hash word: it must miss, and the meeting with a is a caught collision.
    let p = probe(&mut tt, b, 0, -1000, 1000);
    assert_eq!(p.node, None);
    assert_eq!(p.cutoff, None);
    assert_eq!(tt.stats().collisions, 1);
    assert_eq!(tt.stats().hits, 0);

    tt.store(b, nb, 0);
    assert_eq!(tt.len(), 2);
    assert_eq!(probe(&mut tt, a, 0, -1000, 1000).node, Some(na));
    assert_eq!(probe(&mut tt, b, 0, -1000, 1000).node, Some(nb));
    let s = *tt.stats();
    assert_eq!((s.probes, s.hits, s.stores, s.replacements), (3, 2, 2, 0));
    // Of a and b, whichever comes first in their shared probe order is met (and rejected
    // on its check word) by the probe for the other: one more collision in all.
    assert_eq!(s.collisions, 2, "{s:?}");

    // A third key with the same hash word misses and meets both stored keys.
    let c = MultiKey {
        hash: a.hash,
        check: 3,
    };
    let before = tt.stats().collisions;
    assert_eq!(probe(&mut tt, c, 0, -1000, 1000).node, None);
    assert_eq!(tt.stats().collisions, before + 2);
}

#[test]
fn bounds_decide_cutoffs() {
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    let k = |i: u64| MultiKey {
        hash: i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        check: i,
    };
    let mv = Pos::new(5, 6);
    tt.store(k(1), node(50, 5, mv, Bound::Exact), 0);
    tt.store(k(2), node(50, 5, mv, Bound::Lower), 0);
    tt.store(k(3), node(50, 5, mv, Bound::Upper), 0);

    // Exact: any window, any depth up to the stored one.
    assert_eq!(probe(&mut tt, k(1), 5, -100, 100).cutoff, Some(50));
    assert_eq!(probe(&mut tt, k(1), 3, 60, 70).cutoff, Some(50));
    // Lower bound: only when it reaches beta.
    assert_eq!(probe(&mut tt, k(2), 5, 0, 50).cutoff, Some(50));
    assert_eq!(probe(&mut tt, k(2), 5, 0, 40).cutoff, Some(50));
    assert_eq!(probe(&mut tt, k(2), 5, 0, 51).cutoff, None);
    // Upper bound: only when it is at most alpha.
    assert_eq!(probe(&mut tt, k(3), 5, 50, 100).cutoff, Some(50));
    assert_eq!(probe(&mut tt, k(3), 5, 60, 100).cutoff, Some(50));
    assert_eq!(probe(&mut tt, k(3), 5, 49, 100).cutoff, None);

    // Shallower entries never cut, but still hand back their node for the move.
    for i in 1..=3 {
        let p = probe(&mut tt, k(i), 6, -100, 100);
        assert_eq!(p.cutoff, None);
        assert_eq!(p.node.map(|n| n.best_move), Some(mv));
        assert_eq!(p.node.map(|n| n.depth), Some(5));
    }
    let p = probe(&mut tt, k(2), 6, 0, 10);
    assert_eq!(p.cutoff, None);
    assert_eq!(p.node.map(|n| n.bound), Some(Bound::Lower));

    let s = *tt.stats();
    assert_eq!(s.probes, 12);
    assert_eq!(s.hits, 12);
    assert_eq!(s.cutoffs, 6);
    assert_eq!(probe(&mut tt, k(4), 0, -100, 100), Default::default());
    assert_eq!(tt.stats().hits, 12);
}

#[test]
fn stores_keep_the_old_move_when_the_new_has_none() {
    let mut tt = TranspositionTable::with_bytes(1 << 16);
    let k = MultiKey { hash: 9, check: 9 };
    tt.store(k, node(10, 2, Pos::new(1, 2), Bound::Lower), 0);
    tt.store(k, node(20, 3, Pos::NONE, Bound::Exact), 0);
    assert_eq!(
        probe(&mut tt, k, 0, 0, 0).node,
        Some(node(20, 3, Pos::new(1, 2), Bound::Exact))
    );
    assert_eq!(tt.len(), 1);
}

#[test]
fn same_key_updates_follow_the_policy() {
    let k = MultiKey { hash: 5, check: 6 };
    // Depths in the search's units (quarter plies): 8 plies against 3.
    let deep = node(1, 8 * ONE_PLY, Pos::new(0, 0), Bound::Lower);
    let shallow = node(2, 3 * ONE_PLY, Pos::new(1, 1), Bound::Lower);
    let shallow_exact = node(3, 3 * ONE_PLY, Pos::new(2, 2), Bound::Exact);
    let stored = |policy, second: BoardNode, searches: usize| {
        let mut tt = TranspositionTable::with_config(1 << 16, policy, KeyHasher::PassThrough);
        tt.store(k, deep, 0);
        for _ in 0..searches {
            tt.new_search();
        }
        tt.store(k, second, 0);
        (probe(&mut tt, k, 0, 0, 0).node, tt.stats().rejected)
    };
    assert_eq!(stored(Policy::Always, shallow, 0), (Some(shallow), 0));
    assert_eq!(stored(Policy::Depth, shallow, 0), (Some(deep), 1));
    assert_eq!(stored(Policy::Depth, shallow, 3), (Some(deep), 1));
    assert_eq!(stored(Policy::DepthAge, shallow, 0), (Some(deep), 1));
    assert_eq!(
        stored(Policy::DepthAge, shallow_exact, 0),
        (Some(shallow_exact), 0)
    );
    assert_eq!(stored(Policy::DepthAge, shallow, 1), (Some(shallow), 0));
}

/// A 16-bucket table holds 14 entries, all in one probe group, so every key with the same
/// tag is a candidate for every other: the replacement rules show directly.
#[test]
fn full_table_replacement_by_policy_and_age() {
    let budget = 16 * 24 + 16 + 16;
    let deep_keys: Vec<MultiKey> = (0..14)
        .map(|i| MultiKey {
            hash: word(i, 0),
            check: 100 + i,
        })
        .collect();
    let newcomer = MultiKey {
        hash: word(77, 0),
        check: 777,
    };
    let other_tag = MultiKey {
        hash: word(78, 3),
        check: 778,
    };
    let shallow = node(5, 2 * ONE_PLY, Pos::new(4, 4), Bound::Exact);
    for policy in Policy::ALL {
        for searches in [0, 1, 2] {
            let mut tt = TranspositionTable::with_config(budget, policy, KeyHasher::PassThrough);
            assert_eq!(tt.capacity(), 14);
            for &k in &deep_keys {
                tt.store(k, node(0, 10 * ONE_PLY, Pos::new(1, 1), Bound::Exact), 0);
            }
            assert_eq!(tt.len(), 14);
            for _ in 0..searches {
                tt.new_search();
            }
            tt.store(newcomer, shallow, 0);
            // No stored key has tag 3, so this one finds no candidate at all.
            tt.store(other_tag, shallow, 0);
            let got = probe(&mut tt, newcomer, 0, 0, 0).node;
            let replaced = match policy {
                Policy::Always => true,
                Policy::Depth => false,
                // Depth 10 minus 4 plies per search of age: 10, 6, 2 — evictable at 2.
                Policy::DepthAge => searches == 2,
            };
            assert_eq!(got.is_some(), replaced, "{policy:?} after {searches}");
            let s = *tt.stats();
            assert_eq!(s.replacements, replaced as u64, "{policy:?}");
            assert_eq!(s.rejected, 2 - replaced as u64, "{policy:?}");
            assert_eq!(probe(&mut tt, other_tag, 0, 0, 0).node, None);
            assert_eq!(tt.len(), 14);
            let survivors = deep_keys
                .iter()
                .filter(|&&k| probe(&mut tt, k, 0, 0, 0).node.is_some())
                .count();
            assert_eq!(survivors, 14 - replaced as usize);
        }
    }
}

#[test]
fn probing_refreshes_age() {
    // Same set-up as above, but the deep entries are probed in the new search: used
    // entries count as fresh, so a shallow newcomer cannot evict them.
    let budget = 16 * 24 + 16 + 16;
    let mut tt = TranspositionTable::with_config(budget, Policy::DepthAge, KeyHasher::PassThrough);
    let keys: Vec<MultiKey> = (0..14)
        .map(|i| MultiKey {
            hash: word(i, 1),
            check: i,
        })
        .collect();
    for &k in &keys {
        tt.store(k, node(0, 10, Pos::NONE, Bound::Upper), 0);
    }
    tt.new_search();
    tt.new_search();
    for &k in &keys {
        assert!(probe(&mut tt, k, 0, 0, 0).node.is_some());
    }
    tt.store(
        MultiKey {
            hash: word(99, 1),
            check: 99,
        },
        node(0, 2, Pos::NONE, Bound::Exact),
        0,
    );
    assert_eq!(tt.stats().rejected, 1);
    assert_eq!(tt.stats().replacements, 0);
}

/// A disabled table (`--tt-mb 0`) misses and counts nothing: its `MESSAGE tt` line is all
/// zeros (issue 10 asked for this; the table used to count every probe and store).
#[test]
fn no_table_misses_and_counts_nothing() {
    let mut tt = TranspositionTable::with_bytes(0);
    let k = MultiKey { hash: 1, check: 1 };
    tt.store(k, node(1, 1, Pos::NONE, Bound::Exact), 0);
    assert_eq!(probe(&mut tt, k, 0, 0, 0).node, None);
    assert_eq!(probe(&mut tt, k, 0, 0, 0).node, None);
    assert_eq!((tt.len(), tt.capacity(), tt.allocated_bytes()), (0, 0, 0));
    assert_eq!(
        tt.stats().report().to_string(),
        "tt probes=0 hits=0 cutoffs=0 stores=0 replaced=0 collisions=0 hit_rate=0.0%"
    );
    assert_eq!(tt.stats().rejected, 0);
}

#[test]
fn clear_forgets_entries_but_keeps_the_allocation() {
    let mut tt = TranspositionTable::with_bytes(1 << 16);
    let bytes = tt.allocated_bytes();
    for i in 0..100u64 {
        tt.store(
            MultiKey {
                hash: i.wrapping_mul(0xD6E8_FEB8_6659_FD93),
                check: i,
            },
            node(0, 1, Pos::NONE, Bound::Exact),
            0,
        );
    }
    assert_eq!(tt.len(), 100);
    tt.clear();
    assert_eq!(tt.len(), 0);
    assert_eq!(tt.allocated_bytes(), bytes);
    assert_eq!(tt.stats().stores, 100);
}

/// splitmix64, so the test needs no RNG crate and its keys are reproducible.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn capacity_is_never_exceeded() {
    let budget = 1 << 20;
    for policy in Policy::ALL {
        for hasher in KeyHasher::ALL {
            let mut tt = TranspositionTable::with_config(budget, policy, hasher);
            let bytes = tt.allocated_bytes();
            let cap = tt.capacity();
            assert!(bytes <= budget);
            // Shards of 2^15 and 2^13 buckets, 7/8 of each usable.
            assert_eq!(cap, 35_840);
            let mut rng = 42u64;
            for i in 0..1_000_000u32 {
                let r = splitmix(&mut rng);
                // A small key space for some stores, so updates of stored keys happen too.
                let hash = if r & 7 == 0 { r >> 40 } else { r };
                let key = MultiKey {
                    hash,
                    check: hash ^ 0xABCD,
                };
                let depth = (r % 13) as i32 - 2;
                tt.store(key, node(0, depth, Pos::NONE, Bound::Exact), 0);
                if i % 8 == 0 {
                    tt.new_search();
                }
                if i % 65_536 == 0 {
                    assert!(tt.len() <= cap);
                    assert_eq!(tt.allocated_bytes(), bytes);
                }
            }
            assert_eq!(tt.len(), cap, "{policy:?} {hasher:?}");
            assert_eq!(tt.allocated_bytes(), bytes);
            let s = *tt.stats();
            assert_eq!(s.stores, 1_000_000);
            assert!(s.replacements > 0 && s.replacements + s.rejected < s.stores);
            assert!(tt.bytes_per_entry() > 28.0 && tt.bytes_per_entry() < 29.0);
        }
    }
}

#[test]
fn clone_from_restores_a_snapshot() {
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    assert_eq!(tt.shards(), 2);
    let k = |i: u64| MultiKey {
        hash: i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        check: !i,
    };
    for i in 0..1000 {
        tt.store(k(i), node(i as i32, 3, Pos::NONE, Bound::Exact), 0);
    }
    let snapshot = tt.clone();
    for i in 1000..2000 {
        tt.store(k(i), node(0, 3, Pos::NONE, Bound::Exact), 0);
    }
    assert_eq!(tt.len(), 2000);
    tt.clone_from(&snapshot);
    assert_eq!(tt.len(), 1000);
    assert_eq!(tt.allocated_bytes(), snapshot.allocated_bytes());
    assert_eq!(probe(&mut tt, k(999), 3, 0, 0).cutoff, Some(999));
    assert_eq!(probe(&mut tt, k(1500), 0, 0, 0).node, None);
}
