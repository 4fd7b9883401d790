//! `[sprt]` end to end with fake engines: a clearly stronger A is accepted (H1), a clearly
//! weaker one rejected (H0), an even match stops at `max_games` and resumes to a larger
//! one, a decided test resumes to the same decision without playing, and per-engine
//! `options` reach the engine as `INFO`.

mod common;

use common::*;
use wuzi_tournament::runner::Finished;
use wuzi_tournament::sprt::Decision;

/// `first` plays along the top row and wins in 9 stones unless it is blocked; `random`
/// almost never blocks it.
const BODY: &str = "board_size = 15\ntimeout_turn_ms = 500\ntolerance_ms = 500\ndraw_after_moves = 40\nconcurrency = 2\n";

fn sprt_config(dir: &std::path::Path, a: &str, b: &str, section: &str) -> std::path::PathBuf {
    let engine = |name: &str| -> String {
        match name {
            "first" => fake("first", &["first"]),
            _ => fake(name, &["random", "7"]),
        }
    };
    let path = write_config(dir, BODY, &[engine(a), engine(b)]);
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    text.push_str(section);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path
}

const BOUNDS: &str = "[sprt]\nelo0 = 0\nelo1 = 10\nalpha = 0.05\nbeta = 0.05\nmax_games = 200\n";

#[test]
fn a_stronger_engine_is_accepted_and_resume_keeps_the_decision() {
    let dir = scratch("sprt-h1");
    let cfg = load(&sprt_config(&dir, "first", "random", BOUNDS));
    let done = run(&cfg, &dir, false);
    let t = done.sprt.unwrap_or_else(|| panic!("no SPRT state"));
    let (decision, llr) = t
        .decision
        .unwrap_or_else(|| panic!("no decision: {}", t.line()));
    assert_eq!(decision, Decision::H1, "{}", t.line());
    assert!(llr >= 2.944, "{llr}");
    // Every pair was won 2-0 and a few such pairs decide. The run stopped long before
    // max_games: only games already finished or running at the decision were journalled
    // (with engines this fast, a few more than the pairs counted).
    let pairs: u32 = t.penta.iter().sum();
    assert_eq!(t.penta, [0, 0, 0, 0, pairs]);
    // With only 2-0 pairs the normalized LLR for [0, 10] (by hand, with the test's two
    // pseudo-pairs ½/0/1/0/½) is 0.05 after one pair, 0.85 after 10, 2.93 after 24 and
    // 3.11 after 25: the 25th pair decides.
    assert_eq!(pairs, 25, "{}", t.line());
    assert!((llr - 3.1087).abs() < 1e-3, "{llr}");
    assert!(done.records.len() < 70, "{} games", done.records.len());
    assert_eq!(t.games, done.records.len());
    assert!(done.markdown.contains("H1 accepted"), "{}", done.markdown);
    // The config has one opening, so its pairs repeat it.
    assert_eq!(cfg.openings.len(), 1);
    assert!(
        done.markdown.contains("The 25 pairs repeat the 1 opening."),
        "{}",
        done.markdown
    );
    let page =
        std::fs::read_to_string(dir.join("out/report.html")).unwrap_or_else(|e| panic!("{e}"));
    assert!(page.contains("<p id=\"sprt\"><b>H1 accepted</b></p>"));
    assert!(page.contains("<td>pairs</td><td>0</td><td>0</td><td>0</td><td>0</td><td>25</td>"));
    // The report says so too.
    assert!(
        page.contains("<p class=\"repeat\">The 25 pairs repeat the 1 opening."),
        "{page}"
    );

    let journal = dir.join("out/results.jsonl");
    let before = std::fs::read(&journal).unwrap_or_else(|e| panic!("{e}"));
    let again = run(&cfg, &dir, true);
    let t2 = again.sprt.unwrap_or_else(|| panic!("no SPRT state"));
    assert_eq!(t2.decision, t.decision);
    assert_eq!(t2.penta, t.penta);
    assert_eq!(
        std::fs::read(&journal).ok(),
        Some(before),
        "resume played games"
    );

    // Interrupted before the decision (three games journalled): resume plays on to it.
    let text = std::fs::read_to_string(&journal).unwrap_or_else(|e| panic!("{e}"));
    let head: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&journal, head).unwrap_or_else(|e| panic!("{e}"));
    let resumed = run(&cfg, &dir, true);
    let t3 = resumed.sprt.unwrap_or_else(|| panic!("no SPRT state"));
    assert_eq!(
        t3.decision.map(|d| d.0),
        Some(Decision::H1),
        "{}",
        t3.line()
    );
    assert_eq!(t3.penta, [0, 0, 0, 0, 25]);
    let mut games: Vec<usize> = resumed.records.iter().map(|r| r.game).collect();
    let n = games.len();
    games.dedup();
    assert_eq!(games.len(), n, "a game was played twice");
}

