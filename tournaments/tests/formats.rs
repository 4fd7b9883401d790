//! File formats and the rating model: openings in both notations, PSQ records (the shared
//! Piskvork fixture and the runner's own output), Elo against hand-computed values.

mod common;

use common::*;
use std::path::Path;
use wuzi_tournament::board::{Board, Side};
use wuzi_tournament::elo::{self, Tally};
use wuzi_tournament::opening;
use wuzi_tournament::psq::{Psq, PsqMove};
use wuzi_tournament::record::Reason;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() < eps
}

#[test]
fn offset_openings_load() {
    let o = opening::load(&fixture("offset_freestyle20.txt"), 20, FREESTYLE);
    let o = o.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.len(), 4);
    // 8,-3, 6,-4, 5,-4, 4,-3, 2,-8, -1,-5 from the centre (10,10).
    assert_eq!(
        o[0].stones,
        [(18, 7), (16, 6), (15, 6), (14, 7), (12, 2), (9, 5)]
    );
    assert_eq!(o[3].stones.len(), 20);
}

#[test]
fn pos_openings_load() {
    let o = opening::load(&fixture("pos_freestyle20.txt"), 20, FREESTYLE);
    let o = o.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.len(), 4);
    // d3e5f6d7: column letter from a = 0, row number = y + 1.
    assert_eq!(o[0].stones, [(3, 2), (4, 4), (5, 5), (3, 6)]);
    assert_eq!(o[1].stones, [(10, 9), (9, 9), (8, 8), (9, 8), (12, 6)]);
}

#[test]
fn shipped_balanced_openings_load() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/freestyle20_balanced_40.pos.txt");
    let o = opening::load(&path, 20, FREESTYLE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.len(), 40);
    assert!(o.iter().all(|x| (2..=10).contains(&x.stones.len())));

    // `wuzi-tune openings --count 2000 --seed 37` (its header): distinct openings of two to
    // four stones within three cells of the centre.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/freestyle20_random1948.pos.txt");
    let o = opening::load(&path, 20, FREESTYLE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.len(), 1948);
    assert!(o.iter().all(|x| (2..=4).contains(&x.stones.len())));
    assert!(o
        .iter()
        .flat_map(|x| &x.stones)
        .all(|&(x, y)| (7..=13).contains(&x) && (7..=13).contains(&y)));
    let distinct: std::collections::HashSet<_> = o.iter().map(|x| &x.stones).collect();
    assert_eq!(distinct.len(), o.len());

    // `wuzi-tune openings --count 2000 --seed 66 --min-stones 3 --max-stones 8 --offset 9`
    // (its header): three to eight stones in one 7x7 square anywhere on the board, the
    // edges and corners included, as Gomocup's openings are.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("openings/freestyle20_anywhere2000.pos.txt");
    let o = opening::load(&path, 20, FREESTYLE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.len(), 2000);
    assert!(o.iter().all(|x| (3..=8).contains(&x.stones.len())));
    let span = |v: Vec<usize>| v.iter().max().unwrap_or(&0) - v.iter().min().unwrap_or(&0);
    assert!(o.iter().all(|x| {
        span(x.stones.iter().map(|s| s.0).collect()) <= 6
            && span(x.stones.iter().map(|s| s.1).collect()) <= 6
    }));
    let near_edge = |x: &opening::Opening| {
        x.stones
            .iter()
            .any(|&(a, b)| a.min(b) <= 1 || a.max(b) >= 18)
    };
    assert!(o.iter().filter(|x| near_edge(x)).count() > 400);
    let distinct: std::collections::HashSet<_> = o.iter().map(|x| &x.stones).collect();
    assert_eq!(distinct.len(), o.len());
}

#[test]
fn piskvork_fixture_parses_and_replays() {
    let text = std::fs::read_to_string(fixture("gomocuponline_testdata_1x0-16_2.psq"));
    let text = text.unwrap_or_else(|e| panic!("{e}"));
    let psq = Psq::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((psq.width, psq.height), (20, 20));
    assert_eq!(psq.moves.len(), 16);
    assert_eq!(
        psq.moves[0],
        PsqMove {
            x: 10,
            y: 10,
            ms: 456
        }
    );
    assert_eq!(
        psq.moves[15],
        PsqMove {
            x: 15,
            y: 12,
            ms: 32
        }
    );
    assert_eq!(psq.trailer, ["pisq7.exe", "renjusolver.ZIP", "0"]);
    let mut board = Board::new(20);
    for m in &psq.moves {
        assert_eq!(board.play(m.x as i64 - 1, m.y as i64 - 1), Ok(()));
    }
    // Re-written, the record reads back the same.
    assert_eq!(Psq::parse(&psq.to_text()), Ok(psq));
}

