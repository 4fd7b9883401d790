//! The protocol-free facade: the game record, a table and a search behind one small API.
//! The brain, the bench, the tests and the tournament all drive this; only the binary
//! knows about pipes.
//!
//! The engine owns the one record of the game: the moves played (with their colours, since
//! a `BOARD` set-up need not alternate) and the side to move. The board is derived from it
//! and is brought back to it after every search, so nothing else keeps a copy.

use crate::board::{Board, BoardError};
use crate::search::limits::Limits;
use crate::search::{greedy, think, SearchParams, SearchResult};
use crate::tt::{TranspositionTable, TtStats};
use crate::types::{Color, Pos, Rule};

/// Default whole-process memory budget when the manager sends none (Gomocup's 350 MiB).
pub const DEFAULT_MEMORY: u64 = 350 * 1024 * 1024;

/// Largest table the engine builds from a memory budget.
pub const MAX_TT_BYTES: u64 = 1 << 30;

/// Table bytes per millisecond of a move's hard cap. A search stores about 700 entries a
/// millisecond (24 bytes each), so this holds about five moves' worth: a table much larger
/// than the search can fill only spreads its probes over more pages, and the processor's
/// page walks for them cost nodes (session 37: 16 MiB instead of 212 MiB at 200 ms a move,
/// 7 % more nodes a second at 500 ms).
pub const TT_BYTES_PER_MS: usize = 80 << 10;

/// Smallest table sized by the clock.
pub const MIN_TIMED_TT_BYTES: usize = 16 << 20;

/// Engine switches that tournaments compare (`--tt-mb`, `--no-checksum`).
#[derive(Clone, Copy, Debug)]
pub struct EngineConfig {
    /// Table size cap in bytes; `None` sizes it from the memory budget, `Some(0)` disables it.
    pub tt_bytes: Option<usize>,
    /// Compare the check word on probes (off = hash word only, for ablation).
    pub use_checksum: bool,
    /// Play the statically best move without searching: the one-ply baseline opponent.
    pub greedy: bool,
    /// The search's tunable numbers.
    pub search: SearchParams,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            tt_bytes: None,
            use_checksum: true,
            greedy: false,
            search: SearchParams::DEFAULT,
        }
    }
}

/// One game in progress plus the search state that outlives a move.
pub struct Engine {
    config: EngineConfig,
    board: Board,
    /// The game record: every stone in play order, and the side to move.
    moves: Vec<(Pos, Color)>,
    side: Color,
    memory: u64,
    tt: Option<TranspositionTable>,
    stats: TtStats,
    /// The table holds entries from another board size or rule.
    stale: bool,
    /// A game has started since the table was sized: the next search sizes it again for
    /// its clock (`tt_bytes`).
    resize: bool,
}

