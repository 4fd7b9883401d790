//! The protocol-free facade: a game, a table and a search behind one small API. The brain,
//! the bench, the tests and the tournament all drive this; only the binary knows about pipes.

use crate::board::{Board, BoardError};
use crate::limits::Limits;
use crate::pattern::Pattern4;
use crate::tt::{TranspositionTable, TtStats};
use crate::types::{Color, Pos, Rule, Score};
use std::time::Duration;

/// Default whole-process memory budget when the manager sends none (Gomocup's 350 MiB).
pub const DEFAULT_MEMORY: u64 = 350 * 1024 * 1024;

/// Engine switches that tournaments compare (`--tt-mb`, `--no-checksum`).
#[derive(Clone, Copy, Debug)]
pub struct EngineConfig {
    /// Table size cap in bytes; `None` sizes it from the memory budget, `Some(0)` disables it.
    pub tt_bytes: Option<usize>,
    /// Compare the check word on probes (off = hash word only, for ablation).
    pub use_checksum: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            tt_bytes: None,
            use_checksum: true,
        }
    }
}

/// The outcome of one search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play.
    pub best: Pos,
    /// Its score for the side to move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Deepest ply reached, extensions included.
    pub seldepth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Pos>,
}

/// One game in progress plus the search state that outlives a move.
pub struct Engine {
    config: EngineConfig,
    board: Board,
    memory: u64,
    tt: Option<TranspositionTable>,
    stats: TtStats,
}

impl Engine {
    /// A new engine with an empty 20x20 freestyle board. The table is allocated lazily, at
    /// the first search, so `START` answers at once.
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            config,
            board: Board::new(20, Rule::FREESTYLE).expect("20 is a legal size"),
            memory: DEFAULT_MEMORY,
            tt: None,
            stats: TtStats::default(),
        }
    }

    /// The switches in force.
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Start a new game (table statistics restart too).
    pub fn new_game(&mut self, size: usize, rule: Rule) -> Result<(), BoardError> {
        self.board = Board::new(size, rule)?;
        if let Some(tt) = self.tt.as_mut() {
            tt.clear();
            tt.reset_stats();
        }
        self.stats.reset();
        Ok(())
    }

    /// Whole-process memory budget in bytes (`INFO max_memory`; 0 = no limit).
    pub fn set_memory(&mut self, bytes: u64) {
        if bytes != self.memory {
            self.memory = bytes;
            self.tt = None;
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Play `pos` for the side to move.
    pub fn play(&mut self, pos: Pos) -> Result<(), BoardError> {
        self.board.check_move(pos)?;
        self.board.play(pos);
        Ok(())
    }

    /// Place a `color` stone on `pos` (board set-ups).
    pub fn play_as(&mut self, pos: Pos, color: Color) -> Result<(), BoardError> {
        self.board.check_move(pos)?;
        self.board.play_as(pos, color);
        Ok(())
    }

    /// Set the side to move (after a set-up).
    pub fn set_side_to_move(&mut self, color: Color) {
        self.board.set_side_to_move(color);
    }

    /// Take back the last move.
    pub fn undo(&mut self) -> Result<(), BoardError> {
        self.board.undo()
    }

    /// Table statistics since the last `new_game`.
    pub fn tt_stats(&self) -> TtStats {
        self.tt.as_ref().map(|t| *t.stats()).unwrap_or(self.stats)
    }

    /// Choose a move for the side to move within `limits`. Returns `Pos::NONE` only on a full
    /// board.
    pub fn think(&mut self, limits: &Limits) -> SearchResult {
        let _ = limits;
        if self.tt.is_none() {
            self.tt = Some(TranspositionTable::with_bytes(
                self.config.tt_bytes.unwrap_or(0),
            ));
        }
        let me = self.board.side_to_move();
        let mut best = Pos::NONE;
        let mut best_score = i32::MIN;
        for p in self.board.candidates() {
            let own = self.board.p4(p, me) as i32;
            let opp = self.board.p4(p, me.opp()) as i32;
            let mut s = own * 2 + opp + self.board.cell(p).value[me.idx()] as i32 / 16;
            if self.board.p4(p, me) == Pattern4::AFive && self.board.is_five(p, me) {
                s += 10_000;
            }
            if self.board.p4(p, me.opp()) == Pattern4::AFive {
                s += 5_000;
            }
            if s > best_score {
                best_score = s;
                best = p;
            }
        }
        if !best.is_some() {
            best = self.first_empty();
        }
        SearchResult {
            best,
            score: 0,
            depth: 1,
            seldepth: 1,
            nodes: 1,
            elapsed: limits.elapsed(),
            pv: vec![best],
        }
    }

    fn first_empty(&self) -> Pos {
        let n = self.board.size();
        (0..n * n)
            .map(|i| Pos::new(i % n, i / n))
            .find(|&p| self.board.is_empty(p))
            .unwrap_or(Pos::NONE)
    }
}
