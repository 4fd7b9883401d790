//! `report.html`: the whole tournament in one self-contained page (inline CSS, JavaScript and
//! SVG; nothing is fetched, so it opens from a file on a machine without network).
//!
//! The tables and the TT chart are rendered here; the page's script only replays games. Every
//! game's stones and its engines' `MESSAGE` lines travel as one JSON block in the page. The
//! replay reads its starting point from the URL fragment, `#g=<game>&m=<stones shown>`, and
//! `&press=next,prev,…` presses the replay buttons (or, for `ArrowRight`-style names, the
//! keys) in order after loading, which is how the browser test steps through a game.

use crate::board::Side;
use crate::config::{game_clock_text, named_odds, Config};
use crate::elo;
use crate::fingerprint::Fingerprint;
use crate::record::GameRecord;
use crate::report::{no_list_text, short_count, Summary, RATINGS_NOTE};
use crate::sgf;
use crate::sprt::{Decision, Tracker};
use serde_json::json;
use std::fmt::Write;

/// Colours of the engines' lines in the chart, in config order (cycled).
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// Games whose `MESSAGE` lines are embedded for the replay (the rest keep stones and times),
/// so that a test of thousands of games still gives a page a browser opens quickly.
pub const MESSAGE_GAMES: usize = 400;

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
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
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

/// One line per engine through its per-game hit rates (the last `MESSAGE tt` line of each
/// game), game number on the x axis.
fn tt_chart(page: &mut String, sm: &Summary, records: &[GameRecord]) {
    let (w, h) = (760.0f64, 260.0f64);
    let (left, right, top, bottom) = (48.0, 16.0, 12.0, 36.0);
    let last = records.iter().map(|r| r.game).max().unwrap_or(1).max(2) as f64;
    let px = |game: usize| left + (game as f64 - 1.0) / (last - 1.0) * (w - left - right);
    let py = |rate: f64| top + (1.0 - rate.clamp(0.0, 100.0) / 100.0) * (h - top - bottom);
    page.push_str(
        "<h2>Transposition table hit rate per game</h2>\n<p>Each engine's last \
         <code>MESSAGE tt</code> line of each game (counters since <code>START</code>); \
         engines that print none have no line.</p>\n",
    );
    let _ = writeln!(
        page,
        "<svg id=\"tt-chart\" class=\"chart\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
         aria-label=\"TT hit rate per game\">"
    );
    for pct in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let y = py(pct);
        let _ = writeln!(
            page,
            "<line x1=\"{left}\" x2=\"{}\" y1=\"{y:.1}\" y2=\"{y:.1}\" class=\"grid\"/>\
             <text x=\"{}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"end\">{pct}%</text>",
            w - right,
            left - 6.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        page,
        "<text x=\"{:.1}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"middle\">game</text>\
         <text x=\"{left}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"middle\">1</text>\
         <text x=\"{:.1}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"middle\">{last}</text>",
        (left + w - right) / 2.0,
        h - 4.0,
        h - bottom + 16.0,
        w - right,
        h - bottom + 16.0,
    );
    let mut legend = String::new();
    for (i, name) in sm.engines.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let points: Vec<(usize, f64)> = records
            .iter()
            .filter_map(|r| {
                let side = r.side_of(name)?;
                Some((r.game, r.side(side).tt.as_ref()?.hit_rate))
            })
            .collect();
        let _ = write!(
            legend,
            "<span class=\"key\"><i style=\"background:{colour}\"></i>{} ({} games)</span> ",
            escape(name),
            points.len()
        );
        if points.is_empty() {
            continue;
        }
        let path: Vec<String> = points
            .iter()
            .map(|&(g, r)| format!("{:.1},{:.1}", px(g), py(r)))
            .collect();
        let _ = writeln!(
            page,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" \
             data-engine=\"{}\"/>",
            path.join(" "),
            escape(name)
        );
        for &(g, r) in &points {
            let _ = writeln!(
                page,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\" class=\"tt-point\" \
                 data-engine=\"{}\" data-game=\"{g}\" data-rate=\"{r}\"><title>{} game {g}: \
                 {r:.1}%</title></circle>",
                px(g),
                py(r),
                escape(name),
                escape(name)
            );
        }
    }
    page.push_str("</svg>\n");
    let _ = writeln!(page, "<p class=\"legend\">{legend}</p>");
    page.push_str(
        "<table id=\"tt\">\n<tr><th>engine</th><th>games with tt</th><th>mean hit rate</th>\
         <th>pooled hit rate</th><th>probes</th><th>collisions</th></tr>\n",
    );
    for (i, name) in sm.engines.iter().enumerate() {
        let t = sm.tt[i];
        if t.games == 0 {
            let _ = writeln!(
                page,
                "<tr><td>{}</td><td>0</td><td>n/a</td><td>n/a</td><td>n/a</td><td>n/a</td></tr>",
                escape(name)
            );
        } else {
            let _ = writeln!(
                page,
                "<tr><td>{}</td><td>{}</td><td>{:.1} %</td><td>{:.1} %</td><td>{}</td><td>{}</td></tr>",
                escape(name),
                t.games,
                t.mean_hit_rate,
                t.pooled_hit_rate,
                short_count(t.probes),
                t.collisions
            );
        }
    }
    page.push_str("</table>\n");
}

