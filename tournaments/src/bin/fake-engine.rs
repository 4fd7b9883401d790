//! Small pbrain engines for the tournament runner's tests: one sane way to play and one way
//! for each fault the referee must score. `fake-engine <mode> [n]`:
//!
//! - `first`: plays the first empty cell in row-major order and prints a `MESSAGE tt` line
//!   before every move whose counters are 100·k probes and 25·k hits after its k-th move.
//! - `random [seed]`: plays a seeded random empty cell; prints no table line.
//! - `crash`: exits with status 3 when asked for its first move.
//! - `hang`: never answers a move request and ignores `END` (the runner must kill it).
//! - `garbage`: answers moves with a line that is no move.
//! - `occupied`: answers with a cell that already holds a stone.
//! - `offboard`: answers `99,99`.
//! - `flood [kib]`: writes `kib` KiB (default 256) to stderr before each move, then plays
//!   like `first`; without a drained stderr pipe it would block and time out.
//! - `slow [ms]`: sleeps `ms` (default 1000) before each move, then plays like `first`.
//! - `nostart`: answers `ABOUT`, never answers `START`.
//! - `noisy`: before each move prints a message with a raw newline inside, so its tail is a
//!   line that is no protocol response (one real engine does this with its depth byte), then
//!   plays like `first`.
//! - `script x,y [x,y …]`: plays the listed cells in order (skipping any already taken),
//!   then like `first`; renju tests script a forbidden black move with it.
//! - `hog [mib]`: before its first move allocates `mib` MiB (default 256) and writes every
//!   page, so the memory is resident, keeps it, then plays like `first`.
//! - `say TEXT [TEXT …]`: before each move prints `MESSAGE TEXT` for each text, then plays
//!   like `first`; a judge with a known score (`say "Depth 9-3 | Eval +M3 | Time 1ms"`).
//!
//! Protocol lines are parsed and formatted by `gomocup-protocol`, like the real engine's.

use gomocup_protocol::{Command, Coord, Field, Line, LineReader, Parser, Response, TtReport};
use std::io::{self, BufReader, Write};
use std::thread;
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    First,
    Random,
    Crash,
    Hang,
    Garbage,
    Occupied,
    Offboard,
    Flood,
    Slow,
    NoStart,
    Noisy,
    Script,
    Hog,
    Say,
}

struct Fake {
    mode: Mode,
    arg: u64,
    size: usize,
    cells: Vec<bool>,
    last: Option<Coord>,
    moves_made: u64,
    rng: u64,
    /// `script` mode: cells still to play, in order.
    script: Vec<(usize, usize)>,
    hoard: Vec<u8>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = match args.get(1).map(String::as_str) {
        Some("first") => Mode::First,
        Some("random") => Mode::Random,
        Some("crash") => Mode::Crash,
        Some("hang") => Mode::Hang,
        Some("garbage") => Mode::Garbage,
        Some("occupied") => Mode::Occupied,
        Some("offboard") => Mode::Offboard,
        Some("flood") => Mode::Flood,
        Some("slow") => Mode::Slow,
        Some("nostart") => Mode::NoStart,
        Some("noisy") => Mode::Noisy,
        Some("script") => Mode::Script,
        Some("hog") => Mode::Hog,
        Some("say") => Mode::Say,
        _ => {
            // Printed on stdout as a protocol-safe line, never on stderr.
            println!(
                "{}",
                Response::Error("usage: fake-engine <mode> [n]".into())
            );
            return;
        }
    };
    let default_arg = match mode {
        Mode::Flood => 256,
        Mode::Slow => 1000,
        Mode::Hog => 256,
        _ => 1,
    };
    let arg = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default_arg);
    let mut fake = Fake {
        mode,
        arg,
        size: 0,
        cells: Vec::new(),
        last: None,
        moves_made: 0,
        rng: arg.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        script: if mode == Mode::Script {
            args.iter().skip(2).filter_map(|a| parse_cell(a)).collect()
        } else {
            Vec::new()
        },
        hoard: Vec::new(),
    };
    fake.serve();
}

