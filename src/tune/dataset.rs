//! Positions for the fit: every position of every game after its opening (the side to
//! move's five-in-one positions left out), with its features and its parent's, the game's
//! result and the search score from the side to move's view, and the game it came from, so
//! that training and held-out positions are split by game, never by position.

use super::features::Features;
use super::game::Game;
use crate::board::Board;
use crate::types::{Score, WIN_BOUND};

/// One position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its features.
    pub features: Features,
    /// The features of the position before the last move (its side to move's view), which
    /// the search's two-ply evaluation reads too; `None` before the first move, or when
    /// the samples were taken without parents.
    pub parent: Option<Features>,
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
    /// Wuzi's search score for the side to move, if the move was searched.
    pub score: Option<Score>,
    /// Index of its game in the games file.
    pub game: usize,
}

impl Sample {
    /// What the fit aims at: the result, blended with the search score's win chance
    /// (`sigmoid(score / scale)`, proven scores as 1 or 0) by `lambda` where there is one.
    pub fn target(&self, lambda: f64, scale: f64) -> f64 {
        match self.score {
            Some(s) if lambda > 0.0 => {
                let p = if s >= WIN_BOUND {
                    1.0
                } else if s <= -WIN_BOUND {
                    0.0
                } else {
                    sigmoid(s as f64 / scale)
                };
                (1.0 - lambda) * self.result + lambda * p
            }
            _ => self.result,
        }
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The samples of `games` (a game that does not replay is skipped whole), each with its
/// parent's features when `parents` is set (the two-ply fit reads them; the static fit
/// needs neither their memory nor their scans).
pub fn samples(games: &[Game], parents: bool) -> Vec<Sample> {
    let mut out = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let Ok(mut board) = Board::new(game.size, game.rule()) else {
            continue;
        };
        let mut mine = Vec::new();
        let mut ok = true;
        // The features of the position before this one, when asked for.
        let mut parent: Option<Features> = None;
        for (ply, &pos) in game.moves.iter().enumerate() {
            let sampled = ply >= game.opening;
            let needed_as_parent = parents && ply + 1 >= game.opening;
            if sampled || needed_as_parent {
                let features = Features::of(&board);
                let next_parent = needed_as_parent.then(|| features.clone());
                if sampled && !features.own_five() {
                    let black = ply % 2 == 0;
                    let result = match (game.result, black) {
                        (0, _) => 0.5,
                        (1, true) | (-1, false) => 1.0,
                        _ => 0.0,
                    };
                    mine.push(Sample {
                        features,
                        parent: parent.take(),
                        result,
                        score: game.scores[ply],
                        game: index,
                    });
                }
                parent = next_parent;
            }
            if board.check_move(pos).is_err() {
                ok = false;
                break;
            }
            board.play(pos);
        }
        if ok {
            out.extend(mine);
        }
    }
    out
}

/// Whether game `index` is held out: one game in `every` (none if `every` is 0).
pub fn held_out(index: usize, every: usize) -> bool {
    every > 0 && index % every == every - 1
}
