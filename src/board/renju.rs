//! Renju forbidden moves: black's double three, double four and overline, decided exactly.
//!
//! Only black is restricted. For a black move at an empty cell, in this order:
//!
//! 1. **Five**: the move makes a line of exactly five in some direction. It wins, so it is
//!    never forbidden, whatever else it makes (a double four, a double three, even an
//!    overline in another direction).
//! 2. **Overline**: the move makes a line of six or more.
//! 3. **Double four**: the move makes two or more fours. A four is a set of four black
//!    stones, the move among them, that one more black stone turns into exactly five.
//!    Counted per line as the number of such "five points" (at most two), except that the
//!    two ends of one unbroken straight four (`.XXXX.`) are one four. So `X.XXX.X`,
//!    `XX.XX.XX` and `XXX.X.XXX` with the move among the middle stones are two fours on
//!    one line.
//! 4. **Double three**: the move makes two or more threes. A three is a line that one more
//!    black move turns into a straight four (an unbroken `.XXXX.` both of whose ends make
//!    exactly five, not six) containing the move, where that further move is itself neither
//!    forbidden nor a five on another line (checked recursively, with the first move on the
//!    board). The five exclusion is how Gomocup's managers (Piskvork, GomocupJudge) and
//!    Rapfi judge it; a literal reading of "not forbidden" would accept it. A line holding a
//!    four does not also count as a three.
//!
//! # Cost and the fast path
//!
//! A call reads the four lines through the cell (11 cells each: the move ±5) into small
//! arrays and works on those; nothing is allocated. The exits, cheapest first:
//!
//! 1. a five or an overline through the cell (the unbroken run through the move);
//! 2. per direction, the most black stones (the move included) in any five-cell window
//!    through the move that holds no white stone and no off-board cell. A four needs a
//!    window with four, a three a window with three (its straight four `.XXXX.` puts four
//!    stones in such a window). If no direction reaches three, the move is legal: this is
//!    where almost every empty cell of a real position stops;
//! 3. fours are counted only on lines with a four-window (two on one line are possible);
//!    two or more is a double four;
//! 4. on the other lines with a three-window, the cells that would make a straight four are
//!    found on the line arrays alone. Fewer than two such lines: legal, with no recursion;
//! 5. only then is the move placed and each candidate straight-four point classified
//!    recursively, stopping at the first ordinary one per line, as soon as two threes are
//!    confirmed, or as soon as two can no longer be reached.
//!
//! Measured on the fixture positions (`cost_per_call` in `tests/renju_rules.rs`, release
//! build, shared machine): about 0.1 µs per call averaged over every cell of the board and
//! about 0.3 µs over the empty cells next to a stone.
//!
//! The board is any type implementing [`RenjuBoard`]; [`Grid`] is a compact one.

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A black stone (the first player, the restricted side).
    Black,
    /// A white stone.
    White,
}

/// Why a black move is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    /// Two or more threes at once.
    DoubleThree,
    /// Two or more fours at once (possibly on one line).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl Foul {
    /// The name used in fixtures and reports: `double-three`, `double-four`, `overline`.
    pub fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double-three",
            Foul::DoubleFour => "double-four",
            Foul::Overline => "overline",
        }
    }

    /// The inverse of [`Foul::name`].
    pub fn from_name(name: &str) -> Option<Foul> {
        match name {
            "double-three" => Some(Foul::DoubleThree),
            "double-four" => Some(Foul::DoubleFour),
            "overline" => Some(Foul::Overline),
            _ => None,
        }
    }
}

/// The board the checker reads. `set` is used to place a stone temporarily during the
/// recursive three check; every stone placed is removed again before [`forbidden`] returns.
pub trait RenjuBoard {
    /// Side length of the square board.
    fn size(&self) -> usize;
    /// The cell at `(x, y)`, both below `size()`.
    fn at(&self, x: usize, y: usize) -> Cell;
    /// Overwrites the cell at `(x, y)`.
    fn set(&mut self, x: usize, y: usize, cell: Cell);
}

/// Largest board [`Grid`] holds.
pub const MAX_SIZE: usize = 32;

/// A compact square board for the checker: one byte per cell, no heap.
#[derive(Clone)]
pub struct Grid {
    size: usize,
    cells: [Cell; MAX_SIZE * MAX_SIZE],
}

impl Grid {
    /// An empty board; `size` is clamped to `1..=MAX_SIZE`.
    pub fn new(size: usize) -> Grid {
        Grid {
            size: size.clamp(1, MAX_SIZE),
            cells: [Cell::Empty; MAX_SIZE * MAX_SIZE],
        }
    }
}

