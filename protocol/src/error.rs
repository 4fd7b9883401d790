//! What can be wrong with a line. Which reply each fault earns is `ProtocolError::reply`, in
//! `response.rs`, so that this module depends on no other.

use std::fmt;

/// Why a line (or a `BOARD` block) could not be turned into a command or a response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// The first word is no command this protocol knows (or one we do not implement);
    /// earns `UNKNOWN`. Holds the keyword as sent (sanitised when printed).
    UnknownCommand(String),
    /// The line exceeded the reader's cap; its start is not trusted, so it earns `UNKNOWN`.
    LineTooLong,
    /// A known command with arguments that do not parse; earns `ERROR`.
    BadArguments {
        /// The command, upper-case.
        command: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// A bad line inside a `BOARD` or `SWAP2BOARD` block; reported once, at `DONE`, as `ERROR`.
    BadBlockLine {
        /// `BOARD` or `SWAP2BOARD`.
        command: &'static str,
        /// 1-based line number inside the block.
        line: usize,
        /// What was wrong.
        detail: String,
    },
    /// `INFO` with no key, or a value that does not parse for its key. INFO is never
    /// answered, so this error earns no reply; the previous value stays in force.
    BadInfo {
        /// The key (lower-cased), possibly empty.
        key: String,
        /// The value as sent.
        value: String,
    },
    /// Manager side: an engine line that is no response of this protocol.
    BadResponse(String),
    /// Manager side: a `MESSAGE tt …` line with a missing or malformed key.
    BadTtLine(String),
}

impl ProtocolError {
    /// Whether the fault is in a `BOARD` block (the brain then clears its board).
    pub fn is_board(&self) -> bool {
        matches!(
            self,
            ProtocolError::BadBlockLine {
                command: "BOARD",
                ..
            }
        )
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::UnknownCommand(word) => write!(f, "command {word}"),
            ProtocolError::LineTooLong => write!(f, "line too long"),
            ProtocolError::BadArguments { command, detail } => {
                write!(f, "bad {command} arguments: {detail}")
            }
            ProtocolError::BadBlockLine {
                command,
                line,
                detail,
            } => write!(f, "bad {command} line {line}: {detail}"),
            ProtocolError::BadInfo { key, value } => {
                write!(f, "bad INFO value for key '{key}': '{value}'")
            }
            ProtocolError::BadResponse(line) => write!(f, "not a brain response: {line}"),
            ProtocolError::BadTtLine(why) => write!(f, "bad tt line: {why}"),
        }
    }
}

impl std::error::Error for ProtocolError {}
