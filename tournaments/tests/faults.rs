//! Every misbehaviour the referee must score: each faulty engine plays a sane one with both
//! colours, loses both games with the right reason, and the tournament still completes.

mod common;

use common::*;
use wuzi_tournament::brain::LOG_CAP;
use wuzi_tournament::record::{GameRecord, Outcome, Reason};

/// The games `name` took part in.
fn games_of<'a>(records: &'a [GameRecord], name: &str) -> Vec<&'a GameRecord> {
    records
        .iter()
        .filter(|r| r.side_of(name).is_some())
        .collect()
}

fn assert_loses(records: &[GameRecord], name: &str, reason: Reason) {
    let games = games_of(records, name);
    assert_eq!(games.len(), 2, "{name} plays twice");
    for r in games {
        let side = r.side_of(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(r.outcome, Outcome::win_for(side.other()), "{name}: {r:?}");
        assert_eq!(r.reason, reason, "{name}: {r:?}");
    }
}

#[test]
fn faulty_engines_lose_with_the_right_reason() {
    let dir = scratch("faults");
    let engines = [
        fake("sane", &["first"]),
        fake("crash", &["crash"]),
        fake("hang", &["hang"]),
        fake("garbage", &["garbage"]),
        fake("occupied", &["occupied"]),
        fake("offboard", &["offboard"]),
        fake("slow", &["slow", "700"]),
        fake("nostart", &["nostart"]),
        fake("flood", &["flood", "256"]),
    ];
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 200\ntolerance_ms = 200\nconcurrency = 4\ngauntlet = true\n",
        &engines,
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.total, 16);
    assert_eq!(done.records.len(), 16);

    assert_loses(&done.records, "crash", Reason::Crash);
    assert_loses(&done.records, "hang", Reason::Timeout);
    assert_loses(&done.records, "garbage", Reason::Malformed);
    assert_loses(&done.records, "occupied", Reason::Illegal);
    assert_loses(&done.records, "offboard", Reason::Illegal);
    assert_loses(&done.records, "slow", Reason::Timeout);
    assert_loses(&done.records, "nostart", Reason::StartFailed);

    let crash = games_of(&done.records, "crash");
    assert!(
        crash.iter().all(|r| r.detail.contains("exit status: 3")),
        "{crash:?}"
    );
    let garbage = games_of(&done.records, "garbage");
    assert!(garbage.iter().all(|r| r.detail == "hello, I am not a move"));
    let occupied = games_of(&done.records, "occupied");
    assert!(occupied.iter().all(|r| r.detail.contains("occupied")));
    let offboard = games_of(&done.records, "offboard");
    assert!(offboard
        .iter()
        .all(|r| r.detail.contains("99,99: off the board")));

    // A flood on stderr is drained into a capped log: the game is played out on the board.
    for r in games_of(&done.records, "flood") {
        assert!(!r.reason.is_failure(), "{r:?}");
        let side = r.side_of("flood").unwrap_or_else(|| panic!("flood"));
        let log = dir
            .join("out/logs")
            .join(format!("{:04}-{side}-flood.log", r.game));
        let len = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
        assert!(
            len > LOG_CAP / 2 && len <= LOG_CAP + 1024,
            "log {len} bytes"
        );
    }

    // The sane engine's table line is the last one of the game: 100 probes per move it made.
    for r in games_of(&done.records, "sane") {
        let side = r.side_of("sane").unwrap_or_else(|| panic!("sane"));
        let me = r.side(side);
        match &me.tt {
            Some(tt) => {
                assert_eq!(tt.probes, 100 * me.moves as u64);
                assert_eq!(tt.hits, 25 * me.moves as u64);
                assert_eq!(tt.hit_rate, 25.0);
            }
            None => assert_eq!(me.moves, 0, "{r:?}"),
        }
    }

    // Against the faulty seven the sane engine wins all fourteen games (flood plays fair).
    let sane = done.summary.engines.iter().position(|e| e == "sane");
    let sane = sane.unwrap_or_else(|| panic!("sane missing"));
    let flood_points: f64 = games_of(&done.records, "flood")
        .iter()
        .map(|r| {
            r.outcome
                .points(r.side_of("sane").unwrap_or_else(|| panic!("sane")))
        })
        .sum();
    assert_eq!(done.summary.tally[sane].points(), 14.0 + flood_points);
    assert!(done.markdown.contains("| hang | timeout | 2 |"));
    assert!(dir.join("out/summary.md").is_file());
    // A gauntlet's rating list: every engine met the sane one, so all are on one scale,
    // with the sane engine on top.
    assert!(
        done.markdown.contains("## Ratings") && done.markdown.contains("| 1 | sane | +"),
        "{}",
        done.markdown
    );
    let html = std::fs::read_to_string(dir.join("out/report.html")).unwrap_or_default();
    assert!(
        html.contains("<table id=\"ratings\">") && html.contains("<tr><td>1</td><td>sane</td>"),
        "{html}"
    );
}

