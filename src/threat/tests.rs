//! Unit tests of the threat searches' inner steps.

use super::*;
use crate::board::cells_at_least;
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

/// Replay `line` (attacker, forced block, ..., the five) on `board` and check that it is a
/// VCF of the side to move, each four after the first near the attacker's previous one
/// unless it also blocks a five of the defender's (then it is the only move).
fn check_local_vcf(board: &Board, line: &ProofLine) {
    let mut b = board.clone();
    let me = b.side_to_move();
    for (i, &m) in line.iter().enumerate() {
        if i % 2 == 0 {
            let class = b.p4(m, me);
            let five = i + 1 == line.len();
            assert!(
                if five {
                    class == Pattern4::AFive
                } else {
                    class >= Pattern4::EBlock4
                },
                "move {i} of {line:?}: {class:?}"
            );
            let forced = five_cells(&b, me.opp(), 1).first() == Some(&m);
            if i >= 2 && !five && !forced {
                assert!(line[i - 2].near_square2_line4(m), "{line:?}");
            }
        }
        b.play(m);
    }
}

#[test]
fn a_local_vcf_is_a_vcf_and_never_hides_a_full_one() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(33);
    let (mut tried, mut local_won) = (0, 0);
    while tried < 1000 {
        // A random middle game off the edge, the side to move with two fours to make.
        let mut board = Board::new(15, Rule::FREESTYLE).expect("size");
        for _ in 0..rng.random_range(12..36) {
            let p = Pos::new(rng.random_range(1..14), rng.random_range(1..14));
            if board.is_empty(p) && !board.is_five(p, board.side_to_move()) {
                board.play(p);
            }
        }
        let me = board.side_to_move();
        if board.count(me, Pattern4::AFive) > 0
            || board.count(me.opp(), Pattern4::AFive) > 0
            || board.count_at_least(me, Pattern4::EBlock4) < 2
        {
            continue;
        }
        tried += 1;
        let full = with_search(&mut board.clone(), |ts| ts.vcf(12));
        // The local search first, then the full one on the same table: a local failure
        // must not be recalled as the full search's.
        let (local, full_after) =
            with_search(&mut board.clone(), |ts| (ts.vcf_local(12), ts.vcf(12)));
        assert_eq!(full_after.is_some(), full.is_some());
        if let Some(line) = &local {
            assert!(full.is_some(), "a local VCF is a VCF");
            check_local_vcf(&board, line);
            local_won += 1;
        }
    }
    // Random positions almost never hold a VCF the local search misses (none in these);
    // `split_vcf_board` is one.
    assert!(local_won > 100, "{local_won} local wins");
}

/// Black (to move) wins by two fours far apart, the column four at (6,10) and the diagonal
/// four at (10,7), then the double four at (10,10). Either four followed at once by (10,10)
/// lets White block with a four of his own, and the two fours are neither within two cells
/// nor four along a line of each other.
fn split_vcf_board() -> Board {
    let mut board = Board::new(20, Rule::FREESTYLE).expect("size");
    let black = [
        (6, 7),
        (6, 8),
        (6, 9),
        (8, 10),
        (9, 10),
        (10, 8),
        (10, 9),
        (9, 6),
        (8, 5),
        (7, 4),
        (7, 14),
    ];
    let white = [
        (6, 6),
        (11, 10),
        (10, 11),
        (11, 8),
        (7, 11),
        (7, 12),
        (7, 13),
        (10, 5),
        (10, 4),
        (10, 3),
        (5, 10),
        (5, 2),
    ];
    for (x, y) in black {
        board.play_as(Pos::new(x, y), Color::Black);
    }
    for (x, y) in white {
        board.play_as(Pos::new(x, y), Color::White);
    }
    board.set_side_to_move(Color::Black);
    board
}

