//! Everything printed or written for people: the per-game line and `summary.md`.

use crate::board::Side;
use crate::elo::{self, Tally};
use crate::ratings::{self, NoList, Rating};
use crate::record::{GameRecord, Reason, SideReport};
use std::fmt::Write;

/// `3.2M`-style counts, so a line stays readable at any table size.
pub fn short_count(n: u64) -> String {
    let f = n as f64;
    if n < 1000 {
        n.to_string()
    } else if n < 1_000_000 {
        format!("{:.1}k", f / 1e3)
    } else if n < 1_000_000_000 {
        format!("{:.1}M", f / 1e6)
    } else {
        format!("{:.1}G", f / 1e9)
    }
}

fn tt_part(name: &str, r: &SideReport) -> String {
    match &r.tt {
        Some(tt) => format!(
            "{name} tt hit {:.1}% probes {} collisions {}",
            tt.hit_rate,
            short_count(tt.probes),
            tt.collisions
        ),
        None => format!("{name} tt n/a"),
    }
}

/// The line printed when a game finishes, e.g.
/// `game 7/24  wuzi (black) vs wuzi-nott  1-0  five, 37 moves | wuzi tt hit 42.1% … | wuzi-nott tt n/a`.
pub fn game_line(r: &GameRecord, total: usize) -> String {
    let mut how = r.reason.to_string();
    if !r.detail.is_empty() {
        let detail: String = r.detail.chars().take(60).collect();
        how.push_str(&format!(" ({detail})"));
    }
    format!(
        "game {}/{}  {} (black) vs {}  {}  {}, {} moves | {} | {}",
        r.game,
        total,
        r.black,
        r.white,
        r.outcome,
        how,
        r.moves,
        tt_part(&r.black, &r.black_report),
        tt_part(&r.white, &r.white_report)
    )
}

/// Totals over a set of finished games.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Engine names, config order.
    pub engines: Vec<String>,
    /// Each engine's results against the field.
    pub tally: Vec<Tally>,
    /// `pair[i][j]`: engine i's results against engine j.
    pub pair: Vec<Vec<Tally>>,
    /// Losses of each engine by failure reason (and both-failed draws).
    pub failures: Vec<Vec<(Reason, u32)>>,
    /// Games ended by each reason.
    pub reasons: Vec<(Reason, u32)>,
    /// Table statistics per engine.
    pub tt: Vec<TtSummary>,
    /// Games counted.
    pub games: usize,
    /// Largest peak resident memory of each engine over its games, KiB (`None`: not measured).
    pub peak_kib: Vec<Option<u64>>,
    /// Renju fouls committed by each engine (as black), by kind.
    pub fouls: Vec<Vec<(Reason, u32)>>,
    /// Whether the games were renju: the fouls section is then printed even when empty.
    pub renju: bool,
    /// Each engine's own time limits (`EngineSpec::odds`), config order; empty, or every
    /// entry `None`, when all play under the tournament's. The standings then have no
    /// time column.
    pub odds: Vec<Option<String>>,
}

/// What the rating list is, printed above it (summary and report).
pub const RATINGS_NOTE: &str = "Every game fitted at once (Bradley–Terry on the logistic Elo \
     curve, as BayesElo and Ordo rate a round robin), so a rating counts whom the points came \
     from; the mean is 0, one virtual draw per pairing keeps a clean sweep finite, and ± is \
     the 95 % interval of each rating against that mean.";

/// Why there is no rating list, in words.
pub fn no_list_text(why: NoList) -> &'static str {
    match why {
        NoList::TooFewGames => "No rating list yet: fewer than two engines have played.",
        NoList::NotConnected => {
            "No rating list: the engines fall into groups that never met, so their ratings \
             share no scale."
        }
    }
}

