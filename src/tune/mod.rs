//! Tuning on Wuzi's own games (`wuzi-tune`): self-play, position features, a
//! logistic-regression fit and the weight-set data file the engine compiles in, for the
//! evaluation; SPSA on game pairs for the search's numbers.
//!
//! - `selfplay`: games of Wuzi against itself through the `Engine` API, from a seed;
//! - `game`: one recorded game and the games file;
//! - `features`: what the fit sees of a position (both sides' line patterns, classes and
//!   threat state), and the engine's evaluation as a function of them;
//! - `dataset`: positions with results and search scores, split by game;
//! - `model`: the evaluation as a linear model, to and from a weight set;
//! - `fit`: logistic regression by minibatch Adam;
//! - `pipeline`: games → fitted set plus before/after losses;
//! - `relabel`: a games file's positions scored again by a deeper search (distillation);
//! - `hand`: the hand-set weights as a set (where the fit starts);
//! - `file`: the data file, written and read back;
//! - `spsa`: the search's numbers (`SearchParams`) tuned by SPSA on games between two
//!   perturbed searches.

pub mod dataset;
pub mod features;
pub mod file;
pub mod fit;
pub mod game;
pub mod hand;
pub mod model;
pub mod pipeline;
pub mod policy;
pub mod relabel;
pub mod selfplay;
pub mod spsa;
