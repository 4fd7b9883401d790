//! One game between two engines: handshake, moves, referee, shutdown.
//!
//! Timing follows the Gomocup managers: a move is due within
//! `min(timeout_turn, time left on the game clock) + tolerance` of sending the command that
//! asks for it; the time an engine spends counts against its game clock, and the time left
//! goes negative when a move overran into the tolerance, which shortens the next allowance
//! (the tolerance is granted once per game clock, not once per move). `timeout_turn = 0` is
//! sent as is and means "answer at once", so only the tolerance remains.

use crate::board::{Board, Side};
use crate::brain::{Brain, Log, Recv, END_GRACE};
use crate::config::{EngineSpec, Settings};
use crate::record::{Outcome, Reason, SideReport, MESSAGES_PER_MOVE, MESSAGE_CAP};
use crate::renju;
use gomocup_protocol::{Command, Coord, Info, Response, TtReport};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `time_left` value that means "no game clock" to every manager and engine.
pub const UNLIMITED: i64 = 2_147_483_647;

/// Longest reply text kept in a failure detail.
const DETAIL_CAP: usize = 120;

/// A finished game, before it is written anywhere.
#[derive(Clone, Debug)]
pub struct Played {
    /// Result from black's point of view.
    pub outcome: Outcome,
    /// How it ended.
    pub reason: Reason,
    /// Free text for failures.
    pub detail: String,
    /// Every stone in play order with the think time spent on it (0 for opening stones).
    pub moves: Vec<(usize, usize, u64)>,
    /// For each of `moves`, the mover's `MESSAGE` texts while it thought (empty for opening
    /// stones).
    pub messages: Vec<Vec<String>>,
    /// Black's side.
    pub black: SideReport,
    /// White's side.
    pub white: SideReport,
}

/// The engines and conditions of one game.
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// Conditions.
    pub settings: &'a Settings,
    /// Engine with black.
    pub black: &'a EngineSpec,
    /// Engine with white.
    pub white: &'a EngineSpec,
    /// Opening stones, black first.
    pub opening: &'a [(usize, usize)],
    /// Folder for the two engine logs.
    pub log_dir: &'a Path,
    /// Game number, for log names.
    pub game: usize,
}

/// A game ending decided by the referee.
struct End {
    outcome: Outcome,
    reason: Reason,
    detail: String,
}

impl End {
    fn loss(loser: Side, reason: Reason, detail: impl Into<String>) -> End {
        End {
            outcome: Outcome::win_for(loser.other()),
            reason,
            detail: detail.into(),
        }
    }

    fn draw(reason: Reason) -> End {
        End {
            outcome: Outcome::Draw,
            reason,
            detail: String::new(),
        }
    }
}

/// One side during the game.
struct Player {
    brain: Option<Brain>,
    report: SideReport,
    /// Whether the engine has had its first `BOARD` (afterwards it gets `TURN`).
    synced: bool,
    /// Game clock used so far, ms.
    used_ms: u64,
}

/// What an engine answered when a move was due.
enum Answer {
    Move(Coord, u64),
    Fault(Reason, String),
}

/// Plays one game to the end and shuts both engines down.
pub fn play(setup: Setup<'_>) -> Played {
    let s = setup.settings;
    // Each side's limits: the tournament's, or the engine's own (time odds).
    let limits = [s.for_engine(setup.black), s.for_engine(setup.white)];
    let (black, black_failed) = start(setup, &limits[0], Side::Black, setup.black);
    let (white, white_failed) = start(setup, &limits[1], Side::White, setup.white);
    let mut sides = [black, white];
    let mut board = Board::new(s.board_size);
    let mut moves: Vec<(usize, usize, u64)> = Vec::new();
    let mut messages: Vec<Vec<String>> = Vec::new();
    for &(x, y) in setup.opening {
        // Openings were checked when the config was loaded.
        let _ = board.play(x as i64, y as i64);
        moves.push((x, y, 0));
        messages.push(Vec::new());
    }

    // An engine killed for its memory during START lost to the limit, not to the protocol.
    let start_reason = |p: &Player| match p.brain.as_ref().and_then(Brain::memory_exceeded) {
        Some(_) => Reason::Memory,
        None => Reason::StartFailed,
    };
    let end = match (black_failed, white_failed) {
        (None, None) => run(&limits, &mut sides, &mut board, &mut moves, &mut messages),
        (Some(why), None) => End::loss(Side::Black, start_reason(&sides[0]), why),
        (None, Some(why)) => End::loss(Side::White, start_reason(&sides[1]), why),
        (Some(a), Some(b)) => End {
            outcome: Outcome::Draw,
            reason: Reason::StartFailed,
            detail: format!("both engines failed to start: black: {a}; white: {b}"),
        },
    };

    let deadline = Instant::now() + END_GRACE;
    for p in sides.iter_mut() {
        p.report.pending.clear();
        if let Some(b) = p.brain.as_mut() {
            p.report.peak_rss_kib = b.peak_rss_kib();
            b.send_end();
        }
    }
    let [black, white] = sides;
    for b in [black.brain, white.brain].into_iter().flatten() {
        b.finish(deadline);
    }
    Played {
        outcome: end.outcome,
        reason: end.reason,
        detail: end.detail,
        moves,
        messages,
        black: black.report,
        white: white.report,
    }
}

