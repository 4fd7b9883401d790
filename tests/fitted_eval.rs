//! The fitted set, played: with its pattern-code shares and per-side code terms the
//! board's incremental sums still equal a recomputation after every move and take-back,
//! and the engine's evaluation equals the fit's (`features::eval_with`) in every position
//! under every rule (renju's drops black's three-three cells from both), so what
//! `wuzi-tune` fitted is what the engine plays. (Its own process: the set is
//! selected for the whole process before the first board is built.)

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use wuzi::eval::sets::{select, threat_mask, SetName};
use wuzi::eval::{evaluate, evaluate_parts, Shapes};
use wuzi::tune::features::{eval_with, Features};
use wuzi::{Board, Pos, Rule, Score};

#[test]
fn the_engine_evaluates_the_fitted_set_as_the_fit_does() {
    select(SetName::Fitted);
    let set = SetName::Fitted.weights();
    assert!(
        !set.code.is_empty() && !set.code_own.is_empty() && !set.code_opp.is_empty(),
        "the fitted set has pattern-code terms to check"
    );
    let mut rng = StdRng::seed_from_u64(3);
    let boards = [
        (15, Rule::FREESTYLE),
        (20, Rule::FREESTYLE),
        (15, Rule::STANDARD),
        (15, Rule::RENJU),
    ];
    for (size, rule) in boards {
        let mut board = Board::new(size, rule).expect("a board");
        let mut played = 0;
        while played < 60 {
            let moves = board.candidates();
            let Some(&pos) = moves.choose(&mut rng) else {
                break;
            };
            if board.is_five(pos, board.side_to_move()) {
                break;
            }
            board.play(pos);
            played += 1;
            board.validate();
            // Under renju both drop black's three-three cells from the class counts.
            assert_eq!(
                eval_with(&Features::of(&board), set),
                evaluate(&board),
                "{size}x{size} {rule:?} after {played} moves:\n{}",
                board.to_diagram()
            );
            if played % 7 == 0 {
                // A take-back restores the sums exactly; the move played again, too.
                let before = evaluate(&board);
                board.undo().expect("a move to take back");
                board.validate();
                board.play(pos);
                board.validate();
                assert_eq!(evaluate(&board), before);
            }
        }
        assert!(
            played >= 30,
            "{size}x{size} {rule:?}: only {played} moves:\n{}",
            board.to_diagram()
        );
    }
}

/// `evaluate_parts` splits `evaluate` as the search reads it: the whole value, and the part
/// kept out of the two-ply mean, the threat table's entry for the position's class counts.
#[test]
fn the_side_part_is_the_threat_table_entry_of_the_position() {
    select(SetName::Fitted);
    let set = SetName::Fitted.weights();
    let mut board = Board::new(15, Rule::FREESTYLE).expect("a board");
    // Black: an open three down column 7; White: two stones. White to move.
    for (x, y) in [(7, 7), (8, 8), (7, 8), (8, 6), (7, 9)] {
        board.play(Pos::new(x, y));
    }
    let me = board.side_to_move();
    let (whole, threat) = evaluate_parts(&board);
    assert_eq!(whole, evaluate(&board));
    let mask = threat_mask(board.counts(me), board.counts(me.opp()));
    assert_ne!(mask, 0, "an open three to answer is a threat state");
    assert_eq!(threat, set.threat[mask] as Score);
    assert_ne!(threat, 0, "the fitted table weighs this state");
}
