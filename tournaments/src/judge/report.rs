//! What a judge run prints and writes: the per-position table, the total, `judge.json`,
//! `judge.csv` and `summary.md`.

use super::{Options, Verdict};
use serde::Serialize;
use std::path::Path;

/// Counts over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Positions.
    pub positions: usize,
    /// Positions where the judge's score (tested side's view) was above the threshold.
    pub avoided: usize,
    /// Positions where the engine played the game's move again.
    pub game_move: usize,
    /// Positions where the engine played the file's better move.
    pub better_move: usize,
    /// Positions where the engine's own last score claimed a win (a mate for it): on won
    /// positions, the wins it proved within its limit.
    pub claimed_wins: usize,
    /// Positions where the engine's move made five.
    pub fives: usize,
    /// Positions with no usable engine move (start failed, timeout, crash, malformed,
    /// illegal); counted as not avoided.
    pub engine_faults: usize,
    /// Positions the judge gave no score for; counted as not avoided.
    pub judge_faults: usize,
    /// Distinct positions (rows with the same stones as an earlier row count once).
    pub distinct: usize,
    /// Distinct positions avoided in every row that holds them.
    pub distinct_avoided: usize,
}

impl Totals {
    /// Counts `verdicts`.
    pub fn of(verdicts: &[Verdict]) -> Totals {
        let count = |f: &dyn Fn(&Verdict) -> bool| verdicts.iter().filter(|v| f(v)).count();
        Totals {
            positions: verdicts.len(),
            avoided: count(&|v| v.avoided),
            game_move: count(&|v| v.engine_fault.is_none() && same(v, &v.game_move)),
            better_move: count(&|v| v.engine_fault.is_none() && same(v, &v.better_move)),
            claimed_wins: count(&|v| v.engine_claims_win),
            fives: count(&|v| v.score_mate == Some(0)),
            engine_faults: count(&|v| v.engine_fault.is_some()),
            judge_faults: count(&|v| v.judge_fault.is_some()),
            distinct: count(&|v| v.same_as.is_none()),
            distinct_avoided: count(&|v| {
                v.same_as.is_none()
                    && verdicts
                        .iter()
                        .filter(|w| w.id == v.id || w.same_as.as_ref() == Some(&v.id))
                        .all(|w| w.avoided)
            }),
        }
    }

    /// `avoided X of N (…)`.
    pub fn line(&self, threshold: i64) -> String {
        let mut text = format!(
            "avoided {} of {} (judge score > {threshold} from the engine's side); game move \
             repeated {}, better move played {}",
            self.avoided, self.positions, self.game_move, self.better_move
        );
        if self.distinct < self.positions {
            text.push_str(&format!(
                "; distinct positions: avoided {} of {} (in every row that holds them)",
                self.distinct_avoided, self.distinct
            ));
        }
        text.push_str(&format!(
            "; the engine's own score claimed a win in {}",
            self.claimed_wins
        ));
        self.push_engine_faults(&mut text);
        if self.judge_faults > 0 {
            text.push_str(&format!(
                "; judge failed {} (counted as not avoided)",
                self.judge_faults
            ));
        }
        text
    }

    /// The total of a run without a judge: the engine's own claims, its fives and its moves.
    pub fn unjudged_line(&self) -> String {
        let mut text = format!(
            "no judge: the engine's own score claimed a win in {} of {}; it made five in {}; \
             game move repeated {}, better move played {}",
            self.claimed_wins, self.positions, self.fives, self.game_move, self.better_move
        );
        self.push_engine_faults(&mut text);
        text
    }

    fn push_engine_faults(&self, text: &mut String) {
        if self.engine_faults > 0 {
            text.push_str(&format!("; engine failed {}", self.engine_faults));
        }
    }
}

fn same(v: &Verdict, other: &Option<String>) -> bool {
    other.is_some() && v.engine_move == *other
}

fn or_dash(text: &Option<String>) -> &str {
    text.as_deref().unwrap_or("-")
}

/// What went wrong, for the table's last column, and the row the position repeats.
fn trouble(v: &Verdict) -> String {
    let what = match (&v.engine_fault, &v.judge_fault) {
        (Some(f), _) => format!("engine {}: {}", f.kind, f.detail),
        (None, Some(f)) => format!("judge {}: {}", f.kind, f.detail),
        (None, None) if v.score_mate == Some(0) => "the engine made five".to_string(),
        (None, None) => String::new(),
    };
    match &v.same_as {
        Some(id) if what.is_empty() => format!("same position as {id}"),
        Some(id) => format!("{what}; same position as {id}"),
        None => what,
    }
}

fn yes_no(v: &Verdict) -> &'static str {
    if v.avoided {
        "yes"
    } else {
        "no"
    }
}

