//! `pbrain-wuzi`: stdin lines → brain → stdout lines, flushed one reply at a time.
//!
//! A reader thread owns stdin so that `END`, `YXSTOP` and EOF act at once even while a
//! search runs (c-gomoku-cli blocks in `waitpid` after END and sends `YXSTOP` when a turn's
//! time runs out; PROTOCOL.md §2.8, §2.13). Which lines cut a search short is the brain's
//! decision ([`wuzi::brain::interrupt`]); the reader only raises the flags. Every command
//! is queued and answered in order by the main thread, which runs the search
//! synchronously. `END` takes effect in its turn: the commands before it are answered,
//! but a search it interrupted ends without its reply and none starts after it is read.

use clap::{Parser as _, Subcommand};
use gomocup_protocol::{Command, Line, LineReader, Parser, ProtocolError, Response};
use std::io::{self, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use wuzi::brain::{interrupt, searches, Brain, Interrupt};
use wuzi::search::SearchParams;
use wuzi::EngineConfig;

/// Command-line switches (none are needed in a manager; they are for tournaments).
#[derive(clap::Parser, Debug)]
#[command(
    name = "pbrain-wuzi",
    version,
    about = "Wuzi Gomoku engine (Gomocup protocol on stdin/stdout)"
)]
struct Cli {
    /// Transposition table size in MiB (0 = no table); default: sized from INFO max_memory and the clock.
    #[arg(long, value_name = "N")]
    tt_mb: Option<usize>,
    /// Compare the hash word only on table probes (ablation).
    #[arg(long)]
    no_checksum: bool,
    /// Play the one-ply greedy baseline instead of searching (for tournaments).
    #[arg(long)]
    greedy: bool,
    /// Evaluation weight set: `fitted` (`wuzi-tune`'s, the default since an SPRT accepted
    /// it) or `hand` (the hand-set weights it replaced).
    #[arg(long, value_name = "SET", default_value = "fitted")]
    eval: wuzi::eval::sets::SetName,
    /// Search with the numbers of FILE (`name = value` lines, as `wuzi-tune spsa` writes
    /// them; names not given keep the engine's values) instead of the compiled-in ones.
    #[arg(long, value_name = "FILE", value_parser = read_search_params)]
    search_params: Option<SearchParams>,
    #[command(subcommand)]
    action: Option<Action>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Search the fixed bench suite and print nodes, speed and a signature.
    Bench {
        /// Search depth (default: the bench's own).
        depth: Option<i32>,
        /// Only the freestyle suite (`Bench: N`), skipping the other rules' positions.
        #[arg(long)]
        freestyle_only: bool,
        /// Search the freestyle suite N times in all, check that every run searches the
        /// same nodes, and report the best, median and worst nodes/s.
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
        runs: u16,
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
    // Before any board is built: boards read the set's tables when they are made.
    wuzi::eval::sets::select(cli.eval);
    let config = EngineConfig {
        tt_bytes: cli.tt_mb.map(|mb| mb.saturating_mul(1 << 20)),
        use_checksum: !cli.no_checksum,
        greedy: cli.greedy,
        search: cli.search_params.unwrap_or_default(),
    };
    if let Some(Action::Bench {
        depth,
        freestyle_only,
        runs,
    }) = cli.action
    {
        let mut out = io::stdout().lock();
        let runs = usize::from(runs);
        let ok = wuzi::bench::run(depth, !freestyle_only, runs, config, &mut out).is_ok();
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

/// `--search-params`: the file's numbers over the defaults, or why not.
fn read_search_params(path: &str) -> Result<SearchParams, String> {
    SearchParams::read(path.as_ref()).map_err(|e| e.0)
}

/// The protocol loop; returns on END or EOF (by exiting the process).
fn serve(config: EngineConfig) {
    let (tx, rx) = mpsc::channel::<Input>();
    let mut brain = Brain::new(config);
    let flags = Flags {
        stop: brain.stop_flag(),
        ended: Arc::new(AtomicBool::new(false)),
    };
    let ended = Arc::clone(&flags.ended);
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_loop(tx, flags));
    if spawned.is_err() {
        return;
    }
    let mut out = BufWriter::new(io::stdout().lock());
    for (input, arrival) in rx {
        // END takes effect in its turn: commands before it in the input are answered (a
        // script piped in one write gets its OK), but no search is started once END is read.
        let search = searches(&input);
        if interrupt(&input) == Interrupt::End || (search && ended.load(Ordering::SeqCst)) {
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
        // END arrived while this search ran and cut it short: its move is not written.
        if search && ended.load(Ordering::SeqCst) {
            std::process::exit(0);
        }
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

/// The flags the stdin thread raises for the main thread.
struct Flags {
    /// Ends the running search (the brain's stop flag).
    stop: Arc<AtomicBool>,
    /// `END` arrived: no search may start or answer any more.
    ended: Arc<AtomicBool>,
}

/// Read and parse stdin. After END the main thread answers the commands queued before it
/// but no search, and exits as soon as the search it may be running stops. After EOF it
/// gets a short grace to write the replies already owed (it exits by itself at the end of
/// the queue); a search still running then is not waited for. Either way the process ends
/// at the latest one grace after the last line.
fn read_loop(tx: mpsc::Sender<Input>, flags: Flags) {
    let Flags { stop, ended } = flags;
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
        // A stop (YXSTOP, STOP, piskvork's INFO timeout_turn 0) arrives while the main
        // thread is searching: raise the flag at once; the command itself is queued and
        // handled in order as usual. END also forbids any further search reply, so the
        // main thread exits in milliseconds without the interrupted search's move.
        let end = match interrupt(&parsed) {
            Interrupt::None => false,
            Interrupt::Stop => {
                stop.store(true, Ordering::Relaxed);
                false
            }
            Interrupt::End => {
                ended.store(true, Ordering::SeqCst);
                stop.store(true, Ordering::Relaxed);
                true
            }
        };
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