/// One engine's transposition-table figures over the games where it printed a table line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TtSummary {
    /// Games with a table line.
    pub games: u32,
    /// Mean of the per-game hit rates, percent.
    pub mean_hit_rate: f64,
    /// Total hits / total probes over those games, percent.
    pub pooled_hit_rate: f64,
    /// Total probes.
    pub probes: u64,
    /// Total collisions.
    pub collisions: u64,
}

/// Largest peak resident memory over an engine's games, KiB.
fn peak_memory(records: &[GameRecord], name: &str) -> Option<u64> {
    records
        .iter()
        .filter_map(|r| r.side_of(name).and_then(|side| r.side(side).peak_rss_kib))
        .max()
}

impl Summary {
    /// Adds up `records` for the engines named (games of other engines are ignored).
    pub fn new(engines: &[String], records: &[GameRecord]) -> Summary {
        let n = engines.len();
        let mut tally = vec![Tally::default(); n];
        let mut pair = vec![vec![Tally::default(); n]; n];
        let mut failures = vec![Vec::<(Reason, u32)>::new(); n];
        let mut fouls = vec![Vec::<(Reason, u32)>::new(); n];
        let mut reasons = Vec::<(Reason, u32)>::new();
        let mut hit_sum = vec![0.0f64; n];
        let mut tt = vec![TtSummary::default(); n];
        let mut hits = vec![0u64; n];
        let find = |name: &str| engines.iter().position(|e| e == name);
        let mut games = 0;
        for r in records {
            let (Some(b), Some(w)) = (find(&r.black), find(&r.white)) else {
                continue;
            };
            games += 1;
            bump(&mut reasons, r.reason);
            for (me, other, side) in [(b, w, Side::Black), (w, b, Side::White)] {
                let points = r.outcome.points(side);
                let t = &mut tally[me];
                let p = &mut pair[me][other];
                if points == 1.0 {
                    t.wins += 1;
                    p.wins += 1;
                } else if points == 0.0 {
                    t.losses += 1;
                    p.losses += 1;
                    if r.reason.is_failure() {
                        bump(&mut failures[me], r.reason);
                    }
                    if r.reason.is_foul() {
                        bump(&mut fouls[me], r.reason);
                    }
                } else {
                    t.draws += 1;
                    p.draws += 1;
                    if r.reason.is_failure() {
                        bump(&mut failures[me], r.reason);
                    }
                }
                if let Some(s) = &r.side(side).tt {
                    tt[me].games += 1;
                    tt[me].probes += s.probes;
                    tt[me].collisions += s.collisions;
                    hits[me] += s.hits;
                    hit_sum[me] += s.hit_rate;
                }
            }
        }
        for i in 0..n {
            if tt[i].games > 0 {
                tt[i].mean_hit_rate = hit_sum[i] / f64::from(tt[i].games);
            }
            if tt[i].probes > 0 {
                tt[i].pooled_hit_rate = 100.0 * hits[i] as f64 / tt[i].probes as f64;
            }
        }
        for f in failures.iter_mut().chain(fouls.iter_mut()) {
            f.sort();
        }
        reasons.sort();
        let peak_kib = engines.iter().map(|e| peak_memory(records, e)).collect();
        Summary {
            peak_kib,
            engines: engines.to_vec(),
            tally,
            pair,
            failures,
            reasons,
            tt,
            games,
            fouls,
            renju: false,
            odds: Vec::new(),
        }
    }

    /// Renju fouls committed by engine `i`, all kinds.
    pub fn foul_count(&self, i: usize) -> u32 {
        self.fouls[i].iter().map(|(_, n)| n).sum()
    }

    /// Whether some engine has time limits of its own (the standings then show them).
    pub fn has_odds(&self) -> bool {
        self.odds.iter().any(Option::is_some)
    }

    /// Engine `i`'s time odds as the standings print them: its own limits, or `—` when it
    /// plays under the tournament's.
    pub fn odds_of(&self, i: usize) -> &str {
        self.odds.get(i).and_then(Option::as_deref).unwrap_or("—")
    }

