//! The referee's board. It is deliberately independent of the engine's own board: a runner
//! that trusted the engine library to judge the engine would not catch the engine's bugs.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A player colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// The side that plays stone number `index` (0-based) when black starts.
    pub fn of_move(index: usize) -> Side {
        if index.is_multiple_of(2) {
            Side::Black
        } else {
            Side::White
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Black => "black",
            Side::White => "white",
        })
    }
}

/// How a five is judged. Accepted Gomocup rule bits: bit 0 (exactly five), bit 3 (caro), and
/// bit 2 (renju, alone or with bit 0), whose fouls [`crate::renju`] detects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Bit 0: a line of six or more does not win.
    pub exact_five: bool,
    /// Bit 3: a five closed by opponent stones at both ends does not win (edges do not close).
    pub caro: bool,
    /// Bit 2: renju. Black wins only with exactly five and loses on a forbidden move (double
    /// three, double four, overline); white wins with five or more.
    pub renju: bool,
}

impl Rule {
    /// Freestyle (`INFO rule 0`): five or more in a row wins.
    pub const FREESTYLE: Rule = Rule {
        exact_five: false,
        caro: false,
        renju: false,
    };
    /// Exactly five (`rule 1`).
    pub const EXACT_FIVE: Rule = Rule {
        exact_five: true,
        caro: false,
        renju: false,
    };
    /// Caro (`rule 8`): a five closed at both ends does not win.
    pub const CARO: Rule = Rule {
        exact_five: false,
        caro: true,
        renju: false,
    };
    /// Caro with exactly five (`rule 9`).
    pub const CARO_EXACT_FIVE: Rule = Rule {
        exact_five: true,
        caro: true,
        renju: false,
    };
    /// Renju (`rule 4`; 5 is read as renju too).
    pub const RENJU: Rule = Rule {
        exact_five: false,
        caro: false,
        renju: true,
    };

    /// Decodes `INFO rule` bits, refusing the ones this referee cannot judge (continuous,
    /// renju, unknown), because refereeing them as freestyle would silently score wrong games.
    pub fn from_bits(bits: u32) -> Result<Rule, String> {
        // Renju (4) already bans black's overline, so 5 (renju + exact five) is renju too.
        if bits == 4 || bits == 5 {
            return Ok(Rule::RENJU);
        }
        if bits & !0b1001 != 0 {
            return Err(format!(
                "rule {bits} is not supported by the referee (supported: 0 freestyle, 1 exact five, 4 renju, 8 caro, 9 caro exact five)"
            ));
        }
        Ok(Rule {
            exact_five: bits & 1 != 0,
            caro: bits & 8 != 0,
            renju: false,
        })
    }
}

/// Why a move was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Outside `0..size` on either axis.
    OffBoard,
    /// The cell already holds a stone.
    Occupied,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "occupied cell",
        })
    }
}

/// A square board with the stones in play order.
#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    cells: Vec<Option<Side>>,
    moves: Vec<(usize, usize)>,
}

