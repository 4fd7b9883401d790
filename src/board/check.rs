//! Checks and pictures: the key and the shapes recomputed from scratch (run after every
//! `play`/`undo` in debug builds), and ASCII diagrams in and out.

use super::{Board, BoardError};
use crate::board::zobrist::{tables, MultiKey};
use crate::eval::pattern::Pattern4;
use crate::eval::tables::CellPatterns;
use crate::types::{Color, Pos, Rule, Stone, DIRS, NUM_CELLS};

impl Board {
    /// Key recomputed from scratch; equals `key()` whenever the incremental updates are right.
    pub fn compute_key(&self) -> MultiKey {
        let z = tables();
        let mut k = MultiKey::default();
        for (i, &s) in self.cells.iter().enumerate() {
            if let Some(c) = s.color() {
                k.toggle(z.stone(Pos(i as u16), c));
            }
        }
        if self.side == Color::White {
            k.toggle(z.side());
        }
        k
    }

    /// Recompute keys, windows, shapes and counts from scratch and compare with the
    /// incremental state. Runs after every `play`/`undo` in debug builds.
    pub fn validate(&self) {
        assert_eq!(self.key, self.compute_key(), "incremental key diverged");
        // Recomputed cell by cell rather than on a clone, which would copy the undo stacks.
        let mut p4_count = [[0u16; Pattern4::COUNT]; 2];
        let mut value = [0i32; 2];
        let mut terms = [[0i32; 2]; 2];
        for i in 0..NUM_CELLS {
            if self.cells[i] == Stone::Wall {
                continue;
            }
            let fresh = CellPatterns::from_windows(
                DIRS.map(|dir| self.window_at(i, dir)),
                DIRS.map(|dir| self.outer_at(i, dir)),
                self.tables,
            );
            assert_eq!(
                self.windows(Pos(i as u16)),
                fresh.windows,
                "window diverged at {:?}",
                Pos(i as u16)
            );
            if self.cells[i] == Stone::Empty {
                assert_eq!(
                    self.pats[i],
                    fresh,
                    "shapes diverged at {:?}",
                    Pos(i as u16)
                );
                for c in 0..2 {
                    p4_count[c][fresh.p4[c] as usize] += 1;
                    value[c] += fresh.value[c] as i32;
                    let t = self.tables.terms(&fresh, c);
                    terms[c][0] += t[0];
                    terms[c][1] += t[1];
                }
            }
        }
        assert_eq!(self.p4_count, p4_count, "pattern counts diverged");
        assert_eq!(self.value, value, "evaluation sums diverged");
        assert_eq!(self.terms, terms, "pattern-code term sums diverged");
    }

    /// ASCII diagram (`X` black, `O` white, `.` empty), rows top to bottom.
    pub fn to_diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.size {
            for x in 0..self.size {
                s.push(match self.at(Pos::new(x, y)) {
                    Stone::Black => 'X',
                    Stone::White => 'O',
                    _ => '.',
                });
            }
            s.push('\n');
        }
        s
    }

    /// Build a board from an ASCII diagram (`X`/`x` black, `O`/`o` white, anything else
    /// empty; whitespace between cells ignored). The side to move is the one with fewer
    /// stones, black on equal counts, unless `side` is given.
    pub fn from_diagram(
        diagram: &str,
        rule: Rule,
        side: Option<Color>,
    ) -> Result<Board, BoardError> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        let mut board = Board::new(size, rule)?;
        for (y, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate().take(size) {
                let color = match ch {
                    'X' | 'x' => Color::Black,
                    'O' | 'o' => Color::White,
                    _ => continue,
                };
                board.play_as(Pos::new(x, y), color);
            }
        }
        let side = side.unwrap_or(
            if board.stones_of(Color::Black) > board.stones_of(Color::White) {
                Color::White
            } else {
                Color::Black
            },
        );
        board.set_side_to_move(side);
        Ok(board)
    }
}
