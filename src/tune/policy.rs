//! The move ordering's pattern-code policy, fitted on Wuzi's own games (`wuzi-tune
//! policy`). In a quiet position every candidate cell gets a logit: its static ordering
//! score (`eval::OrderWeights::DEFAULT` without the policy) times a scale, plus a weight
//! for the pattern code of the side to move's four lines through the cell and one for the
//! opponent's code there. A softmax over the candidates is fitted to the move the
//! self-play search played (cross-entropy, minibatch Adam, an L2 pull of the code weights
//! toward zero), the scale alone first. The code weights divided by the scale are the
//! ordering's extra terms in its own units: `eval/sets/policy.rs`, which the engine
//! compiles into a table beside its combination table (`SearchParams` `order_policy`
//! weighs them).

use super::file::{doc_comment, numbers};
use super::game::Game;
use crate::board::Board;
use crate::eval::pattern::CODES;
use crate::eval::OrderWeights;
use crate::threat::{node_kind, NodeKind};
use crate::types::Pos;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// One candidate cell: its codes for the side to move and for the opponent, and its
/// static ordering score.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// Pattern code of the side to move's four lines through the cell.
    pub own: u16,
    /// Pattern code of the opponent's.
    pub opp: u16,
    /// The static ordering score without the policy.
    pub base: i32,
}

/// One quiet position: its candidates and which of them the search played.
#[derive(Clone, Debug)]
pub struct PolicyRow {
    /// Every candidate cell the side to move may play.
    pub candidates: Vec<Candidate>,
    /// Index of the played move in `candidates`.
    pub target: usize,
    /// Index of its game in the games file.
    pub game: usize,
}

/// The quiet positions of `games` (nothing to block, no five to make) whose move was
/// searched (the game records a score for it) and is a candidate cell. A game that does
/// not replay stops at its bad move.
pub fn policy_rows(games: &[Game]) -> Vec<PolicyRow> {
    let mut out = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let Ok(mut board) = Board::new(game.size, game.rule()) else {
            continue;
        };
        for (ply, &pos) in game.moves.iter().enumerate() {
            let searched = ply >= game.opening && matches!(game.scores.get(ply), Some(Some(_)));
            if searched && node_kind(&board) == NodeKind::Quiet {
                out.extend(row_of(&board, pos, index));
            }
            if board.check_move(pos).is_err() {
                break;
            }
            board.play(pos);
        }
    }
    out
}

/// The row of `board` whose played move is `played`, if that is a candidate.
fn row_of(board: &Board, played: Pos, game: usize) -> Option<PolicyRow> {
    let me = board.side_to_move();
    let base = OrderWeights {
        policy: 0,
        ..OrderWeights::DEFAULT
    };
    let mut candidates = Vec::new();
    let mut target = None;
    board.for_each_candidate(|m| {
        if board.is_forbidden_for(m, me) {
            return;
        }
        if m == played {
            target = Some(candidates.len());
        }
        let cell = board.cell(m);
        candidates.push(Candidate {
            own: cell.code(me.idx()) as u16,
            opp: cell.code(me.opp().idx()) as u16,
            base: base.score(board, m),
        });
    });
    target.map(|target| PolicyRow {
        candidates,
        target,
        game,
    })
}

/// A policy: the static score's scale and the code weights, in logits.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// Logit per hundred units of static ordering score.
    pub scale: f64,
    /// Logit per code of the side to move.
    pub own: Vec<f64>,
    /// Logit per code of the opponent.
    pub opp: Vec<f64>,
}

/// How well a policy predicts the played moves of some rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolicyLoss {
    /// Mean cross-entropy of the played move.
    pub loss: f64,
    /// Share of rows whose played move has the highest logit.
    pub top1: f64,
}

impl Policy {
    /// The static score alone, at `scale`.
    pub fn base(scale: f64) -> Policy {
        Policy {
            scale,
            own: vec![0.0; CODES],
            opp: vec![0.0; CODES],
        }
    }

    #[inline]
    fn logit(&self, c: &Candidate) -> f64 {
        c.base as f64 / 100.0 * self.scale + self.own[c.own as usize] + self.opp[c.opp as usize]
    }

    /// Its loss and top-1 rate over `rows`.
    pub fn measure(&self, rows: &[&PolicyRow]) -> PolicyLoss {
        let (mut loss, mut hits) = (0.0, 0usize);
        for row in rows {
            let logits: Vec<f64> = row.candidates.iter().map(|c| self.logit(c)).collect();
            let top = logits.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = logits.iter().map(|l| (l - top).exp()).sum();
            loss -= logits[row.target] - top - sum.ln();
            // Ties go to the first candidate, the lowest cell (candidates come in cell
            // order), as in the move picker.
            let best = (0..logits.len()).find(|&k| logits[k] == top);
            hits += usize::from(best == Some(row.target));
        }
        let n = rows.len().max(1) as f64;
        PolicyLoss {
            loss: loss / n,
            top1: hits as f64 / n,
        }
    }

