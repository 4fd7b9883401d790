//! The search's tunable numbers as one value: the move-ordering weights (threat classes,
//! evaluation shares, killers, history) and a few margins. `SearchParams::DEFAULT` is what
//! the engine plays with; a tuner (`wuzi-tune spsa`) or an engine hacker
//! (`pbrain-wuzi --search-params FILE`) can hand the search another value without
//! recompiling. Each search copies its value, so two engines in one process can differ.
//!
//! The text form is one `name = value` line per number (`#` starts a comment); names are
//! those of [`SearchParams::names`], and a file may give any subset of them.

use crate::eval::pattern::Pattern4;
use crate::eval::weights::{ASPIRATION, ATTACK, FUTILITY_PER_PLY};
use crate::eval::{EvalMix, OrderWeights};
use crate::types::Score;
use std::fmt;

/// Numbers the search reads at run time instead of as constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// The static move ordering's weights.
    pub order: OrderWeights,
    /// Ordering bonuses of the two killer moves of a ply.
    pub killer: [i32; 2],
    /// Cap of a move's (scaled) history bonus.
    pub history_cap: i32,
    /// Percent of a cutoff's history reward taken from each quiet move the node tried
    /// before the one that cut off (0: off; the history then only grows).
    pub history_malus: i32,
    /// 0: a cutoff adds `depth²` to its move's history (and the malus takes its share
    /// off), saturating at the cap. Above 0: the history is a moving average ("gravity"):
    /// the reward is `depth² · history_gravity / 100`, and each update moves the counter
    /// towards ± the cap by that share of the distance left, so counters stay ordered
    /// instead of all meeting at the cap.
    pub history_gravity: i32,
    /// Ordering bonus of the quiet move that last cut off in reply to the opponent's last
    /// move (the counter move; 0: off; 150 since session 47's SPRT).
    pub counter_move: i32,
    /// Ordering bonus of the quiet move that last cut off after the side to move's own
    /// previous move (the follow-up move; 0: off).
    pub followup_move: i32,
    /// Weight, in percent, of the continuation history's ordering bonus: the history of
    /// the side to move's quiet cutoffs by the opponent's last cell and the reply's cell,
    /// scaled and capped as the history is (0: off, and its table is not allocated).
    pub cont_history: i32,
    /// Late-move pruning keeps `lmp_base + lmp_quad · d² / 8` moves at depth `d`.
    pub lmp_base: i32,
    /// See `lmp_base`.
    pub lmp_quad: i32,
    /// Most moves late-move pruning keeps at any depth (0: no cap, the count grows with d²;
    /// 24 since the SPRT of sessions 48 and 49).
    pub lmp_cap: i32,
    /// Aspiration window half-width of each iteration's first try.
    pub aspiration: Score,
    /// 1: reverse futility reads the static evaluation sharpened by the node's table bound
    /// (a lower bound above it, or an upper bound below it, replaces it; mate scores
    /// excepted); 0: the static evaluation alone. 1 since the SPRT of sessions 48 and 49.
    pub futility_tt: i32,
    /// Reverse futility margin per ply.
    pub futility_per_ply: Score,
    /// Percent of its static ordering score a move keeps when it is farther than four
    /// cells from both of the last two moves (a negative score falls by as much; 100: no
    /// locality factor).
    pub far_recent2: i32,
    /// The same when it is that far from all of the last four moves.
    pub far_recent4: i32,
    /// Extra late-move reduction, in quarter plies, of a quiet node's reducible move that
    /// stands more than `lmr_far_distance` cells from both of the last two moves (0: off).
    pub lmr_far: i32,
    /// See `lmr_far`.
    pub lmr_far_distance: i32,
    /// Late-move reduction taken off a move at the history cap, in quarter plies (a move
    /// with less history gets a share in proportion; 0: off).
    pub lmr_history: i32,
    /// Extra late-move reduction, in quarter plies, of a reducible move other than the
    /// killers at an expected cut node (0: off).
    pub lmr_cut: i32,
    /// Singular extension from this many plies of remaining depth (0: off): the table move
    /// of a quiet node is searched a ply deeper when no other move comes near its score
    /// (SPRT at 1 s a move, against the search without it: see the README).
    pub se_depth: i32,
    /// Margin per ply below the table score that the other moves must stay under for the
    /// table move to count as singular.
    pub se_margin: i32,
    /// ProbCut's margin above beta (0: off; `search::probcut`; 100 since session 62's SPRT).
    pub probcut: i32,
    /// Fewest plies of remaining depth at which ProbCut is tried.
    pub probcut_depth: i32,
    /// 1: a quiet or defence node where the side to move has a four-three or a double three
    /// and the opponent no four to make, or a four-three whose forced block makes none, is a
    /// win in five plies without a search (freestyle and exactly five, and white under renju;
    /// `threat::quick_win`); 0: only an open four is.
    pub quick_wins: i32,
    /// Pacing by the root's state (`search::iterate::Pace`): percent of the soft target
    /// added for each change of the best move between iterations from the fifth, halved
    /// at every iteration after (0: off).
    pub pace_unsettled: i32,
    /// Percent of the soft target added for each 100 points the root's score fell since
    /// the previous iteration (0: off).
    pub pace_falling: i32,
    /// Percent of the soft target kept once the best move has held for three iterations
    /// from the fifth, when time left unspent is banked on a match clock (100: off).
    pub pace_steady: i32,
    /// Percent of the hard cap past which no iteration starts, however unsettled the root
    /// (a value below the soft target leaves the soft target as the limit).
    pub pace_latest: i32,
    /// Percent of the soft target under a per-move limit alone, where time left unspent is
    /// lost rather than banked (100: the soft target as `search::limits` sets it). It
    /// stretches no further than `pace_latest`.
    pub pace_per_move: i32,
    /// Permille of the hard cap the alpha-beta may spend; the rest is the safety net's,
    /// half for its check and half for a re-search without a move it finds losing.
    pub search_share: i32,
    /// How the search weighs the evaluation's parts (`eval_shapes`, `eval_threat`,
    /// `eval_parent` in the text form).
    pub eval: EvalMix,
}

