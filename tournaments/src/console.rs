//! Standard output that survives its reader going away.
//!
//! `wuzi-tournament run … | head -1` closes the pipe after one line; Rust ignores `SIGPIPE`,
//! so `println!` would panic on the next line. Here a closed stdout ends the run quietly
//! instead: the engines are killed, and the process exits with 141 (128 + SIGPIPE), the
//! status a shell shows for a pipeline member stopped by a closed pipe. Nothing is lost:
//! every finished game is already in `results.jsonl`, and `--resume` continues.
//! (`SIGPIPE` itself stays ignored: a write to a crashed engine's stdin must not kill the
//! runner.)

use std::io::{ErrorKind, Write};

/// Exit status after a closed stdout.
pub const BROKEN_PIPE_EXIT: i32 = 141;

/// Prints one line on stdout.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{text}").and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == ErrorKind::BrokenPipe {
            drop(out);
            broken_pipe();
        }
        // Any other stdout failure (a full disk behind a redirect) must not stop the games.
    }
}

/// Ends the process after its stdout went away: engines first.
pub fn broken_pipe() -> ! {
    crate::proc::kill_all();
    std::process::exit(BROKEN_PIPE_EXIT)
}
