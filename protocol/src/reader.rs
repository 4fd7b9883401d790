//! A line reader with a length cap, for both ends of the pipe.
//!
//! `BufRead::read_line` would grow a `String` without bound and fail on invalid UTF-8;
//! this reader keeps at most `cap` bytes of a line, drops the rest up to the next line end,
//! and hands back raw bytes for the caller to decode lossily.
//!
//! The two ends split lines differently (see [`Endings`]): a brain should accept a lone
//! `\r` from a manager, but a manager must not split a brain's output there.

use std::io::{self, BufRead};

/// Default cap: far above any manager line (piskvork formats into 256 bytes), far below
/// anything that matters for memory.
pub const DEFAULT_LINE_CAP: usize = 64 * 1024;

/// Which bytes end a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Endings {
    /// `\n`, `\r\n` or a lone `\r`: what a brain accepts from a manager, whatever system
    /// the manager runs on.
    #[default]
    Any,
    /// `\n` only, a `\r` just before it being part of the ending: what a manager accepts
    /// from a brain. GomocupJudge (Python `readline`) and c-gomoku-cli split at `\n` only,
    /// and real engines print raw bytes inside `MESSAGE` lines (PentaZen writes its search
    /// depth as a byte, so depth 13 is a bare `\r`); splitting there would turn the tail of
    /// a message into a bogus reply and forfeit a game those managers score normally.
    LfOnly,
}

/// One line read from the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its ending.
    Text(Vec<u8>),
    /// A line longer than the cap; its bytes were dropped.
    Overlong,
}

/// Reads lines of at most `cap` bytes from a `BufRead`.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    cap: usize,
    endings: Endings,
    /// The previous line ended in `\r`, so a `\n` that follows belongs to that ending.
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A brain's reader ([`Endings::Any`]) with the [`DEFAULT_LINE_CAP`].
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_cap(inner, DEFAULT_LINE_CAP)
    }

    /// A manager's reader of engine output ([`Endings::LfOnly`]) with the
    /// [`DEFAULT_LINE_CAP`].
    pub fn manager(inner: R) -> LineReader<R> {
        LineReader::with_cap(inner, DEFAULT_LINE_CAP).endings(Endings::LfOnly)
    }

    /// A brain's reader that keeps at most `cap` bytes per line.
    pub fn with_cap(inner: R, cap: usize) -> LineReader<R> {
        LineReader {
            inner,
            cap,
            endings: Endings::Any,
            after_cr: false,
        }
    }

    /// The same reader splitting lines at `endings`.
    pub fn endings(self, endings: Endings) -> LineReader<R> {
        LineReader { endings, ..self }
    }

    /// The next line, or `None` at end of input. A last line without an ending is returned
    /// as a line.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        let mut overlong = false;
        let mut seen_any = false;
        // Under `LfOnly` a kept line may end in the `\r` of its `\r\n`, which `finish`
        // drops and which does not count against the cap.
        let limit = self.cap + usize::from(self.endings == Endings::LfOnly);
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(if seen_any {
                    Some(self.finish(buf, overlong))
                } else {
                    None
                });
            }
            let mut start = 0;
            if self.after_cr {
                self.after_cr = false;
                if chunk[0] == b'\n' {
                    start = 1;
                }
            }
            let body = &chunk[start..];
            let ends = match self.endings {
                Endings::Any => |b: &u8| *b == b'\n' || *b == b'\r',
                Endings::LfOnly => |b: &u8| *b == b'\n',
            };
            match body.iter().position(ends) {
                Some(i) => {
                    overlong |= take(&mut buf, &body[..i], limit);
                    self.after_cr = body[i] == b'\r';
                    self.inner.consume(start + i + 1);
                    return Ok(Some(self.finish(buf, overlong)));
                }
                None => {
                    seen_any |= !body.is_empty();
                    overlong |= take(&mut buf, body, limit);
                    let n = chunk.len();
                    self.inner.consume(n);
                }
            }
        }
    }
}

impl<R> LineReader<R> {
    fn finish(&self, mut buf: Vec<u8>, overlong: bool) -> Line {
        if self.endings == Endings::LfOnly && buf.last() == Some(&b'\r') {
            buf.pop();
        }
        if overlong || buf.len() > self.cap {
            Line::Overlong
        } else {
            Line::Text(buf)
        }
    }
}

/// Append what fits under the cap; report whether anything was dropped.
fn take(buf: &mut Vec<u8>, bytes: &[u8], cap: usize) -> bool {
    let room = cap.saturating_sub(buf.len());
    let n = room.min(bytes.len());
    buf.extend_from_slice(&bytes[..n]);
    n < bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        // A tiny buffer makes line ends fall across refills, the case that is easy to get wrong.
        let reader = io::BufReader::with_capacity(3, input);
        let mut r = LineReader::with_cap(reader, cap);
        let mut out = Vec::new();
        while let Ok(Some(l)) = r.next_line() {
            out.push(l);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text(s.as_bytes().to_vec())
    }

    #[test]
    fn all_three_line_endings_split_lines() {
        let got = lines(b"A\nB\r\nC\rD", 100);
        assert_eq!(got, vec![text("A"), text("B"), text("C"), text("D")]);
    }

    #[test]
    fn crlf_split_across_refills_is_one_ending() {
        let got = lines(b"AB\r\nCD\r\n\r\nE", 100);
        assert_eq!(got, vec![text("AB"), text("CD"), text(""), text("E")]);
    }

    #[test]
    fn long_lines_are_cut_and_reading_goes_on() {
        let mut input = vec![b'A'; 1000];
        input.extend_from_slice(b"\nSTART 15\n");
        let got = lines(&input, 64);
        assert_eq!(got, vec![Line::Overlong, text("START 15")]);
    }

    fn manager_lines(input: &[u8], cap: usize) -> Vec<Line> {
        let reader = io::BufReader::with_capacity(3, input);
        let mut r = LineReader::with_cap(reader, cap).endings(Endings::LfOnly);
        let mut out = Vec::new();
        while let Ok(Some(l)) = r.next_line() {
            out.push(l);
        }
        out
    }

    #[test]
    fn a_manager_splits_at_lf_and_crlf_only() {
        assert_eq!(
            manager_lines(b"OK\r\nMESSAGE dep \r- ev 5\n7,7\r", 100),
            [text("OK"), text("MESSAGE dep \r- ev 5"), text("7,7")]
        );
        // A `\r\n` across refills, an empty CRLF line, and invalid UTF-8 kept as bytes.
        assert_eq!(
            manager_lines(b"AB\r\n\r\n\xff\n", 100),
            [text("AB"), text(""), Line::Text(vec![0xff])]
        );
    }

    #[test]
    fn a_managers_cap_does_not_count_the_cr_of_crlf() {
        assert_eq!(
            manager_lines(b"ABCD\r\nABCDE\r\nX", 4),
            [text("ABCD"), Line::Overlong, text("X")]
        );
        assert_eq!(manager_lines(b"ABCDE\n", 4), [Line::Overlong]);
        let mut input = vec![b'x'; 50];
        input.extend_from_slice(b"\n1,2\n");
        assert_eq!(manager_lines(&input, 10), [Line::Overlong, text("1,2")]);
    }

    #[test]
    fn a_line_of_exactly_the_cap_is_kept() {
        assert_eq!(lines(b"ABCD\n", 4), vec![text("ABCD")]);
        assert_eq!(lines(b"ABCDE\n", 4), vec![Line::Overlong]);
    }
}