    /// The code weights in the ordering score's units, rounded into `i16`.
    pub fn in_order_units(&self) -> [Vec<i16>; 2] {
        [&self.own, &self.opp].map(|w| {
            w.iter()
                .map(|v| (v * 100.0 / self.scale).round().clamp(-30_000.0, 30_000.0) as i16)
                .collect()
        })
    }
}

/// How to fit a policy.
#[derive(Clone, Debug)]
pub struct PolicyFit {
    /// Passes over the training rows with the code weights learning (the scale's own fit
    /// before them takes three).
    pub epochs: usize,
    /// Adam step, in logits.
    pub lr: f64,
    /// Rows per step.
    pub batch: usize,
    /// L2 pull of the code weights toward zero.
    pub l2: f64,
    /// Shuffle seed.
    pub seed: u64,
}

impl Default for PolicyFit {
    fn default() -> Self {
        PolicyFit {
            epochs: 20,
            lr: 0.02,
            batch: 256,
            l2: 1e-5,
            seed: 1,
        }
    }
}

/// What a fit did: the static score alone (its scale fitted) and the fitted policy, each
/// on the training and the held-out rows.
#[derive(Clone, Debug)]
pub struct PolicyReport {
    /// Training and held-out rows.
    pub rows: (usize, usize),
    /// The static score alone: training, held out.
    pub base: (PolicyLoss, PolicyLoss),
    /// The fitted policy: training, held out.
    pub fitted: (PolicyLoss, PolicyLoss),
}

/// Fit a policy to `rows`, holding out those of every `hold_every`-th game.
pub fn fit_rows(rows: &[PolicyRow], hold_every: usize, cfg: &PolicyFit) -> (Policy, PolicyReport) {
    let (train, held): (Vec<&PolicyRow>, Vec<&PolicyRow>) = rows
        .iter()
        .partition(|r| !super::dataset::held_out(r.game, hold_every));
    let scale_only = PolicyFit {
        epochs: 3,
        lr: 0.05,
        ..cfg.clone()
    };
    let base = descend(&train, Policy::base(1.0), &scale_only, false);
    let fitted = descend(&train, base.clone(), cfg, true);
    let report = PolicyReport {
        rows: (train.len(), held.len()),
        base: (base.measure(&train), base.measure(&held)),
        fitted: (fitted.measure(&train), fitted.measure(&held)),
    };
    (fitted, report)
}

/// Minibatch Adam on the softmax cross-entropy from `start`; the code weights learn only
/// when `codes` is set.
fn descend(rows: &[&PolicyRow], start: Policy, cfg: &PolicyFit, codes: bool) -> Policy {
    let mut p = start;
    let n = 1 + 2 * CODES;
    let (mut m1, mut m2, mut grad) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut t = 0;
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut exp = Vec::new();
    for _ in 0..cfg.epochs {
        order.shuffle(&mut rng);
        for chunk in order.chunks(cfg.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in chunk {
                let row = rows[i];
                exp.clear();
                exp.extend(row.candidates.iter().map(|c| p.logit(c)));
                let top = exp.iter().copied().fold(f64::MIN, f64::max);
                exp.iter_mut().for_each(|l| *l = (*l - top).exp());
                let sum: f64 = exp.iter().sum();
                for (k, c) in row.candidates.iter().enumerate() {
                    let g = exp[k] / sum - if k == row.target { 1.0 } else { 0.0 };
                    grad[0] += g * c.base as f64 / 100.0;
                    if codes {
                        grad[1 + c.own as usize] += g;
                        grad[1 + CODES + c.opp as usize] += g;
                    }
                }
            }
            t += 1;
            let inv = 1.0 / chunk.len() as f64;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            for (j, ((g, a), b)) in grad.iter().zip(&mut m1).zip(&mut m2).enumerate() {
                if j > 0 && !codes {
                    break;
                }
                let w = weight(&mut p, j);
                let g = g * inv + if j > 0 { cfg.l2 * *w } else { 0.0 };
                *a = b1 * *a + (1.0 - b1) * g;
                *b = b2 * *b + (1.0 - b2) * g * g;
                *w -= cfg.lr * (*a / c1) / ((*b / c2).sqrt() + eps);
            }
        }
    }
    p
}

/// Parameter `j` of the fit: the scale, then the own codes, then the opponent's.
fn weight(p: &mut Policy, j: usize) -> &mut f64 {
    match j {
        0 => &mut p.scale,
        j if j <= CODES => &mut p.own[j - 1],
        j => &mut p.opp[j - 1 - CODES],
    }
}

