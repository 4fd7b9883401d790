//! Wuzi: a Gomoku engine. The library holds everything but the stdin/stdout loop, so the
//! brain, the search and the benches are all driven without pipes.
//!
//! # Module map: one folder per idea
//!
//! | module | what lives there |
//! | --- | --- |
//! | [`types`] | cells (`Pos`), colours, stones, rules, score constants |
//! | [`board`] | stones, Zobrist keys ([`MultiKey`]), incremental line windows and their undo records, candidate scan, five cells, the per-rule win check, `validate` and diagrams |
//! | [`eval`] | line shapes and combination classes, the lookup tables built per rule, **every weight** (`eval/weights.rs`), `evaluate` and the static move score |
//! | [`threat`] | forced nodes, VCF, VCT, quiet threats and threat defences |
//! | [`search`] | the per-move driver and [`SearchResult`], iterative deepening and the safety net, PVS in stages, the move picker, limits |
//! | [`budget`] | the node and clock budget shared by the threat searches and the alpha-beta |
//! | [`tt`] | the `hashbrown` transposition table: key identity (checksum or not), mate scores converted by ply, threat proofs, replacement, counters |
//! | [`engine`] | the game record, the table and a search behind one API |
//! | [`brain`] | the protocol state machine: commands in, responses out, no I/O |
//! | [`bench`] | the fixed search suite behind `Bench: N` |
//!
//! Dependencies point one way: `types` ← `board` ↔ `eval` (the board reads the pattern
//! tables; evaluation reads the board) ← `threat` ← `search` ← `engine` ← `brain`; `tt` is
//! read by `threat` and `search`.
//!
//! # Where new work plugs in
//!
//! - **Renju rules**: forbidden-point detection belongs in `board/` (black's move
//!   legality, shared by the win check and the candidate scan); renju's own pattern
//!   classes come through the rule seam, `eval::tables::tables(rule)`, and `threat`'s
//!   move lists filter black's forbidden cells; `search` needs no change.
//! - **A new evaluation**: `eval/weights.rs` holds every number; a tuned table replaces
//!   it (compiled in from a data file under `eval/`), read by `eval::evaluate`, the table
//!   build and `eval::order_score`.
//! - **A second search thread**: each thread gets its own `search::Search` (history,
//!   killers, PV) over its own copy of the board; what they share is the table, which
//!   would move behind a lock-free or sharded handle in `tt/`, and the budget's stop flag.
#![warn(missing_docs)]

pub mod bench;
pub mod board;
pub mod brain;
pub mod budget;
pub mod engine;
pub mod eval;
pub mod search;
pub mod threat;
pub mod tt;
pub mod types;

pub use board::{Board, BoardError, MoveList, MultiKey};
pub use engine::{Engine, EngineConfig};
pub use search::limits::Limits;
pub use search::SearchResult;
pub use types::{Color, Pos, Rule, Score, Stone};
