//! `results.jsonl` is the tournament's state: a torn last line (kill mid-write) is cut,
//! finished games are never replayed, and a real `kill -9` of the runner loses no finished
//! game; `--resume` then completes exactly the same schedule.

mod common;

use common::*;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wuzi_tournament::config::Config;
use wuzi_tournament::fingerprint::Header;
use wuzi_tournament::record::GameRecord;
use wuzi_tournament::runner::{self, Options};

fn sane_config(dir: &std::path::Path, slow_ms: &str) -> std::path::PathBuf {
    std::fs::write(dir.join("open.txt"), "h8\nh8i9\nc3\nm12\n").unwrap_or_else(|e| panic!("{e}"));
    write_config(
        dir,
        "board_size = 15\ntimeout_turn_ms = 500\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 24\n",
        &[fake("slowpoke", &["slow", slow_ms]), fake("random", &["random", "11"])],
    )
}

/// The game lines of a results file; the first line must be its header, and the only one.
fn read_records(path: &std::path::Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    assert!(Header::parse(first.as_bytes()).is_some(), "{first}");
    lines
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn game_numbers(records: &[GameRecord]) -> Vec<usize> {
    let mut g: Vec<usize> = records.iter().map(|r| r.game).collect();
    g.sort_unstable();
    g
}

#[test]
fn torn_results_are_repaired_and_finished_games_kept() {
    let dir = scratch("torn");
    let cfg = load(&sane_config(&dir, "0"));
    let first = run(&cfg, &dir, false);
    assert_eq!(first.total, 8);
    let results = dir.join("out/results.jsonl");
    let text = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("{e}"));
    let header = text.lines().next().unwrap_or_default();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines.len(), 8);

    // Keep three games, mark one so a replay would be visible, and tear the fourth line.
    let mut kept: GameRecord = serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}"));
    kept.detail = "kept-marker".to_string();
    let mut damaged = format!("{header}\n");
    damaged.push_str(&serde_json::to_string(&kept).unwrap_or_else(|e| panic!("{e}")));
    damaged.push('\n');
    damaged.push_str(lines[1]);
    damaged.push('\n');
    damaged.push_str(lines[2]);
    damaged.push('\n');
    damaged.push_str(&lines[3][..lines[3].len() / 2]);
    std::fs::write(&results, &damaged).unwrap_or_else(|e| panic!("{e}"));

    let resumed = run(&cfg, &dir, true);
    assert_eq!(resumed.records.len(), 8);
    assert_eq!(game_numbers(&resumed.records), (1..=8).collect::<Vec<_>>());
    let on_disk = read_records(&results);
    assert_eq!(on_disk.len(), 8, "one line per game, the torn one gone");
    assert_eq!(game_numbers(&on_disk), (1..=8).collect::<Vec<_>>());
    let marked = on_disk.iter().find(|r| r.game == kept.game);
    assert_eq!(marked.map(|r| r.detail.as_str()), Some("kept-marker"));
    // The summary counts every game once.
    assert_eq!(resumed.summary.games, 8);

    // Resuming a finished tournament plays nothing and changes nothing.
    let before = std::fs::read(&results).unwrap_or_else(|e| panic!("{e}"));
    let again = run(&cfg, &dir, true);
    assert_eq!(again.records.len(), 8);
    assert_eq!(std::fs::read(&results).ok(), Some(before));

    // Starting over (`--overwrite`) in a folder with more games than it plays leaves none of
    // the old ones.
    let mut small = cfg.clone();
    small.openings.truncate(1);
    let opts = Options {
        out: dir.join("out"),
        resume: false,
        overwrite: true,
        gauntlet: false,
        verbose: false,
        report_every: runner::REPORT_EVERY,
    };
    let fresh = runner::run(&small, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fresh.records.len(), 2);
    assert_eq!(read_records(&results).len(), 2);
    // One PSQ and one SGF per game.
    let games = std::fs::read_dir(dir.join("out/games")).map_or(0, |d| d.count());
    assert_eq!(games, 4);
    assert!(dir.join("out/games/0002.sgf").is_file());
    assert!(!dir.join("out/games/0003.sgf").exists());
    let logs = std::fs::read_dir(dir.join("out/logs")).map_or(0, |d| d.count());
    assert_eq!(logs, 4);
}

