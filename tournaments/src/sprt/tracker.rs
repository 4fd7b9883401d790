//! [`Tracker`]: the test's running state, fed with finished games, and its progress line,
//! repeat-opening note and summary section.

use super::{design_effect, estimate, llr, Decision, Penta, Spec};
use crate::elo;
use crate::record::GameRecord;
use std::fmt::Write;

/// The test's state, fed with finished games in the order they were journalled.
#[derive(Clone, Debug)]
pub struct Tracker {
    pub(super) spec: Spec,
    pub(super) a: String,
    pub(super) b: String,
    /// A's points in each game of each unfinished pair, by pair index.
    pub(super) open: std::collections::BTreeMap<usize, [Option<f64>; 2]>,
    /// Finished pairs.
    pub penta: Penta,
    /// Games of A against B seen, including those finished after the decision.
    pub games: usize,
    /// The decision and the LLR when it was taken; later games do not change it.
    pub decision: Option<(Decision, f64)>,
    /// Openings the pairs take in turn.
    pub(super) openings: usize,
    /// A's points (0 to 2) in each finished pair, by opening index.
    pub(super) by_opening: std::collections::BTreeMap<usize, Vec<f64>>,
}

impl Tracker {
    /// A test of engine `a` against engine `b` (a config's first two engines) over
    /// `openings` openings that the pairs take in turn.
    pub fn new(spec: Spec, a: &str, b: &str, openings: usize) -> Tracker {
        Tracker {
            spec,
            a: a.to_string(),
            b: b.to_string(),
            open: Default::default(),
            penta: [0; 5],
            games: 0,
            decision: None,
            openings: openings.max(1),
            by_opening: Default::default(),
        }
    }

    /// Counts a finished game; returns the progress line when it completed a pair (before
    /// the decision; afterwards games are only counted).
    pub fn add(&mut self, r: &GameRecord) -> Option<String> {
        let side = r.side_of(&self.a)?;
        if r.side_of(&self.b).is_none() || r.game == 0 {
            return None;
        }
        self.games += 1;
        if self.decision.is_some() {
            return None;
        }
        let pair = (r.game - 1) / 2;
        let slot = self.open.entry(pair).or_insert([None, None]);
        slot[(r.game - 1) % 2] = Some(r.outcome.points(side));
        let [Some(x), Some(y)] = *slot else {
            return None;
        };
        self.open.remove(&pair);
        Some(self.add_pair(r.opening, x + y))
    }

    /// Counts a finished pair of `points` for A on `opening`, decides if it can, and
    /// returns the progress line.
    pub(super) fn add_pair(&mut self, opening: usize, points: f64) -> String {
        self.penta[(points * 2.0).round() as usize] += 1;
        self.by_opening.entry(opening).or_default().push(points);
        let llr = self.decision_llr();
        let (lower, upper) = self.spec.bounds();
        let pairs: u32 = self.penta.iter().sum();
        if llr >= upper {
            self.decision = Some((Decision::H1, llr));
        } else if llr <= lower {
            self.decision = Some((Decision::H0, llr));
        } else if 2 * pairs as usize >= self.spec.max_games {
            self.decision = Some((Decision::MaxGames, llr));
        }
        self.line()
    }

    /// The LLR over the finished pairs, as if every pair were independent.
    pub fn llr(&self) -> f64 {
        llr(&self.penta, &self.spec)
    }

    /// The measured correlation and design effect of the pairs by opening (`design_effect`):
    /// `None` while every opening has at most one pair, or all pairs share one opening.
    pub fn repeats(&self) -> Option<(f64, f64)> {
        let groups: Vec<&[f64]> = self.by_opening.values().map(Vec::as_slice).collect();
        design_effect(&groups)
    }

    /// What the test decides on: the LLR divided by the design effect when pairs repeat
    /// openings and the spec corrects for it (the evidence of N correlated pairs is that
    /// of N / design effect independent ones, and the LLR grows in proportion to it), the
    /// plain LLR otherwise. The effect is never below 1, so the correction only ever asks
    /// for more games.
    pub fn decision_llr(&self) -> f64 {
        self.llr() / self.applied_design_effect().unwrap_or(1.0)
    }

    /// The design effect the decision divides the LLR by: the measured one when pairs
    /// repeat openings and the spec corrects for it, `None` otherwise.
    fn applied_design_effect(&self) -> Option<f64> {
        self.repeats()
            .filter(|_| self.spec.correct_repeats)
            .map(|(_, deff)| deff)
    }

