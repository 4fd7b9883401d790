//! A tournament split in four shards, each its own `wuzi-tournament run --shard K/4`
//! process, merges into exactly the tournament one process plays; merging refuses journals
//! of another config and games held twice.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use wuzi_tournament::fingerprint::Header;
use wuzi_tournament::record::GameRecord;
use wuzi_tournament::report::Summary;
use wuzi_tournament::shard;

/// Deterministic engines (fresh processes per game, fixed seeds) and generous limits, so
/// every game ends the same way whichever process plays it.
fn config(dir: &Path, seed_b: &str) -> PathBuf {
    std::fs::write(dir.join("open.txt"), "h8\nh8i9\nc3\n").unwrap_or_else(|e| panic!("{e}"));
    write_config(
        dir,
        "board_size = 15\ntimeout_turn_ms = 3000\ntolerance_ms = 2000\nopenings = \"open.txt\"\ndraw_after_moves = 40\n",
        &[
            fake("first", &["first"]),
            fake("rand-a", &["random", "5"]),
            fake("rand-b", &["random", seed_b]),
        ],
    )
}

fn records(path: &Path) -> (Header, Vec<GameRecord>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header = lines.next().and_then(|l| Header::parse(l.as_bytes()));
    let header = header.unwrap_or_else(|| panic!("{} has no header", path.display()));
    let recs = lines
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (header, recs)
}

/// What decides the standings, without the timings.
fn key(r: &GameRecord) -> (usize, String, String, usize, String, String, usize) {
    (
        r.game,
        r.black.clone(),
        r.white.clone(),
        r.opening,
        r.outcome.to_string(),
        r.reason.to_string(),
        r.moves,
    )
}

fn section<'a>(md: &'a str, from: &str, to: &str) -> &'a str {
    let start = md.find(from).unwrap_or_else(|| panic!("no {from} in {md}"));
    let end = md[start..].find(to).map_or(md.len(), |e| start + e);
    &md[start..end]
}

