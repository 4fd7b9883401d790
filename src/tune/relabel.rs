//! Relabelling: the positions of recorded games scored again by a deeper search, so that
//! the fit's target can blend the results with better scores than the ones the games were
//! played at (distillation: the evaluation learns what a deeper search of Wuzi's own says).
//!
//! Each game is replayed by one engine with its own table, which searches every position
//! after the opening (random plies' positions too) at a fixed node count and then plays the
//! recorded move, as self-play would. The moves, the opening and the result stay as they
//! were; only the scores change. A game follows from its moves and the node count alone,
//! so a relabelled file is the same on any machine and any number of threads.

use super::game::Game;
use super::selfplay::{engine, recorded_score, search_nodes};
use super::spsa::in_parallel;
use crate::search::SearchParams;

/// `game` with every position after its opening scored by a search of `nodes`; a position
/// whose search proves nothing (the root's threat search spent the budget, depth 0) gets no
/// score. A game the engine cannot replay keeps no scores from the first move it refuses.
pub fn relabel_game(game: &Game, nodes: u64) -> Game {
    let mut out = game.clone();
    out.scores = vec![None; game.moves.len()];
    let mut engine = engine(SearchParams::DEFAULT);
    if engine.new_game(game.size, game.rule()).is_err() {
        return out;
    }
    for (ply, &pos) in game.moves.iter().enumerate() {
        if ply >= game.opening {
            out.scores[ply] = recorded_score(&search_nodes(&mut engine, nodes));
        }
        if engine.play(pos).is_err() {
            out.scores[ply] = None;
            break;
        }
    }
    out
}

/// Every game of `games` relabelled at `nodes` on `threads` threads, in the file's order;
/// `progress` hears of each finished game (its index). A game whose worker panicked is
/// missing from the result.
pub fn relabel_all(
    games: &[Game],
    nodes: u64,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Game> {
    let indices: Vec<usize> = (0..games.len()).collect();
    in_parallel(&indices, threads, |i| {
        let g = relabel_game(&games[i], nodes);
        progress(i);
        g
    })
    .into_iter()
    .map(|(_, g)| g)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::selfplay::{play_game, SelfPlay};

    fn games() -> Vec<Game> {
        let cfg = SelfPlay {
            games: 2,
            nodes: 600,
            seed: 9,
            ..SelfPlay::default()
        };
        (0..cfg.games).map(|i| play_game(&cfg, i)).collect()
    }

    #[test]
    fn relabelling_keeps_the_game_and_scores_its_positions() {
        for game in games() {
            let deep = relabel_game(&game, 3000);
            assert_eq!(
                (deep.size, deep.rule_bits, deep.opening, deep.result),
                (game.size, game.rule_bits, game.opening, game.result)
            );
            assert_eq!(deep.moves, game.moves);
            assert_eq!(deep.scores.len(), game.moves.len());
            assert!(deep.scores[..game.opening].iter().all(Option::is_none));
            let scored = deep.scores[game.opening..].iter().flatten().count();
            assert!(scored > 0, "no position of {} was scored", game.to_line());
            // The same search from the same moves gives the same scores.
            assert_eq!(relabel_game(&game, 3000), deep);
        }
    }

    #[test]
    fn relabelling_in_parallel_keeps_the_order() {
        let games = games();
        let one: Vec<Game> = games.iter().map(|g| relabel_game(g, 1000)).collect();
        assert_eq!(relabel_all(&games, 1000, 2, &|_| {}), one);
    }

    #[test]
    fn a_game_that_does_not_replay_loses_its_scores_from_there() {
        let mut game = games().remove(0);
        let bad = game.opening + 1;
        game.moves[bad] = game.moves[0];
        let deep = relabel_game(&game, 600);
        assert!(deep.scores[bad..].iter().all(Option::is_none));
    }
}
