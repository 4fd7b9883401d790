//! `wuzi-tune`: fit Wuzi's evaluation to its own self-play games, from one command.
//!
//! ```text
//! wuzi-tune all --games 400 --nodes 3000 --seed 1 --out tune-out --write src/eval/sets/fitted.rs
//! ```
//!
//! `selfplay` writes `OUT/games.txt`; `fit` reads a games file and writes a weight-set data
//! file (`OUT/fitted.rs`, and `--write PATH` too); `all` does both; `hand` writes the
//! hand-set weights' data file; `relabel` scores a games file's positions again by a deeper
//! search (its output is a games file `fit` reads); `spsa` tunes the search's numbers
//! (move-ordering weights, margins) on game pairs and writes them as `name = value` lines.
//! Everything follows from the seed (and, for `spsa`, the thread count).

use clap::Parser;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use wuzi::eval::sets::SetName;
use wuzi::search::SearchParams;
use wuzi::tune::file::{parse, render};
use wuzi::tune::fit::Fit;
use wuzi::tune::game::{games_text, parse_games, Game};
use wuzi::tune::hand::hand_set;
use wuzi::tune::pipeline::{fit_games, Plan};
use wuzi::tune::relabel::relabel_all;
use wuzi::tune::selfplay::{draw_openings, play_all, SelfPlay};
use wuzi::tune::spsa::{self, Spsa};
use wuzi::Rule;

mod args;

use args::{
    Action, Cli, FitArgs, MatchArgs, OpeningArgs, PlayArgs, PolicyArgs, RelabelArgs, SpsaArgs,
};

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The games of the games file at `path`.
fn read_games(path: &Path) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_games(&text)
}

/// Today's date (UTC) as yyyy-mm-dd, from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    // Days to civil date (H. Hinnant's algorithm).
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}-{m:02}-{d:02}")
}

/// Progress of a run of `total` items finished in any order on any thread: every `every`-th
/// finished item, and the last, prints `label: n/total[unit], elapsed` on standard error.
struct Progress {
    label: &'static str,
    unit: &'static str,
    total: usize,
    every: usize,
    start: Instant,
    done: std::sync::atomic::AtomicUsize,
}

