//! One running engine process, seen from the manager.
//!
//! Nothing here may block the game on the engine: commands go through a writer thread (a
//! hung engine that stops reading can fill its pipe), stdout is read on a thread that feeds a
//! channel (so every wait has a deadline), and stderr is drained on a third thread into the
//! log (an engine blocked on a full stderr pipe would otherwise look like a timeout).

use crate::config::EngineSpec;
use gomocup_protocol::Command;
use gomocup_protocol::{Line, LineReader};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command as Process, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Bytes a log keeps; a flooding engine must not fill the disk.
pub const LOG_CAP: u64 = 4 << 20;

/// How long an engine has to exit on `END` before it is killed.
pub const END_GRACE: Duration = Duration::from_millis(500);

/// One engine stdout line, or its end.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// A line without its ending (lossily decoded). Lines over the cap arrive as `None`.
    Line(Option<String>),
    /// The engine closed stdout (usually: it exited).
    Closed,
}

/// What a wait for the next line produced.
#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    /// A line (`None` if it was longer than the reader's cap).
    Line(Option<String>),
    /// Nothing before the deadline.
    Timeout,
    /// Stdout is closed.
    Closed,
}

/// The per-engine, per-game log: what was sent (`>`), received (`<`) and printed on stderr
/// (`!`), capped at [`LOG_CAP`] bytes.
#[derive(Debug)]
pub struct Log {
    inner: Mutex<LogFile>,
}

#[derive(Debug)]
struct LogFile {
    out: Option<BufWriter<File>>,
    written: u64,
    capped: bool,
}

impl Log {
    /// A log writing to `path`; logging is best effort, so a file that cannot be created
    /// just disables the log.
    pub fn create(path: &Path) -> Log {
        let out = File::create(path).ok().map(BufWriter::new);
        Log {
            inner: Mutex::new(LogFile {
                out,
                written: 0,
                capped: false,
            }),
        }
    }

    /// A log that writes nothing.
    pub fn disabled() -> Log {
        Log {
            inner: Mutex::new(LogFile {
                out: None,
                written: 0,
                capped: false,
            }),
        }
    }

    /// Writes one tagged line.
    pub fn line(&self, tag: char, text: &str) {
        let Ok(mut f) = self.inner.lock() else {
            return;
        };
        let LogFile {
            out,
            written,
            capped,
        } = &mut *f;
        let Some(out) = out.as_mut() else {
            return;
        };
        if *capped {
            return;
        }
        let len = text.len() as u64 + 3;
        if *written + len > LOG_CAP {
            *capped = true;
            let _ = writeln!(out, "# log capped at {LOG_CAP} bytes");
            let _ = out.flush();
            return;
        }
        *written += len;
        // Control bytes (a stray CR, NUL) are escaped so the log stays one entry per line.
        let shown: String = text.escape_debug().collect();
        let _ = writeln!(out, "{tag} {shown}");
    }

    /// Flushes buffered lines to the file.
    pub fn flush(&self) {
        if let Ok(mut f) = self.inner.lock() {
            if let Some(out) = f.out.as_mut() {
                let _ = out.flush();
            }
        }
    }
}

/// A running engine.
#[derive(Debug)]
pub struct Brain {
    child: Child,
    input: Option<Sender<String>>,
    lines: Receiver<Event>,
    closed: bool,
    log: Arc<Log>,
    /// The `max_memory` watcher, once [`Brain::watch_memory`] started it.
    memory: Option<crate::memory::Watch>,
}

