//! The replay page of a recorded match (`trace --format html`, `play --log … --format html`,
//! the pages beside an arena's logs): the match read as `trace` reads it, each step drawn as
//! it is read.

use std::path::Path;

use shinpan::harness::log::{read_match, MatchLog};
use shinpan::harness::replay::replay_played;
use shinpan::harness::trace::clauses::ClauseIndex;
use shinpan::harness::trace::{trace_seen, Seen, TraceConfig, TraceReport};
use shinpan::report::html::replay::{replay_page, ReplayBuilder, ReplayPage};
use shinpan::seam::{DynGame, MatchOptions};

use super::Usage;

/// What a replay page says of where the match came from.
pub struct Origin<'a> {
    pub title: &'a str,
    pub facts: Vec<(&'a str, String)>,
    /// Whether the departures a trace finds are shown (`trace`); a replay of shinpan's own
    /// match has none to show.
    pub departures: bool,
}

/// The match `read` traced as `config` says, and its replay page.
pub fn traced_page(
    game: &dyn DynGame,
    read: &MatchLog,
    index: &ClauseIndex,
    config: &TraceConfig,
    origin: Origin<'_>,
) -> (TraceReport, String) {
    let mut builder = ReplayBuilder::new(game);
    let mut see = |seen: Seen<'_>| builder.see(seen);
    let report = trace_seen(game, &read.players, index, config, Some(&mut see));
    let replay = builder.finish();
    let mut facts = origin.facts;
    facts.push(("steps", report.steps.to_string()));
    if let Some(why) = &report.stopped {
        facts.push(("stopped", why.clone()));
    }
    let departures = if origin.departures {
        &report.departures[..]
    } else {
        &[]
    };
    let page = replay_page(
        &ReplayPage {
            title: origin.title,
            facts: &facts,
            outcome: &outcome(&report, read),
            departures,
        },
        &replay,
    );
    (report, page)
}

/// The end of the match as people read it: what the log records, and what the rules give.
fn outcome(report: &TraceReport, read: &MatchLog) -> String {
    let text = |v: &serde_json::Value| v.to_string();
    match (&report.outcome, &read.outcome) {
        (Some(check), _) => match (&check.log, &check.rules) {
            (Some(log), Some(rules)) if check.agrees == Some(true) => {
                format!("{} (the log and the rules agree)", text(log))
            }
            (Some(log), rules) => format!(
                "the log: {}; the rules: {}",
                text(log),
                rules.as_ref().map_or("the match goes on".into(), text)
            ),
            (None, Some(rules)) => format!("{} (by the rules)", text(rules)),
            (None, None) => "the match goes on".into(),
        },
        (None, Some(log)) => format!("{} (the log)", text(log)),
        (None, None) => "not in the log: it ends before the match does".into(),
    }
}

/// The replay page of match `index` of the `play` log at `path` (`play --format html`, an
/// arena's failure): the match made again by the reference engine from the log's seed, every
/// state whole; a log that names no seed is read as a trace reads it.
pub fn page_of_log(game: &dyn DynGame, path: &Path, index: Option<u64>) -> Result<String, Usage> {
    let read = read_match(&[path.to_path_buf()], index).map_err(|e| Usage(e.to_string()))?;
    let title = format!("shinpan replay: {}", game.info().id);
    let mut facts = vec![
        ("game", game.info().id.to_string()),
        ("log", path.display().to_string()),
        ("match", read.read.unwrap_or(0).to_string()),
    ];
    if read.start.seed.is_none() {
        let config = TraceConfig {
            options: read.start.options.clone().map(MatchOptions),
            options_from: "from the log's start record".into(),
            outcome: read.outcome.clone(),
            log_cut: !read.incomplete.is_empty(),
            ..TraceConfig::default()
        };
        let origin = Origin {
            title: &title,
            facts,
            departures: false,
        };
        // A replay names no departure: no clause is looked up.
        return Ok(traced_page(game, &read, &ClauseIndex::default(), &config, origin).1);
    }
    let mut builder = ReplayBuilder::new(game);
    let played = replay_played(game, &read, &mut |seen| builder.see(seen));
    let replay = builder.finish();
    facts.push(("seed", read.start.seed.unwrap_or_default().to_string()));
    facts.push(("steps", replay.steps().saturating_sub(1).to_string()));
    if let Err(why) = played {
        facts.push(("stopped", why));
    }
    for why in &read.incomplete {
        facts.push(("incomplete", why.clone()));
    }
    let outcome = match &read.outcome {
        Some(outcome) => outcome.to_string(),
        None => "not in the log: it ends before the match does".into(),
    };
    let page = ReplayPage {
        title: &title,
        facts: &facts,
        outcome: &outcome,
        departures: &[],
    };
    Ok(replay_page(&page, &replay))
}