    /// The rating list (`ratings::fit` on every pairing's games), best first, for a field of
    /// three or more engines (with two, the standings already give it); `Err` when the
    /// games cannot put the engines on one scale.
    pub fn rating_list(&self) -> Option<Result<Vec<(usize, Rating)>, NoList>> {
        if self.engines.len() < 3 {
            return None;
        }
        Some(ratings::fit(&self.pair).map(|list| {
            let mut rated: Vec<(usize, Rating)> = list
                .into_iter()
                .enumerate()
                .filter_map(|(i, r)| Some((i, r?)))
                .collect();
            rated.sort_by(|a, b| b.1.elo.total_cmp(&a.1.elo));
            rated
        }))
    }

    /// Engine indices by points, best first (ties keep config order).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| self.tally[b].points().total_cmp(&self.tally[a].points()));
        order
    }

    /// The Markdown report; `header` lines go first (config, conditions).
    pub fn markdown(&self, header: &[String], total: usize) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Tournament summary\n");
        for h in header {
            let _ = writeln!(s, "- {h}");
        }
        let _ = writeln!(s, "- games played: {} of {total}\n", self.games);

        let order = self.ranking();
        let _ = writeln!(s, "## Standings\n");
        let odds = self.has_odds();
        let _ = writeln!(
            s,
            "| # | engine |{} games | wins | draws | losses | points | score | Elo (95 %) |",
            if odds { " time odds |" } else { "" }
        );
        let _ = writeln!(
            s,
            "|---|---|{}---|---|---|---|---|---|---|",
            if odds { "---|" } else { "" }
        );
        for (rank, &i) in order.iter().enumerate() {
            let t = self.tally[i];
            let pct = t
                .fraction()
                .map_or("n/a".to_string(), |p| format!("{:.1}%", 100.0 * p));
            let time = if odds {
                format!(" {} |", self.odds_of(i))
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "| {} | {} |{time} {} | {} | {} | {} | {} | {} | {} |",
                rank + 1,
                self.engines[i],
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                t.points(),
                pct,
                elo::format(elo::estimate(t))
            );
        }

        match self.rating_list() {
            Some(Ok(list)) => {
                let _ = writeln!(s, "\n## Ratings\n\n{RATINGS_NOTE}\n");
                let _ = writeln!(s, "| # | engine | Elo | 95 % | games |");
                let _ = writeln!(s, "|---|---|---|---|---|");
                for (rank, (i, r)) in list.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "| {} | {} | {:+.0} | ± {:.0} | {} |",
                        rank + 1,
                        self.engines[*i],
                        r.elo + 0.0,
                        r.margin,
                        self.tally[*i].games()
                    );
                }
            }
            Some(Err(why)) => {
                let _ = writeln!(s, "\n## Ratings\n\n{}", no_list_text(why));
            }
            None => {}
        }

        let _ = writeln!(s, "\n## Crosstable\n");
        let _ = writeln!(
            s,
            "Points of the row engine against the column engine, out of the games they played.\n"
        );
        let mut head = "| engine |".to_string();
        let mut rule = "|---|".to_string();
        for &j in &order {
            head.push_str(&format!(" {} |", self.engines[j]));
            rule.push_str("---|");
        }
        let _ = writeln!(s, "{head}\n{rule}");
        for &i in &order {
            let mut row = format!("| {} |", self.engines[i]);
            for &j in &order {
                let t = self.pair[i][j];
                if i == j {
                    row.push_str(" — |");
                } else if t.games() == 0 {
                    row.push_str(" |");
                } else {
                    row.push_str(&format!(" {}/{} |", t.points(), t.games()));
                }
            }
            let _ = writeln!(s, "{row}");
        }

        let _ = writeln!(s, "\n## Pairwise Elo (row engine vs column engine, 95 %)\n");
        let _ = writeln!(s, "{head}\n{rule}");
        for &i in &order {
            let mut row = format!("| {} |", self.engines[i]);
            for &j in &order {
                if i == j {
                    row.push_str(" — |");
                } else {
                    row.push_str(&format!(
                        " {} |",
                        elo::format(elo::estimate(self.pair[i][j]))
                    ));
                }
            }
            let _ = writeln!(s, "{row}");
        }

        let _ = writeln!(s, "\n## How games ended\n");
        let _ = writeln!(s, "| reason | games |\n|---|---|");
        for (r, n) in &self.reasons {
            let _ = writeln!(s, "| {r} | {n} |");
        }

        let _ = writeln!(s, "\n## Failures by engine\n");
        let any = self.failures.iter().any(|f| !f.is_empty());
        if any {
            let _ = writeln!(s, "| engine | reason | games lost |\n|---|---|---|");
            for &i in &order {
                for (r, n) in &self.failures[i] {
                    let _ = writeln!(s, "| {} | {r} | {n} |", self.engines[i]);
                }
            }
        } else {
            let _ = writeln!(s, "None: every game ended on the board.");
        }

        let total_fouls: u32 = (0..self.engines.len()).map(|i| self.foul_count(i)).sum();
        if self.renju || total_fouls > 0 {
            let _ = writeln!(s, "\n## Renju fouls\n");
            let _ = writeln!(
                s,
                "Forbidden moves by black (double three, double four, overline), each a lost \
                 game: {total_fouls} in all.\n"
            );
            if total_fouls > 0 {
                let _ = writeln!(s, "| engine | foul | games lost |\n|---|---|---|");
                for &i in &order {
                    for (r, n) in &self.fouls[i] {
                        let _ = writeln!(s, "| {} | {r} | {n} |", self.engines[i]);
                    }
                }
            }
        }

        let _ = writeln!(s, "\n## Transposition table\n");
        let _ = writeln!(
            s,
            "From each engine's last `MESSAGE tt …` line of every game (counters since `START`); \
             peak memory is the largest resident set of the engine process at the end of a game.\n"
        );
        let _ = writeln!(
            s,
            "| engine | games with tt | mean hit rate | pooled hit rate | probes | collisions | peak memory |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|");
        for &i in &order {
            let t = self.tt[i];
            let peak = self.peak_kib[i].map_or("n/a".to_string(), |k| {
                format!("{:.1} MiB", k as f64 / 1024.0)
            });
            if t.games == 0 {
                let _ = writeln!(
                    s,
                    "| {} | 0 | n/a | n/a | n/a | n/a | {peak} |",
                    self.engines[i]
                );
            } else {
                let _ = writeln!(
                    s,
                    "| {} | {} | {:.1}% | {:.1}% | {} | {} | {peak} |",
                    self.engines[i],
                    t.games,
                    t.mean_hit_rate,
                    t.pooled_hit_rate,
                    short_count(t.probes),
                    t.collisions
                );
            }
        }

        let _ = writeln!(s, "\n## Elo model\n");
        let _ = writeln!(
            s,
            "Logistic Elo from the score fraction p (wins + draws/2 over games): \
             Elo = -400·log10(1/p − 1). The 95 % interval is a Wilson-type score interval \
             for win/draw/loss scores: every true score q with (p − q)² ≤ 1.96²·v(q)/n, where \
             v(q) = q(1 − q) − d/4 is the per-game score variance at q with the observed draw \
             ratio d; it is mapped through the same curve and ± is half its width in Elo. It \
             stays finite for any score strictly between 0 % and 100 %; at 100 % (0 %) the Elo \
             is unbounded and `≥ x` (`≤ x`) gives the interval's finite end. Standings rate \
             each engine against the field of opponents it met."
        );
        s
    }
}

fn bump(v: &mut Vec<(Reason, u32)>, r: Reason) {
    match v.iter_mut().find(|(k, _)| *k == r) {
        Some((_, n)) => *n += 1,
        None => v.push((r, 1)),
    }
}
