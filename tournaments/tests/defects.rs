//! Issue 12's runner defects, each shown on the real runner: a changed config cannot be
//! resumed into the old results, a missing or never-starting engine fails the run, engines
//! die with a killed runner, a closed stdout ends the run quietly, PSQ files carry
//! Piskvork's end code, 32×32 boards play, and `max_memory` is enforced.

mod common;

use common::*;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wuzi_tournament::config::Config;
use wuzi_tournament::opening;
use wuzi_tournament::psq::Psq;
use wuzi_tournament::record::{Outcome, Reason};
use wuzi_tournament::runner::{self, Options};

fn quiet(dir: &Path, resume: bool) -> Options {
    Options {
        out: dir.join("out"),
        resume,
        overwrite: false,
        gauntlet: false,
        verbose: false,
        report_every: runner::REPORT_EVERY,
    }
}

#[test]
fn resume_refuses_a_changed_config_and_names_each_change() {
    let dir = scratch("fingerprint");
    std::fs::write(dir.join("open.txt"), "h8\nh8i9\nc3\nm12\n").unwrap_or_else(|e| panic!("{e}"));
    let engines = [fake("first", &["first"]), fake("random", &["random", "5"])];
    let head = |rule: u32, ms: u32, seed: u32| {
        format!(
            "board_size = 15\nrule = {rule}\ntimeout_turn_ms = {ms}\ntolerance_ms = 500\nseed = {seed}\nopenings = \"open.txt\"\nopenings_limit = 2\ndraw_after_moves = 30\n"
        )
    };
    let first = write_config(&dir, &head(1, 100, 7), &engines);
    let done = run(&load(&first), &dir, false);
    assert_eq!(done.records.len(), 4);
    let results = dir.join("out/results.jsonl");
    let before = std::fs::read(&results).unwrap_or_else(|e| panic!("{e}"));

    // Issue 12's case: rule 1 → 8, 100 → 5000 ms, seed 7 → 8.
    let changed = write_config(&dir, &head(8, 5000, 8), &engines);
    let err = runner::run(&load(&changed), &quiet(&dir, true))
        .err()
        .unwrap_or_default();
    for part in [
        "rule: 1 in the results, 8 now",
        "timeout_turn_ms: 100 in the results, 5000 now",
        "seed: 7 in the results, 8 now",
        "openings: ",
    ] {
        assert!(err.contains(part), "{part:?} missing from: {err}");
    }
    // Nothing was played or rewritten, and the summary was not relabelled.
    assert_eq!(std::fs::read(&results).ok(), Some(before));

    // One engine's arguments alone are enough to refuse.
    let other_args = [fake("first", &["first"]), fake("random", &["random", "6"])];
    let cfg = write_config(&dir, &head(1, 100, 7), &other_args);
    let err = runner::run(&load(&cfg), &quiet(&dir, true))
        .err()
        .unwrap_or_default();
    assert!(err.contains("engine.2.args"), "{err}");

    // The original config still resumes (and plays nothing).
    let cfg = write_config(&dir, &head(1, 100, 7), &engines);
    let again = run(&load(&cfg), &dir, true);
    assert_eq!(again.records.len(), 4);
    assert!(again.markdown.contains("rule 1, 100 ms per move"));

    // Results without a fingerprint (an older runner's) cannot be checked: refused.
    let text = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("{e}"));
    let games: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&results, games.join("\n") + "\n").unwrap_or_else(|e| panic!("{e}"));
    let err = runner::run(&load(&cfg), &quiet(&dir, true))
        .err()
        .unwrap_or_default();
    assert!(err.contains("no configuration fingerprint"), "{err}");
}

#[test]
fn missing_or_never_starting_engines_fail_the_run() {
    let dir = scratch("nostart");
    // A bare name that is on no PATH folder: refused at load, before any game.
    let missing = "[[engine]]\nname = \"ghost\"\ncommand = \"pbrain-does-not-exist\"\n".to_string();
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 100\n",
        &[fake("first", &["first"]), missing],
    );
    let out = Command::new(RUNNER)
        .args(["run", "--out"])
        .arg(dir.join("out"))
        .arg(&cfg)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("pbrain-does-not-exist") && stderr.contains("PATH"),
        "{stderr}"
    );
    assert!(
        !dir.join("out/results.jsonl").exists(),
        "no game was played"
    );

    // An engine that starts as a process but never answers START: every game is a start
    // failure, and the run says so and exits non-zero (the games are still recorded).
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 100\ntolerance_ms = 100\n",
        &[fake("first", &["first"]), fake("mute", &["nostart"])],
    );
    let out = Command::new(RUNNER)
        .args(["run", "--out"])
        .arg(dir.join("out"))
        .arg(&cfg)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("mute") && stderr.contains("never started"),
        "{stderr}"
    );
    let summary = std::fs::read_to_string(dir.join("out/summary.md")).unwrap_or_default();
    assert!(summary.contains("games played: 2 of 2"), "{summary}");
}

