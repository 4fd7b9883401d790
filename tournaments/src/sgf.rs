//! SGF (`FF[4]`) game records for gomoku, in the dialect c-gomoku-cli writes, so the files open
//! in SGF viewers and in the tools that read that manager's output.
//!
//! One game is one tree without variations: a root node with the game information, then one
//! node per stone, opening included.
//!
//! - Root: `FF[4]GM[4]` (GM 4 is gomoku), `CA[UTF-8]`, `AP`, `GN` (game number), `EV`
//!   (`black x white`), `RO` (game number), `RU` (the `INFO rule` bits), `SZ`, `PB`, `PW`,
//!   `RE` (`B+1`, `W+1` or `0` for a draw, as c-gomoku-cli writes it) and `TE` (how the game
//!   ended, in words; not a standard property, c-gomoku-cli's).
//! - Moves: `B[xy]` / `W[xy]`, the first letter the column (x) and the second the row (y),
//!   both from `a` = 0 at the top left, the protocol's own coordinates. Past `z` the letters go
//!   on with `A`..`Z`, as `FF[4]` does for boards up to 52, so 27..32-line boards fit.
//! - Comments: `C[opening move]` on opening stones; `C[<ms>ms]` on played ones (c-gomoku-cli's
//!   form), followed by the engine's `MESSAGE` lines for that move, one per line.

use crate::board::Side;
use crate::record::{GameRecord, Outcome, Ply};
use std::fmt::Write;

/// The `C` comment on an opening stone (c-gomoku-cli writes it, and so does this runner).
pub const OPENING_COMMENT: &str = "opening move";

/// The SGF letter for a 0-based coordinate: `a`..`z`, then `A`..`Z`.
pub fn letter(i: usize) -> Option<char> {
    match i {
        0..=25 => Some((b'a' + i as u8) as char),
        26..=51 => Some((b'A' + (i - 26) as u8) as char),
        _ => None,
    }
}

/// The coordinate an SGF letter stands for.
pub fn index(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// The `RE` value for an outcome.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::BlackWins => "B+1",
        Outcome::WhiteWins => "W+1",
        Outcome::Draw => "0",
    }
}

/// Escapes a text value: `]` and `\` get a backslash.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The SGF text of one finished game. Moves come from the record's `plies`; a record without
/// them (an old journal) gives a tree with the root node only.
pub fn game(record: &GameRecord, size: usize, rule_bits: u32) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "(;FF[4]GM[4]CA[UTF-8]AP[wuzi-tournament:{}]GN[{}]EV[{}]RO[{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{}]TE[{}]",
        env!("CARGO_PKG_VERSION"),
        record.game,
        escape(&format!("{} x {}", record.black, record.white)),
        record.game,
        rule_bits,
        size,
        escape(&record.black),
        escape(&record.white),
        result_text(record.outcome),
        escape(&termination(record)),
    );
    s.push('\n');
    for (i, ply) in record.plies.iter().enumerate() {
        let (Some(cx), Some(cy)) = (letter(ply.x), letter(ply.y)) else {
            continue;
        };
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let _ = write!(s, ";{colour}[{cx}{cy}]");
        if i < record.opening_stones {
            let _ = write!(s, "C[{OPENING_COMMENT}]");
        } else {
            s.push_str(&comment(ply));
        }
        s.push('\n');
    }
    s.push_str(")\n");
    s
}

fn comment(ply: &Ply) -> String {
    let mut text = format!("{}ms", ply.ms);
    for m in &ply.msg {
        text.push('\n');
        text.push_str(m);
    }
    format!("C[{}]", escape(&text))
}

/// `TE`: who won and how, e.g. `Black wins: five in a row`, `White wins: black's timeout`,
/// `Draw: board full`.
pub fn termination(r: &GameRecord) -> String {
    use crate::record::Reason;
    let (winner, loser) = match r.outcome {
        Outcome::BlackWins => ("Black", "white"),
        Outcome::WhiteWins => ("White", "black"),
        Outcome::Draw => return format!("Draw: {}", r.reason),
    };
    match r.reason {
        Reason::Five => format!("{winner} wins: five in a row"),
        reason => format!("{winner} wins: {loser}'s {reason}"),
    }
}

/// One parsed game tree (main line only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfGame {
    /// Root properties in file order, values unescaped (a property with several values
    /// appears once per value).
    pub root: Vec<(String, String)>,
    /// Stones in order: column, row, and whether it was black's.
    pub moves: Vec<(usize, usize, bool)>,
    /// The `C` comment of each move (empty when it had none).
    pub comments: Vec<String>,
}