#[test]
fn match_clock_is_cumulative() {
    let dir = scratch("clock");
    let engines = [fake("sane", &["first"]), fake("slow", &["slow", "300"])];
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 5000\ntimeout_match_ms = 1000\ntolerance_ms = 100\n",
        &engines,
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.records.len(), 2);
    assert_loses(&done.records, "slow", Reason::MatchClock);
    for r in &done.records {
        let side = r.side_of("slow").unwrap_or_else(|| panic!("slow"));
        // 300 ms a move against a 1000 ms clock plus 100 ms once: three moves fit; the fourth
        // would need 300 ms of the at most 200 left. Each turn may run up to 66 ms late (pipe
        // and scheduling) without changing that count, so this holds on a loaded machine.
        assert_eq!(r.side(side).moves, 3, "{r:?}");
    }
}

#[test]
fn sane_engines_finish_games_on_the_board() {
    let dir = scratch("sane");
    let engines = [fake("first", &["first"]), fake("random", &["random", "7"])];
    let opening = dir.join("open.txt");
    std::fs::write(&opening, "0,0, 1,1\nh8\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 200\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 30\n",
        &engines,
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.records.len(), 4);
    for r in &done.records {
        assert!(
            matches!(r.reason, Reason::Five | Reason::MoveLimit),
            "{r:?}"
        );
        if r.reason == Reason::MoveLimit {
            assert_eq!(r.moves, 30);
            assert_eq!(r.outcome, Outcome::Draw);
        }
        for report in [&r.black_report, &r.white_report] {
            assert_eq!(
                report.about.as_deref(),
                Some("name=\"fake\", version=\"1\"")
            );
        }
        let opening_len = if r.opening == 0 { 2 } else { 1 };
        assert_eq!(
            r.black_report.moves + r.white_report.moves + opening_len,
            r.moves,
            "{r:?}"
        );
    }
}

#[test]
fn noise_loses_unless_replies_are_lenient() {
    for (lenient, expect_failure) in [(false, true), (true, false)] {
        let dir = scratch("noise");
        let engines = [fake("sane", &["first"]), fake("noisy", &["noisy"])];
        let cfg = write_config(
            &dir,
            &format!(
                "board_size = 15\ntimeout_turn_ms = 200\ntolerance_ms = 200\nlenient_replies = {lenient}\n"
            ),
            &engines,
        );
        let done = run(&load(&cfg), &dir, false);
        assert_eq!(done.records.len(), 2);
        for r in &done.records {
            let side = r.side_of("noisy").unwrap_or_else(|| panic!("noisy"));
            if expect_failure {
                assert_eq!(r.outcome, Outcome::win_for(side.other()), "{r:?}");
                assert_eq!(r.reason, Reason::Malformed, "{r:?}");
                assert_eq!(r.detail, "- eval 7");
            } else {
                assert_eq!(r.reason, Reason::Five, "{r:?}");
                let me = r.side(side);
                assert_eq!(me.skipped, me.moves, "one noise line per move: {r:?}");
                assert!(me.moves > 0);
            }
        }
    }
}

