//! The referee's renju foul detector, written straight from the rules and independent of
//! the engine's (which counts five points on an 11-cell line with a fast path). Here every
//! shape is an explicit set of stones:
//!
//! - a **five** is exactly five black stones in a row; it always wins, so a move that makes
//!   one is never a foul;
//! - an **overline** is six or more in a row;
//! - a **four** is a set of four black stones on one line, the move among them, that one
//!   more stone completes to exactly five. Two fours differ when their stone sets differ,
//!   so `.XXXX.` (one set, two completions) is one four and `X.XXX.X` around its middle
//!   stone is two;
//! - a **straight four** is a four with two completions;
//! - a **three** is a line where one more black stone makes a straight four holding the move
//!   and that stone, that stone being an ordinary move: not a foul, and not a five on another
//!   line (Piskvork and GomocupJudge, which referee Gomocup, reject such a completion too).
//!   Lines with a four are not threes.
//!
//! Black's move is a foul when it makes no five and makes an overline, two fours or two
//! threes (reported in that order of precedence).

use crate::board::{Board, Side};
use std::collections::BTreeSet;
use std::fmt;

/// A forbidden black move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Foul {
    /// Two or more threes.
    DoubleThree,
    /// Two or more fours.
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl Foul {
    /// `double-three`, `double-four` or `overline`.
    pub fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double-three",
            Foul::DoubleFour => "double-four",
            Foul::Overline => "overline",
        }
    }
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

const LINES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A scratch copy of the stones, which the recursion edits freely.
struct Stones {
    size: i64,
    cells: Vec<Option<Side>>,
}

impl Stones {
    fn get(&self, x: i64, y: i64) -> Option<Side> {
        if x < 0 || y < 0 || x >= self.size || y >= self.size {
            return None;
        }
        self.cells[(y * self.size + x) as usize]
    }

    fn on_board(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < self.size && y < self.size
    }

    fn put(&mut self, x: i64, y: i64, stone: Option<Side>) {
        let i = (y * self.size + x) as usize;
        self.cells[i] = stone;
    }

    fn is_empty(&self, x: i64, y: i64) -> bool {
        self.on_board(x, y) && self.get(x, y).is_none()
    }

    /// Offsets `(back, forward)` of the black row through `(x, y)` along `d`.
    fn black_row(&self, x: i64, y: i64, d: (i64, i64)) -> (i64, i64) {
        let mut back = 0;
        while self.get(x - d.0 * (back + 1), y - d.1 * (back + 1)) == Some(Side::Black) {
            back += 1;
        }
        let mut forward = 0;
        while self.get(x + d.0 * (forward + 1), y + d.1 * (forward + 1)) == Some(Side::Black) {
            forward += 1;
        }
        (back, forward)
    }

    /// With a black stone at `(x, y)`: each four through it along `d`, as the set of its
    /// stones' offsets from `(x, y)`, with how many cells complete it to exactly five.
    fn fours(&mut self, x: i64, y: i64, d: (i64, i64)) -> Vec<(BTreeSet<i64>, usize)> {
        let mut found: Vec<(BTreeSet<i64>, usize)> = Vec::new();
        for k in -4..=4 {
            let (qx, qy) = (x + d.0 * k, y + d.1 * k);
            if k == 0 || !self.is_empty(qx, qy) {
                continue;
            }
            self.put(qx, qy, Some(Side::Black));
            let (back, forward) = self.black_row(x, y, d);
            self.put(qx, qy, None);
            if back + forward + 1 != 5 || k < -back || k > forward {
                continue;
            }
            let set: BTreeSet<i64> = (-back..=forward).filter(|&o| o != k).collect();
            match found.iter_mut().find(|(s, _)| *s == set) {
                Some((_, completions)) => *completions += 1,
                None => found.push((set, 1)),
            }
        }
        found
    }