impl Brain {
    /// Starts the engine in its working directory with all three pipes captured.
    pub fn spawn(spec: &EngineSpec, log: Arc<Log>) -> Result<Brain, String> {
        let mut process = Process::new(&spec.command);
        process
            .args(&spec.args)
            .current_dir(&spec.workdir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        crate::proc::isolate(&mut process);
        let mut child = process
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.command.display()))?;
        crate::proc::register(child.id());
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("pipes were not created".to_string());
        };
        let input = spawn_writer(stdin);
        let (tx, lines) = mpsc::channel();
        spawn_reader(stdout, tx, Arc::clone(&log));
        spawn_drain(stderr, Arc::clone(&log));
        Ok(Brain {
            child,
            input: Some(input),
            lines,
            closed: false,
            log,
            memory: None,
        })
    }

    /// Starts enforcing a resident-memory limit in bytes on the engine's process tree (see
    /// [`crate::memory`]); 0 leaves it unlimited.
    pub fn watch_memory(&mut self, limit: u64) {
        if limit > 0 {
            self.memory = Some(crate::memory::Watch::start(self.child.id(), limit));
        }
    }

    /// The resident total (bytes) that broke the memory limit, if the engine broke it.
    pub fn memory_exceeded(&self) -> Option<u64> {
        self.memory
            .as_ref()
            .and_then(crate::memory::Watch::exceeded)
    }

    /// Sends a command (all its lines). A dead engine's pipe error is not reported here: it
    /// shows up as a closed stdout on the next read, where the game can score it.
    pub fn send(&mut self, command: &Command) {
        for line in command.lines() {
            self.log.line('>', &line);
            if let Some(input) = &self.input {
                if input.send(line).is_err() {
                    self.input = None;
                }
            }
        }
    }

    /// The next stdout line, waiting at most until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Recv {
        if self.closed {
            return Recv::Closed;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Event::Line(l)) => Recv::Line(l),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Recv::Closed
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
        }
    }

    /// The exit status, if the process has ended; waits up to `grace` for it, because a
    /// crashing engine closes stdout a moment before the kernel reports its exit.
    pub fn exit_status(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The process's peak resident memory in KiB (`VmHWM` of `/proc/<pid>/status`); `None`
    /// where there is no procfs. Read before `END`, while the process still exists.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Sends `END` and closes stdin; call [`Brain::finish`] afterwards.
    pub fn send_end(&mut self) {
        self.send(&Command::End);
        self.input = None;
    }

    /// Waits until `deadline` for the process to exit, then kills it, and reaps it.
    pub fn finish(mut self, deadline: Instant) {
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
        self.log.flush();
    }

    fn kill(&mut self) {
        // Stop measuring first: the pid is about to be reaped.
        self.memory = None;
        // The whole group: whatever the engine started goes with it.
        crate::proc::kill_group(self.child.id());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        self.kill();
    }
}

fn spawn_writer(mut stdin: ChildStdin) -> Sender<String> {
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for mut line in rx {
            line.push('\n');
            if stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
        // Dropping stdin here closes the pipe: engines that wait for EOF see it.
    });
    tx
}

fn spawn_reader(stdout: impl Read + Send + 'static, tx: Sender<Event>, log: Arc<Log>) {
    thread::spawn(move || {
        let mut reader = LineReader::manager(BufReader::new(stdout));
        while let Ok(Some(line)) = reader.next_line() {
            let text = match line {
                Line::Text(bytes) => {
                    let s = String::from_utf8_lossy(&bytes).into_owned();
                    // Blank lines carry nothing; managers skip them too.
                    if s.trim().is_empty() {
                        continue;
                    }
                    log.line('<', &s);
                    Some(s)
                }
                Line::Overlong => {
                    log.line('<', "(line over the length cap)");
                    None
                }
            };
            if tx.send(Event::Line(text)).is_err() {
                return;
            }
        }
        let _ = tx.send(Event::Closed);
    });
}

fn spawn_drain(stderr: impl Read + Send + 'static, log: Arc<Log>) {
    thread::spawn(move || {
        let mut reader = LineReader::manager(BufReader::new(stderr));
        while let Ok(Some(line)) = reader.next_line() {
            match line {
                Line::Text(bytes) => log.line('!', &String::from_utf8_lossy(&bytes)),
                Line::Overlong => log.line('!', "(line over the length cap)"),
            }
        }
    });
}