#[test]
fn four_shard_processes_merge_into_the_whole_tournament() {
    let dir = scratch("shards");
    let cfg = config(&dir, "9");
    // 3 pairs × 3 openings × 2 colours.
    let total = 18;

    let shards: Vec<PathBuf> = (0..4).map(|k| dir.join(format!("shard-{k}"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(k, out)| {
            Command::new(RUNNER)
                .arg("run")
                .arg(&cfg)
                .arg("--out")
                .arg(out)
                .arg("--shard")
                .arg(format!("{k}/4"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Each shard holds its own slice: games k+1, k+5, …
    for (k, out) in shards.iter().enumerate() {
        let (header, recs) = records(&out.join("results.jsonl"));
        assert_eq!(header.shard.map(|s| (s.index, s.count)), Some((k, 4)));
        let games: Vec<usize> = recs.iter().map(|r| r.game).collect();
        let expect: Vec<usize> = (1..=total).filter(|g| (g - 1) % 4 == k).collect();
        assert_eq!(games.len(), expect.len());
        let mut sorted = games.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, expect, "shard {k}");
    }

    let merged_dir = dir.join("merged");
    let out = Command::new(RUNNER)
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged_dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (header, merged) = records(&merged_dir.join("results.jsonl"));
    assert_eq!(header.shard, None);
    let games: Vec<usize> = merged.iter().map(|r| r.game).collect();
    assert_eq!(
        games,
        (1..=total).collect::<Vec<_>>(),
        "every game exactly once"
    );
    let read = |p: PathBuf| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    for r in &merged {
        assert!(merged_dir.join(&r.psq).is_file(), "{}", r.psq);
        // Each game's SGF, as its shard wrote it.
        let sgf = format!("games/{:04}.sgf", r.game);
        assert_eq!(
            read(merged_dir.join(&sgf)),
            read(shards[(r.game - 1) % 4].join(&sgf)),
            "{sgf}"
        );
    }
    let collection = String::from_utf8(read(merged_dir.join("games.sgf"))).unwrap_or_default();
    assert_eq!(collection.matches("(;FF[4]").count(), total);

    // One process, the same games.
    let whole = run(&load(&cfg), &dir, false);
    assert_eq!(whole.records.len(), total);
    let a: Vec<_> = whole.records.iter().map(key).collect();
    let b: Vec<_> = merged.iter().map(key).collect();
    assert_eq!(a, b);
    let names = whole.summary.engines.clone();
    let merged_summary = Summary::new(&names, &merged);
    assert_eq!(merged_summary.tally, whole.summary.tally);
    assert_eq!(merged_summary.pair, whole.summary.pair);
    let md = std::fs::read_to_string(merged_dir.join("summary.md")).unwrap_or_default();
    assert!(
        md.contains(&format!("games played: {total} of {total}")),
        "{md}"
    );
    assert_eq!(
        section(&md, "## Standings", "## Transposition"),
        section(&whole.markdown, "## Standings", "## Transposition")
    );
    // The HTML report too: the same standings, crosstable and endings as one process's, and
    // every game in its table.
    let page = std::fs::read_to_string(merged_dir.join("report.html")).unwrap_or_default();
    let whole_page = std::fs::read_to_string(dir.join("out/report.html")).unwrap_or_default();
    assert_eq!(
        section(&page, "<h2>Standings</h2>", "<h2>Transposition"),
        section(&whole_page, "<h2>Standings</h2>", "<h2>Transposition")
    );
    assert!(page.contains("merged from 4 journals"), "{page}");
    assert_eq!(
        section(&page, "<table id=\"games\">", "</table>")
            .matches("<tr><td>")
            .count(),
        total
    );
}

#[test]
fn merge_refuses_other_configs_and_duplicates() {
    let dir = scratch("merge-refuse");
    let a = dir.join("a");
    let b = dir.join("b");
    std::fs::create_dir_all(&a).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(&b).unwrap_or_else(|e| panic!("{e}"));
    let cfg_a = load(&config(&a, "9"));
    let cfg_b = load(&config(&b, "10"));
    let opts = |d: &Path| wuzi_tournament::runner::Options {
        out: d.join("out"),
        resume: false,
        overwrite: false,
        gauntlet: false,
        verbose: false,
        report_every: wuzi_tournament::runner::REPORT_EVERY,
    };
    let shard0 = shard::Shard::parse("0/6").unwrap_or_else(|e| panic!("{e}"));
    wuzi_tournament::runner::run_shard(&cfg_a, &opts(&a), Some(shard0))
        .unwrap_or_else(|e| panic!("{e}"));
    wuzi_tournament::runner::run_shard(&cfg_b, &opts(&b), Some(shard0))
        .unwrap_or_else(|e| panic!("{e}"));

    // Another engine argument: another tournament.
    let err = shard::merge(&[a.join("out"), b.join("out")], &dir.join("m1"))
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("different configurations") && err.contains("engine.3.args"),
        "{err}"
    );
    // The same shard twice: its games would count double.
    let err = shard::merge(&[a.join("out"), a.join("out")], &dir.join("m2"))
        .err()
        .unwrap_or_default();
    assert!(err.contains("game 1 is in both"), "{err}");
    // The output may not be one of the inputs (it would overwrite that journal).
    let err = shard::merge(&[a.join("out")], &a.join("out"))
        .err()
        .unwrap_or_default();
    assert!(err.contains("is one of the folders to merge"), "{err}");
    // One shard alone merges, and reports what is missing.
    let m = shard::merge(&[a.join("out")], &dir.join("m3")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.records.len(), 3);
    assert_eq!(m.missing.len(), 15);
    assert!(
        m.markdown.contains("games played: 3 of 18"),
        "{}",
        m.markdown
    );
    // A merge may be run again over its own output (its games are copies), and leaves no
    // game file of the earlier merge beside its own...
    let stale = dir.join("m3/games/0099.psq");
    std::fs::write(&stale, "stale").unwrap_or_else(|e| panic!("{e}"));
    let again = shard::merge(&[a.join("out")], &dir.join("m3")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.records.len(), 3);
    assert!(!stale.exists());
    let files = std::fs::read_dir(dir.join("m3/games")).map_or(0, |d| d.count());
    assert_eq!(files, 6, "one PSQ and one SGF per merged game");
    // ...but never over a run's journal, even one it does not read: those games have no
    // other copy, and the folder stays byte for byte.
    let run_journal = b.join("out/results.jsonl");
    let before = std::fs::read(&run_journal).unwrap_or_else(|e| panic!("{e}"));
    let err = shard::merge(&[a.join("out")], &b.join("out"))
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("finished games of a run") && err.contains("new --out folder"),
        "{err}"
    );
    assert_eq!(std::fs::read(&run_journal).ok(), Some(before));
}
