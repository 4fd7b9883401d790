//! Engine output lines as Gomocup's referee reads them: split at `\n` only (a `\r` before it
//! belongs to the ending), capped in length.
//!
//! This is the manager-side counterpart of `gomocup_protocol::LineReader`, which also ends a
//! line at a lone `\r` because a brain should accept that from a manager. A manager must not:
//! GomocupJudge (Python `readline`) and c-gomoku-cli split at `\n` only, and real engines
//! print raw bytes inside `MESSAGE` lines (PentaZen writes its search depth as a byte, so
//! depth 13 is a bare `\r`). Splitting there would turn the tail of a message into a bogus
//! reply and forfeit a game those managers score normally.

use std::io::{self, BufRead};

/// Longest line kept; longer lines are reported as over-long and their bytes dropped.
pub const LINE_CAP: usize = 64 * 1024;

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line without its `\n` / `\r\n` ending, lossily decoded.
    Text(String),
    /// A line longer than [`LINE_CAP`].
    Overlong,
}

/// Reads `\n`-terminated lines of at most `cap` bytes.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    cap: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the default cap.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_cap(inner, LINE_CAP)
    }

    /// A reader keeping at most `cap` bytes per line.
    pub fn with_cap(inner: R, cap: usize) -> LineReader<R> {
        LineReader { inner, cap }
    }

    /// The next line, `None` at end of input (an unterminated last line is still a line).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        let mut overlong = false;
        let mut seen = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(seen.then(|| finish(buf, overlong)));
            }
            seen = true;
            let (body, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            let room = self.cap.saturating_sub(buf.len());
            overlong |= body.len() > room;
            buf.extend_from_slice(&body[..body.len().min(room)]);
            let used = done.unwrap_or(chunk.len());
            self.inner.consume(used);
            if done.is_some() {
                return Ok(Some(finish(buf, overlong)));
            }
        }
    }
}

fn finish(mut buf: Vec<u8>, overlong: bool) -> Line {
    if overlong {
        return Line::Overlong;
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Line::Text(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        // A 3-byte buffer puts line ends across refills.
        let mut r = LineReader::with_cap(io::BufReader::with_capacity(3, input), cap);
        let mut out = Vec::new();
        while let Ok(Some(l)) = r.next_line() {
            out.push(l);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn splits_at_lf_and_crlf_only() {
        assert_eq!(
            lines(b"OK\r\nMESSAGE dep \r- ev 5\n7,7", 100),
            [text("OK"), text("MESSAGE dep \r- ev 5"), text("7,7")]
        );
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\n1,2\n");
        assert_eq!(lines(&input, 10), [Line::Overlong, text("1,2")]);
        assert_eq!(lines(b"abcd\n", 4), [text("abcd")]);
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily() {
        assert_eq!(lines(b"MESSAGE \xff\n", 100), [text("MESSAGE \u{fffd}")]);
    }
}
