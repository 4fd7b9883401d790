//! `wuzi-tournament tally`: one player's score over SGF files written by any manager
//! (c-gomoku-cli, this runner, piskvork-style `RE`), so that a match played outside the
//! runner is reported the way the runner reports its own: wins, losses and draws, the score
//! with its Elo and 95 % interval (`elo`), per file and pooled; how the games ended; the
//! think times read off the moves' `C[…ms]` comments; and, for files played as opening
//! pairs (c-gomoku-cli's `-repeat`, the runner's pairs), how many openings the player won
//! with both colours, split, or lost with both.

use crate::board::Side;
use crate::elo::{self, Tally};
use crate::sgf::SgfGame;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How one game ended for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameResult {
    Win,
    Loss,
    Draw,
}

/// One file's (or the pool's) figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// The player's wins, draws and losses.
    pub tally: Tally,
    /// Games of the player's whose result the file does not say (no or an unknown `RE`).
    pub unscored: u32,
    /// How the games ended, by `TE` text (or `RE` where there is no `TE`), with counts.
    pub endings: BTreeMap<String, u32>,
    /// The player's think times (ms) of the moves that carry one, after the opening.
    pub player_ms: Vec<u64>,
    /// The opponents' think times (ms), likewise.
    pub opponent_ms: Vec<u64>,
    /// Opening pairs (consecutive games on the same opening stones, the player with each
    /// colour): won both, split, lost both.
    pub pairs: [u32; 3],
}

impl Figures {
    fn add(&mut self, other: &Figures) {
        self.tally.wins += other.tally.wins;
        self.tally.draws += other.tally.draws;
        self.tally.losses += other.tally.losses;
        self.unscored += other.unscored;
        for (k, v) in &other.endings {
            *self.endings.entry(k.clone()).or_default() += v;
        }
        self.player_ms.extend(&other.player_ms);
        self.opponent_ms.extend(&other.opponent_ms);
        for (a, b) in self.pairs.iter_mut().zip(other.pairs) {
            *a += b;
        }
    }
}

/// The think time of a move comment: its first line read as `<digits>ms` (c-gomoku-cli's
/// `420ms`, this runner's `420ms` followed by the engine's messages).
fn think_ms(comment: &str) -> Option<u64> {
    let first = comment.lines().next()?.trim();
    first.strip_suffix("ms")?.trim().parse().ok()
}

/// The player's result in `g` (`None`: the player is not in it), and whether it is known.
fn result_of(g: &SgfGame, player: &str) -> Option<Option<GameResult>> {
    let black = g.side_of(player)? == Side::Black;
    let re = g.prop("RE").unwrap_or("").trim();
    let won = if re.starts_with("B+") {
        Some(black)
    } else if re.starts_with("W+") {
        Some(!black)
    } else if ["0", "Draw", "draw", "Jigo"].contains(&re) {
        return Some(Some(GameResult::Draw));
    } else {
        None
    };
    Some(won.map(|w| if w { GameResult::Win } else { GameResult::Loss }))
}

/// The opening stones of `g` (`SgfGame::opening_len`).
fn opening(g: &SgfGame) -> &[(usize, usize, bool)] {
    &g.moves[..g.opening_len()]
}

