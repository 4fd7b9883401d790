//! The lookup tables behind every cell's shapes, and the per-cell state they fill.
//!
//! `line[window]` says what the line becomes for each colour if that colour played the
//! cell; `combo[four patterns]` folds the four directions into one class (`Pattern4`), an
//! evaluation share and the pattern code's two terms (weights from the active weight set,
//! `sets`). A move touches a fixed number of windows, so `play`/`undo` cost is fixed.
//!
//! # The rule seam
//!
//! Tables are built per rule by [`tables`]. Freestyle's shapes need four cells each side
//! of the cell (a 16-bit window). Exactly-five and caro need the fifth cell each side
//! too, to see an overline or a five closed at both ends: their tables are *wide*, indexed
//! by the 16-bit window plus the two outer cells' codes (20 bits), and the board keeps the
//! fifth cells' shapes current only for wide tables, so freestyle pays nothing for them.
//! Each colour is classified under its own half of the rule (`pattern::FiveRule`): that is where
//! renju's black (exactly five) and white (five or more) plug in.

use super::pattern::{classify, code_index, combine, FiveRule, Pattern, Pattern4, Seen};
use super::sets::policy::{POLICY_OPP, POLICY_OWN};
use super::sets::{self, EvalSet, SetName};
use crate::types::Rule;
use std::sync::OnceLock;

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
    /// Shapes for a cell whose four windows are given, with the codes of the cells five
    /// steps away along each direction (`outer[d]`: the cell behind in bits 0-1, the cell
    /// ahead in bits 2-3; read only by wide tables).
    pub fn from_windows(windows: [u16; 4], outer: [u8; 4], t: &Tables) -> CellPatterns {
        let mut keys = [0u16; 2];
        for (d, &w) in windows.iter().enumerate() {
            let both = t.lookup(w, outer[d]) as u16;
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

    /// The pattern code (`pattern::code_index`) of `color_idx`'s four lines.
    pub fn code(&self, color_idx: usize) -> usize {
        code_index(&std::array::from_fn(|d| self.line(d, color_idx)))
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
    /// For wide tables: window plus the outer cells' codes (bits 16-19) → both patterns;
    /// empty for freestyle.
    wide: Box<[u8]>,
    /// Four direction patterns (a nibble each) → class and evaluation share.
    combo: Box<[Combo; 1 << 16]>,
    /// Four direction patterns → the move ordering's pattern-code terms
    /// (`eval::sets::policy`) for that colour as the side to move, and as the opponent.
    /// Apart from `combo`, so `play` copies no more than before; only the ordering reads it.
    policy: Box<[[i16; 2]; 1 << 16]>,
    /// The weight set the shares were built from, whose other terms `evaluate` reads.
    set: &'static EvalSet,
    /// Whether the set has per-class count terms (`evaluate` skips them otherwise).
    class_terms: bool,
    /// Whether the set has pattern-code terms per side (`Combo::terms`; `evaluate` skips
    /// them otherwise).
    code_terms: bool,
    /// Renju's tables: black's double threes are forbidden, so `evaluate` does not count
    /// them as black's threats.
    renju: bool,
}

/// One combination table entry, laid out so `play` copies the fields as they are (a
/// packed `u16` for class and share took four more instructions to split per lookup). With
/// the two code terms an entry is 8 bytes and the table 512 KiB, of which only a small part
/// is ever read.
#[derive(Clone, Copy, Debug, Default)]
struct Combo {
    p4: Pattern4,
    value: i16,
    /// The pattern code's terms: what the cell adds to the evaluation when its colour is
    /// the side to move, and when it is the opponent (`EvalSet::code_own`, `code_opp`).
    terms: [i16; 2],
}

impl Tables {
    /// Plain references to the arrays, for a loop that wants them in registers.
    #[inline]
    pub fn refs(&self) -> TableRefs<'_> {
        TableRefs {
            line: &self.line,
            wide: &self.wide,
            combo: &self.combo,
        }
    }

    /// The weight set behind these tables.
    #[inline]
    pub fn set(&self) -> &'static EvalSet {
        self.set
    }

    /// Whether the set has per-class count terms.
    #[inline]
    pub fn class_terms(&self) -> bool {
        self.class_terms
    }

    /// Whether the set has pattern-code terms per side.
    #[inline]
    pub fn code_terms(&self) -> bool {
        self.code_terms
    }

    /// The pattern-code terms (side to move, opponent) of `cell` for `color_idx`.
    #[inline]
    pub fn terms(&self, cell: &CellPatterns, color_idx: usize) -> [i32; 2] {
        self.combo[cell.keys[color_idx] as usize]
            .terms
            .map(i32::from)
    }

    /// The move ordering's pattern-code terms of `cell` for the side to move `me_idx`.
    #[inline]
    pub fn policy(&self, cell: &CellPatterns, me_idx: usize) -> i32 {
        self.policy[cell.keys[me_idx] as usize][0] as i32
            + self.policy[cell.keys[1 - me_idx] as usize][1] as i32
    }

    /// Whether these are renju's tables (black's double threes are no threat).
    #[inline]
    pub fn is_renju(&self) -> bool {
        self.renju
    }

    /// Whether shapes read the fifth cell each side (see the module notes).
    #[inline]
    pub fn is_wide(&self) -> bool {
        !self.wide.is_empty()
    }

    /// Both colours' patterns (a nibble each) for a window and its outer cells.
    #[inline]
    fn lookup(&self, window: u16, outer: u8) -> u8 {
        if self.is_wide() {
            self.wide[window as usize | (outer as usize & 15) << 16]
        } else {
            self.line[window as usize]
        }
    }
}

