//! Every kind of limit yields a legal move: fixed depth with no clock, no time at all, and a
//! node cap.

use std::time::Duration;
use wuzi::{Board, Engine, EngineConfig, Limits, Rule};

fn engine_with(diagram: &str) -> Engine {
    let board = Board::from_diagram(diagram, Rule::FREESTYLE, None).expect("diagram");
    let mut engine = Engine::new(EngineConfig {
        tt_bytes: Some(4 << 20),
        ..EngineConfig::default()
    });
    engine
        .new_game(board.size(), Rule::FREESTYLE)
        .expect("size");
    for (p, c) in board.history() {
        engine.play_as(p, c).expect("legal set-up");
    }
    engine.set_side_to_move(board.side_to_move());
    engine
}

const QUIET: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . X . . . . . . . .
    . . . . . . . O X . . . . . .
    . . . . . . O X . . . . . . .
    . . . . . . . . O . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

#[test]
fn fixed_depth_without_a_clock_plays_a_legal_move() {
    let mut engine = engine_with(QUIET);
    let r = engine.think(&Limits::depth(3));
    assert!(engine.board().check_move(r.best).is_ok(), "{:?}", r.best);
    assert_eq!(r.depth, 3);
    assert!(r.nodes > 0);
}

#[test]
fn no_time_at_all_still_plays_a_legal_move() {
    let mut engine = engine_with(QUIET);
    let r = engine.think(&Limits::time(Duration::ZERO));
    assert!(engine.board().check_move(r.best).is_ok(), "{:?}", r.best);
}

#[test]
fn a_node_cap_is_respected_and_a_move_is_ready() {
    let mut engine = engine_with(QUIET);
    let limits = Limits {
        max_nodes: Some(5_000),
        ..Limits::depth(30)
    };
    let r = engine.think(&limits);
    assert!(engine.board().check_move(r.best).is_ok(), "{:?}", r.best);
    assert!(r.nodes <= 5_000 + 1_024, "{} nodes", r.nodes);
}

#[test]
fn the_board_is_unchanged_after_thinking() {
    let mut engine = engine_with(QUIET);
    let before = engine.board().key();
    let moves = engine.board().move_count();
    engine.think(&Limits::depth(4));
    assert_eq!(engine.board().key(), before);
    assert_eq!(engine.board().move_count(), moves);
}

/// Black to move with an open three on row 7: the root VCF proves the win before any
/// alpha-beta, and the result says how deep that proof is rather than depth 0.
const OPEN_THREE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . X X X . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . O . . . . . . . . O . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . O . . . . .";

#[test]
fn a_proven_threat_win_reports_its_length_as_depth() {
    let mut engine = engine_with(OPEN_THREE);
    let r = engine.think(&Limits::depth(6));
    assert!(r.score >= wuzi::types::WIN_BOUND, "{}", r.score);
    assert_eq!(r.pv.first(), Some(&r.best));
    // Four, block, five: three plies.
    assert_eq!(r.pv.len(), 3, "{:?}", r.pv);
    assert_eq!(r.depth, 3);
}

#[test]
fn under_a_node_cap_the_alpha_beta_gets_its_share() {
    // The root's threat searches may take only part of a node cap (as they take only part
    // of the clock): otherwise a VCT that finds nothing spends every node and the move is
    // the depth-0 fallback.
    for cap in [3_000, 6_000, 20_000] {
        let mut engine = engine_with(QUIET);
        let limits = Limits {
            max_nodes: Some(cap),
            ..Limits::depth(30)
        };
        let r = engine.think(&limits);
        assert!(
            r.depth >= 2,
            "cap {cap}: depth {} nodes {}",
            r.depth,
            r.nodes
        );
    }
}

/// White to move; Black's four on row 7 is capped at (4,7), so (9,7) is the only move.
const BLOCK_FIVE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . O . . . . . . .
    . . . . O X X X X . . . . . .
    . . . . . . O . . . . . . . .
    . . . . . . . O . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . X . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .";

#[test]
fn a_forced_block_under_a_match_clock_leaves_the_time_banked() {
    let limits = Limits {
        banked: true,
        ..Limits::time(Duration::from_secs(8))
    };
    let mut engine = engine_with(BLOCK_FIVE);
    let block = engine.board().pos(9, 7).expect("on the board");
    // An eighth of the 8 s target to start iterations, a quarter at most to search (a
    // per-move limit alone would search to the target: that time is not saved by stopping).
    let r = engine.think(&limits);
    assert_eq!(r.best, block);
    assert!(r.elapsed < Duration::from_secs(4), "{:?}", r.elapsed);
    assert!(r.depth >= 1, "depth {}", r.depth);
}

/// The table is as large as the memory budget allows, but no larger than a move's clock can
/// fill (`TT_BYTES_PER_MS`, at least `MIN_TIMED_TT_BYTES`); a new game with another clock
/// gets a table of its size, and an explicit size or a changed budget still rules.
#[test]
fn the_table_is_sized_by_the_budget_and_the_clock() {
    use wuzi::engine::{MIN_TIMED_TT_BYTES, TT_BYTES_PER_MS};
    let mut e = Engine::new(EngineConfig::default());
    e.new_game(15, Rule::FREESTYLE).expect("a board");
    let move_in = |ms: u64| Limits {
        max_nodes: Some(2000),
        ..Limits::time(Duration::from_millis(ms))
    };
    // 350 MiB by default: 65 % of what is left after 24 MiB, 212 MiB.
    let budget = (350 - 24) * (1 << 20) * 13 / 20;
    e.think(&move_in(100));
    assert_eq!(e.tt_budget(), Some(MIN_TIMED_TT_BYTES));
    // Within a game the table stays.
    e.think(&move_in(2000));
    assert_eq!(e.tt_budget(), Some(MIN_TIMED_TT_BYTES));
    e.new_game(15, Rule::FREESTYLE).expect("a board");
    e.think(&move_in(1000));
    assert_eq!(e.tt_budget(), Some(1000 * TT_BYTES_PER_MS));
    e.new_game(15, Rule::FREESTYLE).expect("a board");
    e.think(&move_in(30_000));
    assert_eq!(e.tt_budget(), Some(budget));
    // A smaller budget caps it.
    e.set_memory(64 << 20);
    e.think(&move_in(30_000));
    assert_eq!(e.tt_budget(), Some((64 - 24) * (1 << 20) * 13 / 20));
    // An explicit size is kept whatever the clock.
    let mut fixed = Engine::new(EngineConfig {
        tt_bytes: Some(8 << 20),
        ..EngineConfig::default()
    });
    fixed.think(&move_in(30_000));
    assert_eq!(fixed.tt_budget(), Some(8 << 20));
}
