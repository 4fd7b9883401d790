//! The files of an output folder that more than one command writes (`run`, `merge`, and the
//! judge's logs): listing and clearing a kind of file, each game's SGF, and the reports
//! (`summary.md`, `games.sgf`, `report.html`), each replaced whole so that a reader never
//! sees half of one.

use crate::record::GameRecord;
use crate::report::Summary;
use crate::{html, sgf, sprt};
use std::path::{Path, PathBuf};

/// Removes the files with extension `ext` that a run writes into `dir` (and nothing else).
pub(crate) fn clear(dir: &Path, ext: &str) -> Result<(), String> {
    for path in files_with_ext(dir, ext)? {
        std::fs::remove_file(&path)
            .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The files with extension `ext` directly in the folder `dir`.
pub(crate) fn files_with_ext(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    Ok(entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|x| x == ext) && path.is_file())
        .collect())
}

/// `games/NNNN.sgf` beside the PSQ, for a game played on a board of `size` under `rule_bits`
/// (a run's and a merge's).
pub(crate) fn write_sgf(
    dir: &Path,
    record: &GameRecord,
    size: usize,
    rule_bits: u32,
) -> Result<(), String> {
    let path = dir.join(format!("{:04}.sgf", record.game));
    std::fs::write(&path, sgf::game(record, size, rule_bits))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The run's summary table (Markdown), rewritten whole as the run goes on.
pub const SUMMARY: &str = "summary.md";
/// Every game in one SGF collection, rewritten whole as the run goes on.
pub const COLLECTION: &str = "games.sgf";
/// The HTML report, rewritten whole as the run goes on.
pub const REPORT: &str = "report.html";
/// The reports a run rewrites whole (`write_whole`) in its output folder: the files whose
/// temporary copies `clear_temporaries` sweeps. Every writer names them by these constants.
pub const REPORTS: [&str; 3] = [SUMMARY, COLLECTION, REPORT];

/// Where `write_whole` writes `path` before the rename.
fn temporary(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Removes the temporary copies of the reports that a run killed in the middle of a write
/// left in `out` (no other file).
pub(crate) fn clear_temporaries(out: &Path) -> Result<(), String> {
    for name in REPORTS {
        let tmp = temporary(&out.join(name));
        if tmp.is_file() {
            std::fs::remove_file(&tmp)
                .map_err(|e| format!("cannot remove {}: {e}", tmp.display()))?;
        }
    }
    Ok(())
}

/// Write `bytes` to `path` through a temporary file beside it and a rename, so a reader (a
/// browser refreshing the report while the run goes on) never sees half a file.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = temporary(path);
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `games.sgf` (every game in one collection, in game order) and `report.html` (a run's and
/// a merge's).
pub(crate) fn write_extras(
    out: &Path,
    conditions: &html::Conditions,
    records: &[GameRecord],
    summary: &Summary,
    sprt: Option<&sprt::Tracker>,
) -> Result<(), String> {
    let all: String = records
        .iter()
        .map(|r| sgf::game(r, conditions.board_size, conditions.rule_bits))
        .collect();
    write_whole(&out.join(COLLECTION), all.as_bytes())?;
    let page = html::report(conditions, records, summary, sprt);
    write_whole(&out.join(REPORT), page.as_bytes())
}
