//! The protocol state machine: one `Command` in, the reply lines out, no I/O.
//!
//! Everything a manager can throw at the engine is decided here, so it can be tested
//! without pipes; the binary only reads lines, calls [`Brain::handle`] and prints. The brain
//! keeps its own record of the game (not only the engine's board), so it can rebuild the
//! engine after a rule change or an internal error.

use crate::engine::{Engine, EngineConfig};
use crate::limits::TimeControl;
use crate::types::{Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use gomocup_protocol::{
    BoardStone, Command, Coord, Field, Info, ProtocolError, Response, SearchReport,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `INFO rule` bit for renju, which this engine does not play yet.
const RENJU_BIT: u64 = 4;

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
        // Bits 1 (exact five) and 8 (caro) are modelled; bit 2 (continuous) changes nothing
        // for one move; bit 4 (renju) is refused at move time.
        Rule::from_bits((self.rule_bits & 0xf) as u32)
    }

    fn renju(&self) -> bool {
        self.rule_bits & RENJU_BIT != 0
    }
}

/// The game as the brain records it: the authority the engine is rebuilt from.
#[derive(Clone, Debug)]
struct Game {
    size: usize,
    stones: Vec<(Pos, Color)>,
    side: Color,
    /// Time this brain spent thinking since `START`.
    spent: Duration,
}

impl Game {
    fn new(size: usize) -> Game {
        Game {
            size,
            stones: Vec::new(),
            side: Color::Black,
            spent: Duration::ZERO,
        }
    }
}

/// The brain: settings, the game record and the engine.
pub struct Brain {
    engine: Engine,
    settings: Settings,
    game: Option<Game>,
    /// The rule the engine's board was built with.
    built_rule: Rule,
    /// Raised by the I/O side to end a running search (see `stop_flag`).
    stop: Arc<AtomicBool>,
}

const NO_GAME: &str = "no game started";
const BAD_COORDS: &str = "bad coordinates";

fn error(text: impl Into<String>) -> Vec<Response> {
    vec![Response::Error(text.into())]
}

impl Brain {
    /// A brain with no game. Cheap: the engine allocates its table at the first search.
    pub fn new(config: EngineConfig) -> Brain {
        Brain {
            engine: Engine::new(config),
            settings: Settings::default(),
            game: None,
            built_rule: Rule::FREESTYLE,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A flag that ends the running search as soon as it is raised (piskvork's "stop
    /// thinking": `INFO timeout_turn 0` sent mid-search). The brain lowers it when a search
    /// starts; the binary's stdin thread raises it.
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
                if e.is_board() {
                    if let Some(g) = self.game.as_mut() {
                        let size = g.size;
                        *g = Game::new(size);
                        self.rebuild();
                    }
                }
                e.reply().into_iter().collect()
            }
        }
    }

    /// Answer one command.
    pub fn command(&mut self, cmd: Command, arrival: Instant) -> Vec<Response> {
        match cmd {
            Command::Start(size) => self.start(size as usize),
            Command::RectStart { width, height } if width == height => self.start(width as usize),
            Command::RectStart { .. } => {
                self.game = None;
                error("rectangular boards are not supported")
            }
            Command::Restart => match self.game.as_mut() {
                Some(g) => {
                    *g = Game::new(g.size);
                    self.rebuild();
                    vec![Response::Ok]
                }
                None => error(NO_GAME),
            },
            Command::Begin => self.begin(arrival),
            Command::Turn(c) => self.turn(c, arrival),
            Command::Board(stones) => self.board(&stones, arrival),
            Command::Info(info) => {
                self.info(info);
                Vec::new()
            }
            Command::End => Vec::new(),
            Command::About => vec![about()],
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => self.play(c),
            Command::Swap2Board(stones) => self.swap2(&stones, arrival),
        }
    }