/// One line per finished position (stderr progress).
pub fn progress_line(v: &Verdict) -> String {
    let mut text = format!(
        "{} {}: engine {} ({} ms, game {}) judge {} avoided {} ({:.1} s)",
        v.id,
        v.side,
        or_dash(&v.engine_move),
        v.engine_ms.map_or("-".to_string(), |m| m.to_string()),
        or_dash(&v.game_move),
        or_dash(&v.score),
        yes_no(v),
        v.wall_ms as f64 / 1000.0
    );
    let t = trouble(v);
    if !t.is_empty() {
        text.push_str(&format!(" [{t}]"));
    }
    text
}

/// The per-position table (Markdown, readable as plain text).
pub fn table(verdicts: &[Verdict]) -> String {
    let mut out = String::from(
        "| id | side | engine | ms | own eval | game | better | judge | avoided | note |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for v in verdicts {
        let mut engine = or_dash(&v.engine_move).to_string();
        if v.engine_fault.is_none() && same(v, &v.game_move) {
            engine.push_str(" (= game)");
        } else if v.engine_fault.is_none() && same(v, &v.better_move) {
            engine.push_str(" (= better)");
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            v.id,
            v.side,
            engine,
            v.engine_ms.map_or("-".to_string(), |m| m.to_string()),
            or_dash(&v.engine_eval),
            or_dash(&v.game_move),
            or_dash(&v.better_move),
            or_dash(&v.score),
            yes_no(v),
            trouble(v).replace('|', "/")
        ));
    }
    out
}

/// The settings of a run, as recorded in `judge.json` and `summary.md`.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    /// The positions file.
    pub positions: String,
    /// The engine's command line.
    pub engine: String,
    /// The judge's command line (`None`: no judge).
    pub judge: Option<String>,
    /// Engine move time (ms).
    pub turn_ms: u64,
    /// The engine's `INFO max_node`, if one was sent.
    pub engine_nodes: Option<u64>,
    /// Judge `max_node`.
    pub judge_nodes: u64,
    /// Judge `timeout_turn` (ms).
    pub judge_turn_ms: u64,
    /// Judge `thread_num` (0 = not sent).
    pub judge_threads: u64,
    /// Board side and rule bits.
    pub size: usize,
    /// `INFO rule`.
    pub rule: u32,
    /// `INFO max_memory` (bytes).
    pub max_memory: u64,
    /// Reply grace (ms).
    pub tolerance_ms: u64,
    /// Whether lines that are no protocol response were skipped.
    pub lenient_replies: bool,
    /// Avoided = judge score above this.
    pub threshold: i64,
    /// Positions at a time.
    pub concurrency: usize,
    /// Wall time of the whole run (ms).
    pub elapsed_ms: u64,
}

impl RunInfo {
    /// The settings of `opts`, with the command lines as given.
    pub fn new(
        opts: &Options,
        positions: &Path,
        engine: &str,
        judge: Option<&str>,
        ms: u64,
    ) -> RunInfo {
        RunInfo {
            positions: positions.display().to_string(),
            engine: engine.to_string(),
            judge: judge.map(str::to_string),
            turn_ms: opts.turn_ms,
            engine_nodes: opts.engine_nodes,
            judge_nodes: opts.judge_nodes,
            judge_turn_ms: opts.judge_turn_ms,
            judge_threads: opts.judge_threads,
            size: opts.size,
            rule: opts.rule_bits,
            max_memory: opts.max_memory,
            tolerance_ms: opts.tolerance_ms,
            lenient_replies: opts.lenient_replies,
            threshold: opts.threshold,
            concurrency: opts.concurrency,
            elapsed_ms: ms,
        }
    }

    /// One header line per setting.
    pub fn header(&self) -> String {
        let judge = match &self.judge {
            Some(judge) => format!(
                "judge {judge} at {} nodes (timeout_turn {} ms, thread_num {})",
                self.judge_nodes, self.judge_turn_ms, self.judge_threads
            ),
            None => "no judge: only the engine's own claims and fives are counted".to_string(),
        };
        format!(
            "positions {}\nengine {} at {} ms a move{}\n{judge}\nboard {}, rule {}, max_memory {}, \
             tolerance {} ms{}, concurrency {}, took {}\n",
            self.positions,
            self.engine,
            self.turn_ms,
            self.engine_nodes
                .map_or_else(String::new, |n| format!(" or {n} nodes")),
            self.size,
            self.rule,
            self.max_memory,
            self.tolerance_ms,
            if self.lenient_replies {
                ", lenient replies"
            } else {
                ""
            },
            self.concurrency,
            duration(self.elapsed_ms)
        )
    }

    /// The run's total: `Totals::line` with a judge, `Totals::unjudged_line` without.
    pub fn total_line(&self, totals: &Totals) -> String {
        match self.judge {
            Some(_) => totals.line(self.threshold),
            None => totals.unjudged_line(),
        }
    }
}

