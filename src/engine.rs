//! The protocol-free facade: a game, a table and a search behind one small API. The brain,
//! the bench, the tests and the tournament all drive this; only the binary knows about pipes.

use crate::board::{Board, BoardError};
use crate::limits::Limits;
use crate::root::think;
use crate::tt::{TranspositionTable, TtStats};
use crate::types::{Color, Pos, Rule, Score};
use std::time::Duration;

/// Default whole-process memory budget when the manager sends none (Gomocup's 350 MiB).
pub const DEFAULT_MEMORY: u64 = 350 * 1024 * 1024;

/// Largest table the engine builds from a memory budget.
pub const MAX_TT_BYTES: u64 = 1 << 30;

/// Engine switches that tournaments compare (`--tt-mb`, `--no-checksum`).
#[derive(Clone, Copy, Debug)]
pub struct EngineConfig {
    /// Table size cap in bytes; `None` sizes it from the memory budget, `Some(0)` disables it.
    pub tt_bytes: Option<usize>,
    /// Compare the check word on probes (off = hash word only, for ablation).
    pub use_checksum: bool,
    /// Play the statically best move without searching: the one-ply baseline opponent.
    pub greedy: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            tt_bytes: None,
            use_checksum: true,
            greedy: false,
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

impl SearchResult {
    /// A result that plays `best` with nothing searched yet (the move always ready).
    pub fn ready(best: Pos) -> SearchResult {
        SearchResult {
            best,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        }
    }
}

/// One game in progress plus the search state that outlives a move.
pub struct Engine {
    config: EngineConfig,
    board: Board,
    memory: u64,
    tt: Option<TranspositionTable>,
    stats: TtStats,
    /// The table holds entries from another board size or rule.
    stale: bool,
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
            stale: false,
        }
    }

    /// The switches in force.
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Start a new game (table statistics restart too).
    pub fn new_game(&mut self, size: usize, rule: Rule) -> Result<(), BoardError> {
        // Keys do not encode the board size or the rule, so entries from another size or rule
        // would lie; within the same ones an entry stays true for its position across games.
        // Clearing a full table takes tens of milliseconds, so it is left to the first search
        // rather than done here, where START must answer at once.
        if size != self.board.size() || rule != self.board.rule() {
            self.stale = true;
        }
        self.board = Board::new(size, rule)?;
        if let Some(tt) = self.tt.as_mut() {
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

    /// Table size in bytes for the current memory budget and switches.
    fn tt_bytes(&self) -> usize {
        if let Some(b) = self.config.tt_bytes {
            return b;
        }
        let total = if self.memory == 0 {
            DEFAULT_MEMORY
        } else {
            self.memory
        };
        // Leave room for the binary, the pattern tables, stacks and allocator slack
        // (PROTOCOL.md 3.4: tables at most 60-70 % of the budget minus the static part).
        let usable = total.saturating_sub(24 * 1024 * 1024) * 13 / 20;
        // Beyond 1 GiB the table stops paying at Gomocup time controls while its first-touch
        // cost and resident size keep growing.
        usable.clamp(1 << 20, MAX_TT_BYTES) as usize
    }

    /// Choose a move for the side to move within `limits`. Returns `Pos::NONE` only on a full
    /// board.
    pub fn think(&mut self, limits: &Limits) -> SearchResult {
        if self.tt.is_none() {
            self.tt = Some(TranspositionTable::with_bytes(self.tt_bytes()));
            self.stale = false;
        }
        if self.config.greedy {
            return crate::root::greedy(&self.board, limits);
        }
        let checksum = self.config.use_checksum;
        let (board, tt) = match self.tt.as_mut() {
            Some(tt) => (&mut self.board, tt),
            None => unreachable!("table allocated above"),
        };
        if std::mem::take(&mut self.stale) {
            tt.clear();
        }
        tt.new_search();
        think(board, tt, limits, checksum)
    }
}
