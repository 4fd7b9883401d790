//! Why the brain refuses a command: one typed reason per case, spelled once, answered as
//! `ERROR <reason>` with the game unchanged (or, after a bad `BOARD`, an empty board).

use crate::types::{MAX_SIZE, MIN_SIZE};
use gomocup_protocol::{Coord, Response};
use std::fmt;

/// A command the brain cannot carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A game command before `START`.
    NoGame,
    /// `START` with a size outside `MIN_SIZE..=MAX_SIZE`.
    BadSize,
    /// `RECTSTART` with unequal sides.
    Rectangular,
    /// A coordinate off this game's board.
    BadCoords,
    /// A stone on an occupied cell.
    Occupied(Coord),
    /// `BEGIN` with stones on the board.
    NotEmpty,
    /// `TAKEBACK` of a cell that is not the last stone.
    CannotTakeBack(Coord),
    /// A move requested on a full board.
    BoardFull,
    /// A move requested after a five.
    GameOver,
    /// A `BOARD` that lists a cell twice.
    Repeated(Coord),
    /// A `BOARD` stone off the board.
    OffBoard(Coord),
    /// A `BOARD` whose stone counts cannot be our turn (own, opponent).
    Counts(usize, usize),
    /// `SWAP2BOARD` with a stone count other than 0, 3 or 5.
    Swap2Count(usize),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoGame => write!(f, "no game started"),
            Refusal::BadSize => write!(f, "board size must be {MIN_SIZE}..{MAX_SIZE}"),
            Refusal::Rectangular => write!(f, "rectangular boards are not supported"),
            Refusal::BadCoords => write!(f, "bad coordinates"),
            Refusal::Occupied(c) => write!(f, "cell {c} is occupied"),
            Refusal::NotEmpty => write!(f, "board is not empty"),
            Refusal::CannotTakeBack(c) => write!(f, "cannot take back {c}"),
            Refusal::BoardFull => write!(f, "board is full"),
            Refusal::GameOver => write!(f, "the game is already won"),
            Refusal::Repeated(c) => write!(f, "cell {c} is listed twice"),
            Refusal::OffBoard(c) => write!(f, "stone {c} is off the board"),
            Refusal::Counts(own, opp) => {
                write!(f, "{own} own and {opp} opponent stones cannot be our turn")
            }
            Refusal::Swap2Count(n) => write!(f, "swap2 expects 0, 3 or 5 stones, got {n}"),
        }
    }
}

impl From<Refusal> for Response {
    fn from(r: Refusal) -> Response {
        Response::Error(r.to_string())
    }
}

impl From<Refusal> for Vec<Response> {
    fn from(r: Refusal) -> Vec<Response> {
        vec![Response::from(r)]
    }
}