/// Pids of the direct children of `pid` (Linux procfs).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tasks.flatten() {
        let text = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
        out.extend(
            text.split_whitespace()
                .filter_map(|n| n.parse::<u32>().ok()),
        );
    }
    out
}

/// `(state, process group)` from `/proc/<pid>/stat`, `None` once the pid is gone.
fn stat(pid: u32) -> Option<(char, u32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: fields follow the last ')'.
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some((
        fields.first()?.chars().next()?,
        fields.get(2)?.parse().ok()?,
    ))
}

fn alive(pid: u32) -> bool {
    matches!(stat(pid), Some((state, _)) if state != 'Z' && state != 'X')
}

#[cfg(target_os = "linux")]
#[test]
fn engines_die_with_a_killed_runner() {
    let dir = scratch("orphans");
    // `hang` ignores END and EOF alike (it sleeps a minute after its stdin closes); it is
    // black in the first game, so both engines are running while the runner waits for it.
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 30000\ntolerance_ms = 1000\n",
        &[fake("hang", &["hang"]), fake("first", &["first"])],
    );
    let mut runner = Command::new(RUNNER)
        .args(["run", "--out"])
        .arg(dir.join("out"))
        .arg(&cfg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let give_up = Instant::now() + Duration::from_secs(20);
    // Children count once they run the engine (after exec): between fork and exec a child
    // is still a copy of the runner, in the runner's group.
    let fake = std::fs::canonicalize(FAKE).unwrap_or_else(|e| panic!("{e}"));
    let engines = loop {
        let kids: Vec<u32> = children(runner.id())
            .into_iter()
            .filter(|p| std::fs::read_link(format!("/proc/{p}/exe")).ok().as_ref() == Some(&fake))
            .collect();
        if kids.len() >= 2 {
            break kids;
        }
        assert!(Instant::now() < give_up, "the engines never started");
        std::thread::sleep(Duration::from_millis(10));
    };
    // Each engine leads a process group of its own.
    for &pid in &engines {
        assert_eq!(stat(pid).map(|(_, group)| group), Some(pid), "engine {pid}");
    }
    runner.kill().unwrap_or_else(|e| panic!("{e}")); // SIGKILL: no cleanup code runs
    let _ = runner.wait();
    let give_up = Instant::now() + Duration::from_secs(5);
    while engines.iter().any(|&p| alive(p)) {
        assert!(
            Instant::now() < give_up,
            "engines outlived the runner: {:?}",
            engines.iter().filter(|&&p| alive(p)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn closed_stdout_ends_the_run_quietly() {
    let dir = scratch("pipe");
    std::fs::write(dir.join("open.txt"), "h8\nh8i9\nc3\nm12\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 1000\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 20\n",
        &[fake("slow", &["slow", "30"]), fake("first", &["first"])],
    );
    let mut child = Command::new(RUNNER)
        .args(["run", "--out"])
        .arg(dir.join("out"))
        .arg(&cfg)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    // `| head -1`: read one line, then close the pipe.
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let mut first = String::new();
    BufReader::new(stdout)
        .read_line(&mut first)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(first.starts_with("8 games"), "{first}");
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(141), "{stderr}");
    // It stopped early: the run is incomplete and resumable.
    let results = std::fs::read_to_string(dir.join("out/results.jsonl")).unwrap_or_default();
    assert!(results.lines().count() < 9, "{results}");
}

#[test]
fn psq_files_end_with_piskvorks_code() {
    let dir = scratch("psqcode");
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 150\ntolerance_ms = 150\ngauntlet = true\n",
        &[
            fake("first", &["first"]),
            fake("hang", &["hang"]),
            fake("crash", &["crash"]),
            fake("random", &["random", "3"]),
        ],
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.records.len(), 6);
    for r in &done.records {
        let text = std::fs::read_to_string(dir.join("out").join(&r.psq));
        let psq = Psq::parse(&text.unwrap_or_else(|e| panic!("{e}")));
        let psq = psq.unwrap_or_else(|e| panic!("{e}"));
        let code = match r.reason {
            Reason::Timeout => "15",
            Reason::Crash => "-2",
            Reason::Five | Reason::BoardFull | Reason::MoveLimit => "0",
            other => panic!("unexpected {other}: {r:?}"),
        };
        assert_eq!(psq.trailer, [r.black.as_str(), r.white.as_str(), code]);
        let opponent = if r.black == "first" {
            &r.white
        } else {
            &r.black
        };
        match opponent.as_str() {
            "hang" => assert_eq!(r.reason, Reason::Timeout),
            "crash" => assert_eq!(r.reason, Reason::Crash),
            _ => assert!(!r.reason.is_failure(), "{r:?}"),
        }
    }
}

#[test]
fn a_32_board_plays_with_stones_beyond_column_26() {
    assert_eq!(opening::parse_line("15,15", 32), Ok(vec![(31, 31)]));
    let dir = scratch("board32");
    std::fs::write(dir.join("open.txt"), "15,15, -16,-16\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 32\ntimeout_turn_ms = 300\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 24\n",
        &[fake("first", &["first"]), fake("random", &["random", "9"])],
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.records.len(), 2);
    for r in &done.records {
        assert!(!r.reason.is_failure(), "{r:?}");
        assert!(r.moves > 2, "{r:?}");
        let text = std::fs::read_to_string(dir.join("out").join(&r.psq)).unwrap_or_default();
        assert!(text.starts_with("Piskvorky 32x32,"), "{text}");
        let psq = Psq::parse(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((psq.moves[0].x, psq.moves[0].y), (32, 32));
        assert_eq!((psq.moves[1].x, psq.moves[1].y), (1, 1));
        assert_eq!(psq.moves.len(), r.moves);
    }
}

#[test]
fn memory_over_the_limit_loses() {
    let dir = scratch("memory");
    let engines = [fake("first", &["first"]), fake("hog", &["hog", "192"])];
    // 64 MiB: `hog` touches 192 MiB before its first move; `first` needs a few MiB.
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 2000\ntolerance_ms = 1000\nmax_memory = 67108864\n",
        &engines,
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.records.len(), 2);
    for r in &done.records {
        let side = r.side_of("hog").unwrap_or_else(|| panic!("hog"));
        assert_eq!(r.outcome, Outcome::win_for(side.other()), "{r:?}");
        assert_eq!(r.reason, Reason::Memory, "{r:?}");
        assert!(r.detail.contains("over the limit of 64.0 MiB"), "{r:?}");
        assert_eq!(r.side(side).moves, 0, "{r:?}");
    }
    assert!(
        done.markdown.contains("| hog | memory limit | 2 |"),
        "{}",
        done.markdown
    );
    assert!(done.markdown.contains("| memory limit | 2 |"));

    // memory_limit = 0: the same engine plays on (max_memory is still sent). A folder of its
    // own, as a fresh run refuses one with finished games.
    let dir = scratch("memory-unlimited");
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 2000\ntolerance_ms = 1000\nmax_memory = 67108864\nmemory_limit = 0\n",
        &engines,
    );
    let loaded: Config = load(&cfg);
    assert_eq!(loaded.settings.memory_limit, 0);
    let done = run(&loaded, &dir, false);
    for r in &done.records {
        assert_ne!(r.reason, Reason::Memory, "{r:?}");
        let side = r.side_of("hog").unwrap_or_else(|| panic!("hog"));
        assert!(r.side(side).moves > 0, "{r:?}");
        let peak = r.side(side).peak_rss_kib.unwrap_or(0);
        assert!(peak > 150 * 1024, "hog peaked at {peak} KiB");
    }
}

/// A long run can be followed: with `--report-every 0` the summary and the report are
/// rewritten after every game, so while the run goes on `summary.md` already counts some of
/// its games and not all; each file is replaced whole (no temporary file is left, and one a
/// killed run left is removed), and at the end both count every game.
#[test]
fn reports_are_rewritten_while_the_run_goes_on() {
    let dir = scratch("live");
    std::fs::write(dir.join("open.txt"), "h8\nh8i9\nc3\nm12\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 1000\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 20\n",
        &[fake("slow", &["slow", "40"]), fake("first", &["first"])],
    );
    // A report's temporary copy left by a run killed mid-write goes; other files stay.
    std::fs::create_dir_all(dir.join("out")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("out/report.html.tmp"), "half a page")
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("out/notes.tmp"), "mine").unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new(RUNNER)
        .args(["run", "--report-every", "0", "--out"])
        .arg(dir.join("out"))
        .arg(&cfg)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let summary = dir.join("out/summary.md");
    let mut seen: Vec<usize> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
        let text = std::fs::read_to_string(&summary).unwrap_or_default();
        if let Some(k) = text
            .lines()
            .find_map(|l| l.strip_prefix("- games played: "))
            .and_then(|rest| rest.strip_suffix(" of 8"))
            .and_then(|k| k.parse().ok())
        {
            if !seen.contains(&k) {
                seen.push(k);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    assert!(status.success(), "{stderr}");
    assert!(
        seen.iter().any(|&k| k > 0 && k < 8),
        "no report in mid-run: saw {seen:?}"
    );
    let text = std::fs::read_to_string(&summary).unwrap_or_default();
    assert!(text.contains("- games played: 8 of 8"), "{text}");
    let html = std::fs::read_to_string(dir.join("out/report.html")).unwrap_or_default();
    assert!(html.contains("; 8 of 8 games played.</p>"), "{html}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("out"))
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(leftovers, ["notes.tmp"]);
}
