//! `pbrain-wuzi`: stdin lines → brain → stdout lines, flushed one reply at a time.
//!
//! A reader thread owns stdin so that `END` and EOF end the process promptly even while a
//! search runs (c-gomoku-cli blocks in `waitpid` after END; PROTOCOL.md §2.8). Every other
//! command is queued and answered in order by the main thread, which runs the search
//! synchronously.

use clap::{Parser as _, Subcommand};
use gomocup_protocol::{Command, Info, Line, LineReader, Parser, ProtocolError, Response};
use std::io::{self, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use wuzi::brain::Brain;
use wuzi::EngineConfig;

/// Command-line switches (none are needed in a manager; they are for tournaments).
#[derive(clap::Parser, Debug)]
#[command(
    name = "pbrain-wuzi",
    version,
    about = "Wuzi Gomoku engine (Gomocup protocol on stdin/stdout)"
)]
struct Cli {
    /// Transposition table size in MiB (0 = no table); default: sized from INFO max_memory.
    #[arg(long, value_name = "N")]
    tt_mb: Option<usize>,
    /// Compare the hash word only on table probes (ablation).
    #[arg(long)]
    no_checksum: bool,
    /// Play the one-ply greedy baseline instead of searching (for tournaments).
    #[arg(long)]
    greedy: bool,
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Search the fixed bench suite and print nodes, speed and a signature.
    Bench {
        /// Search depth (default: the bench's own).
        depth: Option<i32>,
    },
}

/// One unit of work for the main thread: a parsed (or faulty) line and the arrival of its
/// first line, from which a move's time budget is measured.
type Input = (Result<Command, ProtocolError>, Instant);

/// After END or EOF, how long queued replies may still be written before the process ends
/// anyway (managers kill after 500 ms; PROTOCOL.md §2.8).
const GRACE: Duration = Duration::from_millis(350);

fn main() -> ExitCode {
    // Nothing may ever reach stderr: managers merge it into the protocol pipe.
    panic::set_hook(Box::new(|_| {}));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help, version and usage errors go to stdout, never stderr.
            let _ = writeln!(io::stdout(), "{}", e.render());
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let config = EngineConfig {
        tt_bytes: cli.tt_mb.map(|mb| mb.saturating_mul(1 << 20)),
        use_checksum: !cli.no_checksum,
        greedy: cli.greedy,
    };
    if let Some(Action::Bench { depth }) = cli.action {
        let mut out = io::stdout().lock();
        let ok = wuzi::bench::run(depth, config, &mut out).is_ok();
        let _ = out.flush();
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    serve(config);
    ExitCode::SUCCESS
}

/// The protocol loop; returns on END or EOF (by exiting the process).
fn serve(config: EngineConfig) {
    let (tx, rx) = mpsc::channel::<Input>();
    let mut brain = Brain::new(config);
    let stop = brain.stop_flag();
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_loop(tx, stop));
    if spawned.is_err() {
        return;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    for (input, arrival) in rx {
        if matches!(input, Ok(Command::End)) {
            let _ = out.flush();
            std::process::exit(0);
        }
        let replies = match panic::catch_unwind(AssertUnwindSafe(|| brain.handle(input, arrival))) {
            Ok(replies) => replies,
            Err(payload) => {
                brain.recover();
                let why = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                vec![Response::Error(format!("internal error {why}"))]
            }
        };
        if write_all(&mut out, &replies).is_err() {
            // The manager closed our stdout: nobody is listening any more.
            std::process::exit(0);
        }
    }
    let _ = out.flush();
    std::process::exit(0);
}

fn write_all(out: &mut impl Write, replies: &[Response]) -> io::Result<()> {
    for r in replies {
        writeln!(out, "{r}")?;
    }
    out.flush()
}

/// Read and parse stdin. After END or EOF the main thread gets a short grace to write the
/// replies already owed (it exits by itself as soon as it reaches END or the end of the
/// queue); a search still running then is not waited for.
fn read_loop(tx: mpsc::Sender<Input>, stop: Arc<AtomicBool>) {
    let stdin = io::stdin();
    let mut reader = LineReader::new(stdin.lock());
    let mut parser = Parser::new();
    let mut block_start = Instant::now();
    // EOF or a broken pipe ends the loop: the manager is gone.
    while let Ok(Some(line)) = reader.next_line() {
        let now = Instant::now();
        if !parser.in_block() {
            block_start = now;
        }
        let parsed = match line {
            Line::Text(bytes) => parser.feed(&bytes),
            Line::Overlong => parser.feed_overlong(),
        };
        let Some(parsed) = parsed else {
            continue;
        };
        let end = matches!(parsed, Ok(Command::End));
        // Piskvork's "stop thinking now" arrives while the main thread is searching: raise
        // the flag at once; the INFO itself is queued and applied in order as usual.
        // END too: a search still running is cut short, so the main thread reaches END and
        // exits in milliseconds rather than at the end of the grace below.
        if end || matches!(parsed, Ok(Command::Info(Info::TimeoutTurn(0)))) {
            stop.store(true, Ordering::Relaxed);
        }
        if tx.send((parsed, block_start)).is_err() {
            return;
        }
        if end {
            break;
        }
    }
    // Dropping the sender ends the main loop once the queue is drained; should a queued
    // command start a long search meanwhile, the grace ends the process.
    drop(tx);
    // At EOF the manager is gone: stop any search as for END.
    stop.store(true, Ordering::Relaxed);
    std::thread::sleep(GRACE);
    std::process::exit(0);
}
