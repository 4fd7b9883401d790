//! The brain driven line by line, without pipes.

use super::*;
use crate::types::Color;
use gomocup_protocol::{Command, Parser, TtReport};

/// Feed wire lines, return the reply lines as text.
fn talk(brain: &mut Brain, lines: &[&str]) -> Vec<String> {
    let mut parser = Parser::new();
    let mut out = Vec::new();
    for line in lines {
        if let Some(input) = parser.feed(line.as_bytes()) {
            out.extend(
                brain
                    .handle(input, Instant::now())
                    .iter()
                    .map(|r| r.to_string()),
            );
        }
    }
    out
}

fn brain() -> Brain {
    let mut b = Brain::new(EngineConfig::default());
    talk(&mut b, &["INFO timeout_turn 0"]);
    b
}

#[test]
fn folder_keeps_its_spaces() {
    let mut b = brain();
    assert!(talk(&mut b, &["INFO folder C:/a b/c"]).is_empty());
    assert_eq!(b.folder(), Some("C:/a b/c"));
}

#[test]
fn the_tt_line_parses_with_the_protocol_reader() {
    let mut b = brain();
    let out = talk(&mut b, &["START 15", "TURN 7,7", "TURN 9,9"]);
    let tt: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("MESSAGE tt "))
        .collect();
    assert_eq!(tt.len(), 2);
    for line in tt {
        let r = TtReport::parse_line(line);
        assert!(r.is_ok(), "{line}");
    }
    // Counters restart with the game.
    talk(&mut b, &["START 15"]);
    assert_eq!(b.engine().tt_stats().probes, 0);
}

#[test]
fn info_survives_start_and_the_sentinel_is_no_budget() {
    let mut b = brain();
    talk(
        &mut b,
        &["INFO time_left 2147483647", "INFO max_node -1", "START 15"],
    );
    let t = b.time_control();
    assert_eq!((t.turn_ms, t.left_ms, t.max_nodes), (0, None, None));
    talk(&mut b, &["INFO time_left -500", "INFO max_depth 3"]);
    let t = b.time_control();
    assert_eq!((t.left_ms, t.max_depth), (Some(-500), Some(3)));
}

#[test]
fn a_bad_board_leaves_an_empty_board() {
    let mut b = brain();
    let out = talk(
        &mut b,
        &["START 15", "TURN 7,7", "BOARD", "1,1,1", "1,1,2", "DONE"],
    );
    assert!(
        out.last().is_some_and(|l| l.starts_with("ERROR ")),
        "{out:?}"
    );
    assert_eq!(b.engine().board().move_count(), 0);
}

#[test]
fn a_rejected_turn_changes_nothing() {
    let mut b = brain();
    talk(&mut b, &["START 15", "TURN 7,7"]);
    let before: Vec<_> = b.engine().board().history().collect();
    for bad in ["TURN 7,7", "TURN 15,0", "TURN a,b", "BEGIN", "TAKEBACK 7,7"] {
        let out = talk(&mut b, &[bad]);
        assert!(
            matches!(out.as_slice(), [l] if l.starts_with("ERROR ")),
            "{bad}: {out:?}"
        );
        let after: Vec<_> = b.engine().board().history().collect();
        assert_eq!(after, before, "{bad}");
    }
}

#[test]
fn board_colours_follow_the_counts() {
    let mut b = brain();
    talk(&mut b, &["START 15", "BOARD", "7,7,1", "8,8,2", "DONE"]);
    // Equal counts: we are black; our stone at 7,7 is black, and we just moved again.
    let board = b.engine().board();
    assert_eq!(board.at(Pos::new(7, 7)), crate::types::Stone::Black);
    assert_eq!(board.at(Pos::new(8, 8)), crate::types::Stone::White);
    assert_eq!(board.side_to_move(), Color::White);
    talk(&mut b, &["BOARD", "7,7,2", "DONE"]);
    let board = b.engine().board();
    assert_eq!(board.at(Pos::new(7, 7)), crate::types::Stone::Black);
    assert_eq!(board.stones_of(Color::White), 1);
}

#[test]
fn a_rule_change_after_start_applies_to_the_game() {
    let mut b = brain();
    talk(&mut b, &["START 15", "INFO rule 9"]);
    assert_eq!(b.engine().board().rule(), Rule::from_bits(9));
    talk(&mut b, &["START 15"]);
    assert_eq!(b.engine().board().rule(), Rule::from_bits(9));
}

#[test]
fn about_is_one_quoted_line() {
    let line = about().to_string();
    assert!(line.starts_with("name=\"Wuzi\", version=\""), "{line}");
    assert!(line.contains("author=\""), "{line}");
    // No placeholder values: the optional keys are left out until there is a real one.
    for key in ["country=", "www="] {
        assert!(!line.contains(key), "{line}");
    }
    assert!(!line.contains("\"-\""), "{line}");
}

#[test]
fn stop_and_end_cut_a_search_short_other_lines_do_not() {
    use gomocup_protocol::Info;
    assert_eq!(interrupt(&Ok(Command::End)), Interrupt::End);
    assert_eq!(interrupt(&Ok(Command::Stop)), Interrupt::Stop);
    assert_eq!(
        interrupt(&Ok(Command::Info(Info::TimeoutTurn(0)))),
        Interrupt::Stop
    );
    assert_eq!(
        interrupt(&Ok(Command::Info(Info::TimeoutTurn(5)))),
        Interrupt::None
    );
    assert_eq!(interrupt(&Ok(Command::About)), Interrupt::None);
}

#[test]
fn only_the_move_commands_search() {
    use gomocup_protocol::{BoardStone, Coord};
    let c = Coord { x: 1, y: 1 };
    for cmd in [
        Command::Begin,
        Command::Turn(c),
        Command::Board(Vec::<BoardStone>::new()),
        Command::Swap2Board(vec![c]),
    ] {
        assert!(searches(&Ok(cmd.clone())), "{cmd:?}");
    }
    for cmd in [
        Command::Start(15),
        Command::About,
        Command::End,
        Command::Stop,
        Command::Play(c),
        Command::Takeback(c),
        Command::Restart,
    ] {
        assert!(!searches(&Ok(cmd.clone())), "{cmd:?}");
    }
}

#[test]
fn a_stop_while_idle_gets_no_reply_and_changes_nothing() {
    let mut b = brain();
    let out = talk(&mut b, &["START 15", "TURN 7,7", "YXSTOP", "STOP"]);
    assert_eq!(out.len(), 4, "{out:?}");
    assert_eq!(b.engine().board().move_count(), 2);
}
