//! Shards: one tournament split over many processes or machines, and merged back.
//!
//! `--shard K/N` (K from 0 to N−1, the way Slurm array and Kubernetes Indexed Job indices
//! count) plays the games whose number g has (g − 1) mod N = K: a fixed slice, the same on
//! every machine, that interleaves pairs and openings so each shard is a fair sample. Each
//! shard writes its own output folder, whose `results.jsonl` header names the shard and the
//! configuration's fingerprint. [`merge`] reads such folders (without changing them), refuses
//! journals of different configurations or holding the same game twice, and writes one
//! `results.jsonl`, `summary.md`, `games/` (PSQ and SGF), `games.sgf` and `report.html`
//! for the whole tournament; it may replace an earlier merge, never a run's journal.

use crate::fingerprint::{Fingerprint, Header};
use crate::html;
use crate::journal::{self, Journal};
use crate::outdir;
use crate::record::GameRecord;
use crate::report::Summary;
pub use crate::schedule::Shard;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A merged tournament.
#[derive(Clone, Debug)]
pub struct Merged {
    /// Every game of every journal, in game order.
    pub records: Vec<GameRecord>,
    /// Games in the whole schedule.
    pub total: usize,
    /// Scheduled games no journal holds.
    pub missing: Vec<usize>,
    /// Totals over `records`.
    pub summary: Summary,
    /// `summary.md` as written.
    pub markdown: String,
}

/// A merge may replace an earlier merge's `results.jsonl` (its games are copies of the
/// shards'), but never a run's own journal with finished games: that is their only copy.
fn refuse_a_runs_journal(out: &Path) -> Result<(), String> {
    let path = out.join("results.jsonl");
    let (records, header) = journal::existing(&path)?;
    if records.is_empty() || header.is_some_and(|h| h.merged) {
        return Ok(());
    }
    Err(format!(
        "{} holds {} finished games of a run, not of a merge, and merging there would delete \
         them: choose a new --out folder",
        path.display(),
        records.len()
    ))
}

