//! `wuzi-tournament mistakes`: where did a player's lost games turn? `LOSSES.md`'s method
//! as a command, so a positions file for `judge` can be made again from any SGF file.
//!
//! For each game the player lost, the judge (a stronger engine at a node count) scores the
//! position before each of the player's moves after the opening, playing the player's side,
//! and, when it holds that position (`hold` or better for the player), the position after
//! the move, playing the opponent. The first move that turns a held position into a lost one
//! (`lost` or worse) is the game's decisive mistake, and the judge's own move before it the
//! better one; a game whose every held position stays held, or whose mistake the judge would
//! have played too, gives none. The scores are the player's view.

use super::positions::sgf;
use super::score::Eval;
use super::{in_order, rule_without_fouls, Fault, Judge};
use crate::board::{Board, Rule, Side};
use crate::sgf::SgfGame;
use std::path::{Path, PathBuf};

/// Clears the way for a scan's outputs before any judge starts: an existing `--out` file,
/// and an earlier scan's `.log` files in `--logs` (mixed with this scan's they would
/// mislabel it). Both are refused unless `overwrite`, which removes them; the checks all
/// come first, so a refusal leaves every file as it was.
pub fn prepare_outputs(
    out: Option<&Path>,
    logs: Option<&Path>,
    overwrite: bool,
) -> Result<(), String> {
    let mut earlier: Vec<PathBuf> = Vec::new();
    if let Some(out) = out {
        if out.is_dir() {
            return Err(format!("--out {} is a folder, not a file", out.display()));
        }
        if out.exists() {
            if !overwrite {
                return Err(format!(
                    "{} already exists: run with --overwrite to replace it, or choose \
                     another --out",
                    out.display()
                ));
            }
            earlier.push(out.to_path_buf());
        }
    }
    if let Some(dir) = logs {
        if dir.exists() && !dir.is_dir() {
            return Err(format!("--logs {} is a file, not a folder", dir.display()));
        }
        let old_logs = if dir.is_dir() {
            crate::outdir::files_with_ext(dir, "log")?
        } else {
            Vec::new()
        };
        if !old_logs.is_empty() && !overwrite {
            return Err(format!(
                "{} already holds {} log file{} of an earlier scan: run with --overwrite to \
                 replace them, or choose another --logs folder",
                dir.display(),
                old_logs.len(),
                if old_logs.len() == 1 { "" } else { "s" }
            ));
        }
        earlier.extend(old_logs);
    }
    for path in earlier {
        std::fs::remove_file(&path)
            .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    Ok(())
}

/// A game the player lost, as the scan needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostGame {
    /// Position id: the prefix and the game's number (`GN`, else its place in the file).
    pub id: String,
    /// Board side (`SZ`).
    pub size: usize,
    /// Stones in play order, black first.
    pub moves: Vec<(usize, usize)>,
    /// Leading stones marked as the opening.
    pub opening: usize,
    /// The player's colour.
    pub player: Side,
    /// `INFO rule` bits the game says it was played under (`RU`), if it says.
    pub rule: Option<u32>,
}

impl LostGame {
    /// Indexes (into `moves`) of the player's own moves after the opening.
    pub fn player_moves(&self) -> impl Iterator<Item = usize> + '_ {
        (self.opening..self.moves.len()).filter(|&i| Side::of_move(i) == self.player)
    }
}

