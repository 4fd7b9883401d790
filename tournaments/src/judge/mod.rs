//! `wuzi-tournament judge`: on a file of positions (usually decisive mistakes from lost
//! games), does an engine avoid the mistake? Each position goes to the engine in a fresh
//! process, as a Gomocup manager would send it; the position after its move goes to a
//! judge engine (a fresh process with a node limit), whose last reported score, turned to
//! the tested side's view, must be above a threshold.
//!
//! The engine's side is the side to move in the position; the judge plays the other side,
//! so its score is negated. A move that makes five is a win without asking the judge.
//! Without a judge only the engine is asked: its moves, its own claims of a win (on a file
//! of won positions, the wins it proves) and its fives are counted.

pub mod mistakes;
pub mod positions;
pub mod report;
pub mod score;

mod consult;

pub(crate) use consult::Answer;

use crate::board::{Board, Rule, Side};
use crate::config::EngineSpec;
use consult::{consult, log_for, Talk};
use gomocup_protocol::Info;
use positions::{sgf, Position};
use score::Eval;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How a run is set up.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine under test.
    pub engine: EngineSpec,
    /// The engine whose score decides (`None`: no position is scored but by a five).
    pub judge: Option<EngineSpec>,
    /// Board side.
    pub size: usize,
    /// `INFO rule` bits sent to both engines.
    pub rule_bits: u32,
    /// The engine's move time, `INFO timeout_turn` (ms).
    pub turn_ms: u64,
    /// The engine's `INFO max_node`, if any: with an engine that honours it, the answers
    /// no longer depend on the machine's speed or load.
    pub engine_nodes: Option<u64>,
    /// The judge's `INFO max_node`.
    pub judge_nodes: u64,
    /// The judge's `INFO timeout_turn` (ms); its reply is due within this plus the tolerance.
    pub judge_turn_ms: u64,
    /// The judge's `INFO thread_num` (0 = not sent).
    pub judge_threads: u64,
    /// Grace after a limit before a reply counts as late (ms).
    pub tolerance_ms: u64,
    /// Skip lines that are no protocol response instead of scoring them as a malformed
    /// reply (the tournament's `lenient_replies`); for engines that print noise.
    pub lenient_replies: bool,
    /// `INFO max_memory` for both (bytes).
    pub max_memory: u64,
    /// A judge score (tested side's view) above this counts as avoided.
    pub threshold: i64,
    /// Positions handled at the same time.
    pub concurrency: usize,
    /// Folder for the per-position engine logs, if any.
    pub log_dir: Option<PathBuf>,
    /// Print a line on stderr as each position finishes.
    pub progress: bool,
}

/// Why an engine gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fault {
    /// `start failed`, `timeout`, `crash`, `malformed`, `illegal` or `no score`.
    pub kind: String,
    /// What happened.
    pub detail: String,
}

impl Fault {
    fn new(kind: &str, detail: impl Into<String>) -> Fault {
        Fault {
            kind: kind.to_string(),
            detail: detail.into(),
        }
    }

    /// A judge whose messages held no score.
    fn no_score() -> Fault {
        Fault::new(
            "no score",
            "no MESSAGE line with a score it understands (see judge::score)",
        )
    }
}

/// The answer of one position.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The position's id.
    pub id: String,
    /// The id of an earlier position of the file with the same stones, if any.
    pub same_as: Option<String>,
    /// The tested engine's colour (the side to move).
    pub side: Side,
    /// The game's (losing) move, SGF letters.
    pub game_move: Option<String>,
    /// The better move of the file, SGF letters.
    pub better_move: Option<String>,
    /// The engine's move, SGF letters.
    pub engine_move: Option<String>,
    /// The engine's think time as measured here (ms).
    pub engine_ms: Option<u64>,
    /// The engine's own last reported score (its view), if it printed one.
    pub engine_eval: Option<String>,
    /// Whether that score is a win it claims to have found (a mate for the engine).
    pub engine_claims_win: bool,
    /// Why the engine gave no move.
    pub engine_fault: Option<Fault>,
    /// The judge's score as it printed it (the judge's view).
    pub judge_raw: Option<String>,
    /// The judge's score from the tested side's view (`+M0`: the engine made five).
    pub score: Option<String>,
    /// `score` in centi-stones when it is no mate.
    pub score_cp: Option<i64>,
    /// `score` as signed plies to a five when it is a mate (negative: the engine loses).
    pub score_mate: Option<i64>,
    /// The judge's think time (ms).
    pub judge_ms: Option<u64>,
    /// Why the judge gave no score.
    pub judge_fault: Option<Fault>,
    /// Whether the score is above the threshold.
    pub avoided: bool,
    /// Wall time for the position, both engines included (ms).
    pub wall_ms: u64,
    /// `score` itself.
    #[serde(skip)]
    pub eval: Option<Eval>,
}

