//! The bench is a functional fingerprint: the same build must count the same nodes.

use wuzi::bench::{parse_moves, run_suite, signature, SUITE};
use wuzi::{EngineConfig, Pos};

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "searches millions of nodes; run with --release (debug builds validate the board after every move)"
)]
fn bench_node_counts_are_deterministic() {
    let config = EngineConfig {
        tt_bytes: Some(8 << 20),
        use_checksum: true,
        greedy: false,
    };
    let a = run_suite(4, config);
    let b = run_suite(4, config);
    assert_eq!(a.len(), SUITE.len());
    let nodes_a: Vec<u64> = a.iter().map(|l| l.nodes).collect();
    let nodes_b: Vec<u64> = b.iter().map(|l| l.nodes).collect();
    assert_eq!(nodes_a, nodes_b);
    assert_eq!(signature(&a), signature(&b));
    assert!(nodes_a.iter().all(|&n| n > 0));
    for (l, &(size, moves)) in a.iter().zip(SUITE) {
        assert!(l.best.x() < size && l.best.y() < size);
        assert!(!parse_moves(moves).unwrap_or_default().contains(&l.best));
    }
}

#[test]
fn pos_notation_parses_letters_and_rows() {
    assert_eq!(
        parse_moves("h8g7a15"),
        Some(vec![Pos::new(7, 7), Pos::new(6, 6), Pos::new(0, 14)])
    );
    assert_eq!(parse_moves("h0"), None);
    assert_eq!(parse_moves("8h"), None);
}
