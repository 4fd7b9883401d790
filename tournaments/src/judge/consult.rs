//! One consultation of an engine process (tested or judging): start it, send the `INFO`
//! lines and the position, read its move and last score, end it.

use super::score::{self, Eval};
use super::Fault;
use crate::board::Board;
use crate::brain::{Brain, Log, Recv, END_GRACE};
use crate::config::EngineSpec;
use crate::game::{is_noise, UNLIMITED};
use gomocup_protocol::{Command, Coord, Info, Response};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) fn log_for(dir: Option<&Path>, id: &str, role: &str) -> Arc<Log> {
    Arc::new(match dir {
        Some(dir) => Log::create(&dir.join(format!("{}-{role}.log", crate::game::file_safe(id)))),
        None => Log::disabled(),
    })
}

/// A move and what the engine said while choosing it.
pub(crate) struct Answer {
    /// The move.
    pub(crate) at: Coord,
    /// Think time as measured here (ms).
    pub(crate) ms: u64,
    /// The last score it reported (its own view).
    pub(crate) eval: Option<Eval>,
}

/// The board size `START` announces, and how long `START` may take: it may allocate a
/// large table, so a full move (at least a second) plus the tolerance.
#[derive(Clone, Copy, Debug)]
pub(super) struct Talk {
    size: usize,
    patience: Duration,
    /// Skip lines that are no protocol response instead of failing on them.
    lenient: bool,
}

impl Talk {
    pub(super) fn new(size: usize, turn_ms: u64, tolerance_ms: u64, lenient: bool) -> Talk {
        Talk {
            size,
            patience: Duration::from_millis(turn_ms.max(1000).saturating_add(tolerance_ms)),
            lenient,
        }
    }
}

/// Starts `spec`, sets it up, sends the position by `BOARD` with the side to move's stones
/// as its own, reads its move and ends it.
pub(super) fn consult(
    talk: Talk,
    spec: &EngineSpec,
    log: Arc<Log>,
    infos: &[Info],
    board: &Board,
    wait: Duration,
) -> Result<Answer, Fault> {
    let mut brain = Brain::spawn(spec, log).map_err(|e| Fault::new("start failed", e))?;
    let answer = converse(talk, &mut brain, infos, board, wait);
    brain.send_end();
    brain.finish(Instant::now() + END_GRACE);
    answer
}

fn converse(
    talk: Talk,
    brain: &mut Brain,
    infos: &[Info],
    board: &Board,
    wait: Duration,
) -> Result<Answer, Fault> {
    brain.send(&Command::Start(talk.size as u32));
    let mut said = Vec::new();
    // Under lenient replies, the game runner's rule for noise (`game::is_noise`).
    let noise = |line: &str| talk.lenient && is_noise(line, false);
    match next_line(brain, Instant::now() + talk.patience, &mut said, &noise) {
        Ok(line) if matches!(Response::parse(&line), Ok(Response::Ok)) => {}
        Ok(line) => {
            return Err(Fault::new(
                "start failed",
                format!("START answered {line:?}"),
            ))
        }
        Err(f) => return Err(Fault::new("start failed", format!("START: {}", f.detail))),
    }
    for info in infos {
        brain.send(&Command::Info(info.clone()));
    }
    let stones = board.stones_for(board.to_move());
    brain.send(&Command::Info(Info::TimeLeft(UNLIMITED)));
    brain.send(&Command::Board(stones));
    let sent = Instant::now();
    let mut said = Vec::new();
    let not_a_move = |line: &str| talk.lenient && is_noise(line, true);
    let line = next_line(brain, sent + wait, &mut said, &not_a_move)?;
    let ms = sent.elapsed().as_millis() as u64;
    let eval = score::last_score(said.iter().map(String::as_str));
    match Response::parse(&line) {
        Ok(Response::Move(at)) => Ok(Answer { at, ms, eval }),
        _ => Err(Fault::new(
            "malformed",
            line.chars().take(120).collect::<String>(),
        )),
    }
}

/// The next line that is not `MESSAGE` (whose texts are kept), `DEBUG` or `noise` (skipped;
/// the engine's log keeps every line).
fn next_line(
    brain: &mut Brain,
    deadline: Instant,
    said: &mut Vec<String>,
    noise: &dyn Fn(&str) -> bool,
) -> Result<String, Fault> {
    let started = Instant::now();
    loop {
        match brain.recv(deadline) {
            Recv::Line(Some(line)) => match Response::parse(&line) {
                Ok(Response::Message(text)) => said.push(text),
                Ok(Response::Debug(_)) => {}
                _ if noise(&line) => {}
                _ => return Ok(line),
            },
            Recv::Line(None) => return Ok("(line over the length cap)".to_string()),
            Recv::Timeout => {
                return Err(Fault::new(
                    "timeout",
                    format!("no answer within {} ms", started.elapsed().as_millis()),
                ))
            }
            Recv::Closed => {
                let status = brain
                    .exit_status(Duration::from_millis(200))
                    .map_or("stdout closed".to_string(), |s| format!("exited: {s}"));
                return Err(Fault::new("crash", status));
            }
        }
    }
}
