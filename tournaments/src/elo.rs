//! Elo from a score fraction, with a 95 % interval.
//!
//! Model: the logistic Elo curve `E = 1 / (1 + 10^(-D/400))` inverted at the observed score
//! fraction `p`, so `D = -400·log10(1/p − 1)`. The uncertainty is a normal approximation of the
//! mean per-game score: `σ² = Σ(sᵢ − p)² / n` over the games' scores sᵢ ∈ {0, ½, 1}, standard
//! error `σ/√n`, and the interval `p ± 1.96·σ/√n` mapped through the same curve. The error bar
//! printed is half the width of that interval in Elo. Gomocup itself rates with BayesElo,
//! which also models draws and the first-move advantage; this one is a closed form that
//! needs no iterative solver, and playing every opening with both colours keeps the
//! first-move advantage out of the score.

/// Wins, draws and losses from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Score fraction, `None` before the first game.
    pub fn fraction(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }
}

/// An Elo estimate. Either value is infinite when the score (or an interval end) is 0 % or
/// 100 %, where the logistic curve has no finite inverse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Elo difference against the opponents faced (positive = stronger).
    pub elo: f64,
    /// Half-width of the 95 % interval, in Elo.
    pub margin: f64,
}

/// Elo difference for a score fraction `p` in [0, 1].
pub fn from_fraction(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The estimate for a tally (see the module docs), `None` without games.
pub fn estimate(t: Tally) -> Option<Estimate> {
    let p = t.fraction()?;
    let n = f64::from(t.games());
    let variance = (f64::from(t.wins) * (1.0 - p).powi(2)
        + f64::from(t.draws) * (0.5 - p).powi(2)
        + f64::from(t.losses) * p.powi(2))
        / n;
    let half = 1.96 * (variance / n).sqrt();
    let lo = from_fraction(p - half);
    let hi = from_fraction(p + half);
    Some(Estimate {
        elo: from_fraction(p),
        margin: (hi - lo) / 2.0,
    })
}

/// `+123 ± 45`, with `inf` where the curve has no finite value.
pub fn format(e: Option<Estimate>) -> String {
    let Some(e) = e else {
        return "n/a".to_string();
    };
    let elo = if e.elo.is_finite() {
        // Adding 0.0 turns -0.0 into 0.0, so an even score prints as +0, not -0.
        format!("{:+.0}", e.elo.round() + 0.0)
    } else if e.elo > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    };
    let margin = if e.margin.is_finite() {
        format!("{:.0}", e.margin)
    } else {
        "inf".to_string()
    };
    format!("{elo} ± {margin}")
}
