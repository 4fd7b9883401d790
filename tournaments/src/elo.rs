//! Elo from a score fraction, with a 95 % interval.
//!
//! Model: the logistic Elo curve `E = 1 / (1 + 10^(-D/400))` inverted at the observed score
//! fraction `p`, so `D = -400·log10(1/p − 1)`. The interval is a Wilson-type score interval
//! for the trinomial (win, draw, loss) game score: it holds every true score q whose own
//! standard error puts p within z = 1.96 of it, `(p − q)² ≤ z²·v(q)/n`, where
//! `v(q) = q(1 − q) − d/4` is the variance of one game's score at mean q with the observed
//! draw ratio d (with no draws this is exactly Wilson's interval). Unlike `p ± z·σ/√n` it
//! never leaves (0, 1) for a score strictly between 0 % and 100 %, so its Elo ends are
//! finite; at 0 % or 100 % one end is the curve's infinity and only the other end is a bound.
//! The error bar printed is half the interval's width in Elo. Gomocup itself rates with BayesElo,
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

/// An Elo estimate. The Elo and one end of the interval are infinite only when the score is
/// 0 % or 100 %, where the logistic curve has no finite inverse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Elo difference against the opponents faced (positive = stronger).
    pub elo: f64,
    /// Half-width of the 95 % interval, in Elo (infinite when one end is).
    pub margin: f64,
    /// Lower end of the 95 % interval, in Elo.
    pub lower: f64,
    /// Upper end of the 95 % interval, in Elo.
    pub upper: f64,
}

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

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
    let (q_lo, q_hi) = score_interval(p, f64::from(t.draws) / n, n, Z95);
    // Exact ends where the score is: rounding must not turn 100 % into a huge finite bound.
    let q_hi = if t.wins == t.games() { 1.0 } else { q_hi };
    let q_lo = if t.losses == t.games() { 0.0 } else { q_lo };
    let (lower, upper) = (from_fraction(q_lo), from_fraction(q_hi));
    Some(Estimate {
        elo: from_fraction(p),
        margin: (upper - lower) / 2.0,
        lower,
        upper,
    })
}

/// The true scores q with `(p − q)² ≤ z²·(q(1 − q) − d/4)/n`: the roots of
/// `(1 + k)q² − (2p + k)q + p² + k·d/4 = 0` with `k = z²/n`. The discriminant,
/// `k·(4p(1 − p) − d + k(1 − d))`, is never negative for a real tally (its observed variance
/// `p(1 − p) − d/4` is not), so the ends always exist and lie in [0, 1].
pub fn score_interval(p: f64, d: f64, n: f64, z: f64) -> (f64, f64) {
    let k = z * z / n;
    let a = 1.0 + k;
    let b = 2.0 * p + k;
    let c = p * p + k * d / 4.0;
    let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
    let lo = ((b - root) / (2.0 * a)).clamp(0.0, 1.0);
    let hi = ((b + root) / (2.0 * a)).clamp(0.0, 1.0);
    (lo, hi)
}

/// `+123 ± 45`; at a 100 % (0 %) score, where the Elo is infinite, the interval's finite end
/// as a one-sided bound: `≥ +97` (`≤ -97`).
pub fn format(e: Option<Estimate>) -> String {
    let Some(e) = e else {
        return "n/a".to_string();
    };
    let whole = |v: f64| format!("{:+.0}", v.round() + 0.0);
    if e.elo == f64::INFINITY && e.lower.is_finite() {
        return format!("≥ {}", whole(e.lower));
    }
    if e.elo == f64::NEG_INFINITY && e.upper.is_finite() {
        return format!("≤ {}", whole(e.upper));
    }
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
