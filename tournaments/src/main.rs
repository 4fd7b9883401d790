//! `wuzi-tournament`: round-robin runner for pbrain engines (see the README's `tournament`
//! section).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use wuzi_tournament::config::Config;
use wuzi_tournament::runner::{self, Options};

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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Cmd::Run {
            config,
            out,
            resume,
            gauntlet,
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
            match runner::run(&cfg, &opts) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
