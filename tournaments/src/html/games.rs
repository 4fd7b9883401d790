//! The per-game parts of the page: the TT hit-rate chart, the games table and the replay
//! (its JSON data block and `replay.js`).

use super::{escape, MESSAGE_GAMES, PALETTE};
use crate::board::Side;
use crate::record::GameRecord;
use crate::report::{short_count, Summary};
use crate::sgf;
use serde_json::json;
use std::fmt::Write;

/// The replay's script (`replay.js`, inlined).
const SCRIPT: &str = include_str!("replay.js");

/// One line per engine through its per-game hit rates (the last `MESSAGE tt` line of each
/// game), game number on the x axis.
pub(super) fn tt_chart(page: &mut String, sm: &Summary, records: &[GameRecord]) {
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

pub(super) fn replay(page: &mut String, board_size: usize, records: &[GameRecord]) {
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
        "<script type=\"application/json\" id=\"data\">{text}</script>\n<script>\n{SCRIPT}</script>"
    );
}

fn tt_of(r: &GameRecord, side: Side) -> Option<f64> {
    r.side(side).tt.as_ref().map(|t| t.hit_rate)
}
