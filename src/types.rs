//! Small `Copy` types shared by every module: cells, stones, colours, scores, rules.
//!
//! Cells live on a padded grid (`STRIDE` wide, `PAD` wall cells on every side) so that
//! line walks up to four cells away never need a bounds check: they run into `Wall`.

use std::fmt;

/// Largest board side `START` accepts.
pub const MAX_SIZE: usize = 32;
/// Smallest board side `START` accepts.
pub const MIN_SIZE: usize = 5;
/// Wall cells around the playing area; four is the reach of a line pattern window.
pub const PAD: usize = 5;
/// Row stride of the padded grid.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded grid (the length of every per-cell array).
pub const NUM_CELLS: usize = STRIDE * STRIDE;

/// A cell of the padded grid. `Pos::NONE` (a wall cell) stands for "no move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Pos(pub u16);

impl Pos {
    /// The "no move" marker; it is a wall cell, so it is never a legal move.
    pub const NONE: Pos = Pos(0);

    /// The cell at column `x`, row `y` (0-based, Gomocup order). Callers check bounds.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + (x + PAD)) as u16)
    }

    /// Column, 0-based.
    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    /// Row, 0-based.
    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    /// Index into per-cell arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is a real move (not `NONE`).
    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The cell `k` steps along direction `dir` (an offset from `DIRS`).
    #[inline]
    pub const fn offset(self, delta: isize) -> Pos {
        Pos((self.0 as isize + delta) as u16)
    }

    /// Chebyshev distance between two cells.
    #[inline]
    pub fn distance(self, other: Pos) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        dx.max(dy)
    }

    /// Whether `p` is within two cells of this cell (Chebyshev), or at most four along one
    /// of its lines: Rapfi's `SQUARE2_LINE4` neighbourhood, where the horizon's local VCF
    /// and a chain of counter-fours look for their next four.
    #[inline]
    pub(crate) fn near_square2_line4(self, p: Pos) -> bool {
        let dx = self.x().abs_diff(p.x());
        let dy = self.y().abs_diff(p.y());
        (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_some() {
            write!(f, "{}", self)
        } else {
            write!(f, "none")
        }
    }
}

/// Human notation: column letters from `a`, row number from 1 (the `pos` opening format).
/// Columns past `z` (boards of 27 to 32) continue `aa`, `ab`, … as spreadsheet columns do,
/// so a move always reads back as letters then digits, unambiguously.
impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.x();
        if x >= 26 {
            write!(f, "{}", (b'a' + (x / 26 - 1) as u8) as char)?;
        }
        write!(f, "{}{}", (b'a' + (x % 26) as u8) as char, self.y() + 1)
    }
}

/// Offsets of the four line directions on the padded grid: →, ↓, ↘, ↙.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A player. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: index into per-colour arrays.
    #[inline]
    pub const fn idx(self) -> usize {
        self as usize
    }

    /// The stone this player places.
    #[inline]
    pub const fn stone(self) -> Stone {
        match self {
            Color::Black => Stone::Black,
            Color::White => Stone::White,
        }
    }
}

/// Content of a grid cell. The discriminants are the 2-bit codes of the line windows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(u8)]
pub enum Stone {
    /// No stone.
    #[default]
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Outside the board.
    Wall = 3,
}

