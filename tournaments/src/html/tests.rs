//! Unit tests of the report page: escaping of engine text and the `MESSAGE` cap.

use super::*;
use crate::record::{Outcome, Ply, Reason, SideReport};

#[test]
fn engine_text_cannot_break_out_of_the_page() {
    let text = "[tournament]\ntimeout_turn_ms = 1\n\
                [[engine]]\nname = \"<b>x</script><!--\"\ncommand = \"sh\"\n\
                [[engine]]\nname = \"y & 'z'\"\ncommand = \"sh\"\n";
    let config = Config::from_toml(text, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e}"));
    let names = config.engine_names();
    let record = GameRecord {
        game: 1,
        black: names[0].clone(),
        white: names[1].clone(),
        opening: 0,
        opening_line: 0,
        outcome: Outcome::Draw,
        reason: Reason::MoveLimit,
        detail: "</script>".into(),
        moves: 1,
        black_report: SideReport::default(),
        white_report: SideReport::default(),
        psq: "games/0001.psq".into(),
        plies: vec![Ply {
            x: 1,
            y: 2,
            ms: 3,
            msg: vec!["</script><script>alert(1)</script>".into()],
        }],
        opening_stones: 0,
    };
    let records = [record];
    let page = report(
        &Conditions::of_config(&config),
        &records,
        &Summary::new(&names, &records),
        None,
    );
    // Only the page's own two script elements close.
    assert_eq!(page.matches("</script>").count(), 2, "{page}");
    assert!(!page.contains("<b>x"));
    assert!(page.contains("&lt;b&gt;x&lt;/script&gt;&lt;!--"));
    assert!(page.contains("y &amp; &#39;z&#39;"));
    // The JSON still carries the exact text.
    let tag = "id=\"data\">";
    let start = page.find(tag).map(|i| i + tag.len()).unwrap_or(0);
    let end = start + page[start..].find("</script>").unwrap_or(0);
    let data: serde_json::Value =
        serde_json::from_str(&page[start..end]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(data["games"][0]["black"], "<b>x</script><!--");
    assert_eq!(
        data["games"][0]["plies"][0][3][0],
        "</script><script>alert(1)</script>"
    );
}

#[test]
fn messages_are_embedded_for_the_first_games_only() {
    let text = "[tournament]\ntimeout_turn_ms = 1\n\
                [[engine]]\nname = \"a\"\ncommand = \"sh\"\n\
                [[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
    let config = Config::from_toml(text, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e}"));
    let names = ["a".to_string(), "b".to_string()];
    let records: Vec<GameRecord> = (1..=MESSAGE_GAMES + 1)
        .map(|game| GameRecord {
            game,
            black: "a".into(),
            white: "b".into(),
            opening: 0,
            opening_line: 0,
            outcome: Outcome::BlackWins,
            reason: Reason::Five,
            detail: String::new(),
            moves: 1,
            black_report: SideReport::default(),
            white_report: SideReport::default(),
            psq: String::new(),
            plies: vec![Ply {
                x: 0,
                y: 0,
                ms: 7,
                msg: vec!["depth 3".into()],
            }],
            opening_stones: 0,
        })
        .collect();
    let page = report(
        &Conditions::of_config(&config),
        &records,
        &Summary::new(&names, &records),
        None,
    );
    assert_eq!(page.matches("[0,0,7,[\"depth 3\"]]").count(), MESSAGE_GAMES);
    assert_eq!(page.matches("[0,0,7,[]]").count(), 1);
    assert!(page.contains(&format!("for the first {MESSAGE_GAMES} games only")));
}
