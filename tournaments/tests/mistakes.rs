//! `wuzi-tournament mistakes`: which games are scanned, which positions the judge is asked
//! about and in what order, the row it writes (which `judge` reads back), and the workspace's
//! own `pbrain-wuzi` as the judge of a game lost by ignoring an open three.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;
use wuzi_tournament::config::EngineSpec;
use wuzi_tournament::judge::mistakes::{self, Finding, LostGame, Scan, Thresholds};
use wuzi_tournament::judge::{positions, Judge};
use wuzi_tournament::sgf;

/// Two opening stones, then white ignores black's open three at move 6 (`aa`) and loses:
/// 9,9 9,10 | 10,9 10,10 11,9 0,0 12,9 13,9 8,9.
const LOST_BY_WHITE: &str = "(;FF[4]GM[4]GN[7]SZ[20]RU[0]PB[Other]PW[Wuzi]RE[B+1]\
    ;B[jj]C[opening move];W[jk]C[opening move];B[kj]C[12ms];W[kk]C[30ms];B[lj]C[11ms]\
    ;W[aa]C[40ms];B[mj];W[nj];B[ij])";
/// The same player winning, and two other players: neither is scanned.
const NOT_LOST: &str = "(;GN[8]SZ[20]PB[Wuzi]PW[Other]RE[B+1];B[jj];W[aa];B[kj];W[ba]\
    ;B[lj];W[ca];B[mj];W[da];B[nj])\
    (;GN[9]SZ[20]PB[A]PW[B]RE[W+1];B[jj];W[aa])";

fn games(text: &str) -> Vec<LostGame> {
    let parsed = sgf::parse(text).unwrap_or_else(|e| panic!("{e}"));
    mistakes::lost_games(&parsed, "Wuzi", "T").unwrap_or_else(|e| panic!("{e}"))
}

fn scan(judge: &EngineSpec, nodes: u64, log_dir: Option<&Path>) -> Scan {
    let asker = Judge {
        spec: judge,
        nodes,
        turn_ms: 60_000,
        threads: 1,
        rule_bits: 0,
        max_memory: 350_000_000,
        tolerance_ms: 10_000,
        lenient_replies: false,
        start_ms: 1000,
        log_dir,
    };
    let limits = Thresholds {
        hold: -600,
        lost: -1500,
    };
    let list = games(LOST_BY_WHITE);
    let mut scans =
        mistakes::scan_all(&asker, limits, &list, 2, &|_, _| {}).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scans.len(), 1);
    scans.remove(0)
}

#[test]
fn only_the_players_lost_games_are_scanned() {
    let all = format!("{NOT_LOST}\n{LOST_BY_WHITE}");
    let list = games(&all);
    assert_eq!(list.len(), 1, "{list:?}");
    let g = &list[0];
    assert_eq!((g.id.as_str(), g.size, g.opening), ("T7", 20, 2));
    assert_eq!(g.player, wuzi_tournament::board::Side::White);
    assert_eq!(g.moves.len(), 9);
    // White's moves after the opening: moves 4, 6 and 8.
    assert_eq!(g.player_moves().collect::<Vec<_>>(), vec![3, 5, 7]);

    // Bad games are refused with the game named.
    let parsed = sgf::parse(&LOST_BY_WHITE.replace("SZ[20]", "SZ[15]")).expect("sgf");
    let mixed = [sgf::parse(&all).expect("sgf"), parsed].concat();
    let err = mistakes::lost_games(&mixed, "Wuzi", "T").expect_err("two sizes");
    assert!(err.contains("one board size"), "{err}");
    let unsized_game = sgf::parse(&LOST_BY_WHITE.replace("SZ[20]", "")).expect("sgf");
    let err = mistakes::lost_games(&unsized_game, "Wuzi", "T").expect_err("no size");
    assert!(err.contains("game 7: no SZ"), "{err}");
    assert_eq!(g.rule, Some(0));
    let twice = sgf::parse(&LOST_BY_WHITE.replace(";B[ij]", ";B[kj]")).expect("sgf");
    let err = mistakes::lost_games(&twice, "Wuzi", "T").expect_err("occupied");
    assert!(err.contains("game 7: move 9"), "{err}");
}

