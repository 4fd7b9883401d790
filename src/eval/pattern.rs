//! Line shapes and their combinations, looked up from two tables built once at start-up.
//!
//! Every cell keeps, per direction, a 16-bit window: the 2-bit codes (empty, black, white,
//! wall) of the four cells on each side. `PATTERN[window]` says what the line becomes for
//! each colour if that colour played the cell (five, open four, four, open three, ...);
//! `COMBO[four patterns]` folds the four directions into one class (`Pattern4`) and an
//! evaluation share. A move touches at most 32 windows, so `play`/`undo` cost is fixed.
//!
//! The tables are exact for freestyle (five or more wins), where a window of four each
//! side is enough. Under exactly-five and caro the shapes are freestyle's approximation;
//! wins themselves are always decided by `Board::is_five`, which scans the real line.

use std::sync::OnceLock;

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
    fn from_u8(v: u8) -> Pattern {
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

/// Evaluation weight of one line pattern (a cell's share sums its four lines).
const LINE_VALUE: [i16; 13] = [0, 1, 2, 3, 8, 10, 12, 9, 24, 28, 26, 90, 200];

/// Extra weight for combination classes, which threaten more than their lines add up to.
const COMBO_BONUS: [i16; Pattern4::COUNT] = [0, 0, 0, 6, 6, 0, 10, 60, 0, 20, 120, 160, 300];

/// Per-cell state: the four windows and what they mean for each colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellPatterns {
    /// 2-bit codes of the cells at offsets -4..-1, 1..4 along each direction.
    pub windows: [u16; 4],
    /// Per colour: the four direction patterns, a nibble each (direction `d` at bits
    /// `4d..4d+4`). This is the combination table's index as it stands, so a changed line
    /// costs one nibble swap rather than gathering four bytes into a key.
    keys: [u16; 2],
    /// Combination class per colour.
    pub p4: [Pattern4; 2],
    /// Evaluation share per colour.
    pub value: [i16; 2],
}

impl CellPatterns {
    /// Shapes for a cell whose four windows are given.
    pub fn from_windows(windows: [u16; 4]) -> CellPatterns {
        let t = tables();
        let mut keys = [0u16; 2];
        for (d, &w) in windows.iter().enumerate() {
            let both = t.line[w as usize] as u16;
            keys[0] |= (both & 15) << (4 * d);
            keys[1] |= (both >> 4) << (4 * d);
        }
        let [black, white] = keys.map(|k| t.combo[k as usize]);
        CellPatterns {
            windows,
            keys,
            p4: [black.p4, white.p4],
            value: [black.value, white.value],
        }
    }

    /// The pattern `color_idx` (0 black, 1 white) makes along direction `dir`.
    #[inline]
    pub fn line(&self, dir: usize, color_idx: usize) -> Pattern {
        Pattern::from_u8(((self.keys[color_idx] >> (4 * dir)) & 15) as u8)
    }
}

/// The two lookup tables.
pub struct Tables {
    /// Window → black pattern (low nibble) and white pattern (high nibble).
    line: Box<[u8; 1 << 16]>,
    /// Four direction patterns (a nibble each) → class and evaluation share.
    combo: Box<[Combo; 1 << 16]>,
}

/// One combination table entry, laid out so `play` copies both fields as they are (a
/// packed `u16` took four more instructions to split per lookup; the table is 256 KiB
/// instead of 128 KiB, and only a small part of it is ever read).
#[derive(Clone, Copy, Debug, Default)]
struct Combo {
    p4: Pattern4,
    value: i16,
}

impl Tables {
    /// Plain references to the two arrays, for a loop that wants them in registers.
    #[inline]
    pub fn refs(&self) -> TableRefs<'_> {
        TableRefs {
            line: &self.line,
            combo: &self.combo,
        }
    }
}

/// The two tables borrowed as arrays: one load per lookup instead of two (through `Tables`'
/// boxes), which matters in `play`'s innermost loop.
#[derive(Clone, Copy)]
pub struct TableRefs<'a> {
    line: &'a [u8; 1 << 16],
    combo: &'a [Combo; 1 << 16],
}

