//! Frozen Zobrist keys: the keys of a few positions, recorded once from the tables that
//! `ZOBRIST_SEED` generates, must not change unnoticed. A change to the seed, to the
//! generation order or to `rand`'s `StdRng` stream shows up here first.
//!
//! To re-record after an intended change: `WUZI_BLESS=1 cargo test --test core_reference_keys`,
//! then review the diff of `tests/fixtures/reference_keys.txt`.

use std::fmt::Write as _;
use wuzi::{Board, Color, Pos, Rule};

const FIXTURE: &str = "tests/fixtures/reference_keys.txt";

/// The positions: a name, a board size, moves as `x,y` (alternating from black), and an
/// optional side to move forced afterwards.
const POSITIONS: [(&str, usize, &str, Option<Color>); 6] = [
    ("empty", 20, "", None),
    ("empty-white-to-move", 20, "", Some(Color::White)),
    ("centre", 20, "10,10", None),
    ("opening", 15, "7,7 8,8 6,8 8,6 8,7", None),
    (
        "corners",
        20,
        "0,0 19,19 19,0 0,19 10,9 9,10 1,1 18,18",
        None,
    ),
    (
        "big-board",
        32,
        "31,31 0,0 16,16 15,17 17,15",
        Some(Color::Black),
    ),
];

fn position(size: usize, moves: &str, side: Option<Color>) -> Board {
    let mut b = Board::new(size, Rule::FREESTYLE).expect("fixture sizes are valid");
    for m in moves.split_whitespace() {
        let (x, y) = m.split_once(',').expect("moves are x,y");
        let p = Pos::new(x.parse().expect("x"), y.parse().expect("y"));
        b.play(p);
    }
    if let Some(side) = side {
        b.set_side_to_move(side);
    }
    b
}

fn render() -> String {
    let mut out = String::from("# name hash check (Zobrist keys, seed ZOBRIST_SEED)\n");
    for (name, size, moves, side) in POSITIONS {
        let b = position(size, moves, side);
        let k = b.key();
        assert_eq!(k, b.compute_key());
        writeln!(out, "{name} {:016x} {:016x}", k.hash, k.check).expect("String write");
    }
    out
}

#[test]
fn keys_match_the_frozen_fixture() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let now = render();
    if std::env::var_os("WUZI_BLESS").is_some() {
        std::fs::write(&path, &now).expect("write fixture");
        return;
    }
    let frozen = std::fs::read_to_string(&path).expect("fixture present");
    assert_eq!(frozen.lines().count(), POSITIONS.len() + 1);
    for (want, got) in frozen.lines().zip(now.lines()) {
        assert_eq!(got, want);
    }
    // The empty board with black to move is the zero key; the side word is not zero.
    assert!(frozen.contains("\nempty 0000000000000000 0000000000000000\n"));
}