    /// `sprt  A vs B  games 24  penta [1 2 5 3 1]  Elo +12 ± 40  nElo +15 ± 49  LLR 0.52
    /// (-2.94, 2.94) [0, 5]`, and the decision once there is one.
    pub fn line(&self) -> String {
        let (lower, upper) = self.spec.bounds();
        let pairs: u32 = self.penta.iter().sum();
        let mut s = format!(
            "sprt {} vs {}  games {}  penta {:?}",
            self.a,
            self.b,
            2 * pairs,
            self.penta
        );
        if let Some((e, em, ne, nem)) = estimate(&self.penta) {
            let _ = write!(
                s,
                "  Elo {}  nElo {:+.1} ± {:.1}",
                elo::format(Some(elo::Estimate {
                    elo: e,
                    margin: em,
                    lower: e - em,
                    upper: e + em,
                })),
                // Rounded first, so a rounding error around 0 prints as +0.0, not -0.0.
                (ne * 10.0).round() / 10.0 + 0.0,
                nem
            );
        }
        let raw = self.llr();
        let deff = self.applied_design_effect();
        let llr = self
            .decision
            .map_or_else(|| raw / deff.unwrap_or(1.0), |(_, at_decision)| at_decision);
        let _ = write!(s, "  LLR {llr:.2}");
        if let Some(deff) = deff {
            let _ = write!(s, " (raw {raw:.2} / design effect {deff:.2})");
        }
        let _ = write!(
            s,
            " ({lower:.2}, {upper:.2}) [{}, {}] {:?}",
            self.spec.elo0, self.spec.elo1, self.spec.model
        );
        match self.decision {
            Some((Decision::H1, _)) => s.push_str("  H1 accepted"),
            Some((Decision::H0, _)) => s.push_str("  H0 accepted"),
            Some((Decision::MaxGames, _)) => s.push_str("  max_games reached, no decision"),
            None => {}
        }
        s
    }

    /// When the pairs repeat the openings, what that does to the test (a paragraph, then
    /// the measured correlation and design effect when there are enough pairs): the summary
    /// and the HTML report print it. Empty when every pair had an opening of its own.
    pub fn repeat_note(&self) -> Vec<String> {
        let pairs: u32 = self.penta.iter().sum();
        if pairs as usize <= self.openings {
            return Vec::new();
        }
        let mut note = vec![format!(
            "The {pairs} pairs repeat the {} opening{}. The pairs of one opening are not \
             independent (the same engines tend to repeat the same game), so the LLR and the \
             margins overstate the evidence; a larger openings file (`wuzi-tune openings`) \
             keeps every pair on an opening of its own.",
            self.openings,
            if self.openings == 1 { "" } else { "s" }
        )];
        match self.repeats() {
            Some((rho, deff)) => {
                note.push(format!(
                    "Here the pair scores correlate within an opening by ρ = {rho:.2} (one-way \
                     intraclass correlation, 0 when negative), a design effect of {deff:.2}: \
                     the evidence is about that of {:.0} independent pairs, LLR ≈ {:.2} rather \
                     than {:.2}, and the ± margins {:.2} times as wide.",
                    f64::from(pairs) / deff,
                    self.llr() / deff,
                    self.llr(),
                    deff.sqrt()
                ));
                note.push(if self.spec.correct_repeats {
                    "The test decides on the corrected LLR (`correct_repeats`, on by default)."
                        .to_string()
                } else {
                    "The test decides on the uncorrected LLR (`correct_repeats = false`)."
                        .to_string()
                });
            }
            None if self.by_opening.len() < 2 => note.push(
                "With a single opening the correlation cannot be measured, and the test \
                 decides on the uncorrected LLR."
                    .to_string(),
            ),
            None => {}
        }
        note
    }

    /// The summary section.
    pub fn markdown(&self) -> String {
        let mut s = String::from("\n## SPRT\n\n");
        let _ = writeln!(
            s,
            "A = `{}`, B = `{}`; H0: Elo ≤ {}, H1: Elo ≥ {} ({:?} model), α = {}, β = {}, \
             at most {} games; pentanomial counts are pairs by A's points 0, ½, 1, 1½, 2.\n",
            self.a,
            self.b,
            self.spec.elo0,
            self.spec.elo1,
            self.spec.model,
            self.spec.alpha,
            self.spec.beta,
            self.spec.max_games
        );
        let _ = writeln!(s, "`{}`", self.line());
        for paragraph in self.repeat_note() {
            let _ = writeln!(s, "\n{paragraph}");
        }
        if self.decision.is_none() {
            let _ = writeln!(s, "\nNo decision yet: `--resume` continues the test.");
        }
        s
    }
}
