//! The tuning pipeline end to end at a tiny scale: self-play, positions, one epoch of the
//! fit, the weight file written to disk and read back into the same set.

use wuzi::eval::sets::SetName;
use wuzi::search::SearchParams;
use wuzi::tune::dataset::samples;
use wuzi::tune::file::{parse, render};
use wuzi::tune::fit::Fit;
use wuzi::tune::game::{games_text, parse_games};
use wuzi::tune::pipeline::{fit_games, Plan};
use wuzi::tune::selfplay::{
    engine, opening_score, play_all, play_game, play_match_game, run_opening, Balance, SelfPlay,
};
use wuzi::tune::spsa::match_points;
use wuzi::types::Rule;

#[test]
fn selfplay_fit_and_write_a_weight_file_that_loads() {
    let cfg = SelfPlay {
        games: 6,
        nodes: 800,
        seed: 5,
        sizes: vec![15, 20],
        ..SelfPlay::default()
    };
    let games = play_all(&cfg, &|_| {});
    assert_eq!(games.len(), 6);
    // A game follows from the seed and its index alone.
    assert_eq!(play_game(&cfg, 4), games[4]);
    // The games file reads back.
    let text = games_text(&games);
    assert_eq!(parse_games(&text).as_ref(), Ok(&games));

    let plan = Plan {
        fit: Fit {
            epochs: 1,
            batch: 32,
            // A step small enough that one epoch over a few hundred positions goes downhill
            // whatever the games: at the default 0.5 Adam's first steps overshoot on some
            // seeds' data (1 of 8 rose after the two-ply mean changed the games), and at 0.1
            // this seed's games rose once a search change played other ones (1 of 32 tried:
            // seeds 1-24 of this build and 8 of an experimental search); at 0.03, the rate
            // of the real fits, none of the 32 did.
            lr: 0.03,
            ..Fit::default()
        },
        lambda: 0.5,
        hold_every: 3,
        two_ply: false,
    };
    let (set, report) = fit_games(&games, SetName::Hand.weights(), &plan);
    assert!(
        report.positions.0 > 20 && report.positions.1 > 0,
        "{report:?}"
    );
    let (before, after) = (report.epochs[0], report.epochs[1]);
    assert!(after < before, "training loss {before} -> {after}");

    // The search's two-ply form (`--two-ply`) fits the same positions through another
    // evaluation: its own starting loss, and downhill too.
    let two_ply = Plan {
        two_ply: true,
        ..plan.clone()
    };
    let (_, report2) = fit_games(&games, SetName::Hand.weights(), &two_ply);
    assert_eq!(report2.positions, report.positions);
    assert_ne!(report2.epochs[0], report.epochs[0], "another evaluation");
    let (before, after) = (report2.epochs[0], report2.epochs[1]);
    assert!(after < before, "two-ply training loss {before} -> {after}");

    let dir = std::env::temp_dir().join(format!("wuzi-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("fitted.rs");
    std::fs::write(&path, render(&set, &report.lines())).expect("the weight file is written");
    let back = std::fs::read_to_string(&path).expect("the weight file is read");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(parse(&back), Ok(set));
}

/// Run the `wuzi-tune` binary with `args`; it must succeed. Returns its standard output.
fn wuzi_tune<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wuzi-tune"))
        .args(args)
        .output()
        .expect("wuzi-tune runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `wuzi-tune selfplay --eval SET`: the self-play engine evaluates with the set named, so
/// a next generation's games are played by the last generation's weights.
#[test]
fn selfplay_plays_with_the_set_it_is_given() {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-eval-{}", std::process::id()));
    let games = |set: &str| {
        let out = dir.join(set);
        let out_dir = out.to_str().expect("a UTF-8 temporary path");
        wuzi_tune([
            "selfplay", "--games", "4", "--nodes", "1500", "--seed", "7", "--eval", set, "--out",
            out_dir,
        ]);
        std::fs::read_to_string(out.join("games.txt")).expect("the games file")
    };
    let (hand, fitted) = (games("hand"), games("fitted"));
    let again = games("fitted");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(parse_games(&hand).map(|g| g.len()), Ok(4));
    assert_eq!(fitted, again, "the games follow from the seed and the set");
    assert_ne!(hand, fitted, "the two sets play different games");
}

/// `wuzi-tune fit --from SET`: the fit starts from the set named. With no epoch and no
/// finishing pass the written set is that start, as it is, for either set.
#[test]
fn fit_starts_from_the_set_it_is_given() {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-from-{}", std::process::id()));
    let play = dir.join("play");
    let play_dir = play.to_str().expect("a UTF-8 temporary path");
    wuzi_tune([
        "selfplay", "--games", "4", "--nodes", "1500", "--seed", "3", "--out", play_dir,
    ]);
    let games = play.join("games.txt");
    let written = |from: &str| {
        let out = dir.join(from);
        wuzi_tune([
            "fit",
            "--games-file",
            games.to_str().expect("a UTF-8 temporary path"),
            "--epochs",
            "0",
            "--finish",
            "0",
            "--hold-every",
            "2",
            "--from",
            from,
            "--fit-out",
            out.to_str().expect("a UTF-8 temporary path"),
        ]);
        std::fs::read_to_string(out.join("fitted.rs")).expect("the weight file")
    };
    let (hand, fitted) = (written("hand"), written("fitted"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(parse(&hand).as_ref(), Ok(SetName::Hand.weights()));
    assert_eq!(parse(&fitted).as_ref(), Ok(SetName::Fitted.weights()));
    assert!(fitted.contains("from the fitted set"), "{fitted}");
}

/// `wuzi-tune relabel`: the same games with every position after the opening scored again
/// by a deeper search, which `fit` then reads like any games file.
#[test]
fn relabelled_games_keep_their_moves_and_fit() {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-relabel-{}", std::process::id()));
    let path = |name: &str| {
        dir.join(name)
            .to_str()
            .expect("a UTF-8 temporary path")
            .to_string()
    };
    wuzi_tune([
        "selfplay",
        "--games",
        "4",
        "--nodes",
        "800",
        "--seed",
        "13",
        "--out",
        &path("play"),
    ]);
    let shallow = dir.join("play").join("games.txt");
    let shallow_path = shallow.to_str().expect("a UTF-8 temporary path");
    let relabel = |out: &str, threads: &str| {
        wuzi_tune([
            "relabel",
            "--games-file",
            shallow_path,
            "--nodes",
            "4000",
            "--limit",
            "3",
            "--threads",
            threads,
            "--out",
            &path(out),
        ]);
        std::fs::read_to_string(dir.join(out)).expect("the relabelled games file")
    };
    let (deep, again) = (relabel("deep.txt", "1"), relabel("deep2.txt", "2"));
    wuzi_tune([
        "fit",
        "--games-file",
        &path("deep.txt"),
        "--epochs",
        "1",
        "--finish",
        "0",
        "--lr",
        "0.03",
        "--hold-every",
        "3",
        "--fit-out",
        &path("fit"),
    ]);
    let fitted = std::fs::read_to_string(dir.join("fit").join("fitted.rs")).expect("the weights");
    let shallow = std::fs::read_to_string(&shallow).expect("the games file");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(deep, again, "the scores do not depend on the threads");
    let (shallow, deep) = (
        parse_games(&shallow).expect("games"),
        parse_games(&deep).expect("games"),
    );
    assert_eq!(deep.len(), 3);
    for (s, d) in shallow.iter().zip(&deep) {
        assert_eq!(
            (&s.moves, s.opening, s.result),
            (&d.moves, d.opening, d.result)
        );
    }
    assert_ne!(
        shallow[..3].iter().map(|g| &g.scores).collect::<Vec<_>>(),
        deep.iter().map(|g| &g.scores).collect::<Vec<_>>(),
        "a search of 4000 nodes scored every position as one of 800 did"
    );
    assert!(parse(&fitted).is_ok(), "{fitted}");
}

/// A match game gives each side its own numbers: the same opening between two equal
/// searches and between the engine and a crippled ordering are different games, and each
/// follows from the seed, the index and the two sides' numbers.
#[test]
fn match_games_play_each_side_by_its_own_numbers() {
    let cfg = SelfPlay {
        nodes: 1500,
        seed: 11,
        sizes: vec![15],
        ..SelfPlay::default()
    };
    let base = SearchParams::DEFAULT;
    let mut blind = base;
    blind.order.attack = [0; 13];
    blind.order.block = [0; 13];
    let differs = (0..4).any(|i| {
        let same = play_match_game(&cfg, i, base, base);
        let other = play_match_game(&cfg, i, base, blind);
        assert_eq!(other, play_match_game(&cfg, i, base, blind));
        // The opening (played before any search) is the index's, whoever plays.
        assert_eq!(same.moves[..same.opening], other.moves[..other.opening]);
        same.moves != other.moves
    });
    assert!(differs, "the blind ordering never changed a move");

    // A match counts every game once, for the side that won it.
    let cfg = SelfPlay { threads: 2, ..cfg };
    let m = match_points(&cfg, 3, base, blind);
    assert_eq!(m.wld.iter().sum::<usize>(), 6);
    assert_eq!(m.penta.iter().sum::<usize>(), 3);
    let half_points: usize = m.penta.iter().enumerate().map(|(k, n)| k * n).sum();
    assert_eq!(half_points as f64, 2.0 * m.points());
    let swapped = match_points(&cfg, 3, blind, base);
    assert_eq!(swapped.wld, [m.wld[1], m.wld[0], m.wld[2]]);
    let mut mirrored = m.penta;
    mirrored.reverse();
    assert_eq!(swapped.penta, mirrored);
}

/// Under `balance`, a game's opening is one a search scores as even (of the openings drawn,
/// when any is), judged by a fresh engine: a fresh engine scores it the same.
#[test]
fn balanced_openings_are_even_by_a_search() {
    let balance = Balance {
        nodes: 3000,
        bound: 60,
        tries: 40,
    };
    let cfg = SelfPlay {
        nodes: 1500,
        seed: 21,
        sizes: vec![15],
        random_plies: 0,
        balance: Some(balance),
        ..SelfPlay::default()
    };
    let free = SelfPlay {
        balance: None,
        ..cfg.clone()
    };
    let mut redrawn = 0;
    for i in 0..4 {
        let g = play_match_game(&cfg, i, SearchParams::DEFAULT, SearchParams::DEFAULT);
        let mut judge = engine(SearchParams::DEFAULT);
        judge.new_game(15, wuzi::Rule::FREESTYLE).expect("a board");
        for &p in &g.moves[..g.opening] {
            judge.play(p).expect("an opening stone");
        }
        let score = opening_score(&mut judge, balance.nodes);
        assert!(score.abs() <= balance.bound, "game {i}: {score}");
        let unfiltered = play_match_game(&free, i, SearchParams::DEFAULT, SearchParams::DEFAULT);
        redrawn += (unfiltered.moves[..unfiltered.opening] != g.moves[..g.opening]) as usize;
    }
    assert!(redrawn > 0, "no opening was drawn again");
}

/// The small balanced run of the two tests below, as `wuzi-tune` options and as the
/// library's run (with `SelfPlay`'s other defaults).
const EVEN_RUN_ARGS: [&str; 6] = ["--seed", "9", "--sizes", "15", "--balance-nodes", "3000"];

fn even_run() -> SelfPlay {
    SelfPlay {
        seed: 9,
        sizes: vec![15],
        balance: Some(Balance {
            nodes: 3000,
            bound: 60,
            tries: 30,
        }),
        ..SelfPlay::default()
    }
}

/// `wuzi-tune selfplay --balance-nodes N --random-plies 0`: the games are the library's
/// under those settings (every opening one a fresh search scores as even, no random ply),
/// as in the balanced games a generation may be fitted on.
#[test]
fn selfplay_can_play_balanced_openings_without_random_plies() {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-balanced-{}", std::process::id()));
    let out_dir = dir.to_str().expect("a UTF-8 temporary path");
    let args = [
        "selfplay",
        "--games",
        "3",
        "--nodes",
        "1500",
        "--balance-bound",
        "60",
    ];
    wuzi_tune(
        args.iter()
            .chain(&EVEN_RUN_ARGS)
            .chain(&["--random-plies", "0", "--out", out_dir]),
    );
    let text = std::fs::read_to_string(dir.join("games.txt")).expect("the games file");
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = SelfPlay {
        games: 3,
        nodes: 1500,
        random_plies: 0,
        ..even_run()
    };
    assert_eq!(text, games_text(&play_all(&cfg, &|_| {})));
    let unbalanced = SelfPlay {
        balance: None,
        random_plies: SelfPlay::default().random_plies,
        ..cfg.clone()
    };
    assert_ne!(text, games_text(&play_all(&unbalanced, &|_| {})));
    for (i, g) in parse_games(&text).expect("a games file").iter().enumerate() {
        let mut judge = engine(SearchParams::DEFAULT);
        judge.new_game(15, Rule::FREESTYLE).expect("a board");
        for &p in &g.moves[..g.opening] {
            judge.play(p).expect("an opening stone");
        }
        let score = opening_score(&mut judge, 3000);
        assert!(score.abs() <= 60, "game {i}: opening scored {score}");
    }
}

/// `wuzi-tune match` plays with the set the engine plays with unless told otherwise, and
/// says which: asked for the hand set, its games are the library's (whose default that is).
#[test]
fn match_plays_the_engines_set_by_default() {
    let run = |extra: &[&str]| -> String {
        let args = ["match", "--pairs", "2", "--nodes", "800", "--seed", "3"];
        wuzi_tune(args.iter().chain(extra).chain(&["--balance-nodes", "0"]))
    };
    let fitted = run(&[]);
    assert!(fitted.contains("at 800 nodes, eval fitted,"), "{fitted}");
    let hand = run(&["--eval", "hand"]);
    assert!(hand.contains("at 800 nodes, eval hand,"), "{hand}");
    let cfg = SelfPlay {
        nodes: 800,
        seed: 3,
        sizes: vec![20],
        random_plies: 0,
        ..SelfPlay::default()
    };
    let m = match_points(&cfg, 2, SearchParams::DEFAULT, SearchParams::DEFAULT);
    let [w, l, d] = m.wld;
    let expect = format!("a vs b: {w} - {l} - {d} of 4 games at 800 nodes, eval hand, pairs by a's half points (0..4) {:?},", m.penta);
    assert!(hand.starts_with(&expect), "{hand}\nexpected {expect}");
}

/// `wuzi-tune openings` writes the openings the same run's games start from, one per line
/// in `pos` notation under a header of `#` lines, the same on any thread count, and each
/// one the header counts as even is even by a fresh search.
#[test]
fn openings_are_the_runs_openings_and_even() {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let write = |threads: &str, name: &str| -> String {
        let path = dir.join(name);
        let out = path.to_str().expect("a UTF-8 temporary path");
        // `--eval hand`: the library's default set, which this test's searches use.
        let args = [
            "openings",
            "--count",
            "5",
            "--threads",
            threads,
            "--eval",
            "hand",
        ];
        wuzi_tune(args.iter().chain(&EVEN_RUN_ARGS).chain(&["--out", out]));
        std::fs::read_to_string(path).expect("the openings file")
    };
    let text = write("2", "two.txt");
    assert_eq!(
        text,
        write("1", "one.txt"),
        "the thread count changed the file"
    );
    let _ = std::fs::remove_dir_all(&dir);

    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(header.len(), 2, "{text}");
    assert!(
        header[0].starts_with(&format!(
            "# {} openings by `wuzi-tune openings --count 5 --seed 9",
            lines.len()
        )),
        "{text}"
    );
    let cfg = SelfPlay {
        games: 5,
        ..even_run()
    };
    let games = play_all(
        &SelfPlay {
            nodes: 500,
            ..cfg.clone()
        },
        &|_| {},
    );
    let mut even = 0;
    let mut k = 0;
    assert_eq!(games.len(), 5);
    for (i, game) in games.iter().enumerate() {
        let drawn = run_opening(&cfg, i);
        let line: String = drawn.stones.iter().map(|p| p.to_string()).collect();
        // Game i of the run starts from opening i.
        assert_eq!(game.moves[..game.opening], drawn.stones[..], "game {i}");
        if lines[..k].contains(&line.as_str()) {
            continue; // a repeat is written once
        }
        assert_eq!(lines[k], line, "opening {i}");
        k += 1;
        let mut judge = engine(SearchParams::DEFAULT);
        judge.new_game(15, Rule::FREESTYLE).expect("a board");
        for &p in &drawn.stones {
            judge.play(p).expect("an opening stone");
        }
        let score = opening_score(&mut judge, 3000);
        assert_eq!(
            Some(score),
            drawn.score,
            "opening {i}: the judging search is fresh"
        );
        even += usize::from(score.abs() <= 60);
    }
    assert_eq!(k, lines.len());
    assert!(
        header[1].contains(&format!("; {even} of them scored within ±60")),
        "{text}"
    );
}

/// `wuzi-tune spsa` writes numbers `pbrain-wuzi --search-params` reads: only the numbers
/// tuned move, the run follows from its seed, and the engine plays with the file (and
/// refuses a bad one with a message on standard output, where managers look).
#[test]
fn spsa_writes_numbers_the_engine_plays_with() {
    let dir = std::env::temp_dir().join(format!("wuzi-tune-spsa-{}", std::process::id()));
    let tuned = |name: &str| {
        let path = dir.join(name);
        let stdout = wuzi_tune([
            "spsa",
            "--pairs",
            "6",
            "--nodes",
            "1500",
            "--threads",
            "2",
            "--seed",
            "4",
            "--rate",
            "0.5",
            "--only",
            "killer.0,lmp_quad",
            "--write",
            path.to_str().expect("a UTF-8 temporary path"),
        ]);
        let text = std::fs::read_to_string(&path).expect("the numbers file");
        let params = SearchParams::parse(&text).expect("the file reads back");
        assert_eq!(
            SearchParams::parse(&stdout),
            Ok(params),
            "stdout has the numbers too"
        );
        (path, params)
    };
    let (path, p) = tuned("a.txt");
    let (_, again) = tuned("b.txt");
    assert_eq!(p, again, "the run follows from its seed");
    let mut expect = SearchParams::DEFAULT;
    expect.killer[0] = p.killer[0];
    expect.lmp_quad = p.lmp_quad;
    assert_eq!(p, expect, "only the numbers named are tuned");

    // The engine's replies to a new game and a first move, the move awaited before `END`
    // (a search `END` interrupts ends without its reply).
    let engine = |params: &std::path::Path| {
        use std::io::{BufRead, Write};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .arg("--search-params")
            .arg(params)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("pbrain-wuzi starts");
        let mut stdin = child.stdin.take().expect("a pipe");
        let mut lines = std::io::BufReader::new(child.stdout.take().expect("a pipe")).lines();
        let _ = stdin.write_all(b"START 15\nINFO timeout_turn 300\nBEGIN\n");
        let _ = stdin.flush();
        let mut replies = Vec::new();
        while let Some(Ok(line)) = lines.next() {
            let done = line.contains(',');
            replies.push(line);
            if done {
                break;
            }
        }
        let _ = stdin.write_all(b"END\n");
        drop(stdin);
        replies.extend(lines.map_while(Result::ok));
        (child.wait_with_output().expect("pbrain-wuzi ends"), replies)
    };
    let (out, replies) = engine(&path);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(replies.first().map(String::as_str), Some("OK"));
    assert_eq!(
        replies.last().map(String::as_str),
        Some("7,7"),
        "{replies:?}"
    );

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "killer.0 = lots\n").expect("a bad file");
    let (out, replies) = engine(&bad);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = replies.join("\n");
    assert!(
        said.contains("bad.txt") && said.contains("line 1"),
        "{said}"
    );
    assert!(out.stderr.is_empty(), "{out:?}");
}

/// Self-play under a rule records that rule, so its games replay under it (renju's games
/// were once written as freestyle, bit 4 dropped).
#[test]
fn selfplay_games_keep_their_rule() {
    for rule in [Rule::RENJU, Rule::STANDARD, Rule::CARO] {
        let cfg = SelfPlay {
            games: 2,
            nodes: 600,
            seed: 9,
            sizes: vec![15],
            rule,
            ..SelfPlay::default()
        };
        let games = play_all(&cfg, &|_| {});
        let text = games_text(&games);
        let back = parse_games(&text).expect("the games file reads back");
        for g in &back {
            assert_eq!(g.rule(), rule);
            assert!(g.moves.len() > 5, "{}", g.to_line());
        }
        // Every game replays legally under its rule: none is dropped from the positions.
        let positions = samples(&back, false);
        let games_seen: std::collections::BTreeSet<usize> =
            positions.iter().map(|s| s.game).collect();
        assert_eq!(games_seen.len(), back.len(), "{rule:?}");
    }
}

/// `wuzi-tune policy` end to end at a tiny scale: self-play games, the quiet positions'
/// searched moves, a fit whose code terms lower the training loss below the static
/// ordering's, and a data file that reads back to the tables written.
#[test]
fn policy_fits_the_searched_moves_and_writes_tables_that_load() {
    use wuzi::tune::policy::{fit_rows, parse_policy, policy_rows, PolicyFit};
    let cfg = SelfPlay {
        games: 6,
        nodes: 1500,
        seed: 9,
        sizes: vec![15, 20],
        ..SelfPlay::default()
    };
    let games = play_all(&cfg, &|_| {});
    let rows = policy_rows(&games);
    assert!(rows.len() > 30, "{} rows", rows.len());
    let (policy, report) = fit_rows(
        &rows,
        3,
        &PolicyFit {
            epochs: 5,
            ..PolicyFit::default()
        },
    );
    assert!(report.rows.0 > 0 && report.rows.1 > 0, "{report:?}");
    let (base, fitted) = (report.base.0.loss, report.fitted.0.loss);
    assert!(fitted < base, "training loss {base} -> {fitted}");
    assert!(policy.own.iter().any(|&w| w != 0.0));

    let dir = std::env::temp_dir().join(format!("wuzi-tune-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let games_file = dir.join("games.txt");
    std::fs::write(&games_file, games_text(&games)).expect("the games file");
    let written = dir.join("policy.rs");
    wuzi_tune([
        "policy".as_ref(),
        "--games-file".as_ref(),
        games_file.as_os_str(),
        "--epochs".as_ref(),
        "2".as_ref(),
        "--write".as_ref(),
        written.as_os_str(),
    ]);
    let text = std::fs::read_to_string(&written).expect("the written policy");
    let _ = std::fs::remove_dir_all(&dir);
    let tables = parse_policy(&text).expect("the written file parses");
    assert!(tables.iter().all(|t| t.len() == 1820));
    assert!(text.contains("wuzi-tune policy --games-file"), "{text}");
}

/// `--offset`: an opening's stones fall in one square of half-width `spread` whose centre
/// is drawn up to `offset` cells from the board's and kept on the board, so over a few
/// hundred openings every edge and every corner gets stones, as Gomocup's openings do.
/// Without an offset no random number is drawn for the square, so a run draws the very
/// openings it drew before the option existed (these four, written by the commit before
/// it), which keeps the committed generations' games replayable.
#[test]
fn openings_may_sit_anywhere_on_the_board_and_centred_ones_are_unchanged() {
    let centred = SelfPlay {
        seed: 5,
        sizes: vec![20],
        ..SelfPlay::default()
    };
    let lines: Vec<String> = (0..4)
        .map(|i| {
            let o = run_opening(&centred, i);
            o.stones.iter().map(|p| p.to_string()).collect()
        })
        .collect();
    assert_eq!(
        lines,
        ["j12h11h12", "j11j13k8k12", "n10k8n12", "h14j12h10j13"]
    );

    let anywhere = SelfPlay {
        opening: (3, 8),
        offset: 9,
        ..centred.clone()
    };
    let (mut edges, mut corners) = ([false; 4], [false; 4]);
    for i in 0..300 {
        let o = run_opening(&anywhere, i);
        assert!((3..=8).contains(&o.stones.len()), "opening {i}");
        let xs = o.stones.iter().map(|p| p.x());
        let ys = o.stones.iter().map(|p| p.y());
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        assert!(x1 < 20 && y1 < 20, "opening {i} off the board");
        assert!(
            x1 - x0 <= 6 && y1 - y0 <= 6,
            "opening {i} not in one 7x7 square"
        );
        for (k, near) in [x0 <= 1, y0 <= 1, x1 >= 18, y1 >= 18]
            .into_iter()
            .enumerate()
        {
            edges[k] |= near;
        }
        for (k, (left, top)) in [(true, true), (true, false), (false, true), (false, false)]
            .into_iter()
            .enumerate()
        {
            let in_x = if left { x1 <= 6 } else { x0 >= 13 };
            let in_y = if top { y1 <= 6 } else { y0 >= 13 };
            corners[k] |= in_x && in_y;
        }
    }
    assert_eq!(edges, [true; 4], "some edge never got a stone");
    assert_eq!(corners, [true; 4], "some corner never got an opening");
}

/// `wuzi-tune openings` refuses a square too small for the stones asked for (the draw would
/// never end) with an error that says so, and writes nothing.
#[test]
fn openings_refuse_a_square_too_small_for_the_stones() {
    let path = std::env::temp_dir().join(format!("wuzi-tune-tiny-{}.txt", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wuzi-tune"))
        .args([
            "openings",
            "--count",
            "2",
            "--spread",
            "0",
            "--min-stones",
            "2",
        ])
        .arg("--out")
        .arg(&path)
        .output()
        .expect("wuzi-tune runs");
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--spread 0") && err.contains("no room"),
        "{err}"
    );
    assert!(!path.exists());
}
