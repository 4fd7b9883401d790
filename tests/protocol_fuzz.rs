//! A million random lines through the parser and the brain: no panic, and every answer is
//! of the kind the protocol prescribes for what the line parsed to.

use gomocup_protocol::{Command, Coord, Parser, ProtocolError, Response};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;
use wuzi::brain::Brain;
use wuzi::{EngineConfig, Pos};

const LINES: usize = 1_000_000;

const WORDS: [&str; 21] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "DONE",
    "INFO",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "SWAP2BOARD",
    "END",
    "YXBOARD",
    "SUGGEST",
    "OK",
    "STARTX",
    "",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
];

/// INFO keys with values that keep every search to one instant ply (so a million lines run
/// in seconds), plus keys that exercise the other branches.
const INFO: [&str; 12] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "rule",
    "max_depth",
    "max_node",
    "folder",
    "evaluate",
    "game_type",
    "thread_num",
    "foo",
];

fn random_case(rng: &mut StdRng, word: &str) -> String {
    word.chars()
        .map(|c| {
            if rng.random_bool(0.2) {
                c.to_ascii_lowercase()
            } else {
                c
            }
        })
        .collect()
}

fn number(rng: &mut StdRng) -> String {
    match rng.random_range(0..20) {
        0 => "-1".into(),
        1 => "x".into(),
        2 => "99999999999999999999".into(),
        3 => String::new(),
        _ => rng.random_range(0..22).to_string(),
    }
}

fn line(rng: &mut StdRng) -> Vec<u8> {
    match rng.random_range(0..10) {
        // Raw bytes, control characters and invalid UTF-8 included.
        0 | 1 => (0..rng.random_range(0..40)).map(|_| rng.random()).collect(),
        // Stone lines (inside or outside a block).
        2 | 3 => {
            let fields = rng.random_range(1..5);
            let parts: Vec<String> = (0..fields).map(|_| number(rng)).collect();
            parts
                .join(if rng.random_bool(0.9) { "," } else { " , " })
                .into_bytes()
        }
        4 => {
            let key = INFO[rng.random_range(0..INFO.len())];
            let value = match key {
                "timeout_turn" | "time_left" => rng.random_range(-5..6).to_string(),
                "timeout_match" => rng.random_range(0..6).to_string(),
                "rule" => [0, 1, 2, 4, 8, 9][rng.random_range(0..6)].to_string(),
                "max_depth" => rng.random_range(-1..2).to_string(),
                "max_memory" => ["0", "1", "367001600", "-5"][rng.random_range(0..4)].into(),
                "evaluate" => format!("{},{}", number(rng), number(rng)),
                _ => number(rng),
            };
            format!("{} {key} {value}", random_case(rng, "INFO")).into_bytes()
        }
        _ => {
            let pick = rng.random_range(0..WORDS.len());
            let word = random_case(rng, WORDS[pick]);
            let args: Vec<String> = (0..rng.random_range(0..3)).map(|_| number(rng)).collect();
            let sep = if rng.random_bool(0.8) { "," } else { " " };
            let mut text = format!("{word} {}", args.join(sep));
            if rng.random_bool(0.1) {
                text.push('\r');
            }
            text.into_bytes()
        }
    }
}

/// Check that `replies` is the right kind of answer to `input`; the brain's board shows
/// whether a move was legal (it must now hold a stone there, on the board).
fn check(input: &Result<Command, ProtocolError>, replies: &[Response], brain: &Brain) {
    let size = brain.engine().board().size() as i64;
    let placed = |c: &Coord| {
        (0..size).contains(&c.x)
            && (0..size).contains(&c.y)
            && !brain
                .engine()
                .board()
                .is_empty(Pos::new(c.x as usize, c.y as usize))
    };
    let ok = match input {
        Err(e) => replies == e.reply().into_iter().collect::<Vec<_>>().as_slice(),
        Ok(Command::Info(_) | Command::End | Command::Stop) => replies.is_empty(),
        Ok(Command::ShowForbid) => matches!(replies, [Response::Forbid(_) | Response::Error(_)]),
        Ok(Command::About) => matches!(replies, [Response::About(_)]),
        Ok(
            Command::Start(_) | Command::RectStart { .. } | Command::Restart | Command::Takeback(_),
        ) => {
            matches!(replies, [Response::Ok | Response::Error(_)])
        }
        Ok(Command::Play(c)) => match replies {
            [Response::Move(m)] => m == c && placed(m),
            [Response::Error(_)] => true,
            _ => false,
        },
        Ok(Command::Begin | Command::Turn(_) | Command::Board(_) | Command::Swap2Board(_)) => {
            match replies {
                [Response::Error(_)] => true,
                [Response::Stones(s)] => s.len() == 3,
                [Response::Message(a), Response::Message(b), Response::Move(m)] => {
                    a.starts_with("depth ") && b.starts_with("tt ") && placed(m)
                }
                _ => false,
            }
        }
    };
    assert!(ok, "{input:?} -> {replies:?}");
}

#[test]
fn a_million_random_lines_get_answers_of_the_right_kind() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0003);
    let mut parser = Parser::new();
    let mut brain = Brain::new(EngineConfig {
        tt_bytes: Some(1 << 20),
        ..EngineConfig::default()
    });
    let (mut commands, mut moves) = (0usize, 0usize);
    for i in 0..LINES {
        // Keep games alive: now and then a clean start, so move requests reach the search.
        let bytes = if i % 50 == 0 {
            b"START 15".to_vec()
        } else {
            line(&mut rng)
        };
        let Some(input) = parser.feed(&bytes) else {
            continue;
        };
        commands += 1;
        let replies = brain.handle(input.clone(), Instant::now());
        check(&input, &replies, &brain);
        moves += replies
            .iter()
            .filter(|r| matches!(r, Response::Move(_)))
            .count();
    }
    // The mix must really exercise the brain, not only its error paths. (Lines swallowed by
    // an open BOARD block reach the brain only as part of the block.)
    println!("{LINES} lines, {commands} commands or faults answered, {moves} moves");
    assert!(commands > LINES / 4, "{commands} commands");
    assert!(moves > 1000, "{moves} moves");
}