/// The whole run on `games`: rows, fit (one game in ten held out) and the data file,
/// checked to read back as written. Returns the file and its header lines (the command,
/// the data, the time, `date`, and both orderings' losses).
pub fn policy_file(
    games: &[Game],
    cfg: &PolicyFit,
    command: &str,
    date: &str,
) -> Result<(String, Vec<String>), String> {
    let start = std::time::Instant::now();
    let rows = policy_rows(games);
    let (policy, report) = fit_rows(&rows, 10, cfg);
    let said = |what: &str, (train, held): (PolicyLoss, PolicyLoss)| {
        format!(
            "{what}: training loss {:.4} (top-1 {:.1} %), held-out loss {:.4} (top-1 {:.1} %)",
            train.loss,
            100.0 * train.top1,
            held.loss,
            100.0 * held.top1
        )
    };
    let header = vec![
        "The move ordering's pattern-code policy (`tune::policy`), fitted on Wuzi's own games."
            .to_string(),
        String::new(),
        format!("Command: `{command}`"),
        format!(
            "Data: {} games, {} training and {} held-out quiet positions (one game in 10 held out); fit {:.1?}; {date}",
            games.len(),
            report.rows.0,
            report.rows.1,
            start.elapsed(),
        ),
        said("Static ordering alone (scale fitted)", report.base),
        said("With the code terms", report.fitted),
    ];
    let tables = policy.in_order_units();
    let text = render_policy(&tables, &header);
    if parse_policy(&text).as_ref() != Ok(&tables) {
        return Err("the policy file does not read back as written".into());
    }
    Ok((text, header))
}

/// Values per line in the data file.
const PER_LINE: usize = 20;
/// The two tables' names in the data file.
const TABLES: [&str; 2] = ["POLICY_OWN", "POLICY_OPP"];

/// The data file of the tables `[own, opp]` (ordering units): `header` lines open its doc
/// comment.
pub fn render_policy(tables: &[Vec<i16>; 2], header: &[String]) -> String {
    let mut out = doc_comment(header, "wuzi-tune policy");
    let docs = [
        "Per pattern code of the side to move's lines through a cell.",
        "Per pattern code of the opponent's lines through a cell.",
    ];
    for ((name, doc), table) in TABLES.iter().zip(docs).zip(tables) {
        out.push_str(&format!(
            "\n/// {doc}\n#[rustfmt::skip]\npub const {name}: [i16; {CODES}] = [\n"
        ));
        for chunk in table.chunks(PER_LINE) {
            let row: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
            out.push_str(&format!("    {},\n", row.join(", ")));
        }
        out.push_str("];\n");
    }
    out
}

/// The tables `[own, opp]` a data file holds.
pub fn parse_policy(text: &str) -> Result<[Vec<i16>; 2], String> {
    let table = |name: &str| -> Result<Vec<i16>, String> {
        let tag = format!("pub const {name}: [i16; {CODES}] = [");
        let values: Vec<i16> = numbers(text, name, &tag)?;
        if values.len() != CODES {
            return Err(format!("{name}: {} values, not {CODES}", values.len()));
        }
        Ok(values)
    };
    Ok([table(TABLES[0])?, table(TABLES[1])?])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::sets::policy::{POLICY_OPP, POLICY_OWN};

    #[test]
    fn the_compiled_policy_reads_back_from_its_file() {
        let text = include_str!("../eval/sets/policy.rs");
        let tables = parse_policy(text).expect("the policy file parses");
        assert_eq!(tables[0], POLICY_OWN.to_vec());
        assert_eq!(tables[1], POLICY_OPP.to_vec());
        // And a rendered file reads back to what was rendered.
        let header = ["a header".to_string(), String::new()];
        assert_eq!(parse_policy(&render_policy(&tables, &header)), Ok(tables));
        assert!(parse_policy("pub const POLICY_OWN: [i16; 1820] = [1, 2];").is_err());
    }

    #[test]
    fn the_played_move_is_a_candidate_of_its_row() {
        // Black and white alternate near the centre; every later move is searched.
        let moves: Vec<Pos> = [(7, 7), (8, 8), (7, 8), (8, 7), (6, 9), (9, 6)]
            .map(|(x, y)| Pos::new(x, y))
            .to_vec();
        let game = Game {
            size: 15,
            rule_bits: 0,
            opening: 2,
            result: 0,
            scores: vec![None, None, Some(5), Some(-3), Some(4), None],
            moves,
        };
        let rows = policy_rows(&[game]);
        // Plies 2, 3 and 4 are searched and quiet; ply 5's move was not searched.
        assert_eq!(rows.len(), 3);
        for row in &rows {
            assert!(row.target < row.candidates.len());
            assert!(row.candidates.len() > 10);
        }
    }
}
