//! The rule seam: exactly-five and caro get exact pattern classes from wide tables (the
//! fifth cell each side), kept current by `play`/`undo` exactly as freestyle's are.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wuzi::eval::pattern::{Pattern, Pattern4};
use wuzi::{Board, Color, Pos, Rule};

const CARO_EXACT: Rule = Rule {
    exact_five: true,
    caro: true,
    renju: false,
};
const ALL: [Rule; 4] = [Rule::FREESTYLE, Rule::STANDARD, Rule::CARO, CARO_EXACT];

/// Every empty cell's class says "five" exactly when a stone there really wins, for both
/// colours: the classes are exact for the rule.
fn fives_are_exact(b: &Board) {
    let n = b.size();
    for y in 0..n {
        for x in 0..n {
            let p = Pos::new(x, y);
            if !b.is_empty(p) {
                continue;
            }
            for c in [Color::Black, Color::White] {
                assert_eq!(
                    b.p4(p, c) == Pattern4::AFive,
                    b.is_five(p, c),
                    "{:?} {p:?} {c:?}\n{}",
                    b.rule(),
                    b.to_diagram()
                );
            }
        }
    }
}

/// Random games with take-backs on several sizes: after every move and every undo the
/// incremental shapes, counts and keys equal a recomputation, and five classes are exact.
#[test]
fn random_play_and_undo_keep_every_rule_exact() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0010);
    for rule in ALL {
        for size in [5, 9, 15, 20, 32] {
            let mut b = Board::new(size, rule).expect("size");
            for step in 0..400 {
                let undo = b.move_count() > 0 && (b.is_full() || rng.random_bool(0.3));
                if undo {
                    b.undo().expect("a move to undo");
                } else {
                    // Near the last stones, so lines form and overlines happen.
                    let p = loop {
                        let p = match b.last_move() {
                            Some(l) if rng.random_bool(0.8) => {
                                let dx = rng.random_range(-5i64..=5);
                                let dy = rng.random_range(-5i64..=5);
                                let (x, y) = (l.x() as i64 + dx, l.y() as i64 + dy);
                                if !b.contains(x, y) {
                                    continue;
                                }
                                Pos::new(x as usize, y as usize)
                            }
                            _ => Pos::new(rng.random_range(0..size), rng.random_range(0..size)),
                        };
                        if b.is_empty(p) {
                            break p;
                        }
                    };
                    let color = if rng.random_bool(0.5) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    b.play_as(p, color);
                }
                b.validate();
                if step % 10 == 0 {
                    fives_are_exact(&b);
                }
            }
        }
    }
}

fn diagram(rule: Rule, d: &str) -> Board {
    Board::from_diagram(d, rule, None).expect("diagram")
}

#[test]
fn an_overline_cell_is_no_five_under_exactly_five() {
    // Black `XXXX.X`: the gap makes six.
    let d = "
        .........
        .........
        .XXXX.X..
        .........
        ..O..O...
        ...O.....
        .........
        .........
        .........";
    let gap = Pos::new(5, 2);
    let free = diagram(Rule::FREESTYLE, d);
    assert_eq!(free.p4(gap, Color::Black), Pattern4::AFive);
    let exact = diagram(Rule::STANDARD, d);
    assert!(exact.p4(gap, Color::Black) < Pattern4::AFive);
    assert!(!exact.is_five(gap, Color::Black));
    // The other end still makes exactly five.
    assert_eq!(exact.p4(Pos::new(0, 2), Color::Black), Pattern4::AFive);
}

#[test]
fn a_four_whose_only_five_is_an_overline_is_no_four_under_exactly_five() {
    // Black `XXX.X.X`: (4,2) would make six and (3,2) seven, so neither is a five; the
    // line through (3,2) is no four for black under exactly five.
    let d = "
        ..........
        ..........
        XXX..X.X..
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........";
    let b = diagram(Rule::STANDARD, d);
    let line = |p: Pos| b.cell(p).line(0, Color::Black as usize);
    let free = diagram(Rule::FREESTYLE, d);
    let free_line = |p: Pos| free.cell(p).line(0, Color::Black as usize);
    // Freestyle: (3,2) makes XXXX.X.X, a four (one cell makes five or more).
    assert!(free_line(Pos::new(3, 2)) >= Pattern::B4);
    // Exactly five: (4,2) after (3,2) would be an overline, so no four.
    assert!(
        line(Pos::new(3, 2)) < Pattern::B4,
        "{:?}",
        line(Pos::new(3, 2))
    );
}

#[test]
fn a_five_closed_at_both_ends_is_no_five_under_caro() {
    let d = "
        .........
        .........
        OXXXX.O..
        .........
        .........
        .........
        .........
        .........
        .........";
    let cell = Pos::new(5, 2);
    let caro = diagram(Rule::CARO, d);
    assert!(caro.p4(cell, Color::Black) < Pattern4::AFive);
    assert!(!caro.is_five(cell, Color::Black));
    let free = diagram(Rule::FREESTYLE, d);
    assert_eq!(free.p4(cell, Color::Black), Pattern4::AFive);
}