impl Verdict {
    /// The verdict of position `id` with `side` to move before anything is asked: no move,
    /// no score, not avoided.
    pub fn unanswered(id: &str, side: Side) -> Verdict {
        Verdict {
            id: id.to_string(),
            same_as: None,
            side,
            game_move: None,
            better_move: None,
            engine_move: None,
            engine_ms: None,
            engine_eval: None,
            engine_claims_win: false,
            engine_fault: None,
            judge_raw: None,
            score: None,
            score_cp: None,
            score_mate: None,
            judge_ms: None,
            judge_fault: None,
            avoided: false,
            wall_ms: 0,
            eval: None,
        }
    }
}

/// Builds an engine spec from a command line split at blanks (no quoting): a program with a
/// `/` is a file (relative to the current directory), a bare name is looked up on `PATH`.
/// It runs in its own folder, like a tournament's engines.
pub fn engine_from_command(name: &str, command: &str) -> Result<EngineSpec, String> {
    let mut words = command.split_whitespace();
    let Some(program) = words.next() else {
        return Err(format!("--{name}: empty command"));
    };
    let path = if program.contains('/') {
        let p = PathBuf::from(program);
        let p = std::path::absolute(&p).unwrap_or(p);
        if !crate::proc::is_executable(&p) {
            return Err(format!(
                "--{name}: {} is not an executable file",
                p.display()
            ));
        }
        p
    } else {
        crate::proc::find_on_path(program)
            .ok_or_else(|| format!("--{name}: {program} is not on PATH"))?
    };
    let workdir = path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    Ok(EngineSpec {
        name: name.to_string(),
        command: path,
        args: words.map(str::to_string).collect(),
        workdir,
        options: Vec::new(),
        timeout_turn_ms: None,
        timeout_match_ms: None,
    })
}

/// Runs every position and returns the verdicts in file order.
pub fn run(opts: &Options, positions: &[Position]) -> Result<Vec<Verdict>, String> {
    let rule = rule_without_fouls(opts.rule_bits, "judge")?;
    if let Some(dir) = &opts.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut verdicts = in_order(
        positions,
        opts.concurrency,
        |p| judge_position(opts, rule, p),
        |k, v| {
            if opts.progress {
                eprintln!("[{k}/{}] {}", positions.len(), report::progress_line(v));
            }
        },
    )?;
    for (v, same) in verdicts.iter_mut().zip(positions::same_as(positions)) {
        v.same_as = same;
    }
    Ok(verdicts)
}

/// The rule of `bits` for `command`, which checks no fouls, so renju is refused.
pub(crate) fn rule_without_fouls(bits: u32, command: &str) -> Result<Rule, String> {
    let rule = Rule::from_bits(bits)?;
    if rule.renju {
        return Err(format!(
            "renju is not supported by {command} (fouls are not checked)"
        ));
    }
    Ok(rule)
}

/// `work` on every item, `concurrency` at a time (each takes seconds: engines start and
/// think), with the results in the items' order; `done(k, result)` is called as the `k`-th
/// result finishes (from 1, in the order they finish).
pub(crate) fn in_order<T: Sync, R: Send>(
    items: &[T],
    concurrency: usize,
    work: impl Fn(&T) -> R + Sync,
    done: impl Fn(usize, &R) + Sync,
) -> Result<Vec<R>, String> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..concurrency.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(i) else {
                    return;
                };
                let r = work(item);
                done(finished.fetch_add(1, Ordering::SeqCst) + 1, &r);
                if let Ok(mut slots) = slots.lock() {
                    slots[i] = Some(r);
                }
            });
        }
    });
    slots
        .into_inner()
        .map_err(|_| "a worker panicked".to_string())?
        .into_iter()
        .collect::<Option<Vec<R>>>()
        .ok_or_else(|| "a worker panicked".to_string())
}

/// The whole procedure for one position.
pub fn judge_position(opts: &Options, rule: Rule, p: &Position) -> Verdict {
    let started = Instant::now();
    let mut board = Board::new(opts.size);
    for &(x, y) in &p.moves {
        // Checked when the file was read.
        let _ = board.play(x as i64, y as i64);
    }
    let mut v = Verdict::unanswered(&p.id, board.to_move());
    v.game_move = p.game_move.map(sgf);
    v.better_move = p.better.map(sgf);
    let engine_infos = infos(
        opts.turn_ms,
        opts.max_memory,
        opts.rule_bits,
        opts.engine_nodes,
        0,
    );
    let wait = Duration::from_millis(opts.turn_ms.saturating_add(opts.tolerance_ms));
    let log = log_for(opts.log_dir.as_deref(), &p.id, "engine");
    let talk = Talk::new(
        opts.size,
        opts.turn_ms,
        opts.tolerance_ms,
        opts.lenient_replies,
    );
    match consult(talk, &opts.engine, log, &engine_infos, &board, wait) {
        Err(f) => v.engine_fault = Some(f),
        Ok(answer) => {
            v.engine_ms = Some(answer.ms);
            v.engine_eval = answer.eval.map(|e| e.to_string());
            v.engine_claims_win = matches!(answer.eval, Some(Eval::Mate { win: true, .. }));
            v.engine_move = Some(format!("{}", answer.at));
            match board.play(answer.at.x, answer.at.y) {
                Err(e) => {
                    v.engine_fault = Some(Fault::new("illegal", format!("{}: {e}", answer.at)))
                }
                Ok(()) => {
                    let (x, y) = (answer.at.x as usize, answer.at.y as usize);
                    v.engine_move = Some(sgf((x, y)));
                    if board.wins_at(x, y, rule) {
                        set_score(
                            &mut v,
                            Eval::Mate {
                                win: true,
                                plies: Some(0),
                            },
                        );
                    } else if board.is_full() {
                        set_score(&mut v, Eval::Cp(0));
                    } else if let Some(judge) = opts.judge() {
                        ask_judge(judge, p, &board, &mut v);
                    }
                }
            }
        }
    }
    v.avoided = v.eval.is_some_and(|e| e.above(opts.threshold));
    v.wall_ms = started.elapsed().as_millis() as u64;
    v
}