/// `6m12s`, `41.3s`.
pub fn duration(ms: u64) -> String {
    if ms >= 60_000 {
        format!("{}m{:02}s", ms / 60_000, (ms % 60_000) / 1000)
    } else {
        format!("{:.1}s", ms as f64 / 1000.0)
    }
}

#[derive(Serialize)]
struct Json<'a> {
    run: &'a RunInfo,
    totals: &'a Totals,
    positions: &'a [Verdict],
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// `judge.csv`: one row per position.
pub fn csv(verdicts: &[Verdict]) -> String {
    let mut out = String::from(
        "id,side,engine_move,engine_ms,engine_eval,engine_claims_win,game_move,better_move,\
         judge_raw,score,score_cp,score_mate,judge_ms,avoided,engine_fault,judge_fault,same_as\n",
    );
    let num = |n: Option<i64>| n.map_or(String::new(), |n| n.to_string());
    let fault = |f: &Option<super::Fault>| {
        f.as_ref()
            .map_or(String::new(), |f| format!("{}: {}", f.kind, f.detail))
    };
    for v in verdicts {
        let row = [
            v.id.clone(),
            v.side.to_string(),
            v.engine_move.clone().unwrap_or_default(),
            num(v.engine_ms.map(|m| m as i64)),
            v.engine_eval.clone().unwrap_or_default(),
            v.engine_claims_win.to_string(),
            v.game_move.clone().unwrap_or_default(),
            v.better_move.clone().unwrap_or_default(),
            v.judge_raw.clone().unwrap_or_default(),
            v.score.clone().unwrap_or_default(),
            num(v.score_cp),
            num(v.score_mate),
            num(v.judge_ms.map(|m| m as i64)),
            v.avoided.to_string(),
            fault(&v.engine_fault),
            fault(&v.judge_fault),
            v.same_as.clone().unwrap_or_default(),
        ];
        let cells: Vec<String> = row.iter().map(|c| csv_field(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// The files `write` puts in a run's folder.
pub const FILES: [&str; 3] = ["judge.json", "judge.csv", "summary.md"];

/// Readies the folder `dir` of a run before any engine starts. A folder that holds an
/// earlier run's figures is refused unless `overwrite`; then those figures and the engine
/// logs in `dir/logs` are deleted first, so a run that stops half-way leaves no older
/// figure beside its own logs.
pub fn prepare(dir: &Path, overwrite: bool) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!("--out {} is a file, not a folder", dir.display()));
    }
    let earlier: Vec<_> = FILES
        .iter()
        .map(|name| dir.join(name))
        .filter(|path| path.exists())
        .collect();
    if earlier.is_empty() {
        return Ok(());
    }
    if !overwrite {
        return Err(format!(
            "{} already holds an earlier judge run's figures ({}): run with --overwrite to \
             replace them, or choose another --out folder",
            dir.display(),
            FILES[0]
        ));
    }
    for path in earlier {
        std::fs::remove_file(&path)
            .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    let logs = dir.join("logs");
    if logs.is_dir() {
        crate::outdir::clear(&logs, "log")?;
    }
    Ok(())
}

/// Writes `judge.json`, `judge.csv` and `summary.md` into `dir`.
pub fn write(dir: &Path, run: &RunInfo, verdicts: &[Verdict]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let totals = Totals::of(verdicts);
    let json = serde_json::to_string_pretty(&Json {
        run,
        totals: &totals,
        positions: verdicts,
    })
    .map_err(|e| e.to_string())?;
    let summary = format!(
        "{}\n{}\n{}\n",
        run.header(),
        table(verdicts),
        run.total_line(&totals)
    );
    for (name, text) in FILES.into_iter().zip([json + "\n", csv(verdicts), summary]) {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Side;

    fn verdict(id: &str, same_as: Option<&str>, avoided: bool) -> Verdict {
        let mut v = Verdict::unanswered(id, Side::Black);
        v.same_as = same_as.map(str::to_string);
        v.avoided = avoided;
        v
    }

    #[test]
    fn a_repeated_position_counts_once_among_the_distinct() {
        // A is listed three times and avoided in two rows; B once, avoided; C once, not.
        let v = [
            verdict("A", None, true),
            verdict("B", None, true),
            verdict("A2", Some("A"), true),
            verdict("C", None, false),
            verdict("A3", Some("A"), false),
        ];
        let t = Totals::of(&v);
        assert_eq!((t.positions, t.avoided), (5, 3));
        assert_eq!((t.distinct, t.distinct_avoided), (3, 1));
        assert!(
            t.line(-300)
                .contains("; distinct positions: avoided 1 of 3 (in every row that holds them)"),
            "{}",
            t.line(-300)
        );
        assert!(
            table(&v).contains("| same position as A |"),
            "{}",
            table(&v)
        );
        // With no repeats the line says nothing about them.
        let t = Totals::of(&v[..2]);
        assert!(!t.line(-300).contains("distinct"), "{}", t.line(-300));
    }
}