#[test]
fn the_first_held_position_that_the_move_loses() {
    // The judge sees the player winning before every move (+M1, its own view as the
    // player) and losing after it (+M1 for the opponent): the first move after the opening
    // is the mistake, and the judge's move there (aa, the first empty cell) the better one.
    let dir = scratch("mistakes-first");
    let s = scan(&says("+M1"), 1000, Some(&dir));
    assert_eq!(s.asked, 2, "{s:?}");
    match s.finding {
        Finding::Mistake { at, better, .. } => assert_eq!((at, better), (3, (0, 0))),
        ref f => panic!("{f:?}"),
    }
    let row = s.row().expect("a row");
    assert_eq!(
        row,
        "T7 | jj jk kj | kk | aa | move 4, white, judge +M1 -> -M1"
    );
    // The positions file reads it back as judge would.
    let p = positions::parse(&row, 20, FREESTYLE).expect("row parses");
    assert_eq!(p[0].moves, vec![(9, 9), (9, 10), (10, 9)]);
    assert_eq!(
        (p[0].game_move, p[0].better),
        (Some((10, 10)), Some((0, 0)))
    );
    // Both positions went to the judge as white to move, then as black to move.
    let before = std::fs::read_to_string(dir.join("T7-4-before.log")).expect("log");
    assert!(
        before.contains("> BOARD\n> 9,9,2\n> 9,10,1\n> 10,9,2\n> DONE\n"),
        "{before}"
    );
    let after = std::fs::read_to_string(dir.join("T7-4-after.log")).expect("log");
    assert!(after.contains("> 10,9,1\n> 10,10,2\n> DONE\n"), "{after}");
    assert!(after.contains("> INFO max_node 1000\n"), "{after}");
}

#[test]
fn held_positions_that_stay_held_give_nothing() {
    // -50 before every move and +50 for the opponent after it: nothing is lost. At move 6
    // the judge's move is the game's (aa), so that position is not asked about again.
    let s = scan(&says("-50"), 1000, None);
    assert_eq!(s.finding, Finding::None);
    assert_eq!(s.asked, 5, "moves 4 and 8 twice, move 6 once");
    assert!(s.row().is_none());
    // A judge with no score is a fault, named with the move.
    let s = scan(&spec("judge", FAKE, &["first"]), 1000, None);
    match &s.finding {
        Finding::Fault { at, fault } => assert_eq!((*at, fault.kind.as_str()), (3, "no score")),
        f => panic!("{f:?}"),
    }
}

#[test]
fn wuzi_as_judge_finds_the_ignored_three() {
    let wuzi = pbrain_wuzi().to_string_lossy().into_owned();
    let s = scan(&spec("judge", &wuzi, &[]), 20_000, None);
    match s.finding {
        Finding::Mistake {
            at, better, after, ..
        } => {
            assert_eq!(at, 5, "{s:?}");
            // The judge blocks the three beside it.
            assert!([(8, 9), (12, 9)].contains(&better), "{s:?}");
            assert!(after.mate_plies().is_some_and(|p| p < 0), "{s:?}");
        }
        ref f => panic!("{f:?}"),
    }
}

