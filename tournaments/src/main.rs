//! `wuzi-tournament`: round-robin runner for pbrain engines (see the README's `tournament`
//! section).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi_tournament::config::Config;
use wuzi_tournament::runner::{self, Options};
use wuzi_tournament::shard::{self, Shard};
use wuzi_tournament::{console, health, proc};

#[derive(Parser)]
#[command(
    version,
    about = "Plays pbrain engines against each other and reports per-game TT statistics"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play the tournament a config describes.
    Run {
        /// The tournament file (TOML).
        config: PathBuf,
        /// Output folder [default: results/<config stem> next to the config].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue from the folder's results.jsonl instead of starting over.
        #[arg(long)]
        resume: bool,
        /// Start over in a folder whose results.jsonl already holds finished games, deleting
        /// them (without it, or --resume, such a folder is refused).
        #[arg(long, conflicts_with = "resume")]
        overwrite: bool,
        /// The first engine plays each of the others; the others do not meet.
        #[arg(long)]
        gauntlet: bool,
        /// Play only slice K of N of the schedule (K from 0), e.g. one job of a cluster array.
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
        /// Rewrite summary.md, games.sgf and report.html every S seconds while games are
        /// played (0: after every game); they are always written at the end.
        #[arg(long, value_name = "S", default_value_t = runner::REPORT_EVERY.as_secs())]
        report_every: u64,
    },
    /// Combine the output folders of shards (or of any runs of one config) into one report.
    Merge {
        /// Output folders holding a results.jsonl each.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Folder for the merged results.jsonl, summary.md, games/, games.sgf and report.html.
        #[arg(long)]
        out: PathBuf,
    },
    /// On a file of positions, does an engine avoid the game's mistake? A judge engine
    /// scores the position after the engine's move.
    Judge(JudgeArgs),
    /// Where did a player's lost games turn? A judge engine scores the position before each
    /// of the player's moves and, when it holds, the one after; the first move that turns a
    /// held position into a lost one is printed as a positions row for `judge`.
    Mistakes(MistakesArgs),
    /// One player's score over SGF files from any manager (c-gomoku-cli, this runner):
    /// wins, losses, draws, Elo with its 95 % interval per file and pooled, how the games
    /// ended, think times from the moves' `C[…ms]` comments, and opening pairs.
    Tally(TallyArgs),
}

#[derive(clap::Args)]
struct TallyArgs {
    /// SGF files, each one match (a row of the table).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The player scored, as PB and PW name it.
    #[arg(long)]
    player: String,
    /// Think times are averaged over the moves of at least this many ms (forced and
    /// proven moves answer at once); the longest is over all.
    #[arg(long, default_value_t = 50)]
    min_ms: u64,
}

#[derive(clap::Args)]
struct MistakesArgs {
    /// SGF files of games (c-gomoku-cli's or this runner's; opening stones carry the comment
    /// `opening move`). One board size for all.
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// The player whose lost games are scanned, as PB and PW name it.
    #[arg(long)]
    player: String,
    /// The judge's `INFO max_node`.
    #[arg(long, default_value_t = 500_000)]
    judge_nodes: u64,
    #[command(flatten)]
    judging: JudgingArgs,
    /// A position is held when the judge scores it at or above this for the player.
    #[arg(long, default_value_t = -600, allow_negative_numbers = true)]
    hold: i64,
    /// After the move it is lost when the judge scores it at or below this for the player.
    #[arg(long, default_value_t = -1500, allow_negative_numbers = true)]
    lost: i64,
    /// Position ids are this and the game's number (GN).
    #[arg(long, default_value = "G")]
    prefix: String,
    /// Write the positions file here (it is printed either way). An existing file is
    /// refused unless --overwrite.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an existing --out file and an earlier scan's .log files in --logs (deleted
    /// before the scan starts).
    #[arg(long)]
    overwrite: bool,
    /// Folder for the judge's logs, one per position asked. A folder holding an earlier
    /// scan's logs is refused unless --overwrite.
    #[arg(long)]
    logs: Option<PathBuf>,
    /// Games scanned at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
}

/// The judge and the game's settings, as `judge` and `mistakes` both take them.
#[derive(clap::Args)]
struct JudgingArgs {
    /// The judge engine: a command line split at blanks (a path, or a name on PATH).
    /// `mistakes` needs one; `judge` without one scores no position, and counts only the
    /// engine's moves, its own claims of a win and its fives (a proof count on won positions).
    #[arg(long, value_name = "CMD")]
    judge: Option<String>,
    /// The judge's `INFO timeout_turn` (ms): generous, the node limit should bind.
    #[arg(long, default_value_t = 300_000)]
    judge_turn_ms: u64,
    /// The judge's `INFO thread_num` (0 = not sent).
    #[arg(long, default_value_t = 1)]
    judge_threads: u64,
    /// `INFO rule` bits: 0 freestyle, 1 exact five, 8 caro (renju is not supported).
    #[arg(long, default_value_t = 0)]
    rule: u32,
    /// `INFO max_memory` for every engine (bytes).
    #[arg(long, default_value_t = 350_000_000)]
    max_memory: u64,
    /// Grace after a limit before a reply counts as late (ms).
    #[arg(long, default_value_t = 1000)]
    tolerance_ms: u64,
    /// Skip lines that are no move while a move is due (and lines that are no protocol
    /// response at all before it) instead of scoring them as a malformed reply: the
    /// tournament's `lenient_replies`, for engines that print noise.
    #[arg(long)]
    lenient_replies: bool,
}

