//! `wuzi-tournament judge`: the wire lines both engines get, every engine fault, the five
//! that needs no judge, the files and the exit status; then the workspace's own
//! `pbrain-wuzi` as engine and as judge (built here by `cargo build` if needed). No
//! third-party engine is involved.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use wuzi_tournament::config::EngineSpec;
use wuzi_tournament::judge::{self, positions, Options, Verdict};

/// White to move must block black's four at jf (9,5) (and has an open three, column k, so
/// the block leaves it well placed); pp is the game's (losing) move.
const BLOCK: &str = "BLOCK | ff ef gf kk hf kl aa km at mm if | pp | jf | block the four";
/// White to move has a four (column k, rows 10-13): kj or ko makes five.
const WIN: &str = "WIN | dd kk fd kl hd km dp kn pp | - | ko | own five";

fn options(engine: EngineSpec, judge: EngineSpec, log_dir: Option<PathBuf>) -> Options {
    Options {
        engine,
        judge: Some(judge),
        size: 20,
        rule_bits: 0,
        turn_ms: 500,
        engine_nodes: None,
        judge_nodes: 20_000,
        judge_turn_ms: 5_000,
        judge_threads: 1,
        tolerance_ms: 1000,
        lenient_replies: false,
        max_memory: 350_000_000,
        threshold: -300,
        concurrency: 1,
        log_dir,
        progress: false,
    }
}

