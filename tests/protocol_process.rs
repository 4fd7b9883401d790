//! Whole games against the real `pbrain-wuzi` process, driven the way Linux managers drive
//! it: one process for many games (`START` again, no `END`), TURN after TURN, and the
//! clock checked on every reply (PROTOCOL.md §5 cases 42, 67, 68, 91).

use gomocup_protocol::{Coord, Response, TtReport};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: std::thread::JoinHandle<Vec<u8>>,
}

impl Brain {
    fn spawn() -> Brain {
        Brain::spawn_with(&[])
    }

    /// The engine started with extra command-line switches.
    fn spawn_with(args: &[&str]) -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pbrain-wuzi starts");
        let stdout = child.stdout.take().expect("stdout piped");
        let mut stderr = child.stderr.take().expect("stderr piped");
        let stdin = child.stdin.take().expect("stdin piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            all
        });
        Brain {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads");
        self.stdin.flush().expect("engine reads");
    }

    fn line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a reply within 30 s")
    }

    /// Send a move request and read the two MESSAGE lines and the move; return the move and
    /// the time from sending to receiving it.
    fn request(&mut self, line: &str) -> (Coord, Duration) {
        let (_, _, c, elapsed) = self.request_report(line);
        (c, elapsed)
    }

    /// `request`, also returning the human MESSAGE line and the parsed table line.
    fn request_report(&mut self, line: &str) -> (String, TtReport, Coord, Duration) {
        let sent = Instant::now();
        self.send(line);
        let human = self.line();
        assert!(human.starts_with("MESSAGE depth "), "{human}");
        let tt = self.line();
        let report = TtReport::parse_line(&tt).unwrap_or_else(|e| panic!("{tt}: {e:?}"));
        let reply = self.line();
        let elapsed = sent.elapsed();
        match Response::parse(&reply) {
            Ok(Response::Move(c)) => (human, report, c, elapsed),
            other => panic!("{line} -> {reply:?} ({other:?})"),
        }
    }

    fn expect_ok(&mut self, line: &str) {
        self.send(line);
        assert_eq!(self.line(), "OK", "{line}");
    }

    /// END with stdin left open: the process must leave by itself, silently.
    fn finish(mut self) {
        self.send("END");
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    assert_eq!(status.code(), Some(0));
                    break;
                }
                Ok(None) if start.elapsed() < Duration::from_millis(500) => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    let _ = self.child.kill();
                    panic!("no exit within 500 ms of END");
                }
            }
        }
        let rest: Vec<String> = self.lines.try_iter().collect();
        assert!(rest.is_empty(), "output after the last reply: {rest:?}");
        drop(self.stdin);
        let stderr = self.stderr.join().expect("stderr reader");
        assert!(
            stderr.is_empty(),
            "stderr: {}",
            String::from_utf8_lossy(&stderr)
        );
    }
}

/// A referee's view of one game.
struct Game {
    size: i64,
    cells: Vec<u8>,
}

