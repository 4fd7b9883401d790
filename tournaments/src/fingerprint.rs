//! What decides a game, written at the head of `results.jsonl`, so results are never mixed
//! with or labelled as those of another configuration.
//!
//! The fingerprint is a flat, sorted map from setting to value: the game conditions (board,
//! rule, clocks, tolerance, memory, draw limit, reply mode), the seed, a hash of the openings
//! in their final order, a hash of the whole schedule (pairing mode, games per pair), and
//! each engine's name, command, arguments and working directory. `--resume` and `merge`
//! compare it key by key and name every setting that differs. How many games run at once
//! (`concurrency`) is left out on purpose: it changes how long a run takes, not its games.

use crate::config::Config;
use crate::schedule;
use crate::schedule::Shard;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Setting name → value (values are JSON text, so strings are quoted).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint(pub BTreeMap<String, String>);

/// The first line of `results.jsonl`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`Header::TAG`]: tells the header from a game line.
    pub journal: String,
    /// Layout version of the journal.
    pub version: u32,
    /// The slice of the schedule this journal plays (`None`: all of it).
    #[serde(default)]
    pub shard: Option<Shard>,
    /// The configuration that wrote it.
    pub fingerprint: Fingerprint,
    /// Written by `merge` (its games are copies, so a new merge may replace them), not by a
    /// run (whose journal is the only copy of its games).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub merged: bool,
}

impl Header {
    /// The `journal` value of every header.
    pub const TAG: &'static str = "wuzi-tournament";

    /// The header a run of `config` writes.
    pub fn new(fingerprint: Fingerprint, shard: Option<Shard>) -> Header {
        Header {
            journal: Header::TAG.to_string(),
            version: 1,
            shard,
            fingerprint,
            merged: false,
        }
    }

    /// Whether a line of `results.jsonl` is a header, and which.
    pub fn parse(line: &[u8]) -> Option<Header> {
        serde_json::from_slice::<Header>(line)
            .ok()
            .filter(|h| h.journal == Header::TAG)
    }

    /// Refuses to continue `self` (the journal's header) with a run described by `now`,
    /// naming each setting that differs.
    pub fn check_resume(&self, now: &Header) -> Result<(), String> {
        let mut diffs = self.fingerprint.differences(&now.fingerprint);
        if self.shard != now.shard {
            diffs.push(format!(
                "shard: {} in the results, {} now",
                Shard::describe(self.shard),
                Shard::describe(now.shard)
            ));
        }
        if diffs.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "results.jsonl does not match this config, so --resume would mislabel its games \
                 ({}); use another --out folder or start over with --overwrite",
                diffs.join("; ")
            ))
        }
    }
}

