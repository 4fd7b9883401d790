//! Whether a run's results can be trusted at all: an engine that never got to play makes
//! every standing meaningless, so the command exits non-zero (the games stay recorded).

use crate::record::{GameRecord, Outcome, Reason};

/// Engines (of `names`) that took part in games but started in none of them: every game
/// they were in ended with their own start failure (or both engines').
pub fn never_started(names: &[String], records: &[GameRecord]) -> Vec<String> {
    names
        .iter()
        .filter(|name| {
            let mut games = records
                .iter()
                .filter_map(|r| r.side_of(name).map(|side| (r, side)))
                .peekable();
            games.peek().is_some()
                && games.all(|(r, side)| {
                    r.reason == Reason::StartFailed
                        && (r.outcome == Outcome::Draw
                            || r.outcome == Outcome::win_for(side.other()))
                })
        })
        .cloned()
        .collect()
}

/// The error for [`never_started`] engines, `None` when there are none.
pub fn start_error(names: &[String], records: &[GameRecord]) -> Option<String> {
    let bad = never_started(names, records);
    (!bad.is_empty()).then(|| {
        format!(
            "engine(s) {} never started: every game they were in ended \"start failed\" \
             (see the logs/ folder and each record's detail); the standings are meaningless",
            bad.join(", ")
        )
    })
}
