//! Board coordinates as they travel on the wire: `x,y`, zero-based, x = column.

use std::fmt;

/// A cell as written in a command or a reply.
///
/// Signed and wide on purpose: `TURN -1,3` and `TURN 99,99` are well-formed lines that name
/// cells off the board. Only the brain knows the board size, so range checks happen there and
/// the parser keeps the numbers as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column, 0 = left.
    pub x: i64,
    /// Row, 0 = top.
    pub y: i64,
}

impl Coord {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i64, y: i64) -> Coord {
        Coord { x, y }
    }
}

/// The exact wire form `x,y`: decimal, no spaces, no padding.
impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Parse a decimal integer as managers write it: an optional `-` and ASCII digits only.
///
/// `+7`, `7.0`, `0x7` and empty text are refused, so that a brain never guesses at what a
/// malformed line meant. Overflow is refused rather than wrapped.
pub(crate) fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Parse an unsigned decimal integer (digits only).
pub(crate) fn parse_uint(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Split on commas and trim each part; spaces around the commas are tolerated (`7 , 7`).
pub(crate) fn parse_ints(text: &str, count: usize) -> Option<Vec<i64>> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != count {
        return None;
    }
    parts.into_iter().map(parse_int).collect()
}

/// Parse `x,y` (spaces around the comma allowed).
pub(crate) fn parse_coord(text: &str) -> Option<Coord> {
    let v = parse_ints(text, 2)?;
    Some(Coord::new(v[0], v[1]))
}

/// Parse a move exactly as a strict manager does: `^[0-9]+,[0-9]+$`, nothing else.
pub(crate) fn parse_move_strict(text: &str) -> Option<Coord> {
    let (x, y) = text.split_once(',')?;
    let x = parse_uint(x)?;
    let y = parse_uint(y)?;
    Some(Coord::new(i64::try_from(x).ok()?, i64::try_from(y).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_accept_only_plain_decimal() {
        assert_eq!(parse_int("7"), Some(7));
        assert_eq!(parse_int("-12"), Some(-12));
        for bad in [
            "",
            "-",
            "+7",
            "7.0",
            "0x7",
            " 7",
            "7a",
            "99999999999999999999",
        ] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn coordinates_tolerate_spaces_around_the_comma() {
        assert_eq!(parse_coord("7, 7"), Some(Coord::new(7, 7)));
        assert_eq!(parse_coord("7 ,7"), Some(Coord::new(7, 7)));
        assert_eq!(parse_coord("7,7,7"), None);
        assert_eq!(parse_coord("7;7"), None);
        assert_eq!(parse_coord(",7"), None);
    }

    #[test]
    fn strict_moves_refuse_spaces_and_signs() {
        assert_eq!(parse_move_strict("12,3"), Some(Coord::new(12, 3)));
        assert_eq!(parse_move_strict("12,3 "), None);
        assert_eq!(parse_move_strict(" 12,3"), None);
        assert_eq!(parse_move_strict("-1,3"), None);
        assert_eq!(Coord::new(12, 3).to_string(), "12,3");
    }
}