fn replay(page: &mut String, board_size: usize, records: &[GameRecord]) {
    page.push_str("<h2>Games</h2>\n<table id=\"games\">\n<tr><th>game</th><th>black</th><th>white</th><th>result</th><th>how</th><th>stones</th><th></th></tr>\n");
    for r in records {
        let _ = writeln!(
            page,
            "<tr><td>{0}</td><td>{1}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>{5}</td>\
             <td><a href=\"#g={0}&amp;m={5}\">replay</a></td></tr>",
            r.game,
            escape(&r.black),
            escape(&r.white),
            r.outcome,
            escape(&sgf::termination(r)),
            r.plies.len()
        );
    }
    page.push_str("</table>\n");
    page.push_str(
        "<h2 id=\"replay\">Replay</h2>\n<div class=\"replay\">\n<div>\n<div class=\"controls\">\
         <select id=\"game\" aria-label=\"game\"></select>\
         <button id=\"first\" title=\"first (Home)\">|&lt;</button>\
         <button id=\"prev\" title=\"previous (←)\">&lt;</button>\
         <button id=\"next\" title=\"next (→)\">&gt;</button>\
         <button id=\"last\" title=\"last (End)\">&gt;|</button>\
         <span id=\"pos\"></span></div>\n\
         <p id=\"players\"></p>\n\
         <svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n\
         <div id=\"current\"></div>\n\
         <p class=\"caption\">TT hit rate after each move of this game (from the mover's \
         <code>MESSAGE tt</code> line; black ●, white ○):</p>\n\
         <svg id=\"game-tt\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n\
         </div>\n<ol id=\"moves\"></ol>\n</div>\n",
    );
    if records.len() > MESSAGE_GAMES {
        let _ = writeln!(
            page,
            "<p>The replay shows the engines' <code>MESSAGE</code> lines for the first \
             {MESSAGE_GAMES} games only, to keep this page small; every game's SGF in \
             <code>games/</code> has them all.</p>"
        );
    }
    let none: Vec<String> = Vec::new();
    let games: Vec<serde_json::Value> = records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let plies: Vec<serde_json::Value> = r
                .plies
                .iter()
                .map(|p| {
                    let msg = if i < MESSAGE_GAMES { &p.msg } else { &none };
                    json!([p.x, p.y, p.ms, msg])
                })
                .collect();
            json!({
                "n": r.game,
                "black": r.black,
                "white": r.white,
                "result": r.outcome.to_string(),
                "how": sgf::termination(r),
                "detail": r.detail,
                "open": r.opening_stones,
                "tt": [tt_of(r, Side::Black), tt_of(r, Side::White)],
                "plies": plies,
            })
        })
        .collect();
    let data = json!({ "size": board_size, "games": games });
    // `</script>` or `<!--` inside a script element would change how the page parses; `<`
    // only occurs inside JSON strings, where `\u003c` is the same character.
    let text = data.to_string().replace('<', "\\u003c");
    let _ = writeln!(
        page,
        "<script type=\"application/json\" id=\"data\">{text}</script>\n<script>{SCRIPT}</script>"
    );
}

fn tt_of(r: &GameRecord, side: Side) -> Option<f64> {
    r.side(side).tt.as_ref().map(|t| t.hit_rate)
}

