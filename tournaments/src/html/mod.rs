//! `report.html`: the whole tournament in one self-contained page (inline CSS, JavaScript and
//! SVG; nothing is fetched, so it opens from a file on a machine without network).
//!
//! The tables and the TT chart are rendered here; the page's script only replays games. Every
//! game's stones and its engines' `MESSAGE` lines travel as one JSON block in the page. The
//! replay reads its starting point from the URL fragment, `#g=<game>&m=<stones shown>`, and
//! `&press=next,prev,…` presses the replay buttons (or, for `ArrowRight`-style names, the
//! keys) in order after loading, which is how the browser test steps through a game.

mod games;
#[cfg(test)]
mod tests;

use crate::config::{game_clock_text, named_odds, Config};
use crate::elo;
use crate::fingerprint::Fingerprint;
use crate::record::GameRecord;
use crate::report::{no_list_text, Summary, RATINGS_NOTE};
use crate::sprt::{Decision, Tracker};
use games::{replay, tt_chart};
use std::fmt::Write;

/// Colours of the engines' lines in the chart, in config order (cycled).
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// Games whose `MESSAGE` lines are embedded for the replay (the rest keep stones and times),
/// so that a test of thousands of games still gives a page a browser opens quickly.
pub const MESSAGE_GAMES: usize = 400;

/// The page's style sheet (`report.css`, inlined).
const CSS: &str = include_str!("report.css");

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// What the page says of the games' conditions: a run's from its config, a merge's from the
/// journals' fingerprint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    /// The page's title.
    pub title: String,
    /// Side of the board.
    pub board_size: usize,
    /// `INFO rule` bits.
    pub rule_bits: u32,
    /// Per-move limit in ms.
    pub timeout_turn_ms: u64,
    /// The game clock as the summary prints it (`none` or `N ms`).
    pub game_clock: String,
    /// Stones at which a game is drawn.
    pub draw_after_moves: usize,
    /// The engines with time limits of their own, as `name: text`.
    pub odds: Vec<String>,
    /// Games in the schedule, when known: the page then says how many are still to play.
    pub total: Option<usize>,
}

impl Conditions {
    /// A run's conditions, titled by its config file.
    pub fn of_config(config: &Config) -> Conditions {
        let s = &config.settings;
        Conditions {
            title: format!("Tournament: {}", config.path.display()),
            board_size: s.board_size,
            rule_bits: s.rule_bits,
            timeout_turn_ms: s.timeout_turn_ms,
            game_clock: s.game_clock(),
            draw_after_moves: s.draw_after_moves,
            odds: named_odds(&config.engine_names(), &config.engine_odds()),
            total: None,
        }
    }

    /// The conditions a fingerprint records (`None` if it lacks one of them).
    pub fn of_fingerprint(fp: &Fingerprint, title: String) -> Option<Conditions> {
        Some(Conditions {
            title,
            board_size: fp.get_parsed("board_size")?,
            rule_bits: fp.get_parsed("rule")?,
            timeout_turn_ms: fp.get_parsed("timeout_turn_ms")?,
            game_clock: game_clock_text(fp.get_parsed("timeout_match_ms")?),
            draw_after_moves: fp.get_parsed("draw_after_moves")?,
            odds: named_odds(&fp.engine_names(), &fp.engine_odds()),
            total: fp.total_games(),
        })
    }
}

/// The page for a finished (or partly played) tournament; `records` in game order, `sprt`
/// the test's state when the config has `[sprt]`.
pub fn report(
    s: &Conditions,
    records: &[GameRecord],
    summary: &Summary,
    sprt: Option<&Tracker>,
) -> String {
    let mut page = String::new();
    let title = &s.title;
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    let played = match s.total {
        Some(total) => format!("{} of {total} games played", summary.games),
        None => format!("{} games played", summary.games),
    };
    let _ = writeln!(
        page,
        "<p class=\"conditions\">board {0}×{0}, rule {1}, {2} ms per move, game clock {3}, \
         draw at {4} stones; {played}.</p>",
        s.board_size, s.rule_bits, s.timeout_turn_ms, s.game_clock, s.draw_after_moves,
    );
    if !s.odds.is_empty() {
        let _ = writeln!(
            page,
            "<p class=\"conditions\">Time odds: {}.</p>",
            escape(&s.odds.join("; "))
        );
    }
    if let Some(t) = sprt {
        sprt_section(&mut page, t);
    }
    standings(&mut page, summary);
    rating_list(&mut page, summary);
    crosstable(&mut page, summary);
    endings(&mut page, summary);
    tt_chart(&mut page, summary, records);
    replay(&mut page, s.board_size, records);
    page.push_str("</body>\n</html>\n");
    page
}

