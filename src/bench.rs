//! `pbrain-wuzi bench [depth]`: a fixed suite searched to a fixed depth on one thread.
//!
//! The node total is deterministic for a given build of the search: a change that moves
//! it is a functional change (say so in the commit with the new `Bench: N`). The Zobrist
//! seed is part of that: changing it changes the table's collisions and so the node counts.

use crate::board::Board;
use crate::engine::EngineConfig;
use crate::search::{search_fixed, CUT_PLACES};
use crate::tt::{TranspositionTable, TtStats};
use crate::types::{Color, Pos, Rule};
use std::io::Write;
use std::time::{Duration, Instant};

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 8;
/// Table size used by the bench unless `--tt-mb` says otherwise.
pub const DEFAULT_TT_BYTES: usize = 64 << 20;

/// The suite: (board size, moves in `pos` notation, black first). The four freestyle
/// positions of Rapfi's benchmark set, then 20x20 openings and middlegames.
pub const SUITE: &[(usize, &str)] = &[
    (15, "h8g7f6g8g9"),
    (15, "h2h5h4f6"),
    (20, "e2f2h3g3g6h5f9"),
    (20, "f5e3b7h5g3g4i6e4h4d4f2i5f4f6e5d6d7e7f8"),
    (20, "i12i15g12h15e13h13f15i11f18f13"),
    (20, "l5m5n7k6n6j6k5o9i2l6"),
    (20, "p11p12o14q10o12n9p14n14n8"),
    (20, "h4f6g7i7e6g3e7f3i1e3"),
    // Middlegames: balanced openings played on by Wuzi itself at depth 5 (25-28 stones).
    (
        20,
        "p17r16p13q13r13r15n13p15o15o16p16n14o11p10p11q12o12q10q11n11o13o14r10r11m11",
    ),
    (
        20,
        "h4f6g7i7e6g3e7f3i1e3d3d7d5e9g8f7f9g6h5h6f4j5e10d11i6h7d4d1",
    ),
    (
        20,
        "r9p13r10p12s10s9q10p10p14q8p11o12q12n11m10o10r7m12p9r11r6r8s8t7q11n12l12o11",
    ),
];

/// Positions under the other Gomocup rules, each searched under its rule and reported
/// apart from `SUITE` (so `Bench: N` stays freestyle's figure): exactly five (`INFO rule
/// 1`), caro (`INFO rule 8`) and renju (`INFO rule 4`) on 15x15, from the first two suite
/// openings and a middlegame, so their node counts are frozen too.
pub const RULE_SUITE: &[(Rule, usize, &str)] = &[
    (Rule::STANDARD, 15, "h8g7f6g8g9"),
    (Rule::STANDARD, 15, "h2h5h4f6"),
    (Rule::STANDARD, 15, "h8i9g9i7i8g7j8k8h10"),
    (Rule::CARO, 15, "h8g7f6g8g9"),
    (Rule::CARO, 15, "h2h5h4f6"),
    (Rule::CARO, 15, "h8i9g9i7i8g7j8k8h10"),
    (Rule::RENJU, 15, "h8g7f6g8g9"),
    (Rule::RENJU, 15, "h2h5h4f6"),
    (Rule::RENJU, 15, "h8i9g9i7i8g7j8k8h10"),
];

/// Parse `pos` notation (column letters from `a`, then `aa`, `ab`, … past `z`; row
/// number from 1) into cells.
pub fn parse_moves(moves: &str) -> Option<Vec<Pos>> {
    let bytes = moves.trim().as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let mut col = 0usize;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            col = col * 26 + (bytes[i].to_ascii_lowercase() - b'a') as usize + 1;
            i += 1;
        }
        if i == start || i - start > 2 {
            return None;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let row: usize = std::str::from_utf8(&bytes[start..i]).ok()?.parse().ok()?;
        if row == 0 {
            return None;
        }
        out.push(Pos::new(col - 1, row - 1));
    }
    Some(out)
}

/// One row of a tactics file (`tests/fixtures/freestyle_tactics.txt`): the position with
/// its side to move, the kind of win (`VCF`, `VCT`), its id and its listed answers.
pub struct TacticsPuzzle {
    /// The row's id (its sixth field).
    pub id: String,
    /// `VCF` or `VCT`.
    pub kind: String,
    /// The position, the puzzle's side to move.
    pub board: Board,
    /// The winning first moves the row lists.
    pub answers: Vec<Pos>,
}

/// The rows of a tactics file, freestyle: `size;own stones;opponent stones;answers;kind;
/// id;own colour;…`, cells as `x,y` separated by spaces, `#` lines and blank lines skipped.
/// `Err` names the first row that does not parse.
pub fn parse_tactics(text: &str) -> Result<Vec<TacticsPuzzle>, String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_tactics_row(l).ok_or_else(|| format!("bad tactics row: {l}")))
        .collect()
}

