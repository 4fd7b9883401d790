//! What a run leaves for people: an SGF per game (and `games.sgf`) that parses back to the
//! same stones, players and result as the PSQ and the journal, every move's `MESSAGE` lines in
//! the journal, and `report.html`, which is checked as text here and in a real browser in
//! `browser.rs`.

mod common;

use common::*;
use wuzi_tournament::psq::Psq;
use wuzi_tournament::record::Outcome;
use wuzi_tournament::sgf;

fn small_tournament(dir: &std::path::Path) -> wuzi_tournament::runner::Finished {
    std::fs::write(dir.join("open.txt"), "h8i9\nc3\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        dir,
        "board_size = 15\ntimeout_turn_ms = 500\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 40\nconcurrency = 2\n",
        &[fake("first", &["first"]), fake("random", &["random", "5"])],
    );
    run(&load(&cfg), dir, false)
}

#[test]
fn every_game_has_an_sgf_that_matches_its_psq_and_record() {
    let dir = scratch("sgf");
    let done = small_tournament(&dir);
    assert_eq!(done.records.len(), 4);
    let out = dir.join("out");
    let mut from_files = Vec::new();
    for r in &done.records {
        let text = std::fs::read_to_string(out.join(format!("games/{:04}.sgf", r.game)))
            .unwrap_or_else(|e| panic!("{e}"));
        let games = sgf::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.prop("FF"), Some("4"));
        assert_eq!(g.prop("GM"), Some("4"));
        assert_eq!(g.prop("SZ"), Some("15"));
        assert_eq!(g.prop("PB"), Some(r.black.as_str()));
        assert_eq!(g.prop("PW"), Some(r.white.as_str()));
        let re = match r.outcome {
            Outcome::BlackWins => "B+1",
            Outcome::WhiteWins => "W+1",
            Outcome::Draw => "0",
        };
        assert_eq!(g.prop("RE"), Some(re));

        // Same stones, same order, alternating colours from black, as the PSQ.
        let psq = Psq::parse(
            &std::fs::read_to_string(out.join(&r.psq)).unwrap_or_else(|e| panic!("{e}")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let psq_stones: Vec<(usize, usize, bool)> = psq
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| (m.x - 1, m.y - 1, i % 2 == 0))
            .collect();
        assert_eq!(g.moves, psq_stones, "game {}", r.game);
        assert_eq!(g.moves.len(), r.moves);

        // Opening stones are marked; the others carry the time and the engine's messages.
        assert_eq!(r.opening_stones, if r.opening == 0 { 2 } else { 1 });
        for (i, c) in g.comments.iter().enumerate() {
            if i < r.opening_stones {
                assert_eq!(c, "opening move");
            } else {
                assert_eq!(c, &format!("{}ms{}", r.plies[i].ms, tail(&r.plies[i].msg)));
                let mover = if i % 2 == 0 { &r.black } else { &r.white };
                // The `first` engine prints a table line before every move, `random` none.
                let expect_tt = mover == "first";
                assert_eq!(
                    c.contains("\ntt probes="),
                    expect_tt,
                    "game {} move {i}: {c}",
                    r.game
                );
            }
        }
        from_files.push(g.clone());
    }

    // games.sgf holds the same trees, in game order.
    let all = std::fs::read_to_string(out.join("games.sgf")).unwrap_or_else(|e| panic!("{e}"));
    let all = sgf::parse(&all).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all, from_files);
}

fn tail(msg: &[String]) -> String {
    msg.iter().map(|m| format!("\n{m}")).collect()
}

#[test]
fn journal_keeps_each_moves_messages() {
    let dir = scratch("msgs");
    let done = small_tournament(&dir);
    let first_black = done
        .records
        .iter()
        .find(|r| r.black == "first")
        .unwrap_or_else(|| panic!("no game with first as black"));
    // The k-th move of `first` was preceded by exactly one table line, 100·k probes.
    let own: Vec<&wuzi_tournament::record::Ply> = first_black
        .plies
        .iter()
        .enumerate()
        .filter(|(i, _)| *i >= first_black.opening_stones && i % 2 == 0)
        .map(|(_, p)| p)
        .collect();
    assert!(!own.is_empty());
    for (k, p) in own.iter().enumerate() {
        assert_eq!(p.msg.len(), 1, "{:?}", p.msg);
        assert!(
            p.msg[0].starts_with(&format!(
                "tt probes={} hits={}",
                100 * (k + 1),
                25 * (k + 1)
            )),
            "{:?}",
            p.msg
        );
    }
    // The records read back from the journal are the ones returned.
    let text =
        std::fs::read_to_string(dir.join("out/results.jsonl")).unwrap_or_else(|e| panic!("{e}"));
    // The first line is the journal's header (its fingerprint), then one record a game.
    assert!(text.starts_with("{\"journal\""), "{text}");
    let lines: Vec<wuzi_tournament::record::GameRecord> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for r in &done.records {
        assert!(lines.contains(r), "game {} differs on disk", r.game);
    }
}

#[test]
fn report_html_is_self_contained_and_holds_every_section() {
    let dir = scratch("html");
    let done = small_tournament(&dir);
    let page =
        std::fs::read_to_string(dir.join("out/report.html")).unwrap_or_else(|e| panic!("{e}"));
    for id in [
        "id=\"standings\"",
        "id=\"crosstable\"",
        "id=\"endings\"",
        "id=\"tt-chart\"",
        "id=\"games\"",
        "id=\"board\"",
        "id=\"data\"",
    ] {
        assert!(page.contains(id), "{id} missing");
    }
    // Nothing is loaded from elsewhere.
    for bad in ["src=\"http", "href=\"http", "<link", "@import", "src=\"//"] {
        assert!(!page.contains(bad), "{bad} in the page");
    }
    // One chart point per game for the engine that prints table lines, none for the other.
    let points = page
        .matches("class=\"tt-point\" data-engine=\"first\"")
        .count();
    assert_eq!(points, done.records.len());
    assert!(!page.contains("data-engine=\"random\" data-game"));
}