/// The games of `games` that `player` lost, on boards of at most 26 (SGF letters) and of
/// the same size; games that `player` did not play or did not lose are left out.
pub fn lost_games(games: &[SgfGame], player: &str, prefix: &str) -> Result<Vec<LostGame>, String> {
    let mut out: Vec<LostGame> = Vec::new();
    for (n, g) in games.iter().enumerate() {
        let Some(side) = g.side_of(player) else {
            continue;
        };
        let result = g.prop("RE").unwrap_or("");
        let lost = match side {
            Side::Black => result.starts_with("W+"),
            Side::White => result.starts_with("B+"),
        };
        if !lost {
            continue;
        }
        let number = g
            .prop("GN")
            .map_or_else(|| (n + 1).to_string(), str::to_string);
        let size = g
            .prop("SZ")
            .ok_or_else(|| format!("game {number}: no SZ (board size)"))?;
        let size = size
            .trim()
            .parse::<usize>()
            .map_err(|_| format!("game {number}: SZ[{size}] is not a board size"))?;
        let rule = match g.prop("RU") {
            None => None,
            Some(r) => Some(
                r.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("game {number}: RU[{r}] is not INFO rule bits"))?,
            ),
        };
        if !(5..=26).contains(&size) {
            return Err(format!("game {number}: SZ[{size}] is not 5..=26"));
        }
        if let Some(first) = out.first().filter(|f| f.size != size) {
            return Err(format!(
                "game {number} is {size}x{size} but game {} is {}x{}: one board size a file",
                first.id, first.size, first.size
            ));
        }
        let mut board = Board::new(size);
        for (i, &(x, y, black)) in g.moves.iter().enumerate() {
            if black != (Side::of_move(i) == Side::Black) {
                return Err(format!("game {number}: move {} is out of turn", i + 1));
            }
            board
                .play(x as i64, y as i64)
                .map_err(|e| format!("game {number}: move {}: {e}", i + 1))?;
        }
        let opening = g.opening_len();
        out.push(LostGame {
            id: format!("{prefix}{number}"),
            size,
            moves: g.moves.iter().map(|&(x, y, _)| (x, y)).collect(),
            opening,
            player: side,
            rule,
        });
    }
    Ok(out)
}

/// How a scan is set up.
#[derive(Clone, Copy, Debug)]
pub struct Thresholds {
    /// A position the judge scores at or above this (player's view) is held.
    pub hold: i64,
    /// A position it scores at or below this after the move is lost.
    pub lost: i64,
}

/// What the scan of one game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The decisive mistake: `moves[at]`, with the judge's move there and its scores.
    Mistake {
        /// Index of the move in the game.
        at: usize,
        /// The judge's move in the position before it.
        better: (usize, usize),
        /// The judge's score before the move (player's view).
        before: Eval,
        /// After it (player's view).
        after: Eval,
    },
    /// No move turned a held position into a lost one (or the judge played the game's move
    /// where one did).
    None,
    /// The judge gave no move or no score at this move of the game.
    Fault {
        /// Index of the move being scored.
        at: usize,
        /// What went wrong.
        fault: Fault,
    },
}

/// One game's scan.
#[derive(Clone, Debug)]
pub struct Scan {
    /// The game.
    pub game: LostGame,
    /// What it found.
    pub finding: Finding,
    /// Positions the judge scored.
    pub asked: usize,
}