#[test]
fn resume_refuses_results_of_another_schedule() {
    let dir = scratch("mismatch");
    let cfg = load(&sane_config(&dir, "0"));
    run(&cfg, &dir, false);
    // Same folder, engines renamed: the stored games no longer match.
    let text = std::fs::read_to_string(dir.join("t.toml")).unwrap_or_else(|e| panic!("{e}"));
    let other = text.replace("slowpoke", "renamed");
    let other = Config::from_toml(&other, &dir).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        out: dir.join("out"),
        resume: true,
        overwrite: false,
        gauntlet: false,
        verbose: false,
        report_every: runner::REPORT_EVERY,
    };
    let err = runner::run(&other, &opts).err().unwrap_or_default();
    assert!(err.contains("does not match"), "{err}");
}

#[test]
fn kill_9_loses_no_finished_game() {
    let dir = scratch("kill");
    let cfg_path = sane_config(&dir, "40");
    let out = dir.join("out");
    let results = out.join("results.jsonl");
    let mut child = Command::new(RUNNER)
        .arg("run")
        .arg(&cfg_path)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let give_up = Instant::now() + Duration::from_secs(60);
    loop {
        // The header line, then two games.
        let n = std::fs::read_to_string(&results).map_or(0, |t| t.lines().count());
        if n >= 3 {
            break;
        }
        assert!(Instant::now() < give_up, "no game finished");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap_or_else(|e| panic!("{e}")); // SIGKILL on Unix
    let _ = child.wait();
    let text = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("{e}"));
    let complete: Vec<&str> = text
        .lines()
        .filter(|l| serde_json::from_str::<GameRecord>(l).is_ok())
        .collect();
    assert!(
        complete.len() >= 2 && complete.len() < 8,
        "{} games",
        complete.len()
    );

    let status = Command::new(RUNNER)
        .arg("run")
        .arg(&cfg_path)
        .arg("--out")
        .arg(&out)
        .arg("--resume")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success());
    let after = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("{e}"));
    // The header and the games finished before the kill are still there, byte for byte,
    // in front.
    assert_eq!(after.lines().next(), text.lines().next());
    for (i, line) in complete.iter().enumerate() {
        assert_eq!(after.lines().nth(i + 1), Some(*line));
    }
    let records = read_records(&results);
    assert_eq!(game_numbers(&records), (1..=8).collect::<Vec<_>>());
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap_or_else(|e| panic!("{e}"));
    assert!(summary.contains("games played: 8 of 8"), "{summary}");
}

/// The command of a long run typed again without `--resume` must not wipe it: the runner
/// refuses, names both ways on, and leaves the folder byte for byte; `--overwrite` starts
/// over, and a folder whose file holds no finished game needs neither.
#[test]
fn a_fresh_run_refuses_a_folder_with_finished_games() {
    let dir = scratch("refuse");
    let cfg_path = sane_config(&dir, "0");
    let out = dir.join("out");
    let results = out.join("results.jsonl");
    let runner = |extra: &[&str]| {
        Command::new(RUNNER)
            .arg("run")
            .arg(&cfg_path)
            .arg("--out")
            .arg(&out)
            .args(extra)
            .stdout(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert!(runner(&[]).status.success());
    let before = std::fs::read(&results).unwrap_or_else(|e| panic!("{e}"));
    let games_before = std::fs::read_dir(out.join("games"))
        .unwrap_or_else(|e| panic!("{e}"))
        .count();
    assert_eq!(read_records(&results).len(), 8);

    let again = runner(&[]);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("already holds 8 finished games"), "{err}");
    assert!(
        err.contains("--resume") && err.contains("--overwrite"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&results).unwrap_or_else(|e| panic!("{e}")),
        before
    );
    let games_after = std::fs::read_dir(out.join("games"))
        .unwrap_or_else(|e| panic!("{e}"))
        .count();
    assert_eq!(games_after, games_before);

    // The two ways on cannot be asked for at once.
    assert!(!runner(&["--resume", "--overwrite"]).status.success());
    assert_eq!(
        std::fs::read(&results).unwrap_or_else(|e| panic!("{e}")),
        before
    );

    // Starting over replaces the file with a new run of the whole schedule.
    assert!(runner(&["--overwrite"]).status.success());
    let records = read_records(&results);
    assert_eq!(game_numbers(&records), (1..=8).collect::<Vec<_>>());

    // A file with a header and no finished game loses nothing: a plain run goes ahead.
    let header = std::fs::read_to_string(&results)
        .unwrap_or_else(|e| panic!("{e}"))
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    std::fs::write(&results, format!("{header}\n")).unwrap_or_else(|e| panic!("{e}"));
    assert!(runner(&[]).status.success());
    assert_eq!(read_records(&results).len(), 8);
}
