//! Replays `protocol/transcripts/*.txt` against the real `pbrain-wuzi` binary (syntax in
//! `protocol/transcripts/README.md`). Each session is a fresh process; stderr must stay empty
//! and the process must exit promptly on END or EOF.

use gomocup_protocol::{Command, Coord, Parser, Response, TtReport};
use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an expected line may take when no `!within` bound is given.
const PATIENCE: Duration = Duration::from_secs(20);

/// Debug builds search far slower; protocol time bounds are checked at ×5 there and exactly
/// in release (which CI runs).
fn scale(ms: u64) -> Duration {
    let factor = if cfg!(debug_assertions) { 5 } else { 1 };
    Duration::from_millis(ms * factor)
}

#[derive(Debug)]
enum Pattern {
    Exact(String),
    Prefix(String),
    Move {
        not: Vec<Coord>,
        only: Vec<Coord>,
        save: Option<String>,
    },
    Stones(usize),
}

#[derive(Debug)]
enum Step {
    Send(Vec<u8>),
    Expect(Pattern),
    Within(u64),
    Silence(u64),
    Eof,
    Exited(u64),
}

struct Session {
    name: String,
    steps: Vec<Step>,
}

fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'r' => out.push(b'\r'),
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                b'0' => out.push(0),
                b'\\' => out.push(b'\\'),
                b'x' if i + 3 < b.len() => {
                    let hex = &text[i + 2..i + 4];
                    out.push(u8::from_str_radix(hex, 16).expect("bad \\x escape"));
                    i += 4;
                    continue;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

fn coord(text: &str) -> Coord {
    let (x, y) = text.split_once(',').expect("x,y");
    Coord::new(x.parse().expect("x"), y.parse().expect("y"))
}

fn parse_pattern(text: &str) -> Pattern {
    if let Some(rest) = text.strip_prefix("{move}") {
        let mut not = Vec::new();
        let mut only = Vec::new();
        let mut save = None;
        for word in rest.split_whitespace() {
            if let Some(v) = word.strip_prefix('&') {
                save = Some(v.to_string());
            } else if let Some(c) = word.strip_prefix('!') {
                not.push(coord(c));
            } else if let Some(c) = word.strip_prefix('=') {
                only.push(coord(c));
            } else {
                panic!("bad move constraint {word}");
            }
        }
        return Pattern::Move { not, only, save };
    }
    if let Some(n) = text.strip_prefix("{stones ") {
        return Pattern::Stones(n.trim_end_matches('}').parse().expect("stone count"));
    }
    match text.strip_suffix('*') {
        Some(prefix) => Pattern::Prefix(prefix.to_string()),
        None => Pattern::Exact(text.to_string()),
    }
}

fn load(path: &Path) -> Vec<Session> {
    let text = std::fs::read_to_string(path).expect("transcript readable");
    let mut sessions: Vec<Session> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let stem = path.file_name().and_then(|f| f.to_str()).unwrap_or("?");
        if let Some(name) = line.strip_prefix("=== ") {
            sessions.push(Session {
                name: format!("{stem}: {name}"),
                steps: Vec::new(),
            });
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if sessions.is_empty() {
            sessions.push(Session {
                name: stem.to_string(),
                steps: Vec::new(),
            });
        }
        let steps = &mut sessions.last_mut().expect("a session").steps;
        let number = |s: &str| s.trim().parse::<u64>().expect("a number");
        let step = if let Some(t) = line.strip_prefix("> ") {
            let mut bytes = unescape(t);
            bytes.push(b'\n');
            Step::Send(bytes)
        } else if line == ">" {
            Step::Send(b"\n".to_vec())
        } else if let Some(t) = line.strip_prefix("< ") {
            Step::Expect(parse_pattern(t))
        } else if let Some(t) = line.strip_prefix("!long ") {
            let (count, ch) = t.split_once(' ').expect("!long N C");
            let mut bytes = ch.as_bytes().repeat(number(count) as usize);
            bytes.push(b'\n');
            Step::Send(bytes)
        } else if let Some(t) = line.strip_prefix("!within ") {
            Step::Within(number(t))
        } else if let Some(t) = line.strip_prefix("!silence ") {
            Step::Silence(number(t))
        } else if line == "!eof" {
            Step::Eof
        } else if let Some(t) = line.strip_prefix("!exited ") {
            Step::Exited(number(t))
        } else {
            panic!("{}:{}: cannot read {line:?}", path.display(), n + 1);
        };
        steps.push(step);
    }
    sessions
}

/// The board as the manager side sees it, to check that every move is legal.
#[derive(Default)]
struct Tracker {
    parser: Parser,
    size: Option<i64>,
    taken: HashSet<Coord>,
    pending: Option<Command>,
}

impl Tracker {
    fn sent(&mut self, bytes: &[u8]) {
        for line in bytes.split(|&b| b == b'\n' || b == b'\r') {
            if let Some(Ok(cmd)) = self.parser.feed(line) {
                if !matches!(cmd, Command::Info(_)) {
                    self.pending = Some(cmd);
                }
            }
        }
    }

    fn reply(&mut self, r: &Response) {
        let pending = self.pending.take();
        match (r, pending) {
            (Response::Ok, Some(Command::Start(n))) => {
                self.size = Some(n as i64);
                self.taken.clear();
            }
            (Response::Ok, Some(Command::RectStart { width, .. })) => {
                self.size = Some(width as i64);
                self.taken.clear();
            }
            (Response::Ok, Some(Command::Restart)) => self.taken.clear(),
            (Response::Ok, Some(Command::Takeback(c))) => {
                self.taken.remove(&c);
            }
            (Response::Error(_), Some(Command::Start(_) | Command::RectStart { .. })) => {
                self.size = None;
            }
            (Response::Error(_), Some(Command::Board(_))) => self.taken.clear(),
            (Response::Move(_), Some(Command::Turn(c) | Command::Play(c))) => {
                self.taken.insert(c);
            }
            (Response::Move(_), Some(Command::Board(stones))) => {
                self.taken = stones.iter().map(|s| s.at).collect();
            }
            (Response::Move(_), Some(Command::Swap2Board(stones))) => {
                self.taken = stones.into_iter().collect();
            }
            (_, other) => self.pending = other,
        }
    }

    fn on_board(&self, c: Coord) -> bool {
        let n = self.size.unwrap_or(0);
        (0..n).contains(&c.x) && (0..n).contains(&c.y)
    }
}

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: std::thread::JoinHandle<Vec<u8>>,
}