/// Time odds: an engine's own `timeout_turn_ms` is what it is sent and what it is held to,
/// and the other engine keeps the tournament's. Both sleep 300 ms a move; only the one with
/// the tournament's 100 ms loses on time, with either colour.
#[test]
fn an_engines_own_time_limit_is_sent_and_refereed() {
    let dir = scratch("odds");
    let engines = [
        format!(
            "{}timeout_turn_ms = 2000\n",
            fake("patient", &["slow", "300"])
        ),
        fake("hasty", &["slow", "300"]),
    ];
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 100\ntolerance_ms = 0\nconcurrency = 2\n",
        &engines,
    );
    let config = load(&cfg);
    assert_eq!(config.engines[0].timeout_turn_ms, Some(2000));
    assert_eq!(config.engines[1].timeout_turn_ms, None);
    let done = run(&config, &dir, false);
    assert_eq!(done.records.len(), 2);
    assert_loses(&done.records, "hasty", Reason::Timeout);
    for r in &done.records {
        // The patient engine moved once (as black) or not at all, in 300 ms.
        assert!(r.moves <= 1, "{r:?}");
    }

    // The conversation: each engine was told its own limit.
    let logs: Vec<(String, String)> = std::fs::read_dir(dir.join("out/logs"))
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(e.path()).unwrap_or_default())
        })
        .collect();
    assert_eq!(logs.len(), 4, "{logs:?}");
    for (name, text) in &logs {
        let want = if name.contains("patient") { 2000 } else { 100 };
        assert!(
            text.contains(&format!("INFO timeout_turn {want}\n")),
            "{name}: {text}"
        );
    }
    // The summary, the report and the journal's fingerprint say so.
    let summary = std::fs::read_to_string(dir.join("out/summary.md")).unwrap_or_default();
    assert!(
        summary.contains("(time odds: 2000 ms per move)"),
        "{summary}"
    );
    // The standings carry each engine's own limits in a column of their own.
    assert!(
        summary.contains("| # | engine | time odds | games |")
            && summary.contains("| 1 | patient | 2000 ms per move | 2 |")
            && summary.contains("| 2 | hasty | — | 2 |"),
        "{summary}"
    );
    let html = std::fs::read_to_string(dir.join("out/report.html")).unwrap_or_default();
    assert!(
        html.contains("Time odds: patient: 2000 ms per move."),
        "{html}"
    );
    assert!(
        html.contains("<th>engine</th><th>time odds</th><th>games</th>")
            && html.contains("<td>patient</td><td>2000 ms per move</td><td>2</td>")
            && html.contains("<td>hasty</td><td>—</td><td>2</td>"),
        "{html}"
    );
    let journal = std::fs::read_to_string(dir.join("out/results.jsonl")).unwrap_or_default();
    assert!(
        journal.contains(r#""engine.1.timeout_turn_ms":"2000""#)
            && !journal.contains("engine.2.timeout_turn_ms"),
        "{journal}"
    );
}

#[test]
fn shipped_time_scaling_config_loads_with_its_odds() {
    let c = load_shipped("time-scaling.toml");
    assert_eq!(c.settings.timeout_turn_ms, 500);
    let odds: Vec<_> = c.engines.iter().map(|e| e.timeout_turn_ms).collect();
    assert_eq!(odds, [Some(1000), None]);
    assert_eq!(c.settings.for_engine(&c.engines[0]).timeout_turn_ms, 1000);
    assert_eq!(c.settings.for_engine(&c.engines[1]).timeout_turn_ms, 500);
    assert_eq!(c.openings.len(), 40);
}
