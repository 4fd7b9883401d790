//! What the fit sees of a position: for the side to move (`own`) and the opponent (`opp`),
//! how many (empty cell, direction) pairs make each line pattern, how many empty cells
//! make each combination class and each pattern code, and the threat state. The engine's evaluation is a
//! function of exactly these ([`eval_with`] computes it, equal to `eval::evaluate`).

use crate::board::Board;
use crate::eval::pattern::{Pattern4, CODES};
use crate::eval::sets::{threat_mask, EvalSet};
use crate::eval::weights::EVAL_LIMIT;
use crate::eval::{forbid_three_threes, EvalMix, Shapes};
use crate::types::{Color, Pos, Score};

/// Line patterns (`Pattern`).
pub const PATTERNS: usize = 13;
/// Classes (`Pattern4`).
pub const CLASSES: usize = Pattern4::COUNT;

/// The features of one position, side to move first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Per side (own, opp): (empty cell, direction) pairs per line pattern.
    pub line: [[i32; PATTERNS]; 2],
    /// Per side (own, opp): empty cells per class.
    pub class: [[i32; CLASSES]; 2],
    /// The class counts that the count terms and the threat state read: `class`, but
    /// under renju black's three-three cells (forbidden) count as cells of no threat.
    pub counted: [[i32; CLASSES]; 2],
    /// Per side (own, opp): empty cells per pattern code, as `(code, cells)` pairs for
    /// the codes present, codes increasing.
    pub code: [Vec<(u16, i32)>; 2],
    /// The threat state (`eval::sets::threat_mask`).
    pub mask: usize,
}

impl Features {
    /// The features of `board` for its side to move.
    pub fn of(board: &Board) -> Features {
        let me = board.side_to_move();
        let sides = [me, me.opp()];
        let mut line = [[0i32; PATTERNS]; 2];
        let mut code = [vec![0i32; CODES], vec![0i32; CODES]];
        for y in 0..board.size() {
            for x in 0..board.size() {
                let pos = Pos::new(x, y);
                if !board.is_empty(pos) {
                    continue;
                }
                let cell = board.cell(pos);
                for (s, c) in sides.iter().enumerate() {
                    for dir in 0..4 {
                        line[s][cell.line(dir, c.idx()) as usize] += 1;
                    }
                    code[s][cell.code(c.idx())] += 1;
                }
            }
        }
        let mut counts = sides.map(|c| *Shapes::counts(board, c));
        let class = counts.map(|c| c.map(i32::from));
        if board.rule().renju {
            // As `eval::evaluate` reads renju (the code terms stay).
            forbid_three_threes(&mut counts[usize::from(me == Color::White)]);
        }
        let present = |cells: &[i32]| {
            cells
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n != 0)
                .map(|(c, &n)| (c as u16, n))
                .collect::<Vec<_>>()
        };
        Features {
            line,
            class,
            counted: counts.map(|c| c.map(i32::from)),
            code: [present(&code[0]), present(&code[1])],
            mask: threat_mask(&counts[0], &counts[1]),
        }
    }

    /// Whether the side to move can make five at once (a won position the search never
    /// evaluates: such positions are left out of the fit).
    pub fn own_five(&self) -> bool {
        self.class[0][Pattern4::AFive as usize] > 0
    }
}

/// The engine's evaluation of a position with features `f` under `set`, in integers as
/// `eval::evaluate` computes it.
pub fn eval_with(f: &Features, set: &EvalSet) -> Score {
    eval_parts_with(f, set).0
}

/// The search's evaluation of a position with features `f` whose parent (the position
/// before the last move, from its own side to move's view) has features `parent`: the mean
/// of the two plies' shape material plus the threat state as it stands, in integers as
/// the alpha-beta computes it (`Search::eval_at` at the default `EvalMix::PLAIN`, through
/// the same `EvalMix::score`). Without a parent, `eval_with`.
pub fn search_eval_with(f: &Features, parent: Option<&Features>, set: &EvalSet) -> Score {
    let shapes = |f: &Features| {
        let (score, threat) = eval_parts_with(f, set);
        (score - threat, threat)
    };
    let (own, threat) = shapes(f);
    EvalMix::PLAIN.score(own, parent.map(|p| shapes(p).0), threat)
}

