//! The `max_memory` limit, enforced the way GomocupJudge does it: the engine's resident
//! memory is sampled while it runs, summed over the engine and every process it started,
//! and an engine found over the limit loses the game.
//!
//! A watcher thread reads `VmRSS` from `/proc/<pid>/status` for the engine and its
//! descendants (found through `/proc/<pid>/task/<tid>/children`) every [`PERIOD`]. Over the
//! limit it records the figure and kills the engine's process group at once, so a runaway
//! allocation cannot take the machine down before the move is due; the game then scores the
//! loss as [`crate::record::Reason::Memory`]. Where there is no procfs nothing is measured.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Time between two samples.
pub const PERIOD: Duration = Duration::from_millis(10);

/// A running watcher; it stops when dropped.
#[derive(Debug)]
pub struct Watch {
    state: Arc<State>,
}

#[derive(Debug, Default)]
struct State {
    stop: AtomicBool,
    /// Largest total seen, bytes.
    peak: AtomicU64,
    /// The total that broke the limit, bytes (0 = never).
    over: AtomicU64,
}

impl Watch {
    /// Starts sampling the process tree of `pid` against `limit` bytes (`limit > 0`).
    pub fn start(pid: u32, limit: u64) -> Watch {
        let state = Arc::new(State::default());
        let shared = Arc::clone(&state);
        let spawned = thread::Builder::new()
            .name(format!("memory-{pid}"))
            .spawn(move || loop {
                if shared.stop.load(Ordering::Relaxed) {
                    return;
                }
                let Some(bytes) = tree_rss(pid) else {
                    return; // the process is gone (or there is no procfs)
                };
                shared.peak.fetch_max(bytes, Ordering::Relaxed);
                if bytes > limit {
                    shared.over.store(bytes, Ordering::Relaxed);
                    crate::proc::kill_group(pid);
                    return;
                }
                thread::sleep(PERIOD);
            });
        if spawned.is_err() {
            // No thread, no limit: the game goes on unmeasured rather than not at all.
            state.stop.store(true, Ordering::Relaxed);
        }
        Watch { state }
    }

    /// The resident total (bytes) that broke the limit, if one did.
    pub fn exceeded(&self) -> Option<u64> {
        match self.state.over.load(Ordering::Relaxed) {
            0 => None,
            n => Some(n),
        }
    }

    /// The largest resident total seen so far, bytes.
    pub fn peak(&self) -> u64 {
        self.state.peak.load(Ordering::Relaxed)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::Relaxed);
    }
}

/// Resident memory of `pid` and all its descendants, bytes; `None` if `pid` has no status
/// (exited, or no procfs).
pub fn tree_rss(pid: u32) -> Option<u64> {
    let mut total = rss(pid)?;
    let mut seen: HashSet<u32> = HashSet::from([pid]);
    let mut stack = children(pid);
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        total += rss(p).unwrap_or(0);
        stack.extend(children(p));
    }
    Some(total)
}

/// `VmRSS` of one process, bytes. A zombie has no `VmRSS` line and counts as 0.
fn rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(parse_vm_rss(&status).unwrap_or(0))
}

/// The `VmRSS:` figure of a `/proc/<pid>/status` text, in bytes.
pub fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Direct children of `pid`, over all its threads.
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|t| t.parse::<u32>().ok()),
            );
        }
    }
    out
}

/// `123.4 MiB`.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vm_rss_is_read_in_bytes() {
        let status = "Name:\tx\nVmPeak:\t  9000 kB\nVmRSS:\t  1234 kB\nThreads:\t1\n";
        assert_eq!(parse_vm_rss(status), Some(1234 * 1024));
        assert_eq!(parse_vm_rss("Name:\tzombie\nState:\tZ (zombie)\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn own_process_tree_is_measured() {
        let me = std::process::id();
        assert!(tree_rss(me).unwrap_or(0) > 0);
        // A pid above the kernel's limit never exists.
        assert_eq!(tree_rss(u32::MAX), None);
    }
}