fn index(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

/// Spawns an engine and runs `ABOUT`, `START` and the `INFO` settings; the second value is
/// why the engine cannot play, if it cannot.
fn start(
    setup: Setup<'_>,
    s: &Settings,
    side: Side,
    spec: &EngineSpec,
) -> (Player, Option<String>) {
    let log_path = setup.log_dir.join(format!(
        "{:04}-{}-{}.log",
        setup.game,
        side,
        file_safe(&spec.name)
    ));
    let log = Arc::new(Log::create(&log_path));
    let mut player = Player {
        brain: None,
        report: SideReport::default(),
        synced: false,
        used_ms: 0,
    };
    let mut brain = match Brain::spawn(spec, log) {
        Ok(b) => b,
        Err(e) => return (player, Some(e)),
    };
    brain.watch_memory(s.memory_limit);
    // START may allocate a large table: allow a full move (at least a second) plus tolerance.
    let patience = Duration::from_millis(s.timeout_turn_ms.max(1000) + s.tolerance_ms);

    brain.send(&Command::About);
    let about = match next_reply(
        &mut brain,
        &mut player.report,
        Instant::now() + patience,
        |_| false,
    ) {
        Ok(line) => line,
        Err(why) => {
            player.brain = Some(brain);
            return (player, Some(format!("ABOUT: {why}")));
        }
    };
    player.report.about = Some(about);

    brain.send(&Command::Start(s.board_size as u32));
    // Lenient: lines that are no protocol response at all are skipped while OK is due.
    let noise = |line: &str| s.lenient_replies && is_noise(line, false);
    let answer = next_reply(
        &mut brain,
        &mut player.report,
        Instant::now() + patience,
        noise,
    );
    let failed = match answer {
        Ok(line) => match Response::parse(&line) {
            Ok(Response::Ok) => None,
            _ => Some(format!("START answered {line:?}")),
        },
        Err(why) => Some(format!("START: {why}")),
    };
    if failed.is_none() {
        let clock = i64::try_from(s.timeout_match_ms).unwrap_or(i64::MAX);
        for info in [
            Info::TimeoutTurn(i64::try_from(s.timeout_turn_ms).unwrap_or(i64::MAX)),
            Info::TimeoutMatch(clock),
            Info::MaxMemory(s.max_memory),
            Info::Rule(u64::from(s.rule_bits)),
            Info::GameType(2),
        ] {
            brain.send(&Command::Info(info));
        }
        for info in &spec.options {
            brain.send(&Command::Info(info.clone()));
        }
    }
    player.brain = Some(brain);
    (player, failed)
}

/// Why no reply came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Silence {
    Timeout,
    Closed,
}

impl std::fmt::Display for Silence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Silence::Timeout => "no answer in time",
            Silence::Closed => "the engine exited",
        })
    }
}

/// Whether `line` is noise under lenient replies: a line that is no protocol response, and,
/// while a move is due (`move_due`, GomocupJudge's rule), any line that is not a move.
pub(crate) fn is_noise(line: &str, move_due: bool) -> bool {
    match Response::parse(line) {
        Ok(Response::Move(_)) => false,
        Ok(_) => move_due,
        Err(_) => true,
    }
}

/// The next line that is not `MESSAGE`/`DEBUG` (those are counted and kept as they come)
/// and that `skip` does not reject (those are counted), clipped for records. An over-long line comes back as a placeholder, which no parser
/// accepts, so it is scored as malformed.
fn next_reply(
    brain: &mut Brain,
    report: &mut SideReport,
    deadline: Instant,
    skip: impl Fn(&str) -> bool,
) -> Result<String, Silence> {
    loop {
        match brain.recv(deadline) {
            Recv::Line(Some(line)) => {
                if absorb(&line, report) {
                    continue;
                }
                if skip(&line) {
                    report.skipped += 1;
                    continue;
                }
                return Ok(clip(&line));
            }
            Recv::Line(None) => return Ok("(line over the length cap)".to_string()),
            Recv::Timeout => return Err(Silence::Timeout),
            Recv::Closed => return Err(Silence::Closed),
        }
    }
}

/// Handles informational lines; returns whether `line` was one.
fn absorb(line: &str, report: &mut SideReport) -> bool {
    match Response::parse(line) {
        Ok(Response::Message(text)) => {
            report.messages += 1;
            if report.pending.len() < MESSAGES_PER_MOVE {
                report
                    .pending
                    .push(text.chars().take(MESSAGE_CAP).collect());
            }
            if let Ok(tt) = TtReport::parse_line(line) {
                report.tt = Some(tt);
            }
            true
        }
        Ok(Response::Debug(_)) => true,
        _ => false,
    }
}

