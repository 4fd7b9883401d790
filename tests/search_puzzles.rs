//! Tactical puzzles (tests/fixtures/freestyle_tactics.txt, copied from the shared data):
//! every VCF is solved with an answer from its complete set; VCTs are solved where the VCT
//! search finds them, and each proof line is replayed on a fresh board to a real five.

use std::time::Instant;
use wuzi::budget::Budget;
use wuzi::threat::ThreatSearch;
use wuzi::tt::TranspositionTable;
use wuzi::{Board, Pos};

use wuzi::bench::TacticsPuzzle as Puzzle;

fn puzzles() -> Vec<Puzzle> {
    wuzi::bench::parse_tactics(include_str!("fixtures/freestyle_tactics.txt"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Replay `line` from `board`: every move must be legal and the attacker's last move a five.
fn line_ends_in_five(board: &Board, line: &[Pos]) -> bool {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    for &m in line {
        if b.check_move(m).is_err() {
            return false;
        }
        b.play(m);
    }
    b.last_move_won() && line.len() % 2 == 1 && b.history().last().map(|h| h.1) == Some(attacker)
}

/// Which threat solver a puzzle is put to, with its table size, node budget and depth.
#[derive(Clone, Copy)]
enum Solver {
    Vcf,
    Vct,
}

/// Run `solver` on a copy of the puzzle's board, print what it found, and check that the
/// board comes back exactly as it was.
fn solve(p: &Puzzle, solver: Solver) -> Option<Vec<Pos>> {
    let (tt_bytes, nodes) = match solver {
        Solver::Vcf => (16 << 20, 5_000_000),
        Solver::Vct => (32 << 20, 3_000_000),
    };
    let mut board = p.board.clone();
    let mut tt = TranspositionTable::with_bytes(tt_bytes);
    let mut budget = Budget::new(nodes, None);
    let t = Instant::now();
    let mut search = ThreatSearch::new(&mut board, &mut tt, &mut budget);
    let line = match solver {
        Solver::Vcf => search.vcf(60),
        Solver::Vct => search.vct(14),
    };
    println!(
        "{}: {:?} in {:?}, {} nodes",
        p.id,
        line.as_ref().map(|l| l[0]),
        t.elapsed(),
        budget.nodes
    );
    assert_eq!(board.key(), p.board.key(), "{}: board not restored", p.id);
    assert_eq!(
        board.move_count(),
        p.board.move_count(),
        "{}: board not restored",
        p.id
    );
    line
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "searches millions of nodes; run with --release (debug builds validate the board after every move)"
)]
fn every_vcf_puzzle_is_solved_with_a_listed_answer() {
    let mut solved = 0;
    for p in puzzles().into_iter().filter(|p| p.kind == "VCF") {
        let line = solve(&p, Solver::Vcf).unwrap_or_else(|| panic!("{}: no VCF found", p.id));
        assert!(
            p.answers.contains(&line[0]),
            "{}: {:?} not in {:?}",
            p.id,
            line[0],
            p.answers
        );
        assert!(
            line_ends_in_five(&p.board, &line),
            "{}: proof line {:?} is not a VCF",
            p.id,
            line
        );
        solved += 1;
    }
    assert_eq!(solved, 12);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "searches millions of nodes; run with --release (debug builds validate the board after every move)"
)]
fn vct_puzzles_are_solved_where_the_search_finds_them() {
    let mut solved = 0;
    let mut total = 0;
    for p in puzzles().into_iter().filter(|p| p.kind == "VCT") {
        total += 1;
        if let Some(line) = solve(&p, Solver::Vct) {
            assert!(
                p.answers.contains(&line[0]) || line_ends_in_five(&p.board, &line),
                "{}: {:?} is neither the listed answer nor a line to five",
                p.id,
                line
            );
            solved += 1;
        }
    }
    assert_eq!(total, 8);
    assert!(solved >= 7, "only {solved} of {total} VCT puzzles solved");
}

/// A VCF puzzle with the move handed to the defender: the attacker's VCF is now a threat
/// ("pass, then VCF"). Every reply outside `ThreatSearch::pass_threat_defences` must leave
/// the attacker a VCF: the exactness the VCT counts on when it answers a quiet threat only
/// with those replies (README, Search, step 2).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "searches millions of nodes; run with --release (debug builds validate the board after every move)"
)]
fn replies_outside_the_threat_defences_lose_to_a_vcf() {
    let mut threatened = 0;
    for p in puzzles().into_iter().filter(|p| p.kind == "VCF") {
        let mut board = p.board.clone();
        let defender = board.side_to_move().opp();
        board.set_side_to_move(defender);
        if wuzi::threat::node_kind(&board) != wuzi::threat::NodeKind::Quiet {
            continue;
        }
        let mut tt = TranspositionTable::with_bytes(16 << 20);
        let mut budget = Budget::new(5_000_000, None);
        let replies = ThreatSearch::new(&mut board, &mut tt, &mut budget)
            .pass_threat_defences(60)
            .unwrap_or_else(|| panic!("{}: the attacker's VCF is not seen after a pass", p.id));
        threatened += 1;
        for m in board.candidates() {
            if replies.contains(&m) || board.is_forbidden_for(m, defender) {
                continue;
            }
            board.play(m);
            let mut budget = Budget::new(5_000_000, None);
            let vcf = ThreatSearch::new(&mut board, &mut tt, &mut budget).vcf(60);
            board.undo().expect("undo");
            assert!(
                vcf.is_some(),
                "{}: {m:?} is not in the threat's replies {replies:?}, yet stops every VCF",
                p.id
            );
        }
    }
    // In the other three the defender's node is not quiet (a five to make or to block, or
    // an open three to answer): not a "pass, then VCF" threat.
    assert_eq!(
        threatened, 9,
        "puzzles that are quiet threats for the defender"
    );
}
