//! A line reader with a length cap, for the brain's stdin.
//!
//! `BufRead::read_line` would grow a `String` without bound and fail on invalid UTF-8;
//! this reader keeps at most `cap` bytes of a line, drops the rest up to the next line end,
//! and hands back raw bytes for the parser to decode lossily.

use std::io::{self, BufRead};

/// Default cap: far above any manager line (piskvork formats into 256 bytes), far below
/// anything that matters for memory.
pub const DEFAULT_LINE_CAP: usize = 64 * 1024;

/// One line read from the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line without its ending (`\n`, `\r\n` or a lone `\r`).
    Text(Vec<u8>),
    /// A line longer than the cap; its bytes were dropped.
    Overlong,
}

/// Reads lines of at most `cap` bytes from a `BufRead`.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    cap: usize,
    /// The previous line ended in `\r`, so a `\n` that follows belongs to that ending.
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the [`DEFAULT_LINE_CAP`].
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_cap(inner, DEFAULT_LINE_CAP)
    }

    /// A reader that keeps at most `cap` bytes per line.
    pub fn with_cap(inner: R, cap: usize) -> LineReader<R> {
        LineReader {
            inner,
            cap,
            after_cr: false,
        }
    }

    /// The next line, or `None` at end of input. A last line without an ending is returned
    /// as a line. `\n`, `\r\n` and a lone `\r` all end a line.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut buf = Vec::new();
        let mut overlong = false;
        let mut seen_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(if seen_any {
                    Some(finish(buf, overlong))
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
            match body.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    overlong |= take(&mut buf, &body[..i], self.cap);
                    self.after_cr = body[i] == b'\r';
                    self.inner.consume(start + i + 1);
                    return Ok(Some(finish(buf, overlong)));
                }
                None => {
                    seen_any |= !body.is_empty();
                    overlong |= take(&mut buf, body, self.cap);
                    let n = chunk.len();
                    self.inner.consume(n);
                }
            }
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

fn finish(buf: Vec<u8>, overlong: bool) -> Line {
    if overlong {
        Line::Overlong
    } else {
        Line::Text(buf)
    }
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

    #[test]
    fn a_line_of_exactly_the_cap_is_kept() {
        assert_eq!(lines(b"ABCD\n", 4), vec![text("ABCD")]);
        assert_eq!(lines(b"ABCDE\n", 4), vec![Line::Overlong]);
    }
}