impl Game {
    fn new(size: i64) -> Game {
        Game {
            size,
            cells: vec![0; (size * size) as usize],
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<u8> {
        ((0..self.size).contains(&x) && (0..self.size).contains(&y))
            .then(|| self.cells[(y * self.size + x) as usize])
    }

    /// Place `who`'s stone; panics on an illegal move. Returns whether it made five or more.
    fn play(&mut self, c: Coord, who: u8) -> bool {
        assert_eq!(self.at(c.x, c.y), Some(0), "illegal move {c}");
        self.cells[(c.y * self.size + c.x) as usize] = who;
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let run = |s: i64| {
                (1..)
                    .take_while(|k| self.at(c.x + s * k * dx, c.y + s * k * dy) == Some(who))
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        })
    }

    fn full(&self) -> bool {
        self.cells.iter().all(|&c| c != 0)
    }

    /// A random empty cell near the centre first, so games look like games.
    fn random_move(&self, rng: &mut StdRng) -> Coord {
        for radius in [3, 6, self.size] {
            let c = self.size / 2;
            for _ in 0..50 {
                let x = (c + rng.random_range(-radius..=radius)).clamp(0, self.size - 1);
                let y = (c + rng.random_range(-radius..=radius)).clamp(0, self.size - 1);
                if self.at(x, y) == Some(0) {
                    return Coord::new(x, y);
                }
            }
        }
        let i = self
            .cells
            .iter()
            .position(|&c| c == 0)
            .expect("an empty cell");
        Coord::new(i as i64 % self.size, i as i64 / self.size)
    }
}

/// Play `plies` engine replies against a random opponent, starting a new game with `START`
/// on the same process whenever one ends; return the games played and the slowest reply.
fn play_series(
    brain: &mut Brain,
    size: i64,
    plies: usize,
    seed: u64,
    before_move: &mut dyn FnMut(&mut Brain),
) -> (usize, Duration) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut games = 0;
    let mut slowest = Duration::ZERO;
    let mut replies = 0;
    while replies < plies {
        brain.expect_ok(&format!("START {size}"));
        games += 1;
        let mut game = Game::new(size);
        let mut first = if rng.random_bool(0.5) {
            before_move(brain);
            Some(brain.request("BEGIN"))
        } else {
            None
        };
        loop {
            if let Some((m, t)) = first.take() {
                replies += 1;
                slowest = slowest.max(t);
                if game.play(m, 1) || game.full() || replies >= plies {
                    break;
                }
            }
            let theirs = game.random_move(&mut rng);
            if game.play(theirs, 2) || game.full() {
                break;
            }
            before_move(brain);
            first = Some(brain.request(&format!("TURN {theirs}")));
        }
    }
    (games, slowest)
}

#[test]
fn one_process_plays_many_games_legally() {
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 100");
    let (games, _) = play_series(&mut brain, 20, 200, 42, &mut |_| {});
    assert!(games >= 2, "{games} games");
    let (games15, _) = play_series(&mut brain, 15, 60, 43, &mut |_| {});
    assert!(games15 >= 1);
    brain.finish();
}

#[test]
fn turn_limit_is_honoured_on_every_move() {
    // Case 67 with T = 1000 ms: every reply within T − 50 (debug builds search far slower
    // between clock checks, so they get 5 T).
    let bound = if cfg!(debug_assertions) {
        Duration::from_millis(5000)
    } else {
        Duration::from_millis(950)
    };
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 1000");
    brain.send("INFO timeout_match 0");
    brain.send("INFO time_left 2147483647");
    let (_, slowest) = play_series(&mut brain, 20, 20, 7, &mut |_| {});
    println!("timeout_turn 1000: slowest of 20 replies {slowest:?}");
    assert!(slowest <= bound, "slowest reply {slowest:?}");
    brain.finish();
}

#[test]
fn match_clock_is_never_overdrawn() {
    // Case 68, scaled down: 5 s for the whole match, time_left sent before every move as a
    // manager computes it; no reply may take longer than what was left.
    let mut brain = Brain::spawn();
    brain.send("INFO timeout_turn 30000");
    brain.send("INFO timeout_match 5000");
    let mut used = Duration::ZERO;
    let mut rng = StdRng::seed_from_u64(9);
    let mut replies = 0;
    while replies < 60 {
        brain.expect_ok("START 20");
        let mut game = Game::new(20);
        loop {
            let theirs = game.random_move(&mut rng);
            if game.play(theirs, 2) || game.full() {
                break;
            }
            let left = 5000 - used.as_millis() as i64;
            brain.send(&format!("INFO time_left {left}"));
            let (m, t) = brain.request(&format!("TURN {theirs}"));
            // Never more than what was left (a reply at ≤ 0 left must be instant: 200 ms).
            // Debug builds check the clock far less often in wall time, so they get 10x.
            let slack = if cfg!(debug_assertions) { 10 } else { 1 };
            let allowed = Duration::from_millis(left.max(200) as u64 * slack);
            assert!(t <= allowed, "reply {replies}: {t:?} with {left} ms left");
            used += t;
            replies += 1;
            if game.play(m, 1) || replies >= 60 {
                break;
            }
        }
    }
    println!("match 5000 ms: 60 replies used {used:?}");
    brain.finish();
}

