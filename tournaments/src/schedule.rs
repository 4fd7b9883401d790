//! Who plays whom, with which opening and colour. The order interleaves pairs within each
//! opening, so a tournament stopped early still has every pair at a similar game count; a
//! shard plays a fixed slice of it.

use serde::{Deserialize, Serialize};

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// 1-based game number; also names the PSQ file and identifies the game on resume.
    pub game: usize,
    /// Index of the engine with black (moves first from the opening's parity).
    pub black: usize,
    /// Index of the engine with white.
    pub white: usize,
    /// Index into the opening list.
    pub opening: usize,
}

/// Every pair (or, for a gauntlet, engine 0 against each other engine) plays each opening
/// `games_per_opening` times, swapping colours each time.
pub fn build(
    engines: usize,
    openings: usize,
    games_per_opening: u32,
    gauntlet: bool,
) -> Vec<Pairing> {
    let pairs: Vec<(usize, usize)> = if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect()
    };
    let mut out = Vec::new();
    for opening in 0..openings {
        for &(a, b) in &pairs {
            for rep in 0..games_per_opening {
                let (black, white) = if rep % 2 == 0 { (a, b) } else { (b, a) };
                out.push(Pairing {
                    game: out.len() + 1,
                    black,
                    white,
                    opening,
                });
            }
        }
    }
    out
}

/// Slice `index` of `count` of a schedule (`--shard K/N`; see `shard` for how slices are
/// played and merged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 0-based.
    pub index: usize,
    /// Number of shards, at least 1.
    pub count: usize,
}

impl Shard {
    /// Parses `K/N` with `0 <= K < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("--shard {text:?}: {why} (expected K/N with 0 <= K < N)");
        let (k, n) = text.split_once('/').ok_or_else(|| bad("no '/'"))?;
        let index: usize = k.trim().parse().map_err(|_| bad("K is not a number"))?;
        let count: usize = n.trim().parse().map_err(|_| bad("N is not a number"))?;
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index >= count {
            return Err(bad("K must be below N (shards count from 0)"));
        }
        Ok(Shard { index, count })
    }

    /// Whether game number `game` (1-based) is in this shard.
    pub fn contains(&self, game: usize) -> bool {
        game >= 1 && (game - 1) % self.count == self.index
    }

    /// The games of `schedule` in this shard, in schedule order.
    pub fn slice(&self, schedule: Vec<Pairing>) -> Vec<Pairing> {
        schedule
            .into_iter()
            .filter(|p| self.contains(p.game))
            .collect()
    }

    /// `2/4`, or `none` for a whole-schedule run.
    pub fn describe(shard: Option<Shard>) -> String {
        shard.map_or("none".to_string(), |s| format!("{}/{}", s.index, s.count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_plays_every_opening_with_both_colours() {
        let s = build(3, 2, 2, false);
        assert_eq!(s.len(), 3 * 2 * 2);
        for opening in 0..2 {
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                for (black, white) in [(a, b), (b, a)] {
                    let n = s
                        .iter()
                        .filter(|p| p.opening == opening && p.black == black && p.white == white)
                        .count();
                    assert_eq!(n, 1, "{black} vs {white} on {opening}");
                }
            }
        }
        let games: Vec<usize> = s.iter().map(|p| p.game).collect();
        assert_eq!(games, (1..=12).collect::<Vec<_>>());
    }

    #[test]
    fn gauntlet_only_involves_the_first_engine() {
        let s = build(4, 3, 2, true);
        assert_eq!(s.len(), 3 * 3 * 2);
        assert!(s.iter().all(|p| p.black == 0 || p.white == 0));
    }

    #[test]
    fn odd_games_per_opening_alternate_colours() {
        let s = build(2, 1, 3, false);
        let colours: Vec<(usize, usize)> = s.iter().map(|p| (p.black, p.white)).collect();
        assert_eq!(colours, [(0, 1), (1, 0), (0, 1)]);
    }
}
