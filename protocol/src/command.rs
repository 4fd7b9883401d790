//! Manager → brain commands, and their exact wire lines (the manager side formats them).

use crate::coord::Coord;
use std::fmt;

/// The owner of a stone in a `BOARD` line, from the receiving brain's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a stone of a completed line in a continuous game; it counts for neither side.
    Blocked,
}

impl Field {
    /// The wire digit.
    pub const fn code(self) -> u8 {
        match self {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Blocked => 3,
        }
    }

    /// The field for a wire digit, if it is one of 1, 2, 3.
    pub const fn from_code(code: i64) -> Option<Field> {
        match code {
            1 => Some(Field::Own),
            2 => Some(Field::Opponent),
            3 => Some(Field::Blocked),
            _ => None,
        }
    }
}

/// One `x,y,field` line of a `BOARD` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardStone {
    /// The cell.
    pub at: Coord,
    /// Whose stone it is.
    pub field: Field,
}

/// One `INFO key value` setting. Numbers are signed 64-bit because managers send
/// `time_left` negative and `max_memory` above 2^31.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn` ms; 0 = answer at once.
    TimeoutTurn(i64),
    /// `timeout_match` ms; 0 = no match limit.
    TimeoutMatch(i64),
    /// `time_left` ms; may be negative; 2147483647 = unlimited.
    TimeLeft(i64),
    /// `max_memory` bytes for the whole process; 0 = no limit.
    MaxMemory(u64),
    /// `game_type`: 0 human, 1 brain, 2 tournament, 3 network tournament.
    GameType(i64),
    /// `rule` bit mask: 1 exactly five, 2 continuous, 4 renju, 8 caro.
    Rule(u64),
    /// `evaluate x,y`: the GUI mouse position (debug builds only; always silent).
    Evaluate(Coord),
    /// `folder`: where persistent files may go (may contain spaces).
    Folder(String),
    /// `max_depth` plies (extension: c-gomoku-cli, Yixin).
    MaxDepth(i64),
    /// `max_node` nodes; -1 or 0 = unlimited (extension: c-gomoku-cli, Yixin).
    MaxNode(i64),
    /// `thread_num` (extension: c-gomoku-cli, Yixin).
    ThreadNum(i64),
    /// `time_increment` ms (extension: Yixin).
    TimeIncrement(i64),
    /// `hash_size` KiB (extension: Yixin).
    HashSize(i64),
    /// Any other key, kept as text (key lower-cased, value trimmed, possibly empty).
    Other {
        /// The key, lower-cased.
        key: String,
        /// The rest of the line, trimmed.
        value: String,
    },
}

impl Info {
    /// The key as written on the wire.
    pub fn key(&self) -> &str {
        match self {
            Info::TimeoutTurn(_) => "timeout_turn",
            Info::TimeoutMatch(_) => "timeout_match",
            Info::TimeLeft(_) => "time_left",
            Info::MaxMemory(_) => "max_memory",
            Info::GameType(_) => "game_type",
            Info::Rule(_) => "rule",
            Info::Evaluate(_) => "evaluate",
            Info::Folder(_) => "folder",
            Info::MaxDepth(_) => "max_depth",
            Info::MaxNode(_) => "max_node",
            Info::ThreadNum(_) => "thread_num",
            Info::TimeIncrement(_) => "time_increment",
            Info::HashSize(_) => "hash_size",
            Info::Other { key, .. } => key,
        }
    }

    /// The value as written on the wire.
    pub fn value(&self) -> String {
        match self {
            Info::TimeoutTurn(v)
            | Info::TimeoutMatch(v)
            | Info::TimeLeft(v)
            | Info::GameType(v)
            | Info::MaxDepth(v)
            | Info::MaxNode(v)
            | Info::ThreadNum(v)
            | Info::TimeIncrement(v)
            | Info::HashSize(v) => v.to_string(),
            Info::MaxMemory(v) | Info::Rule(v) => v.to_string(),
            Info::Evaluate(c) => c.to_string(),
            Info::Folder(s) => s.clone(),
            Info::Other { value, .. } => value.clone(),
        }
    }
}

/// A command from the manager, complete (a `BOARD` block arrives as one command at `DONE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`: new empty square board. (`START n n` with equal sizes parses to this.)
    Start(u32),
    /// `RECTSTART width,height`.
    RectStart {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// `RESTART`: same size, empty board.
    Restart,
    /// `BEGIN`: empty board, the brain moves first.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain replies with a move.
    Turn(Coord),
    /// `BOARD` … `DONE`: a whole position, in the order sent; the brain is to move.
    Board(Vec<BoardStone>),
    /// `INFO key value`: a setting; never answered.
    Info(Info),
    /// `END`: exit at once, no reply.
    End,
    /// `ABOUT`: one `key="value"` line.
    About,
    /// `TAKEBACK x,y`: remove the last stone, which is at x,y.
    Takeback(Coord),
    /// `PLAY x,y`: play this move and echo it.
    Play(Coord),
    /// `SWAP2BOARD` … `DONE`: the swap2 opening stones so far (0, 3 or 5), black first.
    Swap2Board(Vec<Coord>),
    /// `YXSTOP` (Yixin, sent by c-gomoku-cli when a turn's time runs out) or `STOP`: end a
    /// running search and play the best move so far; no reply of its own.
    Stop,
    /// `YXSHOWFORBID` (Yixin): list black's forbidden cells under renju, as `FORBID …`.
    ShowForbid,
}

impl Command {
    /// The command's exact wire lines, without line endings. `BOARD` and `SWAP2BOARD` expand
    /// to their stone lines and a closing `DONE`; every other command is one line.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Command::Start(n) => vec![format!("START {n}")],
            Command::RectStart { width, height } => vec![format!("RECTSTART {width},{height}")],
            Command::Restart => vec!["RESTART".into()],
            Command::Begin => vec!["BEGIN".into()],
            Command::Turn(c) => vec![format!("TURN {c}")],
            Command::Board(stones) => {
                let mut out = Vec::with_capacity(stones.len() + 2);
                out.push("BOARD".into());
                out.extend(
                    stones
                        .iter()
                        .map(|s| format!("{},{}", s.at, s.field.code())),
                );
                out.push("DONE".into());
                out
            }
            Command::Info(info) => {
                let value = info.value();
                if value.is_empty() {
                    vec![format!("INFO {}", info.key())]
                } else {
                    vec![format!("INFO {} {}", info.key(), value)]
                }
            }
            Command::End => vec!["END".into()],
            Command::About => vec!["ABOUT".into()],
            Command::Takeback(c) => vec![format!("TAKEBACK {c}")],
            Command::Play(c) => vec![format!("PLAY {c}")],
            Command::Swap2Board(stones) => {
                let mut out = Vec::with_capacity(stones.len() + 2);
                out.push("SWAP2BOARD".into());
                out.extend(stones.iter().map(|c| c.to_string()));
                out.push("DONE".into());
                out
            }
            Command::Stop => vec!["YXSTOP".into()],
            Command::ShowForbid => vec!["YXSHOWFORBID".into()],
        }
    }

    /// Whether the brain owes a move (or swap2 answer) for this command.
    pub fn expects_move(&self) -> bool {
        matches!(
            self,
            Command::Begin
                | Command::Turn(_)
                | Command::Board(_)
                | Command::Play(_)
                | Command::Swap2Board(_)
        )
    }
}

/// The wire lines joined by `\n`, with no trailing newline.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lines().join("\n"))
    }
}