/// The two tables borrowed as arrays: one load per lookup instead of two (through `Tables`'
/// boxes), which matters in `play`'s innermost loop.
#[derive(Clone, Copy)]
pub struct TableRefs<'a> {
    line: &'a [u8; 1 << 16],
    wide: &'a [u8],
    combo: &'a [Combo; 1 << 16],
}

impl TableRefs<'_> {
    /// Update one direction of an empty cell whose window became `window`, reporting each
    /// colour's class change through `changed(colour, old, new, value_delta, terms_delta)`. This is the
    /// innermost loop of `play`, so it reads the cell once and skips the combination
    /// lookup for a colour whose line shape did not change (the common case).
    #[inline(always)]
    pub fn update(
        self,
        cell: &mut CellPatterns,
        dir: usize,
        window: u16,
        changed: impl FnMut(usize, Pattern4, Pattern4, i32, [i32; 2]),
    ) {
        cell.windows[dir] = window;
        let both = self.line[window as usize] as u16;
        self.refresh(cell, dir, both, changed);
    }

    /// As `update`, for a wide table: `outer` holds the codes of the cells five steps
    /// behind (bits 0-1) and ahead (bits 2-3) along `dir`.
    #[inline(always)]
    pub fn update_wide(
        self,
        cell: &mut CellPatterns,
        dir: usize,
        window: u16,
        outer: u32,
        changed: impl FnMut(usize, Pattern4, Pattern4, i32, [i32; 2]),
    ) {
        cell.windows[dir] = window;
        let both = self.wide[window as usize | (outer as usize) << 16] as u16;
        self.refresh(cell, dir, both, changed);
    }

    /// Put both colours' new patterns along `dir` (nibbles of `both`) into the cell.
    #[inline(always)]
    fn refresh(
        self,
        cell: &mut CellPatterns,
        dir: usize,
        both: u16,
        mut changed: impl FnMut(usize, Pattern4, Pattern4, i32, [i32; 2]),
    ) {
        let shift = 4 * dir;
        for c in 0..2 {
            let nibble = (both >> (4 * c)) & 15;
            let old_key = cell.keys[c];
            let key = (old_key & !(15 << shift)) | nibble << shift;
            if key != old_key {
                cell.keys[c] = key;
                let Combo {
                    p4: p,
                    value: v,
                    terms,
                } = self.combo[key as usize];
                let old = self.combo[old_key as usize].terms;
                let dt = [0, 1].map(|s| terms[s] as i32 - old[s] as i32);
                changed(c, cell.p4[c], p, v as i32 - cell.value[c] as i32, dt);
                cell.p4[c] = p;
                cell.value[c] = v;
            }
        }
    }
}

/// The tables for `rule` and the active weight set (`sets::select`), built on first use
/// and shared by every board of that rule and set: freestyle's in a few milliseconds, a
/// wide rule's in a few hundred.
pub fn tables(rule: Rule) -> &'static Tables {
    // Per weight set: exactly five, caro, caro + exactly five, freestyle, renju.
    static TABLES: [[OnceLock<Tables>; 5]; SetName::COUNT] =
        [const { [const { OnceLock::new() }; 5] }; SetName::COUNT];
    let set = sets::active();
    let per_set = &TABLES[set as usize];
    if rule.is_freestyle() {
        return per_set[3].get_or_init(|| build(set.weights()));
    }
    if rule.renju {
        // Black wins with exactly five, white with five or more.
        let black = FiveRule {
            exact: true,
            caro: false,
        };
        return per_set[4].get_or_init(|| Tables {
            renju: true,
            ..build_wide([black, FiveRule::FREESTYLE], set.weights())
        });
    }
    let five = FiveRule {
        exact: rule.exact_five,
        caro: rule.caro,
    };
    let slot = match (rule.exact_five, rule.caro) {
        (true, false) => 0,
        (false, true) => 1,
        _ => 2,
    };
    per_set[slot].get_or_init(|| build_wide([five, five], set.weights()))
}

