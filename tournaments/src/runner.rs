//! The tournament loop: schedule, worker threads, and the single writer of every output file.
//!
//! Workers only play games; the calling thread writes the PSQ, appends the result line (with
//! fsync) and prints, in the order games finish. So the output folder always holds exactly
//! the games in `results.jsonl`, plus at most the PSQs of games finished a moment before a kill.

use crate::config::Config;
use crate::console;
use crate::fingerprint::{Fingerprint, Header};
use crate::game::{self, Played, Setup};
use crate::journal::{self, Journal};
use crate::psq::Psq;
use crate::record::{GameRecord, Ply};
use crate::report::{self, Summary};
use crate::schedule::{self, Pairing};
use crate::shard::Shard;
use crate::{html, outdir, sprt};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Output folder.
    pub out: PathBuf,
    /// Continue from `results.jsonl` instead of starting over.
    pub resume: bool,
    /// Start over even when `results.jsonl` already holds finished games (they are deleted).
    /// Without it (and without `resume`) such a folder is refused, so a command typed
    /// again without `--resume` cannot wipe a long run.
    pub overwrite: bool,
    /// Force gauntlet pairing (the config can also ask for it).
    pub gauntlet: bool,
    /// Print per-game lines and the summary on stdout.
    pub verbose: bool,
    /// How often the reports are rewritten while games are played (`REPORT_EVERY` by
    /// default; zero: after every game). They are always written at the end.
    pub report_every: Duration,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct Finished {
    /// Every record of the schedule, resumed and new, in game order.
    pub records: Vec<GameRecord>,
    /// Games in the schedule.
    pub total: usize,
    /// Totals over `records`.
    pub summary: Summary,
    /// The summary text, as written to `summary.md`.
    pub markdown: String,
    /// The SPRT's state, when the config has `[sprt]`.
    pub sprt: Option<sprt::Tracker>,
}

/// Where results go when `--out` is not given: `results/<config stem>` next to the config.
pub fn default_out(config: &Path) -> PathBuf {
    let stem = config
        .file_stem()
        .map_or_else(|| "tournament".into(), |s| s.to_string_lossy().into_owned());
    config
        .parent()
        .unwrap_or(Path::new("."))
        .join("results")
        .join(stem)
}

/// Plays every scheduled game not yet in `results.jsonl` and writes the summary.
pub fn run(config: &Config, opts: &Options) -> Result<Finished, String> {
    run_shard(config, opts, None)
}