impl SgfGame {
    /// The first value of a root property.
    pub fn prop(&self, key: &str) -> Option<&str> {
        self.root
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The colour `player` played, as `PB` and `PW` name the players (`None`: neither).
    pub fn side_of(&self, player: &str) -> Option<Side> {
        if self.prop("PB") == Some(player) {
            Some(Side::Black)
        } else if self.prop("PW") == Some(player) {
            Some(Side::White)
        } else {
            None
        }
    }

    /// How many leading stones are the opening (their comment is `OPENING_COMMENT`).
    pub fn opening_len(&self) -> usize {
        self.comments
            .iter()
            .take_while(|c| c.trim() == OPENING_COMMENT)
            .count()
            .min(self.moves.len())
    }
}

/// Parses an SGF collection (one or more game trees). Variations are skipped: only the
/// first child of every node is followed.
pub fn parse(text: &str) -> Result<Vec<SgfGame>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut p = Parser { chars, at: 0 };
    let mut games = Vec::new();
    loop {
        p.skip_ws();
        match p.peek() {
            None => break,
            Some('(') => games.push(p.tree()?),
            Some(c) => return Err(format!("unexpected {c:?} at {} outside a game tree", p.at)),
        }
    }
    if games.is_empty() {
        return Err("no game tree".to_string());
    }
    Ok(games)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// `( sequence { tree } )`: the main line is the sequence and then the first sub-tree.
    fn tree(&mut self) -> Result<SgfGame, String> {
        let mut game = SgfGame::default();
        let mut nodes = 0;
        self.walk(&mut game, &mut nodes, true)?;
        Ok(game)
    }