/// One way of asking a judge: the engine, its limits (a node count binds; the move time is
/// generous) and what every consultation sends. `judge` and `mistakes` both ask through it.
#[derive(Clone, Copy, Debug)]
pub struct Judge<'a> {
    /// The judge engine.
    pub spec: &'a EngineSpec,
    /// `INFO max_node`.
    pub nodes: u64,
    /// `INFO timeout_turn` (ms).
    pub turn_ms: u64,
    /// `INFO thread_num` (0 = not sent).
    pub threads: u64,
    /// `INFO rule` bits.
    pub rule_bits: u32,
    /// `INFO max_memory` (bytes).
    pub max_memory: u64,
    /// Grace after a limit before a reply counts as late (ms).
    pub tolerance_ms: u64,
    /// Skip the judge's lines that are no protocol response (see `Options`).
    pub lenient_replies: bool,
    /// How long `START` may take before the tolerance (at least a second is allowed).
    pub start_ms: u64,
    /// Folder for the logs, if any.
    pub log_dir: Option<&'a Path>,
}

impl Judge<'_> {
    /// The `INFO` lines the judge gets before a position.
    fn infos(&self) -> Vec<Info> {
        infos(
            self.turn_ms,
            self.max_memory,
            self.rule_bits,
            Some(self.nodes),
            self.threads,
        )
    }

    /// The judge's move and score (its own view) for the side to move in `board`, from a
    /// fresh process; its log is `<id>-<role>.log`.
    pub(crate) fn ask(&self, board: &Board, id: &str, role: &str) -> Result<Answer, Fault> {
        let wait = Duration::from_millis(self.turn_ms.saturating_add(self.tolerance_ms));
        let talk = Talk::new(
            board.size(),
            self.start_ms,
            self.tolerance_ms,
            self.lenient_replies,
        );
        let log = log_for(self.log_dir, id, role);
        consult(talk, self.spec, log, &self.infos(), board, wait)
    }
}

impl Options {
    /// The judge as this run asks it, if it has one.
    fn judge(&self) -> Option<Judge<'_>> {
        Some(Judge {
            spec: self.judge.as_ref()?,
            nodes: self.judge_nodes,
            turn_ms: self.judge_turn_ms,
            threads: self.judge_threads,
            rule_bits: self.rule_bits,
            max_memory: self.max_memory,
            tolerance_ms: self.tolerance_ms,
            lenient_replies: self.lenient_replies,
            start_ms: self.turn_ms,
            log_dir: self.log_dir.as_deref(),
        })
    }
}

/// The `INFO` lines an engine (tested or judging) gets before a position: its move time, no
/// match clock, the memory, the rule, a single game, then `max_node` if given and
/// `thread_num` if not 0.
fn infos(
    turn_ms: u64,
    max_memory: u64,
    rule_bits: u32,
    nodes: Option<u64>,
    threads: u64,
) -> Vec<Info> {
    let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let mut infos = vec![
        Info::TimeoutTurn(count(turn_ms)),
        Info::TimeoutMatch(0),
        Info::MaxMemory(max_memory),
        Info::Rule(u64::from(rule_bits)),
        Info::GameType(2),
    ];
    if let Some(nodes) = nodes {
        infos.push(Info::MaxNode(count(nodes)));
    }
    if threads > 0 {
        infos.push(Info::ThreadNum(count(threads)));
    }
    infos
}

fn ask_judge(judge: Judge, p: &Position, board: &Board, v: &mut Verdict) {
    match judge.ask(board, &p.id, "judge") {
        Err(f) => v.judge_fault = Some(f),
        Ok(answer) => {
            v.judge_ms = Some(answer.ms);
            match answer.eval {
                None => v.judge_fault = Some(Fault::no_score()),
                Some(e) => {
                    v.judge_raw = Some(e.to_string());
                    set_score(v, e.flip());
                }
            }
        }
    }
}

fn set_score(v: &mut Verdict, e: Eval) {
    v.score = Some(e.to_string());
    v.score_cp = e.cp();
    v.score_mate = e.mate_plies();
    v.eval = Some(e);
}