/// [`run`] restricted to one shard of the schedule (`None`: all of it).
pub fn run_shard(
    config: &Config,
    opts: &Options,
    shard: Option<Shard>,
) -> Result<Finished, String> {
    let s = &config.settings;
    let gauntlet = opts.gauntlet || s.gauntlet;
    let schedule = match &config.sprt {
        Some(sp) => sprt::schedule(config.openings.len(), sp.max_games),
        None => schedule::build(
            config.engines.len(),
            config.openings.len(),
            s.games_per_pair,
            gauntlet,
        ),
    };
    let journal_header = Header::new(Fingerprint::of(config, gauntlet), shard);
    let schedule = match shard {
        Some(sh) => sh.slice(schedule),
        None => schedule,
    };
    let total = schedule.len();
    let out = &opts.out;
    let games_dir = out.join("games");
    let log_dir = out.join("logs");
    for d in [out, &games_dir, &log_dir] {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let results = out.join("results.jsonl");
    outdir::clear_temporaries(out)?;

    let (mut journal, mut records) = if opts.resume {
        let (mut j, recs, recovery) = Journal::resume(&results)?;
        match &recovery.header {
            Some(h) => h.check_resume(&journal_header)?,
            None if recs.is_empty() => j.write_header(&journal_header)?,
            None => {
                return Err(format!(
                    "{} has no configuration fingerprint (written by an older runner), so it \
                     cannot be checked against this config; start over with --overwrite",
                    results.display()
                ))
            }
        }
        if opts.verbose && recovery.torn_bytes > 0 {
            console::line(&format!(
                "resume: cut a torn last line of {} bytes from {}",
                recovery.torn_bytes,
                results.display()
            ));
        }
        if opts.verbose && !recovery.bad_lines.is_empty() {
            console::line(&format!(
                "resume: ignored unreadable lines {:?}",
                recovery.bad_lines
            ));
        }
        for r in &recs {
            check_matches(r, &schedule, config)?;
        }
        (j, recs)
    } else {
        if !opts.overwrite {
            refuse_finished_games(&results)?;
        }
        // A fresh run must not leave games or logs of an earlier run beside its own.
        outdir::clear(&games_dir, "psq")?;
        outdir::clear(&games_dir, "sgf")?;
        outdir::clear(&log_dir, "log")?;
        let mut j = Journal::create(&results)?;
        j.write_header(&journal_header)?;
        (j, Vec::new())
    };

    // An SPRT replays the journal in its order, so a resumed test reaches the same decision.
    let name = |i: usize| config.engines.get(i).map_or("", |e| e.name.as_str());
    let mut tracker = config
        .sprt
        .map(|sp| sprt::Tracker::new(sp, name(0), name(1), config.openings.len()));
    if let Some(t) = tracker.as_mut() {
        for r in &records {
            t.add(r);
        }
    }
    let decided = tracker.as_ref().is_some_and(|t| t.decision.is_some());
    let pending: VecDeque<Pairing> = schedule
        .iter()
        .filter(|p| !decided && !records.iter().any(|r| r.game == p.game))
        .copied()
        .collect();
    if opts.verbose {
        console::line(&format!(
            "{} games{}: {} engines, {} openings, {} per pair and opening{}; {} to play, results in {}",
            total,
            shard.map_or(String::new(), |sh| format!(" (shard {}/{})", sh.index, sh.count)),
            config.engines.len(),
            config.openings.len(),
            s.games_per_pair,
            if gauntlet { ", gauntlet" } else { "" },
            pending.len(),
            out.display()
        ));
        if let Some(pairs) = repeated_openings(config) {
            console::line(&format!(
                "note: up to {pairs} pairs over {} openings: the pairs of a repeated opening are \
                 not independent, so the LLR overstates the evidence once openings repeat \
                 (`wuzi-tune openings` writes a larger file)",
                config.openings.len()
            ));
        }
    }

    let bar = progress(total as u64, opts.verbose);
    bar.set_position(records.len() as u64);
    let workers = s.concurrency.min(pending.len()).max(1);
    let queue = Mutex::new(pending);
    let (tx, rx) = mpsc::channel::<(Pairing, Played)>();
    let mut failure: Option<String> = None;
    let mut last_report = Instant::now();
    thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let queue = &queue;
            let log_dir = &log_dir;
            scope.spawn(move || loop {
                let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some(p) = next else {
                    return;
                };
                let played = game::play(Setup {
                    settings: &config.settings,
                    black: &config.engines[p.black],
                    white: &config.engines[p.white],
                    opening: &config.openings[p.opening].stones,
                    log_dir,
                    game: p.game,
                });
                if tx.send((p, played)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for (p, played) in rx {
            let record = make_record(config, &p, &played);
            let result = write_psq(&games_dir, &record.psq, config, &p, &played)
                .and_then(|()| {
                    let s = &config.settings;
                    outdir::write_sgf(&games_dir, &record, s.board_size, s.rule_bits)
                })
                .and_then(|()| journal.append(&record));
            if let Err(e) = result {
                failure = Some(e);
                // Stop handing out games; the ones in flight finish and are dropped.
                if let Ok(mut q) = queue.lock() {
                    q.clear();
                }
                continue;
            }
            if opts.verbose {
                show(&bar, report::game_line(&record, total));
            }
            bar.inc(1);
            if let Some(t) = tracker.as_mut() {
                match t.add(&record) {
                    Some(line) if opts.verbose => show(&bar, line),
                    _ => {}
                }
                if t.decision.is_some() {
                    // Decided: the games in flight finish and are journalled, no new ones start.
                    if let Ok(mut q) = queue.lock() {
                        q.clear();
                    }
                }
            }
            records.push(record);
            if last_report.elapsed() >= opts.report_every {
                // The reports as they stand, so a long run can be followed; a failure here
                // only delays them (the journal has the game), so the run goes on.
                let mut sorted = records.clone();
                sorted.sort_by_key(|r| r.game);
                if let Err(e) =
                    write_reports(config, out, &sorted, total, gauntlet, tracker.as_ref())
                {
                    if opts.verbose {
                        show(
                            &bar,
                            format!("warning: the reports were not refreshed: {e}"),
                        );
                    }
                }
                last_report = Instant::now();
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }

    records.sort_by_key(|r| r.game);
    let (summary, markdown) =
        write_reports(config, out, &records, total, gauntlet, tracker.as_ref())?;
    if opts.verbose {
        console::line(&format!("\n{markdown}"));
        console::line(&format!("results: {}", out.display()));
    }
    Ok(Finished {
        records,
        total,
        summary,
        markdown,
        sprt: tracker,
    })
}

/// A fresh run would delete the finished games of `results` (if it exists): refuse, and say
/// how to go on. A file with no finished game (only a header, or torn) is no loss.
fn refuse_finished_games(results: &Path) -> Result<(), String> {
    let (records, _) = journal::existing(results)?;
    if records.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} already holds {} finished game{}: run with --resume to continue them, or \
         --overwrite to start over and delete them (or choose another --out folder)",
        results.display(),
        records.len(),
        if records.len() == 1 { "" } else { "s" }
    ))
}

/// Print `line` above the progress bar, or on stdout through `console` (which ends the run
/// quietly when stdout is closed) when the bar is hidden.
fn show(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        console::line(&line);
    } else {
        bar.println(line);
    }
}

fn progress(total: u64, visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  elapsed {elapsed}  eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

/// A resumed record must describe the same game as this schedule, or the results folder
/// belongs to another config and mixing them would corrupt the table.
fn check_matches(r: &GameRecord, schedule: &[Pairing], config: &Config) -> Result<(), String> {
    let same = schedule.iter().any(|p| {
        p.game == r.game
            && p.opening == r.opening
            && config.engines[p.black].name == r.black
            && config.engines[p.white].name == r.white
    });
    if same {
        Ok(())
    } else {
        Err(format!(
            "results.jsonl game {} ({} vs {}, opening {}) does not match this config's schedule; \
             use another --out folder or start over with --overwrite",
            r.game, r.black, r.white, r.opening
        ))
    }
}

fn make_record(config: &Config, p: &Pairing, played: &Played) -> GameRecord {
    GameRecord {
        game: p.game,
        black: config.engines[p.black].name.clone(),
        white: config.engines[p.white].name.clone(),
        opening: p.opening,
        opening_line: config.openings[p.opening].line,
        outcome: played.outcome,
        reason: played.reason,
        detail: played.detail.clone(),
        moves: played.moves.len(),
        black_report: played.black.clone(),
        white_report: played.white.clone(),
        psq: format!("games/{:04}.psq", p.game),
        plies: played
            .moves
            .iter()
            .zip(played.messages.iter().chain(std::iter::repeat(&Vec::new())))
            .map(|(&(x, y, ms), msg)| Ply {
                x,
                y,
                ms,
                msg: msg.clone(),
            })
            .collect(),
        opening_stones: config.openings[p.opening].stones.len(),
    }
}

/// How often a run rewrites `summary.md`, `games.sgf` and `report.html` while it plays (and
/// once more at its end), so that a long tournament's standings can be read as it goes
/// (`Options::report_every`'s default).
pub const REPORT_EVERY: Duration = Duration::from_secs(30);

/// `summary.md` and the extras (`write_extras`) for the games in `records` (in game order)
/// of a schedule of `total`; returns the summary and its text.
fn write_reports(
    config: &Config,
    out: &Path,
    records: &[GameRecord],
    total: usize,
    gauntlet: bool,
    tracker: Option<&sprt::Tracker>,
) -> Result<(Summary, String), String> {
    let mut summary = Summary::new(&config.engine_names(), records);
    summary.renju = config.settings.rule.renju;
    summary.odds = config.engine_odds();
    let mut markdown = summary.markdown(&header(config, gauntlet), total);
    if let Some(t) = tracker {
        markdown.push_str(&t.markdown());
    }
    outdir::write_whole(&out.join(outdir::SUMMARY), markdown.as_bytes())?;
    let mut conditions = html::Conditions::of_config(config);
    conditions.total = Some(total);
    outdir::write_extras(out, &conditions, records, &summary, tracker)?;
    Ok((summary, markdown))
}

fn write_psq(
    dir: &Path,
    rel: &str,
    config: &Config,
    p: &Pairing,
    played: &Played,
) -> Result<(), String> {
    let psq = Psq::from_game(
        config.settings.board_size,
        &played.moves,
        &config.engines[p.black].name,
        &config.engines[p.white].name,
        played.reason,
    );
    let name = Path::new(rel).file_name().unwrap_or_default();
    let path = dir.join(name);
    std::fs::write(&path, psq.to_text())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn header(config: &Config, gauntlet: bool) -> Vec<String> {
    let s = &config.settings;
    let engines: Vec<String> = config
        .engines
        .iter()
        .map(|e| {
            let mut cmd = e.command.display().to_string();
            for a in &e.args {
                cmd.push(' ');
                cmd.push_str(a);
            }
            match e.odds() {
                Some(odds) => format!("`{}` = `{cmd}` (time odds: {odds})", e.name),
                None => format!("`{}` = `{cmd}`", e.name),
            }
        })
        .collect();
    vec![
        format!("config: `{}`", config.path.display()),
        format!(
            "board {}x{}, rule {}, {} ms per move, game clock {}, tolerance {} ms, draw at {} stones",
            s.board_size,
            s.board_size,
            s.rule_bits,
            s.timeout_turn_ms,
            s.game_clock(),
            s.tolerance_ms,
            s.draw_after_moves
        ),
        format!(
            "{} openings, {} games per pair and opening, {}",
            config.openings.len(),
            s.games_per_pair,
            if config.sprt.is_some() {
                "SPRT (one pair per opening, openings cycled)"
            } else if gauntlet {
                "gauntlet"
            } else {
                "round robin"
            }
        ),
        format!("engines: {}", engines.join(", ")),
    ]
}

/// Under `[sprt]`, the most pairs the test may play when that is more than the openings (so
/// openings would repeat): `None` otherwise.
fn repeated_openings(config: &Config) -> Option<usize> {
    let pairs = config.sprt.as_ref()?.max_games / 2;
    (pairs > config.openings.len()).then_some(pairs)
}