fn run(opts: &Options, lines: &[&str]) -> Vec<Verdict> {
    let list = positions::parse(&lines.join("\n"), 20, FREESTYLE).unwrap_or_else(|e| panic!("{e}"));
    judge::run(opts, &list).unwrap_or_else(|e| panic!("{e}"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn managers_lines_and_the_judges_view() {
    let dir = scratch("judge-wire");
    let opts = options(
        spec("engine", FAKE, &["script", "15,15"]),
        says("+M1"),
        Some(dir.clone()),
    );
    let v = run(&opts, &[BLOCK]);
    let v = &v[0];
    assert_eq!(v.engine_move.as_deref(), Some("pp"));
    assert_eq!(v.judge_raw.as_deref(), Some("+M1"));
    assert_eq!(v.score.as_deref(), Some("-M1"));
    assert_eq!(v.score_mate, Some(-1));
    assert!(!v.avoided && v.engine_fault.is_none() && v.judge_fault.is_none());

    // The engine is white (one stone fewer): black's stones are the opponent's (2).
    let engine = read(&dir.join("BLOCK-engine.log"));
    let want = "> START 20\n< OK\n> INFO timeout_turn 500\n> INFO timeout_match 0\n\
                > INFO max_memory 350000000\n> INFO rule 0\n> INFO game_type 2\n\
                > INFO time_left 2147483647\n> BOARD\n> 5,5,2\n> 4,5,1\n> 6,5,2\n> 10,10,1\n\
                > 7,5,2\n> 10,11,1\n> 0,0,2\n> 10,12,1\n> 0,19,2\n> 12,12,1\n> 8,5,2\n> DONE\n";
    assert!(engine.contains(want), "{engine}");
    // The judge is black, to move after white's pp: its own stones are black's.
    let judge = read(&dir.join("BLOCK-judge.log"));
    let want = "> INFO game_type 2\n> INFO max_node 20000\n> INFO thread_num 1\n\
                > INFO time_left 2147483647\n> BOARD\n> 5,5,1\n> 4,5,2\n> 6,5,1\n> 10,10,2\n\
                > 7,5,1\n> 10,11,2\n> 0,0,1\n> 10,12,2\n> 0,19,1\n> 12,12,2\n> 8,5,1\n\
                > 15,15,2\n> DONE\n";
    assert!(judge.contains(want), "{judge}");
    assert!(judge.contains("> INFO timeout_turn 5000\n"), "{judge}");
}

#[test]
fn faults_count_as_not_avoided() {
    let judge = says("-120");
    let cases = [
        ("crash", vec!["crash"], "crash"),
        ("offboard", vec!["offboard"], "illegal"),
        ("garbage", vec!["garbage"], "malformed"),
        ("hang", vec!["hang"], "timeout"),
        ("nostart", vec!["nostart"], "start failed"),
    ];
    for (name, args, kind) in cases {
        let mut opts = options(spec("engine", FAKE, &args), judge.clone(), None);
        opts.turn_ms = 100;
        opts.tolerance_ms = 300;
        let v = run(&opts, &[BLOCK]);
        let fault = v[0]
            .engine_fault
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: {v:?}"));
        assert_eq!(fault.kind, kind, "{name}: {fault:?}");
        assert!(!v[0].avoided && v[0].judge_ms.is_none(), "{name}: {v:?}");
    }

    // A judge score above the threshold: avoided (the judge's -120 is +120 for white).
    let v = run(
        &options(spec("e", FAKE, &["script", "9,5"]), judge, None),
        &[BLOCK],
    );
    assert_eq!((v[0].score.as_deref(), v[0].avoided), (Some("+120"), true));

    // A judge that prints no score is a judge fault, not a verdict.
    let silent = spec("judge", FAKE, &["first"]);
    let v = run(
        &options(spec("e", FAKE, &["script", "9,5"]), silent, None),
        &[BLOCK],
    );
    let fault = v[0].judge_fault.as_ref().unwrap_or_else(|| panic!("{v:?}"));
    assert_eq!(fault.kind, "no score");
    assert!(!v[0].avoided);
}

#[test]
fn noise_is_malformed_unless_replies_are_lenient() {
    // The fake's noise is a message with a raw newline inside: its tail, `- eval 7`, is a
    // line that is no protocol response (PentaZen prints its depth byte that way).
    for lenient in [false, true] {
        let mut opts = options(spec("engine", FAKE, &["noisy"]), says("-120"), None);
        opts.lenient_replies = lenient;
        let v = run(&opts, &[BLOCK]);
        if lenient {
            assert!(v[0].engine_fault.is_none(), "{v:?}");
            assert!(v[0].engine_move.is_some() && v[0].score.is_some(), "{v:?}");
        } else {
            let fault = v[0]
                .engine_fault
                .as_ref()
                .unwrap_or_else(|| panic!("{v:?}"));
            assert_eq!(
                (fault.kind.as_str(), fault.detail.as_str()),
                ("malformed", "- eval 7")
            );
            assert!(!v[0].avoided);
        }
    }
}

#[test]
fn a_five_needs_no_judge() {
    // A hanging judge would cost its whole timeout if it were asked.
    let opts = options(
        spec("engine", FAKE, &["script", "10,14"]),
        spec("judge", FAKE, &["hang"]),
        None,
    );
    let v = run(&opts, &[WIN]);
    assert_eq!(v[0].engine_move.as_deref(), Some("ko"));
    assert_eq!((v[0].score.as_deref(), v[0].avoided), (Some("+M0"), true));
    assert!(v[0].judge_ms.is_none() && v[0].judge_fault.is_none());
}

/// `wuzi-tournament judge --positions FILE ARGS…`, which must succeed: its stdout.
fn judge_cli_ok(file: &Path, args: &[&str]) -> String {
    let out = Command::new(RUNNER)
        .args(["judge", "--positions"])
        .arg(file)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn the_command_prints_and_writes_the_figure() {
    let dir = scratch("judge-cli");
    let file = dir.join("positions.txt");
    // BLOCK2 is BLOCK's position reached in another move order.
    let block2 = "BLOCK2 | gf kk ff ef hf km aa kl at mm if | pp | jf | the same position";
    std::fs::write(&file, format!("# three\n{BLOCK}\n{WIN}\n{block2}\n"))
        .unwrap_or_else(|e| panic!("{e}"));
    let engine = format!("{FAKE} script 15,15 10,14");
    let judge = format!("{FAKE} say Speed|1K|Eval|-M3");
    let out_dir = dir.join("out");
    let stdout = judge_cli_ok(
        &file,
        &[
            "--engine",
            &engine,
            "--judge",
            &judge,
            "--turn-ms",
            "300",
            "--judge-nodes",
            "1000",
            "--threshold",
            "-300",
            "--out",
            &out_dir.to_string_lossy(),
        ],
    );
    // BLOCK: pp, the judge's -M3 is +M3 for white (avoided); WIN: ko is five.
    assert!(
        stdout.contains("| BLOCK | white | pp (= game) |"),
        "{stdout}"
    );
    assert!(
        stdout.contains("avoided 3 of 3 (judge score > -300")
            && stdout.contains("distinct positions: avoided 2 of 2"),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&read(&dir.join("out/judge.json"))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["totals"]["avoided"], 3);
    assert_eq!(json["totals"]["distinct"], 2);
    assert_eq!(json["positions"][2]["same_as"], "BLOCK");
    assert_eq!(json["positions"][0]["score"], "+M3");
    assert_eq!(json["positions"][1]["score_mate"], 0);
    let csv = read(&dir.join("out/judge.csv"));
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(
        csv.lines().nth(3).is_some_and(|l| l.ends_with(",BLOCK")),
        "{csv}"
    );
    assert!(dir.join("out/summary.md").is_file() && dir.join("out/logs/WIN-engine.log").is_file());

    // A second run into the same folder is refused before any engine starts, and leaves
    // the figures as they were; --overwrite replaces them and the earlier engine logs.
    let before = read(&dir.join("out/judge.json"));
    let again = |extra: &[&str]| {
        Command::new(RUNNER)
            .args(["judge", "--positions"])
            .arg(&file)
            .args(["--engine", &engine, "--judge", &judge, "--only", "BLOCK"])
            .args(["--turn-ms", "300", "--out", &out_dir.to_string_lossy()])
            .args(extra)
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let refused = again(&[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("earlier judge run") && stderr.contains("--overwrite"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&refused.stdout).contains("avoided"));
    assert_eq!(read(&dir.join("out/judge.json")), before);
    // An --out that is a file is refused before any engine starts, with or without it.
    let file_out = dir.join("not-a-folder");
    std::fs::write(&file_out, "x").unwrap_or_else(|e| panic!("{e}"));
    let refused = Command::new(RUNNER)
        .args(["judge", "--positions"])
        .arg(&file)
        .args(["--engine", &engine, "--overwrite", "--out"])
        .arg(&file_out)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && stderr.contains("is a file"),
        "{stderr}"
    );
    let replaced = again(&["--overwrite"]);
    assert!(replaced.status.success(), "{replaced:?}");
    let json: serde_json::Value =
        serde_json::from_str(&read(&dir.join("out/judge.json"))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["totals"]["positions"], 1, "{json}");
    assert!(dir.join("out/logs/BLOCK-engine.log").is_file());
    assert!(!dir.join("out/logs/WIN-engine.log").exists());

    // A judge that never scores: everything is printed, and the exit status says so.
    let silent = format!("{FAKE} first");
    let out = Command::new(RUNNER)
        .args(["judge", "--positions"])
        .arg(&file)
        .args(["--engine", &engine, "--judge", &silent, "--only", "BLOCK"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("avoided 0 of 1") && stdout.contains("judge failed 1"),
        "{stdout}"
    );

    // No judge: only the engine is asked; its claims and fives are counted, and no
    // position is scored otherwise.
    let claims = format!("{FAKE} say Speed|1K|Eval|+M5");
    let out_dir = dir.join("nojudge");
    let stdout = judge_cli_ok(
        &file,
        &["--engine", &claims, "--out", &out_dir.to_string_lossy()],
    );
    assert!(
        stdout.contains("no judge: only the engine's own claims and fives are counted"),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(&read(&dir.join("nojudge/judge.json")))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(json["run"]["judge"].is_null(), "{json}");
    let claimed = json["totals"]["claimed_wins"].as_u64().unwrap_or(0);
    let fives = json["totals"]["fives"].as_u64().unwrap_or(0);
    assert!(
        stdout.contains(&format!(
            "no judge: the engine's own score claimed a win in {claimed} of 3; it made five in {fives};"
        )),
        "{stdout}"
    );
    assert_eq!(claimed, 3, "{json}");
    // A position is avoided only by a five, and no row has a judge's score.
    for row in json["positions"].as_array().into_iter().flatten() {
        assert!(
            row["judge_raw"].is_null() && row["judge_fault"].is_null(),
            "{row}"
        );
        assert_eq!(row["avoided"], row["score_mate"] == 0, "{row}");
    }
    assert!(!dir.join("nojudge/logs/BLOCK-judge.log").exists());

    // `mistakes` cannot do without one.
    let out = Command::new(RUNNER)
        .args(["mistakes", "--player", "Wuzi"])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("mistakes needs a judge"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Bad input is refused before any engine starts.
    let out = Command::new(RUNNER)
        .args(["judge", "--positions", "/nonexistent/positions.txt"])
        .args(["--engine", &engine, "--judge", &silent])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/positions.txt"));
}

#[test]
fn wuzi_as_engine_and_judge() {
    let wuzi = pbrain_wuzi().to_string_lossy().into_owned();
    let mut opts = options(spec("engine", &wuzi, &[]), spec("judge", &wuzi, &[]), None);
    // An unoptimised build on a busy machine can overrun 500 ms by far: timing is not tested.
    opts.tolerance_ms = 10_000;
    let v = run(&opts, &[BLOCK, WIN]);
    // It blocks the four, and the judge sees no forced loss for white after that (an
    // optimised judge proves white's own win: its open three comes first).
    assert_eq!(v[0].engine_move.as_deref(), Some("jf"), "{v:?}");
    assert!(
        v[0].avoided && v[0].score_mate.is_none_or(|m| m > 0),
        "{v:?}"
    );
    assert!(
        v[0].engine_eval.is_some(),
        "Wuzi's own MESSAGE depth line is read: {v:?}"
    );
    // It takes its own five.
    assert_eq!(v[1].score.as_deref(), Some("+M0"), "{v:?}");
    assert!(v[1].avoided);

    // Not blocking: Wuzi as judge (black) makes five next move, `eval +29999`, i.e. +M1.
    let opts = options(
        spec("e", FAKE, &["script", "15,15"]),
        spec("judge", &wuzi, &[]),
        None,
    );
    let v = run(&opts, &[BLOCK]);
    assert_eq!(v[0].judge_raw.as_deref(), Some("+M1"), "{v:?}");
    assert_eq!((v[0].score.as_deref(), v[0].avoided), (Some("-M1"), false));
}

#[test]
fn the_engines_own_claims_and_node_limit() {
    let dir = scratch("judge-claims");
    let engine = |score: &str| {
        let line = format!("Depth 7-9 | Eval {score} | Time 3ms");
        spec("engine", FAKE, &["say", &line])
    };
    let mut opts = options(engine("+M5"), says("-200"), Some(dir.clone()));
    opts.engine_nodes = Some(123_456);
    let v = run(&opts, &[BLOCK]);
    assert_eq!(v[0].engine_eval.as_deref(), Some("+M5"));
    assert!(v[0].engine_claims_win, "{v:?}");
    let log = read(&dir.join("BLOCK-engine.log"));
    assert!(log.contains("> INFO max_node 123456\n"), "{log}");

    // A lost mate or a plain score claims nothing; without a limit none is sent.
    let mut claims = Vec::new();
    for score in ["-M4", "+350"] {
        let opts = options(engine(score), says("-200"), Some(dir.clone()));
        let w = run(&opts, &[BLOCK]);
        assert!(!w[0].engine_claims_win, "{score}: {w:?}");
        let log = read(&dir.join("BLOCK-engine.log"));
        assert!(!log.contains("max_node"), "{log}");
        claims.extend(w);
    }
    claims.extend(v);
    let csv = judge::report::csv(&claims);
    assert!(csv.contains(",engine_eval,engine_claims_win,"), "{csv}");
    assert!(
        csv.contains(",+M5,true,") && csv.contains(",-M4,false,"),
        "{csv}"
    );
    let totals = judge::report::Totals::of(&claims);
    assert_eq!(totals.claimed_wins, 1);
    assert!(
        totals
            .line(-300)
            .contains("; the engine's own score claimed a win in 1"),
        "{}",
        totals.line(-300)
    );
}
