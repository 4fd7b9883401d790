//! Line shapes and their combinations: what one line through an empty cell becomes if a
//! colour plays there (`Pattern`), and the class its four lines make together (`Pattern4`).
//!
//! Every cell keeps, per direction, a 16-bit window: the 2-bit codes (empty, black, white,
//! wall) of the four cells on each side. The shapes are classified once, by the memoised
//! "add one more stone" recursion below, into the lookup tables of `tables`. The shapes
//! are exact for freestyle (five or more wins), where a window of four each side is
//! enough; under exactly-five and caro they are freestyle's approximation, and wins
//! themselves are always decided by `Board::is_five`, which scans the real line.

/// What one line through an empty cell becomes if a colour plays there, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made on this line through the cell.
    Dead = 0,
    /// One stone with room for a five, one way to grow.
    B1,
    /// One stone, free to grow.
    F1,
    /// Two stones that can become at best a closed three.
    B2,
    /// Two stones that become an open three in two ways.
    F2,
    /// Two stones that become an open three in three ways.
    F2A,
    /// Two stones that become an open three in four or more ways.
    F2B,
    /// Closed three: can become a four, not an open four.
    B3,
    /// Open three that becomes an open four in one way (split or edge three).
    F3,
    /// Connected open three: becomes an open four in two ways.
    F3S,
    /// Four: one cell makes five.
    B4,
    /// Open four: two cells make five.
    F4,
    /// Five (or more).
    F5,
}

impl Pattern {
    const ALL: [Pattern; 13] = [
        Pattern::Dead,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::F2A,
        Pattern::F2B,
        Pattern::B3,
        Pattern::F3,
        Pattern::F3S,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
    ];

    #[inline]
    pub(crate) fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[(v as usize).min(12)]
    }

    /// Whether this is an open three of either kind.
    #[inline]
    pub fn is_open_three(self) -> bool {
        matches!(self, Pattern::F3 | Pattern::F3S)
    }
}

/// A cell's class for one colour, combining its four lines; weakest first, so `>=` reads
/// "at least this strong".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern4 {
    /// Nothing worth naming.
    #[default]
    None = 0,
    /// One open two.
    LFlex2,
    /// One closed three.
    KBlock3,
    /// Two open twos.
    JFlex2x2,
    /// Closed three plus another closed three or open two.
    IBlock3Plus,
    /// One open three.
    HFlex3,
    /// Open three plus a closed three or open two.
    GFlex3Plus,
    /// Two open threes (3-3).
    FFlex3x2,
    /// One four.
    EBlock4,
    /// Four plus a closed three or open two.
    DBlock4Plus,
    /// Four plus an open three (4-3): wins unless the opponent has a four.
    CBlock4Flex3,
    /// Open four or two fours: wins in two moves unless the opponent makes five first.
    BFlex4,
    /// Makes five.
    AFive,
}

impl Pattern4 {
    /// Number of classes.
    pub const COUNT: usize = 13;

    const ALL: [Pattern4; 13] = [
        Pattern4::None,
        Pattern4::LFlex2,
        Pattern4::KBlock3,
        Pattern4::JFlex2x2,
        Pattern4::IBlock3Plus,
        Pattern4::HFlex3,
        Pattern4::GFlex3Plus,
        Pattern4::FFlex3x2,
        Pattern4::EBlock4,
        Pattern4::DBlock4Plus,
        Pattern4::CBlock4Flex3,
        Pattern4::BFlex4,
        Pattern4::AFive,
    ];

    /// The class with discriminant `v`.
    #[inline]
    pub fn from_u8(v: u8) -> Pattern4 {
        Pattern4::ALL[(v as usize).min(12)]
    }
}

/// Cell contents as seen by the colour that plays the centre.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Seen {
    Empty = 0,
    Own = 1,
    Opp = 2,
    Wall = 3,
}

/// How a run of own stones through the centre is judged when the tables are built: the
/// per-colour half of a rule (renju judges black and white differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FiveRule {
    /// Six or more in a row is no five.
    pub(crate) exact: bool,
    /// A run of exactly five closed by opponent stones at both ends is no five.
    pub(crate) caro: bool,
}

impl FiveRule {
    /// Five or more wins.
    pub(crate) const FREESTYLE: FiveRule = FiveRule {
        exact: false,
        caro: false,
    };
}

/// `N` cells, centre at index `N / 2`, packed 2 bits each for the memo.
pub(crate) type Line<const N: usize> = [Seen; N];

pub(crate) fn line_code<const N: usize>(line: &Line<N>) -> usize {
    line.iter()
        .enumerate()
        .fold(0, |acc, (i, &s)| acc | (s as usize) << (2 * i))
}