fn parse_tactics_row(line: &str) -> Option<TacticsPuzzle> {
    let f: Vec<&str> = line.split(';').collect();
    let cells = |field: &str| -> Option<Vec<Pos>> {
        field
            .split_whitespace()
            .map(|c| {
                let (x, y) = c.split_once(',')?;
                Some(Pos::new(x.parse().ok()?, y.parse().ok()?))
            })
            .collect()
    };
    let me = if *f.get(6)? == "black" {
        Color::Black
    } else {
        Color::White
    };
    let mut board = Board::new(f[0].parse().ok()?, Rule::FREESTYLE).ok()?;
    for p in cells(f[1])? {
        board.play_as(p, me);
    }
    for p in cells(f[2])? {
        board.play_as(p, me.opp());
    }
    board.set_side_to_move(me);
    Some(TacticsPuzzle {
        id: f[5].to_string(),
        kind: f[4].to_string(),
        board,
        answers: cells(f[3])?,
    })
}

/// One position's figures.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// Move chosen.
    pub best: Pos,
    /// Table statistics for this position.
    pub tt: TtStats,
    /// Quiet nodes' beta cutoffs by the cutting move's place (`SearchResult::cutoffs`).
    pub cutoffs: [u64; CUT_PLACES],
}

/// Search every suite position to `depth`; the table is cleared between positions so each
/// line is independent of the order.
pub fn run_suite(depth: i32, config: EngineConfig) -> Vec<BenchLine> {
    let cases: Vec<(Rule, usize, &str)> = SUITE
        .iter()
        .map(|&(size, moves)| (Rule::FREESTYLE, size, moves))
        .collect();
    run_cases(&cases, depth, config)
}

/// `run_suite` for `RULE_SUITE`.
pub fn run_rule_suite(depth: i32, config: EngineConfig) -> Vec<BenchLine> {
    run_cases(RULE_SUITE, depth, config)
}

fn run_cases(cases: &[(Rule, usize, &str)], depth: i32, config: EngineConfig) -> Vec<BenchLine> {
    let bytes = config.tt_bytes.unwrap_or(DEFAULT_TT_BYTES);
    let mut tt = TranspositionTable::with_bytes(bytes);
    tt.set_checksum(config.use_checksum);
    cases
        .iter()
        .map(|&(rule, size, moves)| {
            let mut board = Board::new(size, rule).expect("suite sizes are legal");
            for p in parse_moves(moves).expect("suite moves are well formed") {
                board.play(p);
            }
            tt.clear();
            tt.reset_stats();
            tt.new_search();
            let t = Instant::now();
            let r = search_fixed(&mut board, &mut tt, depth, &config.search);
            BenchLine {
                nodes: r.nodes,
                time: t.elapsed(),
                best: r.best,
                tt: *tt.stats(),
                cutoffs: r.cutoffs,
            }
        })
        .collect()
}

/// The quiet nodes' cutoffs by the cutting move's place, summed over `lines`.
pub fn total_cutoffs(lines: &[BenchLine]) -> [u64; CUT_PLACES] {
    let mut sum = [0u64; CUT_PLACES];
    for l in lines {
        for (s, c) in sum.iter_mut().zip(l.cutoffs) {
            *s += c;
        }
    }
    sum
}

/// The quiet nodes' cutoffs by the cutting move's place, as shares: the first number is
/// the ordering's first-move hit rate.
pub fn cutoff_report(cutoffs: &[u64; CUT_PLACES]) -> String {
    /// One name per counted place; the array's type ties it to `CUT_PLACES`.
    const PLACES: [&str; CUT_PLACES] = ["first", "second", "third", "later"];
    let total: u64 = cutoffs.iter().sum();
    let shares: Vec<String> = PLACES
        .iter()
        .zip(cutoffs)
        .map(|(name, &c)| format!("{name} {:.1}%", 100.0 * c as f64 / total.max(1) as f64))
        .collect();
    format!(
        "quiet cutoffs: {total}, by the cutting move's place: {}",
        shares.join(", ")
    )
}

