//! How many nodes the VCT needs: to prove the VCT puzzles, to prove a long win from a real
//! game, and to fail where there is no win at all (what the safety net's check of the
//! chosen move spends on most moves).
//!
//! A plain main (no criterion: the figure to watch is the node count, which is
//! deterministic; times are printed beside it). Every position gets a fresh table, the
//! safety net's depth (12 attacker moves) and a 3 M node cap (the root VCT's, which the
//! README's figures were taken at; the root VCT itself was dropped in 3ad5d8c). A cheaper
//! VCT shows as fewer nodes on the same rows with the same results.
//!
//! Run: `cargo bench --bench vct`.

use std::time::Instant;
use wuzi::bench::{parse_moves, parse_tactics};
use wuzi::budget::Budget;
use wuzi::search::SAFETY_VCT_DEPTH;
use wuzi::threat::ThreatSearch;
use wuzi::tt::TranspositionTable;
use wuzi::{Board, Pos, Rule};

/// The safety net's VCT depth, and the node cap.
const DEPTH: i32 = SAFETY_VCT_DEPTH;
const NODES: u64 = 3_000_000;
/// Balanced openings tried for the "no win" rows.
const OPENINGS: usize = 8;

/// Moves written as SGF pairs (`il io …`: column then row, from `a`).
fn sgf_moves(text: &str) -> Vec<Pos> {
    text.split_whitespace()
        .map(|m| {
            let c = m.as_bytes();
            Pos::new((c[0] - b'a') as usize, (c[1] - b'a') as usize)
        })
        .collect()
}

fn board_from(size: usize, moves: &[Pos]) -> Board {
    let mut board = Board::new(size, Rule::FREESTYLE).expect("a board");
    for &m in moves {
        board.play(m);
    }
    board
}

/// The VCT rows of the puzzle file.
fn puzzles() -> Vec<(String, Board)> {
    parse_tactics(include_str!("../tests/fixtures/freestyle_tactics.txt"))
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .filter(|p| p.kind == "VCT")
        .map(|p| (p.id, p.board))
        .collect()
}

fn main() {
    let mut rows: Vec<(String, Board)> = puzzles();
    // PentaZen's win in game 1 of a test match (README, Other measurements): after Wuzi's
    // el, white's 21-ply VCT, which PentaZen found in 34 ms.
    rows.push((
        "pentazen_game1_after_el".into(),
        board_from(20, &sgf_moves("il io gl ho em hm fo ik fr fm hn ip el")),
    ));
    let openings = include_str!("../tournaments/openings/freestyle20_balanced_40.pos.txt");
    for (i, line) in openings.lines().take(OPENINGS).enumerate() {
        rows.push((
            format!("balanced_opening_{}", i + 1),
            board_from(20, &parse_moves(line).expect("an opening in pos notation")),
        ));
    }

    println!("# VCT to {DEPTH} attacker moves, {NODES} nodes at most, a fresh table each");
    println!("| position | result | nodes | time |");
    println!("|---|---|---|---|");
    let (mut won, mut failed) = (0u64, 0u64);
    for (id, mut board) in rows {
        let mut tt = TranspositionTable::with_bytes(64 << 20);
        let mut budget = Budget::new(NODES, None);
        let t = Instant::now();
        let line = ThreatSearch::new(&mut board, &mut tt, &mut budget).vct(DEPTH);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let result = match &line {
            Some(l) => format!("win in {} plies", l.len()),
            None if budget.stopped() => "node cap".to_string(),
            None => "none".to_string(),
        };
        if line.is_some() {
            won += budget.nodes;
        } else {
            failed += budget.nodes;
        }
        println!("| {id} | {result} | {} | {ms:.1} ms |", budget.nodes);
    }
    println!("# nodes: {won} on the wins found, {failed} on the rest");
}
