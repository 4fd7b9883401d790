//! What a finished game leaves behind: one JSON object per game in `results.jsonl`.

use crate::board::Side;
use crate::renju::Foul;
use gomocup_protocol::TtReport;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended. Every failure is a loss for the engine that committed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// A winning line under the rule.
    Five,
    /// Every cell is taken: draw.
    BoardFull,
    /// `draw_after_moves` stones on the board: draw.
    MoveLimit,
    /// A move off the board or onto a stone.
    Illegal,
    /// A reply that is no move (garbage, `ERROR`, `UNKNOWN`, …) where a move was due.
    Malformed,
    /// No move within the turn limit (or what was left of the game clock) plus tolerance.
    Timeout,
    /// The game clock ran out.
    MatchClock,
    /// The engine exited or closed its output during the game.
    Crash,
    /// The engine could not be started, or did not answer `ABOUT`/`START` properly.
    StartFailed,
    /// The engine's resident memory went over the limit (`memory_limit`).
    Memory,
    /// Renju: black played a double three, a forbidden move (a loss on the board).
    FoulDoubleThree,
    /// Renju: black played a double four.
    FoulDoubleFour,
    /// Renju: black played an overline.
    FoulOverline,
}

impl Reason {
    /// Whether this is a fault of the losing engine (as opposed to a normal game end).
    /// Renju fouls are a loss on the board under the rules, not an engine fault.
    pub fn is_failure(self) -> bool {
        !matches!(self, Reason::Five | Reason::BoardFull | Reason::MoveLimit) && !self.is_foul()
    }

    /// Whether this is a renju foul by black.
    pub fn is_foul(self) -> bool {
        matches!(
            self,
            Reason::FoulDoubleThree | Reason::FoulDoubleFour | Reason::FoulOverline
        )
    }

    /// The reason a game ends on `foul`.
    pub fn foul(foul: Foul) -> Reason {
        match foul {
            Foul::DoubleThree => Reason::FoulDoubleThree,
            Foul::DoubleFour => Reason::FoulDoubleFour,
            Foul::Overline => Reason::FoulOverline,
        }
    }

    /// All reasons, in report order.
    pub const ALL: [Reason; 13] = [
        Reason::Five,
        Reason::BoardFull,
        Reason::MoveLimit,
        Reason::Illegal,
        Reason::Malformed,
        Reason::Timeout,
        Reason::MatchClock,
        Reason::Crash,
        Reason::StartFailed,
        Reason::Memory,
        Reason::FoulDoubleThree,
        Reason::FoulDoubleFour,
        Reason::FoulOverline,
    ];
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Five => "five",
            Reason::BoardFull => "board full",
            Reason::MoveLimit => "move limit",
            Reason::Illegal => "illegal move",
            Reason::Malformed => "malformed reply",
            Reason::Timeout => "timeout",
            Reason::MatchClock => "match clock exhausted",
            Reason::Crash => "crash",
            Reason::StartFailed => "start failed",
            Reason::Memory => "memory limit",
            Reason::FoulDoubleThree => "foul: double-three",
            Reason::FoulDoubleFour => "foul: double-four",
            Reason::FoulOverline => "foul: overline",
        })
    }
}

/// One engine's side of a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideReport {
    /// The engine's `ABOUT` line, if it gave one.
    pub about: Option<String>,
    /// Moves it made (opening stones excluded).
    pub moves: usize,
    /// Total think time over those moves, ms.
    pub time_ms: u64,
    /// Longest single move, ms.
    pub max_move_ms: u64,
    /// `MESSAGE` lines it printed.
    pub messages: usize,
    /// Lines skipped as noise under `lenient_replies`.
    #[serde(default)]
    pub skipped: usize,
    /// Its last `MESSAGE tt …` line of the game (cumulative since `START`), `None` when it
    /// printed none (`n/a` in reports).
    pub tt: Option<TtReport>,
    /// Peak resident memory of the process at the end of the game, KiB (Linux only; shows
    /// how close an engine came to `memory_limit`, which is enforced on the process tree).
    #[serde(default)]
    pub peak_rss_kib: Option<u64>,
    /// `MESSAGE` texts since the engine's last move; the game moves them into that move's
    /// [`Ply`]. Never written.
    #[serde(skip)]
    pub pending: Vec<String>,
}

/// The outcome from black's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Black won: `1-0`.
    BlackWins,
    /// White won: `0-1`.
    WhiteWins,
    /// `1/2-1/2`.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::BlackWins => Some(Side::Black),
            Outcome::WhiteWins => Some(Side::White),
            Outcome::Draw => None,
        }
    }

    /// A win for `side`.
    pub fn win_for(side: Side) -> Outcome {
        match side {
            Side::Black => Outcome::BlackWins,
            Side::White => Outcome::WhiteWins,
        }
    }

    /// Points scored by `side`.
    pub fn points(self, side: Side) -> f64 {
        match self.winner() {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::BlackWins => "1-0",
            Outcome::WhiteWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        })
    }
}

/// One line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game number in the schedule (1-based).
    pub game: usize,
    /// Engine name with black.
    pub black: String,
    /// Engine name with white.
    pub white: String,
    /// Index into the (shuffled, limited) opening list.
    pub opening: usize,
    /// Line of that opening in its file (0 when there is no openings file).
    pub opening_line: usize,
    /// Result from black's point of view.
    pub outcome: Outcome,
    /// How it ended.
    pub reason: Reason,
    /// Free text for failures (the bad line, the exit status, …); empty otherwise.
    pub detail: String,
    /// Stones on the board at the end, opening included.
    pub moves: usize,
    /// Black's side of the game.
    pub black_report: SideReport,
    /// White's side of the game.
    pub white_report: SideReport,
    /// The PSQ file, relative to the output folder.
    pub psq: String,
    /// Every stone in play order, opening included, with the mover's `MESSAGE` lines (empty
    /// in journals written before moves were kept).
    #[serde(default)]
    pub plies: Vec<Ply>,
    /// How many of `plies` are opening stones.
    #[serde(default)]
    pub opening_stones: usize,
}

/// `MESSAGE` lines kept per move (a flooding engine must not bloat the journal).
pub const MESSAGES_PER_MOVE: usize = 8;

/// Characters kept of one `MESSAGE` line.
pub const MESSAGE_CAP: usize = 240;

/// One stone as played, with what its engine said while thinking about it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ply {
    /// Column, 0-based.
    pub x: usize,
    /// Row, 0-based.
    pub y: usize,
    /// Think time, ms (0 for opening stones).
    pub ms: u64,
    /// The text of the mover's `MESSAGE` lines printed since it was asked for this move
    /// (for its first move: since it started), at most [`MESSAGES_PER_MOVE`] of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub msg: Vec<String>,
}

impl GameRecord {
    /// The report of the engine playing `side`.
    pub fn side(&self, side: Side) -> &SideReport {
        match side {
            Side::Black => &self.black_report,
            Side::White => &self.white_report,
        }
    }

    /// The colour `name` played, if it took part.
    pub fn side_of(&self, name: &str) -> Option<Side> {
        if self.black == name {
            Some(Side::Black)
        } else if self.white == name {
            Some(Side::White)
        } else {
            None
        }
    }
}