/// `player`'s figures over the games of one file (games without the player are skipped).
pub fn figures(games: &[SgfGame], player: &str) -> Figures {
    let mut f = Figures::default();
    let mut played: Vec<(&SgfGame, Option<GameResult>)> = Vec::new();
    for g in games {
        let Some(result) = result_of(g, player) else {
            continue;
        };
        played.push((g, result));
        match result {
            Some(GameResult::Win) => f.tally.wins += 1,
            Some(GameResult::Loss) => f.tally.losses += 1,
            Some(GameResult::Draw) => f.tally.draws += 1,
            None => f.unscored += 1,
        }
        let ending = g
            .prop("TE")
            .or(g.prop("RE"))
            .map_or_else(|| "no result".to_string(), |s| s.trim().to_string());
        *f.endings.entry(ending).or_default() += 1;
        let player_black = g.side_of(player) == Some(Side::Black);
        let skip = g.opening_len();
        for (i, c) in g.comments.iter().enumerate().skip(skip) {
            let Some(ms) = think_ms(c) else { continue };
            let black_move = g.moves.get(i).is_some_and(|m| m.2);
            if black_move == player_black {
                f.player_ms.push(ms);
            } else {
                f.opponent_ms.push(ms);
            }
        }
    }
    // Pairs: two consecutive games of the player on the same opening stones, one with each
    // colour.
    let mut i = 0;
    while i + 1 < played.len() {
        let ((a, ra), (b, rb)) = (played[i], played[i + 1]);
        let same_opening = !opening(a).is_empty() && opening(a) == opening(b);
        if same_opening && a.side_of(player) != b.side_of(player) {
            let points = |r: Option<GameResult>| match r {
                Some(GameResult::Win) => 2,
                Some(GameResult::Draw) => 1,
                _ => 0,
            };
            match points(ra) + points(rb) {
                4 => f.pairs[0] += 1,
                0 => f.pairs[2] += 1,
                _ => f.pairs[1] += 1,
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    f
}

/// Longest and mean of the times of at least `min_ms` (the moves actually thought about: a
/// forced or proven move answers in a millisecond or two), and how many there were.
fn time_line(ms: &[u64], min_ms: u64) -> String {
    let Some(longest) = ms.iter().max() else {
        return "no think times".to_string();
    };
    let thought: Vec<u64> = ms.iter().copied().filter(|&t| t >= min_ms).collect();
    if thought.is_empty() {
        return format!("longest {longest} ms, no move of {min_ms} ms or more");
    }
    let mean = thought.iter().sum::<u64>() as f64 / thought.len() as f64;
    format!(
        "longest {longest} ms, mean {mean:.0} ms over the {} moves of {min_ms} ms or more",
        thought.len()
    )
}

/// One table row: games, W-L-D, score and Elo with its interval.
fn row(name: &str, f: &Figures) -> String {
    let t = f.tally;
    let score = t
        .fraction()
        .map_or_else(|| "n/a".to_string(), |p| format!("{:.1} %", 100.0 * p));
    let estimate = elo::estimate(t);
    let interval = match estimate {
        Some(e) if e.lower.is_finite() && e.upper.is_finite() => {
            format!(" ({:+.0} … {:+.0})", e.lower, e.upper)
        }
        _ => String::new(),
    };
    format!(
        "| {name} | {} | {} – {} – {} | {score} | {}{interval} |",
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        elo::format(estimate),
    )
}

/// The report for `files` (a name and its figures each): a Markdown table with a row per
/// file and, for more than one, the pool; then the pool's endings, think times and pairs.
pub fn report(player: &str, files: &[(String, Figures)], min_ms: u64) -> String {
    let mut pool = Figures::default();
    for (_, f) in files {
        pool.add(f);
    }
    let mut s = format!(
        "{player}'s games: wins – losses – draws, score, Elo (95 %)\n\n\
         | file | games | W – L – D | score | Elo |\n| --- | --- | --- | --- | --- |\n"
    );
    for (name, f) in files {
        let _ = writeln!(s, "{}", row(name, f));
    }
    if files.len() > 1 {
        let _ = writeln!(s, "{}", row("all", &pool));
    }
    if pool.unscored > 0 {
        let _ = writeln!(
            s,
            "\n{} of {player}'s games have no result it can read (RE) and are not scored",
            pool.unscored
        );
    }
    let endings: Vec<String> = pool
        .endings
        .iter()
        .map(|(k, v)| format!("{v} × {k}"))
        .collect();
    let _ = writeln!(s, "\nendings: {}", endings.join("; "));
    let _ = writeln!(
        s,
        "{player}'s think time: {}",
        time_line(&pool.player_ms, min_ms)
    );
    let _ = writeln!(
        s,
        "the opponents' think time: {}",
        time_line(&pool.opponent_ms, min_ms)
    );
    let [won, split, lost] = pool.pairs;
    if won + split + lost > 0 {
        let _ = writeln!(
            s,
            "opening pairs (one opening, {player} with each colour): {} in all, won both {won}, split {split}, lost both {lost}",
            won + split + lost
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sgf;

    /// Two openings played as pairs (c-gomoku-cli's form), then a game of two other players
    /// and a game with no readable result.
    const MATCH: &str = "\
(;FF[4]GM[4]GN[1]PB[Wuzi]PW[Zen]RE[B+1]TE[Black win by five connection];B[jj]C[opening move];W[jk]C[opening move];B[kk]C[420ms];W[ll]C[300ms];B[ii]C[10ms])
(;FF[4]GM[4]GN[2]PB[Zen]PW[Wuzi]RE[W+1]TE[White win by five connection];B[jj]C[opening move];W[jk]C[opening move];B[kk]C[450ms];W[ll]C[400ms\nMESSAGE depth 9])
(;FF[4]GM[4]GN[3]PB[Wuzi]PW[Zen]RE[W+1]TE[White win by five connection];B[aa]C[opening move];W[ab]C[opening move];B[ac]C[2ms])
(;FF[4]GM[4]GN[4]PB[Zen]PW[Wuzi]RE[0]TE[Draw: board full];B[aa]C[opening move];W[ab]C[opening move];B[ac]C[30ms])
(;FF[4]GM[4]GN[5]PB[A]PW[B]RE[B+1];B[jj]C[9ms])
(;FF[4]GM[4]GN[6]PB[Wuzi]PW[Zen]RE[?];B[jj]C[opening move])
";

    #[test]
    fn a_match_is_scored_from_the_players_side_with_its_pairs_and_times() {
        let games = sgf::parse(MATCH).expect("parses");
        let f = figures(&games, "Wuzi");
        assert_eq!(
            f.tally,
            Tally {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(f.unscored, 1);
        // Opening stones carry no time; the player's moves are black's in games 1 and 3 and
        // white's in 2 and 4.
        assert_eq!(f.player_ms, vec![420, 10, 400, 2]);
        assert_eq!(f.opponent_ms, vec![300, 450, 30]);
        // Games 1–2 won both; games 3–4 a loss and a draw: split. Game 6 has no partner.
        assert_eq!(f.pairs, [1, 1, 0]);
        assert_eq!(f.endings["White win by five connection"], 2);
        assert_eq!(f.endings["?"], 1);
        assert_eq!(
            time_line(&f.player_ms, 50),
            "longest 420 ms, mean 410 ms over the 2 moves of 50 ms or more"
        );
    }

    #[test]
    fn the_report_pools_files_and_gives_elo_with_its_interval() {
        let games = sgf::parse(MATCH).expect("parses");
        let f = figures(&games, "Wuzi");
        let text = report("Wuzi", &[("a".into(), f.clone()), ("b".into(), f)], 50);
        // 2.5 of 4 each: 62.5 %, pooled 5 of 8.
        assert!(text.contains("| a | 4 | 2 – 1 – 1 | 62.5 % |"), "{text}");
        assert!(
            text.contains("| all | 8 | 4 – 2 – 2 | 62.5 % | +89 ± "),
            "{text}"
        );
        assert!(text.contains("2 of Wuzi's games have no result"), "{text}");
        assert!(text.contains("won both 2, split 2, lost both 0"), "{text}");
        // A player in none of the games: an empty tally, reported as such.
        let none = figures(&sgf::parse(MATCH).expect("parses"), "Nobody");
        assert_eq!(none.tally.games(), 0);
        assert!(report("Nobody", &[("a".into(), none)], 50)
            .contains("| a | 0 | 0 – 0 – 0 | n/a | n/a |"));
    }
}