impl Fingerprint {
    /// The fingerprint of a run of `config` (`gauntlet`: the pairing actually used, which
    /// the command line can force).
    pub fn of(config: &Config, gauntlet: bool) -> Fingerprint {
        let s = &config.settings;
        let mut m = BTreeMap::new();
        let mut put = |k: &str, v: String| {
            m.insert(k.to_string(), v);
        };
        put("board_size", s.board_size.to_string());
        put("rule", s.rule_bits.to_string());
        put("timeout_turn_ms", s.timeout_turn_ms.to_string());
        put("timeout_match_ms", s.timeout_match_ms.to_string());
        put("tolerance_ms", s.tolerance_ms.to_string());
        put("max_memory", s.max_memory.to_string());
        put("memory_limit", s.memory_limit.to_string());
        put("draw_after_moves", s.draw_after_moves.to_string());
        put("games_per_pair", s.games_per_pair.to_string());
        put("lenient_replies", s.lenient_replies.to_string());
        put("seed", s.seed.to_string());
        put(
            "pairing",
            if gauntlet { "gauntlet" } else { "round robin" }.to_string(),
        );

        let mut h = Fnv::new();
        for o in &config.openings {
            h.usize(o.stones.len());
            for &(x, y) in &o.stones {
                h.usize(x);
                h.usize(y);
            }
        }
        put(
            "openings",
            format!("{} in this order, hash {:016x}", config.openings.len(), h.0),
        );

        match &config.sprt {
            // An SPRT decides when to stop from its bounds: a changed test is another run.
            // Its cap is not part of it: pair k plays opening k mod N whatever the cap, so a
            // test that reached `max_games` undecided may be resumed with a larger one.
            Some(sp) => {
                put(
                    "sprt",
                    format!(
                        "elo0 {} elo1 {} alpha {} beta {} model {:?}",
                        sp.elo0, sp.elo1, sp.alpha, sp.beta, sp.model
                    ),
                );
                put(
                    "schedule",
                    format!("sprt pairs over {} openings in turn", config.openings.len()),
                );
            }
            None => {
                put("sprt", "none".to_string());
                let games = schedule::build(
                    config.engines.len(),
                    config.openings.len(),
                    s.games_per_pair,
                    gauntlet,
                );
                let mut h = Fnv::new();
                for p in &games {
                    for v in [p.game, p.black, p.white, p.opening] {
                        h.usize(v);
                    }
                }
                put(
                    "schedule",
                    format!("{} games, hash {:016x}", games.len(), h.0),
                );
            }
        }

        put("engines", config.engines.len().to_string());
        for (i, e) in config.engines.iter().enumerate() {
            let k = |what: &str| format!("engine.{}.{what}", i + 1);
            put(&k("name"), json(&e.name));
            put(&k("command"), json(&e.command.display().to_string()));
            put(&k("args"), json(&e.args));
            put(&k("workdir"), json(&e.workdir.display().to_string()));
            let options: Vec<String> = e
                .options
                .iter()
                .map(|o| format!("{} {}", o.key(), o.value()))
                .collect();
            put(&k("options"), json(&options));
            // Only when set, so journals from before time odds keep their fingerprint.
            if let Some(ms) = e.timeout_turn_ms {
                put(&k("timeout_turn_ms"), ms.to_string());
            }
            if let Some(ms) = e.timeout_match_ms {
                put(&k("timeout_match_ms"), ms.to_string());
            }
        }
        Fingerprint(m)
    }