#[test]
fn the_command_prints_and_writes_the_file() {
    let dir = scratch("mistakes-cli");
    let games = dir.join("games.sgf");
    std::fs::write(&games, format!("{NOT_LOST}\n{LOST_BY_WHITE}\n")).expect("write");
    let out = dir.join("found.txt");
    let judge = format!("{FAKE} say eval|+M1");
    let run = Command::new(RUNNER)
        .arg("mistakes")
        .arg(&games)
        .args(["--player", "Wuzi", "--judge", &judge, "--prefix", "PZ"])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(stdout.contains(text.trim_end()), "{stdout}");
    assert!(
        text.contains("3 games read, 1 lost by Wuzi: 1 gave a mistake"),
        "{text}"
    );
    let p = positions::load(&out, 20, FREESTYLE).expect("loads");
    assert_eq!((p.len(), p[0].id.as_str()), (1, "PZ7"));

    // The file is not replaced by a second scan unless --overwrite says so.
    let again = |extra: &[&str]| {
        Command::new(RUNNER)
            .arg("mistakes")
            .arg(&games)
            .args(["--player", "Wuzi", "--judge", &judge, "--prefix", "PY"])
            .arg("--out")
            .arg(&out)
            .args(extra)
            .output()
            .expect("runs")
    };
    let refused = again(&[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("already exists") && stderr.contains("--overwrite"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), text);
    assert!(again(&["--overwrite"]).status.success());
    let p = positions::load(&out, 20, FREESTYLE).expect("loads");
    assert_eq!((p.len(), p[0].id.as_str()), (1, "PY7"));

    // Nor are an earlier scan's logs mixed with a new scan's: a --logs folder holding them
    // is refused, with the --out file, unless --overwrite, which replaces both.
    let logs = dir.join("logs");
    let logs_arg = logs.to_string_lossy().into_owned();
    assert!(again(&["--overwrite", "--logs", &logs_arg])
        .status
        .success());
    let log_names = || {
        let mut names: Vec<String> = std::fs::read_dir(&logs)
            .expect("listed")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let first_logs = log_names();
    assert!(!first_logs.is_empty() && first_logs.iter().all(|n| n.starts_with("PY")));
    let before = std::fs::read_to_string(&out).expect("kept");
    std::fs::write(logs.join("notes.txt"), "mine").expect("write");
    let other_out = dir.join("other.txt");
    let other_arg = other_out.to_string_lossy().into_owned();
    let refused = Command::new(RUNNER)
        .arg("mistakes")
        .arg(&games)
        .args(["--player", "Wuzi", "--judge", &judge, "--prefix", "PX"])
        .args(["--out", &other_arg, "--logs", &logs_arg])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(
        stderr.contains("log file") && stderr.contains("--overwrite"),
        "{stderr}"
    );
    assert!(!other_out.exists());
    assert_eq!(log_names().len(), first_logs.len() + 1);
    // Refused with an --out file to replace as well: the file stays too.
    let refused = again(&["--logs", &logs_arg]);
    assert!(!refused.status.success());
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), before);
    assert_eq!(log_names().len(), first_logs.len() + 1);
    // --overwrite: the new scan's logs replace the old ones; other files stay.
    let replaced = Command::new(RUNNER)
        .arg("mistakes")
        .arg(&games)
        .args(["--player", "Wuzi", "--judge", &judge, "--prefix", "PX"])
        .args(["--out", &other_arg, "--logs", &logs_arg, "--overwrite"])
        .output()
        .expect("runs");
    assert!(replaced.status.success());
    let now = log_names();
    assert!(now.contains(&"notes.txt".to_string()), "{now:?}");
    let logs_now: Vec<&String> = now.iter().filter(|n| n.ends_with(".log")).collect();
    assert_eq!(logs_now.len(), first_logs.len(), "{now:?}");
    assert!(logs_now.iter().all(|n| n.starts_with("PX")), "{now:?}");

    // Games of another rule than --rule are refused.
    let run = Command::new(RUNNER)
        .arg("mistakes")
        .arg(&games)
        .args(["--player", "Wuzi", "--judge", &judge, "--rule", "1"])
        .output()
        .expect("runs");
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("RU[0]") && err.contains("--rule 1"), "{err}");

    // A player with no lost game is an error.
    let run = Command::new(RUNNER)
        .arg("mistakes")
        .arg(&games)
        .args(["--player", "Nobody", "--judge", &judge])
        .output()
        .expect("runs");
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("\"Nobody\""));
}