    /// After a panic inside a command: rebuild the engine from the brain's record, so a
    /// search that died with moves on its board cannot poison the next command.
    pub fn recover(&mut self) {
        self.rebuild();
    }

    fn start(&mut self, size: usize) -> Vec<Response> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            self.game = None;
            return error(format!("board size must be {MIN_SIZE}..{MAX_SIZE}"));
        }
        self.game = Some(Game::new(size));
        self.rebuild();
        vec![Response::Ok]
    }

    /// Make the engine's board equal to the record, under the current rule.
    fn rebuild(&mut self) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        let rule = self.settings.rule();
        if self.engine.new_game(g.size, rule).is_err() {
            // The size was checked at START; a failure here would be a bug, so drop the game
            // rather than play on a board of the wrong size.
            self.game = None;
            return;
        }
        self.built_rule = rule;
        for &(pos, color) in &g.stones {
            // The record only holds moves that were legal when made.
            let _ = self.engine.play_as(pos, color);
        }
        self.engine.set_side_to_move(g.side);
    }

    /// Bring the engine's board to the record by undoing back to the longest common prefix
    /// and playing the rest. Unlike `rebuild` this keeps the table and its statistics, which
    /// matters when a manager sends the whole position as `BOARD` before every move.
    fn sync(&mut self) {
        let Some(g) = self.game.as_ref() else {
            return;
        };
        let board = self.engine.board();
        if board.size() != g.size || board.rule() != self.settings.rule() {
            self.rebuild();
            return;
        }
        let common = board
            .history()
            .zip(g.stones.iter())
            .take_while(|(a, b)| a == *b)
            .count();
        let mut excess = board.move_count() - common;
        while excess > 0 {
            if self.engine.undo().is_err() {
                self.rebuild();
                return;
            }
            excess -= 1;
        }
        for &(pos, color) in &g.stones[common..] {
            if self.engine.play_as(pos, color).is_err() {
                self.rebuild();
                return;
            }
        }
        self.engine.set_side_to_move(g.side);
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
                if self.settings.rule() != self.built_rule {
                    self.rebuild();
                }
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
    fn cell(g: &Game, c: Coord) -> Option<Pos> {
        let n = g.size as i64;
        ((0..n).contains(&c.x) && (0..n).contains(&c.y))
            .then(|| Pos::new(c.x as usize, c.y as usize))
    }

    /// Refusals shared by every command that asks for a move.
    fn move_refusal(&self) -> Option<Vec<Response>> {
        if self.game.is_none() {
            return Some(error(NO_GAME));
        }
        if self.settings.renju() {
            return Some(error("renju is not supported yet"));
        }
        None
    }

    fn begin(&mut self, arrival: Instant) -> Vec<Response> {
        if let Some(r) = self.move_refusal() {
            return r;
        }
        if self.game.as_ref().is_some_and(|g| !g.stones.is_empty()) {
            return error("board is not empty");
        }
        self.think(arrival)
    }

    fn turn(&mut self, c: Coord, arrival: Instant) -> Vec<Response> {
        if let Some(r) = self.move_refusal() {
            return r;
        }
        if let Err(refusal) = self.place_at(c) {
            return refusal;
        }
        self.think(arrival)
    }

    /// Place the side to move's stone on `c` (the opponent's move in TURN, ours in PLAY), or
    /// the `ERROR` that refuses it with the state unchanged.
    fn place_at(&mut self, c: Coord) -> Result<(), Vec<Response>> {
        let Some(g) = self.game.as_ref() else {
            return Err(error(NO_GAME));
        };
        let Some(pos) = Brain::cell(g, c) else {
            return Err(error(BAD_COORDS));
        };
        if !self.engine.board().is_empty(pos) {
            return Err(error(format!("cell {c} is occupied")));
        }
        let side = g.side;
        self.place(pos, side);
        Ok(())
    }

    /// Put a stone on the board and in the record; the other side moves next.
    fn place(&mut self, pos: Pos, color: Color) {
        if let Some(g) = self.game.as_mut() {
            if self.engine.play_as(pos, color).is_ok() {
                g.stones.push((pos, color));
                g.side = color.opp();
            }
        }
    }

    fn board(&mut self, stones: &[BoardStone], arrival: Instant) -> Vec<Response> {
        if self.game.is_none() {
            return error(NO_GAME);
        }
        if self.settings.renju() {
            return error("renju is not supported yet");
        }
        match self.setup(stones) {
            Ok(()) => self.think(arrival),
            Err(why) => {
                if let Some(g) = self.game.as_mut() {
                    *g = Game::new(g.size);
                }
                self.rebuild();
                error(why)
            }
        }
    }

    /// Replace the game by a `BOARD` position; the brain is to move.
    ///
    /// Colours: equal counts mean we moved first (black); one opponent stone more means we
    /// are white; anything else is inconsistent. Field-3 stones (completed lines of a
    /// continuous game) count for neither side: the board has no neutral stone, so they
    /// are placed in alternating colours, which keeps their cells occupied without letting
    /// them form a line for either side.
    fn setup(&mut self, stones: &[BoardStone]) -> Result<(), String> {
        let Some(size) = self.game.as_ref().map(|g| g.size) else {
            return Err(NO_GAME.into());
        };
        let probe = Game::new(size);
        let mut seen = vec![false; size * size];
        let (mut own, mut opp) = (0usize, 0usize);
        for s in stones {
            let pos = Brain::cell(&probe, s.at)
                .ok_or_else(|| format!("stone {} is off the board", s.at))?;
            let i = pos.y() * size + pos.x();
            if std::mem::replace(&mut seen[i], true) {
                return Err(format!("cell {} is listed twice", s.at));
            }
            match s.field {
                Field::Own => own += 1,
                Field::Opponent => opp += 1,
                Field::Blocked => {}
            }
        }
        let me = if own == opp {
            Color::Black
        } else if opp == own + 1 {
            Color::White
        } else {
            return Err(format!(
                "{own} own and {opp} opponent stones cannot be our turn"
            ));
        };
        let mut g = Game::new(size);
        let mut neutral = Color::Black;
        for s in stones {
            let Some(pos) = Brain::cell(&g, s.at) else {
                continue;
            };
            let color = match s.field {
                Field::Own => me,
                Field::Opponent => me.opp(),
                Field::Blocked => {
                    neutral = neutral.opp();
                    neutral
                }
            };
            g.stones.push((pos, color));
        }
        g.side = me;
        if let Some(old) = self.game.as_ref() {
            g.spent = old.spent;
        }
        self.game = Some(g);
        self.sync();
        Ok(())
    }

    fn takeback(&mut self, c: Coord) -> Vec<Response> {
        let Some(g) = self.game.as_mut() else {
            return error(NO_GAME);
        };
        let Some(pos) = Brain::cell(g, c) else {
            return error(BAD_COORDS);
        };
        match g.stones.last() {
            Some(&(last, color)) if last == pos => {
                g.stones.pop();
                g.side = color;
                if self.engine.undo().is_err() {
                    self.rebuild();
                }
                self.engine.set_side_to_move(color);
                vec![Response::Ok]
            }
            _ => error(format!("cannot take back {c}")),
        }
    }

    fn play(&mut self, c: Coord) -> Vec<Response> {
        match self.place_at(c) {
            Ok(()) => vec![Response::Move(c)],
            Err(refusal) => refusal,
        }
    }

    /// Swap2 (PROTOCOL.md §2.12), the simplest legal policy: open with a fixed three-stone
    /// shape, never swap, and answer 3 or 5 stones by playing the next white stone.
    fn swap2(&mut self, stones: &[Coord], arrival: Instant) -> Vec<Response> {
        if let Some(r) = self.move_refusal() {
            return r;
        }
        let Some(size) = self.game.as_ref().map(|g| g.size) else {
            return error(NO_GAME);
        };
        if stones.is_empty() {
            let c = (size / 2) as i64;
            return vec![Response::Stones(vec![
                Coord::new(c, c),
                Coord::new(c + 1, c),
                Coord::new(c, c + 2),
            ])];
        }
        if stones.len() != 3 && stones.len() != 5 {
            return error(format!(
                "swap2 expects 0, 3 or 5 stones, got {}",
                stones.len()
            ));
        }
        // Stones alternate black, white, black…; with an odd count white is to move, which
        // is us after "no swap". In BOARD terms: black = opponent, white = own.
        let board: Vec<BoardStone> = stones
            .iter()
            .enumerate()
            .map(|(i, &at)| BoardStone {
                at,
                field: if i % 2 == 0 {
                    Field::Opponent
                } else {
                    Field::Own
                },
            })
            .collect();
        self.board(&board, arrival)
    }

    /// Search, play the chosen move, and report: the two MESSAGE lines, then the move.
    fn think(&mut self, arrival: Instant) -> Vec<Response> {
        let Some(g) = self.game.as_ref() else {
            return error(NO_GAME);
        };
        if g.stones.len() >= g.size * g.size {
            return error("board is full");
        }
        let board = self.engine.board();
        if g.stones.iter().any(|&(p, c)| board.is_five(p, c)) {
            return error("the game is already won");
        }
        let mut limits = self.settings.time.limits(arrival, g.stones.len(), g.spent);
        self.stop.store(false, Ordering::Relaxed);
        limits.stop = Some(Arc::clone(&self.stop));
        let result = self.engine.think(&limits);
        // The brain's record is the authority: if the search left the board changed, put it
        // back before checking its answer.
        self.sync();
        let board = self.engine.board();
        let mut out = Vec::with_capacity(3);
        let best = if board.check_move(result.best).is_ok() {
            result.best
        } else {
            out.push(Response::Debug(format!(
                "search returned {:?}; playing the first empty cell",
                result.best
            )));
            self.first_empty()
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
            Response::Message(format!("tt {}", self.engine.tt_stats())),
        );
        let side = self.game.as_ref().map_or(Color::Black, |g| g.side);
        self.place(best, side);
        if let Some(g) = self.game.as_mut() {
            g.spent += arrival.elapsed();
        }
        out.push(Response::Move(Coord::new(best.x() as i64, best.y() as i64)));
        out
    }

    fn first_empty(&self) -> Pos {
        let board = self.engine.board();
        let n = board.size();
        (0..n * n)
            .map(|i| Pos::new(i % n, i / n))
            .find(|&p| board.is_empty(p))
            .unwrap_or(Pos::NONE)
    }
}