impl RenjuBoard for Grid {
    fn size(&self) -> usize {
        self.size
    }

    fn at(&self, x: usize, y: usize) -> Cell {
        self.cells[y * MAX_SIZE + x]
    }

    fn set(&mut self, x: usize, y: usize, cell: Cell) {
        self.cells[y * MAX_SIZE + x] = cell;
    }
}

/// The four line directions.
const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Cells read on each side of the move.
const REACH: usize = 5;
/// Length of a line read through the move; the move is at index `REACH`.
const LEN: usize = 2 * REACH + 1;
const C: usize = REACH;

/// A line cell: empty, black, or blocked (white or off the board).
const E: u8 = 0;
const B: u8 = 1;
const X: u8 = 2;

type Line = [u8; LEN];

/// Reads the line through `(x, y)` in direction `d`, with the centre counted as black.
fn read_line<T: RenjuBoard + ?Sized>(board: &T, x: usize, y: usize, d: (isize, isize)) -> Line {
    let n = board.size() as isize;
    let mut line = [X; LEN];
    for (i, slot) in line.iter_mut().enumerate() {
        let k = i as isize - C as isize;
        let (cx, cy) = (x as isize + k * d.0, y as isize + k * d.1);
        if cx >= 0 && cy >= 0 && cx < n && cy < n {
            *slot = match board.at(cx as usize, cy as usize) {
                Cell::Empty => E,
                Cell::Black => B,
                Cell::White => X,
            };
        }
    }
    line[C] = B;
    line
}

/// The unbroken black run through index `i` (which must be black): `(first, last)`.
fn run(line: &Line, i: usize) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == B {
        lo -= 1;
    }
    let mut hi = i;
    while hi + 1 < LEN && line[hi + 1] == B {
        hi += 1;
    }
    (lo, hi)
}

/// Most black stones in a five-window through the centre with no blocked cell.
fn best_window(line: &Line) -> u8 {
    let mut best = 0;
    for start in C - 4..=C {
        let window = &line[start..start + 5];
        if window.contains(&X) {
            continue;
        }
        best = best.max(window.iter().filter(|&&c| c == B).count() as u8);
    }
    best
}

/// The empty cells `e` of `cells` where one more black stone gives a run through the centre
/// that `hit(probe, e, lo, hi)` accepts (`lo..=hi`: the run's ends in the probed line), and
/// how many there are (at most 4 are kept; no line has more).
fn black_points(
    line: &Line,
    cells: std::ops::RangeInclusive<usize>,
    hit: impl Fn(&Line, usize, usize, usize) -> bool,
) -> ([usize; 4], usize) {
    let mut points = [0usize; 4];
    let mut n = 0;
    let mut probe = *line;
    for e in cells {
        if probe[e] != E {
            continue;
        }
        probe[e] = B;
        let (lo, hi) = run(&probe, C);
        let found = hit(&probe, e, lo, hi);
        probe[e] = E;
        if found && n < points.len() {
            points[n] = e;
            n += 1;
        }
    }
    (points, n)
}

/// Fours through the centre on this line: 0, 1 or 2.
fn fours(line: &Line) -> u8 {
    let (points, n) = black_points(line, C - 4..=C + 4, |_, e, lo, hi| {
        hi - lo + 1 == 5 && (lo..=hi).contains(&e)
    });
    // Two five points five apart with the four stones between them are the two ends of one
    // straight four: one four, not two.
    let mut count = n as u8;
    for i in 0..n {
        for j in i + 1..n {
            if points[j] - points[i] == 5 {
                count -= 1;
            }
        }
    }
    count
}

/// Cells (line indices) where one more black stone makes a straight four through the
/// centre; their number is returned with them (at most 4 can exist).
fn straight_four_points(line: &Line) -> ([usize; 4], usize) {
    black_points(line, C - 3..=C + 3, |probe, e, lo, hi| {
        // Four in a row, both ends empty, and neither end turns it into six.
        hi - lo + 1 == 4
            && (lo..=hi).contains(&e)
            && probe[lo - 1] == E
            && probe[hi + 1] == E
            && probe[lo - 2] != B
            && probe[hi + 2] != B
    })
}

