//! Brain → manager lines: formatting (brain side) and parsing (manager side).

use crate::coord::{parse_move_strict, Coord};
use crate::error::ProtocolError;
use std::fmt;

/// Longest free text a formatted line carries; managers cut lines near 8000 bytes and the
/// protocol reference asks for well under 1 KB.
const MAX_TEXT: usize = 400;

/// One line a brain sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`, exactly.
    Ok,
    /// `x,y`: a move, exactly, no spaces.
    Move(Coord),
    /// `ERROR text`: a known command that cannot be carried out.
    Error(String),
    /// `UNKNOWN text`: a command that is not recognised or not implemented.
    Unknown(String),
    /// `MESSAGE text`: for the user or the log.
    Message(String),
    /// `DEBUG text`: for the author.
    Debug(String),
    /// The `ABOUT` line: `key="value"` pairs joined by `, `.
    About(Vec<(String, String)>),
    /// `SWAP`: the swap2 choice to change colours.
    Swap,
    /// `x1,y1 x2,y2 [x3,y3]`: several swap2 stones on one line (one stone is a `Move`).
    Stones(Vec<Coord>),
    /// The `YXSHOWFORBID` answer: `FORBID ` then each cell as two-digit x and two-digit y,
    /// then `.` (`FORBID .` when there is none).
    Forbid(Vec<Coord>),
}

/// Which reply each fault earns (here rather than in `error.rs`, so the error type depends on
/// nothing and the responses on the errors, not both ways).
impl ProtocolError {
    /// The reply a brain sends for this fault: `UNKNOWN` for unknown commands and
    /// overlong lines, nothing for INFO, `ERROR` otherwise.
    pub fn reply(&self) -> Option<Response> {
        match self {
            ProtocolError::UnknownCommand(_) | ProtocolError::LineTooLong => {
                Some(Response::Unknown(self.to_string()))
            }
            ProtocolError::BadInfo { .. } => None,
            _ => Some(Response::Error(self.to_string())),
        }
    }
}

impl Response {
    /// The value of `key` in an `About` line.
    pub fn about_value(&self, key: &str) -> Option<&str> {
        match self {
            Response::About(pairs) => pairs
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    /// Parse one line an engine printed (manager side). Only a trailing `\n`/`\r` is
    /// stripped: a move must be exactly `x,y`, since a strict manager (c-gomoku-cli) ignores
    /// `x,y ` with a trailing space and the runner should catch what it would catch.
    /// Keywords (`ERROR`, `MESSAGE`, `SWAP`, …) match in any case, as piskvork does.
    pub fn parse(line: &str) -> Result<Response, ProtocolError> {
        let line = line.trim_end_matches(['\r', '\n']);
        if line == "OK" {
            return Ok(Response::Ok);
        }
        if let Some(c) = parse_move_strict(line) {
            return Ok(Response::Move(c));
        }
        if line.eq_ignore_ascii_case("SWAP") {
            return Ok(Response::Swap);
        }
        if let Some(cells) = strip_keyword(line, "FORBID").and_then(parse_forbid) {
            return Ok(Response::Forbid(cells));
        }
        for (word, make) in KEYWORDS {
            if let Some(rest) = strip_keyword(line, word) {
                return Ok(make(rest.trim().to_string()));
            }
        }
        if line.contains(' ') {
            let stones: Option<Vec<Coord>> = line.split(' ').map(parse_move_strict).collect();
            if let Some(stones) = stones.filter(|s| (2..=3).contains(&s.len())) {
                return Ok(Response::Stones(stones));
            }
        }
        if let Some(pairs) = parse_about(line) {
            return Ok(Response::About(pairs));
        }
        Err(ProtocolError::BadResponse(clean(line)))
    }
}

type Make = fn(String) -> Response;

const KEYWORDS: [(&str, Make); 4] = [
    ("ERROR", Response::Error),
    ("UNKNOWN", Response::Unknown),
    ("MESSAGE", Response::Message),
    ("DEBUG", Response::Debug),
];

/// `rest` if `line` starts with `word` (any case) followed by a space, a tab or the end.
fn strip_keyword<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let head = line.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = &line[word.len()..];
    if rest.is_empty() || rest.starts_with([' ', '\t']) {
        Some(rest)
    } else {
        None
    }
}

/// The cells of a `FORBID` line after the keyword: four digits per cell, then `.`.
fn parse_forbid(rest: &str) -> Option<Vec<Coord>> {
    let digits = rest.trim().strip_suffix('.')?;
    if digits.len() % 4 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |s: &str| s.parse::<i64>().ok();
    (0..digits.len() / 4)
        .map(|i| {
            let cell = &digits[4 * i..4 * i + 4];
            Some(Coord::new(num(&cell[..2])?, num(&cell[2..])?))
        })
        .collect()
}

/// Parse `key="value", key2="value2"`; unquoted values run to the next comma.
fn parse_about(line: &str) -> Option<Vec<(String, String)>> {
    let mut pairs = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let eq = rest.find('=')?;
        let key = rest[..eq].trim();
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        let after = rest[eq + 1..].trim_start();
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted.find('"')?;
            (&quoted[..end], &quoted[end + 1..])
        } else {
            let end = after.find(',').unwrap_or(after.len());
            (after[..end].trim(), &after[end..])
        };
        pairs.push((key.to_string(), value.to_string()));
        let tail = tail.trim_start();
        rest = match tail.strip_prefix(',') {
            Some(t) => t.trim_start(),
            None if tail.is_empty() => tail,
            None => return None,
        };
    }
    if pairs.is_empty() {
        None
    } else {
        Some(pairs)
    }
}

