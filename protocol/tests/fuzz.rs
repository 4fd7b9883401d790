//! Property tests: the reader and the parsers never panic, whatever the bytes, and every
//! reply they lead to is one clean protocol line.

use gomocup_protocol::{Command, Line, LineReader, Parser, Response, TtReport};
use proptest::prelude::*;
use std::io::BufReader;

/// Read `input` through a small-buffered reader and feed every line to a parser; return
/// the reply lines the faults earn and the commands produced.
fn drive(input: &[u8], cap: usize) -> (Vec<String>, Vec<Command>) {
    let mut reader = LineReader::with_cap(BufReader::with_capacity(7, input), cap);
    let mut parser = Parser::new();
    let mut replies = Vec::new();
    let mut commands = Vec::new();
    while let Ok(Some(line)) = reader.next_line() {
        let got = match line {
            Line::Text(bytes) => {
                assert!(bytes.len() <= cap);
                parser.feed(&bytes)
            }
            Line::Overlong => parser.feed_overlong(),
        };
        match got {
            Some(Ok(c)) => commands.push(c),
            Some(Err(e)) => replies.extend(e.reply().map(|r| r.to_string())),
            None => {}
        }
    }
    (replies, commands)
}

fn clean_line(line: &str) -> bool {
    !line.is_empty() && !line.contains(['\r', '\n', '\0']) && line.len() < 1024
}

/// Protocol-shaped noise: keywords, numbers, separators and line ends in random order.
fn tokens() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just("START".to_string()),
        Just("BOARD".to_string()),
        Just("SWAP2BOARD".to_string()),
        Just("YXBOARD".to_string()),
        Just("DONE".to_string()),
        Just("TURN".to_string()),
        Just("INFO".to_string()),
        Just("timeout_turn".to_string()),
        Just("END".to_string()),
        Just(",".to_string()),
        Just(" ".to_string()),
        Just("\r".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("-".to_string()),
        (0u32..40).prop_map(|n| n.to_string()),
        "[a-z]{1,5}",
    ];
    prop::collection::vec(token, 0..60).prop_map(|t| t.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(input in prop::collection::vec(any::<u8>(), 0..600)) {
        let (replies, _) = drive(&input, 64);
        prop_assert!(replies.iter().all(|l| clean_line(l)), "{replies:?}");
    }

    #[test]
    fn protocol_shaped_noise_never_panics(input in tokens()) {
        let (replies, commands) = drive(&input, 256);
        prop_assert!(replies.iter().all(|l| clean_line(l)), "{replies:?}");
        // Whatever parsed must format back to lines that parse to the same command.
        for c in commands {
            let mut p = Parser::new();
            let back: Vec<_> = c.lines().iter().filter_map(|l| p.feed(l.as_bytes())).collect();
            prop_assert_eq!(back, vec![Ok(c.clone())]);
        }
    }

    #[test]
    fn response_parsing_never_panics(line in any::<String>()) {
        let _ = Response::parse(&line);
        let _ = TtReport::parse_line(&line);
    }

    #[test]
    fn formatted_responses_are_single_clean_lines(text in any::<String>()) {
        for r in [
            Response::Error(text.clone()),
            Response::Unknown(text.clone()),
            Response::Message(text.clone()),
            Response::Debug(text.clone()),
            Response::About(vec![(text.clone(), text.clone())]),
        ] {
            let line = r.to_string();
            prop_assert!(clean_line(&line), "{line:?}");
        }
    }

    #[test]
    fn cr_only_and_lf_only_endings_read_the_same(input in tokens()) {
        let plain: Vec<u8> = input.iter().map(|&b| if b == b'\r' { b'\n' } else { b }).collect();
        let cr: Vec<u8> = plain.iter().map(|&b| if b == b'\n' { b'\r' } else { b }).collect();
        let crlf: Vec<u8> = plain
            .iter()
            .flat_map(|&b| if b == b'\n' { vec![b'\r', b'\n'] } else { vec![b] })
            .collect();
        let lf = drive(&plain, 256);
        prop_assert_eq!(&drive(&cr, 256), &lf);
        prop_assert_eq!(&drive(&crlf, 256), &lf);
    }
}

#[test]
fn a_one_megabyte_line_is_cut_without_growing() {
    let mut input = vec![b'A'; 1 << 20];
    input.extend_from_slice(b"\nSTART 15\n");
    let mut reader = LineReader::new(&input[..]);
    assert_eq!(reader.next_line().ok(), Some(Some(Line::Overlong)));
    assert_eq!(
        reader.next_line().ok(),
        Some(Some(Line::Text(b"START 15".to_vec())))
    );
    let (replies, commands) = drive(&input, 64 * 1024);
    assert_eq!(replies.len(), 1);
    assert!(replies[0].starts_with("UNKNOWN "));
    assert_eq!(commands, vec![Command::Start(15)]);
}

#[test]
fn a_one_megabyte_board_line_spoils_only_its_block() {
    let mut input = b"BOARD\n".to_vec();
    input.extend_from_slice(&vec![b'1'; 1 << 20]);
    input.extend_from_slice(b"\n7,7,1\nDONE\nBEGIN\n");
    let (replies, commands) = drive(&input, 64 * 1024);
    assert_eq!(replies.len(), 1);
    assert!(replies[0].starts_with("ERROR "));
    assert_eq!(commands, vec![Command::Begin]);
}
