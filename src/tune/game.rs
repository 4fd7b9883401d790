//! One self-play game as recorded: board size, rule, the opening's length, every move, the
//! search score of every searched move, and the result. A games file holds one per line:
//!
//! ```text
//! size rule_bits opening result | x.y x.y … | score score _ …
//! ```
//!
//! `result` is 1 (black won), -1 (white won) or 0 (draw); a score is the side to move's
//! search score before its move, `_` where the move was not searched (opening, random).

use crate::types::{Pos, Rule, Score};

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Board side.
    pub size: usize,
    /// Rule bits (Gomocup `INFO rule`).
    pub rule_bits: u32,
    /// How many of the first moves were the random opening.
    pub opening: usize,
    /// Result for black: 1 win, 0 draw, -1 loss.
    pub result: i8,
    /// Every move in order (black first).
    pub moves: Vec<Pos>,
    /// Per move, the mover's search score before it (`None`: not searched).
    pub scores: Vec<Option<Score>>,
}

impl Game {
    /// The rule.
    pub fn rule(&self) -> Rule {
        Rule::from_bits(self.rule_bits)
    }

    /// One line of a games file.
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|p| format!("{}.{}", p.x(), p.y()))
            .collect();
        let scores: Vec<String> = self
            .scores
            .iter()
            .map(|s| s.map_or("_".to_string(), |v| v.to_string()))
            .collect();
        format!(
            "{} {} {} {} | {} | {}",
            self.size,
            self.rule_bits,
            self.opening,
            self.result,
            moves.join(" "),
            scores.join(" ")
        )
    }

    /// Read one line of a games file.
    pub fn from_line(line: &str) -> Result<Game, String> {
        let bad = |what: &str| format!("{what} in game line {line:?}");
        let mut parts = line.split('|');
        let (head, moves, scores) = match (parts.next(), parts.next(), parts.next()) {
            (Some(h), Some(m), Some(s)) => (h, m, s),
            _ => return Err(bad("not three `|` fields")),
        };
        let head: Vec<i64> = head
            .split_whitespace()
            .map(|t| t.parse::<i64>().map_err(|_| bad("a bad number")))
            .collect::<Result<_, _>>()?;
        let [size, rule_bits, opening, result] = head[..] else {
            return Err(bad("not four header numbers"));
        };
        if !(5..=32).contains(&size) || !(-1..=1).contains(&result) || opening < 0 {
            return Err(bad("a header value out of range"));
        }
        let size = size as usize;
        let moves: Vec<Pos> = moves
            .split_whitespace()
            .map(|t| {
                let (x, y) = t.split_once('.').ok_or_else(|| bad("a bad move"))?;
                let x: usize = x.parse().map_err(|_| bad("a bad move"))?;
                let y: usize = y.parse().map_err(|_| bad("a bad move"))?;
                if x >= size || y >= size {
                    return Err(bad("a move off the board"));
                }
                Ok(Pos::new(x, y))
            })
            .collect::<Result<_, _>>()?;
        let scores: Vec<Option<Score>> = scores
            .split_whitespace()
            .map(|t| match t {
                "_" => Ok(None),
                v => v.parse().map(Some).map_err(|_| bad("a bad score")),
            })
            .collect::<Result<_, _>>()?;
        if scores.len() != moves.len() {
            return Err(bad("a score count unlike the move count"));
        }
        Ok(Game {
            size,
            rule_bits: rule_bits as u32,
            opening: opening as usize,
            result: result as i8,
            moves,
            scores,
        })
    }
}

/// A games file's text: one line per game, each ending in a newline (`parse_games` reads
/// it back).
pub fn games_text(games: &[Game]) -> String {
    games.iter().map(|g| g.to_line() + "\n").collect()
}

/// Read a games file (blank lines and `#` comments skipped).
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(Game::from_line)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_reads_back() {
        let g = Game {
            size: 15,
            rule_bits: 0,
            opening: 2,
            result: -1,
            moves: vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(14, 0)],
            scores: vec![None, None, Some(-35)],
        };
        assert_eq!(Game::from_line(&g.to_line()), Ok(g.clone()));
        assert_eq!(
            parse_games(&games_text(&[g.clone(), g.clone()])),
            Ok(vec![g.clone(), g.clone()])
        );
        assert_eq!(
            parse_games(&format!("# c\n\n{}\n", g.to_line())),
            Ok(vec![g])
        );
        assert!(Game::from_line("15 0 0 1 | 15.0 | _").is_err());
        assert!(Game::from_line("15 0 0 1 | 1.0 | ").is_err());
    }
}
