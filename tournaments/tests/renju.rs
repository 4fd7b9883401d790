//! Renju refereeing: the referee's own foul detector against every position of the shared
//! fixture file (`tests/fixtures/renju/forbidden.txt` at the repository root, also read by
//! the engine's tests), and whole games with scripted fake engines: a black foul loses and
//! is counted, a five beats a simultaneous double four, white's overline wins.

mod common;

use common::*;
use std::path::Path;
use wuzi_tournament::board::Side;
use wuzi_tournament::config::Config;
use wuzi_tournament::record::{Outcome, Reason};
use wuzi_tournament::renju::{foul_at, Foul};

/// A fixture case: the stones, the queried cell and the verdict.
struct Case {
    name: String,
    size: usize,
    stones: Vec<((usize, usize), Side)>,
    query: (usize, usize),
    expect: Option<Foul>,
}

fn fixture_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/renju/forbidden.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn verdict(text: &str) -> Result<Option<Foul>, String> {
    match text {
        "none" => Ok(None),
        "double-three" => Ok(Some(Foul::DoubleThree)),
        "double-four" => Ok(Some(Foul::DoubleFour)),
        "overline" => Ok(Some(Foul::Overline)),
        other => Err(format!("unknown verdict {other:?}")),
    }
}

/// The fixture format, read independently of the engine's test.
fn parse(text: &str) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    let mut name = None;
    let (mut size, mut at, mut expect) = (15, (0, 0), None);
    let mut rows: Option<Vec<&str>> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(r) = rows.as_mut() {
            if line != "end" {
                r.push(line);
                continue;
            }
            let case_name: String = name.take().ok_or("board without a case")?;
            let mut stones = Vec::new();
            let mut query = None;
            for (dy, row) in r.iter().enumerate() {
                for (dx, ch) in row.chars().enumerate() {
                    let cell = (at.0 + dx, at.1 + dy);
                    match ch {
                        'X' => stones.push((cell, Side::Black)),
                        'O' => stones.push((cell, Side::White)),
                        '?' => query = Some(cell),
                        '.' => {}
                        _ => return Err(format!("{case_name}: character {ch:?}")),
                    }
                }
            }
            out.push(Case {
                query: query.ok_or(format!("{case_name}: no query"))?,
                expect: expect.take().ok_or(format!("{case_name}: no verdict"))?,
                name: case_name,
                size,
                stones,
            });
            rows = None;
            (size, at) = (15, (0, 0));
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(':').ok_or(format!("bad line {line:?}"))?;
        let value = value.trim();
        match key.trim() {
            "case" => name = Some(value.to_string()),
            "size" => size = value.parse().map_err(|_| format!("size {value:?}"))?,
            "at" => {
                let (x, y) = value.split_once(',').ok_or(format!("at {value:?}"))?;
                let x = x.trim().parse().map_err(|_| format!("at {value:?}"))?;
                let y = y.trim().parse().map_err(|_| format!("at {value:?}"))?;
                at = (x, y);
            }
            "expect" => expect = Some(verdict(value)?),
            "board" => rows = Some(Vec::new()),
            "note" | "five" => {}
            other => return Err(format!("unknown key {other:?}")),
        }
    }
    Ok(out)
}