/// Length of the run of own stones through the centre, and the cells just beyond each
/// end (`None` past the window).
fn centre_run<const N: usize>(line: &Line<N>) -> (usize, Option<Seen>, Option<Seen>) {
    let c = N / 2;
    let mut n = 1;
    let mut i = c + 1;
    while i < N && line[i] == Seen::Own {
        n += 1;
        i += 1;
    }
    let right = line.get(i).copied();
    let mut i = c;
    while i > 0 && line[i - 1] == Seen::Own {
        n += 1;
        i -= 1;
    }
    let left = i.checked_sub(1).map(|k| line[k]);
    (n, left, right)
}

/// Whether the centre's run is a winning line under `five`. The window must reach one cell
/// beyond any five through the centre for `exact` or `caro` to be judged exactly (11
/// cells); a longer run that reaches the window's edge is an overline either way.
fn makes_five<const N: usize>(line: &Line<N>, five: FiveRule) -> bool {
    let (n, left, right) = centre_run(line);
    n >= 5
        && !(five.exact && n > 5)
        && !(five.caro && n == 5 && left == Some(Seen::Opp) && right == Some(Seen::Opp))
}

/// The pattern of a line whose centre holds an own stone: the memoised "add one more
/// stone" recursion (a five at two cells is an open four, an open four at two cells is a
/// connected open three, and so on down).
pub(crate) fn classify<const N: usize>(line: &Line<N>, memo: &mut [u8], five: FiveRule) -> Pattern {
    let code = line_code(line);
    if memo[code] != u8::MAX {
        return Pattern::from_u8(memo[code]);
    }
    let result = classify_uncached(line, memo, five);
    memo[code] = result as u8;
    result
}

fn classify_uncached<const N: usize>(line: &Line<N>, memo: &mut [u8], five: FiveRule) -> Pattern {
    if makes_five(line, five) {
        return Pattern::F5;
    }
    let blocked = |s: Seen| matches!(s, Seen::Opp | Seen::Wall);
    let mut lo = N / 2;
    while lo > 0 && !blocked(line[lo - 1]) {
        lo -= 1;
    }
    let mut hi = N / 2;
    while hi < N - 1 && !blocked(line[hi + 1]) {
        hi += 1;
    }
    if hi - lo + 1 < 5 {
        return Pattern::Dead;
    }
    let mut counts = [0usize; 13];
    for e in lo..=hi {
        if line[e] != Seen::Empty {
            continue;
        }
        let mut next = *line;
        next[e] = Seen::Own;
        counts[classify(&next, memo, five) as usize] += 1;
    }
    let n = |p: Pattern| counts[p as usize];
    let fives = n(Pattern::F5);
    let open_fours = n(Pattern::F4);
    let threes = n(Pattern::F3) + n(Pattern::F3S);
    if fives >= 2 {
        Pattern::F4
    } else if fives == 1 {
        Pattern::B4
    } else if open_fours >= 2 {
        Pattern::F3S
    } else if open_fours == 1 {
        Pattern::F3
    } else if n(Pattern::B4) > 0 {
        Pattern::B3
    } else if threes >= 4 {
        Pattern::F2B
    } else if threes == 3 {
        Pattern::F2A
    } else if threes >= 1 {
        Pattern::F2
    } else if n(Pattern::B3) > 0 {
        Pattern::B2
    } else if n(Pattern::F2) + n(Pattern::F2A) + n(Pattern::F2B) > 0 {
        Pattern::F1
    } else if n(Pattern::B2) > 0 {
        Pattern::B1
    } else {
        Pattern::Dead
    }
}

/// Fold four line patterns into a combination class.
pub(crate) fn combine(pats: &[Pattern; 4]) -> Pattern4 {
    let count = |f: &dyn Fn(Pattern) -> bool| pats.iter().filter(|&&p| f(p)).count();
    let fives = count(&|p| p == Pattern::F5);
    let open_fours = count(&|p| p == Pattern::F4);
    let fours = count(&|p| p == Pattern::B4);
    let open_threes = count(&|p| p.is_open_three());
    let closed_threes = count(&|p| p == Pattern::B3);
    let twos = count(&|p| matches!(p, Pattern::F2 | Pattern::F2A | Pattern::F2B));
    if fives > 0 {
        Pattern4::AFive
    } else if open_fours > 0 || fours >= 2 {
        Pattern4::BFlex4
    } else if fours == 1 && open_threes > 0 {
        Pattern4::CBlock4Flex3
    } else if fours == 1 && closed_threes + twos > 0 {
        Pattern4::DBlock4Plus
    } else if fours == 1 {
        Pattern4::EBlock4
    } else if open_threes >= 2 {
        Pattern4::FFlex3x2
    } else if open_threes == 1 && closed_threes + twos > 0 {
        Pattern4::GFlex3Plus
    } else if open_threes == 1 {
        Pattern4::HFlex3
    } else if closed_threes >= 2 || (closed_threes == 1 && twos > 0) {
        Pattern4::IBlock3Plus
    } else if twos >= 2 {
        Pattern4::JFlex2x2
    } else if closed_threes == 1 {
        Pattern4::KBlock3
    } else if twos == 1 {
        Pattern4::LFlex2
    } else {
        Pattern4::None
    }
}