impl Stone {
    /// The colour of a black or white stone.
    #[inline]
    pub const fn color(self) -> Option<Color> {
        match self {
            Stone::Black => Some(Color::Black),
            Stone::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Which lines win. Bits follow Gomocup's `INFO rule` (1 = exactly five, 8 = caro).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rule {
    /// Six or more in a row does not win.
    pub exact_five: bool,
    /// A five closed by opponent stones at both ends does not win (the edge is not a block).
    pub caro: bool,
    /// Renju (`INFO rule 4`): black wins with exactly five and may not make a double three,
    /// a double four or an overline; white wins with five or more.
    pub renju: bool,
}

impl Rule {
    /// Five or more wins.
    pub const FREESTYLE: Rule = Rule {
        exact_five: false,
        caro: false,
        renju: false,
    };
    /// Exactly five wins (`INFO rule 1`).
    pub const STANDARD: Rule = Rule {
        exact_five: true,
        caro: false,
        renju: false,
    };
    /// Caro (`INFO rule 8`): overlines win, a five closed at both ends does not.
    pub const CARO: Rule = Rule {
        exact_five: false,
        caro: true,
        renju: false,
    };
    /// Renju (`INFO rule 4`).
    pub const RENJU: Rule = Rule {
        exact_five: false,
        caro: false,
        renju: true,
    };

    /// Decode the Gomocup bit mask, ignoring bit 2 (continuous), which changes nothing for
    /// one move. Bit 4 is renju, which already bans black's overline and lets white's win,
    /// so the other bits do not combine with it.
    pub const fn from_bits(bits: u32) -> Rule {
        if bits & 4 != 0 {
            return Rule::RENJU;
        }
        Rule {
            exact_five: bits & 1 != 0,
            caro: bits & 8 != 0,
            renju: false,
        }
    }

    /// The Gomocup bit mask of the rule (`from_bits` reads it back): 4 for renju, else
    /// exact five as 1 and caro as 8.
    pub const fn bits(self) -> u32 {
        if self.renju {
            return 4;
        }
        self.exact_five as u32 | (self.caro as u32) << 3
    }

    /// Whether the rule is plain freestyle, where the 16-bit pattern tables are exact.
    #[inline]
    pub const fn is_freestyle(self) -> bool {
        !self.exact_five && !self.caro && !self.renju
    }

    /// Whether `color`'s threat classes are exact: no stone of the opponent's can spoil a
    /// five of `color`'s and none of `color`'s fives needs a forbidden move. True under
    /// freestyle and exactly five, and for white under renju (black's fouls only take
    /// answers away from black); false under caro, where a stone at one end closes a five's
    /// far end, and for black under renju. `threat::quick_win` claims wins only there.
    #[inline]
    pub const fn shapes_exact_for(self, color: Color) -> bool {
        !(self.caro || (self.renju && matches!(color, Color::Black)))
    }

    /// Whether `color` wins with a run of `n` stones whose ends are `a` and `b` (the cells
    /// just beyond it) under this rule.
    #[inline]
    pub fn five_wins(self, color: Color, n: usize, a: Stone, b: Stone) -> bool {
        let opp = color.opp().stone();
        if self.renju {
            return if color == Color::Black {
                n == 5
            } else {
                n >= 5
            };
        }
        n >= 5 && !(n > 5 && self.exact_five) && !(self.caro && n == 5 && a == opp && b == opp)
    }
}

/// A search score in centi-stones from the side to move's point of view.
pub type Score = i32;

/// Score of a win on the board now; a win in `n` plies scores `WIN - n`.
pub const WIN: Score = 30_000;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_BOUND: Score = WIN - 1_000;
/// Larger than any score.
pub const INF: Score = 32_000;

/// Remaining search depth: `ONE_PLY` units a ply in the alpha-beta (and in the table's
/// entries of it), fours or attacker moves in the threat searches.
pub type Depth = i32;

/// `Depth` units of one alpha-beta ply: quarter plies, so an extension or a reduction can
/// be a fraction of a ply. The table stores the threat searches' depths (fours, attacker
/// moves) in the same units, so its replacement policy weighs both kinds of entry alike.
pub const ONE_PLY: Depth = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_round_trips_coordinates() {
        for x in 0..MAX_SIZE {
            for y in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(p.is_some());
            }
        }
        assert_eq!(Pos::new(0, 0).to_string(), "a1");
        assert_eq!(Pos::new(9, 11).to_string(), "j12");
    }

    #[test]
    fn notation_goes_past_z_unambiguously() {
        assert_eq!(Pos::new(0, 0).to_string(), "a1");
        assert_eq!(Pos::new(25, 9).to_string(), "z10");
        assert_eq!(Pos::new(26, 0).to_string(), "aa1");
        assert_eq!(Pos::new(31, 31).to_string(), "af32");
    }

    #[test]
    fn rule_bits_decode() {
        assert_eq!(Rule::from_bits(0), Rule::FREESTYLE);
        assert_eq!(Rule::from_bits(1), Rule::STANDARD);
        assert_eq!(Rule::from_bits(8), Rule::CARO);
        assert!(Rule::from_bits(9).exact_five && Rule::from_bits(9).caro);
        for bits in [0, 1, 4, 8, 9] {
            assert_eq!(Rule::from_bits(bits).bits(), bits);
        }
    }
}
