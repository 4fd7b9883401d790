//! From games to a weight set: positions, the split by game, the scale, the fit, and the
//! losses before and after on training and held-out positions, all with the engine's own
//! integer evaluation (`features::eval_with`) of the sets as written.

use super::dataset::{held_out, samples, Sample};
use super::features::{eval_with, search_eval_with};
use super::fit::{best_scale, fit, mean_loss, Fit};
use super::game::Game;
use super::model::{from_set, to_set, Row};
use crate::eval::sets::EvalSet;

/// How the positions become a fit.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The fit's settings.
    pub fit: Fit,
    /// Weight of the search score's win chance in the target (0: the result alone).
    pub lambda: f64,
    /// One game in this many is held out (0: none).
    pub hold_every: usize,
    /// Fit the search's two-ply evaluation (the mean of a position's and its parent's
    /// shape material, plus its threat state) instead of the static one.
    pub two_ply: bool,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            fit: Fit::default(),
            lambda: 0.5,
            hold_every: 10,
            two_ply: false,
        }
    }
}

/// What a fit did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games read.
    pub games: usize,
    /// Training and held-out positions.
    pub positions: (usize, usize),
    /// Score units per logistic unit, fitted to the starting set on training results.
    pub scale: f64,
    /// The model's training loss before the first epoch and after each.
    pub epochs: Vec<f64>,
    /// Held-out loss against the fit's target, starting set then fitted set.
    pub held_target: (f64, f64),
    /// Held-out loss against game results alone, starting set then fitted set.
    pub held_result: (f64, f64),
    /// Training loss against the target, starting set then fitted set (both as written).
    pub train_target: (f64, f64),
}

impl Report {
    /// The report as lines (printed by `wuzi-tune` and put in the weight file's header).
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!(
                "games {}, positions {} training + {} held out (split by game), scale {:.1}",
                self.games, self.positions.0, self.positions.1, self.scale
            ),
            format!(
                "training loss (target): {:.5} -> {:.5}",
                self.train_target.0, self.train_target.1
            ),
            format!(
                "held-out loss (target): {:.5} -> {:.5}",
                self.held_target.0, self.held_target.1
            ),
            format!(
                "held-out loss (result only): {:.5} -> {:.5}",
                self.held_result.0, self.held_result.1
            ),
        ]
    }
}

/// The evaluation the fit is about: the static one, or the search's two-ply one.
fn evaluation(s: &Sample, set: &EvalSet, two_ply: bool) -> f64 {
    if two_ply {
        search_eval_with(&s.features, s.parent.as_ref(), set) as f64
    } else {
        eval_with(&s.features, set) as f64
    }
}

/// Fit a set to `games`, starting from (and pulled toward) `start`.
pub fn fit_games(games: &[Game], start: &EvalSet, plan: &Plan) -> (EvalSet, Report) {
    let all = samples(games, plan.two_ply);
    let (held, train): (Vec<&Sample>, Vec<&Sample>) =
        all.iter().partition(|s| held_out(s.game, plan.hold_every));
    let results = |v: &[&Sample]| v.iter().map(|s| s.result).collect::<Vec<f64>>();
    let two_ply = plan.two_ply;
    let set_loss = |set: &EvalSet, samples: &[&Sample], targets: &[f64], scale: f64| {
        mean_loss(
            samples.iter().map(|s| evaluation(s, set, two_ply)),
            targets,
            scale,
        )
    };
    let start_evals: Vec<f64> = train
        .iter()
        .map(|s| evaluation(s, start, two_ply))
        .collect();
    let scale = best_scale(&start_evals, &results(&train));
    let targets = |v: &[&Sample]| {
        v.iter()
            .map(|s| s.target(plan.lambda, scale))
            .collect::<Vec<f64>>()
    };
    let (train_y, held_y) = (targets(&train), targets(&held));
    let rows: Vec<Row> = train
        .iter()
        .map(|s| {
            if two_ply {
                Row::of_two_ply(&s.features, s.parent.as_ref())
            } else {
                Row::of(&s.features)
            }
        })
        .collect();
    let theta0 = from_set(start);
    let (theta, epochs) = fit(&plan.fit, &theta0, &rows, &train_y, scale);
    let fitted = to_set(&theta);
    let report = Report {
        games: games.len(),
        positions: (train.len(), held.len()),
        scale,
        epochs,
        held_target: (
            set_loss(start, &held, &held_y, scale),
            set_loss(&fitted, &held, &held_y, scale),
        ),
        held_result: (
            set_loss(start, &held, &results(&held), scale),
            set_loss(&fitted, &held, &results(&held), scale),
        ),
        train_target: (
            set_loss(start, &train, &train_y, scale),
            set_loss(&fitted, &train, &train_y, scale),
        ),
    };
    (fitted, report)
}