/// Number of pattern codes: the multisets of four line patterns (13 patterns, order of
/// the directions forgotten), C(16, 4).
pub const CODES: usize = 1820;

/// The pattern code of a cell's four line patterns: their multiset, numbered densely in
/// `0..CODES` (combinatorial number system over the sorted patterns, each lifted by its
/// rank so the four are strictly increasing). Code 0 is four dead lines.
pub fn code_index(pats: &[Pattern; 4]) -> usize {
    let mut v = pats.map(|p| p as usize);
    v.sort_unstable();
    let choose = |n: usize, k: usize| -> usize {
        if n < k {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    };
    (0..4).map(|i| choose(v[i] + i, i + 1)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classify a 9-character line: `x` own, `o` opponent, `#` wall, `.` empty; centre must be `x`.
    fn shape(s: &str) -> Pattern {
        let mut line = [Seen::Empty; 9];
        for (i, ch) in s.chars().enumerate() {
            line[i] = match ch {
                'x' => Seen::Own,
                'o' => Seen::Opp,
                '#' => Seen::Wall,
                _ => Seen::Empty,
            };
        }
        assert_eq!(line[4], Seen::Own, "centre must be own in {s}");
        let mut memo = vec![u8::MAX; 1 << 18];
        classify(&line, &mut memo, FiveRule::FREESTYLE)
    }

    #[test]
    fn line_shapes_are_named_right() {
        assert_eq!(shape("..xxxxx.."), Pattern::F5);
        assert_eq!(shape("xxxxxxxxx"), Pattern::F5);
        assert_eq!(shape("..xxxx..."), Pattern::F4);
        assert_eq!(shape(".oxxxx..."), Pattern::B4);
        assert_eq!(shape("..xxx.x.."), Pattern::B4);
        assert_eq!(shape("xxx.x.xxx"), Pattern::F4);
        assert_eq!(shape("...xxx..."), Pattern::F3S);
        assert_eq!(shape("..x.xx..."), Pattern::F3);
        assert_eq!(shape("..oxxx..."), Pattern::B3);
        assert_eq!(shape("#.xxx.o.."), Pattern::B3);
        assert_eq!(shape("...ox.o.."), Pattern::Dead);
        assert_eq!(shape("....x...."), Pattern::F1);
        assert_eq!(shape("...xx...."), Pattern::F2B);
    }

    #[test]
    fn combinations_rank_threats() {
        use Pattern::*;
        assert_eq!(combine(&[F5, Dead, Dead, Dead]), Pattern4::AFive);
        assert_eq!(combine(&[B4, B4, Dead, Dead]), Pattern4::BFlex4);
        assert_eq!(combine(&[B4, F3, Dead, Dead]), Pattern4::CBlock4Flex3);
        assert_eq!(combine(&[F3S, F3, Dead, Dead]), Pattern4::FFlex3x2);
        assert_eq!(combine(&[B3, Dead, Dead, Dead]), Pattern4::KBlock3);
        assert_eq!(combine(&[Dead; 4]), Pattern4::None);
    }

    #[test]
    fn pattern_codes_number_the_multisets_densely() {
        let mut seen = vec![false; CODES];
        let mut n = 0;
        for a in 0..13u8 {
            for b in a..13 {
                for c in b..13 {
                    for d in c..13 {
                        let pats = [a, b, c, d].map(Pattern::from_u8);
                        let code = code_index(&pats);
                        assert!(!seen[code], "code {code} twice");
                        seen[code] = true;
                        n += 1;
                        // The directions' order does not matter.
                        assert_eq!(code_index(&[pats[3], pats[1], pats[0], pats[2]]), code);
                    }
                }
            }
        }
        assert_eq!(n, CODES);
        assert!(seen.iter().all(|&s| s));
        assert_eq!(code_index(&[Pattern::Dead; 4]), 0);
    }
}
