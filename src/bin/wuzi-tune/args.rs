//! `wuzi-tune`'s command line: the subcommands and their options (clap).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use wuzi::eval::sets::SetName;
use wuzi::tune::fit::Fit;
use wuzi::tune::selfplay::{Balance, SelfPlay};

#[derive(Parser, Debug)]
#[command(
    name = "wuzi-tune",
    about = "Tune Wuzi's evaluation and search on its own self-play games"
)]
pub struct Cli {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Subcommand, Debug)]
pub enum Action {
    /// Self-play games into OUT/games.txt.
    Selfplay(PlayArgs),
    /// Fit a weight set to a games file.
    Fit {
        /// The games file.
        #[arg(long)]
        games_file: PathBuf,
        #[command(flatten)]
        fit: FitArgs,
    },
    /// Score a games file's positions again by a deeper search (the moves and results stay);
    /// `fit` on the new file then blends the results with those scores.
    Relabel(RelabelArgs),
    /// Self-play, then fit.
    All {
        #[command(flatten)]
        play: PlayArgs,
        #[command(flatten)]
        fit: FitArgs,
    },
    /// Tune the search's numbers by SPSA on game pairs between two perturbed searches;
    /// writes the tuned numbers (`name = value` lines, for `pbrain-wuzi --search-params`).
    Spsa(SpsaArgs),
    /// Play two searches' numbers against each other at a fixed node count (a quick screen
    /// before an SPRT of the real engine): each pair is one opening with both colours.
    Match(MatchArgs),
    /// Write balanced openings to a file, one per line in `pos` notation, for a
    /// tournament's or an SPRT's `openings` (the same openings `selfplay`, `match` and
    /// `spsa` draw from the same seed and options).
    Openings(OpeningArgs),
    /// Fit the move-ordering policy (pattern-code terms) to a games file's searched moves.
    Policy(PolicyArgs),
    /// Write the hand-set weights' data file.
    Hand {
        /// Where (e.g. src/eval/sets/hand.rs).
        #[arg(long)]
        write: PathBuf,
    },
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per searched move.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board sides, used in turn.
    #[arg(long, value_delimiter = ',', default_value = "15,20")]
    pub sizes: Vec<usize>,
    /// Rule bits (Gomocup INFO rule: 0 freestyle, 1 exactly five, 4 renju, 8 caro).
    #[arg(long, default_value_t = 0)]
    pub rule: u32,
    /// Worker threads (the games do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Output folder.
    #[arg(long, default_value = "tune-out")]
    pub out: PathBuf,
    /// Weight set the self-play engine evaluates with: `hand` (follows from the source
    /// alone) or `fitted` (the set compiled in, so the games follow from the commit: a
    /// new generation fitted on the last one's games).
    #[arg(long, value_name = "SET", default_value = "hand")]
    pub eval: SetName,
    /// Nodes of the search that judges a random opening even (0: play any opening, as
    /// generations 1 to 6 did).
    #[arg(long, default_value_t = 0)]
    pub balance_nodes: u64,
    #[command(flatten)]
    pub even: EvenOpenings,
    /// Plies after the opening that may be a random good move (a quarter of them are).
    #[arg(long, default_value_t = SelfPlay::default().random_plies)]
    pub random_plies: usize,
    #[command(flatten)]
    pub offset: Offset,
}

/// Where on the board the opening stones fall.
#[derive(Args, Debug)]
pub struct Offset {
    /// Largest distance, per direction, of the opening square's centre from the board's
    /// centre, drawn per opening (0: centred; 9 on 20x20 reaches every edge and corner, as
    /// Gomocup's openings do).
    #[arg(long, default_value_t = SelfPlay::default().offset)]
    pub offset: usize,
}