/// The `ABOUT` line. Values are quoted by the formatter; none contains `"`. `country` and
/// `www` are placeholders (`-`) until the project has a home page to name.
pub fn about() -> Response {
    let pairs = [
        ("name", "Wuzi"),
        ("version", env!("CARGO_PKG_VERSION")),
        ("author", "Wuzi team"),
        ("country", "-"),
        ("www", "-"),
    ];
    Response::About(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gomocup_protocol::{Parser, TtReport};

    /// Feed wire lines, return the reply lines as text.
    fn talk(brain: &mut Brain, lines: &[&str]) -> Vec<String> {
        let mut parser = Parser::new();
        let mut out = Vec::new();
        for line in lines {
            if let Some(input) = parser.feed(line.as_bytes()) {
                out.extend(
                    brain
                        .handle(input, Instant::now())
                        .iter()
                        .map(|r| r.to_string()),
                );
            }
        }
        out
    }

    fn brain() -> Brain {
        let mut b = Brain::new(EngineConfig::default());
        talk(&mut b, &["INFO timeout_turn 0"]);
        b
    }

    #[test]
    fn folder_keeps_its_spaces() {
        let mut b = brain();
        assert!(talk(&mut b, &["INFO folder C:/a b/c"]).is_empty());
        assert_eq!(b.folder(), Some("C:/a b/c"));
    }

    #[test]
    fn the_tt_line_parses_with_the_protocol_reader() {
        let mut b = brain();
        let out = talk(&mut b, &["START 15", "TURN 7,7", "TURN 9,9"]);
        let tt: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("MESSAGE tt "))
            .collect();
        assert_eq!(tt.len(), 2);
        for line in tt {
            let r = TtReport::parse_line(line);
            assert!(r.is_ok(), "{line}");
        }
        // Counters restart with the game.
        talk(&mut b, &["START 15"]);
        assert_eq!(b.engine().tt_stats().probes, 0);
    }

    #[test]
    fn info_survives_start_and_the_sentinel_is_no_budget() {
        let mut b = brain();
        talk(
            &mut b,
            &["INFO time_left 2147483647", "INFO max_node -1", "START 15"],
        );
        let t = b.time_control();
        assert_eq!((t.turn_ms, t.left_ms, t.max_nodes), (0, None, None));
        talk(&mut b, &["INFO time_left -500", "INFO max_depth 3"]);
        let t = b.time_control();
        assert_eq!((t.left_ms, t.max_depth), (Some(-500), Some(3)));
    }

    #[test]
    fn a_bad_board_leaves_an_empty_board() {
        let mut b = brain();
        let out = talk(
            &mut b,
            &["START 15", "TURN 7,7", "BOARD", "1,1,1", "1,1,2", "DONE"],
        );
        assert!(
            out.last().is_some_and(|l| l.starts_with("ERROR ")),
            "{out:?}"
        );
        assert_eq!(b.engine().board().move_count(), 0);
    }

    #[test]
    fn a_rejected_turn_changes_nothing() {
        let mut b = brain();
        talk(&mut b, &["START 15", "TURN 7,7"]);
        let before: Vec<_> = b.engine().board().history().collect();
        for bad in ["TURN 7,7", "TURN 15,0", "TURN a,b", "BEGIN", "TAKEBACK 7,7"] {
            let out = talk(&mut b, &[bad]);
            assert!(
                matches!(out.as_slice(), [l] if l.starts_with("ERROR ")),
                "{bad}: {out:?}"
            );
            let after: Vec<_> = b.engine().board().history().collect();
            assert_eq!(after, before, "{bad}");
        }
    }

    #[test]
    fn board_colours_follow_the_counts() {
        let mut b = brain();
        talk(&mut b, &["START 15", "BOARD", "7,7,1", "8,8,2", "DONE"]);
        // Equal counts: we are black; our stone at 7,7 is black, and we just moved again.
        let board = b.engine().board();
        assert_eq!(board.at(Pos::new(7, 7)), crate::types::Stone::Black);
        assert_eq!(board.at(Pos::new(8, 8)), crate::types::Stone::White);
        assert_eq!(board.side_to_move(), Color::White);
        talk(&mut b, &["BOARD", "7,7,2", "DONE"]);
        let board = b.engine().board();
        assert_eq!(board.at(Pos::new(7, 7)), crate::types::Stone::Black);
        assert_eq!(board.stones_of(Color::White), 1);
    }

    #[test]
    fn a_rule_change_after_start_applies_to_the_game() {
        let mut b = brain();
        talk(&mut b, &["START 15", "INFO rule 9"]);
        assert_eq!(b.engine().board().rule(), Rule::from_bits(9));
        talk(&mut b, &["START 15"]);
        assert_eq!(b.engine().board().rule(), Rule::from_bits(9));
    }

    #[test]
    fn about_is_one_quoted_line() {
        let line = about().to_string();
        assert!(line.starts_with("name=\"Wuzi\", version=\""), "{line}");
        for key in ["author=\"", "country=\"", "www=\""] {
            assert!(line.contains(key), "{line}");
        }
    }
}