/// Resident memory of a process in KiB, from `/proc` (Linux only).
#[cfg(target_os = "linux")]
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS line")
}

#[cfg(target_os = "linux")]
#[test]
fn megabyte_lines_do_not_grow_memory() {
    // Case 12: each 1 MiB line earns one UNKNOWN; the process grows by less than 16 MiB.
    let mut brain = Brain::spawn();
    brain.expect_ok("START 15");
    let before = rss_kib(brain.child.id());
    let long = "A".repeat(1 << 20);
    for _ in 0..16 {
        brain.send(&long);
        let reply = brain.line();
        assert!(reply.starts_with("UNKNOWN "), "{reply}");
    }
    let after = rss_kib(brain.child.id());
    println!("16 lines of 1 MiB: RSS {before} KiB -> {after} KiB");
    assert!(
        after < before + 16 * 1024,
        "RSS {before} KiB -> {after} KiB"
    );
    brain.expect_ok("START 15");
    brain.finish();
}

/// PROTOCOL.md §5 case 71: piskvork's "stop thinking now" is `INFO timeout_turn 0` sent while
/// the engine searches under a long limit; the move must follow within 300 ms.
#[test]
fn mid_search_timeout_turn_zero_stops_the_search() {
    let mut brain = Brain::spawn();
    let (_, waited) = stop_mid_search(&mut brain, "INFO timeout_turn 0", 100);
    assert!(
        waited < Duration::from_millis(300),
        "move came {waited:?} after the stop"
    );
    brain.finish();
}

/// A quiet 20x20 position sent as `BOARD` under a 30 s turn: the search would use its time.
/// The position of the long searches: the opponent's one stone. Any position with a few
/// stones more may hold a win the engine proves within the 300 ms these tests wait (the
/// first player's win in freestyle; since session 45 six stones did), and a proof ends the
/// search early.
const LONG_SEARCH_STONES: [((i64, i64), u8); 1] = [((9, 9), 2)];

fn start_long_search(brain: &mut Brain) {
    brain.send("START 20");
    assert_eq!(brain.line(), "OK");
    brain.send("INFO timeout_turn 30000");
    brain.send("BOARD");
    for ((x, y), who) in LONG_SEARCH_STONES {
        brain.send(&format!("{x},{y},{who}"));
    }
    brain.send("DONE");
}

/// Start a 30 s search, send `stop_line` `after_ms` into it, and read the move that
/// follows (after its MESSAGE lines): the move and how long after the stop it came.
fn stop_mid_search(brain: &mut Brain, stop_line: &str, after_ms: u64) -> (Coord, Duration) {
    start_long_search(brain);
    std::thread::sleep(Duration::from_millis(after_ms));
    let sent = Instant::now();
    brain.send(stop_line);
    let reply = loop {
        let line = brain.line();
        if !line.starts_with("MESSAGE") {
            break line;
        }
    };
    let waited = sent.elapsed();
    match Response::parse(&reply) {
        Ok(Response::Move(c)) => (c, waited),
        other => panic!("{stop_line}: {reply} ({other:?})"),
    }
}

