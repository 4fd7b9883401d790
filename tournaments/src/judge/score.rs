//! Search scores read from an engine's `MESSAGE` lines.
//!
//! Understood formats (the text after `MESSAGE `; fields split at blanks and `|`, the value
//! is the token after the first `eval` or `ev` keyword, any case):
//!
//! - Wuzi: `depth 7 | eval +35 | nodes 191k | nps … | time … | pv …` (one line per move).
//!   A number of magnitude 29000..=30000 is Wuzi's proven result: `30000 − n` = a five in
//!   `n` plies for the side to move, negative = against it.
//! - Rapfi (`message_mode = "normal"`): `Depth 34-21 | Eval +M25 | Time 6500ms | …` after
//!   each iteration and the closing `Speed 461K | Depth 34-21 | Eval +M25 | Node 3000K |
//!   Time 6500ms`; with `"ucilike"`: `depth 34-21 ev -M25 n … tm … pv …`, where lines of
//!   a `multipv` other than 1 are ignored. `+M25` / `-M25` = the side to move makes, or
//!   suffers, five in 25 plies; `+M*` / `-M*` (a database mate) have no distance.
//! - Any other engine whose lines put `eval N` or `ev N` (centi-stones, or the mate forms
//!   above) into its messages.
//!
//! The last line that holds a score wins: it is the deepest search the engine reported.

use std::fmt;

/// Magnitude from which a plain number is Wuzi's proven win or loss (`WIN_BOUND`).
const WUZI_WIN_BOUND: i64 = 29_000;
/// Wuzi's score of a five on the board (`WIN`); a five in `n` plies scores `WIN − n`.
const WUZI_WIN: i64 = 30_000;
/// Ordering key of a mate with no distance, and the base of mate keys.
const MATE_KEY: i64 = 1_000_000;

/// One engine's judgement of a position, from the point of view of a stated side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A heuristic score (centi-stones in Wuzi, the engine's own units otherwise).
    Cp(i64),
    /// A forced five: `win` for the side whose view this is, in `plies` (unknown: `None`).
    Mate {
        /// Whether that side makes the five (else the opponent does).
        win: bool,
        /// Plies until the five, if the engine said.
        plies: Option<u32>,
    },
}

impl Eval {
    /// The same judgement from the other side's point of view.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Cp(c) => Eval::Cp(-c),
            Eval::Mate { win, plies } => Eval::Mate { win: !win, plies },
        }
    }

    /// A number that orders evaluations: centi-stones as they are, a won mate above every
    /// score (sooner = higher), a lost one below every score.
    pub fn key(self) -> i64 {
        match self {
            Eval::Cp(c) => c,
            Eval::Mate { win, plies } => {
                let k = MATE_KEY - i64::from(plies.unwrap_or(0));
                if win {
                    k
                } else {
                    -k
                }
            }
        }
    }

    /// Whether this is a better result than `threshold` (strictly).
    pub fn above(self, threshold: i64) -> bool {
        self.key() > threshold
    }

    /// The centi-stone value, if this is not a mate.
    pub fn cp(self) -> Option<i64> {
        match self {
            Eval::Cp(c) => Some(c),
            Eval::Mate { .. } => None,
        }
    }

    /// Signed plies to the five (negative: suffered), if this is a mate with a distance.
    pub fn mate_plies(self) -> Option<i64> {
        match self {
            Eval::Cp(_) => None,
            Eval::Mate { win, plies } => plies.map(|p| if win { p as i64 } else { -(p as i64) }),
        }
    }

    /// Reads one value token: `-35`, `+120`, `+M25`, `-M25`, `M3`, `+M*`, or a Wuzi proven
    /// score (`29975`).
    pub fn parse_value(token: &str) -> Option<Eval> {
        let (negative, rest) = match token.as_bytes().first()? {
            b'-' => (true, &token[1..]),
            b'+' => (false, &token[1..]),
            _ => (false, token),
        };
        if let Some(distance) = rest.strip_prefix(['M', 'm']) {
            let plies = match distance {
                "*" => None,
                d => Some(d.parse::<u32>().ok()?),
            };
            return Some(Eval::Mate {
                win: !negative,
                plies,
            });
        }
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let magnitude: i64 = rest.parse().ok()?;
        if (WUZI_WIN_BOUND..=WUZI_WIN).contains(&magnitude) {
            return Some(Eval::Mate {
                win: !negative,
                plies: u32::try_from(WUZI_WIN - magnitude).ok(),
            });
        }
        Some(Eval::Cp(if negative { -magnitude } else { magnitude }))
    }

    /// The score in one message's text (without `MESSAGE `), if it reports one.
    pub fn from_message(text: &str) -> Option<Eval> {
        let tokens: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == '|')
            .filter(|t| !t.is_empty())
            .collect();
        // A second principal variation's score is not the engine's judgement.
        if let Some(i) = tokens
            .iter()
            .position(|t| t.eq_ignore_ascii_case("multipv"))
        {
            if tokens.get(i + 1) != Some(&"1") {
                return None;
            }
        }
        let i = tokens
            .iter()
            .position(|t| t.eq_ignore_ascii_case("eval") || t.eq_ignore_ascii_case("ev"))?;
        Eval::parse_value(tokens.get(i + 1)?)
    }
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(c) => write!(f, "{c:+}"),
            Eval::Mate { win, plies } => {
                let sign = if win { '+' } else { '-' };
                match plies {
                    Some(p) => write!(f, "{sign}M{p}"),
                    None => write!(f, "{sign}M*"),
                }
            }
        }
    }
}