impl TableRefs<'_> {
    /// Update one direction of an empty cell whose window became `window`, reporting each
    /// colour's class change through `changed(colour, old, new, value_delta)`. This is the
    /// innermost loop of `play`, so it reads the cell once and skips the combination
    /// lookup for a colour whose line shape did not change (the common case).
    #[inline(always)]
    pub fn update(
        self,
        cell: &mut CellPatterns,
        dir: usize,
        window: u16,
        mut changed: impl FnMut(usize, Pattern4, Pattern4, i32),
    ) {
        cell.windows[dir] = window;
        let both = self.line[window as usize] as u16;
        let shift = 4 * dir;
        for c in 0..2 {
            let nibble = (both >> (4 * c)) & 15;
            let old_key = cell.keys[c];
            let key = (old_key & !(15 << shift)) | nibble << shift;
            if key != old_key {
                cell.keys[c] = key;
                let Combo { p4: p, value: v } = self.combo[key as usize];
                changed(c, cell.p4[c], p, v as i32 - cell.value[c] as i32);
                cell.p4[c] = p;
                cell.value[c] = v;
            }
        }
    }
}

/// The process-wide tables, built on first use (a few milliseconds).
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// Cell contents as seen by the colour that plays the centre.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Seen {
    Empty = 0,
    Own = 1,
    Opp = 2,
    Wall = 3,
}

/// Nine cells, centre at index 4, packed 2 bits each for the memo.
type Line = [Seen; 9];

fn line_code(line: &Line) -> usize {
    line.iter()
        .enumerate()
        .fold(0, |acc, (i, &s)| acc | (s as usize) << (2 * i))
}

fn build() -> Tables {
    let mut memo = vec![u8::MAX; 1 << 18];
    let mut line = vec![0u8; 1 << 16];
    for (w, slot) in line.iter_mut().enumerate() {
        let mut both = 0u8;
        for (shift, own) in [(0u8, 1usize), (4, 2)] {
            let mut cells = [Seen::Own; 9];
            for k in 0..8 {
                let code = (w >> (2 * k)) & 3;
                let seen = match code {
                    0 => Seen::Empty,
                    3 => Seen::Wall,
                    c if c == own => Seen::Own,
                    _ => Seen::Opp,
                };
                let idx = if k < 4 { k } else { k + 1 };
                cells[idx] = seen;
            }
            both |= (classify(&cells, &mut memo) as u8) << shift;
        }
        *slot = both;
    }
    let mut combo = vec![Combo::default(); 1 << 16];
    for (key, slot) in combo.iter_mut().enumerate() {
        let pats: [Pattern; 4] =
            std::array::from_fn(|d| Pattern::from_u8(((key >> (4 * d)) & 15) as u8));
        let p4 = combine(&pats);
        let value: i16 =
            pats.iter().map(|&p| LINE_VALUE[p as usize]).sum::<i16>() + COMBO_BONUS[p4 as usize];
        *slot = Combo { p4, value };
    }
    Tables {
        // Fixed-size arrays: a u16 index can never be out of bounds, so lookups carry no check.
        line: line.into_boxed_slice().try_into().expect("2^16 entries"),
        combo: combo.into_boxed_slice().try_into().expect("2^16 entries"),
    }
}

/// Length of the run of own stones through the centre.
fn centre_run(line: &Line) -> usize {
    let mut n = 1;
    let mut i = 5;
    while i < 9 && line[i] == Seen::Own {
        n += 1;
        i += 1;
    }
    let mut i = 4;
    while i > 0 && line[i - 1] == Seen::Own {
        n += 1;
        i -= 1;
    }
    n
}

/// The pattern of a line whose centre holds an own stone: the memoised "add one more
/// stone" recursion (a five at two cells is an open four, an open four at two cells is a
/// connected open three, and so on down).
fn classify(line: &Line, memo: &mut [u8]) -> Pattern {
    let code = line_code(line);
    if memo[code] != u8::MAX {
        return Pattern::from_u8(memo[code]);
    }
    let result = classify_uncached(line, memo);
    memo[code] = result as u8;
    result
}

fn classify_uncached(line: &Line, memo: &mut [u8]) -> Pattern {
    if centre_run(line) >= 5 {
        return Pattern::F5;
    }
    let blocked = |s: Seen| matches!(s, Seen::Opp | Seen::Wall);
    let mut lo = 4;
    while lo > 0 && !blocked(line[lo - 1]) {
        lo -= 1;
    }
    let mut hi = 4;
    while hi < 8 && !blocked(line[hi + 1]) {
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
        counts[classify(&next, memo) as usize] += 1;
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
fn combine(pats: &[Pattern; 4]) -> Pattern4 {
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
        classify(&line, &mut memo)
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
}
