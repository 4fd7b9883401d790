//! `results.jsonl`: the tournament's durable state. Each finished game is appended as one
//! line and fsynced before the runner moves on, so a `kill -9` at any moment loses at most
//! the games still being played. A torn last line (the kill landed mid-write) is cut off on
//! resume instead of being mistaken for data or corrupting the next append. The first line
//! is a [`Header`]: the fingerprint of the configuration (and the shard) that wrote the file.

use crate::fingerprint::Header;
use crate::record::GameRecord;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

/// An open results file, positioned for appending.
#[derive(Debug)]
pub struct Journal {
    file: File,
}

/// What resuming found besides the valid records.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Bytes of an unterminated last line that were cut off.
    pub torn_bytes: u64,
    /// Complete lines that were not valid records (left in place, their games replayed).
    pub bad_lines: Vec<usize>,
    /// The file's header line, if it has one.
    pub header: Option<Header>,
}

impl Journal {
    /// Starts an empty results file, replacing an old one.
    pub fn create(path: &Path) -> Result<Journal, String> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Journal { file })
    }

    /// Opens an existing results file (or starts one), returning the finished games in file
    /// order. A record for a game number seen earlier in the file is ignored (the first wins).
    pub fn resume(path: &Path) -> Result<(Journal, Vec<GameRecord>, Recovery), String> {
        let err = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(err)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(err)?;
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut recovery = Recovery::default();
        if complete < bytes.len() {
            recovery.torn_bytes = (bytes.len() - complete) as u64;
            file.set_len(complete as u64).map_err(err)?;
            file.sync_data().map_err(err)?;
        }
        let records = parse(&bytes[..complete], &mut recovery);
        Ok((Journal { file }, records, recovery))
    }

    /// Writes the header line; the first thing in a new file.
    pub fn write_header(&mut self, header: &Header) -> Result<(), String> {
        let mut line = serde_json::to_vec(header).map_err(|e| e.to_string())?;
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write results: {e}"))
    }

    /// Appends one record as a single write of one line, then fsyncs.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), String> {
        let mut line = serde_json::to_vec(record).map_err(|e| e.to_string())?;
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write results: {e}"))
    }
}

/// Reads a results file without changing it (an unterminated last line is ignored): the
/// records, and what else was found.
pub fn read(path: &Path) -> Result<(Vec<GameRecord>, Recovery), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut recovery = Recovery {
        torn_bytes: (bytes.len() - complete) as u64,
        ..Recovery::default()
    };
    let records = parse(&bytes[..complete], &mut recovery);
    Ok((records, recovery))
}

/// [`read`] of a results file that may not exist: its finished games and its header, or
/// none of either when there is no file.
pub fn existing(path: &Path) -> Result<(Vec<GameRecord>, Option<Header>), String> {
    if !path.exists() {
        return Ok((Vec::new(), None));
    }
    let (records, recovery) = read(path)?;
    Ok((records, recovery.header))
}

/// The records of complete lines, first record of a game number wins; the header and
/// unreadable line numbers go to `recovery`.
fn parse(bytes: &[u8], recovery: &mut Recovery) -> Vec<GameRecord> {
    let mut records: Vec<GameRecord> = Vec::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<GameRecord>(line) {
            Ok(r) if !records.iter().any(|o| o.game == r.game) => records.push(r),
            Ok(_) => {}
            Err(_) => match Header::parse(line) {
                Some(h) if recovery.header.is_none() => recovery.header = Some(h),
                _ => recovery.bad_lines.push(i + 1),
            },
        }
    }
    records
}