    /// One line per setting whose value differs (`self` = what the results say).
    pub fn differences(&self, now: &Fingerprint) -> Vec<String> {
        let mut keys: Vec<&String> = self.0.keys().chain(now.0.keys()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .filter_map(|k| {
                let (a, b) = (self.0.get(k), now.0.get(k));
                (a != b).then(|| {
                    let show =
                        |v: Option<&String>| v.map_or("(absent)", |s| s.as_str()).to_string();
                    format!("{k}: {} in the results, {} now", show(a), show(b))
                })
            })
            .collect()
    }

    /// Engine names in config order.
    pub fn engine_names(&self) -> Vec<String> {
        let n: usize = self.get_parsed("engines").unwrap_or(0);
        (1..=n)
            .map(|i| {
                self.0
                    .get(&format!("engine.{i}.name"))
                    .and_then(|v| serde_json::from_str::<String>(v).ok())
                    .unwrap_or_else(|| format!("engine {i}"))
            })
            .collect()
    }

    /// Each engine's time odds in config order, as `EngineSpec::odds` prints them (`None`
    /// for an engine under the tournament's limits).
    pub fn engine_odds(&self) -> Vec<Option<String>> {
        let n: usize = self.get_parsed("engines").unwrap_or(0);
        (1..=n)
            .map(|i| {
                let k = |what: &str| format!("engine.{i}.{what}");
                crate::config::odds_text(
                    self.get_parsed(&k("timeout_turn_ms")),
                    self.get_parsed(&k("timeout_match_ms")),
                )
            })
            .collect()
    }

    /// Whether the games were refereed under renju (their summary counts fouls).
    pub fn renju(&self) -> bool {
        self.get_parsed::<u32>("rule")
            .and_then(|bits| crate::board::Rule::from_bits(bits).ok())
            .is_some_and(|r| r.renju)
    }

    /// Games in the whole schedule.
    pub fn total_games(&self) -> Option<usize> {
        self.0
            .get("schedule")?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    }

    /// A recorded setting, parsed (`None` if absent or unreadable).
    pub fn get_parsed<T: std::str::FromStr>(&self, key: &str) -> Option<T> {
        self.0.get(key)?.parse().ok()
    }
}

fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// FNV-1a, 64 bits: stable across platforms and releases, unlike std's hasher.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn usize(&mut self, v: usize) {
        for b in (v as u64).to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str) -> Config {
        let turn = if extra.contains("timeout_turn_ms") {
            ""
        } else {
            "timeout_turn_ms = 100"
        };
        let text = format!(
            "[tournament]\n{turn}\n{extra}\n[[engine]]\nname = \"a\"\ncommand = \"sh\"\n[[engine]]\nname = \"b\"\ncommand = \"sh\"\n"
        );
        Config::from_toml(&text, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn every_game_deciding_setting_changes_it() {
        let base = Fingerprint::of(&config(""), false);
        assert_eq!(base, Fingerprint::of(&config(""), false));
        // Concurrency decides no game.
        assert_eq!(base, Fingerprint::of(&config("concurrency = 2"), false));
        for (extra, key) in [
            ("rule = 1", "rule"),
            ("board_size = 15", "board_size"),
            ("timeout_turn_ms = 5000", "timeout_turn_ms"),
            ("timeout_match_ms = 9000", "timeout_match_ms"),
            ("tolerance_ms = 5", "tolerance_ms"),
            ("max_memory = 1000", "max_memory"),
            ("draw_after_moves = 50", "draw_after_moves"),
            ("games_per_pair = 4", "games_per_pair"),
            ("lenient_replies = true", "lenient_replies"),
            ("seed = 8", "seed"),
        ] {
            let diffs = base.differences(&Fingerprint::of(&config(extra), false));
            assert!(
                diffs.iter().any(|d| d.starts_with(&format!("{key}: "))),
                "{extra}: {diffs:?}"
            );
        }
        let diffs = base.differences(&Fingerprint::of(&config(""), true));
        assert!(
            diffs.iter().any(|d| d.starts_with("pairing: ")),
            "{diffs:?}"
        );
        assert_eq!(base.engine_names(), ["a", "b"]);
        assert_eq!(base.total_games(), Some(2));
    }

    /// A merge reads each engine's time odds back from the journal's fingerprint: the same
    /// texts, in the same places, as the config gives the run itself.
    #[test]
    fn time_odds_read_back_as_the_config_gives_them() {
        let text =
            "[tournament]\ntimeout_turn_ms = 500\n[[engine]]\nname = \"a\"\ncommand = \"sh\"\n\
                    [[engine]]\nname = \"b\"\ncommand = \"sh\"\ntimeout_turn_ms = 1000\n\
                    timeout_match_ms = 6000\n[[engine]]\nname = \"c\"\ncommand = \"sh\"\n";
        let config =
            Config::from_toml(text, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e}"));
        let want = vec![
            None,
            Some("1000 ms per move, game clock 6000 ms".to_string()),
            None,
        ];
        assert_eq!(config.engine_odds(), want);
        let fp = Fingerprint::of(&config, false);
        assert_eq!(fp.engine_odds(), want);
        assert_eq!(
            crate::config::named_odds(&fp.engine_names(), &fp.engine_odds()),
            ["b: 1000 ms per move, game clock 6000 ms"]
        );
        // Without odds, every entry is `None`.
        assert_eq!(
            Fingerprint::of(&self::config(""), false).engine_odds(),
            [None, None]
        );
    }

    #[test]
    fn header_round_trips_and_is_told_from_a_game() {
        let h = Header::new(
            Fingerprint::of(&config(""), false),
            Some(Shard { index: 1, count: 4 }),
        );
        let line = serde_json::to_vec(&h).unwrap_or_default();
        assert_eq!(Header::parse(&line), Some(h));
        assert_eq!(Header::parse(b"{\"game\": 1}"), None);
    }
}