    fn walk(&mut self, game: &mut SgfGame, nodes: &mut usize, main: bool) -> Result<(), String> {
        self.at += 1; // '('
        let mut first_child = true;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(';') => {
                    self.at += 1;
                    let props = self.node()?;
                    if main {
                        self.take(game, *nodes, props)?;
                        *nodes += 1;
                    }
                }
                Some('(') => {
                    let follow = main && first_child;
                    first_child = false;
                    self.walk(game, nodes, follow)?;
                }
                Some(')') => {
                    self.at += 1;
                    return Ok(());
                }
                Some(c) => return Err(format!("unexpected {c:?} at {}", self.at)),
                None => return Err("unterminated game tree".to_string()),
            }
        }
    }

    fn node(&mut self) -> Result<Vec<(String, String)>, String> {
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                self.at += 1;
            }
            if start == self.at {
                return Ok(props);
            }
            let key: String = self.chars[start..self.at].iter().collect();
            let mut any = false;
            loop {
                self.skip_ws();
                if self.peek() != Some('[') {
                    break;
                }
                self.at += 1;
                props.push((key.clone(), self.value()?));
                any = true;
            }
            if !any {
                return Err(format!("property {key} has no value"));
            }
        }
    }

    fn value(&mut self) -> Result<String, String> {
        let mut v = String::new();
        loop {
            match self.peek() {
                None => return Err("unterminated property value".to_string()),
                Some(']') => {
                    self.at += 1;
                    return Ok(v);
                }
                Some('\\') => {
                    self.at += 1;
                    match self.peek() {
                        // A backslash before a line break joins the lines (soft break).
                        Some('\n') => {}
                        Some(c) => v.push(c),
                        None => return Err("unterminated property value".to_string()),
                    }
                    self.at += 1;
                }
                Some(c) => {
                    v.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn take(
        &self,
        game: &mut SgfGame,
        node: usize,
        props: Vec<(String, String)>,
    ) -> Result<(), String> {
        if node == 0 {
            game.root = props;
            return Ok(());
        }
        let mut comment = String::new();
        let mut stone = None;
        for (k, v) in props {
            match k.as_str() {
                "B" | "W" => {
                    let mut cs = v.chars();
                    let (Some(x), Some(y), None) = (
                        cs.next().and_then(index),
                        cs.next().and_then(index),
                        cs.next(),
                    ) else {
                        return Err(format!("bad move {k}[{v}]"));
                    };
                    stone = Some((x, y, k == "B"));
                }
                "C" => comment = v,
                _ => {}
            }
        }
        if let Some(s) = stone {
            game.moves.push(s);
            game.comments.push(comment);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Reason, SideReport};

    fn record(plies: Vec<Ply>, outcome: Outcome, reason: Reason) -> GameRecord {
        GameRecord {
            game: 3,
            black: "wuzi [new]".into(),
            white: "old\\one".into(),
            opening: 0,
            opening_line: 1,
            outcome,
            reason,
            detail: String::new(),
            moves: plies.len(),
            black_report: SideReport::default(),
            white_report: SideReport::default(),
            psq: "games/0003.psq".into(),
            plies,
            opening_stones: 2,
        }
    }

    fn ply(x: usize, y: usize, ms: u64, msg: &[&str]) -> Ply {
        Ply {
            x,
            y,
            ms,
            msg: msg.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn letters_cover_boards_to_32_and_beyond_z() {
        assert_eq!(letter(0), Some('a'));
        assert_eq!(letter(25), Some('z'));
        assert_eq!(letter(26), Some('A'));
        assert_eq!(letter(31), Some('F'));
        assert_eq!(letter(52), None);
        for i in 0..52 {
            assert_eq!(letter(i).and_then(index), Some(i));
        }
        assert_eq!(index('1'), None);
    }

    #[test]
    fn writes_c_gomoku_cli_layout() {
        let r = record(
            vec![
                ply(9, 9, 0, &[]),
                ply(10, 9, 0, &[]),
                ply(0, 19, 312, &["depth 7 | eval +25", "tt hit]rate"]),
            ],
            Outcome::BlackWins,
            Reason::Five,
        );
        let text = game(&r, 20, 1);
        assert!(text.starts_with("(;FF[4]GM[4]CA[UTF-8]"), "{text}");
        for part in [
            "GN[3]",
            "EV[wuzi [new\\] x old\\\\one]",
            "RU[1]",
            "SZ[20]",
            "PB[wuzi [new\\]]",
            "PW[old\\\\one]",
            "RE[B+1]",
            "TE[Black wins: five in a row]",
            "\n;B[jj]C[opening move]\n;W[kj]C[opening move]\n",
            ";B[at]C[312ms\ndepth 7 | eval +25\ntt hit\\]rate]\n)",
        ] {
            assert!(text.contains(part), "{part:?} missing in {text}");
        }
    }

    #[test]
    fn round_trip_keeps_moves_names_result_and_comments() {
        let r = record(
            vec![
                ply(9, 9, 0, &[]),
                ply(31, 30, 0, &[]),
                ply(26, 0, 5, &["a\\b"]),
                ply(1, 2, 7, &[]),
            ],
            Outcome::WhiteWins,
            Reason::Timeout,
        );
        let games = parse(&game(&r, 32, 0)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.prop("PB"), Some("wuzi [new]"));
        assert_eq!(g.prop("PW"), Some("old\\one"));
        assert_eq!(g.prop("RE"), Some("W+1"));
        assert_eq!(g.prop("SZ"), Some("32"));
        assert_eq!(g.prop("TE"), Some("White wins: black's timeout"));
        assert_eq!(
            g.moves,
            [(9, 9, true), (31, 30, false), (26, 0, true), (1, 2, false)]
        );
        assert_eq!(g.comments[1], "opening move");
        assert_eq!(g.comments[2], "5ms\na\\b");
        assert_eq!(g.comments[3], "7ms");
    }

    #[test]
    fn draws_are_zero_and_collections_parse() {
        let r = record(Vec::new(), Outcome::Draw, Reason::BoardFull);
        let one = game(&r, 15, 0);
        assert!(one.contains("RE[0]TE[Draw: board full]"));
        let both = format!("{one}{one}");
        assert_eq!(parse(&both).map(|g| g.len()), Ok(2));
    }

    #[test]
    fn reads_the_layout_c_gomoku_cli_writes() {
        // Its shape: all root properties on one line with a local date, a line break before
        // the first played move, eight played moves per line, `C[<ms>ms]` comments.
        let text = "(;FF[4]GM[4]GN[12]EV[alpha x beta]DT[2021.06.01 10:20:30]RO[3.12]RU[1]SZ[15]PB[alpha]PW[beta]RE[W+1]TE[Black timed out]\n\
                    ;B[hh]C[opening move];W[ih]C[opening move]\n\
                    ;B[hi]C[12ms];W[ii]C[15ms];B[hj]C[9ms]\n)\n\n";
        let g = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].prop("RU"), Some("1"));
        assert_eq!(g[0].prop("RE"), Some("W+1"));
        assert_eq!(g[0].prop("DT"), Some("2021.06.01 10:20:30"));
        assert_eq!(
            g[0].moves,
            [
                (7, 7, true),
                (8, 7, false),
                (7, 8, true),
                (8, 8, false),
                (7, 9, true)
            ]
        );
        assert_eq!(g[0].comments[3], "15ms");
    }

    #[test]
    fn reads_variations_as_main_line_and_rejects_garbage() {
        let text = "(;GM[4]SZ[15];B[hh];W[ih](;B[jj]C[main])(;B[aa]))";
        let g = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g[0].moves, [(7, 7, true), (8, 7, false), (9, 9, true)]);
        assert_eq!(g[0].comments[2], "main");
        assert!(parse("").is_err());
        assert!(parse("(;SZ[15];B[h1])").is_err());
        assert!(parse("(;SZ[15];B[hh]").is_err());
        assert!(parse("x(;SZ[15])").is_err());
    }
}