/// Why a parameter text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError(pub String);

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamsError {}

/// Numbers whose 0 means "off" and whose small values mean something else entirely (a cap of
/// one move is not near no cap): SPSA perturbs every number by a step around its value, so it
/// leaves these alone unless a run names them (`wuzi-tune spsa --only`). The pacing numbers
/// are here too: SPSA plays at fixed nodes, where no clock is read.
pub const SWITCHES: [&str; 11] = [
    "lmp_cap",
    "futility_tt",
    "se_depth",
    "quick_wins",
    "probcut",
    "pace_unsettled",
    "pace_falling",
    "pace_steady",
    "pace_latest",
    "pace_per_move",
    "search_share",
];

/// The search's ordering weights of the side to move's own classes: the evaluation's
/// (`eval::weights::ATTACK`) with a double three at 320 instead of 120 and a four with a
/// closed three or open two at 160 instead of 40, so that the moves that build a win come
/// before the quiet blocks the policy terms favour (session 45: the wins of `wins72.txt`
/// proved at a fixed node count went from 25 to 34 of 72 together with `quick_wins`).
const SEARCH_ATTACK: [i32; Pattern4::COUNT] = {
    let mut a = ATTACK;
    a[Pattern4::FFlex3x2 as usize] = 320;
    a[Pattern4::DBlock4Plus as usize] = 160;
    a
};

/// The classes whose ordering weights are tunable: all but "nothing", the open four and the
/// five. Those two decide the game: a five to make is a node kind, and an open four to make
/// a quick win under freestyle and exactly five, and for white under renju
/// (`threat::quick_win`); under caro, and for black under renju, the open four still waits
/// on its ordering weight.
pub const TUNED_CLASSES: std::ops::RangeInclusive<usize> = 1..=10;

impl SearchParams {
    /// What the engine plays with.
    pub const DEFAULT: SearchParams = SearchParams {
        // The ordering with its pattern-code policy terms (session 42's SPRT) and the
        // attacking classes raised (session 45's).
        order: OrderWeights {
            policy: 100,
            attack: SEARCH_ATTACK,
            ..OrderWeights::DEFAULT
        },
        killer: [400, 300],
        history_cap: 300,
        history_malus: 0,
        history_gravity: 0,
        // The counter move below the killers (session 47's SPRT, +19 ± 15 over 1252 games).
        counter_move: 150,
        followup_move: 0,
        cont_history: 0,
        lmp_base: 3,
        lmp_quad: 8,
        // Reverse futility reads the table's bound, and at most 24 late moves at any depth
        // (the SPRT of sessions 48 and 49, +15 ± 12 over 2044 games).
        lmp_cap: 24,
        aspiration: ASPIRATION,
        futility_tt: 1,
        futility_per_ply: FUTILITY_PER_PLY,
        far_recent2: 100,
        far_recent4: 100,
        lmr_far: 0,
        lmr_far_distance: 3,
        lmr_history: 0,
        lmr_cut: 0,
        se_depth: 6,
        se_margin: 10,
        // ProbCut from 4 plies at 100 above beta (session 62's SPRT at 200 ms a move,
        // +16 ± 13 over 1748 games; 60 and 150 lost or were level in session 63, 3 and 5
        // plies in session 64). Not under exactly five, with or without caro
        // (`search::probcut`).
        probcut: 100,
        probcut_depth: 4,
        quick_wins: 1,
        pace_unsettled: 0,
        pace_falling: 0,
        pace_steady: 100,
        // Under a per-move limit alone, iterations start until 90 % of the hard cap (150 %
        // of the soft target) and the alpha-beta runs to 96 % of it, the safety net taking
        // the rest (session 69's SPRT at 200 ms a move, +19 ± 15 over 1406 games; the same
        // test at 500 ms stood at +9 ± 17 over 1038, undecided). Until then 100, 75 and 900.
        pace_latest: 90,
        pace_per_move: 150,
        search_share: 960,
        eval: EvalMix::PLAIN,
    };