#[test]
fn a_local_vcf_misses_two_distant_fours_and_leaves_the_full_vcf_its_table() {
    let board = split_vcf_board();
    let (f1, f2, w) = (Pos::new(6, 10), Pos::new(10, 7), Pos::new(10, 10));
    assert!(!f1.near_square2_line4(f2));
    let full = with_search(&mut board.clone(), |ts| ts.vcf(12)).expect("the full VCF");
    let fours: Vec<Pos> = full.iter().step_by(2).copied().collect();
    assert!(
        fours.contains(&f1) && fours.contains(&f2) && fours.contains(&w),
        "{full:?}"
    );
    // The local search fails, and its failure, in the same table, does not hide the VCF.
    let (local, after) = with_search(&mut board.clone(), |ts| (ts.vcf_local(12), ts.vcf(12)));
    assert_eq!(local, None);
    assert_eq!(after, Some(full));
}

#[test]
fn local_fours_are_within_two_cells_or_four_along_a_line() {
    let c = Pos::new(10, 10);
    let near =
        |dx: i64, dy: i64| c.near_square2_line4(Pos::new((10 + dx) as usize, (10 + dy) as usize));
    for (dx, dy) in [(2, 2), (-2, 1), (0, 4), (-4, 0), (4, 4), (-3, 3), (1, -2)] {
        assert!(near(dx, dy), "({dx}, {dy})");
    }
    for (dx, dy) in [(3, 1), (4, 3), (5, 0), (0, -5), (-5, -5), (3, -2)] {
        assert!(!near(dx, dy), "({dx}, {dy})");
    }
}

/// Whether some move of the side to move leaves every reply facing a five or a VCF: a win
/// within `plies` plies (3 or more; the move and its reply, then a VCF of `(plies - 3) / 2`
/// fours before its five). Only legal moves are played (black's renju fouls are not).
fn wins_within(board: &mut Board, plies: i32) -> bool {
    let me = board.side_to_move();
    let fours = (plies - 3) / 2;
    let mut firsts = cells_at_least(board, me, Pattern4::FFlex3x2);
    retain_legal(board, me, &mut firsts);
    firsts.iter().any(|&m| {
        board.play(m);
        let mut replies = board.candidates();
        retain_legal(board, me.opp(), &mut replies);
        let holds = replies.iter().all(|&r| {
            board.play(r);
            let won = with_search(board, |ts| ts.vcf(fours)).is_some();
            board.undo().ok();
            won
        });
        board.undo().ok();
        holds
    })
}

#[test]
fn every_quick_win_holds_against_every_reply() {
    quick_wins_hold_under(Rule::FREESTYLE, 11);
}

#[test]
fn every_quick_win_holds_against_every_reply_under_exactly_five() {
    quick_wins_hold_under(Rule::STANDARD, 12);
}

#[test]
fn no_quick_win_is_claimed_under_caro() {
    quick_wins_hold_under(Rule::CARO, 15);
}

#[test]
fn every_quick_win_holds_against_every_reply_under_renju() {
    quick_wins_hold_under(Rule::RENJU, 16);
}

