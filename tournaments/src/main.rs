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
        /// The first engine plays each of the others; the others do not meet.
        #[arg(long)]
        gauntlet: bool,
        /// Play only slice K of N of the schedule (K from 0), e.g. one job of a cluster array.
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
    },
    /// Combine the output folders of shards (or of any runs of one config) into one report.
    Merge {
        /// Output folders holding a results.jsonl each.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Folder for the merged results.jsonl, summary.md and games/.
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Cmd::Merge { dirs, out } => merge(&dirs, &out),
        Cmd::Run {
            config,
            out,
            resume,
            gauntlet,
            shard,
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
                gauntlet,
                verbose: true,
            };
            match runner::run_shard(&cfg, &opts, shard) {
                Ok(done) => {
                    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
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