/// Whether black playing `(x, y)` is forbidden, and why. `None` for a legal move, for a
/// move that makes five, and for a cell that is occupied or off the board. The board is
/// read as it is: black is assumed to be the side to move. `board` is modified during the
/// call and restored before it returns.
pub fn forbidden<T: RenjuBoard + ?Sized>(board: &mut T, x: usize, y: usize) -> Option<Foul> {
    match classify(board, x, y) {
        Verdict::Foul(f) => Some(f),
        Verdict::Five | Verdict::Legal => None,
    }
}

/// What a black move at a cell does, as far as the renju rules care.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Exactly five somewhere: a win, never forbidden.
    Five,
    /// A forbidden move.
    Foul(Foul),
    /// Anything else (also an occupied or off-board cell).
    Legal,
}

fn classify<T: RenjuBoard + ?Sized>(board: &mut T, x: usize, y: usize) -> Verdict {
    let n = board.size();
    if x >= n || y >= n || board.at(x, y) != Cell::Empty {
        return Verdict::Legal;
    }
    let lines = DIRS.map(|d| read_line(board, x, y, d));

    // 1-2: five wins over everything; otherwise six or more is an overline.
    let mut overline = false;
    for line in &lines {
        let (lo, hi) = run(line, C);
        match hi - lo + 1 {
            5 => return Verdict::Five,
            l if l > 5 => overline = true,
            _ => {}
        }
    }
    if overline {
        return Verdict::Foul(Foul::Overline);
    }

    // Fast path: per direction, the fullest clean window through the move.
    let best = lines.map(|l| best_window(&l));
    let maybe_three = best.iter().filter(|&&b| b >= 3).count();
    if maybe_three == 0 {
        return Verdict::Legal;
    }

    // 3: fours (only on lines with a window of four).
    let mut four_lines = [false; 4];
    let mut total_fours = 0;
    for (i, line) in lines.iter().enumerate() {
        if best[i] >= 4 {
            let f = fours(line);
            four_lines[i] = f > 0;
            total_fours += f;
        }
    }
    if total_fours >= 2 {
        return Verdict::Foul(Foul::DoubleFour);
    }

    // 4: threes, on lines without a four. First the cheap line test, then the recursion.
    let mut candidates = [([0usize; 4], 0usize); 4];
    let mut lines_with_points = 0;
    for (i, line) in lines.iter().enumerate() {
        if best[i] >= 3 && !four_lines[i] {
            candidates[i] = straight_four_points(line);
            if candidates[i].1 > 0 {
                lines_with_points += 1;
            }
        }
    }
    if lines_with_points < 2 {
        return Verdict::Legal;
    }

    board.set(x, y, Cell::Black);
    let mut threes = 0;
    let mut left = lines_with_points;
    for (i, &(points, count)) in candidates.iter().enumerate() {
        if count == 0 {
            continue;
        }
        left -= 1;
        let d = DIRS[i];
        let real = points[..count].iter().any(|&e| {
            let k = e as isize - C as isize;
            let ex = (x as isize + k * d.0) as usize;
            let ey = (y as isize + k * d.1) as usize;
            // As Gomocup's managers (Piskvork, GomocupJudge) judge it, the completing move
            // must be an ordinary legal one: neither forbidden nor a five elsewhere.
            classify(board, ex, ey) == Verdict::Legal
        });
        if real {
            threes += 1;
        }
        // Stop once two threes are confirmed, or once two can no longer be reached.
        if threes >= 2 || threes + left < 2 {
            break;
        }
    }
    board.set(x, y, Cell::Empty);
    if threes >= 2 {
        Verdict::Foul(Foul::DoubleThree)
    } else {
        Verdict::Legal
    }
}

/// Every empty cell where a black move would be forbidden, row by row (`y`, then `x`), for
/// `YXSHOWFORBID` (print each as two-digit x then two-digit y).
pub fn forbidden_points<T: RenjuBoard + ?Sized>(board: &mut T) -> Vec<(usize, usize)> {
    let n = board.size();
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            if board.at(x, y) == Cell::Empty && forbidden(board, x, y).is_some() {
                out.push((x, y));
            }
        }
    }
    out
}

/// The `YXSHOWFORBID` reply for black to move on `board`: `FORBID `, then each forbidden point
/// as two-digit x and two-digit y, then `.` (`FORBID .` when there is none). A caller that is
/// not playing renju, or has white to move, answers `FORBID .` without calling this.
pub fn forbid_reply<T: RenjuBoard + ?Sized>(board: &mut T) -> String {
    let mut reply = String::from("FORBID ");
    for (x, y) in forbidden_points(board) {
        reply.push_str(&format!("{x:02}{y:02}"));
    }
    reply.push('.');
    reply
}