fn spawn() -> Engine {
    let mut child = Process::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbrain-wuzi starts");
    let mut stdout = child.stdout.take().expect("stdout piped");
    let mut stderr = child.stderr.take().expect("stderr piped");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        // Split on \n only, keeping any \r, so a bare CR in output is caught.
        let mut buf = Vec::new();
        let mut byte = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut byte) {
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&byte[..n]);
            while let Some(i) = buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buf.drain(..=i).collect();
                let text = String::from_utf8_lossy(&line[..i]).into_owned();
                if tx.send(text).is_err() {
                    return;
                }
            }
        }
        if !buf.is_empty() {
            let _ = tx.send(format!("<unterminated>{}", String::from_utf8_lossy(&buf)));
        }
    });
    let stderr = std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = stderr.read_to_end(&mut all);
        all
    });
    let stdin = child.stdin.take();
    Engine {
        child,
        stdin,
        lines,
        stderr,
    }
}

impl Engine {
    fn next(&self, name: &str, wait: Duration) -> String {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                assert!(
                    !line.contains('\r'),
                    "{name}: output line with CR: {line:?}"
                );
                line
            }
            Err(RecvTimeoutError::Timeout) => panic!("{name}: no output within {wait:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("{name}: output closed early"),
        }
    }

    fn wait_exit(&mut self, name: &str, within: Duration) {
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    assert_eq!(status.code(), Some(0), "{name}: exit status");
                    return;
                }
                Ok(None) if start.elapsed() < within => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    let _ = self.child.kill();
                    panic!("{name}: still running {within:?} after END/EOF");
                }
            }
        }
    }
}

fn run(session: &Session) {
    let name = session.name.as_str();
    let mut engine = spawn();
    let mut tracker = Tracker::default();
    let mut last_send = Instant::now();
    let mut within: Option<Duration> = None;
    let mut finished = false;
    let mut lenient = false;
    let mut vars: HashMap<String, Coord> = HashMap::new();
    for step in &session.steps {
        match step {
            Step::Send(bytes) => {
                let bytes = &substitute(bytes, &vars);
                let stdin = engine.stdin.as_mut().expect("stdin open");
                stdin.write_all(bytes).expect("engine reads");
                stdin.flush().expect("engine reads");
                tracker.sent(bytes);
                last_send = Instant::now();
            }
            Step::Within(ms) => within = Some(scale(*ms)),
            Step::Silence(ms) => {
                if let Ok(line) = engine.lines.recv_timeout(Duration::from_millis(*ms)) {
                    panic!("{name}: expected silence, got {line:?}");
                }
            }
            Step::Expect(pattern) => {
                let got = expect(
                    &engine,
                    &mut tracker,
                    name,
                    pattern,
                    last_send,
                    within.take(),
                );
                if let (Pattern::Move { save: Some(v), .. }, Some(c)) = (pattern, got) {
                    vars.insert(v.clone(), c);
                }
            }
            Step::Eof => {
                lenient = true;
                engine.stdin = None;
                engine.wait_exit(name, Duration::from_secs(1));
                finished = true;
            }
            Step::Exited(ms) => {
                lenient = true;
                engine.wait_exit(name, scale(*ms));
                finished = true;
            }
        }
    }
    if !finished {
        let stdin = engine.stdin.as_mut().expect("stdin open");
        stdin.write_all(b"END\n").expect("engine reads END");
        stdin.flush().expect("engine reads END");
        // Stdin stays open, as c-gomoku-cli keeps it: END alone must end the process.
        engine.wait_exit(name, Duration::from_millis(500));
    }
    engine.stdin = None;
    let rest: Vec<String> = engine.lines.try_iter().collect();
    if lenient {
        // A search cut short by END/EOF may still have delivered its reply: MESSAGE lines and
        // at most one move (PROTOCOL.md §5 cases 11 and 73), nothing else.
        let moves = rest
            .iter()
            .filter(|l| !l.starts_with("MESSAGE ") && !l.starts_with("DEBUG "))
            .inspect(|l| {
                assert!(
                    matches!(Response::parse(l), Ok(Response::Move(_))),
                    "{name}: {l:?}"
                )
            })
            .count();
        assert!(moves <= 1, "{name}: {rest:?}");
    } else {
        assert!(rest.is_empty(), "{name}: unexpected output {rest:?}");
    }
    let stderr = engine.stderr.join().expect("stderr reader");
    assert!(
        stderr.is_empty(),
        "{name}: stderr {:?}",
        String::from_utf8_lossy(&stderr)
    );
}