#[derive(clap::Args)]
struct JudgeArgs {
    /// Positions file (`id | moves | game move | better move | note`, SGF letters).
    #[arg(long)]
    positions: PathBuf,
    /// The engine under test: a command line split at blanks (a path, or a name on PATH).
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// The engine's `INFO timeout_turn` (ms).
    #[arg(long, default_value_t = 500)]
    turn_ms: u64,
    /// The engine's `INFO max_node` (not sent unless given): with an engine that honours
    /// it, a run gives the same answers on any machine and under any load.
    #[arg(long)]
    engine_nodes: Option<u64>,
    /// The judge's `INFO max_node`.
    #[arg(long, default_value_t = 3_000_000)]
    judge_nodes: u64,
    #[command(flatten)]
    judging: JudgingArgs,
    /// Avoided = the judge's score from the engine's side is above this.
    #[arg(long, default_value_t = -300, allow_negative_numbers = true)]
    threshold: i64,
    /// Folder for judge.json, judge.csv, summary.md and the engine logs. A folder that
    /// holds an earlier run's figures is refused unless --overwrite.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace an earlier run's figures and engine logs in --out (deleted before it starts).
    #[arg(long)]
    overwrite: bool,
    /// Positions handled at the same time (1 keeps the timing honest).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Board side.
    #[arg(long, default_value_t = 20)]
    size: usize,
    /// Only these ids (comma-separated).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Cmd::Merge { dirs, out } => merge(&dirs, &out),
        Cmd::Judge(args) => judge(&args),
        Cmd::Mistakes(args) => mistakes(&args),
        Cmd::Tally(args) => tally(&args),
        Cmd::Run {
            config,
            out,
            resume,
            overwrite,
            gauntlet,
            shard,
            report_every,
        } => {
            let cfg = match Config::load(&config) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let opts = Options {
                out: out.unwrap_or_else(|| runner::default_out(&config)),
                resume,
                overwrite,
                gauntlet,
                verbose: true,
                report_every: std::time::Duration::from_secs(report_every),
            };
            match runner::run_shard(&cfg, &opts, shard) {
                Ok(done) => {
                    let names = cfg.engine_names();
                    match health::start_error(&names, &done.records) {
                        Some(e) => {
                            eprintln!("error: {e}");
                            ExitCode::FAILURE
                        }
                        None => ExitCode::SUCCESS,
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    };
    // Every way out ends the engines (normally none is left by now).
    proc::kill_all();
    code
}

fn merge(dirs: &[PathBuf], out: &std::path::Path) -> ExitCode {
    match shard::merge(dirs, out) {
        Ok(m) => {
            console::line(&m.markdown);
            if !m.missing.is_empty() {
                eprintln!(
                    "warning: {} of {} scheduled games are in no journal (listed in summary.md)",
                    m.missing.len(),
                    m.total
                );
            }
            console::line(&format!("merged results: {}", out.display()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn judge(a: &JudgeArgs) -> ExitCode {
    match judge_run(a) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn judge_run(a: &JudgeArgs) -> Result<ExitCode, String> {
    use wuzi_tournament::board::Rule;
    use wuzi_tournament::judge::{self, positions, report};
    if !(5..=26).contains(&a.size) {
        return Err("--size must be 5..=26 (SGF letters)".to_string());
    }
    let mut list = positions::load(&a.positions, a.size, Rule::from_bits(a.judging.rule)?)?;
    if !a.only.is_empty() {
        if let Some(id) = a.only.iter().find(|id| !list.iter().any(|p| &&p.id == id)) {
            return Err(format!("--only: no position {id}"));
        }
        list.retain(|p| a.only.contains(&p.id));
    }
    if let Some(dir) = &a.out {
        report::prepare(dir, a.overwrite)?;
    }
    let opts = judge::Options {
        engine: judge::engine_from_command("engine", &a.engine)?,
        judge: a
            .judging
            .judge
            .as_deref()
            .map(|cmd| judge::engine_from_command("judge", cmd))
            .transpose()?,
        size: a.size,
        rule_bits: a.judging.rule,
        turn_ms: a.turn_ms,
        engine_nodes: a.engine_nodes,
        judge_nodes: a.judge_nodes,
        judge_turn_ms: a.judging.judge_turn_ms,
        judge_threads: a.judging.judge_threads,
        tolerance_ms: a.judging.tolerance_ms,
        lenient_replies: a.judging.lenient_replies,
        max_memory: a.judging.max_memory,
        threshold: a.threshold,
        concurrency: a.concurrency.max(1),
        log_dir: a.out.as_ref().map(|d| d.join("logs")),
        progress: true,
    };
    let started = std::time::Instant::now();
    let verdicts = judge::run(&opts, &list)?;
    let ms = started.elapsed().as_millis() as u64;
    let judge = a.judging.judge.as_deref();
    let run = report::RunInfo::new(&opts, &a.positions, &a.engine, judge, ms);
    let totals = report::Totals::of(&verdicts);
    console::line(&run.header());
    console::line(&report::table(&verdicts));
    console::line(&run.total_line(&totals));
    if let Some(dir) = &a.out {
        report::write(dir, &run, &verdicts)?;
        console::line(&format!("written: {}", dir.display()));
    }
    if totals.judge_faults > 0 {
        eprintln!(
            "error: the judge gave no score on {} positions; the figure is incomplete",
            totals.judge_faults
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn tally(a: &TallyArgs) -> ExitCode {
    use wuzi_tournament::{sgf, tally};
    let mut files = Vec::new();
    for path in &a.games {
        let read = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| sgf::parse(&text));
        match read {
            Ok(games) => files.push((
                path.display().to_string(),
                tally::figures(&games, &a.player),
            )),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    if files.iter().all(|(_, f)| f.tally.games() + f.unscored == 0) {
        eprintln!(
            "error: no game of a player named {:?} (PB or PW) in the files",
            a.player
        );
        return ExitCode::FAILURE;
    }
    print!("{}", tally::report(&a.player, &files, a.min_ms));
    ExitCode::SUCCESS
}

fn mistakes(a: &MistakesArgs) -> ExitCode {
    match mistakes_run(a) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn mistakes_run(a: &MistakesArgs) -> Result<ExitCode, String> {
    use wuzi_tournament::judge::{self, mistakes};
    let judge_cmd = a
        .judging
        .judge
        .as_deref()
        .ok_or("mistakes needs a judge (--judge CMD)")?;
    let mut games = Vec::new();
    for path in &a.games {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(
            wuzi_tournament::sgf::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?,
        );
    }
    let lost = mistakes::lost_games(&games, &a.player, &a.prefix)?;
    if lost.is_empty() {
        return Err(format!(
            "none of the {} games read was lost by a player named {:?} (PB or PW)",
            games.len(),
            a.player
        ));
    }
    if let Some(g) = lost
        .iter()
        .find(|g| g.rule.is_some_and(|r| r != a.judging.rule))
    {
        return Err(format!(
            "game {} was played under RU[{}] but the judge would get --rule {}",
            g.id,
            g.rule.unwrap_or_default(),
            a.judging.rule
        ));
    }
    mistakes::prepare_outputs(a.out.as_deref(), a.logs.as_deref(), a.overwrite)?;
    if let Some(dir) = &a.logs {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let spec = judge::engine_from_command("judge", judge_cmd)?;
    let asker = judge::Judge {
        spec: &spec,
        nodes: a.judge_nodes,
        turn_ms: a.judging.judge_turn_ms,
        threads: a.judging.judge_threads,
        rule_bits: a.judging.rule,
        max_memory: a.judging.max_memory,
        tolerance_ms: a.judging.tolerance_ms,
        lenient_replies: a.judging.lenient_replies,
        start_ms: 1000,
        log_dir: a.logs.as_deref(),
    };
    let limits = mistakes::Thresholds {
        hold: a.hold,
        lost: a.lost,
    };
    let total = lost.len();
    let progress = |k: usize, s: &mistakes::Scan| {
        eprintln!("[{k}/{total}] {}", mistakes::progress_line(s));
    };
    let started = std::time::Instant::now();
    let scans = mistakes::scan_all(&asker, limits, &lost, a.concurrency, &progress)?;
    let header = mistakes::header(
        &scans,
        &mistakes::RunInfo {
            player: &a.player,
            games: &a.games,
            scanned: games.len(),
            judge: judge_cmd,
            nodes: a.judge_nodes,
            limits,
            seconds: started.elapsed().as_secs(),
        },
    );
    let rows: Vec<String> = scans.iter().filter_map(mistakes::Scan::row).collect();
    let text = format!(
        "{header}{}",
        rows.iter().map(|r| format!("{r}\n")).collect::<String>()
    );
    console::line(text.trim_end());
    if let Some(out) = &a.out {
        std::fs::write(out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
        console::line(&format!("written: {}", out.display()));
    }
    let faults = scans
        .iter()
        .filter(|s| matches!(s.finding, mistakes::Finding::Fault { .. }))
        .count();
    if faults > 0 {
        eprintln!("error: the judge failed in {faults} games; their mistakes are not in the file");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
