//! Brain side: raw input lines → commands. Stateful only for the multi-line blocks
//! (`BOARD`, `SWAP2BOARD`, and the Yixin blocks we consume without implementing).

use crate::command::{BoardStone, Command, Field, Info};
use crate::coord::{parse_coord, parse_int, parse_ints, parse_uint, Coord};
use crate::error::ProtocolError;
use crate::response::clean;

/// Most stone lines a block keeps; a 32×32 board has 1024 cells, so more is an error and
/// the parser keeps no more of them in memory.
pub const MAX_BLOCK_LINES: usize = 2048;

/// Yixin-Board commands that are followed by stone lines and `DONE`. We do not implement
/// them, but answering `UNKNOWN` to each stone line would flood the GUI, so the whole block
/// is consumed and answered once.
const YIXIN_BLOCKS: [&str; 3] = ["YXBOARD", "YXBLOCK", "YXBLOCKUNDO"];

/// Which block is open.
#[derive(Clone, Debug, PartialEq, Eq)]
enum BlockKind {
    Board(Vec<BoardStone>),
    Swap2(Vec<Coord>),
    Other(String),
}

/// An open block: what has been collected and the first fault, reported at `DONE`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Block {
    kind: BlockKind,
    lines: usize,
    fault: Option<ProtocolError>,
}

/// Turns lines into commands.
///
/// Feed it every line, in order; it answers `None` for lines that produce nothing yet
/// (empty lines, stone lines inside a block) and `Some` when a command is complete or a
/// line is faulty. It never panics and holds at most [`MAX_BLOCK_LINES`] stones.
#[derive(Clone, Debug, Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    /// A parser outside any block.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a `BOARD`/`SWAP2BOARD`/Yixin block is open (waiting for `DONE`).
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Parse one line (raw bytes, line ending included or not). Invalid UTF-8 is decoded
    /// lossily; `\0` and other control bytes are ordinary characters of a word.
    pub fn feed(&mut self, raw: &[u8]) -> Option<Result<Command, ProtocolError>> {
        let text = String::from_utf8_lossy(raw);
        let line = text.trim_matches(is_blank);
        if line.is_empty() {
            return None;
        }
        let (word, rest) = split_word(line);
        let upper = word.to_ascii_uppercase();
        if self.block.is_some() {
            return self.feed_block(&upper, line);
        }
        parse_command(&upper, word, rest, self)
    }

    /// Report a line that the reader cut because it was too long. Outside a block it earns
    /// `UNKNOWN`; inside one it spoils the block.
    pub fn feed_overlong(&mut self) -> Option<Result<Command, ProtocolError>> {
        match self.block.as_mut() {
            Some(block) => {
                block.lines += 1;
                let line = block.lines;
                block.spoil(line, "line too long");
                None
            }
            None => Some(Err(ProtocolError::LineTooLong)),
        }
    }

    fn feed_block(&mut self, upper: &str, line: &str) -> Option<Result<Command, ProtocolError>> {
        if upper == "END" {
            // END is obeyed even inside a block (PROTOCOL.md §2.6): the manager is leaving.
            self.block = None;
            return Some(Ok(Command::End));
        }
        if upper == "DONE" {
            return self.block.take().map(Block::finish);
        }
        let block = self.block.as_mut()?;
        block.lines += 1;
        let n = block.lines;
        if n > MAX_BLOCK_LINES {
            block.spoil(n, "too many lines");
            return None;
        }
        match &mut block.kind {
            BlockKind::Board(stones) => match parse_ints(line, 3) {
                Some(v) => match Field::from_code(v[2]) {
                    Some(field) => stones.push(BoardStone {
                        at: Coord::new(v[0], v[1]),
                        field,
                    }),
                    None => block.spoil(n, &format!("field {} is not 1, 2 or 3", v[2])),
                },
                None => block.spoil(n, &format!("'{}' is not x,y,field", clean(line))),
            },
            BlockKind::Swap2(stones) => match parse_coord(line) {
                Some(c) => stones.push(c),
                None => block.spoil(n, &format!("'{}' is not x,y", clean(line))),
            },
            BlockKind::Other(_) => {}
        }
        None
    }
}

impl Block {
    fn open(kind: BlockKind) -> Block {
        Block {
            kind,
            lines: 0,
            fault: None,
        }
    }

    /// Keep the first fault only: it is the one worth reporting.
    fn spoil(&mut self, line: usize, detail: &str) {
        if self.fault.is_none() {
            let command = match self.kind {
                BlockKind::Swap2(_) => "SWAP2BOARD",
                _ => "BOARD",
            };
            self.fault = Some(ProtocolError::BadBlockLine {
                command,
                line,
                detail: detail.to_string(),
            });
        }
    }