impl Progress {
    fn new(
        label: &'static str,
        unit: &'static str,
        total: usize,
        every: usize,
        start: Instant,
    ) -> Progress {
        Progress {
            label,
            unit,
            total,
            every,
            start,
            done: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// One more item finished.
    fn tick(&self) {
        let n = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if n.is_multiple_of(self.every) || n == self.total {
            eprintln!(
                "{}: {n}/{}{}, {:.0?}",
                self.label,
                self.total,
                self.unit,
                self.start.elapsed()
            );
        }
    }
}

fn selfplay(a: &PlayArgs) -> Result<Vec<Game>, String> {
    wuzi::eval::sets::select(a.eval);
    let cfg = SelfPlay {
        games: a.games,
        nodes: a.nodes,
        seed: a.seed,
        sizes: a.sizes.clone(),
        rule: Rule::from_bits(a.rule),
        threads: a.threads,
        balance: a.even.balance(a.balance_nodes),
        random_plies: a.random_plies,
        offset: a.offset.offset,
        ..SelfPlay::default()
    };
    let start = Instant::now();
    let progress = Progress::new("self-play", " games", cfg.games, 20, start);
    let games = play_all(&cfg, &|_| progress.tick());
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let text = games_text(&games);
    let path = a.out.join("games.txt");
    write_file(&path, &text)?;
    eprintln!(
        "self-play: {} games, {moves} moves in {:.1?} -> {}",
        games.len(),
        start.elapsed(),
        path.display()
    );
    Ok(games)
}

fn policy(a: &PolicyArgs) -> Result<(), String> {
    use wuzi::tune::policy::{policy_file, PolicyFit};
    let games = read_games(&a.games_file)?;
    let cfg = PolicyFit {
        epochs: a.epochs,
        lr: a.lr,
        l2: a.l2,
        seed: a.seed,
        ..PolicyFit::default()
    };
    let command = format!(
        "wuzi-tune policy --games-file {} --epochs {} --lr {} --l2 {} --seed {}",
        a.games_file.display(),
        a.epochs,
        a.lr,
        a.l2,
        a.seed
    );
    let (text, header) = policy_file(&games, &cfg, &command, &today())?;
    for line in header.iter().skip(2) {
        eprintln!("policy: {line}");
    }
    if let Some(path) = &a.write {
        write_file(path, &text)?;
        eprintln!("policy: written to {}", path.display());
    }
    Ok(())
}

fn openings(a: &OpeningArgs) -> Result<(), String> {
    wuzi::eval::sets::select(a.eval);
    let cfg = a.selfplay();
    if cfg.opening.0 > cfg.opening.1 || cfg.opening.0 == 0 {
        return Err(format!(
            "--min-stones {} --max-stones {}: the fewest must be at least 1 and at most the most",
            cfg.opening.0, cfg.opening.1
        ));
    }
    cfg.check_opening_room()?;
    let start = Instant::now();
    let progress = Progress::new("openings", "", a.count, 100, start);
    let drawn = draw_openings(&cfg, a.count, &|_| progress.tick());
    let mut seen = std::collections::HashSet::new();
    let mut lines = Vec::new();
    let mut even = 0;
    let bound = cfg.balance.map(|b| b.bound);
    for o in &drawn {
        let line: String = o.stones.iter().map(|p| p.to_string()).collect();
        if o.stones.is_empty() || !seen.insert((o.size, line.clone())) {
            continue;
        }
        even += usize::from(o.score.zip(bound).is_some_and(|(s, b)| s.abs() <= b));
        lines.push(line);
    }
    let judged = match cfg.balance {
        Some(b) => format!(
            "{even} of them scored within ±{} for the side to move by a {}-node search of the \
             `{}` set, the others the most even of {} draws",
            b.bound,
            b.nodes,
            a.eval.name(),
            b.tries
        ),
        None => "not judged by a search".to_string(),
    };
    // An offset is named only when given, so the headers of the files written before it
    // existed still read as the command that writes them again.
    let (offset_arg, square) = match cfg.offset {
        0 => (String::new(), "the centre".to_string()),
        o => (
            format!(" --offset {o}"),
            format!("a centre drawn up to {o} cells from the board's in each direction"),
        ),
    };
    let mut text = format!(
        "# {} openings by `wuzi-tune openings --count {} --seed {} --sizes {} --rule {} \
         --min-stones {} --max-stones {} --spread {}{offset_arg} --balance-nodes {} --balance-bound {} --balance-tries {} \
         --eval {}`:\n# {}-{} random stones within {} of {square}, black first; {judged}.\n",
        lines.len(),
        a.count,
        a.seed,
        cfg.sizes
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(","),
        a.rule,
        cfg.opening.0,
        cfg.opening.1,
        cfg.spread,
        a.balance_nodes,
        a.even.balance_bound,
        a.even.balance_tries,
        a.eval.name(),
        cfg.opening.0,
        cfg.opening.1,
        cfg.spread,
    );
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    write_file(&a.out, &text)?;
    eprintln!(
        "openings: {} written ({} repeats dropped), {even} within the bound, in {:.1?} -> {}",
        lines.len(),
        drawn.len() - lines.len(),
        start.elapsed(),
        a.out.display()
    );
    Ok(())
}

fn relabel(a: &RelabelArgs) -> Result<(), String> {
    wuzi::eval::sets::select(a.eval);
    let mut games = read_games(&a.games_file)?;
    games.truncate(a.limit.unwrap_or(games.len()));
    let start = Instant::now();
    let progress = Progress::new("relabel", " games", games.len(), 50, start);
    let deep = relabel_all(&games, a.nodes, a.threads, &|_| progress.tick());
    let scored =
        |gs: &[Game]| -> usize { gs.iter().map(|g| g.scores.iter().flatten().count()).sum() };
    if deep.len() != games.len() {
        eprintln!(
            "relabel: {} of {} games were lost to a failed worker",
            games.len() - deep.len(),
            games.len()
        );
    }
    let text = games_text(&deep);
    write_file(&a.out, &text)?;
    eprintln!(
        "relabel: {} games, {} scored positions (were {}) at {} nodes in {:.1?} -> {}",
        deep.len(),
        scored(&deep),
        scored(&games),
        a.nodes,
        start.elapsed(),
        a.out.display()
    );
    Ok(())
}

fn fit(games: &[Game], a: &FitArgs, out: &Path, source: &[String]) -> Result<(), String> {
    let start = Instant::now();
    let plan = Plan {
        fit: Fit {
            epochs: a.epochs,
            finish: a.finish,
            lr: a.lr,
            l2_code: a.l2_code,
            ..Fit::default()
        },
        lambda: a.lambda,
        hold_every: a.hold_every,
        two_ply: a.two_ply,
    };
    let (set, report) = fit_games(games, a.from.weights(), &plan);
    let losses: Vec<String> = report.epochs.iter().map(|l| format!("{l:.5}")).collect();
    eprintln!("fit: training loss by epoch {}", losses.join(" "));
    let mut header = vec![
        "Evaluation weights fitted by `wuzi-tune` on Wuzi's own self-play games.".to_string(),
        String::new(),
        format!(
            "command: {}",
            std::env::args().collect::<Vec<_>>().join(" ")
        ),
    ];
    header.extend(source.iter().cloned());
    header.push(format!(
        "fit: {} epochs + 3 x {} finishing, lr {}, l2 on codes {}, lambda {}, hold out 1 game in {}{}{}; {:.1?}; {}",
        a.epochs,
        a.finish,
        a.lr,
        a.l2_code,
        a.lambda,
        a.hold_every,
        match a.from {
            SetName::Hand => String::new(),
            other => format!(", from the {} set", other.name()),
        },
        if a.two_ply {
            ", the search's two-ply form"
        } else {
            ""
        },
        start.elapsed(),
        today()
    ));
    header.extend(report.lines());
    for line in &report.lines() {
        println!("{line}");
    }
    let text = render(&set, &header);
    // The file must say exactly the set fitted.
    if parse(&text).as_ref() != Ok(&set) {
        return Err("the rendered weight file does not read back".into());
    }
    write_file(&out.join("fitted.rs"), &text)?;
    if let Some(path) = &a.write {
        write_file(path, &text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// The numbers of a `name = value` file over the engine's, or the engine's alone.
fn read_params(path: Option<&Path>) -> Result<SearchParams, String> {
    path.map_or(Ok(SearchParams::DEFAULT), |p| {
        SearchParams::read(p).map_err(|e| e.0)
    })
}

fn play_match(a: &MatchArgs) -> Result<(), String> {
    let (pa, pb) = (read_params(a.a.as_deref())?, read_params(a.b.as_deref())?);
    wuzi::eval::sets::select(a.games.eval);
    let play = a.games.selfplay();
    let clock = Instant::now();
    let outcome = spsa::match_points(&play, a.pairs, pa, pb);
    let ([w, l, d], points) = (outcome.wld, outcome.points());
    let n = (w + l + d) as f64;
    let score = points / n.max(1.0);
    // The score's 95 % interval from the games' own spread, mapped to Elo.
    let var = (w as f64 * (1.0 - score).powi(2)
        + l as f64 * score.powi(2)
        + d as f64 * (0.5 - score).powi(2))
        / n.max(1.0);
    let half = 1.96 * (var / n.max(1.0)).sqrt();
    // (+ 0.0: an even score prints as +0, not -0.)
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10() + 0.0;
    println!(
        "a vs b: {w} - {l} - {d} of {n} games at {} nodes, eval {}, pairs by a's half points (0..4) {:?}, score {:.1} %, Elo {:+.0} ({:+.0} .. {:+.0}); {:.1?}",
        a.games.nodes,
        a.games.eval.name(),
        outcome.penta,
        100.0 * score,
        elo(score),
        elo(score - half),
        elo(score + half),
        clock.elapsed()
    );
    Ok(())
}

fn spsa(a: &SpsaArgs) -> Result<(), String> {
    let start_params = read_params(a.start.as_deref())?;
    wuzi::eval::sets::select(a.games.eval);
    let cfg = Spsa {
        pairs: a.pairs,
        play: a.games.selfplay(),
        rate: a.rate,
        start: start_params,
        names: if a.only.is_empty() {
            SearchParams::names()
                .into_iter()
                .filter(|n| !wuzi::search::SWITCHES.contains(&n.as_str()))
                .collect()
        } else {
            a.only.clone()
        },
    };
    let clock = Instant::now();
    // About forty progress lines a run: one each time the steps pass another fortieth.
    let every = (a.pairs / 40).max(1);
    let shown = std::sync::atomic::AtomicUsize::new(0);
    let outcome = spsa::run(&cfg, &|done, knobs| {
        let bucket = done / every;
        if shown.swap(bucket, std::sync::atomic::Ordering::Relaxed) != bucket || done == cfg.pairs {
            let values: Vec<String> = knobs
                .iter()
                .map(|k| format!("{}={:.1}", k.name, k.value))
                .collect();
            eprintln!(
                "spsa: {done}/{} pairs, {:.0?}: {}",
                cfg.pairs,
                clock.elapsed(),
                values.join(" ")
            );
        }
    })?;
    let mut text = format!(
        "# Search numbers tuned by `wuzi-tune spsa` ({}).\n# command: {}\n# {} games at {} nodes a move, seed {}, rate {}; the plus side scored {:.1} of {}; {:.1?}\n# The mean of the second half of the steps, rounded:\n",
        today(),
        std::env::args().collect::<Vec<_>>().join(" "),
        outcome.games,
        a.games.nodes,
        a.games.seed,
        a.rate,
        outcome.plus_points,
        outcome.games,
        clock.elapsed()
    );
    text.push_str(&outcome.params.to_string());
    write_file(&a.write, &text)?;
    print!("{}", outcome.params);
    eprintln!("spsa: wrote {}", a.write.display());
    Ok(())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.action {
        Action::Selfplay(a) => selfplay(&a).map(|_| ()),
        Action::Relabel(a) => relabel(&a),
        Action::Fit { games_file, fit: a } => {
            let games = read_games(&games_file)?;
            let source = [format!("games file: {}", games_file.display())];
            fit(&games, &a, &a.fit_out, &source)
        }
        Action::All { play, fit: a } => {
            let start = Instant::now();
            let games = selfplay(&play)?;
            let moves: usize = games.iter().map(|g| g.moves.len()).sum();
            let source = [format!(
                "self-play: seed {}, {} games ({} moves), {} nodes a move, sizes {:?}, rule {}, eval {}, {:.1?}",
                play.seed,
                games.len(),
                moves,
                play.nodes,
                play.sizes,
                play.rule,
                play.eval.name(),
                start.elapsed()
            )];
            fit(&games, &a, &play.out, &source)
        }
        Action::Spsa(a) => spsa(&a),
        Action::Match(a) => play_match(&a),
        Action::Openings(a) => openings(&a),
        Action::Policy(a) => policy(&a),
        Action::Hand { write } => {
            let header = [
                "The hand-set evaluation weights: the engine's default set (`tune::hand`)."
                    .to_string(),
                String::new(),
                "Written by `wuzi-tune hand --write src/eval/sets/hand.rs`.".to_string(),
            ];
            write_file(&write, &render(&hand_set(), &header))
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wuzi-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
