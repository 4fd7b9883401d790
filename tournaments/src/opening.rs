//! Opening files in the two formats Gomocup managers use, detected per line:
//! `pos` (`h8i9j10`: letter = x from `a`, number = y + 1) and offset (`dx,dy, dx,dy, …` from
//! the centre `size / 2`). Stones are listed black first and alternate colours.

use crate::board::{Board, Rule};
use crate::renju;
use std::path::Path;

/// One opening: the stones to place before the engines take over, in play order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in its file, so results can point back at the source.
    pub line: usize,
    /// Cells in play order (black first), 0-based `(x, y)`.
    pub stones: Vec<(usize, usize)>,
}

/// Which notation a line uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Letters and row numbers, e.g. `h8i9`.
    Pos,
    /// Comma-separated offsets from the centre, e.g. `0,0, 1,-1`.
    Offset,
}

impl Format {
    /// The offset format is the only one with commas, so one character decides.
    pub fn detect(line: &str) -> Format {
        if line.contains(',') {
            Format::Offset
        } else {
            Format::Pos
        }
    }
}

/// Reads every opening of a file. Blank lines and `#` comments are skipped; a malformed,
/// off-board, duplicated or already-won opening is an error naming the line, because a
/// silently dropped opening would change the schedule between runs.
pub fn load(path: &Path, size: usize, rule: Rule) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    parse(&text, size, rule).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses openings from text (see [`load`]).
pub fn parse(text: &str, size: usize, rule: Rule) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let stones = parse_line(line, size).map_err(|e| format!("line {}: {e}", i + 1))?;
        check(&stones, size, rule).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(Opening {
            line: i + 1,
            stones,
        });
    }
    Ok(out)
}

/// Parses one non-empty line in whichever format it uses.
pub fn parse_line(line: &str, size: usize) -> Result<Vec<(usize, usize)>, String> {
    let signed = match Format::detect(line) {
        Format::Pos => parse_pos(line)?,
        Format::Offset => parse_offset(line, size)?,
    };
    signed
        .into_iter()
        .map(|(x, y)| {
            if x < 0 || y < 0 || x as usize >= size || y as usize >= size {
                Err(format!("stone {x},{y} is off the {size}x{size} board"))
            } else {
                Ok((x as usize, y as usize))
            }
        })
        .collect()
}

fn parse_pos(line: &str) -> Result<Vec<(i64, i64)>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_alphabetic() {
            return Err(format!("expected a column letter, found {c:?}"));
        }
        let x = i64::from(c.to_ascii_lowercase() as u8 - b'a');
        let mut digits = String::new();
        while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
            digits.push(d);
            chars.next();
        }
        let row: i64 = digits
            .parse()
            .map_err(|_| format!("column {c} has no row number"))?;
        if row < 1 {
            return Err(format!("row {row} in {c}{row}: rows start at 1"));
        }
        out.push((x, row - 1));
    }
    Ok(out)
}

fn parse_offset(line: &str, size: usize) -> Result<Vec<(i64, i64)>, String> {
    let numbers: Vec<i64> = line
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse()
                .map_err(|_| format!("{t:?} is not an integer offset"))
        })
        .collect::<Result<_, _>>()?;
    if !numbers.len().is_multiple_of(2) {
        return Err("odd number of offsets".to_string());
    }
    let centre = (size / 2) as i64;
    Ok(numbers
        .chunks(2)
        .map(|p| (centre + p[0], centre + p[1]))
        .collect())
}

fn check(stones: &[(usize, usize)], size: usize, rule: Rule) -> Result<(), String> {
    let mut board = Board::new(size);
    for &(x, y) in stones {
        board
            .play(x as i64, y as i64)
            .map_err(|e| format!("stone {x},{y}: {e}"))?;
    }
    if board.has_win(rule) {
        return Err("the opening already contains a five".to_string());
    }
    if rule.renju {
        if let Some((i, foul)) = renju::first_foul(size, stones) {
            let (x, y) = stones[i];
            return Err(format!(
                "black stone {} at {x},{y} is forbidden in renju ({foul})",
                i + 1
            ));
        }
    }
    Ok(())
}

/// Reorders openings by a seeded shuffle, so a limited subset is a fair sample rather than
/// the head of the file; the same seed always gives the same order.
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        // splitmix64: tiny, good enough for a permutation, and stable across platforms.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..openings.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        openings.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FREE: Rule = Rule::FREESTYLE;

    #[test]
    fn pos_line() {
        assert_eq!(parse_line("h8i9j10", 20), Ok(vec![(7, 7), (8, 8), (9, 9)]));
        assert_eq!(parse_line("A1 t20", 20), Ok(vec![(0, 0), (19, 19)]));
    }

    #[test]
    fn offset_line() {
        assert_eq!(
            parse_line("0,0, 1,-1, -10,9", 20),
            Ok(vec![(10, 10), (11, 9), (0, 19)])
        );
        assert_eq!(parse_line("0,0", 15), Ok(vec![(7, 7)]));
    }

    #[test]
    fn bad_lines() {
        assert!(parse_line("u1", 20).is_err()); // column 20 on a 20 board
        assert!(parse_line("h0", 20).is_err());
        assert!(parse_line("h", 20).is_err());
        assert!(parse_line("1,2,3", 20).is_err());
        assert!(parse_line("10,0", 20).is_err()); // x = 20
        assert!(parse_line("a,b", 20).is_err());
    }

    #[test]
    fn duplicate_and_won_openings_are_rejected() {
        assert!(parse("h8h8\n", 20, FREE).is_err());
        assert!(parse("a1b1a2b2a3b3a4b4a5\n", 20, FREE).is_err());
        let ok = parse("# comment\n\nh8i9\n", 20, FREE);
        assert_eq!(
            ok,
            Ok(vec![Opening {
                line: 3,
                stones: vec![(7, 7), (8, 8)]
            }])
        );
    }

    #[test]
    fn renju_openings_with_a_forbidden_black_stone_are_rejected() {
        let renju = Rule::RENJU;
        // Black f8 g8 h8 and h6 h7, then h8 last: black's h8 would be a double three
        // (white's stones are far away in the corner).
        let foul = "f8a1g8a2h6a3h7a4h8\n";
        let err = parse(foul, 15, renju).err().unwrap_or_default();
        assert!(
            err.contains("forbidden") && err.contains("double-three"),
            "{err}"
        );
        // The same stones are a fine freestyle opening, and without the last black stone a
        // fine renju one.
        assert!(parse(foul, 15, FREE).is_ok());
        assert!(parse("f8a1g8a2h6a3h7a4\n", 15, renju).is_ok());
        // Black's overline in an opening is a foul, not a five.
        let six = "a8o1b8o3c8o5e8o7f8o9d8\n";
        let err = parse(six, 15, renju).err().unwrap_or_default();
        assert!(err.contains("overline"), "{err}");
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let make = || -> Vec<Opening> {
            (0..10)
                .map(|i| Opening {
                    line: i,
                    stones: vec![],
                })
                .collect()
        };
        let mut a = make();
        let mut b = make();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut lines: Vec<usize> = a.iter().map(|o| o.line).collect();
        assert_ne!(lines, (0..10).collect::<Vec<_>>());
        lines.sort_unstable();
        assert_eq!(lines, (0..10).collect::<Vec<_>>());
    }
}