impl Engine {
    /// A new engine with an empty 20x20 freestyle board. The table is allocated lazily, at
    /// the first search, so `START` answers at once.
    pub fn new(config: EngineConfig) -> Engine {
        Engine {
            config,
            board: Board::new(20, Rule::FREESTYLE).expect("20 is a legal size"),
            moves: Vec::new(),
            side: Color::Black,
            memory: DEFAULT_MEMORY,
            tt: None,
            stats: TtStats::default(),
            stale: false,
            resize: false,
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
        self.moves.clear();
        self.side = Color::Black;
        self.resize = true;
        if let Some(tt) = self.tt.as_mut() {
            tt.reset_stats();
        }
        self.stats.reset();
        Ok(())
    }

    /// Play on under `rule`: the board is rebuilt from the record (the table is kept, but
    /// cleared before the next search, since its entries were scored under the old rule).
    pub fn set_rule(&mut self, rule: Rule) {
        if rule == self.board.rule() {
            return;
        }
        self.stale = true;
        if let Ok(board) = Board::new(self.board.size(), rule) {
            self.board = board;
            self.restore();
        }
    }

    /// Replace the game by a set-up position: `stones` in the order given, then `side` to
    /// move. Refused, with the game unchanged, if a stone is off the board or repeated.
    /// The board keeps what it shares with the position (undo back to the longest common
    /// prefix, then play the rest), so the table and its statistics stay warm when a
    /// manager sends the whole game as `BOARD` before every move.
    pub fn set_position(&mut self, stones: &[(Pos, Color)], side: Color) -> Result<(), BoardError> {
        let n = self.board.size();
        let mut seen = vec![false; n * n];
        for &(pos, _) in stones {
            let (x, y) = (pos.x(), pos.y());
            if x >= n || y >= n || !pos.is_some() {
                return Err(BoardError::OffBoard);
            }
            if std::mem::replace(&mut seen[y * n + x], true) {
                return Err(BoardError::Occupied);
            }
        }
        self.moves = stones.to_vec();
        self.side = side;
        self.restore();
        Ok(())
    }

    /// Bring the board back to the record (after a search, or after a panic left it
    /// changed): undo to the longest common prefix and play the rest.
    pub fn restore(&mut self) {
        let common = self
            .board
            .history()
            .zip(self.moves.iter())
            .take_while(|(a, b)| a == *b)
            .count();
        while self.board.move_count() > common {
            if self.board.undo().is_err() {
                break;
            }
        }
        for &(pos, color) in &self.moves[common..] {
            // The record holds only moves that were legal when made.
            if self.board.check_move(pos).is_ok() {
                self.board.play_as(pos, color);
            }
        }
        self.board.set_side_to_move(self.side);
    }

    /// The game record: every stone in play order.
    pub fn moves(&self) -> &[(Pos, Color)] {
        &self.moves
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
        self.play_as(pos, self.side)
    }

    /// Place a `color` stone on `pos`; the other colour moves next.
    pub fn play_as(&mut self, pos: Pos, color: Color) -> Result<(), BoardError> {
        self.board.check_move(pos)?;
        self.board.play_as(pos, color);
        self.moves.push((pos, color));
        self.side = color.opp();
        Ok(())
    }

    /// Set the side to move (after a set-up).
    pub fn set_side_to_move(&mut self, color: Color) {
        self.side = color;
        self.board.set_side_to_move(color);
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Take back the last move; its colour moves next.
    pub fn undo(&mut self) -> Result<(), BoardError> {
        let (_, color) = self.moves.pop().ok_or(BoardError::NothingToUndo)?;
        self.side = color;
        self.restore();
        Ok(())
    }

    /// The table's byte budget (`None` before the first search).
    pub fn tt_budget(&self) -> Option<usize> {
        self.tt.as_ref().map(TranspositionTable::budget)
    }

    /// Table statistics since the last `new_game` (all zero with the table disabled).
    pub fn tt_stats(&self) -> TtStats {
        self.tt.as_ref().map(|t| *t.stats()).unwrap_or(self.stats)
    }

    /// Table size in bytes for the current memory budget, switches and clock: the budget's
    /// share, or less when a move's hard cap is short (`TT_BYTES_PER_MS`).
    fn tt_bytes(&self, limits: &Limits) -> usize {
        if let Some(b) = self.config.tt_bytes {
            return b;
        }
        let budget = self.budget_tt_bytes();
        let ms = usize::try_from(limits.hard.as_millis()).unwrap_or(usize::MAX);
        let timed = ms.saturating_mul(TT_BYTES_PER_MS).max(MIN_TIMED_TT_BYTES);
        budget.min(timed)
    }

    /// Table size in bytes for the current memory budget.
    fn budget_tt_bytes(&self) -> usize {
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
        if self.config.greedy {
            return greedy(&self.board, limits);
        }
        let bytes = self.tt_bytes(limits);
        // The first search of a game may find the clock changed: a table of another size is
        // built afresh (it would be cleared or outgrown anyway).
        if std::mem::take(&mut self.resize) && self.tt.as_ref().is_some_and(|t| t.budget() != bytes)
        {
            self.tt = None;
        }
        let checksum = self.config.use_checksum;
        if self.tt.is_none() {
            // A new table holds nothing stale.
            self.stale = false;
        }
        let tt = self.tt.get_or_insert_with(|| {
            let mut tt = TranspositionTable::with_bytes(bytes);
            tt.set_checksum(checksum);
            tt
        });
        if std::mem::take(&mut self.stale) {
            tt.clear();
        }
        tt.new_search();
        let result = think(&mut self.board, tt, limits, &self.config.search);
        self.restore();
        result
    }
}