    /// The names of the numbers, in a fixed order.
    pub fn names() -> Vec<String> {
        let mut names = Vec::new();
        for side in ["attack", "block"] {
            names.extend(TUNED_CLASSES.map(|k| format!("{side}.{k}")));
        }
        names.extend(
            [
                "value_own",
                "value_opp",
                "order_policy",
                "killer.0",
                "killer.1",
                "history_cap",
                "history_malus",
                "history_gravity",
                "counter_move",
                "followup_move",
                "cont_history",
                "lmp_base",
                "lmp_quad",
                "lmp_cap",
                "aspiration",
                "futility_tt",
                "futility_per_ply",
                "far_recent2",
                "far_recent4",
                "lmr_far",
                "lmr_far_distance",
                "lmr_history",
                "lmr_cut",
                "se_depth",
                "se_margin",
                "probcut",
                "probcut_depth",
                "quick_wins",
                "pace_unsettled",
                "pace_falling",
                "pace_steady",
                "pace_latest",
                "pace_per_move",
                "search_share",
                "eval_shapes",
                "eval_threat",
                "eval_parent",
            ]
            .map(String::from),
        );
        names
    }

    /// The number called `name`, to read or change.
    pub fn slot(&mut self, name: &str) -> Option<&mut i32> {
        let indexed = |prefix: &str| -> Option<usize> {
            let k: usize = name.strip_prefix(prefix)?.parse().ok()?;
            TUNED_CLASSES.contains(&k).then_some(k)
        };
        if let Some(k) = indexed("attack.") {
            return Some(&mut self.order.attack[k]);
        }
        if let Some(k) = indexed("block.") {
            return Some(&mut self.order.block[k]);
        }
        Some(match name {
            "value_own" => &mut self.order.value_own,
            "value_opp" => &mut self.order.value_opp,
            "order_policy" => &mut self.order.policy,
            "killer.0" => &mut self.killer[0],
            "killer.1" => &mut self.killer[1],
            "history_cap" => &mut self.history_cap,
            "history_malus" => &mut self.history_malus,
            "history_gravity" => &mut self.history_gravity,
            "counter_move" => &mut self.counter_move,
            "followup_move" => &mut self.followup_move,
            "cont_history" => &mut self.cont_history,
            "lmp_base" => &mut self.lmp_base,
            "lmp_quad" => &mut self.lmp_quad,
            "lmp_cap" => &mut self.lmp_cap,
            "aspiration" => &mut self.aspiration,
            "futility_tt" => &mut self.futility_tt,
            "futility_per_ply" => &mut self.futility_per_ply,
            "far_recent2" => &mut self.far_recent2,
            "far_recent4" => &mut self.far_recent4,
            "lmr_far" => &mut self.lmr_far,
            "lmr_far_distance" => &mut self.lmr_far_distance,
            "lmr_history" => &mut self.lmr_history,
            "lmr_cut" => &mut self.lmr_cut,
            "se_depth" => &mut self.se_depth,
            "se_margin" => &mut self.se_margin,
            "probcut" => &mut self.probcut,
            "probcut_depth" => &mut self.probcut_depth,
            "quick_wins" => &mut self.quick_wins,
            "pace_unsettled" => &mut self.pace_unsettled,
            "pace_falling" => &mut self.pace_falling,
            "pace_steady" => &mut self.pace_steady,
            "pace_latest" => &mut self.pace_latest,
            "pace_per_move" => &mut self.pace_per_move,
            "search_share" => &mut self.search_share,
            "eval_shapes" => &mut self.eval.shapes,
            "eval_threat" => &mut self.eval.threat,
            "eval_parent" => &mut self.eval.parent,
            _ => return None,
        })
    }