/// Merges the output folders `dirs` (each with a `results.jsonl`) into `out`.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, String> {
    if dirs.is_empty() {
        return Err("merge needs at least one results folder".into());
    }
    // Writing the merge into one of its inputs would overwrite that shard's journal.
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if let Some(d) = dirs.iter().find(|d| same(d, out)) {
        return Err(format!(
            "--out {} is one of the folders to merge; choose a new folder",
            d.display()
        ));
    }
    refuse_a_runs_journal(out)?;
    let mut first: Option<(PathBuf, Header)> = None;
    // Game number -> (record, folder it came from).
    let mut games: BTreeMap<usize, (GameRecord, PathBuf)> = BTreeMap::new();
    for dir in dirs {
        let path = dir.join("results.jsonl");
        let (records, recovery) = journal::read(&path)?;
        let header = recovery.header.ok_or_else(|| {
            format!(
                "{} has no configuration fingerprint (written by an older runner?); cannot tell \
                 which tournament its games belong to",
                path.display()
            )
        })?;
        match &first {
            None => first = Some((dir.clone(), header)),
            Some((d0, h0)) => {
                let diffs = h0.fingerprint.differences(&header.fingerprint);
                if !diffs.is_empty() {
                    return Err(format!(
                        "{} and {} are results of different configurations ({}): refusing to merge",
                        d0.display(),
                        dir.display(),
                        diffs
                            .join("; ")
                            .replace("in the results", "in the first")
                            .replace(" now", " in the other")
                    ));
                }
            }
        }
        for r in records {
            if let Some((_, other)) = games.get(&r.game) {
                return Err(format!(
                    "game {} is in both {} and {}: refusing to count it twice (were two shards run with the same index?)",
                    r.game,
                    other.display(),
                    dir.display()
                ));
            }
            games.insert(r.game, (r, dir.clone()));
        }
    }
    let Some((_, header)) = first else {
        return Err("no journal read".into());
    };
    let fp = &header.fingerprint;
    let total = fp.total_games().unwrap_or(games.len());
    if let Some(&g) = games.keys().find(|&&g| g == 0 || g > total) {
        return Err(format!("game {g} is outside the schedule of {total} games"));
    }
    let missing: Vec<usize> = (1..=total).filter(|g| !games.contains_key(g)).collect();

    let games_dir = out.join("games");
    std::fs::create_dir_all(&games_dir)
        .map_err(|e| format!("cannot create {}: {e}", games_dir.display()))?;
    // An earlier merge's game files go with its journal: none may sit beside this merge's
    // records under a number this merge does not hold.
    outdir::clear(&games_dir, "psq")?;
    outdir::clear(&games_dir, "sgf")?;
    let mut journal = Journal::create(&out.join("results.jsonl"))?;
    journal.write_header(&Header {
        merged: true,
        ..Header::new(fp.clone(), None)
    })?;
    let mut records = Vec::with_capacity(games.len());
    for (record, dir) in games.into_values() {
        // The game file travels with its record (best effort: a shard may have lost it).
        let from = dir.join(&record.psq);
        if from.is_file() {
            let to = out.join(&record.psq);
            std::fs::copy(&from, &to)
                .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))?;
        }
        journal.append(&record)?;
        records.push(record);
    }

    let names = fp.engine_names();
    let mut summary = Summary::new(&names, &records);
    summary.renju = fp.renju();
    summary.odds = fp.engine_odds();
    let markdown = summary.markdown(&header_lines(fp, dirs, &missing), total);
    outdir::write_whole(&out.join(outdir::SUMMARY), markdown.as_bytes())?;
    // What a run writes besides: each game's SGF (from its record, so a shard that lost its
    // files loses no SGF), the collection and the report (without an SPRT: it needs the
    // config).
    let title = format!("Tournament: merged from {} journals", dirs.len());
    if let Some(conditions) = html::Conditions::of_fingerprint(fp, title) {
        for record in &records {
            outdir::write_sgf(
                &games_dir,
                record,
                conditions.board_size,
                conditions.rule_bits,
            )?;
        }
        outdir::write_extras(out, &conditions, &records, &summary, None)?;
    }
    Ok(Merged {
        records,
        total,
        missing,
        summary,
        markdown,
    })
}

fn header_lines(fp: &Fingerprint, dirs: &[PathBuf], missing: &[usize]) -> Vec<String> {
    let shown: Vec<String> = dirs.iter().map(|d| format!("`{}`", d.display())).collect();
    let settings: Vec<String> =
        fp.0.iter()
            .filter(|(k, _)| !k.starts_with("engine"))
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
    let engines: Vec<String> = (1..=fp.engine_names().len())
        .map(|i| {
            let get = |what: &str| {
                fp.0.get(&format!("engine.{i}.{what}"))
                    .cloned()
                    .unwrap_or_default()
            };
            format!("{} = {} {}", get("name"), get("command"), get("args"))
        })
        .collect();
    let mut lines = vec![
        format!("merged from {} journals: {}", dirs.len(), shown.join(", ")),
        format!("settings: {}", settings.join(", ")),
        format!("engines: {}", engines.join(", ")),
    ];
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().take(20).map(usize::to_string).collect();
        let more = if missing.len() > 20 { ", …" } else { "" };
        lines.push(format!(
            "missing games ({}): {}{more}",
            missing.len(),
            list.join(", ")
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_slice() {
        assert_eq!(Shard::parse("0/4"), Ok(Shard { index: 0, count: 4 }));
        assert_eq!(Shard::parse(" 3 / 4 "), Ok(Shard { index: 3, count: 4 }));
        for bad in ["4/4", "1/0", "a/2", "1", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        // Every game lands in exactly one of the shards.
        for n in 1..6 {
            for g in 1..40 {
                let owners = (0..n)
                    .filter(|&k| Shard { index: k, count: n }.contains(g))
                    .count();
                assert_eq!(owners, 1, "game {g} of {n} shards");
            }
        }
        let s = crate::schedule::build(3, 2, 2, false);
        let part = Shard { index: 1, count: 4 }.slice(s);
        let games: Vec<usize> = part.iter().map(|p| p.game).collect();
        assert_eq!(games, [2, 6, 10]);
    }
}
