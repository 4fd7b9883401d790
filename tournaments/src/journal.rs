//! `results.jsonl`: the tournament's durable state. Each finished game is appended as one
//! line and fsynced before the runner moves on, so a `kill -9` at any moment loses at most
//! the games still being played. A torn last line (the kill landed mid-write) is cut off on
//! resume instead of being mistaken for data or corrupting the next append.

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
        let mut records: Vec<GameRecord> = Vec::new();
        for (i, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<GameRecord>(line) {
                Ok(r) if !records.iter().any(|o| o.game == r.game) => records.push(r),
                Ok(_) => {}
                Err(_) => recovery.bad_lines.push(i + 1),
            }
        }
        Ok((Journal { file }, records, recovery))
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