#[test]
fn referee_agrees_with_every_fixture_case() {
    let cases = parse(&fixture_text()).unwrap_or_else(|e| panic!("fixture: {e}"));
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for c in &cases {
        let stone = |x: usize, y: usize| {
            c.stones
                .iter()
                .find(|&&(cell, _)| cell == (x, y))
                .map(|&(_, side)| side)
        };
        let got = foul_at(c.size, stone, c.query.0, c.query.1);
        if got != c.expect {
            wrong.push(format!("{}: expected {:?}, got {got:?}", c.name, c.expect));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `pos` notation (`h8`) of a cell.
fn pos((x, y): (usize, usize)) -> String {
    format!("{}{}", char::from(b'a' + x as u8), y + 1)
}

/// An opening line with black to move: black and white interleaved, white padded with
/// scattered stones along the bottom row that make no line.
fn opening_line(black: &[(usize, usize)], white: &[(usize, usize)]) -> String {
    let mut filler = (0..8).map(|i| (2 * i, 14));
    let mut line = String::new();
    for (i, &b) in black.iter().enumerate() {
        let w = white
            .get(i)
            .copied()
            .or_else(|| filler.next())
            .unwrap_or_else(|| panic!("too many black stones"));
        line.push_str(&pos(b));
        line.push_str(&pos(w));
    }
    line
}

/// Plays one renju game on the opening, `black` and `white` being fake-engine arguments.
fn play_one(
    tag: &str,
    opening: &str,
    black: &[&str],
    white: &[&str],
) -> (Outcome, Reason, String, u32) {
    let dir = scratch(tag);
    std::fs::write(dir.join("open.txt"), format!("{opening}\n")).unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\nrule = 4\ntimeout_turn_ms = 500\ntolerance_ms = 1000\ngames_per_pair = 1\nopenings = \"open.txt\"\n",
        &[fake("b", black), fake("w", white)],
    );
    let config = load(&cfg);
    let done = run(&config, &dir, false);
    assert_eq!(done.records.len(), 1);
    let r = &done.records[0];
    assert_eq!((r.black.as_str(), r.white.as_str()), ("b", "w"));
    (
        r.outcome,
        r.reason,
        r.detail.clone(),
        done.summary.foul_count(0),
    )
}

/// The three black stones of `f8 g8 h6 h7` make h8 (7,7) a double three.
const THREE_THREE: [(usize, usize); 4] = [(5, 7), (6, 7), (7, 5), (7, 6)];

#[test]
fn forbidden_black_move_is_a_foul_and_a_loss() {
    let dir = scratch("foul");
    let opening = opening_line(&THREE_THREE, &[]);
    std::fs::write(dir.join("open.txt"), format!("{opening}\n")).unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\nrule = 4\ntimeout_turn_ms = 500\ntolerance_ms = 1000\ngames_per_pair = 1\nopenings = \"open.txt\"\n",
        &[fake("fouler", &["script", "7,7"]), fake("sane", &["first"])],
    );
    let config = load(&cfg);
    assert_eq!(config.settings.draw_after_moves, 200);
    let done = run(&config, &dir, false);
    assert_eq!(done.records.len(), 1);
    let r = &done.records[0];
    assert_eq!(r.black, "fouler");
    assert_eq!(r.outcome, Outcome::WhiteWins, "{r:?}");
    assert_eq!(r.reason, Reason::FoulDoubleThree, "{r:?}");
    assert_eq!(r.detail, "double-three at 7,7");
    assert!(!r.reason.is_failure(), "a foul is a loss on the board");
    assert_eq!(r.moves, 9);
    assert_eq!(done.summary.foul_count(0), 1);
    assert_eq!(done.summary.foul_count(1), 0);
    assert!(
        done.markdown.contains("## Renju fouls"),
        "{}",
        done.markdown
    );
    assert!(
        done.markdown
            .contains("| fouler | foul: double-three | 1 |"),
        "{}",
        done.markdown
    );
    // The record keeps the kind through its JSON line.
    let line = std::fs::read_to_string(dir.join("out/results.jsonl")).unwrap_or_default();
    assert!(line.contains("\"foul_double_three\""), "{line}");
}

#[test]
fn double_four_and_overline_fouls_have_their_kind() {
    // X.X?X.X on row 7: black at 5,7 makes two fours on one line.
    let opening = opening_line(&[(2, 7), (4, 7), (6, 7), (8, 7)], &[]);
    let got = play_one("foul44", &opening, &["script", "5,7"], &["first"]);
    let want = (
        Outcome::WhiteWins,
        Reason::FoulDoubleFour,
        "double-four at 5,7".to_string(),
        1,
    );
    assert_eq!(got, want);

    // XX?XXX: six in a row.
    let opening = opening_line(&[(2, 7), (3, 7), (5, 7), (6, 7), (7, 7)], &[]);
    let got = play_one("foul6", &opening, &["script", "4,7"], &["first"]);
    let want = (
        Outcome::WhiteWins,
        Reason::FoulOverline,
        "overline at 4,7".to_string(),
        1,
    );
    assert_eq!(got, want);
}

#[test]
fn five_beats_a_simultaneous_double_four() {
    // The fixture's five-and-double-four position (window at 2,2): black at 7,7 makes five
    // horizontally and closed fours vertically and diagonally.
    let black = [
        (4, 4),
        (7, 4),
        (5, 5),
        (7, 5),
        (6, 6),
        (7, 6),
        (5, 7),
        (6, 7),
        (8, 7),
        (9, 7),
    ];
    let white = [(7, 8), (8, 8)];
    let opening = opening_line(&black, &white);
    let got = play_one("five44", &opening, &["script", "7,7"], &["first"]);
    assert_eq!(got, (Outcome::BlackWins, Reason::Five, String::new(), 0));
}

#[test]
fn white_wins_with_an_overline() {
    // White's OO?OOO on row 3; black (scripted first at 0,0) has nothing there.
    let white = [(2, 3), (3, 3), (5, 3), (6, 3), (7, 3)];
    let black = [(1, 9), (3, 9), (5, 9), (7, 9), (9, 9), (11, 9)];
    // Black to move after the opening is wrong here: white must move, so the opening has
    // one black stone more.
    let mut line = String::new();
    for (i, &b) in black.iter().enumerate() {
        line.push_str(&pos(b));
        if let Some(&w) = white.get(i) {
            line.push_str(&pos(w));
        }
    }
    let dir = scratch("white6");
    std::fs::write(dir.join("open.txt"), format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\nrule = 4\ntimeout_turn_ms = 500\ntolerance_ms = 1000\ngames_per_pair = 1\nopenings = \"open.txt\"\n",
        &[fake("b", &["first"]), fake("w", &["script", "4,3"])],
    );
    let done = run(&load(&cfg), &dir, false);
    let r = &done.records[0];
    assert_eq!(r.white, "w");
    assert_eq!(
        (r.outcome, r.reason),
        (Outcome::WhiteWins, Reason::Five),
        "{r:?}"
    );
    assert_eq!(r.moves, 12);
}

#[test]
fn renju_openings_with_a_foul_are_refused_at_load() {
    let dir = scratch("badopen");
    let mut stones = THREE_THREE.to_vec();
    stones.push((7, 7));
    let line = opening_line(&stones, &[]);
    std::fs::write(dir.join("open.txt"), format!("{line}\n")).unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\nrule = 4\ntimeout_turn_ms = 500\nopenings = \"open.txt\"\n",
        &[fake("a", &["first"]), fake("b", &["first"])],
    );
    let err = Config::load(&cfg).err().unwrap_or_default();
    assert!(err.contains("double-three"), "{err}");
    // The same file is accepted under freestyle rules.
    let free = write_config(
        &dir,
        "board_size = 15\nrule = 0\ntimeout_turn_ms = 500\nopenings = \"open.txt\"\n",
        &[fake("a", &["first"]), fake("b", &["first"])],
    );
    assert!(Config::load(&free).is_ok());
}

#[test]
fn shipped_renju_config_and_openings_load() {
    let c = load_shipped("renju.toml");
    assert_eq!(c.settings.board_size, 15);
    assert!(c.settings.rule.renju);
    assert_eq!(c.settings.rule_bits, 4);
    assert_eq!(c.settings.draw_after_moves, 200);
    assert!(c.openings.len() >= 10, "{}", c.openings.len());
}