/// `x,y` as two non-negative integers.
fn parse_cell(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

impl Fake {
    fn serve(&mut self) {
        let stdin = io::stdin();
        let mut reader = LineReader::new(BufReader::new(stdin.lock()));
        let mut parser = Parser::new();
        while let Ok(Some(line)) = reader.next_line() {
            let parsed = match line {
                Line::Text(bytes) => parser.feed(&bytes),
                Line::Overlong => parser.feed_overlong(),
            };
            let Some(Ok(command)) = parsed else {
                continue;
            };
            if !self.handle(command) {
                return;
            }
        }
        if self.mode == Mode::Hang {
            // Even on EOF a hung engine stays until it is killed.
            thread::sleep(Duration::from_secs(60));
        }
    }

    /// Returns false when the engine should exit.
    fn handle(&mut self, command: Command) -> bool {
        match command {
            Command::About => say(&Response::About(vec![
                ("name".into(), "fake".into()),
                ("version".into(), "1".into()),
            ])),
            Command::Start(n) if self.mode != Mode::NoStart => {
                self.size = n as usize;
                self.cells = vec![false; self.size * self.size];
                self.moves_made = 0;
                say(&Response::Ok);
            }
            Command::End => return self.mode == Mode::Hang,
            Command::Turn(at) => {
                self.occupy(at);
                return self.answer();
            }
            Command::Board(stones) => {
                self.cells = vec![false; self.size * self.size];
                for s in stones {
                    if s.field != Field::Blocked {
                        self.occupy(s.at);
                    }
                }
                return self.answer();
            }
            Command::Begin => return self.answer(),
            _ => {}
        }
        true
    }

    fn occupy(&mut self, at: Coord) {
        if let Some(i) = self.index(at) {
            self.cells[i] = true;
            self.last = Some(at);
        }
    }

    fn index(&self, at: Coord) -> Option<usize> {
        let (x, y) = (usize::try_from(at.x).ok()?, usize::try_from(at.y).ok()?);
        (x < self.size && y < self.size).then_some(y * self.size + x)
    }

    fn answer(&mut self) -> bool {
        match self.mode {
            Mode::Crash => std::process::exit(3),
            Mode::Hang | Mode::NoStart => return true,
            Mode::Garbage => {
                println!("hello, I am not a move");
                flush();
                return true;
            }
            Mode::Offboard => {
                say(&Response::Move(Coord::new(99, 99)));
                return true;
            }
            Mode::Occupied => {
                let at = self.last.unwrap_or(Coord::new(0, 0));
                say(&Response::Move(at));
                // Play it twice if the board was empty, so the second answer is occupied.
                self.occupy(at);
                return true;
            }
            Mode::Flood => {
                let chunk = "x".repeat(1023);
                let mut err = io::stderr().lock();
                for _ in 0..self.arg {
                    if writeln!(err, "{chunk}").is_err() {
                        break;
                    }
                }
            }
            Mode::Slow => thread::sleep(Duration::from_millis(self.arg)),
            Mode::Noisy => {
                println!("MESSAGE depth \n- eval 7");
                flush();
            }
            Mode::Hog if self.hoard.is_empty() => {
                let bytes = usize::try_from(self.arg << 20).unwrap_or(usize::MAX);
                // Written page by page: untouched pages would not count as resident.
                self.hoard = vec![0u8; bytes];
                for page in self.hoard.chunks_mut(4096) {
                    page[0] = 1;
                }
                std::hint::black_box(&mut self.hoard);
            }
            Mode::Say => {
                for text in std::env::args().skip(2) {
                    say(&Response::Message(text));
                }
            }
            Mode::First | Mode::Random | Mode::Hog | Mode::Script => {}
        }
        let mut scripted = None;
        while scripted.is_none() && !self.script.is_empty() {
            let (x, y) = self.script.remove(0);
            scripted = (x < self.size && y < self.size && !self.cells[y * self.size + x])
                .then_some(y * self.size + x);
        }
        let pick = if scripted.is_some() {
            scripted
        } else if self.mode == Mode::Random {
            self.random_empty()
        } else {
            self.cells.iter().position(|&c| !c)
        };
        let Some(i) = pick else {
            say(&Response::Error("board is full".into()));
            return true;
        };
        self.cells[i] = true;
        self.moves_made += 1;
        if self.mode != Mode::Random {
            let k = self.moves_made;
            let tt = TtReport {
                probes: 100 * k,
                hits: 25 * k,
                cutoffs: 5 * k,
                stores: 50 * k,
                replaced: k,
                collisions: 0,
                hit_rate: 25.0,
            };
            say(&Response::Message(tt.to_string()));
        }
        let at = Coord::new((i % self.size) as i64, (i / self.size) as i64);
        say(&Response::Move(at));
        true
    }

    fn random_empty(&mut self) -> Option<usize> {
        let empty: Vec<usize> = (0..self.cells.len()).filter(|&i| !self.cells[i]).collect();
        if empty.is_empty() {
            return None;
        }
        // xorshift64: deterministic per seed, no dependency.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        Some(empty[(self.rng % empty.len() as u64) as usize])
    }
}

fn say(r: &Response) {
    println!("{r}");
    flush();
}

fn flush() {
    let _ = io::stdout().flush();
}