#[derive(Args, Debug)]
pub struct RelabelArgs {
    /// The games file to relabel.
    #[arg(long)]
    pub games_file: PathBuf,
    /// Nodes of each position's search.
    #[arg(long, default_value_t = 100_000)]
    pub nodes: u64,
    /// Relabel only the file's first this many games (default: all).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Worker threads (the scores do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Weight set the searching engine evaluates with (default: the set compiled in).
    #[arg(long, value_name = "SET", default_value = "fitted")]
    pub eval: SetName,
    /// Where to write the relabelled games file.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// Game pairs (SPSA steps); each plays one opening with both colours.
    #[arg(long, default_value_t = 2000)]
    pub pairs: usize,
    #[command(flatten)]
    pub games: PairGames,
    /// Step of a number per point of a pair's result, as a share of its perturbation.
    #[arg(long, default_value_t = 0.005)]
    pub rate: f64,
    /// Numbers to start from (`name = value` lines; the rest are the engine's).
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// The numbers to tune, by name (default: all of them but the switches, `lmp_cap`, `futility_tt` and `se_depth`).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Where to write the tuned numbers.
    #[arg(long, default_value = "tune-out/search-params.txt")]
    pub write: PathBuf,
}

#[derive(Args, Debug)]
pub struct OpeningArgs {
    /// Openings to draw (exact repeats are written once).
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board sides, used in turn (a tournament plays one size: give one).
    #[arg(long, value_delimiter = ',', default_value = "20")]
    pub sizes: Vec<usize>,
    /// Rule bits (Gomocup INFO rule: 0 freestyle, 1 exactly five, 4 renju, 8 caro).
    #[arg(long, default_value_t = 0)]
    pub rule: u32,
    /// Fewest random stones of an opening.
    #[arg(long, default_value_t = SelfPlay::default().opening.0)]
    pub min_stones: usize,
    /// Most random stones of an opening.
    #[arg(long, default_value_t = SelfPlay::default().opening.1)]
    pub max_stones: usize,
    /// Half-width of the square around the centre the stones fall in.
    #[arg(long, default_value_t = SelfPlay::default().spread)]
    pub spread: usize,
    #[command(flatten)]
    pub offset: Offset,
    /// Nodes of the search that judges an opening (0: keep any opening).
    #[arg(long, default_value_t = 20_000)]
    pub balance_nodes: u64,
    #[command(flatten)]
    pub even: EvenOpenings,
    /// Weight set the judging search evaluates with.
    #[arg(long, value_enum, default_value = "fitted")]
    pub eval: SetName,
    /// Worker threads (the openings do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The file to write.
    #[arg(long)]
    pub out: PathBuf,
}

impl OpeningArgs {
    /// The run whose openings these are.
    pub fn selfplay(&self) -> SelfPlay {
        SelfPlay {
            seed: self.seed,
            sizes: self.sizes.clone(),
            rule: wuzi::Rule::from_bits(self.rule),
            opening: (self.min_stones, self.max_stones),
            spread: self.spread,
            offset: self.offset.offset,
            threads: self.threads,
            balance: self.even.balance(self.balance_nodes),
            ..SelfPlay::default()
        }
    }
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first side's numbers (`name = value` lines; default: the engine's).
    #[arg(long)]
    pub a: Option<PathBuf>,
    /// The second side's numbers (default: the engine's).
    #[arg(long)]
    pub b: Option<PathBuf>,
    /// Game pairs; each plays one opening with both colours.
    #[arg(long, default_value_t = 200)]
    pub pairs: usize,
    #[command(flatten)]
    pub games: PairGames,
}

/// How an opening is judged even (`selfplay`, `spsa`, `match`); each command gives the
/// judging search's nodes, `--balance-nodes`, its own default.
#[derive(Args, Debug)]
pub struct EvenOpenings {
    /// Largest score of an even opening.
    #[arg(long, default_value_t = 60)]
    pub balance_bound: i32,
    /// Openings drawn at most per game (then the most even one is played).
    #[arg(long, default_value_t = 30)]
    pub balance_tries: usize,
}

impl EvenOpenings {
    /// The balance of self-play whose openings a search of `nodes` judges (0: none).
    pub fn balance(&self, nodes: u64) -> Option<Balance> {
        (nodes > 0).then_some(Balance {
            nodes,
            bound: self.balance_bound,
            tries: self.balance_tries,
        })
    }
}

