//! A rating list: every engine's Elo fitted to all the games at once, as BayesElo (which
//! Gomocup publishes) and Ordo rate a round robin.
//!
//! The standings rate each engine against the field it met, which ranks a round robin but
//! does not put the engines on one scale: beating weak opponents and beating strong ones
//! look alike there. Here the model is Bradley–Terry on the logistic Elo curve: engine i
//! scores `1 / (1 + 10^((r_j − r_i)/400))` against j, a draw counting as half a win each
//! way, and the ratings are the maximum-likelihood ones for all the games together (Hunter's
//! minorization–maximization iteration), shifted so that their mean is 0.
//!
//! A prior of `PRIOR_DRAWS` virtual draws on every pairing that played keeps an engine that
//! won (or lost) every game at a finite rating, as BayesElo's virtual draws do; it pulls
//! every rating a little towards the mean and matters less as games accumulate.
//!
//! The ± is the 95 % interval of each rating against the pool's mean, from the likelihood's
//! curvature (the Fisher information, whose pseudo-inverse is the covariance of ratings that
//! sum to zero). It counts a draw as half a win and half a loss, which overstates a drawn
//! game's variance, so with many draws the interval is on the wide side.

use crate::elo::{Tally, Z95};

/// Virtual draws added to each pairing that played at least one game.
pub const PRIOR_DRAWS: f64 = 1.0;

/// One engine's place on the list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo against the mean of the engines rated.
    pub elo: f64,
    /// Half-width of its 95 % interval, in Elo.
    pub margin: f64,
}

/// Why no list could be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoList {
    /// Fewer than two engines have played.
    TooFewGames,
    /// The engines that played fall into groups that never met, so no common scale exists.
    NotConnected,
}

/// Natural-log rating units per Elo point.
const PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// The ratings of the engines whose results against each other are `pair[i][j]` (engine
/// i's results against j), config order; `None` for an engine that played no game.
pub fn fit(pair: &[Vec<Tally>]) -> Result<Vec<Option<Rating>>, NoList> {
    let n = pair.len();
    let played: Vec<usize> = (0..n)
        .filter(|&i| pair[i].iter().any(|t| t.games() > 0))
        .collect();
    let m = played.len();
    if m < 2 {
        return Err(NoList::TooFewGames);
    }
    // Games and points between the rated engines, the prior included.
    let mut games = vec![vec![0.0f64; m]; m];
    let mut points = vec![0.0f64; m];
    for (a, &i) in played.iter().enumerate() {
        for (b, &j) in played.iter().enumerate() {
            let t = pair[i][j];
            if a != b && t.games() > 0 {
                games[a][b] = f64::from(t.games()) + PRIOR_DRAWS;
                points[a] += t.points() + PRIOR_DRAWS / 2.0;
            }
        }
    }
    if !connected(&games) {
        return Err(NoList::NotConnected);
    }
    let gamma = maximum_likelihood(&games, &points);
    let logs: Vec<f64> = gamma.iter().map(|g| g.ln()).collect();
    let mean = logs.iter().sum::<f64>() / m as f64;
    let variance = rating_variances(&games, &logs);
    let mut out = vec![None; n];
    for (a, &i) in played.iter().enumerate() {
        out[i] = Some(Rating {
            elo: (logs[a] - mean) / PER_ELO,
            margin: Z95 * variance[a].max(0.0).sqrt() / PER_ELO,
        });
    }
    Ok(out)
}