/// Make free text safe for one protocol line: control characters (CR, LF, NUL, …) become
/// spaces, so a reply can never split into two lines or end in a bare CR, and the length
/// is capped.
pub(crate) fn clean(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(MAX_TEXT)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out
}

/// Text after a keyword: never empty, because piskvork only skips `MESSAGE ` lines that carry
/// the space and some text.
fn body(text: &str) -> String {
    let t = clean(text);
    let t = t.trim_start();
    if t.is_empty() {
        "-".into()
    } else {
        t.to_string()
    }
}

/// The exact line, without a line ending.
impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => f.write_str("OK"),
            Response::Move(c) => write!(f, "{c}"),
            Response::Error(t) => write!(f, "ERROR {}", body(t)),
            Response::Unknown(t) => write!(f, "UNKNOWN {}", body(t)),
            Response::Message(t) => write!(f, "MESSAGE {}", body(t)),
            Response::Debug(t) => write!(f, "DEBUG {}", body(t)),
            Response::About(pairs) => {
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    let v = clean(v).replace('"', "'");
                    write!(
                        f,
                        "{}=\"{}\"",
                        clean(k).replace([' ', '=', ',', '"'], "_"),
                        v
                    )?;
                }
                Ok(())
            }
            Response::Swap => f.write_str("SWAP"),
            Response::Stones(stones) => {
                for (i, c) in stones.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{c}")?;
                }
                Ok(())
            }
            Response::Forbid(cells) => {
                f.write_str("FORBID ")?;
                for c in cells {
                    write!(f, "{:02}{:02}", c.x, c.y)?;
                }
                f.write_str(".")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(r: Response) {
        let line = r.to_string();
        assert_eq!(Response::parse(&line), Ok(r), "{line}");
    }

    #[test]
    fn every_kind_round_trips() {
        round_trip(Response::Ok);
        round_trip(Response::Move(Coord::new(7, 12)));
        round_trip(Response::Error("bad coordinates".into()));
        round_trip(Response::Unknown("command FOO".into()));
        round_trip(Response::Message("depth 3 | eval +5".into()));
        round_trip(Response::Debug("x".into()));
        round_trip(Response::Swap);
        round_trip(Response::Stones(vec![Coord::new(1, 2), Coord::new(3, 4)]));
        round_trip(Response::About(vec![
            ("name".into(), "Wuzi".into()),
            ("author".into(), "Wuzi team".into()),
        ]));
    }

    #[test]
    fn forbid_lines_round_trip() {
        let none = Response::Forbid(Vec::new());
        assert_eq!(none.to_string(), "FORBID .");
        round_trip(none);
        let two = Response::Forbid(vec![Coord::new(7, 3), Coord::new(12, 14)]);
        assert_eq!(two.to_string(), "FORBID 07031214.");
        round_trip(two);
        assert!(Response::parse("FORBID 0703").is_err());
    }

    #[test]
    fn moves_with_spaces_are_not_moves() {
        assert!(Response::parse("7,7 ").is_err());
        assert!(Response::parse(" 7,7").is_err());
        assert_eq!(
            Response::parse("7,7\r\n"),
            Ok(Response::Move(Coord::new(7, 7)))
        );
    }

    #[test]
    fn keywords_need_a_separator() {
        assert!(Response::parse("ERRORS").is_err());
        assert_eq!(
            Response::parse("message hello"),
            Ok(Response::Message("hello".into()))
        );
        assert_eq!(
            Response::parse("OK "),
            Err(ProtocolError::BadResponse("OK".into()))
        );
    }

    #[test]
    fn text_never_breaks_the_line() {
        let line = Response::Error("a\r\nb\0c".into()).to_string();
        assert_eq!(line, "ERROR a  b c");
        assert_eq!(Response::Message(String::new()).to_string(), "MESSAGE -");
        let long = Response::Unknown("A".repeat(100_000)).to_string();
        assert!(long.len() < 1000);
    }

    #[test]
    fn about_values_are_found_by_key() {
        let r = Response::parse(r#"name="Foo", version="1.0", author="A B", country="CZ""#);
        let r = r.unwrap_or(Response::Ok);
        assert_eq!(r.about_value("name"), Some("Foo"));
        assert_eq!(r.about_value("author"), Some("A B"));
        assert_eq!(r.about_value("email"), None);
    }
}
