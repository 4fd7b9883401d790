//! The tournament file (TOML). Relative paths are taken from the config file's folder, so a
//! config works from any current directory and a checkout can ship one that finds the
//! engine in `../target/release`.

#[cfg(test)]
mod limits;
#[cfg(test)]
mod tests;

use crate::board::Rule;
use crate::opening::{self, Opening};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Largest board side: the protocol's and the engine's limit.
pub const MAX_BOARD: usize = 32;

/// `[tournament]` as written in the file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    #[serde(default = "default_size")]
    board_size: usize,
    #[serde(default)]
    rule: u32,
    timeout_turn_ms: u64,
    #[serde(default)]
    timeout_match_ms: u64,
    #[serde(default = "default_memory")]
    max_memory: u64,
    memory_limit: Option<u64>,
    #[serde(default = "default_games_per_pair")]
    games_per_pair: u32,
    openings: Option<String>,
    openings_limit: Option<usize>,
    draw_after_moves: Option<usize>,
    #[serde(default = "default_tolerance")]
    tolerance_ms: u64,
    #[serde(default = "default_concurrency")]
    concurrency: usize,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    gauntlet: bool,
    #[serde(default)]
    lenient_replies: bool,
}

/// `[[engine]]` as written in the file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEngine {
    name: String,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    workdir: Option<String>,
    #[serde(default)]
    options: toml::Table,
    timeout_turn_ms: Option<u64>,
    timeout_match_ms: Option<u64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    tournament: RawSettings,
    engine: Vec<RawEngine>,
    #[serde(default)]
    sprt: Option<crate::sprt::RawSprt>,
}

fn default_size() -> usize {
    20
}
fn default_memory() -> u64 {
    367_001_600
}
fn default_games_per_pair() -> u32 {
    2
}
fn default_tolerance() -> u64 {
    1000
}
fn default_concurrency() -> usize {
    1
}

/// Stones at which a renju game is drawn when the config does not set `draw_after_moves`.
pub const RENJU_DRAW_AFTER: usize = 200;

/// Game conditions shared by every game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Side of the square board.
    pub board_size: usize,
    /// `INFO rule` bits sent to the engines.
    pub rule_bits: u32,
    /// The referee's reading of those bits.
    pub rule: Rule,
    /// Per-move limit in ms (`INFO timeout_turn`); 0 means "answer at once".
    pub timeout_turn_ms: u64,
    /// Per-game clock in ms (`INFO timeout_match`); 0 means no clock.
    pub timeout_match_ms: u64,
    /// `INFO max_memory` in bytes, as sent to the engines.
    pub max_memory: u64,
    /// Resident memory (bytes, the engine's process tree) over which an engine loses the
    /// game; 0 = not enforced. Defaults to `max_memory`.
    pub memory_limit: u64,
    /// The opening shuffle's seed (0 = file order); kept for the results' fingerprint.
    pub seed: u64,
    /// Games each pair plays on each opening; colours alternate, so 2 = once with each.
    pub games_per_pair: u32,
    /// Stones on the board at which the game is drawn (the board size squared = full board).
    pub draw_after_moves: usize,
    /// Grace after a limit before a move counts as late, in ms.
    pub tolerance_ms: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Only the first engine plays, against each of the others.
    pub gauntlet: bool,
    /// Skip lines that are no move while a move is due (GomocupJudge's behaviour) instead of
    /// scoring them as a malformed reply (Piskvork's); for engines that print noise.
    pub lenient_replies: bool,
}

impl Settings {
    /// The game clock as the summary and the report print it: `none` or `N ms`.
    pub fn game_clock(&self) -> String {
        game_clock_text(self.timeout_match_ms)
    }

    /// The conditions `engine` plays under: these, with its own time limits if it has any.
    pub fn for_engine(&self, engine: &EngineSpec) -> Settings {
        Settings {
            timeout_turn_ms: engine.timeout_turn_ms.unwrap_or(self.timeout_turn_ms),
            timeout_match_ms: engine.timeout_match_ms.unwrap_or(self.timeout_match_ms),
            ..self.clone()
        }
    }
}

/// A per-game clock of `ms` as the summary and the report print it: `none` (0) or `N ms`.
pub fn game_clock_text(ms: u64) -> String {
    if ms == 0 {
        "none".to_string()
    } else {
        format!("{ms} ms")
    }
}

/// One engine, ready to spawn.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name; unique within the tournament.
    pub name: String,
    /// Executable: an absolute path, or a bare name looked up on `PATH`.
    pub command: PathBuf,
    /// Arguments passed as they are.
    pub args: Vec<String>,
    /// Working directory: the executable's folder unless the config names one.
    pub workdir: PathBuf,
    /// Extra `INFO key value` lines sent after the standard ones (`options` in the config,
    /// keys in sorted order), e.g. `max_node` for fixed-node tests.
    pub options: Vec<gomocup_protocol::Info>,
    /// This engine's own per-move limit instead of `[tournament]`'s (time odds).
    pub timeout_turn_ms: Option<u64>,
    /// This engine's own game clock instead of `[tournament]`'s (time odds).
    pub timeout_match_ms: Option<u64>,
}

