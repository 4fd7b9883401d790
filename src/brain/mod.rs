//! The protocol state machine: one `Command` in, the reply lines out, no I/O.
//!
//! Everything a manager can throw at the engine is decided here, so it can be tested
//! without pipes; the binary only reads lines, asks [`interrupt`] whether a line must cut
//! a running search short, calls [`Brain::handle`] and prints. The game record lives in
//! the [`Engine`]; the brain keeps only the settings and the clock.
//!
//! - `mod.rs`: dispatch, settings, moves and the search report;
//! - `setup`: `BOARD` and `SWAP2BOARD` positions;
//! - `refusal`: the typed reasons behind every `ERROR`.

mod refusal;
mod setup;

pub use refusal::Refusal;

use crate::engine::{Engine, EngineConfig};
use crate::search::limits::TimeControl;
use crate::search::{best_candidate, first_playable};
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use gomocup_protocol::{Command, Coord, Info, ProtocolError, Response, SearchReport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a command's arrival means for a search that may be running (see [`interrupt`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Queue it; a running search goes on.
    None,
    /// Stop the search now and play the best move so far (`YXSTOP`, `STOP`, and
    /// piskvork's mid-search `INFO timeout_turn 0`); the command is then handled in turn.
    Stop,
    /// The manager is leaving: stop the search, write nothing for it, and exit once the
    /// commands before `END` are answered (`END`).
    End,
}

/// Which commands cut a running search short. The binary's stdin thread asks this of
/// every line as it arrives, while the main thread may be searching.
pub fn interrupt(input: &Result<Command, ProtocolError>) -> Interrupt {
    match input {
        Ok(Command::End) => Interrupt::End,
        Ok(Command::Stop | Command::Info(Info::TimeoutTurn(0))) => Interrupt::Stop,
        _ => Interrupt::None,
    }
}

/// Whether a command searches for a move: those that owe a move
/// ([`Command::expects_move`]) but `PLAY`, which only places the move it names. `END`
/// cuts a search short and its reply is never written, so once `END` has been read the
/// binary skips such a command instead of starting it; other commands queued before `END`
/// are still answered in order.
pub fn searches(input: &Result<Command, ProtocolError>) -> bool {
    input
        .as_ref()
        .is_ok_and(|c| c.expects_move() && !matches!(c, Command::Play(_)))
}

/// Settings that survive `START` (PROTOCOL.md §2.1: INFO may come before or after it).
#[derive(Clone, Debug, Default)]
struct Settings {
    time: TimeControl,
    rule_bits: u64,
    game_type: i64,
    folder: Option<String>,
    threads: i64,
}

impl Settings {
    fn rule(&self) -> Rule {
        // Bits 1 (exact five), 4 (renju) and 8 (caro) are modelled; bit 2 (continuous)
        // changes nothing for one move.
        Rule::from_bits((self.rule_bits & 0xf) as u32)
    }
}

/// The brain: settings, the clock and the engine (which holds the game).
pub struct Brain {
    engine: Engine,
    settings: Settings,
    /// Whether a game was started (`START` with a legal size).
    in_game: bool,
    /// Time this brain spent thinking since `START`.
    spent: Duration,
    /// Raised by the I/O side to end a running search (see `stop_flag`).
    stop: Arc<AtomicBool>,
}

type Reply = Result<Vec<Response>, Refusal>;