/// The move loop, from the position after the opening; `limits` are black's and white's
/// conditions (the same but for their time limits).
fn run(
    limits: &[Settings; 2],
    sides: &mut [Player; 2],
    board: &mut Board,
    moves: &mut Vec<(usize, usize, u64)>,
    messages: &mut Vec<Vec<String>>,
) -> End {
    let s = &limits[0];
    loop {
        if board.is_full() {
            return End::draw(Reason::BoardFull);
        }
        if board.moves().len() >= s.draw_after_moves {
            return End::draw(Reason::MoveLimit);
        }
        let side = board.to_move();
        let answer = ask(&limits[index(side)], &mut sides[index(side)], side, board);
        let (at, ms) = match answer {
            Answer::Move(at, ms) => (at, ms),
            Answer::Fault(reason, detail) => return End::loss(side, reason, detail),
        };
        // Renju: judged on the board before the stone, but scored after the five check.
        let cell = usize::try_from(at.x).ok().zip(usize::try_from(at.y).ok());
        let foul = match cell {
            Some((x, y)) if s.rule.renju && side == Side::Black => renju::foul(board, x, y),
            _ => None,
        };
        if let Err(e) = board.play(at.x, at.y) {
            return End::loss(side, Reason::Illegal, format!("{at}: {e}"));
        }
        let (x, y) = (at.x as usize, at.y as usize);
        moves.push((x, y, ms));
        messages.push(std::mem::take(&mut sides[index(side)].report.pending));
        if board.wins_at(x, y, s.rule) {
            return End {
                outcome: Outcome::win_for(side),
                reason: Reason::Five,
                detail: String::new(),
            };
        }
        if let Some(f) = foul {
            return End::loss(side, Reason::foul(f), format!("{f} at {at}"));
        }
    }
}

/// Asks `side` for a move: `INFO time_left`, then the whole position by `BOARD` the first
/// time and `TURN` with the opponent's last stone afterwards.
fn ask(s: &Settings, player: &mut Player, side: Side, board: &Board) -> Answer {
    let Some(brain) = player.brain.as_mut() else {
        return Answer::Fault(Reason::Crash, "no process".to_string());
    };
    if let Some(fault) = over_memory(s, brain) {
        return fault;
    }
    let clock = s.timeout_match_ms > 0;
    let left = if clock {
        s.timeout_match_ms as i64 - player.used_ms as i64
    } else {
        UNLIMITED
    };
    let command = match (player.synced, board.moves().last()) {
        (true, Some(&(x, y))) => Command::Turn(Coord::new(x as i64, y as i64)),
        _ => Command::Board(board.stones_for(side)),
    };
    player.synced = true;

    // The game clock is cumulative: time spent beyond it (inside the tolerance) is taken off
    // the next move's allowance, so an engine cannot overrun by the tolerance on every move.
    let turn = i64::try_from(s.timeout_turn_ms).unwrap_or(i64::MAX);
    let clock_binds = clock && left < turn;
    let limit = if clock { turn.min(left) } else { turn };
    let tolerance = i64::try_from(s.tolerance_ms).unwrap_or(i64::MAX);
    let wait = limit.saturating_add(tolerance).max(0) as u64;
    brain.send(&Command::Info(Info::TimeLeft(left)));
    brain.send(&command);
    let sent = Instant::now();
    let deadline = sent + Duration::from_millis(wait);

    let report = &mut player.report;
    // Lenient: like GomocupJudge, anything but a move is skipped while a move is due.
    let noise = |line: &str| s.lenient_replies && is_noise(line, true);
    let reply = next_reply(brain, report, deadline, noise);
    let ms = sent.elapsed().as_millis() as u64;
    // Over the limit while thinking loses, whatever came back (the watcher killed it).
    if let Some(fault) = over_memory(s, brain) {
        return fault;
    }
    let line = match reply {
        Ok(line) => line,
        Err(Silence::Closed) => {
            let status = brain
                .exit_status(Duration::from_millis(200))
                .map_or("stdout closed".to_string(), |st| format!("exited: {st}"));
            return Answer::Fault(Reason::Crash, status);
        }
        Err(Silence::Timeout) => {
            let reason = if clock_binds {
                Reason::MatchClock
            } else {
                Reason::Timeout
            };
            return Answer::Fault(
                reason,
                format!(
                    "no move after {ms} ms (limit {limit} ms + tolerance {} ms)",
                    s.tolerance_ms
                ),
            );
        }
    };
    match Response::parse(&line) {
        Ok(Response::Move(at)) => {
            report.moves += 1;
            report.time_ms += ms;
            report.max_move_ms = report.max_move_ms.max(ms);
            player.used_ms += ms;
            Answer::Move(at, ms)
        }
        _ => Answer::Fault(Reason::Malformed, line),
    }
}

/// The loss for an engine whose resident memory broke `memory_limit`, if it did.
fn over_memory(s: &Settings, brain: &Brain) -> Option<Answer> {
    let bytes = brain.memory_exceeded()?;
    Some(Answer::Fault(
        Reason::Memory,
        format!(
            "resident memory {} over the limit of {}",
            crate::memory::mib(bytes),
            crate::memory::mib(s.memory_limit)
        ),
    ))
}

fn clip(text: &str) -> String {
    text.chars().take(DETAIL_CAP).collect()
}

/// Engine names go into file names; anything but letters, digits, `-`, `_` and `.` becomes `_`.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}