fn sprt_section(page: &mut String, t: &Tracker) {
    let verdict = match t.decision {
        Some((Decision::H1, _)) => "H1 accepted",
        Some((Decision::H0, _)) => "H0 accepted",
        Some((Decision::MaxGames, _)) => "max_games reached, no decision",
        None => "undecided (--resume continues)",
    };
    let _ = writeln!(
        page,
        "<h2>SPRT</h2>\n<p id=\"sprt\"><b>{}</b></p>\n<pre>{}</pre>\n\
         <table id=\"penta\"><tr><th>A's points per pair</th><th>0</th><th>½</th><th>1</th>\
         <th>1½</th><th>2</th></tr>\n<tr><td>pairs</td><td>{}</td><td>{}</td><td>{}</td>\
         <td>{}</td><td>{}</td></tr></table>",
        escape(verdict),
        escape(&t.line()),
        t.penta[0],
        t.penta[1],
        t.penta[2],
        t.penta[3],
        t.penta[4]
    );
    for paragraph in t.repeat_note() {
        let _ = writeln!(page, "<p class=\"repeat\">{}</p>", escape(&paragraph));
    }
}

fn standings(page: &mut String, sm: &Summary) {
    let odds = sm.has_odds();
    let _ = writeln!(
        page,
        "<h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>#</th><th>engine</th>{}\
         <th>games</th><th>wins</th><th>draws</th><th>losses</th><th>points</th><th>score</th>\
         <th>Elo</th><th>95 % interval</th></tr>",
        if odds { "<th>time odds</th>" } else { "" }
    );
    for (rank, &i) in sm.ranking().iter().enumerate() {
        let t = sm.tally[i];
        let score = t
            .fraction()
            .map_or("n/a".to_string(), |p| format!("{:.1} %", 100.0 * p));
        let e = elo::estimate(t);
        let interval = e.map_or("n/a".to_string(), |e| {
            format!(
                "{} … {}",
                signed(e.elo - e.margin),
                signed(e.elo + e.margin)
            )
        });
        let time = if odds {
            format!("<td>{}</td>", escape(sm.odds_of(i)))
        } else {
            String::new()
        };
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{}</td>{time}<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{score}</td><td>{}</td><td>{interval}</td></tr>",
            rank + 1,
            escape(&sm.engines[i]),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            escape(&elo::format(e)),
        );
    }
    page.push_str("</table>\n");
}

/// The rating list (`Summary::rating_list`), for a field of three or more.
fn rating_list(page: &mut String, sm: &Summary) {
    let Some(list) = sm.rating_list() else {
        return;
    };
    page.push_str("<h2>Ratings</h2>\n");
    let list = match list {
        Ok(list) => list,
        Err(why) => {
            let _ = writeln!(page, "<p>{}</p>", escape(no_list_text(why)));
            return;
        }
    };
    let _ = writeln!(
        page,
        "<p>{}</p>\n<table id=\"ratings\">\n<tr><th>#</th><th>engine</th><th>Elo</th>\
         <th>95 %</th><th>games</th></tr>",
        escape(RATINGS_NOTE)
    );
    for (rank, (i, r)) in list.iter().enumerate() {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>± {:.0}</td><td>{}</td></tr>",
            rank + 1,
            escape(&sm.engines[*i]),
            signed(r.elo),
            r.margin,
            sm.tally[*i].games()
        );
    }
    page.push_str("</table>\n");
}

fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{:+.0}", x.round() + 0.0)
    } else if x > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

fn crosstable(page: &mut String, sm: &Summary) {
    let order = sm.ranking();
    page.push_str(
        "<h2>Crosstable</h2>\n<p>Points of the row engine against the column engine, with \
         the pairwise Elo.</p>\n<table id=\"crosstable\">\n<tr><th>engine</th>",
    );
    for &j in &order {
        let _ = write!(page, "<th>{}</th>", escape(&sm.engines[j]));
    }
    page.push_str("</tr>\n");
    for &i in &order {
        let _ = write!(page, "<tr><th>{}</th>", escape(&sm.engines[i]));
        for &j in &order {
            let t = sm.pair[i][j];
            if i == j {
                page.push_str("<td class=\"self\">—</td>");
            } else if t.games() == 0 {
                page.push_str("<td></td>");
            } else {
                let _ = write!(
                    page,
                    "<td>{}/{}<br><small>{}</small></td>",
                    t.points(),
                    t.games(),
                    escape(&elo::format(elo::estimate(t)))
                );
            }
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
}

fn endings(page: &mut String, sm: &Summary) {
    page.push_str(
        "<h2>How games ended</h2>\n<table id=\"endings\">\n<tr><th>reason</th><th>games</th></tr>\n",
    );
    for (r, n) in &sm.reasons {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{n}</td></tr>",
            escape(&r.to_string())
        );
    }
    page.push_str("</table>\n");
    let any = sm.failures.iter().any(|f| !f.is_empty());
    if any {
        page.push_str(
            "<table id=\"failures\">\n<tr><th>engine</th><th>failure</th><th>games lost</th></tr>\n",
        );
        for (i, f) in sm.failures.iter().enumerate() {
            for (r, n) in f {
                let _ = writeln!(
                    page,
                    "<tr><td>{}</td><td>{}</td><td>{n}</td></tr>",
                    escape(&sm.engines[i]),
                    escape(&r.to_string())
                );
            }
        }
        page.push_str("</table>\n");
    } else {
        page.push_str("<p>No failures: every game ended on the board.</p>\n");
    }
}