/// Games between two searches (`spsa`, `match`). Random openings mostly favour one colour,
/// and a pair that each colour wins says nothing about the two searches, so by default
/// only openings a short search scores as even are played, with no random plies after.
#[derive(Args, Debug)]
pub struct PairGames {
    /// Nodes per searched move.
    #[arg(long, default_value_t = 50_000)]
    pub nodes: u64,
    /// Seed of the run (the openings, and `spsa`'s perturbations).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board sides, used in turn.
    #[arg(long, value_delimiter = ',', default_value = "20")]
    pub sizes: Vec<usize>,
    /// Worker threads (`match`'s games do not depend on it; `spsa` runs a batch of four
    /// steps a thread from the same numbers).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Nodes of the search that judges an opening (0: play any opening).
    #[arg(long, default_value_t = 20_000)]
    pub balance_nodes: u64,
    #[command(flatten)]
    pub even: EvenOpenings,
    /// Plies after the opening that may be a random good move (a quarter of them are).
    #[arg(long, default_value_t = 0)]
    pub random_plies: usize,
    #[command(flatten)]
    pub offset: Offset,
    /// Weight set both searches evaluate with (and the opening judge): by default the set
    /// compiled in, which the engine plays with.
    #[arg(long, value_name = "SET", default_value = "fitted")]
    pub eval: SetName,
}

impl PairGames {
    /// The self-play settings of these games.
    pub fn selfplay(&self) -> SelfPlay {
        SelfPlay {
            nodes: self.nodes,
            seed: self.seed,
            sizes: self.sizes.clone(),
            threads: self.threads,
            balance: self.even.balance(self.balance_nodes),
            random_plies: self.random_plies,
            offset: self.offset.offset,
            ..SelfPlay::default()
        }
    }
}

#[derive(Args, Debug)]
pub struct FitArgs {
    /// Passes over the training positions.
    #[arg(long, default_value_t = 40)]
    pub epochs: usize,
    /// Passes in each finishing stage, where the weights on large counts are rounded and
    /// frozen and the rest learn around them (0: plain rounding at the end).
    #[arg(long, default_value_t = Fit::default().finish)]
    pub finish: usize,
    /// Adam step, in score units.
    #[arg(long, default_value_t = 0.5)]
    pub lr: f64,
    /// L2 pull of the pattern-code shares toward zero, per squared score unit (0: the
    /// codes are free; a large value keeps them at zero, the plain line-and-class model).
    #[arg(long, default_value_t = Fit::default().l2_code)]
    pub l2_code: f64,
    /// Weight of the search score in the target (0: results only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Hold out one game in this many.
    #[arg(long, default_value_t = 10)]
    pub hold_every: usize,
    /// Fit the evaluation the search reads (the mean of a position's and its parent's
    /// shape material, plus its threat state) instead of the static evaluation.
    #[arg(long)]
    pub two_ply: bool,
    /// Weight set the fit starts from and is pulled toward: `hand` (follows from the
    /// source alone), or `fitted` (the set compiled in; its losses are then the "before"
    /// figures, so this also measures the committed set on new games).
    #[arg(long, value_name = "SET", default_value = "hand")]
    pub from: SetName,
    /// Also write the weight file here (e.g. src/eval/sets/fitted.rs).
    #[arg(long)]
    pub write: Option<PathBuf>,
    /// Output folder (OUT/fitted.rs), when not given by self-play.
    #[arg(long = "fit-out", default_value = "tune-out")]
    pub fit_out: PathBuf,
}

#[derive(Args, Debug)]
pub struct PolicyArgs {
    /// The games file (self-play's `games.txt`): its searched moves in quiet positions are
    /// what the policy learns to put first.
    #[arg(long)]
    pub games_file: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Adam step, in logits.
    #[arg(long, default_value_t = 0.02)]
    pub lr: f64,
    /// L2 pull of the code weights toward zero.
    #[arg(long, default_value_t = 1e-5)]
    pub l2: f64,
    /// Shuffle seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the data file as well as checking it (e.g. src/eval/sets/policy.rs).
    #[arg(long)]
    pub write: Option<PathBuf>,
}