#[test]
fn quick_wins_are_claimed_where_the_shapes_are_exact() {
    // Black's open three (h8 i8 j8) on 15x15, white's stones far off, black to move: an
    // open four to make, claimed under freestyle and exactly five only.
    for (rule, claimed) in [
        (Rule::FREESTYLE, Some(3)),
        (Rule::STANDARD, Some(3)),
        (Rule::CARO, None),
        (Rule::RENJU, None),
    ] {
        let mut board = Board::new(15, rule).expect("size");
        for (x, y) in [(7, 7), (0, 0), (8, 7), (0, 14), (9, 7), (14, 0)] {
            board.play(Pos::new(x, y));
        }
        assert_eq!(node_kind(&board), NodeKind::Quiet);
        assert_eq!(quick_win(&mut board, true), claimed, "{rule:?}");
    }
    // White to move with two open twos crossing at h8 (i8 j8, h9 h10), black far off: a
    // double three to make, claimed for white under renju too; and with k8 added (i8 j8
    // k8), an open four to make.
    for (rule, claimed) in [
        (Rule::FREESTYLE, [Some(5), Some(3)]),
        (Rule::STANDARD, [Some(5), Some(3)]),
        (Rule::CARO, [None, None]),
        (Rule::RENJU, [Some(5), Some(3)]),
    ] {
        let mut board = Board::new(15, rule).expect("size");
        let black = [(0, 0), (0, 14), (14, 0), (14, 14), (2, 2), (2, 12)];
        let white = [(8, 7), (9, 7), (7, 8), (7, 9), (10, 7)];
        for k in 0..4 {
            board.play(Pos::new(black[k].0, black[k].1));
            board.play(Pos::new(white[k].0, white[k].1));
        }
        board.play(Pos::new(black[4].0, black[4].1));
        assert_eq!(board.p4(Pos::new(7, 7), Color::White), Pattern4::FFlex3x2);
        assert_eq!(quick_win(&mut board, true), claimed[0], "{rule:?}");
        assert_eq!(quick_win(&mut board, false), None, "{rule:?}");
        board.play(Pos::new(white[4].0, white[4].1));
        board.play(Pos::new(black[5].0, black[5].1));
        assert_eq!(board.count(Color::White, Pattern4::BFlex4), 2);
        assert_eq!(quick_win(&mut board, false), claimed[1], "{rule:?}");
    }
}

/// Random games under `rule` (legal moves only) until a quick win is claimed at a quiet or
/// defence node; each claim is played out against every reply.
fn quick_wins_hold_under(rule: Rule, seed: u64) {
    use rand::{rngs::StdRng, Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(seed);
    // Quick wins met, by plies to the five (3 or 5); those met with opponent fours to make,
    // by plies; and those met at defence nodes (the opponent threatens an open four).
    let mut met = [0usize; 6];
    let mut against_fours = [0usize; 6];
    let mut at_defence = 0;
    for _ in 0..400 {
        let mut board = Board::new(15, rule).expect("size");
        board.play(Pos::new(7, 7));
        while board.move_count() < 60 {
            let kind = node_kind(&board);
            if !matches!(kind, NodeKind::Quiet | NodeKind::Defend) {
                break;
            }
            let me = board.side_to_move();
            let opp_fours = board.count_at_least(me.opp(), Pattern4::EBlock4);
            let open_four = board.count(me, Pattern4::BFlex4) > 0;
            let quick = quick_win(&mut board, true);
            // An open four (or double four) is claimed as a win in three whatever fours the
            // opponent has: the node has no five to block, so ours comes first.
            // Claims are made where the shapes are exact: not under caro, nor for black
            // under renju.
            if rule.shapes_exact_for(me) {
                assert_eq!(open_four, quick == Some(3));
            } else {
                assert_eq!(quick, None);
            }
            if let Some(plies) = quick {
                let moves: Vec<String> = board.history().map(|p| format!("{p:?}")).collect();
                // The win takes no more plies than claimed and, while the opponent has no
                // four to make, no fewer: a win in three is then claimed as three.
                assert!(wins_within(&mut board, plies), "{}", moves.join(" "));
                if plies == 5 && opp_fours == 0 {
                    assert!(!wins_within(&mut board, 3), "{}", moves.join(" "));
                }
                met[plies as usize] += 1;
                against_fours[plies as usize] += (opp_fours > 0) as usize;
                at_defence += (kind == NodeKind::Defend) as usize;
                break;
            }
            // Without the combinations only the open four counts.
            assert_ne!(quick_win(&mut board, false), Some(5));
            let mut moves = board.candidates();
            retain_legal(&board, me, &mut moves);
            if moves.is_empty() {
                break;
            }
            board.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    let summary = format!("{rule:?}: {met:?} {against_fours:?} {at_defence}");
    if rule.caro {
        assert_eq!(met, [0; 6], "{summary}");
        return;
    }
    assert!(met[3] >= 10 && against_fours[3] >= 5, "{summary}");
    assert!(met[5] >= 20 && against_fours[5] >= 5, "{summary}");
    assert!(at_defence >= 5, "{summary}");
}
