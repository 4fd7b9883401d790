//! `wuzi-tournament`: plays pbrain engines against each other through the Gomocup protocol,
//! referees every game itself, and keeps each engine's per-game transposition-table statistics.
//!
//! The binary is a thin CLI over [`runner::run`]; everything is a library so the integration
//! tests drive the same code (fake engines, resume, PSQ round trips) without a shell. Every
//! protocol line is spelled by the `gomocup-protocol` crate.
#![warn(missing_docs)]

pub mod board;
pub mod brain;
pub mod config;
pub mod console;
pub mod elo;
pub mod fingerprint;
pub mod game;
pub mod health;
pub mod html;
pub mod journal;
pub mod judge;
pub mod memory;
pub mod opening;
pub mod outdir;
pub mod proc;
pub mod psq;
pub mod ratings;
pub mod record;
pub mod renju;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sgf;
pub mod shard;
pub mod sprt;
pub mod tally;