const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Board {
    /// An empty `size`×`size` board.
    pub fn new(size: usize) -> Board {
        Board {
            size,
            cells: vec![None; size * size],
            moves: Vec::new(),
        }
    }

    /// Side length.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Stones in play order, black first.
    pub fn moves(&self) -> &[(usize, usize)] {
        &self.moves
    }

    /// The stones as a `BOARD` command lists them for `side`: in play order, `side`'s own
    /// (field 1) and the opponent's (field 2).
    pub fn stones_for(&self, side: Side) -> Vec<gomocup_protocol::BoardStone> {
        use gomocup_protocol::{BoardStone, Coord, Field};
        self.moves
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| BoardStone {
                at: Coord::new(x as i64, y as i64),
                field: if Side::of_move(i) == side {
                    Field::Own
                } else {
                    Field::Opponent
                },
            })
            .collect()
    }

    /// Whose turn it is: colours alternate from black.
    pub fn to_move(&self) -> Side {
        Side::of_move(self.moves.len())
    }

    /// Whether every cell is taken.
    pub fn is_full(&self) -> bool {
        self.moves.len() == self.size * self.size
    }

    /// The stone at a cell, `None` when empty or off the board.
    pub fn at(&self, x: i64, y: i64) -> Option<Side> {
        if self.contains(x, y) {
            self.cells[y as usize * self.size + x as usize]
        } else {
            None
        }
    }

    fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.size && (y as usize) < self.size
    }

    /// Places the next stone (the colour follows from the move count). Coordinates are signed
    /// because they come straight from an engine's reply, which may be negative.
    pub fn play(&mut self, x: i64, y: i64) -> Result<(), Illegal> {
        if !self.contains(x, y) {
            return Err(Illegal::OffBoard);
        }
        let (ux, uy) = (x as usize, y as usize);
        let cell = &mut self.cells[uy * self.size + ux];
        if cell.is_some() {
            return Err(Illegal::Occupied);
        }
        *cell = Some(Side::of_move(self.moves.len()));
        self.moves.push((ux, uy));
        Ok(())
    }

    /// Whether the stone at (x, y) completes a winning line under `rule`.
    pub fn wins_at(&self, x: usize, y: usize, rule: Rule) -> bool {
        let Some(side) = self.at(x as i64, y as i64) else {
            return false;
        };
        DIRECTIONS
            .iter()
            .any(|&(dx, dy)| self.line_wins(x as i64, y as i64, dx, dy, side, rule))
    }

    /// Whether any stone on the board is part of a winning line; used to reject openings
    /// that are already decided.
    pub fn has_win(&self, rule: Rule) -> bool {
        self.moves.iter().any(|&(x, y)| self.wins_at(x, y, rule))
    }

    fn line_wins(&self, x: i64, y: i64, dx: i64, dy: i64, side: Side, rule: Rule) -> bool {
        let forward = self.run(x, y, dx, dy, side);
        let backward = self.run(x, y, -dx, -dy, side);
        let length = 1 + forward + backward;
        let exact = rule.exact_five || (rule.renju && side == Side::Black);
        if length < 5 || (exact && length > 5) {
            return false;
        }
        if rule.caro && length == 5 {
            let (ex, ey) = (x + dx * (forward + 1), y + dy * (forward + 1));
            let (bx, by) = (x - dx * (backward + 1), y - dy * (backward + 1));
            let opponent = Some(side.other());
            // Off-board cells read as empty here, so a board edge never closes the five.
            if self.at(ex, ey) == opponent && self.at(bx, by) == opponent {
                return false;
            }
        }
        true
    }

    fn run(&self, x: i64, y: i64, dx: i64, dy: i64, side: Side) -> i64 {
        let mut n = 0;
        while self.at(x + dx * (n + 1), y + dy * (n + 1)) == Some(side) {
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FREE: Rule = Rule::FREESTYLE;
    const EXACT: Rule = Rule::EXACT_FIVE;
    const CARO: Rule = Rule::CARO;

    /// Plays black stones at `black` and white stones at `white`, interleaved; the shorter
    /// list is padded with far-away filler stones of that colour.
    fn setup(size: usize, black: &[(i64, i64)], white: &[(i64, i64)]) -> Board {
        let mut b = Board::new(size);
        let n = black.len().max(white.len());
        let mut filler = (0..size as i64).map(|x| (x, size as i64 - 1));
        for i in 0..n {
            let bm = black.get(i).copied().or_else(|| filler.next());
            let (x, y) = bm.unwrap_or((0, 0));
            b.play(x, y)
                .unwrap_or_else(|e| panic!("black {x},{y}: {e}"));
            if i < n - 1 || i < white.len() {
                let wm = white.get(i).copied().or_else(|| filler.next());
                let (x, y) = wm.unwrap_or((0, 0));
                b.play(x, y)
                    .unwrap_or_else(|e| panic!("white {x},{y}: {e}"));
            }
        }
        b
    }

    #[test]
    fn horizontal_five_wins_everywhere() {
        let b = setup(15, &[(3, 3), (4, 3), (5, 3), (6, 3), (7, 3)], &[]);
        for rule in [FREE, EXACT, CARO] {
            assert!(b.wins_at(7, 3, rule));
            assert!(b.wins_at(5, 3, rule));
        }
        assert!(!b.wins_at(3, 4, FREE));
    }

    #[test]
    fn four_does_not_win() {
        let b = setup(15, &[(3, 3), (4, 4), (5, 5), (6, 6)], &[]);
        assert!(!b.wins_at(6, 6, FREE));
    }

    #[test]
    fn diagonals_win() {
        let b = setup(15, &[(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)], &[]);
        assert!(b.wins_at(6, 6, FREE));
        let b = setup(15, &[(6, 2), (5, 3), (4, 4), (3, 5), (2, 6)], &[]);
        assert!(b.wins_at(2, 6, FREE));
    }

    #[test]
    fn overline_wins_only_without_exact_bit() {
        let stones = [(1, 5), (2, 5), (3, 5), (5, 5), (6, 5), (4, 5)];
        let b = setup(15, &stones, &[]);
        assert!(b.wins_at(4, 5, FREE));
        assert!(!b.wins_at(4, 5, EXACT));
        // Caro without the exact bit (rule 8): an overline still wins.
        assert!(b.wins_at(4, 5, CARO));
        assert!(!b.wins_at(4, 5, Rule::CARO_EXACT_FIVE));
    }

    #[test]
    fn caro_five_closed_at_both_ends_does_not_win() {
        let black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)];
        let white = [(2, 7), (8, 7)];
        let b = setup(15, &black, &white);
        assert!(!b.wins_at(7, 7, CARO));
        assert!(b.wins_at(7, 7, FREE));
        assert!(b.wins_at(7, 7, EXACT));
    }

    #[test]
    fn caro_five_closed_at_one_end_wins() {
        let b = setup(15, &[(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)], &[(2, 7)]);
        assert!(b.wins_at(7, 7, CARO));
    }

    #[test]
    fn caro_edge_is_not_a_block() {
        let b = setup(15, &[(0, 7), (1, 7), (2, 7), (3, 7), (4, 7)], &[(5, 7)]);
        assert!(b.wins_at(4, 7, CARO));
    }

    #[test]
    fn renju_overline_wins_for_white_only() {
        let renju = Rule::from_bits(4).unwrap_or(FREE);
        let six = [(1, 5), (2, 5), (3, 5), (5, 5), (6, 5), (4, 5)];
        let b = setup(15, &six, &[]);
        assert!(
            !b.wins_at(4, 5, renju),
            "black overline is a foul, not a win"
        );
        let b = setup(15, &[], &six);
        assert_eq!(b.at(4, 5), Some(Side::White));
        assert!(b.wins_at(4, 5, renju), "white overline wins");
        let five = [(1, 5), (2, 5), (3, 5), (5, 5), (4, 5)];
        let b = setup(15, &five, &[]);
        assert!(b.wins_at(4, 5, renju));
    }

    #[test]
    fn illegal_moves_are_reported() {
        let mut b = Board::new(15);
        assert_eq!(b.play(15, 0), Err(Illegal::OffBoard));
        assert_eq!(b.play(-1, 3), Err(Illegal::OffBoard));
        assert_eq!(b.play(7, 7), Ok(()));
        assert_eq!(b.play(7, 7), Err(Illegal::Occupied));
        assert_eq!(b.to_move(), Side::White);
    }

    #[test]
    fn full_board_is_detected() {
        let mut b = Board::new(5);
        for y in 0..5 {
            for x in 0..5 {
                assert!(!b.is_full());
                assert_eq!(b.play(x, y), Ok(()));
            }
        }
        assert!(b.is_full());
    }

    #[test]
    fn rule_bits() {
        assert_eq!(Rule::from_bits(0), Ok(FREE));
        assert_eq!(Rule::from_bits(1), Ok(EXACT));
        assert_eq!(Rule::from_bits(8), Ok(CARO));
        assert_eq!(Rule::from_bits(9), Ok(Rule::CARO_EXACT_FIVE));
        assert_eq!(Rule::from_bits(4), Ok(Rule::RENJU));
        assert!(Rule::from_bits(4).is_ok_and(|r| r.renju && !r.exact_five && !r.caro));
        assert!(Rule::from_bits(5).is_ok_and(|r| r.renju));
        assert!(Rule::from_bits(12).is_err());
        assert!(Rule::from_bits(6).is_err());
        assert!(Rule::from_bits(2).is_err());
    }
}