#[test]
fn runner_psq_reads_back_and_ends_in_a_five() {
    let dir = scratch("psq");
    let engines = [fake("first", &["first"]), fake("random", &["random", "3"])];
    std::fs::write(dir.join("open.txt"), "h8i9\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 200\ntolerance_ms = 500\nopenings = \"open.txt\"\n",
        &engines,
    );
    let done = run(&load(&cfg), &dir, false);
    assert_eq!(done.records.len(), 2);
    for r in &done.records {
        let text = std::fs::read_to_string(dir.join("out").join(&r.psq));
        let psq = Psq::parse(&text.unwrap_or_else(|e| panic!("{e}")));
        let psq = psq.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(psq.moves.len(), r.moves);
        assert_eq!(psq.trailer, [r.black.as_str(), r.white.as_str(), "0"]);
        assert_eq!((psq.moves[0].x, psq.moves[0].y), (8, 8));
        assert_eq!((psq.moves[1].x, psq.moves[1].y), (9, 9));
        let mut board = Board::new(15);
        for m in &psq.moves {
            assert_eq!(board.play(m.x as i64 - 1, m.y as i64 - 1), Ok(()));
        }
        if r.reason == Reason::Five {
            let last = psq.moves[psq.moves.len() - 1];
            assert!(board.wins_at(last.x - 1, last.y - 1, FREESTYLE));
            let winner = r.outcome.winner().unwrap_or_else(|| panic!("{r:?}"));
            assert_eq!(Side::of_move(psq.moves.len() - 1), winner);
        }
    }
}

#[test]
fn elo_of_known_scores() {
    assert!(close(elo::from_fraction(0.5), 0.0, 1e-9));
    // 400·log10(3): a 75 % score.
    assert!(close(elo::from_fraction(0.75), 190.848_501_887_864_9, 1e-6));
    assert!(close(
        elo::from_fraction(0.25),
        -190.848_501_887_864_9,
        1e-6
    ));
    // 400·log10(9): a 90 % score.
    assert!(close(elo::from_fraction(0.9), 381.697_003_775_729_8, 1e-6));
    assert_eq!(elo::from_fraction(1.0), f64::INFINITY);
    assert_eq!(elo::from_fraction(0.0), f64::NEG_INFINITY);
}

#[test]
fn elo_interval_of_a_known_tally() {
    let z = elo::Z95;
    // No draws: the interval is Wilson's, centre (p + z²/2n)/(1 + z²/n), half-width
    // z/(1 + z²/n)·√(p(1−p)/n + z²/4n²). 17 wins, 3 losses is issue 12's `+301 ± inf`.
    let wilson = |p: f64, n: f64| {
        let k = z * z / n;
        let centre = (p + k / 2.0) / (1.0 + k);
        let half = z / (1.0 + k) * (p * (1.0 - p) / n + k / (4.0 * n)).sqrt();
        (centre - half, centre + half)
    };
    let t = Tally {
        wins: 17,
        draws: 0,
        losses: 3,
    };
    let e = elo::estimate(t).unwrap_or_else(|| panic!("no estimate"));
    let (lo, hi) = wilson(0.85, 20.0);
    assert!(close(e.lower, elo::from_fraction(lo), 1e-6), "{e:?}");
    assert!(close(e.upper, elo::from_fraction(hi), 1e-6), "{e:?}");
    assert!(e.margin.is_finite() && e.margin > 0.0, "{e:?}");
    assert!(e.lower < e.elo && e.elo < e.upper);
    let shown = elo::format(Some(e));
    assert_eq!(shown, format!("+301 ± {:.0}", e.margin));
    assert!(!shown.contains("inf"), "{shown}");

    // With draws the ends solve (p − q)² = z²·(q(1 − q) − d/4)/n: 6 wins, 2 draws, 2 losses.
    let t = Tally {
        wins: 6,
        draws: 2,
        losses: 2,
    };
    let e = elo::estimate(t).unwrap_or_else(|| panic!("no estimate"));
    assert!(close(e.elo, 147.19, 0.01), "{e:?}");
    let (lo, hi) = elo::score_interval(0.7, 0.2, 10.0, z);
    for q in [lo, hi] {
        let lhs = (0.7 - q) * (0.7 - q);
        let rhs = z * z * (q * (1.0 - q) - 0.05) / 10.0;
        assert!(close(lhs, rhs, 1e-12), "q {q}: {lhs} vs {rhs}");
    }
    assert!(lo < 0.7 && 0.7 < hi && hi < 1.0 && lo > 0.0);
    // Draws narrow the interval: the same score from wins and losses only is wider.
    let (wlo, whi) = wilson(0.7, 10.0);
    assert!(whi - wlo > hi - lo);
    assert!(close(
        e.margin,
        (elo::from_fraction(hi) - elo::from_fraction(lo)) / 2.0,
        1e-9
    ));

    // An even score is centred on 0.
    let even = elo::estimate(Tally {
        wins: 5,
        draws: 0,
        losses: 5,
    });
    let even = even.unwrap_or_else(|| panic!("no estimate"));
    assert!(close(even.elo, 0.0, 1e-9));
    assert!(close(even.lower, -even.upper, 1e-9));
    assert!(elo::format(Some(even)).starts_with("+0 ± "));

    assert_eq!(elo::estimate(Tally::default()), None);
    // 100 % and 0 %: the Elo is unbounded, the other end is a one-sided bound, n/(n + z²).
    let all = elo::estimate(Tally {
        wins: 4,
        draws: 0,
        losses: 0,
    });
    let all = all.unwrap_or_else(|| panic!("no estimate"));
    let bound = elo::from_fraction(4.0 / (4.0 + z * z));
    assert!(close(all.lower, bound, 1e-6), "{all:?}");
    assert_eq!(all.upper, f64::INFINITY);
    assert_eq!(elo::format(Some(all)), format!("≥ {:+.0}", bound));
    let none = elo::estimate(Tally {
        wins: 0,
        draws: 0,
        losses: 4,
    });
    assert_eq!(elo::format(none), format!("≤ {:+.0}", -bound));
}
