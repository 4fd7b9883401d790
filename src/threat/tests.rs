//! Unit tests of the threat searches' inner steps.

use super::*;
use crate::budget::Budget;
use crate::eval::pattern::Pattern4;
use crate::types::Rule;
use smallvec::SmallVec;

fn vct_key_of(moves: &[(usize, usize)]) -> MultiKey {
    let mut board = Board::new(15, Rule::FREESTYLE).expect("size");
    for &(x, y) in moves {
        board.play(Pos::new(x, y));
    }
    let mut tt = TranspositionTable::with_bytes(0);
    let mut budget = Budget::new(1, None);
    ThreatSearch::new(&mut board, &mut tt, &mut budget).vct_key(0, false)
}

/// Black: a closed three down column 7 (White caps it at (7,2)) and a stone at (10,6);
/// White: a closed three on row 13 (one four to make) far away. Black to move.
fn quiet_threat_board() -> Board {
    let mut board = Board::new(15, Rule::FREESTYLE).expect("size");
    for (x, y) in [(7, 3), (7, 4), (7, 5), (10, 6), (0, 13)] {
        board.play_as(Pos::new(x, y), Color::Black);
    }
    for (x, y) in [(7, 2), (1, 13), (2, 13), (3, 13), (12, 12)] {
        board.play_as(Pos::new(x, y), Color::White);
    }
    board.set_side_to_move(Color::Black);
    board
}

fn with_search<R>(board: &mut Board, f: impl FnOnce(&mut ThreatSearch) -> R) -> R {
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    let mut budget = Budget::new(1_000_000, None);
    let mut ts = ThreatSearch::new(board, &mut tt, &mut budget);
    f(&mut ts)
}

#[test]
fn an_open_two_with_a_four_three_behind_it_is_a_quiet_threat() {
    let mut board = quiet_threat_board();
    let quiet = Pos::new(9, 6);
    let class = board.p4(quiet, Color::Black);
    assert!(
        class >= Pattern4::LFlex2 && class < Pattern4::HFlex3,
        "{class:?}"
    );
    let moves = with_search(&mut board, |ts| {
        let mut moves = SmallVec::new();
        ts.push_quiet_threats(Color::Black, true, None, &mut moves);
        moves
    });
    // (9,6) makes (7,6) a 4-3 cell; a cell far from Black's stones makes nothing.
    assert!(moves.contains(&quiet), "{moves:?}");
    assert!(!moves.contains(&Pos::new(12, 2)), "{moves:?}");
    assert_eq!(board.key(), quiet_threat_board().key());
}

#[test]
fn a_quiet_threat_is_answered_on_its_vcf_line_or_by_a_counter_four() {
    let mut board = quiet_threat_board();
    board.play(Pos::new(9, 6));
    let (threat, replies) = with_search(&mut board, |ts| {
        let threat = ts.pass_vcf(QUIET_THREAT_FOURS).expect("a VCF after a pass");
        let replies = ts.threat_defences(&threat);
        (threat, replies)
    });
    // Four at (7,6), forced block (7,7), then (8,6) makes an open four on row 6.
    assert_eq!(
        threat[..3],
        [Pos::new(7, 6), Pos::new(7, 7), Pos::new(8, 6)]
    );
    let mut expected = vec![
        Pos::new(7, 6),
        Pos::new(7, 7),
        Pos::new(8, 6),
        Pos::new(6, 6),
        Pos::new(11, 6),
        // White's own fours on row 13.
        Pos::new(4, 13),
        Pos::new(5, 13),
    ];
    let mut got: Vec<Pos> = replies.to_vec();
    expected.sort_by_key(|p| p.index());
    got.sort_by_key(|p| p.index());
    assert_eq!(got, expected);
    // The board is back as it was, White to move.
    board.undo().expect("undo");
    assert_eq!(board.key(), quiet_threat_board().key());
}

#[test]
fn a_move_that_threatens_nothing_is_no_vct_threat() {
    let mut board = quiet_threat_board();
    board.play(Pos::new(12, 2));
    let r = with_search(&mut board, |ts| {
        ts.vct_defend(6, 0, false, &mut ProofLine::new())
    });
    assert_eq!(r, None);
}

#[test]
fn the_attacker_must_answer_a_defender_vcf_before_his_own_threes() {
    // White has an open three on row 10: were it his move he would win by fours, so a
    // Black move that neither blocks it nor makes a four only loses a tempo.
    let mut board = quiet_threat_board();
    for (x, y) in [(4, 10), (5, 10), (6, 10)] {
        board.play_as(Pos::new(x, y), Color::White);
    }
    board.set_side_to_move(Color::Black);
    let answers = with_search(&mut board, |ts| {
        let threat = ts.pass_vcf(COUNTER_VCF_FOURS).expect("White's open three");
        ts.threat_defences(&threat)
    });
    // (9,6), Black's quiet threat above, is no answer here.
    assert!(!answers.contains(&Pos::new(9, 6)), "{answers:?}");
    assert!(!answers.contains(&Pos::new(8, 6)), "{answers:?}");
    // A block next to White's three is, and so are Black's own fours.
    assert!(
        answers.contains(&Pos::new(3, 10)) || answers.contains(&Pos::new(7, 10)),
        "{answers:?}"
    );
    assert!(answers.contains(&Pos::new(7, 6)), "{answers:?}");
    assert!(answers.contains(&Pos::new(7, 7)), "{answers:?}");
}

#[test]
fn vct_keys_of_positions_differing_in_the_last_attack_differ() {
    // Same stones but the attacker's last stone on another cell: different positions,
    // which the memo must never confuse.
    let a = vct_key_of(&[(7, 7), (0, 0), (8, 8), (0, 1), (9, 9), (0, 2)]);
    let b = vct_key_of(&[(7, 7), (0, 0), (8, 8), (0, 1), (6, 6), (0, 2)]);
    assert_ne!(a.hash, b.hash);
    assert_ne!(a.check, b.check);
    // The same position reached the same way has the same key.
    assert_eq!(
        a,
        vct_key_of(&[(7, 7), (0, 0), (8, 8), (0, 1), (9, 9), (0, 2)])
    );
}