/// Whether every engine is linked to every other by games.
fn connected(games: &[Vec<f64>]) -> bool {
    let m = games.len();
    let mut seen = vec![false; m];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(a) = stack.pop() {
        for b in 0..m {
            if games[a][b] > 0.0 && !seen[b] {
                seen[b] = true;
                stack.push(b);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

/// Bradley–Terry strengths γ (geometric mean 1) by Hunter's MM iteration:
/// γ_a ← points_a / Σ_b games_ab / (γ_a + γ_b). With the prior every engine has points and
/// losses, and the graph is connected, so the maximum exists and the iteration reaches it.
fn maximum_likelihood(games: &[Vec<f64>], points: &[f64]) -> Vec<f64> {
    let m = games.len();
    let mut gamma = vec![1.0f64; m];
    for _ in 0..100_000 {
        let next: Vec<f64> = (0..m)
            .map(|a| {
                let denom: f64 = (0..m)
                    .filter(|&b| games[a][b] > 0.0)
                    .map(|b| games[a][b] / (gamma[a] + gamma[b]))
                    .sum();
                points[a] / denom
            })
            .collect();
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / m as f64;
        let scale = (-log_mean).exp();
        let next: Vec<f64> = next.iter().map(|g| g * scale).collect();
        let moved = next
            .iter()
            .zip(&gamma)
            .map(|(x, y)| (x.ln() - y.ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if moved < 1e-12 {
            break;
        }
    }
    gamma
}

/// The variance of each log-strength about the mean of all of them: the diagonal of the
/// Fisher information's pseudo-inverse. The information of a pairing with `g` games at
/// expected score p is g·p·(1 − p); the matrix is a weighted graph Laplacian, whose
/// pseudo-inverse is (L + J/m)⁻¹ − J/m for a connected graph (J all ones).
fn rating_variances(games: &[Vec<f64>], logs: &[f64]) -> Vec<f64> {
    let m = games.len();
    let inv_m = 1.0 / m as f64;
    let mut l = vec![vec![inv_m; m]; m];
    for a in 0..m {
        for b in 0..m {
            if a != b && games[a][b] > 0.0 {
                let p = 1.0 / (1.0 + (logs[b] - logs[a]).exp());
                let info = games[a][b] * p * (1.0 - p);
                l[a][b] -= info;
                l[a][a] += info;
            }
        }
    }
    invert(l)
        .map(|inv| (0..m).map(|a| inv[a][a] - inv_m).collect())
        .unwrap_or_else(|| vec![f64::INFINITY; m])
}

/// The inverse of a square matrix by Gauss–Jordan elimination with partial pivoting;
/// `None` if it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..m {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for row in 0..m {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..m {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairwise tallies from (winner, loser, count) and (a, b, draws) lists.
    fn table(
        n: usize,
        wins: &[(usize, usize, u32)],
        draws: &[(usize, usize, u32)],
    ) -> Vec<Vec<Tally>> {
        let mut t = vec![vec![Tally::default(); n]; n];
        for &(w, l, k) in wins {
            t[w][l].wins += k;
            t[l][w].losses += k;
        }
        for &(a, b, k) in draws {
            t[a][b].draws += k;
            t[b][a].draws += k;
        }
        t
    }

    fn elo(r: &[Option<Rating>], i: usize) -> f64 {
        r[i].map_or(f64::NAN, |r| r.elo)
    }

    #[test]
    fn two_engines_sit_either_side_of_the_mean_at_their_scores_elo() {
        // 30 – 10 plus the prior's draw: 30.5 of 41, whose logistic Elo is the gap.
        let r = fit(&table(2, &[(0, 1, 30), (1, 0, 10)], &[])).unwrap_or_default();
        let gap = -400.0 * (41.0 / 30.5 - 1.0f64).log10();
        assert!((elo(&r, 0) - elo(&r, 1) - gap).abs() < 1e-6, "{r:?}");
        assert!((elo(&r, 0) + elo(&r, 1)).abs() < 1e-9, "{r:?}");
        // The interval is that of a 40-game match: about ±110 Elo for the gap, half of it
        // for each rating against the mean.
        let margin = r[0].map_or(0.0, |r| r.margin);
        assert!(margin > 40.0 && margin < 80.0, "{r:?}");
    }

    #[test]
    fn a_consistent_round_robin_orders_and_spaces_the_engines() {
        // A beats B and B beats C by the same margin; A beats C by more.
        let wins = [
            (0, 1, 30),
            (1, 0, 10),
            (1, 2, 30),
            (2, 1, 10),
            (0, 2, 36),
            (2, 0, 4),
        ];
        let t = table(3, &wins, &[]);
        let r = fit(&t).unwrap_or_default();
        let (a, b, c) = (elo(&r, 0), elo(&r, 1), elo(&r, 2));
        assert!(a > b && b > c, "{r:?}");
        // The maximum-likelihood condition: each engine's expected points, on its real
        // games and the prior's, equal its points.
        for (i, row) in t.iter().enumerate() {
            let (mut expected, mut actual) = (0.0, 0.0);
            for (j, tally) in row.iter().enumerate().filter(|&(j, _)| j != i) {
                let games = f64::from(tally.games()) + PRIOR_DRAWS;
                expected += games / (1.0 + 10f64.powf((elo(&r, j) - elo(&r, i)) / 400.0));
                actual += tally.points() + PRIOR_DRAWS / 2.0;
            }
            assert!(
                (expected - actual).abs() < 1e-6,
                "{i}: {expected} vs {actual}"
            );
        }
        assert!(((a - b) - (b - c)).abs() < 1.0, "{r:?}");
        assert!((a + b + c).abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn the_opponents_strength_counts_where_the_score_alone_does_not() {
        // B and C both score 50 %, B against the strong A and C against the weak D (A beat
        // D 40 – 0): the standings put them level, the list puts B far above C.
        let r = fit(&table(
            4,
            &[(0, 1, 30), (1, 0, 30), (2, 3, 30), (3, 2, 30), (0, 3, 40)],
            &[],
        ))
        .unwrap_or_default();
        assert!(elo(&r, 1) > elo(&r, 2) + 300.0, "{r:?}");
        assert!((elo(&r, 0) - elo(&r, 1)).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_more_games_narrow_the_interval() {
        let r = fit(&table(2, &[(0, 1, 20)], &[])).unwrap_or_default();
        assert!(elo(&r, 0).is_finite() && elo(&r, 0) > 200.0, "{r:?}");
        let drawn = fit(&table(2, &[], &[(0, 1, 20)])).unwrap_or_default();
        assert!(elo(&drawn, 0).abs() < 1e-9, "{drawn:?}");
        // More games, a narrower interval.
        let more = fit(&table(2, &[(0, 1, 60), (1, 0, 60)], &[])).unwrap_or_default();
        let fewer = fit(&table(2, &[(0, 1, 6), (1, 0, 6)], &[])).unwrap_or_default();
        let width = |r: &[Option<Rating>]| r[0].map_or(0.0, |r| r.margin);
        assert!(width(&more) < width(&fewer) / 2.5, "{more:?} {fewer:?}");
    }

    #[test]
    fn engines_without_games_and_separate_groups_are_told_apart() {
        let r = fit(&table(3, &[(0, 1, 3)], &[])).unwrap_or_default();
        assert!(r[0].is_some() && r[1].is_some() && r[2].is_none(), "{r:?}");
        assert_eq!(fit(&table(3, &[], &[])), Err(NoList::TooFewGames));
        assert_eq!(
            fit(&table(4, &[(0, 1, 3), (2, 3, 3)], &[])),
            Err(NoList::NotConnected)
        );
    }
}
