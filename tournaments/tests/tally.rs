//! `wuzi-tournament tally`: a match written by another manager (c-gomoku-cli's SGF form) is
//! scored from the named player's side, file by file and pooled, and bad input is refused
//! with a clear error.

mod common;

use common::*;
use std::process::{Command, Output};

/// An opening played with both colours, won by Wuzi both times (c-gomoku-cli's form: the
/// opening stones commented `opening move`, each move's time as `…ms`).
const PAIR_WON: &str = "\
(;FF[4]GM[4]GN[1]SZ[20]RU[0]PB[Wuzi]PW[Other]RE[B+1]TE[Black win by five connection]\
;B[jj]C[opening move];W[jk]C[opening move];B[kj]C[410ms];W[kk]C[450ms];B[lj]C[3ms])
(;FF[4]GM[4]GN[2]SZ[20]RU[0]PB[Other]PW[Wuzi]RE[W+1]TE[White win by five connection]\
;B[jj]C[opening move];W[jk]C[opening move];B[kj]C[300ms];W[kk]C[420ms])
";
/// One game lost by Wuzi on time.
const LOST: &str = "\
(;FF[4]GM[4]GN[1]SZ[20]RU[0]PB[Wuzi]PW[Other]RE[W+T]TE[Black loses on time]\
;B[jj]C[opening move];W[jk]C[opening move];B[kj]C[2500ms])
";

fn tally(files: &[&std::path::Path], player: &str) -> Output {
    Command::new(RUNNER)
        .arg("tally")
        .args(files)
        .args(["--player", player])
        .output()
        .expect("runs")
}

#[test]
fn two_files_are_scored_apart_and_pooled() {
    let dir = scratch("tally");
    let (a, b) = (dir.join("a.sgf"), dir.join("b.sgf"));
    std::fs::write(&a, PAIR_WON).expect("write");
    std::fs::write(&b, LOST).expect("write");
    let run = tally(&[&a, &b], "Wuzi");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(out.contains("| 2 | 2 – 0 – 0 | 100.0 % | ≥ "), "{out}");
    assert!(out.contains("| 1 | 0 – 1 – 0 | 0.0 % | ≤ "), "{out}");
    // Pooled: 2 of 3, +120 Elo.
    assert!(
        out.contains("| all | 3 | 2 – 1 – 0 | 66.7 % | +120 ± "),
        "{out}"
    );
    assert!(out.contains("1 × Black loses on time"), "{out}");
    // Wuzi's moves of 50 ms or more: 410, 420, 2500; the 3 ms move counts for the longest
    // only.
    assert!(
        out.contains("Wuzi's think time: longest 2500 ms, mean 1110 ms over the 3 moves"),
        "{out}"
    );
    assert!(out.contains("won both 1, split 0, lost both 0"), "{out}");
}

#[test]
fn an_absent_player_or_a_broken_file_is_an_error() {
    let dir = scratch("tally-bad");
    let good = dir.join("good.sgf");
    std::fs::write(&good, PAIR_WON).expect("write");
    let absent = tally(&[&good], "Nobody");
    let err = String::from_utf8_lossy(&absent.stderr);
    assert!(!absent.status.success());
    assert!(
        err.contains("no game of a player named \"Nobody\""),
        "{err}"
    );

    let broken = dir.join("broken.sgf");
    std::fs::write(&broken, "(;FF[4]GM[4]PB[Wuzi];B[jj]").expect("write");
    let run = tally(&[&good, &broken], "Wuzi");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(
        err.contains("broken.sgf") && err.contains("unterminated"),
        "{err}"
    );
    assert!(
        run.stdout.is_empty(),
        "nothing is reported from part of the files"
    );
    let missing = tally(&[&dir.join("none.sgf")], "Wuzi");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.sgf"));
}