impl Brain {
    /// A brain with no game. Cheap: the engine allocates its table at the first search.
    pub fn new(config: EngineConfig) -> Brain {
        Brain {
            engine: Engine::new(config),
            settings: Settings::default(),
            in_game: false,
            spent: Duration::ZERO,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A flag that ends the running search as soon as it is raised. The brain lowers it
    /// when a search starts; the binary raises it when [`interrupt`] says so.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The engine (for tests and tools).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The clock settings received so far.
    pub fn time_control(&self) -> TimeControl {
        self.settings.time
    }

    /// `INFO folder`, if one was sent.
    pub fn folder(&self) -> Option<&str> {
        self.settings.folder.as_deref()
    }

    /// `INFO game_type` and `INFO thread_num` as last received (informational only: the
    /// search is single-threaded).
    pub fn game_type_and_threads(&self) -> (i64, i64) {
        (self.settings.game_type, self.settings.threads)
    }

    /// Answer one parser result: a command, or a faulty line (which earns its own reply,
    /// and after a bad `BOARD` an empty board, PROTOCOL.md §2.6). `arrival` is when the
    /// command's first line was read; move budgets are measured from it.
    pub fn handle(
        &mut self,
        input: Result<Command, ProtocolError>,
        arrival: Instant,
    ) -> Vec<Response> {
        match input {
            Ok(cmd) => self.command(cmd, arrival),
            Err(e) => {
                if e.is_board() && self.in_game {
                    self.clear_board();
                }
                e.reply().into_iter().collect()
            }
        }
    }

    /// Answer one command.
    pub fn command(&mut self, cmd: Command, arrival: Instant) -> Vec<Response> {
        let reply = match cmd {
            Command::Start(size) => self.start(size as usize),
            Command::RectStart { width, height } if width == height => self.start(width as usize),
            Command::RectStart { .. } => {
                self.in_game = false;
                Err(Refusal::Rectangular)
            }
            Command::Restart => self.restart(),
            Command::Begin => self.begin(arrival),
            Command::Turn(c) => self.turn(c, arrival),
            Command::Board(stones) => self.board(&stones, arrival),
            Command::Info(info) => {
                self.info(info);
                Ok(Vec::new())
            }
            // END is the binary's to obey; a stop has already ended the search it was for.
            Command::End | Command::Stop => Ok(Vec::new()),
            Command::About => Ok(vec![about()]),
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => self.place_at(c).map(|()| vec![Response::Move(c)]),
            Command::Swap2Board(stones) => self.swap2(&stones, arrival),
            Command::ShowForbid => self.show_forbid(),
        };
        reply.unwrap_or_else(Vec::from)
    }

    /// After a panic inside a command: bring the engine's board back to its game record,
    /// so a search that died with moves on its board cannot poison the next command.
    pub fn recover(&mut self) {
        self.engine.restore();
    }

    fn start(&mut self, size: usize) -> Reply {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            self.in_game = false;
            return Err(Refusal::BadSize);
        }
        self.in_game = self.engine.new_game(size, self.settings.rule()).is_ok();
        self.spent = Duration::ZERO;
        Ok(vec![Response::Ok])
    }

    fn restart(&mut self) -> Reply {
        self.game()?;
        self.clear_board();
        Ok(vec![Response::Ok])
    }

    /// A new empty board of the same size (RESTART, a bad `BOARD`).
    fn clear_board(&mut self) {
        let size = self.engine.board().size();
        self.in_game = self.engine.new_game(size, self.settings.rule()).is_ok();
        self.spent = Duration::ZERO;
    }

    fn game(&self) -> Result<(), Refusal> {
        if self.in_game {
            Ok(())
        } else {
            Err(Refusal::NoGame)
        }
    }

    fn info(&mut self, info: Info) {
        let positive = |v: i64| (v > 0).then_some(v);
        let t = &mut self.settings.time;
        match info {
            Info::TimeoutTurn(v) => t.turn_ms = v,
            Info::TimeoutMatch(v) => t.match_ms = v,
            Info::TimeLeft(v) => t.set_time_left(v),
            Info::MaxMemory(v) => self.engine.set_memory(v),
            Info::GameType(v) => self.settings.game_type = v,
            Info::Rule(v) => {
                self.settings.rule_bits = v;
                self.engine.set_rule(self.settings.rule());
            }
            Info::Folder(f) => self.settings.folder = Some(f),
            Info::MaxDepth(v) => t.max_depth = positive(v).map(|d| d.min(i32::MAX as i64) as i32),
            Info::MaxNode(v) => t.max_nodes = positive(v).map(|n| n as u64),
            Info::ThreadNum(v) => self.settings.threads = v,
            Info::Evaluate(_) | Info::TimeIncrement(_) | Info::HashSize(_) | Info::Other { .. } => {
            }
        }
    }

    /// The board cell for a wire coordinate, if it is on this game's board.
    fn cell(&self, c: Coord) -> Option<Pos> {
        let n = self.engine.board().size() as i64;
        ((0..n).contains(&c.x) && (0..n).contains(&c.y))
            .then(|| Pos::new(c.x as usize, c.y as usize))
    }

    /// Refusals shared by every command that asks for a move.
    fn move_refusal(&self) -> Result<(), Refusal> {
        self.game()
    }

    fn begin(&mut self, arrival: Instant) -> Reply {
        self.move_refusal()?;
        if !self.engine.moves().is_empty() {
            return Err(Refusal::NotEmpty);
        }
        self.think(arrival)
    }

    fn turn(&mut self, c: Coord, arrival: Instant) -> Reply {
        self.move_refusal()?;
        self.place_at(c)?;
        self.think(arrival)
    }

    /// Place the side to move's stone on `c` (the opponent's move in TURN, ours in PLAY).
    fn place_at(&mut self, c: Coord) -> Result<(), Refusal> {
        self.game()?;
        let pos = self.cell(c).ok_or(Refusal::BadCoords)?;
        self.engine.play(pos).map_err(|_| Refusal::Occupied(c))
    }

    fn takeback(&mut self, c: Coord) -> Reply {
        self.game()?;
        let pos = self.cell(c).ok_or(Refusal::BadCoords)?;
        match self.engine.moves().last() {
            Some(&(last, _)) if last == pos => {
                self.engine.undo().map_err(|_| Refusal::CannotTakeBack(c))?;
                Ok(vec![Response::Ok])
            }
            _ => Err(Refusal::CannotTakeBack(c)),
        }
    }

    /// `YXSHOWFORBID`: black's forbidden cells when black is to move under renju; none
    /// otherwise (PROTOCOL.md §2.13).
    fn show_forbid(&self) -> Reply {
        self.game()?;
        let board = self.engine.board();
        let cells = if board.side_to_move() == Color::Black {
            board.forbidden_points()
        } else {
            Vec::new()
        };
        Ok(vec![Response::Forbid(
            cells
                .iter()
                .map(|p| Coord::new(p.x() as i64, p.y() as i64))
                .collect(),
        )])
    }

    /// Search, play the chosen move, and report: the two MESSAGE lines, then the move.
    fn think(&mut self, arrival: Instant) -> Reply {
        self.game()?;
        let board = self.engine.board();
        let n = board.size();
        if self.engine.moves().len() >= n * n {
            return Err(Refusal::BoardFull);
        }
        if self
            .engine
            .moves()
            .iter()
            .any(|&(p, c)| board.is_five(p, c))
        {
            return Err(Refusal::GameOver);
        }
        let stones = self.engine.moves().len();
        let mut limits = self
            .settings
            .time
            .limits(arrival, stones, n * n, self.spent);
        self.stop.store(false, Ordering::Relaxed);
        limits.stop = Some(Arc::clone(&self.stop));
        let result = self.engine.think(&limits);
        let mut out = Vec::with_capacity(3);
        let board = self.engine.board();
        let me = board.side_to_move();
        let playable = |p: Pos| board.check_move(p).is_ok() && !board.is_forbidden_for(p, me);
        let best = if playable(result.best) {
            result.best
        } else {
            // Never an illegal or forbidden move: the statically best one that is allowed.
            let instead = best_candidate(board)
                .or_else(|| first_playable(board))
                .or_else(|| self.first_empty())
                .unwrap_or(Pos::NONE);
            out.push(Response::Debug(format!(
                "search returned {:?}; playing {instead:?}",
                result.best
            )));
            instead
        };
        let report = SearchReport {
            depth: result.depth,
            eval: result.score,
            nodes: result.nodes,
            time_ms: result.elapsed.as_millis() as u64,
            pv: result.pv.iter().map(|p| p.to_string()).collect(),
        };
        out.insert(0, Response::Message(report.to_string()));
        out.insert(
            1,
            Response::Message(self.engine.tt_stats().report().to_string()),
        );
        // The cell was checked empty above (or is the first empty one).
        let _ = self.engine.play(best);
        self.spent += arrival.elapsed();
        out.push(Response::Move(Coord::new(best.x() as i64, best.y() as i64)));
        Ok(out)
    }

    /// The first empty cell: the move of last resort (black left with only forbidden cells
    /// under renju has lost anyway, and must still answer).
    fn first_empty(&self) -> Option<Pos> {
        let board = self.engine.board();
        let n = board.size();
        (0..n * n)
            .map(|i| Pos::new(i % n, i / n))
            .find(|&p| board.is_empty(p))
    }
}

/// The `ABOUT` line. Values are quoted by the formatter; none contains `"`. `country`
/// and `www` are optional keys (PROTOCOL.md §2.10) and left out: the project has no home
/// page to name yet, and a placeholder would be a false value.
pub fn about() -> Response {
    let pairs = [
        ("name", "Wuzi"),
        ("version", env!("CARGO_PKG_VERSION")),
        ("author", "Wuzi team"),
    ];
    Response::About(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

#[cfg(test)]
mod tests;