    fn finish(self) -> Result<Command, ProtocolError> {
        if let BlockKind::Other(word) = self.kind {
            return Err(ProtocolError::UnknownCommand(word));
        }
        if let Some(fault) = self.fault {
            return Err(fault);
        }
        match self.kind {
            BlockKind::Board(stones) => Ok(Command::Board(stones)),
            BlockKind::Swap2(stones) => Ok(Command::Swap2Board(stones)),
            BlockKind::Other(word) => Err(ProtocolError::UnknownCommand(word)),
        }
    }
}

/// Blank for framing purposes: ASCII whitespace plus the lone CR that some writers leave.
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0b' | '\x0c')
}

/// The first word and the trimmed rest.
fn split_word(line: &str) -> (&str, &str) {
    match line.find(is_blank) {
        Some(i) => (&line[..i], line[i..].trim_matches(is_blank)),
        None => (line, ""),
    }
}

fn bad(command: &'static str, detail: &str) -> ProtocolError {
    ProtocolError::BadArguments {
        command,
        detail: detail.to_string(),
    }
}

fn coord_arg(command: &'static str, rest: &str) -> Result<Coord, ProtocolError> {
    parse_coord(rest).ok_or_else(|| bad(command, "coordinates must be x,y"))
}

fn size_arg(text: &str) -> Option<u32> {
    parse_uint(text).and_then(|n| u32::try_from(n).ok())
}

/// One line outside a block; `None` when it opened a block (nothing to answer until `DONE`).
fn parse_command(
    upper: &str,
    word: &str,
    rest: &str,
    parser: &mut Parser,
) -> Option<Result<Command, ProtocolError>> {
    Some(match upper {
        "START" => {
            let sizes: Vec<&str> = rest.split(is_blank).filter(|s| !s.is_empty()).collect();
            match sizes.as_slice() {
                [n] => size_arg(n).map(Command::Start),
                // Yixin-Board's `start W H` form, accepted when square (PROTOCOL.md §2.1).
                [w, h] => match (size_arg(w), size_arg(h)) {
                    (Some(w), Some(h)) if w == h => Some(Command::Start(w)),
                    _ => None,
                },
                _ => None,
            }
            .ok_or_else(|| bad("START", "expected one board size"))
        }
        "RECTSTART" => parse_ints(rest, 2)
            .and_then(|v| {
                Some(Command::RectStart {
                    width: u32::try_from(v[0]).ok()?,
                    height: u32::try_from(v[1]).ok()?,
                })
            })
            .ok_or_else(|| bad("RECTSTART", "expected width,height")),
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "STOP" | "YXSTOP" => Ok(Command::Stop),
        "YXSHOWFORBID" => Ok(Command::ShowForbid),
        "TURN" => coord_arg("TURN", rest).map(Command::Turn),
        "TAKEBACK" => coord_arg("TAKEBACK", rest).map(Command::Takeback),
        "PLAY" => coord_arg("PLAY", rest).map(Command::Play),
        "INFO" => parse_info(rest).map(Command::Info),
        "BOARD" | "SWAP2BOARD" => {
            let kind = if upper == "BOARD" {
                BlockKind::Board(Vec::new())
            } else {
                BlockKind::Swap2(Vec::new())
            };
            let mut block = Block::open(kind);
            if !rest.is_empty() {
                block.spoil(0, "text after the keyword");
            }
            parser.block = Some(block);
            return None;
        }
        _ if YIXIN_BLOCKS.contains(&upper) => {
            parser.block = Some(Block::open(BlockKind::Other(clean(word))));
            return None;
        }
        _ => Err(ProtocolError::UnknownCommand(clean(word))),
    })
}

fn parse_info(rest: &str) -> Result<Info, ProtocolError> {
    let (key, value) = split_word(rest);
    let key = key.to_ascii_lowercase();
    let fault = || ProtocolError::BadInfo {
        key: clean(&key),
        value: clean(value),
    };
    if key.is_empty() {
        return Err(fault());
    }
    let int = || parse_int(value).ok_or_else(fault);
    let uint = || parse_uint(value).ok_or_else(fault);
    Ok(match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn(int()?),
        "timeout_match" => Info::TimeoutMatch(int()?),
        "time_left" => Info::TimeLeft(int()?),
        "max_memory" => Info::MaxMemory(uint()?),
        "game_type" => Info::GameType(int()?),
        "rule" => Info::Rule(uint()?),
        "evaluate" => Info::Evaluate(parse_coord(value).ok_or_else(fault)?),
        "folder" => Info::Folder(value.to_string()),
        "max_depth" => Info::MaxDepth(int()?),
        "max_node" => Info::MaxNode(int()?),
        "thread_num" => Info::ThreadNum(int()?),
        "time_increment" => Info::TimeIncrement(int()?),
        "hash_size" => Info::HashSize(int()?),
        _ => Info::Other {
            key,
            value: value.to_string(),
        },
    })
}