impl Scan {
    /// The positions-file line of a mistake (`id | moves | game move | better | note`).
    pub fn row(&self) -> Option<String> {
        let Finding::Mistake {
            at,
            better,
            before,
            after,
        } = self.finding
        else {
            return None;
        };
        let g = &self.game;
        let moves: Vec<String> = g.moves[..at].iter().map(|&c| sgf(c)).collect();
        Some(format!(
            "{} | {} | {} | {} | move {}, {}, judge {before} -> {after}",
            g.id,
            moves.join(" "),
            sgf(g.moves[at]),
            sgf(better),
            at + 1,
            colour(g.player),
        ))
    }
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// Scans every game, `concurrency` at a time; `done(k, scan)` is called as the `k`-th scan
/// finishes (in any order). The scans come back in the games' order.
pub fn scan_all(
    judge: &Judge<'_>,
    limits: Thresholds,
    games: &[LostGame],
    concurrency: usize,
    done: &(dyn Fn(usize, &Scan) + Sync),
) -> Result<Vec<Scan>, String> {
    let rule = rule_without_fouls(judge.rule_bits, "mistakes")?;
    in_order(games, concurrency, |g| scan(judge, rule, limits, g), done)
}

/// Scans one game's moves in order and stops at its decisive mistake.
pub fn scan(judge: &Judge<'_>, rule: Rule, limits: Thresholds, game: &LostGame) -> Scan {
    let mut asked = 0;
    let mut finding = Finding::None;
    let mut board = Board::new(game.size);
    let mut played = 0;
    for at in game.player_moves() {
        for &(x, y) in &game.moves[played..at] {
            // Checked when the game was read.
            let _ = board.play(x as i64, y as i64);
        }
        played = at;
        asked += 1;
        let (better, before) = match score(judge, &board, game, at, "before") {
            Ok(found) => found,
            Err(fault) => {
                finding = Finding::Fault { at, fault };
                break;
            }
        };
        if !before.above(limits.hold - 1) || better == game.moves[at] {
            continue;
        }
        let mut after_board = board.clone();
        let (x, y) = game.moves[at];
        let _ = after_board.play(x as i64, y as i64);
        if after_board.has_win(rule) {
            // The player made five here (a game lost on a foul or on time later).
            continue;
        }
        asked += 1;
        let after = match score(judge, &after_board, game, at, "after") {
            Ok((_, e)) => e.flip(),
            Err(fault) => {
                finding = Finding::Fault { at, fault };
                break;
            }
        };
        if !after.above(limits.lost) {
            finding = Finding::Mistake {
                at,
                better,
                before,
                after,
            };
            break;
        }
    }
    Scan {
        game: game.clone(),
        finding,
        asked,
    }
}

/// The judge's move and score (its own view: the side to move's) in `board`.
fn score(
    judge: &Judge<'_>,
    board: &Board,
    game: &LostGame,
    at: usize,
    when: &str,
) -> Result<((usize, usize), Eval), Fault> {
    let id = format!("{}-{}", game.id, at + 1);
    let answer = judge.ask(board, &id, when)?;
    let eval = answer.eval.ok_or_else(Fault::no_score)?;
    let cell = usize::try_from(answer.at.x)
        .ok()
        .zip(usize::try_from(answer.at.y).ok())
        .filter(|&(x, y)| x < game.size && y < game.size)
        .ok_or_else(|| Fault::new("illegal", format!("{} is off the board", answer.at)))?;
    Ok((cell, eval))
}

/// One line for the console as a game's scan ends.
pub fn progress_line(s: &Scan) -> String {
    let g = &s.game;
    let what = match &s.finding {
        Finding::Mistake {
            at,
            better,
            before,
            after,
        } => format!(
            "move {} {} ({before} -> {after}), judge plays {}",
            at + 1,
            sgf(g.moves[*at]),
            sgf(*better)
        ),
        Finding::None => "no decisive mistake".to_string(),
        Finding::Fault { at, fault } => {
            format!(
                "judge fault at move {}: {} ({})",
                at + 1,
                fault.kind,
                fault.detail
            )
        }
    };
    format!("{} ({}, {} asked): {what}", g.id, colour(g.player), s.asked)
}

/// What the file's header says about the run.
#[derive(Clone, Copy, Debug)]
pub struct RunInfo<'a> {
    /// The player scanned.
    pub player: &'a str,
    /// The SGF files read.
    pub games: &'a [std::path::PathBuf],
    /// Games read from them.
    pub scanned: usize,
    /// The judge's command line.
    pub judge: &'a str,
    /// Its node limit.
    pub nodes: u64,
    /// The lines.
    pub limits: Thresholds,
    /// Wall time of the scan.
    pub seconds: u64,
}

/// The positions file's header (comment lines): how it was made and what it holds.
pub fn header(scans: &[Scan], run: &RunInfo<'_>) -> String {
    let found = scans
        .iter()
        .filter(|s| matches!(s.finding, Finding::Mistake { .. }))
        .count();
    let faults = scans
        .iter()
        .filter(|s| matches!(s.finding, Finding::Fault { .. }))
        .count();
    let asked: usize = scans.iter().map(|s| s.asked).sum();
    let files: Vec<String> = run.games.iter().map(|p| p.display().to_string()).collect();
    let mut h = String::new();
    h.push_str(&format!(
        "# Decisive mistakes of {} in its lost games, by `wuzi-tournament mistakes`.\n",
        run.player
    ));
    h.push_str(&format!("# Games: {}\n", files.join(" ")));
    h.push_str(&format!(
        "# Judge: {} at {} nodes a position. Held: {} or better for {}; lost: {} or worse.\n",
        run.judge, run.nodes, run.limits.hold, run.player, run.limits.lost
    ));
    h.push_str(&format!(
        "# {} games read, {} lost by {}: {} gave a mistake, {} the judge failed on; \
         {} positions scored in {} s.\n",
        run.scanned,
        scans.len(),
        run.player,
        found,
        faults,
        asked,
        run.seconds
    ));
    h.push_str(
        "# Format: id | moves before the mistake | the game's move | the judge's move | note\n",
    );
    h
}
