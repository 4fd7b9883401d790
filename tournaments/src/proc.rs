//! Engine processes that cannot outlive the runner.
//!
//! Every engine starts in a process group of its own (its pid is the group id), so ending a
//! game kills whatever the engine started too, and a terminal's Ctrl-C reaches the runner
//! only, which then ends the engines itself. On Linux each engine also asks the kernel for
//! `SIGKILL` when its parent goes away, which covers the exits the runner cannot act on
//! (`kill -9`, a crash). The groups alive at any moment are kept in a registry so an orderly
//! early exit (a broken stdout pipe, an error) can end them all before the process does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Process groups of the engines now running.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Looks a bare command name up on `PATH` as a shell would: the first folder holding an
/// executable file of that name.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| {
            // An empty PATH entry means the current directory.
            if dir.as_os_str().is_empty() {
                PathBuf::from(".").join(name)
            } else {
                dir.join(name)
            }
        })
        .find(|p| is_executable(p))
        // Absolute, because the engine runs in another working directory.
        .map(|p| std::path::absolute(&p).unwrap_or(p))
}

/// Whether `path` is a file the current user may run.
pub fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: `c` is a valid NUL-terminated string that outlives the call; access(2)
        // only reads it.
        path.is_file() && unsafe { libc::access(c.as_ptr(), libc::X_OK) } == 0
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Prepares an engine command: its own process group and, on Linux, death with the runner.
pub fn isolate(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: getpid() is async-signal-safe and runs in the parent before the fork.
        let parent = unsafe { libc::getpid() };
        // SAFETY: the closure runs in the forked child before exec and calls only prctl(2)
        // and getppid(2), which are async-signal-safe; it allocates nothing and touches no
        // lock. The kernel delivers the signal when the thread that forked the child exits:
        // here that is the game's thread, which outlives the engine (it kills and reaps it),
        // or the runner's death.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The runner may have died between fork and prctl: then nobody would kill us.
                if libc::getppid() != parent {
                    return Err(std::io::Error::other("the runner exited during spawn"));
                }
                Ok(())
            });
        }
    }
}

/// Records a started engine's process group (its pid).
pub fn register(pid: u32) {
    if let Ok(mut live) = LIVE.lock() {
        live.push(pid);
    }
}

/// Kills an engine's whole process group and forgets it. The engine itself must still be
/// reaped by its `Child`.
pub fn kill_group(pid: u32) {
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|&p| p != pid);
    }
    signal_group(pid);
}

/// Kills every engine still running; for exits that do not wait for the games.
pub fn kill_all() {
    let groups = LIVE.lock().map(|mut l| std::mem::take(&mut *l));
    for pid in groups.unwrap_or_default() {
        signal_group(pid);
    }
}

fn signal_group(pid: u32) {
    #[cfg(unix)]
    {
        let Ok(pgid) = libc::pid_t::try_from(pid) else {
            return;
        };
        if pgid > 1 {
            // SAFETY: kill(2) with a negative pid signals that process group; no memory is
            // involved. The group is the engine's own (process_group(0)), never ours.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}
