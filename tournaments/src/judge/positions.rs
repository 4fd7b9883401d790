//! The positions file: one position per line, `id | moves | game move | better move | note`.
//!
//! Moves are SGF letter pairs (`hn`: first letter the column x, second the row y, `a` = 0),
//! in play order with black first, separated by blanks. The game move (the one that lost)
//! and the better move may be `-` or empty; the note is free text (it may hold `|`). Blank
//! lines and lines starting with `#` are skipped.

use crate::board::{Board, Rule, Side};
use std::path::Path;

/// One position to put to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Short unique name (`PZ1`).
    pub id: String,
    /// Stones in play order, black first.
    pub moves: Vec<(usize, usize)>,
    /// The move played in the game, if known.
    pub game_move: Option<(usize, usize)>,
    /// A better move (the oracle's), if known.
    pub better: Option<(usize, usize)>,
    /// Free text.
    pub note: String,
}

/// A cell in SGF letters (`hn`); boards up to 26 wide.
pub fn sgf(cell: (usize, usize)) -> String {
    let letter = |v: usize| {
        u8::try_from(v)
            .ok()
            .filter(|&v| v < 26)
            .map_or('?', |v| char::from(b'a' + v))
    };
    format!("{}{}", letter(cell.0), letter(cell.1))
}

/// Reads an SGF letter pair on a `size` board.
pub fn parse_cell(text: &str, size: usize) -> Result<(usize, usize), String> {
    let b = text.as_bytes();
    let coord = |c: u8| c.is_ascii_lowercase().then(|| usize::from(c - b'a'));
    match (
        b.len(),
        b.first().copied().and_then(coord),
        b.get(1).copied().and_then(coord),
    ) {
        (2, Some(x), Some(y)) if x < size && y < size => Ok((x, y)),
        (2, Some(_), Some(_)) => Err(format!("{text:?} is off a {size}x{size} board")),
        _ => Err(format!("{text:?} is not an SGF cell (two letters a-z)")),
    }
}

fn optional_cell(text: &str, size: usize) -> Result<Option<(usize, usize)>, String> {
    match text.trim() {
        "" | "-" => Ok(None),
        t => parse_cell(t, size).map(Some),
    }
}

/// Parses a positions file's text; every error names its line.
pub fn parse(text: &str, size: usize, rule: Rule) -> Result<Vec<Position>, String> {
    let mut out: Vec<Position> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = parse_line(line, size, rule).map_err(|e| format!("line {}: {e}", n + 1))?;
        if out.iter().any(|q| q.id == p.id) {
            return Err(format!("line {}: id {} appears twice", n + 1, p.id));
        }
        out.push(p);
    }
    if out.is_empty() {
        return Err("no positions".to_string());
    }
    Ok(out)
}

/// For each position, the id of the first earlier one that holds the same stones (the same
/// cells for each colour, in whatever order they were played), if any: a file built from
/// several games can list one position more than once, and a count of the positions
/// avoided should say how many distinct ones there were.
pub fn same_as(positions: &[Position]) -> Vec<Option<String>> {
    // Each stone with its colour, by cell (a cell holds one stone, so the order is total).
    let stones = |p: &Position| {
        let mut s: Vec<((usize, usize), Side)> = p
            .moves
            .iter()
            .enumerate()
            .map(|(i, &cell)| (cell, Side::of_move(i)))
            .collect();
        s.sort_unstable_by_key(|&(cell, _)| cell);
        s
    };
    let keys: Vec<_> = positions.iter().map(stones).collect();
    (0..positions.len())
        .map(|i| {
            keys[..i]
                .iter()
                .position(|k| *k == keys[i])
                .map(|j| positions[j].id.clone())
        })
        .collect()
}