const CSS: &str = r#"
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; background: #fafafa; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; background: #fff; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:nth-child(2) { text-align: left; }
#crosstable th { text-align: left; } td.self { color: #aaa; text-align: center; }
#games td:nth-child(2), #games td:nth-child(3), #games td:nth-child(5) { text-align: left; }
.chart { width: 100%; max-width: 760px; background: #fff; border: 1px solid #ccc; }
.chart .grid { stroke: #e4e4e4; } .chart .axis { font-size: 11px; fill: #555; }
.legend .key { margin-right: 1.2em; white-space: nowrap; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
.replay { display: flex; gap: 1.5em; align-items: flex-start; }
.controls button { min-width: 2.6em; margin-right: 2px; } .controls select { margin-right: .6em; }
#pos { margin-left: .6em; font-variant-numeric: tabular-nums; }
#board { width: 560px; max-width: 92vw; background: #e3b66b; border-radius: 4px; }
#board line { stroke: #5a4020; stroke-width: 1; } #board .label { font-size: 9px; fill: #5a4020; }
#board .stone.b { fill: #111; } #board .stone.w { fill: #fdfdfd; stroke: #333; }
#board .num { font-size: 9px; text-anchor: middle; pointer-events: none; }
#board .num.b { fill: #eee; } #board .num.w { fill: #222; }
#board .lastmark { fill: none; stroke: #d62728; stroke-width: 2; }
#game-tt { max-width: 560px; } #game-tt .move-tt.b { fill: #111; } #game-tt .move-tt.w { fill: #fff; stroke: #555; }
#game-tt .now { stroke: #d62728; stroke-width: 1.5; } .caption { font-size: 12px; margin: .6em 0 .2em; color: #555; }
#current { font-family: ui-monospace, monospace; font-size: 12px; margin-top: .5em; max-width: 560px; white-space: pre-wrap; }
#moves { font-family: ui-monospace, monospace; font-size: 12px; max-height: 640px; overflow-y: auto;
  margin: 0; padding-left: 3.2em; background: #fff; border: 1px solid #ccc; flex: 1 1 0; min-width: 20em; max-width: 60em;
  position: relative; }
#moves li { padding: 1px 4px; cursor: pointer; white-space: pre-wrap; }
#moves li.opening { color: #888; } #moves li.now { background: #ffe9a8; }
"#;

const SCRIPT: &str = r##"
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("data").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const board = document.getElementById("board");
  const select = document.getElementById("game");
  const list = document.getElementById("moves");
  let gi = 0, shown = 0;
  if (D.games.length === 0) { document.getElementById("pos").textContent = "no games"; return; }
  D.games.forEach(function (g, i) {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = "game " + g.n + ": " + g.black + " – " + g.white + " " + g.result;
    select.appendChild(o);
  });
  function letter(i) { return i < 26 ? String.fromCharCode(97 + i) : String.fromCharCode(65 + i - 26); }
  function cell(p) { return letter(p[0]) + (p[1] + 1); }
  function svg(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fillList() {
    const g = D.games[gi];
    list.replaceChildren();
    g.plies.forEach(function (p, i) {
      const li = document.createElement("li");
      const who = i % 2 === 0 ? "B" : "W";
      const said = p[3].length ? "  " + p[3].join("  ·  ") : "";
      li.textContent = who + " " + cell(p) + (i < g.open ? "  opening" : "  " + p[2] + " ms" + said);
      if (i < g.open) li.className = "opening";
      li.addEventListener("click", function () { go(i + 1); });
      list.appendChild(li);
    });
    document.getElementById("players").textContent =
      "game " + g.n + ": " + g.black + " (black) vs " + g.white + " (white), " + g.result + ", " + g.how +
      (g.detail ? " (" + g.detail + ")" : "");
  }
  function draw() {
    const g = D.games[gi], n = D.size, step = 24, pad = 26, span = step * (n - 1);
    board.setAttribute("viewBox", "0 0 " + (span + 2 * pad) + " " + (span + 2 * pad));
    board.replaceChildren();
    for (let i = 0; i < n; i++) {
      const at = pad + i * step;
      board.appendChild(svg("line", { x1: pad, x2: pad + span, y1: at, y2: at }));
      board.appendChild(svg("line", { y1: pad, y2: pad + span, x1: at, x2: at }));
      board.appendChild(svg("text", { x: at, y: pad - 12, "text-anchor": "middle", class: "label" }, letter(i)));
      board.appendChild(svg("text", { x: pad - 14, y: at + 3, "text-anchor": "middle", class: "label" }, String(i + 1)));
    }
    for (let i = 0; i < shown; i++) {
      const p = g.plies[i], c = i % 2 === 0 ? "b" : "w";
      const cx = pad + p[0] * step, cy = pad + p[1] * step;
      board.appendChild(svg("circle", { cx: cx, cy: cy, r: step * 0.45, class: "stone " + c,
        "data-x": p[0], "data-y": p[1], "data-n": i + 1 }));
      board.appendChild(svg("text", { x: cx, y: cy + 3, class: "num " + c }, String(i + 1)));
      if (i === shown - 1) board.appendChild(svg("circle", { cx: cx, cy: cy, r: step * 0.52, class: "lastmark" }));
    }
    board.setAttribute("data-game", g.n);
    board.setAttribute("data-move", shown);
    document.getElementById("pos").textContent = "stone " + shown + " / " + g.plies.length;
    Array.prototype.forEach.call(list.children, function (li, i) { li.classList.toggle("now", i === shown - 1); });
    const now = list.children[shown - 1];
    // Scroll the list only (scrollIntoView would move the whole page).
    if (now) list.scrollTop = now.offsetTop - list.clientHeight / 2;
    moveChart(g);
    const cur = document.getElementById("current");
    if (shown === 0) { cur.textContent = "empty board"; return; }
    const p = g.plies[shown - 1];
    cur.textContent = (shown % 2 === 1 ? "black " : "white ") + cell(p) +
      (shown <= g.open ? " (opening)" : ", " + p[2] + " ms" + (p[3].length ? "\n" + p[3].join("\n") : ""));
  }
  function moveChart(g) {
    const chart = document.getElementById("game-tt"), w = 560, h = 140, l = 34, r = 8, t = 8, b = 18;
    chart.setAttribute("viewBox", "0 0 " + w + " " + h);
    chart.replaceChildren();
    const n = Math.max(g.plies.length, 2);
    const px = function (i) { return l + (i - 1) / (n - 1) * (w - l - r); };
    const py = function (v) { return t + (1 - v / 100) * (h - t - b); };
    [0, 50, 100].forEach(function (v) {
      chart.appendChild(svg("line", { x1: l, x2: w - r, y1: py(v), y2: py(v), class: "grid" }));
      chart.appendChild(svg("text", { x: l - 4, y: py(v) + 4, "text-anchor": "end", class: "axis" }, v + "%"));
    });
    [0, 1].forEach(function (side) {
      const pts = [];
      g.plies.forEach(function (p, i) {
        if (i < g.open || i % 2 !== side) return;
        for (const m of p[3]) {
          const hit = /hit_rate=([0-9.]+)%/.exec(m);
          if (hit) { pts.push([i + 1, Number(hit[1])]); break; }
        }
      });
      if (pts.length > 1) chart.appendChild(svg("polyline", { points: pts.map(function (q) { return px(q[0]) + "," + py(q[1]); }).join(" "),
        fill: "none", stroke: side === 0 ? "#111" : "#888", "stroke-width": 1 }));
      pts.forEach(function (q) {
        chart.appendChild(svg("circle", { cx: px(q[0]), cy: py(q[1]), r: 2.5, class: "move-tt " + (side === 0 ? "b" : "w"),
          "data-n": q[0], "data-rate": q[1] }));
      });
    });
    if (shown > 0) chart.appendChild(svg("line", { x1: px(shown), x2: px(shown), y1: t, y2: h - b, class: "now" }));
  }
  function go(m) { shown = Math.max(0, Math.min(m, D.games[gi].plies.length)); draw(); }
  function pick(i) { gi = i; select.value = String(i); fillList(); }
  select.addEventListener("change", function () { pick(Number(select.value)); go(D.games[gi].plies.length); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(shown - 1); });
  document.getElementById("next").addEventListener("click", function () { go(shown + 1); });
  document.getElementById("last").addEventListener("click", function () { go(D.games[gi].plies.length); });
  document.addEventListener("keydown", function (e) {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[e.key] && e.target !== select) {
      document.getElementById(keys[e.key]).click();
      e.preventDefault();
    }
  });
  function fromFragment() {
    const q = new URLSearchParams(location.hash.slice(1));
    const n = Number(q.get("g"));
    const i = D.games.findIndex(function (g) { return g.n === n; });
    pick(i >= 0 ? i : 0);
    go(q.has("m") ? Number(q.get("m")) : D.games[gi].plies.length);
    (q.get("press") || "").split(",").filter(Boolean).forEach(function (k) {
      const b = document.getElementById(k);
      if (b && b.tagName === "BUTTON") b.click();
      else document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    });
  }
  window.addEventListener("hashchange", fromFragment);
  fromFragment();
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Outcome, Ply, Reason, SideReport};

    #[test]
    fn engine_text_cannot_break_out_of_the_page() {
        let text = "[tournament]\ntimeout_turn_ms = 1\n\
                    [[engine]]\nname = \"<b>x</script><!--\"\ncommand = \"sh\"\n\
                    [[engine]]\nname = \"y & 'z'\"\ncommand = \"sh\"\n";
        let config =
            Config::from_toml(text, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e}"));
        let names = config.engine_names();
        let record = GameRecord {
            game: 1,
            black: names[0].clone(),
            white: names[1].clone(),
            opening: 0,
            opening_line: 0,
            outcome: Outcome::Draw,
            reason: Reason::MoveLimit,
            detail: "</script>".into(),
            moves: 1,
            black_report: SideReport::default(),
            white_report: SideReport::default(),
            psq: "games/0001.psq".into(),
            plies: vec![Ply {
                x: 1,
                y: 2,
                ms: 3,
                msg: vec!["</script><script>alert(1)</script>".into()],
            }],
            opening_stones: 0,
        };
        let records = [record];
        let page = report(
            &Conditions::of_config(&config),
            &records,
            &Summary::new(&names, &records),
            None,
        );
        // Only the page's own two script elements close.
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(!page.contains("<b>x"));
        assert!(page.contains("&lt;b&gt;x&lt;/script&gt;&lt;!--"));
        assert!(page.contains("y &amp; &#39;z&#39;"));
        // The JSON still carries the exact text.
        let tag = "id=\"data\">";
        let start = page.find(tag).map(|i| i + tag.len()).unwrap_or(0);
        let end = start + page[start..].find("</script>").unwrap_or(0);
        let data: serde_json::Value =
            serde_json::from_str(&page[start..end]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(data["games"][0]["black"], "<b>x</script><!--");
        assert_eq!(
            data["games"][0]["plies"][0][3][0],
            "</script><script>alert(1)</script>"
        );
    }

    #[test]
    fn messages_are_embedded_for_the_first_games_only() {
        let text = "[tournament]\ntimeout_turn_ms = 1\n\
                    [[engine]]\nname = \"a\"\ncommand = \"sh\"\n\
                    [[engine]]\nname = \"b\"\ncommand = \"sh\"\n";
        let config =
            Config::from_toml(text, &std::env::temp_dir()).unwrap_or_else(|e| panic!("{e}"));
        let names = ["a".to_string(), "b".to_string()];
        let records: Vec<GameRecord> = (1..=MESSAGE_GAMES + 1)
            .map(|game| GameRecord {
                game,
                black: "a".into(),
                white: "b".into(),
                opening: 0,
                opening_line: 0,
                outcome: Outcome::BlackWins,
                reason: Reason::Five,
                detail: String::new(),
                moves: 1,
                black_report: SideReport::default(),
                white_report: SideReport::default(),
                psq: String::new(),
                plies: vec![Ply {
                    x: 0,
                    y: 0,
                    ms: 7,
                    msg: vec!["depth 3".into()],
                }],
                opening_stones: 0,
            })
            .collect();
        let page = report(
            &Conditions::of_config(&config),
            &records,
            &Summary::new(&names, &records),
            None,
        );
        assert_eq!(page.matches("[0,0,7,[\"depth 3\"]]").count(), MESSAGE_GAMES);
        assert_eq!(page.matches("[0,0,7,[]]").count(), 1);
        assert!(page.contains(&format!("for the first {MESSAGE_GAMES} games only")));
    }
}
