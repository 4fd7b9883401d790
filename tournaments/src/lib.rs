//! `wuzi-tournament`: plays pbrain engines against each other through the Gomocup protocol,
//! referees every game itself, and keeps each engine's per-game transposition-table statistics.
//!
//! The binary is a thin CLI over the runner; everything is a library so the integration
//! tests drive the same code (fake engines, resume, PSQ round trips) without a shell.
#![warn(missing_docs)]

pub mod board;
pub mod elo;
pub mod opening;
pub mod psq;
