//! Wuzi: a Gomoku engine. The library holds everything but the stdin/stdout loop, so the
//! brain, the search and the benches are all driven without pipes.
#![warn(missing_docs)]

pub mod bench;
pub mod board;
pub mod brain;
pub mod budget;
pub mod engine;
pub mod eval;
pub mod limits;
pub mod movegen;
pub mod pattern;
pub mod root;
pub mod search;
pub mod threat;
pub mod tt;
pub mod types;
pub mod zobrist;

pub use board::{Board, BoardError, MoveList};
pub use engine::{Engine, EngineConfig, SearchResult};
pub use limits::Limits;
pub use types::{Color, Pos, Rule, Score, Stone};
pub use zobrist::MultiKey;