/// Reads and parses a positions file.
pub fn load(path: &Path, size: usize, rule: Rule) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text, size, rule).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_line(line: &str, size: usize, rule: Rule) -> Result<Position, String> {
    let fields: Vec<&str> = line.splitn(5, '|').map(str::trim).collect();
    let [id, moves, game, better, rest @ ..] = fields.as_slice() else {
        return Err("expected `id | moves | game move | better move [| note]`".to_string());
    };
    if id.is_empty() || id.contains(char::is_whitespace) {
        return Err(format!("bad id {id:?}"));
    }
    let mut board = Board::new(size);
    let mut stones = Vec::new();
    for m in moves.split_whitespace() {
        let (x, y) = parse_cell(m, size)?;
        board
            .play(x as i64, y as i64)
            .map_err(|e| format!("move {} ({m}): {e}", stones.len() + 1))?;
        stones.push((x, y));
    }
    if board.has_win(rule) {
        return Err("the game is already won on the board".to_string());
    }
    if board.is_full() {
        return Err("the board is full".to_string());
    }
    let game_move = optional_cell(game, size)?;
    let better = optional_cell(better, size)?;
    for cell in [game_move, better].into_iter().flatten() {
        if board.at(cell.0 as i64, cell.1 as i64).is_some() {
            return Err(format!("{} is already taken", sgf(cell)));
        }
    }
    Ok(Position {
        id: (*id).to_string(),
        moves: stones,
        game_move,
        better,
        note: rest.first().map_or(String::new(), |s| (*s).to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free() -> Rule {
        Rule::FREESTYLE
    }

    #[test]
    fn reads_a_line_with_a_note() {
        let text = "# header\n\nPZ1 | il io gl | hn | hl | PZ 1 | a\nX | | - |\n";
        let p = parse(text, 20, free()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].id, "PZ1");
        assert_eq!(p[0].moves, vec![(8, 11), (8, 14), (6, 11)]);
        assert_eq!(p[0].game_move, Some((7, 13)));
        assert_eq!(p[0].better, Some((7, 11)));
        assert_eq!(p[0].note, "PZ 1 | a");
        assert_eq!(sgf((7, 13)), "hn");
        assert!(p[1].moves.is_empty() && p[1].game_move.is_none() && p[1].better.is_none());
    }

    #[test]
    fn the_same_stones_in_another_order_are_the_same_position() {
        let text = "A | aa bb cc dd | - | -\n\
                    B | cc bb aa dd | - | -\n\
                    C | bb aa dd cc | - | -\n\
                    D | aa bb cc | - | -\n\
                    E | aa dd cc bb | - | -\n";
        let p = parse(text, 20, free()).unwrap_or_else(|e| panic!("{e}"));
        let same = same_as(&p);
        // C swaps the colours of A's stones; D has a stone fewer.
        assert_eq!(
            same,
            vec![
                None,
                Some("A".to_string()),
                None,
                None,
                Some("A".to_string())
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("A | aa aa | - | -", "line 1: move 2 (aa): occupied cell"),
            ("A | aa | zz | -", "line 1: \"zz\" is off a 20x20 board"),
            (
                "A | aa | a1 | -",
                "line 1: \"a1\" is not an SGF cell (two letters a-z)",
            ),
            ("A | aa | aa | -", "line 1: aa is already taken"),
            (
                "A | aa\n",
                "line 1: expected `id | moves | game move | better move [| note]`",
            ),
            (
                "A | aa | - | -\nA | bb | - | -",
                "line 2: id A appears twice",
            ),
            (
                "A | aa ba ab bb ac bc ad bd ae | - | -",
                "line 1: the game is already won on the board",
            ),
            ("# nothing", "no positions"),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text, 20, free()), Err(want.to_string()), "{text}");
        }
    }

    /// The position files the README's judge runs name: each loads, every row has a game
    /// move and a different better move on empty cells, and the rows and distinct positions
    /// are as many as the files' headers say.
    #[test]
    fn the_committed_position_files_load() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        for (file, rows, distinct) in [
            ("losses44.txt", 44, 38),
            ("pentazen22.txt", 22, 21),
            ("pentazen37.txt", 15, 15),
        ] {
            let positions =
                load(&data.join(file), 20, free()).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(positions.len(), rows, "{file}");
            let firsts = same_as(&positions).iter().filter(|s| s.is_none()).count();
            assert_eq!(firsts, distinct, "{file}");
            for p in &positions {
                assert!(
                    p.game_move.is_some() && p.better.is_some(),
                    "{file} {}",
                    p.id
                );
                assert_ne!(p.game_move, p.better, "{file} {}", p.id);
            }
        }
        // The won positions: the three files' positions after their game moves, each once.
        let wins = load(&data.join("wins72.txt"), 20, free()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(wins.len(), 72);
        assert!(same_as(&wins).iter().all(Option::is_none));
        assert!(wins
            .iter()
            .all(|p| p.game_move.is_none() && p.better.is_none()));
    }
}
