//! Piskvork's PSQ game record, so games open in Piskvork and in the tools that read its files.
//!
//! Layout: a header `Piskvorky <w>x<h>, <l1>:<l2>, <h>`, one `x,y,ms` line per stone with
//! 1-based coordinates, then trailer lines: Piskvork's tournament files carry the two
//! players' file names and then the code the game finished with (`finishGame(errCode)` in
//! Piskvork's source): 0 for a game decided on the board (five, draw), 15 for a timeout, and
//! -2 for any other error (invalid move, crash, memory, an engine that could not start).
//! The loser of an error is the engine to move after the last stone listed.

use crate::record::Reason;

/// One stone: 1-based coordinates as stored in the file, and its think time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PsqMove {
    /// Column, 1-based.
    pub x: usize,
    /// Row, 1-based.
    pub y: usize,
    /// Milliseconds the mover spent on it (0 for opening stones).
    pub ms: u64,
}

/// A whole PSQ file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Psq {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Stones in play order, black first.
    pub moves: Vec<PsqMove>,
    /// Lines after the moves (player names, status code), kept verbatim.
    pub trailer: Vec<String>,
}

impl Psq {
    /// A record of a finished game. Moves are 0-based here and shifted on output; the trailer
    /// follows Piskvork's tournament files: first player, second player, [`status_code`].
    pub fn from_game(
        size: usize,
        moves: &[(usize, usize, u64)],
        black: &str,
        white: &str,
        reason: Reason,
    ) -> Psq {
        Psq {
            width: size,
            height: size,
            moves: moves
                .iter()
                .map(|&(x, y, ms)| PsqMove {
                    x: x + 1,
                    y: y + 1,
                    ms,
                })
                .collect(),
            trailer: vec![
                black.to_string(),
                white.to_string(),
                status_code(reason).to_string(),
            ],
        }
    }

    /// The file text. Levels are written as `1:1` (both players are programs, which is what
    /// Piskvork reads from a non-zero level).
    pub fn to_text(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 1:1, 0\n", self.width, self.height);
        for m in &self.moves {
            s.push_str(&format!("{},{},{}\n", m.x, m.y, m.ms));
        }
        for t in &self.trailer {
            s.push_str(t);
            s.push('\n');
        }
        s
    }

    /// Parses a PSQ file (CRLF or LF). Move lines are `x,y` or `x,y,ms`; the first line that
    /// is not one ends the move list.
    pub fn parse(text: &str) -> Result<Psq, String> {
        let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
        let header = lines.next().ok_or("empty PSQ file")?;
        let (width, height) = parse_header(header)?;
        let mut moves = Vec::new();
        let mut trailer = Vec::new();
        for line in lines {
            if trailer.is_empty() {
                if let Some(m) = parse_move(line) {
                    if m.x == 0 || m.y == 0 || m.x > width || m.y > height {
                        return Err(format!("move {line:?} is off the {width}x{height} board"));
                    }
                    moves.push(m);
                    continue;
                }
            }
            if !line.trim().is_empty() {
                trailer.push(line.trim().to_string());
            }
        }
        Ok(Psq {
            width,
            height,
            moves,
            trailer,
        })
    }
}

/// The code Piskvork writes as a game file's last line for a game that ended this way.
pub fn status_code(reason: Reason) -> i32 {
    match reason {
        Reason::Five | Reason::BoardFull | Reason::MoveLimit => 0,
        // A renju foul ends the game on the board, like a five (our choice: Piskvork's code
        // for it was not checked).
        Reason::FoulDoubleThree | Reason::FoulDoubleFour | Reason::FoulOverline => 0,
        Reason::Timeout | Reason::MatchClock => 15,
        Reason::Illegal
        | Reason::Malformed
        | Reason::Crash
        | Reason::StartFailed
        | Reason::Memory => -2,
    }
}

fn parse_header(line: &str) -> Result<(usize, usize), String> {
    let bad = || format!("not a PSQ header: {line:?}");
    let rest = line.trim().strip_prefix("Piskvorky ").ok_or_else(bad)?;
    let dims = rest.split(',').next().ok_or_else(bad)?.trim();
    let (w, h) = dims.split_once('x').ok_or_else(bad)?;
    let width = w.trim().parse().map_err(|_| bad())?;
    let height = h.trim().parse().map_err(|_| bad())?;
    Ok((width, height))
}

fn parse_move(line: &str) -> Option<PsqMove> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    if fields.len() < 2 || fields.len() > 3 {
        return None;
    }
    let x = fields[0].parse().ok()?;
    let y = fields[1].parse().ok()?;
    let ms = match fields.get(2) {
        Some(t) => t.parse().ok()?,
        None => 0,
    };
    Some(PsqMove { x, y, ms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let moves = [(9, 9, 0), (10, 9, 120), (0, 19, 5)];
        let game = Psq::from_game(20, &moves, "a", "b", Reason::Five);
        let text = game.to_text();
        assert!(text.starts_with("Piskvorky 20x20, 1:1, 0\n10,10,0\n11,10,120\n1,20,5\na\nb\n0\n"));
        assert_eq!(Psq::parse(&text), Ok(game));
        let lost = Psq::from_game(20, &moves, "a", "b", Reason::Timeout);
        assert!(lost.to_text().ends_with("\na\nb\n15\n"));
        let crashed = Psq::from_game(20, &moves, "a", "b", Reason::Crash);
        assert!(crashed.to_text().ends_with("\na\nb\n-2\n"));
    }

    #[test]
    fn rejects_garbage() {
        assert!(Psq::parse("").is_err());
        assert!(Psq::parse("hello\n1,1,0\n").is_err());
        assert!(Psq::parse("Piskvorky 15x15, 1:1, 0\n16,1,0\n").is_err());
    }
}
