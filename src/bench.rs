//! `pbrain-wuzi bench`: a fixed suite searched to a fixed depth (stub until the search lands).

use crate::engine::EngineConfig;

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 6;

/// Run the bench suite and print its report to `out`.
pub fn run(
    depth: Option<i32>,
    config: EngineConfig,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let _ = config;
    writeln!(
        out,
        "bench depth {} (not implemented yet)",
        depth.unwrap_or(DEFAULT_DEPTH)
    )
}
