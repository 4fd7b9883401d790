//! `report.html` in a real browser: headless Chromium opens the page from a file, the URL
//! fragment selects a game and a stone and presses the replay buttons and keys, and the DOM
//! Chromium dumps afterwards must show exactly the stones of the journal at that point.
//!
//! Without Chromium the test skips with a banner, except under CI (`CI=true`), where
//! `.ci/run` installs it and its absence is a failure.

mod common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wuzi_tournament::record::GameRecord;

/// The browser: `$WUZI_CHROMIUM`, else `chromium` or `chromium-browser` on `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("WUZI_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn browser_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !in_ci,
            "CI=true but no chromium on PATH: .ci/run must install it (apt-get install chromium)"
        );
        // Straight to the stream, not `eprintln!`, so the test harness does not swallow it.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            b"\n********************************************************************\n\
              * SKIPPED: report.html browser test: no chromium on PATH           *\n\
              * (apt-get install chromium, or set WUZI_CHROMIUM=/path/to/browser) *\n\
              ********************************************************************\n",
        );
    }
    found
}

/// The DOM after the page's scripts ran, for `url`.
fn dump_dom(browser: &Path, profile: &Path, url: &str) -> String {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let mut out = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 90 s for {url}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    reader.join().unwrap_or_default()
}

/// The value of `name="…"` inside one tag's text.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let len = tag[start..].find('"')?;
    Some(&tag[start..start + len])
}

/// A stone on the shown board: move number, x, y, and whether it is black.
type Stone = (usize, usize, usize, bool);

/// The board as the page shows it: the `data-game` and `data-move` of the board, and its
/// stones as (move number, x, y, black?) in move order.
fn shown(dom: &str) -> (usize, usize, Vec<Stone>) {
    let board_at = dom
        .find("<svg id=\"board\"")
        .unwrap_or_else(|| panic!("no board in the page: {dom}"));
    let board_tag = &dom[board_at..board_at + dom[board_at..].find('>').unwrap_or(0)];
    let num = |t: &str, k: &str| -> usize {
        attr(t, k)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{k} missing in {t}"))
    };
    let (game, moves) = (num(board_tag, "data-game"), num(board_tag, "data-move"));
    let body = &dom[board_at..];
    let body = &body[..body.find("</svg>").unwrap_or(body.len())];
    let mut stones = Vec::new();
    for piece in body.split("<circle").skip(1) {
        let tag = &piece[..piece.find('>').unwrap_or(piece.len())];
        let Some(class) = attr(tag, "class") else {
            continue;
        };
        if !class.starts_with("stone") {
            continue;
        }
        stones.push((
            num(tag, "data-n"),
            num(tag, "data-x"),
            num(tag, "data-y"),
            class == "stone b",
        ));
    }
    stones.sort_unstable();
    (game, moves, stones)
}

fn expected(r: &GameRecord, n: usize) -> Vec<Stone> {
    r.plies
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, p)| (i + 1, p.x, p.y, i % 2 == 0))
        .collect()
}

#[test]
fn replay_in_headless_chromium_shows_the_recorded_stones() {
    let Some(browser) = browser_or_skip() else {
        return;
    };
    let dir = scratch("browser");
    std::fs::write(dir.join("open.txt"), "h8i9\nc3\n").unwrap_or_else(|e| panic!("{e}"));
    let cfg = write_config(
        &dir,
        "board_size = 15\ntimeout_turn_ms = 500\ntolerance_ms = 500\nopenings = \"open.txt\"\ndraw_after_moves = 30\nconcurrency = 2\n",
        &[fake("first", &["first"]), fake("random", &["random", "9"])],
    );
    let done = run(&load(&cfg), &dir, false);
    // A game other than the first, so the fragment really selects it.
    let game = done
        .records
        .iter()
        .find(|r| r.game == 3)
        .unwrap_or_else(|| panic!("no game 3"));
    assert!(game.plies.len() >= 8, "game 3 is too short to step through");
    let page = dir.join("out/report.html");
    let url = format!("file://{}", page.display());
    let profile = dir.join("chromium-profile");

    // Select stone 3, then: next, next, previous (buttons), two right arrows (keys) = 6.
    let dom = dump_dom(
        &browser,
        &profile,
        &format!("{url}#g=3&m=3&press=next,next,prev,ArrowRight,ArrowRight"),
    );
    let (g, m, stones) = shown(&dom);
    assert_eq!((g, m), (3, 6));
    assert_eq!(stones, expected(game, 6));
    // The current move's line in the move list is highlighted and shows the engine's words.
    let list = &dom[dom.find("<ol id=\"moves\"").unwrap_or(0)..];
    let now = list
        .split("<li")
        .find(|li| li.contains("class=\"now\""))
        .unwrap_or_else(|| panic!("no highlighted move"));
    let p = &game.plies[5];
    for m in &p.msg {
        assert!(now.contains(m.as_str()), "{m:?} not in {now}");
    }
    assert!(now.contains(&format!("{} ms", p.ms)), "{now}");
    // The game's TT chart has one point per move whose engine printed a table line.
    let with_tt = game
        .plies
        .iter()
        .skip(game.opening_stones)
        .filter(|p| p.msg.iter().any(|m| m.contains("hit_rate=")))
        .count();
    assert!(with_tt > 0);
    assert_eq!(dom.matches("class=\"move-tt ").count(), with_tt);

    // Last and first, by the End key and the button; then past the ends stays put.
    let dom = dump_dom(&browser, &profile, &format!("{url}#g=3&m=0&press=End"));
    let (g, m, stones) = shown(&dom);
    assert_eq!((g, m), (3, game.plies.len()));
    assert_eq!(stones, expected(game, game.plies.len()));
    let dom = dump_dom(
        &browser,
        &profile,
        &format!("{url}#g=3&press=first,prev,next"),
    );
    let (g, m, stones) = shown(&dom);
    assert_eq!((g, m), (3, 1));
    assert_eq!(stones, expected(game, 1));
}