/// Replace `$name` by the move saved under that name.
fn substitute(bytes: &[u8], vars: &HashMap<String, Coord>) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let end = bytes[i + 1..]
                .iter()
                .position(|b| !b.is_ascii_alphanumeric())
                .map_or(bytes.len(), |p| i + 1 + p);
            let key = String::from_utf8_lossy(&bytes[i + 1..end]).into_owned();
            let c = vars
                .get(&key)
                .unwrap_or_else(|| panic!("no saved move ${key}"));
            out.extend_from_slice(c.to_string().as_bytes());
            i = end;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn expect(
    engine: &Engine,
    tracker: &mut Tracker,
    name: &str,
    pattern: &Pattern,
    since: Instant,
    within: Option<Duration>,
) -> Option<Coord> {
    let wait = within.unwrap_or(PATIENCE);
    let deadline = since + wait;
    let next = |what: &str| {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = engine.next(
            &format!("{name} ({what})"),
            left.max(Duration::from_millis(1)),
        );
        line
    };
    match pattern {
        Pattern::Exact(want) => {
            let line = next(want);
            assert_eq!(&line, want, "{name}");
            if let Ok(r) = Response::parse(&line) {
                tracker.reply(&r);
            }
            None
        }
        Pattern::Prefix(want) => {
            let line = next(want);
            assert!(
                line.starts_with(want.as_str()),
                "{name}: {line:?} !~ {want}*"
            );
            if let Ok(r) = Response::parse(&line) {
                tracker.reply(&r);
            }
            None
        }
        Pattern::Move { not, only, .. } => {
            let human = next("MESSAGE depth");
            assert!(human.starts_with("MESSAGE depth "), "{name}: {human:?}");
            let tt = next("MESSAGE tt");
            assert!(TtReport::parse_line(&tt).is_ok(), "{name}: {tt:?}");
            let line = next("move");
            let Ok(Response::Move(c)) = Response::parse(&line) else {
                panic!("{name}: expected a move, got {line:?}");
            };
            // The pending command's own stones are on the board before our move.
            tracker.reply(&Response::Move(c));
            assert!(tracker.on_board(c), "{name}: {c} is off the board");
            assert!(!tracker.taken.contains(&c), "{name}: {c} is occupied");
            assert!(!not.contains(&c), "{name}: {c} is excluded");
            assert!(
                only.is_empty() || only.contains(&c),
                "{name}: {c} not in {only:?}"
            );
            tracker.taken.insert(c);
            Some(c)
        }
        Pattern::Stones(n) => {
            let line = next("stones");
            let stones: Vec<Coord> = line
                .split(' ')
                .map(|t| match Response::parse(t) {
                    Ok(Response::Move(c)) => c,
                    _ => panic!("{name}: {t:?} in {line:?} is not x,y"),
                })
                .collect();
            assert_eq!(stones.len(), *n, "{name}: {line:?}");
            let distinct: HashSet<Coord> = stones.iter().copied().collect();
            assert_eq!(distinct.len(), *n, "{name}: {line:?}");
            assert!(
                stones.iter().all(|&c| tracker.on_board(c)),
                "{name}: {line:?}"
            );
            None
        }
    }
}

#[test]
fn every_transcript_passes_against_the_binary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("transcripts dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let mut count = 0;
    let mut failed = Vec::new();
    for file in files {
        for session in load(&file) {
            // Run every session even after a failure, so one run shows every broken case.
            if std::panic::catch_unwind(|| run(&session)).is_err() {
                failed.push(session.name.clone());
            }
            count += 1;
        }
    }
    assert!(failed.is_empty(), "failed sessions: {failed:#?}");
    assert!(count >= 40, "only {count} sessions");
}
