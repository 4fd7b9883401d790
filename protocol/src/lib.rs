//! The Gomocup (piskvork) brain protocol, typed, for both sides of the pipe.
//!
//! One crate spells every message, so the engine (`pbrain-wuzi`) and the tournament runner
//! (`wuzi-tournament`) cannot drift apart. The reference is `PROTOCOL.md` (kept outside the
//! repository); section numbers below point into it.
//!
//! # Brain side
//!
//! ```
//! use gomocup_protocol::{Command, Coord, Parser, Response};
//! let mut parser = Parser::new();
//! assert_eq!(parser.feed(b"turn 7, 7\r\n"), Some(Ok(Command::Turn(Coord::new(7, 7)))));
//! assert_eq!(parser.feed(b"BOARD"), None); // a block opens; nothing to answer yet
//! assert_eq!(parser.feed(b"7,7,2"), None);
//! assert!(matches!(parser.feed(b"DONE"), Some(Ok(Command::Board(_)))));
//! assert_eq!(Response::Move(Coord::new(8, 8)).to_string(), "8,8");
//! ```
//!
//! [`LineReader`] reads raw lines with a length cap; [`Parser`] turns each into
//! `Option<Result<Command, ProtocolError>>` (`None`: nothing to answer yet); a
//! [`ProtocolError`] knows its own reply ([`ProtocolError::reply`]: `UNKNOWN`, `ERROR`, or
//! nothing for INFO). [`Response`]'s `Display` is the exact line, without line ending; free
//! text is cleaned of control characters and capped, so one response is always one line.
//!
//! # Manager side
//!
//! ```
//! use gomocup_protocol::{BoardStone, Command, Coord, Field, Response};
//! let board = Command::Board(vec![BoardStone { at: Coord::new(7, 7), field: Field::Opponent }]);
//! assert_eq!(board.lines(), ["BOARD", "7,7,2", "DONE"]);
//! assert_eq!(Response::parse("7,8"), Ok(Response::Move(Coord::new(7, 8))));
//! assert!(matches!(Response::parse("MESSAGE hello"), Ok(Response::Message(_))));
//! ```
//!
//! [`Command::lines`] gives the wire lines (write each followed by `\n` or `\r\n`);
//! [`Response::parse`] reads one engine line. Moves must be exactly `x,y` (no spaces), as
//! the strictest manager requires. A line that is no response is a
//! [`ProtocolError::BadResponse`].
//!
//! # The two per-move `MESSAGE` lines
//!
//! Before every move it searched for (the reply to `BEGIN`, `TURN`, `BOARD`…`DONE`, and
//! `SWAP2BOARD`…`DONE` with 3 or 5 stones) Wuzi prints exactly two lines, in this order
//! (`PLAY` is echoed without them):
//!
//! 1. Human line ([`SearchReport`]):
//!    `MESSAGE depth <d> | eval <±cp> | nodes <n> | nps <n> | time <ms>ms | pv <m1> <m2> …`
//!    — `depth` is the deepest completed iteration; `eval` is signed centi-stones for the
//!    side to move (proven wins are near ±30000); `nodes` and `nps` are exact below 10 000,
//!    then `k` (thousands, truncated), then `M` (millions); `pv` lists up to 12 moves in board
//!    notation (column letters from `a`, then `aa`…`af` past `z` on boards up to 32; row
//!    number from 1: `x=9,y=9` is `j10`, `x=27,y=0` is `ab1`), or `-`.
//!    For people reading logs; do not parse it.
//! 2. Table line ([`TtReport`]), machine-readable, fixed keys in a fixed order:
//!    `MESSAGE tt probes=<n> hits=<n> cutoffs=<n> stores=<n> replaced=<n> collisions=<n> hit_rate=<pct>%`
//!    — counters are cumulative since the last `START`/`RESTART` (a new process starts at
//!    zero); `hit_rate` = 100·hits/probes with one decimal. Parse it with
//!    [`TtReport::parse_line`]. With the table disabled (`--tt-mb 0`) every counter is 0.
//!
//! Both are ordinary `MESSAGE` lines, so every manager logs or skips them.
#![warn(missing_docs)]

mod command;
mod coord;
mod error;
mod parser;
mod reader;
mod report;
mod response;

pub use command::{BoardStone, Command, Field, Info};
pub use coord::Coord;
pub use error::ProtocolError;
pub use parser::{Parser, MAX_BLOCK_LINES};
pub use reader::{Endings, Line, LineReader, DEFAULT_LINE_CAP};
pub use report::{SearchReport, TtReport, TT_TAG};
pub use response::Response;
