//! Zobrist keys under random play: both incremental words always equal a full
//! recomputation, and undo restores them exactly.

use proptest::prelude::*;
use wuzi::{Board, Color, Pos, Rule};

/// One step of a random game: play near `(x, y)` (the first empty cell from there in
/// reading order), or take the last move back.
#[derive(Clone, Debug)]
enum Step {
    Play(usize, usize),
    Undo,
    /// Flip the side to move, as a `BOARD` set-up can.
    Side,
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        prop_oneof![
            6 => (0usize..32, 0usize..32).prop_map(|(x, y)| Step::Play(x, y)),
            3 => Just(Step::Undo),
            1 => Just(Step::Side),
        ],
        1..120,
    )
}

fn rule() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::FREESTYLE),
        Just(Rule::STANDARD),
        Just(Rule::CARO)
    ]
}

/// The first empty cell at or after `(x, y)` in reading order, wrapping around.
fn empty_from(board: &Board, x: usize, y: usize) -> Option<Pos> {
    let n = board.size();
    let start = (y % n) * n + x % n;
    (0..n * n)
        .map(|i| (start + i) % (n * n))
        .map(|i| Pos::new(i % n, i / n))
        .find(|&p| board.is_empty(p))
}

fn run(size: usize, rule: Rule, steps: &[Step]) -> Result<(), TestCaseError> {
    let mut board = Board::new(size, rule).map_err(|e| TestCaseError::fail(e.to_string()))?;
    // Keys before each move still on the board, to check undo against.
    let mut before = Vec::new();
    for step in steps {
        match *step {
            Step::Play(x, y) => {
                if let Some(p) = empty_from(&board, x, y) {
                    before.push(board.key());
                    board.play(p);
                    prop_assert_ne!(Some(&board.key()), before.last());
                }
            }
            Step::Undo => {
                if let Some(k) = before.pop() {
                    board
                        .undo()
                        .map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let now = board.key();
                    prop_assert_eq!(now.hash, k.hash);
                    prop_assert_eq!(now.check, k.check);
                } else {
                    prop_assert!(board.undo().is_err());
                }
            }
            Step::Side => {
                let side = board.side_to_move().opp();
                let k = board.key();
                board.set_side_to_move(side);
                // Undo restores the side recorded with the move, so keys in `before` stay
                // exact across a flip.
                prop_assert_ne!(board.key(), k);
            }
        }
        let full = board.compute_key();
        prop_assert_eq!(board.key().hash, full.hash);
        prop_assert_eq!(board.key().check, full.check);
        board.validate();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn keys_track_recomputation_15(rule in rule(), steps in steps()) {
        run(15, rule, &steps)?;
    }

    #[test]
    fn keys_track_recomputation_20(rule in rule(), steps in steps()) {
        run(20, rule, &steps)?;
    }
}

/// Undoing a whole game returns to the empty board's key, which is zero for black to move.
#[test]
fn undo_all_returns_to_zero() {
    let mut board = Board::new(20, Rule::FREESTYLE).unwrap();
    let cells = [(10, 10), (11, 10), (9, 9), (0, 0), (19, 19), (5, 17)];
    for (x, y) in cells {
        board.play(Pos::new(x, y));
    }
    assert_eq!(board.side_to_move(), Color::Black);
    for _ in cells {
        board.undo().unwrap();
    }
    assert_eq!((board.key().hash, board.key().check), (0, 0));
}