    /// With a black stone at `(x, y)` and no four along `d`: whether the line is a three.
    fn is_three(&mut self, x: i64, y: i64, d: (i64, i64)) -> bool {
        for k in -4..=4 {
            let (qx, qy) = (x + d.0 * k, y + d.1 * k);
            if k == 0 || !self.is_empty(qx, qy) {
                continue;
            }
            self.put(qx, qy, Some(Side::Black));
            let straight = self
                .fours(x, y, d)
                .iter()
                .any(|(set, completions)| *completions >= 2 && set.contains(&k));
            self.put(qx, qy, None);
            if straight && !self.makes_five(qx, qy) && self.judge(qx, qy).is_none() {
                return true;
            }
        }
        false
    }

    /// Whether a black stone at the empty cell `(x, y)` would stand in exactly five.
    fn makes_five(&mut self, x: i64, y: i64) -> bool {
        self.put(x, y, Some(Side::Black));
        let five = LINES.iter().any(|&d| {
            let (back, forward) = self.black_row(x, y, d);
            back + forward == 4
        });
        self.put(x, y, None);
        five
    }

    /// The foul black would commit at the empty cell `(x, y)`, if any.
    fn judge(&mut self, x: i64, y: i64) -> Option<Foul> {
        if !self.is_empty(x, y) {
            return None;
        }
        self.put(x, y, Some(Side::Black));
        let verdict = self.judge_placed(x, y);
        self.put(x, y, None);
        verdict
    }

    fn judge_placed(&mut self, x: i64, y: i64) -> Option<Foul> {
        let rows: Vec<i64> = LINES
            .iter()
            .map(|&d| {
                let (back, forward) = self.black_row(x, y, d);
                back + forward + 1
            })
            .collect();
        if rows.contains(&5) {
            return None;
        }
        if rows.iter().any(|&r| r >= 6) {
            return Some(Foul::Overline);
        }
        let mut four_count = 0;
        let mut three_candidates = Vec::new();
        for d in LINES {
            let fours = self.fours(x, y, d).len();
            four_count += fours;
            if fours == 0 {
                three_candidates.push(d);
            }
        }
        if four_count >= 2 {
            return Some(Foul::DoubleFour);
        }
        let mut threes = 0;
        for d in three_candidates {
            if self.is_three(x, y, d) {
                threes += 1;
            }
        }
        (threes >= 2).then_some(Foul::DoubleThree)
    }
}

/// The foul black would commit by playing the empty cell `(x, y)` on `board`, whoever is to
/// move; `None` when the move is legal for black, makes five, or is occupied or off the board.
pub fn foul(board: &Board, x: usize, y: usize) -> Option<Foul> {
    foul_at(board.size(), |cx, cy| board.at(cx as i64, cy as i64), x, y)
}

/// [`foul`] on any position of a `size`×`size` board given cell by cell (for positions
/// that no alternating game reaches, such as test fixtures).
pub fn foul_at(
    size: usize,
    stone: impl Fn(usize, usize) -> Option<Side>,
    x: usize,
    y: usize,
) -> Option<Foul> {
    let mut cells = Vec::with_capacity(size * size);
    for cy in 0..size {
        for cx in 0..size {
            cells.push(stone(cx, cy));
        }
    }
    let mut stones = Stones {
        size: size as i64,
        cells,
    };
    stones.judge(x as i64, y as i64)
}

/// Replays `stones` (black first) and returns the first black stone that was a foul when it
/// was played, with its kind; occupied or off-board stones are skipped (the caller checks
/// legality separately).
pub fn first_foul(size: usize, stones: &[(usize, usize)]) -> Option<(usize, Foul)> {
    let mut board = Board::new(size);
    for (i, &(x, y)) in stones.iter().enumerate() {
        if Side::of_move(i) == Side::Black {
            if let Some(f) = foul(&board, x, y) {
                return Some((i, f));
            }
        }
        let _ = board.play(x as i64, y as i64);
    }
    None
}
