//! The two `MESSAGE` lines Wuzi prints before every move, spelled here once for the engine
//! (formatting) and the tournament runner (parsing). See the crate docs for the formats.

use crate::error::ProtocolError;
use std::fmt;

/// Prefix of the machine-readable table line, after `MESSAGE `.
pub const TT_TAG: &str = "tt";

/// The transposition-table counters of `MESSAGE tt …`, cumulative since the last
/// `START`/`RESTART`. With the `serde` feature it is also the runner's stored record of a
/// game's table figures, so the field names are the JSON names too.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TtReport {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Probes that returned a cutoff score.
    pub cutoffs: u64,
    /// Stores made.
    pub stores: u64,
    /// Stores that evicted another key.
    pub replaced: u64,
    /// Probes whose hash word matched while the check word differed.
    pub collisions: u64,
    /// Hits per probe in percent, as printed (one decimal).
    pub hit_rate: f64,
}

impl TtReport {
    /// Parse a whole engine line `MESSAGE tt probes=… hit_rate=…%` (keyword in any case,
    /// trailing `\r`/`\n` allowed). Every key must be present exactly in this order; unknown
    /// trailing keys are refused so that a format change is noticed, not half-read.
    pub fn parse_line(line: &str) -> Result<TtReport, ProtocolError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let head = line.get(..8).unwrap_or("");
        if !head.eq_ignore_ascii_case("MESSAGE ") {
            return Err(ProtocolError::BadTtLine("not a MESSAGE line".into()));
        }
        TtReport::parse_body(&line[8..])
    }

    /// Parse the text after `MESSAGE ` (it starts with `tt `).
    pub fn parse_body(text: &str) -> Result<TtReport, ProtocolError> {
        let fail = |why: &str| ProtocolError::BadTtLine(why.to_string());
        let mut words = text.split_ascii_whitespace();
        if words.next() != Some(TT_TAG) {
            return Err(fail("missing 'tt' tag"));
        }
        let mut counts = [0u64; 6];
        for (slot, key) in counts.iter_mut().zip(KEYS) {
            let word = words.next().ok_or_else(|| fail(key))?;
            let value = word
                .strip_prefix(key)
                .and_then(|w| w.strip_prefix('='))
                .ok_or_else(|| fail(key))?;
            *slot = value.parse().map_err(|_| fail(key))?;
        }
        let rate = words
            .next()
            .and_then(|w| w.strip_prefix("hit_rate="))
            .and_then(|w| w.strip_suffix('%'))
            .and_then(|w| w.parse::<f64>().ok())
            .filter(|r| r.is_finite())
            .ok_or_else(|| fail("hit_rate"))?;
        if words.next().is_some() {
            return Err(fail("unexpected text after hit_rate"));
        }
        let [probes, hits, cutoffs, stores, replaced, collisions] = counts;
        Ok(TtReport {
            probes,
            hits,
            cutoffs,
            stores,
            replaced,
            collisions,
            hit_rate: rate,
        })
    }
}

const KEYS: [&str; 6] = [
    "probes",
    "hits",
    "cutoffs",
    "stores",
    "replaced",
    "collisions",
];

/// The text after `MESSAGE ` (`tt probes=… hit_rate=…%`).
impl fmt::Display for TtReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{TT_TAG} probes={} hits={} cutoffs={} stores={} replaced={} collisions={} hit_rate={:.1}%",
            self.probes,
            self.hits,
            self.cutoffs,
            self.stores,
            self.replaced,
            self.collisions,
            self.hit_rate
        )
    }
}

/// What one search did, for the human `MESSAGE depth … | pv …` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReport {
    /// Deepest completed iteration.
    pub depth: i32,
    /// Score for the side to move, in centi-stones.
    pub eval: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
    /// Principal variation in board notation (`j10`), first move first.
    pub pv: Vec<String>,
}

impl SearchReport {
    /// Nodes per second (0 when no time was measured).
    pub fn nps(&self) -> u64 {
        self.nodes
            .saturating_mul(1000)
            .checked_div(self.time_ms)
            .unwrap_or(0)
    }
}

/// Counts for humans: exact below 10 000, then `k`, then `M`.
fn short(n: u64) -> String {
    if n < 10_000 {
        n.to_string()
    } else if n < 10_000_000 {
        format!("{}k", n / 1000)
    } else {
        format!("{}M", n / 1_000_000)
    }
}

/// The text after `MESSAGE `: `depth 12 | eval +35 | nodes 191k | nps 699k | time 273ms |
/// pv j10 k11`. The PV is cut to 12 moves so the line stays short.
impl fmt::Display for SearchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {} | eval {:+} | nodes {} | nps {} | time {}ms | pv",
            self.depth,
            self.eval,
            short(self.nodes),
            short(self.nps()),
            self.time_ms
        )?;
        if self.pv.is_empty() {
            f.write_str(" -")?;
        }
        for m in self.pv.iter().take(12) {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_line_round_trips() {
        let r = TtReport {
            probes: 120,
            hits: 30,
            cutoffs: 7,
            stores: 99,
            replaced: 4,
            collisions: 0,
            hit_rate: 25.0,
        };
        let line = format!("MESSAGE {r}");
        assert_eq!(
            line,
            "MESSAGE tt probes=120 hits=30 cutoffs=7 stores=99 replaced=4 collisions=0 hit_rate=25.0%"
        );
        assert_eq!(TtReport::parse_line(&line), Ok(r));
    }

    #[test]
    fn tt_line_faults_are_named() {
        let bad =
            "MESSAGE tt probes=1 hits=x cutoffs=0 stores=0 replaced=0 collisions=0 hit_rate=1%";
        assert_eq!(
            TtReport::parse_line(bad),
            Err(ProtocolError::BadTtLine("hits".into()))
        );
        assert!(TtReport::parse_line("MESSAGE depth 3").is_err());
        assert!(TtReport::parse_line("tt probes=1").is_err());
    }

    #[test]
    fn search_line_reads_like_the_example() {
        let r = SearchReport {
            depth: 12,
            eval: 35,
            nodes: 191_000,
            time_ms: 273,
            pv: vec!["j10".into(), "k11".into()],
        };
        assert_eq!(
            r.to_string(),
            "depth 12 | eval +35 | nodes 191k | nps 699k | time 273ms | pv j10 k11"
        );
        let slow = SearchReport {
            eval: -7,
            ..SearchReport::default()
        };
        assert_eq!(
            slow.to_string(),
            "depth 0 | eval -7 | nodes 0 | nps 0 | time 0ms | pv -"
        );
    }
}