/// `eval_with`, and its threat-state part (as `eval::evaluate_parts`).
fn eval_parts_with(f: &Features, set: &EvalSet) -> (Score, Score) {
    let mut base = 0;
    for p in 0..PATTERNS {
        base += set.line[p] as Score * (f.line[0][p] - f.line[1][p]);
    }
    let mut score = 0;
    for k in 0..CLASSES {
        base += set.combo[k] as Score * (f.class[0][k] - f.class[1][k]);
        score += set.own[k] as Score * f.counted[0][k] + set.opp[k] as Score * f.counted[1][k];
    }
    for (side, sign) in [(0, 1), (1, -1)] {
        let terms = [&set.code_own, &set.code_opp][side];
        for &(c, n) in &f.code[side] {
            base += sign * EvalSet::listed(&set.code, c as usize) as Score * n;
            score += EvalSet::listed(terms, c as usize) as Score * n;
        }
    }
    let threat = set.threat[f.mask] as Score;
    (
        (base / 2 + score + threat).clamp(-EVAL_LIMIT, EVAL_LIMIT),
        threat,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::Pattern;
    use crate::eval::sets::SetName;
    use crate::eval::{evaluate, evaluate_parts};
    use crate::types::{Color, Rule};

    /// Black: an open three on row 8 (f8 g8 h8); white: two stones apart elsewhere.
    fn position() -> Board {
        let mut b = Board::new(15, Rule::FREESTYLE).expect("a 15x15 board");
        for (x, y, c) in [
            (5, 7, Color::Black),
            (2, 2, Color::White),
            (6, 7, Color::Black),
            (12, 12, Color::White),
            (7, 7, Color::Black),
        ] {
            b.play_as(Pos::new(x, y), c);
        }
        b.set_side_to_move(Color::White);
        b
    }

    #[test]
    fn features_of_a_small_diagram_counted_by_hand() {
        let b = position();
        let f = Features::of(&b);
        // White to move: `own` is white, `opp` is black.
        let (own, opp) = (0, 1);
        // 225 cells, 5 stones: every empty cell counts each of its four directions once.
        assert_eq!(f.line[own].iter().sum::<i32>(), 4 * 220);
        assert_eq!(f.line[opp].iter().sum::<i32>(), 4 * 220);
        // Every empty cell has one pattern code per side.
        for side in [own, opp] {
            assert_eq!(f.code[side].iter().map(|&(_, n)| n).sum::<i32>(), 220);
        }
        // The open-four points e8 and i8: black's four lines there are F4 and three lines
        // with one or no black stone, the same code at both ends.
        let e8 = b.cell(Pos::new(4, 7)).code(Color::Black.idx());
        assert_eq!(e8, b.cell(Pos::new(8, 7)).code(Color::Black.idx()));
        assert!(f.code[opp].iter().any(|&(c, n)| c as usize == e8 && n >= 2));
        // Black's open three f8-h8 becomes an open four at e8 or i8 (the two ends), and a
        // four at d8 or j8 (one gap); nothing else on the board makes black a four.
        assert_eq!(f.line[opp][Pattern::F4 as usize], 2);
        assert_eq!(f.line[opp][Pattern::B4 as usize], 2);
        assert_eq!(f.class[opp][Pattern4::BFlex4 as usize], 2);
        assert_eq!(f.class[opp][Pattern4::EBlock4 as usize], 2);
        // White's single stones make no four or three anywhere.
        assert_eq!(
            f.line[own][Pattern::B4 as usize] + f.line[own][Pattern::F4 as usize],
            0
        );
        assert_eq!(
            f.class[own][Pattern4::HFlex3 as usize..]
                .iter()
                .sum::<i32>(),
            0
        );
        // Threat state: the opponent has an open-four point and four points (bits 5, 9,
        // and bit 8: an open-three point or better); white has nothing.
        assert_eq!(f.mask, 1 << 5 | 1 << 8 | 1 << 9);
        assert!(!f.own_five());
    }

    #[test]
    fn eval_with_matches_the_engine() {
        // Tests never switch the process's set (other tests' boards would change), so this
        // checks the default set, whose tables every test board is built from.
        let mut b = position();
        let moves = [(8, 8), (9, 9), (4, 7), (3, 3), (10, 4), (8, 7), (8, 6)];
        for (x, y) in moves {
            assert_eq!(
                eval_with(&Features::of(&b), SetName::Hand.weights()),
                evaluate(&b)
            );
            b.play(Pos::new(x, y));
        }
    }

    #[test]
    fn search_eval_is_the_alpha_betas_two_ply_form() {
        let set = SetName::Hand.weights();
        let mut b = position();
        let moves = [(8, 8), (9, 9), (4, 7), (3, 3), (10, 4), (8, 7), (8, 6)];
        let mut parent: Option<(Features, Score, Score)> = None;
        let mut threats_seen = 0;
        for (x, y) in moves {
            let f = Features::of(&b);
            let (raw, threat) = evaluate_parts(&b);
            threats_seen += (threat != 0) as usize;
            let expected = match &parent {
                // `Search::eval_at`: this ply's shape material less the parent's, halved,
                // plus this ply's threat state.
                Some((_, up_raw, up_threat)) => {
                    ((raw - threat) - (up_raw - up_threat)) / 2 + threat
                }
                None => raw,
            };
            let up = parent.as_ref().map(|p| &p.0);
            assert_eq!(search_eval_with(&f, up, set), expected);
            parent = Some((f, raw, threat));
            b.play(Pos::new(x, y));
        }
        // The open three makes the threat state matter in these positions.
        assert!(threats_seen > 0);
    }
}
