//! Shared helpers: scratch folders and configs that put fake engines in a tournament.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use wuzi_tournament::board::Rule;
use wuzi_tournament::config::Config;
use wuzi_tournament::config::EngineSpec;
use wuzi_tournament::runner::{self, Finished, Options};

pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");
pub const RUNNER: &str = env!("CARGO_BIN_EXE_wuzi-tournament");

/// A fresh, empty folder under the system temp dir, unique per test process and call.
pub fn scratch(tag: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("wuzi-tour-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A `[[engine]]` entry running the fake engine in `mode`.
pub fn fake(name: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "[[engine]]\nname = {name:?}\ncommand = {FAKE:?}\nargs = [{}]\n",
        args.join(", ")
    )
}

/// Writes `tournament` (the `[tournament]` body) and engines to `dir/t.toml`.
pub fn write_config(dir: &Path, tournament: &str, engines: &[String]) -> PathBuf {
    let path = dir.join("t.toml");
    let text = format!("[tournament]\n{tournament}\n{}", engines.concat());
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path
}

pub fn load(path: &Path) -> Config {
    Config::load(path).unwrap_or_else(|e| panic!("{e}"))
}

/// A config shipped in `tournaments/configs/`, loaded with the fake engine in place of
/// `pbrain-wuzi` (which may not be built) so that the rest of it is checked.
pub fn load_shipped(name: &str) -> Config {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("configs")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let text = text.replace("../../target/release/pbrain-wuzi", FAKE);
    let base = path.parent().unwrap_or(Path::new("."));
    Config::from_toml(&text, base).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs a tournament quietly into `dir/out`.
pub fn run(config: &Config, dir: &Path, resume: bool) -> Finished {
    run_result(config, dir, resume).unwrap_or_else(|e| panic!("{e}"))
}

/// [`run`], returning the runner's error instead of panicking on it.
#[allow(dead_code)]
pub fn run_result(config: &Config, dir: &Path, resume: bool) -> Result<Finished, String> {
    let opts = Options {
        out: dir.join("out"),
        resume,
        overwrite: false,
        gauntlet: false,
        verbose: false,
        report_every: runner::REPORT_EVERY,
    };
    runner::run(config, &opts)
}

/// The workspace's `pbrain-wuzi`, next to this crate's binaries, built (or brought up to
/// date) with `cargo build` in the same profile: `cargo test -p wuzi-tournament` does not
/// build the engine package's binaries by itself.
pub fn pbrain_wuzi() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let runner = Path::new(RUNNER);
        let dir = runner.parent().unwrap_or_else(|| panic!("{RUNNER}"));
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .args([
                "build",
                "--quiet",
                "--workspace",
                "--bin",
                "pbrain-wuzi",
                "--manifest-path",
            ])
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml"));
        match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => {}
            Some("release") => {
                cargo.arg("--release");
            }
            Some(other) => {
                cargo.args(["--profile", other]);
            }
            None => panic!("{RUNNER}"),
        }
        let status = cargo.status().unwrap_or_else(|e| panic!("cargo: {e}"));
        assert!(status.success(), "cargo build pbrain-wuzi: {status}");
        let path = dir.join(format!("pbrain-wuzi{}", std::env::consts::EXE_SUFFIX));
        assert!(path.is_file(), "{}", path.display());
        path
    })
}

/// The freestyle rule (no exact five, no caro, no renju).
pub const FREESTYLE: Rule = Rule::FREESTYLE;

/// An engine spec running `command args…` in the temp dir.
pub fn spec(name: &str, command: &str, args: &[&str]) -> EngineSpec {
    EngineSpec {
        name: name.to_string(),
        command: PathBuf::from(command),
        args: args.iter().map(|a| a.to_string()).collect(),
        workdir: std::env::temp_dir(),
        options: Vec::new(),
        timeout_turn_ms: None,
        timeout_match_ms: None,
    }
}

/// A judge that reports a fixed Rapfi-style score (its own view) and then plays the first
/// empty cell in row-major order (`fake-engine say`).
pub fn says(score: &str) -> EngineSpec {
    let line = format!("Speed 1K | Depth 9-3 | Eval {score} | Node 1K | Time 1ms");
    spec(
        "judge",
        FAKE,
        &["say", "Depth 2-2 | Eval 15 | Time 0ms | J10", &line],
    )
}