    /// The number called `name`.
    pub fn get(&self, name: &str) -> Option<i32> {
        let mut copy = *self;
        copy.slot(name).map(|v| *v)
    }

    /// The range a number may take: ordering weights and bonuses stay non-negative, the
    /// pruning count keeps at least one move, and the windows and margins stay positive.
    pub fn range(name: &str) -> (i32, i32) {
        match name {
            "lmp_base" => (1, 20),
            "lmp_quad" => (1, 64),
            "lmp_cap" => (0, 400),
            "futility_tt" => (0, 1),
            "aspiration" | "futility_per_ply" => (5, 1000),
            // (Shares reach ±2^15; the weighted sum stays far inside an i32.)
            "value_own" | "value_opp" => (0, 256),
            "order_policy" => (0, 400),
            "history_malus" | "cont_history" => (0, 400),
            "history_gravity" => (0, 10_000),
            "far_recent2" | "far_recent4" => (0, 100),
            "lmr_far" | "lmr_history" | "lmr_cut" => (0, 16),
            "lmr_far_distance" => (1, 8),
            "se_depth" => (0, 40),
            "quick_wins" => (0, 1),
            "pace_unsettled" | "pace_falling" => (0, 400),
            "pace_steady" => (10, 100),
            "pace_latest" => (10, 100),
            "pace_per_move" => (10, 400),
            "search_share" => (500, 990),
            "se_margin" | "probcut" => (0, 1000),
            "probcut_depth" => (2, 40),
            "eval_shapes" | "eval_threat" => (0, 400),
            "eval_parent" => (0, 100),
            _ => (0, 100_000),
        }
    }

    /// `DEFAULT` with the lines of the file at `path` applied; the error names the file.
    pub fn read(path: &std::path::Path) -> Result<SearchParams, ParamsError> {
        let at = |e: &dyn fmt::Display| ParamsError(format!("{}: {e}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|e| at(&e))?;
        SearchParams::parse(&text).map_err(|e| at(&e))
    }

    /// `DEFAULT` with the lines of `text` applied.
    pub fn parse(text: &str) -> Result<SearchParams, ParamsError> {
        let mut p = SearchParams::DEFAULT;
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |why: &str| ParamsError(format!("line {}: {why}: `{line}`", n + 1));
            let (name, value) = line.split_once('=').ok_or_else(|| err("no `=`"))?;
            let name = name.trim();
            let value: i32 = value
                .trim()
                .parse()
                .map_err(|_| err("the value is not an integer"))?;
            let (lo, hi) = SearchParams::range(name);
            if !(lo..=hi).contains(&value) {
                return Err(err(&format!("out of range {lo}..={hi}")));
            }
            *p.slot(name).ok_or_else(|| err("unknown name"))? = value;
        }
        Ok(p)
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

impl fmt::Display for SearchParams {
    /// Every number as a `name = value` line, readable by `parse`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for name in SearchParams::names() {
            writeln!(f, "{name} = {}", self.get(&name).unwrap_or_default())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_has_a_slot_and_the_text_form_round_trips() {
        let mut p = SearchParams::DEFAULT;
        for name in SearchParams::names() {
            // One step inside the range.
            let (_, hi) = SearchParams::range(&name);
            let step = |v: &mut i32| *v = if *v < hi { *v + 1 } else { *v - 1 };
            step(
                p.slot(&name)
                    .unwrap_or_else(|| panic!("{name} has no slot")),
            );
            let mut other = SearchParams::DEFAULT;
            step(other.slot(&name).expect("a slot"));
            assert_ne!(other, SearchParams::DEFAULT, "{name} changes nothing");
        }
        assert_ne!(p, SearchParams::DEFAULT);
        assert_eq!(SearchParams::parse(&p.to_string()), Ok(p));
        assert_eq!(
            SearchParams::parse(&SearchParams::DEFAULT.to_string()),
            Ok(SearchParams::DEFAULT)
        );
    }

    #[test]
    fn a_partial_file_keeps_the_defaults_and_bad_lines_are_refused() {
        let p = SearchParams::parse("# tuned\nattack.5 = 31\n\nkiller.1=250 # note\n");
        let p = p.expect("valid text");
        assert_eq!(p.order.attack[5], 31);
        assert_eq!(p.killer, [400, 250]);
        assert_eq!(p.order.block, SearchParams::DEFAULT.order.block);
        for bad in [
            "attack.5 31",
            "attack.12 = 5",
            "nonsense = 1",
            "lmp_base = 0",
            "value_own = 257",
            "killer.0 = x",
        ] {
            let e = SearchParams::parse(bad).expect_err(bad);
            assert!(e.0.starts_with("line 1:"), "{e}");
        }
    }
}