/// The pattern of `w`'s line for the colour whose code is `own`, as a line of `N` cells:
/// `N = 9` reads the 16-bit window, `N = 11` the outer cells (bits 16-19) too.
fn line_of<const N: usize>(w: usize, own: usize) -> [Seen; N] {
    let seen = |code: usize| match code {
        0 => Seen::Empty,
        3 => Seen::Wall,
        c if c == own => Seen::Own,
        _ => Seen::Opp,
    };
    let mut cells = [Seen::Own; N];
    let pad = (N - 9) / 2;
    for k in 0..8 {
        let idx = if k < 4 { k } else { k + 1 };
        cells[pad + idx] = seen((w >> (2 * k)) & 3);
    }
    if pad == 1 {
        cells[0] = seen((w >> 16) & 3);
        cells[N - 1] = seen((w >> 18) & 3);
    }
    cells
}

/// A wide rule's tables: every 20-bit window classified for black under `fives[0]` and
/// for white under `fives[1]`.
fn build_wide(fives: [FiveRule; 2], set: &'static EvalSet) -> Tables {
    let narrow = build(set);
    let mut memos = [vec![u8::MAX; 1 << 22], vec![u8::MAX; 1 << 22]];
    let mut wide = vec![0u8; 1 << 20];
    for (w, slot) in wide.iter_mut().enumerate() {
        let mut both = 0u8;
        for (c, own) in [1usize, 2].into_iter().enumerate() {
            let cells = line_of::<11>(w, own);
            both |= (classify(&cells, &mut memos[c], fives[c]) as u8) << (4 * c);
        }
        *slot = both;
    }
    Tables {
        wide: wide.into_boxed_slice(),
        ..narrow
    }
}

/// A cell's evaluation share for one colour whose four lines are `pats` (class `p4`):
/// the line shares, the class share and its pattern code's share `code_share`, held in an
/// `i16`.
fn cell_share(set: &EvalSet, code_share: i16, pats: &[Pattern; 4], p4: Pattern4) -> i16 {
    let lines: i32 = pats.iter().map(|&p| set.line[p as usize] as i32).sum();
    let total = lines + set.combo[p4 as usize] as i32 + code_share as i32;
    total.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn build(set: &'static EvalSet) -> Tables {
    let mut memo = vec![u8::MAX; 1 << 18];
    let mut line = vec![0u8; 1 << 16];
    for (w, slot) in line.iter_mut().enumerate() {
        let mut both = 0u8;
        for (shift, own) in [(0u8, 1usize), (4, 2)] {
            let cells = line_of::<9>(w, own);
            both |= (classify(&cells, &mut memo, FiveRule::FREESTYLE) as u8) << shift;
        }
        *slot = both;
    }
    let [shares, own, opp] = set.code_lists().map(EvalSet::code_values_of);
    let mut combo = vec![Combo::default(); 1 << 16];
    let mut policy = vec![[0i16; 2]; 1 << 16];
    for (key, slot) in combo.iter_mut().enumerate() {
        let pats: [Pattern; 4] =
            std::array::from_fn(|d| Pattern::from_u8(((key >> (4 * d)) & 15) as u8));
        let p4 = combine(&pats);
        let code = code_index(&pats);
        *slot = Combo {
            p4,
            value: cell_share(set, shares[code], &pats, p4),
            terms: [own[code], opp[code]],
        };
        policy[key] = [POLICY_OWN[code], POLICY_OPP[code]];
    }
    Tables {
        // Fixed-size arrays: a u16 index can never be out of bounds, so lookups carry no check.
        line: line.into_boxed_slice().try_into().expect("2^16 entries"),
        wide: Box::new([]),
        combo: combo.into_boxed_slice().try_into().expect("2^16 entries"),
        policy: policy.into_boxed_slice().try_into().expect("2^16 entries"),
        set,
        class_terms: set.has_class_terms(),
        code_terms: set.has_code_terms(),
        renju: false,
    }
}