/// The last score among `messages` (message texts in the order they came).
pub fn last_score<'a>(messages: impl IntoIterator<Item = &'a str>) -> Option<Eval> {
    messages.into_iter().filter_map(Eval::from_message).last()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(win: bool, plies: u32) -> Eval {
        Eval::Mate {
            win,
            plies: Some(plies),
        }
    }

    #[test]
    fn wuzi_lines() {
        let line = "depth 6 | eval +80 | nodes 191k | nps 699k | time 273ms | pv j10 k11";
        assert_eq!(Eval::from_message(line), Some(Eval::Cp(80)));
        let lost = "depth 4 | eval -29975 | nodes 12k | nps 1M | time 9ms | pv -";
        assert_eq!(Eval::from_message(lost), Some(mate(false, 25)));
        assert_eq!(Eval::parse_value("+29999"), Some(mate(true, 1)));
        assert_eq!(Eval::parse_value("30000"), Some(mate(true, 0)));
        assert_eq!(Eval::parse_value("-28999"), Some(Eval::Cp(-28999)));
        let tt = "tt probes=1 hits=0 cutoffs=0 stores=0 replaced=0 collisions=0 hit_rate=0.0%";
        assert_eq!(Eval::from_message(tt), None);
    }

    #[test]
    fn rapfi_lines() {
        let lines = [
            "Load config from /work/spar/rapfi-run/config.toml",
            "OptiTime 449s | MaxTime 599s",
            "Depth 22-16 | Eval 885 | Time 658ms | I16 G14 I14",
            "Depth 23-25 | Eval +M29 | Time 691ms | I16 E12 I14",
            "Speed 461K | Depth 34-21 | Eval -M25 | Node 3000K | Time 6500ms",
        ];
        assert_eq!(last_score(lines), Some(mate(false, 25)));
        assert_eq!(last_score(lines[..3].iter().copied()), Some(Eval::Cp(885)));
        assert_eq!(
            Eval::from_message("depth 12-20 ev -31 n 1500K n/ms 450 tm 3300 pv h8 i9"),
            Some(Eval::Cp(-31))
        );
        assert_eq!(Eval::from_message("depth 3-4 multipv 2 ev 50 n 1K"), None);
        assert_eq!(
            Eval::from_message("depth 3-4 multipv 1 ev +M3 n 1K"),
            Some(mate(true, 3))
        );
        assert_eq!(
            Eval::from_message("Depth 9-9 | Eval -M* | Time 1ms"),
            Some(Eval::Mate {
                win: false,
                plies: None
            })
        );
        assert_eq!(Eval::from_message("Depth 9-9 | Eval VAL_NONE"), None);
        assert_eq!(Eval::from_message("(2) 35 | 10-12 | h8"), None);
    }

    #[test]
    fn order_flip_and_text() {
        let lost = mate(false, 25);
        assert_eq!(lost.flip(), mate(true, 25));
        assert!(!lost.above(-300));
        assert!(mate(true, 3).above(-300));
        assert!(Eval::Cp(-299).above(-300));
        assert!(!Eval::Cp(-300).above(-300));
        assert!(mate(true, 3).key() > mate(true, 9).key());
        assert!(mate(false, 9).key() > mate(false, 3).key());
        assert_eq!(lost.to_string(), "-M25");
        assert_eq!(Eval::Cp(7).to_string(), "+7");
        assert_eq!(Eval::Cp(-7).flip().to_string(), "+7");
        assert_eq!(lost.mate_plies(), Some(-25));
        assert_eq!(Eval::parse_value("+M"), None);
        assert_eq!(Eval::parse_value("x"), None);
        assert_eq!(Eval::parse_value("-"), None);
    }
}