impl EngineSpec {
    /// Its time odds as the summary and the report print them (`None` without any): e.g.
    /// `1000 ms per move` or `250 ms per move, game clock 6000 ms`.
    pub fn odds(&self) -> Option<String> {
        odds_text(self.timeout_turn_ms, self.timeout_match_ms)
    }
}

/// Time odds as `EngineSpec::odds` prints them.
pub fn odds_text(turn: Option<u64>, clock: Option<u64>) -> Option<String> {
    let parts: Vec<String> = [
        turn.map(|ms| format!("{ms} ms per move")),
        clock.map(|ms| format!("game clock {}", game_clock_text(ms))),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The engines with time odds, as `name: text` in engine order (the others left out):
/// `names` and `odds` (each engine's `EngineSpec::odds`) are in the same order.
pub fn named_odds(names: &[String], odds: &[Option<String>]) -> Vec<String> {
    names
        .iter()
        .zip(odds)
        .filter_map(|(name, text)| Some(format!("{name}: {}", text.as_ref()?)))
        .collect()
}

/// A loaded, validated tournament.
#[derive(Clone, Debug)]
pub struct Config {
    /// The file it came from.
    pub path: PathBuf,
    /// Game conditions.
    pub settings: Settings,
    /// Participants, in file order (the first is the gauntlet player).
    pub engines: Vec<EngineSpec>,
    /// Openings after the seeded shuffle and the limit; one empty opening if none are given.
    pub openings: Vec<Opening>,
    /// `[sprt]`: the run is a sequential test of the first engine against the second.
    pub sprt: Option<crate::sprt::Spec>,
}

impl Config {
    /// The engines' names, in file order.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// Each engine's time odds in file order (`EngineSpec::odds`).
    pub fn engine_odds(&self) -> Vec<Option<String>> {
        self.engines.iter().map(EngineSpec::odds).collect()
    }

    /// Reads and checks a config file. Every problem that would otherwise show up as a
    /// forfeit in the middle of a tournament (missing executable, bad rule, bad opening) is
    /// an error here.
    pub fn load(path: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let base = if base.as_os_str().is_empty() {
            Path::new(".")
        } else {
            base
        };
        let base = std::fs::canonicalize(base)
            .map_err(|e| format!("cannot resolve {}: {e}", base.display()))?;
        Config::from_toml(&text, &base)
            .map(|mut c| {
                c.path = path.to_path_buf();
                c
            })
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses config text with relative paths resolved against `base`.
    pub fn from_toml(text: &str, base: &Path) -> Result<Config, String> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        let t = raw.tournament;
        if !(5..=MAX_BOARD).contains(&t.board_size) {
            return Err(format!(
                "board_size {} is outside 5..={MAX_BOARD}",
                t.board_size
            ));
        }
        let rule = Rule::from_bits(t.rule)?;
        if t.games_per_pair == 0 {
            return Err("games_per_pair must be at least 1".into());
        }
        if t.concurrency == 0 {
            return Err("concurrency must be at least 1".into());
        }
        let cells = t.board_size * t.board_size;
        if t.draw_after_moves == Some(0) {
            return Err("draw_after_moves must be at least 1 (0 would draw every game before its first move)".into());
        }
        // Gomocup's renju league draws a game at 200 stones unless the config says otherwise.
        let default_draw = if rule.renju { RENJU_DRAW_AFTER } else { cells };
        let draw_after_moves = t.draw_after_moves.unwrap_or(default_draw).min(cells);
        let settings = Settings {
            board_size: t.board_size,
            rule_bits: t.rule,
            rule,
            timeout_turn_ms: t.timeout_turn_ms,
            timeout_match_ms: t.timeout_match_ms,
            max_memory: t.max_memory,
            memory_limit: t.memory_limit.unwrap_or(t.max_memory),
            seed: t.seed,
            games_per_pair: t.games_per_pair,
            draw_after_moves,
            tolerance_ms: t.tolerance_ms,
            concurrency: t.concurrency,
            gauntlet: t.gauntlet,
            lenient_replies: t.lenient_replies,
        };

        let mut openings = match &t.openings {
            Some(p) => opening::load(&base.join(p), t.board_size, rule)?,
            None => vec![Opening {
                line: 0,
                stones: Vec::new(),
            }],
        };
        if openings.is_empty() {
            return Err("the openings file holds no opening".into());
        }
        if let Some(o) = openings.iter().find(|o| o.stones.len() >= draw_after_moves) {
            return Err(format!(
                "draw_after_moves {draw_after_moves} leaves no move to play after the opening on line {} ({} stones)",
                o.line,
                o.stones.len()
            ));
        }
        if t.seed != 0 {
            opening::shuffle(&mut openings, t.seed);
        }
        if let Some(limit) = t.openings_limit {
            if limit == 0 {
                return Err("openings_limit must be at least 1".into());
            }
            openings.truncate(limit);
        }

        if raw.engine.len() < 2 {
            return Err("a tournament needs at least two [[engine]] entries".into());
        }
        let mut engines: Vec<EngineSpec> = Vec::new();
        for e in raw.engine {
            if engines.iter().any(|o| o.name == e.name) {
                return Err(format!("engine name {:?} is used twice", e.name));
            }
            if e.name.trim().is_empty() {
                return Err("an engine has an empty name".into());
            }
            engines.push(resolve_engine(e, base)?);
        }
        let sprt = raw
            .sprt
            .as_ref()
            .map(|s| crate::sprt::Spec::from_raw(s, engines.len()))
            .transpose()?;
        Ok(Config {
            path: PathBuf::new(),
            settings,
            engines,
            openings,
            sprt,
        })
    }
}

/// A command with a path separator is a file relative to the config; a bare name is looked
/// up on `PATH` now, as a shell would, so a missing engine is an error before any game.
fn resolve_engine(e: RawEngine, base: &Path) -> Result<EngineSpec, String> {
    let raw = Path::new(&e.command);
    let is_path = e.command.contains('/') || e.command.contains('\\');
    if e.command.trim().is_empty() {
        return Err(format!("engine {:?}: empty command", e.name));
    }
    let command = if is_path {
        let p = base.join(raw);
        if !p.is_file() {
            return Err(format!(
                "engine {:?}: {} does not exist (build it first, e.g. `cargo build --release --workspace`)",
                e.name,
                p.display()
            ));
        }
        if !crate::proc::is_executable(&p) {
            return Err(format!(
                "engine {:?}: {} is not executable",
                e.name,
                p.display()
            ));
        }
        // Canonical, so reports show `/repo/target/…`, not `/repo/tournaments/../target/…`.
        std::fs::canonicalize(&p).unwrap_or(p)
    } else {
        crate::proc::find_on_path(&e.command).ok_or_else(|| {
            format!(
                "engine {:?}: command {:?} is not an executable file in any PATH folder",
                e.name, e.command
            )
        })?
    };
    let workdir = match &e.workdir {
        Some(d) => base.join(d),
        // A bare name found on PATH runs in the config's folder, not in /usr/bin.
        None if !is_path => base.to_path_buf(),
        None => command
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| base.to_path_buf()),
    };
    if !workdir.is_dir() {
        return Err(format!(
            "engine {:?}: working directory {} does not exist",
            e.name,
            workdir.display()
        ));
    }
    let options = e
        .options
        .iter()
        .map(|(k, v)| engine_option(k, v).map_err(|why| format!("engine {:?}: {why}", e.name)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(EngineSpec {
        name: e.name,
        command,
        args: e.args,
        workdir,
        options,
        timeout_turn_ms: e.timeout_turn_ms,
        timeout_match_ms: e.timeout_match_ms,
    })
}

/// Keys the runner sends itself, from `[tournament]` or per move.
const MANAGED_KEYS: [&str; 6] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "rule",
    "game_type",
];

/// One `options` entry as the `INFO` it is sent as, checked by the protocol's own parser (so
/// `max_node = "many"` is refused here, not by the engine mid-tournament).
fn engine_option(key: &str, value: &toml::Value) -> Result<gomocup_protocol::Info, String> {
    use gomocup_protocol::{Command, Parser};
    let key_ok = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !key_ok {
        return Err(format!(
            "option {key:?}: keys are letters, digits, '_' and '-'"
        ));
    }
    if MANAGED_KEYS.contains(&key.to_ascii_lowercase().as_str()) {
        return Err(format!(
            "option {key:?} is sent by the runner itself (set it in [tournament])"
        ));
    }
    let text = match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => u8::from(*b).to_string(),
        _ => return Err(format!("option {key:?}: a number, string or boolean")),
    };
    if text.contains(['\n', '\r']) {
        return Err(format!("option {key:?}: the value spans lines"));
    }
    match Parser::new().feed(format!("INFO {key} {text}").as_bytes()) {
        Some(Ok(Command::Info(info))) => Ok(info),
        Some(Err(e)) => Err(format!("option {key:?} = {text:?}: {e}")),
        _ => Err(format!("option {key:?} = {text:?} is no INFO line")),
    }
}