/// FNV-1a over the node counts: a short name for "the same search".
pub fn signature(lines: &[BenchLine]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for l in lines {
        for b in l.nodes.to_le_bytes() {
            h ^= b as u32;
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// The name of a rule in the report.
fn rule_name(rule: Rule) -> &'static str {
    if rule.renju {
        return "renju";
    }
    match (rule.exact_five, rule.caro) {
        (false, false) => "freestyle",
        (true, false) => "exact5",
        (false, true) => "caro",
        (true, true) => "caro+exact5",
    }
}

/// The rules of `RULE_SUITE`, in order of first appearance.
fn suite_rules() -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    for &(rule, _, _) in RULE_SUITE {
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    rules
}

/// Run the bench suite and print its report to `out`: one line per position, then the
/// freestyle totals (`Bench: N`, the commit-message figure, and its signature), then the
/// other rules' total and signature (unless `rules` is false).
///
/// With `runs` above 1 the freestyle suite is searched that many times in all: each run
/// must search exactly the first run's nodes at every position (an error otherwise), and
/// the speed is reported as the best, median and worst run, since one run's nodes/s moves
/// by tens of percent with the machine's other load.
pub fn run(
    depth: Option<i32>,
    rules: bool,
    runs: usize,
    config: EngineConfig,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let lines = run_suite(depth, config);
    let rule_lines = if rules {
        run_rule_suite(depth, config)
    } else {
        Vec::new()
    };
    let cases = SUITE
        .iter()
        .map(|&(size, moves)| (Rule::FREESTYLE, size, moves))
        .chain(RULE_SUITE.iter().copied());
    let mut total = TtStats::default();
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for (i, (l, (rule, size, moves))) in lines.iter().chain(&rule_lines).zip(cases).enumerate() {
        writeln!(
            out,
            "position {:2} ({size}x{size} {:<9}, {:2} stones): best {:4} nodes {:>10} time {:>7.1} ms tt hit {:.1}%",
            i + 1,
            rule_name(rule),
            parse_moves(moves).map_or(0, |m| m.len()),
            l.best.to_string(),
            l.nodes,
            l.time.as_secs_f64() * 1000.0,
            l.tt.hit_rate()
        )?;
        if i >= lines.len() {
            continue;
        }
        nodes += l.nodes;
        time += l.time;
        total.probes += l.tt.probes;
        total.hits += l.tt.hits;
        total.cutoffs += l.tt.cutoffs;
        total.stores += l.tt.stores;
        total.replacements += l.tt.replacements;
        total.collisions += l.tt.collisions;
    }
    let secs = time.as_secs_f64().max(1e-9);
    writeln!(out, "depth: {depth}")?;
    writeln!(out, "time: {:.0} ms", secs * 1000.0)?;
    writeln!(out, "nodes/s: {:.0}", speed(&lines))?;
    writeln!(out, "{}", total.report())?;
    writeln!(out, "{}", cutoff_report(&total_cutoffs(&lines)))?;
    if rules {
        for rule in suite_rules() {
            let (rule_nodes, rule_secs) = rule_lines
                .iter()
                .zip(RULE_SUITE)
                .filter(|(_, c)| c.0 == rule)
                .fold((0u64, 0f64), |(n, t), (l, _)| {
                    (n + l.nodes, t + l.time.as_secs_f64())
                });
            writeln!(
                out,
                "rule {:<9} nodes {rule_nodes:>9} nodes/s {:.0}",
                rule_name(rule),
                rule_nodes as f64 / rule_secs.max(1e-9)
            )?;
        }
        let rule_nodes: u64 = rule_lines.iter().map(|l| l.nodes).sum();
        writeln!(
            out,
            "rules total: nodes {rule_nodes} signature {:08x}",
            signature(&rule_lines)
        )?;
    }
    if runs > 1 {
        let speeds = match repeat_speeds(&lines, depth, runs, config) {
            Ok(speeds) => speeds,
            Err(why) => {
                writeln!(out, "not deterministic: {why}")?;
                out.flush()?;
                return Err(std::io::Error::other(why));
            }
        };
        writeln!(out, "{}", speed_report(&speeds))?;
    }
    writeln!(out, "signature: {:08x}", signature(&lines))?;
    writeln!(out, "Bench: {nodes}")?;
    out.flush()
}

/// Nodes per second of a run of the suite.
fn speed(lines: &[BenchLine]) -> f64 {
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
    nodes as f64 / secs.max(1e-9)
}

/// Each run's nodes/s, `first` included, after `runs - 1` more runs of the freestyle
/// suite; `Err` names the first position whose nodes or move differ from `first`'s.
fn repeat_speeds(
    first: &[BenchLine],
    depth: i32,
    runs: usize,
    config: EngineConfig,
) -> Result<Vec<f64>, String> {
    let mut speeds = vec![speed(first)];
    for run in 2..=runs {
        let lines = run_suite(depth, config);
        for (i, (a, b)) in first.iter().zip(&lines).enumerate() {
            if (a.nodes, a.best) != (b.nodes, b.best) {
                return Err(format!(
                    "position {} searched {} nodes (best {}) in run 1 and {} (best {}) in run {run}",
                    i + 1,
                    a.nodes,
                    a.best,
                    b.nodes,
                    b.best
                ));
            }
        }
        speeds.push(speed(&lines));
    }
    Ok(speeds)
}

/// `nodes/s over N runs: best …, median …, worst …` (the median of an even count is the
/// mean of the middle two).
fn speed_report(speeds: &[f64]) -> String {
    let mut sorted = speeds.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    format!(
        "nodes/s over {n} runs: best {:.0}, median {median:.0}, worst {:.0}",
        sorted[n - 1],
        sorted[0]
    )
}

#[cfg(test)]
mod tests {
    use super::speed_report;

    #[test]
    fn the_speed_report_orders_the_runs_and_takes_the_middle() {
        assert_eq!(
            speed_report(&[700.0, 900.0, 500.0]),
            "nodes/s over 3 runs: best 900, median 700, worst 500"
        );
        assert_eq!(
            speed_report(&[800.0, 500.0, 600.0, 1000.0]),
            "nodes/s over 4 runs: best 1000, median 700, worst 500"
        );
    }
}