#[test]
fn a_weaker_engine_is_rejected() {
    let dir = scratch("sprt-h0");
    let cfg = load(&sprt_config(&dir, "random", "first", BOUNDS));
    let done = run(&cfg, &dir, false);
    let t = done.sprt.unwrap_or_else(|| panic!("no SPRT state"));
    assert_eq!(t.decision.map(|d| d.0), Some(Decision::H0), "{}", t.line());
    // Mirror image of the H1 test: 24 0-2 pairs, LLR −2.974 (the prior is not quite
    // symmetric about H0 and H1, so one pair fewer than the H1 test).
    assert_eq!(t.penta, [24, 0, 0, 0, 0], "{}", t.line());
    assert!((t.llr() + 2.9742).abs() < 1e-3, "{}", t.llr());
}

/// The run stopped at its `max_games` cap of `games`, every game in the journal and in
/// pairs.
fn assert_stopped_at_cap(done: &Finished, games: usize) {
    let t = done
        .sprt
        .as_ref()
        .unwrap_or_else(|| panic!("no SPRT state"));
    assert_eq!(
        t.decision.map(|d| d.0),
        Some(Decision::MaxGames),
        "{}",
        t.line()
    );
    assert_eq!(done.records.len(), games);
    assert_eq!(t.penta.iter().sum::<u32>() as usize, games / 2);
}

#[test]
fn an_even_match_stops_at_max_games() {
    let dir = scratch("sprt-max");
    // Two copies of the same random engine: pairs are split 1-1 (each colour plays the same
    // moves), so the ratio stays between the bounds.
    let section = "[sprt]\nelo0 = -100\nelo1 = 100\nmax_games = 6\nmodel = \"logistic\"\n";
    let cfg = load(&sprt_config(&dir, "r1", "r2", section));
    assert_stopped_at_cap(&run(&cfg, &dir, false), 6);

    // The cap is not part of the test: resumed with a larger one, the run keeps its six
    // games and plays on to the new cap.
    let journal = dir.join("out/results.jsonl");
    let before = std::fs::read_to_string(&journal).unwrap_or_else(|e| panic!("{e}"));
    let longer = section.replace("max_games = 6", "max_games = 10");
    let cfg = load(&sprt_config(&dir, "r1", "r2", &longer));
    assert_stopped_at_cap(&run(&cfg, &dir, true), 10);
    let after = std::fs::read_to_string(&journal).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        after.starts_with(&before),
        "the first six games were rewritten"
    );
    // A changed bound is another test: refused, and the journal is left as it was.
    let other = longer.replace("elo1 = 100", "elo1 = 50");
    let cfg = load(&sprt_config(&dir, "r1", "r2", &other));
    let err = run_result(&cfg, &dir, true).err().unwrap_or_default();
    assert!(err.contains("sprt"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&journal).ok(),
        Some(after),
        "a refused resume touched the journal"
    );
}

#[test]
fn engine_options_are_sent_as_info_lines() {
    let dir = scratch("options");
    let path = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 500\ndraw_after_moves = 12\ngames_per_pair = 1\n",
        &[
            fake("first", &["first"]) + "options = { max_node = 5000, style = \"calm\" }\n",
            fake("random", &["random", "3"]),
        ],
    );
    let cfg = load(&path);
    assert_eq!(cfg.engines[0].options.len(), 2);
    run(&cfg, &dir, false);
    let log = std::fs::read_to_string(dir.join("out/logs/0001-black-first.log"))
        .unwrap_or_else(|e| panic!("{e}"));
    let after_rule = &log[log.find("> INFO game_type 2").unwrap_or(0)..];
    assert!(after_rule.contains("> INFO max_node 5000\n"), "{log}");
    assert!(after_rule.contains("> INFO style calm\n"), "{log}");
    let other = std::fs::read_to_string(dir.join("out/logs/0001-white-random.log"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!other.contains("max_node"), "{other}");

    // Bad options are refused at load time.
    for bad in [
        "options = { max_node = \"many\" }\n",
        "options = { timeout_turn = 5 }\n",
        "options = { \"two words\" = 1 }\n",
    ] {
        let p = write_config(
            &dir,
            "timeout_turn_ms = 100\n",
            &[fake("first", &["first"]) + bad, fake("random", &["random"])],
        );
        assert!(
            wuzi_tournament::config::Config::load(&p).is_err(),
            "{bad} accepted"
        );
    }
}

#[test]
fn sprt_needs_two_engines() {
    let dir = scratch("sprt-three");
    let path = write_config(
        &dir,
        BODY,
        &[
            fake("a", &["first"]),
            fake("b", &["random"]),
            fake("c", &["random"]) + BOUNDS,
        ],
    );
    let err = wuzi_tournament::config::Config::load(&path).err();
    assert!(err.is_some_and(|e| e.contains("exactly two engines")));
}