/// The reply to a stop sent 300 ms into a 30 s search: the move comes within 150 ms (after
/// its two MESSAGE lines), and the game then goes on normally.
fn stop_gives_a_move_at_once(stop_line: &str) {
    let mut brain = Brain::spawn();
    let (ours, waited) = stop_mid_search(&mut brain, stop_line, 300);
    assert!(
        waited < Duration::from_millis(150),
        "{stop_line}: move came {waited:?} after the stop"
    );
    let mut game = Game::new(20);
    for ((x, y), who) in LONG_SEARCH_STONES {
        game.play(Coord::new(x, y), who);
    }
    game.play(ours, 1);
    // The stop earns no reply of its own, and the next TURN is answered as usual.
    brain.send("INFO timeout_turn 300");
    let theirs = game.random_move(&mut StdRng::seed_from_u64(7));
    game.play(theirs, 2);
    let (next, took) = brain.request(&format!("TURN {theirs}"));
    game.play(next, 1);
    assert!(took < Duration::from_millis(1000), "{took:?}");
    brain.finish();
}

#[test]
fn yxstop_mid_search_plays_at_once_and_the_game_goes_on() {
    stop_gives_a_move_at_once("YXSTOP");
}

#[test]
fn stop_mid_search_plays_at_once_and_the_game_goes_on() {
    stop_gives_a_move_at_once("STOP");
}

#[test]
fn end_mid_search_writes_nothing_and_exits_at_once() {
    let mut brain = Brain::spawn();
    start_long_search(&mut brain);
    std::thread::sleep(Duration::from_millis(300));
    // `finish` sends END and requires an exit within 500 ms with no output after it.
    brain.finish();
}

#[test]
fn a_disabled_table_reports_zero_counters() {
    let mut brain = Brain::spawn_with(&["--tt-mb", "0"]);
    brain.send("INFO timeout_turn 300");
    brain.send("START 15");
    assert_eq!(brain.line(), "OK");
    for turn in ["TURN 7,7", "TURN 9,9"] {
        let (_, tt, _, _) = brain.request_report(turn);
        assert_eq!(tt, TtReport::default());
    }
    brain.finish();
}

#[test]
fn the_pv_names_every_column_of_a_32_board_unambiguously() {
    let mut brain = Brain::spawn();
    brain.send("START 32");
    assert_eq!(brain.line(), "OK");
    brain.send("INFO timeout_turn 500");
    // Stones in the last columns (26..31 are past `z`), so the PV is spelt there.
    brain.send("BOARD");
    for (x, y, f) in [(29, 5, 1), (30, 6, 2), (28, 5, 1), (27, 4, 2)] {
        brain.send(&format!("{x},{y},{f}"));
    }
    let (human, _, best, _) = brain.request_report("DONE");
    let pv: Vec<&str> = human
        .split(" | pv ")
        .nth(1)
        .expect("a pv")
        .split(' ')
        .collect();
    // Every PV move reads back as a cell of the board: lower-case letters for the column
    // (a..z, then aa..af), then the row from 1; the first is the move played.
    let cells: Vec<(i64, i64)> = pv
        .iter()
        .map(|m| {
            let split = m.find(|c: char| c.is_ascii_digit()).expect("a row");
            let (col, row) = m.split_at(split);
            assert!(
                col.bytes().all(|b| b.is_ascii_lowercase()),
                "{m} in {human}"
            );
            let x = col
                .bytes()
                .fold(0i64, |acc, b| acc * 26 + (b - b'a') as i64 + 1)
                - 1;
            let y: i64 = row.parse().expect("a row number");
            assert!((0..32).contains(&x) && (1..=32).contains(&y), "{m}");
            (x, y - 1)
        })
        .collect();
    assert_eq!(cells[0], (best.x, best.y), "{human}");
    assert!(
        cells.iter().any(|&(x, _)| x >= 26),
        "the pv should reach past column z: {human}"
    );
    brain.finish();
}

#[test]
fn yxshowforbid_outside_renju_lists_nothing() {
    let mut brain = Brain::spawn();
    brain.send("START 15");
    assert_eq!(brain.line(), "OK");
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.line(), "FORBID .");
    brain.finish();
}
