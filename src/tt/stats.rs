//! Table counters, printed in `MESSAGE` lines and tournament reports.

use gomocup_protocol::TtReport;

/// Counters, cumulative until `reset`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TtStats {
    /// Probes made.
    pub probes: u64,
    /// Probes that found their key.
    pub hits: u64,
    /// Probes that returned a cutoff score (usable hits).
    pub cutoffs: u64,
    /// Stores made.
    pub stores: u64,
    /// Stores that evicted another key.
    pub replacements: u64,
    /// Stores refused by the replacement policy (or dropped because there is no table).
    pub rejected: u64,
    /// Probes that met a stored entry with their hash word but a different check word:
    /// without the check word these would have returned another position's node.
    pub collisions: u64,
}

impl TtStats {
    /// Hits per probe, in percent.
    pub fn hit_rate(&self) -> f64 {
        if self.probes == 0 {
            0.0
        } else {
            100.0 * self.hits as f64 / self.probes as f64
        }
    }

    /// Zero every counter.
    pub fn reset(&mut self) {
        *self = TtStats::default();
    }

    /// The counters as the protocol crate's `MESSAGE tt …` record, which alone spells the
    /// line (`to_string()` gives the text after `MESSAGE `).
    pub fn report(&self) -> TtReport {
        TtReport {
            probes: self.probes,
            hits: self.hits,
            cutoffs: self.cutoffs,
            stores: self.stores,
            replaced: self.replacements,
            collisions: self.collisions,
            hit_rate: self.hit_rate(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_rate() {
        let mut s = TtStats {
            probes: 8,
            hits: 3,
            cutoffs: 2,
            stores: 5,
            replacements: 1,
            rejected: 0,
            collisions: 4,
        };
        assert_eq!(
            s.report().to_string(),
            "tt probes=8 hits=3 cutoffs=2 stores=5 replaced=1 collisions=4 hit_rate=37.5%"
        );
        s.reset();
        assert_eq!(s, TtStats::default());
        assert_eq!(s.hit_rate(), 0.0);
        assert!(s.report().to_string().ends_with("hit_rate=0.0%"));
    }
}
