//! The brain-side parser against the cases of PROTOCOL.md §1.2, §1.6 and §2.

use gomocup_protocol::{BoardStone, Command, Coord, Field, Info, Parser, ProtocolError, Response};

fn one(line: &str) -> Option<Result<Command, ProtocolError>> {
    Parser::new().feed(line.as_bytes())
}

fn cmd(line: &str) -> Command {
    match one(line) {
        Some(Ok(c)) => c,
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn reply(line: &str) -> Option<Response> {
    match one(line) {
        Some(Err(e)) => e.reply(),
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn is_error(r: Option<Response>) -> bool {
    matches!(r, Some(Response::Error(_)))
}

fn is_unknown(r: Option<Response>) -> bool {
    matches!(r, Some(Response::Unknown(_)))
}

/// Feed lines in order and collect what the parser produced.
fn run(lines: &[&str]) -> Vec<Result<Command, ProtocolError>> {
    let mut p = Parser::new();
    lines.iter().filter_map(|l| p.feed(l.as_bytes())).collect()
}

#[test]
fn commands_match_in_any_case_with_extra_whitespace() {
    assert_eq!(cmd("START 15"), Command::Start(15));
    assert_eq!(cmd("  start\t15  \r\n"), Command::Start(15));
    assert_eq!(cmd("Begin"), Command::Begin);
    assert_eq!(cmd("END"), Command::End);
    assert_eq!(cmd("about"), Command::About);
    assert_eq!(cmd("RESTART"), Command::Restart);
    assert_eq!(cmd("TURN 7, 7"), Command::Turn(Coord::new(7, 7)));
    assert_eq!(cmd("TURN 7 ,7"), Command::Turn(Coord::new(7, 7)));
    assert_eq!(cmd("TURN -1,3"), Command::Turn(Coord::new(-1, 3)));
    assert_eq!(cmd("TAKEBACK 1,2"), Command::Takeback(Coord::new(1, 2)));
    assert_eq!(cmd("PLAY 8,8"), Command::Play(Coord::new(8, 8)));
    assert_eq!(
        cmd("RECTSTART 20 , 15"),
        Command::RectStart {
            width: 20,
            height: 15
        }
    );
}

#[test]
fn empty_and_blank_lines_produce_nothing() {
    for line in ["", "   ", "\t", "\r\n", "\r"] {
        assert_eq!(one(line), None, "{line:?}");
    }
}

#[test]
fn start_accepts_one_size_or_two_equal_sizes() {
    assert_eq!(cmd("START 15 15"), Command::Start(15));
    for bad in [
        "START",
        "START abc",
        "START 15x",
        "START -5",
        "START 99999999999",
        "START 15 20",
        "START 1 2 3",
    ] {
        assert!(is_error(reply(bad)), "{bad}");
    }
}

#[test]
fn malformed_coordinates_are_errors() {
    for bad in [
        "TURN",
        "TURN 7",
        "TURN 7,",
        "TURN ,7",
        "TURN a,b",
        "TURN 7;7",
        "TURN 7,7,7",
        "TURN 7.0,7",
        "TURN 0x7,7",
        "TAKEBACK x",
        "PLAY 1",
    ] {
        assert!(is_error(reply(bad)), "{bad}");
    }
}

#[test]
fn unknown_words_and_prefixes_are_unknown() {
    for line in [
        "FOO",
        "SUGGEST 1,1",
        "OK",
        "DONE",
        "7,7",
        "STARTX 15",
        "TURNS 1,1",
        "ENDGAME",
        "ST\0ART 15",
    ] {
        assert!(is_unknown(reply(line)), "{line:?}");
    }
}

#[test]
fn invalid_utf8_is_decoded_lossily() {
    let mut p = Parser::new();
    let got = p.feed(b"INFO folder C:\\Users\\\xe9\xe8");
    assert!(matches!(got, Some(Ok(Command::Info(Info::Folder(_))))));
    assert!(is_unknown(match p.feed(b"\xff\xfe 15") {
        Some(Err(e)) => e.reply(),
        _ => None,
    }));
}

#[test]
fn info_keys_are_typed_and_case_insensitive() {
    let cases = [
        ("INFO timeout_turn 1000", Info::TimeoutTurn(1000)),
        ("INFO TIMEOUT_TURN 0", Info::TimeoutTurn(0)),
        ("INFO timeout_match 0", Info::TimeoutMatch(0)),
        ("INFO time_left -500", Info::TimeLeft(-500)),
        ("INFO time_left 2147483647", Info::TimeLeft(2_147_483_647)),
        ("INFO max_memory 8589934592", Info::MaxMemory(8_589_934_592)),
        ("INFO game_type 1", Info::GameType(1)),
        ("INFO rule 9", Info::Rule(9)),
        ("INFO evaluate 3,4", Info::Evaluate(Coord::new(3, 4))),
        ("INFO folder C:/a b/c", Info::Folder("C:/a b/c".into())),
        ("INFO max_depth 7", Info::MaxDepth(7)),
        ("INFO max_node -1", Info::MaxNode(-1)),
        ("INFO thread_num 4", Info::ThreadNum(4)),
        ("INFO time_increment 100", Info::TimeIncrement(100)),
        ("INFO hash_size 1024", Info::HashSize(1024)),
        (
            "INFO foo_bar 12",
            Info::Other {
                key: "foo_bar".into(),
                value: "12".into(),
            },
        ),
        (
            "INFO foo",
            Info::Other {
                key: "foo".into(),
                value: String::new(),
            },
        ),
    ];
    for (line, want) in cases {
        assert_eq!(cmd(line), Command::Info(want), "{line}");
    }
}

#[test]
fn bad_info_values_earn_no_reply() {
    for line in [
        "INFO timeout_turn abc",
        "INFO max_memory -5",
        "INFO rule 999999999999999999999",
        "INFO",
        "INFO timeout_turn",
        "INFO evaluate 3",
    ] {
        match one(line) {
            Some(Err(e)) => assert_eq!(e.reply(), None, "{line}"),
            other => panic!("{line}: {other:?}"),
        }
    }
}

#[test]
fn board_collects_stones_until_done() {
    let got = run(&["BOARD", "7,7,1", " 8 , 8 , 2 ", "", "1,1,3", "done"]);
    let want = Command::Board(vec![
        BoardStone {
            at: Coord::new(7, 7),
            field: Field::Own,
        },
        BoardStone {
            at: Coord::new(8, 8),
            field: Field::Opponent,
        },
        BoardStone {
            at: Coord::new(1, 1),
            field: Field::Blocked,
        },
    ]);
    assert_eq!(got, vec![Ok(want)]);
    assert_eq!(run(&["BOARD", "DONE"]), vec![Ok(Command::Board(vec![]))]);
}

#[test]
fn a_bad_board_line_is_reported_once_at_done() {
    for bad in [
        "3,3", "a,b,c", "3,3,1,1", "3,3,0", "3,3,4", "TURN 1,1", "START 15",
    ] {
        let got = run(&["BOARD", "99,99,1", bad, "4,4,1", "DONE"]);
        assert_eq!(got.len(), 1, "{bad}");
        match &got[0] {
            Err(e) => {
                assert!(e.is_board(), "{bad}");
                assert!(matches!(e.reply(), Some(Response::Error(_))));
            }
            Ok(c) => panic!("{bad}: {c:?}"),
        }
    }
}

#[test]
fn end_inside_a_block_is_obeyed_and_closes_it() {
    let mut p = Parser::new();
    assert_eq!(p.feed(b"BOARD"), None);
    assert!(p.in_block());
    assert_eq!(p.feed(b"1,1,1"), None);
    assert_eq!(p.feed(b"END"), Some(Ok(Command::End)));
    assert!(!p.in_block());
}

#[test]
fn an_overlong_line_is_unknown_outside_and_spoils_a_block() {
    let mut p = Parser::new();
    assert!(matches!(
        p.feed_overlong(),
        Some(Err(ProtocolError::LineTooLong))
    ));
    p.feed(b"BOARD");
    assert_eq!(p.feed_overlong(), None);
    let done = p.feed(b"DONE");
    assert!(matches!(done, Some(Err(ref e)) if e.is_board()), "{done:?}");
}

#[test]
fn swap2board_collects_plain_coordinates() {
    let got = run(&["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]);
    assert_eq!(
        got,
        vec![Ok(Command::Swap2Board(vec![
            Coord::new(7, 7),
            Coord::new(8, 7),
            Coord::new(9, 9)
        ]))]
    );
    let bad = run(&["SWAP2BOARD", "7,7,1", "DONE"]);
    assert!(matches!(
        bad.as_slice(),
        [Err(ProtocolError::BadBlockLine {
            command: "SWAP2BOARD",
            ..
        })]
    ));
}

#[test]
fn yixin_blocks_are_consumed_and_answered_once() {
    let got = run(&["YXBOARD", "7,7,1", "8,8,2", "DONE"]);
    assert_eq!(got.len(), 1);
    assert!(matches!(&got[0], Err(e) if matches!(e.reply(), Some(Response::Unknown(_)))));
}

#[test]
fn too_many_block_lines_spoil_the_block_without_growing() {
    let mut p = Parser::new();
    p.feed(b"BOARD");
    for _ in 0..5000 {
        assert_eq!(p.feed(b"1,1,1"), None);
    }
    assert!(matches!(p.feed(b"DONE"), Some(Err(ref e)) if e.is_board()));
}

#[test]
fn formatted_commands_parse_back_to_themselves() {
    let commands = [
        Command::Start(20),
        Command::RectStart {
            width: 20,
            height: 15,
        },
        Command::Restart,
        Command::Begin,
        Command::Turn(Coord::new(3, 4)),
        Command::Board(vec![BoardStone {
            at: Coord::new(7, 7),
            field: Field::Own,
        }]),
        Command::Board(vec![]),
        Command::Info(Info::TimeLeft(-5)),
        Command::Info(Info::Folder("C:/a b".into())),
        Command::Info(Info::Other {
            key: "foo".into(),
            value: String::new(),
        }),
        Command::End,
        Command::About,
        Command::Takeback(Coord::new(1, 1)),
        Command::Play(Coord::new(2, 2)),
        Command::Swap2Board(vec![Coord::new(7, 7)]),
    ];
    for c in commands {
        let lines = c.lines();
        let mut p = Parser::new();
        let got: Vec<_> = lines.iter().filter_map(|l| p.feed(l.as_bytes())).collect();
        assert_eq!(got, vec![Ok(c.clone())], "{lines:?}");
        assert_eq!(c.to_string(), lines.join("\n"));
    }
}
