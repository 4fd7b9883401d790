//! Which replacement policy serves a search best when the table is too small?
//!
//! A plain main (no criterion: the figures are counts, not times). A small alpha-beta
//! search over real boards (iterative deepening to `DEPTH`, the best `BRANCH` candidates
//! by pattern value, the board's incremental evaluation at the leaves) plays the same
//! game line from a few openings, `MOVES` moves each, with `new_search()` before every
//! move, once per table size, policy and hasher. Its probe/store stream therefore has a
//! search's depth mix and transpositions. The line is fixed beforehand (by a run with an
//! ample table), so every configuration searches the same positions, and the number of
//! nodes it needed is comparable: fewer nodes means the table kept more useful entries.
//!
//! Run: `cargo bench --bench tt_policy` (`WUZI_TAG_BITS=3` to try another tag width).

use std::time::Instant;
use wuzi::tt::{BoardNode, Bound, KeyHasher, Policy, TranspositionTable, DEFAULT_TAG_BITS};
use wuzi::types::{Score, INF, ONE_PLY, WIN};
use wuzi::{Board, Pos, Rule};

const DEPTH: i32 = 7;
const BRANCH: usize = 8;
const MOVES: usize = 20;

struct Search<'a> {
    tt: &'a mut TranspositionTable,
    nodes: u64,
}

impl Search<'_> {
    fn eval(board: &Board) -> Score {
        let me = board.side_to_move();
        (board.value(me) - board.value(me.opp())) / 2
    }

    /// Candidates ordered by what they are worth to both sides, the table's move first.
    fn moves(board: &Board, first: Pos) -> Vec<Pos> {
        let me = board.side_to_move().idx();
        let mut ms: Vec<(i32, Pos)> = board
            .candidates()
            .into_iter()
            .map(|p| {
                let v = board.cell(p).value;
                let s = v[me] as i32 * 2 + v[1 - me] as i32;
                (if p == first { i32::MAX } else { s }, p)
            })
            .collect();
        ms.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        ms.truncate(BRANCH);
        ms.into_iter().map(|(_, p)| p).collect()
    }

    fn negamax(&mut self, board: &mut Board, depth: i32, alpha: Score, beta: Score) -> Score {
        self.nodes += 1;
        if board.last_move_won() {
            return -WIN;
        }
        if depth <= 0 || board.is_full() {
            return Self::eval(board);
        }
        let key = board.key();
        // Scores here are never mate distances, so they are stored as seen (ply 0).
        let hit = self.tt.probe(key, 0);
        // Depths go to the table in the engine's units (`ONE_PLY` a ply), which the
        // replacement policy's weights are set in.
        if let Some(score) = hit.and_then(|n| n.cutoff(depth * ONE_PLY, alpha, beta)) {
            self.tt.count_cutoff();
            return score;
        }
        let first = hit.map_or(Pos::NONE, |n| n.best_move);
        let mut best = -INF;
        let mut best_move = Pos::NONE;
        let mut a = alpha;
        for m in Self::moves(board, first) {
            board.play(m);
            let s = -self.negamax(board, depth - 1, -beta, -a);
            let _ = board.undo();
            if s > best {
                best = s;
                best_move = m;
            }
            a = a.max(s);
            if a >= beta {
                break;
            }
        }
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(
            key,
            BoardNode {
                score: best,
                depth: depth * ONE_PLY,
                best_move,
                bound,
            },
            0,
        );
        best
    }

    /// Iterative deepening from the root; the best move of the last iteration.
    fn think(&mut self, board: &mut Board) -> Pos {
        let mut best = Pos::NONE;
        for depth in 1..=DEPTH {
            let key = board.key();
            self.negamax(board, depth, -INF, INF);
            if let Some(n) = self.tt.probe(key, 0) {
                best = n.best_move;
            }
        }
        best
    }
}

/// Openings: a few stones near the centre, from an LCG, so the bench needs no data files.
fn openings() -> Vec<Vec<Pos>> {
    let mut state = 0x853C_49E6_748F_EA9Bu64;
    (0..4)
        .map(|_| {
            let mut seen = Vec::new();
            while seen.len() < 5 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let x = 8 + (state >> 33) as usize % 5;
                let y = 8 + (state >> 45) as usize % 5;
                let p = Pos::new(x, y);
                if !seen.contains(&p) {
                    seen.push(p);
                }
            }
            seen
        })
        .collect()
}

/// Play `MOVES` moves from each opening with `tt`, following `line` if given (else
/// choosing moves and recording them). Returns the nodes searched.
fn play(tt: &mut TranspositionTable, lines: &mut [Vec<Pos>]) -> u64 {
    let fixed = lines.iter().all(|l| !l.is_empty());
    let mut nodes = 0;
    for (opening, line) in openings().into_iter().zip(lines.iter_mut()) {
        let mut board = Board::new(20, Rule::FREESTYLE).expect("valid size");
        for p in opening {
            board.play(p);
        }
        tt.clear();
        for ply in 0..MOVES {
            tt.new_search();
            let mut s = Search {
                tt: &mut *tt,
                nodes: 0,
            };
            let chosen = s.think(&mut board);
            nodes += s.nodes;
            let m = if fixed { line[ply] } else { chosen };
            if !fixed {
                line.push(m);
            }
            if !m.is_some() || !board.is_empty(m) || board.last_move_won() {
                break;
            }
            board.play(m);
        }
    }
    nodes
}

fn main() {
    let mut lines = vec![Vec::new(); openings().len()];
    let mut ample = TranspositionTable::with_bytes(256 << 20);
    let base = play(&mut ample, &mut lines);
    println!(
        "# {DEPTH}-ply searches, {BRANCH} moves per node, {MOVES} moves from each of {} openings",
        lines.len()
    );
    println!(
        "# reference (256 MiB, depth-age, pass-through): {base} nodes, {}",
        ample.stats().report()
    );
    println!("| table | entries | policy | hasher | nodes | vs ample | hit rate | cutoffs/probe | replaced | rejected | time |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let tag_bits = std::env::var("WUZI_TAG_BITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_TAG_BITS);
    println!("# tag bits: {tag_bits}");
    for bytes in [16 << 10, 64 << 10, 256 << 10] {
        for policy in Policy::ALL {
            for hasher in KeyHasher::ALL {
                let mut tt = TranspositionTable::with_tag_bits(bytes, policy, hasher, tag_bits);
                let t = Instant::now();
                let nodes = play(&mut tt, &mut lines);
                let s = *tt.stats();
                println!(
                    "| {} KiB | {} | {} | {} | {} | {:+.1} % | {:.1} % | {:.1} % | {} | {} | {:.2} s |",
                    bytes >> 10,
                    tt.capacity(),
                    policy.name(),
                    hasher.name(),
                    nodes,
                    100.0 * (nodes as f64 / base as f64 - 1.0),
                    s.hit_rate(),
                    100.0 * s.cutoffs as f64 / s.probes.max(1) as f64,
                    s.replacements,
                    s.rejected,
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
}
